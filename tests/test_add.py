"""`cpscore add` never loses or misplaces a deal: real processes at once, links,
read-only files, FIFOs, devices, and what `session` could not read back."""

import os
import stat
import subprocess
import sys

import pytest
from click.testing import CliRunner

from cpscore.cli import main

AMY = "Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d"
BOB = "Qs Jd 3c / Th Tc 8d 8s 3d / Kh Qh Jh 8h 2h"
HANDS = [f"Amy={AMY}", f"Bob={BOB}"]


def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input)


def deals_in(path) -> int:
    result = run("session", "--totals", "--format", "json", str(path))
    assert result.exit_code == 0, result.stderr
    import json

    return {entry["name"]: entry["units"] for entry in json.loads(result.stdout)["totals"]}["Amy"] // 2


def test_many_concurrent_writers_lose_nothing(tmp_path):
    """12 processes each add 4 deals at once: all 48 are in the file (the same
    hands every time: ``--again`` lets each repeat through)."""
    path = tmp_path / "night.txt"
    go = tmp_path / "go"
    script = (
        "import os, sys, time\n"
        "from cpscore.cli import main\n"
        "while not os.path.exists(sys.argv[1]):\n"
        "    time.sleep(0.001)\n"
        "for _ in range(4):\n"
        "    try:\n"
        "        main(['add', sys.argv[2], *sys.argv[3:]])\n"
        "    except SystemExit as exit:\n"
        "        assert exit.code == 0, exit.code\n"
    )
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", script, str(go), str(path), *HANDS, "--again"], stdout=subprocess.DEVNULL
        )
        for _ in range(12)
    ]
    go.touch()
    assert [worker.wait(timeout=120) for worker in workers] == [0] * 12
    assert deals_in(path) == 48  # Amy wins 2 units a deal
    assert path.read_text().count("Amy: ") == 48
    assert sorted(os.listdir(tmp_path)) == [".night.txt.lock", "go", "night.txt"]


def test_a_symlink_keeps_pointing_at_its_target_which_gets_the_deal(tmp_path):
    (tmp_path / "synced").mkdir()
    target = tmp_path / "synced" / "night.txt"
    target.write_text("")  # an empty session: a link to a missing file is refused (see below)
    link = tmp_path / "night.txt"
    link.symlink_to(target)
    for again in ([], ["--again"]):
        assert run("add", str(link), *HANDS, *again).exit_code == 0
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_text().count("Amy: ") == 2


def test_mode_and_owner_are_kept(tmp_path):
    path = tmp_path / "night.txt"
    path.write_text(f"Amy: {AMY}\nBob: {BOB}\n")
    path.chmod(0o640)
    if os.geteuid() == 0:
        os.chown(path, 65534, 65534)
    assert run("add", str(path), *HANDS, "--again").exit_code == 0
    info = path.stat()
    assert stat.S_IMODE(info.st_mode) == 0o640
    if os.geteuid() == 0:
        assert (info.st_uid, info.st_gid) == (65534, 65534)


@pytest.mark.parametrize(
    ("make", "code", "message"),
    [
        (
            lambda p: (p.write_text(f"Amy: {AMY}\nBob: {BOB}\n"), p.chmod(0o444)),
            1,
            "is read-only; the file is unchanged",
        ),
        (lambda p: os.mkfifo(p), 2, "not a regular file (a FIFO)"),
        (lambda p: p.mkdir(), 2, "not a regular file (a folder)"),
        (
            lambda p: (p.write_text(f"Amy: {AMY}\nBob: {BOB}\n"), os.link(p, p.with_name("copy.txt"))),
            2,
            "the file has 2 hard links, and an atomic rewrite would split them",
        ),
        (lambda p: p.symlink_to(p.with_name("missing.txt")), 2, "which does not exist"),
    ],
    ids=["read-only", "fifo", "folder", "hard-link", "dangling-link"],
)
def test_files_that_add_refuses(tmp_path, make, code, message):
    path = tmp_path / "night.txt"
    make(path)
    before = path.lstat()
    before_bytes = path.read_bytes() if path.is_file() else None
    # In a real process with a safety timeout: a regression that opens a FIFO would hang, not pass.
    result = subprocess.run(
        [sys.executable, "-m", "cpscore", "add", str(path), *HANDS], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == code, result.stderr
    assert message in result.stderr and result.stdout == ""
    after = path.lstat()
    assert (after.st_ino, after.st_mode) == (before.st_ino, before.st_mode)
    if before_bytes is not None:
        assert path.read_bytes() == before_bytes


@pytest.mark.skipif(os.geteuid() != 0, reason="mknod needs root")
def test_a_device_node_is_refused_and_left_alone(tmp_path):
    node = tmp_path / "device"  # a private node in a temp folder, never a real device path
    os.mknod(node, stat.S_IFCHR | 0o600, os.makedev(1, 3))
    result = run("add", str(node), *HANDS)
    assert result.exit_code == 2
    assert "not a regular file (a character device)" in result.stderr
    assert stat.S_ISCHR(node.lstat().st_mode)


def test_a_rule_path_is_stored_relative_to_the_session_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "house.toml").write_text('preset = "1-6"\n')
    assert run("add", "sub/night.txt", "--rules", "sub/house.toml", *HANDS).exit_code == 0
    assert (tmp_path / "sub" / "night.txt").read_text().startswith("@rules house.toml\n")
    monkeypatch.chdir(tmp_path / "sub")
    result = run("session", "night.txt", "--totals")
    assert result.exit_code == 0, result.stderr
    assert "Amy            +1" in result.stdout  # 1-6 from the rule file (2-4 would give +2)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("Bo\nb", "contains an invisible or control character (U+000A)"),
        ("Bo\rb", "contains an invisible or control character (U+000D)"),
        ("Bo\u2028b", "contains an invisible or control character (U+2028)"),
        ("\ufeffBob", "contains an invisible or control character (U+FEFF)"),
        ("@Bob", "starts with '@', which marks a session header"),
        ("B" * 41, "is 41 characters long: at most 40"),
    ],
    ids=["newline", "cr", "u2028", "bom-inside", "at", "long"],
)
def test_names_that_could_not_be_read_back_are_refused(tmp_path, name, message):
    path = tmp_path / "night.txt"
    result = run("add", str(path), f"Amy={AMY}", f"{name}={BOB}")
    assert result.exit_code == 2 and message in result.stderr
    assert not path.exists()


def test_a_name_written_two_ways_is_refused_even_as_a_new_player(tmp_path):
    path = tmp_path / "night.txt"
    assert run("add", str(path), *HANDS).exit_code == 0
    before = path.read_bytes()
    result = run("add", str(path), f"amy={AMY}", f"Bob={BOB}", "--new-player", "amy")
    assert result.exit_code == 2
    assert f"player 'amy' and player 'Amy' ({path}, line 1) differ only by case" in result.stderr
    assert path.read_bytes() == before


def test_crlf_files_stay_crlf(tmp_path):
    path = tmp_path / "night.txt"
    path.write_bytes(f"Amy: {AMY}\r\nBob: {BOB}\r\n".encode())
    assert run("add", str(path), *HANDS, "--again").exit_code == 0
    assert path.read_bytes() == f"Amy: {AMY}\r\nBob: {BOB}\r\n\r\nAmy: {AMY}\r\nBob: {BOB}\r\n".encode()


def test_add_says_what_happened_beside_the_units(tmp_path):
    """A foul and Fantasyland (Amy played this deal in it: her KK of deal 1), as the session table notes them."""
    from click.testing import CliRunner

    from cpscore.cli import main

    night = tmp_path / "night.txt"
    night.write_text(
        "@rules ofc\n\nAmy: Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d\nBob: Qs Jd 3c / Th Tc 8d 8s 3d / Kh Qh Jh 8h 2h\n"
    )
    result = CliRunner().invoke(
        main,
        [
            "add",
            str(night),
            "Amy=Qh Qd 2c / Kh Kd Kc 3h 3d / 9s 9h 9d 9c 4h",
            "Bob=Qs Qc 3c / Jc Td 8d 6s 5c / Ac 7h 5h 6d 2d",
        ],
    )
    assert result.exit_code == 0, result.output
    assert result.stdout == (
        f"added deal 2 (line 6, 93ee8a67) to {night}: Amy +35, Bob -35 (Amy FL stays (13); Bob FOUL)\n"
    )


# The deal as the session settles it (issue 18) --------------------------------------------------

CY = "As 6d 2s / 6c 6h 4d 4s 3s / Js Ts 9s 8c 7c"  # scooped by AMY: 4 units under 2-4
# Under pusoy (1-6) each scoops the hands after it: Amy +6 from Bob and from Cy, Bob +6 from Cy.
PUSOY_A = "As Ah 2c / Kd Kc Ks 3d 4h / 2h 5h 7h 9h Jh"
PUSOY_B = "Qs Qh 3c / Td Tc 8s 8d 4c / 5d 6s 7d 8h 9s"
PUSOY_C = "Kh 6h 3h / 9d 9c 2s 4s 6c / Jd Jc Ad 2d 4d"


def signed(value) -> str:
    return "0" if value == 0 else f"{value:+}"


def session_says(path, number):
    """Deal ``number`` as ``cpscore session`` settles it: its identity, units and
    money (from the JSON), and its notes (the Notes cell of the TSV table)."""
    import json

    result = run("session", "--format", "json", str(path))
    assert result.exit_code == 0, result.stderr
    deal = json.loads(result.stdout)["deals"][number - 1]
    units = ", ".join(f"{player['name']} {signed(player['units'])}" for player in deal["totals"])
    money = ", ".join(f"{player['name']} {signed(player['amount'])}" for player in deal["totals"])
    rows = [line.split("\t") for line in run("session", "--style", "tsv", str(path)).stdout.splitlines()]
    (notes,) = [row[-1] for row in rows if row[:3] == [str(number), str(deal["line"]), deal["digest"]]]
    return f"deal {number} (line {deal['line']}, {deal['digest']})", units, money, notes


@pytest.mark.parametrize(
    ("files", "text", "hands", "added", "note"),
    [
        pytest.param(
            {"house.toml": 'preset = "2-4"\ncap = 30\n'},
            "@rules house.toml\n@stake 10\n",
            [f"Amy={AMY}", f"Bob={CY}"],
            "added deal 1 (line 4, 43502e19) to night.txt: Amy +4, Bob -4; money Amy +30, Bob -30 "
            "(Bob pays Amy 30, not 40 (cap 30: Amy at +30))",
            "Bob pays Amy 30, not 40 (cap 30: Amy at +30)",
            id="cap",
        ),
        pytest.param(
            {},
            "@stake 10\n@pair-stake Amy:Bob=50\n",
            [f"Amy={AMY}", f"Bob={BOB}", f"Cy={CY}"],
            # Amy: 2 x 50 from Bob + 4 x 10 from Cy; Bob: -2 x 50 + 2 x 10 from Cy.
            "added deal 1 (line 4, 43bfbafd) to night.txt: Amy +6, Bob 0, Cy -6; money Amy +140, Bob -80, Cy -60",
            "",
            id="pair-stake",
        ),
        pytest.param(
            {"stakes.toml": 'preset = "pineapple-ru"\ntable_stakes = 20\n'},
            f"@rules stakes.toml\n\nAmy: {AMY}\nBob: {BOB}\n",  # Bob's stack is 9 after it
            [f"Amy={AMY}", f"Bob={CY}"],
            "added deal 2 (line 6, 43502e19) to night.txt: Amy +18, Bob -18; money Amy +9, Bob -9 "
            "(Amy deals; Amy FL leaves; Bob pays Amy 9, not 18 (Bob's stack 9))",
            "Bob pays Amy 9, not 18 (Bob's stack 9)",
            id="stack",
        ),
        pytest.param(
            {},
            f"@rules pusoy\n\nAmy: {PUSOY_B}\nBob: {PUSOY_C}\nCy: {PUSOY_A}\n",  # Amy banks deal 1, Bob deal 2
            [f"Amy={PUSOY_A}", f"Bob={PUSOY_B}", f"Cy={PUSOY_C}"],
            "added deal 2 (line 7, 2ab3fd28) to night.txt: Amy +6, Bob 0, Cy -6 (Bob banks)",
            "Bob banks",
            id="bank",
        ),
    ],
)
def test_add_reports_the_deal_as_the_session_settles_it(tmp_path, monkeypatch, files, text, hands, added, note):
    """The night's stake, pair stakes, cap, stacks and bank: what add prints for
    the deal is what session prints for it (issue 18: add settled at stake 1)."""
    monkeypatch.chdir(tmp_path)
    for name, content in files.items():
        (tmp_path / name).write_text(content)
    (tmp_path / "night.txt").write_text(text)
    result = run("add", "night.txt", *hands)
    assert (result.exit_code, result.stderr) == (0, ""), result.output
    assert result.stdout == added + "\n"
    number = text.count("Amy: ") + 1
    deal, units, money, notes = session_says("night.txt", number)
    assert note in notes
    shown = f"; money {money}" if units != money else ""
    assert result.stdout == f"added {deal} to night.txt: {units}{shown}{f' ({notes})' if notes else ''}\n"


# The same hands twice (issue 18) ---------------------------------------------------------------

AMY_MOVED = "Kd 4c Ks / 5s 2c 9h 9c 5d / 7d Ah Ad Ac 7s"  # AMY, each row's cards in another order


@pytest.mark.parametrize(
    ("hands", "stdin"),
    [
        pytest.param([f"Amy={AMY}", f"Bob={BOB}"], None, id="the-same-lines"),
        pytest.param([f"Amy={AMY_MOVED}", f"Bob={BOB}"], None, id="cards-in-another-order"),
        pytest.param([f"Bob={BOB}", f"Amy={AMY}"], None, id="lines-in-another-order"),
        pytest.param([f"Bob={'  '.join(BOB.split())}", f"Amy={AMY_MOVED}"], None, id="both-and-spaces"),
        pytest.param([], f"Bob: {BOB}  # again\nAmy: {AMY_MOVED}\n", id="stdin"),
    ],
)
def test_a_deal_with_the_hands_of_an_earlier_one_is_refused_unless_again(tmp_path, hands, stdin):
    path = tmp_path / "night.txt"
    path.write_text(f"Amy: {AMY}\nBob: {BOB}\n\nAmy: {BOB}\nBob: {AMY}\n")  # deal 1 is 2d217172
    before = path.read_bytes()
    result = run("add", str(path), *hands, input=stdin)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"Error: deal 1 (2d217172) of {path} has the same hands: this deal is in the file already; "
        "if it really was dealt twice, add it again with --again\n"
    )
    assert path.read_bytes() == before
    again = run("add", str(path), *hands, "--again", input=stdin)
    assert (again.exit_code, again.stderr) == (0, ""), again.output
    assert again.stdout.startswith("added deal 3 (line 7, ")
    assert deals_in(path) == 1  # Amy: +2, -2, +2


@pytest.mark.parametrize(
    "hands",
    [
        pytest.param([f"Amy={BOB}", f"Bob={AMY}"], id="hands-swapped"),
        pytest.param(["Amy=9h 9c 5d / Ks Kd 4c 5s 2c / Ah Ad Ac 7s 7d", f"Bob={BOB}"], id="a-card-in-another-row"),
        pytest.param([f"Amy={AMY}", f"Bob={BOB}", "--surrender", "Bob"], id="a-marker"),
        pytest.param([f"Amy={AMY}", f"Cy={BOB}", "--new-player", "Cy"], id="another-player"),
    ],
)
def test_a_deal_that_only_looks_like_an_earlier_one_is_added(tmp_path, hands):
    path = tmp_path / "night.txt"
    path.write_text(f"Amy: {AMY}\nBob: {BOB}\n")
    result = run("add", str(path), *hands)
    assert (result.exit_code, result.stderr) == (0, ""), result.output
    assert result.stdout.startswith("added deal 2 (line 4, ")
