"""The arranger: the best legal settings of 13 cards under a rule set.

"Best" means the highest expected units against one opponent whose 13 cards
are drawn at random from the 39 others and set by a fixed baseline: the
strongest possible five-card back, then the strongest five-card middle from
the remaining eight, then the front (:mod:`cpscore.baselinegen`).

The estimate reads a shipped table of how often each baseline row value
comes up, which gives each of our rows its chance to win, tie or lose, and
takes the rows as independent: expected row units, plus the method's bonus
from those chances (2-4: two rows of three; 1-6: the scoop), plus royalties
(holder: ours less the baseline's average; row modes: what each row's winner
collects beyond 1), plus a scoop doubling where the rules double scoops.  A
home run needs several opponents and is left out.  ``simulate`` replaces the
estimate by an average over drawn opponents, settled by the scoring steps
themselves.

What a row value is worth depends only on the rule set, so it is worked out
once per rule set (on first use of each value) and kept in a model cached by
the rule set's value (:func:`_model`); a hand pays only for its own rows.

The search is exact for the estimate and prunes: a back can only carry a
middle no stronger than itself and a front no stronger than that, so the
estimate of any setting with a given back is bounded by the best chances of
any middle and front of the hand that could sit below it.  That bound only
grows with the back, so backs are tried strongest first and the search stops
at the first back whose bound cannot beat what it holds.  Settings of equal
estimate are ordered by a fixed rule (the cards' positions), so the result
does not depend on the order of the search.

In Fantasyland (rules with ``fantasyland``, docs/rules.md 9) a hand of 14 to
17 cards keeps 13 and discards the rest: the search chooses the back, the
middle and the front from all the cards, and a setting that stays in
Fantasyland (trips in front, a full house or better in the middle, quads or
better in the back) adds ``fantasyland_value`` to its worth
(:data:`FANTASYLAND_VALUE` unless given).

>>> from cpscore.cards import parse_cards
>>> from cpscore.rules import get_rules
>>> best = arrange(parse_cards("Ah Ad Ac 7s 7d Ks Kd 4c 9h 9c 5d 5s 2c"), get_rules("2-4"))[0]
>>> str(best.hand)
'7s 7d 4c / Ks Kd 5d 5s 2c / Ah Ad Ac 9h 9c'
"""

from __future__ import annotations

import heapq
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from typing import TYPE_CHECKING

from cpscore.cards import ROW_NAMES, Card, Hand
from cpscore.errors import CardError, RulesError
from cpscore.records import Record
from cpscore.rules import METHOD_BONUSES, RuleSet
from cpscore.scoring import kernel, royalty

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from cpscore.amounts import Amount

    #: A row value's (win, lose, royalty term): what the search reads.
    _Chances = tuple[float, float, float]
    #: The estimate from the front's, middle's and back's (win, lose, term):
    #: (expected units, the bonus part, the royalty part).
    _Value = Callable[[float, float, float, float, float, float, float, float, float], tuple[float, float, float]]

#: What staying in Fantasyland is worth, in units per opponent, when the
#: arranger weighs a Fantasyland hand: about what one Fantasyland deal of 14
#: cards is worth over a plain deal (README, "Arranging 13 cards").
FANTASYLAND_VALUE = 6.0

_CATEGORY_SHIFT = 20  # cpscore.values.CATEGORY_SHIFT
_TRIPS, _FULL_HOUSE, _QUADS = 3, 6, 7  # cpscore.values categories


class RowChances(Record):
    """A row's chances against the baseline's row, and what its royalties add."""

    __slots__ = ("win", "tie", "lose", "royalty")

    def __init__(self, win: float, tie: float, lose: float, royalty: float) -> None:
        self.win = win
        self.tie = tie
        self.lose = lose
        self.royalty = royalty  # expected royalty units this row adds (see the module notes)


class Setting(Record):
    """A legal setting of 13 cards, its expected units, and the figures.
    ``discards`` are the cards a Fantasyland hand of more than 13 leaves out;
    ``fantasyland`` is what staying in Fantasyland adds to its worth (0 when
    it does not stay, or when staying is not weighed)."""

    __slots__ = ("hand", "expected", "rows", "bonus", "royalties", "simulated", "discards", "fantasyland")

    def __init__(
        self,
        hand: Hand,
        expected: float,
        rows: tuple[RowChances, RowChances, RowChances],
        bonus: float,
        royalties: float,
        simulated: float | None = None,
        discards: tuple[Card, ...] = (),
        fantasyland: float = 0.0,
    ) -> None:
        self.hand = hand
        self.expected = expected  # the estimate of this deal's units
        self.rows = rows
        self.bonus = bonus
        self.royalties = royalties
        self.simulated = simulated  # the simulated average, with simulate=N
        self.discards = discards
        self.fantasyland = fantasyland

    @property
    def worth(self) -> float:
        """What the settings are ranked by: the simulated average where there
        is one, else the estimate, plus the value of staying in Fantasyland."""
        return (self.expected if self.simulated is None else self.simulated) + self.fantasyland


class Arrangement(Record):
    """The cards, the naturals they make, and their best settings, best first.
    ``natural_units`` is what the first natural (the one an unset hand
    claims) collects from each opponent; ``recommend`` is that natural when
    it is worth more than the best setting, and then the hand should be
    declared (else None).  For a natural made of rows (three straights, three
    flushes, three straight flushes) ``natural_hand`` is the setting that
    makes it: declaring it is playing those rows, which claim it.
    ``fantasyland`` is the value staying counted for when the hand was
    weighed as a Fantasyland hand, else None."""

    __slots__ = ("cards", "naturals", "settings", "recommend", "natural_units", "natural_hand", "fantasyland")

    def __init__(
        self,
        cards: tuple[Card, ...],
        naturals: list[str],
        settings: list[Setting],
        recommend: str | None = None,
        natural_units: Amount | None = None,
        natural_hand: Hand | None = None,
        fantasyland: float | None = None,
    ) -> None:
        self.cards = cards
        self.naturals = naturals
        self.settings = settings
        self.recommend = recommend
        self.natural_units = natural_units
        self.natural_hand = natural_hand
        self.fantasyland = fantasyland


# The baseline's rows ------------------------------------------------------------------


class _Table:
    """One baseline row's values with cumulative counts."""

    def __init__(self, values: tuple[int, ...], counts: tuple[int, ...], samples: int) -> None:
        from itertools import accumulate

        self.values = values
        self.samples = samples
        self.cumulative = list(accumulate(counts, initial=0))

    def chances(self, value: int) -> tuple[float, float]:
        """(win, tie) of a row of this value against the baseline's row."""
        low, high = bisect_left(self.values, value), bisect_right(self.values, value)
        return self.cumulative[low] / self.samples, (self.cumulative[high] - self.cumulative[low]) / self.samples

    def above(self, weights: list[float]) -> list[float]:
        """For each index, the sum of weight x frequency over the values above it."""
        total = 0.0
        sums = [0.0] * (len(self.values) + 1)
        for index in range(len(self.values) - 1, -1, -1):
            count = self.cumulative[index + 1] - self.cumulative[index]
            total += weights[index] * count / self.samples
            sums[index] = total
        return sums


_TABLES: dict[str, _Table] = {}


def _tables() -> dict[str, _Table]:
    if not _TABLES:
        from cpscore import _baseline

        for row in ROW_NAMES:
            values = getattr(_baseline, f"{row.upper()}_VALUES")
            counts = getattr(_baseline, f"{row.upper()}_COUNTS")
            _TABLES[row] = _Table(values, counts, _baseline.SAMPLES)
    return _TABLES


# The model: what the rule set makes each row value worth ------------------------------


class _Model:
    """The estimate under one rule set: what each row value is worth.  Built
    once per rule set (see :func:`_model`); a row value's chances are worked
    out the first time a hand has it and kept."""

    def __init__(self, rules: RuleSet) -> None:
        if rules.low_middle:
            raise RulesError(f"the arranger does not play the middle low ({rules.id}): its baseline plays it high")
        self.rules = rules
        self.tables = _tables()
        mode = rules.royalties.mode
        self.mode = mode
        self.opponent_extras: dict[str, list[float]] = {}
        self.opponent_holder = 0.0
        if mode != "none":
            for row, table in self.tables.items():
                royalties = [float(royalty(rules, row, value)) for value in table.values]
                if mode == "holder":
                    self.opponent_holder += sum(
                        r * (table.cumulative[i + 1] - table.cumulative[i]) / table.samples
                        for i, r in enumerate(royalties)
                    )
                elif mode in ("row-bonus", "row-value"):
                    self.opponent_extras[row] = table.above([self._extra(r) for r in royalties])
        #: Per row: value -> (win, lose, royalty term), and value -> tie.
        self.chances: dict[str, dict[int, _Chances]] = {row: {} for row in ROW_NAMES}
        self.ties: dict[str, dict[int, float]] = {row: {} for row in ROW_NAMES}
        self.value = _value_function(rules.method, mode == "holder", self.opponent_holder, rules.scoop_doubles)
        two, three = METHOD_BONUSES[rules.method]
        doubled = _scoop_units(rules.method) if rules.scoop_doubles else 0
        self._pair = float(two)  # the bonus for two rows won
        self._triple = doubled - 2 * two + three  # all three won (two rows won three ways, less the overlap)

    def with_back(self, win: float, lose: float, term: float) -> tuple[float, float, float, float, float]:
        """The estimate with the back fixed, as the same sum taken apart:
        ``c + p (wf + wm) - q (lf + lm) + s wf wm - t lf lm + rf + rm`` gives
        (c, p, q, s, t).  It agrees with :attr:`value` to rounding; the
        search uses it to pass over settings that cannot make the list."""
        pair, triple = self._pair, self._triple
        constant = win - lose + term - (self.opponent_holder if self.mode == "holder" else 0.0)
        return (
            constant,
            1 + pair * win,
            1 + pair * lose,
            pair + triple * win,
            pair + triple * lose,
        )

    def _extra(self, amount: float) -> float:
        """What a winning row of this royalty collects beyond its 1 unit."""
        if not amount:
            return 0.0
        return amount if self.mode == "row-bonus" else amount - 1

    def _work_out(self, row: str, value: int) -> None:
        table = self.tables[row]
        win, tie = table.chances(value)
        if self.mode == "none":
            term = 0.0
        else:
            own = float(royalty(self.rules, row, value))
            if self.mode == "holder":
                term = own
            else:  # row-bonus, row-value
                term = win * self._extra(own) - self.opponent_extras[row][bisect_right(table.values, value)]
        self.chances[row][value] = (win, 1 - win - tie, term)
        self.ties[row][value] = tie

    def have(self, row: str, values: set[int]) -> dict[int, _Chances]:
        """The row's chances by value, with every one of ``values`` in it."""
        known = self.chances[row]
        for value in values.difference(known):
            self._work_out(row, value)
        return known

    def row(self, row: str, value: int) -> RowChances:
        """A row's chances and royalty term for a row of this (plain) value."""
        if value not in self.chances[row]:
            self._work_out(row, value)
        win, lose, term = self.chances[row][value]
        return RowChances(win, self.ties[row][value], lose, term)

    def expected(self, front: RowChances, middle: RowChances, back: RowChances) -> tuple[float, float, float]:
        """(expected units, the bonus part, the royalty part) of a setting."""
        return self.value(
            front.win, front.lose, front.royalty, middle.win, middle.lose, middle.royalty,
            back.win, back.lose, back.royalty,
        )  # fmt: skip


def _value_function(method: str, holder: bool, opponent_holder: float, scoop_doubles: bool) -> _Value:
    """The estimate of a setting from its rows' (win, lose, royalty term),
    for one rule set: (expected units, the bonus part, the royalty part)."""
    scoop_units = _scoop_units(method)
    two, three = METHOD_BONUSES[method]

    def value(
        wf: float, lf: float, rf: float, wm: float, lm: float, rm: float, wb: float, lb: float, rb: float
    ) -> tuple[float, float, float]:
        rows = (wf - lf) + (wm - lm) + (wb - lb)
        scoop, scooped = wf * wm * wb, lf * lm * lb
        bonus = 0.0
        if two:  # at least two rows won, less at least two lost
            bonus += two * ((wf * wm + wf * wb + wm * wb - 2 * scoop) - (lf * lm + lf * lb + lm * lb - 2 * scooped))
        if three:
            bonus += three * (scoop - scooped)
        royalties = rf + rm + rb
        if holder:
            royalties -= opponent_holder
        total = rows + bonus + royalties
        if scoop_doubles:  # the scoop's units count twice
            total += scoop * scoop_units - scooped * scoop_units
        return total, bonus, royalties

    return value


def _scoop_units(method: str) -> int:
    """A scoop's units under the method, rows and bonus: what doubling adds."""
    two, three = METHOD_BONUSES[method]
    return 3 + two + three


#: How far the quick sum of :meth:`_Model.with_back` may be from the estimate
#: (rounding only, far less than this) when it passes a setting over.
_SLACK = 1e-9

_MODELS: dict[object, _Model] = {}
_MODELS_KEPT = 8


def _value_key(value: object) -> object:
    """A rule set (or any part of one) as a hashable value: records field by
    field, mappings by their sorted items.  Equal values give equal keys."""
    if isinstance(value, Record):
        return (type(value).__name__, *(_value_key(getattr(value, name)) for name in value.__slots__))
    if hasattr(value, "items"):
        return tuple(sorted((key, _value_key(item)) for key, item in value.items()))
    return value


def _model(rules: RuleSet) -> _Model:
    """The model of this rule set, cached by the rule set's value, never by
    ``id()``: a rule set made anew with the same settings finds the same
    model, and one that differs in any setting never does.  The last few
    rule sets are kept."""
    key = _value_key(rules)
    found = _MODELS.get(key)
    if found is None:
        found = _Model(rules)
        if len(_MODELS) >= _MODELS_KEPT:
            del _MODELS[next(iter(_MODELS))]  # the oldest
        _MODELS[key] = found
    return found


# One hand's rows ----------------------------------------------------------------------

_COMBOS: dict[tuple[int, int], tuple[list[tuple[int, ...]], list[int]]] = {}


def _combos(n: int, k: int) -> tuple[list[tuple[int, ...]], list[int]]:
    """The k-subsets of range(n), as index tuples and as bit masks (made on first use)."""
    found = _COMBOS.get((n, k))
    if found is None:
        from itertools import combinations

        combos = list(combinations(range(n), k))
        found = _COMBOS[n, k] = (combos, [sum(1 << i for i in combo) for combo in combos])
    return found


class _Rows:
    """One hand's five- and three-card rows by bit mask (bit i: the i-th card),
    and the bound on what any setting with a given back can be worth."""

    def __init__(self, codes: list[int], model: _Model, second_wheel: bool) -> None:
        from itertools import accumulate
        from operator import itemgetter

        from cpscore._tables import FIVE, THREE
        from cpscore.hands import PRIME, SUIT, evaluate5, wheel_second

        n = self.count = len(codes)
        prime = [PRIME[code] for code in codes]
        combos, masks = _combos(n, 5)
        five = dict(
            zip(masks, [FIVE[prime[a] * prime[b] * prime[c] * prime[d] * prime[e]] for a, b, c, d, e in combos])
        )
        suited: dict[int, list[int]] = {}
        for index, code in enumerate(codes):
            suited.setdefault(SUIT[code], []).append(index)
        for indices in suited.values():  # flushes and straight flushes: the evaluator's own word
            if len(indices) >= 5:
                for combo in _combos(len(indices), 5)[0]:
                    chosen = [indices[i] for i in combo]
                    five[sum(1 << i for i in chosen)] = evaluate5([codes[i] for i in chosen])
        combos3, masks3 = _combos(n, 3)
        self.three = dict(zip(masks3, [THREE[prime[a] * prime[b] * prime[c]] for a, b, c in combos3]))
        self.five = five
        #: As the rows rank under the rules (the wheel); five itself when nothing moves.
        self.rank = {mask: wheel_second(value) for mask, value in five.items()} if second_wheel else five
        #: The backs, strongest first.
        self.order = sorted(five, key=self.rank.__getitem__, reverse=True)
        values = set(five.values())
        if second_wheel:
            distinct = sorted(set(zip(self.rank.values(), five.values())))
            self.ranks, plains = [rank for rank, _ in distinct], [plain for _, plain in distinct]
        else:
            self.ranks = plains = sorted(values)
        self.middle = model.have("middle", values)
        self.back = model.have("back", values)
        self.front = model.have("front", set(self.three.values()))
        self.fronts = sorted(set(self.three.values()))
        # The best chances of any row of the hand ranking at most a limit:
        # highest win, lowest loss, largest royalty term (each on its own: a bound).
        win, lose, term = itemgetter(0), itemgetter(1), itemgetter(2)
        envelopes = []
        for chances, values_in_order in ((self.front, self.fronts), (self.middle, plains), (self.back, plains)):
            rows = list(map(chances.__getitem__, values_in_order))
            envelopes.append(
                (
                    list(accumulate(map(win, rows), max)),
                    list(accumulate(map(lose, rows), min)),
                    list(accumulate(map(term, rows), max)),
                )
            )
        self._envelopes = envelopes
        self._value = model.value

    def bound(self, limit: int) -> float:
        """The most any setting can be worth whose back ranks at most ``limit``
        (minus infinity when no front of the hand fits under it).  It never
        falls as the limit rises."""
        i = bisect_right(self.ranks, limit) - 1
        j = bisect_right(self.fronts, limit) - 1
        if i < 0 or j < 0:
            return float("-inf")
        (fw, fl, ft), (mw, ml, mt), (bw, bl, bt) = self._envelopes
        return self._value(fw[j], fl[j], ft[j], mw[i], ml[i], mt[i], bw[i], bl[i], bt[i])[0]


# The search ---------------------------------------------------------------------------


def _check_cards(cards: Sequence[Card], rules: RuleSet, fantasyland: bool | None) -> bool:
    """Whether the hand is weighed as a Fantasyland hand; an error when the
    cards cannot be arranged under these rules."""
    count = len(cards)
    twice = sorted({str(card) for card in cards if cards.count(card) > 1})
    if twice:
        raise CardError(
            f"{', '.join(twice)} {'is' if len(twice) == 1 else 'are'} given twice: the arranger takes different cards"
        )
    has_fantasyland = rules.fantasyland != "none"
    if count == 13 or (has_fantasyland and 14 <= count <= 17):
        if fantasyland and not has_fantasyland:
            raise RulesError(f"the {rules.id} rules have no Fantasyland: arrange the hand as a plain one")
        if fantasyland is False and count > 13:
            raise CardError(f"{count} cards are a Fantasyland hand: only 13 are a plain one")
        return count > 13 if fantasyland is None else fantasyland
    what = f"{count} card{'s' * (count != 1)}"
    if has_fantasyland:
        raise CardError(f"{what}: the arranger takes 13 different cards, or 14 to 17 in Fantasyland")
    if 14 <= count <= 17:
        raise CardError(
            f"{what}: the arranger takes 13 different cards; 14 to 17 only under rules with Fantasyland"
            f" (such as ofc or pineapple), not {rules.id}"
        )
    raise CardError(f"{what}: the arranger takes 13 different cards")


def arrange(
    cards: Sequence[Card],
    rules: RuleSet,
    top: int = 3,
    fantasyland: bool | None = None,
    fantasyland_value: float = FANTASYLAND_VALUE,
) -> list[Setting]:
    """The ``top`` legal settings with the highest estimate, best first.

    Under rules with Fantasyland, 14 to 17 cards are a Fantasyland hand: each
    setting keeps 13 of them (the rest are its ``discards``), and one that
    stays in Fantasyland is worth ``fantasyland_value`` more.  ``fantasyland``
    says whether 13 cards are played in Fantasyland too (by default only a
    hand of more than 13 is)."""
    in_fantasyland = _check_cards(cards, rules, fantasyland)
    model = _model(rules)
    codes = [card.code for card in cards]
    rows = _Rows(codes, model, rules.wheel == "second")
    if in_fantasyland:
        kept = _search_fantasyland(rows, model, top, fantasyland_value)
        shift = len(cards)
    else:
        kept = _search(rows, model, top)
        shift = 13
    full = (1 << len(cards)) - 1
    results = []
    for _worth, key in sorted(kept, reverse=True):
        masks = -key
        back, middle = masks >> 2 * shift, masks >> shift & full
        front = masks & full if in_fantasyland else full ^ back ^ middle
        hand = Hand(*(tuple(cards[i] for i in range(len(cards)) if mask >> i & 1) for mask in (front, middle, back)))
        values = (rows.three[front], rows.five[middle], rows.five[back])
        chances = (model.row("front", values[0]), model.row("middle", values[1]), model.row("back", values[2]))
        total, bonus, royalties = model.expected(*chances)
        left = full ^ front ^ middle ^ back
        stays = in_fantasyland and _stays(*values)
        results.append(
            Setting(
                hand,
                total,
                chances,
                bonus,
                royalties,
                discards=tuple(cards[i] for i in range(len(cards)) if left >> i & 1),
                fantasyland=fantasyland_value if stays else 0.0,
            )
        )
    return results


def _stays(front: int, middle: int, back: int) -> bool:
    """Whether rows of these (plain) values stay in Fantasyland (docs/rules.md 9;
    as :func:`cpscore.scoring.fantasyland` judges a hand that is not fouled)."""
    shift = _CATEGORY_SHIFT
    return front >> shift == _TRIPS or middle >> shift >= _FULL_HOUSE or back >> shift >= _QUADS


def _search(rows: _Rows, model: _Model, top: int) -> list[tuple[float, int]]:
    """The best ``top`` settings of 13 cards as (estimate, -(back << 26 | middle << 13)),
    a min-heap.  Backs are tried best bound first and, in equal bounds, by
    their cards' positions (a fixed order, so equal estimates always come
    out the same way); the search stops at the first back whose bound cannot
    beat the worst setting held."""
    five, rank, three = rows.five, rows.rank, rows.three
    middles, backs, fronts = rows.middle, rows.back, rows.front
    value = model.value
    local = _combos(8, 5)[0]  # the middles among the 8 cards left by a back
    full = (1 << 13) - 1
    kept: list[tuple[float, int]] = []
    floor = float("-inf")  # what a setting must reach to be worked out exactly
    for upper, group in _by_bound(rows):
        for back in group:
            if len(kept) == top and upper <= kept[0][0]:
                return kept  # and so for every weaker back
            back_rank = rank[back]
            bw, bl, bt = backs[five[back]]
            constant, p, q, s, t = model.with_back(bw, bl, bt)
            others = full ^ back
            bits = [1 << i for i in range(13) if others >> i & 1]
            high = back << 26
            for a, b, c, d, e in local:
                middle = bits[a] | bits[b] | bits[c] | bits[d] | bits[e]
                middle_rank = rank[middle]
                if middle_rank > back_rank:
                    continue
                front_value = three[others ^ middle]
                if front_value > middle_rank:  # the front's scale is the five-card one
                    continue
                mw, ml, mt = middles[five[middle]]
                fw, fl, ft = fronts[front_value]
                if constant + p * (fw + mw) - q * (fl + ml) + s * fw * mw - t * fl * ml + ft + mt < floor:
                    continue
                estimate = value(fw, fl, ft, mw, ml, mt, bw, bl, bt)[0]
                if len(kept) < top:
                    heapq.heappush(kept, (estimate, -(high | middle << 13)))
                elif estimate > kept[0][0]:
                    heapq.heapreplace(kept, (estimate, -(high | middle << 13)))
                else:
                    continue
                if len(kept) == top:
                    floor = kept[0][0] - _SLACK
    return kept


def _by_bound(rows: _Rows) -> Iterator[tuple[float, list[int]]]:
    """The backs in groups of equal bound, best bound first, each group by
    the backs' masks, highest first.  The bound never falls as the back gets
    stronger, so the backs strongest first give the groups in order, and a
    bound is worked out only for the backs the search reaches."""
    order, rank, bound = rows.order, rows.rank, rows.bound
    last_rank, last_bound = None, 0.0
    group: list[int] = []
    upper = 0.0
    for back in order:
        back_rank = rank[back]
        if back_rank != last_rank:
            last_rank, last_bound = back_rank, bound(back_rank)
        if group and last_bound != upper:
            group.sort(reverse=True)
            yield upper, group
            group = []
        upper = last_bound
        group.append(back)
    if group:
        group.sort(reverse=True)
        yield upper, group


def _search_fantasyland(rows: _Rows, model: _Model, top: int, stay_value: float) -> list[tuple[float, int]]:
    """The best ``top`` settings of 13 of the n cards, with staying in
    Fantasyland worth ``stay_value`` more, as (worth, -(back << 2n | middle <<
    n | front)), a min-heap.  Backs strongest first, as :func:`_search`; for
    each middle, a bound from the best front of the hand that fits under it
    passes over the middles that cannot make the list before their fronts
    are tried.  Equal worths keep the settings of lowest masks."""
    five, rank, three = rows.five, rows.rank, rows.three
    middles, backs, fronts = rows.middle, rows.back, rows.front
    front_values = rows.fronts
    (best_win, best_lose, best_term), _, _ = rows._envelopes
    value = model.value
    n = rows.count
    full = (1 << n) - 1
    middle_combos = _combos(n - 5, 5)[0]
    front_combos = _combos(n - 10, 3)[0]
    shift = _CATEGORY_SHIFT
    # The rows that can stay other than a back of quads or better: a middle
    # of a full house or better, trips in front.
    full_houses = [mask for mask, plain in five.items() if plain >> shift >= _FULL_HOUSE]
    trips = [mask for mask, plain in three.items() if plain >> shift == _TRIPS]
    kept: list[tuple[float, int]] = []
    floor = float("-inf")
    for back in rows.order:
        back_rank = rank[back]
        back_category = five[back] >> shift
        back_stays = back_category >= _QUADS
        if len(kept) == top:
            upper, worst = rows.bound(back_rank), kept[0]
            if upper + (stay_value if back_rank >> shift >= _TRIPS else 0.0) < worst[0]:
                break  # rows that stay make the back trips or better: so for every weaker back
            if back_stays or (
                back_category >= _TRIPS
                and any(not mask & back for mask in trips)
                or back_category >= _FULL_HOUSE
                and any(not mask & back for mask in full_houses)
            ):
                upper += stay_value
            if upper < worst[0] or (upper == worst[0] and back >= -worst[1] >> 2 * n):
                continue  # at best a tie, and one that orders after what is held
        bw, bl, bt = backs[five[back]]
        constant, p, q, s, t = model.with_back(bw, bl, bt)
        others = full ^ back
        bits = [1 << i for i in range(n) if others >> i & 1]
        high = back << 2 * n
        for a, b, c, d, e in middle_combos:
            middle = bits[a] | bits[b] | bits[c] | bits[d] | bits[e]
            middle_rank = rank[middle]
            if middle_rank > back_rank:
                continue
            mw, ml, mt = middles[five[middle]]
            middle_category = five[middle] >> shift
            stays = back_stays or middle_category >= _FULL_HOUSE
            if len(kept) == top:
                j = bisect_right(front_values, middle_rank) - 1
                if j < 0:
                    continue
                fw, fl, ft = best_win[j], best_lose[j], best_term[j]
                upper = constant + p * (fw + mw) - q * (fl + ml) + s * fw * mw - t * fl * ml + ft + mt
                if stays or middle_category >= _TRIPS and any(not mask & (back | middle) for mask in trips):
                    upper += stay_value  # (trips in front need a middle of trips or better)
                if upper < floor:
                    continue
            left = others ^ middle
            rest = [1 << i for i in range(n) if left >> i & 1]
            middle_key = high | middle << n
            for a, b, c in front_combos:
                front = rest[a] | rest[b] | rest[c]
                front_value = three[front]
                if front_value > middle_rank:
                    continue
                fw, fl, ft = fronts[front_value]
                bonus = stay_value if stays or front_value >> shift == _TRIPS else 0.0
                if constant + p * (fw + mw) - q * (fl + ml) + s * fw * mw - t * fl * ml + ft + mt + bonus < floor:
                    continue
                entry = (value(fw, fl, ft, mw, ml, mt, bw, bl, bt)[0] + bonus, -(middle_key | front))
                if len(kept) < top:
                    heapq.heappush(kept, entry)
                elif entry > kept[0]:
                    heapq.heapreplace(kept, entry)
                else:
                    continue
                if len(kept) == top:
                    floor = kept[0][0] - _SLACK
    return kept


# Simulation ----------------------------------------------------------------------------


def baseline(codes: list[int]) -> tuple[list[int], list[int], list[int]]:
    """The baseline opponent's front, middle and back."""
    from cpscore.baselinegen import baseline_setting

    return baseline_setting(codes)


def simulate(
    cards: Sequence[Card], settings: list[Setting], rules: RuleSet, rounds: int, seed: int = 0
) -> list[Setting]:
    """The settings with ``simulated`` set: each one's average units over
    ``rounds`` drawn baseline opponents (the same opponents for every setting),
    settled by the kernel itself (:func:`cpscore.scoring.kernel`): the
    setting plays its rows (it waives any natural it makes, as it must to be
    played as set), the opponent claims a natural when it makes one.  The
    opponents hold none of ``cards`` (all of them, discards included)."""
    import random

    from cpscore.cards import hand_of
    from cpscore.deal import Seat

    rng = random.Random(seed)
    mine = {card.code for card in cards}
    others = [code for code in range(52) if code not in mine]
    seats = [Seat("you", "you", setting.hand, None, False, True, False) for setting in settings]
    totals = [0.0] * len(settings)
    for _ in range(rounds):
        front, middle, back = baseline(rng.sample(others, 13))
        opponent = Seat("them", "them", hand_of((*front, *middle, *back)), None, False, False, False)
        for index, seat in enumerate(seats):
            totals[index] += float(kernel((seat, opponent), rules).units[0])
    return [setting._replace(simulated=total / rounds) for setting, total in zip(settings, totals)]


def _worth(setting: Setting) -> float:
    return setting.worth


def arrangement(
    cards: Sequence[Card],
    rules: RuleSet,
    top: int = 3,
    rounds: int = 0,
    fantasyland: bool | None = None,
    fantasyland_value: float = FANTASYLAND_VALUE,
) -> Arrangement:
    """The naturals the cards make, their best settings, and the natural to
    declare when it is worth more than the best setting.  With ``rounds``,
    the 20 best by the estimate (at least ``top``) are simulated and the best
    ``top`` by the simulation are kept.  A Fantasyland hand (see
    :func:`arrange`) of more than 13 cards makes no natural."""
    if rounds:
        candidates = arrange(cards, rules, max(top, 20), fantasyland, fantasyland_value)
        seed = sum(card.code << (6 * i) for i, card in enumerate(cards))  # the same cards, the same opponents
        candidates = simulate(cards, candidates, rules, rounds, seed)
        candidates.sort(key=_worth, reverse=True)
        settings = candidates[:top]
    else:
        settings = arrange(cards, rules, top, fantasyland, fantasyland_value)
    in_fantasyland = _check_cards(cards, rules, fantasyland)
    naturals: list[str] = []
    if len(cards) == 13:
        from cpscore.naturals import claims

        naturals = claims(cards, rules)
    units = rules.naturals[naturals[0]] if naturals else None
    recommend, natural_hand = None, None
    if units is not None and float(units) > settings[0].worth:
        recommend = naturals[0]
        natural_hand = _natural_rows(cards, rules, recommend)
    return Arrangement(
        tuple(cards),
        naturals,
        settings,
        recommend,
        units,
        natural_hand,
        fantasyland_value if in_fantasyland else None,
    )


def _natural_rows(cards: Sequence[Card], rules: RuleSet, natural: str) -> Hand | None:
    """The setting that makes a natural of rows (three straights, three
    flushes, three straight flushes): a hand set so claims it; None for a
    natural of the cards alone."""
    from cpscore.naturals import detect

    found = detect(cards, None, rules)
    if found is None or found.id != natural or found.rows is None:
        return None
    back, middle, front = found.rows
    return Hand(tuple(front), tuple(middle), tuple(back))
