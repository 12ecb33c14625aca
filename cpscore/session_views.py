"""Views of a session (a night's ledger): per-deal lines, totals, transfers,
the race, as a table, JSON, JSON Lines or CSV.  Like :mod:`cpscore.formatting`,
whose helpers it uses, it only renders results; it computes no score.  Kept
apart so that a single deal's start-up does not load it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from cpscore.amounts import signed
from cpscore.amounts import text as number
from cpscore.formatting import (
    DEFAULT_STYLE,
    fantasyland_text,
    json_text,
    natural_text,
    settlement_data,
    tabulated,
)
from cpscore.session import DealResult, Ledger


class _Exact(Exception):
    """An amount the json module would not write exactly (a Decimal)."""


def _refuse(value: object) -> object:
    raise _Exact


def compact_json(data: object) -> str:
    """One line of JSON (for JSON Lines): the json module's writer (in C)
    when the data has no Decimal, else :func:`json_text`, which writes a
    Decimal exactly; the two write the same text for the same data."""
    import json

    from cpscore.formatting import ASCII_JSON

    try:
        return json.dumps(data, ensure_ascii=ASCII_JSON[0], separators=(",", ":"), default=_refuse)
    except _Exact:
        return json_text(data, compact=True)


def deal_data(result: DealResult) -> dict[str, object]:
    """One deal of a session: the ``score`` JSON object with its number, first
    line, running totals and race points."""
    data: dict[str, object] = {"deal": result.number, "line": result.line}
    data.update(settlement_data(result.settlement))
    data["running"] = [
        {"name": name, "units": units, "amount": amount} for name, (units, amount) in result.running.items()
    ]
    if result.race_points is not None:
        data["race_points"] = dict(result.race_points)
    return data


def totals_data(ledger: Ledger) -> dict[str, object]:
    """``totals``, ``transfers`` and (with a race) ``race`` of a session."""
    data: dict[str, object] = {
        "totals": [{"name": name, "units": units, "amount": amount} for name, units, amount in ledger.totals()],
        "transfers": [
            {"from": transfer.payer, "to": transfer.payee, "amount": transfer.amount} for transfer in ledger.transfers()
        ],
    }
    if ledger.race:
        race = ledger.race
        data["race"] = {"target": race.target, "points": dict(race.points), "winner": race.winner, "deal": race.deal}
    return data


def _deal_notes(result: DealResult) -> str:
    notes = []
    for player in result.settlement.players:
        name = player.seat.name
        if player.foul:
            notes.append(f"{name} FOUL")
        if player.natural:
            notes.append(f"{name} {natural_text(player.natural)}")
        if player.seat.surrendered:
            notes.append(f"{name} surrenders")
        if player.fantasyland and player.fantasyland.status != "none":
            notes.append(f"{name} {fantasyland_text(player.fantasyland)}")
    if result.race_points:
        scored = [f"{name} {points}" for name, points in result.race_points.items() if points]
        if scored:
            notes.append("race: " + ", ".join(scored))
    return "; ".join(notes)


class DealLines:
    """The per-deal lines of the session table, written as deals arrive: one
    fixed-width line a deal, each player's units for the deal and (in
    brackets) so far; a new header line whenever the players change."""

    def __init__(self) -> None:
        self.columns: list[str] = []

    def line(self, result: DealResult) -> str:
        owners = list(result.running)
        text = ""
        if owners != self.columns:
            self.columns = owners
            self.widths = [max(len(name), 11) for name in owners]
            heads = "  ".join(name.ljust(width) for name, width in zip(owners, self.widths))
            text = ("\n" if self.widths else "") + f"Deal  Line  {heads}  Notes\n"
        units = {owner.name: owner.units for owner in result.settlement.owners}
        cells = []
        for name, width in zip(owners, self.widths):
            so_far = signed(result.running[name][0])
            cells.append((f"{signed(units[name])} ({so_far})" if name in units else f"- ({so_far})").ljust(width))
        return (
            text
            + f"{result.number:>4}  {result.line:>4}  "
            + "  ".join(cells)
            + f"  {_deal_notes(result)}".rstrip()
            + "\n"
        )


def render_totals(ledger: Ledger, style: str = DEFAULT_STYLE, show_money: bool = False) -> str:
    """Each player's net, the transfers that settle it, and the race."""
    rows = [[name, signed(units)] + ([signed(amount)] if show_money else []) for name, units, amount in ledger.totals()]
    headers = ["Player", "Units"] + (["Money"] if show_money else [])
    parts = [
        f"Totals after {ledger.deals} deal{'s' if ledger.deals != 1 else ''}:",
        "",
        tabulated(rows, headers, style, ["left"] + ["right"] * (len(headers) - 1)),
        "",
    ]
    payments = ledger.transfers()
    if payments:
        parts.append("To settle:")
        parts += [f"  {t.payer} pays {t.payee} {number(t.amount)}" for t in payments]
    else:
        parts.append("Everyone is square.")
    if ledger.race:
        race = ledger.race
        standings = ", ".join(f"{name} {points}" for name, points in race.points.items())
        parts += ["", f"Race to {race.target}: {standings}."]
        if race.winner:
            parts.append(f"{race.winner} wins the race at deal {race.deal}.")
        else:
            parts.append(f"No winner yet: first to {race.target} (a tie at the top plays on).")
    return "\n".join(parts) + "\n"


def totals_csv(ledger: Ledger) -> str:
    """``player,units,amount``: one row per player (``session --totals --format csv``)."""
    import csv
    import io

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["player", "units", "amount"])
    writer.writerows([name, number(units), number(amount)] for name, units, amount in ledger.totals())
    return out.getvalue()


def session_csv_header() -> str:
    return "deal,line,player,units,amount,total units,total amount,foul,natural,surrendered,fantasyland,race points\n"


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
            [result.number, result.line, name, number(player.units), number(player.amount)]
            + [number(total_units), number(total_amount), "yes" if player.foul else "no"]
            + [player.natural.id if player.natural else "", "yes" if player.seat.surrendered else "no", fantasyland]
            + [points]
        )
    return out.getvalue()


def session_json(ledger: Ledger, results: Iterable[DealResult]) -> Iterator[str]:
    """The session's JSON object, written deal by deal as the deals arrive:
    ``rules``, ``stake``, ``deals`` (each as :func:`deal_data`), then the
    totals, transfers and race of :func:`totals_data`."""
    yield "{\n" + f'  "rules": {json_text(ledger.rules.id)},\n  "stake": {json_text(ledger.stake)},\n  "deals": ['
    separator = "\n    "
    for result in results:
        yield separator + json_text(deal_data(result), indent=2)
        separator = ",\n    "
    yield ("\n  ],\n" if separator != "\n    " else "],\n")
    items = [f"  {json_text(key)}: {json_text(value, indent=1)}" for key, value in totals_data(ledger).items()]
    yield ",\n".join(items) + "\n}\n"


def session_lines(ledger: Ledger, results: Iterable[DealResult]) -> Iterator[str]:
    """JSON Lines: one deal a line, then one line with the totals."""
    for result in results:
        yield compact_json(deal_data(result)) + "\n"
    yield compact_json(totals_data(ledger)) + "\n"


def session_csv(results: Iterable[DealResult]) -> Iterator[str]:
    yield session_csv_header()
    for result in results:
        yield session_csv_rows(result)


def session_table(
    ledger: Ledger,
    results: Iterable[DealResult],
    source: str,
    style: str = DEFAULT_STYLE,
    show_money: bool = False,
    explain: bool = False,
) -> Iterator[str]:
    """A line per deal as it arrives (with ``explain``, followed by the
    reasoning for each pair), then the totals and transfers."""
    stakes = f", stake {number(ledger.stake)} a unit" if show_money else ""
    title = f"Session {source}: rules {ledger.rules.id}{stakes}\n"
    lines = DealLines()
    for result in results:  # the title waits for the first good deal
        yield title + lines.line(result)
        title = ""
        if explain:
            from cpscore.explain import explain as reasons

            text = reasons(result.settlement).rstrip("\n")
            yield "\n".join("      " + line if line else "" for line in text.split("\n")) + "\n\n"
            lines.columns = []  # repeat the header after the explanation
    yield title + "\n" + render_totals(ledger, style, show_money)
