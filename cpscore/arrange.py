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
collects beyond 1), plus a scoop doubling where the rules double scoops.
Rows are compared as the rules rank them (``wheel = "second"`` moves the
wheel below the top straight in our rows and the table's alike).
``simulate`` replaces the estimate by an average over drawn opponents,
settled by the kernel itself.

What each setting of the rule set does to the estimate (docs/rules.md 3-12):

- ``suit_order``: rows never tie.  The table's chance that the opponent's row
  has our row's ranks is split by suits: the opponent holds that row in
  suits drawn evenly from the cards of those ranks we do not hold (and, for a
  flush, one suit; for five unpaired cards, not all one suit), and the first
  card in the order the kernel compares them (:func:`cpscore.scoring.suit_key`)
  decides, since the opponent cannot hold our card of it.  A row the opponent
  cannot hold in those ranks at all counts half won.  The chances depend on
  the hand's other cards, so they are worked out per hand.
- ``suit_foul``: a middle equal to the back in ranks and above it on suits is
  a foul, and the search never sets one (the kernel's own suit key decides).
- ``banker_wins_ties`` (banker pairing, no suit order): a tied row is the
  banker's, so the tie chance goes to the banker's side; the arranger must
  be told whether the hand banks (``banker``), and refuses to guess.
- ``home_run`` with ``home_run_min_opponents = 1``: scooping the one opponent
  is a home run, so the scoop counts once more (under banker pairing, only
  for the banker); a home run of 2 or 3 opponents needs more than the one
  opponent and is left out.  ``home_run_split`` makes no difference against
  one opponent (an equal share of one pair is the pair again).  As for the
  scoop doubling, the estimate doubles the scoop's row units and bonus.
- ``spade_bonus`` (``"own"``: the holder's royalty in the row holding 2s
  counts twice; ``"row"``: both hands' royalties in that row): a row of ours
  holding 2s has its royalty doubled, and under ``"row"`` the opponent's in
  that row too.  When the hand does not hold 2s, the opponent's row of a
  value holds it with the chance a full deck gives (one in four per 2 in the
  row), and the royalties of that row double as the bonus says.
- ``broken_royalties``: a setting collects what its split quads and straight
  flushes earn, as the kernel counts it (holder-style, whatever the mode);
  the baseline keeps its own whole (it sets its strongest five first), so
  the opponent's is taken as 0.
- ``cancel_when_both`` (row modes): a row's winner collects nothing beyond 1
  when the loser's row holds a royalty too.
- Royalty tables with rank entries (``trips-A``, ``quads-A``,
  ``steel-wheel``): every royalty is read through
  :func:`cpscore.scoring.royalty`, the kernel's lookup.
- Naturals: the naturals a hand claims, and which one first, are
  :func:`cpscore.naturals.claims` (``natural_rank``, ``natural_order`` and the
  naturals of the rules); the arranger recommends only a natural the cards
  make, so never a false claim (``false_claim``).  How two naturals settle
  (``natural_vs_natural``, ``natural_suit_tiebreak``, ``six_pairs_odd_card``)
  matters only against an opponent's natural, which the estimate leaves out.
- Irrelevant to which setting is best: ``foul_plays`` (the arranger never
  sets a hand foul, and the baseline never fouls: the rule only changes what
  a misset hand costs), ``criss_cross`` (one hand), ``pairing`` and
  ``banker_rotation`` (one pair is settled the same; but see
  ``banker_wins_ties`` and the home run), ``cap``, ``cap_scope`` and
  ``table_stakes`` (limits on money, which cut payments after the units are
  scored: the units per opponent, and so the best setting, are the same;
  ``simulate`` settles units without them), and the surrender.
- Refused, with a message that says what to do: ``low_middle`` (the baseline
  plays the middle high) and ``max_per_hand`` (the royalties a hand keeps
  depend on all its rows together, and on the opponent's).

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
17 cards keeps 13 and discards the rest (``fantasyland_cards = 14``, as in
``pineapple``, deals 14: one discard): the search chooses the back, the
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
from collections.abc import Collection, Mapping, Sequence
from typing import TYPE_CHECKING

from cpscore.cards import RANK_OF, ROW_NAMES, SUIT_OF, Card, Hand
from cpscore.errors import CardError, RulesError
from cpscore.records import Record
from cpscore.rules import METHOD_BONUSES, Money, RuleSet
from cpscore.scoring import (
    SUIT_BITS,
    TWO_OF_SPADES,
    best_disjoint,
    broken_combinations,
    broken_units,
    kernel,
    royalty,
    stays_in_fantasyland,
)
from cpscore.values import (
    CATEGORY_SHIFT,
    FLUSH,
    FULL_HOUSE,
    GROUP_SIZES,
    HIGH_CARD,
    QUADS,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TRIPS,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from cpscore.amounts import Amount

    #: A row's (win, lose, royalty term): what the search reads.
    _Chances = tuple[float, float, float]
    #: A row value's tie chance and the royalty terms of winning and of losing the tie.
    _Tie = tuple[float, float, float]
    #: The estimate from the front's, middle's and back's (win, lose, term):
    #: (expected units, the bonus part, the royalty part).
    _Value = Callable[[float, float, float, float, float, float, float, float, float], tuple[float, float, float]]

#: What staying in Fantasyland is worth, in units per opponent, when the
#: arranger weighs a Fantasyland hand: about what one Fantasyland deal of 14
#: cards is worth over a plain deal (README, "Arranging 13 cards").
FANTASYLAND_VALUE = 6.0


# Which row holds 2s, for the spade bonus: the row's own royalty is as the table
# has it (2s is elsewhere in the hand, or there is no spade bonus), the row holds
# 2s, or the hand holds no 2s (the opponent may).
_PLAIN, _HOLDS, _NONE_HELD = 0, 1, 2


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
    it does not stay, or when staying is not weighed).  ``royalties``
    includes the broken royalties the setting collects."""

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
    """One baseline row's values, in the order the rules rank them, with
    cumulative counts; ``plains`` are the values' poker values (what royalties
    and names read), the values themselves unless the wheel moves."""

    def __init__(
        self, values: tuple[int, ...], counts: tuple[int, ...], samples: int, plains: Sequence[int] | None = None
    ) -> None:
        from itertools import accumulate

        self.values = values
        self.plains = values if plains is None else tuple(plains)
        self.samples = samples
        self.counts = counts
        self.cumulative = list(accumulate(counts, initial=0))

    def frequencies(self) -> list[float]:
        return [count / self.samples for count in self.counts]

    def ranked(self, key: Callable[[int], int]) -> _Table:
        """The same table with each value moved by ``key`` (the wheel), reordered."""
        moved = sorted(zip(map(key, self.values), self.values, self.counts))
        return _Table(
            tuple(value for value, _, _ in moved),
            tuple(count for _, _, count in moved),
            self.samples,
            [plain for _, plain, _ in moved],
        )


_TABLES: dict[str, _Table] = {}


def _tables() -> dict[str, _Table]:
    if not _TABLES:
        from cpscore import _baseline

        for row in ROW_NAMES:
            values = getattr(_baseline, f"{row.upper()}_VALUES")
            counts = getattr(_baseline, f"{row.upper()}_COUNTS")
            _TABLES[row] = _Table(values, counts, _baseline.SAMPLES)
    return _TABLES


def _suffix(weights: list[float]) -> list[float]:
    """For each index, the sum of the weights from it on (one more entry: 0)."""
    sums = [0.0] * (len(weights) + 1)
    total = 0.0
    for index in range(len(weights) - 1, -1, -1):
        total += weights[index]
        sums[index] = total
    return sums


def _prefix(weights: list[float]) -> list[float]:
    """For each index, the sum of the weights below it (one more entry: all)."""
    from itertools import accumulate

    return list(accumulate(weights, initial=0.0))


def _twos(plain: int) -> int:
    """How many 2s a row of this poker value holds."""
    from cpscore.hands import rank_letters

    return rank_letters(plain).split("-").count("2")


# The model: what the rule set makes each row value worth ------------------------------


def refusal(rules: RuleSet) -> str | None:
    """Why the arranger cannot arrange under these rules, or None: a setting
    it does not model, and what to do."""
    if rules.rows.low_middle:
        return (
            f"the arranger does not play the middle low (low_middle, rules {rules.id}): its baseline plays it high;"
            " arrange under a rule file with low_middle = false"
        )
    royalties = rules.royalties
    if royalties.max_per_hand and royalties.paid:
        return (
            f"the arranger does not model max_per_hand = {royalties.max_per_hand} (rules {rules.id}): it counts"
            " every royalty a hand holds; arrange under a rule file with max_per_hand = 0"
        )
    if royalties.higher_takes:
        return (
            f"the arranger does not model higher_takes (rules {rules.id}): it counts every royalty a hand holds;"
            " arrange under a rule file with higher_takes = false"
        )
    if royalties.ace_bonus:
        return (
            f"the arranger does not model ace_bonus (rules {rules.id}): the aces add the same to every setting"
            " but nothing to a natural; arrange under a rule file with ace_bonus = 0"
        )
    if rules.multipliers.horse is not None:
        return (
            f"the arranger does not model the horse card (horse, rules {rules.id}): it doubles every setting and"
            " a natural alike, so the best setting is the same; arrange under a rule file with horse = false"
        )
    return None


def _role(rules: RuleSet, banker: bool | None) -> bool | None:
    """Whether the hand banks, where that changes the estimate (else None); an
    error when it does and ``banker`` does not say, or when there is no banker."""
    if not rules.banker.banks:
        if banker is not None:
            raise RulesError(
                f"the {rules.id} rules settle every pair: there is no banker (leave out --banker and --player)"
            )
        return None
    reasons = []
    if rules.banker.banker_wins_ties and rules.suits.suit_order is None:
        reasons.append("tied rows go to the banker (banker_wins_ties)")
    if rules.multipliers.banker_home_run:
        reasons.append("only the banker makes a home run (home_run_min_opponents = 1)")
    if not reasons:
        return None  # the hand's settings are worth the same either way
    if banker is None:
        raise RulesError(
            f"under the {rules.id} rules {' and '.join(reasons)}: say whether the hand is the banker's (--banker)"
            " or a player's (--player)"
        )
    return banker


def check_rules(rules: RuleSet, banker: bool | None = None) -> None:
    """An error (:class:`RulesError`) when the arranger cannot arrange under
    these rules (:func:`refusal`), or when whether the hand banks matters
    and ``banker`` does not say, or there is no banker (:func:`_role`)."""
    reason = refusal(rules)
    if reason is not None:
        raise RulesError(reason)
    _role(rules, banker)


class _Model:
    """The estimate under one rule set: what each row value is worth.  Built
    once per rule set and role (see :func:`_model`); a row value's chances
    are worked out the first time a hand has it and kept.  ``banker`` says
    whether the hand banks, where the rules make that matter (:func:`_role`)."""

    def __init__(self, rules: RuleSet, banker: bool | None = None) -> None:
        check_rules(rules, banker)
        banker = _role(rules, banker)
        self.rules = rules
        mode = rules.royalties.mode
        self.mode = mode
        self.second = rules.rows.wheel == "second"
        tables = dict(_tables())
        if self.second:
            from cpscore.hands import wheel_second

            tables = {row: table if row == "front" else table.ranked(wheel_second) for row, table in tables.items()}
        self.tables = tables
        spade = rules.royalties.spade_bonus
        self.spade: str | None = spade if isinstance(spade, str) else None  # None, "row" or "own"
        self.both_rows = spade == "row"  # the opponent's royalty in a 2s row doubles too
        self.cancel = rules.royalties.cancel_when_both and mode in ("row-bonus", "row-value")
        #: Suit strengths by suit code (3 highest) under suit_order, else None.
        self.strength = rules.suits.strength
        self.suit_foul = rules.suits.suit_foul
        self.broken = rules.royalties.broken_royalties
        #: Whether a row's chances depend on more than its value (its cards, the hand's).
        self.by_cards = self.strength is not None or self.spade is not None
        #: The tie chance's share that is won, when the rules give ties to one side.
        self.tie_share: float | None = None
        if banker is not None and rules.banker.banker_wins_ties and self.strength is None:
            self.tie_share = 1.0 if banker else 0.0
        self._sums: dict[str, dict[str, list[float]]] = {}
        self.opponent_holder = 0.0
        if mode != "none":
            for row, table in tables.items():
                self._sums[row] = sums = self._row_sums(row, table)
                if mode == "holder":
                    self.opponent_holder += sums["average"][0]
        #: Per row and spade variant: value -> (win, lose, royalty term), and value -> the tie.
        self.chances: dict[str, list[dict[int, _Chances]]] = {row: [{}, {}, {}] for row in ROW_NAMES}
        self.ties: dict[str, list[dict[int, _Tie]]] = {row: [{}, {}, {}] for row in ROW_NAMES}
        home_run = rules.multipliers.banker_home_run
        doubles = 2 if rules.multipliers.scoop_doubles else 1
        #: What our scoop and the opponent's are multiplied by (docs/rules.md 8).
        self.multipliers = (
            doubles * (2 if home_run and banker is not False else 1),
            doubles * (2 if home_run and banker is not True else 1),
        )
        self.value = _value_function(rules.methods.method, self.opponent_holder, self.multipliers)
        two, three = rules.methods.bonuses
        units = _scoop_units(rules.methods.method)
        self._pair = float(two)  # the bonus for two rows won
        # All three won (two rows won three ways, less the overlap), with the scoop's units again.
        self._triples = tuple((multiplier - 1) * units - 2 * two + three for multiplier in self.multipliers)

    def _row_sums(self, row: str, table: _Table) -> dict[str, list[float]]:
        """What the royalty terms read of one baseline row, by table index: sums
        over the values below an index (``below``: how often our row wins and
        collects; ``below_twos``: of those, how often the opponent's row holds
        2s) and from an index on (what the opponent collects when its row
        wins: ``above`` as the table has it, ``above_doubled``, ``above_twos``
        with the chance of 2s), and the holder averages (``average``,
        ``average_twos``: the doubling the opponent's own 2s gives it)."""
        frequencies = table.frequencies()
        amounts = [float(royalty(self.rules, row, plain)) for plain in table.plains]
        twos = [_twos(plain) / 4 if self.spade else 0.0 for plain in table.plains]
        if self.mode == "holder":
            return {
                "average": [sum(f * a for f, a in zip(frequencies, amounts))],
                "average_twos": [sum(f * a * p for f, a, p in zip(frequencies, amounts, twos))],
                "twos": [sum(f * p for f, p in zip(frequencies, twos))],
            }
        extra = self._extra
        kept = [0.0 if self.cancel and amount else f for f, amount in zip(frequencies, amounts)]
        return {
            "below": _prefix(kept),
            "below_twos": _prefix([k * p for k, p in zip(kept, twos)]),
            "above": _suffix([f * extra(a) for f, a in zip(frequencies, amounts)]),
            "above_doubled": _suffix([f * extra(2 * a) for f, a in zip(frequencies, amounts)]),
            "above_twos": _suffix(
                [f * (p * extra(2 * a) + (1 - p) * extra(a)) for f, a, p in zip(frequencies, amounts, twos)]
            ),
        }

    def with_back(self, win: float, lose: float, term: float) -> tuple[float, float, float, float, float]:
        """The estimate with the back fixed, as the same sum taken apart:
        ``c + p (wf + wm) - q (lf + lm) + s wf wm - t lf lm + rf + rm`` gives
        (c, p, q, s, t).  It agrees with :attr:`value` to rounding; the
        search uses it to pass over settings that cannot make the list."""
        pair, (triple_won, triple_lost) = self._pair, self._triples
        constant = win - lose + term - (self.opponent_holder if self.mode == "holder" else 0.0)
        return (
            constant,
            1 + pair * win,
            1 + pair * lose,
            pair + triple_won * win,
            pair + triple_lost * lose,
        )

    def _extra(self, amount: float) -> float:
        """What a winning row of this royalty collects beyond its 1 unit."""
        if not amount:
            return 0.0
        return amount if self.mode == "row-bonus" else amount - 1

    def _work_out(self, row: str, value: int, variant: int) -> None:
        """The chances of a row of this value (as the rules rank it) and what
        its royalties add, with 2s where ``variant`` says (the module notes)."""
        table = self.tables[row]
        low, high = bisect_left(table.values, value), bisect_right(table.values, value)
        samples = table.samples
        win, tie = table.cumulative[low] / samples, (table.cumulative[high] - table.cumulative[low]) / samples
        lose = 1 - win - tie
        plain = _plain_of(value) if self.second and row != "front" else value
        term = tie_won = tie_lost = 0.0
        mode = self.mode
        if mode != "none":
            own = float(royalty(self.rules, row, plain))
            sums = self._sums[row]
            if mode == "holder":
                if variant == _HOLDS:  # ours counts twice, and with "row" the opponent's in this row
                    term = 2 * own - (sums["average"][0] if self.both_rows else 0.0)
                elif variant == _NONE_HELD:  # the opponent's 2s doubles its row, and with "row" ours
                    term = own * (1 + sums["twos"][0] if self.both_rows else 1) - sums["average_twos"][0]
                else:
                    term = own
            else:  # row-bonus, row-value
                extra = self._extra
                if variant == _HOLDS:
                    won = extra(2 * own) * sums["below"][low]
                    lost = sums["above_doubled" if self.both_rows else "above"][high]
                elif variant == _NONE_HELD:
                    won = extra(own) * sums["below"][low]
                    if self.both_rows:
                        won += (extra(2 * own) - extra(own)) * sums["below_twos"][low]
                    lost = sums["above_twos"][high]
                else:
                    won, lost = extra(own) * sums["below"][low], sums["above"][high]
                if self.cancel and own:
                    lost = 0.0  # our row qualifies: the opponent's collects nothing beyond 1
                term = won - lost
                if tie and not (self.cancel and own):  # the opponent's tied row holds our royalty
                    twos = _twos(plain) / 4 if variant == _NONE_HELD else 0.0
                    plain_extra, doubled = extra(own), extra(2 * own)
                    if variant == _HOLDS:
                        ours, theirs = doubled, doubled if self.both_rows else plain_extra
                    elif variant == _NONE_HELD:
                        theirs = twos * doubled + (1 - twos) * plain_extra
                        ours = theirs if self.both_rows else plain_extra
                    else:
                        ours = theirs = plain_extra
                    tie_won, tie_lost = tie * ours, tie * theirs
        share = self.tie_share
        if share is not None and tie:  # banker_wins_ties: the tie is one side's
            win, lose = win + share * tie, lose + (1 - share) * tie
            term += share * tie_won - (1 - share) * tie_lost
            tie = tie_won = tie_lost = 0.0
        self.chances[row][variant][value] = (win, lose, term)
        self.ties[row][variant][value] = (tie, tie_won, tie_lost)

    def have(self, row: str, values: Collection[int], variant: int = _PLAIN) -> dict[int, _Chances]:
        """The row's chances by value (as the rules rank it), with every one of ``values`` in it."""
        known = self.chances[row][variant]
        for value in set(values).difference(known):
            self._work_out(row, value, variant)
        return known

    def tie(self, row: str, value: int, variant: int = _PLAIN) -> _Tie:
        """A row value's tie chance, and the royalty terms of winning and losing the tie."""
        if value not in self.ties[row][variant]:
            self._work_out(row, value, variant)
        return self.ties[row][variant][value]

    def row_chances(self, row: str, codes: Sequence[int], held: Collection[int]) -> RowChances:
        """A row's chances and royalty term from its cards (codes), in a hand
        of the cards ``held`` (the hand's, discards included): the estimate's
        definition, worked out the slow way (the search reads the same
        numbers in bulk from :class:`_Rows`)."""
        from cpscore.hands import evaluate3, evaluate5, wheel_second

        plain = evaluate3(codes) if len(codes) == 3 else evaluate5(codes)
        value = wheel_second(plain) if self.second and row != "front" else plain
        variant = _variant(self.spade, TWO_OF_SPADES in codes, TWO_OF_SPADES in held)
        if value not in self.chances[row][variant]:
            self._work_out(row, value, variant)
        win, lose, term = self.chances[row][variant][value]
        tie, tie_won, tie_lost = self.ties[row][variant][value]
        if self.strength is not None and tie:
            taken = 0
            for code in held:
                taken |= 1 << code
            share = _suit_share(codes, plain, taken, self.strength)
            win, lose = win + share * tie, lose + (1 - share) * tie
            term += share * tie_won - (1 - share) * tie_lost
            tie = 0.0
        return RowChances(win, tie, lose, term)

    def expected(self, front: RowChances, middle: RowChances, back: RowChances) -> tuple[float, float, float]:
        """(expected units, the bonus part, the royalty part) of a setting
        (without its broken royalties)."""
        return self.value(
            front.win, front.lose, front.royalty, middle.win, middle.lose, middle.royalty,
            back.win, back.lose, back.royalty,
        )  # fmt: skip


def _plain_of(value: int) -> int:
    from cpscore.hands import plain_of

    return plain_of(value)


def _variant(spade: str | None, in_row: bool, in_hand: bool) -> int:
    """Where 2s lies, as far as the spade bonus cares (see ``_PLAIN``)."""
    if spade is None:
        return _PLAIN
    return _HOLDS if in_row else _PLAIN if in_hand else _NONE_HELD


def _suit_share(codes: Sequence[int], plain: int, taken: int, strength: Sequence[int]) -> float:
    """Of the opponent's rows with our row's ranks, the share ours beats on
    suits: the opponent's suits drawn evenly from the cards of those ranks
    not ``taken`` (a bit per card code: the hand's cards), as a row of the
    same category.  The first card in the kernel's order decides (the
    opponent cannot hold ours): the highest-suited card of the biggest
    group, of its highest rank (a straight's top card, the wheel's five).
    Half when the opponent cannot hold such a row."""
    return _suit_shares(taken, strength)(codes, plain)


_POPCOUNT = [bin(bits).count("1") for bits in range(16)]
_CHOOSE = [[1, 0, 0, 0, 0], [1, 1, 0, 0, 0], [1, 2, 1, 0, 0], [1, 3, 3, 1, 0], [1, 4, 6, 4, 1]]  # n choose k, n, k <= 4


def _suit_shares(taken: int, strength: Sequence[int]) -> Callable[[Sequence[int], int], float]:
    """:func:`_suit_share` for one hand (the cards ``taken``), from each rank's
    free suits as bits; on one hand it depends only on the row's value and the
    suit of its first card, so each is worked out once."""
    free = [0] * 15  # by rank: the suits (bit per suit code) the opponent can hold
    for rank in range(2, 15):
        base = (rank - 2) * 4  # card code = (rank - 2) * 4 + suit
        free[rank] = sum(1 << suit for suit in range(4) if not taken >> (base + suit) & 1)
    lower = [sum(1 << suit for suit in range(4) if strength[suit] < level) for level in range(4)]
    known: dict[tuple[int, int], float] = {}

    def share(codes: Sequence[int], plain: int) -> float:
        first = plain >> 16 & 15  # the first group's rank (a straight's top card)
        ours = -1
        for code in codes:
            if RANK_OF[code] == first and strength[SUIT_OF[code]] > ours:
                ours = strength[SUIT_OF[code]]
        found = known.get((plain, ours))
        if found is not None:
            return found
        category = plain >> CATEGORY_SHIFT
        if category == FLUSH or category == STRAIGHT_FLUSH:  # one suit, every rank of it free
            suits = 15
            for code in codes:
                suits &= free[RANK_OF[code]]
            total, below = _POPCOUNT[suits], _POPCOUNT[suits & lower[ours]]
        elif len(codes) == 5 and (category == HIGH_CARD or category == STRAIGHT):  # five ranks, not all one suit
            common, each = 15, 1
            for code in codes:
                rank = RANK_OF[code]
                if rank != first:
                    common &= free[rank]
                    each *= _POPCOUNT[free[rank]]
            mine = free[first]
            low = mine & lower[ours]
            total = _POPCOUNT[mine] * each - _POPCOUNT[mine & common]
            below = _POPCOUNT[low] * each - _POPCOUNT[low & common]
        else:  # rank groups: the first group's suits all below our first card
            sizes = GROUP_SIZES[category]
            digits = [plain >> shift & 15 for shift in (16, 12, 8, 4, 0)]
            total = below = 0
            if all(_POPCOUNT[free[rank]] >= size for rank, size in zip(digits, sizes) if rank):
                total = _CHOOSE[_POPCOUNT[free[first]]][sizes[0]]
                below = _CHOOSE[_POPCOUNT[free[first] & lower[ours]]][sizes[0]]
        result = known[plain, ours] = below / total if total else 0.5
        return result

    return share


def _value_function(method: str, opponent_holder: float, multipliers: tuple[int, int]) -> _Value:
    """The estimate of a setting from its rows' (win, lose, royalty term),
    for one rule set: (expected units, the bonus part, the royalty part).
    ``opponent_holder`` is the opponent's average royalty (holder mode, else
    0); ``multipliers`` what our scoop and the opponent's are multiplied by."""
    scoop_units = _scoop_units(method)
    two, three = METHOD_BONUSES[method]
    won_again, lost_again = ((multiplier - 1) * scoop_units for multiplier in multipliers)

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
        royalties = rf + rm + rb - opponent_holder
        total = rows + bonus + royalties
        if won_again or lost_again:  # the scoop's units count again (doubled, a home run)
            total += scoop * won_again - scooped * lost_again
        return total, bonus, royalties

    return value


def _scoop_units(method: str) -> int:
    """A scoop's units under the method, rows and bonus: what doubling adds."""
    two, three = METHOD_BONUSES[method]
    return 3 + two + three


#: How far the quick sum of :meth:`_Model.with_back` may be from the estimate
#: (rounding only, far less than this) when it passes a setting over.
_SLACK = 1e-9


class _Models:
    """A rule set's models by role, made on first use; one per rule set value
    (:meth:`RuleSet.derived`)."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.by_role: dict[bool | None, _Model] = {}

    def get(self, banker: bool | None) -> _Model:
        role = _role(self.rules, banker)
        found = self.by_role.get(role)
        if found is None:
            found = self.by_role[role] = _Model(self.rules, banker)
        return found


def _model(rules: RuleSet, banker: bool | None = None) -> _Model:
    """The model of this rule set (and role, where the rules make it matter),
    made once per rule set value (:meth:`RuleSet.derived`): a rule set made
    anew with the same settings finds the same model, and one that differs
    in any setting never does."""
    return rules.derived(_Models).get(banker)


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
    """One hand's five- and three-card rows by bit mask (bit i: the i-th card):
    their poker values (``five``, ``three``), how they rank for the foul
    check (``rank``; ``front`` gives a front's rank on the same scale with its
    chances), each row's chances by mask, and the bound on what any setting
    with a given back can be worth."""

    def __init__(self, codes: list[int], model: _Model) -> None:
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
        three = self.three = dict(zip(masks3, [THREE[prime[a] * prime[b] * prime[c]] for a, b, c in combos3]))
        self.five = five
        #: As the five-card rows rank under the rules (the wheel); five itself when nothing moves.
        ranked = {mask: wheel_second(value) for mask, value in five.items()} if model.second else five
        rising_rows: tuple[tuple[dict[int, _Chances], list[int]], ...]
        if not model.by_cards:  # the chances depend on the value alone: the search reads them by rank
            middle, back = model.have("middle", ranked.values()), model.have("back", ranked.values())
            chances = model.have("front", three.values())
            values, values3 = sorted(set(ranked.values())), sorted(set(three.values()))
            self.rank = ranked
            entries = {value: (value, *chances[value]) for value in values3}
            self.front = dict(zip(three, map(entries.__getitem__, three.values())))
            self.order = sorted(five, key=ranked.__getitem__, reverse=True)
            self.ranks, self.fronts = values, values3
            rising_rows = ((chances, values3), (middle, values), (back, values))
        else:  # every mask its own chances
            middle, back, fronts = self._by_cards(codes, model, ranked, three, combos, masks, combos3, masks3)
            if model.suit_foul:  # a middle equal to the back in ranks and above it on suits fouls
                from collections import Counter

                from cpscore.scoring import suit_key

                strength = model.strength
                assert strength is not None  # suit_foul needs suit_order
                # Suits below the value, where a middle and a back can be equal: the
                # hand holds each of the row's ranks twice over.
                held = Counter(RANK_OF[code] for code in codes)
                twice = {value for value in set(five.values()) if _twice(value, held)}
                rank = {
                    mask: ranked[mask] << SUIT_BITS
                    | (suit_key([codes[i] for i in combo], five[mask], strength) if five[mask] in twice else 0)
                    for combo, mask in zip(combos, masks)
                }
                front_rank = {mask: value << SUIT_BITS for mask, value in three.items()}
            else:
                rank, front_rank = ranked, three
            self.rank = rank
            self.front = {mask: (front_rank[mask], *fronts[mask]) for mask in masks3}
            self.order = sorted(five, key=rank.__getitem__, reverse=True)
            rising = self.order[::-1]
            rising_fronts = sorted(masks3, key=front_rank.__getitem__)
            self.ranks = [rank[mask] for mask in rising]
            self.fronts = [front_rank[mask] for mask in rising_fronts]
            rising_rows = ((fronts, rising_fronts), (middle, rising), (back, rising))
        # self.rank: the rows' ranks for the foul check (a middle above the back, or a front
        # above the middle, fouls); self.front: each front's (rank on the five-card scale,
        # win, lose, royalty term); self.order: the backs, strongest first.
        #: Whether ``middle`` and ``back`` are by mask (else by rank).
        self.by_mask = model.by_cards
        #: Each middle's and back's (win, lose, royalty term), by mask or by rank.
        self.middle, self.back = middle, back
        # The best chances of any row of the hand ranking at most a limit (self.ranks,
        # self.fronts): highest win, lowest loss, largest royalty term (each on its own: a bound).
        win, lose, term = itemgetter(0), itemgetter(1), itemgetter(2)
        envelopes = []
        for chances_of, in_order in rising_rows:
            rows = list(map(chances_of.__getitem__, in_order))
            envelopes.append(
                (
                    list(accumulate(map(win, rows), max)),
                    list(accumulate(map(lose, rows), min)),
                    list(accumulate(map(term, rows), max)),
                )
            )
        self._envelopes = envelopes
        self._value = model.value
        #: broken_royalties: the hand's quads and straight flushes (bit masks) and what each earns split.
        self.combinations = _combinations(codes, model.rules) if model.broken else []
        self.broken_most = _most_broken(self.combinations)

    @staticmethod
    def _by_cards(
        codes: list[int],
        model: _Model,
        ranked: dict[int, int],
        three: dict[int, int],
        combos: list[tuple[int, ...]],
        masks: list[int],
        combos3: list[tuple[int, ...]],
        masks3: list[int],
    ) -> tuple[dict[int, _Chances], dict[int, _Chances], dict[int, _Chances]]:
        """Each row's chances by mask where they depend on the cards: which
        row holds 2s (the spade bonus), and the tie split by suits, from the
        hand's cards (as :meth:`_Model.row_chances`)."""
        strength = model.strength
        taken = 0
        for code in codes:
            taken |= 1 << code
        share_of = None if strength is None else _suit_shares(taken, strength)
        spade_bit = 1 << codes.index(TWO_OF_SPADES) if TWO_OF_SPADES in codes else 0
        if model.spade is None:
            spade_bit = 0  # no row's royalty depends on 2s
        # The rows without 2s: as the table has them, or with the opponent's 2s to weigh.
        others = _variant(model.spade, False, TWO_OF_SPADES in codes)
        found: list[dict[int, _Chances]] = []
        for row, row_combos, row_masks in (
            ("middle", combos, masks),
            ("back", combos, masks),
            ("front", combos3, masks3),
        ):
            values = three if row == "front" else ranked
            by_value = model.have(row, values.values(), others)
            by_mask = dict(zip(values, map(by_value.__getitem__, values.values())))
            ties = model.ties[row]
            tied = None
            if share_of is not None:
                tied = {value for value in set(values.values()) if ties[others][value][0]}
            if spade_bit or tied:
                chances = model.chances[row]
                for combo, mask in zip(row_combos, row_masks):
                    value = values[mask]
                    variant = _HOLDS if mask & spade_bit else others
                    if variant == others and (tied is None or value not in tied):
                        continue  # as by value
                    if value not in chances[variant]:
                        model._work_out(row, value, variant)
                    chance = chances[variant][value]
                    if share_of is not None:
                        tie, tie_won, tie_lost = ties[variant][value]
                        if tie:
                            plain = _plain_of(value) if model.second and row != "front" else value
                            share = share_of([codes[i] for i in combo], plain)
                            win, lose, term = chance
                            chance = (
                                win + share * tie,
                                lose + (1 - share) * tie,
                                term + share * tie_won - (1 - share) * tie_lost,
                            )
                    by_mask[mask] = chance
            found.append(by_mask)
        return found[0], found[1], found[2]

    def chances(self, row: str, mask: int) -> _Chances:
        """A row's (win, lose, royalty term) by its mask, as the search reads it."""
        if row == "front":
            return self.front[mask][1:]
        found = self.middle if row == "middle" else self.back
        return found[mask if self.by_mask else self.rank[mask]]

    def bound(self, limit: int) -> float:
        """The most any setting can be worth whose back ranks at most ``limit``
        (minus infinity when no front of the hand fits under it).  It never
        falls as the limit rises."""
        i = bisect_right(self.ranks, limit) - 1
        j = bisect_right(self.fronts, limit) - 1
        if i < 0 or j < 0:
            return float("-inf")
        (fw, fl, ft), (mw, ml, mt), (bw, bl, bt) = self._envelopes
        return self._value(fw[j], fl[j], ft[j], mw[i], ml[i], mt[i], bw[i], bl[i], bt[i])[0] + self.broken_most

    def broken(self, front: int, middle: int, back: int) -> float:
        """What the setting's split quads and straight flushes earn
        (``broken_royalties``), as :func:`cpscore.scoring.broken_royalties` counts it."""
        return _broken(self.combinations, front, middle, back)


def _twice(plain: int, held: Mapping[int, int]) -> bool:
    """Whether the hand (``held``: its count of each rank) can make two
    disjoint five-card rows of this poker value."""
    category = plain >> CATEGORY_SHIFT
    digits = [plain >> shift & 15 for shift in (16, 12, 8, 4, 0)]
    if category in (STRAIGHT, STRAIGHT_FLUSH):  # from the top card down; the wheel's ace
        groups = [(14 if rank == 1 else rank, 1) for rank in range(digits[0], digits[0] - 5, -1)]
    else:
        groups = list(zip(digits, GROUP_SIZES.get(category, (1, 1, 1, 1, 1))))
    return all(held.get(rank, 0) >= 2 * size for rank, size in groups)


def _combinations(codes: list[int], rules: RuleSet) -> list[tuple[int, float]]:
    """The four-of-a-kinds and straight flushes among the cards, as bit masks
    of their positions, each with what the back table pays for it, as the
    kernel finds them (:func:`cpscore.scoring.broken_combinations`), in floats."""
    return [(mask, float(units)) for mask, units in broken_combinations(codes, rules.royalties.table)]


def _most_broken(combinations: list[tuple[int, float]]) -> float:
    """The most any setting's broken royalties can be: the best disjoint set."""
    return float(best_disjoint([(mask, units) for mask, units in combinations if units > 0]))


def _broken(combinations: list[tuple[int, float]], front: int, middle: int, back: int) -> float:
    """What a setting's split combinations earn, as the kernel counts them
    (:func:`cpscore.scoring.broken_units`)."""
    return float(broken_units(combinations, front, middle, back)) if combinations else 0.0


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
    has_fantasyland = rules.ofc.played
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
    banker: bool | None = None,
) -> list[Setting]:
    """The ``top`` legal settings with the highest estimate, best first.

    Under rules with Fantasyland, 14 to 17 cards are a Fantasyland hand: each
    setting keeps 13 of them (the rest are its ``discards``), and one that
    stays in Fantasyland is worth ``fantasyland_value`` more.  ``fantasyland``
    says whether 13 cards are played in Fantasyland too (by default only a
    hand of more than 13 is).  ``banker`` says whether the hand is the
    banker's, under banker pairing where that changes what a setting is
    worth (:func:`_role`; an error when it does and ``banker`` is None)."""
    in_fantasyland = _check_cards(cards, rules, fantasyland)
    model = _model(rules, banker)
    codes = [card.code for card in cards]
    rows = _Rows(codes, model)
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
        row_codes = [[codes[i] for i in range(len(codes)) if mask >> i & 1] for mask in (front, middle, back)]
        chances = (
            model.row_chances("front", row_codes[0], codes),
            model.row_chances("middle", row_codes[1], codes),
            model.row_chances("back", row_codes[2], codes),
        )
        total, bonus, royalties = model.expected(*chances)
        broken = rows.broken(front, middle, back)
        left = full ^ front ^ middle ^ back
        stays = in_fantasyland and stays_in_fantasyland(rows.three[front], rows.five[middle], rows.five[back])
        results.append(
            Setting(
                hand,
                total + broken,
                chances,
                bonus,
                royalties + broken,
                discards=tuple(cards[i] for i in range(len(cards)) if left >> i & 1),
                fantasyland=fantasyland_value if stays else 0.0,
            )
        )
    return results


def _search(rows: _Rows, model: _Model, top: int) -> list[tuple[float, int]]:
    """The best ``top`` settings of 13 cards as (estimate, -(back << 26 | middle << 13)),
    a min-heap.  Backs are tried best bound first and, in equal bounds, by
    their cards' positions (a fixed order, so equal estimates always come
    out the same way); the search stops at the first back whose bound cannot
    beat the worst setting held."""
    rank, fronts = rows.rank, rows.front
    middles, backs, by_mask = rows.middle, rows.back, rows.by_mask
    value = model.value
    broken, combinations, most = rows.broken, rows.combinations, rows.broken_most
    local = _combos(8, 5)[0]  # the middles among the 8 cards left by a back
    full = (1 << 13) - 1
    kept: list[tuple[float, int]] = []
    floor = float("-inf")  # what a setting must reach to be worked out exactly
    for upper, group in _by_bound(rows):
        for back in group:
            if len(kept) == top and upper <= kept[0][0]:
                return kept  # and so for every weaker back
            back_rank = rank[back]
            bw, bl, bt = backs[back if by_mask else back_rank]
            constant, p, q, s, t = model.with_back(bw, bl, bt)
            constant += most  # the quick sum stays a bound with broken royalties
            others = full ^ back
            bits = [1 << i for i in range(13) if others >> i & 1]
            high = back << 26
            for a, b, c, d, e in local:
                middle = bits[a] | bits[b] | bits[c] | bits[d] | bits[e]
                middle_rank = rank[middle]
                if middle_rank > back_rank:
                    continue
                front_rank, fw, fl, ft = fronts[others ^ middle]
                if front_rank > middle_rank:  # the front's scale is the five-card one
                    continue
                mw, ml, mt = middles[middle if by_mask else middle_rank]
                if constant + p * (fw + mw) - q * (fl + ml) + s * fw * mw - t * fl * ml + ft + mt < floor:
                    continue
                estimate = value(fw, fl, ft, mw, ml, mt, bw, bl, bt)[0]
                if combinations:
                    estimate += broken(others ^ middle, middle, back)
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
    five, rank, three, fronts = rows.five, rows.rank, rows.three, rows.front
    middles, backs, by_mask = rows.middle, rows.back, rows.by_mask
    front_values = rows.fronts
    (best_win, best_lose, best_term), _, _ = rows._envelopes
    value = model.value
    broken, combinations, most = rows.broken, rows.combinations, rows.broken_most
    n = rows.count
    full = (1 << n) - 1
    middle_combos = _combos(n - 5, 5)[0]
    front_combos = _combos(n - 10, 3)[0]
    shift = CATEGORY_SHIFT
    # The rows that can stay other than a back of quads or better: a middle
    # of a full house or better, trips in front.
    full_houses = [mask for mask, plain in five.items() if plain >> shift >= FULL_HOUSE]
    trips = [mask for mask, plain in three.items() if plain >> shift == TRIPS]
    kept: list[tuple[float, int]] = []
    floor = float("-inf")
    for back in rows.order:
        back_rank = rank[back]
        back_category = five[back] >> shift
        back_stays = back_category >= QUADS
        if len(kept) == top:
            upper, worst = rows.bound(back_rank), kept[0]
            if upper + (stay_value if back_category >= TRIPS else 0.0) < worst[0]:
                break  # rows that stay make the back trips or better: so for every weaker back
            if back_stays or (
                back_category >= TRIPS
                and any(not mask & back for mask in trips)
                or back_category >= FULL_HOUSE
                and any(not mask & back for mask in full_houses)
            ):
                upper += stay_value
            if upper < worst[0] or (upper == worst[0] and back >= -worst[1] >> 2 * n):
                continue  # at best a tie, and one that orders after what is held
        bw, bl, bt = backs[back if by_mask else back_rank]
        constant, p, q, s, t = model.with_back(bw, bl, bt)
        constant += most  # the quick sums stay bounds with broken royalties
        others = full ^ back
        bits = [1 << i for i in range(n) if others >> i & 1]
        high = back << 2 * n
        for a, b, c, d, e in middle_combos:
            middle = bits[a] | bits[b] | bits[c] | bits[d] | bits[e]
            middle_rank = rank[middle]
            if middle_rank > back_rank:
                continue
            mw, ml, mt = middles[middle if by_mask else middle_rank]
            middle_category = five[middle] >> shift
            stays = back_stays or middle_category >= FULL_HOUSE
            if len(kept) == top:
                j = bisect_right(front_values, middle_rank) - 1
                if j < 0:
                    continue
                fw, fl, ft = best_win[j], best_lose[j], best_term[j]
                upper = constant + p * (fw + mw) - q * (fl + ml) + s * fw * mw - t * fl * ml + ft + mt
                if stays or middle_category >= TRIPS and any(not mask & (back | middle) for mask in trips):
                    upper += stay_value  # (trips in front need a middle of trips or better)
                if upper < floor:
                    continue
            left = others ^ middle
            rest = [1 << i for i in range(n) if left >> i & 1]
            middle_key = high | middle << n
            for a, b, c in front_combos:
                front = rest[a] | rest[b] | rest[c]
                front_rank, fw, fl, ft = fronts[front]
                if front_rank > middle_rank:
                    continue
                bonus = stay_value if stays or three[front] >> shift == TRIPS else 0.0
                if constant + p * (fw + mw) - q * (fl + ml) + s * fw * mw - t * fl * ml + ft + mt + bonus < floor:
                    continue
                worth = value(fw, fl, ft, mw, ml, mt, bw, bl, bt)[0] + bonus
                if combinations:
                    worth += broken(front, middle, back)
                entry = (worth, -(middle_key | front))
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


def _settling_rules(rules: RuleSet) -> RuleSet:
    """The rules a simulated deal is settled under: without caps and table
    stakes, which cut money after the units are scored, and need a session's
    buy-in (``simulate`` averages units)."""
    if not rules.money.cuts:
        return rules
    return rules._replace(money=Money())


def simulate(
    cards: Sequence[Card],
    settings: list[Setting],
    rules: RuleSet,
    rounds: int,
    seed: int = 0,
    banker: bool | None = None,
) -> list[Setting]:
    """The settings with ``simulated`` set: each one's average units over
    ``rounds`` drawn baseline opponents (the same opponents for every setting),
    settled by the kernel itself (:func:`cpscore.scoring.kernel`): the
    setting plays its rows (it waives any natural it makes, as it must to be
    played as set), the opponent claims a natural when it makes one.  The
    opponents hold none of ``cards`` (all of them, discards included).
    Under banker pairing the hand is the banker unless ``banker`` is False;
    a baseline opponent whose middle would foul on suits (``suit_foul``)
    plays it in the back."""
    import random

    from cpscore.cards import hand_of
    from cpscore.deal import Seat
    from cpscore.scoring import evaluate_core

    rng = random.Random(seed)
    settling = _settling_rules(rules)
    bank = None if not rules.banker.banks else "them" if banker is False else "you"
    mine = {card.code for card in cards}
    others = [code for code in range(52) if code not in mine]
    seats = [Seat("you", "you", setting.hand, None, False, True, False) for setting in settings]
    totals = [0.0] * len(settings)
    for _ in range(rounds):
        front, middle, back = baseline(rng.sample(others, 13))
        if rules.suits.suit_foul:
            foul = evaluate_core(front, middle, back, rules).foul
            if foul is not None and foul.by_suit:
                middle, back = back, middle
        opponent = Seat("them", "them", hand_of((*front, *middle, *back)), None, False, False, False)
        for index, seat in enumerate(seats):
            totals[index] += float(kernel((seat, opponent), settling, banker=bank).units[0])
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
    banker: bool | None = None,
) -> Arrangement:
    """The naturals the cards make, their best settings, and the natural to
    declare when it is worth more than the best setting.  With ``rounds``,
    the 20 best by the estimate (at least ``top``) are simulated and the best
    ``top`` by the simulation are kept.  A Fantasyland hand (see
    :func:`arrange`) of more than 13 cards makes no natural.  ``banker`` as
    :func:`arrange`."""
    if rounds:
        candidates = arrange(cards, rules, max(top, 20), fantasyland, fantasyland_value, banker)
        seed = sum(card.code << (6 * i) for i, card in enumerate(cards))  # the same cards, the same opponents
        candidates = simulate(cards, candidates, rules, rounds, seed, banker)
        candidates.sort(key=_worth, reverse=True)
        settings = candidates[:top]
    else:
        settings = arrange(cards, rules, top, fantasyland, fantasyland_value, banker)
    in_fantasyland = _check_cards(cards, rules, fantasyland)
    naturals: list[str] = []
    if len(cards) == 13:
        from cpscore.naturals import claims

        naturals = claims(cards, rules)  # in the order a hand claims them (natural_order, natural_rank)
    units = rules.naturals.units[naturals[0]] if naturals else None
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
