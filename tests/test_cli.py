"""The command line: exact output, JSON shape, and every input error."""

import json
import pathlib
import subprocess
import sys
import unicodedata

import click
import pytest
from click.testing import CliRunner

from cpscore import __version__
from cpscore.cli import main

ROOT = pathlib.Path(__file__).parent.parent
EXAMPLES = ROOT / "examples"
AMY = "Amy=Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d"
BOB = "Bob=Qs Jd 3c / Th Tc 8d 8s 3d / Kh Qh Jh 8h 2h"

#: The commands, in the order ``cpscore --help`` lists them (test_completion's too).
COMMANDS = [
    "score",
    "check",
    "session",
    "stats",
    "standings",
    "add",
    "undo",
    "remove",
    "replace",
    "pay",
    "play",
    "serve",
    "arrange",
    "rules",
]


def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input)


def ok(*args, input=None):
    result = run(*args, input=input)
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    return result.stdout


TWO_PLAYERS_TABLE = """\
Rules: 2-4 (classic: 1 unit a row, 1 more for winning two rows of three)

Player    Front      Middle          Back
--------  ---------  --------------  --------------
Amy       Ks Kd 4c   9h 9c 5d 5s 2c  Ah Ad Ac 7s 7d
          pair       two pair        full house
Bob       Qs Jd 3c   Th Tc 8d 8s 3d  Kh Qh Jh 8h 2h
          high card  two pair        flush

Units won by each player (row) from each opponent (column):

       Amy    Bob    Total
---  -----  -----  -------
Amy            +2       +2
Bob     -2              -2
"""


def test_score_table_exact():
    assert ok("score", AMY, BOB) == TWO_PLAYERS_TABLE
    assert ok("score", str(EXAMPLES / "two-players.txt")) == TWO_PLAYERS_TABLE


def test_score_reads_stdin():
    text = (EXAMPLES / "two-players.txt").read_text()
    assert ok("score", "-", input=text) == TWO_PLAYERS_TABLE


def test_score_mixes_arguments_and_files(tmp_path):
    deal = tmp_path / "bob.txt"
    deal.write_text("# just Bob\n\nBob: Qs Jd 3c / Th Tc 8d 8s 3d / Kh Qh Jh 8h 2h   # second seat\n")
    assert ok("score", AMY, str(deal)) == TWO_PLAYERS_TABLE


def test_score_ofc_with_stakes_exact():
    out = ok(
        "score", "--rules", "ofc", "--stake", "5", "--pair-stake", "Bob:Amy=100", str(EXAMPLES / "four-players.txt")
    )
    assert (
        out
        == """\
Rules: ofc (open-face 1-6, standard OFC royalties paid by holder)

Player    Front      Middle          Back            Notes           Royalties
--------  ---------  --------------  --------------  ------------  -----------
Amy       Ks Kd 4c   9h 9c 5d 5s 2c  Ah Ad Ac 7s 7d  FL next (13)           14
          pair +8    two pair        full house +6
Bob       Qs Jd 3c   Th Tc 8d 8s 3d  Kh Qh Jh 8h 2h                          4
          high card  two pair        flush +4
Cy        As 6d 2s   6c 6h 4d 4s 3s  Js Ts 9s 8c 7c                          2
          high card  two pair        straight +2
Dan       Qd Qc 3h   Jc Td 9d 6s 5c  Kc 7h 5h 4h 2d  FOUL                    0
          pair       high card       high card

Dan fouled: front pair of queens (Q-Q-3) beats middle jack high (J-T-9-6-5)

Units won by each player (row) from each opponent (column):

       Amy    Bob    Cy    Dan    Total
---  -----  -----  ----  -----  -------
Amy           +11   +18    +20      +49
Bob    -11           +3    +10       +2
Cy     -18     -3           +8      -13
Dan    -20    -10    -8             -38

Money won by each player from each opponent (stake 5 a unit; Amy-Bob 100):

       Amy    Bob    Cy    Dan    Total
---  -----  -----  ----  -----  -------
Amy         +1100   +90   +100    +1290
Bob  -1100          +15    +50    -1035
Cy     -90    -15          +40      -65
Dan   -100    -50   -40            -190
"""
    )
    assert max(len(line) for line in out.splitlines()) <= 80


def test_score_table_style():
    out = ok("score", "--style", "github", AMY, BOB)
    assert "| Player   | Front     |" in out


def test_score_json_shape():
    data = json.loads(ok("score", "--format", "json", "--rules", "ofc", str(EXAMPLES / "three-players.txt")))
    assert data["rules"] == "ofc"
    assert [player["name"] for player in data["players"]] == ["Ann", "Ben", "Cat"]
    ann = data["players"][0]
    assert ann["hand"] == "Qh Qd 2c / Kh Kd Kc 3h 3d / 9s 9h 9d 9c 4h"
    assert ann["foul"] is False
    assert ann["rows"]["front"] == {
        "cards": ["Qh", "Qd", "2c"],
        "category": "pair",
        "description": "pair of queens",
        "ranks": "Q-Q-2",
        "royalty": 7,
    }
    assert ann["rows"]["middle"]["category"] == "full-house"
    assert ann["rows"]["back"]["category"] == "quads"
    assert ann["royalties"] == {"front": 7, "middle": 12, "back": 10, "total": 29}
    assert (ann["units"], ann["amount"]) == (60, 60)
    assert [(pair["a"], pair["b"]) for pair in data["pairs"]] == [("Ann", "Ben"), ("Ann", "Cat"), ("Ben", "Cat")]
    assert data["pairs"][0] == {
        "a": "Ann",
        "b": "Ben",
        "decided_by": "rows",
        "rows": [1, 1, 1],
        "row_units": 3,
        "bonus": 3,
        "royalties": 23,
        "multiplier": 1,
        "natural": 0,
        "surrender": 0,
        "units": 29,
        "stake": 1,
        "amount": 29,
    }
    assert ann["fantasyland"] == {"playing": False, "next": True, "cards": 13, "status": "enters"}
    assert (ann["natural"], ann["surrendered"], ann["waived"], ann["owner"]) == (None, False, False, "Ann")
    assert data["totals"] == [
        {"name": "Ann", "units": 60, "amount": 60},
        {"name": "Ben", "units": -26, "amount": -26},
        {"name": "Cat", "units": -34, "amount": -34},
    ]
    assert sum(player["units"] for player in data["players"]) == 0


def test_json_fouled_hand_and_decimal_numbers():
    out = ok("score", "--format", "json", "--stake", "2.5", str(EXAMPLES / "four-players.txt"))
    data = json.loads(out)
    dan = data["players"][3]
    assert dan["foul"] is True
    assert dan["foul_reason"] == "front pair of queens (Q-Q-3) beats middle jack high (J-T-9-6-5)"
    assert dan["royalties"]["total"] == 0
    assert [pair["rows"] for pair in data["pairs"] if pair["b"] == "Dan"] == [[1, 1, 1]] * 3
    assert '"amount": 25\n' in out and '"amount": -30\n' in out and '"stake": 2.5,' in out
    assert '"amount": 10.0' not in out


def test_score_csv_exact():
    assert ok("score", "--format", "csv", "--stake", "10", AMY, BOB) == (
        "player,hand,foul,front category,middle category,back category,natural,surrendered,royalties,units,amount,"
        "vs Amy,vs Bob\n"
        "Amy,Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d,no,pair,two-pair,full-house,,no,0,2,20,,2\n"
        "Bob,Qs Jd 3c / Th Tc 8d 8s 3d / Kh Qh Jh 8h 2h,no,high-card,two-pair,flush,,no,0,-2,-20,-2,\n"
    )


def test_check_exact():
    assert (
        ok("check", "--rules", "ofc", "Qs Qd 5c / 9h 9c 4d 4s 2c / As Ks Qh Jd Tc")
        == """\
Rules: ofc (open-face 1-6, standard OFC royalties paid by holder)

Row     Cards           Category                   Ranks        Royalty
------  --------------  -------------------------  ---------  ---------
front   Qs Qd 5c        pair of queens             Q-Q-5              7
middle  9h 9c 4d 4s 2c  two pair, nines and fours  9-9-4-4-2          0
back    As Ks Qh Jd Tc  ace-high straight          A-K-Q-J-T          2

Legal: the back is at least the middle, the middle at least the front.
Royalties: 9
Fantasyland: enters Fantasyland next deal with 13 cards
"""
    )


def test_check_foul_and_words():
    out = ok("check", "Qs", "Qc", "3c", "/", "Jh", "Tc", "8d", "6s", "3d", "/", "Kh", "Qh", "Jd", "8h", "2h")
    assert "FOUL: front pair of queens (Q-Q-3) beats middle jack high (J-T-8-6-3)" in out
    assert "Royalt" not in out


def test_check_json():
    data = json.loads(
        ok("check", "--format", "json", "--rules", "ofc", "-", input="Qs Qd 5c / 9h 9c 4d 4s 2c / As Ks Qh Jd Tc\n")
    )
    assert data["rules"] == "ofc"
    assert data["foul"] is False
    assert data["royalties"] == {"front": 7, "middle": 0, "back": 2, "total": 9}
    assert data["rows"]["back"]["category"] == "straight"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["score", "Amy=Ks Kd Xc / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d", BOB], "Error: Amy, front: unknown card 'Xc'"),
        (
            ["score", "Amy=Ks Kd 4c / 9h 9c 5d 5s / Ah Ad Ac 7s 7d", BOB],
            "Error: Amy, middle: 4 cards, the middle has 5",
        ),
        (
            ["score", "Amy=Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s Ks", BOB],
            "Error: Amy: Ks appears twice (front and back)",
        ),
        (
            ["score", AMY, "Bob=Ks Jd 3c / Th Tc 8d 8s 3d / Kh Qh Jh 8h 2h"],
            "Error: Ks is dealt twice: in Amy's front and in Bob's front",
        ),
        (
            ["score", "=Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d", BOB],
            "Error: argument '=Ks Kd 4c / 9h 9c 5d 5s 2...': a player name is missing (write NAME=HAND)",
        ),
        (["score", AMY, AMY], "Error: player 'Amy' is named twice"),
        (["score", "A/my=Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d", BOB], "player name 'A/my' contains '/'"),
        (["score", AMY], "Error: 1 player in the deal: a deal has 2 to 4 players"),
        (["score"], "Error: no hands: give NAME=HAND arguments, a deal file, or - to read a deal from stdin"),
        (
            ["score", "--rules", "pineapple", str(EXAMPLES / "four-players.txt")],
            "four-players.txt, line 6: 4 players in the deal: a deal has 2 to 3 players under the pineapple rules",
        ),
        (
            ["score", "--rules", "nope", AMY, BOB],
            "Error: Invalid value for '--rules': unknown rule set 'nope': choose one of 2-4, 1-6, ofc, ofc-western, pineapple",
        ),
        (["score", "--stake", "ten", AMY, BOB], "Error: Invalid value for '--stake': stake 'ten' is not a number"),
        (["score", "--stake", "-1", AMY, BOB], "Error: Invalid value for '--stake': stake '-1' is negative"),
        (["score", "--stake", "NaN", AMY, BOB], "Error: Invalid value for '--stake': stake 'NaN' is not a number"),
        (
            ["score", "--pair-stake", "Amy:Bob=-3", AMY, BOB],
            "Error: Invalid value for '--pair-stake': stake for Amy:Bob '-3' is negative",
        ),
        (
            ["score", "--pair-stake", "Amy-Bob=3", AMY, BOB],
            "Error: Invalid value for '--pair-stake': 'Amy-Bob=3' is not A:B=AMOUNT",
        ),
        (
            ["score", "--pair-stake", "Amy:Bob=3", "--pair-stake", "Bob:Amy=4", AMY, BOB],
            "Error: Invalid value for '--pair-stake': the pair Bob:Amy is given twice",
        ),
        (
            ["score", "--pair-stake", "Amy:Zed=3", AMY, BOB],
            "Error: --pair-stake names 'Zed', who does not play (players: Amy, Bob)",
        ),
        (["score", "missing.txt"], "Error: cannot read deal file 'missing.txt': no such file"),
        (["score", "--style", "nope", AMY, BOB], "Error: Invalid value for '--style': 'nope' is not a table style"),
        (
            ["score", "Amy=Ks Kd 4c 9h 9c 5d 5s 2c Ah Ad Ac 7s 7d", BOB],
            "Error: Amy: 13 cards without rows are not a natural under the 2-4 rules: set the hand as front / middle / back",
        ),
        (["score", "--format", "xml", AMY, BOB], "Error: Invalid value for '--format'"),
        (["check", "Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7x"], "Error: back: unknown card '7x'"),
        (
            ["check", "Ks Kd 4c 9h 9c 5d 5s 2c Ah Ad Ac 7s 7d"],
            "Error: 13 cards without rows are not a natural under the 2-4 rules",
        ),
        (["check"], "Error: Missing argument 'HAND'"),
    ],
    ids=[
        "unknown-card",
        "short-row",
        "card-twice-in-hand",
        "card-in-two-hands",
        "missing-name",
        "repeated-name",
        "bad-name",
        "one-player",
        "no-players",
        "too-many-players",
        "unknown-rules",
        "malformed-stake",
        "negative-stake",
        "nan-stake",
        "negative-pair-stake",
        "malformed-pair-stake",
        "pair-given-twice",
        "pair-stake-unknown-player",
        "missing-file",
        "unknown-style",
        "unset-hand",
        "unknown-format",
        "check-unknown-card",
        "check-unset-hand",
        "check-missing-hand",
    ],
)
def test_input_errors(args, message):
    result = run(*args)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_deal_file_errors_name_file_and_line(tmp_path):
    deal = tmp_path / "deal.txt"
    deal.write_text(
        "# a deal\nAmy: Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d\nBob Qs Jd 3c / Th Tc 8d 8s 3d / Kh Qh Jh 8h 2h\n"
    )
    result = run("score", str(deal))
    assert result.exit_code == 2
    assert f"Error: {deal}, line 3: expected NAME: HAND" in result.stderr
    deal.write_text(
        "Amy: Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d\nBob: Qs Jd 3c / Th Tc 8d 8s 3d / Kh Qh Jh 8h 2q\n"
    )
    result = run("score", str(deal))
    assert f"Error: {deal}, line 2: Bob, back: unknown card '2q'" in result.stderr
    result = run("score", "-", input=deal.read_text())
    assert "Error: stdin, line 2: Bob, back: unknown card '2q'" in result.stderr


def test_unreadable_deal_files(tmp_path):
    binary = tmp_path / "deal.bin"
    binary.write_bytes(b"\xff\xfe\x00junk")
    result = run("score", str(binary))
    assert result.exit_code == 2
    assert f"Error: {binary}: UTF-16 text, not UTF-8: save the file as UTF-8" in result.stderr
    binary.write_bytes("Amy: Ks\nJos\u00e9: Qs\n".encode("latin-1"))
    result = run("score", str(binary))
    assert f"Error: {binary}, line 2: not UTF-8 text (byte 0xe9 at column 4): save the file as UTF-8" in result.stderr
    result = run("score", "-", input=b"\xff\xfeA\x00")
    assert "Error: stdin: UTF-16 text, not UTF-8" in result.stderr
    result = run("score", str(tmp_path))
    assert result.exit_code == 2
    # The path is shown bounded (a long one cut in its middle): its start and end are there.
    assert result.stderr.startswith(f"Error: cannot read deal file '{str(tmp_path)[:20]}")
    assert result.stderr.endswith("': Is a directory\n")


def test_version():
    assert ok("--version") == f"cpscore, version {__version__}\n"


def test_python_dash_m():
    result = subprocess.run(
        [sys.executable, "-m", "cpscore", "score", "--format", "json", str(EXAMPLES / "two-players.txt")],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(result.stdout)["players"][0]["units"] == 2


def test_every_command_has_help_and_is_documented():
    # In the README or a page of the docs written by hand (not only the generated reference).
    pages = [ROOT / "README.md", *(page for page in (ROOT / "docs").glob("*.md") if page.name != "reference.md")]
    readme = "".join(page.read_text(encoding="utf-8") for page in pages)
    context = click.Context(main)
    top = {name: main.get_command(context, name) for name in main.list_commands(context)}
    commands = [([name], command) for name, command in top.items()]
    commands += [
        ([name, sub], command) for name, group in top.items() for sub, command in getattr(group, "commands", {}).items()
    ]
    assert len(commands) == 15
    for path, command in commands:
        assert command.help, path
        assert f"cpscore {' '.join(path)}" in readme, path
        assert ok(*path, "--help").startswith(f"Usage: main {' '.join(path)}")


# Each example file runs as its comment says: tests/test_readme.py.


def test_examples_cover_two_three_and_four_players():
    counts = set()
    for path in EXAMPLES.glob("*.txt"):
        if "\n@" in "\n" + path.read_text():  # a session
            continue
        lines = [line for line in path.read_text().splitlines() if line.split("#")[0].strip()]
        counts.add(len(lines))
    assert {2, 3, 4} <= counts


def test_no_colour_when_piped_or_no_color(monkeypatch):
    assert "\x1b[" not in ok("score", AMY, BOB)
    from cpscore.commands import _options

    monkeypatch.setattr(_options.sys.stdout, "isatty", lambda: True, raising=False)
    monkeypatch.setenv("NO_COLOR", "1")
    assert _options.use_colour("table") is False
    monkeypatch.delenv("NO_COLOR")
    assert _options.use_colour("table") is True
    assert _options.use_colour("json") is False


def test_colour_marks_red_suits():
    from cpscore.cards import parse_cards
    from cpscore.formatting import cards_text

    assert cards_text(parse_cards("Ah Ks"), colour=True) == "\x1b[31mAh\x1b[0m Ks"


def after_a_run(expression, *args):
    """``expression`` (about ``sys.modules``) after ``cpscore ARGS`` in a fresh
    interpreter: what the run imported."""
    code = (
        "import sys; from cpscore.cli import main\n"
        "try:\n main(sys.argv[1:])\n"
        "except SystemExit: pass\n"
        f"print({expression}, file=sys.stderr)"
    )
    result = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, check=True)
    return result.stderr.strip()


def test_json_run_does_not_import_tabulate():
    deal = str(EXAMPLES / "two-players.txt")
    assert after_a_run("'tabulate' in sys.modules", "score", "--format", "json", deal) == "False"


def test_default_run_needs_no_decimal_and_a_stake_stays_exact():
    deal = str(EXAMPLES / "two-players.txt")
    assert after_a_run("'decimal' in sys.modules", "score", "--format", "json", deal) == "False"
    data = json.loads(ok("score", "--format", "json", "--stake", "0.1", AMY, BOB))
    assert [player["amount"] for player in data["players"]] == [0.2, -0.2]


def test_deal_file_with_byte_order_mark(tmp_path):
    deal = tmp_path / "deal.txt"
    deal.write_bytes((EXAMPLES / "two-players.txt").read_text().encode("utf-8-sig"))
    assert ok("score", str(deal)) == TWO_PLAYERS_TABLE


# Rule sets, naturals, surrender, fantasyland from the command line -----------------

NATURALS_DEAL = """\
Dee: 2h 2d 4c 4s 6h 6d 8c 8s Th Td Qc Qs Ah
Eve: 3h 5h 7h / 3c 5c 7c 9c Tc / 2s 5s 7s 9s Js
Fay: Kc Jh 9h / 3d 4d 5d 7d 9d / Ks Kh Kd Ac Ad
"""


def test_rules_lists_the_presets():
    listing = ok("rules")
    assert listing == (
        "2-4            classic: 1 unit a row, 1 more for winning two rows of three\n"
        "1-6            classic: 1 unit a row, 3 more for a scoop\n"
        "ofc            open-face 1-6, standard OFC royalties paid by holder\n"
        "ofc-western    open-face 1-6, western royalties paid by holder\n"
        "pineapple      as ofc, at most 3 players, 14-card Fantasyland\n"
        "turbo          Turbo OFC (5, 4, 4 cards): scored as ofc\n"
        "taiwanese      rows with bonuses, scoops double, home run of 3, naturals\n"
        "shisanshui     十三水: Eastern row values, scoops double, home run of 2\n"
        "shisanshui-old 十三水 with its earlier natural values (24, 12, 8, 6, 4)\n"
        "maubinh        Mậu Binh: Eastern row values, sập and sập làng, naturals net\n"
        "capsa          Capsa Susun: doubled Eastern values, suits break ties\n"
        "pusoy          Pusoy: 1-6 against a rotating banker, guns, suits break ties\n"
        "pineapple-ru   Russian Pineapple for points: as pineapple, table stakes\n"
        "pineapple-27   2-7 Pineapple: the middle low, ten-low or better\n"
    )
    # Each line fits 80 columns, counting a Chinese character as two.
    assert (
        max(sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line) for line in listing.splitlines())
        <= 80
    )


def test_rules_show_is_a_rule_file(tmp_path):
    shown = ok("rules", "show", "ofc")
    assert shown.startswith("# cpscore rule set 'ofc': every setting (docs/rules.md 11).\n")
    assert 'preset = "ofc"\n' in shown and "[royalties.front]" in shown and "AAA = 22\n" in shown
    assert "dragon = false\n" in shown
    copy = tmp_path / "copy.toml"
    copy.write_text(shown.replace("quads = 10", "quads = 11"))
    assert "quads = 11\n" in ok("rules", "show", str(copy))
    out = ok("score", "--rules", str(copy), "--format", "json", str(EXAMPLES / "three-players.txt"))
    assert json.loads(out)["players"][0]["royalties"]["back"] == 11


def test_house_rules_example_scores():
    out = ok(
        "score", "--rules", str(EXAMPLES / "house-rules.toml"), "--format", "json", str(EXAMPLES / "three-players.txt")
    )
    data = json.loads(out)
    assert data["rules"] == "house"
    assert [(p["name"], p["units"]) for p in data["players"]] == [("Ann", 56), ("Ben", -27), ("Cat", -29)]
    assert [pair["multiplier"] for pair in data["pairs"]] == [4, 4, 1]


def test_naturals_in_json_and_table():
    data = json.loads(ok("score", "--rules", "taiwanese", "--format", "json", "-", input=NATURALS_DEAL))
    dee, eve, fay = data["players"]
    assert (dee["natural"], dee["natural_units"], dee["hand"], dee["rows"]) == ("six-pairs", 6, None, None)
    assert len(dee["cards"]) == 13
    assert (eve["natural"], eve["natural_arrangement"]) == (
        "three-flushes",
        "3h 5h 7h / 3c 5c 7c 9c Tc / 2s 5s 7s 9s Js",
    )
    assert fay["natural"] is None and fay["rows"]["back"]["category"] == "full-house"
    assert [(p["decided_by"], p["natural"], p["units"]) for p in data["pairs"]] == [
        ("natural", 6, 6),
        ("natural", 6, 6),
        ("natural", 3, 3),
    ]
    table = ok("score", "--rules", "1-6", "-", input=NATURALS_DEAL)
    assert "Dee claims six pairs (3) with 2h 2d 4c 4s 6h 6d 8c 8s Th Td Qc Qs Ah" in table
    assert "(unset)" in table and "three flushes" in table


def test_waive_surrender_and_fantasyland_flags():
    data = json.loads(
        ok(
            "score",
            "--rules",
            "1-6",
            "--waive",
            "Eve",
            "--format",
            "json",
            "-",
            "Gil=surrender",
            input=NATURALS_DEAL,
        )
    )
    assert [(p["name"], p["units"]) for p in data["players"]] == [("Dee", 9), ("Eve", -1.5), ("Fay", 0.5), ("Gil", -8)]
    gil = data["players"][3]
    assert (gil["surrendered"], gil["hand"], gil["cards"]) == (True, None, [])
    assert data["players"][1]["waived"] is True
    out = ok(
        "score", "--rules", "pineapple", "--fantasyland", "Ann", "--format", "json", str(EXAMPLES / "three-players.txt")
    )
    assert json.loads(out)["players"][0]["fantasyland"] == {
        "playing": True,
        "next": True,
        "cards": 14,
        "status": "stays",
    }


def test_deal_file_markers(tmp_path):
    deal = tmp_path / "deal.txt"
    deal.write_text(
        "Amy: Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d\n"
        "Bob: Qs Qc 3c / Jh Tc 8d 6s 3d / Kh Qh Jd 8h 2h\n"
        "Carl: surrender\n"
    )
    data = json.loads(ok("score", "--format", "json", str(deal)))
    assert [(p["name"], p["units"]) for p in data["players"]] == [("Amy", 6.5), ("Bob", -4), ("Carl", -2.5)]
    assert [pair["decided_by"] for pair in data["pairs"]] == ["rows", "surrender", "surrender"]


def test_spade_bonus_flag():
    base = json.loads(ok("check", "--rules", "ofc", "--format", "json", "6s 6d 3c / 5c 6c 7d 8s 9d / Ks Kd Kc Kh 2s"))
    doubled = json.loads(
        ok("check", "--rules", "ofc", "--spade-bonus", "--format", "json", "6s 6d 3c / 5c 6c 7d 8s 9d / Ks Kd Kc Kh 2s")
    )
    assert (base["royalties"]["back"], doubled["royalties"]["back"]) == (10, 20)


def test_check_unset_natural_and_fantasyland():
    out = ok("check", "--rules", "taiwanese", "9h Td Jc Qs Kh 9d Tc Js Qh Kd 2c 3s 4h")
    assert out.endswith(
        "Unset hand: 9h Td Jc Qs Kh 9d Tc Js Qh Kd 2c 3s 4h\n"
        "Natural: three straights (4) as 2c 3s 4h / 9d Tc Js Qh Kd / 9h Td Jc Qs Kh\n"
    )
    out = ok("check", "--rules", "pineapple", "--fantasyland", "Ks Kd 5c / 9h 9c 9d 4s 4c / Ah Ad Ac Qh Qd")
    assert out.endswith("Fantasyland: stays in Fantasyland next deal with 14 cards\n")
    data = json.loads(ok("check", "--format", "json", "2h 3d 4c 5s 6h 7d 8c 9s Th Jd Qc Ks Ah"))
    assert (data["natural"], data["hand"], data["rows"]) == ("dragon", None, None)


def test_criss_cross_totals():
    out = ok(
        "score",
        "Amy[1]=Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d",
        "Amy[2]=Qs Jd 3c / Th Tc 8d 8s 3d / Kh Qh Jh 8h 2h",
        "Bob[1]=As 6d 2s / 6c 6h 4d 4s 3s / Js Ts 9s 8c 7c",
        "Bob[2]=Qd Qc 3h / Jc Td 9d 6s 5c / Kc 7h 5h 4h 2d",
        "--pair-stake",
        "Amy:Bob=2",
    )
    assert out.endswith(
        "Totals by player (all their hands):\n\n"
        "Player      Units    Money\n"
        "--------  -------  -------\n"
        "Amy           +14      +28\n"
        "Bob           -14      -28\n"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["score", "--rules", "{bad}", AMY, BOB],
            "Error: {bad}: surrender: 'two' is text, not a number: write a number without quotes, such as 2.5",
        ),
        (["score", "--rules", "missing.toml", AMY, BOB], "Error: missing.toml: no such rule file"),
        (
            ["rules", "show", "{bad}"],
            "Error: {bad}: surrender: 'two' is text, not a number: write a number without quotes, such as 2.5",
        ),
        (["rules", "show", "nope"], "Error: Invalid value for 'NAME|FILE': unknown rule set 'nope'"),
        (["score", "--waive", "Zed", AMY, BOB], "Error: --waive names 'Zed', who does not play (players: Amy, Bob)"),
        (
            ["score", "--fantasyland", "Zed", AMY, BOB],
            "Error: --fantasyland names 'Zed', who does not play (players: Amy, Bob)",
        ),
        (
            ["score", AMY + " ; maybe", BOB],
            "Error: Amy: unknown marker 'maybe' (markers: surrender, waive, fantasyland, banker, dealer)",
        ),
        (["score", "Amy=", BOB], "Error: Amy: no hand (write the 13 cards, or 'surrender')"),
        (
            ["score", "--rules", "taiwanese", "--surrender", "Amy", AMY, BOB],
            "Error: Amy surrenders, but the taiwanese rules have no surrender",
        ),
        (
            ["score", "Amy=2h 3d 4c 5s 6h 7d 8c 9s Th Jd Qc Ks Ah ; waive", BOB],
            "Error: Amy: only a set hand can waive a natural",
        ),
    ],
    ids=[
        "bad-rule-file",
        "missing-rule-file",
        "show-bad-file",
        "show-unknown",
        "waive-unknown",
        "fantasyland-unknown",
        "unknown-marker",
        "empty-hand",
        "no-surrender",
        "waive-unset",
    ],
)
def test_rule_and_marker_errors(tmp_path, args, message):
    bad = tmp_path / "bad.toml"
    bad.write_text('preset = "ofc"\nsurrender = "two"\n')
    args = [arg.replace("{bad}", str(bad)) for arg in args]
    result = run(*args)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert message.replace("{bad}", str(bad)) in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("preset", ["2-4", "1-6", "ofc", "ofc-western", "pineapple", "taiwanese"])
def test_every_preset_reads_on_80_columns(preset):
    out = ok("score", "--rules", preset, str(EXAMPLES / "three-players.txt"))
    assert max(len(line) for line in out.splitlines()) <= 80
    assert max(len(line) for line in ok("rules").splitlines()) <= 80


def test_help_lists_a_command_module_added_later(tmp_path, monkeypatch):
    """A new module in cpscore/commands is a new command, with no entry anywhere
    else: --help lists it (by its ORDER, or after the others when it has none)
    and it runs."""
    import cpscore.commands

    (tmp_path / "zz_extra.py").write_text(
        "import click\n\n\n"
        "@click.command(name='zz-extra')\n"
        "def command():\n"
        '    """A command added by a later change."""\n'
        "    click.echo('zz-extra ran')\n"
    )
    (tmp_path / "between.py").write_text(
        "import click\n\nORDER = 15\n\n\n"
        "@click.command(name='between')\n"
        "def command():\n"
        '    """Listed after score, before check."""\n'
    )
    monkeypatch.setattr(cpscore.commands, "__path__", [*cpscore.commands.__path__, str(tmp_path)])
    try:
        out = ok("--help")
        listed = [line.split()[0] for line in out.split("Commands:\n")[1].splitlines()]
        assert listed == [COMMANDS[0], "between", *COMMANDS[1:], "zz-extra"]
        assert "A command added by a later change." in out
        assert ok("zz-extra") == "zz-extra ran\n"
    finally:
        for name in ("zz_extra", "between"):
            sys.modules.pop(f"cpscore.commands.{name}", None)
            vars(cpscore.commands).pop(name, None)


def test_commands_are_the_modules_of_the_commands_package():
    import pkgutil

    import cpscore.commands

    modules = [m.name for m in pkgutil.iter_modules(cpscore.commands.__path__) if not m.name.startswith("_")]
    context = click.Context(main)
    names = main.list_commands(context)
    assert names == COMMANDS
    assert sorted(names) == sorted(name.replace("_", "-") for name in modules)
    for name in names:
        assert main.get_command(context, name).name == name
    # A private module (the shared options) is no command, nor a name spelt with '_' or a dot.
    for name in ("_options", "-options", "score_", "score.x", "commands", ""):
        assert main.get_command(context, name) is None, name


def test_a_misspelt_command_gets_a_suggestion_among_every_command():
    if not hasattr(click.exceptions, "NoSuchCommand"):
        pytest.skip("click suggests a command's name from 8.4 on")
    result = run("sesion")
    assert result.exit_code == 2
    assert result.stderr == "Error: No such command 'sesion'. Did you mean 'session'? (see 'main -h')\n"
    assert run("_options").stderr == "Error: No such command '_options'. (see 'main -h')\n"


def test_a_run_imports_the_module_of_its_command_only():
    loaded = "sorted(m for m in sys.modules if m.startswith('cpscore.commands.'))"
    assert after_a_run(loaded, "score", str(EXAMPLES / "two-players.txt")) == (
        "['cpscore.commands._options', 'cpscore.commands.score']"
    )
    assert after_a_run(loaded, "rules") == "['cpscore.commands._options', 'cpscore.commands.rules']"
