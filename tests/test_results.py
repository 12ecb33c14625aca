"""Deals written as results, without cards (docs/rules.md 13): read, checked,
settled pair by pair, counted in totals, stakes, caps and stacks, shown in every
view, written by `add` and `replace`, mixed with card deals in one night."""

import json
import re

import pytest
from clirun import ok, run
from hypothesis import given, settings
from hypothesis import strategies as st

from cpscore.scoring import result_pairs

AMY = "Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d"
BOB = "Qs Jd 3c / Th Tc 8d 8s 3d / Kh Qh Jh 8h 2h"


def scored(text: str, *options: str) -> dict:
    return json.loads(ok("score", "--format", "json", *options, "-", input=text))


def pairs_of(data: dict) -> dict:
    return {(pair["a"], pair["b"]): pair["units"] for pair in data["pairs"]}


@pytest.mark.parametrize(
    "text, units, pairs",
    [
        ("Amy: +6\nBob: -6\n", [6, -6], {("Amy", "Bob"): 6}),
        ("Amy: +6\nBob: -2\nCy: -4\n", [6, -2, -4], {("Amy", "Bob"): 2, ("Amy", "Cy"): 4, ("Bob", "Cy"): 0}),
        # the biggest loser pays the biggest winner first: Cy's -5 goes to Amy (4) then Bob (1)
        (
            "Amy: +4\nBob: +3\nCy: -5\nDee: -2\n",
            [4, 3, -5, -2],
            {
                ("Amy", "Bob"): 0,
                ("Amy", "Cy"): 4,
                ("Amy", "Dee"): 0,
                ("Bob", "Cy"): 1,
                ("Bob", "Dee"): 2,
                ("Cy", "Dee"): 0,
            },
        ),
        # ties: the earlier seat first
        ("Amy: -3\nBob: +3\nCy: +3\nDee: -3\n", [-3, 3, 3, -3], {("Amy", "Bob"): -3, ("Cy", "Dee"): 3}),
        ("Amy: 0\nBob: 0\n", [0, 0], {("Amy", "Bob"): 0}),
        ("Amy: +2.5\nBob: -2.5\n", [2.5, -2.5], {("Amy", "Bob"): 2.5}),
        ("Amy:+1\nBob:-0.5\nCy: -.5\n", [1, -0.5, -0.5], {("Amy", "Bob"): 0.5, ("Amy", "Cy"): 0.5}),
    ],
    ids=["two", "three", "four-chain", "ties-by-seat", "all-even", "half", "spacing"],
)
def test_results_settle_pair_by_pair(text, units, pairs):
    data = scored(text)
    assert [player["units"] for player in data["players"]] == units
    assert [player["result"] for player in data["players"]] == units
    found = pairs_of(data)
    for key, value in pairs.items():
        assert found[key] == value
    assert all(pair["decided_by"] == "result" for pair in data["pairs"])


def test_a_banker_pairs_each_result_with_the_bank():
    data = scored("Ann: +3 ; banker\nBen: -1\nCat: -2\n", "--rules", "pusoy")
    assert pairs_of(data) == {("Ann", "Ben"): 1, ("Ann", "Cat"): 2}
    data = scored("Ann: -1\nBen: +3 ; banker\nCat: -2\n", "--rules", "pusoy")
    assert pairs_of(data) == {("Ann", "Ben"): -1, ("Ben", "Cat"): 2}


@pytest.mark.parametrize(
    "text, message",
    [
        (
            "Amy: +6\nBob: -2\nCy: -3\n",
            "stdin, line 1: the results sum to +1, not 0: what one player wins another loses",
        ),
        (
            "Amy: +6\nBob: " + BOB + "\n",
            "Amy has a result and Bob cards: a deal is written all as cards or all as results",
        ),
        ("Amy: +6x\nBob: -6\n", "Amy: result '6x' is not a number"),
        ("Amy: -\nBob: 0\n", "Amy: result '-' is not a number"),
        ("Amy: +6 ; surrender\nBob: -6\n", "Amy: a result cannot be marked 'surrender' (it has no hand)"),
        ("Amy: +6 ; waive\nBob: -6\n", "Amy: a result cannot be marked 'waive'"),
        ("Amy: +6 ; dealer\nBob: -6 ; dealer\n", "Amy and Bob are both marked dealer: mark one"),
        ("Amy[1]: +1\nAmy[2]: -1\nBob: 0\n", "Amy[1]: a result is a player's, not one hand's: write it once for Amy"),
        ("Amy: +1e3\nBob: -1e3\n", "Amy: result"),
        ("Amy: + 6\nBob: -6\n", "Amy: result '+ 6': write the sign next to the number (+6)"),
        ("Amy: +6\nBob: - 6\n", "Bob: result '- 6': write the sign next to the number (-6)"),
    ],
    ids=[
        "sum",
        "mixed",
        "junk",
        "sign-only",
        "surrender",
        "waive",
        "two-dealers",
        "criss-cross",
        "exponent",
        "plus-space",
        "minus-space",
    ],
)
def test_malformed_results_are_refused(text, message):
    result = run("score", "-", input=text)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert message in result.stderr
    assert len(result.stderr.splitlines()) == 1


def test_a_cap_table_stakes_and_pair_stakes_treat_results_as_units(tmp_path):
    cap = tmp_path / "cap.toml"
    cap.write_text('preset = "2-4"\ncap = 3\n')
    data = scored("Amy: +6\nBob: -2\nCy: -4\n", "--rules", str(cap))
    assert [player["amount"] for player in data["players"]] == [3, -2, -1]
    data = scored("Amy: +6\nBob: -2\nCy: -4\n", "--pair-stake", "Amy:Cy=10")
    assert [player["amount"] for player in data["players"]] == [42, -2, -40]
    night = tmp_path / "night.txt"
    night.write_text("@rules pineapple-ru\n@buy-in 5\n\nAmy: +9\nBob: -3\nCy: -6\n")
    totals = json.loads(ok("session", "--totals", "--format", "json", str(night)))["totals"]
    assert [(entry["name"], entry["amount"]) for entry in totals] == [("Amy", 8), ("Bob", -3), ("Cy", -5)]


@pytest.mark.parametrize(
    "dealer, amounts",
    [(None, [3, -2, -1]), ("Bob", [3, 0, -3]), ("Amy", [3, -2, -1]), ("Cy", [3, -2, -1])],
    ids=["no-dealer", "bob-deals", "amy-deals", "cy-deals"],
)
def test_payments_under_a_cap_go_round_from_the_left_of_the_dealer(tmp_path, dealer, amounts):
    cap = tmp_path / "cap.toml"
    cap.write_text('preset = "2-4"\ncap = 3\n')
    lines = {"Amy": "+6", "Bob": "-2", "Cy": "-4"}
    text = "".join(f"{name}: {value}{' ; dealer' if name == dealer else ''}\n" for name, value in lines.items())
    assert [player["amount"] for player in scored(text, "--rules", str(cap))["players"]] == amounts


def test_explain_follows_the_payments_in_the_dealers_order(tmp_path):
    cap = tmp_path / "cap.toml"
    cap.write_text('preset = "2-4"\ncap = 3\n')
    text = ok("score", "--explain", "--rules", str(cap), "-", input="Amy: +6\nBob: -2 ; dealer\nCy: -4\n")
    assert "before this payment Amy stands at +3 and Bob at 0, so at most min(3 - 3, 3 - 0) = 0 can pass" in text
    assert "before this payment Amy stands at 0 and Cy at 0, so at most min(3 - 0, 3 - 0) = 3 can pass" in text


def test_a_results_deal_after_fantasyland_is_read_and_the_player_leaves_it(tmp_path):
    night = tmp_path / "night.txt"
    qq = "Qs Qd 2c / 9h 9c 5d 5s 3c / Ah Ad Ac 7s 7d"  # QQ in front: Fantasyland next
    kk = "Ks Jd 4c / Th Tc 8d 8s 4d / Kh Qh Jh 8h 2h"
    night.write_text(f"@rules ofc\n\nAmy: {qq}\nBob: {kk}\n")
    ok("add", str(night), "Amy=+3", "Bob=-3")
    data = json.loads(ok("session", "--format", "json", str(night)))
    assert data["deals"][0]["players"][0]["fantasyland"]["next"] is True
    assert data["deals"][1]["players"][0]["fantasyland"]["status"] == "leaves"
    again = run("score", "--rules", "ofc", "--fantasyland", "Amy", "-", input="Amy: +3 ; fantasyland\nBob: -3\n")
    assert again.exit_code == 2 and "cannot be marked 'fantasyland'" in again.stderr


@pytest.mark.parametrize(
    "dealer, amounts", [("", [-5, 3, 2]), (" ; dealer", [-5, 0, 5])], ids=["listing-order", "bob-deals"]
)
def test_table_stakes_pay_from_the_left_of_the_dealer(tmp_path, dealer, amounts):
    night = tmp_path / "night.txt"
    night.write_text(f"@rules pineapple-ru\n@buy-in 5\n\nAmy: -9\nBob: +3{dealer}\nCy: +6\n")
    totals = json.loads(ok("session", "--totals", "--format", "json", str(night)))["totals"]
    # Listing order: Amy pays Bob 3, then Cy what she has left (2).  Bob deals: Cy-Amy first (5), then Bob gets 0.
    assert [entry["amount"] for entry in totals] == amounts


def test_a_night_mixes_card_deals_and_results(tmp_path):
    night = tmp_path / "night.txt"
    night.write_text(f"@rules 1-6\n@stake 10\n\nAmy: {AMY}\nBob: {BOB}\n\nAmy: -5 ; dealer\nBob: +5\n")
    data = json.loads(ok("session", "--format", "json", str(night)))
    first, second = data["deals"]
    assert [player["units"] for player in first["players"]] == [1, -1]
    assert "result" not in first["players"][0] and "dealer" not in first["players"][0]
    assert [player["result"] for player in second["players"]] == [-5, 5]
    assert second["players"][0]["dealer"] is True and "dealer" not in second["players"][1]
    assert [(entry["name"], entry["units"], entry["amount"]) for entry in data["totals"]] == [
        ("Amy", -4, -40),
        ("Bob", 4, 40),
    ]
    table = ok("session", str(night))
    assert "results, no cards; Amy deals" in table
    csv = ok("session", "--format", "csv", str(night)).splitlines()
    assert csv[0].endswith(",result,dealer")
    assert csv[3].endswith(",-5,yes")
    stats = json.loads(ok("stats", "--format", "json", str(night)))
    assert [player["results"] for player in stats["players"]] == [1, 1]
    assert re.search(r"^Deals of results +1 +1$", ok("stats", str(night)), re.M)


def test_explain_says_how_a_result_became_a_pair():
    text = ok("score", "--explain", "-", input="Amy: +6\nBob: -2\nCy: -4\n")
    assert "results, no cards: Amy +6, Bob -2" in text
    assert "the biggest loser to the biggest winner first" in text
    assert "units   result +2 = +2: Bob pays Amy 2" in text
    assert "Amy       result +6" in text


def test_add_writes_results_and_refuses_a_retry(tmp_path):
    night = tmp_path / "night.txt"
    night.write_text("@rules 1-6\n")
    out = ok("add", str(night), "Amy=+6", "Bob=-2", "Cy=-4")
    assert out.startswith("added deal 1 (line 3, ")
    assert out.rstrip().endswith("Amy +6, Bob -2, Cy -4 (results, no cards)")
    assert night.read_text() == "@rules 1-6\n\nAmy: +6\nBob: -2\nCy: -4\n"
    again = run("add", str(night), "Amy=+6", "Bob=-2", "Cy=-4")
    assert again.exit_code == 2 and "has the same results: it is the deal before this one" in again.stderr
    ok("add", str(night), "Amy=+6", "Bob=-2", "Cy=-4", "--again")
    ok("add", str(night), "Amy=+1", "Bob=-1")
    # the same results as an earlier deal, not the one before, are another deal
    ok("add", str(night), "Amy=+6", "Bob=-2", "Cy=-4")
    assert night.read_text().count("Amy: +6") == 3
    # a retry after --again is a retry of the deal just added
    ok("add", str(night), "Amy=+6", "Bob=-2", "Cy=-4", "--again")
    retry = run("add", str(night), "Amy=+6", "Bob=-2", "Cy=-4")
    assert retry.exit_code == 2 and "deal 5 (" in retry.stderr
    # the same results with another dealer are another deal
    ok("add", str(night), "Amy=+6", "Bob=-2", "Cy=-4", "--dealer", "Cy")
    bad = run("add", str(night), "Amy=+6", "Bob=-2")
    assert bad.exit_code == 2 and "the results sum to +4, not 0" in bad.stderr


def test_replace_and_undo_read_results(tmp_path):
    night = tmp_path / "night.txt"
    night.write_text(f"@rules 1-6\n\nAmy: +6 ; dealer\nBob: -6\n\nAmy: {AMY}\nBob: {BOB}\n")
    out = ok("replace", str(night), "1", "Amy=+1", "Bob=-1")
    assert "  - Amy: +6 ; dealer\n" in out and "  + Amy: +1\n" in out
    ok("replace", str(night), "2", "Amy=-2", "Bob=+2")
    out = ok("undo", str(night))
    assert "  - Amy: -2\n" in out
    assert night.read_text() == "@rules 1-6\n\nAmy: +1\nBob: -1\n"


@given(st.lists(st.integers(min_value=-20, max_value=20), min_size=1, max_size=6), st.data())
@settings(max_examples=200, deadline=None)
def test_result_pairs_add_up_to_each_result(values, data):
    results = [*values, -sum(values)]
    count = len(results)
    every = [(i, j) for i in range(count) for j in range(i + 1, count)]
    bank = data.draw(st.integers(min_value=0, max_value=count - 1))
    against_bank = [(i, j) for i, j in every if bank in (i, j)]
    for pairs, banker in ((every, None), (against_bank, bank)):
        units = result_pairs(results, pairs, banker)
        net = [0] * count
        for (i, j), value in zip(pairs, units):
            net[i] += value
            net[j] -= value
        assert net == results
        if banker is None:
            assert sum(1 for value in units if value) <= count - 1
