"""`cpscore standings`: a club's season over many nights (files or a folder),
every view equal to the nights' own sessions, payments carried, the chart, and
settle-up rounded (`--round`) for `session` too."""

import json
import pathlib
import shutil

import pytest
from clirun import ok, run

ROOT = pathlib.Path(__file__).parent.parent
CLUB = ROOT / "examples" / "club"
NIGHTS = sorted(CLUB.glob("*.txt"))


@pytest.fixture
def club(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copytree(CLUB, tmp_path / "club")
    return tmp_path / "club"


def test_every_figure_is_the_sum_of_the_nights_sessions(club):
    data = json.loads(ok("standings", "club", "--format", "json"))
    assert [night["file"] for night in data["nights"]] == [f"club/{path.name}" for path in NIGHTS]
    expected: dict[str, dict] = {}
    for night, path in zip(data["nights"], NIGHTS):
        session = json.loads(ok("session", "--format", "json", f"club/{path.name}"))
        assert night["deals"] == len(session["deals"])
        assert night["date"] == session["dates"][0]["date"] == path.stem
        balances = {entry["name"]: entry for entry in session.get("balances", [])}
        for total in session["totals"]:
            name = total["name"]
            found = next(player for player in night["players"] if player["name"] == name)
            assert (found["units"], found["amount"]) == (total["units"], total["amount"])
            balance = balances.get(name, {"paid": 0, "balance": total["amount"]})
            assert (found["paid"], found["balance"]) == (balance["paid"], balance["balance"])
            mine = expected.setdefault(
                name, {"units": 0, "amount": 0, "paid": 0, "balance": 0, "nights": 0, "deals": 0}
            )
            for key in ("units", "amount", "paid", "balance"):
                mine[key] += found[key]
            mine["nights"] += 1
            mine["deals"] += sum(1 for deal in session["deals"] if any(p["name"] == name for p in deal["players"]))
    players = {player["name"]: player for player in data["players"]}
    for name, mine in expected.items():
        assert {key: players[name][key] for key in mine} == mine, name
    assert [player["rank"] for player in data["players"]] == [1, 2, 3, 4]
    amounts = [player["amount"] for player in data["players"]]
    assert amounts == sorted(amounts, reverse=True)
    # the transfers settle every balance
    owed = {name: player["balance"] for name, player in players.items()}
    for transfer in data["transfers"]:
        owed[transfer["from"]] += transfer["amount"]
        owed[transfer["to"]] -= transfer["amount"]
    assert set(owed.values()) == {0}


def test_the_table(club):
    text = ok("standings", "club")
    assert text.startswith("Standings after 3 nights (2026-11-19 to 2026-12-03), 7 deals:\n")
    assert "  1  Bob              3        7       +4      +55  +70 (2026-12-03)     -20           +35\n" in text
    assert "club/2026-12-03.txt  2026-12-03        2      -    +70   +30   -100\n" in text
    assert text.endswith("To settle:\n  Amy pays Bob 35\n  Amy pays Cy 10\n  Dee pays Cy 90\n")


def test_files_in_the_order_given_and_the_dates_checked(club):
    result = run("standings", "club/2026-12-03.txt", "club/2026-11-19.txt")
    assert result.exit_code == 0
    assert (
        "Warning: the nights are not in date order: club/2026-11-19.txt (2026-11-19) comes after "
        "club/2026-12-03.txt (2026-12-03)"
    ) in result.stderr
    csv = result.stdout.splitlines()
    assert csv[0].startswith("Standings after 2 nights")


@pytest.mark.parametrize(
    "args, message",
    [
        (["club", "club/2026-11-19.txt"], "club/2026-11-19.txt is given twice: its deals would count twice"),
        (["-"], "Invalid value for 'FILES': reads files or folders"),
        (["empty"], "'empty' is a folder with no .txt file"),
        (["gone.txt"], "cannot read session file 'gone.txt'"),
        (["bad.txt"], "bad.txt, line 1: @paid 'x' is not PAYER PAYEE AMOUNT"),
        (["club", "--round", "0"], "Invalid value for '--round': '0' is not above 0"),
        (["club", "--plot", "x.png"], "write the chart to a file whose name ends in .svg"),
        (["club", "--round", "5", "--format", "csv"], "Invalid value for '--round': has no effect with --format csv"),
    ],
    ids=["twice", "stdin", "empty-folder", "missing", "bad-line", "round-zero", "plot-png", "round-csv"],
)
def test_refusals(club, args, message):
    (club.parent / "empty").mkdir()
    (club.parent / "bad.txt").write_text("@paid x\n\nA: +1\nB: -1\n")
    result = run("standings", *args)
    assert result.exit_code == 2, result.stderr
    assert result.stdout == ""
    assert message in result.stderr


def test_the_seasons_chart_is_the_running_money_over_the_nights(club):
    from cpscore.chart import night_svg

    ok("standings", "club", "--plot", "season.svg")
    data = json.loads(ok("standings", "club", "--format", "json"))
    names = [
        player["name"] for player in sorted(data["players"], key=lambda p: ["Amy", "Bob", "Cy", "Dee"].index(p["name"]))
    ]
    runnings, totals = [], {}
    for night in data["nights"]:
        for player in night["players"]:
            totals[player["name"]] = totals.get(player["name"], 0) + player["amount"]
        runnings.append(dict(totals))
    assert (club.parent / "season.svg").read_text(encoding="utf-8") == night_svg(
        names, runnings, money=True, per="night"
    )
    assert "<desc>night 3: Amy +5, Bob +55, Cy +30, Dee -90</desc>" in (club.parent / "season.svg").read_text()


def test_round_makes_what_people_hand_over_and_says_by_how_much(club):
    text = ok("standings", "club", "--round", "25")
    assert "Rounded to 25 (each balance by less than 25, the sum kept at 0): Amy -5, Bob +15, Dee -10.\n" in text
    data = json.loads(ok("standings", "club", "--round", "25", "--format", "json"))
    assert data["rounding"] == {
        "unit": 25,
        "changes": [{"name": "Amy", "change": -5}, {"name": "Bob", "change": 15}, {"name": "Dee", "change": -10}],
    }
    assert all(transfer["amount"] % 25 == 0 for transfer in data["transfers"])
    # session rounds the same way
    night = json.loads(ok("session", "--format", "json", "--round", "0.5", "club/2026-11-19.txt"))
    assert night["rounding"] == {"unit": 0.5, "changes": []}
    table = ok("session", "--totals", "--round", "30", "club/2026-11-19.txt")
    assert "Rounded to 30 (each balance by less than 30, the sum kept at 0): Bob +10, Cy -10.\n" in table
    assert table.endswith("To settle:\n  Cy pays Bob 30\n")
    csv = run("session", "--round", "5", "--format", "csv", "club/2026-11-19.txt")
    assert csv.exit_code == 2 and "has no effect with --format csv" in csv.stderr
    tiny = ok("session", "--totals", "--round", "1000", "club/2026-11-19.txt")
    assert tiny.endswith("Bob -20, Cy +20.\nNothing to pay once rounded to 1000.\n")


def test_stats_counts_a_folder_of_nights_as_session_reads_several_files(club):
    data = json.loads(ok("stats", "club", "--format", "json"))
    season = json.loads(ok("standings", "club", "--format", "json"))
    assert data["deals"] == sum(night["deals"] for night in season["nights"]) == 7
    by_name = {player["name"]: player for player in season["players"]}
    for player in data["players"]:
        assert (player["deals"], player["units"], player["amount"]) == tuple(
            by_name[player["name"]][key] for key in ("deals", "units", "amount")
        )
    # the biggest deals are numbered on through the files: deal 6 is the third night's first
    bob = next(player for player in data["players"] if player["name"] == "Bob")
    assert bob["biggest_win"]["deal"] == 6
    result = run("stats", "-", "club")
    assert result.exit_code == 2 and "'-' (stdin) goes alone" in result.stderr
