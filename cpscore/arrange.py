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

The search is exact for the estimate and prunes: a back can only carry a
middle no stronger than itself and a front no stronger than that, so the
estimate of any setting with a given back is bounded by the chances of the
strongest middle and front that could sit below it; backs are tried best
bound first, and the search stops when no bound can beat what it holds.

>>> from cpscore.cards import parse_cards
>>> from cpscore.rules import get_rules
>>> best = arrange(parse_cards("Ah Ad Ac 7s 7d Ks Kd 4c 9h 9c 5d 5s 2c"), get_rules("2-4"))[0]
>>> str(best.hand)
'7s 7d 4c / Ks Kd 5d 5s 2c / Ah Ad Ac 9h 9c'
"""

from __future__ import annotations

import heapq
import itertools
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from typing import TYPE_CHECKING

from cpscore.cards import ROW_NAMES, Card, Hand
from cpscore.errors import RulesError
from cpscore.hands import evaluate3, evaluate5, wheel_second
from cpscore.naturals import claims
from cpscore.records import Record
from cpscore.rules import RuleSet
from cpscore.scoring import compare_rows, evaluate_core, row_codes, rows_result, royalty

if TYPE_CHECKING:
    from collections.abc import Callable

_FIVES = list(itertools.combinations(range(13), 5))
_THREES = list(itertools.combinations(range(13), 3))
_FIVE_MASKS = [sum(1 << i for i in combo) for combo in _FIVES]
_THREE_MASKS = [sum(1 << i for i in combo) for combo in _THREES]
_LOCAL = list(itertools.combinations(range(8), 5))  # the middles among 8 remaining cards
_FULL = (1 << 13) - 1


class RowChances(Record):
    """A row's chances against the baseline's row, and what its royalties add."""

    __slots__ = ("win", "tie", "lose", "royalty")

    def __init__(self, win: float, tie: float, lose: float, royalty: float) -> None:
        self.win = win
        self.tie = tie
        self.lose = lose
        self.royalty = royalty  # expected royalty units this row adds (see the module notes)


class Setting(Record):
    """A legal setting of the 13 cards, its expected units, and the figures."""

    __slots__ = ("hand", "expected", "rows", "bonus", "royalties", "simulated")

    def __init__(
        self,
        hand: Hand,
        expected: float,
        rows: tuple[RowChances, RowChances, RowChances],
        bonus: float,
        royalties: float,
        simulated: float | None = None,
    ) -> None:
        self.hand = hand
        self.expected = expected  # the estimate
        self.rows = rows
        self.bonus = bonus
        self.royalties = royalties
        self.simulated = simulated  # the simulated average, with simulate=N


class Arrangement(Record):
    """13 cards, the naturals they make, and their best settings, best first."""

    __slots__ = ("cards", "naturals", "settings")

    def __init__(self, cards: tuple[Card, ...], naturals: list[str], settings: list[Setting]) -> None:
        self.cards = cards
        self.naturals = naturals
        self.settings = settings


# The baseline's rows ------------------------------------------------------------------


class _Table:
    """One baseline row's values with cumulative counts."""

    def __init__(self, values: tuple[int, ...], counts: tuple[int, ...], samples: int) -> None:
        self.values = values
        self.samples = samples
        self.cumulative = list(itertools.accumulate(counts, initial=0))

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


class _Model:
    """The estimate under one rule set: what each row value is worth."""

    def __init__(self, rules: RuleSet) -> None:
        if rules.low_middle:
            raise RulesError(f"the arranger does not play the middle low ({rules.id}): its baseline plays it high")
        self.rules = rules
        self.tables = _tables()
        mode = rules.royalties.mode
        self.mode = mode
        self.opponent_extras: dict[str, list[float]] = {}
        self.opponent_holder = 0.0
        for row, table in self.tables.items():
            royalties = [float(royalty(rules, row, value)) for value in table.values]
            if mode == "holder":
                self.opponent_holder += sum(
                    r * (table.cumulative[i + 1] - table.cumulative[i]) / table.samples for i, r in enumerate(royalties)
                )
            elif mode in ("row-bonus", "row-value"):
                self.opponent_extras[row] = table.above([self._extra(r) for r in royalties])

    def _extra(self, amount: float) -> float:
        """What a winning row of this royalty collects beyond its 1 unit."""
        if not amount:
            return 0.0
        return amount if self.mode == "row-bonus" else amount - 1

    def row(self, row: str, value: int) -> RowChances:
        """A row's chances and royalty term for a row of this (plain) value."""
        table = self.tables[row]
        win, tie = table.chances(value)
        own = float(royalty(self.rules, row, value))
        if self.mode == "holder":
            term = own
        elif self.mode in ("row-bonus", "row-value"):
            index = bisect_right(table.values, value)
            term = win * self._extra(own) - self.opponent_extras[row][index]
        else:
            term = 0.0
        return RowChances(win, tie, 1 - win - tie, term)

    def expected(self, front: RowChances, middle: RowChances, back: RowChances) -> tuple[float, float, float]:
        """(expected units, the bonus part, the royalty part) of a setting."""
        wf, wm, wb = front.win, middle.win, back.win
        lf, lm, lb = front.lose, middle.lose, back.lose
        rows = (wf - lf) + (wm - lm) + (wb - lb)
        scoop, scooped = wf * wm * wb, lf * lm * lb
        method = self.rules.method
        if method == "2-4":
            bonus = (wf * wm + wf * wb + wm * wb - 2 * scoop) - (lf * lm + lf * lb + lm * lb - 2 * scooped)
            scoop_bonus = 1
        elif method == "1-6":
            bonus = 3 * (scoop - scooped)
            scoop_bonus = 3
        else:
            bonus, scoop_bonus = 0.0, 0
        royalties = front.royalty + middle.royalty + back.royalty
        if self.mode == "holder":
            royalties -= self.opponent_holder
        total = rows + bonus + royalties
        if self.rules.scoop_doubles:  # the scoop's units count twice
            total += scoop * (3 + scoop_bonus) - scooped * (3 + scoop_bonus)
        return total, bonus, royalties


# The search ---------------------------------------------------------------------------


def arrange(cards: Sequence[Card], rules: RuleSet, top: int = 3) -> list[Setting]:
    """The ``top`` legal settings with the highest estimate, best first."""
    if len(cards) != 13 or len({card.code for card in cards}) != 13:
        raise ValueError("arrange needs 13 different cards")
    model = _Model(rules)
    codes = [card.code for card in cards]
    second = rules.wheel == "second"
    five: dict[int, int] = {}
    for combo, mask in zip(_FIVES, _FIVE_MASKS):
        a, b, c, d, e = combo
        value = evaluate5((codes[a], codes[b], codes[c], codes[d], codes[e]))
        five[mask] = value
    three: dict[int, int] = {}
    for (a, b, c), mask in zip(_THREES, _THREE_MASKS):
        three[mask] = evaluate3((codes[a], codes[b], codes[c]))
    rank = (lambda value: wheel_second(value)) if second else (lambda value: value)
    backs = {value: model.row("back", value) for value in set(five.values())}
    middles = {value: model.row("middle", value) for value in set(five.values())}
    fronts = {value: model.row("front", value) for value in set(three.values())}
    middle_bound = _prefix_best(middles, rank)
    front_bound = _prefix_best(fronts, lambda value: value)

    def bound(back_value: int) -> float:
        limit = rank(back_value)
        middle = middle_bound(limit)
        return model.expected(front_bound(limit), middle, backs[back_value])[0]

    kept: list[tuple[float, int, tuple[int, int, int]]] = []  # a min-heap of the best found
    order = sorted(((bound(value), mask, value) for mask, value in five.items()), reverse=True)
    for upper, back, back_value in order:
        if len(kept) == top and upper <= kept[0][0]:
            break
        back_rank = rank(back_value)
        bits = [1 << i for i in range(13) if not back >> i & 1]
        for a, b, c, d, e in _LOCAL:
            middle = bits[a] | bits[b] | bits[c] | bits[d] | bits[e]
            middle_value = five[middle]
            if rank(middle_value) > back_rank:
                continue
            front = _FULL ^ back ^ middle
            front_value = three[front]
            if front_value > rank(middle_value):  # the front's scale is the five-card one
                continue
            estimate = model.expected(fronts[front_value], middles[middle_value], backs[back_value])[0]
            entry = (estimate, -(back << 13 | middle), (front, middle, back))  # ties: a fixed order
            if len(kept) < top:
                heapq.heappush(kept, entry)
            elif estimate > kept[0][0]:
                heapq.heapreplace(kept, entry)
    results = []
    for _estimate, _, (front, middle, back) in sorted(kept, reverse=True):
        rows = tuple(tuple(cards[i] for i in range(13) if mask >> i & 1) for mask in (front, middle, back))
        hand = Hand(*rows)
        chances = (fronts[three[front]], middles[five[middle]], backs[five[back]])
        total, bonus, royalties = model.expected(*chances)
        results.append(Setting(hand, total, chances, bonus, royalties))
    return results


def _prefix_best(chances: dict[int, RowChances], rank: Callable[[int], int]) -> Callable[[int], RowChances]:
    """For a limit, the best chances of any row ranking at most the limit:
    the highest win, the lowest loss, the largest royalty term (a bound)."""
    ordered = sorted(chances.items(), key=lambda item: rank(item[0]))
    keys, bests = [], []
    win, lose, extra = 0.0, 1.0, float("-inf")
    for value, row in ordered:
        win, lose, extra = max(win, row.win), min(lose, row.lose), max(extra, row.royalty)
        keys.append(rank(value))
        bests.append(RowChances(win, 1 - win - lose, lose, extra))

    def best(limit: int) -> RowChances:
        index = bisect_right(keys, limit) - 1
        return bests[index] if index >= 0 else RowChances(0.0, 0.0, 1.0, 0.0)

    return best


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
    settled by the scoring steps themselves."""
    import random

    rng = random.Random(seed)
    mine = {card.code for card in cards}
    others = [code for code in range(52) if code not in mine]
    cores = [evaluate_core(*row_codes(setting.hand), rules) for setting in settings]
    totals = [0.0] * len(settings)
    for _ in range(rounds):
        opponent = evaluate_core(*baseline(rng.sample(others, 13)), rules)
        for index, core in enumerate(cores):
            rows = compare_rows(core, opponent)
            row_units, bonus, royalties, multiplier = rows_result(rules, core, opponent, rows, False, False)
            totals[index] += float((row_units + bonus + royalties) * multiplier)
    return [setting._replace(simulated=total / rounds) for setting, total in zip(settings, totals)]


def _simulated(setting: Setting) -> float:
    assert setting.simulated is not None  # set by simulate()
    return setting.simulated


def arrangement(cards: Sequence[Card], rules: RuleSet, top: int = 3, rounds: int = 0) -> Arrangement:
    """The naturals the cards make and their best settings.  With ``rounds``,
    the 20 best by the estimate (at least ``top``) are simulated and the best
    ``top`` by the simulation are kept."""
    if rounds:
        candidates = arrange(cards, rules, max(top, 20))
        seed = sum(card.code << (6 * i) for i, card in enumerate(cards))  # the same cards, the same opponents
        candidates = simulate(cards, candidates, rules, rounds, seed)
        candidates.sort(key=_simulated, reverse=True)
        settings = candidates[:top]
    else:
        settings = arrange(cards, rules, top)
    return Arrangement(tuple(cards), claims(cards, rules), settings)
