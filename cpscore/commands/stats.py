"""``cpscore stats``: a night's statistics, per player, from a session file."""

from __future__ import annotations

import gc

import click

from cpscore.commands._options import (
    bounded,
    check_style,
    completer,
    format_option,
    help_option,
    style_option,
)
from cpscore.commands.session import (
    InvalidDeals,
    finish_night,
    night_for,
    night_options,
    open_night_file,
    session_lines_of,
    take_deals,
)

#: Where ``cpscore --help`` lists the command: after ``session``.
ORDER = 35

STATS_FORMATS = ("table", "json")


@click.command(name="stats", add_help_option=False)
@help_option
@click.argument("sources", nargs=-1, required=True, metavar="FILE|FOLDER|-...", shell_complete=completer("files"))
@night_options
@click.option("--skip-invalid", is_flag=True, help="Skip invalid deals (and say which) instead of stopping.")
@format_option(STATS_FORMATS)
@style_option
def stats(sources, rules, spade_bonus, stake, pair_stakes, buy_in, skip_invalid, fmt, style) -> None:
    """Statistics for the night, per player: deals played, rows won, lost
    and tied, scoops made and suffered, fouls, surrenders, naturals,
    royalties, Fantasyland entries, the biggest deal won and lost, and the
    totals.

    FILE is a session file, read as 'cpscore session' reads it (header lines,
    --rules, --stake); '-' reads stdin.  Several files, or a FOLDER (its .txt
    files, by name), are counted together as 'cpscore session' reads several
    files, their deals numbered on from one file to the next (nights with
    other rules: 'cpscore standings').  The whole input is checked before
    anything is printed.
    """
    from cpscore.stats import Stats

    gc.enable()  # a session may be long: normal collection from here on

    check_style(style, fmt)
    from cpscore.commands.standings import nights_of

    if "-" in sources and len(sources) > 1:
        raise click.BadParameter("'-' (stdin) goes alone", param_hint="'FILE'")
    files = list(sources) if sources == ("-",) else nights_of(sources)
    names = ["stdin" if source == "-" else source for source in files]
    tally = Stats()
    night = night_for(rules, stake, pair_stakes, spade_bonus, buy_in)
    before = [0, 0]  # the deals of the files read before this one; the last deal number of this one

    def count(text, deal, outcome) -> None:
        before[1] = text.number
        tally.add(before[0] + text.number, deal, outcome)  # numbered on through the files

    try:
        for source, name in zip(files, names):
            with session_lines_of(source, name) as (lines, identity):
                deals = open_night_file(night, lines, source, name, identity)
                take_deals(night, deals, source, name, skip_invalid, count)
            before[0] += before[1]
            before[1] = 0
        finish_night(night)
    except InvalidDeals as invalid:
        for problem in invalid.problems:
            click.echo(f"Error: {bounded(problem)}", err=True)
        raise click.exceptions.Exit(2) from None
    ledger, money = night.ledger, night.money
    _print_stats(tally, ledger, fmt, style, money, ", ".join(names))


command = stats


def _print_stats(tally, ledger, fmt: str, style: str, money: bool, name: str) -> None:
    from cpscore import formatting, stats_views
    from cpscore.amounts import text as number

    if fmt == "json":
        click.echo(
            formatting.render_json(
                formatting.versioned(stats_views.stats_data(tally, ledger.rules, ledger.first_stake))
            ),
            nl=False,
        )
        return
    stakes = f", stake {number(ledger.first_stake)} a unit" if money else ""
    title = f"Session {name}: rules {ledger.rules.id}{stakes}\n\n"
    click.echo(title + stats_views.stats_table(tally, ledger.rules, style, money), nl=False)
