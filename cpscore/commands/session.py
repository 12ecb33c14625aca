"""``cpscore session``: settle a whole session file."""

from __future__ import annotations

import contextlib
import gc
import os
import sys
from typing import TYPE_CHECKING

import click

from cpscore.commands._options import (
    EnvironmentError_,
    InputError,
    bounded,
    buy_in_option,
    check_explain,
    check_style,
    completer,
    explain_choice,
    explain_option,
    format_option,
    help_option,
    load_rules,
    plot_option,
    round_option,
    spade_bonus_option,
    stake_options,
    stdin_stream,
    style_option,
    warn_later,
    write_plot,
)
from cpscore.errors import shown

if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import BinaryIO


#: Where ``cpscore --help`` lists the command (see :mod:`cpscore.commands`).
ORDER = 30

SESSION_FORMATS = ("table", "json", "jsonl", "csv")


def night_for(rules, stake, pair_stakes, spade_bonus, buy_in, race=None):
    """The night the command line asks for (its options win over the files' headers)."""
    from cpscore.night import Night

    return Night(rules, stake=stake, pair_stakes=pair_stakes, buy_in=buy_in, race=race, spade_bonus=spade_bonus)


def open_night_file(night, lines, source: str, name: str, identity):
    """Open the next file of the night (:meth:`cpscore.night.Night.read`):
    its deals; a bad header or option is an error of the command line."""
    from cpscore.errors import CpscoreError
    from cpscore.night import OptionError

    try:
        deals = night.read(lines, name, None if source == "-" else source, identity)
    except OptionError as error:
        raise click.BadParameter(error.detail, param_hint=f"'{error.option}'") from None
    except CpscoreError as error:
        raise InputError(str(error)) from None
    _warnings(night)  # about the header: a --pair-stake that replaces its lines
    return deals


def take_deals(night, deals, source, name, skip_invalid, keep) -> None:
    """Settle every deal into the night, once, and hand each on to ``keep(text,
    deal, outcome)``; invalid ones are collected (all reported at the end), or
    skipped with ``skip_invalid``; the night's warnings are printed as they come.
    ``session`` and ``stats`` read alike."""
    from cpscore.errors import CpscoreError

    problems: list[str] = []
    iterator = iter(deals)
    while True:
        try:
            text = next(iterator)
        except StopIteration:
            break
        except CpscoreError as error:  # a line that cannot be read: nothing after it can be
            raise InvalidDeals([*problems, str(error)]) from None
        except OSError as error:
            raise EnvironmentError_(
                f"cannot read {name if source == '-' else shown(name, 60)}: {error.strerror or error}"
            ) from None
        try:
            deal, outcome = night.take(text, name)
        except CpscoreError as error:
            problems.append(str(error))
            if skip_invalid:
                warn_later(str(error), prefix="skipped: ")
        else:
            keep(text, deal, outcome)
        _warnings(night)
    if problems and not skip_invalid:
        raise InvalidDeals(problems)


def _warnings(night) -> None:
    """Print the night's warnings, once each."""
    for warning in night.warnings:
        warn_later(warning)
    night.warnings.clear()


def finish_night(night) -> None:
    """The night's checks at its end (pair stakes name players who played), and its notes."""
    from cpscore.errors import CpscoreError

    header = night.header
    if not night.deals and header is not None and not (header.where or header.pair_stakes or header.payments):
        # Nothing but blank lines and comments: most likely the wrong file (a new night has its header).
        raise InputError(f"{night.first} has no deal and no header line: it is empty, or holds only comments")
    try:
        night.finish()
    except CpscoreError as error:
        raise InvalidDeals([str(error)]) from None
    _warnings(night)


def _load_deal_range(ctx: click.Context, param: click.Parameter, value: str | None):
    """``--deal N`` or ``--deal N-M``: the first and last deal shown."""
    if value is None:
        return None
    first, dash, last = value.partition("-")
    if not (first.isascii() and first.isdigit() and (not dash or (last.isascii() and last.isdigit()))):
        raise click.BadParameter(f"{shown(value)} is not N or N-M, deal numbers such as 3 or 2-5")
    low, high = int(first), int(last) if dash else int(first)
    if low < 1 or high < low:
        raise click.BadParameter(f"{shown(value)}: deals are numbered from 1, the first number first")
    return low, high


def _load_rules_or_none(ctx: click.Context, param: click.Parameter, value: str | None):
    return None if value is None else load_rules(ctx, param, value)


def _with_progress(lines: Iterator[str], file: BinaryIO, bar) -> Iterator[str]:
    """``lines`` as they are read from ``file``, moving a progress bar on
    stderr (on a terminal) to the bytes read so far."""
    done = 0
    for line in lines:
        position = file.tell()
        if position > done:
            bar.update(position - done)
            done = position
        yield line


def _regular_size(file) -> int:
    """The size of a regular file; 0 for a pipe, a terminal or a stream with
    no file (no progress bar then: there is nothing to measure against)."""
    import stat

    try:
        status = os.fstat(file.fileno())
    except (OSError, ValueError):  # io.UnsupportedOperation is both
        return 0
    return status.st_size if stat.S_ISREG(status.st_mode) else 0


@contextlib.contextmanager
def session_lines_of(source: str, name: str) -> Iterator[tuple[Iterator[str], tuple[int, int] | None]]:
    """The lines of a session file (``-``: stdin) as they are read, with a
    progress bar on stderr when it is a regular file and stderr a terminal;
    and what the file is, (device, inode), so that a night reads it once
    whatever it is called (None: a stream with no file).  ``session`` and
    ``stats`` read alike."""
    from cpscore.textio import read_lines

    with _opened(source) as file:
        try:
            status = os.fstat(file.fileno())
            identity = (status.st_dev, status.st_ino)
        except (OSError, ValueError):  # io.UnsupportedOperation is both
            identity = None
        size = _regular_size(file)
        bar = (
            click.progressbar(length=size, label="checking", file=sys.stderr) if size and sys.stderr.isatty() else None
        )
        with bar or contextlib.nullcontext():
            lines = read_lines(file, name)
            yield (_with_progress(lines, file, bar) if bar else lines), identity


def night_options(function):
    """The options that settle a night, as ``session`` and ``stats`` take them:
    --rules, --spade-bonus, --stake, --pair-stake, --buy-in."""
    function = buy_in_option("Table stakes: the money each player brings (default: the @buy-in header).")(function)
    function = stake_options(
        "Money per unit (default: @stake, else 1).",
        "Money per unit for one pair (repeatable; replaces the @pair-stake headers).",
    )(function)
    function = spade_bonus_option(function)
    return click.option(
        "--rules",
        "rules",
        default=None,
        metavar="NAME|FILE",
        callback=_load_rules_or_none,
        shell_complete=completer("rules"),
        help="Rule set (default: the session's @rules header, else 2-4).",
    )(function)


def _opened(source: str):
    """The session as a binary stream: the file (a regular file or a pipe such
    as ``<(...)``), or stdin for ``-``.  It is read once, as it comes: the
    settled deals wait in a spool until the whole session is known good."""
    if source == "-":
        return contextlib.nullcontext(stdin_stream())
    try:
        return open(source, "rb")
    except OSError as error:
        raise InputError(f"cannot read session file {shown(source, 60)}: {error.strerror or error}") from None


@click.command(name="session", add_help_option=False)
@help_option
@click.argument("sources", nargs=-1, required=True, metavar="FILE|-...", shell_complete=completer("files"))
@night_options
@click.option("--race", type=click.IntRange(min=1), metavar="POINTS", help="Also play the race to POINTS (e.g. 11).")
@click.option("--totals", "totals_only", is_flag=True, help="Print only the totals and the transfers.")
@click.option("--skip-invalid", is_flag=True, help="Skip invalid deals (and say which) instead of stopping.")
@click.option(
    "--deal",
    "shown_deals",
    metavar="N|N-M",
    callback=_load_deal_range,
    help="Show only deal N, or deals N to M (the totals stay the whole night's).",
)
@round_option
@plot_option("deals")
@format_option(SESSION_FORMATS)
@style_option
@explain_option
def session(
    sources,
    rules,
    spade_bonus,
    stake,
    pair_stakes,
    buy_in,
    race,
    totals_only,
    skip_invalid,
    shown_deals,
    round_unit,
    plot,
    fmt,
    style,
    explain,
    explain_pair,
) -> None:
    """Settle a whole session: every deal, running totals, and who pays whom.

    A session file is deals separated by blank lines, each written as a deal
    file ('NAME: HAND' lines).  Header lines at the top set the rules and
    stakes: '@rules ofc', '@stake 10', '@pair-stake Amy:Bob=100', and under
    table stakes the money each player brings, '@buy-in 100'; '@players Amy
    Bob Cy' names the seats (every hand must be a seated player's); '@stake',
    '@pair-stake' and '@players' lines between deals change the stake or the
    seats from the next deal on.
    Several files are settled as one night, in the order given.  The whole
    night is checked before anything is printed; '-' reads stdin (kept in a
    temporary file while it is checked).
    """
    from cpscore.deal import named_player
    from cpscore.errors import CpscoreError
    from cpscore.session import Spool

    gc.enable()  # a session may be long: normal collection from here on

    explain = explain_choice(explain, explain_pair)
    check_explain(explain, fmt)
    if explain and totals_only:
        raise click.BadParameter("has no effect with --totals, which prints no deal", param_hint="'--explain'")
    check_style(style, fmt)
    if round_unit is not None and fmt == "csv":
        raise click.BadParameter("has no effect with --format csv, which has no transfers", param_hint="'--round'")
    names = ["stdin" if source == "-" else source for source in sources]
    several = len(sources) > 1
    if shown_deals is not None and several:
        raise click.BadParameter("goes with one file: deal numbers start again in each file", param_hint="'--deal'")
    if shown_deals is not None and totals_only:
        raise click.BadParameter("has no effect with --totals, which prints no deal", param_hint="'--deal'")
    night = night_for(rules, stake, pair_stakes, spade_bonus, buy_in, race)
    # One pair: its two players as given (checked against the night at its end); None or "*" as they are.
    pair = explain if explain in (None, "*") else frozenset(explain)
    runnings: list[tuple[dict, dict]] = []  # each player's units and money after each deal, for --plot

    def each_deal(deals, spool, source, name) -> None:
        """Settle every deal into the night; write each deal shown as the view
        does, at once, and keep the text in the spool for printing."""
        from cpscore.session_views import deal_text

        def keep(text, deal, outcome) -> None:
            ledger = night.ledger
            if plot:
                runnings.append((dict(ledger.units), dict(ledger.money)))
            if spool is None:
                return
            try:
                spool.measure(deal, outcome, ledger)
                if shown_deals is None or shown_deals[0] <= text.number <= shown_deals[1]:
                    result = ledger.result(text, deal, outcome, name if several else "")
                    spool.put(deal_text(fmt, result, pair))
            except OSError as error:
                raise EnvironmentError_(
                    f"cannot keep the settled deals in a temporary file: {error.strerror or error}"
                ) from None

        take_deals(night, deals, source, name, skip_invalid, keep)

    try:
        with contextlib.ExitStack() as cleanup:
            # One pass reads, checks and settles every deal into the night; the
            # settled deals wait in a spool until the whole night is known good.
            spool = None
            if not totals_only:
                spool = Spool()
                cleanup.callback(spool.close)
            for source, name in zip(sources, names):
                with session_lines_of(source, name) as (lines, identity):
                    deals = open_night_file(night, lines, source, name, identity)
                    each_deal(deals, spool, source, name)
            finish_night(night)
            ledger, money = night.ledger, night.money
            if explain not in (None, "*"):  # one pair: both must play in the night, named exactly
                try:
                    for player in explain:
                        named_player(player, ledger.players(), "--explain")
                except CpscoreError as error:
                    raise InvalidDeals([str(error)]) from None
            if shown_deals is not None and shown_deals[0] > ledger.deals:
                raise InvalidDeals([f"--deal {shown_deals[0]}: {names[0]} has {ledger.deals} deals"])
            if plot:  # once the night and the options are known good
                from cpscore.chart import night_svg

                players = [player for player, _, _ in ledger.totals()]
                svg = night_svg(players, (running[1 if money else 0] for running in runnings), money=money)
                write_plot(plot, svg, list(sources))
            if spool is None:
                _print_totals(ledger, fmt, style, money, ", ".join(names), several, round_unit)
                return
            width = spool.cell_width(money)
            _print_session(ledger, spool.items(), fmt, style, money, ", ".join(names), several, width, round_unit)
    except InvalidDeals as invalid:
        for problem in invalid.problems:
            click.echo(f"Error: {bounded(problem)}", err=True)
        raise click.exceptions.Exit(2) from None


command = session


class InvalidDeals(Exception):
    def __init__(self, problems: list[str]) -> None:
        super().__init__(problems)
        self.problems = problems


def _print_totals(ledger, fmt: str, style: str, money: bool, name: str, several: bool = False, unit=None) -> None:
    from cpscore import formatting, session_views

    if fmt == "table":  # the rules and the stakes, then the totals
        heading = session_views.title(ledger, name, money, several)
        text = heading + "\n" + session_views.render_totals(ledger, style, money, True, unit)
        click.echo(text, nl=False)
    elif fmt in ("json", "jsonl"):
        data = formatting.versioned(
            {"rules": ledger.rules.id, "stake": ledger.first_stake, **session_views.totals_data(ledger, unit)}
        )
        text = formatting.render_json(data) if fmt == "json" else session_views.compact_json(data) + "\n"
        click.echo(text, nl=False)
    else:
        click.echo(session_views.totals_csv(ledger), nl=False)


def _print_session(
    ledger,
    deals,
    fmt: str,
    style: str,
    money: bool,
    name: str,
    several: bool = False,
    cell_width: int = 0,
    unit=None,
) -> None:
    """Stream the deals, written in the chosen format as they were settled, then the totals."""
    from cpscore import session_views

    if fmt == "jsonl":
        chunks = session_views.session_lines(ledger, deals, unit)
    elif fmt == "json":
        chunks = session_views.session_json(ledger, deals, unit)
    elif fmt == "csv":
        chunks = session_views.session_csv(deals)
    else:
        chunks = session_views.session_table(ledger, deals, name, style, money, several, cell_width, unit)
    for chunk in chunks:
        click.echo(chunk, nl=False)
