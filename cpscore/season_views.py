"""Views of a club's season (:mod:`cpscore.season`): the leaderboard, a row
per night, and the transfers that settle what is still owed; as a table for
people, JSON and CSV for scripts.  It only renders."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cpscore.amounts import signed
from cpscore.amounts import text as number
from cpscore.formatting import DEFAULT_STYLE, tabulated
from cpscore.session_views import settle_data, settle_text

if TYPE_CHECKING:
    from cpscore.season import NightRow, Season, Standing
    from cpscore.session import SettleUp


def _night_name(row: NightRow) -> str:
    return row.date or row.file


def _biggest(season: Season, player: Standing) -> str:
    if player.biggest is None:
        return "-"
    index, amount, units = player.biggest
    return f"{signed(amount if season.money else units)} ({_night_name(season.nights[index])})"


def standings_table(season: Season, settle: SettleUp, style: str = DEFAULT_STYLE) -> str:
    """The leaderboard, the nights one a row (each player's money that night:
    units when no night's money differs from them), and settle-up."""
    nights = season.nights
    deals = sum(row.deals for row in nights)
    dates = [row.date for row in nights if row.date]
    span = f" ({dates[0]} to {dates[-1]})" if len(dates) > 1 else f" ({dates[0]})" if dates else ""
    parts = [f"Standings after {len(nights)} night{'s' if len(nights) != 1 else ''}{span}, {deals} deals:", ""]
    paid = any(player.paid for player in season.players.values())
    headers = ["#", "Player", "Nights", "Deals", "Units"] + (["Money"] if season.money else [])
    headers += ["Biggest night"] + (["Paid", "Still owed"] if paid else [])
    rows = []
    for rank, player in enumerate(season.leaderboard(), start=1):
        cells = [str(rank), player.name, str(player.nights), str(player.deals), signed(player.units)]
        cells += [signed(player.amount)] if season.money else []
        cells += [_biggest(season, player)]
        cells += [signed(player.paid), signed(player.balance)] if paid else []
        rows.append(cells)
    align = ["right", "left", "right", "right", "right"] + ["right"] * season.money + ["left"] + ["right"] * (2 * paid)
    parts += [tabulated(rows, headers, style, align), ""]
    names = list(season.players)
    what = "money" if season.money else "units"
    parts += [f"Each night, the {what} each player won (- : did not play):", ""]
    night_rows = []
    for night in nights:
        won = []
        for name in names:
            found = night.players.get(name)
            won.append("-" if found is None else signed(found[1] if season.money else found[0]))
        night_rows.append([night.file, night.date or "", str(night.deals), *won])
    parts += [
        tabulated(
            night_rows, ["Night", "Date", "Deals", *names], style, ["left", "left", "right"] + ["right"] * len(names)
        ),
        "",
    ]
    parts.append(settle_text(settle))
    return "\n".join(parts) + "\n"


def standings_data(season: Season, settle: SettleUp) -> dict[str, object]:
    """The season as JSON data: ``nights`` (file, date, rules, deals, each
    player's units, amount, paid and balance), ``players`` (the leaderboard,
    ranked), the transfers."""
    nights = [
        {
            "file": row.file,
            "date": row.date,
            "rules": row.rules,
            "deals": row.deals,
            "players": [
                {"name": name, "units": units, "amount": amount, "paid": paid, "balance": balance}
                for name, (units, amount, paid, balance) in row.players.items()
            ],
        }
        for row in season.nights
    ]
    players = []
    for rank, player in enumerate(season.leaderboard(), start=1):
        biggest = None
        if player.biggest is not None:
            index, amount, units = player.biggest
            night = season.nights[index]
            biggest = {"file": night.file, "date": night.date, "units": units, "amount": amount}
        players.append(
            {
                "rank": rank,
                "name": player.name,
                "nights": player.nights,
                "deals": player.deals,
                "units": player.units,
                "amount": player.amount,
                "paid": player.paid,
                "balance": player.balance,
                "biggest_night": biggest,
            }
        )
    return {"nights": nights, "players": players, **settle_data(settle)}


def standings_csv(season: Season) -> str:
    """``night,file,date,player,units,amount,paid,balance``: a row for each
    player of each night (the nights numbered from 1, in order)."""
    import csv
    import io

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["night", "file", "date", "player", "units", "amount", "paid", "balance"])
    for index, row in enumerate(season.nights, start=1):
        for name, (units, amount, paid, balance) in row.players.items():
            writer.writerow(
                [index, row.file, row.date or "", name, number(units), number(amount), number(paid), number(balance)]
            )
    return out.getvalue()
