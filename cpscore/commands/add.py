"""``cpscore add``: check a deal and append it to a session file."""

from __future__ import annotations

import click

from cpscore.commands._options import (
    EnvironmentError_,
    InputError,
    buy_in_option,
    completer,
    help_option,
    load_rules,
    new_file_rules_option,
    player_option,
    read_stdin,
    silence_stdout,
    stake_options,
    warn_later,
)

#: Where ``cpscore --help`` lists the command (see :mod:`cpscore.commands`).
ORDER = 40


@click.command(name="add", add_help_option=False)
@help_option
@click.argument("target", metavar="FILE", shell_complete=completer("files"))
@click.argument("hands", nargs=-1, metavar="[NAME=HAND|HAND]...")
@new_file_rules_option()
@player_option("surrender", "This player surrenders (repeatable).")
@player_option("waive", "This player waives a natural and plays the rows (repeatable).")
@click.option(
    "--dealer",
    metavar="NAME",
    shell_complete=completer("hands"),
    help="This player dealt the deal (written as '; dealer' after their hand).",
)
@player_option(
    "new-player", "Allow a player the session has not seen yet (repeatable); under seats, they take the next seat."
)
@click.option(
    "--players",
    multiple=True,
    metavar="NAMES",
    shell_complete=completer("players"),
    help="The seats, in order, from this deal on (written as a @players line): names separated by spaces, "
    "or by commas for a name with a space.",
)
@stake_options(
    "The stake from this deal on (written as the @stake header, or a @stake line before the deal).",
    "One pair's stake from this deal on (repeatable; written as a @pair-stake line).",
)
@click.option(
    "--date",
    metavar="YYYY-MM-DD",
    help="The night's date, for a file with no deal yet (written as its @date header).",
)
@buy_in_option(
    "Table stakes: the money each player brings, for a file with no deal yet (written as its @buy-in header)."
)
@click.option(
    "--again",
    is_flag=True,
    help="Add the deal even if an earlier deal of the session has the same hands (it really was dealt twice).",
)
def add(
    target, hands, rules_text, surrender, waive, dealer, new_player, players, stake, pair_stakes, date, buy_in, again
) -> None:
    """Check a deal and append it to a session file.

    The deal is NAME=HAND arguments, or deal-file lines on stdin; when the
    session names its seats (@players, or --players), the hands alone, in
    seat order, '-' for a seat that sits out; or each player's result in
    units, without cards (Amy=+6 Bob=-6, summing to zero).  It is checked against the
    file's rules, seats and players (a new name is refused unless
    --new-player names it), and a deal whose hands are those of an earlier
    deal is refused, naming it, unless --again says it was dealt twice; on
    any error the file is left untouched.  The deal is settled as 'cpscore
    session' will settle it (its stake, the bank, caps, Fantasyland), and
    printed with its identity, the digest 'session' shows.
    The append is locked (concurrent adds wait their turn) and atomic: the
    new contents go to a temporary file beside the file, which is renamed
    over it, so an interrupted write never loses a deal.  A symlink keeps
    pointing at its target, which gets the deal.

        cpscore add night.txt "Amy=Ks Kd 4c / ..." "Bob=..." "Cy=..."
        cpscore add night.txt --players "Amy Bob Cy" "Ks Kd 4c / ..." - "..."
        cpscore add night.txt Amy=+6 Bob=-2 Cy=-4 --dealer Amy
        cpscore add night.txt --rules pineapple-ru --buy-in 50 "Amy=..." "Bob=..."
    """
    from cpscore.errors import CpscoreError, EnvironmentFailure
    from cpscore.night import Append
    from cpscore.safefile import rewrite

    try:
        entries, seated = add_entries(hands)
        try:
            chosen = load_rules(click.get_current_context(), None, rules_text) if rules_text else None
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
            again=again,
            dealer=dealer,
            date=date,
            buy_in=buy_in,
        )
        rewrite(target, append)
    except CpscoreError as error:
        raise InputError(str(error)) from None
    except EnvironmentFailure as error:
        raise EnvironmentError_(str(error)) from None
    for warning in append.warnings:
        warn_later(warning)
    assert append.result is not None  # the append was made
    from cpscore.session_views import deal_summary

    report = f"added {deal_summary(append.result, target, 'to', append.money)}"
    try:
        click.echo(report)
    except OSError as error:  # the deal is in the file: say so, so that nobody adds it again
        silence_stdout()
        raise EnvironmentError_(f"{report}; but this line could not be printed: {error.strerror}") from None


command = add


def add_entries(hands):
    """The deal as (entries, None) when every hand is named (``NAME=HAND``, or
    ``NAME: HAND`` lines on stdin), or ([], hands) for hands in seat order."""
    from cpscore.deal import entries_from_text, entry_from_argument
    from cpscore.errors import DealError

    if hands == ("-",):  # '-' is a seat that sits out, not stdin: one such seat is no deal
        raise DealError(
            "'-' alone is one seat that sits out, not stdin: to read the deal from stdin give no hand "
            "(cpscore add FILE < deal.txt); under seats, give every seat's hand, '-' for one that sits out"
        )
    if hands:
        named = ["=" in hand for hand in hands]
        if all(named):
            return [entry_from_argument(hand) for hand in hands], None
        if any(named):
            raise DealError("give every hand as NAME=HAND, or none (the hands alone, in seat order)")
        return [], list(hands)
    from cpscore.textio import split_lines

    text = read_stdin()
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
