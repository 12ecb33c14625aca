"""Views of a settlement: a table for people, JSON and CSV for scripts.

Every view reads the same :class:`~cpscore.scoring.Settlement`; none of them
computes a score.  tabulate is imported only when a table is drawn.

Amounts are written by :func:`cpscore.amounts.text`: ``2.5``, ``100``, ``-3``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from cpscore.amounts import Amount, signed
from cpscore.amounts import text as number
from cpscore.cards import ROW_NAMES, Card, card_texts
from cpscore.hands import describe, rank_letters
from cpscore.naturals import Natural, label
from cpscore.records import Record
from cpscore.rules import RuleSet
from cpscore.scoring import (
    FALSE_CLAIM,
    Assessment,
    Fantasyland,
    HandReport,
    PlayerResult,
    Row,
    Settlement,
    button_order,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from cpscore.deal import Seat
    from cpscore.scoring import PairResult

_RED = "\x1b[31m"
_RESET = "\x1b[0m"
DEFAULT_STYLE = "simple"


def card_text(card: Card, colour: bool = False) -> str:
    """``Ah``, red on a colour terminal for hearts and diamonds."""
    text = str(card)
    return f"{_RED}{text}{_RESET}" if colour and card.suit.red else text


def cards_text(cards: Iterable[Card], colour: bool = False) -> str:
    return " ".join(card_text(card, colour) for card in cards)


def table_styles() -> list[str]:
    """The table styles tabulate can draw."""
    return list(_tabulate(False).tabulate_formats)


def multiline_styles() -> list[str]:
    """The table styles that draw a cell of several lines as lines."""
    return list(_tabulate(False).multiline_formats)


def _tabulate(wide: bool) -> Any:
    """The tabulate module, which measures wide (CJK) and combining characters
    with wcwidth (the ``widechars`` extra) when ``wide``.  tabulate imports
    wcwidth when it is imported itself, which costs a table of plain names
    about 25 ms of start-up: it is imported without it, and given it (its
    ``WIDE_CHARS_MODE``) only for a table with text that is not ASCII."""
    import importlib
    import sys

    module: Any = sys.modules.get("tabulate")
    if module is None:
        kept = sys.modules.get("wcwidth", _ABSENT)
        sys.modules["wcwidth"] = None  # type: ignore[assignment]  # an import of it fails
        try:
            module = importlib.import_module("tabulate")
        finally:
            if kept is _ABSENT:
                del sys.modules["wcwidth"]
            else:
                sys.modules["wcwidth"] = kept  # type: ignore[assignment]
    if wide and getattr(module, "wcwidth", None) is None:
        try:
            import wcwidth
        except ImportError:  # not installed: names are measured as one column a character
            return module
        module.wcwidth = wcwidth
        module.WIDE_CHARS_MODE = True
    return module


_ABSENT = object()


def tabulated(
    rows: list[list[str]], headers: list[str], style: str, align: list[str], widths: list[int | None] | None = None
) -> str:
    """A table in one of tabulate's styles.  A cell of several lines (the notes)
    keeps its lines in the styles that draw them (simple, grid, ...); in the
    others, which would split the row (tsv, html, latex, ...), its lines are
    joined with "; ".  ``widths``: wrap a column's text at that width (the
    styles that draw lines only)."""
    tabulate_module = _tabulate(wide=not all(cell.isascii() for row in (headers, *rows) for cell in row))
    multiline_formats, tabulate = tabulate_module.multiline_formats, tabulate_module.tabulate

    if style not in multiline_formats:
        rows = [[cell.replace("\n", "; ") if "\n" in cell else cell for cell in row] for row in rows]
        widths = None
    if style == "tsv":  # tabulate pads tsv cells with spaces and drops an empty last cell
        return "\n".join("\t".join(row) for row in [headers, *rows])
    table: str = tabulate(
        rows, headers=headers, tablefmt=style, colalign=align, disable_numparse=True, maxcolwidths=widths
    )
    return table


def text_width(text: str) -> int:
    """Columns ``text`` takes on a terminal: a wide (CJK) character two, a
    combining mark none."""
    if text.isascii():
        return len(text)
    import unicodedata

    return sum(
        0 if unicodedata.combining(char) else 2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text
    )


def _category_label(category: str) -> str:
    return category.replace("-", " ")


def _row_cell(row: Row, colour: bool) -> str:
    label = _category_label(row.category)
    if row.royalty:
        label += f" +{number(row.royalty)}"
    return f"{cards_text(row.cards, colour)}\n{label}"


def natural_text(natural: Natural) -> str:
    """'six pairs (3)'; a false claim 'false claim (pays 6)'."""
    if natural.id == FALSE_CLAIM:
        return f"{label(natural.id)} (pays {number(natural.units)})"
    return f"{label(natural.id)} ({number(natural.units)})"


def _notes(player: PlayerResult) -> str:
    import textwrap

    notes = []
    if player.foul:
        notes.append("FOUL")
    if player.natural:  # wrapped, to keep four players on 80 columns
        notes.append(textwrap.fill(natural_text(player.natural), 14))
    if player.seat.surrendered:
        notes.append("surrenders")
    if player.seat.waive:
        notes.append("waives")
    if player.fantasyland and player.fantasyland.status != "none":
        notes.append(fantasyland_text(player.fantasyland))
    if player.assessment and player.assessment.core.broken:
        notes.append(f"broken +{number(player.assessment.core.broken)}")
    return "\n".join(notes)


def fantasyland_text(fantasyland: Fantasyland) -> str:
    cards = f" ({fantasyland.cards})" if fantasyland.cards else ""
    return {"enters": "FL next", "stays": "FL stays", "leaves": "FL leaves"}[fantasyland.status] + cards


def _hand_cells(player: PlayerResult, colour: bool) -> list[str]:
    """Front, middle and back cells: the rows as played, a row-based natural's
    arrangement, or nothing for a hand whose rows do not play."""
    if player.assessment:
        return [_row_cell(row, colour) for row in player.assessment.rows]
    if player.natural and player.natural.rows:
        back, middle, front = player.natural.rows
        return [cards_text(row, colour) for row in (front, middle, back)]
    if player.seat.surrendered:
        return ["(surrenders)", "", ""]
    if player.seat.result is not None:
        return [f"result {signed(player.seat.result)}", "", ""]
    return ["(unset)", "", ""]


def render_table(
    settlement: Settlement,
    style: str = DEFAULT_STYLE,
    colour: bool = False,
    show_money: bool = False,
    pair_stakes_given: bool = False,
) -> str:
    """The hands, then the settlement matrix in units (and money when asked),
    with what decided where the rules say more than the rows: the banker, a
    false claim, rows won on suits or tied rows taken by the banker, a foul
    penalty, an equal home-run split, a payment a cap or a stack cut."""
    players = settlement.players
    rules = settlement.rules
    royalties = rules.royalties.paid
    notes = [_notes(player) for player in players]
    headers = ["Player", "Front", "Middle", "Back"] + ["Notes"] * any(notes) + ["Royalties"] * royalties
    rows = []
    for player, note in zip(players, notes):
        cells = [player.name, *_hand_cells(player, colour)]
        if any(notes):
            cells.append(note)
        if royalties:
            cells.append(number(player.assessment.royalty_total) if player.assessment else "")
        rows.append(cells)
    parts = [f"Rules: {rules.id} ({rules.summary})"]
    if settlement.banker is not None:
        parts.append(f"Banker: {settlement.banker} (only the banker's pairs settle)")
    parts += ["", tabulated(rows, headers, style, ["left"] * (len(headers) - royalties) + ["right"] * royalties)]
    remarks = [f"{player.name} fouled: {player.foul.reason}" for player in players if player.foul]
    for player in players:
        natural = player.natural
        if natural and natural.id == FALSE_CLAIM:
            remarks.append(f"{player.name} declares {cards_text(player.seat.cards, colour)}: no natural, a false claim")
        elif natural and not natural.rows:
            remarks.append(f"{player.name} claims {natural_text(natural)} with {cards_text(player.seat.cards, colour)}")
    remarks += pair_remarks(settlement, colour)
    if remarks:
        parts += [""] + remarks
    parts += ["", "Units won by each player (row) from each opponent (column):", ""]
    parts.append(_matrix(settlement, lambda pair: pair.units, lambda player: player.units, style))
    shares = [split_text(split) for split in splits(settlement).values()]
    if shares:
        parts += [""] + shares
    if show_money:
        stakes = f"{number(settlement.stake)} a unit"
        if pair_stakes_given:
            owner = {player.name: player.seat.owner for player in players}
            special = {
                f"{owner[pair.a]}-{owner[pair.b]} {number(pair.stake)}": None
                for pair in settlement.pairs
                if pair.stake != settlement.stake
            }
            if special:
                stakes += "; " + ", ".join(special)
        parts += ["", f"Money won by each player from each opponent (stake {stakes}):", ""]
        parts.append(_matrix(settlement, lambda pair: pair.amount, lambda player: player.amount, style))
    limits = [f"Cut: {cut_text(cut, rules)}" for cut in cuts(settlement).values()]
    stacks = settlement.standing.stacks if rules.money.stacks and settlement.standing else None
    if stacks is not None:
        limits.append(
            "Stacks after the deal: " + ", ".join(f"{name} {number(stack)}" for name, stack in stacks.items())
        )
    if limits:
        parts += [""] + limits
    if len(settlement.owners) < len(players):  # criss-cross: totals per player
        table = [
            [owner.name, signed(owner.units)] + ([signed(owner.amount)] * show_money) for owner in settlement.owners
        ]
        headers = ["Player", "Units"] + ["Money"] * show_money
        parts += ["", "Totals by player (all their hands):", ""]
        parts.append(tabulated(table, headers, style, ["left"] + ["right"] * (1 + show_money)))
    return "\n".join(parts) + "\n"


# What decided, read from the settlement (the table and explain) ---------------

#: A suit's name by its letter.
SUIT_NAMES = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}


def suit_lineup(cards: Iterable[Card], plain: int, order: tuple[str, ...]) -> list[Card]:
    """A row's cards in the order ``suit_order`` compares them (docs/rules.md 12):
    rank groups, the biggest first, then the higher rank (a straight from its
    top card, the wheel's ace last), the higher suit first in a group."""
    from collections import Counter

    from cpscore.values import STEEL_WHEEL, WHEEL

    cards = list(cards)
    counts = Counter(card.rank.number for card in cards)
    wheel = plain in (WHEEL, STEEL_WHEEL)

    def place(card: Card) -> tuple[int, int, int]:
        rank = card.rank.number
        return (counts[rank], 1 if wheel and rank == 14 else rank, -order.index(card.suit.value))

    return sorted(cards, key=place, reverse=True)


def suit_decider(
    mine: Iterable[Card], theirs: Iterable[Card], plain: int, order: tuple[str, ...]
) -> tuple[Card, Card] | None:
    """The two cards whose suits decide between two rows of equal ranks: the
    first place, in the order of :func:`suit_lineup`, where the suits differ."""
    for card, other in zip(suit_lineup(mine, plain, order), suit_lineup(theirs, plain, order)):
        if card.suit != other.suit:
            return card, other
    return None


def suits_words(card: Card, other: Card) -> str:
    """'Ks over Kh (spades over hearts)'."""
    return f"{card} over {other} ({SUIT_NAMES[card.suit.value]} over {SUIT_NAMES[other.suit.value]})"


def pair_remarks(settlement: Settlement, colour: bool = False) -> list[str]:
    """A line for each row won on suits and each tied row the banker takes, and
    for each foul penalty beside the play."""
    rules = settlement.rules
    players = {player.name: player for player in settlement.players}
    lines = []
    for pair in settlement.pairs:
        if pair.decided_by != "rows":
            continue
        a, b = players[pair.a], players[pair.b]
        for row, note, outcome in zip(ROW_NAMES, pair.notes, pair.rows):
            if note != "suit" or rules.suits.suit_order is None:
                continue
            winner, loser = (a.assessment, b.assessment) if outcome > 0 else (b.assessment, a.assessment)
            assert winner is not None and loser is not None  # the rows were played
            index = ROW_NAMES.index(row)
            mine, theirs = winner.rows[index], loser.rows[index]
            decider = suit_decider(mine.cards, theirs.cards, mine.plain, rules.suits.suit_order)
            why = f": {suits_words(*decider)}" if decider else ""
            names = (pair.a, pair.b) if outcome > 0 else (pair.b, pair.a)
            lines.append(f"{names[0]} takes the {row} from {names[1]} on suits{why}")
        tied = [row for row, note in zip(ROW_NAMES, pair.notes) if note == "banker"]
        if tied:
            other = pair.b if settlement.banker == pair.a else pair.a
            lines.append(f"{settlement.banker}, the banker, takes the tied {' and '.join(tied)} from {other}")
        if pair.penalty:
            fouled, live = (pair.b, pair.a) if pair.penalty > 0 else (pair.a, pair.b)
            penalty = number(magnitude(pair.penalty))
            lines.append(f"{fouled} pays {live} a penalty of {penalty} for the foul, beside the play (foul_plays)")
    return lines


class Split(Record):
    """An equal home-run split (docs/rules.md 8) as the settlement paid it: the
    home-run player, each opponent's own units before the split (from the
    player's side), their total, and the share each opponent adds."""

    __slots__ = ("hitter", "units", "total", "share")

    def __init__(self, hitter: str, units: dict[str, Amount], total: Amount, share: Amount) -> None:
        self.hitter = hitter
        self.units = units
        self.total = total
        self.share = share

    @property
    def rounded(self) -> bool:
        """Whether the share is the total over the opponents rounded to 0.01."""
        return self.share * len(self.units) != self.total


def splits(settlement: Settlement) -> dict[str, Split]:
    """Each equal home-run split of the deal, by the home-run player (read from
    the pairs' ``split``: the player scooped every opponent)."""
    found: dict[str, Split] = {}
    for pair in settlement.pairs:
        if not pair.split:
            continue
        hitter, opponent, sign = (pair.a, pair.b, 1) if pair.rows == (1, 1, 1) else (pair.b, pair.a, -1)
        split = found.get(hitter)
        if split is None:
            split = found[hitter] = Split(hitter, {}, 0, pair.split * sign)
        split.units[opponent] = (pair.units - pair.split) * sign
        split.total = sum(split.units.values())
    return found


def split_text(split: Split) -> str:
    """'Ann's home run, split equally: each opponent pays 10 more (30 / 3)'."""
    rounded = ", rounded" if split.rounded else ""
    return (
        f"{split.hitter}'s home run, split equally: each opponent pays {number(split.share)} more "
        f"({number(split.total)} / {len(split.units)}{rounded})"
    )


class Cut(Record):
    """A payment a cap or a stack cut (docs/rules.md 12), as the settlement paid
    it: who pays whom, what was paid and what was owed, ``kind`` (``cap`` or
    ``stack``), ``bound`` the player whose limit stopped it and ``limit`` that
    limit (the cap, or that player's stack), and both players' nets (cap) or
    stacks (stack) just before the payment."""

    __slots__ = ("payer", "payee", "paid", "owed", "kind", "bound", "limit", "payer_before", "payee_before")

    def __init__(
        self,
        payer: str,
        payee: str,
        paid: Amount,
        owed: Amount,
        kind: str,
        bound: str,
        limit: Amount,
        payer_before: Amount,
        payee_before: Amount,
    ) -> None:
        self.payer = payer
        self.payee = payee
        self.paid = paid
        self.owed = owed
        self.kind = kind
        self.bound = bound
        self.limit = limit
        self.payer_before = payer_before
        self.payee_before = payee_before


def cuts(settlement: Settlement) -> dict[int, Cut]:
    """The cut payments of a deal, by the pair's index: the payments are followed
    in the order they were made (the pairs' order) from what the players held
    before the deal (the standing after it, less the deal's money), reading each
    payment's amount from the pair; nothing is cut again here.  With a dealer
    marked, the order goes round from the seat to the dealer's left, as the
    kernel paid them (:func:`cpscore.scoring.button_order`)."""
    pairs = settlement.pairs
    if not any(pair.cut for pair in pairs):
        return {}
    rules = settlement.rules
    owner = {player.name: player.seat.owner for player in settlement.players}
    money = {total.name: total.amount for total in settlement.owners}
    standing = settlement.standing
    net: dict[str, Amount] = dict.fromkeys(money, 0)
    if rules.money.session_cap and standing is not None and standing.net is not None:
        net = {name: standing.net.get(name, 0) - amount for name, amount in money.items()}
    stacks: dict[str, Amount] = {}
    if standing is not None and standing.stacks is not None:
        stacks = {name: standing.stacks[name] - amount for name, amount in money.items()}
    found = {}
    seats = [player.seat for player in settlement.players]
    place = {seat.name: index for index, seat in enumerate(seats)}
    order = button_order(seats, [(place[pair.a], place[pair.b]) for pair in pairs])
    for index in range(len(pairs)) if order is None else order:
        pair = pairs[index]
        if not pair.owed:
            continue
        payer, payee = (owner[pair.b], owner[pair.a]) if pair.owed > 0 else (owner[pair.a], owner[pair.b])
        paid, owed = magnitude(pair.amount), magnitude(pair.owed)
        if pair.cut == "cap":
            assert rules.money.cap is not None  # a cap cut it
            bound = payee if rules.money.cap - net[payee] <= rules.money.cap + net[payer] else payer
            found[index] = Cut(payer, payee, paid, owed, "cap", bound, rules.money.cap, net[payer], net[payee])
        elif pair.cut == "stack":
            bound = payer if stacks[payer] <= stacks[payee] else payee
            found[index] = Cut(payer, payee, paid, owed, "stack", bound, stacks[bound], stacks[payer], stacks[payee])
        net[payer] -= paid
        net[payee] += paid
        if stacks:
            stacks[payer] -= paid
            stacks[payee] += paid
    return found


def magnitude(amount: Amount) -> Amount:
    """An amount without its sign."""
    return -amount if amount < 0 else amount


def cut_text(cut: Cut, rules: RuleSet) -> str:
    """'Cat pays Ann 12, not 28 (cap 40: Ann at +40)', 'Cat pays Ann 30, not 31 (Cat's stack 30)'."""
    if cut.kind == "cap":
        scope = "session cap" if rules.money.session_cap else "cap"
        end = cut.limit if cut.bound == cut.payee else -cut.limit
        why = f"{scope} {number(cut.limit)}: {cut.bound} at {signed(end)}"
    else:
        why = f"{cut.bound}'s stack {number(cut.limit)}"
    return f"{cut.payer} pays {cut.payee} {number(cut.paid)}, not {number(cut.owed)} ({why})"


def _matrix(
    settlement: Settlement,
    pair_value: Callable[[PairResult], Amount],
    player_value: Callable[[PlayerResult], Amount],
    style: str,
) -> str:
    names = [player.name for player in settlement.players]
    cell = {}
    for pair in settlement.pairs:
        cell[pair.a, pair.b] = signed(pair_value(pair))
        cell[pair.b, pair.a] = signed(-pair_value(pair))
    rows = [
        [player.name] + [cell.get((player.name, other), "") for other in names] + [signed(player_value(player))]
        for player in settlement.players
    ]
    return tabulated(rows, [""] + names + ["Total"], style, ["left"] + ["right"] * (len(names) + 1))


# JSON -------------------------------------------------------------------------


def json_text(value: object, indent: int = 0, compact: bool = False) -> str:
    """JSON text written from exact decimals, never through a float; indented
    by two spaces, or all on one line when ``compact``."""
    kind = type(value)
    if type(value) is str:  # type() again, not kind: mypy narrows value on this form
        return json_string(value)
    if kind is int:
        return str(value)
    if type(value) is dict:
        if not value:
            return "{}"
        if compact:
            return "{" + ",".join(f"{json_string(k)}:{json_text(v, compact=True)}" for k, v in value.items()) + "}"
        pad = "  " * (indent + 1)
        items = [f"{pad}{json_string(key)}: {json_text(item, indent + 1)}" for key, item in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + "  " * indent + "}"
    if type(value) is list or type(value) is tuple:
        if not value:
            return "[]"
        if compact:
            return "[" + ",".join(json_text(item, compact=True) for item in value) + "]"
        if all(type(item) is int or type(item) is str for item in value):
            return "[" + ", ".join(json_text(item) for item in value) + "]"
        pad = "  " * (indent + 1)
        return "[\n" + ",\n".join(pad + json_text(item, indent + 1) for item in value) + "\n" + "  " * indent + "]"
    if value is None:
        return "null"
    if kind is bool:
        return "true" if value else "false"
    if kind.__name__ == "Decimal":  # exact: written as the decimal it is
        return number(value)  # type: ignore[arg-type]  # a Decimal, known by name: decimal is not imported here
    raise TypeError(f"cannot write {kind.__name__} as JSON")


#: [True] when the output cannot carry every character (a cp1252 terminal):
#: JSON then writes non-ASCII characters as \\u escapes, so no name is lost.
ASCII_JSON = [False]


def _u_escapes(char: str) -> str:
    """``\\uXXXX`` (a surrogate pair above U+FFFF)."""
    data = char.encode("utf-16-be", "surrogatepass")
    return "".join(f"\\u{data[i : i + 2].hex()}" for i in range(0, len(data), 2))


#: The short escapes, as the json module writes them (so both writers agree).
_JSON_ESCAPES = {
    '"': '\\"',
    "\\": "\\\\",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\b": "\\b",
    "\f": "\\f",
}


def json_string(text: str) -> str:
    r"""A JSON string literal (UTF-8 kept as is; the json module costs a
    millisecond of start-up, this does not).

    >>> print(json_string('Amy "A" \\ \x01'))
    "Amy \"A\" \\ \u0001"
    """
    if text.isprintable() and '"' not in text and "\\" not in text and (text.isascii() or not ASCII_JSON[0]):
        return f'"{text}"'  # nearly every string: cards, names, categories
    out = []
    for char in text:
        if char in _JSON_ESCAPES:
            out.append(_JSON_ESCAPES[char])
        elif char < " ":
            out.append(f"\\u{ord(char):04x}")
        elif ASCII_JSON[0] and not " " <= char <= "~":  # as the json module: DEL too
            out.append(_u_escapes(char))
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def assessment_data(assessment: Assessment | None, broken: bool = False) -> dict[str, object]:
    """A hand's rows, foul and royalties as JSON fields (``rows`` is null when
    the hand's rows do not play: a natural, a surrender, an unset hand).  With
    ``broken`` (rules with ``broken_royalties``) the royalties add ``broken``."""
    if assessment is None:
        return {"foul": False, "foul_reason": None, "rows": None, "royalties": _royalty_data(None, broken)}
    rows = {}
    texts = card_texts()
    for row in assessment.rows:
        # A low middle (its value negated, docs/rules.md 10) is named as a low: A-5-4-3-2 is ace high.
        category, description, ranks = _row_words(row.named)
        rows[row.name] = {
            "cards": [texts[card.code] for card in row.cards],
            "category": category,
            "description": description,
            "ranks": ranks,
            "royalty": row.royalty,
        }
    return {
        "foul": assessment.foul is not None,
        "foul_reason": assessment.foul.reason if assessment.foul else None,
        "rows": rows,
        "royalties": _royalty_data(assessment, broken),
    }


_WORDS: dict[int, tuple[str, str, str]] = {}


def _row_words(value: int) -> tuple[str, str, str]:
    """A row value's category, description and rank letters, worked out once
    per value (a session asks for the same values again and again)."""
    words = _WORDS.get(value)
    if words is None:
        from cpscore.hands import category

        words = _WORDS[value] = (category(value), describe(value), rank_letters(value))
    return words


def _royalty_data(assessment: Assessment | None, broken: bool = False) -> dict[str, object]:
    if assessment is None:
        return {"front": 0, "middle": 0, "back": 0, "broken": 0, "total": 0} if broken else _NO_ROYALTIES.copy()
    royalties: dict[str, object] = {row.name: row.royalty for row in assessment.rows}
    if broken:
        royalties["broken"] = assessment.core.broken
    royalties["total"] = assessment.royalty_total
    return royalties


_NO_ROYALTIES: dict[str, object] = {"front": 0, "middle": 0, "back": 0, "total": 0}


def natural_data(natural: Natural | None) -> dict[str, object]:
    """``natural`` (id or null; ``false-claim`` for a false claim), its units (what
    a false claim pays), a row-based natural's arrangement, and with
    ``natural_suit_tiebreak`` ``natural_high``, the card that breaks a tie."""
    arrangement = None
    if natural and natural.rows:
        back, middle, front = natural.rows
        arrangement = " / ".join(" ".join(map(str, row)) for row in (front, middle, back))
    data: dict[str, object] = {
        "natural": natural.id if natural else None,
        "natural_units": natural.units if natural else 0,
        "natural_arrangement": arrangement,
    }
    if natural is not None and natural.high is not None:
        data["natural_high"] = str(natural.high)
    return data


def fantasyland_data(fantasyland: Fantasyland | None) -> dict[str, object] | None:
    if fantasyland is None:
        return None
    return {
        "playing": fantasyland.playing,
        "next": fantasyland.next,
        "cards": fantasyland.cards,
        "status": fantasyland.status,
    }


def _player_data(player: PlayerResult, broken: bool = False) -> dict[str, object]:
    seat = player.seat
    texts = card_texts()
    return {
        "name": player.name,
        "owner": seat.owner,
        "hand": str(seat.hand) if seat.hand else None,
        "cards": [texts[code] for code in seat.codes],
        **assessment_data(player.assessment, broken),
        **natural_data(player.natural),
        "surrendered": seat.surrendered,
        "waived": seat.waive,
        "fantasyland": fantasyland_data(player.fantasyland),
        **seat_extras(seat),
        "units": player.units,
        "amount": player.amount,
    }


def seat_extras(seat: Seat) -> dict[str, object]:
    """A player's keys that only some deals have: ``result`` (a deal entered
    as results) and ``dealer`` (marked ``; dealer``)."""
    extras: dict[str, object] = {}
    if seat.result is not None:
        extras["result"] = seat.result
    if seat.dealer:
        extras["dealer"] = True
    return extras


class Extras:
    """Which of the issue-10 facts a rule set's JSON carries: each appears only
    under the rules that can make it (so older rule sets keep their shape).
    ``banker``: top-level ``banker`` (banker pairing); ``penalty``
    (``foul_plays``), ``split`` (an equal home-run split), ``cut`` (``owed``
    and ``cut``: a cap or table stakes) and ``notes`` (``suit_order`` or
    ``banker_wins_ties``) in each pair; ``stacks`` (table stakes) top-level;
    ``broken`` in each player's royalties (``broken_royalties``); ``horse``
    (whether the horse card doubled the pair) and ``aces`` (the ace bonus) in
    each pair under the rules that have them."""

    __slots__ = ("banker", "penalty", "split", "cut", "notes", "stacks", "broken", "horse", "aces")

    def __init__(self, rules: RuleSet) -> None:
        self.banker = rules.banker.banks
        self.penalty = rules.rows.foul_plays
        self.split = rules.multipliers.equal_split
        self.cut = rules.money.cuts
        self.notes = rules.suits.suit_order is not None or rules.banker.banker_wins_ties
        self.stacks = rules.money.stacks
        self.broken = rules.royalties.broken_royalties
        self.horse = rules.multipliers.horse is not None
        self.aces = bool(rules.royalties.ace_bonus)


_EXTRAS: list[tuple[object, Extras]] = []


def extras(rules: RuleSet) -> Extras:
    """The rule set's :class:`Extras` (the last rule set's kept: a session asks for it every deal)."""
    if _EXTRAS and _EXTRAS[0][0] is rules:
        return _EXTRAS[0][1]
    found = Extras(rules)
    _EXTRAS[:] = [(rules, found)]
    return found


def pair_data(pair: PairResult, shown: Extras) -> dict[str, object]:
    """One pair as JSON fields, with the extras its rule set carries."""
    data: dict[str, object] = {
        "a": pair.a,
        "b": pair.b,
        "decided_by": pair.decided_by,
        "rows": list(pair.rows),
        "row_units": pair.row_units,
        "bonus": pair.bonus,
        "royalties": pair.royalties,
        "multiplier": pair.multiplier,
        "natural": pair.natural,
        "surrender": pair.surrender,
        "units": pair.units,
        "stake": pair.stake,
        "amount": pair.amount,
    }
    if shown.penalty:
        data["penalty"] = pair.penalty
    if shown.split:
        data["split"] = pair.split
    if shown.cut:
        data["owed"] = pair.owed
        data["cut"] = pair.cut
    if shown.notes:
        data["notes"] = list(pair.notes)
    if shown.horse:
        data["horse"] = "horse" in pair.doubled
    if shown.aces:
        data["aces"] = pair.aces
    return data


def stacks_data(settlement: Settlement) -> dict[str, object]:
    """Each player's stack after the deal (table stakes), by name."""
    standing = settlement.standing
    return dict(standing.stacks) if standing is not None and standing.stacks is not None else {}


def settlement_data(settlement: Settlement) -> dict[str, object]:
    """The JSON object of ``score`` (documented in the README)."""
    shown = extras(settlement.rules)
    data: dict[str, object] = {"rules": settlement.rules.id, "stake": settlement.stake}
    if shown.banker:
        data["banker"] = settlement.banker
    data["players"] = [_player_data(player, shown.broken) for player in settlement.players]
    data["pairs"] = [pair_data(pair, shown) for pair in settlement.pairs]
    data["totals"] = [{"name": owner.name, "units": owner.units, "amount": owner.amount} for owner in settlement.owners]
    if shown.stacks:
        data["stacks"] = stacks_data(settlement)
    return data


#: The version of every JSON and JSON Lines output (``format_version``, their first
#: key; the schemas are cpscore/schemas/*.schema.json).  It changes when a key is
#: removed or renamed, or its value changes type or meaning; a key added keeps it.
FORMAT_VERSION = 1


def versioned(data: dict[str, object]) -> dict[str, object]:
    """An output's JSON object with its ``format_version`` first."""
    return {"format_version": FORMAT_VERSION, **data}


def render_json(data: object) -> str:
    return json_text(data) + "\n"


# CSV --------------------------------------------------------------------------


def render_csv(settlement: Settlement) -> str:
    """One row per player: rows, foul, natural, surrender, royalties, units,
    money, and the units won from each opponent (``vs NAME`` columns)."""
    import csv
    import io

    names = [player.name for player in settlement.players]
    versus: dict[tuple[str, str], Amount] = {}
    for pair in settlement.pairs:
        versus[pair.a, pair.b] = pair.units
        versus[pair.b, pair.a] = -pair.units
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(
        ["player", "hand", "foul"]
        + [f"{row} category" for row in ROW_NAMES]
        + ["natural", "surrendered", "royalties", "units", "amount"]
        + [f"vs {name}" for name in names]
    )
    for player in settlement.players:
        seat = player.seat
        rows = player.assessment.rows if player.assessment else ()
        writer.writerow(
            [
                player.name,
                str(seat.hand) if seat.hand else " ".join(map(str, seat.cards)),
                "yes" if player.foul else "no",
            ]
            + ([row.category for row in rows] if rows else ["", "", ""])
            + [player.natural.id if player.natural else "", "yes" if seat.surrendered else "no"]
            + [number(player.assessment.royalty_total if player.assessment else 0)]
            + [number(player.units), number(player.amount)]
            + [number(versus[player.name, name]) if (player.name, name) in versus else "" for name in names]
        )
    return out.getvalue()


# check ------------------------------------------------------------------------


def check_data(report: HandReport, rules: RuleSet) -> dict[str, object]:
    return {
        "rules": rules.id,
        "hand": str(report.hand) if report.hand else None,
        "cards": [str(card) for card in report.cards],
        **assessment_data(report.assessment, rules.royalties.broken_royalties),
        **natural_data(report.natural),
        "fantasyland": fantasyland_data(report.fantasyland),
    }


def render_check(report: HandReport, rules: RuleSet, style: str = DEFAULT_STYLE, colour: bool = False) -> str:
    """One hand on its own: rows, categories, royalties, legal or foul, the
    natural it makes, Fantasyland."""
    lines = [f"Rules: {rules.id} ({rules.summary})", ""]
    assessment = report.assessment
    royalties = rules.royalties.mode != "none"
    if assessment:
        headers = ["Row", "Cards", "Category", "Ranks"] + (["Royalty"] if royalties else [])
        rows = []
        for row in assessment.rows:
            cells = [row.name, cards_text(row.cards, colour), describe(row.named), rank_letters(row.named)]
            if royalties:
                cells.append(number(row.royalty))
            rows.append(cells)
        lines += [tabulated(rows, headers, style, ["left"] * 4 + ["right"] * royalties), ""]
        if assessment.foul and rules.rows.foul_plays:
            lines.append(
                f"FOUL: {assessment.foul.reason}; a fouled hand pays a penalty, plays its rows and earns no royalties"
            )
        elif assessment.foul:
            lines.append(f"FOUL: {assessment.foul.reason}; a fouled hand loses every row and earns no royalties")
        elif rules.rows.low_middle_qualifier is not None:
            limit = rules.rows.low_middle_qualifier
            lines.append(
                f"Legal: the back is at least the front, and the middle is a {limit}-low or better (it plays low)."
            )
        elif rules.rows.low_middle:
            lines.append("Legal: the back is at least the front (the middle plays low).")
        else:
            lines.append("Legal: the back is at least the middle, the middle at least the front.")
        broken = assessment.core.broken
        if broken:
            rows_total = number(assessment.royalty_total - broken)
            lines.append(f"Royalties: {number(assessment.royalty_total)} (rows {rows_total}, broken {number(broken)})")
        elif royalties and not assessment.foul:
            lines.append(f"Royalties: {number(assessment.royalty_total)}")
    else:
        lines.append(f"Unset hand: {cards_text(report.cards, colour)}")
    if report.natural:
        natural = report.natural
        made = ""
        if natural.rows:
            back, middle, front = natural.rows
            made = " as " + " / ".join(cards_text(row, colour) for row in (front, middle, back))
        claim = " (claimed unless the player waives it)" if report.hand else ""
        lines.append(f"Natural: {natural_text(natural)}{made}{claim}")
    if report.fantasyland:
        fl = report.fantasyland
        text = {
            "enters": f"enters Fantasyland next deal with {fl.cards} cards",
            "stays": f"stays in Fantasyland next deal with {fl.cards} cards",
            "leaves": "leaves Fantasyland",
            "none": "does not qualify for Fantasyland",
        }[fl.status]
        lines.append(f"Fantasyland: {text}")
    return "\n".join(lines) + "\n"
