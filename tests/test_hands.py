"""Row evaluation and fouls (docs/rules.md 2 and 3), exhaustively where the space is small."""

import itertools
from collections import Counter

import pytest

from cpscore import _tables, tablegen
from cpscore.cards import CARDS, parse_cards, parse_hand
from cpscore.hands import (
    category,
    describe,
    evaluate3,
    evaluate5,
    evaluate_row,
    find_foul,
    rank_letters,
)
from cpscore.values import CATEGORY_IDS


def value(text):
    return evaluate_row(parse_cards(text))


def test_shipped_tables_equal_a_fresh_build():
    fresh = tablegen.build_tables()
    assert _tables.FIVE == fresh["FIVE"]
    assert _tables.THREE == fresh["THREE"]
    assert tablegen.TABLES_PATH.read_text(encoding="utf-8") == tablegen.render(fresh)


def test_every_flush_is_valued_as_the_generator_values_it():
    for ranks in itertools.combinations(range(2, 15), 5):
        codes = [(rank - 2) * 4 + 2 for rank in ranks]  # all hearts
        assert evaluate5(codes) == tablegen.five_card_value(ranks, flush=True)


def test_all_three_card_rows():
    counts = Counter()
    values = set()
    for codes in itertools.combinations(range(52), 3):
        found = evaluate3(codes)
        counts[category(found)] += 1
        values.add(found)
    assert sum(counts.values()) == 22_100
    assert counts == {"trips": 52, "pair": 3_744, "high-card": 18_304}
    assert len(values) == 455


@pytest.mark.slow
def test_all_five_card_rows():
    counts = Counter()
    values = set()
    for codes in itertools.combinations(range(52), 5):
        found = evaluate5(codes)
        counts[found >> 20] += 1
        values.add(found)
    assert sum(counts.values()) == 2_598_960
    assert [counts[number] for number in range(9)] == [
        1_302_540,  # high card
        1_098_240,  # pair
        123_552,  # two pair
        54_912,  # trips
        10_200,  # straight
        5_108,  # flush
        3_744,  # full house
        624,  # quads
        40,  # straight flush (4 of them royal)
    ]
    assert len(values) == 7_462


@pytest.mark.parametrize(
    ("row", "expected_category", "expected_name"),
    [
        ("Kh 9d 5c 3s 2h", "high-card", "king high"),
        ("Kh Kd 5c 3s 2h", "pair", "pair of kings"),
        ("Kh Kd 5c 5s 2h", "two-pair", "two pair, kings and fives"),
        ("Kh Kd Kc 5s 2h", "trips", "three kings"),
        ("Ah 2d 3c 4s 5h", "straight", "five-high straight"),
        ("Th Jd Qc Ks Ah", "straight", "ace-high straight"),
        ("Kh 9h 5h 3h 2h", "flush", "king-high flush"),
        ("Kh Kd Kc 5s 5h", "full-house", "kings full of fives"),
        ("Kh Kd Kc Ks 2h", "quads", "four kings"),
        ("5h 6h 7h 8h 9h", "straight-flush", "nine-high straight flush"),
        ("Ah 2h 3h 4h 5h", "straight-flush", "five-high straight flush"),
        ("Th Jh Qh Kh Ah", "royal-flush", "royal flush"),
        ("Kh 9d 2s", "high-card", "king high"),
        ("Kh Kd 2s", "pair", "pair of kings"),
        ("2h 2d 2s", "trips", "three twos"),
        ("Qh Kh Ah", "high-card", "ace high"),
    ],
    ids=lambda value: value,
)
def test_categories_and_names(row, expected_category, expected_name):
    assert category(value(row)) == expected_category
    assert describe(value(row)) == expected_name
    assert category(value(row)) in CATEGORY_IDS


@pytest.mark.parametrize(
    ("stronger", "weaker"),
    [
        ("2h 2d 3c 4s 5h", "Ah Kd Qc Js 9h"),  # any pair beats any high card
        ("Ah Kd Qc Js 9h", "Ah Kd Qc Js 8h"),  # last kicker decides
        ("9h 9d Ac 5s 2h", "9s 9c Kd 5c 2d"),  # pair kicker
        ("Kh Kd 3c 3s 2h", "Qh Qd Jc Js Ah"),  # higher top pair
        ("Kh Kd 3c 3s 4h", "Ks Kc 3d 3h 2c"),  # two pair kicker
        ("2h 3d 4c 5s 6h", "Ah 2d 3c 4s 5h"),  # the wheel is the lowest straight
        ("Ah 2d 3c 4s 5h", "Ah Ad Ac Ks Qh"),  # ... but a straight beats trips
        ("Kh Jh 5h 3h 2h", "Kd Td 9d 8d 6d"),  # flush by second card
        ("2h 2d 2c 3s 3h", "Ah Kh Qh Jh 9h"),  # full house beats flush
        ("3h 3d 3c 2s 2h", "2d 2s 2c As Ah"),  # full house by trips first
        ("Ah 2h 3h 4h 5h", "Ks Kh Kd Kc Ah"),  # steel wheel beats quads
    ],
)
def test_five_card_order(stronger, weaker):
    assert value(stronger) > value(weaker)


@pytest.mark.parametrize(
    ("left", "right"),
    [
        ("Ah Kd Qc Js 9h", "As Kc Qd Jh 9c"),
        ("Kh Jh 5h 3h 2h", "Ks Js 5s 3s 2s"),
        ("Kh Kd 7c", "Ks Kc 7d"),
    ],
    ids=["high-card", "flush", "front-pair"],
)
def test_suits_never_break_ties(left, right):
    assert value(left) == value(right)


@pytest.mark.parametrize(
    ("front", "middle", "fouled"),
    [
        ("Kh Kd Ac", "Ks Kc Qh 7d 3s", True),  # docs/rules.md 2: A beats Q
        ("Kh Kd Qc", "Ks Kc Qh 7d 3s", False),  # K K Q equal, the middle has more cards
        ("As Ad 2d", "2c 2h 5d 4c Th", True),
        ("Ah Kd Qc", "As Kc Qd 3h 2c", False),  # equal start: the middle is higher
        ("Ah Kd Qc", "As Kc Jd 3h 2c", True),
        ("2h 2d 2c", "3s 3h 4d 4c 5h", True),  # trips over two pair
        ("2h 2d 2c", "3s 4h 5d 6c 7h", False),  # a straight beats trips
        ("Qh Qd 3c", "Jh Tc 8d 6s 3d", True),
    ],
)
def test_front_against_middle(front, middle, fouled):
    assert (value(front) > value(middle)) is fouled


def test_foul_reason_names_rows_and_ranks():
    hand = parse_hand("Qs Qc 3c / Jh Tc 8d 6s 3d / Kh Qh Jd 8h 2h")
    foul = find_foul(*(evaluate_row(row) for row in hand.rows))
    assert foul.reason == "front pair of queens (Q-Q-3) beats middle jack high (J-T-8-6-3)"
    hand = parse_hand("2s 3c 4d / Ah Ad Kc Ks 2c / Qs Qc 9d 7h 5s")
    foul = find_foul(*(evaluate_row(row) for row in hand.rows))
    assert foul.reason == "middle two pair, aces and kings (A-A-K-K-2) beats back pair of queens (Q-Q-9-7-5)"


def test_equal_rows_are_legal():
    hand = parse_hand("2s 3c 4d / Ah Kd Qc Js 9h / As Kc Qd Jh 9c")
    assert find_foul(*(evaluate_row(row) for row in hand.rows)) is None


def test_rank_letters():
    assert rank_letters(value("Ah 2d 3c 4s 5h")) == "5-4-3-2-A"
    assert rank_letters(value("9h 9c 5d 5s 2c")) == "9-9-5-5-2"
    assert rank_letters(value("7h 7c 7d")) == "7-7-7"


def test_row_of_wrong_size_is_rejected():
    with pytest.raises(ValueError):
        evaluate_row(CARDS[:4])
