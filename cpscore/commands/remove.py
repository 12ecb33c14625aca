"""``cpscore remove``: remove deal N from a session file."""

from __future__ import annotations

import click

from cpscore.commands._options import (
    EnvironmentError_,
    InputError,
    completer,
    expect_option,
    help_option,
    silence_stdout,
    warn_later,
)

#: Where ``cpscore --help`` lists the command (see :mod:`cpscore.commands`).
ORDER = 42


@click.command(name="remove", add_help_option=False)
@help_option
@click.argument("target", metavar="FILE", shell_complete=completer("files"))
@click.argument("number", metavar="N", type=int)
@expect_option
def remove(target, number, expect) -> None:
    """Remove deal N from a session file, and print it.

    N is the deal's number as 'cpscore session' shows it; the deals after it
    move up one.  Everything else in the file is kept byte for byte:
    headers, stake lines, comments (among the deal's lines too), the other
    deals.  The change is locked and atomic, as for add; on any error the
    file is untouched.  With --expect DIGEST (the deal's identity, as
    'cpscore session' shows it), deal N is removed only if it is that deal.

        cpscore remove night.txt 3 --expect 1a2b3c4d
    """
    from cpscore.edits import remove_deal

    make_edit(lambda: remove_deal(target, number, expect=expect))


command = remove


def make_edit(change, report=lambda done: done.report()) -> None:
    """Make a change of :mod:`cpscore.edits` and print its report: library
    errors become click errors; a report that cannot be printed after the file
    was changed says what was done."""
    from cpscore.errors import CpscoreError, EnvironmentFailure

    try:
        done = change()
    except CpscoreError as error:
        raise InputError(str(error)) from None
    except EnvironmentFailure as error:
        raise EnvironmentError_(str(error)) from None
    for warning in getattr(done, "warnings", ()):
        warn_later(warning)
    lines = report(done)
    try:
        click.echo("\n".join(lines))
    except OSError as error:  # the file is changed: say so, so that nobody changes it again
        silence_stdout()
        raise EnvironmentError_(f"{lines[0]}; but this could not be printed: {error.strerror}") from None
