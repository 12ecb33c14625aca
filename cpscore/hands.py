"""Row evaluation, row names and the foul check (docs/rules.md 2 and 3).

A row's value is an ``int``; greater is stronger and equal values tie.  Front
(three-card) and five-card values share one scale, so ``front > middle`` is
exactly the foul test of docs/rules.md 2.  Values come from lookup tables shipped
in ``cpscore._tables`` (built by ``cpscore.tablegen``); nothing is computed
at import time.

>>> from cpscore.cards import parse_cards
>>> value = evaluate_row(parse_cards("Ah Ad Ac 7s 7d"))
>>> category(value), describe(value)
('full-house', 'aces full of sevens')
>>> describe(evaluate_row(parse_cards("Ks Kd 4c")))
'pair of kings'
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from cpscore._tables import FIVE as _FIVE
from cpscore._tables import THREE as _THREE
from cpscore.cards import RANK_OF, SUIT_OF, Card
from cpscore.records import Record
from cpscore.values import (
    CATEGORIES,
    CATEGORY_SHIFT,
    FLUSH,
    GROUP_SIZES,
    HIGH_CARD,
    STEEL_WHEEL,
    STRAIGHT,
    STRAIGHT_FLUSH,
    WHEEL,
    encode,
)

# One prime per rank and the suit of each card, indexed by card code.
_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
PRIME = [_PRIMES[RANK_OF[code] - 2] for code in range(52)]
SUIT = list(SUIT_OF)


def evaluate5(codes: Sequence[int]) -> int:
    """The value of a five-card row given as five card codes."""
    a, b, c, d, e = codes
    # The chained comparison stops at the first two suits that differ.
    if SUIT[a] == SUIT[b] == SUIT[c] == SUIT[d] == SUIT[e]:
        # Five suited cards have five ranks: high card becomes a flush and a
        # straight a straight flush, with the same rank digits.
        value = _FIVE[PRIME[a] * PRIME[b] * PRIME[c] * PRIME[d] * PRIME[e]]
        return value + (_TO_STRAIGHT_FLUSH if value >= _LOWEST_STRAIGHT else _TO_FLUSH)
    return _FIVE[PRIME[a] * PRIME[b] * PRIME[c] * PRIME[d] * PRIME[e]]


_TO_FLUSH = (FLUSH - HIGH_CARD) << CATEGORY_SHIFT
_TO_STRAIGHT_FLUSH = (STRAIGHT_FLUSH - STRAIGHT) << CATEGORY_SHIFT
_LOWEST_STRAIGHT = STRAIGHT << CATEGORY_SHIFT


def evaluate_hand(codes: Sequence[int]) -> tuple[int, int, int]:
    """The values of a set hand's front, middle and back, given its 13 card
    codes front first: :func:`evaluate3` and :func:`evaluate5` of its rows in
    one call (what settling a deal does four times a deal)."""
    a, b, c, d, e, f, g, h, i, j, k, l, m = codes  # noqa: E741
    front = _THREE[PRIME[a] * PRIME[b] * PRIME[c]]
    middle = _FIVE[PRIME[d] * PRIME[e] * PRIME[f] * PRIME[g] * PRIME[h]]
    if SUIT[d] == SUIT[e] == SUIT[f] == SUIT[g] == SUIT[h]:  # as evaluate5
        middle += _TO_STRAIGHT_FLUSH if middle >= _LOWEST_STRAIGHT else _TO_FLUSH
    back = _FIVE[PRIME[i] * PRIME[j] * PRIME[k] * PRIME[l] * PRIME[m]]
    if SUIT[i] == SUIT[j] == SUIT[k] == SUIT[l] == SUIT[m]:
        back += _TO_STRAIGHT_FLUSH if back >= _LOWEST_STRAIGHT else _TO_FLUSH
    return front, middle, back


def evaluate3(codes: Sequence[int]) -> int:
    """The value of a three-card row given as three card codes."""
    a, b, c = codes
    return _THREE[PRIME[a] * PRIME[b] * PRIME[c]]


def evaluate_row(cards: Sequence[Card]) -> int:
    """The value of a row of three or five cards."""
    codes = [card.code for card in cards]
    if len(codes) == 3:
        return evaluate3(codes)
    if len(codes) == 5:
        return evaluate5(codes)
    raise ValueError(f"a row has 3 or 5 cards, not {len(codes)}")


def category(value: int) -> str:
    """The category id of a value; an ace-high straight flush is ``royal-flush``.

    >>> from cpscore.cards import parse_cards
    >>> category(evaluate_row(parse_cards("As Ks Qs Js Ts")))
    'royal-flush'
    """
    number = value >> CATEGORY_SHIFT
    if number == STRAIGHT_FLUSH and digits(value)[0] == 14:
        return "royal-flush"
    return CATEGORIES[number]


def digits(value: int) -> list[int]:
    """The rank digits of a value (biggest group first), without padding.

    >>> from cpscore.cards import parse_cards
    >>> digits(evaluate_row(parse_cards("9h 9c 5d 5s 2c")))
    [9, 5, 2]
    """
    found = [(value >> shift) & 15 for shift in (16, 12, 8, 4, 0)]
    while found and found[-1] == 0:
        found.pop()
    return found


_NAMES = {
    2: ("two", "twos"),
    3: ("three", "threes"),
    4: ("four", "fours"),
    5: ("five", "fives"),
    6: ("six", "sixes"),
    7: ("seven", "sevens"),
    8: ("eight", "eights"),
    9: ("nine", "nines"),
    10: ("ten", "tens"),
    11: ("jack", "jacks"),
    12: ("queen", "queens"),
    13: ("king", "kings"),
    14: ("ace", "aces"),
}
#: rank_letters and describe remember the values met (a session meets the same rows again
#: and again: there are 7,462 five-card values and 455 three-card ones).
_remembered = functools.lru_cache(maxsize=20_000)
_LETTER = {number: letter for number, letter in zip(range(2, 15), "23456789TJQKA")}


@_remembered
def rank_letters(value: int) -> str:
    """The ranks of a value as letters, biggest group first: ``K-K-4``, ``5-4-3-2-A``.

    >>> from cpscore.cards import parse_cards
    >>> rank_letters(evaluate_row(parse_cards("Ah Ad Ac 7s 7d")))
    'A-A-A-7-7'
    """
    number = value >> CATEGORY_SHIFT
    ranks = digits(value)
    if number in (4, 8):  # a straight's one digit is its top card; the wheel's is 5
        return "-".join(_LETTER[top if top > 1 else 14] for top in range(ranks[0], ranks[0] - 5, -1))
    sizes = GROUP_SIZES.get(number, (1,) * len(ranks))
    return "-".join(_LETTER[rank] for rank, size in zip(ranks, sizes) for _ in range(size))


@_remembered
def describe(value: int) -> str:
    """A player's name for a row value: 'pair of kings', 'ten-high straight'."""
    number = value >> CATEGORY_SHIFT
    ranks = digits(value)
    one, many = _NAMES[ranks[0]]
    if number == 0:
        return f"{one} high"
    if number == 1:
        return f"pair of {many}"
    if number == 2:
        return f"two pair, {many} and {_NAMES[ranks[1]][1]}"
    if number == 3:
        return f"three {many}"
    if number == 4:
        return f"{one}-high straight"
    if number == 5:
        return f"{one}-high flush"
    if number == 6:
        return f"{many} full of {_NAMES[ranks[1]][1]}"
    if number == 7:
        return f"four {many}"
    return "royal flush" if ranks[0] == 14 else f"{one}-high straight flush"


class Foul(Record):
    """Why a hand is fouled: the ``stronger`` row beats the ``weaker`` row
    that should be at least as strong (``by_suit``: the two are equal in ranks
    and the stronger wins on suits, with ``suit_foul``).  A low middle that does
    not qualify (``low_middle_qualifier``) is ``Foul("middle", "qualifier",
    middle value, highest rank allowed)``: ``weaker`` is then no row, and
    ``weaker_value`` a rank number (2-14), not a row's value."""

    __slots__ = ("stronger", "weaker", "stronger_value", "weaker_value", "by_suit")

    def __init__(
        self, stronger: str, weaker: str, stronger_value: int, weaker_value: int, by_suit: bool = False
    ) -> None:
        self.stronger = stronger
        self.weaker = weaker
        self.stronger_value = stronger_value
        self.weaker_value = weaker_value
        self.by_suit = by_suit

    @property
    def reason(self) -> str:
        """'front pair of queens (Q-Q-3) beats middle jack high (J-T-8-6-3)'; a
        low middle that does not qualify (``weaker`` is ``qualifier``, its value
        the highest card allowed): 'middle king high (K-9-5-3-2) is not ten-low or better'."""
        if self.weaker == "qualifier":
            low = deuce_to_seven(self.stronger_value)
            return (
                f"middle {describe(low)} ({rank_letters(low)}) is not {_NAMES[self.weaker_value][0]}-low or better"
                " (a low middle must hold no pair, straight or flush, and no higher card)"
            )
        return (
            f"{self.stronger} {describe(self.stronger_value)} ({rank_letters(self.stronger_value)}) "
            f"beats {self.weaker} {describe(self.weaker_value)} ({rank_letters(self.weaker_value)})"
            + (" on suits" if self.by_suit else "")
        )


def find_foul(front: int, middle: int, back: int, low_middle: bool = False) -> Foul | None:
    """The first rule a setting breaks (middle over back, then front over middle).
    With the middle played low (docs/rules.md 10) the only rule is back >= front."""
    if low_middle:
        return Foul("front", "back", front, back) if front > back else None
    if middle > back:
        return Foul("middle", "back", middle, back)
    if front > middle:
        return Foul("front", "middle", front, middle)
    return None


def wheel_second(value: int) -> int:
    """A five-card value with ``wheel = "second"``: A-2-3-4-5 ranks just below
    T-J-Q-K-A (as a straight, or as a straight flush)."""
    if value == WHEEL:
        return encode(STRAIGHT, [13]) + 1
    if value == STEEL_WHEEL:
        return encode(STRAIGHT_FLUSH, [13]) + 1
    return value


def plain_of(value: int) -> int:
    """The poker value of a five-card value that :func:`wheel_second` may have
    moved (what its name and letters are read from)."""
    if value == encode(STRAIGHT, [13]) + 1:
        return WHEEL
    if value == encode(STRAIGHT_FLUSH, [13]) + 1:
        return STEEL_WHEEL
    return value


def deuce_to_seven(value: int) -> int:
    """A five-card value for deuce-to-seven low, where lower wins: aces are high
    and A-2-3-4-5 is no straight (straights and flushes still count against)."""
    if value == WHEEL:
        return encode(HIGH_CARD, [14, 5, 4, 3, 2])
    if value == STEEL_WHEEL:
        return encode(FLUSH, [14, 5, 4, 3, 2])
    return value
