"""``cpscore serve``: the session file as a web page for the phones at the table.

The web library (Bottle, the ``serve`` extra) is imported when the command
runs, never at the CLI's start-up; the page and its routes are
:mod:`cpscore.web`.
"""

from __future__ import annotations

import click

from cpscore.commands._options import (
    EnvironmentError_,
    InputError,
    completer,
    help_option,
    load_rules,
    new_file_rules_option,
    stake_options,
)

#: Where ``cpscore --help`` lists the command (see :mod:`cpscore.commands`).
ORDER = 46

_EXTRA = "pip install '.[serve]' in cpscore's folder (once cpscore is on PyPI: pip install 'cpscore[serve]')"


def _new_session(target: str, rules_text: str | None, stake, pair_stakes, players: tuple[str, ...]) -> bool:
    """Start ``target`` when it is missing (or empty): its header lines from
    the options, as ``add`` writes them.  True when the file was started.
    With options, an existing session is refused: its header says already."""
    from cpscore.amounts import text
    from cpscore.errors import DealError
    from cpscore.safefile import rewrite
    from cpscore.session import parse_seats, seats_text, stored_rules_path

    header = [f"@rules {stored_rules_path(target, rules_text)}"] if rules_text else []
    if stake is not None:
        header.append(f"@stake {text(stake)}")
    for pair, amount in (pair_stakes or {}).items():
        a, b = sorted(pair)
        header.append(f"@pair-stake {a}:{b}={text(amount)}")
    if players:
        header.append(f"@players {seats_text(parse_seats(players, '--players'))}")
    started = []

    def change(current: bytes | None) -> bytes:
        if current and current.strip():
            if header:
                raise DealError(
                    f"{target} already exists: --rules, --stake, --pair-stake and --players only start a new "
                    "session file (its header); serve it without them, or change the stake with cpscore add --stake"
                )
            raise _Unchanged
        started.append(True)
        return "".join(line + "\n" for line in header).encode("utf-8")

    try:
        rewrite(target, change)
    except _Unchanged:
        pass
    return bool(started)


class _Unchanged(Exception):
    """The session file exists: nothing to write."""


@click.command(name="serve", add_help_option=False)
@help_option
@click.argument("target", metavar="FILE", shell_complete=completer("files"))
@new_file_rules_option("Rules for a new session file (its @rules header).")
@stake_options("The stake of a new session file (its @stake header).", "One pair's stake in a new session file.")
@click.option(
    "--players",
    multiple=True,
    metavar="NAMES",
    shell_complete=completer("players"),
    help="The seats of a new session file, in order (its @players header).",
)
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    metavar="ADDRESS",
    help="Where to listen: 0.0.0.0 (or this machine's address) shares the page on the local network, with a token.",
)
@click.option(
    "--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="The port (0: any free one)."
)
def serve(target, rules_text, stake, pair_stakes, players, host, port) -> None:
    """Serve a session file as a web page for the phones at the table.

    The page enters a deal (tap the cards, or type them), shows a foul or a
    natural before it is saved, saves it with the same locked, atomic
    append as 'cpscore add', and shows the standings, the last deal's
    settlement, the transfers that settle up, any pair's explanation and
    the rules; it can undo the last deal.  FILE is created if missing (with
    --rules, --stake, --pair-stake, --players as its header).  It listens on
    127.0.0.1 (this machine only); --host 0.0.0.0 shares it on the local
    network, and then every request needs the random token in the address
    printed.  Ctrl-C stops it.  Needs the serve extra: pip install '.[serve]' in cpscore's folder.

        cpscore serve night.txt --rules ofc --stake 10 --players "Amy Bob Cy"
        cpscore serve night.txt --host 0.0.0.0 --port 8000
    """
    import gc

    gc.enable()  # a server runs all night: normal collection
    try:
        import bottle  # noqa: F401 - the extra's library: say how to install it before anything else
    except ImportError:
        raise EnvironmentError_(f"cpscore serve needs the web library Bottle: {_EXTRA}") from None
    from cpscore.errors import CpscoreError, EnvironmentFailure

    try:
        if rules_text:
            try:
                load_rules(click.get_current_context(), None, rules_text)
            except click.BadParameter as error:
                error.param_hint = "'--rules'"
                raise
        started = _new_session(target, rules_text, stake, pair_stakes, players)
        _run(target, host, port, started)
    except CpscoreError as error:
        raise InputError(str(error)) from None
    except EnvironmentFailure as error:
        raise EnvironmentError_(str(error)) from None


command = serve


def _run(target: str, host: str, port: int, started: bool) -> None:
    import secrets
    import signal

    from cpscore.web.app import Failure, is_loopback, make_app, night
    from cpscore.web.server import address, make_server, network_address

    try:
        table, _ = night(target)  # a session that cannot be read is refused now, not on the phones
    except Failure as failure:
        raise InputError(failure.message) from None
    token = None if is_loopback(host) else secrets.token_urlsafe(16)
    try:
        server = make_server(make_app(target, token), host, port)
    except (OSError, OverflowError) as error:
        reason = getattr(error, "strerror", None) or error
        raise EnvironmentError_(f"cannot listen on {host}:{port}: {reason}") from None
    bound, chosen = address(server)
    if host in ("0.0.0.0", "::"):
        bound = network_address() or bound
    shown_host = f"[{bound}]" if ":" in bound else bound
    url = f"http://{shown_host}:{chosen}/" + (f"?token={token}" if token else "")
    so_far = f"{table.deals} deal{'s' if table.deals != 1 else ''}" if table.deals else "no deal yet"
    begun = "new session " if started else ""
    click.echo(f"Serving {begun}{target} (rules {table.rules.id}, {so_far}) at {url}")
    if token:
        click.echo("Shared on the local network: the address carries its token; give it only to the table.")
        _qr(url)
    click.echo("Ctrl-C stops the server.", nl=True)
    import sys

    sys.stdout.flush()

    def stop(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    try:
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    # Every save was whole or nothing (an atomic rename): the file is as the last one left it.
    click.echo(f"\nStopped: {target} is as the last save left it.")


def _qr(url: str) -> None:
    """The address as a QR code on the terminal, when segno (the serve
    extra) is installed and the output is a terminal."""
    import sys

    if not sys.stdout.isatty():
        return
    try:
        import segno
    except ImportError:
        return
    segno.make(url, error="l").terminal(out=sys.stdout, compact=True)
