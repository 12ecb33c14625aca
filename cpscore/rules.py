"""Rule sets as data (RULES.md 5, 6, 11).

A :class:`RuleSet` is a frozen, validated record: the scoring method, the
royalty table and how it is paid, naturals and their values, surrender,
multipliers and variants.  Presets are instances of it; a house rule is the
same record with other values, never another code path.

>>> get_rules("ofc").royalties.table.lookup("back", "quads")
10
>>> get_rules("ofc").royalties.table.lookup("front", "pair", "QQ")
7
"""

from __future__ import annotations

from collections.abc import Mapping
from collections import namedtuple
from types import MappingProxyType

from cpscore.amounts import Amount, exact
from cpscore.errors import RulesError

METHODS = ("rows", "2-4", "1-6")
ROYALTY_MODES = ("none", "holder", "row-bonus", "row-value")
WHEELS = ("lowest", "second")
FANTASYLAND = ("none", "standard", "progressive")
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
#: Keys of a middle or back royalty table (category ids; ``royal-flush`` falls back
#: to ``straight-flush`` when a table has no entry for it).
FIVE_CARD_KEYS = (
    "pair",
    "two-pair",
    "trips",
    "straight",
    "flush",
    "full-house",
    "quads",
    "straight-flush",
    "royal-flush",
)


def _non_negative(setting: str, value: object) -> Amount:
    try:
        amount = exact(value)
    except ValueError:
        amount = -1
    if amount < 0:
        raise RulesError(f"{setting}: {value!r} is not a non-negative number")
    return amount


def _units(where: str, mapping: Mapping[str, object], allowed: tuple[str, ...]) -> Mapping[str, Amount]:
    """A read-only copy of ``mapping`` with exact amounts, checked key by key."""
    checked = {}
    for key, units in mapping.items():
        if key not in allowed:
            raise RulesError(f"{where}: unknown key {key!r} (allowed: {', '.join(allowed)})")
        checked[key] = _non_negative(f"{where}.{key}", units)
    return MappingProxyType(checked)


_EMPTY: Mapping[str, Amount] = MappingProxyType({})


def _one_of(setting: str, value: object, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise RulesError(f"{setting}: {value!r} is not one of {', '.join(allowed)}")


class RoyaltyTable(namedtuple("RoyaltyTable", "front middle back", defaults=(_EMPTY, _EMPTY, _EMPTY))):
    """Royalty units per row.  Front keys are ranks (``66``, ``AAA``); middle and
    back keys are category ids.  A missing key pays nothing.  Build one with
    :meth:`of`, which checks it."""

    __slots__ = ()
    front: Mapping[str, Amount]
    middle: Mapping[str, Amount]
    back: Mapping[str, Amount]

    @classmethod
    def of(
        cls,
        front: Mapping[str, object] = _EMPTY,
        middle: Mapping[str, object] = _EMPTY,
        back: Mapping[str, object] = _EMPTY,
    ) -> RoyaltyTable:
        """A checked table: known keys, non-negative exact units."""
        return cls(
            _units("royalties.front", front, FRONT_KEYS),
            _units("royalties.middle", middle, FIVE_CARD_KEYS),
            _units("royalties.back", back, FIVE_CARD_KEYS),
        )

    def lookup(self, row: str, category: str, ranks: str = "") -> Amount:
        """Units for a row of this category; ``ranks`` are the front's group
        letters (``QQ`` for a pair of queens, ``777`` for trips)."""
        if row == "front":
            return self.front.get(ranks, 0) if category in ("pair", "trips") else 0
        table = self.middle if row == "middle" else self.back
        if category == "royal-flush" and category not in table:
            category = "straight-flush"
        return table.get(category, 0)


class Royalties(
    namedtuple(
        "Royalties",
        "mode table cancel_when_both max_per_hand spade_bonus",
        defaults=("none", RoyaltyTable(), False, 0, False),
    )
):
    """How royalties are paid (RULES.md 6)."""

    __slots__ = ()
    mode: str  # none, holder, row-bonus or row-value
    table: RoyaltyTable
    cancel_when_both: bool
    max_per_hand: int  # 0: no limit
    spade_bonus: bool


# The settings of a rule set and their defaults, in field order.
_RULESET_DEFAULTS = {
    "method": "2-4",
    "royalties": Royalties(),
    "naturals": _EMPTY,  # enabled naturals and their units
    "surrender": None,  # units a surrendering player pays; None: not allowed
    "scoop_doubles": False,
    "home_run": False,
    "ace_high_front_straight": True,
    "wheel": "lowest",
    "low_middle": False,
    "fantasyland": "none",
    "max_players": 4,
}


class RuleSet(namedtuple("RuleSet", ["id", "summary", *_RULESET_DEFAULTS], defaults=_RULESET_DEFAULTS.values())):
    """Everything that decides a settlement (RULES.md 11).  Build one with
    ``RuleSet(...).checked()``, which validates every setting."""

    __slots__ = ()
    id: str
    summary: str
    method: str
    royalties: Royalties
    naturals: Mapping[str, Amount]
    surrender: Amount | None
    scoop_doubles: bool
    home_run: bool
    ace_high_front_straight: bool
    wheel: str
    low_middle: bool
    fantasyland: str
    max_players: int

    def checked(self) -> RuleSet:
        """This rule set with every setting validated (a :class:`RulesError` names
        the first bad one), naturals as read-only exact amounts."""
        _one_of("method", self.method, METHODS)
        _one_of("wheel", self.wheel, WHEELS)
        _one_of("fantasyland", self.fantasyland, FANTASYLAND)
        _one_of("royalties.mode", self.royalties.mode, ROYALTY_MODES)
        limit = self.royalties.max_per_hand
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 0:
            raise RulesError(f"royalties.max_per_hand: {limit!r} is not a whole number >= 0")
        surrender = None if self.surrender is None else _non_negative("surrender", self.surrender)
        if isinstance(self.max_players, bool) or self.max_players not in (2, 3, 4):
            raise RulesError(f"max_players: {self.max_players!r} is not 2, 3 or 4")
        return self._replace(naturals=_units("naturals", self.naturals, NATURALS), surrender=surrender)


# RULES.md 6: the OFC front table is shared by every OFC preset.
_OFC_FRONT = {letter * 2: units for units, letter in enumerate("6789TJQKA", start=1)}
_OFC_FRONT.update({letter * 3: units for units, letter in enumerate(_LETTERS, start=10)})
OFC_TABLE = RoyaltyTable.of(
    front=_OFC_FRONT,
    middle={
        "trips": 2,
        "straight": 4,
        "flush": 8,
        "full-house": 12,
        "quads": 20,
        "straight-flush": 30,
        "royal-flush": 50,
    },
    back={"straight": 2, "flush": 4, "full-house": 6, "quads": 10, "straight-flush": 15, "royal-flush": 25},
)
OFC_WESTERN_TABLE = RoyaltyTable.of(
    front=_OFC_FRONT,
    middle={
        "trips": 2,
        "straight": 4,
        "flush": 8,
        "full-house": 12,
        "quads": 16,
        "straight-flush": 20,
        "royal-flush": 30,
    },
    back={"straight": 2, "flush": 4, "full-house": 6, "quads": 8, "straight-flush": 10, "royal-flush": 15},
)
CLASSIC_NATURALS = {"dragon": 13, "six-pairs": 3, "three-straights": 3, "three-flushes": 3}

PRESETS: Mapping[str, RuleSet] = MappingProxyType(
    {
        rules.id: rules.checked()
        for rules in (
            RuleSet(
                id="2-4",
                summary="classic 2-4: 1 unit a row and 1 for winning two rows of three; no royalties",
                method="2-4",
                naturals=CLASSIC_NATURALS,
                surrender=3,
            ),
            RuleSet(
                id="1-6",
                summary="classic 1-6: 1 unit a row and 3 more for a scoop; no royalties",
                method="1-6",
                naturals=CLASSIC_NATURALS,
                surrender=3,
            ),
            RuleSet(
                id="ofc",
                summary="open-face 1-6 with the standard OFC royalty table, paid by holder",
                method="1-6",
                royalties=Royalties(mode="holder", table=OFC_TABLE),
                surrender=2,
                fantasyland="standard",
            ),
            RuleSet(
                id="ofc-western",
                summary="open-face 1-6 with the western royalty table, paid by holder",
                method="1-6",
                royalties=Royalties(mode="holder", table=OFC_WESTERN_TABLE),
                surrender=2,
                fantasyland="standard",
            ),
            RuleSet(
                id="pineapple",
                summary="Pineapple OFC: as ofc, at most 3 players, progressive fantasyland",
                method="1-6",
                royalties=Royalties(mode="holder", table=OFC_TABLE),
                surrender=2,
                fantasyland="progressive",
                max_players=3,
            ),
        )
    }
)
DEFAULT_RULES = "2-4"


def get_rules(name: str) -> RuleSet:
    """The preset called ``name``."""
    try:
        return PRESETS[name]
    except KeyError:
        raise RulesError(f"unknown rule set {name!r}: choose one of {', '.join(PRESETS)}") from None
