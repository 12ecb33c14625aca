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
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from cpscore.amounts import Amount
from cpscore.cards import RANK_OF, RED_SUITS, SUIT_OF, Card, Hand
from cpscore.hands import evaluate5
from cpscore.records import Record
from cpscore.rules import NATURALS, RuleSet
from cpscore.values import CATEGORY_SHIFT, FLUSH, STRAIGHT, STRAIGHT_FLUSH, encode

if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    _Rows = tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]
    #: A row-based natural's tie-break key (back, middle, front values) and its rows.
    _RowsClaim = tuple[tuple[int, int, int], _Rows]

#: docs/rules.md 7 lists all-high and all-low on one line: they rank alike.
_LINE = {natural: index for index, natural in enumerate(NATURALS)}
_LINE["all-low"] = _LINE["all-high"]
_ROW_BASED = {"three-straight-flushes": "straight-flush", "three-straights": "straight", "three-flushes": "flush"}


class Natural(Record):
    """A claimed natural: its id, its units under the rules, the key that breaks
    a tie with the same natural (``None`` where docs/rules.md gives no tie-break),
    and for a row-based natural the rows it was made with (back, middle, front)."""

    __slots__ = ("id", "units", "key", "rows")

    def __init__(self, id: str, units: Amount, key: tuple | None, rows: tuple[tuple[Card, ...], ...] | None) -> None:
        self.id = id
        self.units = units
        self.key = key
        self.rows = rows


def compare(a: Natural, b: Natural) -> int:
    """1 if ``a`` collects from ``b``, -1 if it pays, 0 for a tie (docs/rules.md 7)."""
    if a.id != b.id:
        strength_a, strength_b = (a.units, -_LINE[a.id]), (b.units, -_LINE[b.id])
        return (strength_a > strength_b) - (strength_a < strength_b)
    if a.key is None:
        return 0
    assert b.key is not None  # the same natural: both have a tie-break key or neither
    return (a.key > b.key) - (a.key < b.key)


def detect(cards: Sequence[Card], hand: Hand | None, rules: RuleSet) -> Natural | None:
    """The most valuable natural the 13 ``cards`` claim under ``rules``, or None.
    ``hand`` is the set hand (its rows count for row-based naturals), or None
    for an unset hand."""
    enabled = rules.naturals
    if not enabled:
        return None
    ranks = [RANK_OF[card.code] for card in cards]
    groups = _Groups(ranks)
    for natural in _by_value(enabled):  # the first one the cards make is the most valuable
        found = _claim(natural, cards, ranks, groups, hand, rules)
        if found is not None:
            return Natural(natural, enabled[natural], *found)
    return None


class _Groups:
    """How many distinct ranks the cards have, and (counted only when a natural
    needs them) how many of each."""

    __slots__ = ("distinct", "ranks", "_counts")

    def __init__(self, ranks: list[int]) -> None:
        self.ranks = ranks
        self.distinct = len(set(ranks))
        self._counts: Counter | None = None

    @property
    def counts(self) -> Counter:
        if self._counts is None:
            self._counts = Counter(self.ranks)
        return self._counts


def claims(cards: Sequence[Card], rules: RuleSet) -> list[str]:
    """Every enabled natural the 13 cards make as an unset hand, most valuable
    first (a hand claims only the first).

    >>> from cpscore.cards import parse_cards
    >>> from cpscore.rules import get_rules
    >>> claims(parse_cards("2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah"), get_rules("taiwanese"))[:3]
    ['clean-dragon', 'dragon', 'three-straight-flushes']
    """
    if not rules.naturals:
        return []
    ranks = [RANK_OF[card.code] for card in cards]
    groups = _Groups(ranks)
    return [
        natural
        for natural in _by_value(rules.naturals)
        if _claim(natural, cards, ranks, groups, None, rules) is not None
    ]


_ORDERS: dict[tuple, list[str]] = {}


def _by_value(enabled: Mapping[str, Amount]) -> list[str]:
    """Enabled naturals, most valuable first (in equal value, docs/rules.md's order)."""
    key = tuple(enabled.items())
    if key not in _ORDERS:
        _ORDERS[key] = sorted(enabled, key=lambda natural: (-enabled[natural], _LINE[natural]))
    return _ORDERS[key]


def _claim(natural, cards, ranks, groups, hand, rules):
    """(key, rows) when the cards make ``natural``, else None.  Counts of
    distinct ranks reject most hands before anything is counted: thirteen
    cards hold six pairs in at most 7 ranks, four trips in at most 5, three
    quads in at most 4."""
    if natural in _ROW_BASED:
        return _rows_claim(_ROW_BASED[natural], cards, hand, rules.ace_high_front_straight)
    distinct = groups.distinct
    if natural == "clean-dragon":
        made = distinct == 13 and len({card.suit for card in cards}) == 1
    elif natural == "dragon":
        made = distinct == 13
    elif natural == "twelve-royals":
        made = min(ranks) >= 11
    elif natural == "three-quads":
        made = distinct <= 4 and sum(count == 4 for count in groups.counts.values()) >= 3
    elif natural == "all-high":
        made = min(ranks) >= 8
    elif natural == "all-low":
        made = max(ranks) <= 8
    elif natural == "one-colour":
        made = len({card.suit.red for card in cards}) == 1
    elif natural == "four-trips":
        made = distinct <= 5 and sum(count >= 3 for count in groups.counts.values()) >= 4
    elif natural == "six-pairs":
        if distinct > 7:
            return None
        counts = groups.counts
        pairs = sorted((rank for rank, count in counts.items() for _ in range(count // 2)), reverse=True)
        if len(pairs) < 6:
            return None
        odd = max(rank for rank, count in counts.items() if count % 2)
        return (tuple(pairs), odd), None
    elif natural == "no-broadway":
        made = not set(ranks) & {11, 12, 13}
    else:  # pragma: no cover - NATURALS and this function name the same ids
        raise ValueError(natural)
    return (None, None) if made else None


def might_make(codes: list[int], plains: tuple[int, int, int], rules: RuleSet) -> bool:
    """A quick, safe test for a set hand given as its 13 codes (front first)
    and its rows' poker values: False only when the hand surely makes no
    enabled natural; True sends it to :func:`detect`."""
    ranks = [RANK_OF[code] for code in codes]
    distinct = len(set(ranks))
    middle, back = plains[1] >> CATEGORY_SHIFT, plains[2] >> CATEGORY_SHIFT
    for natural in rules.naturals:
        if natural in _ROW_BASED:
            kinds = _MIGHT_ROWS[natural]
            if (
                middle in kinds
                and back in kinds
                and (natural == "three-straights" or len({SUIT_OF[c] for c in codes[:3]}) == 1)
            ):
                return True
        elif natural in ("dragon", "clean-dragon"):
            if distinct == 13:
                return True
        elif natural == "six-pairs":
            if distinct <= 7 and sum(ranks.count(rank) // 2 for rank in set(ranks)) >= 6:
                return True
        elif natural in ("four-trips", "three-quads"):
            if distinct <= 5:
                return True
        elif natural in ("twelve-royals", "all-high"):
            if min(ranks) >= 8:
                return True
        elif natural == "all-low":
            if max(ranks) <= 8:
                return True
        elif natural == "one-colour":
            if len({SUIT_OF[code] in RED_SUITS for code in codes}) == 1:
                return True
        elif not set(ranks) & {11, 12, 13}:  # no-broadway
            return True
    return False


# The categories each row-based natural needs in the middle and the back.
_MIGHT_ROWS = {
    "three-straight-flushes": (STRAIGHT_FLUSH,),
    "three-straights": (STRAIGHT, STRAIGHT_FLUSH),
    "three-flushes": (FLUSH, STRAIGHT_FLUSH),
}


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


def _five_value(cards: Sequence[Card], kind: str) -> int | None:
    value = evaluate5([card.code for card in cards])
    category = value >> CATEGORY_SHIFT
    if kind == "straight-flush":
        return value if category == STRAIGHT_FLUSH else None
    if kind == "straight":
        return value if category in (STRAIGHT, STRAIGHT_FLUSH) else None
    return value if category in (FLUSH, STRAIGHT_FLUSH) else None


def _rows_claim(kind: str, cards: Sequence[Card], hand: Hand | None, ace_high: bool) -> _RowsClaim | None:
    """(key, rows) for three rows of ``kind``: the set rows of a set hand, or the
    strongest arrangement of an unset one."""
    if hand is not None:
        back = _five_value(hand.back, kind)
        if back is None:
            return None
        middle = _five_value(hand.middle, kind)
        if middle is None:
            return None
        front = _front_value(hand.front, kind, ace_high)
        if front is None:
            return None
        return (back, middle, front), (hand.back, hand.middle, hand.front)
    if not _possible(kind, cards, ace_high):
        return None
    return _strongest(kind, cards, ace_high)


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


def _strongest(kind: str, cards: Sequence[Card], ace_high: bool) -> _RowsClaim | None:
    """The arrangement into rows of ``kind`` with the strongest back, then middle,
    then front: (key, rows), or None when there is none."""
    import itertools

    best: _RowsClaim | None = None
    backs = [(value, combo) for combo in _candidates(cards, kind) if (value := _five_value(combo, kind)) is not None]
    backs.sort(key=lambda item: item[0], reverse=True)
    for back_value, back in backs:
        if best is not None and back_value < best[0][0]:
            break
        rest = [card for card in cards if card not in back]
        for middle in itertools.combinations(rest, 5):
            middle_value = _five_value(middle, kind)
            if middle_value is None or (best is not None and (back_value, middle_value) < best[0][:2]):
                continue
            front = tuple(card for card in rest if card not in middle)
            front_value = _front_value(front, kind, ace_high)
            if front_value is None:
                continue
            key = (back_value, middle_value, front_value)
            if best is None or key > best[0]:
                best = (key, (back, middle, front))
    return best


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
