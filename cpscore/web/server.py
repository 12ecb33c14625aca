"""The server of ``cpscore serve``: the standard library's WSGI server
(:mod:`wsgiref`), one thread a request.

Requests are answered each in its own thread, so a phone that is slow to
send (or stops halfway) holds up no other: a connection quiet for
:data:`TIMEOUT` seconds is dropped, and one the phone closes mid-request
ends quietly (no traceback on the terminal: nothing went wrong on the
table's side).  Saves from several threads at once are serialised by the
session file's lock (:func:`cpscore.safefile.rewrite`), as concurrent
``cpscore add`` runs are.
"""

from __future__ import annotations

import socket
from socketserver import ThreadingMixIn
from typing import TYPE_CHECKING
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer

if TYPE_CHECKING:
    from wsgiref.types import WSGIApplication

#: Seconds a connection may stay silent before it is dropped.
TIMEOUT = 30


class _Server(ThreadingMixIn, WSGIServer):
    daemon_threads = True  # a stop does not wait for a phone that never finishes its request

    def handle_error(self, request: object, client_address: object) -> None:
        """A connection that failed (closed, reset, timed out): nothing to print."""


class _Server6(_Server):
    address_family = socket.AF_INET6


class _Handler(WSGIRequestHandler):
    timeout = TIMEOUT

    def log_message(self, format: str, *args: object) -> None:
        """No line per request on the terminal: the page shows what happened."""


def make_server(app: WSGIApplication, host: str, port: int) -> WSGIServer:
    """A server for ``app`` listening on ``host``:``port`` (0: a free port);
    ``OSError`` when it cannot listen there."""
    kind = _Server6 if ":" in host else _Server
    server = kind((host, port), _Handler)
    server.set_app(app)
    return server


def address(server: WSGIServer) -> tuple[str, int]:
    """The host and port the server listens on (the port chosen, for 0)."""
    host, port = server.server_address[:2]
    return str(host), int(port)


def network_address() -> str | None:
    """This machine's address on the local network, as phones reach it (None:
    none is known).  Found by pointing a UDP socket at a private address,
    which sends nothing."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("10.255.255.255", 1))
            found = probe.getsockname()[0]
    except OSError:
        return None
    return None if found.startswith("127.") or found == "0.0.0.0" else found
