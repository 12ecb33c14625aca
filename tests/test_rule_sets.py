"""Every rule set of docs/rules.md: naturals, surrender, royalty modes, multipliers,
fantasyland, variants, presets as data and house rule files."""

from decimal import Decimal

import pytest

from cpscore import _presets, presetgen
from cpscore.cards import parse_cards, parse_hand
from cpscore.deal import Entry, build_deal
from cpscore.errors import DealError, RulesError
from cpscore.naturals import detect
from cpscore.rules import changed_settings, from_settings, get_rules, rules_from_toml, to_toml
from cpscore.scoring import assess, check_hand, settle

AMY = "Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d"
BOB = "Qs Jd 3c / Th Tc 8d 8s 3d / Kh Qh Jh 8h 2h"
FOULED = "Qd Qc 3h / Jc Td 9d 6s 5c / Kc 7h 5h 4h 2d"  # no card shared with AMY or BOB


def house(preset="2-4", **changes):
    """A preset with some settings changed, validated like a rule file."""
    return from_settings(changed_settings(get_rules(preset), changes), "test")


def settle_hands(rules, hands, surrender=(), waive=(), fantasyland=()):
    deal = build_deal(
        [Entry(name, text, "") for name, text in hands.items()]
        + [Entry(name, "surrender", "") for name in surrender if name not in hands],
        rules,
        [name for name in surrender if name in hands],
        waive,
        fantasyland,
    )
    return settle(deal, rules)


def units(result):
    return {player.name: player.units for player in result.players}


# Presets as data ---------------------------------------------------------------------


def test_shipped_presets_equal_a_fresh_build():
    fresh = presetgen.read_presets()
    assert _presets.PRESETS == fresh
    assert presetgen.PRESETS_PATH.read_text(encoding="utf-8") == presetgen.render(fresh)


@pytest.mark.parametrize("name", list(_presets.PRESETS))
def test_rules_show_round_trips(name):
    rules = get_rules(name)
    assert rules_from_toml(to_toml(rules), "copy.toml") == rules


def test_house_rules_example_gives_the_eastern_base_points():
    from pathlib import Path

    from cpscore.rules import load_rules_file

    rules = load_rules_file(str(Path(__file__).parent.parent / "examples" / "house-rules.toml"))
    table = rules.royalties.table
    assert rules.royalties.mode == "row-value" and rules.multipliers.home_run_min_opponents == 2
    assert rules.preset == "taiwanese" and rules.id == "house"
    assert dict(table.front) == {"trips": 3}
    assert dict(table.middle) == {"full-house": 2, "quads": 8, "straight-flush": 10}
    assert dict(table.back) == {"quads": 4, "straight-flush": 5}
    assert rules.naturals.units == get_rules("taiwanese").naturals.units


def test_per_rank_royalty_entries_come_before_the_category():
    rules = rules_from_toml(
        'preset = "maubinh"\n[royalties.front]\ntrips = 3\ntrips-A = 12\n'
        "[royalties.middle]\nfull-house = 2\nquads = 8\nquads-A = 32\nstraight-flush = 10\nroyal-flush = 20\n"
        "steel-wheel = 14\n",
        "chuan.toml",
    )
    table = rules.royalties.table
    assert dict(table.front) == {"trips": 3, "AAA": 12}  # trips-A is the AAA entry
    assert [table.lookup("front", "trips", rank * 3) for rank in "KA"] == [3, 12]
    assert [table.lookup("middle", "quads", rank * 4) for rank in "KA"] == [8, 32]
    assert [table.lookup("middle", kind) for kind in ("straight-flush", "royal-flush", "steel-wheel")] == [10, 20, 14]
    assert table.lookup("back", "steel-wheel") == 5  # no entry: the straight-flush one


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('preset = "ofc"\ncolour = "red"\n', "house.toml: colour: unknown setting"),
        (
            'preset = "ofc"\nsurrender = "two"\n',
            "house.toml: surrender: 'two' is text, not a number: write a number without quotes",
        ),
        ('preset = "ofc"\nsurrender = -2\n', "house.toml: surrender: -2 is not a number of units, 0 or more"),
        ('preset = "ofc"\n[royalties.back]\nquads = -1\n', "house.toml: royalties.back.quads: -1 is not a number"),
        ('preset = "ofc"\n[royalties.back]\nquad = 1\n', "house.toml: royalties.back.quad: unknown setting"),
        ('preset = "ofc"\n[royalties]\nmode = 3\n', "house.toml: royalties.mode: 3 is not one of none, holder"),
        ('preset = "ofc"\nmax_players = 6\n', "house.toml: max_players: 6 is not a whole number from 2 to 4"),
        ('preset = "ofc"\nhome_run = "yes"\n', "house.toml: home_run: 'yes' is not true or false"),
        ('preset = "ofc"\nroyalties = 3\n', "house.toml: royalties: 3 is not a table"),
        ('method = "1-6"\n', "house.toml: preset: missing"),
        ('preset = "chinese"\n', "house.toml: preset: unknown preset 'chinese'"),
        ("preset = 4\n", "house.toml: preset: 4 is not a string"),
        ('preset = "ofc"\nsurrender =\n', "house.toml: not valid TOML: Invalid value (at line 2, column 12)"),
        (
            'preset = "ofc"\nfantasyland = "progressive"\nfantasyland_cards = 14\n',
            'house.toml: fantasyland_cards: has no effect unless fantasyland = "standard"',
        ),
        ('preset = "pusoy"\ncriss_cross = "corresponding"\n', "house.toml: pairing: banker pairing cannot be"),
        ('preset = "2-4"\nhome_run_split = "equal"\n', "house.toml: home_run_split: has no effect without home_run"),
        ('preset = "capsa"\nsuit_order = ["s", "s", "c", "d"]\n', "house.toml: suit_order: ['s', 's', 'c', 'd']"),
    ],
    ids=[
        "unknown-key",
        "wrong-type",
        "negative",
        "negative-table-entry",
        "unknown-table-key",
        "mode-type",
        "out-of-range",
        "bool-type",
        "table-type",
        "missing-preset",
        "unknown-preset",
        "preset-type",
        "missing-value",
        "cards-without-standard",
        "banker-criss-cross",
        "split-without-home-run",
        "suit-twice",
    ],
)
def test_rule_file_errors_name_the_file_and_key(text, message):
    with pytest.raises(RulesError) as error:
        rules_from_toml(text, "house.toml")
    assert str(error.value).startswith(message)
    assert "\n" not in str(error.value)


def test_rule_file_merges_and_replaces():
    rules = rules_from_toml(
        'preset = "2-4"\nsurrender = 2.5\n[naturals]\ndragon = false\nno-broadway = 3\n', "house.toml"
    )
    assert str(rules.methods.surrender) == "2.5"
    assert dict(rules.naturals.units) == {"six-pairs": 3, "three-straights": 3, "three-flushes": 3, "no-broadway": 3}
    assert rules.id == "house" and rules.methods.method == "2-4"
    ofc = rules_from_toml('preset = "ofc"\n[royalties.back]\nquads = 12\n', "h.toml")
    assert dict(ofc.royalties.table.back) == {"quads": 12}  # a table row is replaced, not merged
    assert ofc.royalties.table.middle == get_rules("ofc").royalties.table.middle


# Naturals ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "cards", "expected"),
    [
        ("taiwanese", "2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah", "clean-dragon"),
        ("2-4", "2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah", "dragon"),  # classic: counts as a dragon
        ("taiwanese", "2h 3d 4c 5s 6h 7d 8c 9s Th Jd Qc Ks Ah", "dragon"),
        ("taiwanese", "Js Jh Jd Jc Qs Qh Qd Qc Ks Kh Kd Kc As", "twelve-royals"),  # also three quads
        ("taiwanese", "2h 3h 4h 5c 6c 7c 8c 9c 5s 6s 7s 8s 9s", "three-straight-flushes"),
        ("taiwanese", "2s 2h 2d 2c 5s 5h 5d 5c 9s 9h 9d 9c Ks", "three-quads"),  # also six pairs
        ("taiwanese", "8s 8h 9d 9c Ts Jh Qd Kc As Ah Kd Qs Jc", "all-high"),
        ("taiwanese", "2s 3h 4d 5c 6s 7h 8d 2c 3s 4h 5d 6c 7s", "all-low"),
        ("taiwanese", "2h 2d 4h 4d 6h 6d 8h 9d Th Td Qh Qd Ah", "one-colour"),  # also six pairs
        ("taiwanese", "2s 2h 2d 5s 5h 5d 9s 9h 9d Ks Kh Kd Ac", "four-trips"),
        ("taiwanese", "2s 2h 2d 2c 5s 5h 5d 9s 9h 9d Ks Kh Kd", "four-trips"),  # quads count as trips
        ("taiwanese", "2h 2d 4c 4s 6h 6d 8c 8s Th Td Qc Qs Ah", "six-pairs"),
        ("taiwanese", "2h 2d 2c 2s 6h 6d 8c 8s Th Td Qc Qs Ah", "six-pairs"),  # quads count as two pairs
        ("taiwanese", "2h 2d 2c 6h 6d 8c 8s Th Td Qc Qs Ah Ad", "six-pairs"),  # trips: a pair and a card
        ("taiwanese", "9h Td Jc Qs Kh 9d Tc Js Qh Kd 2c 3s 4h", "three-straights"),
        ("2-4", "2h 3d 2c 3s 4h 5d 4c 5s 6h 6d Qc Kh Ac", "three-straights"),  # Q-K-A front counts
        ("taiwanese", "2h 3d 2c 3s 4h 5d 4c 5s 6h 6d Qc Kh Ac", None),  # ... unless the rules say not
        ("2-4", "Ah 2d 3c 4h 5d 6c 7h 8d 4s 5s 6s 7s 8s", "three-straights"),  # A-2-3 front
        ("taiwanese", "3h 5h 7h 3c 5c 7c 9c Tc 2s 5s 7s 9s Js", "three-flushes"),
        ("taiwanese", "2h 4h 6h 8h Th 3h 5h 9h 3c 5c 7c Jc Kc", "three-flushes"),  # 8 hearts make two rows
        ("taiwanese", "2h 4h 6h 8h Th 3h 5h 9h 3c 5c 7c Jc Kd", None),  # 8 + 4 + 1: no
        ("taiwanese", "2h 2d 4c 4s 6h 6d 8c 9s Th Tc 3c 5s Ah", None),  # no-broadway is off
        ("2-4", "2h 2d 4c 4s 6h 6d 8c 8s Th Td Qc Ks Ah", None),  # five pairs
        ("2-4", "2h 3d 4c 5s 6h 7d 8c 9s Th Jd Qc Ks Kh", None),  # twelve ranks
        ("2-4", "Kc Jh 9h 3d 4d 5d 7d 9d Ks Kh Kd Ac Ad", None),
    ],
)
def test_unset_naturals(rules, cards, expected):
    found = detect(parse_cards(cards), None, get_rules(rules))
    assert (found.id if found else None) == expected


def test_no_broadway_when_enabled():
    rules = house("2-4", naturals={"no-broadway": 3})
    assert detect(parse_cards("2h 2d 4c 4s 6h 6d 8c 9s Th Tc 3c 5s Ah"), None, rules).id == "no-broadway"


def test_set_hand_row_naturals_use_the_rows_as_set():
    rules = get_rules("2-4")
    as_set = parse_hand("3h 5h 7h / 3c 5c 7c 9c Tc / 2s 5s 7s 9s Js")
    assert detect(as_set.cards(), as_set, rules).id == "three-flushes"
    mixed = parse_hand("3h 5h 3c / 7h 5c 7c 9c Tc / 2s 5s 7s 9s Js")
    assert detect(mixed.cards(), mixed, rules) is None


def test_strongest_arrangement_breaks_ties():
    # Eight hearts and five clubs: the strongest back is the 2-6 straight flush
    # (not the ten-high flush), which leaves 8-9-T of hearts in front.
    found = detect(parse_cards("2h 4h 6h 8h Th 3h 5h 9h 3c 5c 7c Jc Kc"), None, get_rules("2-4"))
    back, middle, front = (sorted(map(str, row)) for row in found.rows)
    assert (back, middle, front) == (
        ["2h", "3h", "4h", "5h", "6h"],
        ["3c", "5c", "7c", "Jc", "Kc"],
        ["8h", "9h", "Th"],
    )


@pytest.mark.parametrize(
    ("rules", "a", "b", "a_units"),
    [
        # Six pairs against six pairs: the highest pair decides, then the next ...
        ("taiwanese", "2h 2d 4c 4s 6h 6d 8c 8s Th Td Ac As 3h", "3c 3d 5c 5s 7h 7d 9c 9s Jh Jd Kc Ks 2s", 6),
        # ... and equal pairs tie whatever the odd card (six_pairs_odd_card = false, every preset).
        ("taiwanese", "2h 2d 4c 4s 6h 6d 8c 8s Th Td Kc Ks Ah", "2c 2s 4d 4h 6c 6s 8d 8h Tc Ts Kd Kh Qh", 0),
        # Equal pairs and odd card: a tie, nothing paid.
        ("taiwanese", "2h 2d 4c 4s 6h 6d 8c 8s Th Td Kc Ks Ah", "2c 2s 4d 4h 6c 6s 8d 8h Tc Ts Kd Kh Ad", 0),
        # Two dragons tie.
        ("2-4", "2h 3d 4c 5s 6h 7d 8c 9s Th Jd Qc Ks Ah", "2d 3c 4s 5h 6d 7c 8s 9h Td Jc Qs Kh Ad", 0),
        # all-high against all-low: one line of the table, a tie.
        ("taiwanese", "8s 8h 9d 9c Ts Jh Qd Kc As Ah Kd Qs Jc", "2s 3h 4d 5c 6s 7h 8d 2c 3s 4h 5d 6c 7s", 0),
        # Different naturals: the more valuable collects its own value.
        ("taiwanese", "2h 2d 4c 4s 6h 6d 8c 8s Th Td Qc Qs Ah", "3h 5h 7h 3c 5c 7c 9c Tc 2s 5s 7s 9s Js", 6),
        # Equal values (classic 3 and 3): the one higher in the table collects.
        ("1-6", "3h 5h 7h 3c 5c 7c 9c Tc 2s 5s 7s 9s Js", "2h 2d 4c 4s 6h 6d 8c 8s Th Td Qc Qs Ah", -3),
        # Three flushes against three flushes: the back decides.
        ("2-4", "3h 5h 7h 3c 5c 7c 9c Tc 2s 5s 7s 9s Ks", "4h 6h 8h 4d 6d 8d Td Jd 3s 6s 8s Ts Qs", 3),
    ],
    ids=[
        "six-pairs-top",
        "six-pairs-odd",
        "six-pairs-tie",
        "dragons-tie",
        "high-low-tie",
        "value",
        "table-order",
        "flushes-back",
    ],
)
def test_natural_against_natural(rules, a, b, a_units):
    assert units(settle_hands(get_rules(rules), {"A": a, "B": b}))["A"] == a_units


@pytest.mark.parametrize(("odd_card", "a_units"), [(False, 0), (True, 6)], ids=["equal-pairs-tie", "odd-card-last"])
def test_six_pairs_odd_card(odd_card, a_units):
    """docs/rules.md 7: six pairs against six pairs with the same pairs; A's odd
    ace beats B's odd queen only when six_pairs_odd_card compares it."""
    rules = from_settings(changed_settings(get_rules("taiwanese"), {"six_pairs_odd_card": odd_card}), "test")
    a, b = "2h 2d 4c 4s 6h 6d 8c 8s Th Td Kc Ks Ah", "2c 2s 4d 4h 6c 6s 8d 8h Tc Ts Kd Kh Qh"
    assert units(settle_hands(rules, {"A": a, "B": b}))["A"] == a_units


def test_natural_collects_from_fouled_and_surrendered_and_waive_plays_rows():
    rules = get_rules("2-4")
    dragon = "2h 3d 4c 5s 6h 7d 8c 9s Th Jd Qc Ks Ah"
    fouled = "Kd Kc 3c / Jc Td 9d 6s 5c / Ac 7h 5h 4h 2d"
    result = settle_hands(rules, {"A": dragon, "B": fouled}, surrender=["C"])
    assert units(result) == {"A": 26, "B": -13, "C": -13}
    assert [pair.decided_by for pair in result.pairs] == ["natural", "natural", "surrender"]
    set_six_pairs = "2h 2d 4c / 4s 6h 6d 8c 8s / Th Td Qc Qs Ah"
    claimed = settle_hands(rules, {"A": set_six_pairs, "B": ANN})
    assert claimed.players[0].natural.id == "six-pairs" and units(claimed)["A"] == 3
    waived = settle_hands(rules, {"A": set_six_pairs, "B": ANN}, waive=["A"])
    assert waived.players[0].natural is None and waived.pairs[0].decided_by == "rows"


def test_unset_hand_that_is_no_natural_is_an_error():
    with pytest.raises(DealError, match="A: 13 cards without rows are not a natural under the ofc rules"):
        settle_hands(get_rules("ofc"), {"A": "2h 2s 4c 5s 6c 7d 8h 9s Tc Jh Qc Ks Ah", "B": BEN})


# Surrender ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "opponent", "expected"),
    [
        ("2-4", AMY, Decimal("-2.5")),  # against a live hand: pays the surrender
        ("1-6", AMY, Decimal("-2.5")),
        ("ofc", AMY, -2),
        ("2-4", FOULED, 0),  # against a fouled hand: nothing
        ("2-4", "surrender", 0),  # both surrender: nothing
        ("2-4", "2h 3d 4c 5s 6h 7d 8c 9s Th Jd Qc Ks As", -13),  # against a natural: the natural collects
    ],
    ids=["live-2-4", "live-1-6", "live-ofc", "fouled", "both", "natural"],
)
def test_surrender_against_every_kind_of_opponent(rules, opponent, expected):
    result = settle_hands(get_rules(rules), {"S": "surrender", "O": opponent})
    assert units(result)["S"] == expected
    assert result.players[0].seat.surrendered


def test_surrender_units_are_a_setting_and_taiwanese_has_none():
    assert str(units(settle_hands(get_rules("2-4"), {"S": "surrender", "O": AMY}))["S"]) == "-2.5"
    rules = house("2-4", surrender=3)
    assert units(settle_hands(rules, {"S": "surrender", "O": AMY}))["S"] == -3
    with pytest.raises(DealError, match="S surrenders, but the taiwanese rules have no surrender"):
        settle_hands(get_rules("taiwanese"), {"S": "surrender", "O": AMY})


def test_surrender_with_cards_and_marker():
    result = settle_hands(get_rules("2-4"), {"Amy": AMY + " ; surrender", "Bob": BOB})
    assert units(result) == {"Amy": Decimal("-2.5"), "Bob": Decimal("2.5")}


# Royalties ---------------------------------------------------------------------------

# A: front 66 (ofc 1), middle flush (8), back full house (6).  B: front 22, middle
# straight (4), back quads (10).  A wins the front and the middle, B the back.
ROY_A = "6s 6d 2c / 2h 5h 8h 9h Jh / Qs Qd Qc 4s 4d"
ROY_B = "2s 2d 3c / 5c 6c 7d 8s 9d / Ks Kd Kc Kh 3d"


@pytest.mark.parametrize(
    ("changes", "a_units"),
    [
        ({}, 1 + (15 - 14)),  # holder: rows 1 (1-6), royalties 1+8+6 - (4+10)
        ({"royalties": {"mode": "row-bonus"}}, (1 + 1) + (1 + 8) - (1 + 10)),
        ({"royalties": {"mode": "row-value"}}, 1 + 8 - 10),
        ({"royalties": {"mode": "row-bonus", "cancel_when_both": True}}, (1 + 1) + 1 - 1),
        ({"royalties": {"mode": "row-value", "cancel_when_both": True}}, 1 + 1 - 1),
        ({"royalties": {"max_per_hand": 1}}, 1 + (8 - 10)),
        ({"royalties": {"mode": "none"}}, 1),
    ],
    ids=["holder", "row-bonus", "row-value", "row-bonus-cancel", "row-value-cancel", "max-per-hand", "none"],
)
def test_royalty_modes(changes, a_units):
    rules = house("ofc", **changes)
    assert units(settle_hands(rules, {"A": ROY_A, "B": ROY_B}))["A"] == a_units


def test_spade_bonus_doubles_the_row_holding_the_deuce_of_spades():
    rules = house("ofc", royalties={"spade_bonus": True})
    front = assess(parse_hand("2s 2d 3c / 5c 6c 7d 8s 9d / Ks Kd Kc Kh 3d"), rules)
    assert [row.royalty for row in front.rows] == [0, 4, 10]  # 22 pays nothing, doubled or not
    quads = assess(parse_hand("6s 6d 3c / 5c 6c 7d 8s 9d / Ks Kd Kc Kh 2s"), rules)
    assert [row.royalty for row in quads.rows] == [1, 4, 20]
    largest = house("ofc", royalties={"spade_bonus": True, "max_per_hand": 1})
    assert [row.royalty for row in assess(parse_hand("6s 6d 3c / 5c 6c 7d 8s 9d / Ks Kd Kc Kh 2s"), largest).rows] == [
        0,
        0,
        20,
    ]


# Multipliers -------------------------------------------------------------------------

ANN = "Qh Qd 2c / Kh Kd Kc 3h 3d / 9s 9h 9d 9c 4h"
BEN = "Js Jd 5c / Th Td 8c 8d 2d / Ac Ad 6s 6h 7c"
CAT = "Ts 7d 4c / 6c 6d 5s 5h 3c / As Ks Qs 8s 2s"


def test_scoop_doubles_and_home_run():
    taiwanese = get_rules("taiwanese")
    # A home run needs three opponents under taiwanese (home_run_min_opponents = 3) ...
    result = settle_hands(taiwanese, {"A": ANN, "B": BEN, "C": CAT})
    assert [pair.multiplier for pair in result.pairs] == [2, 2, 1]
    # ... and two with the setting at 2, as the regional presets have it.
    two = house("taiwanese", home_run_min_opponents=2)
    result = settle_hands(two, {"A": ANN, "B": BEN, "C": CAT})
    assert [pair.multiplier for pair in result.pairs] == [4, 4, 1]
    heads_up = settle_hands(two, {"A": ANN, "B": BEN})
    assert heads_up.pairs[0].multiplier == 2 and units(heads_up)["A"] == 12  # no home run with one opponent
    # An opponent with a natural is not scooped: no home run against the others.
    six_pairs = "2h 2s 3c 3s 4c 4d 5d 5h 7d 7h 8h 8s Ks"
    blocked = settle_hands(two, {"A": ANN, "B": BEN, "D": six_pairs})
    assert [(pair.decided_by, pair.multiplier) for pair in blocked.pairs] == [
        ("rows", 2),
        ("natural", 1),
        ("natural", 1),
    ]


def test_scoop_doubling_includes_holder_royalties():
    rules = house("ofc", scoop_doubles=True)
    result = settle_hands(
        rules, {"A": "Jc 9d 4s / Kh Kd 8s 6c 2d / 7s 7d 7h 7c Ad", "B": "Tc 8c 4c / Qh Qd 9h 5d 2c / As Js 9s 5s 3s"}
    )
    assert units(result)["A"] == 24  # (6 + 10 - 4) doubled


def test_a_fouled_opponent_counts_as_scooped():
    result = settle_hands(get_rules("taiwanese"), {"A": AMY, "B": BOB, "F": FOULED})
    amy_vs_foul = next(pair for pair in result.pairs if pair.a == "A" and pair.b == "F")
    assert amy_vs_foul.multiplier == 2


# Fantasyland -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "standard", "progressive"),
    [
        ("Qs Qd 5c / 9h 9c 4d 4s 2c / As Ks Qh Jd Tc", 13, 14),
        ("Ks Kd 5c / 9h 9c 4d 4s 2c / Kh Qh Jh 8h 3h", 13, 15),
        ("As Ad 5c / 9h 9c 4d 4s 2c / Kh Qh Jh 8h 3h", 13, 16),
        ("2s 2d 2c / 9h 9c 9d 4s 4c / Ts Js Qs Ks As", 13, 17),
        ("Js Jd 5c / 9h 9c 4d 4s 2c / As Ks Qh Jh Tc", None, None),
        ("Qs Qd 5c / 9h 8c 4d 3s 2c / As Ks Qh Jd Tc", None, None),  # fouled
    ],
    ids=["QQ", "KK", "AA", "trips", "JJ", "fouled"],
)
def test_fantasyland_entry(hand, standard, progressive):
    pineapple = None if standard is None else 14  # standard Fantasyland of 14 cards (fantasyland_cards)
    for rules, cards in (
        (get_rules("ofc"), standard),
        (get_rules("pineapple"), pineapple),
        (house("pineapple", fantasyland="progressive"), progressive),
    ):
        fantasyland = check_hand(parse_hand(hand), rules).fantasyland
        assert fantasyland.next is (cards is not None)
        assert fantasyland.cards == cards
    assert check_hand(parse_hand(hand), get_rules("2-4")).fantasyland is None


@pytest.mark.parametrize(
    ("hand", "stays"),
    [
        ("2s 2d 2c / 5h 6h 7c 8d 9s / Ah Kh Qh Jh 3h", True),  # trips in front
        ("Ks Kd 5c / 9h 9c 9d 4s 4c / Ah Ad Ac Qh Qd", True),  # full house in the middle
        ("Ks Kd 5c / 9h 9c 4d 4s 2c / 7s 7d 7h 7c Tc", True),  # quads in the back
        ("Qs Qd 5c / 9h 9c 4d 4s 2c / As Ks Qh Jd Tc", False),  # a pair of queens is not enough
    ],
    ids=["trips-front", "full-house-middle", "quads-back", "queens"],
)
def test_fantasyland_stay(hand, stays):
    progressive = house("pineapple", fantasyland="progressive")
    for rules, cards in ((get_rules("ofc"), 13), (get_rules("pineapple"), 14), (progressive, 14)):
        fantasyland = check_hand(parse_hand(hand), rules, playing_fantasyland=True).fantasyland
        assert fantasyland.status == ("stays" if stays else "leaves")
        assert fantasyland.cards == (cards if stays else None)


def test_fantasyland_marker_in_deal():
    result = settle_hands(get_rules("pineapple"), {"A": ANN + " ; fantasyland", "B": BEN})
    assert result.players[0].fantasyland.status == "stays"
    assert result.players[1].fantasyland.status == "none"  # a pair of jacks does not qualify


# Variants ----------------------------------------------------------------------------


def test_wheel_second():
    wheel = "2s 3d 4c / 9h 9c 7d 7s 2c / Ah 2d 3c 4s 5h"
    king = "Kd Qc 2h / 8h 8c 6d 6s Jc / 9s Td Jh Qs Kh"
    assert settle_hands(get_rules("2-4"), {"W": wheel, "K": king}).pairs[0].rows[2] == -1
    assert settle_hands(house("2-4", wheel="second"), {"W": wheel, "K": king}).pairs[0].rows[2] == 1
    broadway = "Kd Qc 2h / 8h 8c 6d 6s Jc / Ts Jd Qh Ks As"
    assert settle_hands(house("2-4", wheel="second"), {"W": wheel, "B": broadway}).pairs[0].rows[2] == -1


def test_low_middle():
    rules = house("ofc", low_middle=True)
    # A's middle 7-5-4-3-2 is the best low; B's pair is worse; a high middle is no foul.
    a = "Ks Kd 4d / 7c 5h 4c 3s 2d / Ah Ad Ac 8s 8d"
    b = "Qs Jd 3c / Th Tc 8c 9s 6d / Kh Qh Jh 8h 2h"
    result = settle_hands(rules, {"A": a, "B": b})
    assert result.pairs[0].rows == (1, 1, 1)
    assert result.players[0].foul is None and result.players[1].foul is None
    assert [row.royalty for row in result.players[0].assessment.rows][1] == 0
    wheel_low = assess(parse_hand("Ks Kd 4d / Ah 2h 3c 4s 5d / Ac Ad As 8s 8d"), rules)
    seven_low = assess(parse_hand("Ks Kd 4d / 7c 5h 4c 3s 2d / Ac Ad As 8s 8h"), rules)
    assert seven_low.rows[1].value > wheel_low.rows[1].value  # A-2-3-4-5 is ace high, no straight
    fouled = assess(parse_hand("As Ad 4d / 7c 5h 4c 3s 2d / Kc Kd Ks 8s 8h"), rules)
    assert fouled.foul is None  # back trips beat front pair: legal
    fouled = assess(parse_hand("As Ad Ah / 7c 5h 4c 3s 2d / Kc Kd Qs 8s 8h"), rules)
    assert fouled.foul.reason.startswith("front three aces")


def test_criss_cross():
    rules = get_rules("2-4")
    result = settle_hands(
        rules,
        {"Amy[1]": AMY, "Amy[2]": BOB, "Bob[1]": "As 6d 2s / 6c 6h 4d 4s 3s / Js Ts 9s 8c 7c", "Bob[2]": FOULED},
    )
    assert [(pair.a, pair.b) for pair in result.pairs] == [
        ("Amy[1]", "Bob[1]"),
        ("Amy[1]", "Bob[2]"),
        ("Amy[2]", "Bob[1]"),
        ("Amy[2]", "Bob[2]"),
    ]
    assert [(owner.name, owner.units) for owner in result.owners] == [("Amy", 14), ("Bob", -14)]


def test_player_limits():
    with pytest.raises(DealError, match="4 players in the deal: a deal has 2 to 3 players under the pineapple rules"):
        settle_hands(
            get_rules("pineapple"), {"A": AMY, "B": BOB, "C": "As 6d 2s / 6c 6h 4d 4s 3s / Js Ts 9s 8c 7c", "D": FOULED}
        )
    with pytest.raises(DealError, match="every hand in the deal belongs to one player"):
        settle_hands(get_rules("2-4"), {"A[1]": AMY, "A[2]": BOB})
    with pytest.raises(DealError, match="brackets only as OWNER\\[LABEL\\]"):
        settle_hands(get_rules("2-4"), {"A]": AMY, "B": BOB})


# docs/rules.md 5: the methods' table, each pair from the first player's side.
METHOD_HANDS = {
    "Amy1": "Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d",
    "Bob1": "Qs Jd 3c / Th Tc 8d 8s 3d / Kh Qh Jh 8h 2h",
    "Cy1": "As 6d 2s / 6c 6h 4d 4s 3s / Js Ts 9s 8c 7c",
    "Amy2": "Qc Jd 8h / Kh Kd 9c 6s 6h / Ah 2d 3c 4s 5h",
    "Bob2": "Qd Js 8c / Ks Kc 9d 6c 6d / 7d 8d 9h Th Jc",
    "Carl2": "Qs Td 8c / Ks Kc 9d 6c 6d / Ts Th Tc 4d 2s",
}


@pytest.mark.parametrize(
    ("a", "b", "units"),
    [
        ("Amy1", "Bob1", {"rows": 1, "2-4": 2, "1-6": 1, "1-4": 1}),
        ("Amy2", "Carl2", {"rows": 2, "2-4": 3, "1-6": 2, "1-4": 2}),
        ("Amy2", "Bob2", {"rows": -1, "2-4": -1, "1-6": -1, "1-4": -1}),
        ("Amy1", "Cy1", {"rows": 3, "2-4": 4, "1-6": 6, "1-4": 4}),
    ],
    ids=["win-loss-win", "win-tie-win", "tie-tie-loss", "scoop"],
)
@pytest.mark.parametrize("method", ["rows", "2-4", "1-6", "1-4"])
def test_the_methods_table(a, b, units, method):
    rules = from_settings(changed_settings(get_rules("2-4"), {"method": method}), "test")
    deal = build_deal([Entry(a, METHOD_HANDS[a], ""), Entry(b, METHOD_HANDS[b], "")], rules)
    assert settle(deal, rules).players[0].units == units[method]
