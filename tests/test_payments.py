"""Payments recorded between players (`@paid`, `cpscore pay`) and a night's
date (`@date`, `add --date`): read by session, stats, undo, remove, replace and
the page; written by `pay` and `add`; malformed lines refused naming the line."""

import json

import pytest
from clirun import ok, run

from cpscore.night import Night

NIGHT = """@rules 2-4
@stake 5
@date 2026-12-03
@paid Cy Amy 10

Amy: +6
Bob: -2
Cy: -4

@paid Bob Amy 10

Amy: -3
Bob: +5
Cy: -2

@paid Cy Bob 5
"""


def test_payments_leave_the_totals_and_settle_what_is_still_owed(tmp_path):
    night = tmp_path / "night.txt"
    night.write_text(NIGHT)
    data = json.loads(ok("session", "--format", "json", str(night)))
    assert [(t["name"], t["amount"]) for t in data["totals"]] == [("Amy", 15), ("Bob", 15), ("Cy", -30)]
    assert data["payments"] == [
        {"from": "Cy", "to": "Amy", "amount": 10, "after_deal": 0},
        {"from": "Bob", "to": "Amy", "amount": 10, "after_deal": 1},
        {"from": "Cy", "to": "Bob", "amount": 5, "after_deal": 2},
    ]
    assert data["balances"] == [
        {"name": "Amy", "paid": -20, "balance": -5},
        {"name": "Bob", "paid": 5, "balance": 20},
        {"name": "Cy", "paid": 15, "balance": -15},
    ]
    assert data["transfers"] == [{"from": "Amy", "to": "Bob", "amount": 5}, {"from": "Cy", "to": "Bob", "amount": 15}]
    assert data["dates"] == [{"file": str(night), "date": "2026-12-03"}]
    table = ok("session", str(night))
    assert table.startswith(f"Session {night} (2026-12-03): rules 2-4, stake 5 a unit\n")
    assert "Bob paid Amy 10; results, no cards" in table
    assert "Player      Units    Money    Paid    Still owed" in table
    assert (
        "Paid: Cy paid Amy 10 (before the first deal); Bob paid Amy 10 (after deal 1);\nCy paid Bob 5 (after deal 2).\n"
        in table
    )
    totals = json.loads(ok("session", "--totals", "--format", "json", str(night)))
    assert totals["balances"] == data["balances"]
    last = json.loads(ok("session", "--format", "jsonl", str(night)).splitlines()[-1])
    assert last["transfers"] == data["transfers"]


def test_the_library_counts_the_payments_after_the_last_deal_once():
    night = Night()
    night.settle_text(NIGHT, "night.txt")
    assert [(p.payer, p.payee, p.amount, p.after) for p in night.ledger.payments][-1] == ("Cy", "Bob", 5, 2)
    night.finish()  # closing the files again counts nothing twice
    assert len(night.ledger.payments) == 3
    assert night.ledger.balances() == {"Amy": -5, "Bob": 20, "Cy": -15}


@pytest.mark.parametrize(
    "text, message",
    [
        ("@date 2026-13-01\n\nA: +1\nB: -1\n", "stdin, line 1: @date 2026-13-01 is not a day of the calendar"),
        ("@date 3 Dec\n\nA: +1\nB: -1\n", "stdin, line 1: @date '3 Dec' is not a date written YYYY-MM-DD"),
        ("@date 2026-01-01\n@date 2026-01-02\n\nA: +1\nB: -1\n", "@date is given twice (first at line 1)"),
        ("A: +1\nB: -1\n\n@date 2026-01-01\n\nA: +1\nB: -1\n", "line 4: @date goes at the top of the session"),
        ("A: +1\nB: -1\n\n@paid A A 3\n", "line 4: @paid names 'A' twice: a payment is from one player to another"),
        ("A: +1\nB: -1\n\n@paid A B -3\n", "line 4: @paid amount '-3' is not above 0"),
        ("A: +1\nB: -1\n\n@paid A B 0\n", "line 4: @paid amount '0' is not above 0"),
        ("A: +1\nB: -1\n\n@paid A B x\n", "line 4: @paid amount 'x' is not a number"),
        ("A: +1\nB: -1\n\n@paid A B\n", "line 4: @paid 'A B' is not PAYER PAYEE AMOUNT"),
        ("A: +1\nB: -1\n\n@paid A[1] B 2\n", "line 4: @paid 'A[1]' is a hand, not a player: name the player, A"),
        ("A: +1\nB: -1\n@paid A B 1\n", "line 3: a @paid line goes between two deals, after a blank line"),
        ("A: +1\nB: -1\n\n@paid A B 1\n@stake 3\n", "line 5: @stake 3 has no deal after it"),
        ("@paid\n\nA: +1\nB: -1\n", "line 1: @paid needs a value"),
        (
            "A: +1\nB: -1\n\n@paid b A 1\n",
            "line 4: @paid: player 'b' and player 'B' (stdin, line 2) differ only by case",
        ),
        ("@date ２０２６-12-03\n\nA: +1\nB: -1\n", "@date '２０２６-12-03' is not a date written YYYY-MM-DD"),
    ],
    ids=[
        "no-such-day",
        "not-iso",
        "date-twice",
        "date-between",
        "self",
        "negative",
        "zero",
        "junk-amount",
        "two-parts",
        "a-hand",
        "inside-a-deal",
        "stake-after",
        "empty",
        "look-alike",
        "wide-digits",
    ],
)
def test_malformed_lines_are_refused_naming_the_line(text, message):
    for command in ("session", "stats"):
        result = run(command, "-", input=text)
        assert result.exit_code == 2, command
        assert result.stdout == ""
        assert message in result.stderr, (command, result.stderr)


def test_a_payment_naming_someone_who_played_no_deal_is_a_warning():
    result = run("session", "--totals", "-", input="A: +1\nB: -1\n\n@paid A Zed 4\n")
    assert result.exit_code == 0
    assert "Warning: stdin, line 4: @paid names Zed, who plays no deal of the night" in result.stderr
    assert "  Zed pays A 4\n" in result.stdout


def test_pay_appends_a_line_and_says_what_is_still_owed(tmp_path):
    night = tmp_path / "night.txt"
    night.write_text("@stake 10\n\nAnn Lee: +6\nBob: -6\n")
    out = ok("pay", str(night), "Bob", "Ann Lee", "20")
    assert out == f"recorded in {night} (line 6): @paid Bob, Ann Lee, 20\nTo settle:\n  Bob pays Ann Lee 40\n"
    assert night.read_text().endswith("Bob: -6\n\n@paid Bob, Ann Lee, 20\n")
    out = ok("pay", str(night), "Bob", "Ann Lee", "40")
    assert out.endswith("Everyone is square.\n")
    result = run("pay", str(night), "Bob", "Ann Lee", "5")
    assert result.exit_code == 0
    assert "Warning: Bob has now paid 5 more than they owed: Ann Lee owes it back" in result.stderr


@pytest.mark.parametrize(
    "args, message",
    [
        (["Zed", "Amy", "5"], "'Zed' plays no deal of night.txt (players: Amy, Bob): record a payment in a night"),
        (["amy", "Bob", "5"], "'amy' plays no deal of night.txt (players: Amy, Bob); did you mean Amy?"),
        (["Amy", "Amy", "5"], "'Amy' is both PAYER and PAYEE"),
        (["Amy", "Bob", "0"], "Invalid value for 'AMOUNT': '0' is not above 0"),
        (["Amy", "Bob", "1e3"], "Invalid value for 'AMOUNT': '1e3' has an exponent"),
        (["Amy", "Bob", "--", "-5"], "Invalid value for 'AMOUNT': '-5' is not above 0"),
        (["Amy[1]", "Bob", "5"], "'Amy[1]' is a hand, not a player: name the player, Amy"),
    ],
    ids=["stranger", "spelling", "self", "zero", "exponent", "negative", "a-hand"],
)
def test_pay_refuses_and_leaves_the_file_as_it_was(tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    night = tmp_path / "night.txt"
    night.write_text("Amy: +6\nBob: -6\n")
    if "--" in args:
        args = ["--", "night.txt", *[arg for arg in args if arg != "--"]]
    else:
        args = ["night.txt", *args]
    result = run("pay", *args)
    assert result.exit_code == 2 and result.stdout == ""
    assert message in result.stderr
    assert night.read_text() == "Amy: +6\nBob: -6\n"


def test_pay_on_a_missing_file_leaves_nothing_behind(tmp_path):
    result = run("pay", str(tmp_path / "gone.txt"), "Amy", "Bob", "5")
    assert result.exit_code == 2 and "gone.txt: no such file" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_undo_and_remove_keep_the_payments(tmp_path):
    night = tmp_path / "night.txt"
    night.write_text("Amy: +6\nBob: -6\n\n@paid Bob Amy 2\n\nAmy: +1\nBob: -1\n\n@paid Bob Amy 3\n")
    out = ok("undo", str(night))
    assert "@paid" not in out
    assert night.read_text() == "Amy: +6\nBob: -6\n\n@paid Bob Amy 2\n\n@paid Bob Amy 3\n"
    data = json.loads(ok("session", "--format", "json", str(night)))
    assert [p["amount"] for p in data["payments"]] == [2, 3]
    assert data["transfers"] == [{"from": "Bob", "to": "Amy", "amount": 1}]
    ok("replace", str(night), "1", "Amy=+1", "Bob=-1")
    assert json.loads(ok("session", "--format", "json", str(night)))["transfers"] == [
        {"from": "Amy", "to": "Bob", "amount": 4}
    ]


@pytest.mark.parametrize("command", [["remove", "1"], ["undo"]], ids=["remove-first", "undo-only"])
def test_removing_the_deal_before_a_payment_keeps_the_payment(tmp_path, command):
    night = tmp_path / "night.txt"
    rest = "\nAmy: +1\nBob: -1\n" if command[0] == "remove" else ""
    night.write_text(f"Amy: +6\nBob: -6\n\n@paid Bob Amy 2\n{rest}")
    ok(command[0], str(night), *command[1:])
    assert night.read_text() == f"@paid Bob Amy 2\n{rest}"
    result = run("session", "--totals", "--format", "json", str(night))
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["payments"] == [{"from": "Bob", "to": "Amy", "amount": 2, "after_deal": 0}]


def test_the_totals_csv_has_what_was_paid_and_is_still_owed(tmp_path):
    night = tmp_path / "night.txt"
    night.write_text(NIGHT)
    assert ok("session", "--totals", "--format", "csv", str(night)) == (
        "player,units,amount,paid,balance\nAmy,3,15,-20,-5\nBob,3,15,5,20\nCy,-6,-30,15,-15\n"
    )


def test_add_writes_the_date_of_a_new_night_only(tmp_path):
    night = tmp_path / "night.txt"
    ok("add", str(night), "--date", "2026-12-05", "Amy=+1", "Bob=-1")
    assert night.read_text() == "@date 2026-12-05\n\nAmy: +1\nBob: -1\n"
    again = run("add", str(night), "--date", "2026-12-05", "Amy=+2", "Bob=-2")
    assert again.exit_code == 0
    assert "Warning: --date 2026-12-05: the night's date is that already; nothing written" in again.stderr
    other = run("add", str(night), "--date", "2026-12-06", "Amy=+3", "Bob=-3")
    assert other.exit_code == 2 and "has deals already" in other.stderr
    bad = run("add", str(tmp_path / "b.txt"), "--date", "2026-02-30", "Amy=+1", "Bob=-1")
    assert bad.exit_code == 2 and "--date 2026-02-30 is not a day of the calendar" in bad.stderr
    assert not (tmp_path / "b.txt").exists()
    # a deal added after a payment at the end: the payment now stands before it
    ok("pay", str(night), "Bob", "Amy", "1")
    ok("add", str(night), "Amy=+1", "Bob=-1")
    assert night.read_text().endswith("@paid Bob Amy 1\n\nAmy: +1\nBob: -1\n")
    assert json.loads(ok("session", "--format", "json", str(night)))["payments"][0]["after_deal"] == 2
