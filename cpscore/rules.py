"""Rule sets as data (docs/rules.md 5-11).

A :class:`RuleSet` is a frozen, validated record: the scoring method, the
royalty table and how it is paid, naturals and their values, surrender,
multipliers and variants.  Presets are instances of it, written as TOML files
in ``cpscore/presets/`` and compiled into ``cpscore/_presets.py`` (by
``python -m cpscore.presetgen``) so that start-up parses no TOML.  A house
rule is a TOML file that names a preset and overrides settings: the same
record with other values, never another code path.

>>> get_rules("ofc").royalties.table.lookup("back", "quads")
10
>>> get_rules("ofc").royalties.table.lookup("front", "pair", "QQ")
7
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType

from cpscore.amounts import Amount, AmountError, exact
from cpscore.errors import CpscoreError, RulesError, nearest, shown
from cpscore.records import Record
from cpscore.values import CATEGORY_IDS

#: Each method's bonus (docs/rules.md 5), as data: (units to the player who wins
#: at least two rows, units to the player who wins all three).  A method is one entry.
METHOD_BONUSES: Mapping[str, tuple[int, int]] = MappingProxyType(
    {"rows": (0, 0), "2-4": (1, 0), "1-6": (0, 3), "1-4": (0, 1)}
)
METHODS = tuple(METHOD_BONUSES)
ROYALTY_MODES = ("none", "holder", "row-bonus", "row-value")
WHEELS = ("lowest", "second")
FANTASYLAND = ("none", "standard", "progressive")
CRISS_CROSS = ("all", "corresponding")
HOME_RUN_SPLITS = ("pair", "equal")
NATURAL_ORDERS = ("value", "rank")
NATURAL_VS_NATURAL = ("higher", "net")
PAIRINGS = ("all", "banker")
BANKER_ROTATIONS = ("fixed", "next")
CAP_SCOPES = ("deal", "session")
SPADE_BONUSES = ("row", "own")
SUITS = "shdc"
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
ROW_TABLES = {"front": FRONT_KEYS, "middle": FIVE_CARD_KEYS, "back": FIVE_CARD_KEYS}
_EMPTY: Mapping[str, Amount] = MappingProxyType({})


class RoyaltyTable(Record):
    """Royalty units per row.  Front keys are ranks (``66``, ``AAA``); middle and
    back keys are category ids.  A missing key pays nothing."""

    __slots__ = ("front", "middle", "back", "key")

    def __init__(
        self,
        front: Mapping[str, Amount] = _EMPTY,
        middle: Mapping[str, Amount] = _EMPTY,
        back: Mapping[str, Amount] = _EMPTY,
        key: object = None,
    ) -> None:
        self.front = front
        self.middle = middle
        self.back = back
        #: The table as a hashable value, for caches: two tables with the same
        #: entries share it, two different ones never do (``key`` given to
        #: ``_replace`` is ignored and made again).
        self.key = tuple(tuple(sorted(row.items())) for row in (front, middle, back))

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


class Royalties(Record):
    """How royalties are paid (docs/rules.md 6)."""

    __slots__ = ("mode", "table", "cancel_when_both", "max_per_hand", "spade_bonus", "broken_royalties")

    def __init__(
        self,
        mode: str,
        table: RoyaltyTable,
        cancel_when_both: bool,
        max_per_hand: int,
        spade_bonus: str | bool,
        broken_royalties: bool = False,
    ) -> None:
        self.mode = mode  # none, holder, row-bonus or row-value
        self.table = table
        self.cancel_when_both = cancel_when_both
        self.max_per_hand = max_per_hand  # 0: no limit
        self.spade_bonus = spade_bonus  # False, "row" (both hands' royalties in the 2s row) or "own"
        self.broken_royalties = broken_royalties  # quads and straight flushes split across rows pay


#: Every setting of a rule set beside the method and royalties, with its default
#: (docs/rules.md 3-12): what a rule file may leave out of a complete rule set
#: written before the setting existed.  The order is the order of ``settings()``.
DEFAULTS: Mapping[str, object] = MappingProxyType(
    {
        "foul_plays": False,
        "fantasyland_cards": 13,
        "criss_cross": "all",
        "home_run_min_opponents": 3,
        "home_run_split": "pair",
        "suit_order": None,
        "suit_foul": False,
        "natural_suit_tiebreak": False,
        "natural_rank": NATURAL_RANK,
        "natural_order": "value",
        "natural_vs_natural": "higher",
        "false_claim": None,
        "pairing": "all",
        "banker_rotation": "fixed",
        "banker_wins_ties": False,
        "cap": None,
        "cap_scope": "deal",
        "table_stakes": None,
    }
)


class RuleSet(Record):
    """Everything that decides a settlement (docs/rules.md 11, 12).  Build one from
    settings with :func:`from_settings`, which validates every setting.
    ``preset`` names the preset a house rule set started from."""

    __slots__ = (
        "id",
        "summary",
        "method",
        "royalties",
        "naturals",
        "_surrender",
        "scoop_doubles",
        "home_run",
        "ace_high_front_straight",
        "six_pairs_odd_card",
        "wheel",
        "low_middle",
        "fantasyland",
        "max_players",
        *DEFAULTS,
        "preset",
    )
    _args = tuple(name.lstrip("_") for name in __slots__)

    def __init__(
        self,
        id: str,
        summary: str,
        method: str,
        royalties: Royalties,
        naturals: Mapping[str, Amount],
        surrender: Amount | float | None,
        scoop_doubles: bool,
        home_run: bool,
        ace_high_front_straight: bool,
        six_pairs_odd_card: bool,
        wheel: str,
        low_middle: bool,
        fantasyland: str,
        max_players: int,
        preset: str,
        foul_plays: bool = False,
        fantasyland_cards: int = 13,
        criss_cross: str = "all",
        home_run_min_opponents: int = 3,
        home_run_split: str = "pair",
        suit_order: tuple[str, ...] | None = None,
        suit_foul: bool = False,
        natural_suit_tiebreak: bool = False,
        natural_rank: tuple[str, ...] = NATURAL_RANK,
        natural_order: str = "value",
        natural_vs_natural: str = "higher",
        false_claim: Amount | None = None,
        pairing: str = "all",
        banker_rotation: str = "fixed",
        banker_wins_ties: bool = False,
        cap: Amount | None = None,
        cap_scope: str = "deal",
        table_stakes: Amount | bool | None = None,
    ) -> None:
        self.id = id
        self.summary = summary
        self.method = method
        self.royalties = royalties
        self.naturals = naturals  # enabled naturals and their units
        # Units a surrendering player pays; None: not allowed.  A preset's fraction
        # (2.5) is kept as its float until asked for, so that a run with no
        # surrender needs no decimal arithmetic at all (start-up).
        self._surrender = surrender
        self.scoop_doubles = scoop_doubles
        self.home_run = home_run
        self.ace_high_front_straight = ace_high_front_straight
        self.six_pairs_odd_card = six_pairs_odd_card  # the odd card breaks a tie of equal six pairs
        self.wheel = wheel
        self.low_middle = low_middle
        self.fantasyland = fantasyland
        self.max_players = max_players
        self.preset = preset
        self.foul_plays = foul_plays  # a fouled hand pays its penalty and still plays its rows
        self.fantasyland_cards = fantasyland_cards  # cards dealt in standard Fantasyland
        self.criss_cross = criss_cross  # all: every hand plays each of the opponent's; corresponding
        self.home_run_min_opponents = home_run_min_opponents
        self.home_run_split = home_run_split  # pair: x2 again a pair; equal: the extra shared out
        self.suit_order = suit_order  # suits highest first, breaking ties of equal rows; None: never
        self.suit_foul = suit_foul  # the foul check of middle against back uses suit_order
        self.natural_suit_tiebreak = natural_suit_tiebreak  # the highest card breaks a tie of naturals
        self.natural_rank = natural_rank  # natural ids, highest first
        self.natural_order = natural_order  # value: the most valuable natural; rank: natural_rank
        self.natural_vs_natural = natural_vs_natural  # higher: the higher collects; net: both, netted
        self.false_claim = false_claim  # units a false claim pays each opponent; None: an error
        self.pairing = pairing  # all: every pair; banker: only pairs with the banker
        self.banker_rotation = banker_rotation  # fixed, or next: the bank passes after each deal
        self.banker_wins_ties = banker_wins_ties
        self.cap = cap  # money a player can win or lose at most in cap_scope; None: no cap
        self.cap_scope = cap_scope  # deal or session
        self.table_stakes = table_stakes  # a stack's money at the start; True: the session's buy-in

    @property
    def surrender(self) -> Amount | None:
        value = self._surrender
        if isinstance(value, float):
            value = self._surrender = exact(value)
        return value

    def settings(self) -> dict[str, object]:
        """Every setting as nested plain data, the inverse of :func:`from_settings`
        (a surrender that is not allowed is ``False``, a natural that is off too,
        and so is every other setting that is off)."""
        royalties = self.royalties
        data: dict[str, object] = {
            "id": self.id,
            "summary": self.summary,
            "method": self.method,
            "surrender": False if self.surrender is None else self.surrender,
            "scoop_doubles": self.scoop_doubles,
            "home_run": self.home_run,
            "ace_high_front_straight": self.ace_high_front_straight,
            "six_pairs_odd_card": self.six_pairs_odd_card,
            "wheel": self.wheel,
            "low_middle": self.low_middle,
            "fantasyland": self.fantasyland,
            "max_players": self.max_players,
        }
        for key in DEFAULTS:
            value = getattr(self, key)
            data[key] = False if value is None else list(value) if isinstance(value, tuple) else value
        data["royalties"] = {
            "mode": royalties.mode,
            "cancel_when_both": royalties.cancel_when_both,
            "max_per_hand": royalties.max_per_hand,
            "spade_bonus": royalties.spade_bonus,
            "broken_royalties": royalties.broken_royalties,
            **{row: dict(getattr(royalties.table, row)) for row in ROW_TABLES},
        }
        data["naturals"] = {natural: self.naturals.get(natural, False) for natural in NATURALS}
        return data


# Validation of settings ----------------------------------------------------------


class _Settings:
    """Reads one level of a settings table, checking each key as it is taken;
    errors name the source and the dotted key.  ``preset`` is the preset the
    settings start from, if known: an unknown key points at its settings."""

    def __init__(self, data: Mapping[str, object], source: str, prefix: str = "", preset: str = "") -> None:
        self.data, self.source, self.prefix, self.preset = data, source, prefix, preset

    def error(self, key: str, message: str) -> RulesError:
        where = f"{self.source}: " if self.source else ""
        key = key if len(key) <= 40 and key.isprintable() else shown(key, 40)  # a key of junk stays short
        return RulesError(f"{where}{self.prefix}{key}: {message}")

    def raw(self, key: str) -> object:
        if key not in self.data:
            raise self.error(key, "missing")
        return self.data[key]

    def choice(self, key: str, allowed: tuple[str, ...]) -> str:
        value = self.raw(key)
        if value not in allowed:
            raise self.error(key, f"{shown(value)} is not one of {', '.join(allowed)}")
        return value

    def flag(self, key: str) -> bool:
        value = self.raw(key)
        if not isinstance(value, bool):
            raise self.error(key, f"{shown(value)} is not true or false")
        return value

    def text(self, key: str) -> str:
        value = self.raw(key)
        if not isinstance(value, str):
            raise self.error(key, f"{shown(value)} is not a string")
        return value

    def whole(self, key: str, low: int, high: int | None = None) -> int:
        value = self.raw(key)
        if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
            span = f"from {low} to {high}" if high is not None else f"{low} or more"
            raise self.error(key, f"{shown(value)} is not a whole number {span}")
        return value

    def units(self, key: str) -> Amount:
        """A non-negative exact amount."""
        return self._units(key, self.raw(key), allow_off=False)

    def units_or_off(self, key: str) -> Amount | None:
        """A non-negative exact amount, or None for ``false``, which means off."""
        value = self.raw(key)
        if value is False:
            return None
        return self._units(key, value, allow_off=True)

    def _units(self, key: str, value: object, allow_off: bool) -> Amount:
        if isinstance(value, str):
            raise self.error(key, f"{shown(value)} is text, not a number: write a number without quotes, such as 2.5")
        try:
            amount = None if isinstance(value, bool) else exact(value)
        except AmountError as error:
            if error.out_of_bounds:  # a number, but too large or too small: say so
                raise self.error(key, f"{error}") from None
            amount = None
        if amount is None or amount < 0:
            off = " (or false for off)" if allow_off else ""
            raise self.error(key, f"{shown(value)} is not a number of units, 0 or more{off}")
        return amount

    def table(self, key: str) -> _Settings:
        value = self.raw(key)
        if not isinstance(value, Mapping):
            raise self.error(key, f"{shown(value)} is not a table")
        return _Settings(value, self.source, f"{self.prefix}{key}.", self.preset)

    def only(self, allowed: tuple[str, ...] | Mapping[str, object]) -> None:
        """Every key is one of ``allowed``: an unknown one is an error that names
        the nearest known key and where they are all listed (not the list,
        which would not fit on one line)."""
        for key in self.data:
            if key not in allowed:
                raise self.error(key, "unknown setting" + self.hint(key, allowed))

    def hint(self, name: str, known: Iterable[str]) -> str:
        """What an error about the unknown ``name`` goes on with: the known
        name nearest to it ("did you mean"), and where the known names are
        listed: a royalty table's keys in docs/rules.md 6 (``rules show``
        prints only the entries a preset pays), every other setting (the
        naturals too) by ``cpscore rules show``."""
        close = nearest(name, known)
        mean = f"; did you mean {shown(close, 40)}?" if close is not None else ""
        if self.prefix.startswith("royalties.") and self.prefix != "royalties.":
            return f"{mean} (docs/rules.md 6 lists a royalty table's keys)"
        return f"{mean} ('cpscore rules show {self.preset or 'NAME'}' prints every setting)"

    def surrender(self, key: str) -> Amount | float | None:
        """As :meth:`units_or_off`; a preset's fraction (a float: rule files read
        decimals) is checked here and kept as it is (:attr:`RuleSet.surrender`)."""
        value = self.raw(key)
        if isinstance(value, float) and value >= 0 and value * 100 == int(value * 100):
            return value
        return self.units_or_off(key)

    def money_or_off(self, key: str) -> Amount | None:
        """An amount of money above 0, or None for ``false``."""
        value = self.raw(key)
        if value is False:
            return None
        try:
            amount = self._units(key, value, allow_off=True)
        except RulesError:
            raise self.error(key, f"{shown(value)} is not an amount of money above 0, or false") from None
        return amount

    def units_or_true(self, key: str) -> Amount | bool | None:
        """A non-negative exact amount, ``true`` (kept as True) or ``false`` (None)."""
        value = self.raw(key)
        if value is True:
            return True
        if value is False:
            return None
        try:
            return self._units(key, value, allow_off=True)
        except RulesError:
            raise self.error(key, f"{shown(value)} is not an amount of money, true or false") from None

    def spade_bonus(self, key: str) -> str | bool:
        value = self.raw(key)
        if value is True:
            return "row"
        if value is False:
            return False
        if isinstance(value, str) and value in SPADE_BONUSES:
            return value
        raise self.error(key, f"{shown(value)} is not one of false, true (row), row, own")

    def suit_order(self, key: str) -> tuple[str, ...] | None:
        value = self.raw(key)
        if value is False or value == "none":
            return None
        if not isinstance(value, list) or sorted(map(str, value)) != sorted(SUITS):
            raise self.error(
                key, f'{shown(value)} is not the four suits highest first, such as ["s", "h", "c", "d"], or false'
            )
        return tuple(value)

    def natural_rank(self, key: str) -> tuple[str, ...]:
        value = self.raw(key)
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            raise self.error(key, f"{shown(value)} is not a list of natural ids, highest first")
        for item in value:
            if item not in NATURALS:
                raise self.error(key, f"unknown natural {shown(item)}{self.hint(str(item), NATURALS)}")
        repeated = [item for item in value if value.count(item) > 1]
        if repeated:
            raise self.error(key, f"{shown(repeated[0])} is listed twice")
        # Naturals left out keep their default places, after the listed ones.
        return (*value, *(item for item in NATURAL_RANK if item not in value))


_TOP_KEYS = RuleSet._args[:-1]  # every setting; "preset" is the rule file's own key
_ROYALTY_KEYS = ("mode", "cancel_when_both", "max_per_hand", "spade_bonus", "broken_royalties", *ROW_TABLES)
_TRIPS_SPELLING = {f"trips-{letter}": letter * 3 for letter in _LETTERS}


def _front_entries(entries: _Settings) -> dict[str, object]:
    """A front table with ``trips-R`` written as ``RRR``; both spellings of one key is an error."""
    data: dict[str, object] = {}
    for key, value in entries.data.items():
        plain = _TRIPS_SPELLING.get(key, key)
        if plain in data:
            raise entries.error(key, f"the same entry as {plain}: give it once")
        data[plain] = value
    return data


def from_settings(data: Mapping[str, object], source: str = "", preset: str = "") -> RuleSet:
    """A validated :class:`RuleSet` from complete settings (the form
    :meth:`RuleSet.settings` gives and the preset files use); ``preset`` is
    the preset they started from (by default the rule set itself)."""
    top = _Settings(data, source, preset=preset)
    top.only(_TOP_KEYS)
    royalties = top.table("royalties")
    royalties.only(_ROYALTY_KEYS)
    tables = {}
    for row, keys in ROW_TABLES.items():
        entries = royalties.table(row) if row in royalties.data else _Settings({}, source, f"royalties.{row}.")
        if row == "front":
            entries = _Settings(_front_entries(entries), source, entries.prefix)
        entries.only(keys)
        tables[row] = MappingProxyType({key: entries.units(key) for key in entries.data})
    naturals = top.table("naturals")
    naturals.only(NATURALS)
    enabled = {key: naturals.units_or_off(key) for key in naturals.data}
    rules = RuleSet(
        id=top.text("id"),
        summary=top.text("summary"),
        method=top.choice("method", METHODS),
        royalties=Royalties(
            mode=royalties.choice("mode", ROYALTY_MODES),
            table=RoyaltyTable(**tables),
            cancel_when_both=royalties.flag("cancel_when_both"),
            max_per_hand=royalties.whole("max_per_hand", 0),
            spade_bonus=royalties.spade_bonus("spade_bonus"),
            broken_royalties=royalties.flag("broken_royalties"),
        ),
        naturals=MappingProxyType({key: units for key, units in enabled.items() if units is not None}),
        surrender=top.surrender("surrender"),
        scoop_doubles=top.flag("scoop_doubles"),
        home_run=top.flag("home_run"),
        ace_high_front_straight=top.flag("ace_high_front_straight"),
        six_pairs_odd_card=top.flag("six_pairs_odd_card"),
        wheel=top.choice("wheel", WHEELS),
        low_middle=top.flag("low_middle"),
        fantasyland=top.choice("fantasyland", FANTASYLAND),
        max_players=top.whole("max_players", 2, 4),
        preset=preset or top.text("id"),
        foul_plays=top.flag("foul_plays"),
        fantasyland_cards=top.whole("fantasyland_cards", 13, 14),
        criss_cross=top.choice("criss_cross", CRISS_CROSS),
        home_run_min_opponents=top.whole("home_run_min_opponents", 1, 3),
        home_run_split=top.choice("home_run_split", HOME_RUN_SPLITS),
        suit_order=top.suit_order("suit_order"),
        suit_foul=top.flag("suit_foul"),
        natural_suit_tiebreak=top.flag("natural_suit_tiebreak"),
        natural_rank=top.natural_rank("natural_rank"),
        natural_order=top.choice("natural_order", NATURAL_ORDERS),
        natural_vs_natural=top.choice("natural_vs_natural", NATURAL_VS_NATURAL),
        false_claim=top.units_or_off("false_claim"),
        pairing=top.choice("pairing", PAIRINGS),
        banker_rotation=top.choice("banker_rotation", BANKER_ROTATIONS),
        banker_wins_ties=top.flag("banker_wins_ties"),
        cap=top.money_or_off("cap"),
        cap_scope=top.choice("cap_scope", CAP_SCOPES),
        table_stakes=top.units_or_true("table_stakes"),
    )
    _check_combinations(rules, top)
    return rules


def _check_combinations(rules: RuleSet, top: _Settings) -> None:
    """Settings that cannot go together, or that would have no effect (docs/rules.md 12)."""
    if rules.suit_order is None:
        for key in ("suit_foul", "natural_suit_tiebreak"):
            if getattr(rules, key):
                raise top.error(key, "needs suit_order (the suits, highest first)")
    elif rules.low_middle:
        raise top.error("suit_order", "cannot be combined with low_middle (cpscore does not define suits in a low row)")
    if rules.pairing == "all":
        if rules.banker_rotation != "fixed":
            raise top.error("banker_rotation", 'has no effect without pairing = "banker"')
        if rules.banker_wins_ties:
            raise top.error("banker_wins_ties", 'has no effect without pairing = "banker"')
    elif rules.criss_cross != "all":
        raise top.error("pairing", "banker pairing cannot be combined with criss-cross")
    if rules.banker_wins_ties and rules.suit_order is not None:
        raise top.error("banker_wins_ties", "has no effect with suit_order: suits break every tie")
    if rules.royalties.broken_royalties:
        back = rules.royalties.table.back
        kinds = ("quads", "straight-flush", "royal-flush", "steel-wheel")
        if not any(key in kinds or key.startswith("quads-") for key in back):
            raise top.error(
                "royalties.broken_royalties", "has no effect: the back table pays no quads and no straight flush"
            )
    if rules.cap is None and rules.cap_scope != "deal":
        raise top.error("cap_scope", "has no effect without a cap")
    if rules.table_stakes is not None and rules.table_stakes is not True and rules.table_stakes <= 0:
        raise top.error("table_stakes", "a stack of 0 cannot pay anything: give a buy-in above 0, or false")
    if rules.cap is not None and rules.cap <= 0:
        raise top.error("cap", "a cap of 0 would cut every payment: give an amount above 0, or false")


# Presets and rule files -----------------------------------------------------------

_CACHE: dict[str, RuleSet] = {}


def preset_names() -> list[str]:
    """The presets, in the order docs/rules.md 11 lists them."""
    from cpscore._presets import PRESETS

    return list(PRESETS)


def get_rules(name: str) -> RuleSet:
    """The preset called ``name``."""
    if name not in _CACHE:
        from cpscore._presets import PRESETS

        if name not in PRESETS:
            raise RulesError(
                f"unknown rule set {shown(name)}: choose one of {', '.join(PRESETS)}, or give a rule file (.toml)"
            )
        _CACHE[name] = from_settings(PRESETS[name], f"preset {name}")
    return _CACHE[name]


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
    named = data.get("preset")
    top = _Settings(data, source, preset=named if isinstance(named, str) and named in preset_names() else "")
    top.only(("preset", *_TOP_KEYS))
    preset = top.text("preset")
    try:
        base = get_rules(preset)
    except RulesError:
        raise top.error("preset", f"unknown preset {shown(preset)} (one of {', '.join(preset_names())})") from None
    overrides = {key: value for key, value in data.items() if key != "preset"}
    settings = _merge(base.settings(), overrides)

    # A setting the file changes that the rules then never read is an error, not a silent no-op.
    def changed(key: str) -> bool:
        return key in overrides and overrides[key] != getattr(base, key)

    if changed("fantasyland_cards") and settings.get("fantasyland") != "standard":
        raise top.error("fantasyland_cards", 'has no effect unless fantasyland = "standard"')
    for key in ("home_run_min_opponents", "home_run_split"):
        if changed(key) and settings.get("home_run") is not True:
            raise top.error(key, "has no effect without home_run = true")
    if "id" not in overrides:
        settings["id"] = default_id
    if "summary" not in overrides:
        settings["summary"] = f"{preset} with the changes in {source}"
    return from_settings(settings, source, preset)


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
    return rules._replace(royalties=rules.royalties._replace(spade_bonus="row"))


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
