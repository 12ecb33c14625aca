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
    _apply_flags,
    _buy_in_option,
    _check_buy_in,
    _check_explain,
    _check_pair_players,
    _check_style,
    _completer,
    _explain_option,
    _explained,
    _format_option,
    _help_option,
    _load_buy_in,
    _load_rules,
    _pair_stakes,
    _parse_amount,
    _spade_bonus_option,
    _stake_options,
    _stdin,
    _style_option,
    _warn,
    bounded,
)
from cpscore.errors import shown

if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import BinaryIO

    from click._termui_impl import ProgressBar

#: Where ``cpscore --help`` lists the command (see :mod:`cpscore.commands`).
ORDER = 30

SESSION_FORMATS = ("table", "json", "jsonl", "csv")


def _session_settings(source_path: str | None, header, rules_option, stake, pair_stakes, spade_bonus, buy_in=None):
    """Rules, stakes and the buy-in: the command line wins over the session's
    header.  Returns (rules, stake, pair stakes, where each pair stake was
    given, buy-in); errors name the header line."""
    from cpscore.errors import CpscoreError
    from cpscore.rules import get_rules
    from cpscore.session import header_rules

    where = header.where
    rules = rules_option
    if rules is None:
        try:
            rules = header_rules(header, source_path)
        except CpscoreError as error:
            raise InputError(str(error)) from None
    try:
        rules = _apply_flags(rules or get_rules("2-4"), spade_bonus)
    except click.BadParameter as error:
        raise InputError(f"--spade-bonus {error.message}") from None
    if stake is None and header.stake is not None:
        try:
            stake = _parse_amount(header.stake, "@stake")
        except click.BadParameter as error:
            raise InputError(f"{where['stake']}: {error.message}") from None
    if buy_in is None and header.buy_in is not None:
        try:
            buy_in = _load_buy_in(None, None, header.buy_in)  # type: ignore[arg-type]  # no click context needed
        except click.BadParameter as error:
            raise InputError(f"{where['buy-in']}: @buy-in {error.message}") from None
        _check_buy_in(rules, buy_in, f"{where['buy-in']}: @buy-in")
    else:
        _check_buy_in(rules, buy_in)
    if pair_stakes:
        places = {pair: "--pair-stake" for pair in pair_stakes}
        if header.pair_stakes:  # documented, but never silent: the header's stakes are not used
            lines = ", ".join(where.rsplit(" ", 1)[1] for where in header.pair_where)
            _warn(f"--pair-stake replaces the session's @pair-stake headers (line {lines}), which are not used")
    else:
        given = [(value, f"{line}: @pair-stake") for value, line in zip(header.pair_stakes, header.pair_where)]
        pair_stakes, places = _pair_stakes(given)
    return rules, stake, pair_stakes, places, buy_in


def _start_night(lines, source, name, rules, stake, pair_stakes, spade_bonus, buy_in, race=None):
    """The ledger of a night from its first file's header and the command line
    (which wins), the deals to come, whether money is to be shown, and where
    each pair stake was given.  ``session`` and ``stats`` start alike."""
    from cpscore.errors import CpscoreError
    from cpscore.session import Ledger, header_seats, read_session

    try:
        header, deals = read_session(lines, name)
        settings = _session_settings(
            None if source == "-" else source, header, rules, stake, pair_stakes, spade_bonus, buy_in
        )
        chosen_rules, chosen_stake, chosen_pairs, places, chosen_buy_in = settings
        # A stake given on the command line replaces the file's, its lines between deals too.
        fixed = {"stake"} if stake is not None else set()
        fixed |= {"pair-stake"} if pair_stakes else set()
        ledger = Ledger(
            chosen_rules,
            1 if chosen_stake is None else chosen_stake,
            chosen_pairs,
            race,
            chosen_buy_in,
            fixed,
            header_seats(header),
        )
    except CpscoreError as error:
        raise InputError(str(error)) from None
    # A cap or a stack can cut what is paid: the money is then not the units.
    cuts = chosen_rules.cap is not None or bool(chosen_rules.table_stakes)
    return ledger, deals, chosen_stake is not None or bool(chosen_pairs) or cuts, places


def _take_deals(ledger, deals, source, name, skip_invalid, keep) -> None:
    """Settle every deal into the ledger, once, and hand each on to ``keep(text,
    deal, outcome)``; invalid ones are collected (all reported at the end), or
    skipped with ``skip_invalid``.  ``session`` and ``stats`` read alike."""
    from cpscore.errors import CpscoreError

    problems: list[str] = []
    iterator = iter(deals)
    while True:
        try:
            text = next(iterator)
        except StopIteration:
            break
        except CpscoreError as error:  # a line that cannot be read: nothing after it can be
            raise _InvalidDeals([*problems, str(error)]) from None
        except OSError as error:
            raise EnvironmentError_(
                f"cannot read {name if source == '-' else shown(name, 60)}: {error.strerror or error}"
            ) from None
        try:
            deal, outcome = ledger.take(text, name)
        except CpscoreError as error:
            problems.append(str(error))
            if skip_invalid:
                _warn(str(error), prefix="skipped: ")
        else:
            keep(text, deal, outcome)
        for warning in ledger.warnings:
            _warn(warning)
        ledger.warnings.clear()
    if problems and not skip_invalid:
        raise _InvalidDeals(problems)


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
    return None if value is None else _load_rules(ctx, param, value)


def _with_progress(lines: Iterator[str], file: BinaryIO, bar: ProgressBar[int]) -> Iterator[str]:
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
def _session_lines(source: str, name: str) -> Iterator[Iterator[str]]:
    """The lines of a session file (``-``: stdin) as they are read, with a
    progress bar on stderr when it is a regular file and stderr a terminal.
    ``session`` and ``stats`` read alike."""
    from cpscore.textio import read_lines

    with _opened(source) as file:
        size = _regular_size(file)
        bar = (
            click.progressbar(length=size, label="checking", file=sys.stderr) if size and sys.stderr.isatty() else None
        )
        with bar or contextlib.nullcontext():
            lines = read_lines(file, name)
            yield _with_progress(lines, file, bar) if bar else lines


def _night_options(function):
    """The options that settle a night, as ``session`` and ``stats`` take them:
    --rules, --spade-bonus, --stake, --pair-stake, --buy-in."""
    function = _buy_in_option("Table stakes: the money each player brings (default: the @buy-in header).")(function)
    function = _stake_options(
        "Money per unit (default: @stake, else 1).",
        "Money per unit for one pair (repeatable; replaces the @pair-stake headers).",
    )(function)
    function = _spade_bonus_option(function)
    return click.option(
        "--rules",
        "rules",
        default=None,
        metavar="NAME|FILE",
        callback=_load_rules_or_none,
        shell_complete=_completer("rules"),
        help="Rule set (default: the session's @rules header, else 2-4).",
    )(function)


def _opened(source: str):
    """The session as a binary stream: the file (a regular file or a pipe such
    as ``<(...)``), or stdin for ``-``.  It is read once, as it comes: the
    settled deals wait in a spool until the whole session is known good."""
    if source == "-":
        return contextlib.nullcontext(_stdin())
    try:
        return open(source, "rb")
    except OSError as error:
        raise InputError(f"cannot read session file {shown(source, 60)}: {error.strerror or error}") from None


@click.command(name="session", add_help_option=False)
@_help_option
@click.argument("sources", nargs=-1, required=True, metavar="FILE|-...", shell_complete=_completer("files"))
@_night_options
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
@_format_option(SESSION_FORMATS)
@_style_option
@_explain_option
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
    from cpscore.session import Spool, continued, header_rules, read_session

    gc.enable()  # a session may be long: normal collection from here on

    explain = _explained(explain, explain_pair)
    _check_explain(explain, fmt)
    if explain and totals_only:
        raise click.BadParameter("has no effect with --totals, which prints no deal", param_hint="'--explain'")
    _check_style(style, fmt)
    names = ["stdin" if source == "-" else source for source in sources]
    for index, source in enumerate(sources):
        if source in sources[:index]:
            what = "'-' (stdin)" if source == "-" else shown(source, 60)
            raise click.BadParameter(f"{what} is given twice: its deals would count twice", param_hint="FILE")
    several = len(sources) > 1
    if shown_deals is not None and several:
        raise click.BadParameter("goes with one file: deal numbers start again in each file", param_hint="'--deal'")
    if shown_deals is not None and totals_only:
        raise click.BadParameter("has no effect with --totals, which prints no deal", param_hint="'--deal'")

    def start(lines, source, name):
        return _start_night(lines, source, name, rules, stake, pair_stakes, spade_bonus, buy_in, race)

    def more(lines, source, name, ledger, first):
        """The deals of a file that continues the night: its header's rules and
        buy-in must be the night's; its stakes change the stake from its first deal."""
        try:
            header, deals = read_session(lines, name)
        except CpscoreError as error:
            raise InputError(str(error)) from None
        try:
            if rules is None and header.rules is not None:
                own = header_rules(header, None if source == "-" else source)
                if own != ledger.rules:
                    raise InputError(
                        f"{header.where['rules']}: @rules {header.rules} is not the night's rules "
                        f"({ledger.rules.id}, from {first}): settle files of one rule set together"
                    )
            if buy_in is None and header.buy_in is not None:
                own_buy_in = _load_buy_in(None, None, header.buy_in)  # type: ignore[arg-type]  # no context needed
                if own_buy_in != ledger.buy_in:
                    raise InputError(
                        f"{header.where['buy-in']}: @buy-in {header.buy_in} is not the night's buy-in "
                        f"({ledger.buy_in}, from {first}): one night has one buy-in"
                    )
        except CpscoreError as error:
            raise InputError(str(error)) from None
        except click.BadParameter as error:
            raise InputError(f"{header.where['buy-in']}: @buy-in {error.message}") from None
        return continued(header, deals, name)

    def each_deal(ledger, deals, spool, source, name) -> None:
        """Settle every deal into the ledger and keep it in the spool for printing."""

        def keep(text, deal, outcome) -> None:
            if spool is not None:
                try:
                    spool.put(text, deal, outcome, ledger, name if several else "")
                except OSError as error:
                    raise EnvironmentError_(
                        f"cannot keep the settled deals in a temporary file: {error.strerror or error}"
                    ) from None

        _take_deals(ledger, deals, source, name, skip_invalid, keep)

    try:
        with contextlib.ExitStack() as cleanup:
            # One pass reads, checks and settles every deal into the ledger; the
            # settled deals wait in a spool until the whole night is known good.
            spool = None
            if not totals_only:
                spool = Spool()
                cleanup.callback(spool.close)
            ledger, money, places = None, False, {}
            for source, name in zip(sources, names):
                with _session_lines(source, name) as lines:
                    if ledger is None:
                        ledger, deals, money, places = start(lines, source, name)
                    else:
                        deals = more(lines, source, name, ledger, names[0])
                    each_deal(ledger, deals, spool, source, name)
            assert ledger is not None  # click requires one source at least
            try:
                _check_pair_players({**places, **ledger.pair_places}, ledger.players())
            except CpscoreError as error:
                raise _InvalidDeals([str(error)]) from None
            for key, where in ledger.ignored:  # documented, but never silent
                option = "--stake" if key == "stake" else "--pair-stake"
                _warn(f"{option} replaces the session's stakes: {where}: @{key} is not used")
            money = money or ledger.restaked  # the stake changed during the night: money is not units
            if spool is None:
                _print_totals(ledger, fmt, style, money, ", ".join(names), several)
                return
            if explain not in (None, "*"):  # one pair: both must play in the night
                try:
                    explain = frozenset(named_player(name, ledger.players(), "--explain") for name in explain)
                except CpscoreError as error:
                    raise _InvalidDeals([str(error)]) from None
            results = spool.results(ledger.rules, ledger.stake)
            if shown_deals is not None:
                first, last = shown_deals
                if first > ledger.deals:
                    raise _InvalidDeals([f"--deal {first}: {names[0]} has {ledger.deals} deals"])
                results = (result for result in results if first <= result.number <= last)
            width = spool.cell_width(money)
            _print_session(ledger, results, fmt, style, money, totals_only, ", ".join(names), explain, several, width)
    except _InvalidDeals as invalid:
        for problem in invalid.problems:
            click.echo(f"Error: {bounded(problem)}", err=True)
        raise click.exceptions.Exit(2) from None


command = session


class _InvalidDeals(Exception):
    def __init__(self, problems: list[str]) -> None:
        super().__init__(problems)
        self.problems = problems


def _print_totals(ledger, fmt: str, style: str, money: bool, name: str, several: bool = False) -> None:
    from cpscore import formatting, session_views

    if fmt == "table":  # the rules and the stakes, then the totals
        heading = session_views.title(ledger, name, money, several)
        text = heading + "\n" + session_views.render_totals(ledger, style, money, True)
        click.echo(text, nl=False)
    elif fmt in ("json", "jsonl"):
        data = {"rules": ledger.rules.id, "stake": ledger.first_stake, **session_views.totals_data(ledger)}
        text = formatting.render_json(data) if fmt == "json" else session_views.compact_json(data) + "\n"
        click.echo(text, nl=False)
    else:
        click.echo(session_views.totals_csv(ledger), nl=False)


def _print_session(
    ledger,
    results,
    fmt: str,
    style: str,
    money: bool,
    totals_only: bool,
    name: str,
    explain: object = None,
    several: bool = False,
    cell_width: int = 0,
) -> None:
    """Stream the deals in the chosen format, then the totals."""
    from cpscore import session_views

    if totals_only:
        for _ in results:
            pass
        _print_totals(ledger, fmt, style, money, name, several)
        return
    if fmt == "jsonl":
        chunks = session_views.session_lines(ledger, results)
    elif fmt == "json":
        chunks = session_views.session_json(ledger, results)
    elif fmt == "csv":
        chunks = session_views.session_csv(results)
    else:
        chunks = session_views.session_table(ledger, results, name, style, money, explain, several, cell_width)
    for chunk in chunks:
        click.echo(chunk, nl=False)
