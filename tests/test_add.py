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
    """12 processes each add 4 deals at once: all 48 are in the file."""
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
        subprocess.Popen([sys.executable, "-c", script, str(go), str(path), *HANDS], stdout=subprocess.DEVNULL)
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
    for _ in range(2):
        assert run("add", str(link), *HANDS).exit_code == 0
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_text().count("Amy: ") == 2


def test_mode_and_owner_are_kept(tmp_path):
    path = tmp_path / "night.txt"
    path.write_text(f"Amy: {AMY}\nBob: {BOB}\n")
    path.chmod(0o640)
    if os.geteuid() == 0:
        os.chown(path, 65534, 65534)
    assert run("add", str(path), *HANDS).exit_code == 0
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
    assert run("add", str(path), *HANDS).exit_code == 0
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
    assert result.stdout == (f"added deal 2 (line 6) to {night}: Amy +35, Bob -35 (Amy FL stays (13); Bob FOUL)\n")
