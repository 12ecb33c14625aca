"""`cpscore play`: a night entered hand by hand.  The dialogue is typed through
CliRunner (every re-ask, exact text), then driven for real through a
pseudo-terminal with pexpect: readline, Ctrl-C and Ctrl-D as a terminal sends
them."""

import os
import pathlib
import re
import subprocess
import sys

import pytest
from click.testing import CliRunner

from cpscore.cli import main
from cpscore.commands import play as play_command

ROOT = pathlib.Path(__file__).parent.parent

AMY = "Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d"
BOB = "Qs Jd 3c / Th Tc 8d 8s 3d / Kh Qh Jh 8h 2h"
CY = "As 6d 2s / 6c 6h 4d 4s 3s / Js Ts 9s 8c 7c"
FOUL = "Qd Qc 3h / Jc Td 9d 6s 5c / Kc 7h 5h 4h 2d"  # a pair in front over a jack-high middle
# Cy's cards of deal 1 set another way: with AMY and BOB, a new deal, not deal 1 dealt again.
CY2 = "4d 3s 2s / 6c 6h 6d As 4s / Js Ts 9s 8c 7c"
#: What play says when it saves AMY, BOB and CY2 as deal 4 of SESSION (the session's line for that deal).
ADDED_4 = (
    "Added deal 4 (line 16, 45c27e63) to night.txt: Amy +22, Bob -10, Cy -12; "
    "money Amy +220, Bob -100, Cy -120 (Amy FL next (13)).\n"
)
CARD_HELP = "a card is a rank (2-9, T or 10, J, Q, K, A) then a suit (s, h, d, c or ♠ ♥ ♦ ♣)"

# The README's session (examples/session.txt): ofc, 10 a unit, three deals.
SESSION = """\
@rules ofc
@stake 10

Amy: Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d
Bob: Qs Jd 3c / Th Tc 8d 8s 3d / Kh Qh Jh 8h 2h
Cy:  As 6d 2s / 6c 6h 4d 4s 3s / Js Ts 9s 8c 7c

Amy: Qh Qd 2c / Kh Kd Kc 3h 3d / 9s 9h 9d 9c 4h
Bob: Js Jd 5c / Th Td 8c 8d 2d / Ac Ad 6s 6h 7c
Cy:  Ts 7d 4c / 6c 6d 5s 5h 3c / As Ks Qs 8s 2s

Amy: 2s 2d 2c / 9h 9c 9d 4s 4c / Ts Js Qs Ks As
Bob: Qd Qc 3h / Jc Td 8d 6s 5c / Kc 7h 5h 4h 3d
Cy:  surrender
"""

START = "'+NAME' seats a newcomer; Ctrl-C starts the deal again; Ctrl-D ends.\n"


def ask(name: str, surrender: bool = True) -> str:
    """The prompt for a seat's hand."""
    return f"{name}'s hand (front / middle / back{', ' + repr('surrender') if surrender else ''}, '-' to sit out): "


@pytest.fixture
def night(tmp_path, monkeypatch):
    """A session file night.txt (the README's three deals), in the current folder."""
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "night.txt"
    path.write_text(SESSION)
    return path


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def play(*args, lines=()):
    """Run ``cpscore play`` with these lines typed (then the input ends: Ctrl-D)."""
    return CliRunner().invoke(main, ["play", *args], input="".join(line + "\n" for line in lines))


@pytest.fixture
def keys(monkeypatch):
    """Typed lines that are keys: '^C' is Ctrl-C at that prompt.  The list
    returned takes ``(prompt, action)``: each action runs, in turn, just
    before the next prompt that starts with its ``prompt`` is answered."""
    real = play_command._ask
    actions: list = []

    def typed(prompt):
        if actions and prompt.startswith(actions[0][0]):
            actions.pop(0)[1]()
        line = real(prompt)
        if line == "^C":
            raise KeyboardInterrupt
        return line

    monkeypatch.setattr(play_command, "_ask", typed)
    return actions


def session_totals(path):
    """``session --totals`` as play prints the standings: without the title
    (rules and stakes) and the head-to-head tables before the transfers."""
    result = CliRunner().invoke(main, ["session", "--totals", str(path)])
    assert result.exit_code == 0, result.output
    text = result.stdout.split("\n\n", 1)[1]
    if "Head to head" in text:
        start, rest = text.split("Head to head", 1)
        text = start + rest[rest.index("To settle:") :]
    return text


# A whole deal -------------------------------------------------------------------------

DEAL_4 = """\

Rules: ofc (open-face 1-6, standard OFC royalties paid by holder)

Player    Front      Middle          Back            Notes           Royalties
--------  ---------  --------------  --------------  ------------  -----------
Amy       Ks Kd 4c   9h 9c 5d 5s 2c  Ah Ad Ac 7s 7d  FL next (13)           14
          pair +8    two pair        full house +6
Bob       Qs Jd 3c   Th Tc 8d 8s 3d  Kh Qh Jh 8h 2h                          4
          high card  two pair        flush +4
Cy        Qd Qc 3h   Jc Td 9d 6s 5c  Kc 7h 5h 4h 2d  FOUL                    0
          pair       high card       high card

Cy fouled: front pair of queens (Q-Q-3) beats middle jack high (J-T-9-6-5)

Units won by each player (row) from each opponent (column):

       Amy    Bob    Cy    Total
---  -----  -----  ----  -------
Amy           +11   +20      +31
Bob    -11          +10       -1
Cy     -20    -10            -30

Money won by each player from each opponent (stake 10 a unit):

       Amy    Bob    Cy    Total
---  -----  -----  ----  -------
Amy          +110  +200     +310
Bob   -110         +100      -10
Cy    -200   -100           -300

"""

TOTALS_4 = """\
Totals after 4 deals:

Player      Units    Money
--------  -------  -------
Amy          +175    +1750
Bob           -88     -880
Cy            -87     -870

To settle:
  Bob pays Amy 880
  Cy pays Amy 870
"""


def test_a_deal_is_asked_seat_by_seat_checked_shown_saved_and_totalled(night):
    typed = [AMY, BOB.replace("3d", "3x"), BOB, CY.replace("7c", "Kd"), FOUL, "", FOUL, "y", ""]
    result = play("night.txt", lines=typed)
    assert result.exit_code == 0, result.output
    assert result.output == (
        "Session night.txt: rules ofc, stake 10 a unit, 3 deals so far.\n"
        + START
        + "\nDeal 4: Amy, Bob, Cy\n"
        + f"{ask('Amy')}{AMY}\n"
        + f"{ask('Bob')}{BOB.replace('3d', '3x')}\n"
        + f"Error: Bob, middle: unknown card '3x': {CARD_HELP}\n"
        + f"{ask('Bob')}{BOB}\n"
        + f"{ask('Cy')}{CY.replace('7c', 'Kd')}\n"
        + "Error: Kd is dealt twice: in Amy's front and in Cy's back\n"
        + f"{ask('Cy')}{FOUL}\n"
        + "Warning: Cy fouls: front pair of queens (Q-Q-3) beats middle jack high (J-T-9-6-5)\n"
        + "Keep Cy's hand? [y/N]: \n"  # Enter: no, the hand is asked again
        + f"{ask('Cy')}{FOUL}\n"
        + "Warning: Cy fouls: front pair of queens (Q-Q-3) beats middle jack high (J-T-9-6-5)\n"
        + "Keep Cy's hand? [y/N]: y\n"
        + DEAL_4
        + "Save this deal? [Y/n]: \n"  # Enter: yes
        + "Added deal 4 (line 16, 39a372a5) to night.txt: Amy +31, Bob -1, Cy -30; "
        + "money Amy +310, Bob -10, Cy -300 (Amy FL next (13); Cy FOUL).\n\n"
        + TOTALS_4
        + "\nDeal 5: Amy, Bob, Cy\n"
        + "Amy plays this deal in Fantasyland.\n"  # the session follows Fantasyland
        + f"{ask('Amy')}\n"
        + "Ended: 1 deal added to night.txt.\n"
    )
    assert night.read_text() == SESSION + f"\nAmy: {AMY}\nBob: {BOB}\nCy: {FOUL}\n"
    # The totals printed are the session's.
    assert session_totals(night) == TOTALS_4


def test_the_seats_stay_from_deal_to_deal_and_a_seat_can_sit_out(night):
    hands = ["Qh Qd Qc / Kh Kd Kc 3h 3d / 9s 9h 9d 9c 4h", "-", "Ts 7d 4c / 6c 6d 5s 5h 3c / As Ks Qs 8s 2s"]
    result = play("night.txt", lines=[AMY, BOB, CY2, "y", *hands, "y"])
    assert result.exit_code == 0, result.output
    output = result.output
    assert ADDED_4 in output
    assert f"\nDeal 5: Amy, Bob, Cy\nAmy plays this deal in Fantasyland.\n{ask('Amy')}{hands[0]}\n" in output
    assert f"{ask('Bob')}-\n{ask('Cy')}{hands[2]}\n" in output
    assert "FL stays (13)" in output
    assert (
        "Added deal 5 (line 20, 39f28986) to night.txt: Amy +44, Cy -44; money Amy +440, Cy -440 "
        "(Amy FL stays (13)).\n\nTotals after 5 deals:\n"
    ) in output
    assert output.endswith(
        f"\nDeal 6: Amy, Bob, Cy\nAmy plays this deal in Fantasyland.\n{ask('Amy')}\nEnded: 2 deals added to night.txt.\n"
    )
    assert night.read_text().endswith(f"\n\nAmy: {hands[0]}\nCy: {hands[2]}\n")  # Bob sat out


def test_a_new_session_takes_its_rules_and_seats_from_the_command_line(folder):
    result = play("new.txt", "--rules", "1-6", "--players", "Amy Bob", lines=[AMY, BOB, "y", AMY.replace("Ks", "Kh")])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Session new.txt: rules 1-6, no deal yet.\n" + START + "\nDeal 1: Amy, Bob\n")
    assert "Added deal 1 (line 4, 2d217172) to new.txt: Amy +1, Bob -1.\n\nTotals after 1 deal:\n" in result.output
    # After the first deal the file has its header: the second deal is asked without --rules again.
    assert result.output.endswith(
        f"\nDeal 2: Amy, Bob\n{ask('Amy')}{AMY.replace('Ks', 'Kh')}\n{ask('Bob')}\n"
        "Ended: the deal being entered was not saved; 1 deal added to new.txt.\n"
    )
    # --players names the seats: they are written (@players), for the next play or add.
    assert (folder / "new.txt").read_text() == f"@rules 1-6\n@players Amy Bob\n\nAmy: {AMY}\nBob: {BOB}\n"


def test_players_names_with_a_space_are_separated_by_commas(folder):
    result = play("new.txt", "--players", "Ann Lee, Bob", lines=[AMY, BOB, "y"])
    assert result.exit_code == 0, result.output
    assert f"\nDeal 1: Ann Lee, Bob\n{ask('Ann Lee')}{AMY}\n" in result.output
    assert (folder / "new.txt").read_text() == f"@players Ann Lee, Bob\n\nAnn Lee: {AMY}\nBob: {BOB}\n"


def test_saying_no_saves_nothing_and_the_deal_starts_again(night):
    result = play("night.txt", lines=[AMY, BOB, CY2, "maybe", "n"])
    assert result.exit_code == 0, result.output
    assert result.output.endswith(
        "Save this deal? [Y/n]: maybe\nError: invalid input\nSave this deal? [Y/n]: n\n"
        f"Not saved: the deal starts again.\n\nDeal 4: Amy, Bob, Cy\n{ask('Amy')}\n"
        "Ended: no deal added to night.txt.\n"
    )
    assert night.read_text() == SESSION


def test_the_end_of_input_at_the_save_question_saves_nothing(night):
    result = play("night.txt", lines=[AMY, BOB, CY2])
    assert result.exit_code == 0, result.output
    assert result.output.endswith(
        "Save this deal? [Y/n]: \nEnded: the deal being entered was not saved; no deal added to night.txt.\n"
    )
    assert night.read_bytes() == SESSION.encode()


def test_ctrl_c_abandons_the_deal_and_leaves_the_file_as_it_was(night, keys):
    before = night.read_bytes()
    result = play("night.txt", lines=[AMY, BOB, "^C", AMY, "^C", AMY, BOB, CY2, "^C"])
    assert result.exit_code == 0, result.output
    abandoned = "\nDeal abandoned: nothing was saved; it starts again.\n\nDeal 4: Amy, Bob, Cy\n"
    assert f"{ask('Cy')}^C\n{abandoned}{ask('Amy')}{AMY}\n{ask('Bob')}^C\n{abandoned}" in result.output
    assert result.output.endswith(
        f"Save this deal? [Y/n]: ^C\n{abandoned}{ask('Amy')}\nEnded: no deal added to night.txt.\n"
    )
    assert night.read_bytes() == before


# Every problem is said at once, and the hand asked again -------------------------------

PROBLEMS = [
    # (rules, what the seats before typed, the answer, the error)
    ("2-4", [], AMY.replace("2c", "2x"), f"Amy, middle: unknown card '2x': {CARD_HELP}"),
    ("2-4", [], "maybe", f"Amy: unknown card 'maybe': {CARD_HELP}"),
    (
        "2-4",
        [],
        "Ks Kd / 4c 9h 9c 5d 5s / 2c Ah Ad Ac 7s 7d",
        "Amy, front: 2 cards, the front has 3 (a hand is 3 / 5 / 5 cards front / middle / back, or 5 / 5 / 3 back first)",
    ),
    (
        "2-4",
        [],
        "Ks Kd 4c / 9h 9c 5d 5s 2c Ah Ad Ac 7s 7d",
        "Amy: 2 rows: a hand has 3 rows, front / middle / back, separated by '/'",
    ),
    (
        "2-4",
        [],
        "Ks Kd 4c 9h 9c 5d 5s 2c Ah Ad Ac 7s",
        "Amy: 12 cards and no rows: a hand is 13 cards written front / middle / back (3 / 5 / 5 cards, rows separated by '/')",
    ),
    (
        "2-4",
        [],
        FOUL.replace(" /", ""),
        "Amy: 13 cards without rows are not a natural under the 2-4 rules: set the hand as front / middle / back",
    ),
    ("2-4", [], AMY.replace("7d", "Kd"), "Amy: Kd appears twice (front and back)"),
    ("2-4", [AMY], BOB.replace("2h", "Ks"), "Ks is dealt twice: in Amy's front and in Bob's back"),
    ("2-4", [AMY], BOB.replace("8d", "9c"), "9c is dealt twice: in Amy's middle and in Bob's middle"),
    ("2-4", [], AMY + " ; frob", "Amy: unknown marker 'frob' (markers: surrender, waive, fantasyland, banker, dealer)"),
    ("2-4", [], AMY + " ; banker", "Amy is named the banker, but the 2-4 rules settle every pair: there is no banker"),
    (
        "2-4",
        [],
        FOUL.replace(" /", "") + " ; waive",
        "Amy: only a set hand can waive a natural: set it as front / middle / back",
    ),
    (
        "ofc",
        [],
        AMY + " ; fantasyland",
        "Amy: in a session Fantasyland is followed from deal to deal; remove the fantasyland marker",
    ),
    ("taiwanese", [], "surrender", "Amy surrenders, but the taiwanese rules have no surrender"),
    ("2-4", [], "-", "Amy cannot sit out: a deal needs at least two players"),
    ("2-4", [], "+", "write the newcomer's name after '+', for example +Dan"),
    ("2-4", [], "+Bob", "Bob is seated already"),
    (
        "2-4",
        [],
        "+bob",
        "player 'bob' and player 'Bob' (seated) differ only by case or Unicode form: write the name one way, 'Bob'",
    ),
    ("2-4", [], "+B:ob", "player name 'B:ob' contains ':': names cannot contain any of = : / # |"),
]


@pytest.mark.parametrize(("rules", "before", "answer", "error"), PROBLEMS, ids=[case[3][:50] for case in PROBLEMS])
def test_a_problem_is_said_at_once_and_the_hand_asked_again(folder, rules, before, answer, error):
    result = play("night.txt", "--rules", rules, "--players", "Amy Bob", lines=[*before, answer])
    assert result.exit_code == 0, result.output
    surrender = rules != "taiwanese"
    seat = ["Amy", "Bob"][len(before)]
    typed = "".join(f"{ask(name, surrender)}{hand}\n" for name, hand in zip(["Amy", "Bob"], before))
    assert result.output == (
        f"Session night.txt: rules {rules}, no deal yet.\n{START}\nDeal 1: Amy, Bob\n"
        f"{typed}{ask(seat, surrender)}{answer}\nError: {error}\n{ask(seat, surrender)}\n"
        f"Ended: {'the deal being entered was not saved; ' if before else ''}no deal added to night.txt.\n"
    )
    assert not (folder / "night.txt").exists()


def test_a_blank_answer_asks_again_without_a_word(folder):
    result = play("night.txt", "--players", "Amy Bob", lines=["", "   "])
    assert result.output.endswith(
        f"Deal 1: Amy, Bob\n{ask('Amy')}\n{ask('Amy')}   \n{ask('Amy')}\nEnded: no deal added to night.txt.\n"
    )


def test_a_waive_without_effect_and_a_natural_claimed_from_rows_are_noted(folder):
    flushes = "3h 6h 8h / 3c 5c 6c 8c Tc / 2s 3s 4s 6s 8s"
    result = play("night.txt", "--rules", "taiwanese", "--players", "Amy Bob", lines=[AMY + " ; waive", flushes])
    assert (
        f"{ask('Amy', False)}{AMY} ; waive\n"
        "Note: Amy waives, but the hand makes no natural under the taiwanese rules: the waive has no effect\n"
        f"{ask('Bob', False)}{flushes}\n"
        "Note: Bob's hand makes a natural, three flushes (3), and claims it (add '; waive' to play the rows)\n"
    ) in result.output
    assert "three flushes" in result.output.split("Note: Bob")[1]  # the settlement shows it too


def test_a_false_claim_is_confirmed_like_a_foul(folder, tmp_path):
    rules = tmp_path / "house.toml"
    rules.write_text('preset = "2-4"\nfalse_claim = 6\n')
    unset = FOUL.replace(" /", "")
    result = play("night.txt", "--rules", str(rules), "--players", "Amy Bob", lines=[unset, "n", unset, "y"])
    assert result.exit_code == 0, result.output
    warning = "Warning: Amy's 13 cards make no natural: a false claim, which pays 6\n"
    assert f"{ask('Amy')}{unset}\n{warning}Keep Amy's hand? [y/N]: n\n{ask('Amy')}{unset}\n{warning}" in result.output
    assert f"Keep Amy's hand? [y/N]: y\n{ask('Bob')}\n" in result.output


def test_seats_beyond_the_rules_most_sit_out(folder):
    result = play("night.txt", "--rules", "pineapple", "--players", "Amy Bob Cy Dan", lines=[AMY, BOB, CY, "n"])
    assert result.exit_code == 0, result.output
    assert (
        f"{ask('Cy')}{CY}\nDan sits out: a deal has at most 3 players under the pineapple rules.\n\nRules: pineapple"
    ) in result.output


def test_dashes_may_sit_out_all_but_two(folder):
    result = play("night.txt", "--players", "Amy Bob Cy", lines=["-", AMY, "-"])
    assert result.output.endswith(
        f"{ask('Amy')}-\n{ask('Bob')}{AMY}\n{ask('Cy')}-\nError: Cy cannot sit out: a deal needs at least two players\n"
        f"{ask('Cy')}\nEnded: the deal being entered was not saved; no deal added to night.txt.\n"
    )


# Players: newcomers, seats, names ----------------------------------------------------


def test_a_newcomer_joins_at_a_prompt_and_keeps_the_seat(night):
    dan = "2d 3h 4h / 6s 7h 9d Td Jc / Qc Qd 5c 5h Kc"  # the 13 cards the others do not hold
    result = play("night.txt", lines=[AMY, "+Dan", BOB, CY, dan, "y"])
    assert result.exit_code == 0, result.output
    assert f"{ask('Bob')}+Dan\nDan joins the table, after Cy.\n{ask('Bob')}{BOB}\n" in result.output
    assert f"{ask('Cy')}{CY}\n{ask('Dan')}{dan}\n" in result.output
    assert (
        "Added deal 4 (line 16, 0e5933f7) to night.txt: Amy +49, Bob +2, Cy -13, Dan -38; "
        "money Amy +490, Bob +20, Cy -130, Dan -380 (Amy FL next (13)).\n"
    ) in result.output
    assert "\nDeal 5: Amy, Bob, Cy, Dan\n" in result.output
    assert night.read_text().endswith(f"Cy: {CY}\nDan: {dan}\n")


def test_players_names_a_changed_table_and_a_newcomer(night):
    result = play("night.txt", "--players", "Cy Dan Amy", lines=[CY, BOB, AMY, "y"])
    assert result.exit_code == 0, result.output
    assert f"\nDeal 4: Cy, Dan, Amy\n{ask('Cy')}{CY}\n{ask('Dan')}{BOB}\n{ask('Amy')}{AMY}\n" in result.output
    # A night without seats stays one: --players orders this run's questions, and writes no @players.
    assert night.read_text().endswith(f"\n\nCy: {CY}\nDan: {BOB}\nAmy: {AMY}\n")
    assert "Dan" in session_totals(night)


@pytest.mark.parametrize(
    ("args", "error"),
    [
        ([], "Error: new.txt has no deal yet: name the seats with --players, for example --players 'Amy Bob Cy'"),
        (
            ["--players", "Amy"],
            "Error: a deal needs at least two players: name them with --players, for example --players 'Amy Bob'",
        ),
        (
            ["--players", "Amy amy"],
            "Error: --players: player 'amy' and player 'Amy' (seated) differ only by case or Unicode form: "
            "write the name one way, 'Amy'",
        ),
        (["--players", "Amy Amy"], "Error: --players: Amy is seated already"),
        (
            ["--players", "Amy B=ob"],
            "Error: --players: player name 'B=ob' contains '=': names cannot contain any of = : / # |",
        ),
        (["--rules", "nine"], "Error: Invalid value for '--rules': unknown rule set 'nine': choose one of 2-4, 1-6,"),
        (["--style", "nope", "--players", "A B"], "Error: Invalid value for '--style': 'nope' is not a table style"),
    ],
)
def test_a_table_that_cannot_be_seated_is_refused_before_anything_is_asked(folder, args, error):
    result = play("new.txt", *args, lines=[AMY])
    assert result.exit_code == 2
    assert result.stderr.startswith(error), result.stderr
    assert result.stdout == ""
    assert not (folder / "new.txt").exists()


def test_a_player_written_another_way_than_in_the_session_is_refused(night):
    result = play("night.txt", "--players", "amy Bob")
    assert result.exit_code == 2
    assert result.stderr == (
        "Error: --players: player 'amy' and player 'Amy' (night.txt, line 4) differ only by case or Unicode form: "
        "write the name one way, 'Amy'\n"
    )


def test_rules_for_a_file_that_has_deals_are_refused(night):
    result = play("night.txt", "--rules", "2-4")
    assert result.exit_code == 2
    assert result.stderr == (
        "Error: night.txt already exists: --rules only starts a new session file (its @rules header)\n"
    )


# The file: refused early, written as add writes, read back by session ---------------------


def test_a_session_with_an_invalid_deal_is_refused_before_anything_is_asked(night):
    night.write_text(SESSION + "\nAmy: Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d\nBob: Ks Jd 3c / x\n")
    result = play("night.txt", lines=[AMY])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith("Error: night.txt, line 17: ")
    assert result.stderr.endswith("; fix the session file before adding to it\n")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_a_fifo_is_refused_without_being_opened(folder):
    os.mkfifo(folder / "night.txt")
    result = play("night.txt", "--players", "Amy Bob")
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: night.txt: not a regular file (a FIFO); it was left untouched")


def test_a_read_only_file_is_refused_at_once(night):
    night.chmod(0o444)
    result = play("night.txt")
    assert result.exit_code == 1
    assert result.stderr == (
        "Error: night.txt is read-only; the file is unchanged; make it writable (chmod u+w night.txt) and try again\n"
    )


def test_a_failed_save_says_why_and_asks_again(night, keys):
    keys += [("Save this deal?", lambda: night.chmod(0o444)), ("Save this deal?", lambda: night.chmod(0o644))]
    result = play("night.txt", lines=[AMY, BOB, CY2, "y", "n"])
    assert result.exit_code == 0, result.output
    assert result.output.endswith(
        "Save this deal? [Y/n]: y\n"
        "Error: night.txt is read-only; the file is unchanged; make it writable (chmod u+w night.txt) and try again\n"
        "Save this deal? [Y/n]: n\nNot saved: the deal starts again.\n\n"
        f"Deal 4: Amy, Bob, Cy\n{ask('Amy')}\nEnded: no deal added to night.txt.\n"
    )
    assert night.read_text() == SESSION


def test_a_file_made_read_only_during_the_night_ends_the_run_before_the_next_deal(night, keys):
    keys.append(("Save this deal?", lambda: night.chmod(0o444)))
    result = play("night.txt", lines=[AMY, BOB, CY2, "y", "n"])
    assert result.exit_code == 1
    assert result.output.endswith(
        "Save this deal? [Y/n]: n\nNot saved: the deal starts again.\n"
        "Error: night.txt is read-only; the file is unchanged; make it writable (chmod u+w night.txt) and try again\n"
    )
    assert night.read_text() == SESSION


def test_a_file_made_read_only_while_a_deal_is_typed_keeps_the_deal_to_save_later(night, keys):
    keys += [("Cy's hand", lambda: night.chmod(0o444)), ("Save this deal?", lambda: night.chmod(0o644))]
    result = play("night.txt", lines=[AMY, BOB, CY2, "y"])
    assert result.exit_code == 0, result.output
    assert f"{ask('Cy')}{CY2}\n\nRules: ofc" in result.output
    assert "Save this deal? [Y/n]: y\n" + ADDED_4 in result.output


def test_a_failed_save_can_be_tried_again(night, keys):
    keys += [("Save this deal?", lambda: night.chmod(0o444)), ("Save this deal?", lambda: night.chmod(0o644))]
    result = play("night.txt", lines=[AMY, BOB, CY2, "y", "y"])
    assert result.exit_code == 0, result.output
    assert "Save this deal? [Y/n]: y\nError: night.txt is read-only; " in result.output
    assert "and try again\nSave this deal? [Y/n]: y\n" + ADDED_4 in result.output
    assert night.read_text() == SESSION + f"\nAmy: {AMY}\nBob: {BOB}\nCy: {CY2}\n"


def test_a_deal_added_meanwhile_by_another_add_comes_first(night, keys):
    other = ["Amy=" + AMY, "Bob=" + BOB, "Cy=" + CY]

    def add():
        done = subprocess.run(
            [sys.executable, "-m", "cpscore", "add", "night.txt", *other, "--again"], capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr

    keys.append(("Cy's hand", add))
    result = play("night.txt", lines=[AMY, BOB, FOUL, "y", "y"])
    assert result.exit_code == 0, result.output
    assert "\nDeal 4: Amy, Bob, Cy\n" in result.output
    assert (
        "Added deal 5 (line 20, 39a372a5) to night.txt: Amy +31, Bob -1, Cy -30; money Amy +310, Bob -10, Cy -300 "
        "(Amy FL leaves; Cy FOUL).\n\nTotals after 5 deals:\n"
    ) in result.output
    assert (
        night.read_text()
        == SESSION + f"\nAmy: {AMY}\nBob: {BOB}\nCy: {CY}\n" + f"\nAmy: {AMY}\nBob: {BOB}\nCy: {FOUL}\n"
    )


def signed(value) -> str:
    return "0" if value == 0 else f"{value:+}"


def session_report(path, number):
    """Deal ``number`` as ``cpscore session`` settles it, in the words of play's
    'Added ...' line (money always: these nights have a stake), from the
    session's JSON and the Notes cell of its TSV table."""
    import json

    result = CliRunner().invoke(main, ["session", "--format", "json", str(path)])
    deal = json.loads(result.stdout)["deals"][number - 1]
    units = ", ".join(f"{player['name']} {signed(player['units'])}" for player in deal["totals"])
    money = ", ".join(f"{player['name']} {signed(player['amount'])}" for player in deal["totals"])
    table = CliRunner().invoke(main, ["session", "--style", "tsv", str(path)]).stdout
    rows = [line.split("\t") for line in table.splitlines()]
    (notes,) = [row[-1] for row in rows if row[:3] == [str(number), str(deal["line"]), deal["digest"]]]
    text = f"deal {number} (line {deal['line']}, {deal['digest']}) to {path.name}: {units}; money {money}"
    return f"{text} ({notes})" if notes else text


OTHER_WRITERS = {
    # another writer between the preview and the "y": what it runs, and the deal play's deal is then
    "add-at-stake-100": (["add", "night.txt", "--stake", "100", f"Amy={BOB}", f"Bob={AMY}", f"Cy={CY}"], 5),
    "add-a-deal": (["add", "night.txt", f"Amy={BOB}", f"Bob={AMY}", f"Cy={CY}"], 5),
    "undo-the-last-deal": (["undo", "night.txt"], 3),
}


@pytest.mark.parametrize("last", ["y", "n"], ids=["saved-when-asked-again", "not-saved"])
@pytest.mark.parametrize("writer", list(OTHER_WRITERS))
def test_a_file_changed_after_the_preview_shows_the_new_settlement_and_asks_again(night, keys, writer, last):
    """Issue 18: play previews deal 4 at stake 10; another writer changes the
    file before the "y".  Play saves nothing at terms it did not show: it says
    so, shows the deal as it would now be settled, and asks again."""
    args, number = OTHER_WRITERS[writer]
    seen = []

    def other():
        done = subprocess.run([sys.executable, "-m", "cpscore", *args], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        seen.append(night.read_text())

    keys += [("Save this deal?", other), ("Save this deal?", lambda: seen.append(night.read_text()))]
    result = play("night.txt", lines=[AMY, BOB, CY2, "y", last])
    assert result.exit_code == 0, result.output
    output = result.output
    assert seen[0] == seen[1]  # asked again with the file as the other writer left it: nothing saved silently
    first, again = output.split("Save this deal? [Y/n]: y\n", 1)
    assert "(stake 10 a unit)" in first and first.count("\nRules: ofc") == 1
    warning = f"Warning: night.txt changed since this deal was shown: it would now be deal {number}, "
    assert again.startswith(warning + "settled as shown again; nothing was saved\n\nRules: ofc")
    stake = "100" if writer == "add-at-stake-100" else "10"
    shown, after = again.split(f"Save this deal? [Y/n]: {last}\n", 1)
    assert f"Money won by each player from each opponent (stake {stake} a unit):" in shown
    if last == "n":
        assert after.startswith("Not saved: the deal starts again.\n")
        assert night.read_text() == seen[0]
        assert "Added" not in output
        return
    assert after.startswith(f"Added {session_report(night, number)}.\n")
    assert night.read_text() == seen[0] + f"\nAmy: {AMY}\nBob: {BOB}\nCy: {CY2}\n"
    if writer == "add-at-stake-100":  # the deal at 100 a unit, as shown the second time
        assert after.startswith(
            "Added deal 5 (line 21, 45c27e63) to night.txt: Amy +22, Bob -10, Cy -12; "
            "money Amy +2200, Bob -1000, Cy -1200 (Amy FL next (13); Bob FL leaves).\n"
        )


@pytest.mark.parametrize(
    ("answer", "saved"),
    [("", False), ("n", False), ("y", True)],
    ids=["enter-is-no", "no", "yes-dealt-twice"],
)
def test_the_hands_of_an_earlier_deal_are_asked_about_before_the_save(night, answer, saved):
    """Deal 1's hands again (Cy's cards in another order): was it really dealt twice?"""
    cy = "2s As 6d / 3s 4s 4d 6h 6c / 7c 8c 9s Ts Js"
    result = play("night.txt", lines=[AMY, BOB, cy, answer, "y"])
    assert result.exit_code == 0, result.output
    question = (
        f"{ask('Cy')}{cy}\nWarning: deal 1 (43bfbafd) had these same hands.\n"
        f"Was this deal really dealt twice? [y/N]: {answer}\n"
    )
    assert question in result.output
    if not saved:
        assert f"{question}Not saved: the deal starts again.\n\nDeal 4: Amy, Bob, Cy\n" in result.output
        assert night.read_text() == SESSION
        return
    assert f"{question}\nRules: ofc" in result.output
    assert f"Save this deal? [Y/n]: y\nAdded {session_report(night, 4)}.\n" in result.output
    assert night.read_text() == SESSION + f"\nAmy: {AMY}\nBob: {BOB}\nCy: {cy}\n"


def test_what_is_saved_reads_back_as_session_reads_it(night):
    result = play("night.txt", lines=[AMY, BOB, "surrender", "y"])
    assert result.exit_code == 0, result.output
    totals = result.output.split("Totals after 4 deals:")[1].split("\nDeal 5")[0]
    assert session_totals(night) == "Totals after 4 deals:" + totals
    assert night.read_text().endswith("Cy: surrender\n")


def readme_transcript():
    """The docs' transcript of a run (docs/night.md)."""
    readme = (ROOT / "docs" / "night.md").read_text(encoding="utf-8")
    found = re.search(r"```text\n\$ cpscore play night\.txt\n(.*?)```", readme, re.S)
    return found.group(1) if found else None


def test_the_readme_transcript_is_a_real_run(folder):
    """The transcript in the README, typed again: the same output, line for line."""
    transcript = readme_transcript()
    assert transcript is not None, "docs/night.md has no transcript of cpscore play"
    (folder / "night.txt").write_text((ROOT / "examples" / "session.txt").read_text())
    answers = re.findall(r"(?m)^(?:\S+'s hand \([^)]*\)|.*\? \[(?:Y/n|y/N)\]):(?: (.*))?$", transcript)
    typed = answers[:-1]  # the last prompt is answered with Ctrl-D: the input ends
    result = play("night.txt", lines=typed)
    assert result.exit_code == 0, result.output
    assert [line.rstrip() for line in result.output.splitlines()] == transcript.rstrip("\n").splitlines()


def test_table_stakes_end_the_run_when_a_stack_is_empty_and_refuse_a_session_that_is_over(folder):
    # Stacks of 20 in the rules themselves: add's append settles the deal without the session's
    # standing, which pineapple-ru's "bring a buy-in" (table_stakes = true) refuses.
    (folder / "stakes.toml").write_text('preset = "pineapple-ru"\ntable_stakes = 20\n')
    # The same hands twice on purpose: play asks whether the deal really was dealt twice ("y").
    lines = [AMY, BOB, "y", AMY, BOB, "y", "y"]
    result = play("night.txt", "--rules", "stakes.toml", "--players", "Amy Bob", lines=lines)
    assert result.exit_code == 0, result.output
    assert "Stacks after the deal: Amy 31, Bob 9" in result.output
    assert (
        "Warning: deal 1 (2d217172) had these same hands.\nWas this deal really dealt twice? [y/N]: y\n"
    ) in result.output
    assert (
        "Added deal 2 (line 7, 2d217172) to night.txt: Amy +11, Bob -11; money Amy +9, Bob -9 "
        "(Amy deals; Amy FL leaves; Bob pays Amy 9, not 11 (Bob's stack 9)).\n"
    ) in result.output
    assert result.output.endswith(
        "Stacks (buy-in 20): Amy 40, Bob 0.\nBob's stack is empty after deal 2: the session is over.\n"
        "Ended: 2 deals added to night.txt.\n"
    )
    again = play("night.txt")
    assert again.exit_code == 2
    assert again.stderr == (
        "Error: the session is over: Bob's stack is empty after deal 2 (table stakes): start a new session to play on\n"
    )


def test_the_help_says_how_to_play():
    result = CliRunner().invoke(main, ["play", "--help"])
    assert result.exit_code == 0
    assert "Ctrl-C" in result.output and "Ctrl-D" in result.output and "--players NAMES" in result.output
    listing = CliRunner().invoke(main, ["--help"]).output
    assert listing.index(" add ") < listing.index(" play ")


# Through a real terminal ---------------------------------------------------------------

pexpect = pytest.importorskip("pexpect", reason="the terminal tests drive cpscore through pexpect")

#: Only a guard against a hang: every step waits for what it expects, not for a time.
GUARD = 120


@pytest.fixture
def terminal(night):
    """``cpscore play night.txt`` on a pseudo-terminal, wide enough that no line wraps."""
    env = {**os.environ, "NO_COLOR": "1", "TERM": "xterm", "COLUMNS": "200"}
    child = pexpect.spawn(
        sys.executable,
        ["-m", "cpscore", "play", "night.txt"],
        cwd=str(night.parent),
        env=env,
        encoding="utf-8",
        timeout=GUARD,
        dimensions=(60, 250),
    )
    yield child
    child.close(force=True)


def ended(child) -> int:
    child.expect(pexpect.EOF)
    child.close()
    return child.exitstatus


@pytest.mark.slow  # a real terminal: run by CI with the slow tests
def test_terminal_a_whole_deal_is_typed_saved_and_totalled(terminal, night):
    terminal.expect_exact("Deal 4: Amy, Bob, Cy")
    for name, hand in (("Amy", AMY), ("Bob", BOB), ("Cy", CY2)):
        terminal.expect_exact(ask(name))
        terminal.sendline(hand)
    terminal.expect_exact("Save this deal? [Y/n]: ")
    terminal.sendline("y")
    terminal.expect_exact(ADDED_4.rstrip("\n"))
    terminal.expect_exact("Totals after 4 deals:")
    terminal.expect_exact("Deal 5: Amy, Bob, Cy")
    terminal.expect_exact(ask("Amy"))
    terminal.send("\x1b[A")  # Up: the last hand typed (the history keeps hands, not the answer 'y')
    terminal.expect_exact(CY2)
    terminal.send("\x15")  # Ctrl-U: the line is empty again
    terminal.sendeof()
    terminal.expect_exact("Ended: 1 deal added to night.txt.")
    assert ended(terminal) == 0
    assert night.read_text() == SESSION + f"\nAmy: {AMY}\nBob: {BOB}\nCy: {CY2}\n"


@pytest.mark.slow  # a real terminal: run by CI with the slow tests
def test_terminal_a_bad_card_is_asked_again_and_fixed_from_the_history(terminal, night):
    pytest.importorskip("readline")
    terminal.expect_exact(ask("Amy"))
    terminal.sendline(AMY[:-1] + "x")  # 7x
    terminal.expect_exact(f"Error: Amy, back: unknown card '7x': {CARD_HELP}")
    terminal.expect_exact(ask("Amy"))
    terminal.send("\x1b[A")  # Up: the line again, to be corrected
    terminal.expect_exact(AMY[:-1] + "x")
    terminal.send("\x7fd\r")  # Backspace, 'd', Enter
    terminal.expect_exact(ask("Bob"))
    terminal.sendeof()
    terminal.expect_exact("Ended: the deal being entered was not saved; no deal added to night.txt.")
    assert ended(terminal) == 0
    assert night.read_text() == SESSION


@pytest.mark.slow  # a real terminal: run by CI with the slow tests
def test_terminal_a_foul_is_warned_of_and_confirmed(terminal, night):
    terminal.expect_exact(ask("Amy"))
    terminal.sendline(FOUL)
    terminal.expect_exact("Warning: Amy fouls: front pair of queens (Q-Q-3) beats middle jack high (J-T-9-6-5)")
    terminal.expect_exact("Keep Amy's hand? [y/N]: ")
    terminal.sendline("n")
    terminal.expect_exact(ask("Amy"))
    terminal.sendline(FOUL)
    terminal.expect_exact("Keep Amy's hand? [y/N]: ")
    terminal.sendline("y")
    terminal.expect_exact(ask("Bob"))
    terminal.sendline(BOB)
    terminal.expect_exact(ask("Cy"))
    terminal.sendline(CY)
    terminal.expect_exact("Amy fouled: front pair of queens (Q-Q-3) beats middle jack high (J-T-9-6-5)")
    terminal.expect_exact("Save this deal? [Y/n]: ")
    terminal.sendline("")
    terminal.expect_exact(
        "Added deal 4 (line 16, 7eed0156) to night.txt: Amy -18, Bob +13, Cy +5; "
        "money Amy -180, Bob +130, Cy +50 (Amy FOUL)."
    )
    terminal.expect_exact(ask("Amy"))
    terminal.sendeof()
    assert ended(terminal) == 0
    assert night.read_text().endswith(f"\n\nAmy: {FOUL}\nBob: {BOB}\nCy: {CY}\n")


@pytest.mark.slow  # a real terminal: run by CI with the slow tests
def test_terminal_ctrl_c_leaves_the_file_byte_identical(terminal, night):
    before = night.read_bytes()
    terminal.expect_exact(ask("Amy"))
    terminal.sendline(AMY)
    terminal.expect_exact(ask("Bob"))
    terminal.sendline(BOB)
    terminal.expect_exact(ask("Cy"))
    terminal.send("As 6d 2s")  # half a hand typed
    terminal.expect_exact("As 6d 2s")
    terminal.sendintr()
    terminal.expect_exact("Deal abandoned: nothing was saved; it starts again.")
    terminal.expect_exact("Deal 4: Amy, Bob, Cy")
    terminal.expect_exact(ask("Amy"))
    assert night.read_bytes() == before
    for name, hand in (("Amy", AMY), ("Bob", BOB), ("Cy", CY2)):
        if name != "Amy":
            terminal.expect_exact(ask(name))
        terminal.sendline(hand)
    terminal.expect_exact("Save this deal? [Y/n]: ")
    terminal.sendintr()  # at the question too
    terminal.expect_exact("Deal abandoned: nothing was saved; it starts again.")
    terminal.expect_exact(ask("Amy"))
    terminal.sendeof()
    terminal.expect_exact("Ended: no deal added to night.txt.")
    assert ended(terminal) == 0
    assert night.read_bytes() == before


@pytest.mark.slow  # a real terminal: run by CI with the slow tests
def test_terminal_ctrl_d_ends_and_nothing_is_half_saved(terminal, night):
    before = night.read_bytes()
    terminal.expect_exact(ask("Amy"))
    terminal.sendline(AMY)
    terminal.expect_exact(ask("Bob"))
    terminal.sendeof()
    terminal.expect_exact("Ended: the deal being entered was not saved; no deal added to night.txt.")
    assert ended(terminal) == 0
    assert night.read_bytes() == before
