"""Rule sets as data (docs/rules.md 5-12).

A :class:`RuleSet` is a frozen record made of sections that follow
docs/rules.md: :class:`Methods`, :class:`Rows`, :class:`Royalties`,
:class:`Naturals`, :class:`Multipliers`, :class:`Banker`, :class:`Suits`,
:class:`Money` and :class:`Ofc`.  Each section is frozen, made from keywords
only, and checked when made: every setting by its :class:`Setting` (a
closed choice is a ``StrEnum`` whose values are the rule file's words), then
the settings that cannot go together, or would have no effect.  So a rule set
is valid however it was made: from a rule file, a preset or Python.

A new setting is one :class:`Setting` in its section (its name, check,
default and one line of docs), the branch where it takes effect, and its
docs in docs/rules.md; the rule file's reader, ``rules show``, equality,
hashing and every cache follow from the record.

Presets are rule files in ``cpscore/presets/``: each names its ``parent``
and gives only what it changes (the first, ``2-4``, what it changes from the
defaults).  They are compiled into ``cpscore/_presets.py`` (by ``python -m
cpscore.presetgen``) so that start-up parses no TOML.  A house rule is a TOML
file that names a preset and overrides settings: the same record with other
values, never another code path.  What the kernel and the arranger work out
of a rule set is made once per rule set value (:meth:`RuleSet.derived`).

>>> get_rules("ofc").royalties.table.lookup("back", "quads")
10
>>> get_rules("ofc").royalties.table.lookup("front", "pair", "QQ")
7
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from enum import StrEnum  # the enum module is loaded at start-up anyway (re uses it)
from types import MappingProxyType
from typing import TypeVar
from weakref import WeakValueDictionary  # loaded at start-up anyway

from cpscore.amounts import Amount, AmountError, exact
from cpscore.errors import CpscoreError, RulesError, nearest, shown
from cpscore.records import Record
from cpscore.values import CATEGORY_IDS

#: Each method's bonus (docs/rules.md 5), as data: (units to the player who wins
#: at least two rows, units to the player who wins all three).  A method is one entry.
METHOD_BONUSES: Mapping[str, tuple[int, int]] = MappingProxyType(
    {"rows": (0, 0), "2-4": (1, 0), "1-6": (0, 3), "1-4": (0, 1)}
)
#: Natural ids, most valuable first as docs/rules.md 7 lists them (its order breaks
#: ties in value; all-high and all-low share a line).
NATURALS = (
    "clean-dragon",
    "dragon",
    "twelve-royals",
    "three-straight-flushes",
    "three-quads",
    "all-high",
    "all-low",
    "six-and-higher",
    "one-colour",
    "twelve-one-colour",
    "four-trips",
    "five-pairs-trips",
    "six-pairs",
    "five-consecutive-pairs",
    "three-straights",
    "three-flushes",
    "no-broadway",
)
#: The default ``natural_rank`` (docs/rules.md 7): the order above.
NATURAL_RANK = NATURALS
_LETTERS = "23456789TJQKA"
#: Keys of a front royalty table: ``22`` ... ``AA`` for pairs, ``222`` ... ``AAA`` for trips
#: of that rank (a rule file may write these ``trips-2`` ... ``trips-A``), ``trips`` for any trips.
FRONT_KEYS = tuple(letter * 2 for letter in _LETTERS) + tuple(letter * 3 for letter in _LETTERS) + ("trips",)
#: Keys of a middle or back royalty table: category ids from a pair up, ``quads-2`` ...
#: ``quads-A`` for quads of that rank and ``steel-wheel`` (the A-2-3-4-5 straight flush);
#: ``royal-flush`` and ``steel-wheel`` fall back to ``straight-flush`` when a table has no entry.
FIVE_CARD_KEYS = (*CATEGORY_IDS[1:], *(f"quads-{letter}" for letter in _LETTERS), "steel-wheel")
#: Keys of a low middle's table (``low_middle``, docs/rules.md 10): ``low-75432`` for the
#: best low, ``low-7`` ... ``low-A`` for a low by its highest card (``low-75432`` falls back to ``low-7``).
LOW_KEYS = ("low-75432", *(f"low-{letter}" for letter in _LETTERS[5:]))
ROW_TABLES = {"front": FRONT_KEYS, "middle": (*FIVE_CARD_KEYS, *LOW_KEYS), "back": FIVE_CARD_KEYS}
_EMPTY: Mapping[str, Amount] = MappingProxyType({})


# Closed choices ---------------------------------------------------------------------
#
# Each is a ``StrEnum`` whose values are the words a rule file uses, so a member
# compares equal to its word and prints as it (``Method.ONE_SIX == "1-6"``).


class Method(StrEnum):
    """How a pair's rows score and what bonus the winner adds (docs/rules.md 5)."""

    ROWS = "rows"
    TWO_FOUR = "2-4"
    ONE_SIX = "1-6"
    ONE_FOUR = "1-4"


class RoyaltyMode(StrEnum):
    """Who collects a royalty (docs/rules.md 6)."""

    NONE = "none"
    HOLDER = "holder"
    ROW_BONUS = "row-bonus"
    ROW_VALUE = "row-value"


class SpadeBonus(StrEnum):
    """Which royalties 2s doubles (docs/rules.md 6); off is None."""

    ROW = "row"
    OWN = "own"


class Wheel(StrEnum):
    """Where A-2-3-4-5 ranks among straights (docs/rules.md 2)."""

    LOWEST = "lowest"
    SECOND = "second"


class FantasylandKind(StrEnum):
    """How Fantasyland is played (docs/rules.md 9)."""

    NONE = "none"
    STANDARD = "standard"
    PROGRESSIVE = "progressive"
    DEUCE_TO_SEVEN = "2-7"


class CrissCross(StrEnum):
    """Which hands of two players with two hands each play (docs/rules.md 10)."""

    ALL = "all"
    CORRESPONDING = "corresponding"


class HomeRunSplit(StrEnum):
    """How a home run is paid (docs/rules.md 8)."""

    PAIR = "pair"
    EQUAL = "equal"


class NaturalOrder(StrEnum):
    """Which natural a hand claims when it makes several (docs/rules.md 7)."""

    VALUE = "value"
    RANK = "rank"


class NaturalVsNatural(StrEnum):
    """What two naturals in a pair pay (docs/rules.md 7)."""

    HIGHER = "higher"
    NET = "net"


class NaturalRowOrder(StrEnum):
    """The rows compared, in order, to break a tie of row-based naturals (docs/rules.md 7)."""

    BACK_MIDDLE_FRONT = "back-middle-front"
    BACK_FRONT_MIDDLE = "back-front-middle"


class Pairing(StrEnum):
    """Which pairs of hands settle (docs/rules.md 12)."""

    ALL = "all"
    BANKER = "banker"


class BankerRotation(StrEnum):
    """Whether the bank passes after each deal (docs/rules.md 12)."""

    FIXED = "fixed"
    NEXT = "next"


class ButtonRotation(StrEnum):
    """Whether the button passes after each deal (docs/rules.md 12)."""

    FIXED = "fixed"
    NEXT = "next"


class CapScope(StrEnum):
    """Over what a cap counts a player's money (docs/rules.md 12)."""

    DEAL = "deal"
    SESSION = "session"


class Suit(StrEnum):
    """A suit, as the letter cards are written with."""

    SPADES = "s"
    HEARTS = "h"
    DIAMONDS = "d"
    CLUBS = "c"


# The words of each closed choice, in order (the error messages list them).
METHODS = tuple(Method)
ROYALTY_MODES = tuple(RoyaltyMode)
WHEELS = tuple(Wheel)
FANTASYLAND = tuple(FantasylandKind)
CRISS_CROSS = tuple(CrissCross)
HOME_RUN_SPLITS = tuple(HomeRunSplit)
NATURAL_ORDERS = tuple(NaturalOrder)
NATURAL_VS_NATURAL = tuple(NaturalVsNatural)
NATURAL_ROW_ORDERS = tuple(NaturalRowOrder)
PAIRINGS = tuple(Pairing)
BANKER_ROTATIONS = tuple(BankerRotation)
CAP_SCOPES = tuple(CapScope)
BUTTON_ROTATIONS = tuple(ButtonRotation)
SPADE_BONUSES = tuple(SpadeBonus)
SUITS = "shdc"


class RoyaltyTable(Record):
    """Royalty units per row.  Front keys are ranks (``66``, ``AAA``); middle and
    back keys are category ids.  A missing key pays nothing."""

    __slots__ = ("front", "middle", "back", "key")
    _args = ("front", "middle", "back")

    def __init__(
        self,
        front: Mapping[str, Amount] = _EMPTY,
        middle: Mapping[str, Amount] = _EMPTY,
        back: Mapping[str, Amount] = _EMPTY,
    ) -> None:
        self.front = front
        self.middle = middle
        self.back = back
        #: The table as a hashable value: two tables with the same entries share it.
        self.key = tuple(tuple(sorted(row.items())) for row in (front, middle, back))

    def __hash__(self) -> int:  # type: ignore[override]  # Record values are not hashable; tables are
        return hash(self.key)

    def lookup(self, row: str, category: str, ranks: str = "") -> Amount:
        """Units for a row of this category (``royal-flush`` and ``steel-wheel`` are
        categories here); ``ranks`` are the row's group letters (``QQ`` for a pair of
        queens, ``777`` for trips, ``8888`` for quads).  The most specific entry wins:
        a royal flush or steel wheel's own, then the rank's, then the category's."""
        if row == "front":
            if category not in ("pair", "trips"):
                return 0
            found = self.front.get(ranks)
            return found if found is not None else self.front.get(category, 0) if category == "trips" else 0
        table = self.middle if row == "middle" else self.back
        if category == "low":  # a low middle: ranks are its cards, highest first ("75432")
            found = table.get(f"low-{ranks}") if ranks == "75432" else None
            return found if found is not None else table.get(f"low-{ranks[0]}", 0)
        if category in ("royal-flush", "steel-wheel"):
            found = table.get(category)
            if found is not None:
                return found
            category = "straight-flush"
        elif category == "quads" and ranks:
            found = table.get(f"quads-{ranks[0]}")
            if found is not None:
                return found
        return table.get(category, 0)

    def pays_back(self, *kinds: str) -> bool:
        """Whether the back table pays any of these categories (``quads`` counts
        ``quads-R`` entries too)."""
        return any(key in kinds or ("quads" in kinds and key.startswith("quads-")) for key in self.back)


# Checking a setting's value -----------------------------------------------------------


class SettingError(RulesError):
    """A setting's value that cannot be: ``key`` is where it sits in a rule file
    below its section (``mode``, ``front.QQQ``), ``message`` what is wrong;
    ``unknown`` marks a key no setting has, ``close`` the known key nearest it.
    Reading a rule file turns it into the line that names the file."""

    def __init__(self, message: str, key: str = "", unknown: bool = False, close: str | None = None) -> None:
        super().__init__(f"{key}: {message}" if key else message)
        self.message, self.key, self.unknown, self.close = message, key, unknown, close

    def at(self, prefix: str) -> SettingError:
        """The same error with ``prefix`` before its key."""
        return SettingError(self.message, prefix + self.key, self.unknown, self.close)


def _unknown(key: object, known: Iterable[str]) -> SettingError:
    text = key if isinstance(key, str) and len(key) <= 40 and key.isprintable() else shown(key, 40)
    return SettingError("unknown setting", str(text), True, nearest(str(key), known))


Check = Callable[[object], object]


def _choice(kind: type[StrEnum]) -> Check:
    words = tuple(kind)

    def check(value: object) -> object:
        if isinstance(value, str) and value in words:
            return kind(value)
        raise SettingError(f"{shown(value)} is not one of {', '.join(words)}")

    return check


def _flag(value: object) -> object:
    if not isinstance(value, bool):
        raise SettingError(f"{shown(value)} is not true or false")
    return value


def _text(value: object) -> object:
    if not isinstance(value, str):
        raise SettingError(f"{shown(value)} is not a string")
    return value


def _whole(low: int, high: int | None = None) -> Check:
    def check(value: object) -> object:
        if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
            span = f"from {low} to {high}" if high is not None else f"{low} or more"
            raise SettingError(f"{shown(value)} is not a whole number {span}")
        return value

    return check


def _amount(value: object, allow_off: bool) -> Amount:
    """A non-negative exact amount."""
    if isinstance(value, str):
        raise SettingError(f"{shown(value)} is text, not a number: write a number without quotes, such as 2.5")
    try:
        amount = None if isinstance(value, bool) else exact(value)
    except AmountError as error:
        if error.out_of_bounds:  # a number, but too large or too small: say so
            raise SettingError(f"{error}") from None
        amount = None
    if amount is None or amount < 0:
        off = " (or false for off)" if allow_off else ""
        raise SettingError(f"{shown(value)} is not a number of units, 0 or more{off}")
    return amount


def _units(value: object) -> object:
    return _amount(value, allow_off=False)


def _units_or_off(value: object) -> object:
    """A non-negative exact amount, or None (``false`` in a rule file) for off."""
    return None if value is False or value is None else _amount(value, allow_off=True)


def _surrender(value: object) -> object:
    """As :func:`_units_or_off`; a preset's fraction (a float: rule files read
    decimals) is checked and kept as it is (:attr:`Methods.surrender`), so that
    a run with no surrender needs no decimal arithmetic at all (start-up)."""
    if isinstance(value, float) and 0 <= value < 1e15 and (value * 4).is_integer():
        return value  # a quarter is exact in binary: the float hashes and compares as the exact amount
    return _units_or_off(value)


def _money_or_off(value: object) -> object:
    """An amount of money, or None for off."""
    if value is False or value is None:
        return None
    try:
        return _amount(value, allow_off=True)
    except SettingError:
        raise SettingError(f"{shown(value)} is not an amount of money above 0, or false") from None


def _units_or_true(value: object) -> object:
    """An amount, True (kept as True), or None for off."""
    if value is True:
        return True
    if value is False or value is None:
        return None
    try:
        return _amount(value, allow_off=True)
    except SettingError:
        raise SettingError(f"{shown(value)} is not an amount of money, true or false") from None


def _horse(value: object) -> object:
    """A card (``"As"``), kept as its text as the cards write it, or None for off."""
    if value is False or value is None:
        return None
    from cpscore.cards import parse_card
    from cpscore.errors import CardError

    if not isinstance(value, str):
        raise SettingError(f'{shown(value)} is not a card, such as "As", or false')
    try:
        card = parse_card(value.strip())
    except CardError:
        raise SettingError(f'{shown(value)} is not a card, such as "As", or false') from None
    return str(card)


def _low_qualifier(value: object) -> object:
    """A rank letter from 7 to A (the highest card a qualifying low holds; ``"10"``
    is ``"T"``), or None for off."""
    if value is False or value is None:
        return None
    if value == "10":
        value = "T"
    if isinstance(value, str) and value.upper() in _LETTERS[5:]:
        return value.upper()
    raise SettingError(f'{shown(value)} is not a rank from "7" to "A" (such as "T" for ten-low), or false')


def _repeats(value: object) -> object:
    """A whole number of repeats, or ``"unlimited"`` (kept as the word, so that a
    rule file written back says it; None from Python means it too)."""
    if value == "unlimited" or value is None:
        return "unlimited"
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 99:
        raise SettingError(f'{shown(value)} is not a whole number from 0 to 99, or "unlimited"')
    return value


def _spade_bonus(value: object) -> object:
    if value is True:
        return SpadeBonus.ROW
    if value is False or value is None:
        return None
    if isinstance(value, str) and value in SPADE_BONUSES:
        return SpadeBonus(value)
    raise SettingError(f"{shown(value)} is not one of false, true (row), row, own")


def _suit_order(value: object) -> object:
    if value is False or value is None or value == "none":
        return None
    if not isinstance(value, (list, tuple)) or sorted(map(str, value)) != sorted(SUITS):
        raise SettingError(
            f'{shown(value)} is not the four suits highest first, such as ["s", "h", "c", "d"], or false'
        )
    return tuple(Suit(suit) for suit in value)


def _natural_rank(value: object) -> object:
    if not isinstance(value, (list, tuple)) or not all(isinstance(item, str) for item in value):
        raise SettingError(f"{shown(value)} is not a list of natural ids, highest first")
    for item in value:
        if item not in NATURALS:
            raise SettingError(f"unknown natural {shown(item)}", unknown=True, close=nearest(item, NATURALS))
    repeated = [item for item in value if value.count(item) > 1]
    if repeated:
        raise SettingError(f"{shown(repeated[0])} is listed twice")
    # Naturals left out keep their default places, after the listed ones.
    return (*value, *(item for item in NATURAL_RANK if item not in value))


_TRIPS_SPELLING = {f"trips-{letter}": letter * 3 for letter in _LETTERS}


def _royalty_table(value: object) -> object:
    """A :class:`RoyaltyTable`, or its rows as a rule file gives them: a table
    per row of keys and units; ``trips-R`` is another spelling of ``RRR``."""
    if isinstance(value, RoyaltyTable):
        value = {"front": value.front, "middle": value.middle, "back": value.back}
    if not isinstance(value, Mapping):
        raise SettingError(f"{shown(value)} is not a royalty table")
    for key in value:
        if key not in ROW_TABLES:
            raise _unknown(key, ROW_TABLES)
    rows = {}
    for row, keys in ROW_TABLES.items():
        entries = value.get(row, _EMPTY)
        if not isinstance(entries, Mapping):
            raise SettingError(f"{shown(entries)} is not a table", row)
        plain: dict[str, object] = {}
        for key, units in entries.items():
            name = _TRIPS_SPELLING.get(str(key), str(key)) if row == "front" else str(key)
            if name in plain:
                raise SettingError(f"the same entry as {name}: give it once", f"{row}.{key}")
            plain[name] = units
        for key in plain:
            if key not in keys:
                raise _unknown(key, keys).at(f"{row}.")
        checked = {}
        for key, units in plain.items():
            try:
                checked[key] = _amount(units, allow_off=False)
            except SettingError as error:
                raise error.at(f"{row}.{key}") from None
        rows[row] = MappingProxyType(checked)
    return RoyaltyTable(**rows)


#: The units ``true`` turns a natural on with (docs/rules.md 7: "3 when enabled").
_NATURAL_ON: Mapping[str, int] = MappingProxyType({"no-broadway": 3})


def _natural_units(value: object) -> object:
    """The naturals played and their units; a natural given ``false`` (or None) is not played."""
    if not isinstance(value, Mapping):
        raise SettingError(f"{shown(value)} is not a table")
    played = {}
    for key, units in value.items():
        if key not in NATURALS:
            raise _unknown(key, NATURALS)
        if units is True:  # docs/rules.md 7: no-broadway alone has a value when turned on
            if key not in _NATURAL_ON:
                raise SettingError("give its units (true stands for 3 only for no-broadway)", key)
            units = _NATURAL_ON[key]
        try:
            amount = _units_or_off(units)
        except SettingError as error:
            raise error.at(key) from None
        if amount is not None:
            played[key] = amount
    return MappingProxyType(played)


# Sections ---------------------------------------------------------------------------


class Setting:
    """One setting of a section: its name (the field), how a value is checked
    and made (a function that returns the value or raises :class:`SettingError`),
    its default, one line on what it does, and its key in a rule file."""

    __slots__ = ("name", "check", "default", "doc", "key", "slot")

    def __init__(self, name: str, check: Check, default: object, doc: str, key: str = "", slot: str = "") -> None:
        self.name, self.check, self.default, self.doc = name, check, default, doc
        self.key = key or name  # "royalties.mode"; the royalty table's is "royalties", the naturals' "naturals"
        self.slot = slot or name  # where the value is kept (a property may read it)


def _value_key(value: object) -> object:
    """A setting's value as a hashable value (mappings by their sorted items)."""
    if isinstance(value, Mapping):
        return tuple(sorted(value.items()))
    return value


def _plain(value: object) -> object:
    """A setting's value as rule files and JSON hold it: off is ``False``,
    a choice its word, a tuple a list."""
    if value is None:
        return False
    if isinstance(value, StrEnum):
        return value.value
    if isinstance(value, tuple):
        return [_plain(item) for item in value]
    return value


class Section(Record):
    """A frozen record of settings, made from keywords only and checked when
    made: each value by its :class:`Setting`, then the settings of the section
    that cannot go together (:meth:`_check`).  Equal sections hash alike."""

    __slots__ = ("_hash",)
    _hash: int | None
    #: The section's settings, in the order rule files and ``rules show`` list them.
    SETTINGS: tuple[Setting, ...] = ()

    def __init__(self, **values: object) -> None:
        for setting in self.SETTINGS:
            value = values.pop(setting.name, setting.default)
            try:
                checked = setting.check(value)
            except SettingError as error:
                key = f"{setting.key}.{error.key}" if error.key else setting.key
                raise SettingError(error.message, key, error.unknown, error.close) from None
            object.__setattr__(self, setting.slot, checked)
        if values:
            raise _unknown(next(iter(values)), self._args)
        object.__setattr__(self, "_hash", None)
        self._check()

    def _check(self) -> None:
        """Raise :class:`SettingError` for settings of this section that cannot go together."""

    def _error(self, name: str, message: str) -> SettingError:
        """An error about the setting ``name``, keyed as a rule file writes it."""
        key = next(setting.key for setting in self.SETTINGS if setting.name == name)
        return SettingError(message, key)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen: make another with _replace")

    def __hash__(self) -> int:  # type: ignore[override]  # Record values are not hashable; sections are
        found = self._hash
        if found is None:
            # By the kept values: a float 2.5 hashes as the exact 2.5 its property makes.
            found = hash((type(self).__name__, *(_value_key(getattr(self, s.slot)) for s in self.SETTINGS)))
            object.__setattr__(self, "_hash", found)
        return found

    def __reduce__(self) -> tuple[object, ...]:  # frozen: pickle through the constructor
        return (_rebuild, (type(self), {name: _picklable(getattr(self, name)) for name in self._args}))


def _picklable(value: object) -> object:
    """A setting's value as its check takes it again, without mapping proxies (which do not pickle)."""
    if isinstance(value, RoyaltyTable):
        return {row: dict(getattr(value, row)) for row in ROW_TABLES}
    if isinstance(value, Mapping):
        return dict(value)
    return value


def _rebuild(kind: type[Section], values: dict[str, object]) -> Section:
    return kind(**values)


def _default(section: Section, name: str) -> object:
    """The default of the setting ``name`` of ``section``."""
    return next(setting.default for setting in section.SETTINGS if setting.name == name)


def _names(settings: tuple[Setting, ...]) -> tuple[str, ...]:
    return tuple(setting.name for setting in settings)


def _slots(settings: tuple[Setting, ...]) -> tuple[str, ...]:
    return tuple(setting.slot for setting in settings)


class Methods(Section):
    """How a pair is settled: the method, surrender and who plays whom (docs/rules.md 4, 5, 10)."""

    SETTINGS = (
        Setting("method", _choice(Method), Method.TWO_FOUR, "how rows score, and the bonus for two or three rows"),
        Setting(
            "surrender",
            _surrender,
            None,
            "units a surrender pays each opponent; None: not allowed",
            slot="_surrender",
        ),
        Setting("max_players", _whole(2, 4), 4, "the most hands a deal holds"),
        Setting(
            "criss_cross", _choice(CrissCross), CrissCross.ALL, "which hands of two players with two hands each meet"
        ),
    )
    __slots__ = _slots(SETTINGS)
    _args = _names(SETTINGS)
    method: Method
    _surrender: Amount | float | None
    max_players: int
    criss_cross: CrissCross

    @property
    def surrender(self) -> Amount | None:
        """Units a surrender pays each opponent; None: not allowed.  A preset's
        fraction (2.5) is kept as its float until asked for."""
        value = self._surrender
        if isinstance(value, float):
            value = exact(value)
            object.__setattr__(self, "_surrender", value)
        return value

    @property
    def bonuses(self) -> tuple[int, int]:
        """The method's bonus: (units for winning two rows or more, units for winning all three)."""
        return METHOD_BONUSES[self.method]


class Rows(Section):
    """How rows rank, and what a foul costs (docs/rules.md 2, 3, 10)."""

    SETTINGS = (
        Setting("wheel", _choice(Wheel), Wheel.LOWEST, "where A-2-3-4-5 ranks among straights"),
        Setting("low_middle", _flag, False, "the middle plays low (deuce-to-seven): the lower middle wins"),
        Setting("foul_plays", _flag, False, "a fouled hand pays its penalty and still plays its rows"),
        Setting(
            "low_middle_qualifier",
            _low_qualifier,
            None,
            "low_middle: the highest card a low middle may hold (no pair, straight or flush); None: any",
        ),
    )
    __slots__ = _slots(SETTINGS)
    _args = _names(SETTINGS)
    wheel: Wheel
    low_middle: bool
    foul_plays: bool
    low_middle_qualifier: str | None

    def _check(self) -> None:
        if self.low_middle_qualifier is not None and not self.low_middle:
            raise self._error("low_middle_qualifier", "has no effect without low_middle = true")


class Royalties(Section):
    """What royalties pay and who collects them (docs/rules.md 6)."""

    SETTINGS = (
        Setting("mode", _choice(RoyaltyMode), RoyaltyMode.NONE, "who collects a royalty", "royalties.mode"),
        Setting(
            "cancel_when_both",
            _flag,
            False,
            "in the row modes, a row's royalty is not paid when the loser's row qualifies too",
            "royalties.cancel_when_both",
        ),
        Setting(
            "max_per_hand",
            _whole(0),
            0,
            "the most royalties a hand collects, largest first; 0: no limit",
            "royalties.max_per_hand",
        ),
        Setting(
            "spade_bonus",
            _spade_bonus,
            None,
            "2s doubles royalties: its row's (row) or its holder's (own); None: off",
            "royalties.spade_bonus",
        ),
        Setting(
            "broken_royalties",
            _flag,
            False,
            "quads and straight flushes split across rows pay as the back would",
            "royalties.broken_royalties",
        ),
        Setting(
            "higher_takes",
            _flag,
            False,
            "mode holder: of two royalties in the same row of a pair, only the winner of the row collects",
            "royalties.higher_takes",
        ),
        Setting("ace_bonus", _units, 0, "units each ace held collects from each opponent (Chi Á); 0: off"),
        Setting(
            "table", _royalty_table, RoyaltyTable(), "units per row and hand; what is not listed pays 0", "royalties"
        ),
    )
    __slots__ = _slots(SETTINGS)
    _args = _names(SETTINGS)
    mode: RoyaltyMode
    cancel_when_both: bool
    max_per_hand: int
    spade_bonus: SpadeBonus | None
    broken_royalties: bool
    higher_takes: bool
    ace_bonus: Amount
    table: RoyaltyTable

    def _check(self) -> None:
        if self.higher_takes and self.mode != "holder":
            raise self._error(
                "higher_takes", 'has no effect unless mode = "holder" (in the row modes the row\'s winner collects)'
            )
        if self.broken_royalties and not self.table.pays_back("quads", "straight-flush", "royal-flush", "steel-wheel"):
            raise self._error("broken_royalties", "has no effect: the back table pays no quads and no straight flush")

    @property
    def paid(self) -> bool:
        """Whether any royalty is paid (a mode, or broken royalties)."""
        return self.mode != "none" or self.broken_royalties


class Naturals(Section):
    """Which naturals are played, what they pay and which of two wins (docs/rules.md 7)."""

    SETTINGS = (
        Setting("units", _natural_units, _EMPTY, "the naturals played and their units per opponent", "naturals"),
        Setting("natural_rank", _natural_rank, NATURAL_RANK, "natural ids, highest first"),
        Setting("natural_order", _choice(NaturalOrder), NaturalOrder.VALUE, "which natural a hand claims of several"),
        Setting("natural_vs_natural", _choice(NaturalVsNatural), NaturalVsNatural.HIGHER, "what two naturals pay"),
        Setting("natural_suit_tiebreak", _flag, False, "the highest card's suit breaks a tie of naturals"),
        Setting("six_pairs_odd_card", _flag, False, "the odd card breaks a tie of equal six pairs"),
        Setting("ace_high_front_straight", _flag, True, "Q-K-A counts as a three-card straight"),
        Setting("false_claim", _units_or_off, None, "units a false claim pays each opponent; None: an error"),
        Setting(
            "natural_row_order",
            _choice(NaturalRowOrder),
            NaturalRowOrder.BACK_MIDDLE_FRONT,
            "the rows that break a tie of three straights, flushes or straight flushes, in order",
        ),
        Setting(
            "natural_beats_surrender",
            _flag,
            True,
            "a natural collects its value from a surrendered hand; false: the pair settles at 0",
        ),
    )
    __slots__ = _slots(SETTINGS)
    _args = _names(SETTINGS)
    units: Mapping[str, Amount]
    natural_rank: tuple[str, ...]
    natural_order: NaturalOrder
    natural_vs_natural: NaturalVsNatural
    natural_suit_tiebreak: bool
    six_pairs_odd_card: bool
    ace_high_front_straight: bool
    false_claim: Amount | None
    natural_row_order: NaturalRowOrder
    natural_beats_surrender: bool


class Multipliers(Section):
    """Scoops and home runs (docs/rules.md 8)."""

    SETTINGS = (
        Setting("scoop_doubles", _flag, False, "a scoop (all three rows) doubles the pair"),
        Setting("home_run", _flag, False, "scooping every opponent doubles again"),
        Setting("home_run_min_opponents", _whole(1, 3), 3, "the fewest opponents a home run needs"),
        Setting("home_run_split", _choice(HomeRunSplit), HomeRunSplit.PAIR, "pair: x2 each pair; equal: shared out"),
        Setting("horse", _horse, None, "the horse card (马牌): its holder's every pair counts double; None: off"),
    )
    __slots__ = _slots(SETTINGS)
    _args = _names(SETTINGS)
    scoop_doubles: bool
    home_run: bool
    home_run_min_opponents: int
    home_run_split: HomeRunSplit
    horse: str | None

    def _check(self) -> None:
        if not self.home_run:
            for name in ("home_run_min_opponents", "home_run_split"):
                if getattr(self, name) != _default(self, name):
                    raise self._error(name, "has no effect without home_run = true")

    @property
    def equal_split(self) -> bool:
        """Whether a home run is shared out equally (``home_run_split = "equal"``)."""
        return self.home_run_split == "equal"

    @property
    def banker_home_run(self) -> bool:
        """Whether a home run needs only one opponent: at a banker's table, only the banker makes one."""
        return self.home_run and self.home_run_min_opponents == 1


class Banker(Section):
    """Who plays whom at a banker's table (docs/rules.md 12)."""

    SETTINGS = (
        Setting(
            "pairing", _choice(Pairing), Pairing.ALL, "all: every pair settles; banker: only pairs with the banker"
        ),
        Setting("banker_rotation", _choice(BankerRotation), BankerRotation.FIXED, "next: the bank passes each deal"),
        Setting("banker_wins_ties", _flag, False, "a tied row goes to the banker"),
    )
    __slots__ = _slots(SETTINGS)
    _args = _names(SETTINGS)
    pairing: Pairing
    banker_rotation: BankerRotation
    banker_wins_ties: bool

    def _check(self) -> None:
        if self.pairing == "all":
            if self.banker_rotation != "fixed":
                raise self._error("banker_rotation", 'has no effect without pairing = "banker"')
            if self.banker_wins_ties:
                raise self._error("banker_wins_ties", 'has no effect without pairing = "banker"')

    @property
    def banks(self) -> bool:
        """Whether a banker plays every other hand and nobody else plays."""
        return self.pairing == "banker"


class Suits(Section):
    """Suits that break ties of equal ranks (docs/rules.md 12)."""

    SETTINGS = (
        Setting("suit_order", _suit_order, None, "suits highest first, breaking ties of equal rows; None: never"),
        Setting("suit_foul", _flag, False, "the foul check of middle against back uses suit_order"),
    )
    __slots__ = _slots(SETTINGS)
    _args = _names(SETTINGS)
    suit_order: tuple[Suit, ...] | None
    suit_foul: bool

    def _check(self) -> None:
        if self.suit_order is None and self.suit_foul:
            raise self._error("suit_foul", "needs suit_order (the suits, highest first)")

    @property
    def strength(self) -> tuple[int, int, int, int] | None:
        """Each suit's strength by suit code (clubs, diamonds, hearts, spades; 3
        the highest), or None without suit_order."""
        order = self.suit_order
        if order is None:
            return None
        clubs, diamonds, hearts, spades = (3 - order.index(Suit(suit)) for suit in "cdhs")
        return (clubs, diamonds, hearts, spades)


class Money(Section):
    """Limits on the money a player wins or loses (docs/rules.md 12)."""

    SETTINGS = (
        Setting("cap", _money_or_off, None, "the most a player wins or loses in cap_scope; None: no cap"),
        Setting("cap_scope", _choice(CapScope), CapScope.DEAL, "a deal, or the whole session"),
        Setting("table_stakes", _units_or_true, None, "each stack at the start; True: the session's buy-in; None: off"),
        Setting(
            "button_rotation",
            _choice(ButtonRotation),
            ButtonRotation.FIXED,
            "next: the button passes one seat each deal, and payments start left of it",
        ),
    )
    __slots__ = _slots(SETTINGS)
    _args = _names(SETTINGS)
    cap: Amount | None
    cap_scope: CapScope
    table_stakes: Amount | bool | None
    button_rotation: ButtonRotation

    def _check(self) -> None:
        if self.button_rotation != "fixed" and self.cap is None and self.table_stakes is None:
            raise self._error(
                "button_rotation",
                "has no effect without a cap or table stakes (the order of payments matters only there)",
            )
        if self.cap is None and self.cap_scope != "deal":
            raise self._error("cap_scope", "has no effect without a cap")
        stakes = self.table_stakes
        if stakes is not None and stakes is not True and stakes <= 0:
            raise self._error("table_stakes", "a stack of 0 cannot pay anything: give a buy-in above 0, or false")
        if self.cap is not None and self.cap <= 0:
            raise self._error("cap", "a cap of 0 would cut every payment: give an amount above 0, or false")

    @property
    def cuts(self) -> bool:
        """Whether a payment can be cut: by a cap or by a stack."""
        return self.cap is not None or bool(self.table_stakes)

    @property
    def session_cap(self) -> bool:
        """Whether a cap counts a player's money over the whole session."""
        return self.cap is not None and self.cap_scope == "session"

    @property
    def stacks(self) -> bool:
        """Whether players play from stacks (table stakes)."""
        return bool(self.table_stakes)

    @property
    def needs_buy_in(self) -> bool:
        """Whether a session must give the buy-in (``table_stakes = true``)."""
        return self.table_stakes is True

    @property
    def fixed_stack(self) -> Amount | None:
        """The stack the rules give each player, when they give one."""
        stakes = self.table_stakes
        return None if stakes is None or stakes is True or stakes is False else stakes


class Ofc(Section):
    """Open-face extras: Fantasyland (docs/rules.md 9)."""

    SETTINGS = (
        Setting("fantasyland", _choice(FantasylandKind), FantasylandKind.NONE, "how Fantasyland is played"),
        Setting("fantasyland_cards", _whole(13, 14), 13, "cards dealt in standard Fantasyland"),
        Setting(
            "fantasyland_middle_stays",
            _flag,
            True,
            "a full house or better in the middle keeps a player in Fantasyland",
        ),
        Setting(
            "fantasyland_repeats",
            _repeats,
            1,
            'the Fantasyland deals in a row a player may stay for after the first, or "unlimited"',
        ),
    )
    __slots__ = _slots(SETTINGS)
    _args = _names(SETTINGS)
    fantasyland: FantasylandKind
    fantasyland_cards: int
    fantasyland_middle_stays: bool
    fantasyland_repeats: int | str

    def _check(self) -> None:
        for name in ("fantasyland_repeats", "fantasyland_middle_stays"):
            if getattr(self, name) != _default(self, name) and self.fantasyland == "none":
                raise self._error(name, "has no effect without Fantasyland")
        if self.fantasyland_cards != _default(self, "fantasyland_cards") and self.fantasyland != "standard":
            raise self._error("fantasyland_cards", 'has no effect unless fantasyland = "standard"')

    @property
    def played(self) -> bool:
        """Whether Fantasyland is played."""
        return self.fantasyland != "none"


#: The sections of a rule set, by field name, in the order docs/rules.md takes them.
SECTIONS: Mapping[str, type[Section]] = MappingProxyType(
    {
        "methods": Methods,
        "rows": Rows,
        "royalties": Royalties,
        "naturals": Naturals,
        "multipliers": Multipliers,
        "banker": Banker,
        "suits": Suits,
        "money": Money,
        "ofc": Ofc,
    }
)
#: Each setting's section by the setting's name.
OWNERS: Mapping[str, str] = MappingProxyType(
    {setting.name: section for section, kind in SECTIONS.items() for setting in kind.SETTINGS}
)
#: The top-level keys of a rule file in the order ``rules show`` lists them;
#: a setting not listed here follows them, in its section's order.
_FILE_ORDER = (
    "method",
    "surrender",
    "scoop_doubles",
    "home_run",
    "ace_high_front_straight",
    "six_pairs_odd_card",
    "wheel",
    "low_middle",
    "fantasyland",
    "max_players",
    "foul_plays",
    "fantasyland_cards",
    "criss_cross",
    "home_run_min_opponents",
    "home_run_split",
    "suit_order",
    "suit_foul",
    "natural_suit_tiebreak",
    "natural_rank",
    "natural_order",
    "natural_vs_natural",
    "false_claim",
    "pairing",
    "banker_rotation",
    "banker_wins_ties",
    "cap",
    "cap_scope",
    "table_stakes",
    "button_rotation",
    "fantasyland_repeats",
    "fantasyland_middle_stays",
    "low_middle_qualifier",
    "natural_row_order",
    "natural_beats_surrender",
    "horse",
    "ace_bonus",
)
_TOP_KEYS = (
    *_FILE_ORDER,
    *(
        setting.key
        for kind in SECTIONS.values()
        for setting in kind.SETTINGS
        if "." not in setting.key and setting.key not in _FILE_ORDER and setting.key not in ("royalties", "naturals")
    ),
)
#: The section of each top-level key of a rule file.
_TOP_OWNERS: Mapping[str, str] = MappingProxyType({key: OWNERS[key] for key in _TOP_KEYS})
_ROYALTY_KEYS = tuple(setting.name for setting in Royalties.SETTINGS if setting.name != "table") + tuple(ROW_TABLES)


T = TypeVar("T")


class RuleSet(Record):
    """Everything that decides a settlement (docs/rules.md 11, 12): its name and
    summary, the preset it started from, and its sections, each a frozen
    record.  Made from keywords only; a section left out takes its defaults.
    Settings that cannot go together, or that would have no effect, are an
    error when it is made, whoever makes it (:class:`SettingError`, keyed as a
    rule file writes the setting)."""

    __slots__ = ("id", "summary", "preset", *SECTIONS, "_hash", "_derived", "__weakref__")
    _args = ("id", "summary", "preset", *SECTIONS)
    id: str
    summary: str
    preset: str
    methods: Methods
    rows: Rows
    royalties: Royalties
    naturals: Naturals
    multipliers: Multipliers
    banker: Banker
    suits: Suits
    money: Money
    ofc: Ofc
    _hash: int | None
    _derived: dict[object, object]

    def __init__(self, *, id: str, summary: str = "", preset: str = "", **sections: Section) -> None:
        set_ = object.__setattr__
        for key, value in (("id", id), ("summary", summary), ("preset", preset or id)):
            try:
                set_(self, key, _text(value))
            except SettingError as error:
                raise SettingError(error.message, key) from None
        for name, kind in SECTIONS.items():
            section = sections.pop(name, None)
            if section is None:
                section = kind()
            elif type(section) is not kind:
                raise SettingError(f"{shown(section)} is not a {kind.__name__} section", name)
            set_(self, name, section)
        if sections:
            name = next(iter(sections))
            if name in OWNERS:  # a setting, given where a section goes
                raise SettingError(f"a setting of the {OWNERS[name]} section: use with_settings({name}=...)", name)
            raise _unknown(name, self._args)
        set_(self, "_hash", None)
        # Equal rule sets share what is derived of them while any of them lives.
        whole = (self.id, self.summary, self.preset, *(getattr(self, name) for name in SECTIONS))
        same = _LIVING.get(whole)
        if same is None:
            _LIVING[whole] = self
        set_(self, "_derived", {} if same is None else same._derived)
        self._check()

    def _check(self) -> None:
        """Settings of different sections that cannot go together (docs/rules.md 12)."""
        suits, banker = self.suits, self.banker
        if suits.suit_order is None:
            if self.naturals.natural_suit_tiebreak:
                raise SettingError("needs suit_order (the suits, highest first)", "natural_suit_tiebreak")
        elif self.rows.low_middle:
            raise SettingError(
                "cannot be combined with low_middle (cpscore does not define suits in a low row)", "suit_order"
            )
        naturals = self.naturals
        if not naturals.natural_beats_surrender and (self.methods.surrender is None or not naturals.units):
            raise SettingError(
                "has no effect without both a surrender and a natural (surrender and [naturals])",
                "natural_beats_surrender",
            )
        if naturals.natural_row_order != "back-middle-front" and not any(
            natural in naturals.units for natural in ("three-straights", "three-flushes", "three-straight-flushes")
        ):
            raise SettingError(
                "has no effect without three-straights, three-flushes or three-straight-flushes in [naturals]",
                "natural_row_order",
            )
        low_keys = [key for key in self.royalties.table.middle if key.startswith("low-")]
        if low_keys and not self.rows.low_middle:
            raise SettingError("has no effect without low_middle = true", f"royalties.middle.{low_keys[0]}")
        if self.rows.low_middle and not self.ofc.fantasyland_middle_stays:
            raise SettingError(
                "has no effect with low_middle = true (a low middle never keeps a player in Fantasyland)",
                "fantasyland_middle_stays",
            )
        if self.ofc.fantasyland == "2-7" and not self.rows.low_middle:
            raise SettingError('"2-7" needs low_middle = true (its middle enters Fantasyland low)', "fantasyland")
        if banker.banks and self.methods.criss_cross != "all":
            raise SettingError("banker pairing cannot be combined with criss-cross", "pairing")
        if banker.banker_wins_ties and suits.suit_order is not None:
            raise SettingError("has no effect with suit_order: suits break every tie", "banker_wins_ties")

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a RuleSet is frozen: make another with _replace or with_settings")

    def __hash__(self) -> int:  # type: ignore[override]  # Record values are not hashable; rule sets are
        found = self._hash
        if found is None:
            found = hash((self.id, self.summary, self.preset, *(getattr(self, name) for name in SECTIONS)))
            object.__setattr__(self, "_hash", found)
        return found

    def __reduce__(self) -> tuple[object, ...]:  # frozen: pickle through the constructor
        return (_rebuild_rules, ({name: getattr(self, name) for name in self._args},))

    def derived(self, build: Callable[[RuleSet], T]) -> T:
        """What ``build`` makes of this rule set (a plan, a table), made once per
        rule set value: kept with the rule set and shared by every rule set equal
        to it, for as long as one of them lives (no bound, no eviction; two
        threads may both build it once).  ``build`` must depend on nothing but
        the rule set."""
        cache = self._derived
        found = cache.get(build)
        if found is None:
            found = cache[build] = build(self)
        return found  # type: ignore[return-value]  # build(self) made it

    def with_settings(self, **changes: object) -> RuleSet:
        """The same rule set with some settings changed, by name (``cap=5``):
        each goes to its section, and the result is checked as any rule set is."""
        by_section: dict[str, dict[str, object]] = {}
        for name, needs in _DEPENDS_ON.items():  # as a rule file's change: a moot setting goes back
            if name not in changes and any(other in changes for other, _ in needs):
                now = {
                    other: changes.get(other, _plain(getattr(getattr(self, OWNERS[other]), other)))
                    for other, _ in needs
                }
                if not any(matters(now[other]) for other, matters in needs):
                    changes[name] = _setting_default(name)
        for name, value in changes.items():
            if name in ("id", "summary", "preset"):
                by_section.setdefault("", {})[name] = value
            elif name in OWNERS:
                by_section.setdefault(OWNERS[name], {})[name] = value
            else:
                raise _unknown(name, (*OWNERS, "id", "summary", "preset"))
        top = by_section.pop("", {})
        sections = {name: getattr(self, name)._replace(**values) for name, values in by_section.items()}
        return self._replace(**top, **sections)

    def settings(self) -> dict[str, object]:
        """Every setting as nested plain data, the inverse of :func:`from_settings`:
        the top-level keys of a rule file, then ``royalties`` (with its tables)
        and ``naturals`` (each natural's units, ``False`` when it is off)."""
        top: dict[str, object] = {}
        royalties: dict[str, object] = {}
        naturals: dict[str, object] = {}
        for name in SECTIONS:
            section = getattr(self, name)
            for setting in section.SETTINGS:
                value = getattr(section, setting.name)
                if setting.key == "royalties":
                    royalties.update({row: dict(getattr(value, row)) for row in ROW_TABLES})
                elif setting.key == "naturals":
                    naturals.update({natural: value.get(natural, False) for natural in NATURALS})
                elif setting.key.startswith("royalties."):
                    royalties[setting.name] = _plain(value)
                else:
                    top[setting.key] = _plain(value)
        data: dict[str, object] = {"id": self.id, "summary": self.summary}
        data.update((key, top[key]) for key in _TOP_KEYS)
        data["royalties"] = royalties
        data["naturals"] = naturals
        return data


#: The rule sets alive, by value: a new one equal to one of them shares its derived values.
_LIVING: WeakValueDictionary[tuple[object, ...], RuleSet] = WeakValueDictionary()


def _rebuild_rules(values: dict[str, object]) -> RuleSet:
    return RuleSet(**values)  # type: ignore[arg-type]


# Rule sets from settings -------------------------------------------------------------


def _where(source: str) -> str:
    return f"{source}: " if source else ""


def _hint(error: SettingError, preset: str) -> str:
    """What an error about an unknown key goes on with: the known key nearest
    it ("did you mean"), and where the known keys are listed: a royalty
    table's keys in docs/rules.md 6 (``rules show`` prints only the entries
    a preset pays), every other setting (the naturals too) by ``cpscore rules show``."""
    mean = f"; did you mean {shown(error.close, 40)}?" if error.close is not None else ""
    if error.key.startswith("royalties.") and error.key.count(".") >= 2:
        return f"{mean} (docs/rules.md 6 lists a royalty table's keys)"
    return f"{mean} ('cpscore rules show {preset or 'NAME'}' prints every setting)"


def rules_error(error: SettingError, source: str = "", preset: str = "") -> RulesError:
    """The one line a rule file's reader shows for ``error``: the file, the key, what is wrong."""
    message = error.message + (_hint(error, preset) if error.unknown else "")
    return RulesError(f"{_where(source)}{error.key}: {message}")


def _table(data: Mapping[str, object], key: str) -> Mapping[str, object]:
    value = data.get(key, _EMPTY)
    if not isinstance(value, Mapping):
        raise SettingError(f"{shown(value)} is not a table", key)
    return value


def from_settings(data: Mapping[str, object], source: str = "", preset: str = "") -> RuleSet:
    """A checked :class:`RuleSet` from settings shaped as a rule file holds them
    (the form :meth:`RuleSet.settings` gives): parse, then construct.  A
    setting left out takes its default; ``preset`` is the preset they started
    from (by default the rule set itself).  Errors name ``source`` and the key."""
    try:
        sections: dict[str, dict[str, object]] = {name: {} for name in SECTIONS}
        for key, value in data.items():
            if key in _TOP_OWNERS:
                sections[_TOP_OWNERS[key]][key] = value
            elif key not in ("id", "summary", "royalties", "naturals"):
                raise _unknown(key, (*_TOP_KEYS, "royalties", "naturals"))
        royalties = _table(data, "royalties")
        for key, value in royalties.items():
            if key not in _ROYALTY_KEYS:
                raise _unknown(key, _ROYALTY_KEYS).at("royalties.")
            if key not in ROW_TABLES:
                sections["royalties"][key] = value
        if any(row in royalties for row in ROW_TABLES):
            sections["royalties"]["table"] = {row: royalties[row] for row in ROW_TABLES if row in royalties}
        if "naturals" in data:
            sections["naturals"]["units"] = _table(data, "naturals")
        made = {name: SECTIONS[name](**values) for name, values in sections.items()}
        for key in ("id", "summary"):
            if key not in data:
                raise SettingError("missing", key)
        return RuleSet(id=data["id"], summary=data["summary"], preset=preset, **made)  # type: ignore[arg-type]
    except SettingError as error:
        raise rules_error(error, source, preset) from None


# Presets and rule files -----------------------------------------------------------

_CACHE: dict[str, RuleSet] = {}


def preset_names() -> list[str]:
    """The presets, in the order docs/rules.md 11 lists them."""
    from cpscore._presets import PRESETS

    return list(PRESETS)


def get_rules(name: str) -> RuleSet:
    """The preset called ``name``: its parent's settings with its changes laid over them."""
    found = _CACHE.get(name)
    if found is None:
        found = _CACHE[name] = from_settings(_preset_settings(name), f"preset {name}")
    return found


def _preset_settings(name: str) -> dict[str, object]:
    """A preset's settings as data: its parents' changes, root first, with its
    own laid over them (no rule set is made on the way: start-up)."""
    from cpscore._presets import PRESETS

    if name not in PRESETS:
        raise RulesError(
            f"unknown rule set {shown(name)}: choose one of {', '.join(PRESETS)}, or give a rule file (.toml)"
        )
    changes: dict[str, object] = dict(PRESETS[name])  # type: ignore[call-overload]
    parent = changes.pop("parent", None)
    return changed_settings(_preset_settings(parent) if isinstance(parent, str) else None, changes)


def _merge(base: Mapping[str, object], overrides: Mapping[str, object], path: str = "") -> dict[str, object]:
    """``base`` with ``overrides`` laid over it key by key, except that a royalty
    table row (``royalties.front`` ...) given in the overrides replaces the base's."""
    merged = dict(base)
    for key, value in overrides.items():
        replaced = path == "royalties." and key in ROW_TABLES
        below = merged.get(key)
        if isinstance(value, Mapping) and isinstance(below, Mapping) and not replaced:
            merged[key] = _merge(below, value, f"{path}{key}.")
        else:
            merged[key] = value
    return merged


#: Settings that matter only under other settings: (that setting, whether its
#: value makes them matter), any of them.  One a rule file does not give goes
#: back to its default when the file turns the others off (else it would have no effect).
def _is(wanted: object) -> Callable[[object], bool]:
    return lambda value: value == wanted


def _on(value: object) -> bool:
    return value is not None and value is not False and value != "none"


_DEPENDS_ON: Mapping[str, tuple[tuple[str, Callable[[object], bool]], ...]] = MappingProxyType(
    {
        "fantasyland_cards": (("fantasyland", _is("standard")),),
        "fantasyland_repeats": (("fantasyland", _on),),
        "fantasyland_middle_stays": (("fantasyland", _on),),
        "home_run_min_opponents": (("home_run", _is(True)),),
        "home_run_split": (("home_run", _is(True)),),
        "low_middle_qualifier": (("low_middle", _is(True)),),
        "button_rotation": (("cap", _on), ("table_stakes", _on)),
    }
)


def changed_settings(base: RuleSet | Mapping[str, object] | None, changes: Mapping[str, object]) -> dict[str, object]:
    """The settings of ``base`` (a rule set, settings as data, or none: every
    default) with ``changes`` laid over them as a rule file's (:func:`_merge`);
    a setting the changes leave alone that would then have no effect goes
    back to its default (``_DEPENDS_ON``)."""
    below = base.settings() if isinstance(base, RuleSet) else base if base is not None else {}
    settings = _merge(below, changes)
    for key, needs in _DEPENDS_ON.items():
        if key not in changes and key in settings:
            if not any(matters(settings.get(other, _setting_default(other))) for other, matters in needs):
                settings[key] = _setting_default(key)
    return settings


def _setting_default(name: str) -> object:
    kind = SECTIONS[OWNERS[name]]
    return _plain(next(setting.default for setting in kind.SETTINGS if setting.name == name))


def rules_from_toml(text: str, source: str, default_id: str = "house") -> RuleSet:
    """A house rule set: TOML that names a ``preset`` and overrides any of its
    settings.  ``[royalties]`` and ``[naturals]`` merge key by key
    (``naturals.NAME = false`` turns a natural off); a royalty table row
    (``[royalties.front]``, ``middle``, ``back``) replaces the preset's row."""
    import tomllib
    from decimal import Decimal

    try:
        data = tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError as error:
        raise RulesError(f"{source}: not valid TOML: {error}") from None
    except RecursionError:
        raise RulesError(f"{source}: not a rule file: its values are nested too deep") from None
    except ValueError:  # an integer of thousands of digits
        raise RulesError(f"{source}: not a rule file: a number in it has thousands of digits") from None
    except ArithmeticError:  # a decimal whose exponent has thousands of digits (decimal.InvalidOperation)
        raise RulesError(f"{source}: not a rule file: a number in it is out of range") from None
    named = data.get("preset")
    known = named if isinstance(named, str) and named in preset_names() else ""
    try:
        for key in data:
            if key not in ("preset", "id", "summary", "royalties", "naturals", *_TOP_KEYS):
                raise _unknown(key, ("preset", *_TOP_KEYS, "royalties", "naturals"))
        if "preset" not in data:
            raise SettingError("missing", "preset")
        preset = _text(named)
    except SettingError as error:
        if error.key == "":  # the preset's value
            error = SettingError(error.message, "preset")
        raise rules_error(error, source, known) from None
    try:
        base = get_rules(preset)  # type: ignore[arg-type]  # checked: a string
    except RulesError:
        raise RulesError(
            f"{_where(source)}preset: unknown preset {shown(preset)} (one of {', '.join(preset_names())})"
        ) from None
    overrides = {key: value for key, value in data.items() if key != "preset"}
    settings = changed_settings(base, overrides)
    if "id" not in overrides:
        settings["id"] = default_id
    if "summary" not in overrides:
        settings["summary"] = f"{preset} with the changes in {source}"
    return from_settings(settings, source, preset)  # type: ignore[arg-type]


_MAX_RULE_FILE = 256 * 1024  # a complete rule file is about 2 kB


def load_rules_file(path: str) -> RuleSet:
    """Read a house rule file; errors name the file and the setting."""
    import pathlib

    file = pathlib.Path(path)
    try:
        with file.open("rb") as stream:
            data = stream.read(_MAX_RULE_FILE + 1)
        if len(data) > _MAX_RULE_FILE:
            raise RulesError(f"{path}: over {_MAX_RULE_FILE // 1024} kB: that is not a rule file")
    except FileNotFoundError:
        raise RulesError(f"{path}: no such rule file") from None
    except OSError as error:
        raise RulesError(f"{path}: cannot read it: {error.strerror or error}") from None
    except ValueError:  # a path no file can have (a NUL byte)
        raise RulesError(f"{shown(path)}: not a file name (it holds a NUL character)") from None
    from cpscore.textio import decode

    try:
        text = decode(data, path)
    except CpscoreError as error:
        raise RulesError(str(error)) from None
    return rules_from_toml(text, path, default_id=file.stem)


def is_rule_file(name_or_path: str) -> bool:
    """Whether ``--rules`` names a file: it ends ``.toml`` or has a path separator."""
    return name_or_path.endswith(".toml") or "/" in name_or_path or "\\" in name_or_path


def resolve_rules(name_or_path: str) -> RuleSet:
    """A preset by name, or a rule file by path."""
    return load_rules_file(name_or_path) if is_rule_file(name_or_path) else get_rules(name_or_path)


def with_spade_bonus(rules: RuleSet) -> RuleSet:
    """The same rules with the spade bonus switched on (``"row"``, docs/rules.md 6),
    unless the rules already have it (a rule file's ``"own"`` stays)."""
    if rules.royalties.spade_bonus:
        return rules
    return rules._replace(royalties=rules.royalties._replace(spade_bonus=SpadeBonus.ROW))


# TOML output ----------------------------------------------------------------------


def _toml_value(value: object) -> str:
    from cpscore.amounts import text

    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    return text(value)  # type: ignore[arg-type]  # an amount: settings() holds nothing else


def to_toml(rules: RuleSet) -> str:
    """Every setting of ``rules`` as a rule file a user can copy and edit."""
    settings = rules.settings()
    royalties = settings.pop("royalties")
    naturals = settings.pop("naturals")
    assert isinstance(royalties, dict) and isinstance(naturals, dict)  # as settings() makes them
    lines = [
        f"# cpscore rule set {rules.id!r}: every setting (docs/rules.md 11).",
        "# Save as a .toml file, change what your table plays, and use it with --rules FILE.",
        f'preset = "{rules.preset}"',
        "# id and summary name the rule set in cpscore's output.",
    ]
    for key, value in settings.items():
        written = f"{key} = {_toml_value(value)}"
        if isinstance(value, list) and len(written) > 90:  # natural_rank: one id a line
            written = f"{key} = [\n" + "".join(f"  {_toml_value(item)},\n" for item in value) + "]"
        lines.append(written)
    lines += ["", "[royalties]"]
    lines += [f"{key} = {_toml_value(value)}" for key, value in royalties.items() if key not in ROW_TABLES]
    for row in ROW_TABLES:
        lines += ["", f"[royalties.{row}]  # units; replaces the preset's table; what is not listed pays 0"]
        lines += [f"{key} = {_toml_value(value)}" for key, value in royalties[row].items()]
    lines += ["", "[naturals]  # units per opponent; false: not played"]
    lines += [f"{key} = {_toml_value(value)}" for key, value in naturals.items()]
    return "\n".join(lines) + "\n"
