"""``cpscore add``: check a deal and append it to a session file."""

from __future__ import annotations

import click

from cpscore.commands._options import (
    EnvironmentError_,
    InputError,
    _help_option,
    _load_rules,
    _player_option,
    _read_stdin,
    _silence_stdout,
    _warn,
)

#: Where ``cpscore --help`` lists the command (see :mod:`cpscore.commands`).
ORDER = 40


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
    from cpscore.session import DealResult
    from cpscore.session_views import deal_notes

    # What else happened, as the session table notes it: fouls, naturals, a surrender,
    # Fantasyland next, the banker, cuts.
    notes = deal_notes(DealResult(append.number, append.line, append.settlement, {}, None))
    if notes:
        report += f" ({notes})"
    try:
        click.echo(report)
    except OSError as error:  # the deal is in the file: say so, so that nobody adds it again
        _silence_stdout()
        raise EnvironmentError_(f"{report}; but this line could not be printed: {error.strerror}") from None


command = add


def _add_entries(hands):
    from cpscore.deal import entries_from_text, entry_from_argument

    if hands:
        return [entry_from_argument(hand) for hand in hands]
    return entries_from_text(_read_stdin(), "stdin")
