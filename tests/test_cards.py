"""Card and hand notation (docs/rules.md 1)."""

import pytest

from cpscore.cards import CARDS, Card, Rank, Suit, parse_card, parse_cards, parse_hand
from cpscore.errors import CardError

AMY = "Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d"


@pytest.mark.parametrize(
    ("token", "expected"),
    [
        ("Ah", "Ah"),
        ("ah", "Ah"),
        ("AH", "Ah"),
        ("aH", "Ah"),
        ("Td", "Td"),
        ("td", "Td"),
        ("10d", "Td"),
        ("10D", "Td"),
        ("2c", "2c"),
        ("K♠", "Ks"),
        ("k♤", "Ks"),
        ("Q♥", "Qh"),
        ("Q♡", "Qh"),
        ("J♦", "Jd"),
        ("J♢", "Jd"),
        ("9♣", "9c"),
        ("9♧", "9c"),
        ("Q♠\ufe0f", "Qs"),  # as a phone writes it: the emoji selector after the suit
        ("10♥\ufe0f", "Th"),
        ("a♦\ufe0e", "Ad"),  # the text selector
    ],
    ids=lambda value: value.encode("unicode_escape").decode(),
)
def test_every_card_form(token, expected):
    assert str(parse_card(token)) == expected


@pytest.mark.parametrize("token", ["1h", "11h", "Ax", "A", "h", "", "Ahh", "0s", "T10", "Qs\ufe0f", "Q\ufe0f"])
def test_unknown_card(token):
    with pytest.raises(CardError, match="unknown card"):
        parse_card(token)


def test_52_distinct_cards_with_codes():
    assert len(set(CARDS)) == 52
    assert [card.code for card in CARDS] == list(range(52))
    assert sorted(CARDS)[0] is Card.of(Rank.TWO, Suit.CLUBS)
    assert max(CARDS) is Card.of(Rank.ACE, Suit.SPADES)
    assert sorted(CARDS, reverse=True)[:2] == [parse_card("As"), parse_card("Ah")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Ah Kh Qh", ["Ah", "Kh", "Qh"]),
        ("Ah,Kh,Qh", ["Ah", "Kh", "Qh"]),
        ("Ah, Kh ,Qh", ["Ah", "Kh", "Qh"]),
        ("AhKhQh", ["Ah", "Kh", "Qh"]),
        ("10h10d", ["Th", "Td"]),
        ("A♠K♥ 10♦", ["As", "Kh", "Td"]),
    ],
    ids=["spaces", "commas", "mixed", "together", "tens-together", "symbols"],
)
def test_row_separators(text, expected):
    assert [str(card) for card in parse_cards(text)] == expected


@pytest.mark.parametrize(
    "text",
    [
        AMY,
        "Ah Ad Ac 7s 7d / 9h 9c 5d 5s 2c / Ks Kd 4c",
        "Ks Kd 4c | 9h 9c 5d 5s 2c | Ah Ad Ac 7s 7d",
        "KsKd4c/9h9c5d5s2c/AhAdAc7s7d",
        "ks,kd,4c / 9H 9C 5D 5S 2C / a♥ a♦ a♣ 7♠ 7♦",
    ],
    ids=["front-first", "back-first", "pipes", "together", "mixed-forms"],
)
def test_set_hand_forms_normalise(text):
    assert str(parse_hand(text)) == AMY


def test_hand_keeps_card_order_within_rows():
    hand = parse_hand("4c Kd Ks / 2c 5s 5d 9c 9h / 7d 7s Ac Ad Ah")
    assert str(hand) == "4c Kd Ks / 2c 5s 5d 9c 9h / 7d 7s Ac Ad Ah"
    assert len(hand.cards()) == 13


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Ks Kd 4c / 9h 9c 5d 5s / Ah Ad Ac 7s 7d", "Amy, middle: 4 cards, the middle has 5"),
        ("Ks Kd 4c 3c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d", "Amy, front: 4 cards, the front has 3"),
        ("Ks Kd / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d 4c", "Amy, front: 2 cards, the front has 3"),
        ("Ks Kd Xc / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d", "Amy, front: unknown card 'Xc'"),
        ("Ah Ad Ac 7s 7d / 9h 9c 5d 5s 2c / Ks Kd 4x", "Amy, front: unknown card '4x'"),
        ("Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 1d", "Amy, back: unknown card '1d'"),
        ("Ks Kd 4c / 9h 9c 5d 5s 2c / AhAdAc7sZZ", "Amy, back: unknown card 'ZZ'"),
        ("Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s Ks", "Amy: Ks appears twice (front and back)"),
        ("Ks Kd 4c / 9h 9h 5d 5s 2c / Ah Ad Ac 7s 7d", "Amy: 9h appears twice (middle)"),
        ("Ks Kd 4c / 9h 9c 5d 5s 2c", "Amy: 2 rows"),
        ("Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d / 2d", "Amy: 4 rows"),
        ("Ks Kd 4c 9h 9c 5d 5s 2c Ah Ad Ac 7s 7d", "Amy: 13 cards without rows: set the hand"),
        ("Ks", "Amy: 1 card and no rows"),
        ("", "Amy: 0 cards and no rows"),
    ],
    ids=[
        "short-middle",
        "long-front",
        "short-front",
        "bad-token",
        "bad-token-back-first",
        "bad-rank",
        "bad-run",
        "repeat-across-rows",
        "repeat-in-row",
        "two-rows",
        "four-rows",
        "unset-hand",
        "one-card",
        "empty",
    ],
)
def test_hand_errors_name_player_row_and_token(text, message):
    with pytest.raises(CardError) as error:
        parse_hand(text, "Amy")
    assert str(error.value).startswith(message)


def test_cards_with_the_emoji_selector_read_in_every_form_a_hand_takes():
    hand = "K♠️ K♦️ 4♣️ / 9♥️9♣️5♦️5♠️2♣️ / A♥ A♦ A♣ 7♠ 7♦"
    assert str(parse_hand(hand)) == "Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d"
