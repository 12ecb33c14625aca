"""Rule sets as data (RULES.md 5, 6, 11).

A :class:`RuleSet` is a frozen, validated record: the scoring method, the
royalty table and how it is paid, naturals and their values, surrender,
multipliers and variants.  Presets are instances of it; a house rule is the
same record with other values, never another code path.

>>> get_rules("ofc").royalties.table.lookup("back", "quads")
Decimal('10')
>>> get_rules("ofc").royalties.table.lookup("front", "pair", "QQ")
Decimal('7')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from types import MappingProxyType

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


def _frozen(mapping: Mapping[str, object]) -> Mapping[str, Decimal]:
    return MappingProxyType({key: Decimal(value) for key, value in mapping.items()})


def _check_units(where: str, mapping: Mapping[str, Decimal], allowed: tuple[str, ...]) -> None:
    for key, units in mapping.items():
        if key not in allowed:
            raise RulesError(f"{where}: unknown key {key!r} (allowed: {', '.join(allowed)})")
        if not units.is_finite() or units < 0:
            raise RulesError(f"{where}.{key}: {units} is not a non-negative number")


@dataclass(frozen=True)
class RoyaltyTable:
    """Royalty units per row.  Front keys are ranks (``66``, ``AAA``); middle and
    back keys are category ids.  A missing key pays nothing."""

    front: Mapping[str, Decimal] = field(default_factory=dict)
    middle: Mapping[str, Decimal] = field(default_factory=dict)
    back: Mapping[str, Decimal] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for row, allowed in (("front", FRONT_KEYS), ("middle", FIVE_CARD_KEYS), ("back", FIVE_CARD_KEYS)):
            mapping = _frozen(getattr(self, row))
            _check_units(f"royalties.{row}", mapping, allowed)
            object.__setattr__(self, row, mapping)

    def lookup(self, row: str, category: str, ranks: str = "") -> Decimal:
        """Units for a row of this category; ``ranks`` are the front's group
        letters (``QQ`` for a pair of queens, ``777`` for trips)."""
        if row == "front":
            return self.front.get(ranks, _ZERO) if category in ("pair", "trips") else _ZERO
        table = self.middle if row == "middle" else self.back
        if category == "royal-flush" and category not in table:
            category = "straight-flush"
        return table.get(category, _ZERO)


_ZERO = Decimal(0)


@dataclass(frozen=True)
class Royalties:
    """How royalties are paid (RULES.md 6)."""

    mode: str = "none"
    table: RoyaltyTable = field(default_factory=RoyaltyTable)
    cancel_when_both: bool = False
    max_per_hand: int = 0  # 0: no limit
    spade_bonus: bool = False

    def __post_init__(self) -> None:
        if self.mode not in ROYALTY_MODES:
            raise RulesError(f"royalties.mode: {self.mode!r} is not one of {', '.join(ROYALTY_MODES)}")
        if isinstance(self.max_per_hand, bool) or not isinstance(self.max_per_hand, int) or self.max_per_hand < 0:
            raise RulesError(f"royalties.max_per_hand: {self.max_per_hand!r} is not a whole number >= 0")


@dataclass(frozen=True)
class RuleSet:
    """Everything that decides a settlement.  See RULES.md 11 for the presets."""

    id: str
    summary: str
    method: str = "2-4"
    royalties: Royalties = field(default_factory=Royalties)
    naturals: Mapping[str, Decimal] = field(default_factory=dict)
    surrender: Decimal | None = None  # units a surrendering player pays; None: not allowed
    scoop_doubles: bool = False
    home_run: bool = False
    ace_high_front_straight: bool = True
    wheel: str = "lowest"
    low_middle: bool = False
    fantasyland: str = "none"
    max_players: int = 4

    def __post_init__(self) -> None:
        if self.method not in METHODS:
            raise RulesError(f"method: {self.method!r} is not one of {', '.join(METHODS)}")
        if self.wheel not in WHEELS:
            raise RulesError(f"wheel: {self.wheel!r} is not one of {', '.join(WHEELS)}")
        if self.fantasyland not in FANTASYLAND:
            raise RulesError(f"fantasyland: {self.fantasyland!r} is not one of {', '.join(FANTASYLAND)}")
        naturals = _frozen(self.naturals)
        _check_units("naturals", naturals, NATURALS)
        object.__setattr__(self, "naturals", naturals)
        if self.surrender is not None:
            surrender = Decimal(self.surrender)
            if not surrender.is_finite() or surrender < 0:
                raise RulesError(f"surrender: {surrender} is not a non-negative number")
            object.__setattr__(self, "surrender", surrender)
        if not 2 <= self.max_players <= 4:
            raise RulesError(f"max_players: {self.max_players} is not between 2 and 4")


# RULES.md 6: the OFC front table is shared by every OFC preset.
_OFC_FRONT = {letter * 2: units for units, letter in enumerate("6789TJQKA", start=1)}
_OFC_FRONT.update({letter * 3: units for units, letter in enumerate(_LETTERS, start=10)})
OFC_TABLE = RoyaltyTable(
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
OFC_WESTERN_TABLE = RoyaltyTable(
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
        rules.id: rules
        for rules in (
            RuleSet(
                id="2-4",
                summary="classic 2-4: 1 unit a row and 1 for winning two rows of three; no royalties",
                method="2-4",
                naturals=CLASSIC_NATURALS,
                surrender=Decimal(3),
            ),
            RuleSet(
                id="1-6",
                summary="classic 1-6: 1 unit a row and 3 more for a scoop; no royalties",
                method="1-6",
                naturals=CLASSIC_NATURALS,
                surrender=Decimal(3),
            ),
            RuleSet(
                id="ofc",
                summary="open-face 1-6 with the standard OFC royalty table, paid by holder",
                method="1-6",
                royalties=Royalties(mode="holder", table=OFC_TABLE),
                surrender=Decimal(2),
                fantasyland="standard",
            ),
            RuleSet(
                id="ofc-western",
                summary="open-face 1-6 with the western royalty table, paid by holder",
                method="1-6",
                royalties=Royalties(mode="holder", table=OFC_WESTERN_TABLE),
                surrender=Decimal(2),
                fantasyland="standard",
            ),
            RuleSet(
                id="pineapple",
                summary="Pineapple OFC: as ofc, at most 3 players, progressive fantasyland",
                method="1-6",
                royalties=Royalties(mode="holder", table=OFC_TABLE),
                surrender=Decimal(2),
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
