"""Views of a night's statistics (:mod:`cpscore.stats`): a table for people,
one player a column, and JSON for scripts.  Like :mod:`cpscore.session_views`
it only renders; every figure was counted from the kernel's results.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cpscore.amounts import signed
from cpscore.amounts import text as number
from cpscore.formatting import DEFAULT_STYLE, tabulated
from cpscore.naturals import label

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from cpscore.amounts import Amount
    from cpscore.rules import RuleSet
    from cpscore.stats import Biggest, PlayerStats, Stats


def _biggest(found: Biggest | None) -> str:
    return "-" if found is None else f"{signed(found.units)} (deal {found.deal})"


def _biggest_data(found: Biggest | None) -> dict[str, object] | None:
    return None if found is None else {"deal": found.deal, "units": found.units, "amount": found.amount}


def stats_table(stats: Stats, rules: RuleSet, style: str = DEFAULT_STYLE, show_money: bool = False) -> str:
    """One statistic a line, one player a column, then who claimed which
    naturals.  Lines for what the rules cannot give are left out: surrenders,
    naturals, false claims, royalties, Fantasyland; hands played unless a
    player held several hands in a deal (criss-cross)."""
    players = list(stats.players.values())
    count = stats.deals
    if not players:
        return f"Statistics after {count} deals: no deal to count.\n"
    lines: list[tuple[str, Callable[[PlayerStats], str]]] = [("Deals played", lambda p: str(p.deals))]
    if any(player.hands != player.deals for player in players):  # criss-cross
        lines.append(("Hands played", lambda p: str(p.hands)))
    if stats.result_deals:
        lines.append(("Deals of results", lambda p: str(p.results)))
    lines += [
        ("Rows won", lambda p: str(p.rows_won)),
        ("Rows lost", lambda p: str(p.rows_lost)),
        ("Rows tied", lambda p: str(p.rows_tied)),
        ("Scoops made", lambda p: str(p.scoops_made)),
        ("Scoops suffered", lambda p: str(p.scoops_suffered)),
        ("Fouls", lambda p: str(p.fouls)),
    ]
    if rules.methods.surrender is not None:
        lines.append(("Surrenders", lambda p: str(p.surrenders)))
    if rules.naturals.units:
        lines.append(("Naturals", lambda p: str(sum(p.naturals.values()))))
    if rules.naturals.false_claim is not None:
        lines.append(("False claims", lambda p: str(p.false_claims)))
    if rules.royalties.paid:
        lines.append(("Royalties", lambda p: number(p.royalties)))
    if rules.ofc.played:
        lines += [
            ("Fantasyland entries", lambda p: str(p.fantasyland_entries)),
            ("Fantasyland stays", lambda p: str(p.fantasyland_stays)),
        ]
    lines += [
        ("Biggest deal won", lambda p: _biggest(p.biggest_win)),
        ("Biggest deal lost", lambda p: _biggest(p.biggest_loss)),
        ("Units", lambda p: signed(p.units)),
    ]
    if show_money:
        lines.append(("Money", lambda p: signed(p.amount)))
    rows = [[name, *(cell(player) for player in players)] for name, cell in lines]
    table = tabulated(rows, ["", *(player.name for player in players)], style, ["left"] + ["right"] * len(players))
    text = f"Statistics after {count} deal{'s' if count != 1 else ''}:\n\n{table}\n"
    claims = naturals_text(stats, rules)
    return text + (f"\n{claims}\n" if claims else "")


def naturals_text(stats: Stats, rules: RuleSet) -> str:
    """Who claimed which naturals (``Naturals claimed: Dee six pairs; Eve
    dragon x2.``), wrapped to 80 columns; "" when none was claimed."""
    import textwrap

    order = stats.natural_ids(rules.naturals.natural_rank)
    parts = []
    for player in stats.players.values():
        claims = [
            label(natural) + ("" if player.naturals[natural] == 1 else f" x{player.naturals[natural]}")
            for natural in order
            if natural in player.naturals
        ]
        if claims:
            parts.append(f"{player.name} {', '.join(claims)}")
    if not parts:
        return ""
    return textwrap.fill(f"Naturals claimed: {'; '.join(parts)}.", 80, subsequent_indent="  ", break_on_hyphens=False)


def player_data(player: PlayerStats, order: Iterable[str] = ()) -> dict[str, object]:
    """One player's statistics as JSON data (the same fields whatever the
    rules); ``naturals`` in the ``order`` given (then any other)."""
    naturals = {natural: player.naturals[natural] for natural in order if natural in player.naturals}
    naturals.update(player.naturals)  # those not in order, after those in it
    return {
        "name": player.name,
        "deals": player.deals,
        "hands": player.hands,
        "results": player.results,
        "rows": {"won": player.rows_won, "lost": player.rows_lost, "tied": player.rows_tied},
        "scoops": {"made": player.scoops_made, "suffered": player.scoops_suffered},
        "fouls": player.fouls,
        "surrenders": player.surrenders,
        "naturals": naturals,
        "false_claims": player.false_claims,
        "royalties": player.royalties,
        "fantasyland": {"entries": player.fantasyland_entries, "stays": player.fantasyland_stays},
        "biggest_win": _biggest_data(player.biggest_win),
        "biggest_loss": _biggest_data(player.biggest_loss),
        "units": player.units,
        "amount": player.amount,
    }


def stats_data(stats: Stats, rules: RuleSet, stake: Amount) -> dict[str, object]:
    """``{rules, stake, deals, players}``: the deals counted and each player's
    statistics (:func:`player_data`), in order of first appearance; each
    player's ``naturals`` in the rules' ``natural_rank`` order."""
    order = stats.natural_ids(rules.naturals.natural_rank)
    players = [player_data(player, order) for player in stats.players.values()]
    return {"rules": rules.id, "stake": stake, "deals": stats.deals, "players": players}
