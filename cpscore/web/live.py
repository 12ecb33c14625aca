"""What ``cpscore serve`` keeps between requests: the settled night, and the
deal being entered at the table.

:class:`Kept` is the session file as last read and settled (through the
library's :class:`cpscore.night.Night`, as :func:`cpscore.play.read_table`
reads it): a request reads the file's bytes; the same bytes cost nothing
more, bytes that only add deals at the end (a save, ``cpscore add``) settle
only the new deals, and anything else (an undo, a replace, an edit by hand)
reads the night again.  Each change gives the night a new version, which
the phones poll for.

:class:`Shared` is the deal being entered: the seats, and each seat's hand
as three rows of slots, its markers, whether its player says it is set, and
which phone holds the seat.  A phone sees the cards of the seats it holds
and only a count and a state ("set") of the others, until every seat is set
(or sits out, or surrenders): then every phone sees every hand and the deal
settled, and any one can save it, once (the deal's save key).

Neither writes anything: the app saves through :class:`cpscore.night.Append`
under the file's lock, as ``cpscore add`` does.  Both are used under the
app's lock (:attr:`Live.lock`), one request at a time.
"""

from __future__ import annotations

import hashlib
import os
import re
import secrets
import threading
from typing import TYPE_CHECKING, Any

from cpscore.errors import CpscoreError, EnvironmentFailure

if TYPE_CHECKING:
    from cpscore.play import Table
    from cpscore.session import DealResult

#: The rows of a hand and their places, front first.
ROWS = (("front", 3), ("middle", 5), ("back", 5))
#: The cards of a hand.
HAND = 13


class Gone(Exception):
    """The session file is gone (deleted or renamed while served)."""


class Invalid(Exception):
    """The session file does not read as a session: the message says where."""


class Kept:
    """The night of one session file, settled once and kept (see the module)."""

    def __init__(self, target: str) -> None:
        self.target = target
        self.data: bytes | None = None  # the bytes last settled
        self.table: Table | None = None
        self.results: list[DealResult] = []
        self.lines: list[str] = []  # each deal as a line of JSON (cpscore session --format jsonl), made once
        # marks[i]: a digest of lines[: i + 1], chained: what a phone holds of the night, named in a few bytes.
        self.marks: list[str] = []
        self.version = 0  # one more at every change of the file
        self.count = 0  # the file's lines, for a later append
        self.reads = self.appends = 0  # how many times the night was read whole, and extended (for the tests)
        self.rules: tuple[int, int, int] | None = None  # the rule file's (inode, size, time) when it was read

    def read(self) -> bytes:
        """The file's bytes, read without the lock: every write replaces the
        file whole (an atomic rename), so a read sees one version or the next."""
        try:
            with open(self.target, "rb") as file:
                return file.read()
        except FileNotFoundError:
            raise Gone from None
        except OSError as error:
            raise EnvironmentFailure(f"cannot read {self.target}: {error.strerror or error}") from None

    def night(self) -> tuple[Table, list[DealResult]]:
        """The night as the file now stands: its table (as ``play`` sees it
        before the next deal) and every deal's result.  Raises :class:`Gone`
        or :class:`Invalid`."""
        data = self.read()
        if self.table is not None and data == self.data and self._rules_stamp(self.table) == self.rules:
            return self.table, self.results
        try:
            try:
                extended = self._extend(data)
            except CpscoreError:  # read whole: its error names the place as session's does
                extended = False
            if not extended:
                self._read_whole(data)
        except CpscoreError as error:
            self.data, self.table, self.results, self.lines, self.marks = None, None, [], [], []
            self.version += 1
            raise Invalid(str(error)) from None
        self.version += 1
        assert self.table is not None
        return self.table, self.results

    def _read_whole(self, data: bytes) -> None:
        from cpscore.play import read_table
        from cpscore.session_views import deal_line

        results: list[DealResult] = []
        table = read_table(self.target, data, keep=results.append)
        table.night.finish()
        self.reads += 1
        self.data, self.table, self.results = data, table, results
        self.rules = self._rules_stamp(table)
        self.lines, self.marks = [], []
        self._more([deal_line(result) for result in results])
        self.count = _line_count(table.text)

    def _extend(self, data: bytes) -> bool:
        """Settle only the deals added at the end of the file (False: the
        file changed otherwise, and is read whole)."""
        from cpscore.play import Table
        from cpscore.session import FIX
        from cpscore.session_views import deal_line
        from cpscore.textio import decode

        old, table = self.data, self.table
        if old is None or table is None or not table.deals or not data.startswith(old) or not old.endswith(b"\n"):
            return False
        if data[len(old) :].startswith(b"\xef\xbb\xbf") or self._rules_stamp(table) != self.rules:
            return False  # a BOM mid-file is a character of the line, as a whole reading says; new rules
        added = decode(data[len(old) :], self.target)
        first = re.split("\r\n|\r|\n", added, maxsplit=1)[0]
        if table.text.strip() and not (first.strip() == "" or _last_line(table.text).strip() == ""):
            return False  # the added lines may go on with the last deal
        night = table.night
        added_results = night.settle_text(added, self.target, self.target, fix=FIX, after=(self.count, night.deals))
        night.warnings.clear()
        night.finish()
        self.appends += 1
        self.results.extend(added_results)
        self._more([deal_line(result) for result in added_results])
        last = self.results[-1] if self.results else None
        players = tuple(player.seat.name for player in last.settlement.players) if last else ()
        text = table.text + added
        self.data, self.table = data, Table(self.target, data, text, night, players)
        self.count = _line_count(text)
        return True

    def _more(self, lines: list[str]) -> None:
        mark = self.marks[-1] if self.marks else ""
        for line in lines:
            mark = hashlib.blake2s((mark + line).encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()
            self.lines.append(line)
            self.marks.append(mark)

    def through(self, count: int | None = None) -> str:
        """``N:MARK``: the first N deals (all: None) as the page holds them, every
        one of them as it was written (a deal replaced, or a stake line
        changed before a deal, gives another mark)."""
        count = len(self.lines) if count is None else count
        return f"{count}:{self.marks[count - 1]}" if count else "0:"

    def since(self, through: str) -> int:
        """How many deals of the night a phone holding ``through`` has as they are (0: none)."""
        number, _, mark = through.partition(":")
        if not (number.isascii() and number.isdigit() and len(number) <= 9):
            return 0
        count = int(number)
        return count if 0 < count <= len(self.marks) and self.marks[count - 1] == mark else 0

    def _rules_stamp(self, table: Table) -> tuple[int, int, int] | None:
        """The rule file the session's ``@rules`` names, as it is now (None: a preset, or no such file)."""
        from cpscore.rules import is_rule_file
        from cpscore.session import session_relative

        header = table.night.header
        if header is None or header.rules is None or not is_rule_file(header.rules):
            return None
        try:
            found = os.stat(session_relative(self.target, header.rules))
        except (OSError, ValueError):
            return None
        return found.st_ino, found.st_size, found.st_mtime_ns


def _line_count(text: str) -> int:
    return len(re.findall("\r\n|\r|\n", text)) + (1 if text and not text.endswith(("\n", "\r")) else 0)


def _last_line(text: str) -> str:
    """The last line of a text that ends with a line end."""
    body = text[:-2] if text.endswith("\r\n") else text[:-1]
    return re.split("\r\n|\r|\n", body)[-1]


# The deal being entered -------------------------------------------------------------


def new_key() -> str:
    """A deal's save key: a retry of its save, from any phone, saves it once."""
    return secrets.token_hex(16)


class SeatHand:
    """One seat's hand as it is being set: three rows of slots (a card's
    text, or None), the markers, whether it is set, the phone holding it and
    its revision (a change names the revision it was made on)."""

    __slots__ = ("rows", "surrender", "waive", "out", "set", "phone", "entered", "rev")

    def __init__(self) -> None:
        self.rows: list[list[str | None]] = [[None] * size for _, size in ROWS]
        self.surrender = self.waive = self.out = self.set = False
        self.phone: str | None = None
        self.entered: str | None = None  # the phone that entered the cards (another that takes the seat sees none)
        self.rev = 0

    def cards(self) -> list[str]:
        return [card for row in self.rows for card in row if card is not None]

    def clear(self) -> None:
        """A new deal: the cards and markers go, the phone keeps its seat."""
        self.rows = [[None] * size for _, size in ROWS]
        self.surrender = self.waive = self.out = self.set = False
        self.entered = None
        self.rev += 1

    def text(self) -> str:
        """The hand as a deal file writes it: the rows, then the markers;
        ``-`` for a seat that sits out."""
        if self.out:
            return "-"
        markers = [name for name, on in (("surrender", self.surrender), ("waive", self.waive)) if on]
        cards = self.cards()
        if self.surrender and len(cards) < HAND:  # a surrender needs no cards: those placed are not sent
            return "surrender"
        if not cards:
            return ""
        rows = " / ".join(" ".join(card or "" for card in row if card) for row in self.rows)
        return "; ".join([rows, *markers])

    def state(self) -> str:
        """What the other phones see: ``out``, ``surrender``, ``set``, ``entering`` or ``empty``."""
        if self.out:
            return "out"
        if self.set:
            return "surrender" if self.surrender else "set"
        return "entering" if self.cards() or self.surrender else "empty"


class Shared:
    """The deal being entered at the table (see the module)."""

    def __init__(self) -> None:
        self.key = new_key()
        self.players = ""  # the seats as a phone gave them ("": the night's)
        self.hands: dict[str, SeatHand] = {}
        self.version = 0
        self.saved: tuple[int, str] | None = None  # the deal this one's key saved last: (number, digest)

    def hand(self, name: str) -> SeatHand:
        found = self.hands.get(name)
        if found is None:
            found = self.hands[name] = SeatHand()
        return found

    def changed(self) -> None:
        self.version += 1

    def seated(self, seats: list[str]) -> None:
        """The seats are ``seats`` now: the hands of those who left are kept
        for their return (a seat given wrongly and given again), unless they
        hold nothing; a table seated over and over keeps at most 256."""
        for name in [name for name in self.hands if name not in seats]:
            hand = self.hands[name]
            if len(self.hands) > 256 or (hand.phone is None and not hand.cards() and not hand.surrender):
                del self.hands[name]

    def revealed(self, seats: list[str]) -> bool:
        """Whether every seat is set, sits out or surrenders: every phone sees every hand."""
        return bool(seats) and all(self.hand(name).out or self.hand(name).set for name in seats)

    def next_deal(self) -> None:
        """The deal was saved: a new one begins, each phone keeping its seat."""
        self.key = new_key()
        for hand in self.hands.values():
            hand.clear()
        self.changed()


def row_slots(value: Any, name: str) -> list[list[str | None]]:
    """The rows a page sends (three lists of 3 / 5 / 5 slots: a card or
    null), read with the CLI's card reader; an error names the seat, row and
    card."""
    from cpscore.cards import parse_card

    if not isinstance(value, list) or len(value) != len(ROWS):
        raise ValueError(f"{name}: rows must be three lists (front, middle, back)")
    rows: list[list[str | None]] = []
    seen: set[str] = set()
    for (row_name, size), row in zip(ROWS, value):
        if not isinstance(row, list) or len(row) != size:
            raise ValueError(f"{name}, {row_name}: {size} places (a card, or null for an empty one)")
        slots: list[str | None] = []
        for card in row:
            if card is None:
                slots.append(None)
                continue
            if not isinstance(card, str) or len(card) > 8:
                raise ValueError(f"{name}, {row_name}: a place holds a card's text or null")
            try:
                code = str(parse_card(card))
            except CpscoreError as error:
                raise ValueError(f"{name}, {row_name}: {error}") from None
            if code in seen:
                raise ValueError(f"{name}, {row_name}: {code} is in the hand twice")
            seen.add(code)
            slots.append(code)
        rows.append(slots)
    return rows


def typed_slots(text: str, name: str) -> tuple[list[list[str | None]], set[str]]:
    """A typed hand (every notation the CLI reads, markers after ``;``) as
    rows of slots, filled from the left, and its markers."""
    from cpscore.cards import parse_rows
    from cpscore.deal import MARKERS

    hand, *rest = text.split(";")
    markers = {marker.strip().lower() for marker in rest if marker.strip()}
    if hand.strip().lower() in MARKERS:
        markers.add(hand.strip().lower())
        hand = ""
    unknown = sorted(markers - {"surrender", "waive"})
    if unknown:
        raise ValueError(f"{name}: unknown marker {unknown[0][:20]!r} (here: surrender, waive)")
    try:
        found = parse_rows(hand, name)
    except CpscoreError as error:
        raise ValueError(str(error)) from None
    rows = [[str(card) for card in row] + [None] * (size - len(row)) for row, (_, size) in zip(found, ROWS)]
    return rows, markers


def phone_id(value: str | None) -> str | None:
    """A phone's id as its page sends it (letters, digits, ``-``; at most 64), else None."""
    if value and len(value) <= 64 and re.fullmatch(r"[A-Za-z0-9-]+", value):
        return value
    return None


class Live:
    """The night and the deal being entered, with the lock that every
    request holds while it uses them."""

    def __init__(self, target: str) -> None:
        self.target = target
        self.kept = Kept(target)
        self.shared = Shared()
        self.lock = threading.RLock()
        self.boot = secrets.token_hex(4)  # a restarted server's versions are not an earlier one's
        # The deal entered, checked whole once every hand is set: ((deal version, night version), the check).
        self.checked: tuple[tuple[int, int], dict[str, object]] | None = None

    def file(self) -> str:
        return os.path.basename(self.target)
