"""Views of a settlement: a table for people, JSON and CSV for scripts.

Every view reads the same :class:`~cpscore.scoring.Settlement`; none of them
computes a score.  tabulate is imported only when a table is drawn.

Amounts are written by :func:`cpscore.amounts.text`: ``2.5``, ``100``, ``-3``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from cpscore.amounts import Amount, signed
from cpscore.amounts import text as number
from cpscore.cards import ROW_NAMES, Card, card_texts
from cpscore.hands import describe, rank_letters
from cpscore.naturals import REGISTRY, Natural
from cpscore.rules import RuleSet
from cpscore.scoring import Assessment, Fantasyland, HandReport, PlayerResult, Row, Settlement

if TYPE_CHECKING:
    from collections.abc import Callable

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
    from tabulate import tabulate_formats

    return list(tabulate_formats)


def tabulated(rows: list[list[str]], headers: list[str], style: str, align: list[str]) -> str:
    from tabulate import tabulate

    table: str = tabulate(rows, headers=headers, tablefmt=style, colalign=align, disable_numparse=True)
    return table


def _category_label(category: str) -> str:
    return category.replace("-", " ")


def _row_cell(row: Row, colour: bool) -> str:
    label = _category_label(row.category)
    if row.royalty:
        label += f" +{number(row.royalty)}"
    return f"{cards_text(row.cards, colour)}\n{label}"


def natural_text(natural: Natural) -> str:
    """'six pairs (3)'."""
    return f"{REGISTRY[natural.id].label} ({number(natural.units)})"


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
    return ["(unset)", "", ""]


def render_table(
    settlement: Settlement,
    style: str = DEFAULT_STYLE,
    colour: bool = False,
    show_money: bool = False,
    pair_stakes_given: bool = False,
) -> str:
    """The hands, then the settlement matrix in units (and money when asked)."""
    players = settlement.players
    royalties = settlement.rules.royalties.mode != "none"
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
    parts = [
        f"Rules: {settlement.rules.id} ({settlement.rules.summary})",
        "",
        tabulated(rows, headers, style, ["left"] * (len(headers) - royalties) + ["right"] * royalties),
    ]
    remarks = [f"{player.name} fouled: {player.foul.reason}" for player in players if player.foul]
    for player in players:
        if player.natural and not player.natural.rows:
            remarks.append(
                f"{player.name} claims {natural_text(player.natural)} with {cards_text(player.seat.cards, colour)}"
            )
    if remarks:
        parts += [""] + remarks
    parts += ["", "Units won by each player (row) from each opponent (column):", ""]
    parts.append(_matrix(settlement, lambda pair: pair.units, lambda player: player.units, style))
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
    if len(settlement.owners) < len(players):  # criss-cross: totals per player
        table = [
            [owner.name, signed(owner.units)] + ([signed(owner.amount)] * show_money) for owner in settlement.owners
        ]
        headers = ["Player", "Units"] + ["Money"] * show_money
        parts += ["", "Totals by player (all their hands):", ""]
        parts.append(tabulated(table, headers, style, ["left"] + ["right"] * (1 + show_money)))
    return "\n".join(parts) + "\n"


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


def assessment_data(assessment: Assessment | None) -> dict[str, object]:
    """A hand's rows, foul and royalties as JSON fields (``rows`` is null when
    the hand's rows do not play: a natural, a surrender, an unset hand)."""
    if assessment is None:
        return {"foul": False, "foul_reason": None, "rows": None, "royalties": _royalty_data(None)}
    rows = {}
    texts = card_texts()
    for row in assessment.rows:
        category, description, ranks = _row_words(row.plain)
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
        "royalties": _royalty_data(assessment),
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


def _royalty_data(assessment: Assessment | None) -> dict[str, object]:
    if assessment is None:
        return {"front": 0, "middle": 0, "back": 0, "total": 0}
    royalties: dict[str, object] = {row.name: row.royalty for row in assessment.rows}
    royalties["total"] = assessment.royalty_total
    return royalties


def natural_data(natural: Natural | None) -> dict[str, object]:
    """``natural`` (id or null), its units, and a row-based natural's arrangement."""
    arrangement = None
    if natural and natural.rows:
        back, middle, front = natural.rows
        arrangement = " / ".join(" ".join(map(str, row)) for row in (front, middle, back))
    return {
        "natural": natural.id if natural else None,
        "natural_units": natural.units if natural else 0,
        "natural_arrangement": arrangement,
    }


def fantasyland_data(fantasyland: Fantasyland | None) -> dict[str, object] | None:
    if fantasyland is None:
        return None
    return {
        "playing": fantasyland.playing,
        "next": fantasyland.next,
        "cards": fantasyland.cards,
        "status": fantasyland.status,
    }


def _player_data(player: PlayerResult) -> dict[str, object]:
    seat = player.seat
    texts = card_texts()
    return {
        "name": player.name,
        "owner": seat.owner,
        "hand": str(seat.hand) if seat.hand else None,
        "cards": [texts[code] for code in seat.codes],
        **assessment_data(player.assessment),
        **natural_data(player.natural),
        "surrendered": seat.surrendered,
        "waived": seat.waive,
        "fantasyland": fantasyland_data(player.fantasyland),
        "units": player.units,
        "amount": player.amount,
    }


def settlement_data(settlement: Settlement) -> dict[str, object]:
    """The JSON object of ``score`` (documented in the README)."""
    return {
        "rules": settlement.rules.id,
        "stake": settlement.stake,
        "players": [_player_data(player) for player in settlement.players],
        "pairs": [
            {
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
            for pair in settlement.pairs
        ],
        "totals": [{"name": owner.name, "units": owner.units, "amount": owner.amount} for owner in settlement.owners],
    }


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
        **assessment_data(report.assessment),
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
            cells = [row.name, cards_text(row.cards, colour), describe(row.plain), rank_letters(row.plain)]
            if royalties:
                cells.append(number(row.royalty))
            rows.append(cells)
        lines += [tabulated(rows, headers, style, ["left"] * 4 + ["right"] * royalties), ""]
        if assessment.foul:
            lines.append(f"FOUL: {assessment.foul.reason}; a fouled hand loses every row and earns no royalties")
        elif rules.low_middle:
            lines.append("Legal: the back is at least the front (the middle plays low).")
        else:
            lines.append("Legal: the back is at least the middle, the middle at least the front.")
        if royalties and not assessment.foul:
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
