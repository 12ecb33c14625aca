"""Settlement (docs/rules.md 3-6): the worked deals, each method, royalties, stakes."""

from decimal import Decimal

import pytest
from conftest import worked_deals

from cpscore.deal import Entry, build_deal
from cpscore.errors import RulesError
from cpscore.rules import RoyaltyTable, from_settings, get_rules, preset_names
from cpscore.scoring import method_bonus, settle

CASES = worked_deals()


def deal_of(hands, rules=None, surrender=()):
    return build_deal(
        [Entry(name, text, "") for name, text in hands.items()]
        + [Entry(name, "surrender", "") for name in surrender if name not in hands],
        rules,
        [name for name in surrender if name in hands],
    )


def units(result):
    return {player.name: player.units for player in result.players}


@pytest.mark.parametrize("case", CASES, ids=lambda case: case["id"])
def test_worked_deal(case):
    rules = get_rules(case["rules"])
    result = settle(deal_of(case["hands"], rules, case.get("surrender", ())), rules)
    assert units(result) == {name: Decimal(value) for name, value in case["units"].items()}


AMY = "Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d"
BOB = "Qs Jd 3c / Th Tc 8d 8s 3d / Kh Qh Jh 8h 2h"
FOULED = "Qs Qc 3c / Jh Tc 8d 6s 3d / Kh Qh Jd 8h 2h"


@pytest.mark.parametrize(
    ("method", "rows", "bonus"),
    [
        ("2-4", (1, -1, 1), 1),
        ("2-4", (1, 1, 1), 1),
        ("2-4", (-1, -1, -1), -1),
        ("2-4", (1, 0, 0), 0),
        ("2-4", (1, 1, 0), 1),
        ("2-4", (1, 0, -1), 0),
        ("2-4", (0, 0, 0), 0),
        ("1-6", (1, 1, 1), 3),
        ("1-6", (-1, -1, -1), -3),
        ("1-6", (1, 1, 0), 0),
        ("1-6", (1, -1, 1), 0),
        ("rows", (1, 1, 1), 0),
        ("1-4", (1, 1, 1), 1),
        ("1-4", (-1, -1, -1), -1),
        ("1-4", (1, 1, -1), 0),
        ("1-4", (1, 1, 0), 0),
        ("1-4", (1, 0, 0), 0),
    ],
)
def test_method_bonus(method, rows, bonus):
    assert method_bonus(method, rows) == bonus


# docs/rules.md 5 (after the reference's section 5): under 1-4, win-win-loss pays 1, a scoop 4,
# win-win-tie 2, win-tie-tie 1, a fouled hand 4 (three rows lost and the scoop's unit).
@pytest.mark.parametrize(
    ("rows", "units"),
    [((1, 1, -1), 1), ((1, 1, 1), 4), ((1, 1, 0), 2), ((1, 0, 0), 1), ((-1, -1, -1), -4)],
    ids=["win-win-loss", "scoop", "win-win-tie", "win-tie-tie", "fouled"],
)
def test_method_1_4_worked_results(rows, units):
    assert sum(rows) + method_bonus("1-4", rows) == units


@pytest.mark.parametrize(
    ("rules", "expected"),
    # In OFC, Amy also collects her royalties: front KK 8, back full house 6.
    [("2-4", 4), ("1-6", 6), ("ofc", 6 + 8 + 6), ("ofc-western", 6 + 8 + 6)],
)
def test_a_fouled_hand_loses_every_row(rules, expected):
    result = settle(deal_of({"Amy": AMY, "Bob": FOULED}), get_rules(rules))
    pair = result.pairs[0]
    assert pair.rows == (1, 1, 1)
    assert pair.units == expected
    assert result.players[1].assessment.royalty_total == 0


def test_two_fouled_hands_settle_at_zero():
    other_foul = "Ah Ad 2d / 2c 2s 5d 4c 9h / Ks Kc 9s 7c 4h"
    result = settle(deal_of({"Bob": FOULED, "Cy": other_foul}), get_rules("ofc"))
    assert result.pairs[0].rows == (0, 0, 0)
    assert result.pairs[0].units == 0


def test_pair_stakes_override_the_stake():
    hands = {"Amy": AMY, "Bob": BOB, "Cy": "As 6d 2s / 6c 6h 4d 4s 3s / Js Ts 9s 8c 7c"}
    stakes = {frozenset(("Bob", "Amy")): Decimal(100)}
    result = settle(deal_of(hands), get_rules("2-4"), Decimal(10), stakes)
    by_pair = {(pair.a, pair.b): pair for pair in result.pairs}
    assert by_pair["Amy", "Bob"].stake == 100
    assert by_pair["Amy", "Bob"].amount == by_pair["Amy", "Bob"].units * 100
    assert by_pair["Amy", "Cy"].stake == 10
    assert sum(player.amount for player in result.players) == 0
    amy = result.players[0]
    assert amy.amount == by_pair["Amy", "Bob"].amount + by_pair["Amy", "Cy"].amount


def test_decimal_stakes_are_exact():
    result = settle(deal_of({"Amy": AMY, "Bob": BOB}), get_rules("2-4"), Decimal("0.1"))
    assert result.players[0].amount == Decimal("0.2")
    assert str(result.players[1].amount) == "-0.2"


@pytest.mark.parametrize(
    ("row", "hand", "expected"),
    [
        ("front", "6s 6d 2c / 9h 9c 5d 5s 2s / Ah Ad Ac 7s 7d", 1),
        ("front", "As Ah 2c / Kh Kc Qd Qs 2s / Ad Ac 3c 3s 3d", 9),
        ("front", "5s 5d 2c / 9h 9c 6d 6s 2s / Ah Ad Ac 7s 7d", 0),
        ("front", "2s 2d 2c / 9h 9c 9d 6s 6h / Ah Ad Ac 7s 7d", 10),
        ("front", "As Ad Ac / 2h 3h 4h 5h 6h / 9s Ts Js Qs Ks", 22),
        ("middle", "2s 3d 4c / 9h 9c 9d 6s 2h / Ah Ad Ac 7s 7d", 2),
        ("middle", "2s 3d 4c / 9h Tc Jd Qs Kh / Ah Ad Ac 7s 7d", 4),
        ("middle", "2s 3d 4c / 9h Th Jh Qh 2h / Ah Ad Ac 7s 7d", 8),
        ("middle", "2s 3d 4c / 9h 9c 9d 6s 6h / Ah Ad Ac 7s 7d", 12),
        ("middle", "2s 3d 4c / 9h 9c 9d 9s 6h / Ah Ad Ac As 7d", 20),
        ("middle", "2s 3d 4c / 9h Th Jh Qh Kh / As Ks Qs Js Ts", 30),
        ("middle", "2s 3d 4c / Ah Th Jh Qh Kh / Ad Ac As Kd Ks", 0),  # fouled: royal under a full house
        ("back", "2s 3d 4c / Th 8c 6d 5s 3h / Ah Kd Qc Js Td", 2),
        ("back", "2s 3d 4c / Th 8c 6d 5s 3h / Ah Kh Qh Jh 9h", 4),
        ("back", "2s 3d 4c / Th 8c 6d 5s 3h / Ah Ad Ac 7s 7d", 6),
        ("back", "2s 3d 4c / Th 8c 6d 5s 3h / Ah Ad Ac As 7d", 10),
        ("back", "2s 3d 4c / Th 8c 6d 5s 3h / 9s Ts Js Qs Ks", 15),
        ("back", "2s 3d 4c / Th 8c 6d 5s 3h / As Ks Qs Js Ts", 25),
    ],
)
def test_ofc_royalty_table(row, hand, expected):
    from cpscore.cards import parse_hand
    from cpscore.scoring import assess

    assessment = assess(parse_hand(hand), get_rules("ofc"))
    assert {r.name: r.royalty for r in assessment.rows}[row] == expected


@pytest.mark.parametrize(
    ("row", "hand", "ofc", "western"),
    [
        ("back", "2s 3d 4c / Th 8c 6d 5s 3h / Ah Ad Ac As 7d", 10, 8),
        ("back", "2s 3d 4c / Th 8c 6d 5s 3h / 9s Ts Js Qs Ks", 15, 10),
        ("back", "2s 3d 4c / Th 8c 6d 5s 3h / As Ks Qs Js Ts", 25, 15),
        ("middle", "2s 3d 4c / 9h 9c 9d 9s 6h / Ah Ad Ac As 7d", 20, 16),
        ("middle", "2s 3d 4c / 9h Th Jh Qh Kh / As Ks Qs Js Ts", 30, 20),
        ("middle", "2s 3d 4c / Ah Kh Qh Jh Th / 9s Ts Js Qs Ks", 50, 30),  # fouled
    ],
)
def test_western_table_differs(row, hand, ofc, western):
    from cpscore.cards import parse_hand
    from cpscore.scoring import assess

    for rules, expected in (("ofc", ofc), ("ofc-western", western)):
        assessment = assess(parse_hand(hand), get_rules(rules))
        royalty = {r.name: r.royalty for r in assessment.rows}[row]
        assert royalty == (0 if assessment.foul else expected)


def test_royal_flush_falls_back_to_straight_flush_entry():
    table = RoyaltyTable(back={"straight-flush": 5})
    assert table.lookup("back", "royal-flush") == 5


def test_presets_are_validated_records():
    assert preset_names() == [
        "2-4",
        "1-6",
        "ofc",
        "ofc-western",
        "pineapple",
        "turbo",
        "taiwanese",
        "shisanshui",
        "shisanshui-old",
        "maubinh",
        "capsa",
        "pusoy",
        "pineapple-ru",
        "pineapple-27",
    ]
    assert get_rules("pineapple").methods.max_players == 3
    for name in preset_names():
        rules = get_rules(name)
        assert from_settings(rules.settings()) == rules


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"method": "3-9"}, "method: '3-9' is not one of rows, 2-4, 1-6, 1-4"),
        ({"royalties": {"back": {"quads": -1}}}, "royalties.back.quads: -1 is not a number of units, 0 or more"),
        ({"royalties": {"front": {"QQQQ": 1}}}, "royalties.front.QQQQ: unknown setting"),
        ({"naturals": {"dragons": 13}}, "naturals.dragons: unknown setting"),
        ({"max_players": 5}, "max_players: 5 is not a whole number from 2 to 4"),
        ({"surrender": -1}, "surrender: -1 is not a number of units, 0 or more (or false for off)"),
        ({"surrender": True}, "surrender: True is not a number of units"),
        ({"wheel": "high"}, "wheel: 'high' is not one of lowest, second"),
        ({"scoop_doubles": "yes"}, "scoop_doubles: 'yes' is not true or false"),
        ({"colour": "red"}, "colour: unknown setting"),
        (
            {"royalties": {"mode": "holders"}},
            "royalties.mode: 'holders' is not one of none, holder, row-bonus, row-value",
        ),
        ({"royalties": {"max_per_hand": 1.5}}, "royalties.max_per_hand: 1.5 is not a whole number 0 or more"),
        (
            {"royalties": {"spade_bonus": "both"}},
            "royalties.spade_bonus: 'both' is not one of false, true (row), row, own",
        ),
        ({"royalties": {"broken_royalties": 1}}, "royalties.broken_royalties: 1 is not true or false"),
        (
            {"royalties": {"front": {"trips-Q": 5, "QQQ": 5}}},
            "royalties.front.QQQ: the same entry as QQQ: give it once",
        ),
        ({"royalties": {"back": {"quads-1": 5}}}, "royalties.back.quads-1: unknown setting"),
        ({"foul_plays": "yes"}, "foul_plays: 'yes' is not true or false"),
        ({"fantasyland_cards": 15}, "fantasyland_cards: 15 is not a whole number from 13 to 14"),
        ({"criss_cross": "some"}, "criss_cross: 'some' is not one of all, corresponding"),
        ({"home_run_min_opponents": 4}, "home_run_min_opponents: 4 is not a whole number from 1 to 3"),
        ({"home_run_split": "even"}, "home_run_split: 'even' is not one of pair, equal"),
        ({"suit_order": ["s", "h", "c"]}, "suit_order: ['s', 'h', 'c'] is not the four suits highest first"),
        ({"suit_order": ["s", "h", "c", "x"]}, "suit_order: ['s', 'h', 'c', 'x'] is not the four suits"),
        ({"suit_foul": True}, "suit_foul: needs suit_order"),
        ({"natural_suit_tiebreak": True}, "natural_suit_tiebreak: needs suit_order"),
        ({"suit_order": ["s", "h", "c", "d"], "low_middle": True}, "suit_order: cannot be combined with low_middle"),
        ({"natural_rank": ["dragon", "dragons"]}, "natural_rank: unknown natural 'dragons'"),
        ({"natural_rank": ["dragon", "dragon"]}, "natural_rank: 'dragon' is listed twice"),
        ({"natural_rank": "dragon"}, "natural_rank: 'dragon' is not a list of natural ids, highest first"),
        ({"natural_order": "units"}, "natural_order: 'units' is not one of value, rank"),
        ({"natural_vs_natural": "both"}, "natural_vs_natural: 'both' is not one of higher, net"),
        ({"false_claim": -6}, "false_claim: -6 is not a number of units, 0 or more (or false for off)"),
        ({"pairing": "dealer"}, "pairing: 'dealer' is not one of all, banker"),
        ({"banker_rotation": "next"}, 'banker_rotation: has no effect without pairing = "banker"'),
        ({"banker_wins_ties": True}, 'banker_wins_ties: has no effect without pairing = "banker"'),
        (
            {"pairing": "banker", "criss_cross": "corresponding"},
            "pairing: banker pairing cannot be combined with criss-cross",
        ),
        ({"cap_scope": "session"}, "cap_scope: has no effect without a cap"),
        ({"cap": 0}, "cap: a cap of 0 would cut every payment"),
        ({"table_stakes": "lots"}, "table_stakes: 'lots' is not an amount of money, true or false"),
        ({"table_stakes": 0}, "table_stakes: a stack of 0 cannot pay anything"),
    ],
    ids=lambda value: str(value)[:40],
)
def test_bad_settings_name_the_key(change, message):
    from cpscore.rules import _merge

    settings = _merge(get_rules("ofc").settings(), change)
    with pytest.raises(RulesError) as error:
        from_settings(settings, "house.toml")
    assert str(error.value) == f"house.toml: {message}" or str(error.value).startswith(f"house.toml: {message}")
