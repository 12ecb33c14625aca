"""Views of a settlement: a table for people, JSON and CSV for scripts.

Every view reads the same :class:`~cpscore.scoring.Settlement`; none of them
computes a score.  tabulate is imported only when a table is drawn.

Amounts are written by :func:`cpscore.amounts.text`: ``2.5``, ``100``, ``-3``.
"""

from __future__ import annotations

from collections.abc import Iterable

from cpscore.amounts import Amount, signed
from cpscore.amounts import text as number
from cpscore.cards import ROW_NAMES, Card
from cpscore.hands import describe, rank_letters
from cpscore.rules import RuleSet
from cpscore.scoring import Assessment, PlayerResult, Settlement

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


def _tabulate(rows: list[list[str]], headers: list[str], style: str, align: list[str]) -> str:
    from tabulate import tabulate

    return tabulate(rows, headers=headers, tablefmt=style, colalign=align, disable_numparse=True)


def _category_label(category: str) -> str:
    return category.replace("-", " ")


def _row_cell(assessment: Assessment, index: int, colour: bool) -> str:
    row = assessment.rows[index]
    label = _category_label(row.category)
    if row.royalty:
        label += f" +{number(row.royalty)}"
    return f"{cards_text(row.cards, colour)}\n{label}"


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
    fouled = any(player.foul for player in players)
    headers = ["Player", "Front", "Middle", "Back"] + ["Foul"] * fouled + ["Royalties"] * royalties
    rows = []
    for player in players:
        cells = [player.name] + [_row_cell(player.assessment, i, colour) for i in range(3)]
        if fouled:
            cells.append("FOUL" if player.foul else "")
        if royalties:
            cells.append(number(player.assessment.royalty_total))
        rows.append(cells)
    parts = [
        f"Rules: {settlement.rules.id} ({settlement.rules.summary})",
        "",
        _tabulate(rows, headers, style, ["left"] * (len(headers) - royalties) + ["right"] * royalties),
    ]
    fouls = [f"{player.name} fouled: {player.foul.reason}" for player in players if player.foul]
    if fouls:
        parts += [""] + fouls
    parts += ["", "Units won by each player (row) from each opponent (column):", ""]
    parts.append(_matrix(settlement, lambda pair: pair.units, lambda player: player.units, style))
    if show_money:
        stakes = f"{number(settlement.stake)} a unit"
        if pair_stakes_given:
            special = [
                f"{pair.a}-{pair.b} {number(pair.stake)}" for pair in settlement.pairs if pair.stake != settlement.stake
            ]
            if special:
                stakes += "; " + ", ".join(special)
        parts += ["", f"Money won by each player from each opponent (stake {stakes}):", ""]
        parts.append(_matrix(settlement, lambda pair: pair.amount, lambda player: player.amount, style))
    return "\n".join(parts) + "\n"


def _matrix(settlement: Settlement, pair_value, player_value, style: str) -> str:
    names = [player.name for player in settlement.players]
    cell = {}
    for pair in settlement.pairs:
        cell[pair.a, pair.b] = signed(pair_value(pair))
        cell[pair.b, pair.a] = signed(-pair_value(pair))
    rows = [
        [player.name] + [cell.get((player.name, other), "") for other in names] + [signed(player_value(player))]
        for player in settlement.players
    ]
    return _tabulate(rows, [""] + names + ["Total"], style, ["left"] + ["right"] * (len(names) + 1))


# JSON -------------------------------------------------------------------------


def _json(value: object, indent: int = 0) -> str:
    """JSON text written from exact decimals, never through a float."""
    pad = "  " * (indent + 1)
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = [f"{pad}{_json(str(key))}: {_json(item, indent + 1)}" for key, item in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + "  " * indent + "}"
    if isinstance(value, (list, tuple)):
        if not value:
            return "[]"
        if all(isinstance(item, (int, str)) and not isinstance(item, bool) for item in value):
            return "[" + ", ".join(_json(item) for item in value) + "]"
        return "[\n" + ",\n".join(pad + _json(item, indent + 1) for item in value) + "\n" + "  " * indent + "]"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return _json_string(value)
    from decimal import Decimal  # already loaded: a Decimal exists

    if isinstance(value, Decimal):
        return number(value)
    raise TypeError(f"cannot write {type(value).__name__} as JSON")


_JSON_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _json_string(text: str) -> str:
    r"""A JSON string literal (UTF-8 kept as is; the json module costs a
    millisecond of start-up, this does not).

    >>> print(_json_string('Amy "A" \\ \x01'))
    "Amy \"A\" \\ \u0001"
    """
    if text.isprintable() and '"' not in text and "\\" not in text:
        return f'"{text}"'  # nearly every string: cards, names, categories
    out = []
    for char in text:
        if char in _JSON_ESCAPES:
            out.append(_JSON_ESCAPES[char])
        elif char < " ":
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def assessment_data(assessment: Assessment) -> dict[str, object]:
    """The JSON fields a hand has on its own (``check`` and each player of ``score``)."""
    rows = {
        row.name: {
            "cards": [str(card) for card in row.cards],
            "category": row.category,
            "description": describe(row.value),
            "ranks": rank_letters(row.value),
            "royalty": row.royalty,
        }
        for row in assessment.rows
    }
    royalties: dict[str, object] = {row.name: row.royalty for row in assessment.rows}
    royalties["total"] = assessment.royalty_total
    return {
        "hand": str(assessment.hand),
        "foul": assessment.foul is not None,
        "foul_reason": assessment.foul.reason if assessment.foul else None,
        "rows": rows,
        "royalties": royalties,
    }


def _player_data(player: PlayerResult) -> dict[str, object]:
    return {"name": player.name, **assessment_data(player.assessment), "units": player.units, "amount": player.amount}


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
                "rows": list(pair.rows),
                "row_units": pair.row_units,
                "bonus": pair.bonus,
                "royalties": pair.royalties,
                "units": pair.units,
                "stake": pair.stake,
                "amount": pair.amount,
            }
            for pair in settlement.pairs
        ],
    }


def render_json(data: object) -> str:
    return _json(data) + "\n"


# CSV --------------------------------------------------------------------------


def render_csv(settlement: Settlement) -> str:
    """One row per player: rows, foul, royalties, units, money, and the units
    won from each opponent (``vs NAME`` columns)."""
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
        + ["royalties", "units", "amount"]
        + [f"vs {name}" for name in names]
    )
    for player in settlement.players:
        writer.writerow(
            [player.name, str(player.hand), "yes" if player.foul else "no"]
            + [row.category for row in player.assessment.rows]
            + [number(player.assessment.royalty_total), number(player.units), number(player.amount)]
            + [number(versus[player.name, name]) if name != player.name else "" for name in names]
        )
    return out.getvalue()


# check ------------------------------------------------------------------------


def render_check(assessment: Assessment, rules: RuleSet, style: str = DEFAULT_STYLE, colour: bool = False) -> str:
    """One hand on its own: rows, categories, royalties, and legal or foul."""
    royalties = rules.royalties.mode != "none"
    headers = ["Row", "Cards", "Category", "Ranks"] + (["Royalty"] if royalties else [])
    rows = []
    for row in assessment.rows:
        cells = [row.name, cards_text(row.cards, colour), describe(row.value), rank_letters(row.value)]
        if royalties:
            cells.append(number(row.royalty))
        rows.append(cells)
    verdict = (
        f"FOUL: {assessment.foul.reason}; a fouled hand loses every row and earns no royalties"
        if assessment.foul
        else "Legal: the back is at least the middle, the middle at least the front."
    )
    lines = [
        f"Rules: {rules.id} ({rules.summary})",
        "",
        _tabulate(rows, headers, style, ["left"] * 4 + ["right"] * royalties),
        "",
        verdict,
    ]
    if royalties and not assessment.foul:
        lines.append(f"Royalties: {number(assessment.royalty_total)}")
    return "\n".join(lines) + "\n"
