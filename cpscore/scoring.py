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

from collections.abc import Collection, Mapping
from typing import TYPE_CHECKING

from cpscore.amounts import Amount
from cpscore.cards import ROW_NAMES, Card, Hand
from cpscore.deal import Deal, Seat
from cpscore.errors import DealError
from cpscore.hands import (
    Foul,
    category,
    deuce_to_seven,
    digits,
    evaluate3,
    evaluate5,
    find_foul,
    rank_letters,
    wheel_second,
)
from cpscore.naturals import Natural, compare, detect
from cpscore.records import Record
from cpscore.rules import RuleSet
from cpscore.values import CATEGORY_SHIFT

if TYPE_CHECKING:
    from collections.abc import Iterator

_TWO_OF_SPADES = 3  # the code of 2s


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
        return category(self.plain)


class Core(Record):
    """What settlement needs of a set hand, as plain values: each row's value
    as it ranks under the rules, its poker value, the foul, each row's royalty.
    The totals-only path of a session stops here; :class:`Assessment` adds the
    cards and reasons."""

    __slots__ = ("values", "plains", "foul", "royalties")

    def __init__(
        self,
        values: tuple[int, int, int],
        plains: tuple[int, int, int],
        foul: Foul | None,
        royalties: tuple[Amount, Amount, Amount],
    ) -> None:
        self.values = values
        self.plains = plains
        self.foul = foul
        self.royalties = royalties


class Assessment(Record):
    """A set hand judged on its own: row values, foul, royalties it holds."""

    __slots__ = ("hand", "rows", "core")

    def __init__(self, hand: Hand, rows: tuple[Row, Row, Row], core: Core) -> None:
        self.hand = hand
        self.rows = rows
        self.core = core

    @property
    def foul(self) -> Foul | None:
        return self.core.foul

    @property
    def royalty_total(self) -> Amount:
        return sum(self.core.royalties)


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


class PairResult(Record):
    """One pair, from ``a``'s side: ``units`` is what b pays a (negative when a
    pays).  ``decided_by`` is ``natural``, ``surrender`` or ``rows``; then
    ``units = (row_units + bonus + royalties) * multiplier + natural + surrender``.
    ``rows`` are front, middle, back as 1 won, 0 tied, -1 lost (all 0 when a
    natural or a surrender decided the pair)."""

    __slots__ = (
        "a",
        "b",
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
    )

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
    ) -> None:
        self.a = a
        self.b = b
        self.decided_by = decided_by
        self.rows = rows
        self.row_units = row_units  # 1 a row won, -1 a row lost
        self.bonus = bonus  # the method's bonus (2-4 overall unit, 1-6 scoop)
        self.royalties = royalties  # holder: a's royalties less b's; row modes: the row winners' extra
        self.multiplier = multiplier  # 1; 2 for a scoop that doubles; 4 with a home run
        self.natural = natural
        self.surrender = surrender
        self.units = units
        self.stake = stake
        self.amount = amount


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

    __slots__ = ("rules", "stake", "players", "pairs", "owners", "warnings")

    def __init__(
        self,
        rules: RuleSet,
        stake: Amount,
        players: tuple[PlayerResult, ...],
        pairs: tuple[PairResult, ...],
        owners: tuple[OwnerTotal, ...],
        warnings: tuple[str, ...] = (),
    ) -> None:
        self.rules = rules
        self.stake = stake
        self.players = players
        self.pairs = pairs
        self.owners = owners
        self.warnings = warnings


# One hand ---------------------------------------------------------------------------


def royalty(rules: RuleSet, row_name: str, value: int) -> Amount:
    """The royalty a row of this poker value holds under ``rules``, before the
    spade bonus and ``max_per_hand`` (0 without royalties)."""
    if rules.royalties.mode == "none" or (row_name == "middle" and rules.low_middle):
        return 0
    kind = category(value)
    # A front's table key is its group: QQ for a pair of queens, 777 for trips.
    ranks = rank_letters(value).replace("-", "")[: 3 if kind == "trips" else 2]
    return rules.royalties.table.lookup(row_name, kind, ranks)


_ROYALTY_MEMO: dict[tuple[object, bool, str, int], Amount] = {}


def _royalty(rules: RuleSet, row_name: str, value: int) -> Amount:
    """:func:`royalty`, remembered by the table's value, the middle's variant,
    the row and the row's value (asked for the same few values again and again
    in a session).  Keyed by value, never by ``id()``: a new rule set can never
    be handed an old one's royalties."""
    key = (rules.royalties.table.key, rules.low_middle, row_name, value)
    found = _ROYALTY_MEMO.get(key)
    if found is None:
        if len(_ROYALTY_MEMO) > 50_000:
            _ROYALTY_MEMO.clear()
        found = _ROYALTY_MEMO[key] = royalty(rules, row_name, value)
    return found


def _royalties(
    rules: RuleSet, rows: tuple[list[int], list[int], list[int]], plains: tuple[int, int, int]
) -> tuple[Amount, Amount, Amount]:
    if rules.royalties.mode == "none":
        return (0, 0, 0)
    amounts = [_royalty(rules, name, plain) for name, plain in zip(ROW_NAMES, plains)]
    if rules.royalties.spade_bonus:  # doubled before max_per_hand picks the largest
        amounts = [a * 2 if _TWO_OF_SPADES in codes else a for a, codes in zip(amounts, rows)]
    keep = rules.royalties.max_per_hand
    if keep and sum(1 for amount in amounts if amount) > keep:
        ranked = sorted(range(3), key=lambda i: (amounts[i], -i), reverse=True)[:keep]
        amounts = [amount if i in ranked else 0 for i, amount in enumerate(amounts)]
    front, middle, back = amounts
    return (front, middle, back)


def evaluate_core(front: list[int], middle: list[int], back: list[int], rules: RuleSet) -> Core:
    """Rows given as card codes, valued under the rules' variants, with the foul
    and the royalties (0 when fouled)."""
    plains = (evaluate3(front), evaluate5(middle), evaluate5(back))
    front_value, middle_value, back_value = plains
    if rules.wheel == "second":
        middle_value, back_value = wheel_second(middle_value), wheel_second(back_value)
    foul = find_foul(front_value, middle_value, back_value, rules.low_middle)
    if rules.low_middle:  # lower wins: negate, so that greater is still better
        middle_value = -deuce_to_seven(plains[1])
    royalties = (0, 0, 0) if foul else _royalties(rules, (front, middle, back), plains)
    return Core((front_value, middle_value, back_value), plains, foul, royalties)


def row_codes(hand: Hand) -> tuple[list[int], list[int], list[int]]:
    """The card codes of a hand's front, middle and back (as :func:`evaluate_core` takes them)."""
    front, middle, back = hand.rows
    return [card.code for card in front], [card.code for card in middle], [card.code for card in back]


def assess(hand: Hand, rules: RuleSet) -> Assessment:
    """Evaluate a hand's rows under the rules' variants, find a foul, and price
    its royalties (0 when fouled)."""
    core = evaluate_core(*row_codes(hand), rules)
    front, middle, back = (
        Row(name, cards, value, plain, amount)
        for name, cards, value, plain, amount in zip(ROW_NAMES, hand.rows, core.values, core.plains, core.royalties)
    )
    return Assessment(hand, (front, middle, back), core)


_FRONT_QUALIFIES = {12: 14, 13: 15, 14: 16}  # progressive cards for QQ, KK, AA; trips 17


def fantasyland(core: Core | None, rules: RuleSet, playing: bool, repeat: bool = False) -> Fantasyland | None:
    """Fantasyland next deal (docs/rules.md 9), or None when the rules have none.
    ``repeat``: this deal already was the player's one repeat, so they leave."""
    if rules.fantasyland == "none":
        return None
    if core is None or core.foul or (playing and repeat):
        return Fantasyland(playing, False, None)
    front, middle, back = (plain >> CATEGORY_SHIFT for plain in core.plains)
    progressive = rules.fantasyland == "progressive"
    if playing:  # stay: trips in front, full house or better in the middle, quads or better in the back
        stays = front == 3 or middle >= 6 or back >= 7
        return Fantasyland(True, stays, (14 if progressive else 13) if stays else None)
    if front == 3:
        return Fantasyland(False, True, 17 if progressive else 13)
    if front == 1 and digits(core.plains[0])[0] >= 12:  # a pair of queens or better
        pair = digits(core.plains[0])[0]
        return Fantasyland(False, True, _FRONT_QUALIFIES[pair] if progressive else 13)
    return Fantasyland(False, False, None)


def natural_claim(seat: Seat, rules: RuleSet) -> Natural | None:
    """The natural a seat plays, or None (surrendered, waived, or none made).
    An unset hand that makes no natural cannot be played: that is an error."""
    if seat.surrendered or seat.waive:
        return None
    found = detect(seat.cards, seat.hand, rules)
    if found is None and seat.hand is None:
        raise _not_a_natural(rules, f"{seat.name}: ")
    return found


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
        raise _not_a_natural(rules)
    assessment = assess(hand, rules) if hand else None
    core = assessment.core if assessment else None
    return HandReport(hand, cards, assessment, natural, fantasyland(core, rules, playing_fantasyland))


# One pair ---------------------------------------------------------------------------


def compare_rows(a: Core, b: Core) -> tuple[int, int, int]:
    """Each row from a's side; a fouled hand loses every row to a live one."""
    if a.foul or b.foul:
        if a.foul and b.foul:
            return (0, 0, 0)
        return (-1, -1, -1) if a.foul else (1, 1, 1)
    (a1, a2, a3), (b1, b2, b3) = a.values, b.values
    return ((a1 > b1) - (a1 < b1), (a2 > b2) - (a2 < b2), (a3 > b3) - (a3 < b3))


def method_bonus(method: str, rows: tuple[int, int, int]) -> Amount:
    """The method's bonus from a's side (docs/rules.md 5)."""
    won, lost = rows.count(1), rows.count(-1)
    if method == "2-4":
        return (won >= 2) - (lost >= 2)
    if method == "1-6":
        return 3 * ((won == 3) - (lost == 3))
    return 0


def royalty_units(rules: RuleSet, a: Core, b: Core, rows: tuple[int, int, int]) -> Amount:
    """Royalty units from a's side (docs/rules.md 6).  In the row modes this is what
    a row's winner collects beyond the 1 unit the row is worth."""
    mode = rules.royalties.mode
    if mode == "none":
        return 0
    if mode == "holder":
        return sum(a.royalties) - sum(b.royalties)
    return sum(row_extras(rules, a, b, rows))


def row_extras(rules: RuleSet, a: Core, b: Core, rows: tuple[int, int, int]) -> tuple[Amount, Amount, Amount]:
    """In the row modes, what each row's winner collects beyond its 1 unit,
    from a's side: row-bonus the table value, row-value the table value less 1,
    nothing when ``cancel_when_both`` and the loser's row qualifies too."""
    extras = []
    for outcome, mine, theirs in zip(rows, a.royalties, b.royalties):
        winner, loser = (mine, theirs) if outcome > 0 else (theirs, mine)
        extra: Amount = 0
        if outcome and winner and not (rules.royalties.cancel_when_both and loser):
            extra = winner if rules.royalties.mode == "row-bonus" else winner - 1
        extras.append(extra * outcome)
    front, middle, back = extras
    return (front, middle, back)


def rows_result(
    rules: RuleSet, a: Core, b: Core, rows: tuple[int, int, int], home_run_a: bool, home_run_b: bool
) -> tuple[int, Amount, Amount, int]:
    """(row_units, bonus, royalties, multiplier) of a pair whose rows are played."""
    multiplier = 1
    scoop = _scoops(rows)
    if scoop and rules.scoop_doubles:  # docs/rules.md 8
        multiplier *= 2
    if scoop and (home_run_a if scoop > 0 else home_run_b):
        multiplier *= 2
    return sum(rows), method_bonus(rules.method, rows), royalty_units(rules, a, b, rows), multiplier


def _scoops(rows: tuple[int, int, int]) -> int:
    """1 if a scooped b, -1 if b scooped a, else 0."""
    return 1 if rows == (1, 1, 1) else -1 if rows == (-1, -1, -1) else 0


# The deal ---------------------------------------------------------------------------


def settle(
    deal: Deal,
    rules: RuleSet,
    stake: Amount = 1,
    pair_stakes: Mapping[frozenset[str], Amount] | None = None,
    repeats: Collection[str] = (),
) -> Settlement:
    """Settle every pair of hands of different players.  ``pair_stakes`` maps
    ``{a, b}`` (player names) to the money per unit for that pair, overriding
    ``stake``.  ``repeats`` names the hands playing their one Fantasyland
    repeat (sessions follow it), who leave whatever they make."""
    pair_stakes = pair_stakes or {}
    seats = deal.seats
    if any(seat.surrendered for seat in seats) and rules.surrender is None:
        name = next(seat.name for seat in seats if seat.surrendered)
        raise DealError(f"{name} surrenders, but the {rules.id} rules have no surrender")
    naturals = [natural_claim(seat, rules) for seat in seats]
    assessments = [
        assess(seat.hand, rules) if seat.hand is not None and natural is None and not seat.surrendered else None
        for seat, natural in zip(seats, naturals)
    ]
    # Pairs whose rows are played, and who scooped whom (for the multipliers).
    played: dict[tuple[int, int], tuple[int, int, int]] = {}
    for i, j in _pairs(seats):
        assessment_a, assessment_b = assessments[i], assessments[j]
        if assessment_a is not None and assessment_b is not None:
            played[i, j] = compare_rows(assessment_a.core, assessment_b.core)
    owners = [seat.owner for seat in seats]
    home_run = (
        [scoops_everyone(i, owners, played) for i in range(len(seats))] if rules.home_run else [False] * len(seats)
    )

    totals: list[Amount] = [0] * len(seats)
    money: list[Amount] = [0] * len(seats)
    pairs = []
    for i, j in _pairs(seats):
        a, b = seats[i], seats[j]
        result = _settle_pair(i, j, seats, naturals, assessments, played, home_run, rules)
        pair_stake = pair_stakes.get(frozenset((a.owner, b.owner)), stake)
        decided_by, rows, row_units, bonus, royalties, multiplier, natural, surrender = result
        units = (row_units + bonus + royalties) * multiplier + natural + surrender
        amount = units * pair_stake
        pairs.append(
            PairResult(
                a.name,
                b.name,
                decided_by,
                rows,
                row_units,
                bonus,
                royalties,
                multiplier,
                natural,
                surrender,
                units,
                pair_stake,
                amount,
            )
        )
        totals[i] += units
        totals[j] -= units
        money[i] += amount
        money[j] -= amount
    players = tuple(
        PlayerResult(
            seat,
            assessment,
            natural,
            fantasyland(assessment.core if assessment else None, rules, seat.fantasyland, seat.name in repeats),
            units,
            amount,
        )
        for seat, assessment, natural, units, amount in zip(seats, assessments, naturals, totals, money)
    )
    owner_totals = []
    for name in deal.owners():
        mine = [player for player in players if player.seat.owner == name]
        owner_totals.append(OwnerTotal(name, sum(p.units for p in mine), sum(p.amount for p in mine)))
    warnings = tuple(
        f"{seat.name} waives, but the hand makes no natural under the {rules.id} rules: the waive has no effect"
        for seat in seats
        if seat.waive and detect(seat.cards, seat.hand, rules) is None
    )
    return Settlement(rules, stake, players, tuple(pairs), tuple(owner_totals), warnings)


def _pairs(seats: tuple[Seat, ...]) -> Iterator[tuple[int, int]]:
    """Seat index pairs (i < j) of hands of different players."""
    for i in range(len(seats)):
        for j in range(i + 1, len(seats)):
            if seats[i].owner != seats[j].owner:
                yield i, j


def scoops_everyone(index: int, owners: list[str], played: Mapping[tuple[int, int], tuple[int, int, int]]) -> bool:
    """Whether this hand scoops every opponent, with at least two opponents
    (an opponent with a natural or a surrender is not scooped)."""
    opponents = [other for other in range(len(owners)) if owners[other] != owners[index]]
    if len(opponents) < 2:
        return False
    for other in opponents:
        i, j = min(index, other), max(index, other)
        rows = played.get((i, j))
        if rows is None or _scoops(rows) != (1 if index == i else -1):
            return False
    return True


def _settle_pair(i, j, seats, naturals, assessments, played, home_run, rules):
    """(decided_by, rows, row_units, bonus, royalties, multiplier, natural, surrender) from i's side."""
    no_rows = (0, 0, 0)
    natural_a, natural_b = naturals[i], naturals[j]
    if natural_a or natural_b:  # docs/rules.md 7: the natural collects its own value; no multipliers
        if natural_a and natural_b:
            outcome = compare(natural_a, natural_b)
            units = natural_a.units if outcome > 0 else -natural_b.units if outcome < 0 else 0
        else:
            units = natural_a.units if natural_a else -natural_b.units
        return "natural", no_rows, 0, 0, 0, 1, units, 0
    a, b = seats[i], seats[j]
    if a.surrendered or b.surrendered:  # docs/rules.md 4, step 2
        fouled_a = assessments[i] is not None and assessments[i].foul is not None
        fouled_b = assessments[j] is not None and assessments[j].foul is not None
        if (a.surrendered and b.surrendered) or (a.surrendered and fouled_b) or (b.surrendered and fouled_a):
            units = 0
        else:
            units = -rules.surrender if a.surrendered else rules.surrender
        return "surrender", no_rows, 0, 0, 0, 1, 0, units
    rows = played[i, j]
    core_a, core_b = assessments[i].core, assessments[j].core
    row_units, bonus, royalties, multiplier = rows_result(rules, core_a, core_b, rows, home_run[i], home_run[j])
    return "rows", rows, row_units, bonus, royalties, multiplier, 0, 0
