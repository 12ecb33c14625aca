"""``cpscore pay``: record a payment between two players in a session file."""

from __future__ import annotations

import click

from cpscore.commands._options import (
    EnvironmentError_,
    InputError,
    PositiveAmount,
    completer,
    help_option,
    warn_later,
)

#: Where ``cpscore --help`` lists the command (see :mod:`cpscore.commands`).
ORDER = 44


@click.command(name="pay", add_help_option=False)
@help_option
@click.argument("target", metavar="FILE", shell_complete=completer("files"))
@click.argument("payer", metavar="PAYER", shell_complete=completer("players"))
@click.argument("payee", metavar="PAYEE", shell_complete=completer("players"))
@click.argument("amount", metavar="AMOUNT", type=PositiveAmount("AMOUNT", "a payment hands over some money"))
def pay(target, payer, payee, amount) -> None:
    """Record that PAYER handed PAYEE AMOUNT of money, and print what is still owed.

    The payment is written at the end of the session file as a line
    '@paid PAYER PAYEE AMOUNT': the night's totals stay as the deals made
    them, and settle-up (session, standings, the page) pays only what is
    still owed.  Both players must have played a deal of the file, written
    as it spells them.  The append is locked and atomic, as for add; to take
    a payment back, delete its line.

        cpscore pay night.txt Bob Amy 20
    """
    import os.path

    from cpscore.errors import CpscoreError, EnvironmentFailure
    from cpscore.night import Pay
    from cpscore.safefile import rewrite
    from cpscore.session_views import transfers_text

    if not os.path.lexists(target):  # before the rewrite, which would leave its lock file behind
        raise InputError(f"{target}: no such file: a payment is recorded in the session file of the night")
    change = Pay(target, payer, payee, amount)
    try:
        rewrite(target, change)
    except CpscoreError as error:
        raise InputError(str(error)) from None
    except EnvironmentFailure as error:
        raise EnvironmentError_(str(error)) from None
    night = change.night
    assert night is not None  # the payment was written
    for warning in night.warnings:
        warn_later(warning)
    from cpscore.amounts import text

    owed = night.ledger.balances()[payer]
    if owed > 0 and owed > change.before.get(payer, 0):  # never silent: a typo would turn a debt around
        warn_later(f"{payer} has now paid {text(min(owed, amount))} more than they owed: {payee} owes it back")
    click.echo(f"recorded in {target} (line {change.line}): {change.text}")
    click.echo(transfers_text(night.ledger))


command = pay
