"""``cpscore undo``: remove the last deal of a session file."""

from __future__ import annotations

import click

from cpscore.commands._options import completer, expect_option, help_option

#: Where ``cpscore --help`` lists the command (see :mod:`cpscore.commands`).
ORDER = 41


@click.command(name="undo", add_help_option=False)
@help_option
@click.argument("target", metavar="FILE", shell_complete=completer("files"))
@expect_option
def undo(target, expect) -> None:
    """Remove the last deal of a session file, and print it.

    The deal's lines are printed as they were written.  Everything else in
    the file is kept byte for byte: headers, comments, the other deals; a
    stake line written just before the deal goes with it (it would set the
    stake for no deal).  The change is locked and atomic, as for add; on any
    error the file is untouched.  With --expect DIGEST (the deal's
    identity, as 'add' and 'session' show it), only that deal is removed:
    if the last deal is another by now, nothing is.

        cpscore undo night.txt
    """
    from cpscore.commands.remove import make_edit
    from cpscore.edits import remove_deal

    make_edit(lambda: remove_deal(target, expect=expect))


command = undo
