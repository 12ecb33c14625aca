"""Entering a night deal by deal, one hand at a time (``cpscore play``).

The library part of the interactive entry: it reads the session file, seats
the table, checks each hand as it is typed against the hands already in the
deal, and settles the deal the way ``cpscore session`` will read it back.  It
never prints, prompts or exits: :mod:`cpscore.commands.play` does the talking
and saves a deal with the same locked, atomic append as ``cpscore add``
(:class:`cpscore.night.Append` through :func:`cpscore.safefile.rewrite`).

A hand is checked on its own as soon as it is typed, as the deal layer reads
it (cards, rows, markers, a natural the rules have or not, a surrender the
rules allow or not), and against the deal so far (a card another seat holds):

>>> from cpscore.errors import CpscoreError
>>> from cpscore.rules import get_rules
>>> deal = Round(["Amy", "Bob"], get_rules("2-4"))
>>> deal.commit(deal.check("Amy", "Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d"))
>>> try:
...     deal.check("Bob", "Qs Jd 3c / Th Tc 8d 8s 3d / Kh Ks Jh 8h 2h")
... except CpscoreError as error:
...     print(error)
Ks is dealt twice: in Amy's front and in Bob's back
>>> print(deal.check("Bob", "Qd Qc 3h / Jc Td 9d 6s 5c / Kc 7h 5h 4h 2d").warning)
Bob fouls: front pair of queens (Q-Q-3) beats middle jack high (J-T-9-6-5)
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import TYPE_CHECKING

from cpscore.cards import ROW_NAMES, Card
from cpscore.deal import Entry, Names, Seat, build_deal, check_name, look_alike, name_key, owner
from cpscore.errors import DealError
from cpscore.hands import Foul
from cpscore.naturals import Natural
from cpscore.records import Record
from cpscore.rules import RuleSet
from cpscore.session import FIX, SIT_OUT, DealResult, Ledger, refuse_fantasyland_markers

if TYPE_CHECKING:
    from cpscore.night import Night

#: What starts a line that seats a newcomer: ``+Dan``.
JOIN = "+"


class _Unchanged(Exception):
    """Raised inside :func:`cpscore.safefile.rewrite` to read a file without writing it."""


def read_locked(target: str) -> bytes | None:
    """The session file's bytes (None: it does not exist yet), read as
    ``add`` reads it before it writes: refused at once if it is no regular
    file, a dangling link, hard-linked or read-only, and read under the
    file's lock.  Nothing is written."""
    from cpscore.safefile import rewrite

    found: list[bytes | None] = []

    def keep(current: bytes | None) -> bytes:
        found.append(current)
        raise _Unchanged

    try:
        rewrite(target, keep)
    except _Unchanged:
        pass
    return found[0]


class Table(Record):
    """A session file as ``play`` and the page read it before each deal: its
    bytes (None: no file yet) and text, the night after its deals (totals,
    Fantasyland, the bank, the stakes: :class:`cpscore.night.Night`), and
    the players of its last deal."""

    __slots__ = ("target", "data", "text", "night", "players")

    def __init__(self, target: str, data: bytes | None, text: str, night: Night, players: tuple[str, ...]) -> None:
        self.target = target
        self.data = data
        self.text = text
        self.night = night
        self.players = players

    @property
    def ledger(self) -> Ledger:
        return self.night.ledger

    @property
    def rules(self) -> RuleSet:
        return self.night.rules

    @property
    def deals(self) -> int:
        return self.night.deals

    @property
    def money(self) -> bool:
        """Whether money differs from units (a stake, pair stakes, a cap, table stakes)."""
        return self.night.money

    @property
    def number(self) -> int:
        """The number the next deal will have."""
        return self.deals + 1


def read_table(
    target: str, data: bytes | None, rules: RuleSet | None = None, keep: Callable[[DealResult], None] | None = None
) -> Table:
    """The table of a session file's bytes (None: a new file), read as
    ``cpscore session`` reads it (``rules``: those of a new file); every deal
    is settled into the night (and handed to ``keep``); a deal that cannot be
    is an error: the file must be fixed before adding to it."""
    from cpscore.night import Night
    from cpscore.textio import decode

    text = decode(data or b"", target)
    night = Night(rules)
    last: list[DealResult] = []

    def kept(result: DealResult) -> None:
        last[:] = [result]
        if keep is not None:
            keep(result)

    night.settle_text(text, target, target, kept, FIX)
    night.warnings.clear()  # about deals already in the file: not this command's business
    players = tuple(player.seat.name for player in last[0].settlement.players) if last else ()
    return Table(target, data, text, night, players)


def choose_seats(table: Table, given: Sequence[str]) -> list[str]:
    """The seats, in order: ``given`` (from ``--players``), else the session's
    seats (``@players``), else the players of its last deal.  A name that is
    another spelling of one already seated, or of a player of the session, is
    an error."""
    seats: list[str] = []
    named = table.ledger.seats
    if not given and not table.players and not named:
        raise DealError(
            f"{table.target} has no deal yet: name the seats with --players, for example --players 'Amy Bob Cy'"
        )
    for name in given or named or table.players:
        seat(seats, name, table.ledger.owners, "--players" if given else "")
    if len({owner(name) for name in seats}) < 2:
        raise DealError("a deal needs at least two players: name them with --players, for example --players 'Amy Bob'")
    return seats


def seat(seats: list[str], name: str, known: Names, where: str = "") -> str:
    """Add ``name`` to the end of ``seats`` (a newcomer, or a player the
    session knows) and return it, checked as any player name; one already
    seated, or written another way than a player of the session or a seat
    (case, Unicode form), is an error."""
    if not name.strip():
        raise DealError(f"write the newcomer's name after '{JOIN}', for example {JOIN}Dan")
    name = check_name(name, where)
    prefix = f"{where}: " if where else ""
    if name in seats:
        raise DealError(f"{prefix}{name} is seated already")
    player = owner(name, where)
    other = known.alike(player)
    if other is not None:
        raise DealError(look_alike(player, where, *other))
    for taken in seats:
        if name_key(owner(taken)) == name_key(player) and owner(taken) != player:
            raise DealError(look_alike(player, where, owner(taken), "seated"))
    seats.append(name)
    return name


class Typed(Record):
    """One seat's answer in the deal being entered: the entry saved for it
    (None: the seat sits out), the seat it makes, the natural it claims, its
    foul, and ``warning``: what should be confirmed before it is committed
    (a foul, a false claim); ``notes`` say what may surprise (a set hand
    that claims a natural, a waive with no effect)."""

    __slots__ = ("name", "entry", "seat", "natural", "foul", "warning", "notes")

    def __init__(
        self,
        name: str,
        entry: Entry | None,
        seat: Seat | None = None,
        natural: Natural | None = None,
        foul: Foul | None = None,
        warning: str | None = None,
        notes: tuple[str, ...] = (),
    ) -> None:
        self.name = name
        self.entry = entry
        self.seat = seat
        self.natural = natural
        self.foul = foul
        self.warning = warning
        self.notes = notes


class Round:
    """One deal being entered, seat by seat, in the order of ``seats`` (a
    list it shares: a newcomer seated during the deal stays for the next).
    :meth:`check` reads and checks an answer without keeping it,
    :meth:`commit` keeps it."""

    def __init__(self, seats: list[str], rules: RuleSet, fantasyland: Collection[str] = ()) -> None:
        self.seats = seats
        self.rules = rules
        self.fantasyland = fantasyland  # who plays this deal in Fantasyland (the session follows it)
        self.answers: dict[str, Typed] = {}

    def hands(self) -> list[Typed]:
        """The answers with a hand, in the order they were committed."""
        return [typed for typed in self.answers.values() if typed.entry is not None]

    def pending(self) -> str | None:
        """The next seat to ask (None: every seat has answered)."""
        return next((name for name in self.seats if name not in self.answers), None)

    def fill(self) -> list[str]:
        """When the deal has as many hands as the rules allow, the seats left
        sit out: they are committed so and returned."""
        if len(self.hands()) < self.rules.methods.max_players:
            return []
        left = [name for name in self.seats if name not in self.answers]
        for name in left:
            self.answers[name] = Typed(name, None)
        return left

    def check(self, name: str, text: str) -> Typed:
        """Read ``name``'s answer as the deal layer reads a hand, and check it
        against the deal so far; a :class:`CpscoreError` says what is wrong."""
        text = text.strip()
        rules = self.rules
        if text == SIT_OUT:
            left = len([other for other in self.seats if other not in self.answers and other != name])
            if len(self.hands()) + left < 2:
                raise DealError(f"{name} cannot sit out: a deal needs at least two players")
            return Typed(name, None)
        if len(self.hands()) >= rules.methods.max_players:  # fill() seats the rest out before they are asked
            raise DealError(
                f"{name}: the deal has {rules.methods.max_players} hands, the most under the {rules.id} rules"
            )
        entry = Entry(name, text, "")
        refuse_fantasyland_markers([entry])
        # The hand alone, as the deal layer reads it (markers and all), beside
        # a cardless stand-in (the deal layer wants two hands; no name is empty).
        playing = [name] if name in self.fantasyland and rules.ofc.played else []
        found = build_deal([entry, Entry("", "surrender", "")], rules, fantasyland=playing).seats[0]
        self._dealt_once(found)
        return self._judged(found, entry)

    def _dealt_once(self, found: Seat) -> None:
        """No card of ``found`` is in a hand already in the deal (the deal layer's words)."""
        codes = set(found.codes)
        for typed in self.hands():
            other = typed.seat
            assert other is not None  # a hand has its seat
            if codes.isdisjoint(other.codes):
                continue
            for row_name, row in _places(found):
                for card in row:
                    if card.code in other.codes:
                        other_row = next(place for place, cards in _places(other) if card in cards)
                        raise DealError(
                            f"{card} is dealt twice: in {other.name}'s {other_row} and in {found.name}'s {row_name}"
                        )

    def _judged(self, found: Seat, entry: Entry) -> Typed:
        """The hand settled on its own (:func:`cpscore.scoring.kernel`, the one
        place where a natural, a foul or a surrender is decided): its errors
        (a surrender the rules do not have, 13 cards that make no natural), its
        foul, its natural."""
        from cpscore.amounts import text as number
        from cpscore.formatting import natural_text
        from cpscore.scoring import FALSE_CLAIM, Standing, kernel, waive_warnings

        rules = self.rules
        standing = Standing(None, {found.owner: 1}) if rules.money.stacks else None  # no pair: nothing is cut
        outcome = kernel([found], rules, standing=standing)
        core, natural = outcome.cores[0], outcome.naturals[0]
        foul = core.foul if core is not None else None
        warning = None
        if foul is not None:
            warning = f"{found.name} fouls: {foul.reason}"
        elif natural is not None and natural.id == FALSE_CLAIM:
            warning = f"{found.name}'s 13 cards make no natural: a false claim, which pays {number(natural.units)}"
        notes = list(waive_warnings([found], rules)) if found.waive else []
        if natural is not None and natural.id != FALSE_CLAIM and found.hand is not None:
            notes.append(
                f"{found.name}'s hand makes a natural, {natural_text(natural)}, and claims it "
                "(add '; waive' to play the rows)"
            )
        return Typed(found.name, entry, found, natural, foul, warning, tuple(notes))

    def commit(self, typed: Typed) -> None:
        self.answers[typed.name] = typed

    def entries(self) -> list[Entry]:
        """The deal's hands, in seat order."""
        return [
            typed.entry
            for name in self.seats
            if (typed := self.answers.get(name)) is not None and typed.entry is not None
        ]

    def newcomers(self, known: Collection[str]) -> list[str]:
        """The hands of the deal whose player the session has not seen (of
        ``known``, its players): they join with it (``add --new-player``)."""
        return [entry.name for entry in self.entries() if owner(entry.name) not in known]


def _places(found: Seat) -> list[tuple[str, tuple[Card, ...]]]:
    """A seat's cards by row (``hand`` for 13 cards without rows)."""
    if found.hand is not None:
        return list(zip(ROW_NAMES, found.hand.rows))
    return [("hand", found.cards)]


def sits_out_reason(rules: RuleSet) -> str:
    return f"a deal has at most {rules.methods.max_players} players under the {rules.id} rules"


def hand_prompt(name: str, rules: RuleSet) -> str:
    """The question for a seat's hand (``'surrender'`` only under rules that have it)."""
    surrender = ", 'surrender'" if rules.methods.surrender is not None else ""
    return f"{name}'s hand (front / middle / back{surrender}, '{SIT_OUT}' to sit out): "


def joining(text: str) -> str | None:
    """The name a ``+NAME`` line seats (None: the line is no such line)."""
    text = text.strip()
    return text[len(JOIN) :].strip() if text.startswith(JOIN) else None
