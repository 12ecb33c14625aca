"""cpscore.settle: settle-up in the fewest payments (checked against a brute
force over every split into groups summing to zero), its rules for ties, the
fallback past the limit, and rounding to a unit (the largest remainder method)."""

import random
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cpscore.settle import LIMIT, Settlement, Transfer, fewest, rounded

NAMES = ["Amy", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo"]


def payments(settlement):
    return [(t.payer, t.payee, t.amount) for t in settlement.transfers]


def left_after(balances, transfers):
    """The balances once the transfers are paid (a payer's balance goes up)."""
    left = dict(balances)
    for transfer in transfers:
        left[transfer.payer] += transfer.amount
        left[transfer.payee] -= transfer.amount
    return left


def most_groups(values):
    """The most groups summing to zero that ``values`` split into, by trying
    every split (the first value's group, then the rest's best split)."""
    if not values:
        return 0
    first, rest = values[0], values[1:]
    best = 0
    for chosen in range(1 << len(rest)):
        group = [value for i, value in enumerate(rest) if chosen >> i & 1]
        if first + sum(group) == 0:
            others = [value for i, value in enumerate(rest) if not chosen >> i & 1]
            best = max(best, 1 + most_groups(others))
    return best


def brute_force_count(balances):
    values = [value for value in balances.values() if value]
    return len(values) - most_groups(values)


def check_settles(balances, settlement):
    """Everything a settlement must be, whatever the search did."""
    non_zero = [name for name, value in balances.items() if value]
    for transfer in settlement.transfers:
        assert transfer.amount > 0
        assert transfer.payer != transfer.payee
        assert type(transfer.amount) in (int, Decimal)
        assert balances[transfer.payer] < 0 < balances[transfer.payee]  # nobody both pays and receives
    assert all(value == 0 for value in left_after(balances, settlement.transfers).values())
    assert len(settlement.transfers) <= max(len(non_zero) - 1, 0)
    assert settlement.moved == sum(value for value in balances.values() if value > 0)
    assert sum(t.amount for t in settlement.transfers) == settlement.moved
    # The groups: every player with a balance in one, each summing to zero, and one
    # payment fewer than players in each.
    assert sorted(name for group in settlement.groups for name in group) == sorted(non_zero)
    for group in settlement.groups:
        assert sum(balances[name] for name in group) == 0
        assert group == sorted(group)
    assert len(settlement.transfers) == len(non_zero) - len(settlement.groups)
    keys = [(t.payer, t.payee) for t in settlement.transfers]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)


# Hand cases ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("balances", "expected"),
    [
        pytest.param(
            {"Amy": 4, "Bob": 3, "Cy": 3, "Dee": -6, "Eve": -4},
            [("Dee", "Bob", 3), ("Dee", "Cy", 3), ("Eve", "Amy", 4)],
            id="issue-three-not-four",
        ),
        pytest.param({}, [], id="nobody"),
        pytest.param({"Amy": 0, "Bob": 0, "Cy": 0}, [], id="already-square"),
        pytest.param({"Amy": 5, "Bob": -5, "Cy": 0}, [("Bob", "Amy", 5)], id="one-pair"),
        pytest.param(
            {"Amy": 5, "Bob": 5, "Cy": -5, "Dee": -5},
            [("Cy", "Amy", 5), ("Dee", "Bob", 5)],
            id="two-matching-pairs-paired-by-name",
        ),
        pytest.param(
            {"Amy": 7, "Bob": -7, "Cy": 2, "Dee": -2},
            [("Bob", "Amy", 7), ("Dee", "Cy", 2)],
            id="two-different-pairs",
        ),
        pytest.param(
            {"Amy": 10, "Bob": -1, "Cy": -2, "Dee": -3, "Eve": -4},
            [("Bob", "Amy", 1), ("Cy", "Amy", 2), ("Dee", "Amy", 3), ("Eve", "Amy", 4)],
            id="star-needs-n-1",
        ),
        pytest.param(
            {"Amy": 7, "Bob": -2, "Cy": 4, "Dee": -9},
            [("Bob", "Cy", 2), ("Dee", "Amy", 7), ("Dee", "Cy", 2)],
            id="chain-needs-n-1",
        ),
        pytest.param(
            {"Amy": Decimal("2.50"), "Bob": Decimal("-1.25"), "Cy": Decimal("-1.25")},
            [("Bob", "Amy", Decimal("1.25")), ("Cy", "Amy", Decimal("1.25"))],
            id="decimals",
        ),
        pytest.param(
            {"Amy": 3, "Bob": Decimal("-1.5"), "Cy": Decimal("-1.50")},
            [("Bob", "Amy", Decimal("1.5")), ("Cy", "Amy", Decimal("1.5"))],
            id="ints-and-decimals",
        ),
        pytest.param(
            {"Amy": Decimal("3.5"), "Bob": Decimal("-1.5"), "Cy": -2},
            [("Bob", "Amy", Decimal("1.5")), ("Cy", "Amy", 2)],
            id="whole-amounts-stay-ints",
        ),
        pytest.param(
            {"Amy": 1, "Bob": 1, "Cy": 1, "Dee": -1, "Eve": -1, "Fay": -1},
            [("Dee", "Amy", 1), ("Eve", "Bob", 1), ("Fay", "Cy", 1)],
            id="three-equal-pairs",
        ),
    ],
)
def test_hand_cases(balances, expected):
    settlement = fewest(balances)
    assert payments(settlement) == expected
    assert [type(amount) for _, _, amount in payments(settlement)] == [type(amount) for _, _, amount in expected]
    assert settlement.exact is True
    assert len(settlement.transfers) == brute_force_count(balances)
    check_settles(balances, settlement)


def test_the_issue_case_in_full():
    settlement = fewest({"A": 4, "B": 3, "C": 3, "D": -6, "E": -4})
    assert settlement == Settlement(
        [Transfer("D", "B", 3), Transfer("D", "C", 3), Transfer("E", "A", 4)], True, [["A", "E"], ["B", "C", "D"]], 10
    )


def test_pairs_first_then_the_search_beats_the_greedy_rule():
    """Past the limit (0 here) matching pairs still go first, then the largest debtor
    pays the largest creditor: on the issue's case the pair E/A already gives three
    payments; without a pair the old rule makes one more than the search."""
    issue = fewest({"A": 4, "B": 3, "C": 3, "D": -6, "E": -4}, limit=0)
    assert issue.exact is False and len(issue.transfers) == 3
    balances = {"A": 4, "B": 3, "C": 3, "D": -6, "E": -2, "F": -2}
    assert len(fewest(balances, limit=0).transfers) == 5
    settlement = fewest(balances)
    assert payments(settlement) == [("D", "B", 3), ("D", "C", 3), ("E", "A", 2), ("F", "A", 2)]
    assert settlement.groups == [["A", "E", "F"], ["B", "C", "D"]]


@pytest.mark.parametrize(
    ("balances", "groups", "expected"),
    [
        pytest.param(
            # Two best splits: {-3, 1, 1, 1} {-3, 1, 2} and the same with the debtors swapped:
            # the first debtor by name (Cy) takes the least group, -3 1 1 1 before -3 1 2,
            # with the first names among the equal balances.
            {"Cy": -3, "Fay": -3, "Amy": 1, "Dee": 1, "Gus": 1, "Hal": 1, "Bob": 2},
            [["Amy", "Cy", "Dee", "Gus"], ["Bob", "Fay", "Hal"]],
            [("Cy", "Amy", 1), ("Cy", "Dee", 1), ("Cy", "Gus", 1), ("Fay", "Bob", 2), ("Fay", "Hal", 1)],
            id="least-group-first",
        ),
        pytest.param(
            {"Amy": 1, "Bob": 2, "Cy": -3, "Dee": 1, "Eve": 2, "Fay": -3},
            [["Amy", "Bob", "Cy"], ["Dee", "Eve", "Fay"]],
            [("Cy", "Amy", 1), ("Cy", "Bob", 2), ("Fay", "Dee", 1), ("Fay", "Eve", 2)],
            id="equal-balances-by-name",
        ),
        pytest.param(
            # The largest debtor pays the largest creditor; equal creditors by name.
            {"Amy": 2, "Bob": 2, "Cy": 2, "Dee": -6},
            [["Amy", "Bob", "Cy", "Dee"]],
            [("Dee", "Amy", 2), ("Dee", "Bob", 2), ("Dee", "Cy", 2)],
            id="equal-creditors-by-name",
        ),
    ],
)
def test_ties(balances, groups, expected):
    settlement = fewest(balances)
    assert settlement.groups == groups
    assert payments(settlement) == expected


def test_refused_balances():
    with pytest.raises(ValueError, match="sum to 1, not 0"):
        fewest({"Amy": 3, "Bob": -2})
    with pytest.raises(ValueError, match=r"sum to 0.01, not 0"):
        fewest({"Amy": Decimal("0.01")})
    with pytest.raises(TypeError, match="not an exact amount"):
        fewest({"Amy": 0.5, "Bob": -0.5})
    with pytest.raises(TypeError, match="not an exact amount"):
        fewest({"Amy": True, "Bob": -1})


# Against a brute force --------------------------------------------------------------------

amounts = st.one_of(
    st.integers(-12, 12),
    st.integers(-400, 400).map(lambda cents: Decimal(cents).scaleb(-2)),
)


@st.composite
def balances(draw, most=7):
    """Up to ``most`` non-zero balances (and some zero ones) summing to zero."""
    values = draw(st.lists(amounts.filter(bool), min_size=0, max_size=most - 1))
    if sum(values):
        values.append(-sum(values))
    values += [0] * draw(st.integers(0, 2))
    names = draw(st.permutations(NAMES))[: len(values)]
    return dict(zip(names, values))


@given(balances())
def test_the_fewest_as_a_brute_force_finds(balances):
    settlement = fewest(balances)
    assert settlement.exact is True
    assert len(settlement.transfers) == brute_force_count(balances)
    check_settles(balances, settlement)


def first_best_split(balances):
    """The split the module's docstring promises, found by trying every split:
    matching pairs first (names in order), then, players ordered by balance
    and name, the least list of groups (as lists of positions) among the
    splits of the rest with the most groups."""
    players = sorted((value, name) for name, value in balances.items() if value)
    pairs, paired = [], set()
    for value, name in players:
        if value > 0:
            debtor = next((d for v, d in players if v == -value and d not in paired), None)
            if debtor is not None:
                pairs.append(sorted([debtor, name]))
                paired.update((debtor, name))
    rest = [(value, name) for value, name in players if name not in paired]

    def splits(positions):
        if not positions:
            yield []
            return
        first, others = positions[0], positions[1:]
        for chosen in range(1 << len(others)):
            group = [first] + [p for i, p in enumerate(others) if chosen >> i & 1]
            if sum(rest[p][0] for p in group) == 0:
                for split in splits([p for i, p in enumerate(others) if not chosen >> i & 1]):
                    yield [group, *split]

    every = list(splits(list(range(len(rest)))))
    most = max(map(len, every))
    best = min(split for split in every if len(split) == most)
    return sorted(pairs + [sorted(rest[p][1] for p in group) for group in best])


@given(balances())
def test_the_split_is_the_first_of_the_best(balances):
    assert fewest(balances).groups == first_best_split(balances)


@given(balances(), st.randoms(use_true_random=False))
def test_the_order_of_the_mapping_does_not_matter(balances, rng):
    items = list(balances.items())
    rng.shuffle(items)
    assert fewest(dict(items)) == fewest(balances)


@given(balances())
def test_renaming_in_the_same_order_renames_the_result(balances):
    renamed = {f"x-{name}": value for name, value in balances.items()}
    settlement = fewest(balances)
    again = fewest(renamed)
    assert payments(again) == [(f"x-{payer}", f"x-{payee}", amount) for payer, payee, amount in payments(settlement)]
    assert again.groups == [[f"x-{name}" for name in group] for group in settlement.groups]


@given(balances())
def test_the_fallback_settles_too(balances):
    settlement = fewest(balances, limit=0)
    check_settles(balances, settlement)
    assert len(settlement.transfers) >= brute_force_count(balances)


# The limit -------------------------------------------------------------------------------


def random_balances(count, rng, low=-100, high=100):
    """``count`` non-zero balances summing to zero, none the opposite of another
    (so that all of them are searched)."""
    while True:
        values = [rng.randint(low, high) or 1 for _ in range(count - 1)]
        values.append(-sum(values))
        if values[-1] and not any(-value in values for value in values):
            return {f"p{i:02d}": value for i, value in enumerate(values)}


def test_past_the_limit_not_exact_but_settled():
    balances = {"Amy": 10, "Bob": -1, "Cy": -2, "Dee": -3, "Eve": -4}
    settlement = fewest(balances, limit=4)
    assert settlement.exact is False
    check_settles(balances, settlement)
    assert fewest(balances, limit=5).exact is True


def test_matching_pairs_do_not_count_towards_the_limit():
    balances = {"Amy": 4, "Bob": -4, "Cy": 6, "Dee": -6, "Eve": 1, "Fay": 2, "Gus": -3}
    settlement = fewest(balances, limit=3)
    assert settlement.exact is True and len(settlement.transfers) == 4
    assert fewest(balances, limit=2).exact is False


@pytest.mark.parametrize("seed", range(3))
def test_twenty_random_balances_exactly(seed):
    balances = random_balances(20, random.Random(seed))
    settlement = fewest(balances)
    assert settlement.exact is True
    check_settles(balances, settlement)
    assert len(settlement.transfers) <= len(fewest(balances, limit=0).transfers)


def test_the_limit_is_searched():
    balances = random_balances(LIMIT, random.Random(7), -(10**6), 10**6)
    settlement = fewest(balances)
    assert settlement.exact is True
    check_settles(balances, settlement)
    assert fewest({**balances, "extra": 1, "more": -1}).exact is True  # a pair: not searched
    past = {**balances, "p00": balances["p00"] - 3, "extra": 1, "more": 2}
    assert fewest(past).exact is False


def test_many_players_past_the_limit():
    balances = random_balances(60, random.Random(1))
    settlement = fewest(balances)
    assert settlement.exact is False
    check_settles(balances, settlement)


# Rounding --------------------------------------------------------------------------------


def multiple(value, unit):
    return value % unit == 0


@pytest.mark.parametrize(
    ("balances", "unit", "expected"),
    [
        pytest.param(
            {"Amy": Decimal("10.49"), "Bob": Decimal("-3.26"), "Cy": Decimal("-7.23")},
            1,
            {"Amy": 10, "Bob": -3, "Cy": -7},
            id="unit-1",
        ),
        pytest.param(
            {"Amy": Decimal("10.4"), "Bob": Decimal("-3.3"), "Cy": Decimal("-7.1")},
            Decimal("0.5"),
            {"Amy": Decimal("10.5"), "Bob": Decimal("-3.5"), "Cy": -7},
            id="unit-0.5",
        ),
        pytest.param({"Amy": 13, "Bob": -7, "Cy": -6}, 5, {"Amy": 15, "Bob": -10, "Cy": -5}, id="unit-5"),
        pytest.param({"Amy": Decimal("2.5"), "Bob": Decimal("-2.5")}, 1, {"Amy": 3, "Bob": -3}, id="a-half"),
        pytest.param({"Amy": 25, "Bob": -25, "Cy": 0}, 5, {"Amy": 25, "Bob": -25, "Cy": 0}, id="already-multiples"),
        # four players owed 2.5, one owing 10: two round up, by name; nobody owed pays
        pytest.param(
            {"Amy": Decimal("2.5"), "Bob": Decimal("2.5"), "Cy": Decimal("2.5"), "Dee": Decimal("2.5"), "Eve": -10},
            5,
            {"Amy": 5, "Bob": 5, "Cy": 0, "Dee": 0, "Eve": -10},
            id="largest-remainders-by-name",
        ),
        pytest.param({"Amy": Decimal("8.22"), "Bob": Decimal("-8.22")}, 1000, {"Amy": 0, "Bob": 0}, id="to-nothing"),
        pytest.param({"Amy": 0}, 1, {"Amy": 0}, id="alone"),
    ],
)
def test_rounded(balances, unit, expected):
    result = rounded(balances, unit)
    assert result == expected
    assert list(result) == list(balances)
    assert [type(value) for value in result.values()] == [type(value) for value in expected.values()]


units = st.sampled_from([Decimal("0.01"), Decimal("0.05"), Decimal("0.5"), 1, 5, 25])


@given(balances(most=9), units)
def test_rounded_sums_to_zero_in_multiples_none_moved_by_a_unit(balances, unit):
    result = rounded(balances, unit)
    assert sum(result.values()) == 0
    assert all(multiple(value, unit) for value in result.values())
    for name, value in result.items():
        assert type(value) in (int, Decimal)
        assert abs(value - balances[name]) < unit
        assert (value >= 0) == (balances[name] >= 0) or value == 0  # nobody owed pays, nobody owing receives
        if multiple(balances[name], unit):
            assert value == balances[name]
    assert rounded(dict(reversed(balances.items())), unit) == result


@pytest.mark.parametrize("unit", [0, -1, Decimal("0"), Decimal("-0.5")], ids=["0", "-1", "0.0", "-0.5"])
def test_a_unit_must_be_positive(unit):
    with pytest.raises(ValueError, match="the unit must be positive"):
        rounded({"Amy": 1, "Bob": -1}, unit)


def test_rounding_refuses():
    with pytest.raises(TypeError, match="not an exact amount"):
        rounded({"Amy": 1, "Bob": -1}, 0.5)
    with pytest.raises(ValueError, match="sum to 1, not 0"):
        rounded({"Amy": 1}, 1)
