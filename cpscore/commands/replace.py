"""``cpscore replace``: replace deal N of a session file with another deal."""

from __future__ import annotations

import click

from cpscore.commands._options import completer, expect_option, help_option, player_option

#: Where ``cpscore --help`` lists the command (see :mod:`cpscore.commands`).
ORDER = 43


@click.command(name="replace", add_help_option=False)
@help_option
@click.argument("target", metavar="FILE", shell_complete=completer("files"))
@click.argument("number", metavar="N", type=int)
@click.argument("hands", nargs=-1, metavar="[NAME=HAND|HAND]...")
@player_option("surrender", "This player surrenders (repeatable).")
@player_option("waive", "This player waives a natural and plays the rows (repeatable).")
@player_option("new-player", "Allow a player the session has not seen yet (repeatable).")
@expect_option
def replace(target, number, hands, surrender, waive, new_player, expect) -> None:
    """Replace deal N of a session file with another deal.

    The new deal is given as for add (NAME=HAND arguments, or deal-file
    lines on stdin; under @players, the hands alone in the order of the
    seats in force for deal N, '-' for a seat that sits out) and checked as add checks it, against the file's rules
    and its players (a name the session has not seen needs --new-player).
    It takes the old deal's place, and both are printed; everything else in
    the file is kept byte for byte.  The change is locked and atomic, as for
    add; on any error the file is untouched.  The new deal is settled as
    'cpscore session' settles it, in its night (the stake, the bank, the
    stacks and Fantasyland where they stand by then).  With --expect DIGEST
    (the deal's identity, as 'session' shows it), deal N is replaced only
    if it is that deal.

        cpscore replace night.txt 3 "Amy=Ks Kd 4c / ..." "Bob=..." "Cy=..."
    """
    from cpscore.commands.add import add_entries
    from cpscore.commands.remove import make_edit
    from cpscore.edits import replace_deal
    from cpscore.session_views import replacement_report

    def change():
        entries, seated = add_entries(hands)
        return replace_deal(target, number, entries, surrender, waive, new_player, hands=seated, expect=expect)

    make_edit(change, replacement_report)


command = replace
