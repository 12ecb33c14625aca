"""``cpscore stats``: a night's statistics, per player, from a session file."""

from __future__ import annotations

import gc

import click

from cpscore.commands._options import (
    _check_pair_players,
    _check_style,
    _completer,
    _format_option,
    _help_option,
    _style_option,
    _warn,
    bounded,
)
from cpscore.commands.session import _InvalidDeals, _night_options, _session_lines, _start_night, _take_deals

#: Where ``cpscore --help`` lists the command: after ``session``.
ORDER = 35

STATS_FORMATS = ("table", "json")


@click.command(name="stats", add_help_option=False)
@_help_option
@click.argument("source", metavar="FILE|-", shell_complete=_completer("files"))
@_night_options
@click.option("--skip-invalid", is_flag=True, help="Skip invalid deals (and say which) instead of stopping.")
@_format_option(STATS_FORMATS)
@_style_option
def stats(source, rules, spade_bonus, stake, pair_stakes, buy_in, skip_invalid, fmt, style) -> None:
    """Statistics for the night, per player: deals played, rows won, lost
    and tied, scoops made and suffered, fouls, surrenders, naturals,
    royalties, Fantasyland entries, the biggest deal won and lost, and the
    totals.

    FILE is a session file, read as 'cpscore session' reads it (header lines,
    --rules, --stake); '-' reads stdin.  The whole file is checked before
    anything is printed.
    """
    from cpscore.errors import CpscoreError
    from cpscore.stats import Stats

    gc.enable()  # a session may be long: normal collection from here on

    _check_style(style, fmt)
    name = "stdin" if source == "-" else source
    tally = Stats()

    def start(lines):
        return _start_night(lines, source, name, rules, stake, pair_stakes, spade_bonus, buy_in)

    def each_deal(ledger, deals) -> None:
        _take_deals(
            ledger, deals, source, name, skip_invalid, lambda text, deal, outcome: tally.add(text.number, deal, outcome)
        )

    try:
        with _session_lines(source, name) as lines:
            ledger, deals, money, places = start(lines)
            each_deal(ledger, deals)
            try:
                _check_pair_players({**places, **ledger.pair_places}, ledger.players())
            except CpscoreError as error:
                raise _InvalidDeals([str(error)]) from None
    except _InvalidDeals as invalid:
        for problem in invalid.problems:
            click.echo(f"Error: {bounded(problem)}", err=True)
        raise click.exceptions.Exit(2) from None
    for key, where in ledger.ignored:  # documented, but never silent
        option = "--stake" if key == "stake" else "--pair-stake"
        _warn(f"{option} replaces the session's stakes: {where}: @{key} is not used")
    money = money or ledger.restaked  # the stake changed during the night: money is not units
    _print_stats(tally, ledger, fmt, style, money, name)


command = stats


def _print_stats(tally, ledger, fmt: str, style: str, money: bool, name: str) -> None:
    from cpscore import formatting, stats_views
    from cpscore.amounts import text as number

    if fmt == "json":
        click.echo(formatting.render_json(stats_views.stats_data(tally, ledger.rules, ledger.first_stake)), nl=False)
        return
    stakes = f", stake {number(ledger.first_stake)} a unit" if money else ""
    title = f"Session {name}: rules {ledger.rules.id}{stakes}\n\n"
    click.echo(title + stats_views.stats_table(tally, ledger.rules, style, money), nl=False)
