"""The ``cpscore`` command: the group, whose commands are the modules of this
package.  The command layer is the only part of cpscore that imports click.

Each module here whose name does not start with ``_`` is one command, named
after the module (``_`` becomes ``-``): it defines the click command as
``command``, and may set ``ORDER``, a number that places it in ``cpscore
--help`` (lower first; the usual commands are in the order a night uses them).
A command without ``ORDER`` comes after those with one, by name.  The group
finds the modules by listing the package's folder (:func:`pkgutil.iter_modules`)
and imports one only when its command is asked for: a run imports the module
of the command it runs and no other; ``--help`` imports them all, for their
help.  A new command is a new module, with no entry anywhere else.  What the
commands share (options, callbacks, reading input, errors) is
:mod:`cpscore.commands._options`.

Library errors (:class:`cpscore.errors.CpscoreError`) become click errors
in the commands: ``BadParameter`` for one bad option value,
:class:`~cpscore.commands._options.InputError` for a problem across the
inputs; both exit with code 2 and print one ``Error:`` line on stderr, of
at most 300 characters (:data:`cpscore.errors.MAX_LINE`), as click's own
usage errors do.
:class:`cpscore.errors.EnvironmentFailure` and a failed write of the output
exit with code 1; a closed pipe ends quietly with 141 (128 + SIGPIPE, as a
shell tool killed by the signal).  No input makes a traceback: an unexpected
exception is one ``Error: internal error`` line, exit code 1.
"""

from __future__ import annotations

import gc
import os
import sys
from typing import TYPE_CHECKING

import click

from cpscore import __version__
from cpscore.commands._options import NOTES, EnvironmentError_, help_option, silence_stdout
from cpscore.errors import MAX_MESSAGE, bounded, shown

if TYPE_CHECKING:
    from types import ModuleType
    from typing import Any


def _show_error(error: click.ClickException, arguments: list[str]) -> None:
    """click's error output as one line of at most
    :data:`~cpscore.errors.MAX_LINE` characters: a usage error points at the
    help, and a long argument that click repeats whole (an unknown option, a
    bad value) is cut short."""
    message, hint = error.format_message(), ""
    if isinstance(error, click.UsageError):
        message = _cut_arguments(message, arguments)
        if error.ctx is not None:
            hint = f" (see '{error.ctx.command_path} -h')"
            hint = hint if len(hint) <= MAX_MESSAGE // 4 else ""
    click.echo(f"Error: {bounded(message, MAX_MESSAGE - len(hint))}{hint}", err=True)


def _cut_arguments(message: str, arguments: list[str]) -> str:
    """``message`` with every long command-line word in it (an argument, or
    either side of its ``=``) cut to its first 36 characters and '...'."""
    words = {word for argument in arguments for word in (argument, *argument.split("=", 1)) if len(word) > 40}
    for word in sorted(words, key=len, reverse=True):
        message = message.replace(word, word[:36] + "...")
    return message


def _print_version(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        click.echo(f"cpscore, version {__version__}")
        if param.name == "verbose_version":  # -v: what a bug report needs
            import platform

            click.echo(
                f"Python {platform.python_version()} ({platform.python_implementation()}), {platform.platform()}"
            )
            click.echo(f"click {_version_of('click')}, tabulate {_version_of('tabulate')}")
        ctx.exit()


def _version_of(package: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(package)
    except PackageNotFoundError:
        return "not installed"


def _set_colour(ctx: click.Context, param: click.Parameter, value: str) -> str:
    from cpscore.commands._options import COLOUR

    COLOUR["mode"] = value
    if value != "auto":  # click.echo keeps (or strips) the colour codes whatever the output is
        ctx.color = value == "always"
    return value


class _Commands(click.Group):
    """A group whose commands are the modules of ``package``, each imported on
    first use: every option click builds costs start-up time, and a run needs
    one command."""

    def __init__(self, *args, package: str, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.package = package

    def _command_names(self) -> list[str]:
        """The names of the command modules in the package's folder(s), as
        command names; none is imported."""
        import pkgutil

        path = _imported(self.package).__path__
        return [module.name.replace("_", "-") for module in pkgutil.iter_modules(path) if module.name[0] != "_"]

    def _module(self, name: str) -> ModuleType | None:
        """The module of command ``name``, imported now if it is not yet; None
        if there is none (a private module is not a command)."""
        module_name = name.replace("-", "_")
        if "_" in name or module_name.startswith("_") or not module_name.isidentifier():
            return None
        full_name = f"{self.package}.{module_name}"
        try:
            return _imported(full_name)
        except ModuleNotFoundError as error:
            if error.name != full_name:  # the module is there but fails to import: a bug
                raise
            return None

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in self.commands:  # one added with add_command
            return self.commands[name]
        command = getattr(self._module(name), "command", None)
        return command if isinstance(command, click.Command) else None

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Every command (which imports every command module): those with an
        ``ORDER`` by it, then the others by name."""
        return self._listed(ctx, "")

    def _listed(self, ctx: click.Context, start: str) -> list[str]:
        """The commands whose name starts with ``start``, in their order;
        only their modules are imported."""
        names = {name for name in (*self.commands, *self._command_names()) if name.startswith(start)}

        def place(name: str) -> tuple[bool, float, str]:
            order = None if name in self.commands else getattr(self._module(name), "ORDER", None)
            return (order is None, order or 0, name)

        return sorted((name for name in names if self.get_command(ctx, name) is not None), key=place)

    def shell_complete(self, ctx: click.Context, incomplete: str):
        """The commands that start with ``incomplete``, with their help (a TAB
        imports the modules of those alone), and the group's options."""
        from click.shell_completion import CompletionItem

        commands = [(name, self.get_command(ctx, name)) for name in self._listed(ctx, incomplete)]
        items = [
            CompletionItem(name, help=command.get_short_help_str())
            for name, command in commands
            if command and not command.hidden
        ]
        return items + click.Command.shell_complete(self, ctx, incomplete)

    def _main_shell_completion(self, ctx_args, prog_name, complete_var=None) -> None:
        """click's answer to the shell's TAB, which exits (with cpscore's bash
        and zsh scripts, see :mod:`cpscore.commands._completion`); if it fails
        (a word that cannot be written back), no completion rather than a
        traceback."""
        try:
            if any(name.endswith("_COMPLETE") for name in os.environ):  # perhaps the shell asking
                from cpscore.commands._completion import use_cpscore_shells

                use_cpscore_shells()
            super()._main_shell_completion(ctx_args, prog_name, complete_var)
        except Exception:
            sys.exit(1)

    def resolve_command(self, ctx: click.Context, args: list[str]):
        try:
            return super().resolve_command(ctx, args)
        except click.UsageError as error:
            # click (8.4 and later) suggests a close name among the commands it
            # holds, which here are none: suggest among all, without importing them.
            no_such_command: Any = getattr(click.exceptions, "NoSuchCommand", None)
            if no_such_command is None or not isinstance(error, no_such_command):
                raise
            names = [*self.commands, *self._command_names()]
            raise no_such_command(error.command_name, possibilities=names, ctx=ctx) from None

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
        NOTES.clear()
        if not standalone_mode:
            return super().main(arguments, prog_name, complete_var, False, **extra)
        if not arguments:  # bare `cpscore`: the help, as asked for
            arguments = ["--help"]
        try:
            code = super().main(arguments, prog_name, complete_var, False, **extra)
        except click.ClickException as error:
            _show_error(error, arguments)
            sys.exit(error.exit_code)
        except click.exceptions.Abort:
            click.echo("Aborted!", err=True)
            sys.exit(1)
        code = code if isinstance(code, int) else 0
        for note in NOTES if code == 0 else ():
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


def _imported(name: str) -> ModuleType:
    """The module ``name``, imported now if it is not yet.  (``import`` rather
    than :func:`importlib.import_module`, which ``python -X importtime`` does
    not see.)"""
    __import__(name)
    return sys.modules[name]


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
        silence_stdout()
        return click.exceptions.Exit(141)
    import traceback

    writing = any(frame.name in ("echo", "write", "flush") for frame in traceback.extract_tb(error.__traceback__))
    if writing:
        silence_stdout()
        return EnvironmentError_(f"cannot write the output: {error.strerror or error}")
    place = f"{error.filename}: " if error.filename else ""
    return EnvironmentError_(f"cannot read the input: {place}{error.strerror or error}")


def _internal_error(error: Exception) -> click.ClickException:
    import traceback

    frames = [frame for frame in traceback.extract_tb(error.__traceback__) if "cpscore" in frame.filename]
    place = f" at {os.path.basename(frames[-1].filename)}:{frames[-1].lineno}" if frames else ""
    return EnvironmentError_(
        f"internal error ({type(error).__name__}{place}): cpscore could not finish; please report it with the input"
    )


@click.group(cls=_Commands, package=__name__, add_help_option=False)
@help_option
@click.option(
    "--version",
    "-V",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_print_version,
    help="Show the version and exit.",
)
@click.option(
    "-v",
    "verbose_version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_print_version,
    help="Show the version, with Python's, the platform's and the libraries', and exit.",
)
@click.option(
    "--color",
    type=click.Choice(["auto", "always", "never"]),
    default="auto",
    show_default=True,
    expose_value=False,
    is_eager=True,
    callback=_set_colour,
    help="Colour in tables: auto is on a terminal unless NO_COLOR is set; always and never override both.",
)
def main() -> None:
    """Score Chinese poker and open-face Chinese poker deals: who owes whom,
    each against each, under the table's rule set."""
