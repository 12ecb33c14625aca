"""``cpscore standings``: a club's standing over many nights."""

from __future__ import annotations

import gc
import os

import click

from cpscore.commands._options import (
    InputError,
    bounded,
    check_style,
    completer,
    format_option,
    help_option,
    plot_option,
    round_option,
    style_option,
    warn_later,
    write_plot,
)
from cpscore.commands.session import (
    InvalidDeals,
    finish_night,
    night_for,
    open_night_file,
    session_lines_of,
    take_deals,
)
from cpscore.errors import shown

#: Where ``cpscore --help`` lists the command: after ``stats``.
ORDER = 36

STANDINGS_FORMATS = ("table", "json", "csv")


def nights_of(sources: tuple[str, ...]) -> list[str]:
    """The files of the season: each file given, in the order given; a folder's
    ``*.txt`` files (not those of its subfolders), by name."""
    files: list[str] = []
    for source in sources:
        if source == "-":
            raise click.BadParameter("reads files or folders: a season is not read from stdin", param_hint="'FILES'")
        if os.path.isdir(source):
            found = sorted(
                entry.path for entry in os.scandir(source) if entry.name.endswith(".txt") and entry.is_file()
            )
            if not found:
                raise InputError(f"{shown(source, 60)} is a folder with no .txt file: give session files, or a folder of them")
            files += found
        else:
            files.append(source)
    return files


@click.command(name="standings", add_help_option=False)
@help_option
@click.argument("sources", nargs=-1, required=True, metavar="FILE|FOLDER...", shell_complete=completer("files"))
@round_option
@plot_option("nights")
@format_option(STANDINGS_FORMATS)
@style_option
def standings(sources, round_unit, plot, fmt, style) -> None:
    """A club's standing over many nights: the leaderboard, a row per night,
    and who pays whom for what is still owed.

    Each FILE is one night's session file, settled as 'cpscore session'
    settles it alone (its own rules, stakes, seats and payments); a FOLDER
    stands for its .txt files, by name.  Per player: the nights and deals
    played, units and money won, the biggest night, and, when payments were
    recorded (@paid, 'cpscore pay'), what each handed over and is still
    owed.  The leaderboard puts the most money won first.  The whole season
    is checked before anything is printed.

        cpscore standings club/
        cpscore standings club/ --plot season.svg --round 5
    """
    from cpscore.errors import CpscoreError
    from cpscore.season import Season
    from cpscore.session import settle_up

    gc.enable()
    check_style(style, fmt)
    if round_unit is not None and fmt == "csv":
        raise click.BadParameter("has no effect with --format csv, which has no transfers", param_hint="'--round'")
    files = nights_of(sources)
    season = Season()
    seen: dict[tuple[int, int], str] = {}
    try:
        for source in files:
            night = night_for(None, None, None, False, None)
            played: dict[str, int] = {}

            def keep(text, deal, outcome, played=played) -> None:
                for name in deal.owners():
                    played[name] = played.get(name, 0) + 1

            with session_lines_of(source, source) as (lines, identity):
                if identity is not None:
                    if identity in seen:
                        earlier = seen[identity]
                        what = (
                            "is given twice" if earlier == source else f"is {earlier} again (another name, or a link)"
                        )
                        raise InputError(f"{source} {what}: its deals would count twice")
                    seen[identity] = source
                deals = open_night_file(night, lines, source, source, None)
                take_deals(night, deals, source, source, False, keep)
            finish_night(night)
            season.add(source, night, played)
    except InvalidDeals as invalid:
        for problem in invalid.problems:
            click.echo(f"Error: {bounded(problem)}", err=True)
        raise click.exceptions.Exit(2) from None
    backwards = season.out_of_order()
    if backwards is not None:
        first, then = backwards
        warn_later(
            f"the nights are not in date order: {then.file} ({then.date}) comes after {first.file} ({first.date})"
        )
    try:
        settled = settle_up(season.balances(), round_unit)
    except CpscoreError as error:
        raise InputError(str(error)) from None
    if plot:
        from cpscore.chart import night_svg

        svg = night_svg(list(season.players), season.running(), money=season.money, per="night")
        write_plot(plot, svg, files)
    from cpscore import formatting, season_views

    if fmt == "table":
        click.echo(season_views.standings_table(season, settled, style), nl=False)
    elif fmt == "json":
        click.echo(formatting.render_json(formatting.versioned(season_views.standings_data(season, settled))), nl=False)
    else:
        click.echo(season_views.standings_csv(season), nl=False)


command = standings
