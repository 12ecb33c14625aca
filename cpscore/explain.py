"""The reasoning behind every unit, for disputes: a view of a settlement.

Nothing here scores.  Every number comes from the :class:`~cpscore.scoring.Settlement`
that the table and the JSON are drawn from; this module only puts it into
words a floor person would use: each row's two hands and the ranks that
decide it, fouls, royalties with their table entries, naturals and their
tie-breaks, surrender, the method's bonus, multipliers, and the arithmetic.

>>> from cpscore.deal import build_deal, entry_from_argument
>>> from cpscore.rules import get_rules
>>> from cpscore.scoring import settle
>>> deal = build_deal([entry_from_argument("Amy=Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d"),
...                    entry_from_argument("Bob=Qs Jd 3c / Th Tc 8d 8s 3d / Kh Qh Jh 8h 2h")])
>>> for line in explain(settle(deal, get_rules("2-4"))).splitlines()[1:3]:
...     print(line)
  front   Amy's pair of kings (K-K-4) beats Bob's queen high (Q-J-3)
          a pair over high card: +1
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cpscore.amounts import Amount, signed
from cpscore.amounts import text as number
from cpscore.hands import Foul, describe, digits, plain_of, rank_letters
from cpscore.naturals import REGISTRY, Natural, compare
from cpscore.rules import METHOD_BONUSES
from cpscore.scoring import PairResult, PlayerResult, Row, Settlement, row_extras
from cpscore.values import CATEGORIES, CATEGORY_SHIFT, STRAIGHT_FLUSH

if TYPE_CHECKING:
    from cpscore.rules import RuleSet

_PLURAL = dict(
    zip(range(2, 15), "twos threes fours fives sixes sevens eights nines tens jacks queens kings aces".split())
)
_LETTER = dict(zip(range(2, 15), "23456789TJQKA"))
_ONE = dict(zip(range(2, 15), "two three four five six seven eight nine ten jack queen king ace".split()))
_ARTICLE = {"high-card": "high card", "pair": "a pair", "two-pair": "two pair", "trips": "trips", "quads": "quads"}


def _category_words(value: int) -> str:
    category = CATEGORIES[value >> CATEGORY_SHIFT]
    return _ARTICLE.get(category, "a " + category.replace("-", " "))


def deciding(stronger: int, weaker: int) -> str:
    """Why one value beats another: the categories, or the first rank that
    differs ('kings over queens', 'then 7 over 5').

    >>> from cpscore.cards import parse_cards
    >>> from cpscore.hands import evaluate_row as value
    >>> deciding(value(parse_cards("Ah Ad 9c 5s 2h")), value(parse_cards("As Ac 8d 7s 6h")))
    'then 9 over 8'
    """
    if stronger >> CATEGORY_SHIFT != weaker >> CATEGORY_SHIFT:
        return f"{_category_words(stronger)} over {_category_words(weaker)}"
    for index, (mine, theirs) in enumerate(zip(digits(stronger), digits(weaker))):
        if mine != theirs:
            if index == 0 and (stronger >> CATEGORY_SHIFT) in (1, 2, 3, 6, 7):  # a pair, trips, ... of higher rank
                return f"{_PLURAL[mine]} over {_PLURAL[theirs]}"
            return f"{'then ' if index else ''}{_LETTER[mine]} over {_LETTER[theirs]}"
    return "equal ranks"  # pragma: no cover - only called on different values


def _hand(player: str, row: Row) -> str:
    return f"{player}'s {describe(row.plain)} ({rank_letters(row.plain)})"


def foul_reason(name: str, foul: Foul) -> str:
    """'Bob fouled: front pair of queens (Q-Q-3) beats middle jack high
    (J-T-8-6-3), a pair over high card: Bob loses every row'."""
    return (
        f"{name} fouled: {foul.reason}, {deciding(foul.stronger_value, foul.weaker_value)}: "
        f"{name} loses every row and holds no royalties"
    )


def _natural_words(natural: Natural) -> str:
    return f"{REGISTRY[natural.id].label} ({number(natural.units)})"


def _natural_row(row: str, value: int) -> str:
    """A row of a row-based natural in words: 'five-high straight (5-4-3-2-A)';
    a front as the three-card straight or flush it is: 'three-high straight
    (3-2-A)', 'king-high flush (K-9-4)'."""
    if row != "front":
        plain = plain_of(value)
        return f"{describe(plain)} ({rank_letters(plain)})"
    ranks = digits(value)
    if len(ranks) == 1:  # a straight (or straight flush), by its top card; A-2-3 tops at 3
        top = ranks[0]
        ranks = [top, top - 1, top - 2] if top > 3 else [3, 2, 14]
        kind = "straight flush" if value >> CATEGORY_SHIFT == STRAIGHT_FLUSH else "straight"
    else:
        kind = "flush"
    letters = "-".join(_LETTER[rank] for rank in ranks)
    return f"{_ONE[ranks[0]]}-high three-card {kind} ({letters})"


def _natural_tie_break(a: str, natural_a: Natural, b: str, natural_b: Natural, rules: RuleSet) -> str:
    """The tie-break between two equal naturals, in words."""
    if natural_a.key is None:
        return f"both {REGISTRY[natural_a.id].label}: docs/rules.md gives no tie-break, a tie"
    assert natural_b.key is not None  # the same natural: both have a tie-break key or neither
    outcome = compare(natural_a, natural_b, rules)
    if natural_a.id == "six-pairs":
        (pairs_a, odd_a), (pairs_b, odd_b) = natural_a.key, natural_b.key

        def show(pairs, odd):  # odd is None where the odd card does not count
            return "-".join(_LETTER[rank] for rank in pairs) + (f" and odd {_LETTER[odd]}" if odd else "")

        detail = f"{a}'s pairs {show(pairs_a, odd_a)}, {b}'s {show(pairs_b, odd_b)}"
    else:
        rows = ("back", "middle", "front")
        detail = "; ".join(
            f"{row} {a} {_natural_row(row, x)} vs {b} {_natural_row(row, y)}"
            for row, x, y in zip(rows, natural_a.key, natural_b.key)
        )
    verdict = "a tie" if outcome == 0 else f"{a if outcome > 0 else b} is higher"
    return f"both {REGISTRY[natural_a.id].label}: {detail}: {verdict}"


def _naturals(pair: PairResult, a: PlayerResult, b: PlayerResult, rules: RuleSet) -> list[str]:
    natural_a, natural_b = a.natural, b.natural
    if natural_a and natural_b:
        if natural_a.id == natural_b.id:
            lines = [_natural_tie_break(a.name, natural_a, b.name, natural_b, rules)]
        else:
            higher = a if compare(natural_a, natural_b, rules) > 0 else b
            lines = [
                f"{a.name}'s {_natural_words(natural_a)} against {b.name}'s {_natural_words(natural_b)}: "
                f"{higher.name}'s natural ranks higher and collects its own value"
            ]
    else:
        holder = a if natural_a else b
        assert holder.natural is not None  # a natural decided the pair
        lines = [f"{holder.name} claims {_natural_words(holder.natural)}: it is paid at once, no rows are played"]
    lines.append(f"natural {signed(pair.natural)}; naturals are never multiplied")
    return lines


def _surrender(pair: PairResult, a: PlayerResult, b: PlayerResult, settlement: Settlement) -> list[str]:
    surrender = settlement.rules.surrender
    assert surrender is not None  # settle() refuses a surrender under rules that have none
    if a.seat.surrendered and b.seat.surrendered:
        return ["both surrender: nothing changes hands"]
    quitter, other = (a, b) if a.seat.surrendered else (b, a)
    if other.foul:
        return [f"{quitter.name} surrenders and {other.name} fouled: nothing changes hands"]
    return [
        f"{quitter.name} surrenders: pays {other.name} the {settlement.rules.id} surrender, {number(surrender)}; "
        "nothing else is paid"
    ]


def _rows(pair: PairResult, a: PlayerResult, b: PlayerResult, settlement: Settlement) -> list[str]:
    rules = settlement.rules
    lines = []
    fouled = [player for player in (a, b) if player.foul]
    for player in fouled:
        assert player.foul is not None  # fouled holds only hands with a foul
        lines.append(foul_reason(player.name, player.foul))
    assert a.assessment is not None and b.assessment is not None  # the rows were played: both are set hands
    extras: tuple[Amount, Amount, Amount] = (0, 0, 0)
    if rules.royalties.mode in ("row-bonus", "row-value"):
        extras = row_extras(rules, a.assessment.core, b.assessment.core, pair.rows)
    for index, outcome in enumerate(pair.rows):
        mine, theirs = a.assessment.rows[index], b.assessment.rows[index]
        low = rules.low_middle and mine.name == "middle"
        if fouled:
            what = f"{a.name if outcome > 0 else b.name} takes it" if outcome else "both fouled: no row is played"
            why = ""
        elif outcome == 0:
            what, why = f"tie: both {describe(mine.plain)} ({rank_letters(mine.plain)})", ""
        else:
            winner, loser = (a.name, mine), (b.name, theirs)
            if outcome < 0:
                winner, loser = loser, winner
            if low:
                what, why = f"{_hand(*winner)} is lower than {_hand(*loser)}", "the middle plays low"
            else:
                what = f"{_hand(*winner)} beats {_hand(*loser)}"
                why = deciding(winner[1].value, loser[1].value)
                if winner[1].value != winner[1].plain or loser[1].value != loser[1].plain:
                    why = "the wheel ranks second"
        if extras[index]:
            holder = mine if outcome > 0 else theirs
            entry = f"{_royalty_label(holder)} {number(holder.royalty)} in the {rules.id} table"
            why += f"; royalty {signed(extras[index])} ({entry})"
        lines.append(f"{mine.name:6}  {what}")
        lines.append(f"        {why + ': ' if why else ''}{signed(outcome)}")
    lines.append(f"rows    {' '.join(signed(outcome) for outcome in pair.rows)} = {signed(pair.row_units)}")
    return lines


def _bonus(pair: PairResult, a: PlayerResult, b: PlayerResult, method: str) -> list[str]:
    won, lost = pair.rows.count(1), pair.rows.count(-1)
    leader = a.name if won > lost else b.name
    two, three = METHOD_BONUSES[method]
    if not two and not three:
        return []
    if pair.bonus and two:
        return [f"bonus   {leader} wins two rows of three ({method}): the overall unit {signed(pair.bonus)}"]
    if pair.bonus:
        return [f"bonus   {leader} wins all three rows ({method} scoop): {signed(pair.bonus)}"]
    return [f"bonus   0 ({'no one wins two rows' if two else 'no scoop'})"]


def _royalty_label(row: Row) -> str:
    """A row's royalty table entry: 'front KK', 'back full house'."""
    if row.name == "front":
        return "front " + rank_letters(row.plain).replace("-", "")[: 3 if row.category == "trips" else 2]
    return f"{row.name} {row.category.replace('-', ' ')}"


def _royalty_entries(player: PlayerResult) -> str:
    assert player.assessment is not None  # the rows were played
    entries = []
    for row in player.assessment.rows:
        if row.royalty:
            entries.append(f"{_royalty_label(row)} {number(row.royalty)}")
    total = player.assessment.royalty_total
    return f"{player.name} {' + '.join(entries)} = {number(total)}" if entries else f"{player.name} none"


def _royalties(pair: PairResult, a: PlayerResult, b: PlayerResult, settlement: Settlement) -> list[str]:
    rules = settlement.rules
    mode = rules.royalties.mode
    if mode == "none":
        return []
    notes = []
    if rules.royalties.spade_bonus:
        notes.append("the row holding 2s is doubled")
    if rules.royalties.max_per_hand:
        notes.append(f"each hand keeps its {rules.royalties.max_per_hand} largest")
    extra = f" ({'; '.join(notes)})" if notes else ""
    table = f"{rules.id} table{extra}"
    if mode == "holder":
        return [
            f"royalties (paid by holder, {table}): {_royalty_entries(a)}; {_royalty_entries(b)}; "
            f"net {signed(pair.royalties)}"
        ]
    how = "1 + the table value" if mode == "row-bonus" else "the table value instead of 1"
    cancel = ", cancelled when both qualify" if rules.royalties.cancel_when_both else ""
    return [f"royalties ({mode}: a row's winner collects {how}{cancel}; {table}): {signed(pair.royalties)}"]


def _multiplier(pair: PairResult, a: PlayerResult, b: PlayerResult, rules: RuleSet) -> list[str]:
    if pair.multiplier == 1:
        return []
    scooper = a.name if pair.rows == (1, 1, 1) else b.name
    lines = []
    if rules.scoop_doubles:
        lines.append(f"{scooper} scoops {b.name if scooper == a.name else a.name}: doubled")
    if pair.multiplier == 4 or (pair.multiplier == 2 and not rules.scoop_doubles):
        lines.append(f"home run: {scooper} scoops every opponent: doubled again")
    return [f"multiplier x{pair.multiplier}: " + "; ".join(lines)]


def explain_pair(pair: PairResult, settlement: Settlement) -> str:
    """Every step of one pair, ending with the arithmetic and who pays whom."""
    players = {player.name: player for player in settlement.players}
    a, b = players[pair.a], players[pair.b]
    rules = settlement.rules
    lines = [f"{pair.a} against {pair.b} ({rules.id}):"]
    if pair.decided_by == "natural":
        body = _naturals(pair, a, b, rules)
    elif pair.decided_by == "surrender":
        body = _surrender(pair, a, b, settlement)
    else:
        body = _rows(pair, a, b, settlement) + _bonus(pair, a, b, rules.method)
        body += _royalties(pair, a, b, settlement) + _multiplier(pair, a, b, rules)
    lines += ["  " + line for line in body]
    lines.append("  " + _arithmetic(pair))
    return "\n".join(lines) + "\n"


def _arithmetic(pair: PairResult) -> str:
    if pair.decided_by == "rows":
        parts = f"{signed(pair.row_units)} rows"
        if pair.bonus:
            parts += f" {signed(pair.bonus)} bonus"
        if pair.royalties:
            parts += f" {signed(pair.royalties)} royalties"
        sum_text = f"({parts}) x {pair.multiplier}" if pair.multiplier != 1 else parts
    elif pair.decided_by == "natural":
        sum_text = f"natural {signed(pair.natural)}"
    else:
        sum_text = f"surrender {signed(pair.surrender)}"
    text = f"units   {sum_text} = {signed(pair.units)}"
    if pair.stake != 1:
        text += f"; money {signed(pair.units)} x {number(pair.stake)} = {signed(pair.amount)}"
    return text + f": {_who_pays(pair.a, pair.b, pair.amount)}"


def _who_pays(a: str, b: str, amount: Amount) -> str:
    if amount == 0:
        return "nothing changes hands"
    payer, payee = (b, a) if amount > 0 else (a, b)
    return f"{payer} pays {payee} {number(amount if amount > 0 else -amount)}"


def explain(settlement: Settlement) -> str:
    """The reasoning for every pair of a deal."""
    return "\n".join(explain_pair(pair, settlement) for pair in settlement.pairs)
