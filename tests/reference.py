"""A deliberately simple reference scorer, written from docs/rules.md alone.

It shares no code with cpscore's evaluator, naturals or settlement: rows are
judged by sorting ranks and counting groups, naturals by counting cards or by
trying every arrangement of an unset hand, and each pair is settled by the
steps of docs/rules.md 4 and 12.2 written out one by one.  Only the input
records (cards, hands, seats, rule sets) are cpscore's.  Speed is not a goal:
clarity is.  tests/test_reference.py compares cpscore's settlement with it.

Row keys are plain tuples ``(category, ranks)`` where greater is stronger:
the category number below, then the rank groups, the biggest group first and
higher ranks first within a size (a straight has one rank, its top card).
Under ``suit_order`` a row is compared by its key and then by its suits
(:func:`suit_key`).

Where docs/rules.md leaves a point open, the reading chosen here is said at
the place it is made (look for "Reading:").
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Collection, Mapping
from decimal import ROUND_HALF_UP, Context, Decimal, localcontext

HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)
CATEGORY_NAMES = (
    "high-card",
    "pair",
    "two-pair",
    "trips",
    "straight",
    "flush",
    "full-house",
    "quads",
    "straight-flush",
)
LETTERS = {number: letter for number, letter in zip(range(2, 15), "23456789TJQKA")}
ROWS = ("front", "middle", "back")
WHEEL_RANKS = {14, 2, 3, 4, 5}

ROW_BASED = {"three-straight-flushes": "straight-flush", "three-straights": "straight", "three-flushes": "flush"}


class Invalid(Exception):
    """A deal that cannot be settled under the rules (cpscore raises DealError)."""


# Cards --------------------------------------------------------------------------------


def rank(card) -> int:
    return card.rank.number


def ranks_of(cards) -> list[int]:
    return [rank(card) for card in cards]


def one_suit(cards) -> bool:
    return len({card.suit for card in cards}) == 1


def is_two_of_spades(card) -> bool:
    return rank(card) == 2 and card.suit.value == "s"


def groups(ranks) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(group sizes, group ranks): the biggest group first, then the higher rank."""
    counts = Counter(ranks)
    order = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    return tuple(counts[r] for r in order), tuple(order)


def suit_strength(card, suit_order) -> int:
    """docs/rules.md 12.1: the first suit of ``suit_order`` is the highest."""
    return len(suit_order) - suit_order.index(card.suit.value)


# Rows ---------------------------------------------------------------------------------


def straight_top(ranks, wheel: str | None) -> float | None:
    """The top card of a five-card straight, or None.  ``wheel``: ``lowest``
    (A-2-3-4-5 has top 5), ``second`` (just below T-J-Q-K-A: 13.5), or None
    (A-2-3-4-5 is no straight, as in deuce-to-seven low)."""
    distinct = sorted(set(ranks))
    if len(distinct) != 5:
        return None
    if distinct[-1] - distinct[0] == 4:
        return distinct[-1]
    if distinct == [2, 3, 4, 5, 14] and wheel is not None:
        return 5 if wheel == "lowest" else 13.5
    return None


def five_key(cards, wheel: str | None = "lowest") -> tuple:
    """A five-card row as ``(category, ranks)`` (docs/rules.md 2)."""
    ranks = ranks_of(cards)
    flush = one_suit(cards)
    top = straight_top(ranks, wheel)
    sizes, order = groups(ranks)
    if top is not None and flush:
        return (STRAIGHT_FLUSH, (top,))
    if sizes == (4, 1):
        return (QUADS, order)
    if sizes == (3, 2):
        return (FULL_HOUSE, order)
    if flush:
        return (FLUSH, order)
    if top is not None:
        return (STRAIGHT, (top,))
    if sizes == (3, 1, 1):
        return (TRIPS, order)
    if sizes == (2, 2, 1):
        return (TWO_PAIR, order)
    if sizes == (2, 1, 1, 1):
        return (PAIR, order)
    return (HIGH_CARD, order)


def three_key(cards) -> tuple:
    """A three-card row: high card, pair or trips only (docs/rules.md 2)."""
    sizes, order = groups(ranks_of(cards))
    category = {(3,): TRIPS, (2, 1): PAIR}.get(sizes, HIGH_CARD)
    return (category, order)


def suit_key(cards, key: tuple, suit_order) -> tuple[int, ...]:
    """docs/rules.md 12.1: the row's suits in the order its cards are compared
    (rank groups biggest first, then the higher rank; a straight from its top
    card, the wheel's ace last; inside a rank group the higher suit first).
    Two rows of equal keys compare these card by card."""
    if key[0] in (STRAIGHT, STRAIGHT_FLUSH):
        wheel = set(ranks_of(cards)) == WHEEL_RANKS
        ordered = sorted(cards, key=lambda c: 1 if wheel and rank(c) == 14 else rank(c), reverse=True)
    else:
        counts = Counter(ranks_of(cards))
        ordered = sorted(cards, key=lambda c: (counts[rank(c)], rank(c), suit_strength(c, suit_order)), reverse=True)
    return tuple(suit_strength(card, suit_order) for card in ordered)


def front_beats_five(front: tuple, five: tuple) -> bool:
    """docs/rules.md 2, front against middle: category first, then the front's
    ranks against the first ranks of the five-card row; the same ranks as the
    start of the five-card row leave the five-card row higher."""
    category, ranks = front
    return (category, ranks) > (five[0], five[1][: len(ranks)])


def entry(entries: Mapping, names) -> object:
    """docs/rules.md 6: the first of ``names`` (most specific first) that the
    table row has, else 0."""
    for name in names:
        if name in entries:
            return entries[name]
    return 0


def straight_flush_names(top) -> list[str]:
    """A straight flush's table entries, most specific first: a royal flush or a
    steel wheel (A-2-3-4-5) has its own, else the straight-flush entry."""
    special = {14: ["royal-flush"], 5: ["steel-wheel"]}.get(top, [])
    return [*special, "straight-flush"]


def royalty_of_row(rules, row: str, cards) -> object:
    """The table entry a row earns (docs/rules.md 6), read from the
    table's entries directly: a front pair by its group (``QQ``), front trips
    by ``777`` then ``trips``; middle and back a royal flush or steel wheel by
    its own entry, quads by ``quads-R``, then the category."""
    table = rules.royalties.table
    if row == "front":
        category, order = three_key(cards)
        if category == PAIR:
            return table.front.get(LETTERS[order[0]] * 2, 0)
        if category == TRIPS:
            return entry(table.front, [LETTERS[order[0]] * 3, "trips"])
        return 0
    entries = table.middle if row == "middle" else table.back
    category, ranks = five_key(cards)  # the wheel lowest: top 5 is the steel wheel
    if category == STRAIGHT_FLUSH:
        return entry(entries, straight_flush_names(ranks[0]))
    if category == QUADS:
        return entry(entries, [f"quads-{LETTERS[ranks[0]]}", "quads"])
    return entries.get(CATEGORY_NAMES[category], 0)


def low_royalty(rules, cards) -> object:
    """docs/rules.md 10: a low middle's entry, ``low-75432`` for 7-5-4-3-2 (else
    ``low-7``), ``low-R`` by its highest card; no entry for a pair, a straight or
    a flush (A-2-3-4-5 is no straight in a low: ace high)."""
    category, ranks = five_key(cards, None)
    if category != HIGH_CARD:
        return 0
    entries = rules.royalties.table.middle
    names = [f"low-{LETTERS[ranks[0]]}"]
    if tuple(ranks) == (7, 5, 4, 3, 2):
        names.insert(0, "low-75432")
    return entry(entries, names)


def broken_royalty(hand, rules) -> object:
    """docs/rules.md 6, ``broken_royalties``: the largest total, over sets of
    disjoint combinations, of the back-table value of each four of a kind and
    each five-card straight flush among the 13 cards that is not whole inside
    one row.  Reading (as cpscore's docs choose): the cards of a quads or a
    straight flush whole inside one row (the row paid as that category) are
    not used again; every other card may be (a front's trips may make quads
    with a middle card)."""
    back = rules.royalties.table.back
    taken = set()
    for cards in hand.rows[1:]:
        category, ranks = five_key(cards)
        if category == QUADS:
            taken |= {card for card in cards if rank(card) == ranks[0]}
        elif category == STRAIGHT_FLUSH:
            taken |= set(cards)
    free = [card for card in hand.cards() if card not in taken]

    def split(cards) -> bool:
        return not any(set(cards) <= set(row) for row in hand.rows)

    combinations = []
    for number in range(2, 15):
        four = [card for card in free if rank(card) == number]
        if len(four) == 4 and split(four):
            combinations.append((frozenset(four), entry(back, [f"quads-{LETTERS[number]}", "quads"])))
    for suit in {card.suit for card in free}:
        suited = {rank(card): card for card in free if card.suit is suit}
        for top in range(5, 15):
            run = [14 if r == 1 else r for r in range(top - 4, top + 1)]
            if all(r in suited for r in run) and split([suited[r] for r in run]):
                combinations.append((frozenset(suited[r] for r in run), entry(back, straight_flush_names(top))))

    def best(options) -> object:
        if not options:
            return 0
        (cards, value), rest = options[0], options[1:]
        return max(best(rest), value + best([option for option in rest if not option[0] & cards]))

    return best(combinations)


class Rows:
    """A set hand as it plays: each row's key (and suits), the foul, the
    royalties it holds (front, middle, back, broken) and the row of its 2s."""

    def __init__(self, hand, rules) -> None:
        self.hand = hand
        self.front = three_key(hand.front)
        self.middle = five_key(hand.middle, rules.rows.wheel)
        self.back = five_key(hand.back, rules.rows.wheel)
        self.low_middle = rules.rows.low_middle
        self.suit_order = rules.suits.suit_order
        self.suits = None
        if self.suit_order:
            self.suits = tuple(suit_key(cards, key, self.suit_order) for cards, key in zip(hand.rows, self.keys()))
        if rules.rows.low_middle:  # docs/rules.md 10: the only setting rule left is back >= front
            self.fouled = front_beats_five(self.front, self.back)
            limit = rules.rows.low_middle_qualifier
            if limit is not None and not self.fouled:  # and the middle must be a low of no card above it
                category, ranks = five_key(hand.middle, None)
                self.fouled = category != HIGH_CARD or ranks[0] > "23456789TJQKA".index(limit) + 2
        else:  # docs/rules.md 3
            self.fouled = self.middle > self.back or front_beats_five(self.front, self.middle)
            if rules.suits.suit_foul and self.middle == self.back:  # docs/rules.md 12.1
                self.fouled = self.fouled or self.suits[1] > self.suits[2]
        held = (0, 0, 0, 0) if self.fouled else royalties_held(hand, rules)
        self.royalties, self.broken = held[:3], held[3]
        self.spade_row = next((i for i, cards in enumerate(hand.rows) if any(map(is_two_of_spades, cards))), None)

    def keys(self) -> tuple:
        return (self.front, self.middle, self.back)

    def row_outcomes(self, other: Rows) -> tuple[int, int, int]:
        """Each row from this hand's side, 1 won, 0 tied, -1 lost; under
        ``suit_order`` equal rows are compared by their suits."""

        def outcome(mine, theirs) -> int:
            return (mine > theirs) - (mine < theirs)

        mine, theirs = list(self.keys()), list(other.keys())
        if self.low_middle:  # deuce-to-seven: the lower middle wins (aces high, no wheel)
            mine[1], theirs[1] = five_key(other.hand.middle, None), five_key(self.hand.middle, None)
        if self.suit_order:
            mine = [(key, suits) for key, suits in zip(mine, self.suits)]
            theirs = [(key, suits) for key, suits in zip(theirs, other.suits)]
        front, middle, back = (outcome(m, t) for m, t in zip(mine, theirs))
        return (front, middle, back)


def royalties_held(hand, rules) -> tuple:
    """A non-fouled hand's royalties (front, middle, back, broken): each row's
    table value, doubled in its own 2s row (the spade bonus, either reading),
    and the broken royalty; then only the ``max_per_hand`` largest kept.
    Royalties mode ``none`` pays no row royalties, but broken ones are paid
    "whatever royalties.mode" (docs/rules.md 6)."""
    amounts = []
    for name, cards in zip(ROWS, hand.rows):
        plays = rules.royalties.mode != "none"
        if name == "middle" and rules.rows.low_middle:
            amount = low_royalty(rules, cards) if plays else 0
        else:
            amount = royalty_of_row(rules, name, cards) if plays else 0
        if rules.royalties.spade_bonus and any(map(is_two_of_spades, cards)):
            amount = amount * 2
        amounts.append(amount)
    amounts.append(broken_royalty(hand, rules) if rules.royalties.broken_royalties else 0)
    keep = rules.royalties.max_per_hand
    if keep:
        # Reading: among equal royalties the one nearer the front is kept, the broken
        # royalty (the fourth candidate) last (docs/rules.md says only "its N largest").
        order = sorted(range(4), key=lambda i: (-amounts[i], i))
        kept = [i for i in order if amounts[i]][:keep]
        amounts = [amounts[i] if i in kept else 0 for i in range(4)]
    return tuple(amounts)


def method_bonus(method: str, outcomes) -> int:
    """docs/rules.md 5, from the first hand's side."""
    won, lost = outcomes.count(1), outcomes.count(-1)
    if method == "2-4":
        return (1 if won >= 2 else 0) - (1 if lost >= 2 else 0)
    if method == "1-6":
        return (3 if won == 3 else 0) - (3 if lost == 3 else 0)
    if method == "1-4":  # one more unit for a scoop only
        return (1 if won == 3 else 0) - (1 if lost == 3 else 0)
    return 0


# Naturals -----------------------------------------------------------------------------


class NaturalClaim:
    def __init__(self, id: str, units, key, high=None) -> None:
        self.id = id
        self.units = units
        self.key = key  # the tie-break with the same natural, or None: a tie
        self.high = high  # the highest card as (rank, suit), under suit_order

    def __repr__(self) -> str:
        return f"NaturalClaim({self.id!r}, {self.units!r}, {self.key!r})"


def three_card_straight_top(ranks, ace_high: bool) -> int | None:
    """docs/rules.md 7: three ranks in a row; A-2-3 counts (lowest, top 3), K-A-2
    never does, Q-K-A only with ``ace_high_front_straight``."""
    low, middle, high = sorted(ranks)
    if (low, middle, high) == (2, 3, 14):
        return 3
    if middle == low + 1 and high == middle + 1 and (high != 14 or ace_high):
        return high
    return None


def five_row_as(kind: str, cards, wheel: str) -> tuple | None:
    """The key of a five-card row as a row of ``kind``, or None.  A straight
    flush counts as a straight and as a flush.  Reading: rows are ranked as in
    docs/rules.md 2, the ``wheel`` setting included."""
    if kind != "straight" and not one_suit(cards):
        return None  # a quick look first: this is asked of every five cards of unset hands
    if kind != "flush" and len({rank(card) for card in cards}) != 5:
        return None
    key = five_key(cards, wheel)
    wanted = {"straight": (STRAIGHT, STRAIGHT_FLUSH), "flush": (FLUSH, STRAIGHT_FLUSH)}.get(kind, (STRAIGHT_FLUSH,))
    return key if key[0] in wanted else None


def front_row_as(kind: str, cards, ace_high: bool) -> tuple | None:
    """The key of a three-card row as a row of ``kind``, or None: a straight
    (or straight flush) by its top card, a flush by its ranks."""
    ranks = ranks_of(cards)
    top = three_card_straight_top(ranks, ace_high)
    if kind == "straight":
        return None if top is None else (top,)
    if kind == "flush":
        return tuple(sorted(ranks, reverse=True)) if one_suit(cards) else None
    return None if top is None or not one_suit(cards) else (top,)


def rows_natural_key(kind: str, back, middle, front, rules, wheel: str) -> tuple | None:
    """(back, middle, front) keys if all three rows are rows of ``kind``."""
    b = five_row_as(kind, back, wheel)
    m = five_row_as(kind, middle, wheel)
    f = front_row_as(kind, front, rules.naturals.ace_high_front_straight)
    if b is None or m is None or f is None:
        return None
    return (b, m, f)


def best_arrangement_key(kind: str, cards, rules, wheel: str, front_first: bool = False) -> tuple | None:
    """The strongest (back, middle, front) over every split of 13 cards into
    rows of ``kind``, or None: every back of ``kind``, strongest first, then
    every middle of the 8 cards left (at most 1,287 x 56 = 72,072 splits).
    ``front_first`` (``natural_row_order = "back-front-middle"``): the strongest
    (back, front, middle), as that key."""
    if kind != "straight" and not suits_split_into_rows(cards):
        return None
    codes = tuple(sorted(card.code for card in cards))
    return _best_arrangement(kind, codes, tuple(cards), wheel, rules.naturals.ace_high_front_straight, front_first)


def suits_split_into_rows(cards) -> bool:
    """Whether the suits could fill a back, a middle and a front each of one suit."""
    have = Counter(card.suit for card in cards)
    for suits in itertools.product(have, repeat=3):
        need = Counter()
        for suit, size in zip(suits, (5, 5, 3)):
            need[suit] += size
        if need == have:
            return True
    return False


_BEST: dict[tuple, tuple | None] = {}


def _best_arrangement(kind, codes, cards, wheel, ace_high, front_first=False):
    memo = (kind, codes, wheel, ace_high, front_first)
    if memo in _BEST:
        return _BEST[memo]
    cards = sorted(cards, key=lambda card: card.code)
    fives = {}
    for combo in itertools.combinations(range(13), 5):
        key = five_row_as(kind, [cards[i] for i in combo], wheel)
        if key is not None:
            fives[combo] = key
    best = None
    # Backs strongest first: once a split is found, a weaker back cannot beat it.
    for back, back_key in sorted(fives.items(), key=lambda item: item[1], reverse=True):
        if best is not None and back_key < best[0]:
            break
        rest = [i for i in range(13) if i not in back]
        for middle in itertools.combinations(rest, 5):
            middle_key = fives.get(middle)
            if middle_key is None:
                continue
            front = [cards[i] for i in rest if i not in middle]
            front_key = front_row_as(kind, front, ace_high)
            if front_key is None:
                continue
            key = (back_key, front_key, middle_key) if front_first else (back_key, middle_key, front_key)
            if best is None or key > best:
                best = key
    if len(_BEST) > 10_000:
        _BEST.clear()
    _BEST[memo] = best
    return best


def pair_ranks(counts) -> list[int]:
    """Every pair in the cards, highest first (quads count as two pairs, trips as one)."""
    return sorted((r for r, n in counts.items() for _ in range(n // 2)), reverse=True)


def natural_key(natural: str, cards, hand, rules, wheel: str):
    """``(True, tie-break key)`` if the 13 cards make ``natural`` (``hand`` is
    the set hand, or None for an unset one), else ``(False, None)``."""
    ranks = ranks_of(cards)
    counts = Counter(ranks)
    if natural in ROW_BASED:
        kind = ROW_BASED[natural]
        front_first = rules.naturals.natural_row_order == "back-front-middle"
        if hand is not None:  # a set hand counts only as it is set
            key = rows_natural_key(kind, hand.back, hand.middle, hand.front, rules, wheel)
            if key is not None and front_first:  # the rows in the order they break a tie
                key = (key[0], key[2], key[1])
        else:
            key = best_arrangement_key(kind, cards, rules, wheel, front_first)
        return (key is not None, key)
    if natural == "clean-dragon":
        return (len(counts) == 13 and one_suit(cards), None)
    if natural == "dragon":
        return (len(counts) == 13, None)
    if natural == "twelve-royals":
        return (all(r >= 11 for r in ranks), None)
    if natural == "three-quads":
        return (sum(1 for n in counts.values() if n == 4) >= 3, None)
    if natural == "all-high":
        return (all(r >= 8 for r in ranks), None)
    if natural == "all-low":
        return (all(r <= 8 for r in ranks), None)
    if natural == "six-and-higher":
        return (all(r >= 6 for r in ranks), None)
    if natural == "one-colour":
        return (len({card.suit.red for card in cards}) == 1, None)
    if natural == "twelve-one-colour":
        red = sum(1 for card in cards if card.suit.red)
        return (red >= 12 or red <= 1, None)
    if natural == "four-trips":
        return (sum(1 for n in counts.values() if n >= 3) >= 4, None)
    if natural == "six-pairs":
        pairs = pair_ranks(counts)
        if len(pairs) < 6:
            return (False, None)
        odd = [r for r, n in counts.items() if n % 2]
        # Equal pairs tie whatever the odd card, unless six_pairs_odd_card compares it last.
        return (True, (tuple(pairs), max(odd) if rules.naturals.six_pairs_odd_card else 0))
    if natural == "five-pairs-trips":
        # docs/rules.md 7: five pairs and a three of a kind use all 13 cards, so exactly
        # one rank has an odd count, and it is 3 (a four of a kind is two pairs).
        odd = [r for r, n in counts.items() if n % 2]
        if len(odd) != 1 or counts[odd[0]] != 3:
            return (False, None)
        return (True, (odd[0], tuple(pair_ranks({r: n for r, n in counts.items() if r != odd[0]}))))
    if natural == "five-consecutive-pairs":
        tops = [top for top in range(6, 15) if all(counts[r] >= 2 for r in range(top - 4, top + 1))]
        return (bool(tops), max(tops) if tops else None)
    if natural == "no-broadway":
        return (not any(r in (11, 12, 13) for r in ranks), None)
    raise ValueError(natural)


def claim(cards, hand, rules, natural_wheel: str | None = None) -> NaturalClaim | None:
    """The natural the cards claim (docs/rules.md 7): under ``natural_order
    = "value"`` the one worth the most, ``natural_rank`` breaking ties in value;
    under ``"rank"`` the first in ``natural_rank`` that the cards make.
    ``natural_wheel`` overrides the rules' ``wheel`` in the row-based naturals'
    tie-breaks (see :func:`settle`)."""
    enabled = dict(rules.naturals.units)
    wheel = natural_wheel or rules.rows.wheel
    position = {natural: index for index, natural in enumerate(rules.naturals.natural_rank)}
    if rules.naturals.natural_order == "rank":
        order = sorted(enabled, key=lambda n: position[n])
    else:
        order = sorted(enabled, key=lambda n: (-enabled[n], position[n]))
    for natural in order:
        made, key = natural_key(natural, cards, hand, rules, wheel)
        if made:
            high = None
            if rules.suits.suit_order:
                high = max((rank(card), suit_strength(card, rules.suits.suit_order)) for card in cards)
            return NaturalClaim(natural, enabled[natural], key, high)
    return None


def natural_outcome(a: NaturalClaim, b: NaturalClaim, rules) -> int:
    """1 if a collects from b, -1 if it pays, 0 for a tie (docs/rules.md 7)."""
    position = {natural: index for index, natural in enumerate(rules.naturals.natural_rank)}
    if a.id != b.id:
        if rules.naturals.natural_order == "value":
            if a.units != b.units:
                return 1 if a.units > b.units else -1
            # all-high and all-low share a line of docs/rules.md 7's table: in equal value
            # they tie.  Reading: only while natural_rank keeps them next to each other.
            if {a.id, b.id} == {"all-high", "all-low"} and abs(position[a.id] - position[b.id]) == 1:
                return 0
        # "rank": the one earlier in natural_rank collects, whatever the values (all-high too).
        return 1 if position[a.id] < position[b.id] else -1
    result = 0 if a.key is None else (a.key > b.key) - (a.key < b.key)
    if result == 0 and rules.naturals.natural_suit_tiebreak:  # the hand holding the highest card
        result = (a.high > b.high) - (a.high < b.high)
    return result


def naturals_pay(a: NaturalClaim, b: NaturalClaim, rules):
    """What b pays a when both hold naturals."""
    if rules.naturals.natural_vs_natural == "net":  # each collects its own value; the two net
        return a.units - b.units
    result = natural_outcome(a, b, rules)
    return a.units if result > 0 else -b.units if result < 0 else 0


# Settlement ---------------------------------------------------------------------------


class Outcome:
    """The reference's settlement of a deal, as plain values."""

    def __init__(self, players: dict, pairs: dict, owners: dict, stacks: dict | None = None, net=None) -> None:
        self.players = players  # name -> dict(units, amount, natural (or false-claim), foul, fantasyland)
        self.pairs = pairs  # (a, b) -> (units b pays a, money after any cut)
        self.owners = owners  # owner -> (units, amount)
        self.stacks = stacks  # owner -> stack after the deal (table stakes), else None
        self.net = net  # owner -> net money in the session so far (a session cap), else None


def fantasyland(seat, rows: Rows | None, rules, repeats: Collection[str]) -> tuple | None:
    """(status, cards next deal) for docs/rules.md 9, or None without Fantasyland.
    Reading: a hand whose rows do not play (a natural, a surrender) neither
    enters nor stays."""
    if rules.ofc.fantasyland == "none":
        return None
    playing = seat.fantasyland
    progressive = rules.ofc.fantasyland == "progressive"
    standard = rules.ofc.fantasyland_cards
    low = rules.ofc.fantasyland == "2-7"
    last = seat.name in repeats or rules.ofc.fantasyland_repeats == 0  # no repeat allowed: every one is the last
    if rows is None or rows.fouled or (playing and last):
        return ("leaves", None) if playing else ("none", None)
    front_category, front_ranks = rows.front
    if playing:
        plain_middle = five_key(rows.hand.middle)[0]
        plain_back = five_key(rows.hand.back)[0]
        middle_stays = rules.ofc.fantasyland_middle_stays and not rules.rows.low_middle and plain_middle >= FULL_HOUSE
        if front_category == TRIPS or middle_stays or plain_back >= QUADS:
            return ("stays", 14 if progressive or low else standard)
        return ("leaves", None)
    if low:  # KK or better in front, or 7-5-4-3-2 (of more than one suit) in the middle: 14; both: 15
        front_in = front_category == TRIPS or (front_category == PAIR and front_ranks[0] >= 13)
        middle_in = sorted(ranks_of(rows.hand.middle)) == [2, 3, 4, 5, 7] and not one_suit(rows.hand.middle)
        if front_in or middle_in:
            return ("enters", 15 if front_in and middle_in else 14)
        return ("none", None)
    if front_category == TRIPS:
        return ("enters", 17 if progressive else standard)
    if front_category == PAIR and front_ranks[0] >= 12:
        return ("enters", {12: 14, 13: 15, 14: 16}[front_ranks[0]] if progressive else standard)
    return ("none", None)


SCOOP = (1, 1, 1)
SCOOPED = (-1, -1, -1)


def pairings(seats, rules, banker: int | None) -> list[tuple[int, int]]:
    """The pairs that settle, (i, j) with i < j in listing order: under
    ``pairing = "banker"`` those with the banker (the first seat unless given);
    else every pair of hands of different owners, and under ``criss_cross =
    "corresponding"`` only a player's n-th hand against another's n-th."""
    owners = [seat.owner for seat in seats]
    count = len(seats)
    if rules.banker.pairing == "banker":
        if len(set(owners)) != count:
            raise Invalid("banker pairing with several hands of one player (criss-cross)")
        bank = 0 if banker is None else banker
        return [(i, j) for i in range(count) for j in range(i + 1, count) if bank in (i, j)]
    number = [owners[: index + 1].count(owners[index]) for index in range(count)]
    if rules.methods.criss_cross == "corresponding" and len({owners.count(owner) for owner in owners}) > 1:
        raise Invalid("corresponding criss-cross with players holding different numbers of hands")
    pairs = []
    for i in range(count):
        for j in range(i + 1, count):
            if owners[i] == owners[j]:
                continue  # criss-cross: one player's hands never meet
            if rules.methods.criss_cross == "corresponding" and number[i] != number[j]:
                continue
            pairs.append((i, j))
    return pairs


def share(total, parts: int) -> Decimal:
    """docs/rules.md 8: ``total / parts`` rounded half up to 0.01 unit (in a
    context of its own: cpscore makes the default one exact, trapping rounding)."""
    with localcontext(Context(prec=60)):
        return (Decimal(total) / parts).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def settle(
    deal,
    rules,
    stake=1,
    pair_stakes: Mapping | None = None,
    repeats: Collection[str] = (),
    natural_wheel: str | None = None,
    banker: int | None = None,
    carried: Mapping | None = None,
    stacks: Mapping | None = None,
) -> Outcome:
    """Settle a deal as docs/rules.md 4 and 12.2 describe; :class:`Invalid`
    where it cannot be.

    ``banker`` is the banker's seat index (``pairing = "banker"``; default the
    first seat).  ``carried`` maps each player to their net money so far in
    the session (``cap_scope = "session"``); ``stacks`` maps each player to
    their stack (``table_stakes``), and the outcome gives them updated.

    ``natural_wheel="lowest"`` ranks A-2-3-4-5 as the lowest straight in the
    row-based naturals' tie-breaks whatever the ``wheel`` setting, as cpscore
    once did; by default the setting applies there too, as docs/rules.md 2
    places the wheel for every five-card row."""
    pair_stakes = pair_stakes or {}
    seats = list(deal.seats)
    count = len(seats)
    if any(seat.surrendered for seat in seats) and rules.methods.surrender is None:
        raise Invalid("a surrender under rules with no surrender")

    naturals: list[NaturalClaim | None] = []
    false_claims: list[bool] = []
    rows: list[Rows | None] = []
    for seat in seats:
        natural = None
        if not seat.surrendered and not seat.waive:
            natural = claim(seat.cards, seat.hand, rules, natural_wheel)
        false_claim = natural is None and seat.hand is None and not seat.surrendered
        if false_claim and rules.naturals.false_claim is None:
            raise Invalid(f"{seat.name}: an unset hand that makes no natural")
        naturals.append(natural)
        false_claims.append(false_claim)
        plays_rows = natural is None and not seat.surrendered and seat.hand is not None
        rows.append(Rows(seat.hand, rules) if plays_rows else None)

    pairs_of = pairings(seats, rules, banker)
    bank = (0 if banker is None else banker) if rules.banker.pairing == "banker" else None

    def opponents(i: int) -> list[int]:
        return [b if a == i else a for a, b in pairs_of if i in (a, b)]

    def as_set(i: int, j: int) -> tuple[int, int, int]:
        """The rows as set, from i's side; a tie with the banker goes to the
        banker under ``banker_wins_ties`` (docs/rules.md 12.1)."""
        outcomes = rows[i].row_outcomes(rows[j])
        if rules.banker.banker_wins_ties and bank in (i, j):
            won = 1 if bank == i else -1
            outcomes = tuple(won if outcome == 0 else outcome for outcome in outcomes)
        return outcomes

    def judged(i: int, j: int) -> tuple[int, int, int]:
        """docs/rules.md 3: a fouled hand loses every row to a live one; two fouled hands tie."""
        a, b = rows[i], rows[j]
        if a.fouled and b.fouled:
            return (0, 0, 0)
        if a.fouled:
            return SCOOPED
        if b.fouled:
            return SCOOP
        return as_set(i, j)

    def scoops(i: int, j: int) -> bool:
        """i scoops j for the home run.  Under ``foul_plays`` the rows as set
        decide, a fouled hand's too (cpscore's docs' reading)."""
        if rows[i] is None or rows[j] is None:
            return False  # a natural, a surrender or a false claim is not scooped
        return (as_set(i, j) if rules.rows.foul_plays else judged(i, j)) == SCOOP

    def home_run(i: int) -> bool:
        """docs/rules.md 8: scoops every opponent, with at least
        ``home_run_min_opponents`` of them; under banker pairing only the banker."""
        if not rules.multipliers.home_run or (bank is not None and i != bank):
            return False
        others = opponents(i)
        return len(others) >= rules.multipliers.home_run_min_opponents and all(scoops(i, j) for j in others)

    def royalty_units(i: int, j: int, outcomes) -> object:
        """docs/rules.md 6: what the pair's royalties pay i (broken royalties by
        the holder whatever the mode)."""
        a, b = rows[i], rows[j]
        mine, theirs = list(a.royalties), list(b.royalties)
        if rules.royalties.spade_bonus == "row":  # the opponent's royalty in the 2s row too
            if b.spade_row is not None:
                mine[b.spade_row] *= 2
            if a.spade_row is not None:
                theirs[a.spade_row] *= 2
        total = a.broken - b.broken
        mode = rules.royalties.mode
        if mode == "holder" and rules.royalties.higher_takes:  # of two in a row, the row's winner's alone
            for index, outcome in enumerate(outcomes):
                if mine[index] and theirs[index]:
                    mine[index] = mine[index] if outcome > 0 else 0
                    theirs[index] = theirs[index] if outcome < 0 else 0
        if mode == "holder":
            total += sum(mine) - sum(theirs)
        elif mode in ("row-bonus", "row-value"):
            for outcome, own, other in zip(outcomes, mine, theirs):
                if outcome == 0:
                    continue
                winner, loser = (own, other) if outcome > 0 else (other, own)
                if not winner or (rules.royalties.cancel_when_both and loser):
                    continue  # the row pays its 1 unit, counted with the rows
                if mode == "row-bonus":
                    total += outcome * winner  # 1 + the table value
                else:
                    total += outcome * (winner - 1)  # the table value instead of 1
        return total

    def play(i: int, j: int, outcomes) -> tuple:
        """Steps 4-6 on these row outcomes: (units i collects after scoop
        doubling, the scooper whose home run would double them, or None)."""
        total = sum(outcomes) + method_bonus(rules.methods.method, outcomes) + royalty_units(i, j, outcomes)
        scooper = i if outcomes == SCOOP else j if outcomes == SCOOPED else None
        if scooper is not None and rules.multipliers.scoop_doubles:
            total = total * 2
        return (total, scooper)

    def parts(i: int, j: int) -> list[tuple]:
        """What j pays i, as (units, scooper) parts before the home run."""
        natural_i, natural_j = naturals[i], naturals[j]
        if natural_i or natural_j or false_claims[i] or false_claims[j]:  # step 1
            if not rules.naturals.natural_beats_surrender:  # a natural against a surrendered hand: nothing
                if (natural_i and seats[j].surrendered) or (natural_j and seats[i].surrendered):
                    return [(0, None)]
            if natural_i and natural_j:
                return [(naturals_pay(natural_i, natural_j, rules), None)]
            if natural_i:  # against a false claim too
                return [(natural_i.units, None)]
            if natural_j:
                return [(-natural_j.units, None)]
            if false_claims[i] and false_claims[j]:
                return [(0, None)]
            return [(rules.naturals.false_claim if false_claims[j] else -rules.naturals.false_claim, None)]
        a, b = seats[i], seats[j]
        if a.surrendered or b.surrendered:  # step 2
            if a.surrendered and b.surrendered:
                return [(0, None)]
            if a.surrendered:
                return [(0 if rows[j] is not None and rows[j].fouled else -rules.methods.surrender, None)]
            return [(0 if rows[i] is not None and rows[i].fouled else rules.methods.surrender, None)]
        fouled_a, fouled_b = rows[i].fouled, rows[j].fouled  # step 3
        if not rules.rows.foul_plays or not (fouled_a or fouled_b):
            if fouled_a and fouled_b:
                return [(0, None)]
            return [play(i, j, judged(i, j))]  # steps 4-6
        if fouled_a and fouled_b:  # foul_plays: no penalty, the rows as set
            return [play(i, j, as_set(i, j))]
        # foul_plays: the penalty (section 3 with royalties 0; the fouled hand scooped,
        # doubled by the scoop and by the collecting hand's home run), plus the play.
        live = j if fouled_a else i
        penalty = 3 + method_bonus(rules.methods.method, SCOOP)
        if rules.multipliers.scoop_doubles:
            penalty *= 2
        return [(penalty if live == i else -penalty, live), play(i, j, as_set(i, j))]

    settled = {pair: parts(*pair) for pair in pairs_of}
    horse = rules.multipliers.horse
    if horse is not None:  # docs/rules.md 8: every pair of the horse card's holder doubles, whatever decided it
        holder = next((k for k, seat in enumerate(seats) if horse in {str(card) for card in seat.cards}), None)
        for pair, found in settled.items():
            if holder in pair:
                settled[pair] = [(units * 2, scooper) for units, scooper in found]
    aces = {}  # docs/rules.md 6: the ace bonus, beside the play: never multiplied nor shared out
    if rules.royalties.ace_bonus:
        for i, j in pairs_of:
            if rows[i] is not None and rows[j] is not None:  # both play their rows (fouled or not)
                held = [sum(1 for card in seats[k].cards if rank(card) == 14) for k in (i, j)]
                aces[i, j] = (held[0] - held[1]) * rules.royalties.ace_bonus
    runs = [home_run(i) for i in range(count)]
    pair_units = {}
    for (i, j), found in settled.items():
        pair_units[i, j] = sum(units for units, _ in found)
        if rules.multipliers.home_run_split == "pair":  # docs/rules.md 8: x2 again
            pair_units[i, j] += sum(units for units, scooper in found if scooper is not None and runs[scooper])
    if rules.multipliers.home_run_split == "equal":  # docs/rules.md 8: the extra T shared out equally
        for holder in (i for i in range(count) if runs[i]):
            others = opponents(holder)

            def held(other: int, holder: int = holder) -> object:
                """u_i: the pair's units from the holder's side, after scoop doubling."""
                pair = (min(holder, other), max(holder, other))
                return pair_units[pair] if pair[0] == holder else -pair_units[pair]

            part = share(sum(held(other) for other in others), len(others))
            for other in others:
                pair = (min(holder, other), max(holder, other))
                pair_units[pair] += part if pair[0] == holder else -part
    for pair, extra in aces.items():
        pair_units[pair] += extra

    # Step 7 and docs/rules.md 12.1's cap and table stakes: money, paid in pair order.
    nets = {seat.owner: 0 for seat in seats}
    if rules.money.cap is not None and rules.money.cap_scope == "session":
        nets.update(carried or {})
    left = None
    if rules.money.table_stakes is not None:  # every stack the buy-in, unless the session gives them
        if stacks is None and rules.money.table_stakes is True:
            raise Invalid("table stakes with no buy-in")
        left = dict(stacks) if stacks is not None else {seat.owner: rules.money.table_stakes for seat in seats}
        if any(seat.owner not in left for seat in seats):
            raise Invalid("a player without a stack")
    units = {seat.name: 0 for seat in seats}
    money = {seat.name: 0 for seat in seats}
    pairs = {}
    for i, j in pairs_of:
        a, b = seats[i], seats[j]
        paid = pair_units[i, j]
        owed = paid * pair_stakes.get(frozenset((a.owner, b.owner)), stake)
        receiver, payer = (a.owner, b.owner) if owed >= 0 else (b.owner, a.owner)
        amount = abs(owed)
        if rules.money.cap is not None:
            amount = min(amount, max(0, rules.money.cap - nets[receiver]), max(0, rules.money.cap + nets[payer]))
        if left is not None:
            amount = min(amount, left[payer], left[receiver])
            left[payer] -= amount
            left[receiver] += amount
        nets[receiver] += amount
        nets[payer] -= amount
        amount = amount if owed >= 0 else -amount
        pairs[a.name, b.name] = (paid, amount)
        units[a.name] += paid
        units[b.name] -= paid
        money[a.name] += amount
        money[b.name] -= amount

    players = {}
    for seat, natural, false_claim, hand_rows in zip(seats, naturals, false_claims, rows):
        players[seat.name] = {
            "units": units[seat.name],
            "amount": money[seat.name],
            "natural": natural.id if natural else "false-claim" if false_claim else None,
            "foul": bool(hand_rows is not None and hand_rows.fouled),
            "fantasyland": fantasyland(seat, hand_rows, rules, repeats),
        }
    owners: dict = {}
    for seat in seats:
        before = owners.get(seat.owner, (0, 0))
        owners[seat.owner] = (before[0] + units[seat.name], before[1] + money[seat.name])
    session = rules.money.cap is not None and rules.money.cap_scope == "session"
    return Outcome(players, pairs, owners, left, nets if session else None)
