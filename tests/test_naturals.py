"""The naturals registry: one entry per natural, and a screen that never misses.

For every natural a generator builds 13 cards that make it (set as rows, or
unset); the natural's screen must pass them and its claim must find it, and
the kernel must pay it.  On random hands, a natural that is made is always
screened in.
"""

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from cpscore.cards import CARDS, Hand, card_code
from cpscore.deal import Deal, Seat
from cpscore.naturals import REGISTRY, Facts
from cpscore.rules import NATURALS, changed_settings, from_settings, get_rules
from cpscore.scoring import evaluate_core, settle
from cpscore.values import CATEGORY_SHIFT

RANKS = range(2, 15)
SUITS = range(4)


def only(natural, units=5, preset="2-4", **settings_):
    """A rule set that plays only ``natural``."""
    changes = {"naturals": {name: (units if name == natural else False) for name in NATURALS}, **settings_}
    return from_settings(changed_settings(get_rules(preset), changes), "test")


def card(rank, suit):
    return CARDS[card_code(rank, suit)]


def run(top, length):
    """Ranks of a straight with this top card (5 is the wheel's, 3 is A-2-3's)."""
    ranks = list(range(top - length + 1, top + 1))
    return [14 if rank == 1 else rank for rank in ranks]


@st.composite
def made(draw, natural):
    """(cards, rows or None): 13 distinct cards that make ``natural``; ``rows``
    are front, middle, back when the natural is made by its rows."""
    deck = [card(rank, suit) for rank in RANKS for suit in SUITS]

    def sample(pool, count):
        return draw(st.permutations(pool))[:count]

    if natural in ("clean-dragon", "dragon"):
        suits = [draw(st.sampled_from(SUITS))] * 13 if natural == "clean-dragon" else None
        return [card(rank, suits[0] if suits else draw(st.sampled_from(SUITS))) for rank in RANKS], None
    if natural == "twelve-royals":
        return sample([c for c in deck if c.rank.number >= 11], 13), None
    if natural == "all-high":
        return sample([c for c in deck if c.rank.number >= 8], 13), None
    if natural == "all-low":
        return sample([c for c in deck if c.rank.number <= 8], 13), None
    if natural == "one-colour":
        red = draw(st.booleans())
        return sample([c for c in deck if c.suit.red == red], 13), None
    if natural == "six-and-higher":
        return sample([c for c in deck if c.rank.number >= 6], 13), None
    if natural == "twelve-one-colour":
        red = draw(st.booleans())
        cards = sample([c for c in deck if c.suit.red == red], 12)
        return cards + sample([c for c in deck if c not in cards], 1), None
    if natural == "five-pairs-trips":  # a rank may give two of the pairs (four of a kind)
        trips = draw(st.sampled_from(RANKS))
        ranks = draw(
            st.lists(st.sampled_from([r for r in RANKS if r != trips]), min_size=5, max_size=5).filter(
                lambda r: max(map(r.count, r)) <= 2
            )
        )
        cards = [card(trips, suit) for suit in sample(list(SUITS), 3)]
        for rank in ranks:
            free = [suit for suit in SUITS if card(rank, suit) not in cards]
            cards += [card(rank, suit) for suit in sample(free, 2)]
        return cards, None
    if natural == "five-consecutive-pairs":
        top = draw(st.sampled_from(range(6, 15)))
        cards = [card(rank, suit) for rank in range(top - 4, top + 1) for suit in sample(list(SUITS), 2)]
        return cards + sample([c for c in deck if c not in cards], 3), None
    if natural == "no-broadway":
        return sample([c for c in deck if c.rank.number not in (11, 12, 13)], 13), None
    if natural in ("three-quads", "four-trips"):
        groups, size = (3, 4) if natural == "three-quads" else (4, 3)
        ranks = sample(list(RANKS), groups)
        cards = [card(rank, suit) for rank in ranks for suit in sample(list(SUITS), size)]
        return cards + sample([c for c in deck if c not in cards], 13 - len(cards)), None
    if natural == "six-pairs":  # a rank may give two pairs (four of a kind)
        ranks = draw(
            st.lists(st.sampled_from(RANKS), min_size=6, max_size=6).filter(lambda r: max(map(r.count, r)) <= 2)
        )
        cards = []
        for rank in ranks:
            free = [suit for suit in SUITS if card(rank, suit) not in cards]
            cards += [card(rank, suit) for suit in sample(free, 2)]
        return cards + sample([c for c in deck if c not in cards], 1), None
    # Row-based: three rows of the kind, front first.
    rows = []
    for length in (3, 5, 5):
        if natural == "three-flushes":
            suit = draw(st.sampled_from(SUITS))
            pool = [c for c in deck if card_code(c.rank.number, suit) == c.code and all(c not in r for r in rows)]
            rows.append(tuple(sample(pool, length)))
            continue
        top = draw(st.sampled_from(range(length, 15)))
        suit = draw(st.sampled_from(SUITS))
        suited = natural == "three-straight-flushes"
        rows.append(tuple(card(rank, suit if suited else draw(st.sampled_from(SUITS))) for rank in run(top, length)))
    flat = [c for r in rows for c in r]
    assume(len(set(flat)) == 13)
    return flat, tuple(rows)


def facts_of(cards, hand, rules):
    codes = [c.code for c in cards]
    if hand is None:
        return Facts(codes)
    core = evaluate_core(*([c.code for c in row] for row in hand.rows), rules)
    return Facts(codes, (core.plains[1] >> CATEGORY_SHIFT, core.plains[2] >> CATEGORY_SHIFT), codes[:3])


def test_the_registry_knows_every_natural_a_rule_set_can_play():
    assert list(REGISTRY) == list(NATURALS)
    for entry in REGISTRY.values():
        assert entry.label and entry.definition and callable(entry.screen) and callable(entry.claim)


@pytest.mark.parametrize("natural", NATURALS)
@settings(max_examples=35, deadline=None)
@given(data=st.data())
def test_the_screen_never_misses_a_made_natural(natural, data):
    cards, rows = data.draw(made(natural))
    rules = only(natural)
    entry = REGISTRY[natural]
    # Made by its rows: the rows as set, and unset (any arrangement counts).
    # Made by the cards: unset, and set in the order drawn.
    hands = [Hand(*rows), None] if rows else [None, Hand(tuple(cards[:3]), tuple(cards[3:8]), tuple(cards[8:]))]
    for hand in hands:
        facts = facts_of(cards, hand, rules)
        assert entry.claim(cards, facts, hand, rules) is not None, (natural, hand)
        assert entry.screen(facts), (natural, [str(c) for c in cards])
        # and the kernel pays it
        rest = [c for c in CARDS if c not in cards][:13]
        seat = Seat("Amy", "Amy", hand, tuple(cards), False, False, False)
        other = Seat(
            "Bob", "Bob", Hand(tuple(rest[:3]), tuple(rest[3:8]), tuple(rest[8:])), tuple(rest), False, False, False
        )
        natural_paid = settle(Deal((seat, other)), rules).players[0].natural
        assert natural_paid is not None and natural_paid.id == natural


@settings(max_examples=400, deadline=None)
@given(st.permutations(range(52)), st.sampled_from(NATURALS), st.booleans())
def test_on_random_hands_a_made_natural_is_screened_in(order, natural, set_hand):
    rules = only(natural)
    cards = [CARDS[code] for code in order[:13]]
    hand = Hand(tuple(cards[:3]), tuple(cards[3:8]), tuple(cards[8:])) if set_hand else None
    facts = facts_of(cards, hand, rules)
    if REGISTRY[natural].claim(cards, facts, hand, rules) is not None:
        assert REGISTRY[natural].screen(facts)


@pytest.mark.parametrize(
    "natural, hand",
    [
        ("dragon", "2h 3d 4c / 5s 6h 7d 8c 9s / Th Jd Qc Ks Ah"),
        ("six-pairs", "2h 2d 4c / 4s 6h 6d 8c 8s / Th Td Qc Qs Ah"),
        ("three-flushes", "3h 5h 7h / 3c 5c 7c 9c Tc / 2s 5s 7s 9s Js"),
        ("three-straights", "2c 3d 4s / 9d Tc Js Qh Kd / 9h Td Jc Qs Kh"),
        ("three-straight-flushes", "Ah 2h 3h / 9c Tc Jc Qc Kc / 9s Ts Js Qs Ks"),
    ],
    ids=lambda value: value if "/" not in value else None,
)
def test_worked_naturals_are_screened_and_claimed(natural, hand):
    from cpscore.cards import parse_hand

    parsed = parse_hand(hand)
    rules = only(natural)
    facts = facts_of(parsed.cards(), parsed, rules)
    assert REGISTRY[natural].screen(facts)
    assert REGISTRY[natural].claim(parsed.cards(), facts, parsed, rules) is not None


@settings(max_examples=300, deadline=None)
@given(st.permutations(range(52)), st.sets(st.sampled_from(NATURALS), min_size=1), st.booleans())
def test_a_rule_sets_merged_screen_is_its_naturals_screens(order, enabled, set_hand):
    """The screens of a rule set's naturals, merged once per set of naturals,
    pass exactly the hands one of them passes."""
    from cpscore.naturals import screen

    changes = {"naturals": {name: (3 if name in enabled else False) for name in NATURALS}}
    rules = from_settings(changed_settings(get_rules("2-4"), changes), "test")
    cards = [CARDS[code] for code in order[:13]]
    hand = Hand(tuple(cards[:3]), tuple(cards[3:8]), tuple(cards[8:])) if set_hand else None
    facts = facts_of(cards, hand, rules)
    assert screen(rules, facts) == any(REGISTRY[name].screen(facts) for name in enabled)
