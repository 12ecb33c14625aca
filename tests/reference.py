"""A deliberately simple reference scorer, written from docs/rules.md alone.

It shares no code with cpscore's evaluator, naturals or settlement: rows are
judged by sorting ranks and counting groups, naturals by counting cards or by
trying every arrangement of an unset hand, and each pair is settled by the
steps of docs/rules.md 4 written out one by one.  Only the input records
(cards, hands, seats, rule sets) are cpscore's.  Speed is not a goal:
clarity is.  tests/test_reference.py compares cpscore's settlement with it.

Row keys are plain tuples ``(category, ranks)`` where greater is stronger:
the category number below, then the rank groups, the biggest group first and
higher ranks first within a size (a straight has one rank, its top card).

Where docs/rules.md leaves a point open, the reading chosen here is said at
the place it is made (look for "Reading:").
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Collection, Mapping

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

#: docs/rules.md 7, the table of naturals, top to bottom (all-high and all-low share a line).
NATURAL_TABLE = (
    ("clean-dragon",),
    ("dragon",),
    ("twelve-royals",),
    ("three-straight-flushes",),
    ("three-quads",),
    ("all-high", "all-low"),
    ("one-colour",),
    ("four-trips",),
    ("six-pairs",),
    ("three-straights",),
    ("three-flushes",),
    ("no-broadway",),
)
LINE = {natural: line for line, names in enumerate(NATURAL_TABLE) for natural in names}
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


def groups(ranks) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(group sizes, group ranks): the biggest group first, then the higher rank."""
    counts = Counter(ranks)
    order = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    return tuple(counts[r] for r in order), tuple(order)


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


def front_beats_five(front: tuple, five: tuple) -> bool:
    """docs/rules.md 2, front against middle: category first, then the front's
    ranks against the first ranks of the five-card row; the same ranks as the
    start of the five-card row leave the five-card row higher."""
    category, ranks = front
    return (category, ranks) > (five[0], five[1][: len(ranks)])


def category_id(key: tuple) -> str:
    if key[0] == STRAIGHT_FLUSH and key[1][0] == 14:
        return "royal-flush"
    return CATEGORY_NAMES[key[0]]


class Rows:
    """A set hand as it plays: each row's key, the foul, the royalties it holds."""

    def __init__(self, hand, rules) -> None:
        self.hand = hand
        self.front = three_key(hand.front)
        self.middle = five_key(hand.middle, rules.wheel)
        self.back = five_key(hand.back, rules.wheel)
        self.low_middle = rules.low_middle
        if rules.low_middle:  # docs/rules.md 10: the only setting rule left is back >= front
            self.fouled = front_beats_five(self.front, self.back)
        else:  # docs/rules.md 3
            self.fouled = self.middle > self.back or front_beats_five(self.front, self.middle)
        self.royalties = (0, 0, 0) if self.fouled else royalties_held(hand, rules)

    def row_outcomes(self, other: Rows) -> tuple[int, int, int]:
        """Each row from this hand's side, 1 won, 0 tied, -1 lost."""

        def outcome(mine, theirs) -> int:
            return (mine > theirs) - (mine < theirs)

        if self.low_middle:  # deuce-to-seven: the lower middle wins (aces high, no wheel)
            middle = outcome(five_key(other.hand.middle, None), five_key(self.hand.middle, None))
        else:
            middle = outcome(self.middle, other.middle)
        return (outcome(self.front, other.front), middle, outcome(self.back, other.back))


def royalty_of_row(rules, row: str, cards) -> object:
    """The table entry a row earns (docs/rules.md 6), read from the table's
    entries directly: front keys are the group (``QQ``, ``777``), middle and
    back keys the category, a royal flush falling back on ``straight-flush``."""
    table = rules.royalties.table
    if row == "front":
        category, order = three_key(cards)
        if category == PAIR:
            return table.front.get(LETTERS[order[0]] * 2, 0)
        if category == TRIPS:
            return table.front.get(LETTERS[order[0]] * 3, 0)
        return 0
    entries = table.middle if row == "middle" else table.back
    name = category_id(five_key(cards))
    if name == "royal-flush" and name not in entries:
        name = "straight-flush"
    return entries.get(name, 0)


def royalties_held(hand, rules) -> tuple:
    """Each row's royalty for a hand that is not fouled: the table value,
    doubled in the 2s row (spade bonus), then only the ``max_per_hand``
    largest kept."""
    if rules.royalties.mode == "none":
        return (0, 0, 0)
    amounts = []
    for name, cards in zip(ROWS, hand.rows):
        amount = 0 if (name == "middle" and rules.low_middle) else royalty_of_row(rules, name, cards)
        if rules.royalties.spade_bonus and any(rank(c) == 2 and c.suit.value == "s" for c in cards):
            amount = amount * 2
        amounts.append(amount)
    keep = rules.royalties.max_per_hand
    if keep:
        # Reading: among equal royalties the one nearer the front is kept (docs/rules.md
        # says only "its N largest").
        order = sorted(range(3), key=lambda i: (-amounts[i], i))
        kept = [i for i in order if amounts[i]][:keep]
        amounts = [amounts[i] if i in kept else 0 for i in range(3)]
    return tuple(amounts)


# Naturals -----------------------------------------------------------------------------


class NaturalClaim:
    def __init__(self, id: str, units, key) -> None:
        self.id = id
        self.units = units
        self.key = key  # the tie-break with the same natural, or None: a tie

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
    f = front_row_as(kind, front, rules.ace_high_front_straight)
    if b is None or m is None or f is None:
        return None
    return (b, m, f)


def best_arrangement_key(kind: str, cards, rules, wheel: str) -> tuple | None:
    """The strongest (back, middle, front) over every split of 13 cards into
    rows of ``kind``, or None: every back of ``kind``, strongest first, then
    every middle of the 8 cards left (at most 1,287 x 56 = 72,072 splits)."""
    if kind != "straight" and not suits_split_into_rows(cards):
        return None
    codes = tuple(sorted(card.code for card in cards))
    return _best_arrangement(kind, codes, tuple(cards), wheel, rules.ace_high_front_straight)


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


def _best_arrangement(kind, codes, cards, wheel, ace_high):
    memo = (kind, codes, wheel, ace_high)
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
            key = (back_key, middle_key, front_key)
            if best is None or key > best:
                best = key
    if len(_BEST) > 10_000:
        _BEST.clear()
    _BEST[memo] = best
    return best


def natural_key(natural: str, cards, hand, rules, wheel: str):
    """``(True, tie-break key)`` if the 13 cards make ``natural`` (``hand`` is
    the set hand, or None for an unset one), else ``(False, None)``."""
    ranks = ranks_of(cards)
    counts = Counter(ranks)
    if natural in ROW_BASED:
        kind = ROW_BASED[natural]
        if hand is not None:  # a set hand counts only as it is set
            key = rows_natural_key(kind, hand.back, hand.middle, hand.front, rules, wheel)
        else:
            key = best_arrangement_key(kind, cards, rules, wheel)
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
    if natural == "one-colour":
        return (len({card.suit.red for card in cards}) == 1, None)
    if natural == "four-trips":
        return (sum(1 for n in counts.values() if n >= 3) >= 4, None)
    if natural == "six-pairs":
        pairs = sorted((r for r, n in counts.items() for _ in range(n // 2)), reverse=True)
        if len(pairs) < 6:
            return (False, None)
        odd = [r for r, n in counts.items() if n % 2]
        # Equal pairs tie whatever the odd card, unless six_pairs_odd_card compares it last.
        return (True, (tuple(pairs), max(odd) if rules.six_pairs_odd_card else 0))
    if natural == "no-broadway":
        return (not any(r in (11, 12, 13) for r in ranks), None)
    raise ValueError(natural)


def claim(cards, hand, rules, natural_wheel: str | None = None) -> NaturalClaim | None:
    """The natural the cards claim: the one worth the most; in equal value,
    reading: the one higher in docs/rules.md 7's table.  ``natural_wheel``
    overrides the rules' ``wheel`` in the row-based naturals' tie-breaks
    (see :func:`settle`)."""
    enabled = dict(rules.naturals)
    wheel = natural_wheel or rules.wheel
    for natural in sorted(enabled, key=lambda n: (-enabled[n], LINE[n])):
        made, key = natural_key(natural, cards, hand, rules, wheel)
        if made:
            return NaturalClaim(natural, enabled[natural], key)
    return None


def natural_outcome(a: NaturalClaim, b: NaturalClaim) -> int:
    """1 if a collects from b, -1 if it pays, 0 for a tie (docs/rules.md 7)."""
    if a.units != b.units:
        return 1 if a.units > b.units else -1
    if LINE[a.id] != LINE[b.id]:
        return 1 if LINE[a.id] < LINE[b.id] else -1
    if a.id != b.id or a.key is None:  # all-high against all-low, or no tie-break
        return 0
    return (a.key > b.key) - (a.key < b.key)


# Settlement ---------------------------------------------------------------------------


class Outcome:
    """The reference's settlement of a deal, as plain values."""

    def __init__(self, players: dict, pairs: dict, owners: dict) -> None:
        self.players = players  # name -> dict(units, amount, natural, foul, fantasyland)
        self.pairs = pairs  # (a, b) -> (units b pays a, amount)
        self.owners = owners  # owner -> (units, amount)


def fantasyland(seat, rows: Rows | None, rules, repeats: Collection[str]) -> tuple | None:
    """(status, cards next deal) for docs/rules.md 9, or None without Fantasyland.
    Reading: a hand whose rows do not play (a natural, a surrender) neither
    enters nor stays."""
    if rules.fantasyland == "none":
        return None
    playing = seat.fantasyland
    progressive = rules.fantasyland == "progressive"
    if rows is None or rows.fouled or (playing and seat.name in repeats):
        return ("leaves", None) if playing else ("none", None)
    front_category, front_ranks = rows.front
    if playing:
        plain_middle = five_key(rows.hand.middle)[0]
        plain_back = five_key(rows.hand.back)[0]
        if front_category == TRIPS or plain_middle >= FULL_HOUSE or plain_back >= QUADS:
            return ("stays", 14 if progressive else 13)
        return ("leaves", None)
    if front_category == TRIPS:
        return ("enters", 17 if progressive else 13)
    if front_category == PAIR and front_ranks[0] >= 12:
        return ("enters", {12: 14, 13: 15, 14: 16}[front_ranks[0]] if progressive else 13)
    return ("none", None)


def scooped(outcomes: tuple[int, int, int]) -> bool:
    return outcomes == (1, 1, 1)


def settle(
    deal,
    rules,
    stake=1,
    pair_stakes: Mapping | None = None,
    repeats: Collection[str] = (),
    natural_wheel: str | None = None,
) -> Outcome:
    """Settle a deal as docs/rules.md 4 describes; :class:`Invalid` where it cannot be.

    ``natural_wheel="lowest"`` ranks A-2-3-4-5 as the lowest straight in the
    row-based naturals' tie-breaks whatever the ``wheel`` setting, as cpscore
    does today; by default the setting applies there too, as docs/rules.md 2
    places the wheel for every five-card row (tests/test_reference.py has
    the disagreement)."""
    pair_stakes = pair_stakes or {}
    seats = list(deal.seats)
    if any(seat.surrendered for seat in seats) and rules.surrender is None:
        raise Invalid("a surrender under rules with no surrender")

    naturals: list[NaturalClaim | None] = []
    rows: list[Rows | None] = []
    for seat in seats:
        natural = None
        if not seat.surrendered and not seat.waive:
            natural = claim(seat.cards, seat.hand, rules, natural_wheel)
        if natural is None and seat.hand is None and not seat.surrendered:
            raise Invalid(f"{seat.name}: an unset hand that makes no natural")
        naturals.append(natural)
        plays_rows = natural is None and not seat.surrendered and seat.hand is not None
        rows.append(Rows(seat.hand, rules) if plays_rows else None)

    def opponents(i: int) -> list[int]:
        return [j for j in range(len(seats)) if seats[j].owner != seats[i].owner]

    def rows_played(i: int, j: int) -> tuple[int, int, int] | None:
        """Row outcomes from i's side, if the pair plays its rows."""
        a, b = rows[i], rows[j]
        if a is None or b is None:
            return None
        if a.fouled and b.fouled:
            return (0, 0, 0)
        if a.fouled:
            return (-1, -1, -1)
        if b.fouled:
            return (1, 1, 1)
        return a.row_outcomes(b)

    def home_run(i: int) -> bool:
        """docs/rules.md 8: scoops every opponent, with at least two opponents."""
        others = opponents(i)
        return rules.home_run and len(others) >= 2 and all(rows_played(i, j) == (1, 1, 1) for j in others)

    def pair_units(i: int, j: int):
        """What j pays i."""
        natural_i, natural_j = naturals[i], naturals[j]
        if natural_i is not None or natural_j is not None:  # step 1
            if natural_i is not None and natural_j is not None:
                result = natural_outcome(natural_i, natural_j)
                return natural_i.units if result > 0 else -natural_j.units if result < 0 else 0
            return natural_i.units if natural_i is not None else -natural_j.units
        a, b = seats[i], seats[j]
        if a.surrendered or b.surrendered:  # step 2
            if a.surrendered and b.surrendered:
                return 0
            if a.surrendered:
                return 0 if rows[j] is not None and rows[j].fouled else -rules.surrender
            return 0 if rows[i] is not None and rows[i].fouled else rules.surrender
        outcomes = rows_played(i, j)  # steps 3 and 4
        total = sum(outcomes)
        won, lost = outcomes.count(1), outcomes.count(-1)
        if rules.method == "2-4":  # step 5 (docs/rules.md 5)
            total += (1 if won >= 2 else 0) - (1 if lost >= 2 else 0)
        elif rules.method == "1-6":
            total += (3 if won == 3 else 0) - (3 if lost == 3 else 0)
        elif rules.method == "1-4":  # one more unit for a scoop only
            total += (1 if won == 3 else 0) - (1 if lost == 3 else 0)
        mode = rules.royalties.mode
        if mode == "holder":  # docs/rules.md 6
            total += sum(rows[i].royalties) - sum(rows[j].royalties)
        elif mode in ("row-bonus", "row-value"):
            for outcome, mine, theirs in zip(outcomes, rows[i].royalties, rows[j].royalties):
                if outcome == 0:
                    continue
                winner, loser = (mine, theirs) if outcome > 0 else (theirs, mine)
                if not winner or (rules.royalties.cancel_when_both and loser):
                    continue  # the row pays its 1 unit, counted above
                if mode == "row-bonus":
                    total += outcome * winner  # 1 + the table value
                else:
                    total += outcome * (winner - 1)  # the table value instead of 1
        multiplier = 1  # step 6 (docs/rules.md 8)
        if outcomes in ((1, 1, 1), (-1, -1, -1)):
            if rules.scoop_doubles:
                multiplier *= 2
            if home_run(i if outcomes == (1, 1, 1) else j):
                multiplier *= 2
        return total * multiplier

    units = {seat.name: 0 for seat in seats}
    money = {seat.name: 0 for seat in seats}
    pairs = {}
    for i in range(len(seats)):
        for j in range(i + 1, len(seats)):
            a, b = seats[i], seats[j]
            if a.owner == b.owner:  # criss-cross: one player's hands never meet
                continue
            paid = pair_units(i, j)
            amount = paid * pair_stakes.get(frozenset((a.owner, b.owner)), stake)
            pairs[a.name, b.name] = (paid, amount)
            units[a.name] += paid
            units[b.name] -= paid
            money[a.name] += amount
            money[b.name] -= amount

    players = {}
    for seat, natural, hand_rows in zip(seats, naturals, rows):
        players[seat.name] = {
            "units": units[seat.name],
            "amount": money[seat.name],
            "natural": natural.id if natural else None,
            "foul": bool(hand_rows is not None and hand_rows.fouled),
            "fantasyland": fantasyland(seat, hand_rows, rules, repeats),
        }
    owners: dict = {}
    for seat in seats:
        before = owners.get(seat.owner, (0, 0))
        owners[seat.owner] = (before[0] + units[seat.name], before[1] + money[seat.name])
    return Outcome(players, pairs, owners)
