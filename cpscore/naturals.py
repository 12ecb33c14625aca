"""Naturals: special 13-card hands paid before any row is played (docs/rules.md 7).

:func:`detect` finds the most valuable natural a hand claims under a rule
set; :func:`compare` settles two naturals against each other.  Row-based
naturals (three straights, three flushes, three straight flushes) use the
rows as set for a set hand; for an unset hand any arrangement counts and the
strongest one (back first, then middle, then front) breaks ties.

>>> from cpscore.cards import parse_cards
>>> from cpscore.rules import get_rules
>>> detect(parse_cards("2h 3d 4c 5s 6h 7d 8c 9s Th Jd Qc Ks Ah"), None, get_rules("2-4")).id
'dragon'
>>> detect(parse_cards("2h 2d 4c 4s 6h 6d 8c 8s Th Td Qc Qs Ah"), None, get_rules("taiwanese")).units
6
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from cpscore.amounts import Amount
from cpscore.cards import RANK_OF, RED_SUITS, SUIT_OF, Card, Hand
from cpscore.hands import evaluate5, wheel_second
from cpscore.records import Record
from cpscore.rules import RuleSet
from cpscore.values import CATEGORY_SHIFT, FLUSH, STRAIGHT, STRAIGHT_FLUSH, encode

if TYPE_CHECKING:
    from collections.abc import Iterator

    _Rows = tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]
    #: A row-based natural's tie-break key (back, middle, front values) and its rows.
    _RowsClaim = tuple[tuple[int, int, int], _Rows]


class Natural(Record):
    """A claimed natural: its id, its units under the rules, the key that breaks
    a tie with the same natural (``None`` where docs/rules.md gives no tie-break),
    for a row-based natural the rows it was made with (back, middle, front), and
    with ``natural_suit_tiebreak`` the hand's highest card (by rank, then by
    ``suit_order``), which breaks a tie the key leaves."""

    __slots__ = ("id", "units", "key", "rows", "high")

    def __init__(
        self,
        id: str,
        units: Amount,
        key: tuple | None,
        rows: tuple[tuple[Card, ...], ...] | None,
        high: Card | None = None,
    ) -> None:
        self.id = id
        self.units = units
        self.key = key
        self.rows = rows
        self.high = high


def compare(a: Natural, b: Natural, rules: RuleSet) -> int:
    """1 if ``a`` collects from ``b``, -1 if it pays, 0 for a tie (docs/rules.md 7, 12):
    of two naturals the more valuable (``natural_order = "value"``, ties in value by
    ``natural_rank``) or the one earlier in ``natural_rank`` (``"rank"``); the same
    natural by its tie-break, then (``natural_suit_tiebreak``) by the highest card."""
    if a.id != b.id:
        if rules.naturals.natural_order == "rank":  # the one earlier in natural_rank, whatever the values
            rank = rules.naturals.natural_rank
            place_a, place_b = rank.index(a.id), rank.index(b.id)
            return (place_a < place_b) - (place_a > place_b)
        places = _places(rules)
        strength_a, strength_b = (a.units, -places[a.id]), (b.units, -places[b.id])
        return (strength_a > strength_b) - (strength_a < strength_b)
    if a.key != b.key:
        assert a.key is not None and b.key is not None  # the same natural: both have a key or neither
        key_a, key_b = a.key, b.key
        if a.rows is not None and rules.naturals.natural_row_order == "back-front-middle":
            key_a, key_b = (key_a[0], key_a[2], key_a[1]), (key_b[0], key_b[2], key_b[1])
        return (key_a > key_b) - (key_a < key_b)
    if a.high is not None and b.high is not None:
        high_a, high_b = suit_strength(a.high, rules), suit_strength(b.high, rules)
        return (high_a > high_b) - (high_a < high_b)
    return 0


def suit_strength(card: Card, rules: RuleSet) -> int:
    """A card's place when cards are ranked by rank, then by ``suit_order`` (greater is higher)."""
    order = rules.suits.suit_order or ()
    return card.code // 4 * 4 + (3 - order.index(card.suit.value) if card.suit.value in order else 0)


def _places(rules: RuleSet) -> dict[str, int]:
    """Each natural's place in ``natural_rank`` (0 highest), for ties in value under
    ``natural_order = "value"``: all-high and all-low share a place when they stand
    next to each other, as docs/rules.md 7 lists them on one line.  Made once per
    rule set value (:meth:`RuleSet.derived`)."""
    return rules.derived(_places_of)


def _places_of(rules: RuleSet) -> dict[str, int]:
    found = {natural: place for place, natural in enumerate(rules.naturals.natural_rank)}
    high, low = found["all-high"], found["all-low"]
    if abs(high - low) == 1:
        found["all-high"] = found["all-low"] = min(high, low)
    return found


def detect(cards: Sequence[Card], hand: Hand | None, rules: RuleSet, facts: Facts | None = None) -> Natural | None:
    """The most valuable natural the 13 ``cards`` claim under ``rules``, or None.
    ``hand`` is the set hand (its rows count for row-based naturals), or None
    for an unset hand; ``facts`` are the cards' :class:`Facts` when the caller
    has counted them."""
    enabled = rules.naturals.units
    if not enabled:
        return None
    if facts is None:
        facts = Facts([card.code for card in cards])
    for natural in _claim_order(rules):  # the first one the cards make is the one claimed
        kind = REGISTRY[natural]
        if not kind.screen(facts):  # surely not made: its claim need not look
            continue
        found = kind.claim(cards, facts, hand, rules)
        if found is not None:
            high = (
                max(cards, key=lambda card: suit_strength(card, rules))
                if rules.naturals.natural_suit_tiebreak
                else None
            )
            key, rows = found
            return Natural(natural, enabled[natural], key, rows, high)
    return None


def claims(cards: Sequence[Card], rules: RuleSet) -> list[str]:
    """Every enabled natural the 13 cards make as an unset hand, the one a hand
    claims first (the most valuable, or the first in ``natural_rank``).

    >>> from cpscore.cards import parse_cards
    >>> from cpscore.rules import get_rules
    >>> claims(parse_cards("2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah"), get_rules("taiwanese"))[:3]
    ['clean-dragon', 'dragon', 'three-straight-flushes']
    """
    if not rules.naturals.units:
        return []
    facts = Facts([card.code for card in cards])
    return [
        natural for natural in _claim_order(rules) if REGISTRY[natural].claim(cards, facts, None, rules) is not None
    ]


def _claim_order(rules: RuleSet) -> list[str]:
    """Enabled naturals in the order a hand claims them: most valuable first, in
    equal value by ``natural_rank`` (``natural_order = "value"``), or in the order
    of ``natural_rank`` (``"rank"``).  Made once per rule set value."""
    return rules.derived(_claim_order_of)


def _claim_order_of(rules: RuleSet) -> list[str]:
    enabled = rules.naturals.units
    if rules.naturals.natural_order == "rank":
        return sorted(enabled, key=lambda natural: rules.naturals.natural_rank.index(natural))
    places = _places(rules)
    return sorted(enabled, key=lambda natural: (-enabled[natural], places[natural]))


# The registry -------------------------------------------------------------------------


class Kind(Record):
    """One natural cpscore knows: its id, its label and definition, its cheap
    ``screen`` and its ``claim`` (where it ranks is the rule set's ``natural_rank``).

    ``screen(facts)`` is False only when the hand surely does not make the
    natural; ``claim(cards, facts, hand, rules)`` gives ``(key, rows)`` when it
    does (``key`` breaks a tie with the same natural, None where there is no
    tie-break), else None.  Every natural is one entry of :data:`REGISTRY`:
    a natural the registry does not know cannot be claimed or screened."""

    __slots__ = ("id", "label", "definition", "screen", "claim")

    def __init__(
        self,
        id: str,
        definition: str,
        screen: Callable[[Facts], bool],
        claim: Callable[[Sequence[Card], Facts, Hand | None, RuleSet], Any],
    ) -> None:
        self.id = id
        self.label = id.replace("-", " ")
        self.definition = definition
        self.screen = screen
        self.claim = claim


class Facts:
    """What the screens read of 13 cards, each counted on first use: the
    ranks, the set of ranks, how many distinct, the lowest and highest, the
    codes, and for a set hand its rows' categories and its front's codes
    (None for an unset hand)."""

    __slots__ = ("codes", "categories", "front", "_seen", "_ranks", "_counts")

    def __init__(
        self, codes: Sequence[int], categories: tuple[int, int] | None = None, front: Sequence[int] = ()
    ) -> None:
        self.codes = codes
        self.categories = categories  # middle and back categories of a set hand
        self.front = front
        self._seen: set[int] | None = None
        self._ranks: list[int] | None = None
        self._counts: Counter[int] | None = None

    @property
    def seen(self) -> set[int]:
        """The ranks the cards hold, each once."""
        seen = self._seen
        if seen is None:
            seen = self._seen = set(map(RANK_OF.__getitem__, self.codes))
        return seen

    @property
    def ranks(self) -> list[int]:
        if self._ranks is None:
            self._ranks = list(map(RANK_OF.__getitem__, self.codes))
        return self._ranks

    @property
    def distinct(self) -> int:
        return len(self.seen)

    @property
    def low(self) -> int:
        return min(self.seen)

    @property
    def high(self) -> int:
        return max(self.seen)

    @property
    def counts(self) -> Counter[int]:
        if self._counts is None:
            self._counts = Counter(self.ranks)
        return self._counts


class Bound:
    """A screen that is one bound on a count of the :class:`Facts`
    (``distinct <= 7``, ``low >= 8``).  A rule set's screen (:func:`screen_of`)
    merges bounds on the same count: of ``distinct <= 4`` and ``distinct <= 7``
    only the weaker is tested, so many naturals screen a hand in a few comparisons."""

    __slots__ = ("field", "op", "value")

    def __init__(self, field: str, op: str, value: int) -> None:
        self.field, self.op, self.value = field, op, value

    def __call__(self, facts: Facts) -> bool:
        count = getattr(facts, self.field)
        if self.op == "<=":
            return bool(count <= self.value)
        if self.op == ">=":
            return bool(count >= self.value)
        return bool(count == self.value)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Bound) and (self.field, self.op, self.value) == (other.field, other.op, other.value)

    __hash__ = None  # type: ignore[assignment]


def _made(test: Callable[[Facts], bool]) -> Callable[[Sequence[Card], Facts, Hand | None, RuleSet], Any]:
    """The claim of a natural that its test on the facts decides, with no tie-break."""

    def claim(cards: Sequence[Card], facts: Facts, hand: Hand | None, rules: RuleSet) -> Any:
        return (None, None) if test(facts) else None

    return claim


def _one_colour(facts: Facts) -> bool:
    reds = sum(map(_RED.__getitem__, facts.codes))
    return reds == 0 or reds == len(facts.codes)


#: 1 for a red card, by code.
_RED = [int(SUIT_OF[code] in RED_SUITS) for code in range(52)]


def _clean_dragon(facts: Facts) -> bool:
    return facts.distinct == 13 and len({SUIT_OF[code] for code in facts.codes}) == 1


def _three_quads(facts: Facts) -> bool:
    return facts.distinct <= 4 and sum(count == 4 for count in facts.counts.values()) >= 3


def _four_trips(facts: Facts) -> bool:
    return facts.distinct <= 5 and sum(count >= 3 for count in facts.counts.values()) >= 4


def _six_pairs(cards: Sequence[Card], facts: Facts, hand: Hand | None, rules: RuleSet) -> Any:
    """Six pairs and an odd card; the tie-break is the pairs from the highest,
    then, with ``six_pairs_odd_card``, the odd card (docs/rules.md 7)."""
    if facts.distinct > 7:
        return None
    counts = facts.counts
    pairs = sorted((rank for rank, count in counts.items() for _ in range(count // 2)), reverse=True)
    if len(pairs) < 6:
        return None
    odd = max(rank for rank, count in counts.items() if count % 2)
    # Equal pairs tie whatever the odd card, unless the rules compare it last.
    return (tuple(pairs), odd if rules.naturals.six_pairs_odd_card else None), None


def _five_pairs_trips(cards: Sequence[Card], facts: Facts, hand: Hand | None, rules: RuleSet) -> Any:
    """Five pairs and one three of a kind (a four of a kind is two pairs); the
    tie-break is the trips' rank, then the pairs from the highest (docs/rules.md 7)."""
    if facts.distinct > 6:
        return None
    counts = facts.counts
    trips = [rank for rank, count in counts.items() if count == 3]
    if len(trips) != 1 or any(count % 2 for rank, count in counts.items() if count != 3):
        return None
    pairs = sorted((rank for rank, count in counts.items() if count != 3 for _ in range(count // 2)), reverse=True)
    return (trips[0], tuple(pairs)), None


def _five_consecutive_pairs(cards: Sequence[Card], facts: Facts, hand: Hand | None, rules: RuleSet) -> Any:
    """Two cards or more of each of five consecutive ranks (2-6 up to T-A, the ace
    only high); the tie-break is the top rank of the highest such run."""
    if facts.distinct > 8:
        return None
    counts = facts.counts
    for top in range(14, 5, -1):
        if all(counts.get(rank, 0) >= 2 for rank in range(top - 4, top + 1)):
            return (top,), None
    return None


def _twelve_one_colour(facts: Facts) -> bool:
    reds = sum(map(_RED.__getitem__, facts.codes))
    return reds <= len(facts.codes) - 12 or reds >= 12


class RowScreen:
    """A row-based natural's screen: a set hand's middle and back must already
    be rows of the kind (and for flushes its front one suit); an unset hand
    goes to the claim, which tests suit and rank counts first."""

    __slots__ = ("kinds", "suited_front")

    def __init__(self, kinds: tuple[int, ...], suited_front: bool) -> None:
        self.kinds = kinds
        self.suited_front = suited_front

    def __call__(self, facts: Facts) -> bool:
        if facts.categories is None:
            return True
        return self.rows(*facts.categories, facts.front)

    def rows(self, middle: int, back: int, front: Sequence[int]) -> bool:
        """The screen of a set hand whose middle and back are of these categories."""
        if middle not in self.kinds or back not in self.kinds:
            return False
        return not self.suited_front or SUIT_OF[front[0]] == SUIT_OF[front[1]] == SUIT_OF[front[2]]


def _row_claim(kind: str) -> Callable[[Sequence[Card], Facts, Hand | None, RuleSet], Any]:
    def claim(cards: Sequence[Card], facts: Facts, hand: Hand | None, rules: RuleSet) -> Any:
        naturals = rules.naturals
        front_first = naturals.natural_row_order == "back-front-middle"
        return _rows_claim(
            kind, cards, hand, naturals.ace_high_front_straight, rules.rows.wheel == "second", front_first
        )

    return claim


def _decided(id: str, definition: str, test: Callable[[Facts], bool]) -> Kind:
    """A natural its screen decides exactly: the one test is both its screen and its claim."""
    return Kind(id, definition, test, _made(test))


def _registry() -> dict[str, Kind]:
    entries = [
        Kind(
            "clean-dragon",
            "thirteen ranks, 2 to A, all of one suit",
            Bound("distinct", "==", 13),
            _made(_clean_dragon),
        ),
        _decided("dragon", "thirteen ranks, 2 to A", Bound("distinct", "==", 13)),
        _decided("twelve-royals", "every card a jack, queen, king or ace", Bound("low", ">=", 11)),
        Kind(
            "three-straight-flushes",
            "three rows that are straight flushes",
            RowScreen((STRAIGHT_FLUSH,), True),
            _row_claim("straight-flush"),
        ),
        Kind("three-quads", "three fours of a kind", Bound("distinct", "<=", 4), _made(_three_quads)),
        _decided("all-high", "every card an eight or higher", Bound("low", ">=", 8)),
        _decided("all-low", "every card an eight or lower", Bound("high", "<=", 8)),
        _decided("six-and-higher", "every card a six or higher", Bound("low", ">=", 6)),
        _decided("one-colour", "every card red, or every card black", _one_colour),
        _decided("twelve-one-colour", "at least twelve cards red, or twelve black", _twelve_one_colour),
        Kind("four-trips", "four threes of a kind", Bound("distinct", "<=", 5), _made(_four_trips)),
        Kind(
            "five-pairs-trips",
            "five pairs and a three of a kind",
            Bound("distinct", "<=", 6),
            _five_pairs_trips,
        ),
        Kind("six-pairs", "six pairs and an odd card", Bound("distinct", "<=", 7), _six_pairs),
        Kind(
            "five-consecutive-pairs",
            "pairs of five consecutive ranks",
            Bound("distinct", "<=", 8),
            _five_consecutive_pairs,
        ),
        Kind(
            "three-straights",
            "three rows that are straights",
            RowScreen((STRAIGHT, STRAIGHT_FLUSH), False),
            _row_claim("straight"),
        ),
        Kind(
            "three-flushes",
            "three rows that are flushes",
            RowScreen((FLUSH, STRAIGHT_FLUSH), True),
            _row_claim("flush"),
        ),
        _decided("no-broadway", "no jack, queen or king (aces allowed)", lambda f: not set(f.ranks) & {11, 12, 13}),
    ]
    return {entry.id: entry for entry in entries}


#: Every natural, by id, in the order of docs/rules.md 7.
REGISTRY: dict[str, Kind] = _registry()


def label(natural_id: str) -> str:
    """A natural's name in words (``six pairs``); a false claim (docs/rules.md 7,
    ``false_claim``) is shown in a natural's place as ``false claim``."""
    kind = REGISTRY.get(natural_id)
    return kind.label if kind is not None else natural_id.replace("-", " ")


def screen(rules: RuleSet, facts: Facts) -> bool:
    """False only when the hand surely makes none of the naturals ``rules`` play."""
    return screen_of(rules)(facts.codes, facts.categories, facts.front)


def screen_of(rules: RuleSet) -> Callable[[Sequence[int], tuple[int, int] | None, Sequence[int]], bool]:
    """The one screen of the naturals a rule set plays (:func:`screen`), made
    once per rule set value (:meth:`RuleSet.derived`), as a function of a
    hand's 13 codes, its middle's and back's categories (None for an unset
    hand) and its front's codes: the row screens first, then the bounds on
    the number of distinct ranks, the lowest and the highest merged into one
    test each (of ``distinct <= 4`` and ``distinct <= 7`` only the weaker),
    then the other screens on the hand's :class:`Facts`, each once."""
    return rules.derived(_screen_of)


def _screen_of(rules: RuleSet) -> Callable[[Sequence[int], tuple[int, int] | None, Sequence[int]], bool]:
    most_distinct, least_low, most_high = -1, 99, -1  # distinct <=, low >=, high <=: pass nothing yet
    exact: set[int] = set()  # distinct ==
    by_rows: list[RowScreen] = []
    others: list[Callable[[Facts], bool]] = []
    for natural in rules.naturals.units:
        test = REGISTRY[natural].screen
        bound = (test.field, test.op) if isinstance(test, Bound) else None
        if isinstance(test, Bound) and bound == ("distinct", "<="):
            most_distinct = max(most_distinct, test.value)
        elif isinstance(test, Bound) and bound == ("distinct", "=="):
            exact.add(test.value)
        elif isinstance(test, Bound) and bound == ("low", ">="):
            least_low = min(least_low, test.value)
        elif isinstance(test, Bound) and bound == ("high", "<="):
            most_high = max(most_high, test.value)
        elif isinstance(test, RowScreen):
            by_rows.append(test)
        elif test not in others:
            others.append(test)
    counted = most_distinct >= 0 or bool(exact) or least_low < 99 or most_high >= 0
    rows, rest = tuple(by_rows), tuple(others)
    kinds = frozenset(kind for row_screen in rows for kind in row_screen.kinds)  # a middle any of them takes

    def passes(codes: Sequence[int], categories: tuple[int, int] | None, front: Sequence[int]) -> bool:
        if rows:
            if categories is None:
                return True  # an unset hand: a row-based natural's claim decides
            middle, back = categories
            if middle in kinds:
                for row_screen in rows:
                    if row_screen.rows(middle, back, front):
                        return True
        if counted:
            seen = set(map(RANK_OF.__getitem__, codes))
            distinct = len(seen)
            if distinct <= most_distinct or distinct in exact or min(seen) >= least_low or max(seen) <= most_high:
                return True
        if rest:
            facts = Facts(codes, categories, front)
            for test in rest:
                if test(facts):
                    return True
        return False

    return passes


# Row-based naturals ------------------------------------------------------------------


def _is_straight3(ranks: list[int], ace_high: bool) -> bool:
    low, mid, high = sorted(ranks)
    if high - mid == 1 and mid - low == 1:
        return ace_high or high != 14
    return (low, mid, high) == (2, 3, 14)  # A-2-3


def _front_value(cards: Sequence[Card], kind: str, ace_high: bool) -> int | None:
    """A three-card row's value as the row of ``kind`` it is, if it is one
    (docs/rules.md 7): a straight (or straight flush) by its top card, ``A-2-3``
    lowest; a flush by its ranks.  A front that is also a straight flush is
    compared as the straight or the flush the natural needs, never above them."""
    ranks = [RANK_OF[card.code] for card in cards]
    straight = _is_straight3(ranks, ace_high)
    flush = len({card.suit for card in cards}) == 1
    top = 3 if sorted(ranks) == [2, 3, 14] else max(ranks)
    if kind == "straight-flush":
        return encode(STRAIGHT_FLUSH, [top]) if straight and flush else None
    if kind == "straight":
        return encode(STRAIGHT, [top]) if straight else None
    return encode(FLUSH, sorted(ranks, reverse=True)) if flush else None


def _five_value(cards: Sequence[Card], kind: str, second: bool = False) -> int | None:
    """A five-card row's value as the row of ``kind`` it is, if it is one,
    with A-2-3-4-5 placed by the wheel setting (``second``: just below
    T-J-Q-K-A), as in every five-card row (docs/rules.md 2)."""
    plain = evaluate5([card.code for card in cards])
    category = plain >> CATEGORY_SHIFT
    value = wheel_second(plain) if second else plain
    if kind == "straight-flush":
        return value if category == STRAIGHT_FLUSH else None
    if kind == "straight":
        return value if category in (STRAIGHT, STRAIGHT_FLUSH) else None
    return value if category in (FLUSH, STRAIGHT_FLUSH) else None


def _rows_claim(
    kind: str, cards: Sequence[Card], hand: Hand | None, ace_high: bool, second: bool = False, front_first: bool = False
) -> _RowsClaim | None:
    """(key, rows) for three rows of ``kind``: the set rows of a set hand, or the
    strongest arrangement of an unset one (``front_first``: strongest by the
    back, then the front, then the middle; ``natural_row_order``).  The key is
    (back, middle, front) either way."""
    if hand is not None:
        back = _five_value(hand.back, kind, second)
        if back is None:
            return None
        middle = _five_value(hand.middle, kind, second)
        if middle is None:
            return None
        front = _front_value(hand.front, kind, ace_high)
        if front is None:
            return None
        return (back, middle, front), (hand.back, hand.middle, hand.front)
    if not _possible(kind, cards, ace_high):
        return None
    return _strongest(kind, cards, ace_high, second, front_first)


_FIVE_WINDOWS = [tuple(range(top - 4, top + 1)) for top in range(6, 15)] + [(14, 2, 3, 4, 5)]


def _possible(kind: str, cards: Sequence[Card], ace_high: bool) -> bool:
    """A quick test on rank and suit counts alone: can the cards be split into
    rows of ``kind`` at all?  Most hands are rejected here, before any
    arrangement of the cards themselves is tried."""
    if kind == "flush":
        return _splits(sorted(Counter(card.suit for card in cards).values(), reverse=True), [5, 5, 3])
    five = _FIVE_WINDOWS
    have: Counter[Any]  # rank numbers, or (suit, rank number) pairs for straight flushes
    windows: list[Counter[Any]]
    if kind == "straight":
        have = Counter(card.rank.number for card in cards)
        windows = [Counter(window) for window in five]
    else:  # straight flushes: each row is a run within one suit
        have = Counter((card.suit, card.rank.number) for card in cards)
        windows = [Counter((suit, rank) for rank in window) for suit in {c.suit for c in cards} for window in five]
    for back in windows:
        if back - have:
            continue
        after_back = have - back
        for middle in windows:
            if middle - after_back:
                continue
            front = list((after_back - middle).elements())
            if kind == "straight" and _is_straight3(front, ace_high):
                return True
            if kind == "straight-flush" and len({suit for suit, _ in front}) == 1:
                if _is_straight3([rank for _, rank in front], ace_high):
                    return True
    return False


def _splits(sizes: list[int], rows: list[int]) -> bool:
    """Whether suit counts ``sizes`` split exactly into the row sizes, each row
    within one suit."""
    if not rows:
        return not any(sizes)
    row, rest = rows[0], rows[1:]
    return any(_splits(sizes[:i] + [size - row] + sizes[i + 1 :], rest) for i, size in enumerate(sizes) if size >= row)


def _strongest(
    kind: str, cards: Sequence[Card], ace_high: bool, second: bool = False, front_first: bool = False
) -> _RowsClaim | None:
    """The arrangement into rows of ``kind`` with the strongest back, then middle,
    then front (``front_first``: back, front, middle): (key, rows), or None when
    there is none."""
    import itertools

    best: _RowsClaim | None = None
    backs = [
        (value, combo) for combo in _candidates(cards, kind) if (value := _five_value(combo, kind, second)) is not None
    ]
    backs.sort(key=lambda item: item[0], reverse=True)
    for back_value, back in backs:
        if best is not None and back_value < best[0][0]:
            break
        rest = [card for card in cards if card not in back]
        for middle in itertools.combinations(rest, 5):
            middle_value = _five_value(middle, kind, second)
            if middle_value is None:
                continue
            if not front_first and best is not None and (back_value, middle_value) < best[0][:2]:
                continue
            front = tuple(card for card in rest if card not in middle)
            front_value = _front_value(front, kind, ace_high)
            if front_value is None:
                continue
            key = (back_value, middle_value, front_value)
            if best is None or _order(key, front_first) > _order(best[0], front_first):
                best = (key, (back, middle, front))
    return best


def _order(key: tuple[int, int, int], front_first: bool) -> tuple[int, int, int]:
    """A (back, middle, front) key in the order rows break ties."""
    return (key[0], key[2], key[1]) if front_first else key


def _candidates(cards: Sequence[Card], kind: str) -> Iterator[tuple[Card, ...]]:
    """Five-card rows of ``kind`` (or a superset) to try as the back."""
    import itertools

    if kind == "straight":
        by_rank: dict[int, list[Card]] = {}
        for card in cards:
            by_rank.setdefault(card.rank.number, []).append(card)
        five = _FIVE_WINDOWS
        for window in five:
            if all(rank in by_rank for rank in window):
                yield from itertools.product(*(by_rank[rank] for rank in window))
        return
    by_suit: dict[object, list[Card]] = {}
    for card in cards:
        by_suit.setdefault(card.suit, []).append(card)
    for suited in by_suit.values():
        yield from itertools.combinations(suited, 5)
