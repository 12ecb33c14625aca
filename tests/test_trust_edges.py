"""Issue 18, part 7: small trust edges.  Every error is one line of at most 300
characters, click's usage errors included; an unknown rule setting names the
nearest one and points at ``cpscore rules show``; ``arrange --top`` and
``--simulate`` have stated bounds.

Each case gives the command's arguments (``{file}`` stands for the rule
file the case writes) and its exact error line; every case also checks the
promises of an error: exit code 2, nothing on stdout, one ``Error:`` line of
at most 300 characters."""

import pytest
from test_cli import AMY, BOB, run

from cpscore.errors import MAX_LINE

HAND = "Ah Ad Ac 7s 7d Ks Kd 4c 9h 9c 5d 5s 2c"
LONG = "x" * 500
CUT = "x" * 36 + "..."  # a long argument as an error repeats it

#: (arguments, the rule file's text or None, the exact error line)
CASES = {
    "long-unknown-option": (
        ["score", f"--{LONG}", AMY, BOB],
        None,
        f"Error: No such option '--{'x' * 34}...'. (see 'main score -h')",
    ),
    "long-unknown-option-with-value": (
        ["score", f"--{LONG}=3", AMY, BOB],
        None,
        f"Error: No such option '--{'x' * 34}...'. (see 'main score -h')",
    ),
    "long-bad-value": (
        ["score", "--format", LONG, AMY, BOB],
        None,
        f"Error: Invalid value for '--format': '{CUT}' is not one of 'table', 'json', 'csv'. (see 'main score -h')",
    ),
    "long-bad-value-after-equals": (
        ["score", f"--format={LONG}", AMY, BOB],
        None,
        f"Error: Invalid value for '--format': '{CUT}' is not one of 'table', 'json', 'csv'. (see 'main score -h')",
    ),
    "long-bad-integer": (
        ["arrange", "--top", LONG, *HAND.split()],
        None,
        f"Error: Invalid value for '--top': '{CUT}' is not a valid integer. (see 'main arrange -h')",
    ),
    "long-unknown-command": (
        [LONG],
        None,
        f"Error: No such command '{CUT}'. (see 'main -h')",
    ),
    "misspelt-style": (
        ["score", "--style", "grdi", AMY, BOB],
        None,
        "Error: Invalid value for '--style': 'grdi' is not a table style (did you mean 'grid'?): choose one of"
        " tabulate's 37 formats, such as simple, grid, github, rounded_outline, plain (see 'main score -h')",
    ),
    "unknown-setting": (
        ["score", "--rules", "{file}", AMY, BOB],
        'preset = "ofc"\ncapp = 30\n',
        "Error: {file}: capp: unknown setting; did you mean 'cap'? ('cpscore rules show ofc' prints every setting)",
    ),
    "unknown-setting-rules-show": (
        ["rules", "show", "{file}"],
        'preset = "pusoy"\nbanker_rotaton = "winner"\n',
        "Error: {file}: banker_rotaton: unknown setting; did you mean 'banker_rotation'?"
        " ('cpscore rules show pusoy' prints every setting)",
    ),
    "unknown-setting-nothing-near": (
        ["check", "--rules", "{file}", "Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d"],
        'preset = "2-4"\ncolour = "red"\n',
        "Error: {file}: colour: unknown setting ('cpscore rules show 2-4' prints every setting)",
    ),
    "unknown-setting-unknown-preset": (
        ["score", "--rules", "{file}", AMY, BOB],
        'preset = "0fc"\ncapp = 30\n',
        "Error: {file}: capp: unknown setting; did you mean 'cap'? ('cpscore rules show NAME' prints every setting)",
    ),
    "unknown-setting-in-a-table": (
        ["score", "--rules", "{file}", AMY, BOB],
        'preset = "ofc"\n[royalties]\nmod = "holder"\n',
        "Error: {file}: royalties.mod: unknown setting; did you mean 'mode'?"
        " ('cpscore rules show ofc' prints every setting)",
    ),
    "unknown-natural": (
        ["score", "--rules", "{file}", AMY, BOB],
        'preset = "taiwanese"\n[naturals]\ndragn = 13\n',
        "Error: {file}: naturals.dragn: unknown setting; did you mean 'dragon'?"
        " ('cpscore rules show taiwanese' prints every setting)",
    ),
    "unknown-natural-in-natural-rank": (
        ["score", "--rules", "{file}", AMY, BOB],
        'preset = "maubinh"\nnatural_rank = ["six-pair"]\n',
        "Error: {file}: natural_rank: unknown natural 'six-pair'; did you mean 'six-pairs'?"
        " ('cpscore rules show maubinh' prints every setting)",
    ),
    "unknown-royalty-entry": (
        ["score", "--rules", "{file}", AMY, BOB],
        'preset = "ofc"\n[royalties.back]\nquad = 10\n',
        "Error: {file}: royalties.back.quad: unknown setting; did you mean 'quads'?"
        " (docs/rules.md 6 lists a royalty table's keys)",
    ),
    "long-unknown-setting": (
        ["score", "--rules", "{file}", AMY, BOB],
        f'preset = "ofc"\n{"y" * 500} = 1\n',
        f"Error: {{file}}: '{'y' * 35}...': unknown setting ('cpscore rules show ofc' prints every setting)",
    ),
    "top-over-the-bound": (
        ["arrange", "--top", "21", *HAND.split()],
        None,
        "Error: Invalid value for '--top': 21 is not a number from 1 to 20: the arranger shows at most the 20 best,"
        " the ones --simulate ranks again (see 'main arrange -h')",
    ),
    "top-and-simulate-as-fuzzed": (
        ["arrange", "--top", "100000", "--simulate", "5", *HAND.split()],
        None,
        "Error: Invalid value for '--top': 100000 is not a number from 1 to 20: the arranger shows at most the 20"
        " best, the ones --simulate ranks again (see 'main arrange -h')",
    ),
    "simulate-over-the-bound": (
        ["arrange", "--simulate", "501", *HAND.split()],
        None,
        "Error: Invalid value for '--simulate': 501 is not a number from 1 to 500: 500 rounds settle 10,000 deals,"
        " a few seconds at most (see 'main arrange -h')",
    ),
    "simulate-huge": (
        ["arrange", "--simulate", "9" * 60],  # refused before the cards are read (without them: no endless run)
        None,
        "Error: Invalid value for '--simulate': 99999999999999999999... is not a number from 1 to 500: 500 rounds"
        " settle 10,000 deals, a few seconds at most (see 'main arrange -h')",
    ),
}


@pytest.mark.parametrize(("args", "rule_file", "line"), list(CASES.values()), ids=list(CASES))
def test_one_bounded_error_line(tmp_path, args, rule_file, line):
    path = tmp_path / "house.toml"
    if rule_file is not None:
        path.write_text(rule_file, encoding="utf-8")
    result = run(*[arg.replace("{file}", str(path)) for arg in args])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == line.replace("{file}", str(path)) + "\n"
    assert len(result.stderr) - 1 <= MAX_LINE


#: Errors too long for any one exact line: whatever their length, one line of at most 300 characters.
LONG_CASES = {
    "many-extra-arguments": (["rules", "show", "ofc", *map(str, range(500))], "Error: Got unexpected extra arguments"),
    "long-rule-file-name": (["score", "--rules", f"{LONG}.toml", AMY, BOB], "Error: xxxxxxxx"),
    "long-option-among-many": (["score", *[f"--{LONG}{i}" for i in range(50)], AMY, BOB], "Error: No such option"),
}


@pytest.mark.parametrize(("args", "start"), list(LONG_CASES.values()), ids=list(LONG_CASES))
def test_a_long_error_keeps_its_start_within_the_bound(args, start):
    result = run(*args)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith(start)
    assert result.stderr.count("\n") == 1
    assert len(result.stderr) - 1 <= MAX_LINE


@pytest.mark.parametrize(
    ("option", "bound"),
    [("--top N", "How many settings to show, 1 to 20"), ("--simulate N", "N from 1 to 500")],
    ids=["top", "simulate"],
)
def test_arrange_help_states_the_bounds(option, bound):
    result = run("arrange", "--help")
    assert result.exit_code == 0
    text = " ".join(result.stdout.split())  # as if on one line, whatever the terminal's width
    assert option in text
    assert bound in text


@pytest.mark.parametrize(
    "args",
    [["--top", "20"], ["--top", "1", "--simulate", "500"]],
    ids=["top", "simulate"],
)
def test_the_bound_is_allowed_and_one_more_is_refused(args):
    allowed = run("arrange", "--format", "json", *args, *HAND.split())
    assert allowed.exit_code == 0, allowed.stderr
    assert allowed.stdout.count('"hand"') == int(args[1])
    over = run("arrange", "--format", "json", *args[:-1], str(int(args[-1]) + 1), *HAND.split())
    assert over.exit_code == 2
    assert over.stdout == ""
    assert over.stderr.count("\n") == 1
