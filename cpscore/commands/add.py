"""``cpscore add``: check a deal and append it to a session file."""

from __future__ import annotations

import click

from cpscore.commands._options import (
    EnvironmentError_,
    InputError,
    _completer,
    _help_option,
    _load_rules,
    _new_file_rules_option,
    _player_option,
    _read_stdin,
    _silence_stdout,
    _stake_options,
    _warn,
)

#: Where ``cpscore --help`` lists the command (see :mod:`cpscore.commands`).
ORDER = 40


@click.command(name="add", add_help_option=False)
@_help_option
@click.argument("target", metavar="FILE", shell_complete=_completer("files"))
@click.argument("hands", nargs=-1, metavar="[NAME=HAND|HAND]...")
@_new_file_rules_option()
@_player_option("surrender", "This player surrenders (repeatable).")
@_player_option("waive", "This player waives a natural and plays the rows (repeatable).")
@_player_option(
    "new-player", "Allow a player the session has not seen yet (repeatable); under seats, they take the next seat."
)
@click.option(
    "--players",
    multiple=True,
    metavar="NAMES",
    shell_complete=_completer("players"),
    help="The seats, in order, from this deal on (written as a @players line): names separated by spaces, "
    "or by commas for a name with a space.",
)
@_stake_options(
    "The stake from this deal on (written as the @stake header, or a @stake line before the deal).",
    "One pair's stake from this deal on (repeatable; written as a @pair-stake line).",
)
def add(target, hands, rules_text, surrender, waive, new_player, players, stake, pair_stakes) -> None:
    """Check a deal and append it to a session file.

    The deal is NAME=HAND arguments, or deal-file lines on stdin; when the
    session names its seats (@players, or --players), the hands alone, in
    seat order, '-' for a seat that sits out.  It is checked against the
    file's rules, seats and players (a new name is refused unless
    --new-player names it); on any error the file is left untouched.
    The append is locked (concurrent adds wait their turn) and atomic: the
    new contents go to a temporary file beside the file, which is renamed
    over it, so an interrupted write never loses a deal.  A symlink keeps
    pointing at its target, which gets the deal.

        cpscore add night.txt "Amy=Ks Kd 4c / ..." "Bob=..." "Cy=..."
        cpscore add night.txt --players "Amy Bob Cy" "Ks Kd 4c / ..." - "..."
    """
    from cpscore.amounts import signed
    from cpscore.errors import CpscoreError, EnvironmentFailure
    from cpscore.safefile import rewrite
    from cpscore.session import Append

    try:
        entries, seated = _add_entries(hands)
        try:
            chosen = _load_rules(click.get_current_context(), None, rules_text) if rules_text else None
        except click.BadParameter as error:
            error.param_hint = "'--rules'"
            raise
        append = Append(
            target,
            entries,
            chosen,
            rules_text,
            surrender,
            waive,
            new_player,
            hands=seated,
            players=players,
            stake=stake,
            pair_stakes=pair_stakes,
        )
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
    notes = deal_notes(DealResult(append.number, append.line, append.settlement, {}, None, append.changes))
    if notes:
        report += f" ({notes})"
    try:
        click.echo(report)
    except OSError as error:  # the deal is in the file: say so, so that nobody adds it again
        _silence_stdout()
        raise EnvironmentError_(f"{report}; but this line could not be printed: {error.strerror}") from None


command = add


def _add_entries(hands):
    """The deal as (entries, None) when every hand is named (``NAME=HAND``, or
    ``NAME: HAND`` lines on stdin), or ([], hands) for hands in seat order."""
    from cpscore.deal import entries_from_text, entry_from_argument
    from cpscore.errors import DealError

    if hands:
        named = ["=" in hand for hand in hands]
        if all(named):
            return [entry_from_argument(hand) for hand in hands], None
        if any(named):
            raise DealError("give every hand as NAME=HAND, or none (the hands alone, in seat order)")
        return [], list(hands)
    from cpscore.textio import split_lines

    text = _read_stdin()
    lines = [(number, line.split("#", 1)[0].strip()) for number, line in enumerate(split_lines(text, "stdin"), 1)]
    lines = [(number, line) for number, line in lines if line]
    named = [":" in line for _, line in lines]
    if lines and not any(named):
        return [], [line for _, line in lines]
    if not all(named):
        number = next(number for (number, _), has in zip(lines, named) if not has)
        raise DealError(
            f"stdin, line {number}: expected NAME: HAND; give every hand with its name, or none "
            "(the hands alone, in seat order)"
        )
    return entries_from_text(text, "stdin"), None
