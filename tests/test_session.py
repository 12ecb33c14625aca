"""Sessions: the ledger, transfers, Fantasyland across deals, the race, safe appends."""

import json
import os
import pathlib
import signal
import subprocess
import sys
import time
from decimal import Decimal

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from cpscore.cards import CARDS
from cpscore.cli import main
from cpscore.deal import Entry, build_deal
from cpscore.errors import DealError
from cpscore.hands import evaluate_row
from cpscore.rules import get_rules
from cpscore.scoring import settle
from cpscore.session import Ledger, read_session, transfers

AMY = "Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d"
BOB = "Qs Jd 3c / Th Tc 8d 8s 3d / Kh Qh Jh 8h 2h"
CY = "As 6d 2s / 6c 6h 4d 4s 3s / Js Ts 9s 8c 7c"
ANN = "Qh Qd 2c / Kh Kd Kc 3h 3d / 9s 9h 9d 9c 4h"
BEN = "Js Jd 5c / Th Td 8c 8d 2d / Ac Ad 6s 6h 7c"
CAT = "Ts 7d 4c / 6c 6d 5s 5h 3c / As Ks Qs 8s 2s"

NIGHT = f"""\
# Friday night
@rules ofc
@stake 10

Amy: {AMY}
Bob: {BOB}
Cy:  {CY}

Amy: {ANN}
Bob: {BEN}
Cy:  {CAT}

Amy: 2s 2d 2c / 9h 9c 9d 4s 4c / Ts Js Qs Ks As
Bob: Qd Qc 3h / Jc Td 8d 6s 5c / Kc 7h 5h 4h 3d
Cy:  surrender
"""


def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input)


def ok(*args, input=None):
    result = run(*args, input=input)
    assert result.exit_code == 0, result.stderr
    return result.stdout


@pytest.fixture
def night(tmp_path):
    path = tmp_path / "night.txt"
    path.write_text(NIGHT)
    return path


# Reading ----------------------------------------------------------------------------


def test_read_session_numbers_deals_and_lines():
    header, deals = read_session(NIGHT.splitlines(), "night.txt")
    assert (header.rules, header.stake, header.pair_stakes) == ("ofc", "10", ())
    deals = list(deals)
    assert [(deal.number, deal.line, len(deal.entries)) for deal in deals] == [(1, 5, 3), (2, 9, 3), (3, 13, 3)]
    assert deals[1].entries[0].where == "night.txt, line 9"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("@colour red\n", "s.txt, line 1: unknown header @colour"),
        ("@rules\n", "s.txt, line 1: @rules needs a value"),
        (f"A: {AMY}\nB: {BOB}\n\n@stake 3\n", "s.txt, line 4: @stake 3 has no deal after it"),
        (f"A: {AMY}\nB {BOB}\n", "s.txt, line 2: expected NAME: HAND"),
        (f"A: {AMY}\nB: {BOB}\n@stake 3\n", "s.txt, line 3: a stake line goes between two deals"),
        ("@stake 3\n@stake 4\n", "s.txt, line 2: @stake is given twice \\(first at line 1\\)"),
        ("@rules ofc\n\n@rules 1-6\n", "s.txt, line 3: @rules is given twice \\(first at line 1\\)"),
        (f"A: {AMY}\n@B: {BOB}\n", "s.txt, line 2: header lines go at the top"),
        (
            f"A: {AMY}\nB\u2028x: {BOB}\n",
            "s.txt, line 2: player name .* contains an invisible or control character \\(U\\+2028\\)",
        ),
    ],
)
def test_session_structure_errors(text, message):
    """Header errors stop the reading; a malformed deal line makes that deal
    invalid (the ledger refuses it, naming the line), and the rest can be read."""
    with pytest.raises(DealError, match=message):
        header, deals = read_session(text.split("\n"), "s.txt")
        ledger = Ledger(get_rules("2-4"))
        for deal in deals:
            ledger.add(deal, "s.txt")


# The ledger -------------------------------------------------------------------------


def random_deal(draw, players):
    order = draw(st.permutations(range(52)))
    hands = {}
    for seat, name in enumerate(players):
        cards = [CARDS[code] for code in order[13 * seat : 13 * seat + 13]]
        front, middle, back = cards[:3], cards[3:8], cards[8:]
        if evaluate_row(middle) > evaluate_row(back):
            middle, back = back, middle
        hands[name] = " / ".join(" ".join(map(str, row)) for row in (front, middle, back))
    return hands


@st.composite
def sessions(draw):
    rules = get_rules(draw(st.sampled_from(["2-4", "1-6", "ofc", "pineapple", "taiwanese"])))
    group = ["Amy", "Bob", "Cy", "Dee"][: rules.methods.max_players]
    deals = []
    for _ in range(draw(st.integers(1, 6))):
        players = group[: draw(st.integers(2, len(group)))]
        deals.append(random_deal(draw, players))
    stake = Decimal(draw(st.integers(1, 40))) / 4
    return rules, deals, stake


def session_text(deals):
    return "\n\n".join("\n".join(f"{name}: {hand}" for name, hand in deal.items()) for deal in deals) + "\n"


@settings(max_examples=60, deadline=None)
@given(sessions())
def test_ledger_totals_are_the_sum_of_the_deals(case):
    rules, deals, stake = case
    ledger = Ledger(rules, stake)
    _, texts = read_session(session_text(deals).splitlines(), "s.txt")
    for text in texts:
        ledger.add(text, "s.txt")
    expected_units, expected_money = {}, {}
    for deal in deals:
        result = settle(build_deal([Entry(n, h, "") for n, h in deal.items()], rules), rules, stake)
        for player in result.players:
            expected_units[player.name] = expected_units.get(player.name, 0) + player.units
            expected_money[player.name] = expected_money.get(player.name, 0) + player.amount
    assert {name: (units, money) for name, units, money in ledger.totals()} == {
        name: (expected_units[name], expected_money[name]) for name in expected_units
    }
    assert sum(money for _, _, money in ledger.totals()) == 0


@settings(max_examples=300)
@given(st.lists(st.integers(-10_000, 10_000), min_size=1, max_size=8))
def test_transfers_settle_every_balance_in_at_most_players_minus_one(amounts):
    balances = {f"P{i}": Decimal(amount) / 4 for i, amount in enumerate(amounts)}
    balances["Last"] = -sum(balances.values())
    payments = transfers(balances)
    assert len(payments) <= len(balances) - 1
    left = dict(balances)
    for payment in payments:
        assert payment.amount > 0
        left[payment.payer] += payment.amount
        left[payment.payee] -= payment.amount
    assert all(value == 0 for value in left.values())
    assert [(p.payer, p.payee, p.amount) for p in transfers(dict(reversed(balances.items())))] == [
        (p.payer, p.payee, p.amount) for p in payments
    ]


def test_fantasyland_across_deals_allows_one_repeat():
    ledger = Ledger(get_rules("ofc"))
    _, texts = read_session(NIGHT.replace("@rules ofc\n", "").splitlines(), "night.txt")
    statuses = []
    for text in texts:
        result = ledger.add(text, "night.txt")
        statuses.append(result.settlement.players[0].fantasyland.status)
    # KK in front enters; a full house in the middle stays; trips in front would
    # stay again, but one repeat in a row is the limit.
    assert statuses == ["enters", "stays", "leaves"]


def test_fantasyland_marker_is_refused_in_a_session(tmp_path):
    path = tmp_path / "s.txt"
    path.write_text(f"@rules ofc\nAmy: {AMY} ; fantasyland\nBob: {BOB}\n")
    result = run("session", str(path))
    assert result.exit_code == 2
    assert "in a session Fantasyland is followed from deal to deal" in result.stderr


def test_race_points_and_winner():
    ledger = Ledger(get_rules("ofc"), race=3)
    _, texts = read_session(NIGHT.splitlines(), "night.txt")
    points = [ledger.add(text, "night.txt").race_points for text in texts]
    assert points[0] == {"Amy": 2, "Bob": 1, "Cy": 0}
    assert points[1] == {"Amy": 3, "Bob": 0, "Cy": 0}
    assert (ledger.race.winner, ledger.race.deal) == ("Amy", 2)


def test_race_fourth_point_and_tie_plays_on():
    four = session_text(
        [
            {"A": ANN, "B": BEN, "C": CAT, "D": "3s 7s 5d / Tc Jc Qc 4d 4s / 2h 7h 8h Jh Ah"},
        ]
    )
    ledger = Ledger(get_rules("2-4"), race=11)
    _, texts = read_session(four.splitlines(), "s.txt")
    result = ledger.add(next(texts), "s.txt")
    assert result.race_points == {"A": 4, "B": 0, "C": 0, "D": 0}  # all three rows at a four-player table
    tie = Ledger(get_rules("2-4"), race=1)
    _, texts = read_session(session_text([{"A": AMY, "B": BOB}]).splitlines(), "s.txt")
    tie.add(next(texts), "s.txt")
    # Amy takes front and back, Bob the middle: both reach 1 in the same deal,
    # Amy with more points.
    assert (tie.race.winner, tie.race.points) == ("A", {"A": 2, "B": 1})


# The command ------------------------------------------------------------------------


def test_session_table(night):
    assert (
        ok("session", str(night))
        == f"""\
Session {night}: rules ofc, stake 10 a unit
Each deal: units on the first line, money on the second, so far in brackets.

Deal  Line  Id        Amy           Bob           Cy
   1     5  43bfbafd  +29 (+29)     -8 (-8)       -21 (-21)
                      +290 (+290)   -80 (-80)     -210 (-210)
                      Amy FL next (13)
   2     9  3e50532f  +60 (+89)     -26 (-34)     -34 (-55)
                      +600 (+890)   -260 (-340)   -340 (-550)
                      Amy FL stays (13)
   3    13  e5867b25  +55 (+144)    -53 (-87)     -2 (-57)
                      +550 (+1440)  -530 (-870)   -20 (-570)
                      Amy FL leaves; Bob FOUL; Cy surrenders

Totals after 3 deals:

Player      Units    Money
--------  -------  -------
Amy          +144    +1440
Bob           -87     -870
Cy            -57     -570

Head to head over the night, units won by each player (row) from each (column):

       Amy    Bob    Cy    Total
---  -----  -----  ----  -------
Amy           +93   +51     +144
Bob    -93           +6      -87
Cy     -51     -6            -57

Money won by each player (row) from each opponent (column):

       Amy    Bob    Cy    Total
---  -----  -----  ----  -------
Amy          +930  +510    +1440
Bob   -930          +60     -870
Cy    -510    -60           -570

To settle:
  Bob pays Amy 870
  Cy pays Amy 570
"""
    )


def test_session_json_and_totals(night):
    data = json.loads(ok("session", "--format", "json", str(night)))
    assert list(data) == ["format_version", "rules", "stake", "deals", "totals", "transfers", "versus"]
    assert [deal["deal"] for deal in data["deals"]] == [1, 2, 3]
    assert data["deals"][1]["line"] == 9
    assert [p["units"] for p in data["deals"][1]["players"]] == [60, -26, -34]
    assert data["totals"] == [
        {"name": "Amy", "units": 144, "amount": 1440},
        {"name": "Bob", "units": -87, "amount": -870},
        {"name": "Cy", "units": -57, "amount": -570},
    ]
    assert data["transfers"] == [
        {"from": "Bob", "to": "Amy", "amount": 870},
        {"from": "Cy", "to": "Amy", "amount": 570},
    ]
    totals = json.loads(ok("session", "--totals", "--format", "json", str(night)))
    assert list(totals) == ["format_version", "rules", "stake", "totals", "transfers", "versus"]
    assert totals["totals"] == data["totals"]
    # Head to head: what b paid a over the night, each pair once (Amy +29 +60 +55 = 144, of it 93 from Bob).
    assert totals["versus"] == [
        {"a": "Amy", "b": "Bob", "units": 93, "amount": 930},
        {"a": "Amy", "b": "Cy", "units": 51, "amount": 510},
        {"a": "Bob", "b": "Cy", "units": 6, "amount": 60},
    ]


def test_session_json_lines_and_csv(night):
    lines = ok("session", "--format", "jsonl", str(night)).splitlines()
    assert len(lines) == 4
    assert [json.loads(line)["deal"] for line in lines[:3]] == [1, 2, 3]
    # Each deal's identity (cpscore.session.deal_digest), after its line, as in the JSON.
    assert [list(json.loads(line))[:4] for line in lines[:3]] == [["format_version", "deal", "line", "digest"]] * 3
    assert json.loads(lines[3])["format_version"] == 1
    assert [json.loads(line)["digest"] for line in lines[:3]] == ["43bfbafd", "3e50532f", "e5867b25"]
    assert json.loads(lines[3])["transfers"][0] == {"from": "Bob", "to": "Amy", "amount": 870}
    csv = ok("session", "--format", "csv", str(night)).splitlines()
    assert csv[0].split(",") == [
        "deal",
        "line",
        "digest",
        "player",
        "units",
        "amount",
        "total units",
        "total amount",
        "foul",
        "natural",
        "surrendered",
        "fantasyland",
        "race points",
        "result",
        "dealer",
    ]
    assert csv[1] == "1,5,43bfbafd,Amy,29,290,29,290,no,,no,enters,,,"
    assert len(csv) == 1 + 9


def test_command_line_wins_over_the_header(night):
    data = json.loads(ok("session", "--totals", "--format", "json", "--rules", "1-6", "--stake", "1", str(night)))
    assert (data["rules"], data["stake"]) == ("1-6", 1)
    paired = json.loads(ok("session", "--format", "json", "--pair-stake", "Amy:Bob=100", str(night)))
    assert paired["deals"][0]["pairs"][0]["stake"] == 100


def test_session_from_stdin_and_race(night):
    out = ok("session", "--race", "3", "--totals", "-", input=night.read_text())
    assert out.endswith("Race to 3: Amy 8, Bob 1, Cy 0.\nAmy wins the race at deal 2.\n")


def test_every_invalid_deal_is_reported_and_nothing_is_printed(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text(f"Amy: {AMY}\nBob: {BOB[:-2]}2x\n\nAmy: {AMY}\n\nAmy: {AMY}\nBob: {BOB}\n")
    result = run("session", str(path))
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        f"Error: {path}, line 2: Bob, back: unknown card '2x': a card is a rank (2-9, T or 10, J, Q, K, A) "
        "then a suit (s, h, d, c or ♠ ♥ ♦ ♣)",
        f"Error: {path}, deal 2 (line 4): 1 player in the deal: a deal has 2 to 4 players",
    ]
    skipped = run("session", "--skip-invalid", "--totals", str(path))
    assert skipped.exit_code == 0
    assert "Totals after 1 deal:" in skipped.stdout
    assert skipped.stderr.count("skipped: ") == 2
    piped = run("session", "-", input=path.read_text())
    assert piped.exit_code == 2
    assert piped.stdout == ""
    assert piped.stderr.startswith("Error: stdin, line 2: Bob, back: unknown card '2x'")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["session", "missing.txt"], "Error: cannot read session file 'missing.txt'"),
        (["session", "--race", "0", "x.txt"], "Invalid value for '--race'"),
        (["session", "--format", "xml", "x.txt"], "Invalid value for '--format'"),
    ],
)
def test_session_option_errors(args, message):
    result = run(*args)
    assert result.exit_code == 2
    assert message in result.stderr


def test_header_errors_name_the_header(tmp_path):
    path = tmp_path / "s.txt"
    path.write_text(f"@rules chinese\n\nA: {AMY}\nB: {BOB}\n")
    result = run("session", str(path))
    assert result.exit_code == 2
    assert f"Error: {path}, line 1: @rules: unknown rule set 'chinese'" in result.stderr
    path.write_text(f"# night\n@stake lots\n\nA: {AMY}\nB: {BOB}\n")
    assert f"Error: {path}, line 2: @stake 'lots' is not a number" in run("session", str(path)).stderr


# add --------------------------------------------------------------------------------


def test_add_builds_a_session_deal_by_deal(tmp_path):
    path = tmp_path / "night.txt"
    assert ok("add", str(path), "--rules", "ofc", f"Amy={AMY}", f"Bob={BOB}", f"Cy={CY}") == (
        f"added deal 1 (line 3, 43bfbafd) to {path}: Amy +29, Bob -8, Cy -21 (Amy FL next (13))\n"
    )
    assert ok("add", str(path), input=f"Amy: {ANN}\nBob: {BEN}\nCy: {CAT}\n") == (
        f"added deal 2 (line 7, 3e50532f) to {path}: Amy +60, Bob -26, Cy -34 (Amy FL stays (13))\n"
    )
    ok(
        "add",
        str(path),
        "Amy=2s 2d 2c / 9h 9c 9d 4s 4c / Ts Js Qs Ks As",
        "Bob=Qd Qc 3h / Jc Td 8d 6s 5c / Kc 7h 5h 4h 3d",
        "Cy=surrender",
    )
    text = path.read_text()
    assert text.startswith(f"@rules ofc\n\nAmy: {AMY}\n")
    assert "Cy: surrender\n" in text
    totals = json.loads(ok("session", "--totals", "--format", "json", str(path)))
    assert [(t["name"], t["units"]) for t in totals["totals"]] == [("Amy", 144), ("Bob", -87), ("Cy", -57)]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([f"Amyy={AMY}", f"Bob={BOB}"], "Error: 'Amyy' has not played in {path} (players: Amy, Bob, Cy)"),
        ([f"Amy={AMY}", f"Bob={AMY}"], "Error: Ks is dealt twice: in Amy's front and in Bob's front"),
        ([f"Amy={AMY}"], "Error: 1 player in the deal"),
        ([f"Amy={AMY[:-2]}7x", f"Bob={BOB}"], "Error: Amy, back: unknown card '7x'"),
        (["--rules", "1-6", f"Amy={AMY}", f"Bob={BOB}"], "already exists: --rules only starts a new session file"),
        ([f"Amy={AMY} ; fantasyland", f"Bob={BOB}"], "in a session Fantasyland is followed from deal to deal"),
    ],
    ids=["unknown-player", "card-twice", "one-player", "bad-card", "rules-on-existing", "fantasyland-marker"],
)
def test_add_errors_leave_the_file_untouched(tmp_path, args, message):
    path = tmp_path / "night.txt"
    path.write_text(f"@rules ofc\n\nAmy: {AMY}\nBob: {BOB}\nCy: {CY}\n")
    before = path.read_bytes()
    result = run("add", str(path), *args)
    assert result.exit_code == 2
    assert message.replace("{path}", str(path)) in result.stderr
    assert path.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == [".night.txt.lock", "night.txt"]


def test_add_new_player_when_asked(tmp_path):
    path = tmp_path / "night.txt"
    path.write_text(f"Amy: {AMY}\nBob: {BOB}\n")
    ok("add", str(path), "--new-player", "Dee", f"Amy={ANN}", f"Dee={BEN}")
    assert path.read_text().endswith(f"\nAmy: {ANN}\nDee: {BEN}\n")


@pytest.mark.parametrize(
    ("name", "failure", "code", "message"),
    [
        ("replace", OSError(28, "No space left on device"), 1, "could not write"),
        ("fsync", OSError(5, "Input/output error"), 1, "could not write"),
        ("fsync", KeyboardInterrupt(), 1, "Aborted"),
    ],
    ids=["disk-full", "io-error", "interrupted"],
)
def test_failed_write_leaves_the_file_and_no_temporary(tmp_path, monkeypatch, name, failure, code, message):
    path = tmp_path / "night.txt"
    path.write_text(f"Amy: {AMY}\nBob: {BOB}\n")
    before = path.read_bytes()

    def broken(*args):
        raise failure

    monkeypatch.setattr(os, name, broken)
    result = run("add", str(path), f"Amy={ANN}", f"Bob={BEN}")
    monkeypatch.undo()
    assert result.exit_code == code
    assert message in result.stderr and result.stdout == ""
    assert path.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == [".night.txt.lock", "night.txt"]


def test_killed_writer_never_leaves_half_a_deal(tmp_path):
    """Kill an `add` while it holds the lock and its temporary file is written
    but not yet renamed: the file is whole, and the next `add` neither waits
    for the dead writer's lock nor keeps its temporary file."""
    path = tmp_path / "night.txt"
    path.write_text(f"Amy: {AMY}\nBob: {BOB}\n")
    before = path.read_bytes()
    code = (
        "import os, sys, time\n"
        "os.fsync = lambda fd: time.sleep(60)\n"
        "from cpscore.cli import main\n"
        "main(['add', sys.argv[1], sys.argv[2], sys.argv[3]])\n"
    )
    process = subprocess.Popen([sys.executable, "-c", code, str(path), f"Amy={ANN}", f"Bob={BEN}"])
    try:
        for _ in range(400):  # wait for the temporary file to appear
            if any(name.endswith(".tmp") for name in os.listdir(tmp_path)):
                break
            time.sleep(0.05)
        assert any(name.endswith(".tmp") for name in os.listdir(tmp_path))
        process.send_signal(signal.SIGKILL)
        process.wait()
    finally:
        if process.poll() is None:
            process.kill()
    assert path.read_bytes() == before
    assert "Totals after 1 deal" in ok("session", "--totals", str(path))
    ok("add", str(path), f"Amy={ANN}", f"Bob={BEN}")
    assert sorted(os.listdir(tmp_path)) == [".night.txt.lock", "night.txt"]
    assert "Totals after 2 deals" in ok("session", "--totals", str(path))


# The ledger and the spool agree with the settlement ----------------------------------------


@st.composite
def plain_deals(draw):
    rules = get_rules(draw(st.sampled_from(["2-4", "1-6", "ofc", "ofc-western", "pineapple", "taiwanese"])))
    if draw(st.booleans()):
        changes = draw(
            st.sampled_from(
                [
                    {"wheel": "second"},
                    {"low_middle": True},
                    {"royalties": {"mode": "row-bonus", "cancel_when_both": True}},
                    {"royalties": {"spade_bonus": True, "max_per_hand": 1}},
                    {"scoop_doubles": True, "home_run": True},
                ]
            )
        )
        from cpscore.rules import changed_settings, from_settings

        rules = from_settings(changed_settings(rules, changes), "test")
    players = ["Amy", "Bob", "Cy", "Dee"][: draw(st.integers(2, rules.methods.max_players))]
    hands = random_deal(draw, players)
    playing = draw(st.sets(st.sampled_from(players)))
    repeats = draw(st.sets(st.sampled_from(sorted(playing)))) if playing else set()
    stake = Decimal(draw(st.integers(0, 40))) / 4
    return rules, hands, playing, repeats, stake


@settings(max_examples=200, deadline=None)
@given(plain_deals())
def test_the_ledger_totals_equal_the_settlement(case):
    """The ledger's totals and Fantasyland come from the same kernel as the
    records: one deal's totals equal the settlement's."""
    from cpscore.session import DealText, Ledger

    rules, hands, playing, repeats, stake = case
    if rules.ofc.fantasyland == "none":
        playing, repeats = set(), set()
    entries = [Entry(name, text, "") for name, text in hands.items()]
    full = settle(build_deal(entries, rules, fantasyland=playing), rules, stake, None, repeats)
    ledger = Ledger(rules, stake)
    ledger.fantasyland = {name: name in repeats for name in playing}
    ledger.take(DealText(1, 1, entries), "s.txt")
    assert ledger.totals() == [(p.name, p.units, p.amount) for p in full.players]
    following = {p.name for p in full.players if p.fantasyland and p.fantasyland.next}
    assert set(ledger.fantasyland) == following


def test_totals_csv_quotes_names(tmp_path):
    path = tmp_path / "s.txt"
    path.write_text(f"Amy, Jr: {AMY}\nBob: {BOB}\n")
    out = ok("session", "--totals", "--format", "csv", str(path))
    assert out == 'player,units,amount\n"Amy, Jr",2,2\nBob,-2,-2\n'


@settings(max_examples=150, deadline=None)
@given(plain_deals())
def test_the_spool_gives_back_each_deal_as_its_view_wrote_it(case):
    """A deal is written when it is settled, its records made from the
    kernel's outcome as ``score`` makes them (Decimal stakes included); what
    the printing pass reads back is exactly what each view wrote."""
    from cpscore.session import DealText, Ledger, Spool
    from cpscore.session_views import deal_text

    rules, hands, playing, repeats, stake = case
    if rules.ofc.fantasyland == "none":
        playing, repeats = set(), set()
    entries = [Entry(name, text, "") for name, text in hands.items()]
    deal = build_deal(entries, rules, fantasyland=playing)
    ledger, spool = Ledger(rules, stake), Spool()
    ledger.fantasyland = {name: name in repeats for name in playing}
    text = DealText(1, 1, entries)
    result = ledger.result(text, *ledger.take(text, "s.txt"))
    assert result.settlement == settle(deal, rules, stake, None, repeats)._replace(warnings=())
    assert result.running == {name: (units, money) for name, units, money in ledger.totals()}
    written = [deal_text(fmt, result, "*" if fmt == "table" else None) for fmt in ("jsonl", "json", "csv", "table")]
    for item in written:
        spool.put(item)
    assert list(spool.items()) == written
    spool.close()


@pytest.mark.parametrize(
    "hands",
    [
        ["Amy=2h 3d 4c 5s 6h 7d 8c 9s Th Jd Qc Ks Ah", "Bob=Qs Js 3c / 9h Tc 8h 8s 3h / Kh Qh Jh 7h 2s"],
        [
            "Amy=3h 5h 7h / 3c 5c 7c 9c Tc / 2s 5s 7s 9s Js",
            "Bob=surrender",
            "Cy=Qs Jd 3d / Th 9d 8d 8s 4d / Kh Qh Jh 8h 2h",
        ],
    ],
    ids=["a dragon", "three flushes and a surrender"],
)
def test_the_spool_keeps_naturals_and_surrenders(hands):
    from cpscore.deal import entry_from_argument
    from cpscore.session import DealText, Ledger, Spool
    from cpscore.session_views import TABLE_NOTES, deal_text

    rules = get_rules("1-6").with_settings(surrender=2.5)
    entries = [entry_from_argument(hand) for hand in hands]
    ledger, spool = Ledger(rules), Spool()
    text = DealText(1, 1, entries)
    deal, outcome = ledger.take(text, "s.txt")
    assert any(outcome.naturals)
    result = ledger.result(text, deal, outcome)
    written = [deal_text("table", result, "*"), deal_text("jsonl", result)]
    for item in written:
        spool.put(item)
    assert list(spool.items()) == written
    assert written[0][TABLE_NOTES].startswith(("Amy dragon", "Amy three flushes (3); Bob surrenders"))
    spool.close()


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=300)
@given(json_values, st.booleans())
def test_both_json_writers_write_the_same_text(value, ascii_only):
    """JSON Lines use the json module when there is no Decimal: it must write
    exactly what cpscore's own writer does (escapes, non-ASCII, key order)."""
    from cpscore.formatting import ASCII_JSON, json_text
    from cpscore.session_views import compact_json

    ASCII_JSON[0] = ascii_only
    try:
        assert compact_json(value) == json_text(value, compact=True)
    finally:
        ASCII_JSON[0] = False


def test_json_lines_write_decimals_exactly(tmp_path):
    path = tmp_path / "s.txt"
    path.write_text(f"@stake 0.1\n\nAmy: {AMY}\nBob: {BOB}\n")
    first = ok("session", "--format", "jsonl", str(path)).splitlines()[0]
    assert '"stake":0.1' in first and '"amount":0.2' in first


def test_a_full_disk_while_keeping_the_deals_is_an_environment_error(tmp_path, monkeypatch):
    import errno

    from cpscore.session import Spool

    def full(*args):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(Spool, "put", full)
    path = tmp_path / "s.txt"
    path.write_text(f"Amy: {AMY}\nBob: {BOB}\n")
    result = CliRunner().invoke(main, ["session", str(path)])
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == "Error: cannot keep the settled deals in a temporary file: No space left on device\n"


def test_a_stream_that_fails_midway_is_an_environment_error(tmp_path, monkeypatch):
    """Stdin is read once, as it comes: a read that fails is exit 1, nothing printed."""
    import errno
    import io

    class Failing(io.RawIOBase):
        def __init__(self):
            self.data = f"Amy: {AMY}\nBob: {BOB}\n\n".encode() * 3

        def readable(self):
            return True

        def readinto(self, buffer):
            if not self.data:
                raise OSError(errno.EIO, os.strerror(errno.EIO))
            count = min(len(buffer), len(self.data), 50)
            buffer[:count], self.data = self.data[:count], self.data[count:]
            return count

    from cpscore.commands import session as command

    stream = io.BufferedReader(Failing())
    monkeypatch.setattr(command, "stdin_stream", lambda: stream)
    result = CliRunner().invoke(main, ["session", "-"])
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == "Error: cannot read stdin: Input/output error\n"


def _deal_lines_agree(path, *options):
    """Every deal's JSON line, from templates, is the generic writer's text."""
    from cpscore.session import Ledger
    from cpscore.session_views import compact_json, deal_data, deal_line
    from cpscore.textio import read_lines

    rules = get_rules(options[0]) if options else None
    with open(path, "rb") as file:
        header, deals = read_session(read_lines(file, str(path)), str(path))
        from cpscore.session import header_rules

        chosen = rules or header_rules(header, str(path)) or get_rules("2-4")
        stake = Decimal(header.stake) if header.stake else 1
        ledger = Ledger(chosen, stake, None, 3)
        count = 0
        for text in deals:
            result = ledger.result(text, *ledger.take(text, str(path)))
            assert deal_line(result) == compact_json(deal_data(result))
            count += 1
    return count


@pytest.mark.parametrize("example", ["session.txt", "naturals.txt", "surrender.txt", "four-players.txt"])
@pytest.mark.parametrize("ascii_only", [False, True], ids=["utf-8", "ascii"])
def test_json_lines_from_templates_equal_the_generic_writer(example, ascii_only, tmp_path):
    from cpscore.formatting import ASCII_JSON

    text = (pathlib.Path(__file__).parent.parent / "examples" / example).read_text(encoding="utf-8")
    if not text.lstrip().startswith(("@", "#")) or "@rules" not in text:
        text = "@stake 0.25\n\n" + text
    text = text.replace("Amy", 'Nguyễn "A"') if "Amy" in text else text
    path = tmp_path / example
    path.write_text(text, encoding="utf-8")
    ASCII_JSON[0] = ascii_only
    try:
        assert _deal_lines_agree(path) >= 1
    finally:
        ASCII_JSON[0] = False


@settings(max_examples=100, deadline=None)
@given(plain_deals())
def test_json_lines_from_templates_on_generated_deals(case):
    from cpscore.scoring import kernel, settlement_of
    from cpscore.session import DealResult, DealText, deal_digest
    from cpscore.session_views import compact_json, deal_data, deal_line

    rules, hands, playing, repeats, stake = case
    if rules.ofc.fantasyland == "none":
        playing, repeats = set(), set()
    entries = [Entry(name, text, "") for name, text in hands.items()]
    deal = build_deal(entries, rules, fantasyland=playing)
    settlement = settlement_of(deal, rules, stake, kernel(deal.seats, rules, stake, None, repeats))
    running = {p.name: (p.units, p.amount) for p in settlement.players}
    digest = deal_digest(DealText(7, 12, entries))
    for points in (None, {name: 1 for name in hands}):
        result = DealResult(7, 12, settlement, running, points, digest=digest)
        assert deal_line(result) == compact_json(deal_data(result))
