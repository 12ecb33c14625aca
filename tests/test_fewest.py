"""Settle-up in the fewest payments (cpscore.settle.fewest), checked against a
brute force on small cases (rounding: tests/test_settle.py)."""

import itertools
import random
from decimal import Decimal
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpscore.settle import fewest


def settles(balances: dict, transfers) -> bool:
    left = dict(balances)
    for transfer in transfers:
        assert transfer.amount > 0 and transfer.payer != transfer.payee
        left[transfer.payer] += transfer.amount
        left[transfer.payee] -= transfer.amount
    return all(value == 0 for value in left.values())


def brute_force_fewest(values: tuple) -> int:
    """The fewest payments, by trying every way to split the players into
    groups that sum to zero (n - the most groups)."""
    players = [value for value in values if value]

    @cache
    def most(left: frozenset) -> int:
        if not left:
            return 0
        first = min(left)
        rest = left - {first}
        best = 0
        for size in range(len(rest) + 1):
            for others in itertools.combinations(sorted(rest), size):
                if players[first] + sum(players[i] for i in others) == 0:
                    best = max(best, 1 + most(rest - set(others)))
        return best

    return len(players) - most(frozenset(range(len(players))))


@pytest.mark.parametrize(
    "balances, count",
    [
        ({"Amy": 4, "Bob": 3, "Cy": 3, "Dee": -6, "Eve": -4}, 3),
        ({"Amy": 0, "Bob": 0}, 0),
        ({}, 0),
        ({"Amy": 5, "Bob": -5}, 1),
        ({"Amy": 5, "Bob": -5, "Cy": 7, "Dee": -7}, 2),
        ({"Amy": 10, "Bob": -1, "Cy": -2, "Dee": -3, "Eve": -4}, 4),
        ({"Amy": Decimal("2.5"), "Bob": Decimal("-1.25"), "Cy": Decimal("-1.25")}, 2),
        ({"Amy": 1, "Bob": 1, "Cy": 1, "Dee": -1, "Eve": -1, "Fay": -1}, 3),
    ],
    ids=["issue", "square", "nobody", "one-pair", "two-pairs", "a-star", "decimals", "equal-pairs"],
)
def test_known_cases(balances, count):
    settled = fewest(balances)
    assert len(settled.transfers) == count
    assert settled.exact
    assert settles(balances, settled.transfers)
    assert settled.moved == sum(value for value in balances.values() if value > 0)


def test_the_issue_case_pays_six_as_three_and_three():
    settled = fewest({"Amy": 4, "Bob": 3, "Cy": 3, "Dee": -6, "Eve": -4})
    assert [(t.payer, t.payee, t.amount) for t in settled.transfers] == [
        ("Dee", "Bob", 3),
        ("Dee", "Cy", 3),
        ("Eve", "Amy", 4),
    ]


AMOUNTS = st.one_of(
    st.integers(min_value=-30, max_value=30),
    st.integers(min_value=-3000, max_value=3000).map(lambda cents: Decimal(cents).scaleb(-2)),
)


@given(st.lists(AMOUNTS, min_size=1, max_size=7))
@settings(max_examples=300, deadline=None)
def test_the_count_is_the_brute_forces_and_everything_settles(values):
    values = [*values, -sum(values)]
    balances = {f"P{index}": value for index, value in enumerate(values)}
    settled = fewest(balances)
    assert settled.exact
    assert len(settled.transfers) == brute_force_fewest(tuple(values))
    assert settles(balances, settled.transfers)
    live = sum(1 for value in values if value)
    assert len(settled.transfers) <= max(live - 1, 0)
    # nobody both pays and receives: the total moved is the sum owed, the least possible
    payers = {t.payer for t in settled.transfers}
    assert not payers & {t.payee for t in settled.transfers}
    assert sum(t.amount for t in settled.transfers) == settled.moved == sum(v for v in values if v > 0)
    # the same payments whatever the order of the mapping
    shuffled = list(balances.items())
    random.Random(len(values)).shuffle(shuffled)
    assert fewest(dict(shuffled)).transfers == settled.transfers


def test_twenty_players_are_searched_exactly_and_past_the_limit_it_says_so():
    rng = random.Random(20)
    values = [rng.randint(-500, 500) for _ in range(19)]
    balances = {f"P{index:02}": value for index, value in enumerate([*values, -sum(values)])}
    settled = fewest(balances)
    assert settled.exact and settles(balances, settled.transfers)
    greedy = fewest(balances, limit=3)
    assert not greedy.exact and settles(balances, greedy.transfers)
    assert len(greedy.transfers) <= len(balances) - 1
    assert len(settled.transfers) <= len(greedy.transfers)
