"""``cpscore undo``: remove the last deal of a session file."""

from __future__ import annotations

import click

from cpscore.commands._options import _completer, _help_option

#: Where ``cpscore --help`` lists the command (see :mod:`cpscore.commands`).
ORDER = 41


@click.command(name="undo", add_help_option=False)
@_help_option
@click.argument("target", metavar="FILE", shell_complete=_completer("files"))
def undo(target) -> None:
    """Remove the last deal of a session file, and print it.

    The deal's lines are printed as they were written.  Everything else in
    the file is kept byte for byte: headers, comments, the other deals; a
    stake line written just before the deal goes with it (it would set the
    stake for no deal).  The change is locked and atomic, as for add; on any
    error the file is untouched.

        cpscore undo night.txt
    """
    from cpscore.commands.remove import _edit
    from cpscore.edits import remove_deal

    _edit(lambda: remove_deal(target))


command = undo
