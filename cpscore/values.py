"""The value scale of rows, shared by the evaluator and its table generator.

A value is ``category << 20`` plus five 4-bit rank digits, most significant
first: the rank groups, biggest group first and then by rank.  A straight has
one digit, its top card (5 for the wheel).  Three-card rows use the same scale
with their digits followed by zeros.  Greater is stronger; equal values tie.

>>> encode(PAIR, [13, 14]) > encode(PAIR, [13, 12, 7, 3])
True
"""

HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)
CATEGORY_SHIFT = 20
#: Category ids, indexed by the category number in a value.
CATEGORIES = (
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
#: Rank group sizes by category, as a value's digits list the groups (a front's
#: digits are fewer: the sizes are read as far as they go); straights and
#: flushes are not grouped.
GROUP_SIZES = {
    HIGH_CARD: (1, 1, 1, 1, 1),
    PAIR: (2, 1, 1, 1),
    TWO_PAIR: (2, 2, 1),
    TRIPS: (3, 1, 1),
    FULL_HOUSE: (3, 2),
    QUADS: (4, 1),
}
#: Every category id a row is reported as, weakest first: an ace-high straight
#: flush is reported as ``royal-flush``.
CATEGORY_IDS = (*CATEGORIES, "royal-flush")


def encode(category: int, digits: list[int] | tuple[int, ...]) -> int:
    """A value from a category and up to five rank digits (2-14)."""
    value = category
    for position in range(5):
        value = (value << 4) | (digits[position] if position < len(digits) else 0)
    return value


WHEEL = encode(STRAIGHT, [5])
STEEL_WHEEL = encode(STRAIGHT_FLUSH, [5])
