"""What the commands share: the options they have in common and their
callbacks, reading a file or stdin whole, the two errors they raise, and the
warnings printed once a command has succeeded.

:class:`InputError` is a problem across the inputs (exit code 2, like
click's ``BadParameter`` for one bad option value); :class:`EnvironmentError_`
is the machine failing the command (exit code 1).  Every message is one line
of at most :data:`~cpscore.errors.MAX_MESSAGE` characters
(:func:`~cpscore.errors.bounded`), so that its ``Error:`` line is at most
:data:`~cpscore.errors.MAX_LINE`; so is every warning's line.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

import click

from cpscore.errors import MAX_LINE, bounded, shown

if TYPE_CHECKING:
    from typing import BinaryIO


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


NOTES: list[str] = []  # warnings and skips, printed when the command succeeds


def warn_later(message: str, prefix: str = "Warning: ") -> None:
    """A warning on stderr, printed once the command has succeeded: a command
    that fails prints its one error line and nothing else."""
    NOTES.append(prefix + bounded(message, MAX_LINE - len(prefix)))


def completer(kind: str):
    """A ``shell_complete`` function for a parameter: the completions of
    ``kind`` (see :mod:`cpscore.commands._completion`, imported only when the
    shell asks for them, on a TAB)."""

    def complete(ctx: click.Context, param: click.Parameter, incomplete: str):
        from cpscore.commands._completion import complete

        return complete(kind, ctx, param, incomplete)

    return complete


def spade_bonus_option(function):
    return click.option(
        "--spade-bonus",
        is_flag=True,
        help="Double both hands' royalties in the row holding 2s (the Finnish spade bonus, spade_bonus = row).",
    )(function)


def stake_options(stake_help: str, pair_help: str):
    """--stake and --pair-stake, with this command's help."""

    def apply(function):
        function = click.option(
            "--pair-stake",
            "pair_stakes",
            multiple=True,
            callback=_load_pair_stakes,
            metavar="A:B=AMOUNT",
            shell_complete=completer("pairs"),
            help=pair_help,
        )(function)
        return click.option("--stake", callback=_load_stake, metavar="AMOUNT", help=stake_help)(function)

    return apply


def new_file_rules_option(help: str = "Rules for a new session file (written as its @rules header)."):
    """--rules as the commands that start a session file take it (add, play,
    serve): the text as given, loaded by the command, written as @rules."""
    return click.option(
        "--rules", "rules_text", default=None, metavar="NAME|FILE", shell_complete=completer("rules"), help=help
    )


def rules_option(function):
    function = spade_bonus_option(function)
    return click.option(
        "--rules",
        "rules",
        default="2-4",
        show_default=True,
        metavar="NAME|FILE",
        callback=load_rules,
        shell_complete=completer("rules"),
        help="Rule set: a preset (2-4, 1-6, ofc, taiwanese, shisanshui, maubinh, ...; "
        "'cpscore rules' lists them) or a rule file (.toml).",
    )(function)


def format_option(formats: tuple[str, ...]):
    return click.option(
        "--format", "fmt", type=click.Choice(formats), default="table", show_default=True, help="Output format."
    )


def explain_option(function):
    """``--explain`` (every pair) and ``--explain-pair A:B`` (one pair), as one
    value: None (no explanation), ``"*"`` or the two players.  (An option whose
    value is optional would take the file after it as the pair.)"""
    function = click.option(
        "--explain-pair",
        "explain_pair",
        metavar="A:B",
        callback=_load_explain,
        shell_complete=completer("pairs"),
        help="Explain only the pair of A and B.",
    )(function)
    return click.option(
        "--explain", is_flag=True, help="Explain every unit, pair by pair: rows, fouls, royalties, bonus, arithmetic."
    )(function)


def explain_choice(explain: bool, pair):
    """None (no explanation), ``"*"`` (every pair) or the pair's two players."""
    return pair if pair is not None else "*" if explain else None


def _load_explain(ctx: click.Context, param: click.Parameter, value: str | None):
    """None (no explanation), ``"*"`` (every pair) or the two players of one
    pair, in the order given (an error names the first that does not play)."""
    if value is None or value == "*":
        return value
    a, colon, b = value.partition(":")
    a, b = a.strip(), b.strip()
    if not (colon and a and b) or a == b:
        raise click.BadParameter(f"{shown(value)} is not A:B, two players (for example Amy:Bob)")
    return (a, b)


def check_explain(explain, fmt: str) -> None:
    if explain and fmt != "table":
        raise click.BadParameter(
            "--explain goes with the table format; the JSON already carries the same facts", param_hint="'--explain'"
        )


def style_option(function):
    return click.option(
        "--style",
        default="simple",
        show_default=True,
        metavar="STYLE",
        shell_complete=completer("styles"),
        help="Table style, any tabulate format: simple, grid, github, rounded_outline, plain, ...",
    )(function)


def load_rules(ctx: click.Context, param: click.Parameter | None, value: str):
    """A preset name (a bad one is a bad option value) or a rule file (whose
    errors name the file and the setting, on one line).  Not while the shell
    completes (click's resilient parse): a TAB needs no rules, and reading a
    rule file could wait on a named pipe."""
    if ctx.resilient_parsing:
        return value
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


def apply_flags(rules, spade_bonus: bool):
    """The rules with ``--spade-bonus`` (:func:`cpscore.night.spade_bonus_rules`)."""
    if not spade_bonus:
        return rules
    from cpscore.night import OptionError, spade_bonus_rules

    try:
        return spade_bonus_rules(rules)
    except OptionError as error:
        raise click.BadParameter(error.detail, param_hint=f"'{error.option}'") from None


class Digest(click.ParamType):
    """A deal's identity as ``add`` and ``session`` show it: 8 hex digits."""

    name = "digest"

    def convert(self, value, param, ctx):
        text = value.strip().lower() if isinstance(value, str) else ""
        if len(text) != 8 or any(char not in "0123456789abcdef" for char in text):
            self.fail(f"{shown(value)} is not a deal's digest: 8 hex digits, as 'cpscore session' shows", param, ctx)
        return text


def expect_option(function):
    return click.option(
        "--expect",
        type=Digest(),
        metavar="DIGEST",
        help="Change the deal only if it is this one: its digest, as 'cpscore session' shows it.",
    )(function)


def player_option(name: str, help: str):
    """An option naming a hand, given once a hand; the shell completes the
    hands of the files on the command line, except for a new player's."""
    complete = None if name == "new-player" else completer("hands")
    return click.option(f"--{name}", multiple=True, metavar="NAME", shell_complete=complete, help=help)


def _parse_amount(text: str, what: str):
    """A stake (:func:`cpscore.session.stake_amount`) as an option's value."""
    from cpscore.errors import CpscoreError
    from cpscore.session import stake_amount

    try:
        return stake_amount(text, what)
    except CpscoreError as error:
        raise click.BadParameter(str(error)) from None


def buy_in_option(help: str):
    return click.option("--buy-in", "buy_in", callback=_load_buy_in, metavar="AMOUNT", help=help)


def _load_buy_in(ctx: click.Context, param: click.Parameter, value: str | None):
    if value is None:
        return None
    from cpscore.errors import CpscoreError
    from cpscore.night import buy_in_amount

    try:
        return buy_in_amount(value)
    except CpscoreError as error:
        raise click.BadParameter(str(error)) from None


def check_buy_in(rules, buy_in) -> None:
    """A buy-in has an effect only under table stakes (:func:`cpscore.night.check_buy_in`)."""
    if buy_in is None:  # nothing to check (and the night's module need not load)
        return
    from cpscore.errors import CpscoreError
    from cpscore.night import check_buy_in as checked

    try:
        checked(rules, buy_in)
    except CpscoreError as error:
        raise InputError(str(error)) from None


class PositiveAmount(click.ParamType):
    """An exact amount of money above 0: ``--round UNIT`` (0.5, 1, 5), a
    payment's AMOUNT; ``why`` ends the message for 0 or less."""

    def __init__(self, name: str, why: str) -> None:
        self.name = name
        self.why = why

    def convert(self, value, param, ctx):
        from cpscore.amounts import AmountError, parse_amount

        try:
            amount = parse_amount(value) if isinstance(value, str) else value
        except AmountError as error:
            self.fail(str(error), param, ctx)
        if amount <= 0:
            self.fail(f"{shown(str(value))} is not above 0: {self.why}", param, ctx)
        return amount


def round_option(function):
    return click.option(
        "--round",
        "round_unit",
        type=PositiveAmount("UNIT", "round to a coin or a note, such as 0.5, 1 or 5"),
        metavar="UNIT",
        help="Make what each player is owed a multiple of UNIT (0.5, 1, 5) before settling up: each moves by "
        "less than UNIT, the sum kept at 0, and the output says by how much.",
    )(function)


class SvgPath(click.ParamType):
    """``--plot FILE.svg``: a path ending in ``.svg`` (any case), so that a
    slip of the keyboard cannot write a chart over a session file."""

    name = "FILE.svg"

    def convert(self, value, param, ctx):
        if not isinstance(value, str) or not value.lower().endswith(".svg") or value.endswith(("/", os.sep)):
            self.fail(f"{shown(str(value))}: write the chart to a file whose name ends in .svg", param, ctx)
        return value


def plot_option(what: str):
    return click.option(
        "--plot",
        type=SvgPath(),
        metavar="FILE.svg",
        shell_complete=completer("files"),
        help=f"Also draw each player's running total over the {what} as an SVG file (written atomically).",
    )


def write_plot(path: str, svg: str, sources: list[str]) -> None:
    """Write the chart to ``path`` atomically (locked, never torn); a path that
    is one of the files read is refused."""
    from cpscore.errors import CpscoreError, EnvironmentFailure
    from cpscore.safefile import rewrite

    if os.path.isdir(path):
        raise click.BadParameter(f"{shown(path)} is a folder: name the chart's file", param_hint="'--plot'")
    for source in sources:
        try:
            same = source != "-" and os.path.exists(path) and os.path.samefile(path, source)
        except OSError:
            same = False
        if same:
            raise click.BadParameter(f"{shown(path)} is a file being read: choose another", param_hint="'--plot'")
    try:
        rewrite(path, lambda current: svg.encode("utf-8"))
    except CpscoreError as error:
        raise InputError(str(error)) from None
    except EnvironmentFailure as error:
        raise EnvironmentError_(str(error)) from None


def banker_option(function):
    return click.option(
        "--banker",
        metavar="NAME",
        shell_complete=completer("players"),
        help="The banker, under banker pairing (default: the first player listed).",
    )(function)


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


def check_pair_stakes(places, players) -> None:
    """Every pair stake names two players who play (the library's check)."""
    from cpscore.deal import check_pair_players

    check_pair_players(((*sorted(pair), where) for pair, where in places.items()), players)


#: ``cpscore --color``: auto, always or never (set by the group's option).
COLOUR = {"mode": "auto"}


def use_colour(fmt: str) -> bool:
    """Colour only for a table: with ``--color auto`` (the default) on a
    terminal and when NO_COLOR is not set (https://no-color.org); ``always``
    and ``never`` override both."""
    mode = COLOUR["mode"]
    if fmt != "table" or mode == "never":
        return False
    return mode == "always" or (not os.environ.get("NO_COLOR") and sys.stdout.isatty())


def check_style(style: str, fmt: str = "table") -> None:
    """A table style tabulate knows; given with another format it has no effect: a warning."""
    if fmt != "table":
        ctx = click.get_current_context(silent=True)
        if ctx is not None and ctx.get_parameter_source("style") == click.core.ParameterSource.COMMANDLINE:
            warn_later(f"--style has no effect with --format {fmt}")
        return
    from cpscore.errors import nearest
    from cpscore.formatting import table_styles

    styles = table_styles()
    if style not in styles:  # the styles themselves would not fit on the error's line
        close = nearest(style, styles)
        mean = f" (did you mean {shown(close)}?)" if close is not None else ""
        raise click.BadParameter(
            f"{shown(style)} is not a table style{mean}: choose one of tabulate's {len(styles)} formats, such as "
            "simple, grid, github, rounded_outline, plain",
            param_hint="'--style'",
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


def stdin_stream():
    """Standard input as a binary stream."""
    if sys.stdin is None:
        raise EnvironmentError_("stdin is closed: give the input as a file, or open stdin (< file)")
    return getattr(sys.stdin, "buffer", sys.stdin)


def read_stdin() -> str:
    """Standard input as text: UTF-8, a byte-order mark dropped."""
    return _decode(_read_bytes(stdin_stream(), "stdin"), "stdin")


def read_source(source: str, used_stdin: list[bool]) -> str:
    """The text of a deal file, or of stdin for ``-``."""
    if source == "-":
        if used_stdin:
            raise InputError("'-' (stdin) is given twice")
        used_stdin.append(True)
        return read_stdin()
    return read_file(source, "deal file", "a hand on the command line is NAME=HAND")


def read_file(path: str, what: str, hint: str = "") -> str:
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


def help_option(function):
    return click.option(
        "-h",
        "--help",
        is_flag=True,
        expose_value=False,
        is_eager=True,
        callback=_show_help,
        help="Show this message and exit.",
    )(function)


def silence_stdout() -> None:
    """Point stdout at /dev/null, so that the final flush at exit cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # not a real file (a test runner's buffer)
        pass
