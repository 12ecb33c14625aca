"""The web application of ``cpscore serve``: a Bottle app over one session file.

Every answer is made by the library calls the commands make, so the page says
what the CLI says: the night is read and settled as ``cpscore session`` reads
it (:class:`cpscore.night.Night`, through :func:`cpscore.play.read_table`) and
its data is the JSON ``cpscore session --format json`` prints; a draft deal is
checked hand by hand as ``cpscore play`` checks it (:class:`cpscore.play.Round`)
and settled as the session will read it back (the append, made in memory); a
save is ``cpscore add``'s locked, atomic append (:class:`cpscore.night.Append`
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
``POST /api/save`` the draft appended (``key``: the draft's, a retry of a
                   save that landed answers ``already``; ``terms``: those
                   the preview showed; ``again``: a repeat let through)
``POST /api/undo`` the last deal removed (``digest``: the deal shown as
                   last, ``expect``: its number)
``GET /api/explain?deal=N&a=A&b=B``  one pair of one deal explained
``GET /api/chart.svg?lang=L``  the running totals drawn
                   (:func:`cpscore.chart.night_svg`, as ``cpscore
                   session --plot`` draws them); 304 for an unchanged night
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
import hashlib
import hmac
import json
import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import bottle

from cpscore.errors import CpscoreError, DealError, EnvironmentFailure, shown

if TYPE_CHECKING:
    from cpscore.night import Append
    from cpscore.play import Round, Table
    from cpscore.session import DealResult
    from cpscore.web.live import Live

#: The largest request body taken, in bytes (a deal is well under 2 KiB).
MAX_BODY = 64 * 1024
#: The most seats a request may name: checking a deal stays quick however it is sent.
MAX_SEATS = 64

#: The page's files, shipped in the package.
STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
_FILES = {"app.js": "text/javascript", "style.css": "text/css", "words.json": "application/json"}


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
#: The header that names the phone (a random id the page keeps): the seats it holds are its own.
PHONE_HEADER = "X-Cpscore-Phone"


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
        raise _gone(target) from None
    except OSError as error:
        raise EnvironmentFailure(f"cannot read {target}: {error.strerror or error}") from None


def _gone(target: str) -> Failure:
    return Failure(
        409,
        f"{os.path.basename(target)} is gone (deleted or renamed while served): put it back, or start "
        "cpscore serve again",
    )


def night(source: str | Live) -> tuple[Table, list[DealResult]]:
    """The session as ``cpscore session`` reads it (:class:`cpscore.night.Night`):
    the table after its deals (as ``cpscore play`` sees it before the next
    one) and every deal's result.  ``source``: the file's path (read now), or
    the server's :class:`cpscore.web.live.Live` (kept between requests)."""
    from cpscore.play import read_table
    from cpscore.web.live import Gone, Invalid

    if not isinstance(source, str):
        try:
            return source.kept.night()
        except Gone:
            raise _gone(source.target) from None
        except Invalid as error:
            raise Failure(400, str(error)) from None
    data = _read(source)
    results: list[DealResult] = []
    try:
        table = read_table(source, data, keep=results.append)
        table.night.finish()
    except CpscoreError as error:
        raise Failure(400, str(error)) from None
    return table, results


def _target(source: str | Live) -> str:
    return source if isinstance(source, str) else source.target


def table_data(table: Table) -> dict[str, object]:
    """The table as the page shows it: rules, stakes, seats, Fantasyland, the next deal."""
    from cpscore.play import choose_seats
    from cpscore.rules import to_toml

    ledger, rules = table.ledger, table.rules
    try:
        seats, seats_error = choose_seats(table, ()), None
    except CpscoreError as error:
        seats, seats_error = [], str(error)
    return {
        "file": os.path.basename(table.target),
        "rules": {
            "id": rules.id,
            "summary": rules.summary,
            "toml": to_toml(rules),
            "surrender": rules.methods.surrender is not None,
            "max_players": rules.methods.max_players,
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


def state(source: str | Live, since: str = "") -> str:
    """``GET /api/state``: ``{"table": ..., "session": ..., "version": ..., "from": K, "through": ...}``.

    ``session`` is ``cpscore session --format json``'s object with each
    deal written on one line (as ``--format jsonl`` writes it).  ``since``
    (the ``through`` of an earlier answer: ``N:MARK``, the first N deals as
    the page holds them): when those N deals are still as they were (none
    replaced, removed or settled otherwise since), ``deals`` holds only the
    deals after them and ``from`` is N; else every deal, and ``from`` is 0.
    ``through`` names the night's deals as this answer leaves the page."""
    from cpscore.formatting import FORMAT_VERSION, json_text
    from cpscore.session_views import deal_line, totals_data

    table, results = night(source)
    ledger = table.ledger
    if isinstance(source, str):
        lines, start, through = [deal_line(result) for result in results], 0, ""
    else:
        lines, start, through = source.kept.lines, source.kept.since(since), source.kept.through()
    version = "" if isinstance(source, str) else f"{source.boot}-{source.kept.version}"
    totals = json_text(totals_data(ledger), compact=True)
    return (
        '{"format_version": '
        + str(FORMAT_VERSION)
        + ', "table": '
        + json_text(table_data(table), compact=True)
        + ', "version": '
        + json_text(version)
        + ', "from": '
        + str(start)
        + ', "through": '
        + json_text(through)
        + ', "session": {"format_version": '
        + str(FORMAT_VERSION)
        + ', "rules": '
        + json_text(ledger.rules.id)
        + ', "stake": '
        + json_text(ledger.first_stake, compact=True)
        + ', "deals": ['
        + ",".join(lines[start:])
        + "], "
        + totals[1:]
        + "}"
    )


# A draft deal ----------------------------------------------------------------------


class Draft:
    """A deal as the page sends it, checked: each seat's report, the first
    problem (message, field), and when there is none the deal settled as the
    session's next deal."""

    def __init__(self, source: str | Live, body: dict[str, Any]) -> None:
        from cpscore.play import Round
        from cpscore.session import seats_text

        table, _ = night(source)
        self.table = table
        ledger = table.ledger
        if ledger.over is not None:
            raise Failure(400, ledger.over)
        players = _text(body, "players")
        hands = body.get("hands", {})
        listed = players.split(",") if "," in players else players.split()
        if len(listed) > MAX_SEATS or (isinstance(hands, dict) and len(hands) > MAX_SEATS):
            raise Failure(400, f"a table seats at most {MAX_SEATS} players", "players")
        self.seats, given = seats_of(table, players)
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
        self.newcomers = self.round.newcomers(ledger.players())
        self.result: DealResult | None = None
        self.repeat: dict[str, object] | None = None  # the earlier deal with the same hands
        self.again = body.get("again") is True  # it really was dealt twice
        if not self.problems:  # the deal as it would be saved now: the append, made in memory
            from cpscore.night import Repeat

            append = self.append()
            try:
                append(table.data)
            except Repeat as repeat:
                self.repeat = {"deal": repeat.number, "digest": repeat.digest}
                self.problems.append((str(repeat), "again"))
            except CpscoreError as error:
                self.problems.append((str(error), None))
            else:
                self.result = append.result

    def append(self, expect: str | None = None) -> Append:
        """The draft as ``cpscore add`` appends it (``expect``: the terms it was shown at)."""
        from cpscore.night import Append

        return Append(
            self.table.target,
            self.round.entries(),
            None,
            None,
            new_player=self.newcomers,
            players=[self.seats_line] if self.seats_line else [],
            again=self.again,
            expect=expect,
        )

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
        from cpscore.night import terms
        from cpscore.session_views import deal_data

        problem, field = self.problems[0] if self.problems else (None, None)
        return {
            "seats": self.reports,
            "error": problem,
            "field": field,
            "repeat": self.repeat,
            "deal": None if self.result is None else deal_data(self.result),
            # What the save must still find, else the page shows the deal again (cpscore.night.terms).
            "terms": None if self.result is None else terms(self.result),
        }


def seats_of(table: Table, players: str) -> tuple[list[str], list[str]]:
    """The seats of a deal whose seats are given as ``players`` ("": the
    night's), and the names given (none when they are the night's seats)."""
    from cpscore.play import choose_seats
    from cpscore.session import seat_names

    try:
        usual = choose_seats(table, ())
    except CpscoreError:
        usual = []
    try:
        given = seat_names([players], "players") if players.strip() else []
        if given == usual:
            given = []  # the seats as they are: nothing to write
        return choose_seats(table, given), given
    except CpscoreError as error:
        raise Failure(400, str(error), "players") from None


def check(source: str | Live, body: dict[str, Any]) -> dict[str, object]:
    """``POST /api/check``: the draft's reports, and the deal settled when it is whole."""
    return Draft(source, body).data()


#: How many save keys the server remembers (the newest): a retry comes within moments.
KEYS = 1000


def save(source: str | Live, body: dict[str, Any], keys: dict[str, tuple[int, str]]) -> dict[str, object]:
    """``POST /api/save``: the draft appended as ``cpscore add`` appends it.

    ``key`` (made by the page when the draft began): a retry of a save that
    landed (its answer lost on the way) finds its deal in the file and
    answers ``already`` with it, saving nothing.  ``terms``: the terms the
    deal was shown at (:func:`cpscore.night.terms`); if the file changed so
    that the deal would be settled otherwise, nothing is saved and the
    answer (409) has the deal as it would now be, and its new terms.
    ``again``: a deal with an earlier deal's hands really was dealt twice."""
    from cpscore.night import Changed, terms
    from cpscore.safefile import rewrite
    from cpscore.session_views import deal_data

    key = _text(body, "key")[:100]
    expect = body.get("terms")
    if expect is not None and not isinstance(expect, str):
        raise Failure(400, "terms must be text", "terms")
    already = saved_already(source, key, keys)
    if already is not None:
        return already
    draft = Draft(source, body)
    if draft.problems:
        message, field = draft.problems[0]
        raise Failure(409 if draft.repeat else 400, message, field, seats=draft.reports, repeat=draft.repeat)
    append = draft.append(expect)
    try:
        rewrite(_target(source), append)
    except Changed as changed:
        raise Failure(409, str(changed), "deal", deal=deal_data(changed.result), terms=terms(changed.result)) from None
    assert append.result is not None  # saved
    if key:
        keys[key] = (append.number, append.result.digest)
        while len(keys) > KEYS:
            del keys[next(iter(keys))]
    return {"saved": append.number, "digest": append.result.digest, "line": append.line, "warnings": append.warnings}


def saved_already(source: str | Live, key: str, keys: dict[str, tuple[int, str]]) -> dict[str, object] | None:
    """The answer to a save whose key saved a deal still in the file (None: no such deal)."""
    if not key or key not in keys:
        return None
    number, digest = keys[key]
    _, results = night(source)
    # The deal it saved: at its number still, else (a deal before it removed since) the last with its lines;
    # not the first: a deal really dealt twice (again) has an earlier deal's lines, and so its digest.
    same = [result for result in results if result.digest == digest]
    found = next((result for result in same if result.number == number), same[-1] if same else None)
    if found is None:
        return None
    return {"saved": found.number, "digest": found.digest, "already": True, "warnings": []}


def undo(source: str | Live, body: dict[str, Any]) -> dict[str, object]:
    """``POST /api/undo``: the last deal removed, as ``cpscore undo --expect``
    removes it: ``digest`` names the deal the page showed (and ``expect``, its
    number); if the last deal is another by now, nothing is removed."""
    from cpscore.edits import Removal
    from cpscore.safefile import rewrite

    expect = _number(body, "expect")
    digest = _text(body, "digest")
    if not digest:
        raise Failure(400, "digest: name the deal to undo by its digest", "digest")
    target = _target(source)
    removal = Removal(target, None, digest)

    def change(current: bytes | None) -> bytes:
        new = removal(current)
        if expect is not None and removal.number != expect:
            raise DealError(
                f"the last deal is deal {removal.number}, not {expect}: the session changed meanwhile; look again"
            )
        return new

    rewrite(target, change)
    return {"removed": removal.number, "digest": removal.digest, "report": removal.report()}


def explanation(source: str | Live, deal: str, a: str, b: str) -> dict[str, object]:
    """``GET /api/explain``: pair A:B of deal N explained, as ``--explain-pair``."""
    from cpscore.deal import named_player
    from cpscore.explain import explain

    if not (deal.isascii() and deal.isdigit() and len(deal) <= 9):
        raise Failure(400, f"{shown(deal, 20)} is not a deal number", "deal")
    number = int(deal)
    _, results = night(source)
    if not 1 <= number <= len(results):
        raise Failure(400, f"deal {number}: {os.path.basename(_target(source))} has {len(results)} deals", "deal")
    settlement = results[number - 1].settlement
    players = [owner.name for owner in settlement.owners]
    try:
        pair = frozenset(named_player(name, players, f"deal {number}") for name in (a, b))
    except CpscoreError as error:
        raise Failure(400, str(error), "pair") from None
    if len(pair) != 2:
        raise Failure(400, "choose two different players", "pair")
    return {"deal": number, "pair": [a, b], "text": explain(settlement, pair)}


# The deal being entered, shared by the phones (cpscore.web.live.Shared) ---------------


def _deal_seats(live: Live, table: Table) -> tuple[list[str], str | None]:
    """The seats of the deal being entered (and the error that leaves none)."""
    try:
        seats, _ = seats_of(table, live.shared.players)
    except Failure as failure:
        return [], failure.message
    return seats, None


def _hand_report(table: Table, name: str, text: str) -> dict[str, object]:
    """One hand checked on its own (no other seat's cards): its error, foul,
    natural and notes, as ``cpscore play`` says them when it is typed."""
    from cpscore.formatting import natural_text
    from cpscore.play import Round

    if text == "-":
        return {}
    deal = Round([name], table.rules, list(table.ledger.fantasyland))
    try:
        typed = deal.check(name, text)
    except CpscoreError as error:
        return {"error": str(error)}
    # The natural is said once, by the page beside its waive box (not "add '; waive'", which is the CLI's way).
    claim = f"{name}'s hand makes a natural"
    return {
        "warning": typed.warning,
        "foul": typed.foul is not None,
        "natural": natural_text(typed.natural) if typed.natural is not None else None,
        "notes": [note for note in typed.notes if not note.startswith(claim)],
    }


def deal_view(live: Live, phone: str | None) -> dict[str, object]:
    """``GET /api/deal``: the deal being entered as this phone sees it: every
    seat's state and count; the cards of the seats it holds (of every seat
    once all are set), each checked alone; and once all are set, the deal
    checked and settled as it would be saved (``check``, as ``/api/check``)."""
    from cpscore.session import seats_text

    shared = live.shared
    table, _ = night(live)
    seats, error = _deal_seats(live, table)
    revealed = shared.revealed(seats)
    fantasyland = table.ledger.fantasyland
    views = []
    for name in seats:
        hand = shared.hand(name)
        view: dict[str, object] = {
            "name": name,
            "state": hand.state(),
            "count": len(hand.cards()),
            "held": None if hand.phone is None else "me" if hand.phone == phone else "other",
            "rev": hand.rev,
            "fantasyland": name in fantasyland,
        }
        # Every hand once all are set, but for cards that are not in the deal (a seat that sits out,
        # a surrender with cards placed): those stay their phone's.
        dealt = not hand.out and not (hand.surrender and len(hand.cards()) < 13)
        if (revealed and dealt) or (hand.phone is not None and hand.phone == phone):
            text = hand.text()
            view.update(rows=hand.rows, surrender=hand.surrender, waive=hand.waive, out=hand.out, set=hand.set)
            complete = hand.out or hand.surrender or view["count"] == 13
            view["report"] = _hand_report(table, name, text) if complete and text else {}
        views.append(view)
    data: dict[str, object] = {
        "boot": live.boot,
        "version": shared.version,
        "night": f"{live.boot}-{live.kept.version}",
        "key": shared.key,
        "next": table.number,
        "players": shared.players or (seats_text(seats) if seats else ""),
        "players_error": error,
        "seats": views,
        "revealed": revealed,
        "check": None,
    }
    if revealed:
        data["check"] = _revealed_check(live, seats)
    return data


def _shared_body(live: Live, seats: list[str], again: bool = False) -> dict[str, Any]:
    shared = live.shared
    return {"players": shared.players, "hands": {name: shared.hand(name).text() for name in seats}, "again": again}


def _revealed_check(live: Live, seats: list[str]) -> dict[str, object]:
    """The whole deal checked (:class:`Draft`), kept for the version of the
    deal and of the night it was made on: every phone polls for it."""
    mark = (live.shared.version, live.kept.version)
    if live.checked is not None and live.checked[0] == mark:
        return live.checked[1]
    checked = Draft(live, _shared_body(live, seats)).data()
    if checked["repeat"]:  # the deal as it would be saved if it really was dealt twice
        twice = Draft(live, _shared_body(live, seats, again=True)).data()
        checked["deal"], checked["terms"] = twice["deal"], twice["terms"]
    live.checked = (mark, checked)
    return checked


def seats_change(live: Live, body: dict[str, Any]) -> dict[str, object]:
    """``POST /api/deal/seats``: the deal's seats, as ``--players`` names them ("": the night's)."""
    players = _text(body, "players")
    if len(players.split(",") if "," in players else players.split()) > MAX_SEATS:
        raise Failure(400, f"a table seats at most {MAX_SEATS} players", "players")
    table, _ = night(live)
    seats, _ = seats_of(table, players)  # an error names the seats
    live.shared.players = players.strip()
    live.shared.seated(seats)
    live.shared.changed()
    return {"version": live.shared.version}


def hand_change(live: Live, body: dict[str, Any], phone: str | None) -> dict[str, object]:
    """``POST /api/deal/hand``: one seat's hand, whole, as the phone now has it.

    ``seat``; ``rev``: the seat's revision the change was made on (another
    phone's change since is a 409 with the seat as it is now); ``take``: the
    phone takes the seat (``force``: from another phone, whose player's phone
    is gone); ``release``: it lets the seat go; ``rows`` (3 / 5 / 5 places,
    a card or null) or ``text`` (a typed hand, every notation the CLI reads,
    filling the rows from the left); ``surrender``, ``waive``, ``out``,
    ``set`` (the player says the hand is done: 13 cards, a surrender or
    sitting out; any later change of the cards unsets it)."""
    from cpscore.web.live import row_slots, typed_slots

    if phone is None:
        raise Failure(400, "this page has no phone id: reload it")
    table, _ = night(live)
    if table.ledger.over is not None:
        raise Failure(400, table.ledger.over)
    seats, error = _deal_seats(live, table)
    if error is not None:
        raise Failure(400, error, "players")
    name = _text(body, "seat")
    if name not in seats:
        raise Failure(400, f"{shown(name, 40)} is not seated (seats: {', '.join(seats)})", "seat")
    shared = live.shared
    hand = shared.hand(name)
    rev = body.get("rev")
    if type(rev) is not int or rev != hand.rev:
        raise Failure(
            409, f"{name}'s hand changed meanwhile (on another phone?): here it is as it is now", name, stale=True
        )
    if hand.phone is not None and hand.phone != phone and body.get("force") is not True:
        raise Failure(
            409, f"{name}'s seat is held by another phone: take it over only if that phone is gone", name, held=True
        )
    if body.get("release") is True:  # the seat let go, nothing else changed
        hand.phone = None
        hand.rev += 1
        shared.changed()
        return {"version": shared.version, "rev": hand.rev}
    cleared = False
    if hand.phone != phone:
        if body.get("take") is not True:
            raise Failure(400, f"{name}'s seat is not held by this phone: take it first", name)
        hand.phone = phone
        # The cards another phone entered are not shown to this one: a seat taken starts empty.
        if hand.entered not in (None, phone) and (hand.cards() or hand.surrender or hand.out):
            hand.clear()
            cleared = True
    if "rows" in body or "text" in body:
        try:
            if "text" in body:
                rows, markers = typed_slots(_text(body, "text"), name)
            else:
                rows, markers = row_slots(body["rows"], name), set()
        except ValueError as error:
            raise Failure(400, str(error), name) from None
        others = {
            card: other
            for other in seats
            if other != name and shared.hand(other).phone == phone and not shared.hand(other).out
            for card in shared.hand(other).cards()
        }
        for row in rows:
            for card in row:
                if card is not None and card in others:
                    raise Failure(400, f"{card} is {others[card]}'s (this phone holds that seat too)", name)
        if rows != hand.rows:
            hand.set = False
        hand.rows = rows
        hand.entered = phone
        hand.surrender = hand.surrender or "surrender" in markers
        hand.waive = hand.waive or "waive" in markers
    for flag in ("surrender", "waive", "out"):
        value = body.get(flag)
        if isinstance(value, bool) and value != getattr(hand, flag):
            setattr(hand, flag, value)
            hand.set = False
            hand.entered = phone
    if flag_on := body.get("set"):
        if flag_on is not True:
            raise Failure(400, "set must be true or false", name)
        count = len(hand.cards())
        if not (hand.out or hand.surrender or count == 13):
            raise Failure(400, f"{name} has {count} of 13 cards: set the hand before saying it is set", name)
        report = _hand_report(table, name, hand.text())
        if report.get("error"):
            raise Failure(400, str(report["error"]), name)
        hand.set = True
    elif body.get("set") is False:
        hand.set = False
    hand.rev += 1
    shared.changed()
    return {"version": shared.version, "rev": hand.rev, "cleared": cleared}


def deal_save(live: Live, body: dict[str, Any], keys: dict[str, tuple[int, str]]) -> dict[str, object]:
    """``POST /api/deal/save``: the deal being entered saved, once all are set
    (``key``: the deal's, as the page was shown it; ``terms`` and ``again``
    as ``/api/save`` takes them).  A new deal begins, each phone keeping its seat."""
    shared = live.shared
    key = _text(body, "key")
    if key != shared.key:
        already = saved_already(live, key, keys)  # a retry, or a second phone: saved once
        if already is not None:
            return already
        if key in keys:
            raise Failure(
                409, "the deal saved with this key is no longer in the file (undone since?): look again", "deal"
            )
        raise Failure(409, "the deal changed meanwhile (saved or begun anew on another phone): look again", "deal")
    table, _ = night(live)
    seats, error = _deal_seats(live, table)
    if error is not None:
        raise Failure(400, error, "players")
    waiting = [name for name in seats if not (shared.hand(name).set or shared.hand(name).out)]
    if waiting:
        raise Failure(400, f"not every hand is set yet: {', '.join(waiting)}", "deal")
    request = {**_shared_body(live, seats, body.get("again") is True), "key": key, "terms": body.get("terms")}
    answer = save(live, request, keys)
    shared.next_deal()
    return answer


def replace(live: Live, body: dict[str, Any]) -> dict[str, object]:
    """``POST /api/replace``: deal ``deal`` replaced, as ``cpscore replace
    --expect`` replaces it: ``digest`` names the deal the page showed (if the
    deal at that number is another by now, nothing changes); ``hands`` maps
    each player to the hand's text (``-`` or empty: not in the deal)."""
    from cpscore.deal import Entry
    from cpscore.edits import Replacement
    from cpscore.safefile import rewrite

    number = _number(body, "deal")
    digest = _text(body, "digest")
    hands = body.get("hands")
    if number is None or not digest:
        raise Failure(400, "name the deal to replace by its number and digest", "deal")
    if not isinstance(hands, dict) or not all(isinstance(text, str) for text in hands.values()):
        raise Failure(400, "hands must map each player to the hand's text", None)
    if len(hands) > MAX_SEATS:
        raise Failure(400, f"a table seats at most {MAX_SEATS} players", "players")
    entries = [Entry(name, text.strip(), "") for name, text in hands.items() if text.strip() not in ("", "-")]
    replacement = Replacement(live.target, number, entries, expect=digest)
    rewrite(live.target, replacement)
    assert replacement.result is not None  # replaced
    return {
        "replaced": replacement.number,
        "digest": replacement.result.digest,
        "was": replacement.digest,
        "warnings": replacement.warnings,
    }


def chart(source: str | Live, language: str = "en") -> str:
    """``GET /api/chart.svg``: each player's running total over the night's
    deals, money when the table plays for money (else units), drawn by
    :func:`cpscore.chart.night_svg` (the drawing ``cpscore session --plot``
    writes), its words in ``language`` (``static/words.json``)."""
    from cpscore.chart import ENGLISH, night_svg

    table, results = night(source)
    money = table.money
    names = [name for name, _, _ in table.ledger.totals()]
    runnings = ({name: total[1 if money else 0] for name, total in result.running.items()} for result in results)
    return night_svg(names, runnings, money=money, words={key: words(language, key) for key in ENGLISH})


@functools.lru_cache(maxsize=1)
def _catalogue() -> dict[str, dict[str, str]]:
    with open(os.path.join(STATIC, "words.json"), encoding="utf-8") as file:
        found: dict[str, dict[str, str]] = json.load(file)
    return found


def words(language: str, key: str) -> str:
    """The page's word ``key`` in ``language`` (``static/words.json``; English
    when the language or its word is missing)."""
    catalogue = _catalogue()
    own = catalogue.get(language, {}) if language in catalogue["languages"] else {}
    return own.get(key) or catalogue["en"][key]


def stats(live: Live) -> dict[str, object]:
    """``GET /api/stats``: the night's statistics, as ``cpscore stats --format json``."""
    from cpscore.formatting import versioned
    from cpscore.stats import Stats
    from cpscore.stats_views import stats_data

    table, results = night(live)
    tally = Stats()
    for result in results:
        tally.add_settlement(result.number, result.settlement)
    return versioned(stats_data(tally, table.rules, table.ledger.first_stake))


def session_download(live: Live) -> str:
    """The session's JSON, as ``cpscore session FILE --format json`` prints it."""
    from cpscore.session_views import deal_json, session_json

    table, results = night(live)
    return "".join(session_json(table.ledger, map(deal_json, results)))


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

    body = _public(data if isinstance(data, str) else json_text(data, compact=True), json=True)
    return bottle.HTTPResponse(
        body, status, {"Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store"}
    )


def _error(status: int, message: str, field: str | None = None, **extra: object) -> bottle.HTTPResponse:
    from cpscore.errors import bounded

    return _json_answer({"error": bounded(_public(message)), "field": field, **extra}, status)


def _public(text: str, json: bool = False) -> str:
    """An answer as the phones may read it: the session file named by its
    name, never by where it lies on the server (its folder, the user's name);
    ``json``: the text is JSON, where the path is written escaped."""
    found = bottle.request.app.config.get("cpscore.places") if bottle.request.environ else None
    if not found:
        return text
    places, name = found
    from cpscore.formatting import json_string

    for place in places:
        text = text.replace(json_string(place)[1:-1], json_string(name)[1:-1]) if json else text.replace(place, name)
    return text


def _places(target: str) -> tuple[list[str], str]:
    """Where the session file lies, as an answer could write it (longest first), and its name."""
    name = os.path.basename(target)
    found = {os.path.realpath(target), os.path.abspath(target), target} - {name}
    return sorted(found, key=len, reverse=True), name


def _answered(function: Callable[..., object]) -> Callable[..., bottle.HTTPResponse]:
    """A route whose answer is JSON, and whose errors are one-line JSON errors:
    never a traceback, on the page or on the terminal."""

    @functools.wraps(function)
    def route(*args: object, **kwargs: object) -> bottle.HTTPResponse:
        from cpscore.amounts import exact_arithmetic

        # Each request has its own thread, whose decimal context starts as Python's
        # default (28 digits, rounding silently): make it exact, as the CLI's thread is.
        exact_arithmetic()
        try:
            return _json_answer(function(*args, **kwargs))
        except Failure as failure:
            return _error(failure.status, failure.message, failure.field, **failure.extra)
        except CpscoreError as error:
            return _error(400, str(error))
        except EnvironmentFailure as error:
            return _error(503, str(error))
        except Exception as error:  # a bug: one line, as the CLI says it
            from cpscore.errors import internal_error

            return _error(500, internal_error(error))

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
    if length < 0 and request.environ.get("CONTENT_LENGTH"):  # -1 alone: no Content-Length, no body
        raise Failure(400, "the request's Content-Length is negative")
    if length > MAX_BODY:
        raise Failure(413, f"the request has {length} bytes, over the limit of {MAX_BODY}")
    try:
        raw = request.environ["wsgi.input"].read(length) if length > 0 else b""
    except TimeoutError as error:  # the server's deadline (cpscore.web.server.DEADLINE)
        raise Failure(408, str(error) or "the request did not arrive whole in time") from None
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
    import urllib.parse

    from cpscore.web.live import Live

    app = bottle.Bottle(catchall=True)
    app.config["json.enable"] = False  # every answer is JSON made here (Bottle 0.13's name for autojson)
    app.config["cpscore.places"] = _places(target)  # named in answers by its name alone (_public)
    live = Live(target)  # the night kept between requests, and the deal being entered

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

    def answer(function: Callable[..., object], *args: object, body: bool = False) -> bottle.HTTPResponse:
        """A route's answer: its body read first (a slow phone holds no lock), then its work under the lock."""

        def work() -> object:
            given = _body() if body else None
            with live.lock:
                return function(*args, given) if body else function(*args)

        return _answered(work)()

    def tagged(made: bottle.HTTPResponse) -> bottle.HTTPResponse:
        """An answer with its tag (ETag, a digest of it): a phone polling with the tag of
        what it shows gets 304 and no body while nothing changed."""
        if made.status_code != 200:
            return made
        tag = '"' + hashlib.blake2s(made.body.encode("utf-8"), digest_size=12).hexdigest() + '"'
        made.set_header("ETag", tag)
        if tag in [part.strip() for part in bottle.request.get_header("If-None-Match", "").split(",")]:
            return bottle.HTTPResponse(status=304, headers={"ETag": tag, "Cache-Control": "no-store"})
        return made

    def phone() -> str | None:
        from cpscore.web.live import phone_id

        return phone_id(bottle.request.get_header(PHONE_HEADER))

    @app.get("/api/state")
    def get_state() -> object:
        since = bottle.request.query.get("since", "")[:40]

        found: dict[str, object] = {}

        def current() -> object:
            # The night's version names the answer: an unchanged night is answered 304 before any is made.
            with live.lock:
                night(live)
                mark = f"{live.boot}-{live.kept.version}-{since}".encode()
                tag = found["tag"] = '"' + hashlib.blake2s(mark, digest_size=12).hexdigest() + '"'
                if tag in [part.strip() for part in bottle.request.get_header("If-None-Match", "").split(",")]:
                    found["unchanged"] = True
                    return "null"
                return state(live, since)

        made = _answered(current)()
        if made.status_code != 200:
            return made
        if found.get("unchanged"):
            return bottle.HTTPResponse(status=304, headers={"ETag": found["tag"], "Cache-Control": "no-store"})
        made.set_header("ETag", str(found["tag"]))
        return made

    @app.post("/api/check")
    def post_check() -> object:
        return answer(check, live, body=True)

    keys: dict[str, tuple[int, str]] = {}  # save key -> the number and digest of the deal it saved (the newest KEYS)

    @app.post("/api/save")
    def post_save() -> object:
        return answer(lambda given: save(live, given, keys), body=True)

    @app.post("/api/undo")
    def post_undo() -> object:
        return answer(undo, live, body=True)

    @app.get("/api/explain")
    def get_explain() -> object:
        def explained() -> object:
            try:
                query = bottle.request.query.decode()  # UTF-8 (Bottle's raw values are Latin-1)
            except UnicodeError:
                raise Failure(400, "the address is not UTF-8 text") from None
            return explanation(live, query.get("deal", ""), query.get("a", ""), query.get("b", ""))

        return answer(explained)

    @app.get("/api/deal")
    def get_deal() -> object:
        return tagged(answer(deal_view, live, phone()))

    @app.post("/api/deal/seats")
    def post_seats() -> object:
        return answer(seats_change, live, body=True)

    @app.post("/api/deal/hand")
    def post_hand() -> object:
        who = phone()
        return answer(lambda given: hand_change(live, given, who), body=True)

    @app.post("/api/deal/save")
    def post_deal_save() -> object:
        return answer(lambda given: deal_save(live, given, keys), body=True)

    @app.post("/api/replace")
    def post_replace() -> object:
        return answer(replace, live, body=True)

    @app.get("/api/stats")
    def get_stats() -> object:
        return answer(stats, live)

    @app.get("/api/chart.svg")
    def get_chart() -> object:
        # The night's version (and the language) names the drawing: an unchanged night is answered 304.
        language = bottle.request.query.get("lang", "en")[:16]
        from cpscore.amounts import exact_arithmetic

        exact_arithmetic()
        try:
            with live.lock:
                night(live)
                mark = f"chart-{live.boot}-{live.kept.version}-{language}".encode("utf-8", "replace")
                tag = '"' + hashlib.blake2s(mark, digest_size=12).hexdigest() + '"'
                if tag in [part.strip() for part in bottle.request.get_header("If-None-Match", "").split(",")]:
                    return bottle.HTTPResponse(status=304, headers={"ETag": tag, "Cache-Control": "no-store"})
                drawn = chart(live, language)
        except Failure as failure:
            return _error(failure.status, failure.message, failure.field)
        except (CpscoreError, EnvironmentFailure) as error:
            return _error(400 if isinstance(error, CpscoreError) else 503, str(error))
        except Exception as error:  # a bug: one line, as the CLI says it
            from cpscore.errors import internal_error

            return _error(500, internal_error(error))
        headers = {"Content-Type": "image/svg+xml; charset=utf-8", "Cache-Control": "no-store", "ETag": tag}
        return bottle.HTTPResponse(drawn.encode("utf-8"), 200, headers)

    @app.get("/download/<what>")
    def download(what: str) -> object:
        if what not in ("session", "json"):
            return _error(404, f"no such download: {shown(what, 20)} (session, json)")

        from cpscore.amounts import exact_arithmetic

        exact_arithmetic()
        try:
            with live.lock:
                # The file as it is, byte for byte; the JSON as cpscore session --format json prints it.
                data = session_download(live).encode("utf-8") if what == "json" else _read(live.target) or b""
        except Failure as failure:
            return _error(failure.status, failure.message, failure.field)
        except (CpscoreError, EnvironmentFailure) as error:
            return _error(400 if isinstance(error, CpscoreError) else 503, str(error))
        name = live.file() if what == "session" else os.path.splitext(live.file())[0] + ".json"
        kind = "text/plain" if what == "session" else "application/json"
        return bottle.HTTPResponse(
            data,
            200,
            {
                "Content-Type": f"{kind}; charset=utf-8",
                "Content-Disposition": f"attachment; filename*=UTF-8''{urllib.parse.quote(name)}",
                "Cache-Control": "no-store",
            },
        )

    return app
