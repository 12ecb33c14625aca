"""Views of a session (a night's ledger): per-deal lines, totals, transfers,
the race, as a table, JSON, JSON Lines or CSV.  Like :mod:`cpscore.formatting`,
whose helpers it uses, it only renders results; it computes no score.  Kept
apart so that a single deal's start-up does not load it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Final

from cpscore.amounts import Amount, signed
from cpscore.amounts import text as number
from cpscore.cards import card_texts
from cpscore.formatting import (
    ASCII_JSON,
    DEFAULT_STYLE,
    FORMAT_VERSION,
    cut_text,
    cuts,
    fantasyland_data,
    fantasyland_text,
    json_string,
    json_text,
    natural_data,
    natural_text,
    seat_extras,
    settlement_data,
    splits,
    tabulated,
    text_width,
    versioned,
)
from cpscore.session import DealResult, Ledger

if TYPE_CHECKING:
    from cpscore.deal import Seat
    from cpscore.edits import Replacement
    from cpscore.formatting import Extras
    from cpscore.scoring import PairResult, PlayerResult
    from cpscore.session import SettleUp


class _Exact(Exception):
    """An amount the json module would not write exactly (a Decimal)."""


def _refuse(value: object) -> object:
    raise _Exact


def compact_json(data: object) -> str:
    """One line of JSON (for JSON Lines): the json module's writer (in C)
    when the data has no Decimal, else :func:`json_text`, which writes a
    Decimal exactly; the two write the same text for the same data."""
    import json

    try:
        return json.dumps(data, ensure_ascii=ASCII_JSON[0], separators=(",", ":"), default=_refuse)
    except _Exact:
        return json_text(data, compact=True)


def deal_data(result: DealResult) -> dict[str, object]:
    """One deal of a session: the ``score`` JSON object with its number, first
    line, running totals and race points."""
    data: dict[str, object] = {"deal": result.number, "line": result.line, "digest": result.digest}
    if result.source:  # a night of several files: the deal's own file
        data["file"] = result.source
    data.update(settlement_data(result.settlement))
    data["running"] = [
        {"name": name, "units": units, "amount": amount} for name, (units, amount) in result.running.items()
    ]
    if result.race_points is not None:
        data["race_points"] = dict(result.race_points)
    return data


def totals_data(ledger: Ledger, unit: Amount | None = None) -> dict[str, object]:
    """``totals``, ``transfers`` (rounded to ``unit``: then ``rounding`` too;
    ``fewest: false`` when too many players for the exact search) and (with a
    race) ``race`` of a session."""
    data: dict[str, object] = {
        "totals": [{"name": name, "units": units, "amount": amount} for name, units, amount in ledger.totals()],
        **settle_data(ledger.settle_up(unit)),
        # Head to head over the night: what b paid a, each pair of players who met once.
        "versus": [
            {"a": a, "b": b, "units": units, "amount": amount} for (a, b), (units, amount) in ledger.versus.items()
        ],
    }
    if ledger.payments:  # @paid: each payment, and what each player is still owed after them
        data["payments"] = [
            {"from": payment.payer, "to": payment.payee, "amount": payment.amount, "after_deal": payment.after}
            for payment in ledger.payments
        ]
        data["balances"] = [
            {"name": name, "paid": ledger.paid.get(name, 0), "balance": balance}
            for name, balance in ledger.balances().items()
        ]
    if ledger.dates:
        data["dates"] = [{"file": file, "date": date} for file, date in ledger.dates]
    if ledger.race:
        race = ledger.race
        data["race"] = {"target": race.target, "points": dict(race.points), "winner": race.winner, "deal": race.deal}
    if ledger.buy_in is not None:  # table stakes (docs/rules.md 12)
        data["buy_in"] = ledger.buy_in
        data["stacks"] = dict(ledger.stacks)
        data["ended"] = None if ledger.emptied is None else {"empty": ledger.emptied[0], "deal": ledger.emptied[1]}
    return data


def deal_summary(result: DealResult, target: str, word: str, money: bool) -> str:
    """A deal written to a file, in one line, as ``add``, ``replace`` and
    ``play`` report it: ``deal N (line L, DIGEST) to FILE: Amy +4, Bob -4``,
    then, when money is not units, what each pays (``money Amy +40, ...``),
    and the notes the session table has for it (cuts, the bank, Fantasyland,
    fouls, naturals, stake and seat changes)."""
    owners = result.settlement.owners
    text = f"deal {result.number} (line {result.line}, {result.digest}) {word} {target}: "
    text += ", ".join(f"{owner.name} {signed(owner.units)}" for owner in owners)
    if money:
        text += "; money " + ", ".join(f"{owner.name} {signed(owner.amount)}" for owner in owners)
    notes = deal_notes(result)
    return f"{text} ({notes})" if notes else text


def replacement_report(replacement: Replacement) -> list[str]:
    """What ``replace`` did, in lines: the deal replaced (its digest before),
    the new deal settled as the session settles it, the old and new lines."""
    assert replacement.result is not None  # the replacement was made
    summary = deal_summary(replacement.result, replacement.target, "in", replacement.money)
    return [f"replaced deal {replacement.number} ({replacement.digest}) with {summary}", *replacement.lines()]


def deal_notes(result: DealResult) -> str:
    """What a deal's table line notes beside the units (fouls, naturals, surrenders,
    Fantasyland, the banker, stake changes, cuts, race points)."""
    settlement = result.settlement
    notes = list(result.changes)  # stake and @players lines before the deal ("stake 20 from here", "Dan joins")
    if settlement.banker is not None:
        notes.append(f"{settlement.banker} banks")
    players = settlement.players
    if players and players[0].seat.result is not None:
        notes.append("results, no cards")
    dealer = next((player.seat.name for player in players if player.seat.dealer), None)
    if dealer is not None:
        notes.append(f"{dealer} deals")
    for player in settlement.players:
        name = player.seat.name
        if player.foul:
            notes.append(f"{name} FOUL")
        if player.natural:
            notes.append(f"{name} {natural_text(player.natural)}")
        if player.seat.surrendered:
            notes.append(f"{name} surrenders")
        if player.fantasyland and player.fantasyland.status != "none":
            notes.append(f"{name} {fantasyland_text(player.fantasyland)}")
    for split in splits(settlement).values():
        notes.append(f"{split.hitter} home run split {signed(split.share)} each")
    notes += [cut_text(cut, settlement.rules) for cut in cuts(settlement).values()]
    if result.race_points:
        scored = [f"{name} {points}" for name, points in result.race_points.items() if points]
        if scored:
            notes.append("race: " + ", ".join(scored))
    return "; ".join(notes)


#: The width the session table's deal lines keep to: notes wrap to stay within it.
WIDTH = 80
#: Narrower than this, the notes of a deal go on the lines under it.
NOTES_MIN = 24
#: The columns before the players' cells: ``Deal  Line  Id        `` (the deal's number, first line and digest).
PREFIX = 22


#: A deal as the session table shows it, made when the deal is settled
#: (:func:`table_deal`), as plain values that wait in the spool: its number,
#: first line, digest and file (a night of several files, else ""), the players
#: so far (the columns), each line of cells (units, and with money the money),
#: its notes, and its reasons (``explain``; None without).
TableDeal = tuple[int, int, str, str, list[str], list[list[str]], str, "str | None"]
#: Where a TableDeal keeps its notes and its reasons.
TABLE_NOTES: Final = 6
TABLE_REASONS: Final = 7


def table_deal(result: DealResult, explain: object = None) -> TableDeal:
    """The cells (units, then money: whether the table shows money is known
    only at the night's end), notes and (with ``explain``: ``"*"`` every pair,
    or a set of two players) the reasons of a deal the session table shows."""
    running = result.running
    owners = result.settlement.owners
    columns = list(running)
    units_of = {owner.name: owner.units for owner in owners}
    money_of = {owner.name: owner.amount for owner in owners}
    cells = [
        [
            f"{signed(of[name])} ({signed(running[name][index])})"
            if name in of
            else f"- ({signed(running[name][index])})"
            for name in columns
        ]
        for index, of in enumerate((units_of, money_of))  # the money line shows when money is not simply units
    ]
    reasons = None
    if explain:
        from cpscore.explain import explain as explained

        only = None if explain == "*" else explain  # every pair, or one pair's
        reasons = explained(result.settlement, only).rstrip("\n")  # type: ignore[arg-type]
    return (result.number, result.line, result.digest, result.source, columns, cells, deal_notes(result), reasons)


class DealLines:
    """The per-deal lines of the session table, written as deals arrive: each
    player's units for the deal and (in brackets) so far; when money is not
    simply units, a second line under it with the money for the deal and
    (in brackets) so far.  A new header line whenever the players change.

    In the default style each deal is written as it comes, in fixed-width
    columns; its notes wrap (between two notes where they can) so that no
    line passes :data:`WIDTH` columns: in a Notes column when the players'
    cells leave it :data:`NOTES_MIN` columns, else on the lines under the
    deal.  In another style the deals of one header are kept and drawn as
    one table of that style when the players change, or at the end
    (:meth:`flush`); a cell holds the units and the money as two lines."""

    def __init__(self, show_money: bool = False, style: str = DEFAULT_STYLE, cell_width: int = 0) -> None:
        self.cell_width = cell_width  # the widest cell of the night (0: not known)
        self.columns: list[str] = []
        self.source = ""
        self.money = show_money
        self.style = style
        self.rows: list[list[str]] = []  # another style: the rows of the current table
        self.widths: list[int] = []

    def line(self, deal: TableDeal) -> str:
        """The text for one more deal: its lines (and a header before them when
        the players change); in another style, a finished table or nothing yet."""
        number_, line_, digest, source, owners, cells, notes, _ = deal
        text = ""
        if source != self.source:  # a night of several files: each file's deals under its name
            text = self.flush()
            self.source, self.columns = source, []
            text += f"\n{source}:\n"
        if owners != self.columns:
            text += self.flush()
            if text and self.style != DEFAULT_STYLE and not text.endswith("\n\n"):
                text += "\n"  # a table ends: a blank line before the next
            self.columns = owners
            least = max(self.cell_width, 11)
            self.widths = [max(text_width(name), least) for name in owners]
            if self.style == DEFAULT_STYLE:
                heads = "  ".join(_padded(name, width) for name, width in zip(owners, self.widths))
                room = WIDTH - self._notes_column()
                column = "  Notes" if room >= NOTES_MIN else ""
                text += (
                    ("\n" if self.widths and not text else "")
                    + f"Deal  Line  Id        {heads}{column}".rstrip()
                    + "\n"
                )
            elif not text:
                text += "\n"
        if not self.money:
            cells = cells[:1]
        if self.style != DEFAULT_STYLE:
            joined = ["\n".join(lines) for lines in zip(*cells)]
            self.rows.append([str(number_), str(line_), digest, *joined, notes])
            return text
        lines = ["  ".join(_padded(cell, width) for cell, width in zip(row, self.widths)) for row in cells]
        start = self._notes_column()
        if notes and WIDTH - start >= NOTES_MIN:  # in the Notes column, wrapped there
            wrapped = _wrap(notes, WIDTH - start)
            lines += [" " * (start - PREFIX - 2)] * (len(wrapped) - len(lines))  # the cells of a line, blank
            lines = [line + "  " + part if part else line for line, part in zip(lines, [*wrapped, *[""] * len(lines)])]
            below = []
        else:  # no room beside the cells: the notes go under the deal, from the first player's column
            below = _wrap(notes, WIDTH - PREFIX) if notes else []
        prefix = f"{number_:>4}  {line_:>4}  {digest:<8}  "
        out = [(prefix if index == 0 else " " * PREFIX) + line for index, line in enumerate(lines)]
        out += [" " * PREFIX + part for part in below]
        return text + "".join(line.rstrip() + "\n" for line in out)

    def _notes_column(self) -> int:
        return PREFIX + sum(width + 2 for width in self.widths)

    def flush(self) -> str:
        """Another style: the table of the deals kept so far ("" when none)."""
        if not self.rows:
            return ""
        from cpscore.formatting import multiline_styles

        headers = ["Deal", "Line", "Id", *self.columns, "Notes"]
        widths: list[int | None] | None = None
        rows = self.rows
        if self.style in multiline_styles():  # the notes wrap so that the table keeps to WIDTH
            used = sum(
                max(text_width(part) for row in [headers, *rows] for part in row[k].split("\n")) + 3
                for k in range(len(headers) - 1)
            )
            room = max(NOTES_MIN, WIDTH - used - 4)
            widths = [None] * (len(headers) - 1) + [room]
            rows = [[*row[:-1], "\n".join(_wrap(row[-1], room)) if row[-1] else ""] for row in rows]
        align = ["right", "right"] + ["left"] * (len(headers) - 2)
        self.rows = []
        return tabulated(rows, headers, self.style, align, widths) + "\n"


def _padded(text: str, width: int) -> str:
    return text + " " * (width - text_width(text))


def _wrap(notes: str, width: int) -> list[str]:
    """Notes (``"a; b; c"``) in lines of at most ``width`` columns, broken
    between two notes where they can be, a note longer than a line between words."""
    if text_width(notes) <= width:
        return [notes]
    import textwrap

    lines: list[str] = []
    current = ""
    for note in notes.split("; "):
        candidate = f"{current}; {note}" if current else note
        if text_width(candidate) + 1 <= width or not current:  # +1: the ';' that ends a broken line
            current = candidate
            continue
        lines.append(current + ";")
        current = note
    lines.append(current)
    out: list[str] = []
    for line in lines:
        if text_width(line) <= width:
            out.append(line)
        else:
            out += textwrap.wrap(line, width, break_long_words=True, break_on_hyphens=False) or [line]
    return out


def stakes_text(ledger: Ledger, several: bool = False) -> str:
    """The stakes of the night, in words: the stake it started with, the pair
    stakes, and each change (``10 a unit; 20 a unit from deal 5``; of a night
    in ``several`` files, ``from b.txt deal 1``)."""
    parts = [f"{number(ledger.first_stake)} a unit"]
    given = {pair: amount for pair, amount in ledger.first_pairs.items()}
    parts += [f"{':'.join(sorted(pair))} {number(amount)}" for pair, amount in given.items()]
    parts += [f"{words} from {f'{file} ' if several else ''}deal {deal}" for deal, words, file in ledger.history]
    if ledger.more_history:
        parts.append(f"and {ledger.more_history} more change{'s' if ledger.more_history != 1 else ''}")
    return "; ".join(parts)


def title(ledger: Ledger, source: str, show_money: bool, several: bool = False) -> str:
    """The session's first lines: its file (``several``: its files) and its
    date (``@date``: each file's), rules and stakes."""
    if ledger.dates:
        source += f" ({', '.join(date for _, date in ledger.dates)})"
    if not show_money:
        return f"Session {source}: rules {ledger.rules.id}\n"
    if not ledger.history and not ledger.first_pairs:
        return f"Session {source}: rules {ledger.rules.id}, stake {number(ledger.first_stake)} a unit\n"
    lines = _wrap(stakes_text(ledger, several), WIDTH - len("Stakes: "))
    return f"Session {source}: rules {ledger.rules.id}\nStakes: " + "\n        ".join(lines) + "\n"


def render_totals(
    ledger: Ledger,
    style: str = DEFAULT_STYLE,
    show_money: bool = False,
    versus: bool = False,
    unit: Amount | None = None,
) -> str:
    """Each player's net, the transfers that settle it, the stacks, the race;
    with ``versus``, the head-to-head tables of the night (three players or more)."""
    rows = [[name, signed(units)] + ([signed(amount)] if show_money else []) for name, units, amount in ledger.totals()]
    headers = ["Player", "Units"] + (["Money"] if show_money else [])
    if ledger.payments:  # what was handed over since (@paid), and what is still owed
        balances = ledger.balances()
        rows += [[name, "0"] + (["0"] if show_money else []) for name in balances if name not in ledger.units]
        rows = [[*row, signed(ledger.paid.get(row[0], 0)), signed(balances[row[0]])] for row in rows]
        headers += ["Paid", "Still owed"]
    parts = [
        f"Totals after {ledger.deals} deal{'s' if ledger.deals != 1 else ''}:",
        "",
        tabulated(rows, headers, style, ["left"] + ["right"] * (len(headers) - 1)),
        "",
    ]
    players = ledger.players()
    if versus and len(players) > 2:
        parts += [
            "Head to head over the night, units won by each player (row) from each (column):",
            "",
            _versus(ledger, 0, style),
            "",
        ]
        if show_money:
            parts += ["Money won by each player (row) from each opponent (column):", "", _versus(ledger, 1, style), ""]
    if ledger.payments:
        parts += [*_wrap(f"Paid: {payments_text(ledger)}.", WIDTH), ""]
    parts.append(transfers_text(ledger, unit))
    if ledger.buy_in is not None:  # table stakes (docs/rules.md 12)
        stacks = ", ".join(f"{name} {number(stack)}" for name, stack in ledger.stacks.items())
        parts += ["", f"Stacks (buy-in {number(ledger.buy_in)}): {stacks}."]
        if ledger.emptied is not None:
            player, deal = ledger.emptied
            parts.append(f"{player}'s stack is empty after deal {deal}: the session is over.")
    if ledger.race:
        race = ledger.race
        standings = ", ".join(f"{name} {points}" for name, points in race.points.items())
        parts += ["", f"Race to {race.target}: {standings}."]
        if race.winner:
            parts.append(f"{race.winner} wins the race at deal {race.deal}.")
        else:
            parts.append(f"No winner yet: first to {race.target} (a tie at the top plays on).")
    return "\n".join(parts) + "\n"


def transfers_text(ledger: Ledger, unit: Amount | None = None) -> str:
    """``To settle:`` and the transfers that settle what is still owed, a line
    each; or ``Everyone is square.`` (:func:`settle_text`)."""
    return settle_text(ledger.settle_up(unit))


def settle_text(settle: SettleUp) -> str:
    """``To settle:`` and its transfers (or ``Everyone is square.``), with
    what rounding changed and whether the count is the fewest."""
    lines = []
    if settle.unit is not None:
        unit = number(settle.unit)
        if settle.changes:
            changed = ", ".join(f"{name} {signed(change)}" for name, change in settle.changes.items())
            lines.append(f"Rounded to {unit} (each balance by less than {unit}, the sum kept at 0): {changed}.")
        else:
            lines.append(f"Rounded to {unit}: every balance is a multiple of {unit} already.")
    if not settle.transfers:
        rounding = "" if settle.unit is None else f" once rounded to {number(settle.unit)}"
        lines.append("Everyone is square." if settle.square else f"Nothing to pay{rounding}.")
    else:
        lines.append("To settle:")
        lines += [f"  {t.payer} pays {t.payee} {number(t.amount)}" for t in settle.transfers]
    if not settle.exact:
        lines.append(
            "(too many players for the exact search: these may not be the fewest payments; the largest debtor "
            "pays the largest creditor)"
        )
    return "\n".join(lines)


def settle_data(settle: SettleUp) -> dict[str, object]:
    """``transfers`` and, when rounded, ``rounding`` (the unit, and each
    balance's change); ``fewest: false`` when the count is not proven the
    fewest (too many players for the search)."""
    data: dict[str, object] = {
        "transfers": [{"from": t.payer, "to": t.payee, "amount": t.amount} for t in settle.transfers]
    }
    if not settle.exact:
        data["fewest"] = False
    if settle.unit is not None:
        data["rounding"] = {
            "unit": settle.unit,
            "changes": [{"name": name, "change": change} for name, change in settle.changes.items()],
        }
    return data


def payments_text(ledger: Ledger) -> str:
    """The payments recorded (``@paid``), in order: ``Cy paid Amy 10 (after
    deal 2)``; "Paid" in the totals is each player's net (positive: handed
    over), "Still owed" what they are owed after it (negative: still owe)."""
    return "; ".join(
        f"{payment.payer} paid {payment.payee} {number(payment.amount)}"
        + (f" (after deal {payment.after})" if payment.after else " (before the first deal)")
        for payment in ledger.payments
    )


def _versus(ledger: Ledger, index: int, style: str) -> str:
    """The night's head to head: what each player (row) won from each opponent
    (column), in units (``index`` 0) or money (1); blank where two never met."""
    names = ledger.players()
    rows = []
    for a in names:
        cells = []
        for b in names:
            met = a != b and ((a, b) in ledger.versus or (b, a) in ledger.versus)
            cells.append(signed(ledger.head_to_head(a, b)[index]) if met else "")
        total = ledger.money[a] if index else ledger.units[a]
        rows.append([a, *cells, signed(total)])
    return tabulated(rows, ["", *names, "Total"], style, ["left"] + ["right"] * (len(names) + 1))


def totals_csv(ledger: Ledger) -> str:
    """``player,units,amount``: one row per player (``session --totals --format
    csv``); with payments (``@paid``), ``paid`` and ``balance`` too, and a row
    for a player who only paid or was paid."""
    import csv
    import io

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    if not ledger.payments:
        writer.writerow(["player", "units", "amount"])
        writer.writerows([name, number(units), number(amount)] for name, units, amount in ledger.totals())
        return out.getvalue()
    writer.writerow(["player", "units", "amount", "paid", "balance"])
    for name, balance in ledger.balances().items():
        units, amount, paid = ledger.units.get(name, 0), ledger.money.get(name, 0), ledger.paid.get(name, 0)
        writer.writerow([name, number(units), number(amount), number(paid), number(balance)])
    return out.getvalue()


def session_csv_header() -> str:
    return "deal,line,digest,player,units,amount,total units,total amount,foul,natural,surrendered,fantasyland,race points,result,dealer\n"


def session_csv_rows(result: DealResult) -> str:
    import csv
    import io

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for player in result.settlement.players:
        name = player.seat.name
        total_units, total_amount = result.running[player.seat.owner]
        fantasyland = player.fantasyland.status if player.fantasyland else ""
        points = result.race_points.get(player.seat.owner, 0) if result.race_points is not None else ""
        writer.writerow(
            [result.number, result.line, result.digest, name, number(player.units), number(player.amount)]
            + [number(total_units), number(total_amount), "yes" if player.foul else "no"]
            + [player.natural.id if player.natural else "", "yes" if player.seat.surrendered else "no", fantasyland]
            + [points, "" if player.seat.result is None else number(player.seat.result)]
            + ["yes" if player.seat.dealer else ""]
        )
    return out.getvalue()


def deal_json(result: DealResult) -> str:
    """One deal as the session's JSON object lists it (:func:`deal_data`, indented)."""
    return json_text(deal_data(result), indent=2)


def session_json(ledger: Ledger, deals: Iterable[str], unit: Amount | None = None) -> Iterator[str]:
    """The session's JSON object, written deal by deal as the deals arrive:
    ``rules``, ``stake``, ``deals`` (each written by :func:`deal_json`), then
    the totals, transfers and race of :func:`totals_data`."""
    yield (
        "{\n"
        + f'  "format_version": {FORMAT_VERSION},\n'
        + f'  "rules": {json_text(ledger.rules.id)},\n  "stake": {json_text(ledger.first_stake)},\n  "deals": ['
    )
    separator = "\n    "
    for text in deals:
        yield separator + text
        separator = ",\n    "
    yield ("\n  ],\n" if separator != "\n    " else "],\n")
    items = [f"  {json_text(key)}: {json_text(value, indent=1)}" for key, value in totals_data(ledger, unit).items()]
    yield ",\n".join(items) + "\n}\n"


def session_lines(ledger: Ledger, lines: Iterable[str], unit: Amount | None = None) -> Iterator[str]:
    """JSON Lines: one deal a line (written by :func:`deal_line`, with its
    newline), then one line with the totals."""
    yield from lines
    yield compact_json(versioned(totals_data(ledger, unit))) + "\n"


def deal_text(fmt: str, result: DealResult, explain: object = None) -> str | TableDeal:
    """A deal as the session view in ``fmt`` writes it, made when the deal is
    settled so that the settled deals wait as text (:class:`cpscore.session.Spool`):
    its JSON line, its part of the JSON object, its CSV rows, or for the
    table its cells, notes and reasons (:class:`TableDeal`)."""
    if fmt == "jsonl":  # each line carries the format's version
        return '{"format_version":' + str(FORMAT_VERSION) + "," + deal_line(result)[1:] + "\n"
    if fmt == "json":
        return deal_json(result)
    if fmt == "csv":
        return session_csv_rows(result)
    return table_deal(result, explain)


# One deal as a line of JSON, written from templates ---------------------------------------
#
# The same text as ``compact_json(deal_data(result))`` (a test compares them on
# generated sessions), written without building the nested data: the parts that
# depend only on a row's value are written once per value, a card's text once.


def deal_line(result: DealResult) -> str:
    """One deal of a session as a line of JSON (no newline)."""
    from cpscore.formatting import extras, stacks_data

    settlement = result.settlement
    shown = extras(settlement.rules)
    broken = shown.broken
    players = ",".join([_player_line(player, broken) for player in settlement.players])
    pairs = ",".join([_pair_line(pair, shown) for pair in settlement.pairs])
    totals = ",".join(
        [
            f'{{"name":{_text(o.name)},"units":{_number(o.units)},"amount":{_number(o.amount)}}}'
            for o in settlement.owners
        ]
    )
    running = ",".join(
        [
            f'{{"name":{_text(name)},"units":{_number(units)},"amount":{_number(amount)}}}'
            for name, (units, amount) in result.running.items()
        ]
    )
    banker = ""
    if shown.banker:
        banker = f',"banker":{"null" if settlement.banker is None else _text(settlement.banker)}'
    file = f',"file":{_text(result.source)}' if result.source else ""  # a night of several files
    line = (
        f'{{"deal":{result.number},"line":{result.line},"digest":"{result.digest}"{file},"rules":{_text(settlement.rules.id)},'
        f'"stake":{_number(settlement.stake)}{banker},"players":[{players}],"pairs":[{pairs}],"totals":[{totals}]'
    )
    if shown.stacks:
        line += f',"stacks":{compact_json(stacks_data(settlement))}'
    line += f',"running":[{running}]'
    if result.race_points is not None:
        line += f',"race_points":{compact_json(dict(result.race_points))}'
    return line + "}"


def _number(value: object) -> str:
    return str(value) if type(value) is int else json_text(value)


_TEXT_JSON: dict[tuple[str, bool], str] = {}


def _text(value: str) -> str:
    """A JSON string; names and ids come again and again, so each is written once
    (for each way of writing non-ASCII text)."""
    key = (value, ASCII_JSON[0])
    found = _TEXT_JSON.get(key)
    if found is None:
        found = json_string(value)
        if len(_TEXT_JSON) < 10_000:
            _TEXT_JSON[key] = found
    return found


_ROW_JSON: dict[tuple[int, object, bool], str] = {}
_BETWEEN = '","'  # between two card texts in a JSON list
_ROW_SPANS = (("front", 0, 3), ("middle", 3, 8), ("back", 8, 13))
_NO_ROWS = '"foul":false,"foul_reason":null,"rows":null,"royalties":{"front":0,"middle":0,"back":0,"total":0}'
_NO_ROWS_BROKEN = _NO_ROWS.replace('"total"', '"broken":0,"total"')


def _row_json(plain: int, royalty: object, low: bool = False) -> str:
    """What a row's JSON says after its cards, by its value and royalty
    (remembered for whole royalties: a Decimal is written each time); a low
    middle (docs/rules.md 10) is named as the low it is."""
    key = (plain, royalty, low)
    found = _ROW_JSON.get(key) if type(royalty) is int else None
    if found is None:
        from cpscore.hands import category, describe, deuce_to_seven, rank_letters

        if low:
            plain = deuce_to_seven(plain)
        found = (
            f'"category":{_text(category(plain))},"description":{_text(describe(plain))},'
            f'"ranks":{_text(rank_letters(plain))},"royalty":{_number(royalty)}'
        )
        if type(royalty) is int and len(_ROW_JSON) < 50_000:
            _ROW_JSON[key] = found
    return found


def _player_line(player: PlayerResult, broken: bool = False) -> str:
    seat = player.seat
    codes = seat.codes
    hand = seat.hand
    names = card_texts()
    texts = [names[code] for code in codes]  # card texts need no escape in JSON
    hand_json = "null"
    if hand is not None:  # str(hand), as a JSON string
        hand_json = f'"{" ".join(texts[:3])} / {" ".join(texts[3:8])} / {" ".join(texts[8:])}"'
    cards = '"' + _BETWEEN.join(texts) + '"' if texts else ""  # a surrender without cards has none
    assessment = player.assessment
    if assessment is None:
        rows = _NO_ROWS_BROKEN if broken else _NO_ROWS
    else:
        core = assessment.core
        foul = core.foul
        royalties = core.royalties
        row_parts = ",".join(
            [
                f'"{name}":{{"cards":["{_BETWEEN.join(texts[start:end])}"],{_row_json(plain, royalty, value < 0)}}}'
                for (name, start, end), plain, value, royalty in zip(_ROW_SPANS, core.plains, core.values, royalties)
            ]
        )
        rows = (
            f'"foul":{"true" if foul else "false"},"foul_reason":{_text(foul.reason) if foul else "null"},'
            f'"rows":{{{row_parts}}},"royalties":{_royalties_json(royalties, core.broken, broken)}'
        )
    natural = player.natural
    if natural is None:
        natural_json = '"natural":null,"natural_units":0,"natural_arrangement":null'
    else:
        natural_json = compact_json(natural_data(natural))[1:-1]
    land = player.fantasyland
    land_json = "null" if land is None else compact_json(fantasyland_data(land))
    return (
        f'{{"name":{_text(player.name)},"owner":{_text(seat.owner)},"hand":{hand_json},'
        f'"cards":[{cards}],{rows},{natural_json},'
        f'"surrendered":{"true" if seat.surrendered else "false"},"waived":{"true" if seat.waive else "false"},'
        f'"fantasyland":{land_json},{_seat_extras(seat)}"units":{_number(player.units)},"amount":{_number(player.amount)}}}'
    )


def _seat_extras(seat: Seat) -> str:
    """:func:`cpscore.formatting.seat_extras`, written out (with its comma)."""
    if seat.result is None and not seat.dealer:
        return ""
    return compact_json(seat_extras(seat))[1:-1] + ","


def _royalties_json(royalties: tuple[Amount, Amount, Amount], split: Amount, broken: bool) -> str:
    """A hand's ``royalties`` object (with ``broken``: its split royalties too);
    the same few come again and again, so whole ones are written once."""
    key = (royalties, split, broken)
    whole = type(split) is int and all(type(amount) is int for amount in royalties)
    found = _ROYALTIES_JSON.get(key) if whole else None
    if found is None:
        part = f'"broken":{_number(split)},' if broken else ""
        found = (
            f'{{"front":{_number(royalties[0])},"middle":{_number(royalties[1])},"back":{_number(royalties[2])},'
            f'{part}"total":{_number(sum(royalties) + split)}}}'
        )
        if whole and len(_ROYALTIES_JSON) < 10_000:
            _ROYALTIES_JSON[key] = found
    return found


_ROYALTIES_JSON: dict[tuple[tuple[Amount, Amount, Amount], Amount, bool], str] = {}


def _pair_line(pair: PairResult, shown: Extras | None = None) -> str:
    f, m, b = pair.rows
    row_units, bonus, royalties, natural, surrender, units = (
        pair.row_units,
        pair.bonus,
        pair.royalties,
        pair.natural,
        pair.surrender,
        pair.units,
    )
    more = "" if shown is None else _pair_extras(pair, shown)
    if (
        type(row_units) is int
        and type(bonus) is int
        and type(royalties) is int
        and type(natural) is int
        and type(surrender) is int
        and type(units) is int
        and type(pair.stake) is int
        and type(pair.amount) is int
    ):  # written as they are
        return (
            f'{{"a":{_text(pair.a)},"b":{_text(pair.b)},"decided_by":"{pair.decided_by}","rows":[{f},{m},{b}],'
            f'"row_units":{row_units},"bonus":{bonus},"royalties":{royalties},"multiplier":{pair.multiplier},'
            f'"natural":{natural},"surrender":{surrender},"units":{units},"stake":{pair.stake},"amount":{pair.amount}'
            f"{more}}}"
        )
    return (
        f'{{"a":{_text(pair.a)},"b":{_text(pair.b)},"decided_by":"{pair.decided_by}","rows":[{f},{m},{b}],'
        f'"row_units":{_number(pair.row_units)},"bonus":{_number(pair.bonus)},"royalties":{_number(pair.royalties)},'
        f'"multiplier":{pair.multiplier},"natural":{_number(pair.natural)},"surrender":{_number(pair.surrender)},'
        f'"units":{_number(pair.units)},"stake":{_number(pair.stake)},"amount":{_number(pair.amount)}{more}}}'
    )


def _pair_extras(pair: PairResult, shown: Extras) -> str:
    """The fields a pair's JSON has under the rules that make them (:class:`~cpscore.formatting.Extras`)."""
    more = ""
    if shown.penalty:
        more += f',"penalty":{_number(pair.penalty)}'
    if shown.split:
        more += f',"split":{_number(pair.split)}'
    if shown.cut:
        more += f',"owed":{_number(pair.owed)},"cut":"{pair.cut}"'
    if shown.notes:
        front, middle, back = pair.notes
        more += f',"notes":["{front}","{middle}","{back}"]'
    if shown.horse:
        more += f',"horse":{"true" if "horse" in pair.doubled else "false"}'
    if shown.aces:
        more += f',"aces":{_number(pair.aces)}'
    return more


def session_csv(rows: Iterable[str]) -> Iterator[str]:
    """The header, then each deal's rows (written by :func:`session_csv_rows`)."""
    yield session_csv_header()
    yield from rows


def session_table(
    ledger: Ledger,
    deals: Iterable[TableDeal],
    source: str,
    style: str = DEFAULT_STYLE,
    show_money: bool = False,
    several: bool = False,
    cell_width: int = 0,
    unit: Amount | None = None,
) -> Iterator[str]:
    """A line per deal as it arrives (each made by :func:`table_deal`; with
    its reasons for each pair when it has them), then the totals and transfers."""
    heading = title(ledger, source, show_money, several)
    if show_money:
        heading += "Each deal: units on the first line, money on the second, so far in brackets.\n"
    lines = DealLines(show_money, style, cell_width)
    for deal in deals:  # the title waits for the first good deal
        yield heading + lines.line(deal)
        heading = ""
        reasons = deal[TABLE_REASONS]
        if reasons is not None:
            yield lines.flush()
            if not reasons:
                continue  # the pair does not meet in this deal
            yield "\n".join("      " + line if line else "" for line in reasons.split("\n")) + "\n\n"
            lines.columns = []  # repeat the header after the explanation
    yield heading + lines.flush() + "\n" + render_totals(ledger, style, show_money, versus=True, unit=unit)
