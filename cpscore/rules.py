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

from collections.abc import Mapping
from types import MappingProxyType

from cpscore.amounts import Amount, AmountError, exact
from cpscore.errors import CpscoreError, RulesError, shown
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
    "one-colour",
    "four-trips",
    "six-pairs",
    "three-straights",
    "three-flushes",
    "no-broadway",
)
_LETTERS = "23456789TJQKA"
#: Keys of a front royalty table: ``22`` ... ``AA`` for pairs, ``222`` ... ``AAA`` for trips.
FRONT_KEYS = tuple(letter * 2 for letter in _LETTERS) + tuple(letter * 3 for letter in _LETTERS)
#: Keys of a middle or back royalty table: category ids from a pair up
#: (``royal-flush`` falls back to ``straight-flush`` when a table has no entry for it).
FIVE_CARD_KEYS = CATEGORY_IDS[1:]
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
        """Units for a row of this category; ``ranks`` are the front's group
        letters (``QQ`` for a pair of queens, ``777`` for trips)."""
        if row == "front":
            return self.front.get(ranks, 0) if category in ("pair", "trips") else 0
        table = self.middle if row == "middle" else self.back
        if category == "royal-flush" and category not in table:
            category = "straight-flush"
        return table.get(category, 0)


class Royalties(Record):
    """How royalties are paid (docs/rules.md 6)."""

    __slots__ = ("mode", "table", "cancel_when_both", "max_per_hand", "spade_bonus")

    def __init__(
        self, mode: str, table: RoyaltyTable, cancel_when_both: bool, max_per_hand: int, spade_bonus: bool
    ) -> None:
        self.mode = mode  # none, holder, row-bonus or row-value
        self.table = table
        self.cancel_when_both = cancel_when_both
        self.max_per_hand = max_per_hand  # 0: no limit
        self.spade_bonus = spade_bonus


class RuleSet(Record):
    """Everything that decides a settlement (docs/rules.md 11).  Build one from
    settings with :func:`from_settings`, which validates every setting.
    ``preset`` names the preset a house rule set started from."""

    __slots__ = (
        "id",
        "summary",
        "method",
        "royalties",
        "naturals",
        "surrender",
        "scoop_doubles",
        "home_run",
        "ace_high_front_straight",
        "six_pairs_odd_card",
        "wheel",
        "low_middle",
        "fantasyland",
        "max_players",
        "preset",
    )

    def __init__(
        self,
        id: str,
        summary: str,
        method: str,
        royalties: Royalties,
        naturals: Mapping[str, Amount],
        surrender: Amount | None,
        scoop_doubles: bool,
        home_run: bool,
        ace_high_front_straight: bool,
        six_pairs_odd_card: bool,
        wheel: str,
        low_middle: bool,
        fantasyland: str,
        max_players: int,
        preset: str,
    ) -> None:
        self.id = id
        self.summary = summary
        self.method = method
        self.royalties = royalties
        self.naturals = naturals  # enabled naturals and their units
        self.surrender = surrender  # units a surrendering player pays; None: not allowed
        self.scoop_doubles = scoop_doubles
        self.home_run = home_run
        self.ace_high_front_straight = ace_high_front_straight
        self.six_pairs_odd_card = six_pairs_odd_card  # the odd card breaks a tie of equal six pairs
        self.wheel = wheel
        self.low_middle = low_middle
        self.fantasyland = fantasyland
        self.max_players = max_players
        self.preset = preset

    def settings(self) -> dict[str, object]:
        """Every setting as nested plain data, the inverse of :func:`from_settings`
        (a surrender that is not allowed is ``False``, a natural that is off too)."""
        royalties = self.royalties
        return {
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
            "royalties": {
                "mode": royalties.mode,
                "cancel_when_both": royalties.cancel_when_both,
                "max_per_hand": royalties.max_per_hand,
                "spade_bonus": royalties.spade_bonus,
                **{row: dict(getattr(royalties.table, row)) for row in ROW_TABLES},
            },
            "naturals": {natural: self.naturals.get(natural, False) for natural in NATURALS},
        }


# Validation of settings ----------------------------------------------------------


class _Settings:
    """Reads one level of a settings table, checking each key as it is taken;
    errors name the source and the dotted key."""

    def __init__(self, data: Mapping[str, object], source: str, prefix: str = "") -> None:
        self.data, self.source, self.prefix = data, source, prefix

    def error(self, key: str, message: str) -> RulesError:
        where = f"{self.source}: " if self.source else ""
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
        return _Settings(value, self.source, f"{self.prefix}{key}.")

    def only(self, allowed: tuple[str, ...] | Mapping[str, object]) -> None:
        for key in self.data:
            if key not in allowed:
                raise self.error(key, f"unknown setting (allowed here: {', '.join(allowed)})")


_TOP_KEYS = RuleSet.__slots__[:-1]  # every setting; "preset" is the rule file's own key
_ROYALTY_KEYS = ("mode", "cancel_when_both", "max_per_hand", "spade_bonus", *ROW_TABLES)


def from_settings(data: Mapping[str, object], source: str = "", preset: str = "") -> RuleSet:
    """A validated :class:`RuleSet` from complete settings (the form
    :meth:`RuleSet.settings` gives and the preset files use); ``preset`` is
    the preset they started from (by default the rule set itself)."""
    top = _Settings(data, source)
    top.only(_TOP_KEYS)
    royalties = top.table("royalties")
    royalties.only(_ROYALTY_KEYS)
    tables = {}
    for row, keys in ROW_TABLES.items():
        entries = royalties.table(row) if row in royalties.data else _Settings({}, source, f"royalties.{row}.")
        entries.only(keys)
        tables[row] = MappingProxyType({key: entries.units(key) for key in entries.data})
    naturals = top.table("naturals")
    naturals.only(NATURALS)
    enabled = {key: naturals.units_or_off(key) for key in naturals.data}
    return RuleSet(
        id=top.text("id"),
        summary=top.text("summary"),
        method=top.choice("method", METHODS),
        royalties=Royalties(
            mode=royalties.choice("mode", ROYALTY_MODES),
            table=RoyaltyTable(**tables),
            cancel_when_both=royalties.flag("cancel_when_both"),
            max_per_hand=royalties.whole("max_per_hand", 0),
            spade_bonus=royalties.flag("spade_bonus"),
        ),
        naturals=MappingProxyType({key: units for key, units in enabled.items() if units is not None}),
        surrender=top.units_or_off("surrender"),
        scoop_doubles=top.flag("scoop_doubles"),
        home_run=top.flag("home_run"),
        ace_high_front_straight=top.flag("ace_high_front_straight"),
        six_pairs_odd_card=top.flag("six_pairs_odd_card"),
        wheel=top.choice("wheel", WHEELS),
        low_middle=top.flag("low_middle"),
        fantasyland=top.choice("fantasyland", FANTASYLAND),
        max_players=top.whole("max_players", 2, 4),
        preset=preset or top.text("id"),
    )


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
    top = _Settings(data, source)
    top.only(("preset", *_TOP_KEYS))
    preset = top.text("preset")
    try:
        base = get_rules(preset)
    except RulesError:
        raise top.error("preset", f"unknown preset {shown(preset)} (one of {', '.join(preset_names())})") from None
    overrides = {key: value for key, value in data.items() if key != "preset"}
    settings = _merge(base.settings(), overrides)
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
    """The same rules with the double-spade bonus switched on."""
    return rules._replace(royalties=rules.royalties._replace(spade_bonus=True))


# TOML output ----------------------------------------------------------------------


def _toml_value(value: object) -> str:
    from cpscore.amounts import text

    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
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
    lines += [f"{key} = {_toml_value(value)}" for key, value in settings.items()]
    lines += ["", "[royalties]"]
    lines += [f"{key} = {_toml_value(value)}" for key, value in royalties.items() if key not in ROW_TABLES]
    for row in ROW_TABLES:
        lines += ["", f"[royalties.{row}]  # units; replaces the preset's table; what is not listed pays 0"]
        lines += [f"{key} = {_toml_value(value)}" for key, value in royalties[row].items()]
    lines += ["", "[naturals]  # units per opponent; false: not played"]
    lines += [f"{key} = {_toml_value(value)}" for key, value in naturals.items()]
    return "\n".join(lines) + "\n"
