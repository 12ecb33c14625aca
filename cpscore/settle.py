"""Settling up a night in the fewest payments, exactly; and rounding balances
to a unit of money.

Balances map each player to an exact amount (``int`` or ``Decimal``, never
``float``): positive, the player is owed; negative, the player owes; the
amounts sum to zero.

The fewest payments (:func:`fewest`)
------------------------------------

Payments join players into groups that settle among themselves (the
connected parts of who pays whom), and each group's balances sum to zero.  A
group of *k* players needs at least *k* - 1 payments to connect it, and *k* - 1
are enough (below).  So the fewest payments for *n* players with a non-zero
balance are *n* minus the largest number of groups, summing to zero each,
that the players can be split into.  Finding that split is hard in general
(it contains subset sum), and is searched exactly:

1. Players square already are left out.  A player owed *x* and one owing *x*
   are paired at once (some best split has them as a group of their own: put
   them together and the rest of their groups together).  Among several owed
   and owing the same *x*, names are paired in order: the first owed with the
   first owing.
2. The rest are split by an exact search.  Every set of them that sums to
   zero is found by meeting in the middle (the sums of one half of the
   balances against those of the other), players with the same balance
   counted together so that equal balances do not multiply the work.  Only
   the minimal ones (holding no smaller set that sums to zero) can be groups
   of a best split, since a group holding one splits in two.  Then a depth
   first search splits the players left, the first of them (in the order
   below) in the next group, remembering the best split of each set of
   balances left and cutting off branches that cannot do better: a group has
   at least one player who owes and one who is owed, and, with the pairs
   gone, at least three players.
3. Within a group the largest debtor pays the largest creditor, again and
   again: every payment squares at least one of the two and the last one
   squares both, so *k* - 1 payments at most.

Nobody both pays and receives, so the total moved is the sum owed, the least
any settlement can move (each player owed must receive at least what is
owed): among the settlements with the fewest payments, this one also moves
the least money, whatever the split.

The search is quick for the players of a night and stays within about a
second up to 24 players left after the pairs: in the checks run (random
balances from a few units to millions, whole or to the cent, and the
densest, every size from 1 to *n* with a sign), at most 0.15 s for 20 players
and 1.2 s for 24 (the densest; 0.5 s for balances within 100).  But the worst
case grows exponentially: with more than ``limit`` players left it is
skipped, and the largest debtor pays the largest creditor over all of them
(at most one payment fewer than players), with ``exact`` false so the caller
can say the count may not be the fewest.

The result is the same for the same balances, whatever the order of the
mapping.  Players are ordered by balance, then by name (Python's string
order).  A split is written as its groups, each in that order, the groups in
order of their first player; among the splits with the most groups, the
search takes the first such list (so the first player is in the least group
that allows the most groups, and so on).  Ties between equal debtors or
creditors within a group go to the name first in order.  Payments are listed
by payer's name, then payee's.

>>> settled = fewest({"Amy": 4, "Bob": 3, "Cy": 3, "Dee": -6, "Eve": -4})
>>> [(t.payer, t.payee, t.amount) for t in settled.transfers]
[('Dee', 'Bob', 3), ('Dee', 'Cy', 3), ('Eve', 'Amy', 4)]
>>> settled.exact, settled.groups, settled.moved
(True, [['Amy', 'Eve'], ['Bob', 'Cy', 'Dee']], 10)

Rounding (:func:`rounded`)
--------------------------

Each balance becomes a multiple of a unit (``--round 5``: what people hand
over) by the largest remainder method: every balance is rounded down to a
multiple, then as many players as it takes for the balances to sum to zero
again are rounded up, those with the largest remainders first (equal ones:
by name).  So nobody moves by a unit or more, a balance already a multiple
stays, and nobody owed is made to pay (nor anybody owing made to receive).

>>> from decimal import Decimal
>>> rounded({"Amy": Decimal("10.49"), "Bob": Decimal("-3.26"), "Cy": Decimal("-7.23")}, 1)
{'Amy': 10, 'Bob': -3, 'Cy': -7}
>>> rounded({"Amy": Decimal("2.5"), "Bob": Decimal("2.5"), "Cy": Decimal("2.5"), "Dee": -Decimal("7.5")}, 5)
{'Amy': 5, 'Bob': 5, 'Cy': 0, 'Dee': -10}
"""

from __future__ import annotations

from functools import reduce
from operator import and_, getitem, sub

from cpscore.amounts import Amount
from cpscore.records import Record

# For annotations only (see cpscore/records.py); session.py imports this module.
_TYPE_CHECKING = False
if _TYPE_CHECKING:
    from collections.abc import Mapping

#: Players left after the pairs beyond which :func:`fewest` does not search.
LIMIT = 24


class Transfer(Record):
    """One payment that settles balances: ``payer`` pays ``payee`` ``amount``."""

    __slots__ = ("payer", "payee", "amount")

    def __init__(self, payer: str, payee: str, amount: Amount) -> None:
        self.payer = payer
        self.payee = payee
        self.amount = amount


class Settlement(Record):
    """The payments that settle balances (:func:`fewest`).

    ``transfers``: by payer's name, then payee's.  ``exact``: whether the count
    is the fewest (false when the search was skipped: too many players).
    ``groups``: the players who settle among themselves, each group's names in
    order, the groups in order.  ``moved``: the total paid, the sum owed."""

    __slots__ = ("transfers", "exact", "groups", "moved")

    def __init__(self, transfers: list[Transfer], exact: bool, groups: list[list[str]], moved: Amount) -> None:
        self.transfers = transfers
        self.exact = exact
        self.groups = groups
        self.moved = moved


# Exact amounts as whole numbers of a common small unit --------------------------------


def _digits_after_point(value: Amount) -> int:
    if isinstance(value, int):
        return 0
    exponent = value.as_tuple().exponent
    if not isinstance(exponent, int):  # "n", "N" or "F": NaN or infinity
        raise ValueError(f"{value} is not an amount")
    return max(0, -exponent)


def _checked(value: object) -> Amount:
    """``value`` if it is an int or a Decimal (``TypeError`` otherwise: a float is not exact)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    from decimal import Decimal

    if not isinstance(value, Decimal):
        raise TypeError(f"{value!r} is not an exact amount (int or Decimal)")
    return value


def _scaled(value: Amount, digits: int) -> int:
    """``value * 10**digits`` as an int (exact whatever the decimal context)."""
    if isinstance(value, int):
        return value * int(10**digits)
    sign, numerals, exponent = value.as_tuple()
    assert isinstance(exponent, int)
    whole = int("".join(map(str, numerals)) or "0") * int(10 ** (exponent + digits))  # exponent + digits >= 0
    return -whole if sign else whole


def _unscaled(number: int, digits: int) -> Amount:
    """``number / 10**digits``: an int when whole, else a Decimal without trailing zeros."""
    while digits and number % 10 == 0:
        number //= 10
        digits -= 1
    if not digits:
        return number
    from decimal import Decimal

    return Decimal((int(number < 0), tuple(map(int, str(abs(number)))), -digits))


def _common(balances: Mapping[str, Amount], digits: int = 0) -> tuple[dict[str, int], int]:
    """The balances as ints of a common unit, 10**-digits (at least the
    ``digits`` given, and enough for every balance), and those digits.
    ``ValueError`` if they do not sum to zero."""
    digits = max([digits] + [_digits_after_point(_checked(value)) for value in balances.values()])
    scaled = {name: _scaled(value, digits) for name, value in balances.items()}
    total = sum(scaled.values())
    if total:
        raise ValueError(f"the balances sum to {_unscaled(total, digits)}, not 0")
    return scaled, digits


# The fewest payments --------------------------------------------------------------------


def _greedy(players: list[tuple[int, str]]) -> list[tuple[str, str, int]]:
    """(payer, payee, amount): the largest debtor pays the largest creditor, ties
    by name, until everyone is square; at most one payment fewer than players."""
    owed = sorted(((amount, name) for amount, name in players if amount > 0), key=lambda x: (-x[0], x[1]))
    owing = sorted(((-amount, name) for amount, name in players if amount < 0), key=lambda x: (-x[0], x[1]))
    owed_left = [amount for amount, _ in owed]
    owing_left = [amount for amount, _ in owing]
    payments = []
    i = j = 0
    while i < len(owing_left) and j < len(owed_left):
        pay = min(owing_left[i], owed_left[j])
        payments.append((owing[i][1], owed[j][1], pay))
        owing_left[i] -= pay
        owed_left[j] -= pay
        if owing_left[i] == 0:
            i += 1
        if owed_left[j] == 0:
            j += 1
    return payments


def _pairs(players: list[tuple[int, str]]) -> tuple[list[list[tuple[int, str]]], list[tuple[int, str]]]:
    """Matching pairs (one owed x, one owing x, names paired in order) and the
    players left, both in order of balance, then name."""
    owing: dict[int, list[tuple[int, str]]] = {}
    for player in players:
        if player[0] < 0:
            owing.setdefault(-player[0], []).append(player)
    paired: set[str] = set()
    pairs = []
    for player in players:
        waiting = owing.get(player[0]) if player[0] > 0 else None
        if waiting:
            debtor = waiting.pop(0)
            pairs.append([debtor, player])
            paired.update((debtor[1], player[1]))
    return pairs, [player for player in players if player[1] not in paired]


def _split(values: list[int]) -> list[list[int]]:
    """The first split (see the module's docstring) of ``values`` (non-zero,
    ascending, no x with -x, summing to zero) into the most groups that sum to
    zero, as lists of positions in ``values``."""
    if not values:
        return []
    distinct: list[int] = []
    counts: list[int] = []
    for value in values:
        if distinct and distinct[-1] == value:
            counts[-1] += 1
        else:
            distinct.append(value)
            counts.append(1)
    # A set of balances is an int: a field of `width` bits per distinct balance, the
    # lowest for the lowest, holding how many players with it are in the set.
    width = max(counts).bit_length()
    fields = range(len(distinct))
    full = sum(count << (i * width) for i, count in enumerate(counts))

    # Every set that sums to zero: sets of one half against sets of the other, each as
    # (sum, code, how many of each balance it has).
    def subsets(half: range) -> list[tuple[int, int, tuple[int, ...]]]:
        found: list[tuple[int, int, tuple[int, ...]]] = [(0, 0, ())]
        for i in half:
            value, shift, more = distinct[i], i * width, range(counts[i] + 1)
            found = [(total + k * value, code + (k << shift), kept + (k,)) for total, code, kept in found for k in more]
        return found

    sizes = [count + 1 for count in counts]
    middle = min(range(len(sizes) + 1), key=lambda k: max(_product(sizes[:k]), _product(sizes[k:])))
    second: dict[int, list[tuple[int, tuple[int, ...]]]] = {}
    for total, code, kept in subsets(range(middle, len(distinct))):
        second.setdefault(-total, []).append((code, kept))
    zero = [
        (sum(kept) + sum(other_kept), code + other, kept + other_kept)
        for total, code, kept in subsets(range(middle))
        for other, other_kept in second.get(total, ())
    ]
    zero.sort()
    del zero[0]  # the empty set

    # Only the minimal ones can be groups of a best split (a group with a smaller one
    # in it splits in two).  Smallest first: a set is minimal when it holds none of
    # the minimal sets found before it.  A list of sets is an int with a bit per set;
    # within[i][c]: those with at most c players of balance i (-1: all of them).
    def listed(within: list[list[int]], kept: tuple[int, ...], number: int) -> None:
        for i, k in enumerate(kept):
            for c in range(k, counts[i]):
                within[i][c] |= 1 << number

    def holding(within: list[list[int]], kept: tuple[int, ...], found: int) -> int:
        return reduce(and_, map(getitem, within, kept), found)

    within = [[0] * count + [-1] for count in counts]
    minimal: list[tuple[int, tuple[int, ...]]] = []
    for _, code, kept in zero:
        if not holding(within, kept, -1):
            listed(within, kept, len(minimal))
            minimal.append((code, kept))

    # In the order of the split rule: by first balance, then by their balances in order.
    def order(entry: tuple[int, tuple[int, ...]]) -> tuple[int, tuple[int, ...]]:
        kept = entry[1]
        return next(i for i in fields if kept[i]), tuple(value for value, k in zip(distinct, kept) for _ in range(k))

    minimal.sort(key=order)
    within = [[0] * count + [-1] for count in counts]
    starting = [0 for _ in fields]  # the sets whose first balance is i
    sets: list[tuple[int, tuple[int, ...], int, int]] = []
    for number, (code, kept) in enumerate(minimal):
        listed(within, kept, number)
        starting[order((code, kept))[0]] |= 1 << number
        owing = sum(k for value, k in zip(distinct, kept) if value < 0)
        sets.append((code, kept, owing, sum(kept) - owing))

    def bound(owing: int, owed: int) -> int:
        return min(owing, owed, (owing + owed) // 3)

    most: dict[int, int] = {0: 0}
    chosen: dict[int, int] = {}

    def search(left: int, kept: tuple[int, ...], owing: int, owed: int) -> int:
        known = most.get(left)
        if known is not None:
            return known
        best, pick, ceiling = 0, left, bound(owing, owed)
        first = ((left & -left).bit_length() - 1) // width
        found = holding(within, kept, starting[first])
        while found:
            low = found & -found
            found ^= low
            code, code_kept, code_owing, code_owed = sets[low.bit_length() - 1]
            if 1 + bound(owing - code_owing, owed - code_owed) <= best:
                continue
            rest = tuple(map(sub, kept, code_kept))
            groups = 1 + search(left - code, rest, owing - code_owing, owed - code_owed)
            if groups > best:
                best, pick = groups, code
                if best == ceiling:
                    break
        most[left], chosen[left] = best, pick
        return best

    owing = sum(1 for value in values if value < 0)
    search(full, tuple(counts), owing, len(values) - owing)
    starts = [0]
    for count in counts[:-1]:
        starts.append(starts[-1] + count)
    groups = []
    left = full
    while left:
        code = chosen[left]
        group: list[int] = []
        for i in range(len(distinct)):
            k = (code >> (i * width)) & ((1 << width) - 1)
            group.extend(range(starts[i], starts[i] + k))
            starts[i] += k
        groups.append(group)
        left -= code
    return groups


def _product(numbers: list[int]) -> int:
    result = 1
    for number in numbers:
        result *= number
    return result


def fewest(balances: Mapping[str, Amount], *, limit: int = LIMIT) -> Settlement:
    """The fewest payments that settle ``balances`` (name to amount, positive:
    is owed; summing to zero), moving the least money; the method and the
    rules for ties are in the module's docstring.  Past ``limit`` players with
    a non-zero balance left after the matching pairs, no search: at most one
    payment fewer than players, and ``exact`` false.  The amounts are exact:
    ints when whole, else Decimals.  ``ValueError`` if the balances do not sum
    to zero, ``TypeError`` if one is not an int or a Decimal.

    >>> fewest({"Amy": 5, "Bob": -5, "Cy": 0}).transfers
    [Transfer(payer='Bob', payee='Amy', amount=5)]
    """
    scaled, digits = _common(balances)
    players = sorted((amount, name) for name, amount in scaled.items() if amount)
    pairs, rest = _pairs(players)
    payments = [(debtor[1], creditor[1], creditor[0]) for debtor, creditor in pairs]
    exact = len(rest) <= limit
    if exact:
        for group in _split([amount for amount, _ in rest]):
            payments.extend(_greedy([rest[position] for position in group]))
    else:
        payments.extend(_greedy(rest))
    payments.sort()
    # The groups: the players joined by payments.
    joined: dict[str, str] = {}

    def root(name: str) -> str:
        while joined.get(name, name) != name:
            name = joined[name]
        return name

    for payer, payee, _ in payments:
        joined[root(payer)] = root(payee)
    members: dict[str, list[str]] = {}
    for _, name in players:
        members.setdefault(root(name), []).append(name)
    groups = sorted(sorted(group) for group in members.values())
    moved = _unscaled(sum(amount for amount, _ in players if amount > 0), digits)
    transfers = [Transfer(payer, payee, _unscaled(amount, digits)) for payer, payee, amount in payments]
    return Settlement(transfers, exact, groups, moved)


# Rounding to a unit -----------------------------------------------------------------------


def rounded(balances: Mapping[str, Amount], unit: Amount) -> dict[str, Amount]:
    """``balances`` (summing to zero) as multiples of ``unit`` that still sum
    to zero, by the largest remainder method (see the module); the names in
    the order given.  ``ValueError`` if ``unit`` is not positive or the
    balances do not sum to zero.

    >>> rounded({"Amy": 7, "Bob": -1, "Cy": -6}, 5)
    {'Amy': 5, 'Bob': 0, 'Cy': -5}
    """
    if _checked(unit) <= 0:
        raise ValueError("the unit must be positive")
    scaled, digits = _common(balances, _digits_after_point(unit))
    size = _scaled(unit, digits)
    result = {name: amount // size * size for name, amount in scaled.items()}  # rounded down
    up = -sum(result.values()) // size  # the remainders sum to this many units: 0 <= up < players
    for name in sorted(scaled, key=lambda name: (result[name] - scaled[name], name))[:up]:
        result[name] += size
    return {name: _unscaled(result[name], digits) for name in balances}
