"""Properties every settlement has, under every preset (hypothesis), with a
cap or table stakes drawn on top of some deals (docs/rules.md 12)."""

import itertools
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from cpscore.cards import CARDS, Hand
from cpscore.deal import Deal, Seat
from cpscore.hands import evaluate_row
from cpscore.rules import get_rules, preset_names
from cpscore.scoring import Standing, settle

NAMES = ("Amy", "Bob", "Cy", "Dee")


def _hand(cards, tidy):
    front, middle, back = tuple(cards[:3]), tuple(cards[3:8]), tuple(cards[8:])
    if tidy and evaluate_row(middle) > evaluate_row(back):
        middle, back = back, middle  # fewer fouls, so more rows are compared
    return Hand(front, middle, back)


@st.composite
def deals(draw, presets=None):
    rules = get_rules(draw(st.sampled_from(presets or preset_names())))
    players = draw(st.integers(2, rules.methods.max_players))
    order = draw(st.permutations(range(52)))
    seats = []
    for seat in range(players):
        cards = [CARDS[code] for code in order[13 * seat : 13 * seat + 13]]
        hand = _hand(cards, draw(st.booleans()))
        surrenders = rules.methods.surrender is not None and draw(st.integers(0, 5)) == 0
        seats.append(Seat(NAMES[seat], NAMES[seat], hand, hand.cards(), surrenders, False, False))
    stake = Decimal(draw(st.integers(0, 1000))) / 10
    pair_stakes = {}
    for i in range(players):
        for j in range(i + 1, players):
            if draw(st.booleans()):
                pair_stakes[frozenset((NAMES[i], NAMES[j]))] = Decimal(draw(st.integers(0, 500))) / 4
    extra = {}
    if rules.banker.pairing == "banker":  # named, so that a new seat order keeps the bank
        extra["banker"] = NAMES[draw(st.integers(0, players - 1))]
    if draw(st.integers(0, 3)) == 0:
        rules = rules.with_settings(cap=Decimal(draw(st.integers(1, 400))) / 4)
    if rules.money.table_stakes or draw(st.integers(0, 3)) == 0:
        rules = rules.with_settings(table_stakes=True)
        extra["standing"] = Standing(stacks={NAMES[i]: draw(st.integers(0, 300)) for i in range(players)})
    return Deal(tuple(seats)), rules, stake, pair_stakes, extra


def cuts(rules):
    """Whether payments can be cut, so that their order matters to the money."""
    return rules.money.cap is not None or bool(rules.money.table_stakes)


def relabel_suits(deal, suits):
    """The same deal with suit index i turned into suits[i] on every card."""

    def relabel(row):
        return tuple(CARDS[card.code - (card.code & 3) + suits[card.code & 3]] for card in row)

    seats = []
    for seat in deal.seats:
        hand = Hand(*map(relabel, seat.hand.rows))
        seats.append(seat._replace(hand=hand, cards=hand.cards()))
    return Deal(tuple(seats))


def by_name(result, money=True):
    return {player.name: (player.units, player.amount if money else None) for player in result.players}


@settings(max_examples=300)
@given(deals())
def test_every_deal_is_zero_sum(case):
    deal, rules, stake, pair_stakes, extra = case
    result = settle(deal, rules, stake, pair_stakes, **extra)
    assert sum(player.units for player in result.players) == 0
    assert sum(player.amount for player in result.players) == 0
    for player in result.players:
        won = sum(pair.units for pair in result.pairs if pair.a == player.name)
        lost = sum(pair.units for pair in result.pairs if pair.b == player.name)
        assert player.units == won - lost
        paid = sum(p.amount for p in result.pairs if p.a == player.name) - sum(
            p.amount for p in result.pairs if p.b == player.name
        )
        assert player.amount == paid
    for pair in result.pairs:  # a cut only ever lowers a payment, never turns it round
        if pair.cut:
            assert pair.owed and 0 <= abs(pair.amount) < abs(pair.owed)
            assert pair.amount == 0 or (pair.amount > 0) == (pair.owed > 0)
    if rules.money.cap is not None:  # every payment keeps both players within the cap, so the deal ends so
        assert all(abs(owner.amount) <= rules.money.cap for owner in result.owners)
    if "standing" in extra:  # nobody's stack goes below 0, and the money stays at the table
        before, after = extra["standing"].stacks, result.standing.stacks
        assert min(after.values()) >= 0 and sum(after.values()) == sum(before.values())
        assert all(after[p.name] - before[p.name] == p.amount for p in result.players)


@settings(max_examples=300)
@given(deals())
def test_pair_is_antisymmetric(case):
    deal, rules, stake, pair_stakes, extra = case
    forward = {(p.a, p.b): p for p in settle(deal, rules, stake, pair_stakes, **extra).pairs}
    reverse = settle(Deal(deal.seats[::-1]), rules, stake, pair_stakes, **extra).pairs
    for pair in reverse:
        mirror = forward[pair.b, pair.a]
        assert pair.units == -mirror.units
        if not cuts(rules):  # a cut depends on the order of payments, which the seats give
            assert pair.amount == -mirror.amount
        assert pair.rows == tuple(-row for row in mirror.rows)


# Suits matter to suit_order, the spade bonus and the colour naturals: not to these.
SUIT_BLIND = [
    name
    for name in preset_names()
    if get_rules(name).suits.suit_order is None
    and not {"one-colour", "twelve-one-colour"} & set(get_rules(name).naturals.units)
]


@settings(max_examples=200)
@given(deals(SUIT_BLIND), st.permutations(range(4)))
def test_relabelling_suits_changes_nothing(case, suits):
    deal, rules, stake, pair_stakes, extra = case
    relabelled = relabel_suits(deal, suits)
    assert by_name(settle(relabelled, rules, stake, pair_stakes, **extra)) == by_name(
        settle(deal, rules, stake, pair_stakes, **extra)
    )


@settings(max_examples=200)
@given(deals(), st.randoms(use_true_random=False))
def test_seat_order_changes_nothing(case, random):
    """Except the money of cut payments: their order is the seats' order."""
    deal, rules, stake, pair_stakes, extra = case
    seats = list(deal.seats)
    random.shuffle(seats)
    money = not cuts(rules)
    assert by_name(settle(Deal(tuple(seats)), rules, stake, pair_stakes, **extra), money) == by_name(
        settle(deal, rules, stake, pair_stakes, **extra), money
    )


# Suit indices: clubs 0, diamonds 1, hearts 2, spades 3.  A relabelling that
# keeps suits of one colour together (hearts with diamonds, or all reds made
# black) cannot change even the one-colour natural.
RED = {1, 2}
COLOUR_KEEPING = [
    perm
    for perm in itertools.permutations(range(4))
    if all((perm[a] in RED) == (perm[b] in RED) for a in range(4) for b in range(4) if (a in RED) == (b in RED))
]


SUITS_UNORDERED = [name for name in preset_names() if get_rules(name).suits.suit_order is None]


@settings(max_examples=200)
@given(deals(SUITS_UNORDERED), st.sampled_from(COLOUR_KEEPING))
def test_relabelling_suits_within_colours_changes_nothing(case, suits):
    deal, rules, stake, pair_stakes, extra = case
    relabelled = relabel_suits(deal, suits)
    assert by_name(settle(relabelled, rules, stake, pair_stakes, **extra)) == by_name(
        settle(deal, rules, stake, pair_stakes, **extra)
    )


# The kernel values hands itself where a rule set plays rows as dealt (scoring._Model.simple):
# whatever the rule set, its cores must be evaluate_core's and its naturals detect's.
HOUSE_VARIANTS = (
    {},
    {"mode": "row-bonus"},
    {"mode": "row-value", "cancel_when_both": True},
    {"spade_bonus": "own"},
    {"max_per_hand": 1},
    {"wheel": "second"},
)


def _strong(seat):
    """The seat's 13 cards set greedily: the strongest back, then the strongest
    middle of the rest (rows that pay royalties and make naturals, seldom a foul)."""
    cards = list(seat.cards)
    back = max(itertools.combinations(cards, 5), key=evaluate_row)
    rest = [card for card in cards if card not in back]
    middle = max(itertools.combinations(rest, 5), key=evaluate_row)
    front = tuple(card for card in rest if card not in middle)
    hand = Hand(front, middle, back)
    return seat._replace(hand=hand, cards=hand.cards())


@settings(max_examples=300, deadline=None)
@given(deals(), st.sampled_from(HOUSE_VARIANTS), st.booleans())
def test_the_kernels_cores_and_naturals_are_the_evaluators(case, variant, strong):
    from cpscore.naturals import detect
    from cpscore.rules import RulesError
    from cpscore.scoring import evaluate_core, kernel

    deal, rules, stake, pair_stakes, extra = case
    if strong:
        deal = Deal(tuple(_strong(seat) for seat in deal.seats))
    try:
        rules = rules.with_settings(**variant)
    except RulesError:  # a variant this rule set cannot take
        pass
    outcome = kernel(deal.seats, rules, stake, pair_stakes, **extra)
    for seat, core, natural in zip(deal.seats, outcome.cores, outcome.naturals):
        if seat.surrendered:
            continue
        codes = seat.codes
        expected = detect(seat.cards, seat.hand, rules) if rules.naturals.units and not seat.waive else None
        assert natural == expected
        if natural is None:
            assert core == evaluate_core(codes[:3], codes[3:8], codes[8:], rules)
