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
from cpscore.cards import ROW_NAMES, card_code
from cpscore.formatting import (
    SUIT_NAMES,
    Cut,
    Split,
    cuts,
    magnitude,
    splits,
    suit_decider,
    suit_lineup,
    suits_words,
)
from cpscore.hands import Foul, describe, digits, plain_of, rank_letters
from cpscore.naturals import Natural, claims, compare, label
from cpscore.rules import METHOD_BONUSES
from cpscore.scoring import (
    FALSE_CLAIM,
    SUIT_BITS,
    Assessment,
    PairResult,
    PlayerResult,
    Row,
    Settlement,
    method_bonus,
    pair_royalties,
    row_extras,
    royalty,
)
from cpscore.values import CATEGORIES, CATEGORY_SHIFT, STEEL_WHEEL, STRAIGHT_FLUSH

if TYPE_CHECKING:
    from cpscore.cards import Card
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
    return f"{player}'s {describe(row.named)} ({rank_letters(row.named)})"


def _ranked(value: int, rules: RuleSet) -> int:
    """A row's value as its ranks compare it: with ``suit_order`` its suits are
    kept below the ranks, and are left out here."""
    return value >> SUIT_BITS if rules.suits.suit_order is not None else value


def _suits(cards: tuple[Card, ...], others: tuple[Card, ...], plain: int, rules: RuleSet) -> str:
    """How two rows of equal ranks compare on suits: both lined up as
    ``suit_order`` compares them (docs/rules.md 12), and the first two cards
    whose suits differ: '(s h c d): Ks Kd 4c against Kh Kc 4d, Ks over Kh
    (spades over hearts)'."""
    order = rules.suits.suit_order
    assert order is not None  # suits decide only with a suit order
    mine, theirs = (" ".join(map(str, suit_lineup(row, plain, order))) for row in (cards, others))
    decider = suit_decider(cards, others, plain, order)
    at = f", {suits_words(*decider)}" if decider else ""
    return f"({' '.join(order)}): {mine} against {theirs}{at}"


def foul_reason(
    name: str, foul: Foul, rules: RuleSet | None = None, assessment: Assessment | None = None, both_fouled: bool = False
) -> str:
    """'Bob fouled: front pair of queens (Q-Q-3) beats middle jack high
    (J-T-8-6-3), a pair over high card: Bob loses every row'; with
    ``foul_plays``, what the fouled hand pays instead."""
    if foul.by_suit and rules is not None and assessment is not None:
        rows = {row.name: row for row in assessment.rows}
        stronger, weaker = rows[foul.stronger], rows[foul.weaker]
        why = "suits count (suit_foul) " + _suits(stronger.cards, weaker.cards, stronger.plain, rules)
    elif foul.weaker == "qualifier":
        why = "low_middle_qualifier"
    else:
        why = deciding(foul.stronger_value, foul.weaker_value)
    if rules is not None and rules.rows.foul_plays and both_fouled:
        result = f"two fouled hands pay no penalty: {name} plays the rows as set (foul_plays), holding no royalties"
    elif rules is not None and rules.rows.foul_plays:
        result = f"{name} pays a penalty and plays the rows as set (foul_plays), holding no royalties"
    else:
        result = f"{name} loses every row and holds no royalties"
    return f"{name} fouled: {foul.reason}, {why}: {result}"


def _natural_words(natural: Natural) -> str:
    if natural.id == FALSE_CLAIM:
        return f"false claim (pays {number(natural.units)})"
    return f"{label(natural.id)} ({number(natural.units)})"


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


_ROW_NATURALS = ("three-straight-flushes", "three-straights", "three-flushes")


def _key_words(a: str, natural_a: Natural, b: str, natural_b: Natural, front_first: bool = False) -> str:
    """Two tie-break keys of the same natural in words (docs/rules.md 7), a
    row-based natural's rows in the order they break the tie."""
    key_a, key_b = natural_a.key, natural_b.key
    assert key_a is not None and key_b is not None  # the same natural: both have a tie-break key or neither
    if natural_a.id == "six-pairs":
        (pairs_a, odd_a), (pairs_b, odd_b) = key_a, key_b

        def show(pairs, odd):  # odd is None where the odd card does not count
            return "-".join(_LETTER[rank] for rank in pairs) + (f" and odd {_LETTER[odd]}" if odd else "")

        return f"{a}'s pairs {show(pairs_a, odd_a)}, {b}'s {show(pairs_b, odd_b)}"
    if natural_a.id == "five-pairs-trips":  # (trips, pairs)

        def trips(key):
            return f"trips {_LETTER[key[0]]} and pairs " + "-".join(_LETTER[rank] for rank in key[1])

        return f"{a}'s {trips(key_a)}, {b}'s {trips(key_b)} (the trips first, then the pairs)"
    if natural_a.id == "five-consecutive-pairs":  # (top,)

        def run(key):
            return f"{_LETTER[key[0] - 4]} to {_LETTER[key[0]]}"

        return f"{a}'s pairs run {run(key_a)}, {b}'s {run(key_b)} (the top rank of the highest run)"
    if natural_a.id in _ROW_NATURALS:
        compared = list(zip(("back", "middle", "front"), key_a, key_b))
        if front_first:  # natural_row_order = "back-front-middle"
            compared = [compared[0], compared[2], compared[1]]
        return "; ".join(f"{row} {a} {_natural_row(row, x)} vs {b} {_natural_row(row, y)}" for row, x, y in compared)
    return f"{a} {key_a}, {b} {key_b}"  # pragma: no cover - every natural with a key is named above


def _high_cards(a: str, high_a: Card, b: str, high_b: Card, outcome: int) -> str:
    """The highest cards of two equal naturals (``natural_suit_tiebreak``), the higher first."""
    (winner, card), (loser, other) = ((a, high_a), (b, high_b)) if outcome >= 0 else ((b, high_b), (a, high_a))
    suits = f" ({SUIT_NAMES[card.suit.value]} over {SUIT_NAMES[other.suit.value]})" if card.rank == other.rank else ""
    return f"the highest card decides (natural_suit_tiebreak): {winner}'s {card} over {loser}'s {other}{suits}"


def _natural_tie_break(a: str, natural_a: Natural, b: str, natural_b: Natural, rules: RuleSet) -> str:
    """The tie-break between two equal naturals, in words."""
    name = label(natural_a.id)
    outcome = compare(natural_a, natural_b, rules)
    verdict = "a tie" if outcome == 0 else f"{a if outcome > 0 else b} is higher"
    high = ""
    if natural_a.key == natural_b.key and natural_a.high is not None and natural_b.high is not None:
        high = "; " + _high_cards(a, natural_a.high, b, natural_b.high, outcome)
    if natural_a.key is None and not high:
        return f"both {name}: docs/rules.md gives no tie-break, a tie"
    if natural_a.key is None:
        return f"both {name}: docs/rules.md gives no tie-break{high}: {verdict}"
    front_first = rules.naturals.natural_row_order == "back-front-middle"
    return f"both {name}: {_key_words(a, natural_a, b, natural_b, front_first)}{high}: {verdict}"


def _claimed(player: PlayerResult, rules: RuleSet) -> list[str]:
    """Which natural an unset hand claims when its cards make several and the
    choice is not simply the most valuable (docs/rules.md 7): by ``natural_rank``."""
    natural = player.natural
    if natural is None or natural.id == FALSE_CLAIM or player.seat.hand is not None:
        return []
    made = claims(player.seat.cards, rules)
    values = [rules.naturals.units[made_id] for made_id in made]
    if rules.naturals.natural_order == "rank":
        if len(made) < 2:
            return []
        how = "the first of them in natural_rank is claimed (natural_order rank)"
    elif len(made) < 2 or values.count(values[0]) < 2:  # the most valuable, alone: nothing to tell
        return []
    else:
        how = "the most valuable is claimed, and of equal values the first in natural_rank"
    listed = ", ".join(f"{label(made_id)} ({number(rules.naturals.units[made_id])})" for made_id in made)
    return [f"{player.name}'s cards make {listed}: {how}: {label(natural.id)}"]


def _naturals(pair: PairResult, a: PlayerResult, b: PlayerResult, rules: RuleSet) -> list[str]:
    natural_a, natural_b = a.natural, b.natural
    false_a = natural_a is not None and natural_a.id == FALSE_CLAIM
    false_b = natural_b is not None and natural_b.id == FALSE_CLAIM
    lines = _claimed(a, rules) + _claimed(b, rules)
    if false_a or false_b:
        return lines + _false_claims(pair, a, b, rules, false_a, false_b)
    if natural_a and natural_b:
        if rules.naturals.natural_vs_natural == "net":
            what = (
                f"both {_natural_words(natural_a)}"
                if natural_a.id == natural_b.id
                else f"{a.name}'s {_natural_words(natural_a)} against {b.name}'s {_natural_words(natural_b)}"
            )
            lines.append(
                f"{what}: each collects its own value (natural_vs_natural net): "
                f"{number(natural_a.units)} - {number(natural_b.units)} = {signed(pair.natural)}"
            )
        elif natural_a.id == natural_b.id:
            lines.append(_natural_tie_break(a.name, natural_a, b.name, natural_b, rules))
        else:
            higher, lower = (a, b) if compare(natural_a, natural_b, rules) > 0 else (b, a)
            assert higher.natural is not None and lower.natural is not None  # both claim a natural
            if rules.naturals.natural_order == "rank":
                why = f"{label(higher.natural.id)} is earlier in natural_rank (natural_order rank), so {higher.name}'s"
            elif higher.natural.units == lower.natural.units:
                why = f"equal values, and {label(higher.natural.id)} is earlier in natural_rank: {higher.name}'s"
            else:
                why = f"{higher.name}'s"
            lines.append(
                f"{a.name}'s {_natural_words(natural_a)} against {b.name}'s {_natural_words(natural_b)}: "
                f"{why} natural ranks higher and collects its own value"
            )
    else:
        holder, other = (a, b) if natural_a else (b, a)
        assert holder.natural is not None  # a natural decided the pair
        if other.seat.surrendered and not rules.naturals.natural_beats_surrender:
            lines.append(
                f"{holder.name} claims {_natural_words(holder.natural)} and {other.name} surrendered: "
                "a natural collects nothing from a surrendered hand (natural_beats_surrender false)"
            )
        else:
            lines.append(
                f"{holder.name} claims {_natural_words(holder.natural)}: it is paid at once, no rows are played"
            )
    if "horse" in pair.doubled:
        lines.append(
            f"natural {signed(pair.natural)}, doubled: {_horse_words(a, b, rules)}; nothing else multiplies a natural"
        )
    else:
        lines.append(f"natural {signed(pair.natural)}; naturals are never multiplied")
    return lines


def _false_claims(
    pair: PairResult, a: PlayerResult, b: PlayerResult, rules: RuleSet, false_a: bool, false_b: bool
) -> list[str]:
    """A pair a false claim decides (docs/rules.md 7, ``false_claim``)."""
    if false_a and false_b:
        return ["both declare a natural their cards do not make: two false claims settle at 0"]
    claimer, other = (a, b) if false_a else (b, a)
    cards = " ".join(map(str, claimer.seat.cards))
    lines = [f"{claimer.name} declares {cards}, which make none of the {rules.id} naturals: a false claim"]
    if other.natural is not None:
        lines.append(f"{other.name} claims {_natural_words(other.natural)}: it collects its own value instead")
    else:
        lines.append(
            f"{claimer.name} pays {other.name} the false_claim, {number(rules.naturals.false_claim or 0)}; no rows are played"
        )
    if "horse" in pair.doubled:
        lines.append(
            f"natural {signed(pair.natural)}, doubled: {_horse_words(a, b, rules)};"
            " nothing else multiplies a false claim or a natural"
        )
    else:
        lines.append(f"natural {signed(pair.natural)}; false claims and naturals are never multiplied")
    return lines


def _surrender(pair: PairResult, a: PlayerResult, b: PlayerResult, settlement: Settlement) -> list[str]:
    surrender = settlement.rules.methods.surrender
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


def _result(pair: PairResult, a: PlayerResult, b: PlayerResult, settlement: Settlement) -> list[str]:
    """A pair of a deal entered as results (docs/rules.md 13): no cards."""
    ra, rb = a.seat.result, b.seat.result
    assert ra is not None and rb is not None  # a deal of results
    head = f"results, no cards: {a.name} {signed(ra)}, {b.name} {signed(rb)}"
    if settlement.banker is not None:
        player = b if a.name == settlement.banker else a
        return [head, f"against the banker: {player.name}'s result is their pair's with the bank"]
    return [
        head,
        "paid pair by pair, the biggest loser to the biggest winner first (ties: the earlier seat): "
        + (f"this pair settles {signed(pair.units)}" if pair.units else "this pair is even"),
    ]


def _rows(pair: PairResult, a: PlayerResult, b: PlayerResult, settlement: Settlement) -> list[str]:
    rules = settlement.rules
    lines = []
    fouled = [player for player in (a, b) if player.foul]
    for player in fouled:
        assert player.foul is not None  # fouled holds only hands with a foul
        lines.append(foul_reason(player.name, player.foul, rules, player.assessment, len(fouled) == 2))
    assert a.assessment is not None and b.assessment is not None  # the rows were played: both are set hands
    core_a, core_b = a.assessment.core, b.assessment.core
    as_set = not fouled or rules.rows.foul_plays  # the rows are compared as they are set
    extras: tuple[Amount, Amount, Amount] = (0, 0, 0)
    if rules.royalties.mode in ("row-bonus", "row-value"):
        extras = row_extras(rules, core_a, core_b, pair.rows)
    held = pair_royalties(rules, core_a, core_b)
    for index, outcome in enumerate(pair.rows):
        mine, theirs = a.assessment.rows[index], b.assessment.rows[index]
        note = pair.notes[index]
        low = rules.rows.low_middle and mine.name == "middle"
        if not as_set:
            what = f"{a.name if outcome > 0 else b.name} takes it" if outcome else "both fouled: no row is played"
            why = ""
        elif note == "banker":
            what = f"tie: both {describe(mine.named)} ({rank_letters(mine.named)})"
            why = f"a tied row goes to the banker, {settlement.banker} (banker_wins_ties)"
        elif outcome == 0:
            what, why = f"tie: both {describe(mine.named)} ({rank_letters(mine.named)})", ""
        else:
            winner, loser = (a.name, mine), (b.name, theirs)
            if outcome < 0:
                winner, loser = loser, winner
            if low:
                what, why = f"{_hand(*winner)} is lower than {_hand(*loser)}", "the middle plays low"
            elif note == "suit":
                what = f"{_hand(*winner)} beats {_hand(*loser)} on suits"
                why = "equal ranks, so suits decide " + _suits(winner[1].cards, loser[1].cards, winner[1].plain, rules)
            else:
                what = f"{_hand(*winner)} beats {_hand(*loser)}"
                stronger, weaker = _ranked(winner[1].value, rules), _ranked(loser[1].value, rules)
                why = deciding(stronger, weaker)
                if stronger != winner[1].plain or weaker != loser[1].plain:
                    why = "the wheel ranks second"
        if extras[index]:
            holder, amount = (mine, held[0][index]) if outcome > 0 else (theirs, held[1][index])
            entry = f"{_entry(holder, amount, rules)} in the {rules.id} table"
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


def _royalty_label(row: Row, rules: RuleSet) -> str:
    """A row's royalty table entry, the one the row is paid (docs/rules.md 6):
    'front KK', 'front trips', 'back full house', 'back quads-A', 'middle steel wheel'."""
    table = rules.royalties.table
    if row.value < 0:  # a low middle (docs/rules.md 10): its low entry
        ranks = rank_letters(row.named).replace("-", "")
        return f"middle low-{'75432' if ranks == '75432' and 'low-75432' in table.middle else ranks[0]}"
    kind = "steel-wheel" if row.plain == STEEL_WHEEL else row.category
    ranks = rank_letters(row.plain).replace("-", "")
    if row.name == "front":
        ranks = ranks[: 3 if kind == "trips" else 2]
        return f"front {'trips' if kind == 'trips' and ranks not in table.front else ranks}"
    entries = table.middle if row.name == "middle" else table.back
    if kind in ("royal-flush", "steel-wheel") and kind not in entries:
        kind = "straight-flush"
    elif kind == "quads" and f"quads-{ranks[0]}" in entries:
        return f"{row.name} quads-{ranks[0]}"
    return f"{row.name} {kind.replace('-', ' ')}"


def _entry(row: Row, amount: Amount, rules: RuleSet) -> str:
    """A row's royalty in a pair with its table entry: 'back quads 10', and
    doubled by the spade bonus 'back quads 10 x 2'."""
    value = royalty(rules, row.name, row.plain)
    if value and amount == value * 2:
        return f"{_royalty_label(row, rules)} {number(value)} x 2"
    return f"{_royalty_label(row, rules)} {number(amount)}"


def _broken_words(player: PlayerResult) -> str:
    """The four of a kinds and straight flushes of a hand split across its rows."""
    codes = player.seat.codes
    rows = (set(codes[:3]), set(codes[3:8]), set(codes[8:]))
    held = set(codes)
    found = []
    for rank in range(2, 15):
        cards = {card_code(rank, suit) for suit in range(4)}
        if cards <= held and not any(cards <= row for row in rows):
            found.append(f"four {_PLURAL[rank]}")
    for top in range(5, 15):
        for suit in range(4):
            cards = {card_code(14 if rank == 1 else rank, suit) for rank in range(top - 4, top + 1)}
            if cards <= held and not any(cards <= row for row in rows):
                found.append(f"a {_ONE[top]}-high straight flush")
    return " and ".join(found) or "quads or a straight flush"


def _royalty_entries(player: PlayerResult, amounts: tuple[Amount, ...], rules: RuleSet) -> str:
    """'Ann front QQ 7 + back quads 10 = 17' (broken royalties included)."""
    assert player.assessment is not None  # the rows were played
    entries = [_entry(row, amount, rules) for row, amount in zip(player.assessment.rows, amounts) if amount]
    broken = player.assessment.core.broken
    if broken:
        entries.append(f"broken {_broken_words(player)} {number(broken)}")
    total = sum(amounts) + broken
    return f"{player.name} {' + '.join(entries)} = {number(total)}" if entries else f"{player.name} none"


def _not_taken(pair: PairResult, a: PlayerResult, b: PlayerResult, rules: RuleSet) -> list[str]:
    """Under ``higher_takes``, each royalty held but not paid, and why: the other
    hand won its row (or tied it) and held one there too."""
    if not rules.royalties.higher_takes:
        return []
    assert a.assessment is not None and b.assessment is not None  # the rows were played
    held = pair_royalties(rules, a.assessment.core, b.assessment.core)
    paid = pair_royalties(rules, a.assessment.core, b.assessment.core, pair.rows)
    lines = []
    for index, outcome in enumerate(pair.rows):
        for side, (player, other) in enumerate(((a, b), (b, a))):
            if held[side][index] and not paid[side][index]:
                row = player.assessment.rows[index]  # type: ignore[union-attr]  # asserted above
                why = "the row is tied" if outcome == 0 else f"{other.name} wins the {row.name}"
                lines.append(
                    f"          {player.name}'s {_entry(row, held[side][index], rules)} is not paid: {why},"
                    f" and both hold a royalty there (higher_takes)"
                )
    return lines


def _broken(player: PlayerResult) -> str:
    """'Sev four sevens 2': a hand's broken royalties, or 'Tom none'."""
    assert player.assessment is not None  # the rows were played
    broken = player.assessment.core.broken
    return f"{player.name} {_broken_words(player)} {number(broken)}" if broken else f"{player.name} none"


def _spade_lines(a: PlayerResult, b: PlayerResult, rules: RuleSet) -> list[str]:
    """With ``spade_bonus = "row"``: where each hand holds 2s, and whose royalties it doubles."""
    if rules.royalties.spade_bonus != "row":
        return []
    lines = []
    for holder, other in ((a, b), (b, a)):
        assert holder.assessment is not None and other.assessment is not None  # the rows were played
        row = holder.assessment.core.spade
        if row >= 0 and (holder.assessment.core.royalties[row] or other.assessment.core.royalties[row]):
            lines.append(
                f"spade bonus: {holder.name} holds 2s in the {ROW_NAMES[row]}: both hands' {ROW_NAMES[row]} "
                f"royalties are doubled, won or lost"
            )
    return lines


def _royalties(pair: PairResult, a: PlayerResult, b: PlayerResult, settlement: Settlement) -> list[str]:
    rules = settlement.rules
    mode = rules.royalties.mode
    assert a.assessment is not None and b.assessment is not None  # the rows were played
    core_a, core_b = a.assessment.core, b.assessment.core
    broken = core_a.broken - core_b.broken
    broken_text = (
        f"broken royalties (split quads and straight flushes, paid as the {rules.id} back table whatever the rows): "
        f"{_broken(a)}, {_broken(b)}: {signed(broken)}"
    )
    if mode == "none":
        return [broken_text] if core_a.broken or core_b.broken else []
    notes = []
    if rules.royalties.spade_bonus == "own":
        notes.append("the holder's royalty in the row holding 2s is doubled")
    elif rules.royalties.spade_bonus:
        notes.append("2s doubles both hands' royalties in its row")
    if rules.royalties.max_per_hand:
        notes.append(f"each hand keeps its {rules.royalties.max_per_hand} largest")
    if rules.royalties.higher_takes:
        notes.append("of two royalties in one row only the row's winner collects, higher_takes")
    extra = f" ({'; '.join(notes)})" if notes else ""
    table = f"{rules.id} table{extra}"
    lines = _spade_lines(a, b, rules)
    if mode == "holder":
        mine, theirs = pair_royalties(rules, core_a, core_b, pair.rows)
        return (
            lines
            + [
                f"royalties (paid by holder, {table}): {_royalty_entries(a, mine, rules)}; "
                f"{_royalty_entries(b, theirs, rules)}; net {signed(pair.royalties)}"
            ]
            + _not_taken(pair, a, b, rules)
        )
    how = "1 + the table value" if mode == "row-bonus" else "the table value instead of 1"
    cancel = ", cancelled when both qualify" if rules.royalties.cancel_when_both else ""
    lines.append(
        f"royalties ({mode}: a row's winner collects {how}{cancel}; {table}): {signed(pair.royalties - broken)}"
    )
    if core_a.broken or core_b.broken:
        total = f"{signed(pair.royalties - broken)} rows {signed(broken)} broken = {signed(pair.royalties)}"
        lines += [broken_text, f"royalties {total}"]
    return lines


def _multiplier(pair: PairResult, a: PlayerResult, b: PlayerResult, rules: RuleSet) -> list[str]:
    if pair.multiplier == 1:
        return []
    scooper = a.name if pair.rows == (1, 1, 1) else b.name
    lines = []
    if "scoop" in pair.doubled:
        lines.append(f"{scooper} scoops {b.name if scooper == a.name else a.name}: doubled")
    if "home-run" in pair.doubled:
        fewest = f"at least {rules.multipliers.home_run_min_opponents}"
        again = " again" if "scoop" in pair.doubled else ""
        lines.append(f"home run: {scooper} scoops every opponent ({fewest}): doubled{again}")
    if "horse" in pair.doubled:
        again = " again" if len(pair.doubled) > 1 else ""
        lines.append(f"{_horse_words(a, b, rules)}: doubled{again}")
    return [f"multiplier x{pair.multiplier}: " + "; ".join(lines)]


def _horse_words(a: PlayerResult, b: PlayerResult, rules: RuleSet) -> str:
    """'Amy holds the horse card, Ah' (``horse``, docs/rules.md 8): which of the pair holds it."""
    holder = a.name if rules.multipliers.horse in {str(card) for card in a.seat.cards} else b.name
    return f"{holder} holds the horse card, {rules.multipliers.horse}"


def _horse(pair: PairResult, a: PlayerResult, b: PlayerResult, rules: RuleSet) -> list[str]:
    """A surrender's pair the horse card doubles."""
    if "horse" not in pair.doubled:
        return []
    return [f"{_horse_words(a, b, rules)}: the pair counts double"]


def _aces(pair: PairResult, a: PlayerResult, b: PlayerResult, rules: RuleSet) -> list[str]:
    """The ace bonus (``ace_bonus``, docs/rules.md 6): each ace collects, beside the play."""
    bonus = rules.royalties.ace_bonus
    if not bonus:
        return []
    held = [sum(1 for card in player.seat.cards if card.rank.number == 14) for player in (a, b)]
    return [
        f"aces    {a.name} holds {held[0]}, {b.name} {held[1]}: ({held[0]} - {held[1]}) x {number(bonus)} = "
        f"{signed(pair.aces)} (ace_bonus; never multiplied)"
    ]


def _penalty(pair: PairResult, a: PlayerResult, b: PlayerResult, rules: RuleSet) -> list[str]:
    """The foul penalty beside the play (``foul_plays``, docs/rules.md 3)."""
    if not pair.penalty:
        return []
    fouled, live = (b, a) if pair.penalty > 0 else (a, b)
    bonus = method_bonus(rules.methods.method, (1, 1, 1))
    base = 3 + bonus
    times = magnitude(pair.penalty) / base
    horse = "horse" in pair.doubled  # the horse card doubles the whole pair, the penalty too
    if horse:
        times /= 2
    doubled = []
    if times >= 2 and rules.multipliers.scoop_doubles:
        doubled.append(" x 2 (scoops double)")
    if times == 4 or (times == 2 and not rules.multipliers.scoop_doubles):
        doubled.append(f" x 2 ({live.name}'s home run)")
    if horse:
        doubled.append(f" x 2 (the horse card, {rules.multipliers.horse})")
    steps = f"3 rows + {number(bonus)} bonus" if bonus else "3 rows"
    if doubled:
        steps = (f"({steps})" if bonus else steps) + "".join(doubled)
    return [
        f"penalty {fouled.name} fouled (foul_plays): pays {live.name} what a scooped hand pays with no royalties, "
        f"{steps} = {number(magnitude(pair.penalty))}: {signed(pair.penalty)}"
    ]


def _split(pair: PairResult, split: Split | None, rules: RuleSet) -> list[str]:
    """The equal home-run split (``home_run_split = "equal"``, docs/rules.md 8)."""
    if split is None or not pair.split:
        return []
    count = len(split.units)
    own = ", ".join(f"{name} {number(units)}" for name, units in split.units.items())
    share = number(split.share)
    rounded = " rounded half up to 0.01" if split.rounded else ""
    opponent = pair.b if split.hitter == pair.a else pair.a
    units = split.units[opponent]
    return [
        f"home run: {split.hitter} scoops every opponent (at least {rules.multipliers.home_run_min_opponents}), split equally "
        f"(home_run_split): each opponent pays its own units u and T / n more; u = {own}; "
        f"T = {number(split.total)}, n = {count}",
        f"split   T / n = {number(split.total)} / {count}{rounded} = {share}; "
        f"{opponent} pays {number(units)} + {share} = {number(units + split.share)}: {signed(pair.split)}",
    ]


def explain_pair(pair: PairResult, settlement: Settlement, cut: Cut | None = None, split: Split | None = None) -> str:
    """Every step of one pair, ending with the arithmetic and who pays whom
    (``cut`` and ``split``: the pair's cut payment and home-run split, when
    :func:`explain` has read them for the whole deal)."""
    players = {player.name: player for player in settlement.players}
    a, b = players[pair.a], players[pair.b]
    rules = settlement.rules
    if cut is None and pair.cut:
        cut = cuts(settlement)[settlement.pairs.index(pair)]
    if split is None and pair.split:
        by_hitter = splits(settlement)
        split = by_hitter.get(pair.a) or by_hitter.get(pair.b)
    banker = f"; {settlement.banker} is the banker" if settlement.banker is not None else ""
    lines = [f"{pair.a} against {pair.b} ({rules.id}{banker}):"]
    if pair.decided_by == "natural":
        body = _naturals(pair, a, b, rules)
    elif pair.decided_by == "surrender":
        body = _surrender(pair, a, b, settlement) + _horse(pair, a, b, rules)
    elif pair.decided_by == "result":
        body = _result(pair, a, b, settlement)
    else:
        body = _rows(pair, a, b, settlement) + _bonus(pair, a, b, rules.methods.method)
        body += _royalties(pair, a, b, settlement) + _multiplier(pair, a, b, rules)
        body += _penalty(pair, a, b, rules) + _split(pair, split, rules) + _aces(pair, a, b, rules)
    lines += ["  " + line for line in body]
    lines.append("  " + _arithmetic(pair, cut is not None))
    if cut is not None:
        lines.append("  " + _cut(cut, rules))
    return "\n".join(lines) + "\n"


def _arithmetic(pair: PairResult, cut: bool = False) -> str:
    if pair.decided_by == "rows":
        parts = f"{signed(pair.row_units)} rows"
        if pair.bonus:
            parts += f" {signed(pair.bonus)} bonus"
        if pair.royalties:
            parts += f" {signed(pair.royalties)} royalties"
        sum_text = f"({parts}) x {pair.multiplier}" if pair.multiplier != 1 else parts
        if pair.penalty:
            sum_text += f" {signed(pair.penalty)} penalty"
        if pair.split:
            sum_text += f" {signed(pair.split)} split"
        if pair.aces:
            sum_text += f" {signed(pair.aces)} aces"
    elif pair.decided_by == "natural":
        sum_text = f"natural {signed(pair.natural)}"
    elif pair.decided_by == "result":
        sum_text = f"result {signed(pair.units)}"
    else:
        sum_text = f"surrender {signed(pair.surrender)}"
    text = f"units   {sum_text} = {signed(pair.units)}"
    money = pair.owed if cut else pair.amount
    if pair.stake != 1:
        text += f"; money {signed(pair.units)} x {number(pair.stake)} = {signed(money)}"
    return text + f": {_who_pays(pair.a, pair.b, money, 'owes' if cut else 'pays')}"


def _cut(cut: Cut, rules: RuleSet) -> str:
    """How a cap or a stack cut the payment (docs/rules.md 12), with the amounts."""
    owed, paid = number(cut.owed), number(cut.paid)
    if cut.kind == "cap":
        limit = number(cut.limit)
        scope = "the session so far" if rules.money.session_cap else "this deal"
        room = f"min({_minus(cut.limit, cut.payee_before)}, {_minus(cut.limit, -cut.payer_before)})"
        return (
            f"cut     cap {limit} on each player's net over {scope}: before this payment {cut.payee} stands at "
            f"{signed(cut.payee_before)} and {cut.payer} at {signed(cut.payer_before)}, so at most {room} = {paid} "
            f"can pass: {cut.payer} pays {cut.payee} {paid}, not {owed}"
        )
    return (
        f"cut     table stakes: a payment is the least of what is owed and the two stacks; {cut.payer} holds "
        f"{number(cut.payer_before)} and {cut.payee} {number(cut.payee_before)}: "
        f"min({owed}, {number(cut.payer_before)}, {number(cut.payee_before)}) = {paid}: "
        f"{cut.payer} pays {cut.payee} {paid}, not {owed}"
    )


def _minus(limit: Amount, amount: Amount) -> str:
    """'40 - 28', '40 + 5' (for 40 less -5)."""
    return f"{number(limit)} - {number(amount)}" if amount >= 0 else f"{number(limit)} + {number(-amount)}"


def _who_pays(a: str, b: str, amount: Amount, verb: str = "pays") -> str:
    if amount == 0:
        return "nothing changes hands"
    payer, payee = (b, a) if amount > 0 else (a, b)
    return f"{payer} {verb} {payee} {number(amount if amount > 0 else -amount)}"


def explain(settlement: Settlement, only: frozenset[str] | None = None) -> str:
    """The reasoning for every pair of a deal, or only for the pairs of the two
    players in ``only`` (their hands, in criss-cross); "" when they do not meet."""
    found_cuts = cuts(settlement)
    by_hitter = splits(settlement)
    owner = {player.name: player.seat.owner for player in settlement.players}
    texts = []
    for index, pair in enumerate(settlement.pairs):
        if only is not None and frozenset((owner[pair.a], owner[pair.b])) != only:
            continue
        split = by_hitter.get(pair.a) or by_hitter.get(pair.b)
        texts.append(explain_pair(pair, settlement, found_cuts.get(index), split))
    return "\n".join(texts)
