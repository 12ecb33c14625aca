"""Cards, rows and set hands, and the notation that writes them (docs/rules.md 1).

A card is written rank then suit: ``Ah``, ``td``, ``10c``, ``K♠``.  A set hand
is three rows separated by ``/`` (or ``|``): ``3 / 5 / 5`` cards is front,
middle, back and ``5 / 5 / 3`` is back, middle, front.

>>> parse_card("10h")
Card(rank=Rank.TEN, suit=Suit.HEARTS, code=34)
>>> str(parse_hand("Ah Ad Ac 7s 7d / 9h 9c 5d 5s 2c / ks kd 4c"))
'Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d'
"""

from __future__ import annotations

import enum
import re
from collections import namedtuple
from collections.abc import Iterable, Sequence

from cpscore.errors import CardError, shown
from cpscore.records import Record

ROW_NAMES = ("front", "middle", "back")
ROW_SIZES = (3, 5, 5)


class Rank(enum.Enum):
    """A card rank; the value is its notation.  Ranks order 2 < ... < A."""

    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "T"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"
    ACE = "A"

    @property
    def number(self) -> int:
        """2 for a deuce up to 14 for an ace.

        >>> Rank.ACE.number, Rank.TEN.number
        (14, 10)
        """
        return _RANK_NUMBER[self]

    def __lt__(self, other: Rank) -> bool:
        if not isinstance(other, Rank):
            return NotImplemented
        return _RANK_NUMBER[self] < _RANK_NUMBER[other]

    def __repr__(self) -> str:
        return f"Rank.{self.name}"


class Suit(enum.Enum):
    """A card suit; the value is its notation.  Suits never break ties; they
    order clubs < diamonds < hearts < spades only so that sorting is stable."""

    CLUBS = "c"
    DIAMONDS = "d"
    HEARTS = "h"
    SPADES = "s"

    @property
    def red(self) -> bool:
        """True for hearts and diamonds."""
        return self is Suit.HEARTS or self is Suit.DIAMONDS

    def __lt__(self, other: Suit) -> bool:
        if not isinstance(other, Suit):
            return NotImplemented
        return _SUIT_INDEX[self] < _SUIT_INDEX[other]

    def __repr__(self) -> str:
        return f"Suit.{self.name}"


_RANK_NUMBER = {rank: number for number, rank in enumerate(Rank, start=2)}
_SUIT_INDEX = {suit: index for index, suit in enumerate(Suit)}


class Card(namedtuple("Card", "rank suit code")):
    """One of the 52 cards, immutable and hashable; cards compare by rank, then
    suit.  ``code`` (0-51, rank-major) is what the evaluator reads.

    >>> parse_card("Ah") > parse_card("Kh"), str(parse_card("t♠"))
    (True, 'Ts')
    >>> Card.of(Rank.ACE, Suit.SPADES) is parse_card("As")
    True
    """

    __slots__ = ()
    rank: Rank
    suit: Suit
    code: int

    def __hash__(self) -> int:
        return self.code  # cards are 52 singletons; hashing the enums would be slow

    @staticmethod
    def of(rank: Rank, suit: Suit) -> Card:
        """The card of this rank and suit."""
        return CARDS[card_code(rank.number, _SUIT_INDEX[suit])]

    def __str__(self) -> str:
        return self.rank.value + self.suit.value


_CARD_TEXTS: list[str] = []


def card_texts() -> list[str]:
    """Each card's text (``Ah``) by its code, made on first use (nothing is built at import)."""
    if not _CARD_TEXTS:
        _CARD_TEXTS.extend(str(card) for card in CARDS)
    return _CARD_TEXTS


def card_code(rank: int, suit: int) -> int:
    """The layout of a card code, named here once: rank-major, ``(rank - 2) * 4
    + suit`` for ranks 2-14 and suits 0-3 (clubs, diamonds, hearts, spades), so
    0 is 2c and 51 is As.  :data:`RANK_OF` and :data:`SUIT_OF` read it back."""
    return (rank - 2) * 4 + suit


#: The 52 cards, indexed by their code: ``CARDS[card.code] is card``.
CARDS: tuple[Card, ...] = tuple(
    Card(rank, suit, card_code(rank.number, _SUIT_INDEX[suit])) for rank in Rank for suit in Suit
)
#: A card code's rank (2-14) and suit (0-3), by code: the inverse of :func:`card_code`.
RANK_OF: tuple[int, ...] = tuple(code // 4 + 2 for code in range(52))
SUIT_OF: tuple[int, ...] = tuple(code % 4 for code in range(52))
#: The suits of red cards (diamonds, hearts) in :data:`SUIT_OF`.
RED_SUITS = (1, 2)

_RANK_SPELLINGS = {rank: [rank.value, rank.value.lower()] for rank in Rank}
_RANK_SPELLINGS[Rank.TEN].append("10")
_SUIT_SPELLINGS = {
    Suit.SPADES: "sS♠♤",
    Suit.HEARTS: "hH♥♡",
    Suit.DIAMONDS: "dD♦♢",
    Suit.CLUBS: "cC♣♧",
}
#: The variation selectors a phone writes after a suit symbol (``Q♠️``: U+FE0F
#: asks for the emoji picture, U+FE0E for the text one); they are part of the card.
SELECTORS = "\ufe0f\ufe0e"
#: Every accepted spelling of every card (about 300 entries).
_TOKENS: dict[str, Card] = {
    r + s + selector: card
    for card in CARDS
    for r in _RANK_SPELLINGS[card.rank]
    for s in _SUIT_SPELLINGS[card.suit]
    for selector in ("", *(SELECTORS if not s.isascii() else ""))
}
#: Card codes by token (every spelling), for reading plain hands by dictionary lookups.
CODES: dict[str, int] = {token: card.code for token, card in _TOKENS.items()}

# Patterns for cards written together ("AhKhQh"); compiled on first use by re.
_ONE_CARD = "(?i:(?:10|[2-9TJQKA])(?:[SHDC]|[♠♥♦♣♤♡♢♧][\ufe0f\ufe0e]?))"
_RUN_OF_CARDS = f"(?:{_ONE_CARD})+"
#: The longest hand text read (13 cards written out with spaces, commas and
#: rows take well under 100 characters); a longer one is refused unread, so
#: junk costs time in proportion to this, not to its length.
MAX_HAND_TEXT = 200

CARD_HELP = "a card is a rank (2-9, T or 10, J, Q, K, A) then a suit (s, h, d, c or ♠ ♥ ♦ ♣)"


def parse_rows(text: str, player: str | None = None) -> tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]:
    """The rows of a hand being set, front first, each with at most its
    size of cards: ``front / middle / back`` (or back first, ``5 / 5 / 3``
    as :func:`parse_hand` reads it), or cards without ``/``, which fill the
    front, then the middle, then the back.  Every notation a hand takes is
    read; a card twice, a fourth row or a row over its size is an error.

    >>> [" ".join(map(str, row)) for row in parse_rows("Q♠️ 10h / 2c")]
    ['Qs Th', '2c', '']
    >>> [len(row) for row in parse_rows("AsKsQsJsTs9s")]
    [3, 3, 0]
    """
    parts = _hand_parts(text, player)
    if len(parts) == 1:
        cards = parse_cards(text, player)
        if len(cards) > 13:
            raise CardError(f"{_where(player)}{_count(len(cards))}: a hand is 13 cards")
        _check_no_repeats([("hand", cards)], player)
        return tuple(cards[:3]), tuple(cards[3:8]), tuple(cards[8:])
    if len(parts) > 3:
        raise CardError(
            f"{_where(player)}{len(parts)} rows: a hand has 3 rows, front / middle / back, separated by '/'"
        )
    parts += [""] * (3 - len(parts))
    sizes = [max(len(re.findall(_ONE_CARD, part)), len(part.replace(",", " ").split())) for part in parts]
    # A first row of more than 3 cards cannot be the front: the hand is written back first.
    names = ("back", "middle", "front") if sizes[0] > 3 else ROW_NAMES
    rows = {name: tuple(parse_cards(part, player, name)) for name, part in zip(names, parts)}
    for name, size in zip(ROW_NAMES, ROW_SIZES):
        if len(rows[name]) > size:
            raise CardError(f"{_where(player, name)}{_count(len(rows[name]))}, the {name} has {size}")
    _check_no_repeats([(name, rows[name]) for name in ROW_NAMES], player)
    return rows["front"], rows["middle"], rows["back"]


def _count(number: int) -> str:
    return f"{number} card" if number == 1 else f"{number} cards"


def _where(player: str | None, row: str | None = None) -> str:
    parts = [part for part in (player, row) if part]
    return ", ".join(parts) + ": " if parts else ""


def parse_card(token: str) -> Card:
    """Read one card token (case-insensitive; ``10`` or ``T``; letters or symbols)."""
    card = _TOKENS.get(token)
    if card is None:
        raise CardError(f"unknown card {shown(token)}: {CARD_HELP}")
    return card


def parse_cards(text: str, player: str | None = None, row: str | None = None) -> list[Card]:
    """Read cards separated by spaces or commas, or written together (``AhKhQh``).

    >>> [str(c) for c in parse_cards("AhKh,10c 2S")]
    ['Ah', 'Kh', 'Tc', '2s']
    """
    if len(text) > MAX_HAND_TEXT:
        raise CardError(
            f"{_where(player, row)}{len(text):,} characters of cards: 13 cards take at most {MAX_HAND_TEXT} characters"
        )
    cards: list[Card] = []
    for chunk in text.replace(",", " ").split():
        card = _TOKENS.get(chunk)
        if card is not None:
            cards.append(card)
        elif re.fullmatch(_RUN_OF_CARDS, chunk):
            cards.extend(_TOKENS[token] for token in re.findall(_ONE_CARD, chunk))
        else:
            bad = _first_bad_token(chunk)
            raise CardError(f"{_where(player, row)}unknown card {shown(bad)}: {CARD_HELP}")
    return cards


def _first_bad_token(chunk: str) -> str:
    """The part of a chunk where reading cards fails, for the error message."""
    one = re.compile(_ONE_CARD)
    position = 0
    while match := one.match(chunk, position):  # from a position: linear, no slicing
        position = match.end()
    rest = chunk[position:]
    return rest[:3] if len(rest) > 3 and position else rest


class Hand(Record):
    """A set hand: a 3-card front, a 5-card middle and a 5-card back.  Cards
    keep the order they were written in.  ``codes`` are the 13 card codes,
    front first: what settlement reads.  A hand read from its codes
    (:func:`hand_of`) makes its rows of cards only when they are asked for."""

    __slots__ = ("codes", "_rows")
    _args = ("front", "middle", "back")

    def __init__(self, front: tuple[Card, ...], middle: tuple[Card, ...], back: tuple[Card, ...]) -> None:
        self._rows: tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]] | None = (front, middle, back)
        self.codes: tuple[int, ...] = tuple(card.code for card in front + middle + back)

    @property
    def rows(self) -> tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]:
        """The rows in the order front, middle, back."""
        rows = self._rows
        if rows is None:
            card, codes = CARDS.__getitem__, self.codes
            rows = self._rows = (
                tuple(map(card, codes[:3])),
                tuple(map(card, codes[3:8])),
                tuple(map(card, codes[8:])),
            )
        return rows

    @property
    def front(self) -> tuple[Card, ...]:
        return self.rows[0]

    @property
    def middle(self) -> tuple[Card, ...]:
        return self.rows[1]

    @property
    def back(self) -> tuple[Card, ...]:
        return self.rows[2]

    def cards(self) -> tuple[Card, ...]:
        """All 13 cards, front first."""
        if self._rows is None:
            return tuple(map(CARDS.__getitem__, self.codes))
        front, middle, back = self._rows
        return front + middle + back

    def __str__(self) -> str:
        texts = [card_texts()[code] for code in self.codes]
        return " ".join(texts[:3]) + " / " + " ".join(texts[3:8]) + " / " + " ".join(texts[8:])


def hand_of(codes: tuple[int, ...]) -> Hand:
    """The set hand of 13 card codes, front first (its cards made on first use)."""
    hand = Hand.__new__(Hand)
    hand.codes = codes
    hand._rows = None
    return hand


def parse_hand(text: str, player: str | None = None) -> Hand:
    """Read a set hand, ``front / middle / back`` or ``back / middle / front``.

    Errors name the player (when given), the row and the token.  Thirteen
    cards with no ``/`` are an unset hand, which has no rows.
    """
    found = parse_hand_or_cards(text, player)
    if not isinstance(found, Hand):
        raise CardError(
            f"{_where(player)}13 cards without rows: set the hand as front / middle / back "
            "(3 / 5 / 5 cards, rows separated by '/')"
        )
    return found


def parse_hand_or_cards(text: str, player: str | None = None) -> Hand | tuple[Card, ...]:
    """A set hand, or the 13 cards of an unset hand (no ``/``: docs/rules.md 1)."""
    quick = plain_hand(text)
    if quick is not None:
        return quick
    where = _where(player)
    parts = _hand_parts(text, player)
    if len(parts) == 1:
        cards = parse_cards(text, player)
        if len(cards) != 13:
            raise CardError(
                f"{where}{_count(len(cards))} and no rows: a hand is 13 cards written "
                "front / middle / back (3 / 5 / 5 cards, rows separated by '/')"
            )
        _check_no_repeats([("hand", cards)], player)
        return tuple(cards)
    if len(parts) != 3:
        raise CardError(f"{where}{len(parts)} rows: a hand has 3 rows, front / middle / back, separated by '/'")
    try:
        parsed = [parse_cards(part) for part in parts]
    except CardError:
        # Read again, naming the rows by the order the row sizes suggest.
        sizes = [max(len(re.findall(_ONE_CARD, part)), len(part.replace(",", " ").split())) for part in parts]
        for name, part in zip(_row_order(sizes[0], sizes[2]), parts):
            parse_cards(part, player, name)
        raise  # pragma: no cover - the loop above raises
    rows = dict(zip(_row_order(len(parsed[0]), len(parsed[2])), map(tuple, parsed)))
    for name, size in zip(ROW_NAMES, ROW_SIZES):
        if len(rows[name]) != size:
            raise CardError(
                f"{_where(player, name)}{_count(len(rows[name]))}, the {name} has {size} "
                "(a hand is 3 / 5 / 5 cards front / middle / back, or 5 / 5 / 3 back first)"
            )
    hand = Hand(rows["front"], rows["middle"], rows["back"])
    _check_no_repeats(zip(ROW_NAMES, hand.rows), player)
    return hand


def _hand_parts(text: str, player: str | None) -> list[str]:
    """A hand's text split at its rows' ``/`` (or ``|``); a text too long for a hand is refused unread."""
    if len(text) > MAX_HAND_TEXT:
        raise CardError(
            f"{_where(player)}the hand is {len(text):,} characters long: a hand is 13 cards, at most {MAX_HAND_TEXT} characters"
        )
    return text.replace("|", "/").split("/")


def plain_hand(text: str) -> Hand | None:
    """A hand written the plain way (``Ks Kd 4c / ...``: tokens between spaces,
    rows 3 / 5 / 5 or 5 / 5 / 3, no card twice), read with dictionary lookups
    alone; None for anything else, which :func:`parse_hand_or_cards` reads
    (and words the error for)."""
    codes = plain_codes(text)
    return hand_of(codes) if codes is not None and len(set(codes)) == 13 else None


def plain_codes(text: str) -> tuple[int, ...] | None:
    """The 13 codes, front first, of a hand written the plain way, as
    :func:`plain_hand` reads it but with no test for a card written twice
    (the caller tests the whole deal at once); None for anything else."""
    if len(text) > MAX_HAND_TEXT:
        return None
    code = CODES.__getitem__
    tokens = text.split()
    if len(tokens) == 15 and tokens[3] == tokens[9] == "/":  # front / middle / back, spaced
        del tokens[9], tokens[3]
        try:
            return tuple(map(code, tokens))
        except KeyError:
            return None
    parts = text.split("/")
    if len(parts) != 3:
        return None
    try:
        rows = [list(map(code, part.split())) for part in parts]
    except KeyError:
        return None
    first, middle, last = rows
    if len(middle) != 5:
        return None
    if len(first) == 3 and len(last) == 5:
        front, back = first, last
    elif len(first) == 5 and len(last) == 3:
        front, back = last, first
    else:
        return None
    return (*front, *middle, *back)


def _row_order(first: int, last: int) -> tuple[str, str, str]:
    """The 3-card row tells the order: ``5 / 5 / 3`` is written back first."""
    return ("back", "middle", "front") if last == 3 and first != 3 else ROW_NAMES


def _check_no_repeats(rows: Iterable[tuple[str, Sequence[Card]]], player: str | None) -> None:
    rows = list(rows)
    codes = [card.code for _, row in rows for card in row]
    if len(set(codes)) == len(codes):
        return
    seen: dict[Card, str] = {}
    for name, row in rows:
        for card in row:
            if card in seen:
                places = name if seen[card] == name else f"{seen[card]} and {name}"
                raise CardError(f"{_where(player)}{card} appears twice ({places})")
            seen[card] = name
