"""``cpscore play``: enter a night at the table, hand by hand, each deal
appended to a session file as ``cpscore add`` appends it.

The dialogue goes through click (:func:`click.echo`, and click's prompt
function, which is :func:`input`, with readline's editing when the terminal
has it), so that :class:`click.testing.CliRunner` can type it; what it says
is decided in :mod:`cpscore.play`, which never prints.
"""

from __future__ import annotations

import contextlib
import gc
import sys
from typing import TYPE_CHECKING

import click

from cpscore.commands._options import (
    EnvironmentError_,
    InputError,
    check_style,
    completer,
    help_option,
    load_rules,
    new_file_rules_option,
    style_option,
    use_colour,
)

if TYPE_CHECKING:
    from collections.abc import Iterator
    from types import ModuleType

    from cpscore.play import Round, Table

#: Where ``cpscore --help`` lists the command (see :mod:`cpscore.commands`).
ORDER = 45


class _End(Exception):
    """Ctrl-D (end of input) at a prompt: the run ends; nothing half-saved."""


class _Abandon(Exception):
    """Ctrl-C: the deal being entered is dropped, the file untouched."""


def _ask(prompt: str) -> str:
    """One line typed after ``prompt``: click's prompt function (:func:`input`,
    which edits with readline once it is imported; CliRunner replaces it)."""
    return click.termui.visible_prompt_func(prompt)


_READLINE: list[ModuleType] = []  # the readline module, once line editing is on


def _line_editing() -> None:
    """Readline's editing and a history of the lines typed in this run (Up
    recalls a hand to correct it), on a terminal where Python has readline."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        return
    try:
        import readline
    except ImportError:  # pragma: no cover - a Python built without it
        return
    readline.set_completer(lambda text, state: None)  # Tab completes nothing (not file names)
    _READLINE.append(readline)


def _forget(answer: str) -> None:
    """Keep a yes/no answer out of the history, which is for hands."""
    if _READLINE and answer:
        readline = _READLINE[0]
        length = readline.get_current_history_length()
        if length and readline.get_history_item(length) == answer:
            readline.remove_history_item(length - 1)


def _line(prompt: str) -> str:
    try:
        return _ask(prompt)
    except EOFError:
        click.echo()
        raise _End from None
    except KeyboardInterrupt:
        click.echo()
        raise _Abandon from None


def _yes(question: str, default: bool) -> bool:
    suffix = " [Y/n]: " if default else " [y/N]: "
    while True:
        raw = _line(question + suffix)
        _forget(raw)
        answer = raw.strip().lower()
        if not answer:
            return default
        if answer in ("y", "yes"):
            return True
        if answer in ("n", "no"):
            return False
        click.echo("Error: invalid input")


@contextlib.contextmanager
def _uninterrupted() -> Iterator[None]:
    """Ctrl-C waits while the deal is written: the write is atomic anyway, and
    this way what is printed next (added, or not) is what happened."""
    import signal

    try:
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread: signals go elsewhere anyway
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


class _Play:
    """One run: the file, the seats, and the deals added."""

    def __init__(self, target: str, chosen, rules_text: str | None, style: str) -> None:
        self.target = target
        self.chosen = chosen  # --rules, for a new file (None once the file has its header)
        self.rules_text = rules_text
        self.style = style
        self.colour = use_colour("table")
        self.seats: list[str] = []
        self.named = False  # the session's seats are written in it (@players)
        self.added = 0
        self.entering = False  # a hand of the current deal is typed
        self.saved = False  # the current deal is in the file

    def table(self) -> Table:
        """The session as it is now, read under its lock."""
        from cpscore.errors import CpscoreError, EnvironmentFailure
        from cpscore.play import read_locked

        try:
            data = read_locked(self.target)
        except CpscoreError as error:  # not a file a session can be (FileRefused)
            raise InputError(str(error)) from None
        except EnvironmentFailure as error:
            raise EnvironmentError_(str(error)) from None
        return self.table_of(data)

    def table_of(self, data: bytes | None) -> Table:
        """The session of these bytes (None: no file yet)."""
        from cpscore.errors import CpscoreError
        from cpscore.play import read_table

        try:
            return read_table(self.target, data, self.chosen)
        except CpscoreError as error:
            raise InputError(str(error)) from None

    def begin(self, players: tuple[str, ...]) -> None:
        from cpscore.amounts import text as number
        from cpscore.errors import CpscoreError
        from cpscore.play import JOIN, choose_seats
        from cpscore.session import seat_names

        table = self.table()
        if self.rules_text and table.text.strip():
            raise InputError(
                f"{self.target} already exists: --rules only starts a new session file (its @rules header)"
            )
        try:
            self.seats = choose_seats(table, seat_names(players, "--players"))
            # The seats are written (@players) when the session names its seats, or --players starts them.
            # (--players on a night without seats only orders this run's questions).
            self.named = table.ledger.seats is not None or (bool(players) and not table.deals)
        except CpscoreError as error:
            raise InputError(str(error)) from None
        if table.ledger.over is not None:
            raise InputError(table.ledger.over)
        stake = f", stake {number(table.ledger.stake)} a unit" if table.money else ""
        so_far = f"{table.deals} deal{'s' if table.deals != 1 else ''} so far" if table.deals else "no deal yet"
        click.echo(f"Session {self.target}: rules {table.rules.id}{stake}, {so_far}.")
        click.echo(f"'{JOIN}NAME' seats a newcomer; Ctrl-C starts the deal again; Ctrl-D ends.")

    def deal(self) -> bool:
        """Enter one deal, show it, save it when asked; False: the session is over."""
        from cpscore.play import Round

        self.entering = self.saved = False
        try:
            table = self.table()
            click.echo(f"\nDeal {table.number}: {', '.join(self.seats)}")
            playing = table.ledger.fantasyland
            for name in self.seats:
                if name in playing:
                    click.echo(f"{name} plays this deal in Fantasyland.")
            deal = Round(self.seats, table.rules, list(playing))
            self._hands(deal, table)
            return self._settle(deal, table)
        except (_Abandon, KeyboardInterrupt):
            if self.saved:  # Ctrl-C while the standings were printed: the deal is in the file
                click.echo()
                return True
            click.echo("Deal abandoned: nothing was saved; it starts again.")
            return True

    def _hands(self, deal: Round, table: Table) -> None:
        """Ask each seat in turn until every hand is in, checking each one."""
        from cpscore.errors import CpscoreError
        from cpscore.play import hand_prompt, joining, seat, sits_out_reason

        rules = table.rules
        while True:
            for left in deal.fill():
                click.echo(f"{left} sits out: {sits_out_reason(rules)}.")
            name = deal.pending()
            if name is None:
                return
            text = _line(hand_prompt(name, rules)).strip()
            if not text:
                continue
            newcomer = joining(text)
            try:
                if newcomer is not None:
                    joined = seat(self.seats, newcomer, table.ledger.owners)
                    click.echo(f"{joined} joins the table, after {self.seats[-2]}.")
                    continue
                typed = deal.check(name, text)
            except CpscoreError as error:
                click.echo(f"Error: {error}")
                continue
            if typed.warning is not None:
                click.echo(f"Warning: {typed.warning}")
                if not _yes(f"Keep {name}'s hand?", False):
                    continue
            for note in typed.notes:
                click.echo(f"Note: {note}")
            deal.commit(typed)
            self.entering = True

    def _settle(self, deal: Round, table: Table) -> bool:
        """Show the deal's settlement; save it when asked, at the terms shown;
        print the standings.  ``table``: the session when the deal began."""
        from cpscore import session_views
        from cpscore.errors import CpscoreError, EnvironmentFailure
        from cpscore.night import Append, Changed, Repeat, terms
        from cpscore.safefile import rewrite
        from cpscore.session import seats_text

        try:
            table = self.table()  # read again: another add may have landed meanwhile
        except click.ClickException:
            pass  # the file changed for the worse (read-only): the save says so, and can be tried again
        # The seats are written before the deal when they changed (a newcomer, --players).
        seats = tuple(self.seats) if self.named and tuple(self.seats) != table.ledger.seats else ()
        again = False

        def append(expect: str | None = None) -> Append:
            return Append(
                self.target,
                deal.entries(),
                self.chosen,
                self.rules_text,
                new_player=deal.newcomers(table.ledger.players()),
                players=[seats_text(seats)] if seats else [],
                again=again,
                expect=expect,
            )

        while True:  # the deal as it would be saved now: the preview is the append, not written
            shown = append()
            try:
                shown(table.data)
            except Repeat as repeat:
                click.echo(f"Warning: deal {repeat.number} ({repeat.digest}) had these same hands.")
                if again or not _yes("Was this deal really dealt twice?", False):
                    click.echo("Not saved: the deal starts again.")
                    return True
                again = True
                continue
            except CpscoreError as error:
                click.echo(f"Error: {error}")
                click.echo("The deal starts again.")
                return True
            break
        assert shown.result is not None  # the append was made, in memory
        self._show(shown.result, table.ledger, shown.money)
        expect = terms(shown.result)
        written: list[bytes] = []
        while True:
            if not _yes("Save this deal?", True):
                click.echo("Not saved: the deal starts again.")
                return True
            saving = append(expect)

            def change(current: bytes | None, saving: Append = saving) -> bytes:
                new = saving(current)
                written.append(new)
                return new

            try:
                with _uninterrupted():
                    rewrite(self.target, change)
            except Changed as changed:  # another writer meanwhile: show the deal as it would now be
                written.clear()
                click.echo(f"Warning: {changed}")
                self._show(changed.result, table.ledger, True)
                expect = terms(changed.result)
                continue
            except (CpscoreError, EnvironmentFailure) as error:
                written.clear()
                click.echo(f"Error: {error}")
                continue
            break
        self.added += 1
        self.entering, self.saved = False, True
        self.chosen = self.rules_text = None  # the file has its @rules header now
        assert saving.result is not None  # saved
        click.echo(f"Added {session_views.deal_summary(saving.result, self.target, 'to', saving.money)}.")
        notes = {note for typed in deal.answers.values() for note in typed.notes}
        for warning in saving.warnings:
            if warning not in notes:
                click.echo(f"Warning: {warning}")
        after = self.table_of(written[-1])
        click.echo()
        click.echo(session_views.render_totals(after.ledger, self.style, after.money), nl=False)
        return after.ledger.over is None

    def _show(self, result, ledger, money: bool) -> None:
        """A deal's settlement, as the table of ``cpscore score`` shows it."""
        from cpscore import formatting

        click.echo()
        click.echo(
            formatting.render_table(result.settlement, self.style, self.colour, money, bool(ledger.pair_stakes)),
            nl=False,
        )
        click.echo()

    def end(self) -> None:
        unsaved = "the deal being entered was not saved; " if self.entering else ""
        count = f"{self.added} deal{'s' if self.added != 1 else ''}" if self.added else "no deal"
        click.echo(f"Ended: {unsaved}{count} added to {self.target}.")


@click.command(name="play", add_help_option=False)
@help_option
@click.argument("target", metavar="FILE", shell_complete=completer("files"))
@click.option(
    "--players",
    multiple=True,
    metavar="NAMES",
    shell_complete=completer("players"),
    help="The seats, in order: names separated by spaces, or by commas for a name with a space "
    "(default: the players of the session's last deal).",
)
@new_file_rules_option()
@style_option
def play(target, players, rules_text, style) -> None:
    """Enter deals at the table, hand by hand, each appended to FILE.

    Each seat is asked for its hand in turn (front / middle / back,
    'surrender', or '-' to sit the deal out); every hand is checked as it is
    typed (cards, rows, a card already in another hand of the deal) and a
    foul must be confirmed.  Then the deal's settlement is shown and, when
    you say so, appended as 'cpscore add' appends (locked and atomic), and
    the running totals are printed.  The seats are the players of the last
    deal, or --players; '+NAME' at a prompt seats a newcomer.  Ctrl-C drops
    the deal being entered (the file is untouched) and starts it again;
    Ctrl-D ends.

        cpscore play night.txt --players "Amy Bob Cy"
    """
    gc.enable()  # a run lasts the night: normal collection
    check_style(style)
    try:
        chosen = load_rules(click.get_current_context(), None, rules_text) if rules_text else None
    except click.BadParameter as error:
        error.param_hint = "'--rules'"
        raise
    run = _Play(target, chosen, rules_text, style)
    run.begin(players)
    _line_editing()
    try:
        while run.deal():
            pass
    except _End:
        pass
    except KeyboardInterrupt:  # between two deals: nothing is being entered
        click.echo()
    run.end()


command = play
