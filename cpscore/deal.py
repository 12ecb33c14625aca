"""Deals: who holds which hand, read from ``NAME=HAND`` arguments or deal files.

A deal file has one ``NAME: HAND`` per line; ``#`` starts a comment and blank
lines are skipped.  Names are case-sensitive, non-empty, and contain none of
``= : / # |``.  Every error names the file and line (or the argument) and
the player.

>>> deal = build_deal([entry_from_argument("Amy=Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d"),
...                    *entries_from_text("Bob: Qs Jd 3c / Th Tc 8d 8s 3d / Kh Qh Jh 8h 2h", "deal.txt")])
>>> [seat.name for seat in deal.seats]
['Amy', 'Bob']
"""

from __future__ import annotations

from collections.abc import Iterable
from collections import namedtuple

from cpscore.cards import ROW_NAMES, Card, Hand, parse_hand
from cpscore.errors import CardError, DealError
from cpscore.rules import RuleSet

FORBIDDEN_IN_NAMES = "=:/#|"
MIN_PLAYERS = 2


class Entry(namedtuple("Entry", "name text where")):
    """One unparsed ``name, hand`` pair and where it was written."""

    __slots__ = ()
    name: str
    text: str
    where: str  # "deal.txt, line 3", or "" for a command-line argument


class Seat(namedtuple("Seat", "name hand")):
    """A player and the hand they set."""

    __slots__ = ()
    name: str
    hand: Hand


class Deal(namedtuple("Deal", "seats")):
    """One hand per player, in seat order, no card dealt twice."""

    __slots__ = ()
    seats: tuple[Seat, ...]

    def names(self) -> list[str]:
        return [seat.name for seat in self.seats]


def check_name(name: str, where: str = "") -> str:
    """A stripped, valid player name, or a :class:`DealError` saying why not."""
    prefix = f"{where}: " if where else ""
    name = name.strip()
    if not name:
        raise DealError(f"{prefix}a player name is missing (write NAME: HAND)")
    bad = [char for char in FORBIDDEN_IN_NAMES if char in name]
    if bad:
        raise DealError(
            f"{prefix}player name {name!r} contains {bad[0]!r}: names cannot contain any of = : / # |"
        )
    return name


def entry_from_argument(argument: str) -> Entry:
    """``NAME=HAND`` from the command line."""
    name, _, text = argument.partition("=")
    return Entry(check_name(name), text, "")


def entries_from_text(text: str, source: str) -> list[Entry]:
    """The ``NAME: HAND`` lines of a deal file; ``source`` names it in errors."""
    entries = []
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        where = f"{source}, line {number}"
        name, colon, hand = line.partition(":")
        if not colon:
            raise DealError(f"{where}: expected NAME: HAND, got {line!r}")
        entries.append(Entry(check_name(name, where), hand, where))
    return entries


def build_deal(entries: Iterable[Entry], rules: RuleSet | None = None) -> Deal:
    """Parse every hand and check the deal as a whole (player count under ``rules``)."""
    max_players = rules.max_players if rules else 4
    seats: list[Seat] = []
    first_seen: dict[str, str] = {}
    holders: dict[Card, tuple[str, str]] = {}
    for entry in entries:
        prefix = f"{entry.where}: " if entry.where else ""
        if entry.name in first_seen:
            earlier = f" (first at {first_seen[entry.name]})" if first_seen[entry.name] else ""
            raise DealError(f"{prefix}player {entry.name!r} is named twice{earlier}")
        first_seen[entry.name] = entry.where
        try:
            hand = parse_hand(entry.text, entry.name)
        except CardError as error:
            raise CardError(f"{prefix}{error}") from None
        for row_name, row in zip(ROW_NAMES, hand.rows):
            for card in row:
                if card in holders:
                    other, other_row = holders[card]
                    raise DealError(
                        f"{prefix}{card} is dealt twice: in {other}'s {other_row} and in {entry.name}'s {row_name}"
                    )
                holders[card] = (entry.name, row_name)
        seats.append(Seat(entry.name, hand))
    if not MIN_PLAYERS <= len(seats) <= max_players:
        raise DealError(
            f"{len(seats)} player{'s' if len(seats) != 1 else ''} in the deal: "
            f"a deal has {MIN_PLAYERS} to {max_players} players"
            + (f" under the {rules.id} rules" if rules and max_players < 4 else "")
        )
    return Deal(tuple(seats))
