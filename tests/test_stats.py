"""``cpscore stats``: a night's statistics per player, counted from the
kernel's results as the session streams (cpscore/stats.py, cpscore/stats_views.py)."""

import json
import pathlib

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from cpscore.cards import CARDS
from cpscore.cli import main
from cpscore.hands import evaluate_row
from cpscore.rules import get_rules
from cpscore.scoring import settlement_of
from cpscore.session import Ledger, read_session
from cpscore.stats import Biggest, Stats
from cpscore.stats_views import player_data, stats_data

ROOT = pathlib.Path(__file__).parent.parent

AMY = "Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d"
BOB = "Qs Jd 3c / Th Tc 8d 8s 3d / Kh Qh Jh 8h 2h"
CY = "As 6d 2s / 6c 6h 4d 4s 3s / Js Ts 9s 8c 7c"
DAN = "Qd Qc 3h / Jc Td 9d 6s 5c / Kc 7h 5h 4h 2d"  # fouled: a front pair of queens over a jack-high middle
ANN = "Qh Qd 2c / Kh Kd Kc 3h 3d / 9s 9h 9d 9c 4h"
BEN = "Js Jd 5c / Th Td 8c 8d 2d / Ac Ad 6s 6h 7c"
CAT = "Ts 7d 4c / 6c 6d 5s 5h 3c / As Ks Qs 8s 2s"


def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input, prog_name="cpscore")


def ok(*args, input=None):
    result = run(*args, input=input)
    assert result.exit_code == 0, result.stderr
    return result.stdout


# examples/session.txt (ofc, stake 10), worked out by hand from the pairs
# (`cpscore session --explain examples/session.txt` shows each):
#
# deal 1  Amy-Bob rows +1 -1 +1       Amy-Cy +1 +1 +1 (Amy scoops)   Bob-Cy -1 +1 +1
#         royalties held: Amy KK 8 + full house 6 = 14, Bob flush 4, Cy straight 2
#         Amy enters Fantasyland (KK); units Amy +29, Bob -8, Cy -21
# deal 2  Amy-Bob +1 +1 +1 (scoop)    Amy-Cy +1 +1 +1 (scoop)        Bob-Cy +1 +1 -1
#         royalties: Amy QQ 7 + full house 12 + quads 10 = 29, Bob JJ 6, Cy flush 4
#         Amy stays in Fantasyland (quads in the back); units Amy +60, Bob -26, Cy -34
# deal 3  Bob fouls: Amy-Bob +1 +1 +1 (Amy scoops a fouled hand, as 1-6 pays it)
#         Cy surrenders: Amy-Cy and Bob-Cy play no rows
#         royalties: Amy 222 10 + full house 12 + royal 25 = 47, Bob none (fouled), Cy none
#         Amy leaves Fantasyland (her one repeat); units Amy +55, Bob -53, Cy -2
#
# rows won   Amy 2+3 +3+3 +3 = 14   Bob 1+2 +0+2 +0 = 5    Cy 0+1 +0+1 = 2   (21 in all)
# rows lost  Amy 1+0 +0+0 +0 = 1    Bob 2+1 +3+1 +3 = 10   Cy 3+2 +3+2 = 10  (21 in all)
# scoops     Amy made 4 (Cy 1, Bob 2, Cy 2, Bob 3); Bob suffered 2 (deals 2, 3), Cy 2 (1, 2)
# royalties  Amy 14 + 29 + 47 = 90; Bob 4 + 6 + 0 = 10; Cy 2 + 4 = 6
# biggest    Amy won +60 (deal 2), lost none; Bob won none, lost -53 (deal 3);
#            Cy won none, lost -34 (deal 2, beside -21 and -2)
# totals     as `session`: Amy +144 (+1440), Bob -87 (-870), Cy -57 (-570)
SESSION_STATS = """\
Session examples/session.txt: rules ofc, stake 10 a unit

Statistics after 3 deals:

                              Amy           Bob            Cy
-------------------  ------------  ------------  ------------
Deals played                    3             3             3
Rows won                       14             5             2
Rows lost                       1            10            10
Rows tied                       0             0             0
Scoops made                     4             0             0
Scoops suffered                 0             2             2
Fouls                           0             1             0
Surrenders                      0             0             1
Royalties                      90            10             6
Fantasyland entries             1             0             0
Fantasyland stays               1             0             0
Biggest deal won     +60 (deal 2)             -             -
Biggest deal lost               -  -53 (deal 3)  -34 (deal 2)
Units                        +144           -87           -57
Money                       +1440          -870          -570
"""


@pytest.fixture
def in_repo(monkeypatch):
    monkeypatch.chdir(ROOT)


def test_session_example_table(in_repo):
    assert ok("stats", "examples/session.txt") == SESSION_STATS


def test_session_example_from_stdin_is_the_same(in_repo):
    text = (ROOT / "examples" / "session.txt").read_text()
    out = ok("stats", "-", input=text)
    assert out == SESSION_STATS.replace("examples/session.txt", "stdin")


def test_session_example_json(in_repo):
    data = json.loads(ok("stats", "--format", "json", "examples/session.txt"))
    assert list(data) == ["format_version", "rules", "stake", "deals", "players"]
    assert (data["rules"], data["stake"], data["deals"]) == ("ofc", 10, 3)
    assert [player["name"] for player in data["players"]] == ["Amy", "Bob", "Cy"]
    amy, bob, cy = data["players"]
    assert amy == {
        "name": "Amy",
        "deals": 3,
        "hands": 3,
        "results": 0,
        "rows": {"won": 14, "lost": 1, "tied": 0},
        "scoops": {"made": 4, "suffered": 0},
        "fouls": 0,
        "surrenders": 0,
        "naturals": {},
        "false_claims": 0,
        "royalties": 90,
        "fantasyland": {"entries": 1, "stays": 1},
        "biggest_win": {"deal": 2, "units": 60, "amount": 600},
        "biggest_loss": None,
        "units": 144,
        "amount": 1440,
    }
    assert list(bob) == list(amy)  # one shape for every player, whatever the rules
    assert (bob["fouls"], bob["biggest_win"], bob["biggest_loss"]) == (
        1,
        None,
        {"deal": 3, "units": -53, "amount": -530},
    )
    assert (cy["surrenders"], cy["rows"], cy["royalties"]) == (1, {"won": 2, "lost": 10, "tied": 0}, 6)


def test_the_command_line_wins_over_the_header(in_repo):
    out = ok("stats", "--stake", "2", "--rules", "1-6", "examples/session.txt")
    # Under 1-6 there are no royalties and no Fantasyland: those lines go; the
    # rows are the same (royalties never decide a row), the units are not.
    assert out.startswith("Session examples/session.txt: rules 1-6, stake 2 a unit\n")
    assert "Royalties" not in out and "Fantasyland" not in out
    assert "Rows won                     14            5            2\n" in out


# A criss-cross night under 1-6 (docs/rules.md 4): Amy plays two hands each deal;
# Bob two in the first, and Cy joins for the second with one.
#
# deal 1  Amy[1]-Bob[1] +1 -1 +1   Amy[1]-Bob[2] +1 +1 +1 (Bob[2] fouled: scooped)
#         Amy[2]-Bob[1] +1 -1 -1   Amy[2]-Bob[2] +1 +1 +1 (scooped)
#         Amy won 2+3+1+3 = 9, lost 1+0+2+0 = 3; units +1 +6 -1 +6 = +12, Bob -12
# deal 2  Amy[1]-Cy +1 +1 +1 (scoop)  Amy[2]-Cy +1 +1 -1
#         Amy won 3+2 = 5, lost 1; units +6 +1 = +7, Cy -7; Bob sits out
#
# Amy: 2 deals, 4 hands, won 14, lost 4, 3 scoops, +19; Bob: 1 deal, 2 hands,
# won 3, lost 9, 2 scoops suffered, 1 foul, -12; Cy: 1 deal, 1 hand, won 1,
# lost 5, 1 scoop suffered, -7.  18 rows won, 18 lost.
CROSS = f"""\
@rules 1-6

Amy[1]: {AMY}
Amy[2]: {CY}
Bob[1]: {BOB}
Bob[2]: {DAN}

Amy[1]: {ANN}
Amy[2]: {BEN}
Cy: {CAT}
"""

CROSS_STATS = """\
Session night.txt: rules 1-6

Statistics after 2 deals:

                            Amy           Bob           Cy
-----------------  ------------  ------------  -----------
Deals played                  2             1            1
Hands played                  4             2            1
Rows won                     14             3            1
Rows lost                     4             9            5
Rows tied                     0             0            0
Scoops made                   3             0            0
Scoops suffered               0             2            1
Fouls                         0             1            0
Surrenders                    0             0            0
Naturals                      0             0            0
Biggest deal won   +12 (deal 1)             -            -
Biggest deal lost             -  -12 (deal 1)  -7 (deal 2)
Units                       +19           -12           -7
"""


def test_criss_cross_counts_each_players_hands_together(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    pathlib.Path("night.txt").write_text(CROSS)
    assert ok("stats", "night.txt") == CROSS_STATS
    data = json.loads(ok("stats", "--format", "json", "night.txt"))
    assert [(p["name"], p["deals"], p["hands"]) for p in data["players"]] == [
        ("Amy", 2, 4),
        ("Bob", 1, 2),
        ("Cy", 1, 1),
    ]


# Naturals under taiwanese (six pairs 6, three flushes 3, dragon 36; a scoop doubles):
#
# deal 1  Dee six pairs (unset), Eve three flushes (set: claimed as set), Fay rows.
#         Every pair is decided by a natural: no rows.  Dee +6 +6 = +12, Eve -6 +3 = -3, Fay -9
# deal 2  Fay a dragon (unset): Dee-Fay and Eve-Fay are naturals.  Dee-Eve +1 -1 +1.
#         Dee +1 -36 = -35, Eve -1 -36 = -37, Fay +72
# deal 3  Dee-Eve 0 -1 +1 (a tie: both fronts 7-7-2)  Dee-Fay +1 +1 +1 (scoop, x2)
#         Eve-Fay +1 +1 -1.  Dee 0 + 6 = +6, Eve 0 + 1 = +1, Fay -7
#
# rows won  Dee 2 + 1+3 = 6, Eve 1 + 1+2 = 4, Fay 1 (11 in all)
# rows lost Dee 1 + 1 = 2, Eve 2 + 1+1 = 4, Fay 2+3 = 5 (11 in all); tied Dee 1, Eve 1
# biggest   Dee won +12 (1), lost -35 (2); Eve won +1 (3), lost -37 (2);
#           Fay won +72 (2), lost -9 (1, beside -7 in deal 3)
# royalties the taiwanese table pays no row of these hands: 0 each
NATURALS = """\
@rules taiwanese

Dee: 2h 2d 4c 4s 6h 6d 8c 8s Th Td Qc Qs Ah
Eve: 3h 5h 7h / 3c 5c 7c 9c Tc / 2s 5s 7s 9s Js
Fay: Kc Jh 9h / 3d 4d 5d 7d 9d / Ks Kh Kd Ac Ad

Dee: Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d
Eve: Qs Jd 3c / Th Tc 8d 8s 3d / Kh Qh Jh 8h 2h
Fay: 2s 3s 4s 5h 6c 7h 8c 9s Ts Js Qd Kc As

Dee: 7s 7d 2c / 9h 9c 5d 5s 3c / Ah Ad Ac Ks Kd
Eve: 7h 7c 2d / Th Tc 8d 8s 3d / Kh Qh Jh 8h 2h
Fay: Qs Js 2s / 4c 4d 5c 5h 9d / 6c 6d 6h Jc Jd
"""

NATURALS_STATS = """\
Session night.txt: rules taiwanese

Statistics after 3 deals:

                            Dee           Eve           Fay
-----------------  ------------  ------------  ------------
Deals played                  3             3             3
Rows won                      6             4             1
Rows lost                     2             4             5
Rows tied                     1             1             0
Scoops made                   1             0             0
Scoops suffered               0             0             1
Fouls                         0             0             0
Naturals                      1             1             1
Royalties                     0             0             0
Biggest deal won   +12 (deal 1)   +1 (deal 3)  +72 (deal 2)
Biggest deal lost  -35 (deal 2)  -37 (deal 2)   -9 (deal 1)
Units                       -17           -39           +56

Naturals claimed: Dee six pairs; Eve three flushes; Fay dragon.
"""


def test_naturals_by_id(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    pathlib.Path("night.txt").write_text(NATURALS)
    assert ok("stats", "night.txt") == NATURALS_STATS
    data = json.loads(ok("stats", "--format", "json", "night.txt"))
    assert [(p["name"], p["naturals"]) for p in data["players"]] == [
        ("Dee", {"six-pairs": 1}),
        ("Eve", {"three-flushes": 1}),
        ("Fay", {"dragon": 1}),
    ]


def test_naturals_claimed_twice_and_a_false_claim(tmp_path):
    """The claims line counts repeats, in the rules' natural_rank order; under
    maubinh a false claim is counted apart, never as a natural."""
    path = tmp_path / "s.txt"
    dragon = "2s 3s 4s 5h 6c 7h 8c 9s Ts Js Qd Kc As"
    six_pairs = "2h 2d 3h 3d 4h 4d 5c 5d 6h 6d 7c 7d 8h"
    path.write_text(f"@rules 2-4\n\nA: {dragon}\nB: {six_pairs}\n\nA: {dragon}\nB: {BOB}\n")
    out = ok("stats", str(path))
    assert out.endswith("\nNaturals claimed: A dragon x2; B six pairs.\n")
    assert "Naturals                      2             1\n" in out
    path.write_text(f"@rules maubinh\n\nAmy: {AMY.replace(' /', '')}\nBob: {BOB}\n")
    data = json.loads(ok("stats", "--format", "json", str(path)))
    assert [(p["naturals"], p["false_claims"]) for p in data["players"]] == [({}, 1), ({}, 0)]
    assert "False claims                 1            0\n" in ok("stats", str(path))


def test_an_empty_session(tmp_path):
    path = tmp_path / "s.txt"
    path.write_text("@rules ofc\n")
    assert ok("stats", str(path)) == f"Session {path}: rules ofc\n\nStatistics after 0 deals: no deal to count.\n"
    assert json.loads(ok("stats", "--format", "json", str(path))) == {
        "format_version": 1,
        "rules": "ofc",
        "stake": 1,
        "deals": 0,
        "players": [],
    }


def test_every_style_gives_one_line_a_statistic(in_repo):
    for style in ("github", "tsv", "plain"):
        out = ok("stats", "--style", style, "examples/session.txt")
        assert "Biggest deal lost" in out
    tsv = ok("stats", "--style", "tsv", "examples/session.txt").split("\n\n")[2].splitlines()
    assert len(tsv) == 16 and all(line.count("\t") == 3 for line in tsv)


# Errors: as session's ------------------------------------------------------------------


def test_invalid_deals_are_reported_as_session_reports_them(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text(f"Amy: {AMY}\nBob: {BOB[:-2]}2x\n\nAmy: {AMY}\n\nAmy: {AMY}\nBob: {BOB}\n")
    result = run("stats", str(path))
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        f"Error: {path}, line 2: Bob, back: unknown card '2x': a card is a rank (2-9, T or 10, J, Q, K, A) "
        "then a suit (s, h, d, c or ♠ ♥ ♦ ♣)",
        f"Error: {path}, deal 2 (line 4): 1 player in the deal: a deal has 2 to 4 players",
    ]
    assert result.stderr == run("session", str(path)).stderr
    piped = run("stats", "-", input=path.read_text())
    assert (piped.exit_code, piped.stdout) == (2, "")
    assert piped.stderr.startswith("Error: stdin, line 2: Bob, back: unknown card '2x'")
    skipped = run("stats", "--skip-invalid", str(path))
    assert skipped.exit_code == 0
    assert "Statistics after 1 deal:\n" in skipped.stdout
    # the deal keeps its number in the file
    assert "Biggest deal won   +2 (deal 3)" in skipped.stdout
    assert skipped.stderr.count("skipped: ") == 2


@pytest.mark.parametrize(
    ("args", "text", "message"),
    [
        (["missing.txt"], None, "Error: cannot read session file 'missing.txt': No such file or directory"),
        (
            ["--format", "csv", "s.txt"],
            "",
            "Error: Invalid value for '--format': 'csv' is not one of 'table', 'json'. (see 'cpscore stats -h')",
        ),
        (
            ["--pair-stake", "Amy:Zed=5", "s.txt"],
            f"Amy: {AMY}\nBob: {BOB}\n",
            "Error: --pair-stake names 'Zed', who does not play (players: Amy, Bob)",
        ),
        (
            ["s.txt"],
            f"@rules chinese\n\nAmy: {AMY}\nBob: {BOB}\n",
            "Error: s.txt, line 1: @rules: unknown rule set 'chinese': choose one of 2-4, 1-6, ofc, ofc-western, "
            "pineapple, turbo, taiwanese, shisanshui, shisanshui-old, maubinh, capsa, pusoy, pineapple-ru, "
            "pineapple-27, or give a rule file (.toml)",
        ),
        (
            ["s.txt"],
            f"@stake 1\n@stake 2\n\nAmy: {AMY}\nBob: {BOB}\n",
            "Error: s.txt, line 2: @stake is given twice (first at line 1)",
        ),
    ],
    ids=["missing file", "format", "pair stake", "rules header", "header twice"],
)
def test_errors(tmp_path, monkeypatch, args, text, message):
    monkeypatch.chdir(tmp_path)
    if text is not None:
        pathlib.Path("s.txt").write_text(text)
    result = run("stats", *args)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == message + "\n"
    if "--format" not in args:  # session has more formats
        assert run("session", *args).stderr == result.stderr


def test_style_with_json_is_a_warning(in_repo):
    result = run("stats", "--style", "grid", "--format", "json", "examples/session.txt")
    assert result.exit_code == 0
    assert result.stderr == "Warning: --style has no effect with --format json\n"


# The one settlement ---------------------------------------------------------------------


def test_each_deal_is_settled_once(in_repo, monkeypatch):
    """Statistics read the ledger's settlement: the kernel runs once a deal."""
    import cpscore.session

    calls = []
    kernel = cpscore.session.kernel

    def counted(*args, **kwargs):
        calls.append(1)
        return kernel(*args, **kwargs)

    monkeypatch.setattr(cpscore.session, "kernel", counted)
    ok("stats", "examples/session.txt")
    assert len(calls) == 3


# Properties ----------------------------------------------------------------------------


def _random_hand(order, start):
    cards = [CARDS[code] for code in order[start : start + 13]]
    front, middle, back = cards[:3], cards[3:8], cards[8:]
    if evaluate_row(middle) > evaluate_row(back):
        middle, back = back, middle
    return " / ".join(" ".join(map(str, row)) for row in (front, middle, back))


@st.composite
def nights(draw):
    """A session under one of several rule sets: 1 to 4 deals of 2 to 4 hands
    from a group of players, some sitting out, some surrendering, and (under
    rules that pair every hand) criss-cross."""
    rules = get_rules(draw(st.sampled_from(["2-4", "1-6", "ofc", "taiwanese", "pusoy"])))
    group = ["Amy", "Bob", "Cy", "Dee"]
    deals = []
    for _ in range(draw(st.integers(1, 4))):
        count = draw(st.integers(2, rules.methods.max_players))
        names = draw(st.permutations(group))[:count]
        if rules.banker.pairing == "all" and count == 4 and draw(st.booleans()):
            names = [f"{names[0]}[1]", f"{names[0]}[2]", names[1], names[2]]
        order = draw(st.permutations(range(52)))
        hands = {name: _random_hand(order, 13 * seat) for seat, name in enumerate(names)}
        if rules.methods.surrender is not None and draw(st.integers(0, 3)) == 0:
            hands[names[-1]] = "surrender"
        deals.append(hands)
    return rules, deals


def night_for(rules, deals):
    """The deals through a ledger, counted as the stats command counts them;
    also (to compare) from each deal's records."""
    text = "\n\n".join("\n".join(f"{name}: {hand}" for name, hand in deal.items()) for deal in deals) + "\n"
    ledger, stats, from_records = Ledger(rules, 3), Stats(), Stats()
    units_by_deal = []
    for deal_text in read_session(text.splitlines(), "s.txt")[1]:
        deal, outcome = ledger.take(deal_text, "s.txt")
        stats.add(deal_text.number, deal, outcome)
        from_records.add_settlement(deal_text.number, settlement_of(deal, rules, 3, outcome, warn=False))
        units_by_deal.append({owner.name: owner.units for owner in settlement_of(deal, rules, 3, outcome).owners})
    return ledger, stats, from_records, units_by_deal


@settings(max_examples=40, deadline=None)
@given(nights())
def test_rows_and_scoops_balance_and_deals_are_counted(case):
    rules, deals = case
    ledger, stats, from_records, units_by_deal = night_for(rules, deals)
    players = stats.players.values()
    assert sum(p.rows_won for p in players) == sum(p.rows_lost for p in players)
    assert sum(p.scoops_made for p in players) == sum(p.scoops_suffered for p in players)
    assert sum(p.rows_tied for p in players) % 2 == 0
    assert stats.deals == len(deals)
    owners = [[name.split("[")[0] for name in deal] for deal in deals]
    for player in players:
        assert player.deals == sum(player.name in deal for deal in owners)
        assert player.hands == sum(deal.count(player.name) for deal in owners)
        assert (player.rows_won + player.rows_lost + player.rows_tied) % 3 == 0
        assert player.surrenders == sum(
            hand == "surrender" for deal in deals for name, hand in deal.items() if name.split("[")[0] == player.name
        )
        won = [
            (units[player.name], number)
            for number, units in enumerate(units_by_deal, 1)
            if units.get(player.name, 0) > 0
        ]
        lost = [
            (units[player.name], number)
            for number, units in enumerate(units_by_deal, 1)
            if units.get(player.name, 0) < 0
        ]
        best = max(won, key=lambda item: (item[0], -item[1]), default=None)
        worst = min(lost, key=lambda item: (item[0], item[1]), default=None)
        assert player.biggest_win == (None if best is None else Biggest(best[1], best[0], best[0] * 3))
        assert player.biggest_loss == (None if worst is None else Biggest(worst[1], worst[0], worst[0] * 3))
    assert [(p.name, p.units, p.amount) for p in players] == ledger.totals()
    # The records of each deal (a spooled session's results) give the same statistics.
    assert [player_data(p) for p in from_records.players.values()] == [player_data(p) for p in players]
    assert stats_data(stats, rules, 3)["players"] == stats_data(from_records, rules, 3)["players"]


def test_stake_changes_count_each_deals_own_stake(tmp_path):
    """A stake line between deals: the money (and each biggest deal's) is at the
    deal's own stake, as the session's totals are; --stake replaces them all."""
    path = tmp_path / "s.txt"
    path.write_text(f"@rules ofc\n@stake 10\n\nAmy: {AMY}\nBob: {BOB}\n\n@stake 20\n\nAmy: {ANN}\nBob: {BEN}\n")
    # deal 1: Amy +11 at 10 (+110); deal 2: Amy +29 at 20 (+580): +40 units, +690
    data = json.loads(ok("stats", "--format", "json", str(path)))
    amy = data["players"][0]
    assert (data["stake"], amy["units"], amy["amount"]) == (10, 40, 690)
    assert amy["biggest_win"] == {"deal": 2, "units": 29, "amount": 580}
    assert ok("stats", str(path)).endswith(
        "Units                         +40           -40\nMoney                        +690          -690\n"
    )
    replaced = run("stats", "--stake", "1", str(path))
    assert replaced.stdout.endswith("Money                         +40           -40\n")
    assert replaced.stderr == f"Warning: --stake replaces the session's stakes: {path}, line 7: @stake is not used\n"


def test_four_players_fit_80_columns(in_repo):
    out = ok("stats", "--rules", "ofc", "--stake", "10", "examples/four-players.txt")
    assert "Fouls                           0            0             0             1\n" in out  # Dan's
    assert max(len(line) for line in out.splitlines()) <= 80
