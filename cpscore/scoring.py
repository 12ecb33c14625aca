"""Settlement: a pure function from a deal, a rule set and stakes to a result
that carries its own reasons (RULES.md 3-6).

Every pair of players is settled on its own, a player's result is the sum
over opponents, so every deal is zero-sum.  Units and money are
exact (:mod:`cpscore.amounts`: ``int`` when whole, ``Amount`` otherwise).

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

from collections.abc import Mapping
from collections import namedtuple

from cpscore.amounts import Amount
from cpscore.cards import ROW_NAMES, Card, Hand
from cpscore.deal import Deal
from cpscore.hands import Foul, category, evaluate3, evaluate5, find_foul, rank_letters
from cpscore.rules import RuleSet



class Row(namedtuple("Row", "name cards value royalty")):
    """One row of a hand: its cards as written, its value and its royalty."""

    __slots__ = ()
    name: str
    cards: tuple[Card, ...]
    value: int
    royalty: Amount

    @property
    def category(self) -> str:
        return category(self.value)


class Assessment(namedtuple("Assessment", "hand rows foul")):
    """A hand judged on its own: row values, foul, royalties it holds."""

    __slots__ = ()
    hand: Hand
    rows: tuple[Row, Row, Row]
    foul: Foul | None

    @property
    def royalty_total(self) -> Amount:
        return sum(row.royalty for row in self.rows)


class PlayerResult(namedtuple("PlayerResult", "name assessment units amount")):

    __slots__ = ()
    name: str
    assessment: Assessment
    units: Amount
    amount: Amount

    @property
    def hand(self) -> Hand:
        return self.assessment.hand

    @property
    def foul(self) -> Foul | None:
        return self.assessment.foul


class PairResult(namedtuple("PairResult", "a b rows row_units bonus royalties units stake amount")):
    """One pair, from ``a``'s side: ``units`` is what b pays a (negative when a pays)."""

    __slots__ = ()
    a: str
    b: str
    rows: tuple[int, int, int]  # front, middle, back: 1 won, 0 tied, -1 lost
    row_units: Amount
    bonus: Amount  # the method's bonus (2-4 overall unit, 1-6 scoop)
    royalties: Amount  # a's royalties less b's
    units: Amount
    stake: Amount
    amount: Amount


class Settlement(namedtuple("Settlement", "rules stake players pairs")):

    __slots__ = ()
    rules: RuleSet
    stake: Amount
    players: tuple[PlayerResult, ...]
    pairs: tuple[PairResult, ...]


def royalty(rules: RuleSet, row_name: str, value: int) -> Amount:
    """The royalty a row of this value holds under ``rules`` (0 without royalties)."""
    if rules.royalties.mode == "none":
        return 0
    kind = category(value)
    # A front's table key is its group: QQ for a pair of queens, 777 for trips.
    ranks = rank_letters(value).replace("-", "")[: 3 if kind == "trips" else 2]
    return rules.royalties.table.lookup(row_name, kind, ranks)


def assess(hand: Hand, rules: RuleSet) -> Assessment:
    """Evaluate a hand's rows, find a foul, and price its royalties (0 when fouled)."""
    values = (
        evaluate3([card.code for card in hand.front]),
        evaluate5([card.code for card in hand.middle]),
        evaluate5([card.code for card in hand.back]),
    )
    foul = find_foul(*values)
    rows = tuple(
        Row(name, cards, value, 0 if foul else royalty(rules, name, value))
        for name, cards, value in zip(ROW_NAMES, hand.rows, values)
    )
    return Assessment(hand, rows, foul)  # type: ignore[arg-type]


def compare_rows(a: Assessment, b: Assessment) -> tuple[int, int, int]:
    """Each row from a's side; a fouled hand loses every row to a live one."""
    if a.foul or b.foul:
        if a.foul and b.foul:
            return (0, 0, 0)
        return (-1, -1, -1) if a.foul else (1, 1, 1)
    return tuple(  # type: ignore[return-value]
        (x.value > y.value) - (x.value < y.value) for x, y in zip(a.rows, b.rows)
    )


def method_bonus(method: str, rows: tuple[int, int, int]) -> Amount:
    """The method's bonus from a's side (RULES.md 5)."""
    won, lost = rows.count(1), rows.count(-1)
    if method == "2-4":
        return (won >= 2) - (lost >= 2)
    if method == "1-6":
        return 3 * ((won == 3) - (lost == 3))
    return 0


def settle_pair(a: Assessment, b: Assessment, rules: RuleSet) -> tuple[tuple[int, int, int], Amount, Amount, Amount]:
    """Rows, row units, method bonus and royalties for one pair, from a's side."""
    rows = compare_rows(a, b)
    row_units = sum(rows)
    bonus = method_bonus(rules.method, rows)
    royalties: Amount = 0
    if rules.royalties.mode == "holder":
        royalties = a.royalty_total - b.royalty_total
    elif rules.royalties.mode != "none":
        raise NotImplementedError(f"royalty mode {rules.royalties.mode!r}")
    return rows, row_units, bonus, royalties


def settle(
    deal: Deal,
    rules: RuleSet,
    stake: Amount = 1,
    pair_stakes: Mapping[frozenset[str], Amount] | None = None,
) -> Settlement:
    """Settle every pair of the deal; ``pair_stakes`` maps ``{a, b}`` to the
    money per unit for that pair, overriding ``stake``."""
    pair_stakes = pair_stakes or {}
    assessments = [assess(seat.hand, rules) for seat in deal.seats]
    names = deal.names()
    totals: dict[str, Amount] = {name: 0 for name in names}
    money: dict[str, Amount] = {name: 0 for name in names}
    pairs = []
    for i, a in enumerate(assessments):
        for j in range(i + 1, len(assessments)):
            rows, row_units, bonus, royalties = settle_pair(a, assessments[j], rules)
            units = row_units + bonus + royalties
            pair_stake = pair_stakes.get(frozenset((names[i], names[j])), stake)
            amount = units * pair_stake
            pairs.append(PairResult(names[i], names[j], rows, row_units, bonus, royalties, units, pair_stake, amount))
            totals[names[i]] += units
            totals[names[j]] -= units
            money[names[i]] += amount
            money[names[j]] -= amount
    players = tuple(
        PlayerResult(name, assessment, totals[name], money[name]) for name, assessment in zip(names, assessments)
    )
    return Settlement(rules, stake, players, tuple(pairs))
