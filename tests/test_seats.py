"""Seats named once (issue 11): ``@players``, ``add --players``, hands in seat
order, ``-`` to sit out, a newcomer with ``--new-player``; and ``add --stake``
and ``--pair-stake`` writing the header or a line before the deal."""

import pytest
from click.testing import CliRunner

from cpscore.cli import main

AMY = "Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d"
BOB = "Qs Jd 3c / Th Tc 8d 8s 3d / Kh Qh Jh 8h 2h"
CY = "As 6d 2s / 6c 6h 4d 4s 3s / Js Ts 9s 8c 7c"
# Under 2-4: Amy +2 from Bob; Amy +4 from Cy (a scoop); Bob +2 from Cy.
SEATED = f"@players Amy Bob Cy\n\nAmy: {AMY}\nBob: {BOB}\nCy: {CY}\n"


def cli(*args, input=None):
    return CliRunner().invoke(main, [str(arg) for arg in args], input=input)


@pytest.fixture
def night(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "night.txt"
    path.write_text(SEATED)
    return path


def test_players_on_a_new_file_is_its_header_and_the_hands_follow_the_seats(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = cli("add", "new.txt", "--players", "Amy Bob Cy", "--stake", "5", AMY, BOB, CY)
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == (
        "added deal 1 (line 4, 43bfbafd) to new.txt: Amy +6, Bob 0, Cy -6; money Amy +30, Bob 0, Cy -30\n"
    )
    assert (tmp_path / "new.txt").read_text() == f"@players Amy Bob Cy\n@stake 5\n\nAmy: {AMY}\nBob: {BOB}\nCy: {CY}\n"


def test_a_seat_sits_out_with_a_dash(night):
    result = cli("add", night, AMY, "-", CY)
    assert result.exit_code == 0, result.output
    assert result.stdout == f"added deal 2 (line 7, 31ed5576) to {night}: Amy +4, Cy -4\n"
    assert night.read_text() == SEATED + f"\nAmy: {AMY}\nCy: {CY}\n"


def test_hands_in_seat_order_on_stdin(night):
    result = cli("add", night, input=f"{AMY}\n-  # Bob sits out\n{CY}\n")
    assert result.exit_code == 0, result.output
    assert night.read_text() == SEATED + f"\nAmy: {AMY}\nCy: {CY}\n"


def test_a_newcomer_takes_the_next_seat(night):
    result = cli("add", night, "--new-player", "Dan", AMY, "-", "-", CY)
    assert result.exit_code == 0, result.output
    assert result.stdout == f"added deal 2 (line 8, f941ef16) to {night}: Amy +4, Dan -4 (Dan joins)\n"
    assert night.read_text() == SEATED + f"\n@players Amy Bob Cy Dan\nAmy: {AMY}\nDan: {CY}\n"
    table = cli("session", night).stdout
    assert (
        "   2     8  f941ef16  +4 (+10)     - (0)        - (-6)       -4 (-4)\n                      Dan joins\n"
        in table
    )


def test_players_changes_the_seats_from_this_deal_on(night):
    result = cli("add", night, "--players", "Cy, Amy", CY, AMY)
    assert result.exit_code == 0, result.output
    assert result.stdout == f"added deal 2 (line 8, 61c6f160) to {night}: Cy -4, Amy +4 (Bob leaves)\n"
    assert night.read_text() == SEATED + f"\n@players Cy Amy\nCy: {CY}\nAmy: {AMY}\n"
    # The seats in force now are Cy and Amy: two hands (another deal: Cy holds Amy's cards of deal 2).
    again = cli("add", night, AMY, CY)
    assert again.exit_code == 0, again.output


def test_names_with_a_space_are_written_with_commas(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = cli("add", "new.txt", "--players", "Ann Lee, Bob", AMY, BOB)
    assert result.exit_code == 0, result.output
    assert (tmp_path / "new.txt").read_text() == f"@players Ann Lee, Bob\n\nAnn Lee: {AMY}\nBob: {BOB}\n"
    assert cli("add", "new.txt", BOB, AMY).exit_code == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            [AMY, BOB],
            "Error: 2 hands for 3 seats (Amy Bob Cy): give one per seat, in order, '-' for a seat that sits out",
        ),
        ([AMY, f"Bob={BOB}", CY], "Error: give every hand as NAME=HAND, or none (the hands alone, in seat order)"),
        (
            [f"Amy={AMY}", f"Dan={BOB}"],
            "Error: the new deal: 'Dan' is not seated (seats: Amy Bob Cy); a @players line between deals changes "
            "the seats (cpscore add --players, --new-player)",
        ),
        (["--players", "Amy", AMY], "Error: --players: a table seats two players or more (separate names with"),
        (["--players", "Amy Bob Amy", AMY, BOB, CY], "Error: --players: Amy is seated twice"),
        (
            ["--players", "Amy bob", AMY, BOB],
            "Error: --players: player 'bob' and player 'Bob' ({night}, line 4) differ only by case",
        ),
        (
            ["--players", "Amy Bob[1]", AMY, BOB],
            "Error: --players: 'Bob[1]' is a hand, not a seat: name the player, Bob",
        ),
        ([AMY, "-", "-"], "Error: 1 player in the deal: a deal has 2 to 4 players"),
        ([AMY, BOB, "Qs Jd 3c / Th Tc 8d 8s 3d / Kh Qh Jh 8h 2x"], "Error: Cy, back: unknown card '2x'"),
    ],
    ids=[
        "too-few",
        "mixed",
        "not-seated",
        "one-seat",
        "seated-twice",
        "look-alike",
        "a-label",
        "one-player",
        "bad-card",
    ],
)
def test_refused_deals_leave_the_file_untouched(night, args, message):
    result = cli("add", night, *args)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith(message.format(night=night)), result.stderr
    assert night.read_text() == SEATED


def test_hands_without_names_need_seats(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "plain.txt").write_text(f"Amy: {AMY}\nBob: {BOB}\n")
    result = cli("add", "plain.txt", AMY, BOB)
    assert result.exit_code == 2
    assert result.stderr == (
        "Error: plain.txt names no seats: give them once with --players (for example --players 'Amy Bob Cy'), "
        "or write each hand as NAME=HAND\n"
    )


def test_the_same_seats_again_write_nothing_and_say_so(night):
    result = cli("add", night, "--players", "Amy Bob Cy", "--stake", "1", AMY, BOB, CY, "--again")
    assert result.exit_code == 0
    assert result.stderr == (
        "Warning: --players: the seats are Amy Bob Cy already; nothing written\n"
        "Warning: --stake 1: the stake is that already; nothing written\n"
    )
    assert night.read_text() == SEATED + f"\nAmy: {AMY}\nBob: {BOB}\nCy: {CY}\n"


def test_stakes_from_add_are_lines_before_the_deal(night):
    result = cli("add", night, "--stake", "20", "--pair-stake", "Bob:Amy=50", AMY, BOB, CY, "--again")
    assert result.exit_code == 0, result.output
    assert result.stdout == (
        f"added deal 2 (line 9, 43bfbafd) to {night}: Amy +6, Bob 0, Cy -6; money Amy +180, Bob -60, Cy -120 "
        "(stake 20 from here; Amy:Bob stake 50 from here)\n"
    )
    assert night.read_text() == SEATED + f"\n@stake 20\n@pair-stake Amy:Bob=50\nAmy: {AMY}\nBob: {BOB}\nCy: {CY}\n"
    # Deal 1 at 1; deal 2: Amy 2 x 50 + 4 x 20 = +180, Bob -100 + 40 = -60, Cy -120.
    totals = cli("session", "--totals", night).stdout
    assert "Amy           +12     +186\nBob             0      -60\nCy            -12     -126\n" in totals


def test_a_stake_on_a_file_without_deals_goes_in_its_header(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "n.txt").write_text("@rules 1-6\n")
    assert cli("add", "n.txt", "--stake", "2", f"Amy={AMY}", f"Bob={BOB}").exit_code == 0
    assert (tmp_path / "n.txt").read_text() == f"@rules 1-6\n@stake 2\n\nAmy: {AMY}\nBob: {BOB}\n"


def test_a_file_of_header_lines_only_has_them_rewritten(tmp_path, monkeypatch):
    """No deal yet (a night started, or its first deal undone): the header's own
    @stake, @pair-stake and @players lines take the new values, in their place."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "n.txt").write_text("# Friday\r\n@stake 5\r\n@pair-stake Amy:Bob=3\r\n@players Amy Bob\r\n")
    result = cli("add", "n.txt", "--stake", "2", "--pair-stake", "Bob:Amy=4", "--new-player", "Cy", AMY, BOB, CY)
    assert result.exit_code == 0, result.output
    assert (tmp_path / "n.txt").read_bytes() == (
        f"# Friday\r\n@stake 2\r\n@pair-stake Amy:Bob=4\r\n@players Amy Bob Cy\r\n\r\n"
        f"Amy: {AMY}\r\nBob: {BOB}\r\nCy: {CY}\r\n"
    ).encode()


def test_a_header_without_its_last_line_end_is_added_to(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "h.txt").write_text("@stake 5")
    assert cli("add", "h.txt", "--players", "Amy Bob", AMY, BOB).exit_code == 0
    assert (tmp_path / "h.txt").read_text() == f"@stake 5\n@players Amy Bob\n\nAmy: {AMY}\nBob: {BOB}\n"


@pytest.mark.parametrize(
    ("pair", "message"),
    [
        ("Amy:Cy=10", "Error: --pair-stake names 'Cy', who does not play (players: Amy, Bob); a pair stake is between"),
        ("amy:bob=10", "Error: --pair-stake names 'amy': the player is 'Amy' (names are written exactly)"),
    ],
    ids=["sits-out", "case"],
)
def test_a_pair_stake_names_players_of_the_night(night, pair, message):
    """What session would refuse, add refuses: Cy is seated but has not played."""
    night.write_text("@players Amy Bob Cy\n")
    result = cli("add", night, "--pair-stake", pair, AMY, BOB, "-")
    assert result.exit_code == 2 and result.stderr.startswith(message), result.stderr
    assert night.read_text() == "@players Amy Bob Cy\n"


def test_a_comma_in_a_name_cannot_be_seated(night):
    result = cli("add", night, "--new-player", "Lee,Ann", AMY, BOB, CY, "-")
    assert result.exit_code == 2
    assert result.stderr == (
        "Error: player 'Lee,Ann' cannot be seated: a comma separates the names of the seats (@players)\n"
    )


def test_a_later_file_without_seats_has_none(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.txt").write_text(f"@players Amy Bob\n\nAmy: {AMY}\nBob: {BOB}\n")
    (tmp_path / "b.txt").write_text(f"Amy: {AMY}\nDan: {CY}\n")
    result = cli("session", "--totals", "a.txt", "b.txt")
    assert result.exit_code == 0, result.output


def test_the_lines_before_a_skipped_deal_are_noted_on_the_next(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "s.txt").write_text(
        f"@stake 5\n\nAmy: {AMY}\nBob: {BOB}\n\n@stake 20\n@players Amy Bob Cy\nAmy: {AMY}\nBob: XX\n\n"
        f"Amy: {AMY}\nCy: {CY}\n"
    )
    result = CliRunner().invoke(main, ["session", "--skip-invalid", "s.txt"])
    assert result.exit_code == 0, result.output
    assert (
        "   3    11  31ed5576  +4 (+6)      - (-2)       -4 (-4)\n"
        "                      +80 (+90)    - (-10)      -80 (-80)\n"
        "                      stake 20 from here; seats Amy Bob Cy from here\n"
    ) in result.stdout  # deal 3 at 20: Amy +4


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (SEATED + f"\nAmy: {AMY}\nDan: {BOB}\n", "Error: stdin, line 8: 'Dan' is not seated (seats: Amy Bob Cy)"),
        ("@players Amy\n\n" + SEATED[20:], "Error: stdin, line 1: @players: a table seats two players or more"),
        ("@players Amy Bob\n@players Amy Cy\n", "Error: stdin, line 2: @players is given twice (first at line 1)"),
        (SEATED + f"\n@players Amy amy\nAmy: {AMY}\n", "Error: stdin, line 7: @players: player 'amy' and player 'Amy'"),
        (SEATED + f"\n@players amy Bob\namy: {AMY}\n", "Error: stdin, line 7: @players: player 'amy' and player 'Amy'"),
        (SEATED + "\n@players Amy Bob\n", "Error: stdin, line 7: @players Amy Bob has no deal after it: a @players"),
        (
            SEATED.replace("Bob: ", "@players Amy Bob\nBob: "),
            "Error: stdin, line 4: a @players line goes between two deals, after a blank line, not inside a deal",
        ),
        ("@players\n", "Error: stdin, line 1: @players needs a value"),
    ],
    ids=["not-seated", "one-seat", "twice", "twice-in-a-line", "look-alike", "no-deal-after", "inside", "empty"],
)
def test_session_checks_the_seats(text, message):
    result = cli("session", "-", input=text)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith(message), result.stderr


def test_a_later_files_seats_change_the_seats(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.txt").write_text(SEATED)
    (tmp_path / "b.txt").write_text(f"@players Amy Bob\n\nAmy: {AMY}\nBob: {BOB}\n")
    result = cli("session", "a.txt", "b.txt")
    assert result.exit_code == 0, result.output
    assert "Cy leaves" in result.stdout
    bad = tmp_path / "c.txt"
    bad.write_text(f"@players Amy Bob\n\nAmy: {AMY}\nCy: {CY}\n")
    result = cli("session", "a.txt", "c.txt")
    assert result.stderr.startswith("Error: c.txt, line 4: 'Cy' is not seated (seats: Amy Bob)")


def test_replace_takes_the_hands_in_the_seats_of_that_deal(night):
    assert cli("add", night, "--players", "Cy Amy", CY, AMY).exit_code == 0
    result = cli("replace", night, "1", BOB, AMY, "-")  # deal 1's seats: Amy Bob Cy
    assert result.exit_code == 0, result.output
    result = cli("replace", night, "2", AMY, CY)  # deal 2's seats: Cy Amy
    assert result.exit_code == 0, result.output
    assert night.read_text() == (
        f"@players Amy Bob Cy\n\nAmy: {BOB}\nBob: {AMY}\n\n@players Cy Amy\nCy: {AMY}\nAmy: {CY}\n"
    )
    assert cli("replace", night, "2", AMY).stderr.startswith("Error: 1 hand for 2 seats (Cy Amy)")


def test_undo_takes_the_seats_line_with_the_last_deal(night):
    assert cli("add", night, "--new-player", "Dan", AMY, "-", "-", CY).exit_code == 0
    result = cli("undo", night)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(
        f"removed deal 2 (line 8, f941ef16) from {night}, with the line before it (@stake, @pair-stake, @players"
    )
    assert "  - @players Amy Bob Cy Dan\n" in result.stdout
    assert night.read_text() == SEATED


def test_play_asks_the_seats_of_the_session_and_writes_a_newcomer(night):
    typed = "".join(line + "\n" for line in ["-", "+Dan", AMY, CY, BOB, "y"])
    result = CliRunner().invoke(main, ["play", str(night)], input=typed)
    assert result.exit_code == 0, result.output
    assert "\nDeal 2: Amy, Bob, Cy\n" in result.output
    assert "Dan joins the table, after Cy.\n" in result.output
    assert night.read_text() == SEATED + f"\n@players Amy Bob Cy Dan\nBob: {AMY}\nCy: {CY}\nDan: {BOB}\n"
    table = cli("session", night).stdout
    assert "Dan joins" in table
