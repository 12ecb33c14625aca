"""The web application of ``cpscore serve``: a Bottle app over one session file.

Every answer is made by the library calls the commands make, so the page says
what the CLI says: the night is read and settled as ``cpscore session`` reads
it (:func:`cpscore.commands.session._start_night` and ``_take_deals``) and its
data is the JSON ``cpscore session --format json`` prints; a draft deal is
checked hand by hand as ``cpscore play`` checks it (:class:`cpscore.play.Round`)
and settled as the session will read it back (:func:`cpscore.play.preview`); a
save is ``cpscore add``'s locked, atomic append (:class:`cpscore.session.Append`
through :func:`cpscore.safefile.rewrite`), an undo ``cpscore undo``'s
(:class:`cpscore.edits.Removal`), an explanation ``--explain-pair``'s
(:func:`cpscore.explain.explain`).  Errors are the same one-line messages, as
``{"error": "...", "field": "..."}`` (``field``: the seat, ``players``,
``deal`` or ``pair`` the page shows it beside, or null).

The routes:

=================  =========================================================
``GET /``          the page (``static/index.html``); with the right
                   ``?token=``, it sets the token cookie for what follows
``GET /static/*``  the page's script and style sheet
``GET /api/state`` the table (rules, stakes, seats, Fantasyland, the next
                   deal's number) and the session's JSON
``POST /api/check``  a draft deal checked: each seat's error, foul, natural;
                   the deal settled when every hand is in
``POST /api/save`` the draft appended (``expect``: the number it must get)
``POST /api/undo`` the last deal removed (``expect``: its number)
``GET /api/explain?deal=N&a=A&b=B``  one pair of one deal explained
=================  =========================================================

Safety: a request body is JSON of at most :data:`MAX_BODY` bytes (413 over
it, 411 without a length); a POST must say ``application/json``, which a
page of another site cannot send without the browser asking first; served on
the loopback address, requests must name it as their host (a page of another
site cannot reach the server through a name of its own); shared, every
request must carry the token (query, header or cookie), compared in
constant time, else 403.  The app writes nothing but the session file (and
the lock file beside it, as ``add`` does).
"""

from __future__ import annotations

import functools
import hmac
import json
import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import bottle

from cpscore.errors import CpscoreError, DealError, EnvironmentFailure, shown

if TYPE_CHECKING:
    from cpscore.play import Round, Table
    from cpscore.session import DealResult

#: The largest request body taken, in bytes (a deal is well under 2 KiB).
MAX_BODY = 64 * 1024

#: The page's files, shipped in the package.
STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
_FILES = {"app.js": "text/javascript", "style.css": "text/css"}


def is_loopback(host: str) -> bool:
    """Whether a host name or address is this machine's loopback (127.0.0.0/8, ::1, localhost).

    >>> [is_loopback(host) for host in ("127.0.0.1", "127.0.0.2", "::1", "localhost", "0.0.0.0", "evil.example")]
    [True, True, True, True, False, False]
    """
    import ipaddress

    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


#: The cookie and header that carry the token once the page is open.
TOKEN_COOKIE = "cpscore_token"
TOKEN_HEADER = "X-Cpscore-Token"


class Failure(Exception):
    """An answer that is an error: its HTTP status, message and field."""

    def __init__(self, status: int, message: str, field: str | None = None, **extra: object) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.field = field
        self.extra = extra


# Reading the night -----------------------------------------------------------------


def _read(target: str) -> bytes | None:
    """The session file's bytes (None: it is gone).  Read without the lock:
    every write replaces the file whole (an atomic rename), so a read sees
    one version or the next, never half of one."""
    try:
        with open(target, "rb") as file:
            return file.read()
    except FileNotFoundError:  # serve started it: gone since, it is not a new night
        raise Failure(
            409,
            f"{os.path.basename(target)} is gone (deleted or renamed while served): put it back, or start "
            "cpscore serve again",
        ) from None
    except OSError as error:
        raise EnvironmentFailure(f"cannot read {target}: {error.strerror or error}") from None


def night(target: str) -> tuple[Table, list[DealResult]]:
    """The session as ``cpscore session`` reads it: the table after its deals
    (as ``cpscore play`` sees it before the next one) and every deal's result."""
    import click

    from cpscore.commands._options import _NOTES
    from cpscore.commands.session import _InvalidDeals, _start_night, _take_deals
    from cpscore.play import Table
    from cpscore.session import Spool
    from cpscore.textio import decode, split_lines

    data = _read(target)
    try:
        text = decode(data or b"", target)
        ledger, deals, money, _ = _start_night(split_lines(text, target), target, target, None, None, (), False, None)
        spool = Spool()
        try:
            _take_deals(
                ledger, deals, target, target, False, lambda text, deal, outcome: spool.put(text, deal, outcome, ledger)
            )
            results = list(spool.results(ledger.rules, ledger.stake))
        finally:
            spool.close()
    except click.ClickException as error:
        raise Failure(400, error.format_message()) from None
    except _InvalidDeals as invalid:
        raise Failure(400, f"{invalid.problems[0]}; fix the session file before adding to it") from None
    except CpscoreError as error:
        raise Failure(400, str(error)) from None
    finally:
        _NOTES.clear()  # the warnings the CLI would print: the page shows the deals' own
    players = tuple(player.seat.name for player in results[-1].settlement.players) if results else ()
    money = money or ledger.restaked
    return Table(target, text, ledger, players, len(results), money), results


def state(target: str) -> str:
    """``GET /api/state``: ``{"table": ..., "session": <cpscore session --format json>}``."""
    from cpscore.formatting import json_text
    from cpscore.play import choose_seats
    from cpscore.rules import to_toml
    from cpscore.session_views import session_json

    table, results = night(target)
    ledger, rules = table.ledger, table.rules
    try:
        seats, seats_error = choose_seats(table, ()), None
    except CpscoreError as error:
        seats, seats_error = [], str(error)
    data = {
        "file": os.path.basename(target),
        "rules": {
            "id": rules.id,
            "summary": rules.summary,
            "toml": to_toml(rules),
            "surrender": rules.surrender is not None,
            "max_players": rules.max_players,
        },
        "stake": ledger.stake,
        "pair_stakes": [{"pair": sorted(pair), "stake": stake} for pair, stake in ledger.pair_stakes.items()],
        "buy_in": ledger.buy_in,
        "money": table.money,
        "seats": seats,
        "seats_error": seats_error,
        "fantasyland": sorted(ledger.fantasyland),
        "next": table.number,
        "over": ledger.over,
    }
    return '{"table": ' + json_text(data, compact=True) + ', "session": ' + "".join(session_json(ledger, results)) + "}"


# A draft deal ----------------------------------------------------------------------


class Draft:
    """A deal as the page sends it, checked: each seat's report, the first
    problem (message, field), and when there is none the deal settled as the
    session's next deal."""

    def __init__(self, target: str, body: dict[str, Any]) -> None:
        from cpscore.play import Round, choose_seats
        from cpscore.session import seat_names, seats_text

        table, _ = night(target)
        self.table = table
        ledger = table.ledger
        if ledger.over is not None:
            raise Failure(400, ledger.over)
        players = _text(body, "players")
        try:
            usual = choose_seats(table, ())
        except CpscoreError:
            usual = []
        try:
            given = seat_names([players], "players") if players.strip() else []
            if given == usual:
                given = []  # the seats as they are: nothing to write
            self.seats = choose_seats(table, given)
        except CpscoreError as error:
            raise Failure(400, str(error), "players") from None
        hands = body.get("hands", {})
        if not isinstance(hands, dict) or not all(isinstance(hand, str) for hand in hands.values()):
            raise Failure(400, "hands must map each seat to its hand's text", None)
        for name in hands:
            if name not in self.seats:
                raise Failure(400, f"{name} is not seated (seats: {', '.join(self.seats)})", "players")
        self.reports: dict[str, dict[str, object]] = {}
        self.problems: list[tuple[str, str | None]] = []
        self.round = Round(self.seats, table.rules, list(ledger.fantasyland))
        for name in self.seats:
            self._check(name, hands.get(name, ""))
        # The seats are written before the deal when they changed (as play writes them).
        named = bool(given) or ledger.seats is not None
        self.seats_line = seats_text(self.seats) if named and tuple(self.seats) != ledger.seats else ""
        self.newcomers = self.round.newcomers(ledger.players())  # before the preview takes the deal in
        self.result: DealResult | None = None
        if not self.problems:
            from cpscore.play import preview

            changes = [("players", self.seats_line, "--players")] if self.seats_line else []
            try:
                self.result = preview(table, self.round.entries(), (), changes)
            except CpscoreError as error:
                self.problems.append((str(error), None))

    def _check(self, name: str, text: str) -> None:
        from cpscore.formatting import natural_text
        from cpscore.play import sits_out_reason

        deal: Round = self.round
        for left in deal.fill():
            self.reports[left] = {"out": sits_out_reason(self.table.rules)}
        if name in deal.answers:
            return
        if not text.strip():
            self.reports[name] = {"empty": True}
            self.problems.append((f"{name}: no hand yet (tap its 13 cards, or type them)", name))
            return
        try:
            typed = deal.check(name, text)
        except CpscoreError as error:
            self.reports[name] = {"error": str(error)}
            self.problems.append((str(error), name))
            return
        deal.commit(typed)
        self.reports[name] = {
            "out": None if typed.entry is not None else "sits out",
            "warning": typed.warning,
            "foul": typed.foul is not None,
            "natural": natural_text(typed.natural) if typed.natural is not None else None,
            "notes": list(typed.notes),
        }

    def data(self) -> dict[str, object]:
        from cpscore.session_views import deal_data

        problem, field = self.problems[0] if self.problems else (None, None)
        return {
            "seats": self.reports,
            "error": problem,
            "field": field,
            "deal": None if self.result is None else deal_data(self.result),
        }


def check(target: str, body: dict[str, Any]) -> dict[str, object]:
    """``POST /api/check``: the draft's reports, and the deal settled when it is whole."""
    return Draft(target, body).data()


def save(target: str, body: dict[str, Any]) -> dict[str, object]:
    """``POST /api/save``: the draft appended as ``cpscore add`` appends it.
    With ``expect``, the deal must get that number: a deal another phone
    saved meanwhile (or the same tap twice) is not saved again."""
    from cpscore.safefile import rewrite
    from cpscore.session import Append

    expect = _number(body, "expect")
    draft = Draft(target, body)
    if draft.problems:
        message, field = draft.problems[0]
        raise Failure(400, message, field, seats=draft.reports)
    append = Append(
        target,
        draft.round.entries(),
        None,
        None,
        new_player=draft.newcomers,
        players=[draft.seats_line] if draft.seats_line else [],
    )

    def change(current: bytes | None) -> bytes:
        new = append(current)
        if expect is not None and append.number != expect:
            raise DealError(
                f"deal {append.number - 1} was saved meanwhile (by another phone?): this deal would be deal "
                f"{append.number}; look at the standings, and save it again if it is not there"
            )
        return new

    rewrite(target, change)
    return {"saved": append.number, "line": append.line, "warnings": list(append.warnings)}


def undo(target: str, body: dict[str, Any]) -> dict[str, object]:
    """``POST /api/undo``: the last deal removed, as ``cpscore undo`` removes
    it; with ``expect``, only when the last deal is that one."""
    from cpscore.edits import Removal
    from cpscore.safefile import rewrite

    expect = _number(body, "expect")
    removal = Removal(target)

    def change(current: bytes | None) -> bytes:
        new = removal(current)
        if expect is not None and removal.number != expect:
            raise DealError(
                f"the last deal is deal {removal.number}, not {expect}: the session changed meanwhile; look again"
            )
        return new

    rewrite(target, change)
    return {"removed": removal.number, "report": removal.report()}


def explanation(target: str, deal: str, a: str, b: str) -> dict[str, object]:
    """``GET /api/explain``: pair A:B of deal N explained, as ``--explain-pair``."""
    from cpscore.deal import named_player
    from cpscore.explain import explain

    if not (deal.isascii() and deal.isdigit() and len(deal) <= 9):
        raise Failure(400, f"{shown(deal, 20)} is not a deal number", "deal")
    number = int(deal)
    _, results = night(target)
    if not 1 <= number <= len(results):
        raise Failure(400, f"deal {number}: {os.path.basename(target)} has {len(results)} deals", "deal")
    settlement = results[number - 1].settlement
    players = [owner.name for owner in settlement.owners]
    try:
        pair = frozenset(named_player(name, players, f"deal {number}") for name in (a, b))
    except CpscoreError as error:
        raise Failure(400, str(error), "pair") from None
    if len(pair) != 2:
        raise Failure(400, "choose two different players", "pair")
    return {"deal": number, "pair": [a, b], "text": explain(settlement, pair)}


def _text(body: dict[str, Any], key: str) -> str:
    value = body.get(key, "")
    if not isinstance(value, str):
        raise Failure(400, f"{key} must be text", key)
    return value


def _number(body: dict[str, Any], key: str) -> int | None:
    value = body.get(key)
    if value is None:
        return None
    if type(value) is not int or value < 1:
        raise Failure(400, f"{key} must be a deal number", key)
    return value


# The application -------------------------------------------------------------------


def _json_answer(data: object, status: int = 200) -> bottle.HTTPResponse:
    from cpscore.formatting import json_text

    body = data if isinstance(data, str) else json_text(data, compact=True)
    return bottle.HTTPResponse(
        body, status, {"Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store"}
    )


def _error(status: int, message: str, field: str | None = None, **extra: object) -> bottle.HTTPResponse:
    from cpscore.commands._options import bounded

    return _json_answer({"error": bounded(message), "field": field, **extra}, status)


def _answered(function: Callable[..., object]) -> Callable[..., bottle.HTTPResponse]:
    """A route whose answer is JSON, and whose errors are one-line JSON errors:
    never a traceback, on the page or on the terminal."""

    @functools.wraps(function)
    def route(*args: object, **kwargs: object) -> bottle.HTTPResponse:
        from cpscore.amounts import _exact_arithmetic

        # Each request has its own thread, whose decimal context starts as Python's
        # default (28 digits, rounding silently): make it exact, as the CLI's thread is.
        _exact_arithmetic()
        try:
            return _json_answer(function(*args, **kwargs))
        except Failure as failure:
            return _error(failure.status, failure.message, failure.field, **failure.extra)
        except CpscoreError as error:
            return _error(400, str(error))
        except EnvironmentFailure as error:
            return _error(503, str(error))
        except Exception as error:  # a bug: one line, as the CLI says it
            from cpscore.commands import _internal_error

            return _error(500, _internal_error(error).format_message())

    return route


def _body() -> dict[str, Any]:
    """The request's JSON object, at most :data:`MAX_BODY` bytes."""
    request = bottle.request
    if not request.content_type.startswith("application/json"):
        raise Failure(415, "send JSON (Content-Type: application/json)")
    if "chunked" in request.get_header("Transfer-Encoding", "").lower():
        raise Failure(411, "send the request with its length (Content-Length)")
    try:
        length = request.content_length
    except ValueError:
        raise Failure(400, "the request's Content-Length is not a number") from None
    if length > MAX_BODY:
        raise Failure(413, f"the request has {length} bytes, over the limit of {MAX_BODY}")
    raw = request.environ["wsgi.input"].read(length) if length > 0 else b""
    if len(raw) < max(length, 0):
        raise Failure(400, "the request was cut short")
    try:
        data = json.loads(raw.decode("utf-8")) if raw.strip() else {}
    except (UnicodeDecodeError, ValueError) as error:
        raise Failure(400, f"the request is not JSON: {error}") from None
    except RecursionError:
        raise Failure(400, "the request is not JSON the page sends: nested too deeply") from None
    if not isinstance(data, dict):
        raise Failure(400, "the request must be a JSON object")
    try:  # text that cannot be written back (a lone surrogate, "\ud800") is refused here, not in an answer
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise Failure(400, "the request holds text that is not Unicode (a lone surrogate)") from None
    return data


def make_app(target: str, token: str | None = None) -> bottle.Bottle:
    """The application over the session file ``target``; with ``token``
    (shared on the network), every request must carry it."""
    app = bottle.Bottle(catchall=True, autojson=False)

    def refused(response: bottle.HTTPError) -> str:
        bottle.response.content_type = "application/json; charset=utf-8"
        return json.dumps({"error": f"{response.status_line}: {bottle.request.method} {bottle.request.path}"})

    app.default_error_handler = refused  # 404, 405: JSON, no page

    @app.hook("before_request")
    def guard() -> None:
        request = bottle.request
        if token is None:
            host = request.get_header("Host", "")
            name = host.rsplit(":", 1)[0] if not host.startswith("[") else host[1:].split("]", 1)[0]
            if not is_loopback(name):
                raise _error(
                    403, f"this server answers on the loopback address, not {host}: use the address it printed"
                )
            return
        given = request.query.get("token") or request.get_header(TOKEN_HEADER) or request.get_cookie(TOKEN_COOKIE)
        if not hmac.compare_digest((given or "").encode("utf-8", "replace"), token.encode()):
            raise _error(403, "this page needs its token: open the address cpscore serve printed, with ?token=...")

    @app.hook("after_request")
    def headers() -> None:
        response = bottle.response
        response.set_header("X-Content-Type-Options", "nosniff")
        response.set_header("Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'")
        response.set_header("Referrer-Policy", "no-referrer")

    @app.get("/")
    def page() -> object:
        answer = bottle.static_file("index.html", root=STATIC, mimetype="text/html", charset="utf-8")
        answer.set_header("Cache-Control", "no-store")
        if token is not None:
            answer.set_cookie(TOKEN_COOKIE, token, httponly=True, samesite="strict", path="/")
        return answer

    @app.get("/static/<name>")
    def asset(name: str) -> object:
        if name not in _FILES:
            return _error(404, f"no such file: {name}")
        return bottle.static_file(name, root=STATIC, mimetype=_FILES[name], charset="utf-8")

    @app.get("/api/state")
    @_answered
    def get_state() -> object:
        return state(target)

    @app.post("/api/check")
    @_answered
    def post_check() -> object:
        return check(target, _body())

    @app.post("/api/save")
    @_answered
    def post_save() -> object:
        return save(target, _body())

    @app.post("/api/undo")
    @_answered
    def post_undo() -> object:
        return undo(target, _body())

    @app.get("/api/explain")
    @_answered
    def get_explain() -> object:
        try:
            query = bottle.request.query.decode()  # UTF-8 (Bottle's raw values are Latin-1)
        except UnicodeError:
            raise Failure(400, "the address is not UTF-8 text") from None
        return explanation(target, query.get("deal", ""), query.get("a", ""), query.get("b", ""))

    return app
