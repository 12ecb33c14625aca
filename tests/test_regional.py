"""Worked deals for every setting and preset of docs/rules.md 3-12 that issue 10 added:
the arithmetic of each is in its comment, and each is an example of docs/rules.md."""

import json
import pathlib
from decimal import Decimal

import pytest
from click.testing import CliRunner

from cpscore.cards import parse_hand
from cpscore.cli import main
from cpscore.deal import Entry, build_deal
from cpscore.errors import DealError
from cpscore.rules import get_rules, rules_from_toml
from cpscore.scoring import Standing, check_hand, settle

AMY = "Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d"
BOB = "Qs Jd 3c / Th Tc 8d 8s 3d / Kh Qh Jh 8h 2h"
CY = "As 6d 2s / 6c 6h 4d 4s 3s / Js Ts 9s 8c 7c"
ANN = "Qh Qd 2c / Kh Kd Kc 3h 3d / 9s 9h 9d 9c 4h"
BEN = "Js Jd 5c / Th Td 8c 8d 2d / Ac Ad 6s 6h 7c"
CAT = "Ts 7d 4c / 6c 6d 5s 5h 3c / As Ks Qs 8s 2s"
DAN = "3s 2h 5d / 4s 4d Qc Tc 8h / Jh Jc 7s 7h Ah"
FLO = "3s 3h 3d / Th Tc 8d 8s 4d / Kh Qh Jh 6h 2h"  # fouled: front trips over two pair
PAT = "Jd 4h 3d / Qc Td 8c 6d 3h / 2s 2h Jc 8d 6c"
SEV = "7s 7h 7d / 3c 4d 5h 6s 7c / Kh Qh Th 8h 2h"  # four sevens across front and middle
TOM = "Ah Kd 2c / Jd Jc 9d 9c 4s / Qs Qd Qc 5s 5d"
DEE = "2h 2d 4c 4s 6h 6d 8c 8s Th Td Qc Qs Ah"  # six pairs, unset
FIN = "3s 3h 3d 5s 5h 7s 7h 9s 9h Js Jh Ks Kh"  # five pairs and trips (and six pairs)
DRA = "2s 3s 4d 5d 6s 7s 8d 9d Ts Jc Qd Kc Ac"  # a dragon
HANA = "2h 2d 4c 4s 6h 6d 8c 8s Th Td Qc Qs Ah"
IVY = "2s 2c 4h 4d 6s 6c 8h 8d Ts Tc Qh Qd As"
BEA = "Kh Kc 4d / 9s 9d 4s 4h Qc / Ts Th Td 3s 3h"
TIE_AMY = "Qc Jd 8h / Kh Kd 9c 6s 6h / Ah 2d 3c 4s 5h"
TIE_BOB = "Qd Js 8c / Ks Kc 9d 6c 6d / 7d 8d 9h Th Jc"


def rules_of(spec: str):
    """A preset by name, or a rule file's text (TOML with ``preset = ...``)."""
    return rules_from_toml(spec, "house.toml") if "=" in spec else get_rules(spec)


def settled(spec, hands, **options):
    deal = build_deal([Entry(name, text, "") for name, text in hands.items()], rules_of(spec))
    return settle(deal, rules_of(spec), **options)


def units(result):
    return {player.name: player.units for player in result.players}


def money(result):
    return {player.name: player.amount for player in result.players}


CASES = [
    # foul_plays (docs/rules.md 3). Flo fouls. As set, Flo takes the front (3-3-3 over K-K-4)
    # and the middle (tens and eights over nines and fives), Amy the back (a full house over a flush).
    ("fouled-2-4", "2-4", {"Amy": AMY, "Flo": FLO}, {}, {"Amy": 4}),  # 3 rows + 1 overall
    # 2-4: penalty 3 + 1 = 4; play -1 -1 +1 = -1 and the overall unit to Flo: -2; 4 - 2 = 2.
    ("foul-plays-2-4", 'preset = "2-4"\nfoul_plays = true', {"Amy": AMY, "Flo": FLO}, {}, {"Amy": 2}),
    # 1-6: penalty 3 + 3 = 6; play -1 (no scoop): 6 - 1 = 5.
    ("foul-plays-1-6", 'preset = "1-6"\nfoul_plays = true', {"Amy": AMY, "Flo": FLO}, {}, {"Amy": 5}),
    # ofc: penalty 6; play -1 + Amy's front KK 8 + back full house 6 (Flo holds none): 6 + 13 = 19.
    ("foul-plays-ofc", 'preset = "ofc"\nfoul_plays = true', {"Amy": AMY, "Flo": FLO}, {}, {"Amy": 19}),
    # taiwanese: penalty 3, doubled as a scoop: 6; play -1 (Flo's front trips hold no bonus): 5.
    ("foul-plays-taiwanese", 'preset = "taiwanese"\nfoul_plays = true', {"Amy": AMY, "Flo": FLO}, {}, {"Amy": 5}),
    # spade bonus (docs/rules.md 6), ofc: Ann scoops Cat (6); Ann QQ 7 + full house 12 + quads 10,
    # Cat a back flush 4 with the 2s. No bonus: 6 + 29 - 4 = 31.
    ("holder", "ofc", {"Ann": ANN, "Cat": CAT}, {}, {"Ann": 31}),
    # "row": both backs double: 6 + (7 + 12 + 20) - 8 = 37.
    ("spade-row", 'preset = "ofc"\n[royalties]\nspade_bonus = "row"', {"Ann": ANN, "Cat": CAT}, {}, {"Ann": 37}),
    # "own": only Cat's flush: 6 + 29 - 8 = 27.
    ("spade-own", 'preset = "ofc"\n[royalties]\nspade_bonus = "own"', {"Ann": ANN, "Cat": CAT}, {}, {"Ann": 27}),
    # max_per_hand = 1: Ann keeps her full house 12, Cat her flush 4: 6 + 12 - 4 = 14; with the
    # "row" bonus Cat's flush is doubled before she keeps it: 6 + 12 - 8 = 10.
    ("max-per-hand", 'preset = "ofc"\n[royalties]\nmax_per_hand = 1', {"Ann": ANN, "Cat": CAT}, {}, {"Ann": 14}),
    (
        "max-per-hand-spade-row",
        'preset = "ofc"\n[royalties]\nmax_per_hand = 1\nspade_bonus = "row"',
        {"Ann": ANN, "Cat": CAT},
        {},
        {"Ann": 10},
    ),
    # row-value, Eastern table (shisanshui): 1 + 2 + 4 = 7, doubled for the scoop: 14.
    ("row-value", "shisanshui", {"Ann": ANN, "Cat": CAT}, {}, {"Ann": 14}),
    # row-bonus, seed table (taiwanese): 1 + (1 + 1) + (1 + 2) = 6, doubled: 12.
    ("row-bonus", "taiwanese", {"Ann": ANN, "Cat": CAT}, {}, {"Ann": 12}),
    # broken royalties: Sev wins the front with trips (1 + 3) and the middle (1), loses the back
    # (-1): 4; the broken four sevens earn the back's quads entry, 2: 6.
    (
        "broken-taiwanese",
        'preset = "taiwanese"\n[royalties]\nbroken_royalties = true',
        {"Sev": SEV, "Tom": TOM},
        {},
        {"Sev": 6},
    ),
    ("broken-off", "taiwanese", {"Sev": SEV, "Tom": TOM}, {}, {"Sev": 4}),
    # shisanshui: rows 3 + 1 - 1 = 3 and the Eastern back quads 4: 7.
    (
        "broken-shisanshui",
        'preset = "shisanshui"\n[royalties]\nbroken_royalties = true',
        {"Sev": SEV, "Tom": TOM},
        {},
        {"Sev": 7},
    ),
    # naturals (docs/rules.md 7). shisanshui claims in rank order: Fin's five pairs and trips (5)
    # comes before Dee's six pairs (4): Dee pays Fin 5.
    ("natural-rank", "shisanshui", {"Fin": FIN, "Dee": DEE}, {}, {"Fin": 5}),
    # natural_order = "value" under shisanshui-old's values: Fin claims six pairs (6, above five
    # pairs and trips 5); Fin's pairs K-J-9-7-5-3 beat Q-T-8-6-4-2.
    (
        "natural-value",
        'preset = "shisanshui-old"\nnatural_order = "value"',
        {"Fin": FIN, "Dee": DEE},
        {},
        {"Fin": 6},
    ),
    # maubinh, net: Dra's dragon 12 against Dee's six pairs 6: 12 - 6 = 6 (12 under "higher").
    ("net", "maubinh", {"Dra": DRA, "Dee": DEE}, {}, {"Dra": 6}),
    ("net-higher", 'preset = "maubinh"\nnatural_vs_natural = "higher"', {"Dra": DRA, "Dee": DEE}, {}, {"Dra": 12}),
    # Fin's five-pairs-trips (6, first in maubinh's list) and Dee's six pairs (6) net to 0;
    # under "higher" Fin's natural, earlier in the list, collects 6.
    ("net-equal", "maubinh", {"Fin": FIN, "Dee": DEE}, {}, {"Fin": 0}),
    ("net-equal-higher", 'preset = "maubinh"\nnatural_vs_natural = "higher"', {"Fin": FIN, "Dee": DEE}, {}, {"Fin": 6}),
    # capsa with six pairs worth 3: the same pairs and odd rank; the highest cards are aces, and
    # spades rank above hearts: Hana pays Ivy 3.
    ("suit-tiebreak", 'preset = "capsa"\n[naturals]\nsix-pairs = 3', {"Hana": HANA, "Ivy": IVY}, {}, {"Ivy": 3}),
    ("no-suit-tiebreak", 'preset = "2-4"', {"Hana": HANA, "Ivy": IVY}, {}, {"Ivy": 0}),
    # maubinh false claim: Amy's 13 cards make no natural: she pays 6 to each. Bob and Cy play:
    # Cy takes the front (A high over Q high), Bob the middle and back: Bob +1.
    # Amy -12, Bob 6 + 1 = 7, Cy 6 - 1 = 5.
    (
        "false-claim",
        "maubinh",
        {"Amy": "Ks Kd 4c 9h 9c 5d 5s 2c Ah Ad Ac 7s 7d", "Bob": BOB, "Cy": CY},
        {},
        {"Amy": -12, "Bob": 7, "Cy": 5},
    ),
    # Two false claims settle at 0; each still pays the live hand 6.
    (
        "two-false-claims",
        "maubinh",
        {"Amy": "Ks Kd 4c 9h 9c 5d 5s 2c Ah Ad Ac 7s 7d", "Bob": "Qs Jd 3c Th Tc 8d 8s 3d Kh Qh Jh 8h 2h", "Cy": CY},
        {},
        {"Amy": -6, "Bob": -6, "Cy": 12},
    ),
    # A natural against a false claim collects its own value: Dee's six pairs 6.
    (
        "natural-beats-false-claim",
        "maubinh",
        {"Amy": "Ks Kd Kc 9h 9c 5d 5s 3c As Ad Jc 7s 7d", "Dee": DEE},
        {},
        {"Dee": 6},
    ),
    # five consecutive pairs, maubinh (6): 4-4 5-5 6-6 7-7 8-8 against rows.
    (
        "five-consecutive-pairs",
        "maubinh",
        {"Eli": "4s 4h 5d 5c 6s 6h 7d 7c 8s 8h Ks 2d Jc", "Olo": "Ac Kd 2c / Jd Js 9d 9c 3s / Qs Qd Qc Ts Td"},
        {},
        {"Eli": 6},
    ),
    # multipliers (docs/rules.md 8): taiwanese needs three scooped opponents for a home run.
    # Ann scoops Ben and Cat: 6 doubled = 12 each; Ben +1 from Cat.
    ("no-home-run-of-2", "taiwanese", {"Ann": ANN, "Ben": BEN, "Cat": CAT}, {}, {"Ann": 24, "Ben": -11, "Cat": -13}),
    # With Dan: 6 x 2 x 2 = 24 from each; Ben and Cat scoop Dan (3 x 2 = 6); Ben +1 from Cat.
    (
        "home-run-of-3",
        "taiwanese",
        {"Ann": ANN, "Ben": BEN, "Cat": CAT, "Dan": DAN},
        {},
        {"Ann": 72, "Ben": -17, "Cat": -19, "Dan": -36},
    ),
    # shisanshui: 7 a pair, x4 with the home run of two: 28 each; Ben +1 from Cat.
    ("home-run-of-2", "shisanshui", {"Ann": ANN, "Ben": BEN, "Cat": CAT}, {}, {"Ann": 56, "Ben": -27, "Cat": -29}),
    # criss-cross corresponding (docs/rules.md 10): only Amy[1]-Bob[1] (+2) and Amy[2]-Bob[2] (+4).
    # suit_order (capsa): Amy's front Ks Kd 4c beats Bea's Kh Kc 4d on the first suit; a scoop,
    # 3 doubled = 6; without suits the front ties: 2 (a rows win-win-tie, no scoop).
    ("suit-order", "capsa", {"Amy": AMY, "Bea": BEA}, {}, {"Amy": 6}),
    (
        "suit-order-off",
        'preset = "capsa"\nsuit_order = false\nnatural_suit_tiebreak = false',
        {"Amy": AMY, "Bea": BEA},
        {},
        {"Amy": 2},
    ),
    # banker pairing (pusoy): Ann, first listed, banks. She scoops Ben: 3 + 3 = 6 and her guns
    # (middle full house 2, back quads 4): 12; the same against Cat; Ben and Cat do not settle.
    ("banker", "pusoy", {"Ann": ANN, "Ben": BEN, "Cat": CAT}, {}, {"Ann": 24, "Ben": -12, "Cat": -12}),
    # --banker Ben: Ben pays Ann 12 and takes 1 from Cat (front and middle won, back lost).
    (
        "banker-named",
        "pusoy",
        {"Ann": ANN, "Ben": BEN, "Cat": CAT},
        {"banker": "Ben"},
        {"Ann": 12, "Ben": -11, "Cat": -1},
    ),
    # banker_wins_ties on shisanshui: the fronts and middles tie, Amy's wheel (the second straight)
    # takes the back: +1 without a banker; Amy banking takes the tied rows too: a scoop, 3 x 2 = 6;
    # Bob banking takes them: 2 - 1 = 1 to Bob.
    ("ties-no-banker", "shisanshui", {"Amy": TIE_AMY, "Bob": TIE_BOB}, {}, {"Amy": 1}),
    (
        "ties-to-banker",
        'preset = "shisanshui"\npairing = "banker"\nbanker_wins_ties = true',
        {"Amy": TIE_AMY, "Bob": TIE_BOB},
        {},
        {"Amy": 6},
    ),
    (
        "ties-to-banker-bob",
        'preset = "shisanshui"\npairing = "banker"\nbanker_wins_ties = true',
        {"Amy": TIE_AMY, "Bob": TIE_BOB},
        {"banker": "Bob"},
        {"Bob": 1},
    ),
]


@pytest.mark.parametrize(
    ("spec", "hands", "options", "expected"), [case[1:] for case in CASES], ids=[c[0] for c in CASES]
)
def test_worked_deal(spec, hands, options, expected):
    result = settled(spec, hands, **options)
    found = units(result)
    assert {name: found[name] for name in expected} == expected
    assert sum(found.values()) == 0


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("ofc", 20),
        ('preset = "ofc"\n[royalties]\nspade_bonus = "row"', 26),
        ('preset = "ofc"\n[royalties]\nspade_bonus = "own"', 20),
    ],
    ids=["none", "row", "own"],
)
def test_spade_bonus_doubles_the_opponents_royalty_in_the_row(spec, expected):
    # Amy scoops Pat (6), holds front KK 8 and back full house 6; Pat's back pair of twos holds the 2s.
    assert units(settled(spec, {"Amy": AMY, "Pat": PAT}))["Amy"] == expected


def test_criss_cross_corresponding():
    # docs/rules.md 10: Amy[1]-Bob[1] +2, Amy[1]-Bob[2] +4 (Bob[2] fouls), Amy[2]-Bob[1] -2,
    # Amy[2]-Bob[2] +4: Amy +8.  Corresponding: only Amy[1]-Bob[1] +2 and Amy[2]-Bob[2] +4: +6.
    hands = {"Amy[1]": AMY, "Amy[2]": CY, "Bob[1]": BOB, "Bob[2]": "Qd Qc 3h / Jc Td 9d 6s 5c / Kc 7h 5h 4h 2d"}
    every = settled("2-4", hands)
    corresponding = settled('preset = "2-4"\ncriss_cross = "corresponding"', hands)
    assert [pair.units for pair in every.pairs] == [2, 4, -2, 4]
    assert [(pair.a, pair.b, pair.units) for pair in corresponding.pairs] == [
        ("Amy[1]", "Bob[1]", 2),
        ("Amy[2]", "Bob[2]", 4),
    ]
    assert {owner.name: owner.units for owner in corresponding.owners} == {"Amy": 6, "Bob": -6}


def test_equal_home_run_split_shares_the_extra():
    # Four seats; Ann scoops Ben, Cat and Dan under shisanshui-like rows with the pair split:
    # u = 7 x 2 = 14 each (T = 42): "pair" pays 28 each, "equal" 14 + 42/3 = 28 too.
    hands = {"Ann": ANN, "Ben": BEN, "Cat": CAT, "Dan": DAN}
    pair = settled("shisanshui", hands)
    equal = settled('preset = "shisanshui"\nhome_run_split = "equal"', hands)
    assert [p.units for p in pair.pairs if p.a == "Ann"] == [p.units for p in equal.pairs if p.a == "Ann"]
    assert all(p.split == 14 and p.multiplier == 2 for p in equal.pairs if p.a == "Ann")


def test_equal_home_run_split_of_unequal_pairs():
    # Ann's u differ when the opponents' rows differ: the figures docs/rules.md 8 works.
    # Under taiwanese rows with home run of 2 and a house table, Ann against Ben, Cat, Dan.
    # u = 6, 8, 16 (T = 30): "pair" 12, 16, 32; "equal" 16, 18, 26.
    from cpscore.scoring import _split_equally

    pairs = [
        [0, k, "rows", (1, 1, 1), 3, 0, 0, 2, 0, 0, u, 1, u, 0, 0, 0, "", (), (), 0]
        for k, u in ((1, 6), (2, 8), (3, 16))
    ]
    _split_equally(pairs, [True, False, False, False])
    assert [pair[10] for pair in pairs] == [16, 18, 26]
    pairs = [
        [0, k, "rows", (1, 1, 1), 3, 0, 0, 2, 0, 0, u, 1, u, 0, 0, 0, "", (), (), 0]
        for k, u in ((1, 6), (2, 8), (3, 18))
    ]
    _split_equally(pairs, [True, False, False, False])
    assert [pair[10] for pair in pairs] == [Decimal("16.67"), Decimal("18.67"), Decimal("28.67")]


def test_suit_foul():
    pusoy, capsa = get_rules("pusoy"), get_rules("capsa")
    diamonds_middle = parse_hand("Qc 8h 2c / Kd Jd 9d 6d 3d / Ks Js 9s 6s 3s")
    spades_middle = parse_hand("Qc 8h 2c / Ks Js 9s 6s 3s / Kd Jd 9d 6d 3d")
    assert check_hand(diamonds_middle, pusoy).assessment.foul.by_suit  # diamonds rank first in pusoy
    assert check_hand(spades_middle, pusoy).assessment.foul is None
    assert check_hand(diamonds_middle, capsa).assessment.foul is None  # capsa has no suit_foul
    assert check_hand(spades_middle, capsa).assessment.foul is None


def test_cap_cuts_payments_in_listing_order():
    # shisanshui, cap 40: Ann-Ben 28; Ann-Cat 28 would take Ann to 56: Cat pays 12; Ben-Cat 1.
    spec = 'preset = "shisanshui"\ncap = 40'
    result = settled(spec, {"Ann": ANN, "Ben": BEN, "Cat": CAT})
    assert money(result) == {"Ann": 40, "Ben": -27, "Cat": -13}
    assert units(result) == {"Ann": 56, "Ben": -27, "Cat": -29}  # units are what the cards scored
    assert [(p.amount, p.owed, p.cut) for p in result.pairs] == [(28, 28, ""), (12, 28, "cap"), (1, 1, "")]
    # Over a session: Ann is already at +40, so Ben and Cat pay her nothing the next deal.
    session = 'preset = "shisanshui"\ncap = 40\ncap_scope = "session"'
    again = settled(
        session, {"Ann": ANN, "Ben": BEN, "Cat": CAT}, standing=Standing({"Ann": 40, "Ben": -27, "Cat": -13})
    )
    assert money(again) == {"Ann": 0, "Ben": 1, "Cat": -1}
    assert again.standing.net == {"Ann": 40, "Ben": -26, "Cat": -14}


def test_table_stakes_cut_each_payment_by_the_stacks():
    # pineapple-ru, buy-in 30, scored as ofc: Ann +29 from Ben, +31 from Cat, Ben +3 from Cat.
    # Ben pays 29 (Ann 59, Ben 1); Cat owes 31 and holds 30 (Ann 89, Cat 0); Cat owes Ben 3: 0.
    result = settled(
        "pineapple-ru",
        {"Ann": ANN, "Ben": BEN, "Cat": CAT},
        standing=Standing(stacks=dict.fromkeys(("Ann", "Ben", "Cat"), 30)),
    )
    assert units(result) == {"Ann": 60, "Ben": -26, "Cat": -34}
    assert money(result) == {"Ann": 59, "Ben": -29, "Cat": -30}
    assert result.standing.stacks == {"Ann": 89, "Ben": 1, "Cat": 0}
    with pytest.raises(DealError, match="the pineapple-ru rules play table stakes: give the buy-in"):
        settled("pineapple-ru", {"Ann": ANN, "Ben": BEN})


def test_banker_errors():
    with pytest.raises(DealError, match="Ann is named the banker, but the 2-4 rules settle every pair"):
        settled("2-4", {"Ann": ANN + " ; banker", "Ben": BEN})
    with pytest.raises(DealError, match="Ann and Ben are both marked banker"):
        settled("pusoy", {"Ann": ANN + " ; banker", "Ben": BEN + " ; banker"})
    # A marker in the deal is the banker whatever the session's rotation passes.
    assert units(settled("pusoy", {"Ann": ANN, "Ben": BEN + " ; banker", "Cat": CAT}, banker="Ann"))["Cat"] == -1


# The command line: banker, buy-in, rotation, the end of a session -------------------------


def cli(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input)


EXAMPLES = pathlib.Path(__file__).parent.parent / "examples"
THREE = f"Ann: {ANN}\nBen: {BEN}\nCat: {CAT}\n"


def test_session_passes_the_bank_on():
    # pusoy rotates the bank: Ann banks the first deal (Ann +24, Ben -12, Cat -12), Ben the
    # second (Ann +12, Ben -11, Cat -1), Cat would bank a third.
    result = cli("session", "--totals", "--format", "json", "-", input=f"@rules pusoy\n\n{THREE}\n{THREE}")
    assert result.exit_code == 0, result.output
    assert {row["name"]: row["units"] for row in json.loads(result.stdout)["totals"]} == {
        "Ann": 36,
        "Ben": -23,
        "Cat": -13,
    }
    # A '; banker' marker gives the second deal to Cat; the rotation goes on from there.
    marked = THREE.replace(CAT, CAT + " ; banker")
    result = cli("session", "--totals", "--format", "json", "-", input=f"@rules pusoy\n\n{THREE}\n{marked}")
    totals = {row["name"]: row["units"] for row in json.loads(result.stdout)["totals"]}
    assert totals["Ann"] == 24 + settled("pusoy", {"Ann": ANN, "Ben": BEN, "Cat": CAT}, banker="Cat").players[0].units


def test_buy_in_header_and_the_end_of_the_session():
    # docs/rules.md 12: with @buy-in 30 Cat's stack is empty after the first deal.
    text = f"@rules pineapple-ru\n@buy-in 30\n\n{THREE}\n{THREE}"
    result = cli("session", "--totals", "-", input=text)
    assert result.exit_code == 2
    assert result.stderr == (
        "Error: stdin, deal 2 (line 8): the session is over: Cat's stack is empty after deal 1 (table stakes): "
        "start a new session to play on\n"
    )
    assert result.stdout == ""
    one = cli("session", "--totals", "-", input=f"@rules pineapple-ru\n@buy-in 30\n\n{THREE}")
    assert one.exit_code == 0
    assert "Ann           +60      +59" in one.stdout and "Cat           -34      -30" in one.stdout


@pytest.mark.parametrize(
    ("args", "input", "message"),
    [
        (
            ("session", "-"),
            f"@rules pineapple-ru\n\n{THREE}",
            "the pineapple-ru rules play table stakes: give the buy-in",
        ),
        (("session", "-"), f"@rules ofc\n@buy-in 30\n\n{THREE}", "stdin, line 2: @buy-in has no effect: the ofc rules"),
        (
            ("session", "-"),
            f"@rules pineapple-ru\n@buy-in 0\n\n{THREE}",
            "stdin, line 2: @buy-in '0' is not above 0: a buy-in is the money each player brings",
        ),
        (("session", "--buy-in", "10", "-"), f"@rules 2-4\n\n{THREE}", "--buy-in has no effect: the 2-4 rules do not"),
        (("score", "--banker", "Ann", "-"), THREE, "Ann is named the banker, but the 2-4 rules settle every pair"),
        (("score", "--rules", "pusoy", "--banker", "ann", "-"), THREE, "--banker names 'ann': the player is 'Ann'"),
        (("score", "--rules", "pusoy", "--banker", "Zed", "-"), THREE, "--banker names 'Zed', who does not play"),
        (
            ("score", "--rules", "pusoy", "--banker", "Ann", "-"),
            THREE.replace(BEN, BEN + " ; banker"),
            "--banker names Ann, but the deal marks Ben as the banker: give one",
        ),
        (("score", "--rules", "pineapple-ru", "-"), THREE, "give the buy-in (--buy-in N, or @buy-in N in a session)"),
        (
            ("score", "--rules", "pineapple-ru", "--buy-in", "-5", "-"),
            THREE,
            "'-5' is not above 0: a buy-in is the money each player brings to the table",
        ),
    ],
    ids=[
        "no-buy-in",
        "buy-in-no-effect",
        "buy-in-zero",
        "option-no-effect",
        "banker-no-effect",
        "banker-case",
        "banker-stranger",
        "banker-twice",
        "score-no-buy-in",
        "negative-buy-in",
    ],
)
def test_input_errors(args, input, message):
    result = cli(*args, input=input)
    assert result.exit_code == 2, result.output
    assert message in result.stderr and result.stdout == ""
    assert "Traceback" not in result.stderr and result.stderr.count("\n") == 1


def test_score_with_a_buy_in_shows_the_money_paid():
    result = cli("score", "--rules", "pineapple-ru", "--buy-in", "30", "--format", "json", "-", input=THREE)
    data = json.loads(result.stdout)
    assert [(p["name"], p["units"], p["amount"]) for p in data["players"]] == [
        ("Ann", 60, 59),
        ("Ben", -26, -29),
        ("Cat", -34, -30),
    ]


def test_the_totals_show_the_stacks_and_the_end():
    # examples/table-stakes.txt, buy-in 50: Cy's stack is empty after the second deal.  The
    # button passes (button_rotation = "next"): Amy deals the second, so Bob-Cy is paid first
    # (Cy pays Bob 3), then Amy-Bob (29), and Cy pays Amy the 26 left of his stack, not 31.
    result = cli("session", "--totals", str(EXAMPLES / "table-stakes.txt"))
    assert result.exit_code == 0
    assert result.stdout.endswith(
        "Stacks (buy-in 50): Amy 134, Bob 16, Cy 0.\nCy's stack is empty after deal 2: the session is over.\n"
    )
    data = json.loads(cli("session", "--totals", "--format", "json", str(EXAMPLES / "table-stakes.txt")).stdout)
    assert (data["buy_in"], data["stacks"], data["ended"]) == (
        50,
        {"Amy": 134, "Bob": 16, "Cy": 0},
        {"empty": "Cy", "deal": 2},
    )


def test_add_settles_as_the_session_will(tmp_path):
    # examples/banker.txt: Ann banks deal 1, Ben deal 2, so Cat banks a third deal.
    night = tmp_path / "banker.txt"
    night.write_text((EXAMPLES / "banker.txt").read_text())
    hands = [f"Ann={AMY}", f"Ben={BOB}", f"Cat={CY}"]
    # Deal 2's hands again: refused as a deal already in the file, unless --again says it was dealt twice.
    repeated = cli("add", str(night), *hands)
    assert repeated.exit_code == 2 and repeated.stdout == ""
    assert f"Error: deal 2 (a300ce7a) of {night} has the same hands: this deal is in the file already" in (
        repeated.stderr
    )
    added = cli("add", str(night), "--again", *hands)
    assert added.exit_code == 0, added.output
    assert added.stdout.endswith("Ann +6, Ben +1, Cat -7 (Cat banks)\n")  # scooped by Ann, beaten by Ben
    # A '; banker' marker is written with the deal, so that the session reads it back the same.
    marked = cli("add", str(night), hands[0], hands[1] + " ; banker", hands[2])
    assert marked.exit_code == 0 and marked.stdout.endswith("Ann +1, Ben 0, Cat -1 (Ben banks)\n")
    assert night.read_text().endswith(f"Ben: {BOB} ; banker\nCat: {CY}\n")
    session = json.loads(cli("session", "--totals", "--format", "json", str(night)).stdout)
    assert {row["name"]: row["units"] for row in session["totals"]} == {
        "Ann": 25 + 6 + 1,
        "Ben": -12 + 1,
        "Cat": -13 - 8,
    }


def test_add_follows_table_stakes_and_the_end_of_the_session(tmp_path):
    night = tmp_path / "stakes.txt"
    lines = (EXAMPLES / "table-stakes.txt").read_text().splitlines(keepends=True)
    night.write_text("".join(lines[:11]))  # the header (@buy-in 50) and the first deal
    deal = [f"Amy={ANN}", f"Bob={BEN}", f"Cy={CAT}"]
    assert cli("add", str(night), *deal).exit_code == 0
    before = night.read_bytes()
    refused = cli("add", str(night), *deal)  # Cy's stack is empty after deal 2
    assert refused.exit_code == 2 and night.read_bytes() == before
    assert refused.stderr.endswith(
        "the session is over: Cy's stack is empty after deal 2 (table stakes): start a new session to play on; "
        "the deal was not added\n"
    )


@pytest.mark.parametrize(
    ("spec", "hands", "message"),
    [
        (
            'preset = "2-4"\ncriss_cross = "corresponding"',
            {"Amy[1]": AMY, "Amy[2]": CY, "Bob": BOB},
            "under criss_cross = corresponding every player holds as many hands as the others (Amy 2, Bob 1)",
        ),
        ('preset = "2-4"\n[royalties]\nbroken_royalties = true', {}, "royalties.broken_royalties: has no effect"),
        ('preset = "pusoy"\nbanker_wins_ties = true', {}, "banker_wins_ties: has no effect with suit_order"),
        ('preset = "2-4"\nsurrender = "2.5"', {}, "surrender: '2.5' is text, not a number"),
        ('preset = "shisanshui"\ncap = -5', {}, "cap: -5 is not an amount of money above 0, or false"),
    ],
    ids=["corresponding-unequal", "broken-no-table", "ties-under-suits", "text-amount", "negative-cap"],
)
def test_what_would_have_no_effect_or_no_sense_is_refused(spec, hands, message):
    from cpscore.errors import CpscoreError

    with pytest.raises(CpscoreError, match=message.replace("(", r"\(").replace(")", r"\)")):
        settled(spec, hands or {"Amy": AMY, "Bob": BOB})


def test_a_foul_under_the_second_wheel_names_the_wheel():
    # shisanshui ranks A-2-3-4-5 just below T-J-Q-K-A: a middle wheel beats a back king-high straight.
    report = check_hand(parse_hand("7h 8c 9d / 2s 3h 4d 5c Ac / Ts Jc Qh Kd 9c"), get_rules("shisanshui"))
    assert report.assessment.foul.reason == (
        "middle five-high straight (5-4-3-2-A) beats back king-high straight (K-Q-J-T-9)"
    )
