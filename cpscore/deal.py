"""Deals: who holds which hand, read from ``NAME=HAND`` arguments or deal files.

A deal file has one ``NAME: HAND`` per line; ``#`` starts a comment and blank
lines are skipped.  Names are case-sensitive, non-empty, and contain none of
``= : / # |``.  A hand may be followed by markers after ``;``:
``; waive`` (play the rows instead of a natural), ``; fantasyland`` (this
player plays the deal in Fantasyland), ``; banker`` (this player holds the
bank, under banker pairing); ``NAME: surrender`` (or ``HAND; surrender``)
surrenders.  ``OWNER[LABEL]`` names one of several hands of one
player (criss-cross): hands of one owner never play each other.  Every error
names the file and line (or the argument) and the player.

>>> deal = build_deal([entry_from_argument("Amy=Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d"),
...                    *entries_from_text("Bob: Qs Jd 3c / Th Tc 8d 8s 3d / Kh Qh Jh 8h 2h ; waive", "deal.txt")])
>>> [(seat.name, seat.waive) for seat in deal.seats]
[('Amy', False), ('Bob', True)]
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from cpscore.amounts import Amount, AmountError, parse_amount
from cpscore.amounts import text as amount_text
from cpscore.cards import ROW_NAMES, Card, Hand, hand_of, parse_hand_or_cards, plain_codes
from cpscore.errors import CardError, DealError, shown
from cpscore.records import Record
from cpscore.rules import RuleSet

FORBIDDEN_IN_NAMES = "=:/#|"
MARKERS = ("surrender", "waive", "fantasyland", "banker", "dealer")
#: A result instead of cards: a player's units for the deal, signed (``Amy: +6``).
RESULT = re.compile(r"\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)\s*\Z")
MIN_PLAYERS = 2


class Entry(Record):
    """One unparsed ``name, hand`` pair and where it was written."""

    __slots__ = ("name", "text", "_where", "_line")
    _args = ("name", "text", "where")

    def __init__(self, name: str, text: str, where: str) -> None:
        self.name = name
        self.text = text
        self._where = where
        self._line = 0  # with a line number, _where is the file: the place is worded when asked for

    @property
    def where(self) -> str:
        """``"deal.txt, line 3"``, or ``""`` for a command-line argument."""
        return f"{self._where}, line {self._line}" if self._line else self._where


class Seat(Record):
    """A hand in the deal: who holds it, its rows (None for an unset hand or a
    surrender without cards), its 13 cards (empty for such a surrender), and
    the player's markers."""

    __slots__ = (
        "name",
        "owner",
        "hand",
        "_cards",
        "surrendered",
        "waive",
        "fantasyland",
        "banker",
        "codes",
        "result",
        "dealer",
    )
    _args = ("name", "owner", "hand", "cards", "surrendered", "waive", "fantasyland", "banker", "result", "dealer")

    def __init__(
        self,
        name: str,
        owner: str,
        hand: Hand | None,
        cards: tuple[Card, ...] | None,
        surrendered: bool,
        waive: bool,
        fantasyland: bool,
        banker: bool = False,
        result: Amount | None = None,
        dealer: bool = False,
    ) -> None:
        self.name = name
        self.owner = owner
        self.hand = hand
        #: A result deal's units for this player (``Amy: +6``): no cards, no rows.
        self.result = result
        self.dealer = dealer  # marked ``; dealer``: holds the button this deal
        self._cards = cards  # None: the hand's, made on first use
        self.surrendered = surrendered
        self.waive = waive
        self.fantasyland = fantasyland
        self.banker = banker  # marked as the banker of this deal (banker pairing)
        #: The cards' codes, front first for a set hand (what settlement reads).
        self.codes: tuple[int, ...] = hand.codes if hand is not None else tuple(card.code for card in cards or ())

    @property
    def cards(self) -> tuple[Card, ...]:
        cards = self._cards
        if cards is None:
            assert self.hand is not None  # only a set hand's cards are left to it
            cards = self._cards = self.hand.cards()
        return cards


class Deal(Record):
    """One hand per seat, in seat order, no card dealt twice."""

    __slots__ = ("seats",)

    def __init__(self, seats: tuple[Seat, ...]) -> None:
        self.seats = seats

    def owners(self) -> list[str]:
        """Each player once, in seat order."""
        return list(dict.fromkeys(seat.owner for seat in self.seats))


#: The longest player name (names stay readable in tables and bounded in messages).
MAX_NAME = 40


def check_name(name: str, where: str = "") -> str:
    """A stripped, valid player name, or a :class:`DealError` saying why not.
    A valid name reads back the same from a session file: it has no control
    or invisible character (newline, tab, U+2028, a byte-order mark, a
    non-breaking space), does not start with ``@`` (a session header), and
    has at most :data:`MAX_NAME` characters."""
    checked = _CHECKED.get(name)
    if checked is not None:
        return checked
    prefix = f"{where}: " if where else ""
    raw, name = name, name.strip()
    if not name:
        raise DealError(f"{prefix}a player name is missing (write NAME: HAND)")
    bad = [char for char in FORBIDDEN_IN_NAMES if char in name]
    if bad:
        raise DealError(f"{prefix}player name {shown(name)} contains {bad[0]!r}: names cannot contain any of = : / # |")
    if not name.replace(" ", "").isprintable():
        hidden = next(char for char in name if char != " " and not char.isprintable())
        raise DealError(
            f"{prefix}player name {shown(name)} contains an invisible or control character "
            f"(U+{ord(hidden):04X}): write the name with visible characters"
        )
    if name.startswith("@"):
        raise DealError(f"{prefix}player name {shown(name)} starts with '@', which marks a session header")
    if len(name) > MAX_NAME:
        raise DealError(f"{prefix}player name {shown(name)} is {len(name)} characters long: at most {MAX_NAME}")
    owner(name, where)
    if len(_CHECKED) < _REMEMBERED:
        _CHECKED[raw] = name
    return name


#: Names already found valid (a session repeats a few names many times), as
#: written -> stripped; and their :func:`name_key`.  Bounded: past this many
#: names each is checked again.
_CHECKED: dict[str, str] = {}
_KEYS: dict[str, str] = {}
_REMEMBERED = 5_000


def name_key(name: str) -> str:
    """What two names must not share unless they are the same name: ``amy``,
    ``Amy`` and ``AMY`` share one, and so do two spellings of ``Nguyễn``
    (composed or not).

    >>> name_key("Amy") == name_key("aMY"), name_key("Nguye\u0302\u0303n") == name_key("Nguy\u1ec5n")
    (True, True)
    """
    key = _KEYS.get(name)
    if key is not None:
        return key
    if name.isascii():
        key = name.lower()
    else:
        import unicodedata

        key = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    if len(_KEYS) < _REMEMBERED:
        _KEYS[name] = key
    return key


class Names:
    """The players met so far, each with where it was first written, to refuse
    a name that differs from an earlier one only by case or Unicode form."""

    __slots__ = ("first",)

    def __init__(self) -> None:
        self.first: dict[str, tuple[str, str]] = {}  # key -> (name, where)

    def __contains__(self, name: str) -> bool:
        found = self.first.get(name_key(name))
        return found is not None and found[0] == name

    def names(self) -> list[str]:
        return [name for name, _ in self.first.values()]

    def alike(self, name: str) -> tuple[str, str] | None:
        """The earlier name (and its place) that ``name`` is another spelling of."""
        found = self.first.get(name_key(name))
        return found if found is not None and found[0] != name else None

    def check(self, name: str, where: str) -> None:
        """Remember ``name``; :class:`DealError` when an earlier name differs
        from it only by case or Unicode form."""
        key = name_key(name)
        found = self.first.get(key)
        if found is None:
            self.first[key] = (name, where)
        elif found[0] != name:
            raise DealError(look_alike(name, where, *found))


def look_alike(name: str, where: str, other: str, other_where: str) -> str:
    """The error for two spellings of one name, naming both places."""
    here = f"{where}: " if where else ""
    there = f" ({other_where})" if other_where else ""
    return (
        f"{here}player {shown(name)} and player {shown(other)}{there} differ only by case or "
        f"Unicode form: write the name one way, {shown(other)}"
    )


def named_player(name: str, players: Iterable[str], what: str, hint: str = "") -> str:
    """``name`` given to an option (``--waive``, ``--pair-stake`` ...) must be
    one of ``players`` exactly; a :class:`DealError` says which one was meant
    when it differs only by case, spaces or Unicode form."""
    players = list(players)
    if name in players:
        return name
    key = name_key(name.strip())
    for player in players:
        if name_key(player) == key:
            raise DealError(f"{what} names {shown(name)}: the player is {shown(player)} (names are written exactly)")
    raise DealError(f"{what} names {shown(name)}, who does not play (players: {', '.join(players)}){hint}")


def owner(name: str, where: str = "") -> str:
    """The player a hand belongs to: ``Amy`` for ``Amy[2]``, else the name itself.

    >>> owner("Amy[2]"), owner("Bob")
    ('Amy', 'Bob')
    """
    if "[" not in name and "]" not in name:
        return name
    base, bracket, label = name.partition("[")
    if not (bracket and base.strip() and label.endswith("]") and "[" not in label and "]" not in label[:-1]):
        prefix = f"{where}: " if where else ""
        raise DealError(f"{prefix}player name {shown(name)}: brackets only as OWNER[LABEL], e.g. Amy[1] and Amy[2]")
    return base.strip()


def entry_from_argument(argument: str) -> Entry:
    """``NAME=HAND`` from the command line; an error names the argument."""
    name, _, text = argument.partition("=")
    where = f"argument {shown(argument, 30)}"
    if not name.strip():
        raise DealError(f"{where}: a player name is missing (write NAME=HAND)")
    return Entry(check_name(name, where), text, "")


def entries_from_text(text: str, source: str) -> list[Entry]:
    """The ``NAME: HAND`` lines of a deal file; ``source`` names it in errors."""
    from cpscore.textio import split_lines

    entries = []
    for number, line in enumerate(split_lines(text, source), start=1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        entries.append(entry_from_line(line, f"{source}, line {number}"))
    return entries


def entry_from_line(line: str, where: str) -> Entry:
    """One ``NAME: HAND`` line of a deal or session file (comment removed)."""
    name, colon, hand = line.partition(":")
    if not colon:
        raise DealError(f"{where}: expected NAME: HAND, got {shown(line)}")
    return Entry(check_name(name, where), hand, where)


def entry_at(line: str, source: str, number: int) -> Entry:
    """:func:`entry_from_line` for line ``number`` of ``source``, its place
    worded only when an error or a view asks for it (a session reads many)."""
    name, colon, hand = line.partition(":")
    checked = _CHECKED.get(name)
    if checked is None or not colon:  # a name not met before, or no colon: the long way
        return entry_from_line(line, f"{source}, line {number}")
    entry = Entry(checked, hand, source)
    entry._line = number
    return entry


def only_cards(text: str) -> bool:
    """Whether a hand's text surely holds cards and nothing else: no ``;``
    before a marker, no marker on its own (the shortest is 5 letters, a hand
    at least 26 characters), and not blank.  False sends the text the long
    way, which reads markers and words every error."""
    return ";" not in text and len(text) > 20 and not text.isspace()


def _markers(text: str, prefix: str, name: str) -> tuple[str, set[str]]:
    """The hand text and the markers after ``;`` (``surrender`` may stand alone)."""
    if only_cards(text):  # the common case
        return text, set()
    hand, *rest = text.split(";")
    markers = {marker.strip().lower() for marker in rest if marker.strip()}
    if hand.strip().lower() in MARKERS:
        markers.add(hand.strip().lower())
        hand = ""
    unknown = sorted(markers - set(MARKERS))
    if unknown:
        raise DealError(f"{prefix}{name}: unknown marker {shown(unknown[0])} (markers: {', '.join(MARKERS)})")
    return hand, markers


def _seat(entry: Entry, flags: dict[str, set[str]]) -> Seat:
    name = entry.name
    text = entry.text
    if not flags and only_cards(text):  # the common case
        found = _parsed(text, entry.where, name)
        if isinstance(found, Hand):
            return Seat(name, owner(name), found, None, False, False, False)
        return Seat(name, owner(name), None, tuple(found), False, False, False)
    prefix = f"{entry.where}: " if entry.where else ""
    text, markers = _markers(text, prefix, name)
    flagged = {marker for marker, names in flags.items() if name in names}
    if RESULT.match(text) or text.lstrip()[:1] in ("+", "-"):  # a card never starts with a sign
        # Fantasyland as the session marks it: a results deal has no hand to play it in (the player leaves it).
        return _result_seat(entry, text, markers | (flagged - {"fantasyland"}), prefix, "fantasyland" in flagged)
    markers |= flagged
    if not text.strip():
        if "surrender" not in markers:
            raise DealError(f"{prefix}{entry.name}: no hand (write the 13 cards, or 'surrender')")
        return Seat(
            entry.name,
            owner(entry.name),
            None,
            (),
            True,
            False,
            "fantasyland" in markers,
            "banker" in markers,
            dealer="dealer" in markers,
        )
    found = _parsed(text, entry.where, name)
    hand = found if isinstance(found, Hand) else None
    cards = found.cards() if isinstance(found, Hand) else tuple(found)
    if "waive" in markers and hand is None:
        raise DealError(f"{prefix}{entry.name}: only a set hand can waive a natural: set it as front / middle / back")
    return Seat(
        entry.name,
        owner(entry.name),
        hand,
        cards,
        "surrender" in markers,
        "waive" in markers,
        "fantasyland" in markers,
        "banker" in markers,
        dealer="dealer" in markers,
    )


def _result_seat(entry: Entry, text: str, markers: set[str], prefix: str, playing: bool = False) -> Seat:
    """A player's result written instead of cards (``Amy: +6``): units, exact;
    ``playing``: the session has the player in Fantasyland (a marker written
    on the line is refused: a result has no hand)."""
    name = entry.name
    if owner(name) != name:
        raise DealError(f"{prefix}{name}: a result is a player's, not one hand's: write it once for {owner(name)}")
    refused = sorted(markers & {"surrender", "waive", "fantasyland"})
    if refused:
        raise DealError(
            f"{prefix}{name}: a result cannot be marked '{refused[0]}' (it has no hand): write the cards, or the result alone"
        )
    written = text.strip()
    if written[:1] in ("+", "-") and written[1:2].isspace():
        raise DealError(f"{prefix}{name}: result {shown(written)}: write the sign next to the number ({written[0]}6)")
    try:
        units = parse_amount(written[1:] if written.startswith("+") else written)
    except AmountError as error:
        raise DealError(f"{prefix}{name}: result {error}") from None
    return Seat(name, name, None, (), False, False, playing, "banker" in markers, units, "dealer" in markers)


def result_text(units: Amount) -> str:
    """A result as a session line writes it: signed, ``+6``, ``-2.5``, ``0``."""
    return amount_text(units) if units <= 0 else f"+{amount_text(units)}"


def check_results(seats: list[Seat], entries: list[Entry], where: str) -> None:
    """A deal of results: every line a result (a deal is all cards or all
    results), summing to zero."""
    kinds = [seat.result is not None for seat in seats]
    if all(kinds):
        total = sum(seat.result for seat in seats)  # type: ignore[misc]  # all set
        if total != 0:
            place = where or entries[0].where
            sign = "+" if total > 0 else ""
            raise DealError(
                f"{place + ': ' if place else ''}the results sum to {sign}{amount_text(total)}, not 0: "
                "what one player wins another loses"
            )
        return
    mixed = kinds.index(True)
    card = kinds.index(False)
    entry = entries[max(mixed, card)]
    prefix = f"{entry.where}: " if entry.where else ""
    raise DealError(
        f"{prefix}{seats[mixed].name} has a result and {seats[card].name} cards: "
        "a deal is written all as cards or all as results"
    )


def _parsed(text: str, where: str, name: str) -> Hand | tuple[Card, ...]:
    try:
        return parse_hand_or_cards(text, name)
    except CardError as error:
        raise CardError(f"{where}: {error}" if where else str(error)) from None


def _name_a_card_dealt_twice(seats: list[Seat], entries: list[Entry]) -> None:
    """Raise the error for the first card held twice, naming both places."""
    holders: dict[Card, tuple[str, str]] = {}
    for seat, entry in zip(seats, entries):
        prefix = f"{entry.where}: " if entry.where else ""
        places = zip(ROW_NAMES, seat.hand.rows) if seat.hand else [("hand", seat.cards)]
        for row_name, row in places:
            for card in row:
                if card in holders:
                    other, other_row = holders[card]
                    raise DealError(
                        f"{prefix}{card} is dealt twice: in {other}'s {other_row} and in {entry.name}'s {row_name}"
                    )
                holders[card] = (entry.name, row_name)


def _no_banker(entry: Entry, rules: RuleSet) -> None:
    prefix = f"{entry.where}: " if entry.where else ""
    raise DealError(
        f"{prefix}{entry.name} is named the banker, but the {rules.id} rules settle every pair: there is no banker"
    )


def _no_fantasyland(entry: Entry, rules: RuleSet) -> None:
    prefix = f"{entry.where}: " if entry.where else ""
    raise DealError(
        f"{prefix}{entry.name}: the fantasyland marker has no effect: the {rules.id} rules have no Fantasyland"
    )


def _seats_one_by_one(entries: list[Entry], flags: dict[str, set[str]], rules: RuleSet | None) -> list[Seat]:
    """The seats, checking each name against those before it (a name given
    twice, or written two ways, is an error naming both places)."""
    seats: list[Seat] = []
    first_seen: dict[str, str] = {}
    players, owners = Names(), Names()
    for entry in entries:
        if entry.name in first_seen:
            prefix = f"{entry.where}: " if entry.where else ""
            earlier = f" (first at {first_seen[entry.name]})" if first_seen[entry.name] else ""
            # Two deals with no blank line between them read as one deal: say where one may be missing.
            line = entry.where.rsplit("line ", 1)[-1] if ", line " in entry.where else ""
            hint = f"; a blank line ends a deal: is one missing before line {line}?" if line and len(seats) >= 2 else ""
            raise DealError(f"{prefix}player {shown(entry.name)} is named twice{earlier}{hint}")
        first_seen[entry.name] = entry.where
        players.check(entry.name, entry.where)
        seat = _seat(entry, flags)
        owners.check(seat.owner, entry.where)  # Amy[1] and amy: one player written two ways
        if seat.fantasyland and rules and not rules.ofc.played:
            _no_fantasyland(entry, rules)
        if seat.banker and rules and not rules.banker.banks:
            _no_banker(entry, rules)
        seats.append(seat)
    return seats


def _plain_deal(entries: list[Entry], max_players: int) -> Deal | None:
    """The deal when it is written the plain way (the common case): hands of
    cards alone (:func:`cpscore.cards.plain_codes`), no marker, no
    ``OWNER[LABEL]``, names distinct in every spelling, no card twice, a
    player count the rules allow.  None for anything else, which
    :func:`build_deal` reads the long way (and words the error for)."""
    if not MIN_PLAYERS <= len(entries) <= max_players:
        return None
    seats = []
    held: set[int] = set()
    keys = set()
    for entry in entries:
        name, text = entry.name, entry.text
        if ";" in text or "[" in name or "]" in name:
            return None
        codes = plain_codes(text)
        if codes is None:
            return None
        held.update(codes)
        keys.add(name_key(name))
        seats.append(Seat(name, name, hand_of(codes), None, False, False, False))
    if len(held) != 13 * len(seats) or len(keys) != len(seats):
        return None
    return Deal(tuple(seats))


def build_deal(
    entries: Iterable[Entry],
    rules: RuleSet | None = None,
    surrender: Iterable[str] = (),
    waive: Iterable[str] = (),
    fantasyland: Iterable[str] = (),
    where: str = "",
    dealer: str | None = None,
) -> Deal:
    """Parse every hand and check the deal as a whole (hand count under ``rules``).
    Errors name the line of the hand they are about; errors about the whole
    deal name ``where`` (a session's deal), else the line that broke the rule.

    ``surrender``, ``waive``, ``fantasyland`` and ``dealer`` name players
    marked on the command line; each must hold a hand in the deal, written
    exactly (a player who surrenders without cards is seated as ``NAME:
    surrender``)."""
    entries = list(entries)
    if not (surrender or waive or fantasyland or dealer):
        plain = _plain_deal(entries, rules.methods.max_players if rules else 4)
        if plain is not None:
            return plain
    names = [entry.name for entry in entries]
    hints = {"surrender": "; to seat a player who surrenders without cards, write NAME=surrender"}
    flags = {
        marker: {named_player(name, names, f"--{marker}", hints.get(marker, "")) for name in given}
        for marker, given in (
            ("surrender", surrender),
            ("waive", waive),
            ("fantasyland", fantasyland),
            ("dealer", () if dealer is None else (dealer,)),
        )
        if given
    }
    if flags.get("fantasyland") and rules and not rules.ofc.played:
        raise DealError(f"--fantasyland has no effect: the {rules.id} rules have no Fantasyland")
    max_players = rules.methods.max_players if rules else 4
    keys = {name_key(name) for name in names}
    if len(keys) == len(names) and all(owner(name) is name for name in names):
        # Every name distinct in every spelling, no OWNER[LABEL]: nothing to compare one by one.
        seats = []
        for entry in entries:
            seat = _seat(entry, flags)
            if seat.fantasyland and rules and not rules.ofc.played:
                _no_fantasyland(entry, rules)
            if seat.banker and rules and not rules.banker.banks:
                _no_banker(entry, rules)
            seats.append(seat)
    else:
        seats = _seats_one_by_one(entries, flags, rules)
    if any(seat.result is not None for seat in seats):
        check_results(seats, entries, where)
    dealers = [seat.name for seat in seats if seat.dealer]
    if len(dealers) > 1:
        place = where or entries[0].where
        raise DealError(
            f"{place + ': ' if place else ''}{dealers[0]} and {dealers[1]} are both marked dealer: mark one"
        )
    codes: list[int] = []
    for seat in seats:
        codes += seat.codes
    if len(set(codes)) != len(codes):
        _name_a_card_dealt_twice(seats, entries)
    if not MIN_PLAYERS <= len(seats) <= max_players:
        # Criss-cross counts hands, not players (docs/rules.md 1).
        noun = "hand" if len({seat.owner for seat in seats}) < len(seats) else "player"
        extra = entries[min(len(entries), max_players + 1) - 1] if entries else None
        place = where or (extra.where if extra else "")
        raise DealError(
            (f"{place}: " if place else "") + f"{len(seats)} {noun}{'s' if len(seats) != 1 else ''} in the deal: "
            f"a deal has {MIN_PLAYERS} to {max_players} {noun}s"
            + (f" under the {rules.id} rules" if rules and max_players < 4 else "")
        )
    if len({seat.owner for seat in seats}) < 2:
        place = where or entries[0].where
        raise DealError(
            f"{place + ': ' if place else ''}every hand in the deal belongs to one player: a deal needs at least two players"
        )
    return Deal(tuple(seats))


def check_pair_players(pairs: Iterable[tuple[str, str, str]], players: Iterable[str]) -> None:
    """Each ``(a, b, what)`` of a pair stake must name two of ``players``
    exactly; ``what`` says where the stake was given (``--pair-stake``, or a
    session's header line).  A stake naming nobody who plays would be ignored
    without a word: that is an error."""
    players = list(players)
    for a, b, what in pairs:
        for name in (a, b):
            named_player(name, players, what)
