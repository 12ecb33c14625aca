"""The ``cpscore`` command.  The only module that imports click.

Library errors (:class:`cpscore.errors.CpscoreError`) become click errors
here: ``BadParameter`` for one bad option value, :class:`InputError` for a
problem across the inputs; both exit with code 2 and print one ``Error:``
line on stderr.  :class:`cpscore.errors.EnvironmentFailure` and a failed
write of the output exit with code 1; a closed pipe ends quietly with 141
(128 + SIGPIPE, as a shell tool killed by the signal).  No input makes a
traceback: an unexpected exception is one ``Error: internal error`` line,
exit code 1.
"""

from __future__ import annotations

import gc
import os
import sys
from typing import TYPE_CHECKING

import click

from cpscore import __version__
from cpscore.errors import shown

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from typing import BinaryIO

    from click._termui_impl import ProgressBar

#: The longest error line printed: longer messages lose their middle.
MAX_MESSAGE = 400


def bounded(message: str) -> str:
    """One line of at most :data:`MAX_MESSAGE` characters."""
    message = " ".join(message.splitlines())
    if len(message) <= MAX_MESSAGE:
        return message
    return message[: MAX_MESSAGE - 80] + " ... " + message[-75:]


class InputError(click.ClickException):
    """The input cannot be scored as given (exit code 2, like a usage error)."""

    exit_code = 2

    def __init__(self, message: str) -> None:
        super().__init__(bounded(message))


class EnvironmentError_(click.ClickException):
    """The machine failed the command (exit code 1): a full disk, a read-only file."""

    exit_code = 1

    def __init__(self, message: str) -> None:
        super().__init__(bounded(message))


_NOTES: list[str] = []  # warnings and skips, printed when the command succeeds


def _warn(message: str, prefix: str = "Warning: ") -> None:
    """A warning on stderr, printed once the command has succeeded: a command
    that fails prints its one error line and nothing else."""
    _NOTES.append(prefix + bounded(message))


def _show_error(error: click.ClickException) -> None:
    """click's error output as one bounded line: a usage error points at the help."""
    hint = ""
    if isinstance(error, click.UsageError) and error.ctx is not None:
        hint = f" (see '{error.ctx.command_path} -h')"
    click.echo(f"Error: {bounded(error.format_message() + hint)}", err=True)


FORMATS = ("table", "json", "csv")


def _spade_bonus_option(function):
    return click.option(
        "--spade-bonus",
        is_flag=True,
        help="Double the royalty of the row holding 2s (the Finnish double-spade bonus).",
    )(function)


def _stake_options(stake_help: str, pair_help: str):
    """--stake and --pair-stake, with this command's help."""

    def apply(function):
        function = click.option(
            "--pair-stake",
            "pair_stakes",
            multiple=True,
            callback=_load_pair_stakes,
            metavar="A:B=AMOUNT",
            help=pair_help,
        )(function)
        return click.option("--stake", callback=_load_stake, metavar="AMOUNT", help=stake_help)(function)

    return apply


def _rules_option(function):
    function = _spade_bonus_option(function)
    return click.option(
        "--rules",
        "rules",
        default="2-4",
        show_default=True,
        metavar="NAME|FILE",
        callback=_load_rules,
        help="Rule set: a preset (2-4, 1-6, ofc, ofc-western, pineapple, taiwanese; see "
        "'cpscore rules') or a rule file (.toml).",
    )(function)


def _format_option(formats: tuple[str, ...]):
    return click.option(
        "--format", "fmt", type=click.Choice(formats), default="table", show_default=True, help="Output format."
    )


def _explain_option(function):
    return click.option(
        "--explain", is_flag=True, help="Explain every unit, pair by pair: rows, fouls, royalties, bonus, arithmetic."
    )(function)


def _check_explain(explain: bool, fmt: str) -> None:
    if explain and fmt != "table":
        raise click.BadParameter(
            "--explain goes with the table format; the JSON already carries the same facts", param_hint="'--explain'"
        )


def _style_option(function):
    return click.option(
        "--style",
        default="simple",
        show_default=True,
        metavar="STYLE",
        help="Table style, any tabulate format: simple, grid, github, rounded_outline, plain, ...",
    )(function)


def _load_rules(ctx: click.Context, param: click.Parameter | None, value: str):
    """A preset name (a bad one is a bad option value) or a rule file (whose
    errors name the file and the setting, on one line)."""
    from cpscore.errors import RulesError
    from cpscore.rules import get_rules, is_rule_file, load_rules_file

    try:
        if is_rule_file(value):
            return load_rules_file(value)
        return get_rules(value)
    except RulesError as error:
        if is_rule_file(value):
            raise InputError(str(error)) from None
        raise click.BadParameter(str(error), ctx, param) from None


def _apply_flags(rules, spade_bonus: bool):
    from cpscore.rules import with_spade_bonus

    _spade_bonus_has_effect(rules, spade_bonus)
    return with_spade_bonus(rules) if spade_bonus else rules


def _player_option(name: str, help: str):
    return click.option(f"--{name}", multiple=True, metavar="NAME", help=help)


def _parse_amount(text: str, what: str):
    from cpscore.amounts import AmountError, parse_amount, shown

    try:
        amount = parse_amount(text)
    except AmountError as error:
        raise click.BadParameter(f"{what} {error}") from None
    if amount < 0:
        raise click.BadParameter(f"{what} {shown(text)} is negative: a stake is an amount of money per unit, 0 or more")
    return amount


def _load_stake(ctx: click.Context, param: click.Parameter, value: str | None):
    if value is None:
        return None
    return _parse_amount(value, "stake")


def _load_pair_stakes(ctx: click.Context | None, param: click.Parameter | None, values: tuple[str, ...]):
    """``--pair-stake`` values as ``{frozenset({a, b}): amount}``."""
    return _pair_stakes([(value, "--pair-stake") for value in values])[0]


def _pair_stakes(values: list[tuple[str, str]]):
    """Pair stakes from ``(A:B=AMOUNT, where)`` texts: the stakes, and where
    each pair was given (for errors about its names).  A bad value given on
    the command line is a bad option value; one from a session's header is an
    error naming its line."""
    stakes: dict[frozenset[str], object] = {}
    places: dict[frozenset[str], str] = {}
    for value, where in values:
        try:
            key, amount = _pair_stake(value, stakes, places)
        except click.BadParameter as error:
            if where == "--pair-stake":
                raise
            raise InputError(f"{where} {error.message}") from None
        stakes[key] = amount
        places[key] = where
    return stakes, places


def _pair_stake(value: str, stakes, places):
    pair, equals, amount = value.partition("=")
    a, colon, b = pair.partition(":")
    a, b = a.strip(), b.strip()
    if not (equals and colon and a and b):
        raise click.BadParameter(f"{shown(value)} is not A:B=AMOUNT (for example Amy:Bob=100)")
    if a == b:
        raise click.BadParameter(f"{shown(value)} names {shown(a)} twice: a pair stake is between two players")
    key = frozenset((a, b))
    if key in stakes:
        raise click.BadParameter(f"the pair {a[:40]}:{b[:40]} is given twice ({places[key]}; B:A is the same pair)")
    return key, _parse_amount(amount, f"stake for {a[:40]}:{b[:40]}")


def _check_pair_players(places, players) -> None:
    """Every pair stake names two players who play (the library's check)."""
    from cpscore.deal import check_pair_players

    check_pair_players(((*sorted(pair), where) for pair, where in places.items()), players)


def _spade_bonus_has_effect(rules, spade_bonus: bool) -> None:
    if spade_bonus and rules.royalties.mode == "none":
        raise click.BadParameter(
            f"has no effect: the {rules.id} rules pay no royalties to double", param_hint="'--spade-bonus'"
        )


def _colour(fmt: str) -> bool:
    """Colour only for a table on a terminal, and never when NO_COLOR is set."""
    return fmt == "table" and not os.environ.get("NO_COLOR") and sys.stdout.isatty()


def _check_style(style: str, fmt: str = "table") -> None:
    """A table style tabulate knows; given with another format it has no effect: a warning."""
    if fmt != "table":
        ctx = click.get_current_context(silent=True)
        if ctx is not None and ctx.get_parameter_source("style") == click.core.ParameterSource.COMMANDLINE:
            _warn(f"--style has no effect with --format {fmt}")
        return
    from cpscore.formatting import table_styles

    styles = table_styles()
    if style not in styles:
        raise click.BadParameter(
            f"{shown(style)} is not a table style: choose one of {', '.join(styles)}", param_hint="'--style'"
        )


#: The largest file read whole (a deal file, an arranger's list of hands).
MAX_FILE = 32 * 1024 * 1024


def _read_bytes(stream: BinaryIO, what: str) -> bytes:
    data = stream.read(MAX_FILE + 1)
    if len(data) > MAX_FILE:
        raise InputError(f"{what} is over {MAX_FILE // (1024 * 1024)} MB: that is not a deal file")
    return data


def _decode(data: bytes, source: str) -> str:
    from cpscore.errors import CpscoreError
    from cpscore.textio import decode

    try:
        return decode(data, source)
    except CpscoreError as error:
        raise InputError(str(error)) from None


def _stdin():
    """Standard input as a binary stream."""
    if sys.stdin is None:
        raise EnvironmentError_("stdin is closed: give the input as a file, or open stdin (< file)")
    return getattr(sys.stdin, "buffer", sys.stdin)


def _read_stdin() -> str:
    """Standard input as text: UTF-8, a byte-order mark dropped."""
    return _decode(_read_bytes(_stdin(), "stdin"), "stdin")


def _read_source(source: str, used_stdin: list[bool]) -> str:
    """The text of a deal file, or of stdin for ``-``."""
    if source == "-":
        if used_stdin:
            raise InputError("'-' (stdin) is given twice")
        used_stdin.append(True)
        return _read_stdin()
    return _read_file(source, "deal file", "a hand on the command line is NAME=HAND")


def _read_file(path: str, what: str, hint: str = "") -> str:
    """A file's text (UTF-8, a BOM dropped); errors name the file and say why."""
    try:
        with open(path, "rb") as file:
            data = _read_bytes(file, f"{what} {shown(path, 60)}")
    except FileNotFoundError:
        raise InputError(
            f"cannot read {what} {shown(path, 60)}: no such file" + (f" ({hint})" if hint else "")
        ) from None
    except OSError as error:
        raise InputError(f"cannot read {what} {shown(path, 60)}: {error.strerror or error}") from None
    return _decode(data, path)


# click's own --help and --version options look up a translation of their help
# text (gettext, which imports locale) every time a command runs: 2-3 ms of
# start-up.  These two do the same without it.
def _show_help(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        click.echo(ctx.get_help(), color=ctx.color)
        ctx.exit()


def _help_option(function):
    return click.option(
        "-h",
        "--help",
        is_flag=True,
        expose_value=False,
        is_eager=True,
        callback=_show_help,
        help="Show this message and exit.",
    )(function)


def _print_version(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        click.echo(f"cpscore, version {__version__}")
        ctx.exit()


class _Commands(click.Group):
    """A group whose other commands are defined on first use: every option
    click builds costs start-up time, and a run needs one command."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.factories: dict[str, Callable[[], click.Command]] = {}

    def lazy(self, factory: Callable[[], click.Command]) -> Callable[[], click.Command]:
        """Register ``make_NAME`` as the factory of command NAME (``_`` becomes ``-``)."""
        self.factories[factory.__name__.removeprefix("make_").replace("_", "-")] = factory
        return factory

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Every command: the usual ones in the order a night uses them, any
        other after them by name (a new command needs no entry anywhere)."""
        order = {name: index for index, name in enumerate(_COMMAND_ORDER)}
        return sorted({*self.commands, *self.factories}, key=lambda name: (order.get(name, len(order)), name))

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        """As click's, after refusing arguments that are not UTF-8 and making
        the output streams replace what their encoding cannot write."""
        arguments = sys.argv[1:] if args is None else list(args)
        for index, argument in enumerate(arguments, start=1):
            if isinstance(argument, str) and not _is_text(argument):
                readable = argument.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
                click.echo(f"Error: argument {index} ({shown(readable)}) is not valid UTF-8 text", err=True)
                if standalone_mode:
                    sys.exit(2)
                raise click.exceptions.Exit(2)
        if sys.stdout is None or sys.stderr is None:  # started with >&- or 2>&-
            if sys.stderr is not None:
                sys.stderr.write("Error: stdout is closed: cpscore has nowhere to write\n")
            sys.exit(1)
        _tolerant_streams()
        _NOTES.clear()
        if not standalone_mode:
            return super().main(arguments, prog_name, complete_var, False, **extra)
        if not arguments:  # bare `cpscore`: the help, as asked for
            arguments = ["--help"]
        try:
            code = super().main(arguments, prog_name, complete_var, False, **extra)
        except click.ClickException as error:
            _show_error(error)
            sys.exit(error.exit_code)
        except click.exceptions.Abort:
            click.echo("Aborted!", err=True)
            sys.exit(1)
        code = code if isinstance(code, int) else 0
        for note in _NOTES if code == 0 else ():
            click.echo(note, err=True)
        sys.exit(code)

    def invoke(self, ctx: click.Context):
        # A command's first moments import cpscore's modules and tables: many
        # long-lived objects, which the garbage collector would only walk over
        # (about a millisecond).  It is off until the command is done, or until
        # a long run starts (session turns it back on).
        gc.disable()
        try:
            return super().invoke(ctx)
        except (click.exceptions.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise
        except OSError as error:
            raise _output_failure(error) from None
        except Exception as error:  # a bug: one line, never a traceback
            raise _internal_error(error) from None
        finally:
            gc.enable()

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in self.commands and name in self.factories:
            self.add_command(self.factories[name]())
        return self.commands.get(name)


def _is_text(argument: str) -> bool:
    """Whether an argument decoded from the command line is valid UTF-8 (Python
    keeps undecodable bytes as lone surrogates)."""
    try:
        argument.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _tolerant_streams() -> None:
    """Output that the terminal's encoding cannot write (a name in cp1252) is
    replaced by '?' rather than failing; JSON writes such characters as \\u
    escapes instead, so that no name is lost to a script."""
    ascii_json = False
    for stream in (sys.stdout, sys.stderr):
        encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "").replace("_", "")
        if encoding and encoding not in ("utf8", "utf8sig") and hasattr(stream, "reconfigure"):
            try:
                stream.reconfigure(errors="replace")
            except (ValueError, OSError):  # pragma: no cover - a stream that cannot change
                pass
            ascii_json = ascii_json or stream is sys.stdout
    if ascii_json or "cpscore.formatting" in sys.modules:  # JSON keeps every name, as \u escapes
        from cpscore import formatting

        formatting.ASCII_JSON[0] = ascii_json


def _output_failure(error: OSError) -> click.exceptions.Exit | click.ClickException:
    """A write that failed: a closed pipe ends quietly (exit 141, 128 +
    SIGPIPE); anything else (a full disk) is an environment failure (exit 1)."""
    import errno

    if error.errno == errno.EPIPE:
        _silence_stdout()
        return click.exceptions.Exit(141)
    import traceback

    writing = any(frame.name in ("echo", "write", "flush") for frame in traceback.extract_tb(error.__traceback__))
    if writing:
        _silence_stdout()
        return EnvironmentError_(f"cannot write the output: {error.strerror or error}")
    place = f"{error.filename}: " if error.filename else ""
    return EnvironmentError_(f"cannot read the input: {place}{error.strerror or error}")


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so that the final flush at exit cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # not a real file (a test runner's buffer)
        pass


def _internal_error(error: Exception) -> click.ClickException:
    import traceback

    frames = [frame for frame in traceback.extract_tb(error.__traceback__) if "cpscore" in frame.filename]
    place = f" at {os.path.basename(frames[-1].filename)}:{frames[-1].lineno}" if frames else ""
    return EnvironmentError_(
        f"internal error ({type(error).__name__}{place}): cpscore could not finish; please report it with the input"
    )


_COMMAND_ORDER = ["score", "check", "session", "add", "arrange", "rules"]


@click.group(cls=_Commands, add_help_option=False)
@_help_option
@click.option(
    "--version",
    "-V",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_print_version,
    help="Show the version and exit.",
)
def main() -> None:
    """Score Chinese poker and open-face Chinese poker deals: who owes whom,
    each against each, under the table's rule set."""


@main.command(add_help_option=False)
@_help_option
@click.argument("inputs", nargs=-1, metavar="[NAME=HAND | FILE | -]...")
@_rules_option
@_stake_options(
    "Money per unit for every pair (default 1).", "Money per unit for one pair, overriding --stake (repeatable)."
)
@_player_option("surrender", "This player surrenders (repeatable); no hand is needed.")
@_player_option("waive", "This player waives a natural and plays the rows (repeatable).")
@_player_option("fantasyland", "This player plays the deal in Fantasyland (repeatable).")
@_format_option(FORMATS)
@_style_option
@_explain_option
def score(inputs, rules, spade_bonus, stake, pair_stakes, surrender, waive, fantasyland, fmt, style, explain) -> None:
    """Settle one deal: every player against every other.

    Each input is a hand written NAME=HAND (an argument with '='), a deal file
    with one 'NAME: HAND' per line ('#' starts a comment), or '-' for a deal
    file on stdin.  A hand is front / middle / back, or 13 cards with no rows
    for a natural, for example

        cpscore score "Amy=Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d" \\
                      "Bob=Qs Jd 3c / Th Tc 8d 8s 3d / Kh Qh Jh 8h 2h"

    After a hand, '; waive' and '; fantasyland' mark the player; 'NAME:
    surrender' surrenders.  Amy[1] and Amy[2] are two hands of one player
    (criss-cross).
    """
    from cpscore.deal import build_deal, entries_from_text, entry_from_argument
    from cpscore.errors import CpscoreError
    from cpscore.scoring import settle

    rules = _apply_flags(rules, spade_bonus)
    _check_explain(explain, fmt)
    _check_style(style, fmt)
    if not inputs:
        raise InputError("no hands: give NAME=HAND arguments, a deal file, or - to read a deal from stdin")
    try:
        entries = []
        used_stdin: list[bool] = []
        for item in inputs:
            if "=" in item:
                entries.append(entry_from_argument(item))
            else:
                source = "stdin" if item == "-" else item
                entries.extend(entries_from_text(_read_source(item, used_stdin), source))
        deal = build_deal(entries, rules, surrender, waive, fantasyland)
        _check_pair_players({pair: "--pair-stake" for pair in pair_stakes}, deal.owners())
        result = settle(deal, rules, 1 if stake is None else stake, pair_stakes)
    except CpscoreError as error:
        raise InputError(str(error)) from None
    for warning in result.warnings:
        _warn(warning)
    from cpscore import formatting

    if fmt == "json":
        text = formatting.render_json(formatting.settlement_data(result))
    elif fmt == "csv":
        text = formatting.render_csv(result)
    else:
        text = formatting.render_table(
            result,
            style,
            colour=_colour(fmt),
            show_money=stake is not None or bool(pair_stakes),
            pair_stakes_given=bool(pair_stakes),
        )
        if explain:
            from cpscore.explain import explain as reasons

            text += "\nWhy, pair by pair:\n\n" + reasons(result)
    click.echo(text, nl=False)


@main.lazy
def make_check() -> click.Command:
    @click.command(name="check", add_help_option=False)
    @_help_option
    @click.argument("hand", nargs=-1, required=True, metavar="HAND")
    @_rules_option
    @click.option("--fantasyland", "playing", is_flag=True, help="The hand was played in Fantasyland: does it stay?")
    @_format_option(("table", "json"))
    @_style_option
    def check(hand, rules, spade_bonus, playing, fmt, style) -> None:
        """Check one hand: each row's category, foul or legal, royalties, the
        natural it makes, Fantasyland.

        HAND is front / middle / back, or 13 cards with no rows (an unset hand is
        checked for naturals); quote it, give the cards as separate words, or '-'
        to read it from stdin:

            cpscore check --rules ofc "Qs Qd 5c / 9h 9c 4d 4s 2c / As Ks Qh Jd Tc"
        """
        from cpscore.cards import parse_hand_or_cards
        from cpscore.errors import CpscoreError
        from cpscore.scoring import check_hand

        rules = _apply_flags(rules, spade_bonus)
        if playing and rules.fantasyland == "none":
            raise click.BadParameter(
                f"has no effect: the {rules.id} rules have no Fantasyland", param_hint="'--fantasyland'"
            )
        text = " ".join(hand)
        if text.strip() == "-":
            text = _read_stdin()
        _check_style(style, fmt)
        try:
            report = check_hand(parse_hand_or_cards(text), rules, playing)
        except CpscoreError as error:
            raise InputError(str(error)) from None
        from cpscore import formatting

        if fmt == "json":
            click.echo(formatting.render_json(formatting.check_data(report, rules)), nl=False)
        else:
            click.echo(formatting.render_check(report, rules, style, colour=_colour(fmt)), nl=False)

    return check


@main.lazy
def make_rules() -> click.Command:
    @click.group(name="rules", invoke_without_command=True, add_help_option=False)
    @_help_option
    @click.pass_context
    def rules_command(ctx: click.Context) -> None:
        """List the preset rule sets, or show every setting of one (rules show)."""
        if ctx.invoked_subcommand is None:
            from cpscore.rules import get_rules, preset_names

            for name in preset_names():
                click.echo(f"{name:12} {get_rules(name).summary}")

    @rules_command.command(name="show", add_help_option=False)
    @_help_option
    @click.argument("name", metavar="NAME|FILE")
    def rules_show(name: str) -> None:
        """Print every setting of a preset or a rule file, as a rule file (TOML)
        you can copy and edit:

            cpscore rules show taiwanese > house.toml
        """
        from cpscore.errors import RulesError
        from cpscore.rules import is_rule_file, resolve_rules, to_toml

        try:
            rules = resolve_rules(name)
        except RulesError as error:
            if is_rule_file(name):
                raise InputError(str(error)) from None
            raise click.BadParameter(str(error), param_hint="'NAME|FILE'") from None
        click.echo(to_toml(rules), nl=False)

    return rules_command


# Sessions ---------------------------------------------------------------------

SESSION_FORMATS = ("table", "json", "jsonl", "csv")


def _session_settings(source_path: str | None, header, rules_option, stake, pair_stakes, spade_bonus):
    """Rules and stakes: the command line wins over the session's header.
    Returns (rules, stake, pair stakes, where each pair stake was given);
    errors name the header line."""
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
    if pair_stakes:
        places = {pair: "--pair-stake" for pair in pair_stakes}
        if header.pair_stakes:  # documented, but never silent: the header's stakes are not used
            lines = ", ".join(where.rsplit(" ", 1)[1] for where in header.pair_where)
            _warn(f"--pair-stake replaces the session's @pair-stake headers (line {lines}), which are not used")
    else:
        given = [(value, f"{line}: @pair-stake") for value, line in zip(header.pair_stakes, header.pair_where)]
        pair_stakes, places = _pair_stakes(given)
    return rules, stake, pair_stakes, places


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


def _spooled(source: str):
    """The session as a seekable binary file: the file itself when it is a
    regular file; stdin or a pipe (``<(...)``) is copied to a temporary file
    first, so that it can be checked whole before anything is printed."""
    import shutil
    import stat
    import tempfile

    if source != "-":
        try:
            regular = stat.S_ISREG(os.stat(source).st_mode)
            stream = open(source, "rb")
        except OSError as error:
            raise InputError(f"cannot read session file {shown(source, 60)}: {error.strerror or error}") from None
        if regular:
            return stream
    else:
        stream = _stdin()
    spool = tempfile.TemporaryFile()
    try:
        shutil.copyfileobj(stream, spool, 1 << 20)
    except OSError as error:
        spool.close()
        raise EnvironmentError_(
            f"cannot keep a copy of {'stdin' if source == '-' else source}: {error.strerror}"
        ) from None
    finally:
        if source != "-":
            stream.close()
    spool.seek(0)
    return spool


@main.lazy
def make_session() -> click.Command:
    @click.command(name="session", add_help_option=False)
    @_help_option
    @click.argument("source", metavar="FILE|-")
    @click.option(
        "--rules",
        "rules",
        default=None,
        metavar="NAME|FILE",
        callback=_load_rules_or_none,
        help="Rule set (default: the session's @rules header, else 2-4).",
    )
    @_spade_bonus_option
    @_stake_options(
        "Money per unit (default: @stake, else 1).",
        "Money per unit for one pair (repeatable; replaces the @pair-stake headers).",
    )
    @click.option(
        "--race", type=click.IntRange(min=1), metavar="POINTS", help="Also play the race to POINTS (e.g. 11)."
    )
    @click.option("--totals", "totals_only", is_flag=True, help="Print only the totals and the transfers.")
    @click.option("--skip-invalid", is_flag=True, help="Skip invalid deals (and say which) instead of stopping.")
    @_format_option(SESSION_FORMATS)
    @_style_option
    @_explain_option
    def session(
        source, rules, spade_bonus, stake, pair_stakes, race, totals_only, skip_invalid, fmt, style, explain
    ) -> None:
        """Settle a whole session: every deal, running totals, and who pays whom.

        A session file is deals separated by blank lines, each written as a deal
        file ('NAME: HAND' lines).  Header lines at the top set the rules and
        stakes: '@rules ofc', '@stake 10', '@pair-stake Amy:Bob=100'.  The whole
        file is checked before anything is printed; '-' reads stdin (kept in a
        temporary file while it is checked).
        """
        from cpscore.errors import CpscoreError
        from cpscore.session import Ledger, read_session
        from cpscore.textio import read_lines

        gc.enable()  # a session may be long: normal collection from here on

        _check_explain(explain, fmt)
        if explain and totals_only:
            raise click.BadParameter("has no effect with --totals, which prints no deal", param_hint="'--explain'")
        _check_style(style, fmt)
        name = "stdin" if source == "-" else source

        def start(lines):
            try:
                header, deals = read_session(lines, name)
                settings = _session_settings(
                    None if source == "-" else source, header, rules, stake, pair_stakes, spade_bonus
                )
            except CpscoreError as error:
                raise InputError(str(error)) from None
            chosen_rules, chosen_stake, chosen_pairs, places = settings
            ledger = Ledger(chosen_rules, 1 if chosen_stake is None else chosen_stake, chosen_pairs, race)
            return ledger, deals, chosen_stake is not None or bool(chosen_pairs), places

        def each_deal(ledger, deals, first_pass: bool):
            """Settled deals (none on the first pass, which keeps only the totals);
            invalid ones are collected, or skipped with --skip-invalid."""
            problems: list[str] = []
            iterator = iter(deals)
            while True:
                try:
                    text = next(iterator)
                except StopIteration:
                    break
                except CpscoreError as error:  # a line that cannot be read: nothing after it can be
                    raise _InvalidDeals([*problems, str(error)]) from None
                try:
                    if first_pass:
                        ledger.add_totals(text, name)
                    else:
                        yield ledger.add(text, name)
                except CpscoreError as error:
                    problems.append(str(error))
                    if skip_invalid and first_pass:
                        _warn(str(error), prefix="skipped: ")
                if first_pass:
                    for warning in ledger.warnings:
                        _warn(warning)
                ledger.warnings.clear()
            if problems and not skip_invalid:
                raise _InvalidDeals(problems)

        try:
            with _spooled(source) as file:
                # First pass: check every deal, keeping only the running totals.
                import contextlib

                size = os.fstat(file.fileno()).st_size
                shown_bar = size and sys.stderr.isatty()
                bar = click.progressbar(length=size, label="checking", file=sys.stderr) if shown_bar else None
                with bar or contextlib.nullcontext():
                    lines = read_lines(file, name)
                    ledger, deals, money, places = start(_with_progress(lines, file, bar) if bar else lines)
                    for _ in each_deal(ledger, deals, first_pass=True):
                        pass
                try:
                    _check_pair_players(places, ledger.players())
                except CpscoreError as error:
                    raise _InvalidDeals([str(error)]) from None
                if totals_only:
                    _print_totals(ledger, fmt, style, money)
                    return
                file.seek(0)
                ledger, deals, money, _ = start(read_lines(file, name))
                results = each_deal(ledger, deals, first_pass=False)
                _print_session(ledger, results, fmt, style, money, totals_only, name, explain)
        except _InvalidDeals as invalid:
            for problem in invalid.problems:
                click.echo(f"Error: {bounded(problem)}", err=True)
            raise click.exceptions.Exit(2) from None

    return session


class _InvalidDeals(Exception):
    def __init__(self, problems: list[str]) -> None:
        super().__init__(problems)
        self.problems = problems


def _print_totals(ledger, fmt: str, style: str, money: bool) -> None:
    from cpscore import formatting, session_views

    if fmt == "table":
        click.echo(session_views.render_totals(ledger, style, money), nl=False)
    elif fmt in ("json", "jsonl"):
        data = {"rules": ledger.rules.id, "stake": ledger.stake, **session_views.totals_data(ledger)}
        text = formatting.render_json(data) if fmt == "json" else session_views.compact_json(data) + "\n"
        click.echo(text, nl=False)
    else:
        click.echo(session_views.totals_csv(ledger), nl=False)


def _print_session(
    ledger, results, fmt: str, style: str, money: bool, totals_only: bool, name: str, explain: bool = False
) -> None:
    """Stream the deals in the chosen format, then the totals."""
    from cpscore import session_views

    if totals_only:
        for _ in results:
            pass
        _print_totals(ledger, fmt, style, money)
        return
    if fmt == "jsonl":
        chunks = session_views.session_lines(ledger, results)
    elif fmt == "json":
        chunks = session_views.session_json(ledger, results)
    elif fmt == "csv":
        chunks = session_views.session_csv(results)
    else:
        chunks = session_views.session_table(ledger, results, name, style, money, explain)
    for chunk in chunks:
        click.echo(chunk, nl=False)


@main.lazy
def make_add() -> click.Command:
    @click.command(name="add", add_help_option=False)
    @_help_option
    @click.argument("target", metavar="FILE")
    @click.argument("hands", nargs=-1, metavar="[NAME=HAND]...")
    @click.option(
        "--rules",
        "rules_text",
        default=None,
        metavar="NAME|FILE",
        help="Rules for a new session file (written as its @rules header).",
    )
    @_player_option("surrender", "This player surrenders (repeatable).")
    @_player_option("waive", "This player waives a natural and plays the rows (repeatable).")
    @_player_option("new-player", "Allow a player the session has not seen yet (repeatable).")
    def add(target, hands, rules_text, surrender, waive, new_player) -> None:
        """Check a deal and append it to a session file.

        The deal is NAME=HAND arguments, or deal-file lines on stdin.  It is
        checked against the file's rules and its players (a new name is refused
        unless --new-player names it); on any error the file is left untouched.
        The append is locked (concurrent adds wait their turn) and atomic: the
        new contents go to a temporary file beside the file, which is renamed
        over it, so an interrupted write never loses a deal.  A symlink keeps
        pointing at its target, which gets the deal.

            cpscore add night.txt "Amy=Ks Kd 4c / ..." "Bob=..." "Cy=..."
        """
        from cpscore.amounts import signed
        from cpscore.errors import CpscoreError, EnvironmentFailure
        from cpscore.safefile import rewrite
        from cpscore.session import Append

        try:
            entries = _add_entries(hands)
            try:
                chosen = _load_rules(click.get_current_context(), None, rules_text) if rules_text else None
            except click.BadParameter as error:
                error.param_hint = "'--rules'"
                raise
            append = Append(target, entries, chosen, rules_text, surrender, waive, new_player)
            rewrite(target, append)
        except CpscoreError as error:
            raise InputError(str(error)) from None
        except EnvironmentFailure as error:
            raise EnvironmentError_(str(error)) from None
        for warning in append.warnings:
            _warn(warning)
        assert append.settlement is not None  # the append was made
        summary = ", ".join(f"{owner.name} {signed(owner.units)}" for owner in append.settlement.owners)
        report = f"added deal {append.number} (line {append.line}) to {target}: {summary}"
        try:
            click.echo(report)
        except OSError as error:  # the deal is in the file: say so, so that nobody adds it again
            _silence_stdout()
            raise EnvironmentError_(f"{report}; but this line could not be printed: {error.strerror}") from None

    return add


def _add_entries(hands):
    from cpscore.deal import entries_from_text, entry_from_argument

    if hands:
        return [entry_from_argument(hand) for hand in hands]
    return entries_from_text(_read_stdin(), "stdin")


@main.lazy
def make_arrange() -> click.Command:
    @click.command(name="arrange", add_help_option=False)
    @_help_option
    @click.argument("cards", nargs=-1, metavar="CARDS | FILE | -")
    @_rules_option
    @click.option("--top", type=click.IntRange(min=1), default=3, show_default=True, help="How many settings to show.")
    @click.option(
        "--simulate",
        "rounds",
        type=click.IntRange(min=1),
        default=None,
        metavar="N",
        help="Rank the 20 best by the estimate again by N simulated opponents each.",
    )
    @_format_option(("table", "json"))
    def arrange(cards, rules, spade_bonus, top, rounds, fmt) -> None:
        """Set 13 cards: the best legal settings under the rules, best first.

        CARDS are the 13 cards (quoted or as separate words), or a file with
        one hand of 13 cards per line, or '-' for such lines on stdin.  Each
        setting shows its expected units against one opponent who holds 13
        of the other cards and sets them the plain way (strongest back, then
        strongest middle), and the figures it is built from:

            cpscore arrange Ah Ad Ac 7s 7d Ks Kd 4c 9h 9c 5d 5s 2c
        """
        from cpscore.arrange import arrangement
        from cpscore.cards import parse_cards
        from cpscore.errors import CpscoreError

        rules = _apply_flags(rules, spade_bonus)
        if not cards:
            raise InputError("no cards: give 13 cards, a file with one hand a line, or - for stdin")
        text = " ".join(cards)
        hands: list[tuple[str, str]] = []
        if len(cards) == 1 and (cards[0] == "-" or os.path.isfile(cards[0])):  # else: the cards themselves
            source = "stdin" if cards[0] == "-" else cards[0]
            from cpscore.textio import split_lines

            content = _read_source(cards[0], [])
            try:
                numbered = list(enumerate(split_lines(content, source), start=1))
            except CpscoreError as error:
                raise InputError(str(error)) from None
            for number, line in numbered:
                line = line.split("#", 1)[0].strip()
                if line:
                    hands.append((f"{source}, line {number}: ", line))
        else:
            hands.append(("", text))
        results = []
        try:
            for where, line in hands:
                if "/" in line or "|" in line:
                    raise InputError(f"{where}the arranger takes 13 unset cards: leave out the rows ('/')")
                try:
                    parsed = parse_cards(line)
                except CpscoreError as error:
                    raise InputError(f"{where}{error}") from None
                twice = sorted({str(card) for card in parsed if parsed.count(card) > 1})
                if twice:
                    raise InputError(
                        f"{where}{', '.join(twice)} {'is' if len(twice) == 1 else 'are'} given twice: "
                        "the arranger takes 13 different cards"
                    )
                if len(parsed) != 13:
                    raise InputError(
                        f"{where}{len(parsed)} card{'s' * (len(parsed) != 1)}: the arranger takes 13 different cards, "
                        "with no rows"
                    )
                results.append(arrangement(parsed, rules, top, rounds or 0))
        except CpscoreError as error:
            raise InputError(str(error)) from None
        from cpscore import arrange_views, formatting

        if fmt == "json":
            click.echo(formatting.render_json([arrange_views.arrangement_data(result) for result in results]), nl=False)
        else:
            texts = [arrange_views.render_arrangement(result, rules, colour=_colour(fmt)) for result in results]
            click.echo("\n".join(texts), nl=False)

    return arrange
