"""A night at the table (issue 11): stakes that change between deals."""

import json

import pytest
from click.testing import CliRunner

from cpscore.cli import main

AMY = "Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d"
BOB = "Qs Jd 3c / Th Tc 8d 8s 3d / Kh Qh Jh 8h 2h"
CY = "As 6d 2s / 6c 6h 4d 4s 3s / Js Ts 9s 8c 7c"
# Under 2-4: Amy +2 from Bob; Amy +4 from Cy (a scoop); Bob +2 from Cy.
NIGHT = f"""@rules 2-4
@stake 10

Amy: {AMY}
Bob: {BOB}

@stake 20
@pair-stake Amy:Bob=50

Amy: {AMY}
Bob: {BOB}
Cy: {CY}
"""


def cli(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input)


def test_a_stake_line_between_deals_sets_the_stake_from_the_next_deal():
    # Deal 1 at 10: Amy +20.  Deal 2 at 20, Amy:Bob at 50: Amy +2 x 50 + 4 x 20 = 180,
    # Bob -100 + 2 x 20 = -60, Cy -80 - 40 = -120.  Totals: Amy +200, Bob -80, Cy -120.
    result = cli("session", "-", input=NIGHT)
    assert result.exit_code == 0, result.output
    # The title names every stake of the night; each deal's line has its units and its own money.
    assert result.stdout.startswith(
        "Session stdin: rules 2-4\nStakes: 10 a unit; 20 a unit from deal 2; Amy:Bob 50 from deal 2\n"
        "Each deal: units on the first line, money on the second, so far in brackets.\n"
    )
    assert (
        "Deal  Line  Id        Amy          Bob          Cy\n"
        "   2    10  43bfbafd  +6 (+8)      0 (-2)       -6 (-6)\n"
        "                      +180 (+200)  -60 (-80)    -120 (-120)\n"
        "                      stake 20 from here; Amy:Bob stake 50 from here\n"
    ) in result.stdout
    assert "Amy            +8     +200\nBob            -2      -80\nCy             -6     -120\n" in result.stdout
    deals = [json.loads(line) for line in cli("session", "--format", "jsonl", "-", input=NIGHT).stdout.splitlines()]
    assert [deal.get("stake") for deal in deals[:2]] == [10, 20]
    assert [pair["stake"] for pair in deals[1]["pairs"]] == [50, 20, 20]
    assert {row["name"]: row["amount"] for row in deals[2]["totals"]} == {"Amy": 200, "Bob": -80, "Cy": -120}


def test_the_command_line_stake_replaces_the_files_and_says_so():
    result = cli("session", "--stake", "1", "--totals", "-", input=NIGHT)
    assert result.exit_code == 0
    assert "Amy            +8     +106\n" in result.stdout  # 2 + 2 x 50 (the pair line still counts) + 4
    assert result.stderr == "Warning: --stake replaces the session's stakes: stdin, line 7: @stake is not used\n"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (NIGHT + "\n@stake 5\n", "Error: stdin, line 14: @stake 5 has no deal after it: a stake line sets the stake"),
        (NIGHT.replace("@stake 20", "@stake -20"), "Error: stdin, line 7: @stake '-20' is negative"),
        (NIGHT.replace("@stake 20", "@stake"), "Error: stdin, line 7: @stake needs a value"),
        (NIGHT.replace("@stake 20", "@rules ofc"), "Error: stdin, line 7: @rules goes at the top of the session"),
        (NIGHT.replace("@stake 20", "@bogus 1"), "Error: stdin, line 7: unknown line '@bogus 1' between deals"),
        (NIGHT.replace("Amy:Bob=50", "Amy:Bob=x"), "Error: stdin, line 8: @pair-stake stake for Amy:Bob 'x' is not"),
        (NIGHT.replace("Amy:Bob=50", "Amy:Zed=50"), "Error: stdin, line 8: @pair-stake names 'Zed', who does not"),
        (
            NIGHT.replace(f"Bob: {BOB}\n\n@stake 20", f"Bob: {BOB}\n@stake 20"),
            "Error: stdin, line 6: a stake line goes between two deals, after a blank line, not inside a deal",
        ),
    ],
    ids=["trailing", "negative", "empty", "rules", "unknown", "pair-amount", "pair-stranger", "inside-a-deal"],
)
def test_stake_line_errors(text, message):
    result = cli("session", "--totals", "-", input=text)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith(message), result.stderr


def test_several_files_are_one_night(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the files' names as given: short (a long path wraps the Stakes line)
    first = tmp_path / "a.txt"
    first.write_text(f"@rules 2-4\n@stake 10\n\nAmy: {AMY}\nBob: {BOB}\n")
    second = tmp_path / "b.txt"
    second.write_text(f"@stake 30\n\nAmy: {AMY}\nBob: {BOB}\nCy: {CY}\n")
    # a.txt at 10: Amy +20; b.txt at 30 (its header changes the stake): Amy +2 x 30 + 4 x 30.
    result = cli("session", "a.txt", "b.txt")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.startswith("Session a.txt, b.txt: rules 2-4\nStakes: 10 a unit; 30 a unit from b.txt deal 1\n")
    assert "\n\na.txt:\nDeal  Line  Id        Amy          Bob          Notes\n" in out
    assert "\nb.txt:\nDeal  Line  Id        Amy          Bob          Cy\n" in out
    assert (
        "   1     3  43bfbafd  +6 (+8)      0 (-2)       -6 (-6)\n"
        "                      +180 (+200)  0 (-20)      -180 (-180)\n"
        "                      stake 30 from here\n"
    ) in out
    assert "Amy            +8     +200\nBob            -2      -20\nCy             -6     -180\n" in out
    lines = [
        json.loads(line) for line in cli("session", "--format", "jsonl", str(first), str(second)).stdout.splitlines()
    ]
    assert [(deal["file"], deal["deal"], deal["line"]) for deal in lines[:2]] == [
        (str(first), 1, 4),
        (str(second), 1, 3),
    ]
    # A bad deal in the second file is named by its own file and line.
    second.write_text(f"Amy: {AMY}\nBob: {BOB.replace('3d', 'Xd')}\n")
    bad = cli("session", str(first), str(second))
    assert bad.exit_code == 2 and bad.stderr.startswith(f"Error: {second}, line 2: Bob, middle: unknown card")


@pytest.mark.parametrize(
    ("first", "second", "message"),
    [
        ("@rules ofc\n", "@rules 2-4\n", "b.txt, line 1: @rules 2-4 is not the night's rules (ofc, from"),
        ("@rules pineapple-ru\n@buy-in 50\n", "@buy-in 60\n", "b.txt, line 1: @buy-in 60 is not the night's buy-in"),
    ],
    ids=["rules", "buy-in"],
)
def test_the_files_of_a_night_share_rules_and_buy_in(tmp_path, first, second, message):
    (tmp_path / "a.txt").write_text(f"{first}\nAmy: {AMY}\nBob: {BOB}\n")
    (tmp_path / "b.txt").write_text(f"{second}\nAmy: {AMY}\nBob: {BOB}\n")
    result = cli("session", str(tmp_path / "a.txt"), str(tmp_path / "b.txt"))
    assert result.exit_code == 2 and result.stdout == ""
    assert message in result.stderr


def test_a_file_given_twice_is_refused(tmp_path):
    (tmp_path / "a.txt").write_text(f"Amy: {AMY}\nBob: {BOB}\n")
    result = cli("session", str(tmp_path / "a.txt"), str(tmp_path / "a.txt"))
    assert result.exit_code == 2 and "is given twice: its deals would count twice" in result.stderr


def test_explain_one_pair_and_show_some_deals(tmp_path):
    # examples/session.txt: three deals; only Amy against Cy is explained, only deal 2 shown.
    from pathlib import Path

    session = str(Path(__file__).parent.parent / "examples" / "session.txt")
    result = cli("session", "--explain-pair", "Cy:Amy", "--deal", "2", session)
    assert result.exit_code == 0, result.output
    assert "      Amy against Cy (ofc):\n" in result.stdout
    assert "against Bob" not in result.stdout and "Bob against" not in result.stdout
    assert (
        "\n   2    10  " in result.stdout
        and "\n   1     6  " not in result.stdout
        and "\n   3    14" not in result.stdout
    )
    assert "Totals after 3 deals:" in result.stdout  # the totals stay the whole night's
    score = cli("score", "--explain-pair", "Ann:Ben", str(Path(session).parent / "three-players.txt"))
    assert "Ann against Ben (2-4):" in score.stdout and "Cat" not in score.stdout.split("Why, pair by pair:")[1]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ("session", "--explain-pair", "Amy:Zed"),
            "Error: --explain names 'Zed', who does not play (players: Amy, Bob, Cy)",
        ),
        (("session", "--explain-pair", "Amy"), "'Amy' is not A:B, two players (for example Amy:Bob)"),
        (("session", "--deal", "9"), "Error: --deal 9: stdin has 2 deals"),
        (("session", "--deal", "x"), "'x' is not N or N-M, deal numbers such as 3 or 2-5"),
        (("session", "--deal", "0"), "'0': deals are numbered from 1, the first number first"),
        (("session", "--deal", "1", "--totals"), "has no effect with --totals, which prints no deal"),
    ],
    ids=["stranger", "one-name", "past-the-end", "not-a-number", "zero", "with-totals"],
)
def test_focus_errors(args, message):
    result = cli(*args, "-", input=NIGHT)
    assert result.exit_code == 2 and result.stdout == ""
    assert message in result.stderr, result.stderr


def test_a_deal_shown_alone_keeps_the_nights_column_width(tmp_path):
    """--deal N writes only deal N, but its cells are as wide as the night's
    widest (deal 1's +20000 (+20000), a column wider than deal 2's own)."""
    path = tmp_path / "s.txt"
    path.write_text(
        "@rules ofc\n@stake 1000\n\n"
        f"Amy: {AMY}\nBob: Qs Qd 3c / 2h 3h 4h 5h 6h / 8c 9d Td Jc Qc\n\n"
        "Amy: 2d 3d 4d / Th Tc 8d 8s 3s / Kh Qh Jh 8h 2h\nBob: 5c 6c 7c / 9s Js Ts 4s 6d / As Ks Qs 2s 3c\n"
    )
    whole = cli("session", str(path)).stdout.splitlines()
    alone = cli("session", "--deal", "2", str(path)).stdout.splitlines()
    second = whole[whole.index(next(line for line in whole if line.startswith("   2  "))) :][:2]
    assert second[0].startswith("   2     7  ") and "+5000 (+25000)   -5000 (-25000)" in second[1]
    assert alone[alone.index(second[0]) + 1] == second[1]


@pytest.mark.parametrize("pair", ["Zed:Yan", "Yan:Zed", "Amy:Zed"])
def test_explain_pair_names_the_first_given_player_who_does_not_play(pair):
    from pathlib import Path

    session = str(Path(__file__).parent.parent / "examples" / "session.txt")
    result = cli("session", "--explain-pair", pair, session)
    missing = next(name for name in pair.split(":") if name not in ("Amy", "Bob", "Cy"))
    assert result.exit_code == 2 and result.stdout == ""
    assert f"--explain names '{missing}'" in result.stderr, result.stderr


def test_decimal_cells_stay_in_their_columns():
    """The table's columns are as wide as the longest amount written, not the largest:
    at a stake of 0.1, +5.5 (+14.4) is wider than +60 (+89)."""
    from pathlib import Path

    session = str(Path(__file__).parent.parent / "examples" / "session.txt")
    lines = cli("session", "--stake", "0.1", session).stdout.splitlines()
    header = next(line for line in lines if line.startswith("Deal  Line  Id"))
    starts = [header.index(name) for name in ("Amy", "Bob", "Cy")]
    import re

    deal_line = re.compile(r"\s*\d+\s+\d+\s+[0-9a-f]{8}  |\s{22}[+-]")  # a deal's units, or its money under them
    cells = [line for line in lines[lines.index(header) + 1 :] if deal_line.match(line)]
    assert len(cells) >= 6 and any("+5.5 (+14.4)" in line for line in cells)
    for line in cells:
        for start in starts:
            assert line[start - 2 : start] == "  " and line[start] != " ", (line, start)
