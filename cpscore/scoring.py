"""Settlement: a pure function from a deal, a rule set and stakes to a result
that carries its own reasons (docs/rules.md 3-9).

Every pair of hands of different players is settled on its own (naturals,
then surrender, then fouls and rows, royalties, multipliers, stake); a
player's result is the sum over opponents, so every deal is zero-sum.  Units
and money are exact (:mod:`cpscore.amounts`: ``int`` when whole, ``Decimal``
otherwise).

>>> from cpscore.deal import build_deal, entry_from_argument
>>> from cpscore.rules import get_rules
>>> deal = build_deal([entry_from_argument("Amy=Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d"),
...                    entry_from_argument("Bob=Qs Jd 3c / Th Tc 8d 8s 3d / Kh Qh Jh 8h 2h")])
>>> result = settle(deal, get_rules("2-4"))
>>> [(player.name, player.units) for player in result.players]
[('Amy', 2), ('Bob', -2)]
>>> result.pairs[0].rows
(1, -1, 1)
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from operator import itemgetter
from typing import Any

from cpscore.amounts import Amount
from cpscore.cards import RANK_OF, ROW_NAMES, SUIT_OF, Card, Hand, Rank, card_code
from cpscore.deal import Deal, Seat
from cpscore.errors import DealError, shown
from cpscore.hands import (
    Foul,
    category,
    deuce_to_seven,
    digits,
    evaluate3,
    evaluate5,
    evaluate_hand,
    find_foul,
    plain_of,
    rank_letters,
    wheel_second,
)
from cpscore.naturals import Facts, Natural, compare, detect, screen_of
from cpscore.records import Record
from cpscore.rules import METHOD_BONUSES, RoyaltyTable, RuleSet
from cpscore.values import CATEGORY_SHIFT, FULL_HOUSE, PAIR, QUADS, STEEL_WHEEL, TRIPS, WHEEL, encode

TWO_OF_SPADES = card_code(2, 3)  # the card the spade bonus looks for (suit 3: spades)


class Row(Record):
    """One row of a hand: its cards as written, ``value`` as it ranks under
    the rules (the variants change it), ``plain`` its poker value (names and
    royalty tables read it), and the royalty it holds."""

    __slots__ = ("name", "cards", "value", "plain", "royalty")

    def __init__(self, name: str, cards: tuple[Card, ...], value: int, plain: int, royalty: Amount) -> None:
        self.name = name
        self.cards = cards
        self.value = value
        self.plain = plain
        self.royalty = royalty

    @property
    def category(self) -> str:
        """The category id of the row as named (:attr:`named`): a low middle's as the low it is."""
        return category(self.named)

    @property
    def named(self) -> int:
        """The value the row is named by: its poker value, or for a low middle
        (its value negated, docs/rules.md 10) the low it is (A-5-4-3-2 is ace high)."""
        return deuce_to_seven(self.plain) if self.value < 0 else self.plain


class Core(Record):
    """What settlement needs of a set hand, as plain values: each row's value
    as it ranks under the rules, its poker value, the foul, each row's royalty.
    The kernel works on these; :class:`Assessment` adds the cards and reasons
    for the views."""

    __slots__ = ("values", "plains", "foul", "royalties", "spade", "broken")

    def __init__(
        self,
        values: tuple[int, int, int],
        plains: tuple[int, int, int],
        foul: Foul | None,
        royalties: tuple[Amount, Amount, Amount],
        spade: int = -1,
        broken: Amount = 0,
    ) -> None:
        self.values = values  # with suit_order, each row's suits below its ranks: rows never tie
        self.plains = plains
        self.foul = foul
        self.royalties = royalties
        self.spade = spade  # with spade_bonus "row": the row (0-2) holding 2s, else -1
        self.broken = broken  # broken_royalties: what its split quads and straight flushes earn


class Assessment(Record):
    """A set hand judged on its own: row values, foul, royalties it holds.
    Its rows (with their cards) are made from the core when first asked for:
    a session's table reads only the foul."""

    __slots__ = ("hand", "core", "_rows")
    _args = ("hand", "core")

    def __init__(self, hand: Hand, core: Core) -> None:
        self.hand = hand
        self.core = core
        self._rows: tuple[Row, Row, Row] | None = None

    @property
    def rows(self) -> tuple[Row, Row, Row]:
        rows = self._rows
        if rows is None:
            core = self.core
            front, middle, back = (
                Row(name, cards, value, plain, amount)
                for name, cards, value, plain, amount in zip(
                    ROW_NAMES, self.hand.rows, core.values, core.plains, core.royalties
                )
            )
            rows = self._rows = (front, middle, back)
        return rows

    @property
    def foul(self) -> Foul | None:
        return self.core.foul

    @property
    def royalty_total(self) -> Amount:
        return sum(self.core.royalties) + self.core.broken


class Fantasyland(Record):
    """OFC Fantasyland for the next deal (docs/rules.md 9): whether the player played
    this deal in it, whether they play the next one in it, and with how many cards."""

    __slots__ = ("playing", "next", "cards")

    def __init__(self, playing: bool, next: bool, cards: int | None) -> None:
        self.playing = playing
        self.next = next
        self.cards = cards

    @property
    def status(self) -> str:
        """``enters``, ``stays``, ``leaves`` or ``none``."""
        if self.playing:
            return "stays" if self.next else "leaves"
        return "enters" if self.next else "none"


class PlayerResult(Record):
    """One hand's result: its seat, its assessment (None when it has no rows
    that play), the natural it claims, Fantasyland, and its net units and money."""

    __slots__ = ("seat", "assessment", "natural", "fantasyland", "units", "amount")

    def __init__(
        self,
        seat: Seat,
        assessment: Assessment | None,
        natural: Natural | None,
        fantasyland: Fantasyland | None,
        units: Amount,
        amount: Amount,
    ) -> None:
        self.seat = seat
        self.assessment = assessment
        self.natural = natural
        self.fantasyland = fantasyland
        self.units = units
        self.amount = amount

    @property
    def name(self) -> str:
        return self.seat.name

    @property
    def hand(self) -> Hand | None:
        return self.seat.hand

    @property
    def foul(self) -> Foul | None:
        return self.assessment.foul if self.assessment else None


#: The fields of a settled pair after its two hands (:class:`PairResult`, :class:`PairOutcome`).
_PAIR_FIELDS = (
    "decided_by",
    "rows",
    "row_units",
    "bonus",
    "royalties",
    "multiplier",
    "natural",
    "surrender",
    "units",
    "stake",
    "amount",
    "penalty",
    "split",
    "owed",
    "cut",
    "notes",
    "doubled",
    "aces",
)


class PairResult(Record):
    """One pair, from ``a``'s side: ``units`` is what b pays a (negative when a
    pays).  ``decided_by`` is ``natural``, ``surrender``, ``rows`` or ``result``; then
    ``units = (row_units + bonus + royalties) * multiplier + penalty + split
    + natural + surrender + aces``.  ``rows`` are front, middle, back as 1 won, 0 tied,
    -1 lost (all 0 when a natural or a surrender decided the pair), and
    ``notes`` what decided each (``suit``, ``banker`` or ``""``).  ``amount`` is
    the money paid: ``units * stake``, or less when a cap or a stack ``cut`` it
    from ``owed``.  ``doubled`` says why the multiplier is not 1: ``scoop``
    (``scoop_doubles``), ``home-run`` and ``horse`` (the horse card doubles the
    whole pair, a natural's and a surrender's too).  The kernel's :class:`PairOutcome`
    has the same fields, with seat indexes for the names."""

    __slots__ = ("a", "b", *_PAIR_FIELDS)

    def __init__(
        self,
        a: str,
        b: str,
        decided_by: str,
        rows: tuple[int, int, int],
        row_units: Amount,
        bonus: Amount,
        royalties: Amount,
        multiplier: int,
        natural: Amount,
        surrender: Amount,
        units: Amount,
        stake: Amount,
        amount: Amount,
        penalty: Amount = 0,
        split: Amount = 0,
        owed: Amount = 0,
        cut: str = "",
        notes: tuple[str, str, str] = ("", "", ""),
        doubled: tuple[str, ...] = (),
        aces: Amount = 0,
    ) -> None:
        self.a = a
        self.b = b
        self.decided_by = decided_by
        self.rows = rows
        self.row_units = row_units  # 1 a row won, -1 a row lost
        self.bonus = bonus  # the method's bonus (2-4 overall unit, 1-6 scoop)
        self.royalties = royalties  # holder: a's royalties less b's; row modes: the row winners' extra
        self.multiplier = multiplier  # 1; 2 or 4 when doubled (see doubled)
        self.natural = natural
        self.surrender = surrender
        self.units = units
        self.stake = stake
        self.amount = amount
        self.penalty = penalty  # foul_plays: what the fouled hand pays beside its rows
        self.split = split  # home_run_split "equal": the share of the home run's total
        self.owed = owed  # with a cap or table stakes: the money before the cut (else 0)
        self.cut = cut  # "cap" or "stack" when it cut the payment, else ""
        self.notes = notes
        self.doubled = doubled  # why the pair is doubled: "scoop", "home-run", "horse"
        self.aces = aces  # ace_bonus: what the aces held paid, from a's side (never multiplied)


class OwnerTotal(Record):
    """A player's total over all their hands (criss-cross) or their one hand."""

    __slots__ = ("name", "units", "amount")

    def __init__(self, name: str, units: Amount, amount: Amount) -> None:
        self.name = name
        self.units = units
        self.amount = amount


class Settlement(Record):
    """A settled deal.  ``warnings`` are things the input asked for that had no
    effect (a waive on a hand that makes no natural): the views show them."""

    __slots__ = ("rules", "stake", "players", "pairs", "owners", "warnings", "banker", "standing")

    def __init__(
        self,
        rules: RuleSet,
        stake: Amount,
        players: tuple[PlayerResult, ...],
        pairs: tuple[PairResult, ...],
        owners: tuple[OwnerTotal, ...],
        warnings: tuple[str, ...] = (),
        banker: str | None = None,
        standing: Standing | None = None,
    ) -> None:
        self.rules = rules
        self.stake = stake
        self.players = players
        self.pairs = pairs
        self.owners = owners
        self.warnings = warnings
        self.banker = banker  # the banker's name under banker pairing, else None
        self.standing = standing  # net and stacks after the deal, for caps and table stakes


# One hand ---------------------------------------------------------------------------


def royalty(rules: RuleSet, row_name: str, value: int) -> Amount:
    """The royalty a row of this poker value holds under ``rules``, before the
    spade bonus and ``max_per_hand`` (0 without royalties)."""
    if rules.royalties.mode == "none":
        return 0
    table = rules.royalties.table
    if row_name == "middle" and rules.rows.low_middle:  # docs/rules.md 10: only a low's own entries pay
        low = deuce_to_seven(value)
        if low >> CATEGORY_SHIFT:  # a pair, a straight or a flush is no low
            return 0
        return table.lookup("middle", "low", "".join(_LETTERS[rank] for rank in digits(low)))
    kind = category(value)
    if row_name == "front":  # a front's key is its group: QQ for a pair of queens, 777 for trips
        return table.lookup(row_name, kind, rank_letters(value).replace("-", "")[: 3 if kind == "trips" else 2])
    if kind == "quads":  # quads-8 for four eights
        return table.lookup(row_name, kind, _LETTERS[digits(value)[0]] * 4)
    return table.lookup(row_name, "steel-wheel" if value == STEEL_WHEEL else kind)


class _Model:
    """The rule set's plan: what settling reads of a rule set, worked out once
    per rule set value (:meth:`RuleSet.derived`): the
    variants, and for each of the 27 ways three rows can go, the row units,
    the method's bonus, who scooped and the scoop's multiplier (from
    :func:`method_bonus` and :func:`_scoops`); and royalties remembered by row
    value (the same few values come up again and again in a session)."""

    __slots__ = (
        "by_rows",
        "mode",
        "second",
        "low_middle",
        "royalty_memos",
        "plain_royalties",
        "strength",
        "suit_foul",
        "spade_row",
        "broken",
        "paid",
        "naturals",
        "banks",
        "foul_plays",
        "ties_to_bank",
        "suits",
        "home_run",
        "equal",
        "cuts",
        "fantasyland",
        "simple",
        "holder",
        "screen",
        "five_royalties",
        "horse",
        "ace_bonus",
        "qualifier",
    )

    def __init__(self, rules: RuleSet) -> None:
        import itertools

        self.by_rows: dict[tuple[int, int, int], tuple[int, Amount, int, int]] = {}
        for front, middle, back in itertools.product((1, 0, -1), repeat=3):
            rows = (front, middle, back)
            scoop = _scoops(rows)
            multiplier = 2 if scoop and rules.multipliers.scoop_doubles else 1  # docs/rules.md 8
            self.by_rows[rows] = (sum(rows), method_bonus(rules.methods.method, rows), scoop, multiplier)
        royalties = rules.royalties
        self.mode = royalties.mode
        self.second = rules.rows.wheel == "second"
        self.low_middle = rules.rows.low_middle
        qualifier = rules.rows.low_middle_qualifier  # the highest card of a qualifying low, as a number (0: any)
        self.qualifier = 0 if qualifier is None else Rank(qualifier).number
        self.royalty_memos: tuple[dict[int, Amount], dict[int, Amount], dict[int, Amount]] = ({}, {}, {})
        # Royalties are looked up and nothing else: no spade bonus, no limit per hand.
        self.plain_royalties = not royalties.spade_bonus and not royalties.max_per_hand
        #: With suit_order, each suit's strength by suit code (3 highest), else None.
        self.strength = rules.suits.strength
        self.suit_foul = rules.suits.suit_foul
        self.spade_row = royalties.spade_bonus == "row"
        self.broken = royalties.broken_royalties
        self.paid = royalties.paid  # any royalty is paid
        # What the kernel asks of the rules on every deal, asked once.
        self.naturals = bool(rules.naturals.units)
        self.banks = rules.banker.banks
        self.foul_plays = rules.rows.foul_plays
        self.ties_to_bank = rules.banker.banker_wins_ties
        self.suits = rules.suits.suit_order is not None
        multipliers = rules.multipliers
        self.home_run = multipliers.home_run_min_opponents if multipliers.home_run else 0  # 0: none
        self.equal = multipliers.equal_split
        self.cuts = rules.money.cuts
        self.fantasyland = rules.ofc.played
        # Rows valued as dealt, royalties as looked up: the kernel values such hands itself.
        self.simple = not (
            self.second or self.low_middle or self.strength is not None or self.spade_row or self.broken
        ) and (self.plain_royalties or not self.paid)
        #: Royalty units of a pair are the holders' sums (mode holder, nothing row by row).
        self.holder = self.mode == "holder" and not self.spade_row and not royalties.higher_takes
        #: A five-card row's royalty by its category, in the middle and the back, where the
        #: category alone decides it (None for quads and straight flushes: by the row's ranks).
        self.five_royalties: tuple[list[Amount | None], list[Amount | None]] = ([], [])
        if self.simple and self.paid:
            self.five_royalties = tuple(  # type: ignore[assignment]
                [None if kind >= QUADS else royalty(rules, row, kind << CATEGORY_SHIFT) for kind in range(9)]
                for row in ("middle", "back")
            )
        #: The horse card's code (-1: no horse) and the units an ace collects (0: none).
        horse = rules.multipliers.horse
        self.horse = -1 if horse is None else _horse_code(horse)
        self.ace_bonus = royalties.ace_bonus
        #: The naturals' one screen (None without naturals).
        self.screen = screen_of(rules) if self.naturals else None


def _horse_code(text: str) -> int:
    from cpscore.cards import parse_card

    return parse_card(text).code


def _model(rules: RuleSet) -> _Model:
    """The rule set's :class:`_Model`, made once per rule set value (:meth:`RuleSet.derived`)."""
    return rules.derived(_Model)


def _royalties(
    rules: RuleSet,
    rows: tuple[Sequence[int], Sequence[int], Sequence[int]],
    plains: tuple[int, int, int],
    broken: Amount = 0,
) -> tuple[tuple[Amount, Amount, Amount], Amount]:
    """Each row's royalty and the broken royalty, after the spade bonus doubles
    the holder's row and ``max_per_hand`` keeps the largest."""
    model = _model(rules)
    if model.mode == "none" and not broken:
        return _NO_ROYALTIES, 0
    amounts = []
    for name, memo, plain in zip(ROW_NAMES, model.royalty_memos, plains):
        found = memo.get(plain)
        if found is None:
            found = memo[plain] = royalty(rules, name, plain)
        amounts.append(found)
    if model.plain_royalties:
        return (amounts[0], amounts[1], amounts[2]), broken
    if rules.royalties.spade_bonus:  # doubled before max_per_hand picks the largest
        amounts = [a * 2 if TWO_OF_SPADES in codes else a for a, codes in zip(amounts, rows)]
    amounts.append(broken)
    keep = rules.royalties.max_per_hand
    if keep and sum(1 for amount in amounts if amount) > keep:
        ranked = sorted(range(4), key=lambda i: (amounts[i], -i), reverse=True)[:keep]
        amounts = [amount if i in ranked else 0 for i, amount in enumerate(amounts)]
    front, middle, back, broken = amounts
    return (front, middle, back), broken


def suit_key(codes: Sequence[int], plain: int, strength: Sequence[int]) -> int:
    """A row's suits in the order its cards are compared (rank groups, biggest
    first, then higher rank; a straight from its top card, the wheel's ace last;
    the higher suit first in a group), as base-4 digits of their strength
    (docs/rules.md 12, ``suit_order``): of two rows of equal ranks, the greater key wins."""
    counts = [0] * 15
    for code in codes:
        counts[RANK_OF[code]] += 1
    wheel = plain in (WHEEL, STEEL_WHEEL)

    def place(code: int) -> tuple[int, int, int]:
        rank = RANK_OF[code]
        return (counts[rank], 1 if wheel and rank == 14 else rank, strength[SUIT_OF[code]])

    key = 0
    for code in sorted(codes, key=place, reverse=True):
        key = key * 4 + strength[SUIT_OF[code]]
    return key


SUIT_BITS = 10  # five suits of two bits below a row's value


def broken_royalties(codes: Sequence[int], rules: RuleSet) -> Amount:
    """What a set hand's split four-of-a-kinds and straight flushes earn, each
    as the back row would (docs/rules.md 6, ``broken_royalties``): a combination
    whole inside one row is paid as that row and its cards are not used again;
    each card counts once, and the largest total counts."""
    return broken_units(broken_combinations(codes, rules.royalties.table), _FRONT_BITS, _MIDDLE_BITS, _BACK_BITS)  # type: ignore[no-any-return]  # amounts in, an amount out


_FRONT_BITS, _MIDDLE_BITS, _BACK_BITS = 0b111, 0b11111 << 3, 0b11111 << 8  # a set hand's rows by card position


def broken_combinations(codes: Sequence[int], table: RoyaltyTable) -> list[tuple[int, Amount]]:
    """The four-of-a-kinds and straight flushes among ``codes``, each as a bit
    mask of its cards' positions in ``codes`` with what the back ``table``
    pays for it (docs/rules.md 6, ``broken_royalties``)."""
    where = {code: index for index, code in enumerate(codes)}
    found: list[tuple[int, Amount]] = []
    for rank in range(2, 15):
        cards = [card_code(rank, suit) for suit in range(4)]
        if all(card in where for card in cards):
            found.append((sum(1 << where[card] for card in cards), table.lookup("back", "quads", _LETTERS[rank] * 4)))
    for suit in range(4):
        for top in range(5, 15):
            cards = [card_code(14 if rank == 1 else rank, suit) for rank in range(top - 4, top + 1)]
            if all(card in where for card in cards):
                kind = "royal-flush" if top == 14 else "steel-wheel" if top == 5 else "straight-flush"
                found.append((sum(1 << where[card] for card in cards), table.lookup("back", kind, "")))
    return found


def broken_units(combinations: Sequence[tuple[int, Any]], front: int, middle: int, back: int) -> Any:
    """What the combinations (:func:`broken_combinations`) earn split across
    rows held as these position masks: one with a card not held (discarded)
    earns nothing; one whole inside a row is paid as that row, and its cards
    are not used again; of the others each card counts once, the largest
    total counts.  Units are amounts, or floats for the arranger's estimate."""
    held = front | middle | back
    whole = 0
    split = []
    for mask, units in combinations:
        if mask & ~held:
            continue  # a card of it is discarded
        if not mask & ~front or not mask & ~middle or not mask & ~back:
            whole |= mask
        else:
            split.append((mask, units))
    return best_disjoint([(mask, units) for mask, units in split if units and not mask & whole])


def best_disjoint(combinations: Sequence[tuple[int, Any]], start: int = 0, used: int = 0) -> Any:
    """The largest total of combinations (bit masks with units) that share no card."""
    top: Any = 0
    for index in range(start, len(combinations)):
        mask, units = combinations[index]
        if not mask & used:
            top = max(top, units + best_disjoint(combinations, index + 1, used | mask))
    return top


def stays_in_fantasyland(front: int, middle: int, back: int, middle_stays: bool = True) -> bool:
    """Whether a hand that is not fouled, with rows of these (plain) values,
    stays in Fantasyland (docs/rules.md 9): trips in front, a full house or
    better in the middle (``fantasyland_middle_stays``), or quads or better in the back."""
    shift = CATEGORY_SHIFT
    return front >> shift == TRIPS or (middle_stays and middle >> shift >= FULL_HOUSE) or back >> shift >= QUADS


def qualifies(middle: int, highest: int) -> bool:
    """Whether a middle of this (plain) value is a low of no card above ``highest``
    (``low_middle_qualifier``, docs/rules.md 10): no pair, straight or flush."""
    low = deuce_to_seven(middle)
    return not low >> CATEGORY_SHIFT and digits(low)[0] <= highest


#: The best low (7-5-4-3-2, not of one suit): it enters Fantasyland under "2-7".
BEST_LOW = encode(0, [7, 5, 4, 3, 2])


_LETTERS = "??23456789TJQKA"  # a rank's letter by its number, 2-14


def evaluate_core(front: Sequence[int], middle: Sequence[int], back: Sequence[int], rules: RuleSet) -> Core:
    """Rows given as card codes, valued under the rules' variants, with the foul
    and the royalties (0 when fouled)."""
    model = _model(rules)
    plains = front_value, middle_value, back_value = (evaluate3(front), evaluate5(middle), evaluate5(back))
    if model.second:
        middle_value, back_value = wheel_second(middle_value), wheel_second(back_value)
    if model.low_middle:
        foul = find_foul(front_value, middle_value, back_value, True)
        if foul is None and model.qualifier and not qualifies(plains[1], model.qualifier):
            foul = Foul("middle", "qualifier", plains[1], model.qualifier)
        middle_value = -deuce_to_seven(plains[1])  # lower wins: negate, so that greater is still better
    elif middle_value > back_value or front_value > middle_value:
        foul = find_foul(front_value, middle_value, back_value)
        if model.second and foul is not None:  # named by the rows' own values (a wheel is five-high)
            foul = foul._replace(stronger_value=plain_of(foul.stronger_value), weaker_value=plain_of(foul.weaker_value))
    else:
        foul = None
    strength = model.strength
    if strength is not None:  # suits below ranks: rows of equal ranks are told apart by their suits
        keys = [suit_key(codes, plain, strength) for codes, plain in zip((front, middle, back), plains)]
        if foul is None and model.suit_foul and middle_value == back_value and keys[1] > keys[2]:
            foul = Foul("middle", "back", plains[1], plains[2], True)
        front_value = (front_value << SUIT_BITS) | keys[0]
        middle_value = (middle_value << SUIT_BITS) | keys[1]
        back_value = (back_value << SUIT_BITS) | keys[2]
    values = (front_value, middle_value, back_value)
    spade = -1
    if model.spade_row:
        spade = 0 if TWO_OF_SPADES in front else 1 if TWO_OF_SPADES in middle else 2 if TWO_OF_SPADES in back else -1
    if foul is not None or not model.paid:
        return Core(values, plains, foul, _NO_ROYALTIES, spade)
    broken = broken_royalties((*front, *middle, *back), rules) if model.broken else 0
    royalties, broken = _royalties(rules, (front, middle, back), plains, broken)
    return Core(values, plains, None, royalties, spade, broken)


_NO_ROYALTIES: tuple[Amount, Amount, Amount] = (0, 0, 0)


def row_codes(hand: Hand) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """The card codes of a hand's front, middle and back (as :func:`evaluate_core` takes them)."""
    codes = hand.codes
    return codes[:3], codes[3:8], codes[8:]


def assess(hand: Hand, rules: RuleSet) -> Assessment:
    """Evaluate a hand's rows under the rules' variants, find a foul, and price
    its royalties (0 when fouled)."""
    return _assessment(hand, evaluate_core(*row_codes(hand), rules))


_FRONT_QUALIFIES = {12: 14, 13: 15, 14: 16}  # progressive cards for QQ, KK, AA; trips 17


def fantasyland(core: Core | None, rules: RuleSet, playing: bool, repeat: bool = False) -> Fantasyland | None:
    """Fantasyland next deal (docs/rules.md 9), or None when the rules have none.
    ``repeat``: this deal is the last repeat ``fantasyland_repeats`` allows the player, so they leave."""
    if not rules.ofc.played:
        return None
    if core is None or core.foul or (playing and (repeat or rules.ofc.fantasyland_repeats == 0)):
        return _LEAVES if playing else _NOT_IN  # with no repeats allowed, every Fantasyland deal is the last
    front = core.plains[0] >> CATEGORY_SHIFT
    if not playing and front < PAIR and rules.ofc.fantasyland != "2-7":
        return _NOT_IN
    kind = rules.ofc.fantasyland
    progressive = kind != "standard"  # progressive and 2-7 deal 14 to a player who stays
    if playing:
        # A low middle (docs/rules.md 10) never keeps a player in: only a middle played high does.
        middle_stays = rules.ofc.fantasyland_middle_stays and not rules.rows.low_middle
        stays = stays_in_fantasyland(*core.plains, middle_stays)
        return Fantasyland(True, stays, (14 if progressive else rules.ofc.fantasyland_cards) if stays else None)
    if kind == "2-7":  # docs/rules.md 9: KK or better in front, or 7-5-4-3-2 in the middle: 14; both: 15
        front_in = front == TRIPS or (front == PAIR and digits(core.plains[0])[0] >= 13)
        middle_in = core.plains[1] == BEST_LOW
        if front_in or middle_in:
            return Fantasyland(False, True, 15 if front_in and middle_in else 14)
        return _NOT_IN
    if front == TRIPS:
        return Fantasyland(False, True, 17 if progressive else rules.ofc.fantasyland_cards)
    if front == PAIR and digits(core.plains[0])[0] >= 12:  # a pair of queens or better
        pair = digits(core.plains[0])[0]
        return Fantasyland(False, True, _FRONT_QUALIFIES[pair] if progressive else rules.ofc.fantasyland_cards)
    return _NOT_IN


# Fantasyland as most hands have it (records are values: one of each serves every hand).
_NOT_IN, _LEAVES = Fantasyland(False, False, None), Fantasyland(True, False, None)


def _not_a_natural(rules: RuleSet, who: str = "") -> DealError:
    return DealError(
        f"{who}13 cards without rows are not a natural under the {rules.id} rules: set the hand as front / middle / back"
    )


class HandReport(Record):
    """One hand judged on its own, for ``cpscore check``."""

    __slots__ = ("hand", "cards", "assessment", "natural", "fantasyland")

    def __init__(
        self,
        hand: Hand | None,
        cards: tuple[Card, ...],
        assessment: Assessment | None,
        natural: Natural | None,
        fantasyland: Fantasyland | None,
    ) -> None:
        self.hand = hand
        self.cards = cards
        self.assessment = assessment
        self.natural = natural
        self.fantasyland = fantasyland


def check_hand(hand_or_cards: Hand | tuple[Card, ...], rules: RuleSet, playing_fantasyland: bool = False) -> HandReport:
    """Rows, foul, royalties, the natural the cards make and Fantasyland for one
    hand.  An unset hand that makes no natural is an error."""
    hand = hand_or_cards if isinstance(hand_or_cards, Hand) else None
    cards = hand_or_cards.cards() if isinstance(hand_or_cards, Hand) else tuple(hand_or_cards)
    natural = detect(cards, hand, rules)
    if hand is None and natural is None:
        if rules.naturals.false_claim is None:
            raise _not_a_natural(rules)
        natural = Natural(FALSE_CLAIM, rules.naturals.false_claim, None, None)  # docs/rules.md 7: a false claim
    assessment = assess(hand, rules) if hand else None
    core = assessment.core if assessment else None
    return HandReport(hand, cards, assessment, natural, fantasyland(core, rules, playing_fantasyland))


# One pair ---------------------------------------------------------------------------


def method_bonus(method: str, rows: tuple[int, int, int]) -> Amount:
    """The method's bonus from a's side (docs/rules.md 5)."""
    won, lost = rows.count(1), rows.count(-1)
    two, three = METHOD_BONUSES[method]
    return two * ((won >= 2) - (lost >= 2)) + three * ((won == 3) - (lost == 3))


def pair_royalties(
    rules: RuleSet, a: Core, b: Core, rows: tuple[int, int, int] | None = None
) -> tuple[tuple[Amount, ...], tuple[Amount, ...]]:
    """Each hand's row royalties in this pair: with ``spade_bonus = "row"`` the
    royalty a hand holds in the row where the other hand holds 2s is doubled
    too (the holder's own was doubled with the hand, docs/rules.md 6); with
    ``higher_takes`` and the pair's ``rows``, of two royalties in one row only
    the row's winner keeps its own (a tied row: neither)."""
    mine: tuple[Amount, ...] = a.royalties
    theirs: tuple[Amount, ...] = b.royalties
    if rules.royalties.spade_bonus == "row":
        if b.spade >= 0 and mine[b.spade]:
            mine = tuple(amount * 2 if row == b.spade else amount for row, amount in enumerate(mine))
        if a.spade >= 0 and theirs[a.spade]:
            theirs = tuple(amount * 2 if row == a.spade else amount for row, amount in enumerate(theirs))
    if rows is not None and rules.royalties.higher_takes:
        both = [bool(x and y) for x, y in zip(mine, theirs)]
        if any(both):
            mine = tuple(0 if two and outcome <= 0 else x for x, two, outcome in zip(mine, both, rows))
            theirs = tuple(0 if two and outcome >= 0 else y for y, two, outcome in zip(theirs, both, rows))
    return mine, theirs


def royalty_units(rules: RuleSet, a: Core, b: Core, rows: tuple[int, int, int]) -> Amount:
    """Royalty units from a's side (docs/rules.md 6).  In the row modes this is what
    a row's winner collects beyond the 1 unit the row is worth; broken royalties
    are paid by the holder's opponent whatever the mode and the rows."""
    royalties = rules.royalties
    mode = royalties.mode
    broken = a.broken - b.broken
    if mode == "none":
        return broken
    if mode == "holder":
        if royalties.spade_bonus == "row" or royalties.higher_takes:
            mine, theirs = pair_royalties(rules, a, b, rows)
            return sum(mine) - sum(theirs) + broken
        return sum(a.royalties) - sum(b.royalties) + broken
    return sum(row_extras(rules, a, b, rows)) + broken


def row_extras(rules: RuleSet, a: Core, b: Core, rows: tuple[int, int, int]) -> tuple[Amount, Amount, Amount]:
    """In the row modes, what each row's winner collects beyond its 1 unit,
    from a's side: row-bonus the table value, row-value the table value less 1,
    nothing when ``cancel_when_both`` and the loser's row qualifies too."""
    extras = []
    cancel, bonus = rules.royalties.cancel_when_both, rules.royalties.mode == "row-bonus"
    for outcome, mine, theirs in zip(rows, *pair_royalties(rules, a, b)):
        winner, loser = (mine, theirs) if outcome > 0 else (theirs, mine)
        extra: Amount = 0
        if outcome and winner and not (cancel and loser):
            extra = winner if bonus else winner - 1
        extras.append(extra * outcome)
    front, middle, back = extras
    return (front, middle, back)


def _scoops(rows: tuple[int, int, int]) -> int:
    """1 if a scooped b, -1 if b scooped a, else 0."""
    return 1 if rows == (1, 1, 1) else -1 if rows == (-1, -1, -1) else 0


# The deal: the kernel ---------------------------------------------------------------

#: The id a false claim is shown with, in the place of a natural's (docs/rules.md 7).
FALSE_CLAIM = "false-claim"


class Standing(Record):
    """What limits a deal's payments carries from earlier deals of a session
    (docs/rules.md 12): each player's net money so far (``cap_scope = "session"``)
    and each player's stack (``table_stakes``), by player; None where not played."""

    __slots__ = ("net", "stacks")

    def __init__(self, net: Mapping[str, Amount] | None = None, stacks: Mapping[str, Amount] | None = None) -> None:
        self.net = net
        self.stacks = stacks


class PairOutcome(tuple):
    """One settled pair as :func:`kernel` makes it, from seat ``i``'s side: a
    tuple (cheap to make; a session's spool keeps it as a plain tuple) whose fields
    are read by name, never by position.  :class:`PairResult` is the same
    with the players' names for the seat indexes."""

    __slots__ = ()
    #: The fields, in order.
    FIELDS = ("i", "j", *_PAIR_FIELDS)
    i = property(itemgetter(0), doc="seat index of the first hand (the lower)")
    j = property(itemgetter(1), doc="seat index of the second hand")
    decided_by = property(itemgetter(2), doc="natural, surrender, rows or result")
    rows = property(itemgetter(3), doc="front, middle, back: 1 won, 0 tied, -1 lost (all 0 without rows)")
    row_units = property(itemgetter(4), doc="1 a row won, -1 a row lost")
    bonus = property(itemgetter(5), doc="the method's bonus")
    royalties = property(itemgetter(6), doc="royalty units, from seat i's side")
    multiplier = property(itemgetter(7), doc="1, or 2 and 4 when doubled (see doubled)")
    natural = property(itemgetter(8), doc="what a natural or a false claim paid")
    surrender = property(itemgetter(9), doc="what a surrender paid")
    units = property(itemgetter(10), doc="the pair's units")
    stake = property(itemgetter(11), doc="money per unit for this pair")
    amount = property(itemgetter(12), doc="the money paid, after any cut")
    penalty = property(itemgetter(13), doc="foul_plays: what the fouled hand paid beside its rows")
    split = property(itemgetter(14), doc="home_run_split equal: the share of the home run's total")
    owed = property(itemgetter(15), doc="with a cap or table stakes: the money before the cut (else 0)")
    cut = property(itemgetter(16), doc='"cap" or "stack" when it cut the payment, else ""')
    notes = property(itemgetter(17), doc="what decided each row: suit, banker or empty")
    doubled = property(itemgetter(18), doc='why the pair is doubled: "scoop" (scoop_doubles), "home-run", "horse"')
    aces = property(itemgetter(19), doc="ace_bonus: what the aces held paid (never multiplied)")


# Where _split_equally and _cut change a pair (as a list) before it is made again.
_I, _J, _UNITS, _STAKE, _AMOUNT, _SPLIT, _OWED, _CUT, _ACES = (
    PairOutcome.FIELDS.index(name) for name in ("i", "j", "units", "stake", "amount", "split", "owed", "cut", "aces")
)
#: A pair's (i, j, units, amount): what a night's head-to-head adds up, read in one step.
HEAD_TO_HEAD = itemgetter(_I, _J, _UNITS, _AMOUNT)
#: Why a pair's multiplier applied, by (the scoop doubles it, a home run doubles it).
_DOUBLED = {
    (False, False): (),
    (True, False): ("scoop",),
    (False, True): ("home-run",),
    (True, True): ("scoop", "home-run"),
}
_NOT_DOUBLED, _SCOOP_DOUBLES = _DOUBLED[False, False], _DOUBLED[True, False]


class Outcome(Record):
    """A deal settled by :func:`kernel`, as plain values by seat index: each
    seat's core (None when it plays no rows: a natural, a surrender), its
    natural, its Fantasyland, its net units and money, each pair as a
    :class:`PairOutcome` from seat i's side, the banker's
    seat index (None without banker pairing) and the standing after the deal."""

    __slots__ = ("cores", "naturals", "fantasyland", "units", "money", "pairs", "banker", "standing")

    def __init__(
        self,
        cores: list[Core | None],
        naturals: list[Natural | None],
        fantasyland: list[Fantasyland | None],
        units: list[Amount],
        money: list[Amount],
        pairs: list[PairOutcome],
        banker: int | None = None,
        standing: Standing | None = None,
    ) -> None:
        self.cores = cores
        self.naturals = naturals
        self.fantasyland = fantasyland
        self.units = units
        self.money = money
        self.pairs = pairs
        self.banker = banker
        self.standing = standing


_NO_ROWS = (0, 0, 0)
_WON, _LOST = (1, 1, 1), (-1, -1, -1)
_NO_NOTES = ("", "", "")
_PLAIN = (0, 0, 0, "", _NO_NOTES, (), 0)  # penalty, split, owed, cut, notes, doubled, aces of a pair none touched
_HORSE = (0, 0, 0, "", _NO_NOTES, ("horse",), 0)  # the same, doubled by the horse card
_ALL_PAIRS: dict[int, list[tuple[int, int]]] = {}  # seat index pairs (i < j) by number of seats


def pairs_of(seats: Sequence[Seat], rules: RuleSet, banker: int | None = None) -> list[tuple[int, int]]:
    """The pairs of seat indexes (i < j) that settle, in the order they are paid
    (docs/rules.md 4, 10, 12): hands of different players; with criss-cross
    ``corresponding`` only the players' first hands together, second hands
    together; with banker pairing only the banker's pairs."""
    count = len(seats)
    owners = [seat.owner for seat in seats]
    if rules.banker.banks:
        assert banker is not None  # kernel() names the banker
        return [(min(banker, k), max(banker, k)) for k in range(count) if k != banker]
    if len(set(owners)) == count:  # a player a hand: every pair plays
        found = _ALL_PAIRS.get(count)
        if found is None:
            found = _ALL_PAIRS[count] = [(i, j) for i in range(count) for j in range(i + 1, count)]
        return found
    pairs = [(i, j) for i in range(count) for j in range(i + 1, count) if owners[i] != owners[j]]
    if rules.methods.criss_cross == "corresponding":  # first hands meet first hands, second hands second
        counts = {owner: owners.count(owner) for owner in owners}
        if len(set(counts.values())) > 1:
            shown_counts = ", ".join(f"{owner} {count}" for owner, count in counts.items())
            raise DealError(
                f"under criss_cross = corresponding every player holds as many hands as the others ({shown_counts}): "
                "a hand without a corresponding one would play nobody"
            )
        place = [owners[:index].count(owner) for index, owner in enumerate(owners)]
        pairs = [(i, j) for i, j in pairs if place[i] == place[j]]
    return pairs


def banker_of(seats: Sequence[Seat], rules: RuleSet, banker: str | None = None) -> int | None:
    """The banker's seat index under banker pairing (the one marked ``banker`` in
    the deal, else the player named, else the first listed); None otherwise.
    (A deal built under the rules refuses a banker marker without banker pairing.)"""
    if not rules.banker.banks:
        if banker is not None:
            raise DealError(
                f"{banker} is named the banker, but the {rules.id} rules settle every pair: there is no banker"
            )
        return None
    if len({seat.owner for seat in seats}) != len(seats):
        raise DealError(f"the {rules.id} rules play against a banker: a player cannot hold several hands (criss-cross)")
    marked = [index for index, seat in enumerate(seats) if seat.banker]
    if len(marked) > 1:
        raise DealError(f"{seats[marked[0]].name} and {seats[marked[1]].name} are both marked banker: mark one")
    if banker is not None:
        for index, seat in enumerate(seats):
            if seat.name == banker:
                return marked[0] if marked else index
        raise DealError(f"the banker {shown(banker)} plays no hand in this deal")
    return marked[0] if marked else 0


def kernel(
    seats: Sequence[Seat],
    rules: RuleSet,
    stake: Amount = 1,
    pair_stakes: Mapping[frozenset[str], Amount] | None = None,
    repeats: Collection[str] = (),
    banker: str | None = None,
    standing: Standing | None = None,
) -> Outcome:
    """Settle a deal: the one place where a row, a bonus, a royalty, a
    multiplier, a natural, a surrender or a cut is decided (docs/rules.md 3-12).
    :func:`settle` and every view are built on its :class:`Outcome`; a
    session's totals read it directly.  Every pair of hands that settles
    (:func:`pairs_of`) is settled on its own; a hand's result is its sum over
    them.  ``banker`` names the banker under banker pairing (by default the
    hand marked banker, else the first); ``standing`` is what earlier deals
    leave for caps and table stakes."""
    count = len(seats)
    if seats[0].result is not None:  # a deal of results (build_deal checked: all of them)
        return _results(seats, rules, stake, pair_stakes, banker, standing)
    if any(seat.surrendered for seat in seats) and rules.methods.surrender is None:
        name = next(seat.name for seat in seats if seat.surrendered)
        raise DealError(f"{name} surrenders, but the {rules.id} rules have no surrender")
    naturals: list[Natural | None] = [None] * count
    cores: list[Core | None] = [None] * count
    model = _model(rules)
    enabled, check, simple, priced = model.naturals, model.screen, model.simple, model.paid
    memo_front = model.royalty_memos[0]
    by_middle, by_back = model.five_royalties
    for index, seat in enumerate(seats):
        if seat.surrendered:
            continue
        hand = seat.hand
        codes = seat.codes
        core = None
        if hand is None:
            pass
        elif simple:  # rows as dealt, royalties looked up: evaluate_core's result, made here
            values = front, middle, back = evaluate_hand(codes)
            if middle > back or front > middle:
                core = Core(values, values, find_foul(front, middle, back), _NO_ROYALTIES)
            elif priced:
                held = memo_front.get(front), by_middle[middle >> CATEGORY_SHIFT], by_back[back >> CATEGORY_SHIFT]
                if None in held:  # a front not met before, quads, a straight flush: priced (and remembered)
                    held = _royalties(rules, (codes[:3], codes[3:8], codes[8:]), values)[0]
                core = Core(values, values, None, held)  # type: ignore[arg-type]  # no None left
            else:
                core = Core(values, values, None, _NO_ROYALTIES)
        else:
            core = evaluate_core(codes[:3], codes[3:8], codes[8:], rules)
        if enabled and not seat.waive:
            if core is None:
                facts = Facts(codes)
                claim = detect(seat.cards, None, rules, facts)
            else:
                plains = core.plains
                categories = plains[1] >> CATEGORY_SHIFT, plains[2] >> CATEGORY_SHIFT
                claim = None
                if check is not None and check(codes, categories, codes[:3]):  # the hand may make a natural: worked out
                    claim = detect(seat.cards, hand, rules, Facts(codes, categories, codes[:3]))
            if claim is not None:
                naturals[index] = claim
                continue
        if core is None:
            if rules.naturals.false_claim is None:
                raise _not_a_natural(rules, f"{seat.name}: ")
            naturals[index] = Natural(FALSE_CLAIM, rules.naturals.false_claim, None, None)  # docs/rules.md 7
            continue
        cores[index] = core
    owners = [seat.owner for seat in seats]
    bank = banker_of(seats, rules, banker) if model.banks or banker is not None else None
    if len(set(owners)) == count and bank is None:  # the common case: every pair of hands plays
        settling = _ALL_PAIRS.get(count) or pairs_of(seats, rules)
    else:
        settling = pairs_of(seats, rules, bank)
    foul_plays, ties_to_bank = model.foul_plays, model.ties_to_bank
    # Each pair's rows when both hands play them (else None), in the order of settling.
    played: list[tuple[int, int, int] | None] = []
    notes: dict[tuple[int, int], tuple[str, str, str]] = {}
    suits = model.suits
    minimum = model.home_run
    # With home runs: each hand's opponents, and how many of them it scooped.
    opponents, scooped = ([0] * count, [0] * count) if minimum else (None, None)
    for i, j in settling:
        core_a, core_b = cores[i], cores[j]
        if opponents is not None:
            opponents[i] += 1
            opponents[j] += 1
        if core_a is not None and core_b is not None:
            if (core_a.foul or core_b.foul) and not foul_plays:  # a fouled hand loses every row to a live one
                rows = _NO_ROWS if core_a.foul and core_b.foul else _LOST if core_a.foul else _WON
            else:
                (a1, a2, a3), (b1, b2, b3) = core_a.values, core_b.values
                rows = ((a1 > b1) - (a1 < b1), (a2 > b2) - (a2 < b2), (a3 > b3) - (a3 < b3))
            if (suits or ties_to_bank) and (foul_plays or not (core_a.foul or core_b.foul)):
                rows, notes[i, j] = _row_notes(core_a, core_b, rows, suits, bank if ties_to_bank else None, i)
            played.append(rows)
            if scooped is not None and (rows == _WON or rows == _LOST):
                scooped[i if rows == _WON else j] += 1
        else:
            played.append(None)
    home_run = [False] * count
    if opponents is not None and scooped is not None:  # docs/rules.md 8: it scoops every hand it settles with
        for index in range(count) if bank is None else (bank,):  # only the banker has a home run
            home_run[index] = opponents[index] >= minimum and scooped[index] == opponents[index]
    equal = model.equal
    by_rows, with_royalties, holder = model.by_rows, model.paid, model.holder
    # The horse card's holder (docs/rules.md 8: every pair of theirs doubles), and each hand's aces.
    horse = -1 if model.horse < 0 else next((k for k, seat in enumerate(seats) if model.horse in seat.codes), -1)
    ace_bonus = model.ace_bonus
    aces = [sum(1 for code in seat.codes if RANK_OF[code] == 14) for seat in seats] if ace_bonus else None
    units: list[Amount] = [0] * count
    money: list[Amount] = [0] * count
    pairs: list[PairOutcome] = []
    for (i, j), found in zip(settling, played):
        pair_stake = pair_stakes.get(frozenset((owners[i], owners[j])), stake) if pair_stakes else stake
        horsed = horse == i or horse == j  # one of the pair holds the horse card
        if found is not None:  # both hands play their rows
            rows = found
            core_a, core_b = cores[i], cores[j]
            assert core_a is not None and core_b is not None  # played: both have rows
            row_units, bonus, scoop, multiplier = by_rows[rows]
            doubled = _NOT_DOUBLED if multiplier == 1 else _SCOOP_DOUBLES
            if scoop and not equal and (home_run[i] if scoop > 0 else home_run[j]):  # docs/rules.md 8
                multiplier *= 2
                doubled = _DOUBLED[multiplier == 4, True]
            royalties: Amount = 0
            if not with_royalties:
                pass
            elif holder:  # as royalty_units
                royalties = sum(core_a.royalties) - sum(core_b.royalties) + (core_a.broken - core_b.broken)
            else:
                royalties = royalty_units(rules, core_a, core_b, rows)
            if horsed:  # docs/rules.md 8: the horse doubles its holder's pairs
                multiplier *= 2
                doubled = (*doubled, "horse")
            amount = (row_units + bonus + royalties) * multiplier
            if foul_plays and (core_a.foul is None) != (core_b.foul is None):  # docs/rules.md 3
                penalty = _foul_penalty(by_rows, i if core_b.foul else j, home_run, equal)
                penalty = penalty if core_b.foul else -penalty
                if horsed:
                    penalty *= 2
                amount += penalty
                kept = notes.get((i, j), _NO_NOTES)
            else:
                penalty = 0
                kept = notes.get((i, j), _NO_NOTES) if notes else _NO_NOTES
            held_aces: Amount = 0
            if aces is not None:  # docs/rules.md 6: each ace collects, beside the rows and never multiplied
                held_aces = (aces[i] - aces[j]) * ace_bonus
                amount += held_aces
            paid = amount * pair_stake
            pairs.append(
                PairOutcome(
                    (
                        i,
                        j,
                        "rows",
                        rows,
                        row_units,
                        bonus,
                        royalties,
                        multiplier,
                        0,
                        0,
                        amount,
                        pair_stake,
                        paid,
                        penalty,
                        0,
                        0,
                        "",
                        kept,
                        doubled,
                        held_aces,
                    )
                )
            )
        else:
            natural_a, natural_b = naturals[i], naturals[j]
            pair: tuple[Any, ...]
            if natural_a or natural_b:  # docs/rules.md 7: naturals and false claims; no multipliers
                amount = _natural_units(natural_a, natural_b, rules)
                if (
                    amount
                    and not rules.naturals.natural_beats_surrender
                    and _natural_against_surrender(seats, i, j, naturals)
                ):
                    amount = 0  # docs/rules.md 7: a natural collects nothing from a surrendered hand
                decided = "natural"
            else:  # docs/rules.md 4, step 2: a surrender
                amount = _surrender_units(seats[i], seats[j], cores[i], cores[j], rules)
                decided = "surrender"
            plain: tuple[Any, ...] = _PLAIN
            if amount and horsed:  # docs/rules.md 8: the horse doubles these too
                amount, plain = amount * 2, _HORSE
            paid = amount * pair_stake
            natural, surrendered = (amount, 0) if decided == "natural" else (0, amount)
            pair = (i, j, decided, _NO_ROWS, 0, 0, 0, 1, natural, surrendered, amount, pair_stake, paid, *plain)
            pairs.append(PairOutcome(pair))
        units[i] += amount
        units[j] -= amount
        money[i] += paid
        money[j] -= paid
    cuts = model.cuts
    if (equal and any(home_run)) or cuts:  # docs/rules.md 8, 12
        changed = [list(pair) for pair in pairs]
        if equal and any(home_run):
            _split_equally(changed, home_run)
        if cuts:
            standing = _cut(changed, owners, rules, standing, button_order(seats, changed))
        pairs = [PairOutcome(pair) for pair in changed]
        units, money = _sums(pairs, count)
    fantasylands: list[Fantasyland | None] = [None] * count
    if model.fantasyland:
        fantasylands = [
            fantasyland(core, rules, seat.fantasyland, seat.name in repeats) for seat, core in zip(seats, cores)
        ]
    return Outcome(cores, naturals, fantasylands, units, money, pairs, bank, standing)


def _sums(pairs: Sequence[PairOutcome], count: int) -> tuple[list[Amount], list[Amount]]:
    """Each seat's units and money: the sums of its pairs."""
    units: list[Amount] = [0] * count
    money: list[Amount] = [0] * count
    for made in pairs:
        i, j, amount, paid = made.i, made.j, made.units, made.amount
        units[i] += amount
        units[j] -= amount
        money[i] += paid
        money[j] -= paid
    return units, money


def result_pairs(results: Sequence[Amount], pairs: Sequence[tuple[int, int]], bank: int | None) -> list[Amount]:
    """A deal of results, pair by pair (docs/rules.md 13): each pair's units
    from the lower seat's side, in the order of ``pairs``.  Against a banker
    each player's result is their pair's with the bank.  Otherwise the
    biggest loser pays the biggest winner as much as one of them has left,
    then the next (ties: the earlier seat first), so that each player's
    pairs add up to their result and as few pairs as that way gives pay;
    the other pairs are even.

    >>> result_pairs([6, -2, -4], [(0, 1), (0, 2), (1, 2)], None)
    [2, 4, 0]
    >>> result_pairs([3, -1, -2], [(0, 1), (0, 2)], 0)
    [1, 2]
    """
    if bank is not None:
        return [-results[j] if i == bank else results[i] for i, j in pairs]
    winners = sorted((index for index, value in enumerate(results) if value > 0), key=lambda k: (-results[k], k))
    losers = sorted((index for index, value in enumerate(results) if value < 0), key=lambda k: (results[k], k))
    left = list(results)
    paid: dict[tuple[int, int], Amount] = {}
    next_winner = next_loser = 0
    while next_winner < len(winners) and next_loser < len(losers):
        winner, loser = winners[next_winner], losers[next_loser]
        amount = min(left[winner], -left[loser])
        paid[winner, loser] = amount
        left[winner] -= amount
        left[loser] += amount
        if not left[winner]:
            next_winner += 1
        if not left[loser]:
            next_loser += 1
    return [paid.get((i, j), 0) - paid.get((j, i), 0) for i, j in pairs]


def _results(
    seats: Sequence[Seat],
    rules: RuleSet,
    stake: Amount,
    pair_stakes: Mapping[frozenset[str], Amount] | None,
    banker: str | None,
    standing: Standing | None,
) -> Outcome:
    """:func:`kernel` for a deal of results: each pair's units from
    :func:`result_pairs`, then stakes, caps and stacks as for any deal."""
    count = len(seats)
    model = _model(rules)
    owners = [seat.owner for seat in seats]
    bank = banker_of(seats, rules, banker) if model.banks or banker is not None else None
    settling = pairs_of(seats, rules, bank)
    results: list[Amount] = [seat.result for seat in seats]  # type: ignore[misc]  # a deal of results
    pairs = []
    for (i, j), amount in zip(settling, result_pairs(results, settling, bank)):
        pair_stake = pair_stakes.get(frozenset((owners[i], owners[j])), stake) if pair_stakes else stake
        pairs.append(
            PairOutcome((i, j, "result", _NO_ROWS, 0, 0, 0, 1, 0, 0, amount, pair_stake, amount * pair_stake, *_PLAIN))
        )
    if model.cuts:
        changed = [list(pair) for pair in pairs]
        standing = _cut(changed, owners, rules, standing, button_order(seats, changed))
        pairs = [PairOutcome(pair) for pair in changed]
    units, money = _sums(pairs, count)
    # No cards: nobody enters or stays in Fantasyland (docs/rules.md 13).
    lands = [fantasyland(None, rules, seat.fantasyland) for seat in seats]
    return Outcome([None] * count, [None] * count, lands, units, money, pairs, bank, standing)


def _row_notes(
    a: Core, b: Core, rows: tuple[int, int, int], suits: bool, bank: int | None, i: int
) -> tuple[tuple[int, int, int], tuple[str, str, str]]:
    """The rows as they count, from seat i's side, and what decided each: ``suit``
    for a row of equal ranks won on suits (``suit_order``), ``banker`` for a tied
    row the banker wins (``banker_wins_ties``), else ``""``."""
    counted, found = [], []
    for outcome, mine, theirs in zip(rows, a.values, b.values):
        note = ""
        if outcome and suits and mine >> SUIT_BITS == theirs >> SUIT_BITS:
            note = "suit"
        elif not outcome and bank is not None:
            outcome, note = (1 if bank == i else -1), "banker"
        counted.append(outcome)
        found.append(note)
    return (counted[0], counted[1], counted[2]), (found[0], found[1], found[2])


def _foul_penalty(by_rows: Mapping, winner: int, home_run: list[bool], equal: bool) -> Amount:
    """What a fouled hand pays a live one beside the play, with ``foul_plays``
    (docs/rules.md 3): a scoop with no royalties, times the multipliers."""
    row_units, bonus, _, multiplier = by_rows[1, 1, 1]
    if home_run[winner] and not equal:
        multiplier *= 2
    penalty: Amount = (row_units + bonus) * multiplier
    return penalty


def _natural_units(a: Natural | None, b: Natural | None, rules: RuleSet) -> Amount:
    """A pair a natural or a false claim decides, from a's side (docs/rules.md 7, 12)."""
    false_a, false_b = a is not None and a.id == FALSE_CLAIM, b is not None and b.id == FALSE_CLAIM
    natural_a, natural_b = (None if false_a else a), (None if false_b else b)
    if natural_a and natural_b:
        if rules.naturals.natural_vs_natural == "net":
            return natural_a.units - natural_b.units
        outcome = compare(natural_a, natural_b, rules)
        return natural_a.units if outcome > 0 else -natural_b.units if outcome < 0 else 0
    if natural_a or natural_b:  # against anything else the natural collects its value
        return natural_a.units if natural_a else -natural_b.units  # type: ignore[union-attr]
    if false_a and false_b:
        return 0
    assert rules.naturals.false_claim is not None  # a false claim is made only under rules that fine it
    return -rules.naturals.false_claim if false_a else rules.naturals.false_claim


def _natural_against_surrender(seats: Sequence[Seat], i: int, j: int, naturals: Sequence[Natural | None]) -> bool:
    """Whether one of a pair surrendered and the other holds a natural (not a false claim)."""
    for mine, theirs in ((i, j), (j, i)):
        natural = naturals[mine]
        if seats[theirs].surrendered and natural is not None and natural.id != FALSE_CLAIM:
            return True
    return False


def _split_equally(pairs: list[list[Any]], home_run: list[bool]) -> None:
    """``home_run_split = "equal"`` (docs/rules.md 8): each opponent of a home
    run pays its own units and an equal share of their total, rounded to 0.01."""
    from cpscore.amounts import share

    for hitter, hit in enumerate(home_run):
        if not hit:
            continue
        mine = [pair for pair in pairs if hitter in (pair[_I], pair[_J])]
        # The ace bonus is paid beside the play: it is not part of the total shared out.
        total = sum((pair[_UNITS] - pair[_ACES]) * (1 if pair[_I] == hitter else -1) for pair in mine)
        part = share(total, len(mine))
        for pair in mine:
            signed_part = part if pair[_I] == hitter else -part
            pair[_SPLIT] = signed_part
            pair[_UNITS] += signed_part
            pair[_AMOUNT] = pair[_UNITS] * pair[_STAKE]


def button_order(seats: Sequence[Seat], pairs: Sequence[Sequence[Any]]) -> list[int] | None:
    """The order the pairs are paid in when a seat is marked as the dealer
    (``; dealer``): the listing order, from the seat after the dealer's (the
    seat to the left of the button, docs/rules.md 12), as positions in
    ``pairs``; None when no seat is the dealer (the first seat listed is then
    the one to the left of the button).

    >>> from cpscore.deal import Seat
    >>> seats = [Seat(name, name, None, (), False, False, False, dealer=name == "B") for name in "ABC"]
    >>> button_order(seats, [(0, 1), (0, 2), (1, 2)])  # C, A, B: C-A, C-B, then A-B
    [1, 2, 0]
    """
    dealer = next((index for index, seat in enumerate(seats) if seat.dealer), None)
    if dealer is None:
        return None
    count = len(seats)

    def place(index: int) -> int:
        return (index - dealer - 1) % count

    def key(position: int) -> tuple[int, int]:
        a, b = sorted((place(pairs[position][_I]), place(pairs[position][_J])))
        return a, b

    return sorted(range(len(pairs)), key=key)


def _cut(
    pairs: list[list[Any]],
    owners: list[str],
    rules: RuleSet,
    standing: Standing | None,
    order: list[int] | None = None,
) -> Standing:
    """Cut each payment, in the order the pairs are paid (``order``, positions
    in ``pairs``: :func:`button_order`; None: as listed), so that no player's
    net passes the cap and nobody pays more than their stack or wins from one
    opponent more than the opponent's stack (docs/rules.md 12)."""
    cap = rules.money.cap
    players = dict.fromkeys(owners)
    net: dict[str, Amount] = {player: 0 for player in players}
    if rules.money.session_cap and standing is not None and standing.net is not None:
        net.update({player: standing.net.get(player, 0) for player in players})
    stacks: dict[str, Amount] | None = None
    if rules.money.stacks:
        if standing is None or standing.stacks is None:
            fixed = rules.money.fixed_stack
            if fixed is None:
                raise DealError(
                    f"the {rules.id} rules play table stakes: give the buy-in (--buy-in N, or @buy-in N in a session)"
                )
            stacks = {player: fixed for player in players}
        else:
            stacks = dict(standing.stacks)
            for player in players:
                if player not in stacks:
                    raise DealError(f"{player} has no stack: the session's players bought in without them")
    for pair in pairs if order is None else [pairs[position] for position in order]:
        owed = pair[_AMOUNT]
        pair[_OWED] = owed
        if not owed:
            continue
        winner, loser = (owners[pair[_I]], owners[pair[_J]]) if owed > 0 else (owners[pair[_J]], owners[pair[_I]])
        paid, cut = abs(owed), ""
        if cap is not None:
            room = min(cap + net[loser], cap - net[winner])
            if room < paid:
                paid, cut = max(room, 0), "cap"
        if stacks is not None:
            room = min(stacks[loser], stacks[winner])
            if room < paid:
                paid, cut = max(room, 0), "stack"
        net[loser] -= paid
        net[winner] += paid
        if stacks is not None:
            stacks[loser] -= paid
            stacks[winner] += paid
        pair[_AMOUNT], pair[_CUT] = (paid if owed > 0 else -paid), cut
    carried = dict(standing.net) if standing is not None and standing.net is not None else {}
    carried.update(net)
    return Standing(carried if rules.money.session_cap else None, stacks)


def _surrender_units(a: Seat, b: Seat, core_a: Core | None, core_b: Core | None, rules: RuleSet) -> Amount:
    """What a pair with a surrender pays, from a's side: nothing when both
    surrender or the other hand fouls, else the surrender's units."""
    assert rules.methods.surrender is not None  # kernel() refuses a surrender under rules without one
    fouled_a = core_a is not None and core_a.foul is not None
    fouled_b = core_b is not None and core_b.foul is not None
    if (a.surrendered and b.surrendered) or (a.surrendered and fouled_b) or (b.surrendered and fouled_a):
        return 0
    return -rules.methods.surrender if a.surrendered else rules.methods.surrender


def settle(
    deal: Deal,
    rules: RuleSet,
    stake: Amount = 1,
    pair_stakes: Mapping[frozenset[str], Amount] | None = None,
    repeats: Collection[str] = (),
    banker: str | None = None,
    standing: Standing | None = None,
) -> Settlement:
    """Settle every pair of hands that settles (:func:`kernel`) and give the
    result with its reasons.  ``pair_stakes`` maps ``{a, b}`` (player names)
    to the money per unit for that pair, overriding ``stake``.  ``repeats``
    names the hands playing their last Fantasyland repeat allowed (sessions follow it),
    who leave whatever they make; ``banker`` and ``standing`` as :func:`kernel`."""
    seats = deal.seats
    outcome = kernel(seats, rules, stake, pair_stakes, repeats, banker, standing)
    return settlement_of(deal, rules, stake, outcome)


def settlement_of(deal: Deal, rules: RuleSet, stake: Amount, outcome: Outcome, warn: bool = True) -> Settlement:
    """The records of a deal :func:`kernel` settled: rows with their cards and
    royalties, each hand's and each pair's result, the owners' totals, and
    (with ``warn``) the warnings for waives that had no effect."""
    seats = deal.seats
    players = tuple(
        PlayerResult(seat, _assessment(seat.hand, core) if core is not None else None, natural, land, units, amount)
        for seat, core, natural, land, units, amount in zip(
            seats, outcome.cores, outcome.naturals, outcome.fantasyland, outcome.units, outcome.money
        )
    )
    pairs = tuple(PairResult(seats[i].name, seats[j].name, *rest) for i, j, *rest in outcome.pairs)
    owners = deal.owners()
    owner_totals = []
    if len(owners) == len(seats):  # a hand a player: each owner's total is the hand's (as sum() adds it)
        for player in players:
            owner_totals.append(OwnerTotal(player.seat.owner, 0 + player.units, 0 + player.amount))
    else:
        for name in owners:
            mine = [player for player in players if player.seat.owner == name]
            owner_totals.append(OwnerTotal(name, sum(p.units for p in mine), sum(p.amount for p in mine)))
    warnings = waive_warnings(seats, rules) if warn else ()
    banker = None if outcome.banker is None else seats[outcome.banker].name
    return Settlement(rules, stake, players, pairs, tuple(owner_totals), warnings, banker, outcome.standing)


def waive_warnings(seats: Sequence[Seat], rules: RuleSet) -> tuple[str, ...]:
    """A waive on a hand that makes no natural has no effect: say so."""
    return tuple(
        f"{seat.name} waives, but the hand makes no natural under the {rules.id} rules: the waive has no effect"
        for seat in seats
        if seat.waive and detect(seat.cards, seat.hand, rules) is None
    )


def _assessment(hand: Hand | None, core: Core) -> Assessment:
    assert hand is not None  # a hand that plays rows is set
    return Assessment(hand, core)
