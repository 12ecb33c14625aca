"""The server of ``cpscore serve``: the standard library's WSGI server
(:mod:`wsgiref`), one thread a request.

Requests are answered each in its own thread, so a phone that is slow to
send (or stops halfway) holds up no other.  A request must arrive whole
within :data:`DEADLINE` seconds, however slowly its bytes drip in (else it
is answered 408, or dropped while its headers are still coming), and its
answer must go out within :data:`SEND_TIMEOUT`: a slow phone holds its
thread for a bounded time.  Connections wait in a listen queue of
:data:`BACKLOG`, so a crowd of phones at once is not reset.  A phone that closes
mid-request ends quietly (no traceback on the terminal: nothing went wrong
on the table's side).  Saves from several threads at once are serialised by
the session file's lock (:func:`cpscore.safefile.rewrite`), as concurrent
``cpscore add`` runs are.
"""

from __future__ import annotations

import io
import socket
import time
from socketserver import ThreadingMixIn
from typing import TYPE_CHECKING
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer

if TYPE_CHECKING:
    from wsgiref.types import WSGIApplication

#: Seconds a request may take to arrive whole (its line, headers and body).
DEADLINE = 10
#: Connections waiting to be accepted.
BACKLOG = 256
#: Seconds an answer may take to be sent (a long night's state to a slow phone).
SEND_TIMEOUT = 30


class RequestTimeout(TimeoutError):
    """The request did not arrive whole within :data:`DEADLINE` seconds."""


class _Deadline(io.RawIOBase):
    """A connection's bytes, read until a deadline: each read waits at most the
    time left, and none starts after it (a client that sends a byte now and
    then is stopped too)."""

    def __init__(self, connection: socket.socket, seconds: float) -> None:
        self.connection = connection
        self.end = time.monotonic() + seconds

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        left = self.end - time.monotonic()
        if left <= 0:
            raise RequestTimeout(f"the request did not arrive whole within {DEADLINE} seconds")
        self.connection.settimeout(left)
        try:
            return self.connection.recv_into(buffer)
        except TimeoutError:
            raise RequestTimeout(f"the request did not arrive whole within {DEADLINE} seconds") from None


class _Server(ThreadingMixIn, WSGIServer):
    daemon_threads = True  # a stop does not wait for a phone that never finishes its request
    request_queue_size = BACKLOG

    def handle_error(self, request: object, client_address: object) -> None:
        """A connection that failed (closed, reset, timed out): nothing to print."""


class _Server6(_Server):
    address_family = socket.AF_INET6


class _Answer(io.BufferedIOBase):
    """The connection's writing side: an answer has :data:`SEND_TIMEOUT`
    seconds to go out, whatever time the request's deadline had left."""

    def __init__(self, connection: socket.socket) -> None:
        self.connection = connection

    def writable(self) -> bool:
        return True

    def write(self, data: bytes) -> int:  # type: ignore[override]
        self.connection.settimeout(SEND_TIMEOUT)
        self.connection.sendall(data)
        return len(data)


class _Handler(WSGIRequestHandler):
    def setup(self) -> None:
        super().setup()
        self.rfile = io.BufferedReader(_Deadline(self.connection, DEADLINE))
        self.wfile = _Answer(self.connection)

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
