"""A night's ledger: many deals in one file, running totals, transfers,
Fantasyland from deal to deal, and the race to 11 (docs/rules.md 9, 10).

A session file is deal files one after another, separated by blank lines.
Optional header lines at the top set the rules, the stakes and the seats, so
the file is self-contained (the command line wins over a header)::

    @rules ofc
    @stake 10
    @pair-stake Amy:Bob=100
    @players Amy Bob

    Amy: ...
    Bob: ...

    Amy: ...
    Bob: ...

Everything here streams: deals are read, settled and handed on one at a time,
and what is kept between deals does not grow with their number.

>>> text = "@rules 1-6\\n\\nA: Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d\\nB: Qs Jd 3c / Th Tc 8d 8s 3d / Kh Qh Jh 8h 2h\\n"
>>> header, deals = read_session(text.splitlines(), "night.txt")
>>> header.rules, [(deal.number, deal.line) for deal in deals]
('1-6', [(1, 3)])
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Iterator, Mapping
from itertools import chain
from typing import Any

from cpscore.amounts import Amount
from cpscore.amounts import text as text_of
from cpscore.deal import Deal, Entry, Names, build_deal, entry_at, look_alike, owner, result_text
from cpscore.errors import CpscoreError, DealError, RulesError, shown
from cpscore.records import Record
from cpscore.rules import RuleSet
from cpscore.scoring import (
    HEAD_TO_HEAD,
    Fantasyland,
    Outcome,
    Settlement,
    Standing,
    kernel,
    settlement_of,
    waive_warnings,
)
from cpscore.settle import Transfer, fewest, rounded

#: What an error about a deal already in a session file says after it, when a command adds to the file.
FIX = "; fix the session file before adding to it"
HEADER_KEYS = ("rules", "stake", "pair-stake", "buy-in", "players", "date", "paid")
#: What a seat's hand is, in seat order, when the seat sits the deal out.
SIT_OUT = "-"
#: Header lines that may also stand between deals: they change the stake, or the
#: seats, from the next deal on; or record a payment between two players (also
#: after the last deal).
CHANGE_KEYS = ("stake", "pair-stake", "players", "paid")


class Header(Record):
    """The settings a session file's header lines give (None: not given), and
    where each was written (``where["stake"]``, and ``pair_where`` for the
    ``@pair-stake`` lines), for errors that name the line."""

    __slots__ = (
        "rules",
        "stake",
        "pair_stakes",
        "where",
        "pair_where",
        "buy_in",
        "players",
        "date",
        "payments",
        "closing",
    )

    def __init__(
        self,
        rules: str | None,
        stake: str | None,
        pair_stakes: tuple[str, ...],
        where: Mapping[str, str] | None = None,
        pair_where: tuple[str, ...] = (),
        buy_in: str | None = None,
        players: str | None = None,
        date: str | None = None,
        payments: tuple[tuple[str, str], ...] = (),
    ) -> None:
        self.rules = rules
        self.stake = stake
        self.buy_in = buy_in  # table stakes: the money each player brings (docs/rules.md 12)
        self.players = players  # the seats, in order, as written (``@players Amy Bob Cy``)
        self.pair_stakes = pair_stakes  # "A:B=AMOUNT" texts, as on the command line
        self.where = where or {}
        self.pair_where = pair_where
        self.date = date  # the night's date, as written (``@date 2026-12-03``): checked by :func:`night_date`
        self.payments = payments  # ``@paid`` lines at the top: (text, where)
        # ``@paid`` lines after the last deal: (key, text, where), filled in once
        # the deals have all been read (the stream is exhausted).
        self.closing: list[tuple[str, str, str]] = []


class DealText(Record):
    """One deal as read from a session: its number, its first line, its entries,
    and the stake lines written between the previous deal and this one
    (``(key, value, where)``: ``stake`` or ``pair-stake``), which take effect
    from this deal on."""

    __slots__ = ("number", "line", "entries", "error", "changes")

    def __init__(
        self,
        number: int,
        line: int,
        entries: list[Entry],
        error: str | None = None,
        changes: tuple[tuple[str, str, str], ...] = (),
    ) -> None:
        self.number = number
        self.line = line
        self.entries = entries
        self.error = error  # the first malformed line of the deal: it cannot be settled
        self.changes = changes


def read_session(lines: Iterable[str], source: str) -> tuple[Header, Iterator[DealText]]:
    """The header, and a stream of the deals that follow it.  ``lines`` may be
    a file's lines (:func:`cpscore.textio.read_lines`); they are read as the
    stream is consumed.  A header given twice is an error naming both lines."""
    lines = iter(lines)
    values: dict[str, str] = {}
    where_of: dict[str, str] = {}
    pair_stakes: list[str] = []
    pair_where: list[str] = []
    payments: list[tuple[str, str]] = []
    number = 0
    first: list[tuple[int, str]] = []
    for number, raw in enumerate(lines, start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if not line.startswith("@"):
            first.append((number, raw))
            break
        key, _, value = line[1:].partition(" ")
        value = value.strip()
        where = f"{source}, line {number}"
        if key not in HEADER_KEYS:
            raise DealError(
                f"{where}: unknown header @{key if len(key) <= 20 else shown(key)} "
                "(headers: @rules, @stake, @pair-stake, @buy-in, @players, @date, @paid)"
            )
        if not value:
            raise DealError(f"{where}: @{key} needs a value")
        if key == "pair-stake":
            pair_stakes.append(value)
            pair_where.append(where)
        elif key == "paid":
            payments.append((value, where))
        elif key in values:
            raise DealError(f"{where}: @{key} is given twice (first at line {where_of[key].rsplit(' ', 1)[1]})")
        else:
            values[key] = value
            where_of[key] = where
    header = Header(
        values.get("rules"),
        values.get("stake"),
        tuple(pair_stakes),
        where_of,
        tuple(pair_where),
        values.get("buy-in"),
        values.get("players"),
        values.get("date"),
        tuple(payments),
    )
    return header, _deals(first, lines, number, source, closing=header.closing)


def read_more(
    lines: Iterable[str], source: str, after: tuple[int, int], closing: list[tuple[str, str, str]] | None = None
) -> Iterator[DealText]:
    """The deals of lines added to the end of a session, ``after`` = (the
    lines it had, the deals they held): the added lines must start a new
    deal (the session's last line, or the first added one, is blank), so
    that every deal read before stays as it was.  Numbers and lines go on
    from there, as a reading of the whole file would give them.  ``@paid``
    lines after the last deal go to ``closing``."""
    lines_before, deals_before = after
    return _deals([], iter(lines), lines_before, source, deals_before, closing)


def _deals(
    first: list[tuple[int, str]],
    lines: Iterator[str],
    number: int,
    source: str,
    count: int = 0,
    closing: list[tuple[str, str, str]] | None = None,
) -> Iterator[DealText]:
    entries: list[Entry] = []
    start = 0

    error: str | None = None
    changes: list[tuple[str, str, str]] = []  # stake lines waiting for the next deal
    for index, raw in chain(first, enumerate(lines, start=number + 1)):
        stripped = raw.strip()
        if not stripped:  # a blank line ends a deal
            if entries or error:
                count += 1
                yield DealText(count, start, entries, error, tuple(changes))
                entries, error, changes = [], None, []
            continue
        line = stripped.split("#", 1)[0].strip() if "#" in stripped else stripped
        if not line:
            continue  # a comment line neither ends nor starts a deal
        where = f"{source}, line {index}" if line[0] == "@" else ""  # a plain line's place: only on an error
        if line[0] == "@" and not entries and error is None:
            # Between deals: a stake line sets the stake, a @players line the seats, from the next deal on.
            key, _, value = line[1:].partition(" ")
            if key in CHANGE_KEYS and value.strip():
                changes.append((key, value.strip(), where))
                continue
            if key in CHANGE_KEYS:
                error = f"{where}: @{key} needs a value"
            elif key in HEADER_KEYS:
                error = f"{where}: @{key} goes at the top of the session, before the first deal"
            else:
                error = f"{where}: unknown line {shown(line, 40)} between deals (here: @stake, @pair-stake, @players, @paid)"
            start = index
            continue
        if not entries and error is None:
            start = index
        if error is not None:
            continue  # the deal is already invalid: its first error is the one reported
        if line[0] == "@":
            key = line[1:].partition(" ")[0]
            if key in CHANGE_KEYS:
                what = {"players": "a @players line", "paid": "a @paid line"}.get(key, "a stake line")
                error = f"{where}: {what} goes between two deals, after a blank line, not inside a deal"
            else:
                error = f"{where}: header lines go at the top of the session, before the first deal"
            continue
        try:
            entries.append(entry_at(line, source, index))
        except DealError as problem:
            error = str(problem)
    if entries or error:
        yield DealText(count + 1, start, entries, error, tuple(changes))
    elif any(key != "paid" for key, _, _ in changes):  # a stake line and no deal after it: it would change nothing
        key, value, where = [change for change in changes if change[0] != "paid"][-1]
        what = "a @players line sets the seats" if key == "players" else "a stake line sets the stake"
        yield DealText(
            count + 1,
            int(where.rsplit(" ", 1)[1]),
            [],
            f"{where}: @{key} {value if len(value) <= 40 else shown(value, 40)} has no deal after it: {what} from the next deal on",
            (),
        )
    elif changes and closing is not None:  # payments after the last deal
        closing.extend(changes)


def deal_digest(text: DealText) -> str:
    """A deal's identity: 8 hex digits of a digest of its own lines (each
    hand's name and text, spaces folded; comments, blank lines and the lines
    before it do not count), so that a command, a phone or a script can name
    the deal it means, whatever its number is by then.

    >>> entry = Entry("A", "Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d", "")
    >>> deal_digest(DealText(1, 3, [entry])) == deal_digest(DealText(7, 9, [entry._replace(text=entry.text + "  ")]))
    True
    """
    import hashlib

    lines = "".join(f"{entry.name}: {' '.join(entry.text.split())}\n" for entry in text.entries)
    return hashlib.blake2s(lines.encode("utf-8", "surrogatepass"), digest_size=4).hexdigest()


def stake_amount(text: str, what: str) -> Amount:
    """A stake as written in a session (``@stake 10``): an exact amount, 0 or more."""
    from cpscore.amounts import AmountError, parse_amount

    try:
        amount = parse_amount(text)
    except AmountError as error:
        raise DealError(f"{what} {error}") from None
    if amount < 0:
        raise DealError(f"{what} {shown(text)} is negative: a stake is an amount of money per unit, 0 or more")
    return amount


def pair_stake(text: str, where: str) -> tuple[frozenset[str], Amount]:
    """``A:B=AMOUNT`` as written on a session's ``@pair-stake`` line."""
    pair, equals, amount = text.partition("=")
    a, colon, b = pair.partition(":")
    a, b = a.strip(), b.strip()
    if not (equals and colon and a and b):
        raise DealError(f"{where}: @pair-stake {shown(text)} is not A:B=AMOUNT (for example Amy:Bob=100)")
    if a == b:
        raise DealError(
            f"{where}: @pair-stake {shown(text)} names {shown(a)} twice: a pair stake is between two players"
        )
    return frozenset((a, b)), stake_amount(amount, f"{where}: @pair-stake stake for {a[:40]}:{b[:40]}")


class Payment(Record):
    """A payment recorded in a session (``@paid Bob Amy 20``): ``payer`` handed
    ``payee`` ``amount`` of money, after deal ``after`` (0: before the first),
    written at ``where``."""

    __slots__ = ("payer", "payee", "amount", "after", "where")

    def __init__(self, payer: str, payee: str, amount: Amount, after: int, where: str) -> None:
        self.payer = payer
        self.payee = payee
        self.amount = amount
        self.after = after
        self.where = where


def parse_payment(text: str, where: str) -> tuple[str, str, Amount]:
    """``PAYER PAYEE AMOUNT`` as written on a ``@paid`` line (``Bob Amy 20``;
    with commas when a name has a space: ``Ann Lee, Bob, 20``): two players
    and an amount of money above 0.

    >>> parse_payment("Bob Amy 20", "x"), parse_payment("Ann Lee, Bob, 2.5", "x")
    (('Bob', 'Amy', 20), ('Ann Lee', 'Bob', Decimal('2.5')))
    """
    from cpscore.deal import check_name

    parts = [part.strip() for part in text.split(",")] if "," in text else text.split()
    if len(parts) != 3 or not all(parts):
        raise DealError(
            f"{where}: @paid {shown(text, 60)} is not PAYER PAYEE AMOUNT (for example @paid Bob Amy 20; "
            "commas between them when a name has a space)"
        )
    payer, payee = check_name(parts[0], where), check_name(parts[1], where)
    if payer == payee:
        raise DealError(f"{where}: @paid names {shown(payer)} twice: a payment is from one player to another")
    for name in (payer, payee):
        if owner(name, where) != name:
            raise DealError(f"{where}: @paid {shown(name)} is a hand, not a player: name the player, {owner(name)}")
    from cpscore.amounts import AmountError, parse_amount

    try:
        amount = parse_amount(parts[2])
    except AmountError as error:
        raise DealError(f"{where}: @paid amount {error}") from None
    if amount <= 0:
        raise DealError(f"{where}: @paid amount {shown(parts[2])} is not above 0: a payment hands over some money")
    return payer, payee, amount


def night_date(header: Header) -> str | None:
    """The night's date (``@date 2026-12-03``): a real day written as
    YYYY-MM-DD, so that nights sort by it; None when not given."""
    if header.date is None:
        return None
    where = header.where.get("date", "")
    where = where if where.startswith("--") else f"{where}: @date"  # an option (add --date), or a line
    if not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", header.date):
        raise DealError(f"{where} {shown(header.date, 40)} is not a date written YYYY-MM-DD (for example 2026-12-03)")
    import datetime

    try:
        datetime.date.fromisoformat(header.date)
    except ValueError:
        raise DealError(f"{where} {header.date} is not a day of the calendar") from None
    return header.date


def seat_names(values: Iterable[str], where: str) -> list[str]:
    """The names of seats, in order, as ``@players`` and ``--players`` give
    them: each value is names separated by spaces, or by commas when it has
    one (a name with a space in it); each is checked as any player name.

    >>> seat_names(["Amy Bob", "Cy"], "--players"), seat_names(["Ann Lee, Bob"], "--players")
    (['Amy', 'Bob', 'Cy'], ['Ann Lee', 'Bob'])
    """
    from cpscore.deal import check_name

    names = []
    for value in values:
        parts = value.split(",") if "," in value else value.split()
        for part in parts:
            if part.strip():
                names.append(check_name(part, where))
    return names


def parse_seats(values: Iterable[str], where: str) -> tuple[str, ...]:
    """The seats a ``@players`` line (or ``--players``) names: two or more
    players, none twice, none written two ways, none a hand label (``Amy[1]``)."""
    names = seat_names(values, where)
    seen = Names()
    for name in names:
        if owner(name, where) != name:
            raise DealError(f"{where}: {shown(name)} is a hand, not a seat: name the player, {owner(name)}")
        if name in seen:
            raise DealError(f"{where}: {name} is seated twice")
        seen.check(name, where)
    if len(names) < 2:
        hint = " (separate names with spaces, or with commas when a name has a space)" if names else ""
        raise DealError(f"{where}: a table seats two players or more{hint}")
    return tuple(names)


def seats_text(seats: Iterable[str]) -> str:
    """Seats as a ``@players`` line writes them (read back by :func:`seat_names`)."""
    seats = list(seats)
    for name in seats:
        if "," in name:
            raise DealError(
                f"player {shown(name)} cannot be seated: a comma separates the names of the seats (@players)"
            )
    return ", ".join(seats) if any(" " in name for name in seats) else " ".join(seats)


def header_seats(header: Header) -> tuple[str, ...] | None:
    """The seats the session's ``@players`` header names (None: none)."""
    if header.players is None:
        return None
    return parse_seats([header.players], f"{header.where['players']}: @players")


def seat_changes(before: tuple[str, ...] | None, after: tuple[str, ...]) -> list[str]:
    """A change of seats in words, as the session table notes it.

    >>> seat_changes(("Amy", "Bob", "Cy"), ("Amy", "Cy", "Dan"))
    ['Dan joins', 'Bob leaves']
    """
    if before is None:
        return [f"seats {seats_text(after)} from here"]
    words = [f"{name} joins" for name in after if name not in before]
    words += [f"{name} leaves" for name in before if name not in after]
    if not words and before != after:
        words.append(f"seats {seats_text(after)} from here")
    return words


def not_seated(entries: Iterable[Entry], seats: Collection[str], where: str = "") -> None:
    """Under ``@players`` every hand of a deal belongs to a seated player."""
    for entry in entries:
        player = owner(entry.name)
        if player not in seats:
            place = entry.where or where
            raise DealError(
                f"{place + ': ' if place else ''}{shown(entry.name)} is not seated (seats: {seats_text(seats)}); "
                "a @players line between deals changes the seats (cpscore add --players, --new-player)"
            )


def seated_entries(
    entries: list[Entry], hands: list[str] | None, seats: tuple[str, ...] | None, target: str
) -> list[Entry]:
    """A new deal's entries (``add``, ``replace``): ``hands`` given to the seats
    in order (``-``: the seat sits out), or ``entries``, whose players must be
    seated when the session names its seats."""
    if hands is None:
        if seats is not None:
            not_seated(entries, seats, "the new deal")
        return entries
    if seats is None:
        raise DealError(
            f"{target} names no seats: give them once with --players (for example --players 'Amy Bob Cy'), "
            "or write each hand as NAME=HAND"
        )
    if len(hands) != len(seats):
        raise DealError(
            f"{len(hands)} hand{'s' if len(hands) != 1 else ''} for {len(seats)} seats "
            f"({seats_text(seats)}): give one per seat, in order, '{SIT_OUT}' for a seat that sits out"
        )
    return [Entry(name, hand, "") for name, hand in zip(seats, hands) if hand.strip() != SIT_OUT]


def seats_before(header: Header, deals: Iterable[DealText]) -> tuple[str, ...] | None:
    """The seats in force for the deal after ``deals`` (those before it, in
    order): the ``@players`` header, changed by each ``@players`` line."""
    seats = header_seats(header)
    for deal in deals:
        for key, value, where in deal.changes:
            if key == "players":
                seats = parse_seats([value], f"{where}: @players")
    return seats


def continued(header: Header, deals: Iterator[DealText], source: str) -> Iterator[DealText]:
    """The deals of a file that continues a night (``session a.txt b.txt``): its
    ``@stake``, ``@pair-stake`` and ``@players`` header lines change the stake
    and the seats from its first deal on, as such lines between deals do."""
    # Its seats are its own: a file without @players names none (an empty value clears them).
    changes = [("players", header.players or "", header.where.get("players", source))]
    changes += [("stake", header.stake, header.where["stake"])] if header.stake is not None else []
    changes += [("pair-stake", text, where) for text, where in zip(header.pair_stakes, header.pair_where)]
    for text in deals:
        if changes:
            text = text._replace(changes=(*changes, *text.changes))
            changes = []
        yield text


def refuse_fantasyland_markers(entries: Iterable[Entry]) -> None:
    """A session follows Fantasyland from deal to deal: a marker would contradict it."""
    for entry in entries:
        text = entry.text  # no card is written with a 'y': only then is the text lowered and searched
        if ("y" in text or "Y" in text) and "fantasyland" in text.lower():
            prefix = f"{entry.where}: " if entry.where else ""
            raise DealError(
                f"{prefix}{entry.name}: in a session Fantasyland is followed from deal to deal; "
                "remove the fantasyland marker"
            )


# Settling a session -----------------------------------------------------------------


class DealResult(Record):
    """One settled deal of a session, with the running totals after it."""

    __slots__ = ("number", "line", "settlement", "running", "race_points", "changes", "source", "digest")

    def __init__(
        self,
        number: int,
        line: int,
        settlement: Settlement,
        running: Mapping[str, tuple[Amount, Amount]],
        race_points: Mapping[str, int] | None,
        changes: tuple[str, ...] = (),
        source: str = "",
        digest: str = "",
    ) -> None:
        self.number = number
        self.digest = digest  # the deal's identity (deal_digest)
        self.line = line
        self.settlement = settlement
        self.source = source  # the deal's file, when a night is several files (else "")
        self.running = running  # player -> (units, money) so far
        self.race_points = race_points  # player -> points this deal, with --race
        self.changes = changes  # the stake and seat changes this deal starts with, in words


class Spool:
    """A session's settled deals as the chosen view writes them
    (:func:`cpscore.session_views.deal_text`: text, or the table's cells and
    notes), kept between the pass that checks the whole file and the pass that
    prints it: each deal is written once, when it is settled, and the printing
    pass copies it out.  They wait in a temporary file, written and read by
    this process only (plain values in :mod:`marshal`'s format, after their
    length), so memory does not grow with the number of deals."""

    def __init__(self) -> None:
        import tempfile

        self.file = tempfile.TemporaryFile()
        self.count = 0
        # The longest amounts of the night (their text, without a sign), for the width of the
        # session table's cells: a deal's units and money, and the units and money so far.
        self.widest: list[int] = [1, 1, 1, 1]

    def put(self, item: Any) -> None:
        """Keep a deal as its view wrote it (plain values: text, numbers, lists)."""
        import marshal

        data = marshal.dumps(item)
        self.file.write(len(data).to_bytes(4, "little") + data)
        self.count += 1

    def measure(self, deal: Deal, outcome: Outcome, ledger: Ledger) -> None:
        """Count a deal the ledger has just taken, shown or not, in the width of the table's cells."""
        units, money = outcome.units, outcome.money
        seats = deal.seats
        if len({seat.owner for seat in seats}) < len(seats):  # criss-cross: a player's hands add up
            by_owner: dict[str, list[Amount]] = {}
            for seat, held, paid in zip(seats, units, money):
                found = by_owner.setdefault(seat.owner, [0, 0])
                found[0] += held
                found[1] += paid
            units, money = [pair[0] for pair in by_owner.values()], [pair[1] for pair in by_owner.values()]
        running_units, running_money = ledger.units, ledger.money
        owners = [seat.owner for seat in seats]
        widest = self.widest
        for place, values in enumerate(
            (units, money, [running_units[name] for name in owners], [running_money[name] for name in owners])
        ):
            longest = widest[place]
            for value in values:
                longest = max(longest, _digits(value))
            widest[place] = longest

    def cell_width(self, show_money: bool) -> int:
        """The width of the widest cell the session table's deal lines can have
        (:class:`cpscore.session_views.DealLines`): ``+U (+T)``, and with money ``+M (+T)``."""
        units, money, total_units, total_money = (width + 1 for width in self.widest)
        return max(units + 2 + total_units + 1, money + 2 + total_money + 1 if show_money else 0)

    def items(self) -> Iterator[object]:
        """The deals kept, in order, as :meth:`put` took them."""
        import marshal

        read = self.file.read
        self.file.seek(0)
        for _ in range(self.count):
            yield marshal.loads(read(int.from_bytes(read(4), "little")))

    def close(self) -> None:
        self.file.close()


def _digits(value: Amount) -> int:
    """How long an amount is written without its sign (``14.4``: 4, whatever its size)."""
    if type(value) is int:
        return len(str(-value if value < 0 else value))
    return len(text_of(-value if value < 0 else value))


class Race(Record):
    """The race to a target of points (docs/rules.md 10): points so far, and the
    winner with the deal that decided it once someone has won."""

    __slots__ = ("target", "points", "winner", "deal")

    def __init__(self, target: int, points: dict[str, int], winner: str | None, deal: int | None) -> None:
        self.target = target
        self.points = points
        self.winner = winner
        self.deal = deal


#: How many stake changes a session's totals list (the rest are counted).
HISTORY = 50


class Ledger:
    """Running state of a session: totals, Fantasyland, the race.  Feed it
    deals in order with :meth:`add`; its memory grows with players, not deals."""

    def __init__(
        self,
        rules: RuleSet,
        stake: Amount = 1,
        pair_stakes: Mapping[frozenset[str], Amount] | None = None,
        race: int | None = None,
        buy_in: Amount | None = None,
        fixed: Collection[str] = (),
        seats: tuple[str, ...] | None = None,
    ) -> None:
        self.rules = rules
        self.stake = stake  # in force for the next deal
        # The seats (``@players``), in force for the next deal: every hand of a deal
        # belongs to one of them (None: the session names none).
        self.seats = seats
        self.pair_stakes = pair_stakes or {}
        # "stake" / "pair-stake" when the command line gave them: the file's lines do not count.
        self.fixed: Collection[str] = fixed
        self.ignored: list[tuple[str, str]] = []  # the file's stake lines the command line replaced
        self.pair_places: dict[frozenset[str], str] = {}  # where each pair stake between deals was given
        self.restaked = False  # a stake line between deals changed the stake
        # The stake changes of the night, (deal, words, file): the first HISTORY of them.
        self.history: list[tuple[int, str, str]] = []
        self.more_history = 0  # changes past those kept
        self.first_stake = stake  # the stake the night started with
        self.first_pairs = dict(self.pair_stakes)  # and its pair stakes
        self.changed: list[str] = []  # the stake and seat changes the last deal taken started with, in words
        self._carried: list[str] = []  # those of a deal that could not be taken, for the next one
        # Banker pairing: who holds the bank next deal, the first of these who plays it
        # (none of them: the first player listed).
        self.bank_order: list[str] = []
        # With button_rotation = "next": who holds the button next deal, the first of
        # these who plays it (none of them, or a deal marking its dealer: as the deal says).
        self.button_order: list[str] = []
        # Table stakes: each player's stack, and the money a new player brings; a cap
        # over the session: each player's net money so far (docs/rules.md 12).
        if buy_in is None:
            buy_in = rules.money.fixed_stack
        if rules.money.needs_buy_in and buy_in is None:
            raise DealError(
                f"the {rules.id} rules play table stakes: give the buy-in (@buy-in N in the session, or --buy-in N)"
            )
        self.buy_in = buy_in if rules.money.stacks else None
        self.stacks: dict[str, Amount] = {}
        self.net: dict[str, Amount] = {}
        self.over: str | None = None  # why the session ended (a stack is empty), once it has
        self.emptied: tuple[str, int] | None = None  # the player whose stack is empty, and the deal
        self.units: dict[str, Amount] = {}
        self.money: dict[str, Amount] = {}
        # Payments recorded (``@paid``): each player's money handed over, net (positive:
        # paid out), and the payments themselves, in order.
        self.paid: dict[str, Amount] = {}
        self.payments: list[Payment] = []
        self.dates: list[tuple[str, str]] = []  # each file's date (``@date``), as (file, date)
        # Head to head over the night: (a, b) -> (units, money) b paid a, each pair of
        # players once, in the order they first met.
        self.versus: dict[tuple[str, str], tuple[Amount, Amount]] = {}
        self.deals = 0
        # Who plays the next deal in Fantasyland, and how many repeats in a row that
        # deal will be for them (0: their first; docs/rules.md 9, fantasyland_repeats).
        self.fantasyland: dict[str, int] = {}
        self.race = Race(race, {}, None, None) if race else None
        self.owners = Names()  # every player of a settled deal, to refuse one written two ways
        self.warnings: list[str] = []  # what deals asked for to no effect; the caller takes them
        self.points: dict[str, int] | None = None  # the last deal's race points, with a race
        self._known: set[str] = set()  # players (not OWNER[LABEL] hands) already in self.owners
        self._lands = rules.ofc.played  # Fantasyland is followed from deal to deal
        self._session_cap = rules.money.session_cap
        self._rotates = rules.money.button_rotation == "next"

    def _check_names(self, text: DealText) -> None:
        """The deal's players must not be other spellings of earlier players
        (checked on owners: ``amy`` against ``Amy[1]`` too)."""
        if text.error is not None:
            raise DealError(text.error)
        known = self._known
        for entry in text.entries:
            if entry.name in known:  # a player of an earlier deal, written the same way
                continue
            other = self.owners.alike(owner(entry.name, entry.where))
            if other is not None:
                raise DealError(look_alike(owner(entry.name), entry.where, *other))

    def _remember(self, text: DealText) -> None:
        """A deal settled: its players are the session's (a skipped deal's are not)."""
        known = self._known
        for entry in text.entries:
            if entry.name not in known:
                self.owners.check(owner(entry.name), entry.where)
                if owner(entry.name) == entry.name and len(known) < 10_000:
                    known.add(entry.name)

    def players(self) -> list[str]:
        """Every player met so far, in order of first appearance."""
        return list(self.units)

    def build(self, text: DealText, source: str, playing: list[str]) -> Deal:
        """Parse a deal and mark who plays it in Fantasyland (``playing``);
        errors name the line, or the deal when they are about the whole deal."""
        refuse_fantasyland_markers(text.entries)
        where = f"{source}, deal {text.number} (line {text.line})"
        return build_deal(text.entries, self.rules, fantasyland=playing, where=where)

    def _in_fantasyland(self, text: DealText) -> list[str]:
        if not self.fantasyland:
            return []
        return [entry.name for entry in text.entries if entry.name in self.fantasyland]

    def _in_fantasyland_names(self, deal: Deal) -> list[str]:
        """Who of this deal's players plays it in Fantasyland (the session follows it)."""
        return [seat.name for seat in deal.seats if seat.name in self.fantasyland]

    def _change_stakes(self, text: DealText) -> None:
        """Stake and seat lines before this deal: they set the stake (for every
        pair, or one pair) and the seats from this deal on (docs/rules.md 4),
        all of them or, on an error, none.  A stake given on the command line
        replaces the file's: its lines are then only noted.  A later file of a
        night without a ``@players`` header has no seats (an empty value)."""
        stake, pair_stakes, seats = self.stake, self.pair_stakes, self.seats
        changed: list[str] = []
        history: list[tuple[str, str]] = []
        places: dict[frozenset[str], str] = {}
        ignored: list[tuple[str, str]] = []
        payments: list[tuple[str, str, Amount, str]] = []
        for key, value, where in text.changes:
            if key == "paid":
                payments.append((*parse_payment(value, where), where))
                continue
            if key in self.fixed:
                ignored.append((key, where))
                continue
            if key == "players":
                if not value:  # a file of the night that names no seats
                    seats = None
                    continue
                chosen = parse_seats([value], f"{where}: @players")
                for name in chosen:
                    other = self.owners.alike(name)
                    if other is not None:
                        raise DealError(look_alike(name, f"{where}: @players", *other))
                changed += seat_changes(seats, chosen)
                seats = chosen
            elif key == "stake":
                stake = stake_amount(value, f"{where}: @stake")
                changed.append(f"stake {text_of(stake)} from here")
                history.append((f"{text_of(stake)} a unit", where))
            else:
                pair, amount = pair_stake(value, where)
                pair_stakes = {**pair_stakes, pair: amount}
                places[pair] = f"{where}: @pair-stake"
                changed.append(f"{':'.join(sorted(pair))} stake {text_of(amount)} from here")
                history.append((f"{':'.join(sorted(pair))} {text_of(amount)}", where))
        if (stake, pair_stakes) != (self.stake, self.pair_stakes):
            self.restaked = True
        self.stake, self.pair_stakes, self.seats = stake, pair_stakes, seats
        for payer, payee, amount, where in payments:
            self.pay(payer, payee, amount, where)
            changed.append(f"{payer} paid {payee} {text_of(amount)}")
        self.changed += changed
        self.pair_places.update(places)
        self.ignored += ignored
        for words, where in history:
            self._remember_stake(text.number, words, where)

    def pay(self, payer: str, payee: str, amount: Amount, where: str) -> None:
        """Record a payment (``@paid``) after the deals so far: what ``payer``
        owes (or is owed) moves by ``amount`` towards ``payee``; the totals
        won and lost stay as the deals made them."""
        self.paid[payer] = self.paid.get(payer, 0) + amount
        self.paid[payee] = self.paid.get(payee, 0) - amount
        self.payments.append(Payment(payer, payee, amount, self.deals, where))

    def pay_lines(self, lines: Iterable[tuple[str, str, str]]) -> None:
        """``@paid`` lines read at the top or after the last deal: all of them or, on an error, none."""
        payments = [(*parse_payment(value, where), where) for _, value, where in lines]
        for payer, payee, amount, where in payments:
            self.pay(payer, payee, amount, where)

    def balances(self) -> dict[str, Amount]:
        """What each player is still owed (negative: still owes): the money
        won less the money received, plus the money paid out.  Every player of
        a deal or a payment, in order of first appearance."""
        balances = {name: self.money[name] for name in self.units}
        for name, paid in self.paid.items():
            balances[name] = balances.get(name, 0) + paid
        return balances

    def _remember_stake(self, number: int, words: str, where: str) -> None:
        if len(self.history) < HISTORY:
            self.history.append((number, words, where.rsplit(", line ", 1)[0]))
        else:
            self.more_history += 1

    def take(self, text: DealText, source: str) -> tuple[Deal, Outcome]:
        """Settle the next deal (:func:`cpscore.scoring.kernel`) and update the
        running state; a session's totals need nothing more."""
        # The notes of the lines before a deal that was not taken (--skip-invalid) go to this one.
        self.changed, self._carried = self._carried, []
        if text.changes:
            self._change_stakes(text)
        try:
            return self._take(text, source)
        except CpscoreError:
            self._carried = self.changed
            raise

    def _take(self, text: DealText, source: str) -> tuple[Deal, Outcome]:
        if self.over is not None:
            raise DealError(f"{source}, deal {text.number} (line {text.line}): {self.over}")
        self._check_names(text)
        if self.seats is not None:
            not_seated(text.entries, self.seats)
        playing = self._in_fantasyland(text)
        deal = self.build(text, source, playing)
        if self.button_order and not any(seat.dealer for seat in deal.seats):
            deal = self._button(deal)
        seats = deal.seats
        banker = None
        if self.bank_order:
            present = {seat.name for seat in seats}
            banker = next((name for name in self.bank_order if name in present), None)
        try:
            outcome = kernel(
                seats, self.rules, self.stake, self.pair_stakes, self._repeats(playing), banker, self._standing(deal)
            )
        except CpscoreError as error:
            raise DealError(f"{source}, deal {text.number} (line {text.line}): {error}") from None
        if any(seat.waive for seat in seats):
            self.warnings += [
                f"{source}, deal {text.number} (line {text.line}): {warning}"
                for warning in waive_warnings(seats, self.rules)
            ]
        self._remember(text)  # before any total changes: a deal is taken whole or not at all
        self._carry(deal, outcome, text.number)
        versus = self.versus
        owners = [seat.owner for seat in seats]
        for i, j, units, amount in map(HEAD_TO_HEAD, outcome.pairs):
            a, b = owners[i], owners[j]
            found = versus.get((a, b))
            if found is not None:
                versus[a, b] = (found[0] + units, found[1] + amount)
            else:
                found = versus.get((b, a))
                if found is not None:
                    versus[b, a] = (found[0] - units, found[1] - amount)
                else:
                    versus[a, b] = (units, amount)
        self.points = self._record(
            zip(owners, outcome.units, outcome.money),
            zip([seat.name for seat in seats], outcome.fantasyland) if self._lands else (),
            [
                (seat.name, seat.owner, None if core is None or core.foul else core.values)
                for seat, core in zip(seats, outcome.cores)
            ]
            if self.race
            else [],
            text.number,
        )
        return deal, outcome

    def _standing(self, deal: Deal) -> Standing | None:
        """What the deal's cuts start from: the players' stacks (a new player
        brings the buy-in) and, with a cap over the session, their net so far."""
        if self.buy_in is None and not self._session_cap:
            return None
        stacks = None
        if self.buy_in is not None:
            stacks = {player: self.stacks.get(player, self.buy_in) for player in deal.owners()}
        return Standing(self.net, stacks)

    def _button(self, deal: Deal) -> Deal:
        """The deal with the button where it has passed (``button_rotation =
        "next"``): the first of :attr:`button_order` who plays it is the dealer."""
        present = {seat.name for seat in deal.seats}
        dealer = next((name for name in self.button_order if name in present), None)
        if dealer is None:
            return deal
        return Deal(tuple(seat._replace(dealer=True) if seat.name == dealer else seat for seat in deal.seats))

    def _carry(self, deal: Deal, outcome: Outcome, number: int) -> None:
        """After a deal: the bank passes on (``banker_rotation = "next"``), and the
        button (``button_rotation = "next"``), the stacks and the session's net
        are kept, and an empty stack ends the session."""
        seats = deal.seats
        if self._rotates:
            # The button passes to the seat after this deal's dealer; with no dealer, the
            # first seat listed sat to the left of the button: the last seat dealt.
            dealer = next((k for k, seat in enumerate(seats) if seat.dealer), len(seats) - 1)
            self.button_order = [seats[(dealer + 1 + k) % len(seats)].name for k in range(len(seats))]
        if outcome.banker is not None:
            # The bank stays (fixed) or passes to the next player listed, after the last
            # back to the first; a player who sits out the next deal is passed over.
            step = 1 if self.rules.banker.banker_rotation == "next" else 0
            self.bank_order = [seats[(outcome.banker + step + k) % len(seats)].name for k in range(len(seats))]
        standing = outcome.standing
        if standing is None:
            return
        if standing.net is not None:
            self.net = dict(standing.net)
        if standing.stacks is not None:
            self.stacks.update(standing.stacks)
            empty = [player for player in deal.owners() if standing.stacks[player] <= 0]
            if empty:
                self.emptied = (empty[0], number)
                self.over = (
                    f"the session is over: {empty[0]}'s stack is empty after deal {number} (table stakes): "
                    "start a new session to play on"
                )

    def add(self, text: DealText, source: str) -> DealResult:
        """Settle the next deal and update the running state; the result has
        the deal's records and reasons, and the running totals after it."""
        deal, outcome = self.take(text, source)
        return self.result(text, deal, outcome)

    def result(self, text: DealText, deal: Deal, outcome: Outcome, source: str = "") -> DealResult:
        """The result of the deal just taken: its records at its own stake, the
        totals after it (``source``: its file, when the night is several files)."""
        settlement = settlement_of(deal, self.rules, self.stake, outcome, warn=False)
        return DealResult(
            text.number,
            text.line,
            settlement,
            self.running(),
            self.points,
            tuple(self.changed),
            source,
            deal_digest(text),
        )

    def running(self) -> dict[str, tuple[Amount, Amount]]:
        """Each player's (units, money) so far."""
        return {name: (self.units[name], self.money[name]) for name in self.units}

    def _repeats(self, playing: list[str]) -> list[str]:
        """Of the players in Fantasyland, those playing their last repeat allowed
        (``fantasyland_repeats``; none when repeats are unlimited)."""
        allowed = self.rules.ofc.fantasyland_repeats
        if allowed == "unlimited":
            return []
        return [name for name in playing if self.fantasyland[name] >= int(allowed)]

    def _record(
        self,
        balances: Iterable[tuple[str, Amount, Amount]],
        fantasylands: Iterable[tuple[str, Fantasyland | None]],
        race_hands: list[tuple[str, str, tuple[int, int, int] | None]],
        number: int,
    ) -> dict[str, int] | None:
        """Add a settled deal to the running state: (player, units, money) to the
        totals, each hand's Fantasyland to who plays the next deal in it, and
        (with a race) the hands' rows to the race.  Returns the race points."""
        for name, units, money in balances:
            self.units[name] = self.units.get(name, 0) + units
            self.money[name] = self.money.get(name, 0) + money
        # Who plays the next deal in Fantasyland, and how many repeats in a row it is for them.
        before = self.fantasyland
        self.fantasyland = {
            name: before.get(name, -1) + 1 if fantasyland.playing else 0
            for name, fantasyland in fantasylands
            if fantasyland is not None and fantasyland.next
        }
        self.deals += 1
        return self._race(race_hands, number) if self.race else None

    def _race(self, hands: list[tuple[str, str, tuple[int, int, int] | None]], number: int) -> dict[str, int]:
        """Points this deal from (hand, owner, row values or None when the hand
        takes no row): the best front, middle and back at the table each score
        1 (a tie for best scores nothing); all three rows in a four-hand deal
        score a fourth point."""
        race = self.race
        assert race is not None  # called only with a race
        live = [(name, owner, values) for name, owner, values in hands if values is not None]
        points = {owner: 0 for _, owner, _ in hands}
        taken: dict[str, int] = {}
        for index in range(3):
            values = [row_values[index] for _, _, row_values in live]
            if not values:
                continue
            best = max(values)
            if values.count(best) == 1:
                name, owner, _ = live[values.index(best)]
                points[owner] += 1
                taken[name] = taken.get(name, 0) + 1
        if len(hands) == 4:
            for name, owner, _ in hands:
                if taken.get(name) == 3:
                    points[owner] += 1
        for name, gained in points.items():
            race.points[name] = race.points.get(name, 0) + gained
        if race.winner is None:
            reached = sorted((total, name) for name, total in race.points.items() if total >= race.target)
            if reached and (len(reached) == 1 or reached[-1][0] > reached[-2][0]):
                race.winner, race.deal = reached[-1][1], number
        return points

    def head_to_head(self, a: str, b: str) -> tuple[Amount, Amount]:
        """What ``b`` paid ``a`` over the night, (units, money): negative when ``a`` paid."""
        found = self.versus.get((a, b))
        if found is not None:
            return found
        found = self.versus.get((b, a))
        return (0, 0) if found is None else (-found[0], -found[1])

    def totals(self) -> list[tuple[str, Amount, Amount]]:
        """(player, units, money) for every player, in order of first appearance."""
        return [(name, self.units[name], self.money[name]) for name in self.units]

    def settle_up(self, unit: Amount | None = None) -> SettleUp:
        """:func:`settle_up` of what is still owed (:meth:`balances`)."""
        return settle_up(self.balances(), unit)


def transfers(balances: Mapping[str, Amount]) -> list[Transfer]:
    """The fewest payments that settle every balance (positive: is owed),
    the least money moved among those, the same for the same balances
    (:func:`cpscore.settle.fewest`).

    >>> [(t.payer, t.payee, t.amount) for t in transfers({"Amy": 50, "Bob": -40, "Cy": -10})]
    [('Bob', 'Amy', 40), ('Cy', 'Amy', 10)]
    """
    return fewest(balances).transfers


class SettleUp(Record):
    """How a night or a season settles up: the ``transfers``; ``exact``:
    whether their count is proven the fewest; with rounding, the ``unit`` and
    what rounding changed in each balance that it changed (``changes``: name
    to amount, in the order of the balances), and ``square``: whether the
    balances were square before rounding."""

    __slots__ = ("transfers", "exact", "unit", "changes", "square")

    def __init__(
        self,
        transfers: list[Transfer],
        exact: bool,
        unit: Amount | None = None,
        changes: dict[str, Amount] | None = None,
        square: bool = True,
    ) -> None:
        self.transfers = transfers
        self.exact = exact
        self.unit = unit
        self.changes = changes or {}
        self.square = square


def settle_up(balances: Mapping[str, Amount], unit: Amount | None = None) -> SettleUp:
    """The transfers that settle ``balances``, in the fewest payments; with
    ``unit``, each balance made a multiple of it first, none moved by a unit
    or more (:func:`cpscore.settle.rounded`).

    >>> up = settle_up({"Amy": 29, "Bob": -17, "Cy": -12}, 5)
    >>> [(t.payer, t.payee, t.amount) for t in up.transfers], up.changes
    ([('Bob', 'Amy', 15), ('Cy', 'Amy', 15)], {'Amy': 1, 'Bob': 2, 'Cy': -3})
    """
    square = not any(balances.values())
    if unit is None:
        found = fewest(balances)
        return SettleUp(found.transfers, found.exact, None, None, square)
    new = rounded(balances, unit)
    changes = {name: new[name] - balances[name] for name in balances if new[name] != balances[name]}
    found = fewest(new)
    return SettleUp(found.transfers, found.exact, unit, changes, square)


# Appending a deal ----------------------------------------------------------------------


def deal_lines(deal: Deal) -> list[str]:
    """A deal as session-file lines, hands normalised to front / middle / back."""
    lines = []
    for seat in deal.seats:
        if seat.result is not None:
            hand = result_text(seat.result)
        elif seat.hand is not None:
            hand = str(seat.hand)
        elif seat.cards:
            hand = " ".join(map(str, seat.cards))
        else:
            hand = ""
        markers = [
            marker
            for marker, on in (
                ("surrender", seat.surrendered),
                ("waive", seat.waive),
                ("banker", seat.banker),
                ("dealer", seat.dealer),
            )
            if on
        ]
        text = " ; ".join([hand, *markers]) if hand else " ; ".join(markers)
        lines.append(f"{seat.name}: {text}")
    return lines


def appended(existing: str, lines: list[str], header: Collection[str] = (), newline: str = "\n") -> tuple[str, int]:
    r"""``existing`` session text with a deal's ``lines`` (and, for a new file,
    ``header`` lines) appended after a blank line, and the line number the
    deal starts at.

    >>> appended("@rules ofc\n", ["A: x", "B: y"])
    ('@rules ofc\n\nA: x\nB: y\n', 3)
    """
    text = existing
    if text and not text.endswith("\n"):  # a last line without its line end: it gets one first
        text += newline
    if header:
        text += newline.join(header) + newline
    if text.strip():
        text += newline  # a blank line ends the previous deal (or the header)
    start = text.count("\n") + 1
    text += newline.join(lines) + newline
    return text, start


# Rule paths and safe appends ------------------------------------------------------------


def session_relative(session_path: str, rules_path: str) -> str:
    """A rule path written in a session file is relative to the folder of the
    file itself (a symlink's target), wherever the command runs."""
    import os.path

    if os.path.isabs(rules_path):
        return rules_path
    return os.path.join(os.path.dirname(os.path.realpath(session_path)), rules_path)


def check_players(
    entries: list[Entry],
    known: Names,
    new_player: Iterable[str],
    target: str,
    played: bool,
    staying: Collection[str] = (),
) -> list[str]:
    """A deal's players against those of the session (``known``; ``played``: the
    file has deals): a player not seen before is refused unless named in
    ``new_player`` or in ``staying``; another spelling of a known player is refused
    even then.  Returns the warnings for a --new-player who has played already."""
    from cpscore.deal import named_player

    names = [entry.name for entry in entries]
    joining = dict.fromkeys(named_player(name, names, "--new-player") for name in new_player)
    warnings = [f"--new-player {name}: {name} has played in {target} already" for name in joining if name in known]
    for entry in entries:
        player = owner(entry.name)
        if played and player not in known:
            other = known.alike(player)  # another spelling of a player: refused, even with --new-player
            if other is not None:
                raise DealError(look_alike(player, entry.where or "the new deal", *other))
            if not {entry.name, player} & {*joining, *staying}:
                raise DealError(
                    f"{shown(entry.name)} has not played in {target} (players: {', '.join(known.names())}); "
                    f"check the name, or pass --new-player {shown(entry.name)}"
                )
    return warnings


def rewritten(text: str, lines: Iterable[tuple[int, str, str]]) -> str:
    """``text`` with header lines (by number) rewritten as ``@KEY VALUE``, each
    keeping its line end."""
    parts = text.splitlines(keepends=True)
    for number, key, value in lines:
        old = parts[number - 1]
        end = old[len(old.rstrip("\r\n")) :]
        parts[number - 1] = f"@{key} {value}{end}"
    return "".join(parts)


def header_rules(header: Header, source_path: str | None) -> RuleSet | None:
    """The rule set a session's ``@rules`` header names (None: no header);
    errors name the header's line."""
    from cpscore.rules import get_rules, is_rule_file, load_rules_file

    if not header.rules:
        return None
    name = header.rules
    if is_rule_file(name) and source_path:
        name = session_relative(source_path, name)
    try:
        return load_rules_file(name) if is_rule_file(name) else get_rules(name)
    except RulesError as error:
        raise RulesError(f"{header.where['rules']}: @rules: {error}") from None


def stored_rules_path(target: str, rules_text: str) -> str:
    """What a new session's ``@rules`` header says for ``--rules``: a preset's
    name, or the rule file's path relative to the session file's folder (where
    :func:`header_rules` looks for it), written so that it reads as a file."""
    import os.path

    from cpscore.rules import is_rule_file

    if not is_rule_file(rules_text):
        return rules_text
    folder = os.path.dirname(os.path.realpath(target))
    path = os.path.realpath(rules_text)
    try:
        stored = os.path.relpath(path, folder)
    except ValueError:  # another drive (Windows): only an absolute path will do
        return path
    return stored if is_rule_file(stored) else os.path.join(".", stored)
