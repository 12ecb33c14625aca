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
from cpscore.naturals import Facts, Natural, compare, detect, screen
from cpscore.records import Record
from cpscore.rules import METHOD_BONUSES, RuleSet
from cpscore.values import CATEGORY_SHIFT

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
    The kernel works on these; :class:`Assessment` adds the cards and reasons
    for the views."""

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
    if row_name != "front":
        return rules.royalties.table.lookup(row_name, kind)
    # A front's table key is its group: QQ for a pair of queens, 777 for trips.
    ranks = rank_letters(value).replace("-", "")[: 3 if kind == "trips" else 2]
    return rules.royalties.table.lookup(row_name, kind, ranks)


class _Model:
    """What settling reads of a rule set, worked out once per rule set: the
    variants, and for each of the 27 ways three rows can go, the row units,
    the method's bonus, who scooped and the scoop's multiplier (from
    :func:`method_bonus` and :func:`_scoops`); and royalties remembered by row
    value (the same few values come up again and again in a session)."""

    __slots__ = ("by_rows", "mode", "second", "low_middle", "royalty_memos", "plain_royalties")

    def __init__(self, rules: RuleSet) -> None:
        import itertools

        self.by_rows: dict[tuple[int, int, int], tuple[int, Amount, int, int]] = {}
        for front, middle, back in itertools.product((1, 0, -1), repeat=3):
            rows = (front, middle, back)
            scoop = _scoops(rows)
            multiplier = 2 if scoop and rules.scoop_doubles else 1  # docs/rules.md 8
            self.by_rows[rows] = (sum(rows), method_bonus(rules.method, rows), scoop, multiplier)
        royalties = rules.royalties
        self.mode = royalties.mode
        self.second = rules.wheel == "second"
        self.low_middle = rules.low_middle
        self.royalty_memos: tuple[dict[int, Amount], dict[int, Amount], dict[int, Amount]] = ({}, {}, {})
        # Royalties are looked up and nothing else: no spade bonus, no limit per hand.
        self.plain_royalties = not royalties.spade_bonus and not royalties.max_per_hand


_MODELS: dict[tuple[object, ...], _Model] = {}
_LAST: list[tuple[object, object]] = [(None, None)]  # [(the last rule set asked for, its model)]


def _model(rules: RuleSet) -> _Model:
    """The rule set's :class:`_Model`, made once and kept by the rule set's
    value, never by ``id()``: a new rule set can never be handed an old one's
    royalties.  The last rule set is also held (a reference, so no other
    object can take its place) and checked by identity first."""
    last, model = _LAST[0]  # one read: the pair cannot be torn by another thread
    if last is rules:
        return model  # type: ignore[return-value]  # made for this rule set below
    royalties = rules.royalties
    key = (
        rules.method,
        rules.scoop_doubles,
        rules.wheel,
        rules.low_middle,
        royalties.mode,
        royalties.table.key,
        royalties.spade_bonus,
        royalties.max_per_hand,
    )
    found = _MODELS.get(key)
    if found is None:
        if len(_MODELS) > 100:
            _MODELS.clear()
        found = _MODELS[key] = _Model(rules)
    _LAST[0] = (rules, found)
    return found


def _royalties(
    rules: RuleSet, rows: tuple[Sequence[int], Sequence[int], Sequence[int]], plains: tuple[int, int, int]
) -> tuple[Amount, Amount, Amount]:
    model = _model(rules)
    if model.mode == "none":
        return (0, 0, 0)
    amounts = []
    for name, memo, plain in zip(ROW_NAMES, model.royalty_memos, plains):
        found = memo.get(plain)
        if found is None:
            found = memo[plain] = royalty(rules, name, plain)
        amounts.append(found)
    if model.plain_royalties:
        return (amounts[0], amounts[1], amounts[2])
    if rules.royalties.spade_bonus:  # doubled before max_per_hand picks the largest
        amounts = [a * 2 if _TWO_OF_SPADES in codes else a for a, codes in zip(amounts, rows)]
    keep = rules.royalties.max_per_hand
    if keep and sum(1 for amount in amounts if amount) > keep:
        ranked = sorted(range(3), key=lambda i: (amounts[i], -i), reverse=True)[:keep]
        amounts = [amount if i in ranked else 0 for i, amount in enumerate(amounts)]
    front, middle, back = amounts
    return (front, middle, back)


def evaluate_core(front: Sequence[int], middle: Sequence[int], back: Sequence[int], rules: RuleSet) -> Core:
    """Rows given as card codes, valued under the rules' variants, with the foul
    and the royalties (0 when fouled)."""
    model = _model(rules)
    plains = front_value, middle_value, back_value = (evaluate3(front), evaluate5(middle), evaluate5(back))
    if model.second:
        middle_value, back_value = wheel_second(middle_value), wheel_second(back_value)
    if model.low_middle:
        foul = find_foul(front_value, middle_value, back_value, True)
        middle_value = -deuce_to_seven(plains[1])  # lower wins: negate, so that greater is still better
    elif middle_value > back_value or front_value > middle_value:
        foul = find_foul(front_value, middle_value, back_value)
    else:
        foul = None
    if foul is not None or model.mode == "none":
        return Core((front_value, middle_value, back_value), plains, foul, _NO_ROYALTIES)
    return Core((front_value, middle_value, back_value), plains, None, _royalties(rules, (front, middle, back), plains))


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
    two, three = METHOD_BONUSES[method]
    return two * ((won >= 2) - (lost >= 2)) + three * ((won == 3) - (lost == 3))


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


def _scoops(rows: tuple[int, int, int]) -> int:
    """1 if a scooped b, -1 if b scooped a, else 0."""
    return 1 if rows == (1, 1, 1) else -1 if rows == (-1, -1, -1) else 0


# The deal: the kernel ---------------------------------------------------------------


class Outcome(Record):
    """A deal settled by :func:`kernel`, as plain values by seat index: each
    seat's core (None when it plays no rows: a natural, a surrender), its
    natural, its Fantasyland, its net units and money, and each pair as
    ``(i, j, decided_by, rows, row_units, bonus, royalties, multiplier,
    natural, surrender, units, stake, amount)`` from seat i's side."""

    __slots__ = ("cores", "naturals", "fantasyland", "units", "money", "pairs")

    def __init__(
        self,
        cores: list[Core | None],
        naturals: list[Natural | None],
        fantasyland: list[Fantasyland | None],
        units: list[Amount],
        money: list[Amount],
        pairs: list[tuple],
    ) -> None:
        self.cores = cores
        self.naturals = naturals
        self.fantasyland = fantasyland
        self.units = units
        self.money = money
        self.pairs = pairs


_NO_ROWS = (0, 0, 0)
_ALL_PAIRS: dict[int, list[tuple[int, int]]] = {}  # seat index pairs (i < j) by number of seats


def kernel(
    seats: Sequence[Seat],
    rules: RuleSet,
    stake: Amount = 1,
    pair_stakes: Mapping[frozenset[str], Amount] | None = None,
    repeats: Collection[str] = (),
) -> Outcome:
    """Settle a deal: the one place where a row, a bonus, a royalty, a
    multiplier, a natural or a surrender is decided (docs/rules.md 3-9).
    :func:`settle` and every view are built on its :class:`Outcome`; a
    session's totals read it directly.  Every pair of hands of different
    players is settled on its own; a hand's result is its sum over them."""
    count = len(seats)
    if rules.surrender is None and any(seat.surrendered for seat in seats):
        name = next(seat.name for seat in seats if seat.surrendered)
        raise DealError(f"{name} surrenders, but the {rules.id} rules have no surrender")
    naturals: list[Natural | None] = [None] * count
    cores: list[Core | None] = [None] * count
    enabled = bool(rules.naturals)
    for index, seat in enumerate(seats):
        if seat.surrendered:
            continue
        hand = seat.hand
        codes = seat.codes
        core = None
        if hand is not None:
            core = evaluate_core(codes[:3], codes[3:8], codes[8:], rules)
        if enabled and not seat.waive:
            if core is None:
                facts = Facts(codes)
                claim = detect(seat.cards, None, rules, facts)
            else:
                plains = core.plains
                facts = Facts(codes, (plains[1] >> CATEGORY_SHIFT, plains[2] >> CATEGORY_SHIFT), codes[:3])
                claim = detect(seat.cards, hand, rules, facts) if screen(rules, facts) else None
            if claim is not None:
                naturals[index] = claim
                continue
        if core is None:
            raise _not_a_natural(rules, f"{seat.name}: ")
        cores[index] = core
    owners = [seat.owner for seat in seats]
    if len(set(owners)) == count:  # a player a hand: every pair plays
        pairs_of = _ALL_PAIRS.get(count) or _ALL_PAIRS.setdefault(
            count, [(i, j) for i in range(count) for j in range(i + 1, count)]
        )
    else:  # criss-cross: hands of one player never play each other
        pairs_of = [(i, j) for i in range(count) for j in range(i + 1, count) if owners[i] != owners[j]]
    # Pairs whose rows are played, and who scooped whom (for the multipliers).
    played: dict[tuple[int, int], tuple[int, int, int]] = {}
    for i, j in pairs_of:
        core_a, core_b = cores[i], cores[j]
        if core_a is not None and core_b is not None:
            played[i, j] = compare_rows(core_a, core_b)
    home_run = [scoops_everyone(i, owners, played) for i in range(count)] if rules.home_run else [False] * count
    units: list[Amount] = [0] * count
    money: list[Amount] = [0] * count
    pairs: list[tuple] = []
    model = _model(rules)
    by_rows, with_royalties = model.by_rows, model.mode != "none"
    for i, j in pairs_of:
        rows = played.get((i, j))
        pair_stake = pair_stakes.get(frozenset((owners[i], owners[j])), stake) if pair_stakes else stake
        if rows is not None:  # both hands play their rows
            core_a, core_b = cores[i], cores[j]
            assert core_a is not None and core_b is not None  # played: both have rows
            row_units, bonus, scoop, multiplier = by_rows[rows]
            if scoop and (home_run[i] if scoop > 0 else home_run[j]):  # docs/rules.md 8
                multiplier *= 2
            royalties = royalty_units(rules, core_a, core_b, rows) if with_royalties else 0
            amount = (row_units + bonus + royalties) * multiplier
            paid = amount * pair_stake
            pairs.append((i, j, "rows", rows, row_units, bonus, royalties, multiplier, 0, 0, amount, pair_stake, paid))
        else:
            natural_a, natural_b = naturals[i], naturals[j]
            if natural_a or natural_b:  # docs/rules.md 7: the natural collects its own value; no multipliers
                if natural_a and natural_b:
                    outcome = compare(natural_a, natural_b)
                    amount = natural_a.units if outcome > 0 else -natural_b.units if outcome < 0 else 0
                else:
                    amount = natural_a.units if natural_a else -natural_b.units  # type: ignore[union-attr]
                paid = amount * pair_stake
                pairs.append((i, j, "natural", _NO_ROWS, 0, 0, 0, 1, amount, 0, amount, pair_stake, paid))
            else:  # docs/rules.md 4, step 2: a surrender
                amount = _surrender_units(seats[i], seats[j], cores[i], cores[j], rules)
                paid = amount * pair_stake
                pairs.append((i, j, "surrender", _NO_ROWS, 0, 0, 0, 1, 0, amount, amount, pair_stake, paid))
        units[i] += amount
        units[j] -= amount
        money[i] += paid
        money[j] -= paid
    fantasylands: list[Fantasyland | None] = [None] * count
    if rules.fantasyland != "none":
        fantasylands = [
            fantasyland(core, rules, seat.fantasyland, seat.name in repeats) for seat, core in zip(seats, cores)
        ]
    return Outcome(cores, naturals, fantasylands, units, money, pairs)


def _surrender_units(a: Seat, b: Seat, core_a: Core | None, core_b: Core | None, rules: RuleSet) -> Amount:
    """What a pair with a surrender pays, from a's side: nothing when both
    surrender or the other hand fouls, else the surrender's units."""
    assert rules.surrender is not None  # kernel() refuses a surrender under rules without one
    fouled_a = core_a is not None and core_a.foul is not None
    fouled_b = core_b is not None and core_b.foul is not None
    if (a.surrendered and b.surrendered) or (a.surrendered and fouled_b) or (b.surrendered and fouled_a):
        return 0
    return -rules.surrender if a.surrendered else rules.surrender


def settle(
    deal: Deal,
    rules: RuleSet,
    stake: Amount = 1,
    pair_stakes: Mapping[frozenset[str], Amount] | None = None,
    repeats: Collection[str] = (),
) -> Settlement:
    """Settle every pair of hands of different players (:func:`kernel`) and
    give the result with its reasons.  ``pair_stakes`` maps ``{a, b}``
    (player names) to the money per unit for that pair, overriding ``stake``.
    ``repeats`` names the hands playing their one Fantasyland repeat
    (sessions follow it), who leave whatever they make."""
    seats = deal.seats
    outcome = kernel(seats, rules, stake, pair_stakes, repeats)
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
    owner_totals = []
    for name in deal.owners():
        mine = [player for player in players if player.seat.owner == name]
        owner_totals.append(OwnerTotal(name, sum(p.units for p in mine), sum(p.amount for p in mine)))
    warnings = waive_warnings(seats, rules) if warn else ()
    return Settlement(rules, stake, players, pairs, tuple(owner_totals), warnings)


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
