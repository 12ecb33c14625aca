"""cpscore.safefile.rewrite: locking with real processes, and every file it must refuse.

No assertion here is timed: timeouts are only safety nets, so that a
regression that blocks fails the test instead of hanging it.
"""

import contextlib
import errno
import os
import signal
import stat
import subprocess
import sys
import textwrap
import time

import pytest

from cpscore import safefile
from cpscore.errors import CpscoreError, EnvironmentFailure, FileRefused
from cpscore.safefile import rewrite

SAFETY = 60  # seconds: only ever reached by a hang
ROOT = os.geteuid() == 0


def append(text):
    """A change function that appends ``text`` to the current bytes."""
    return lambda current: (current or b"") + text.encode()


def leftovers(folder):
    return sorted(name for name in os.listdir(folder) if name.endswith(".tmp"))


def spawn(script, *args):
    return subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(script), *map(str, args)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def wait_for(path, process):
    """Poll until ``path`` exists (the safety timeout only catches a hang)."""
    deadline = time.monotonic() + SAFETY
    while not os.path.exists(path):
        if process.poll() is not None:
            pytest.fail(f"the subprocess ended early: {process.communicate()}")
        if time.monotonic() > deadline:
            process.kill()
            pytest.fail(f"{path} never appeared")
        time.sleep(0.01)


@contextlib.contextmanager
def hang_fails(seconds=SAFETY):
    """In this process, turn a blocking call (opening a FIFO) into a failure."""

    def hung(signum, frame):
        pytest.fail("rewrite blocked")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def finish(process):
    try:
        out, err = process.communicate(timeout=SAFETY)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        pytest.fail("the subprocess hung")
    assert process.returncode == 0, err
    return out


# ---------------------------------------------------------------- concurrency

WORKER = """
import os, sys, time
from cpscore.safefile import rewrite

path, go, ready, worker, count = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
open(ready, "w").close()
deadline = time.monotonic() + 60
while not os.path.exists(go):
    if time.monotonic() > deadline:
        sys.exit("no go")
    time.sleep(0.001)
for i in range(count):
    line = f"{worker} {i}\\n".encode()
    rewrite(path, lambda current: (current or b"") + line)
"""


def test_concurrent_writers_lose_nothing(tmp_path):
    workers, count = 12, 25
    path, go = tmp_path / "night.txt", tmp_path / "go"
    processes = [spawn(WORKER, path, go, tmp_path / f"ready{w}", w, count) for w in range(workers)]
    try:
        for w, process in enumerate(processes):
            wait_for(tmp_path / f"ready{w}", process)
        go.touch()  # all start together
        for process in processes:
            finish(process)
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
                process.wait()
    lines = path.read_text().splitlines()
    assert len(lines) == workers * count
    assert sorted(lines) == sorted(f"{w} {i}" for w in range(workers) for i in range(count))
    for w in range(workers):  # each worker's own lines in its order
        assert [line for line in lines if line.split()[0] == str(w)] == [f"{w} {i}" for i in range(count)]
    assert leftovers(tmp_path) == []


HOLDER = """
import sys, time
from cpscore.safefile import rewrite

path, marker = sys.argv[1], sys.argv[2]

def change(current):
    open(marker, "w").close()
    time.sleep(600)
    return b"never written\\n"

rewrite(path, change)
"""


def test_killed_writer_does_not_block_the_next(tmp_path):
    path, marker = tmp_path / "night.txt", tmp_path / "marker"
    path.write_bytes(b"first\n")
    holder = spawn(HOLDER, path, marker)
    try:
        wait_for(marker, holder)  # it is inside change(), holding the lock
        with pytest.raises(EnvironmentFailure, match="another cpscore add holds the lock on .*night.txt for over 0 s"):
            rewrite(str(path), append("blocked\n"), lock_timeout=0)
        assert path.read_bytes() == b"first\n"
        holder.send_signal(signal.SIGKILL)
        holder.communicate(timeout=SAFETY)
    finally:
        if holder.poll() is None:
            holder.kill()
            holder.wait()
    assert holder.returncode == -signal.SIGKILL
    rewrite(str(path), append("second\n"), lock_timeout=SAFETY)
    assert path.read_bytes() == b"first\nsecond\n"
    assert leftovers(tmp_path) == []


def test_lock_timeout_while_held(tmp_path):
    import fcntl

    path = tmp_path / "night.txt"
    path.write_bytes(b"x\n")
    with open(tmp_path / ".night.txt.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another open file: conflicts even in this process
        with pytest.raises(EnvironmentFailure) as raised:
            rewrite(str(path), append("y\n"), lock_timeout=0.05)
    message = str(raised.value)
    assert "another cpscore add holds the lock" in message and "unchanged" in message and "\n" not in message
    assert path.read_bytes() == b"x\n"
    rewrite(str(path), append("y\n"), lock_timeout=SAFETY)  # released
    assert path.read_bytes() == b"x\ny\n"


def test_leftover_temporary_files_are_removed(tmp_path):
    path = tmp_path / "night.txt"
    path.write_bytes(b"x\n")
    for name in [".night.txt.abc123.tmp", ".night.txt.k2_9zq0p.tmp"]:
        (tmp_path / name).write_bytes(b"half a deal")
    kept = [
        ".night.txt.tmp",  # no random part
        ".night.txt.ab.tmp",  # too short to be mkstemp's
        ".night.txt.old.abc123.tmp",  # a dot: another file's name
        ".night.abc123.tmp",  # the temporary file of "night", not "night.txt"
        ".night.txt.ABC123.tmp",  # not mkstemp's characters
        "night.txt.abc123.tmp",  # not hidden
        ".night.txt.abc123.tmp.bak",
    ]
    for name in kept:
        (tmp_path / name).write_bytes(b"keep")
    os.mkdir(tmp_path / ".night.txt.zzz999.tmp")  # not a regular file: kept
    rewrite(str(path), append("y\n"))
    assert path.read_bytes() == b"x\ny\n"
    assert sorted(os.listdir(tmp_path)) == sorted([*kept, "night.txt", ".night.txt.lock", ".night.txt.zzz999.tmp"])


def test_normal_rewrite_leaves_only_the_file_and_its_lock(tmp_path):
    path = tmp_path / "night.txt"
    rewrite(str(path), append("a\n"))
    rewrite(str(path), append("b\n"))
    assert path.read_bytes() == b"a\nb\n"
    assert sorted(os.listdir(tmp_path)) == [".night.txt.lock", "night.txt"]
    lock = os.stat(tmp_path / ".night.txt.lock")
    assert stat.S_ISREG(lock.st_mode) and lock.st_mode & 0o077 == 0


def test_no_descriptor_leaks(tmp_path):
    if not os.path.isdir("/proc/self/fd"):
        pytest.skip("needs /proc/self/fd")
    path, fifo = tmp_path / "night.txt", tmp_path / "pipe"
    os.mkfifo(fifo)
    before = sorted(os.listdir("/proc/self/fd"))
    for _ in range(5):
        rewrite(str(path), append("a\n"))
        with hang_fails(), pytest.raises(FileRefused):
            rewrite(str(fifo), append("a\n"))
        with pytest.raises(ZeroDivisionError):
            rewrite(str(path), lambda current: 1 / 0)
    assert sorted(os.listdir("/proc/self/fd")) == before


# ---------------------------------------------------------------- what is kept


def test_symlink_is_kept_and_its_target_rewritten(tmp_path):
    (tmp_path / "data").mkdir()
    (tmp_path / "links").mkdir()
    real, link = tmp_path / "data" / "night.txt", tmp_path / "links" / "tonight.txt"
    real.write_bytes(b"x\n")
    link.symlink_to(os.path.join("..", "data", "night.txt"))
    rewrite(str(link), append("y\n"))
    assert link.is_symlink() and os.readlink(link) == os.path.join("..", "data", "night.txt")
    assert real.read_bytes() == b"x\ny\n"
    assert (tmp_path / "data" / ".night.txt.lock").exists()  # the lock is the target's
    assert sorted(os.listdir(tmp_path / "links")) == ["tonight.txt"]


def test_symlink_chain(tmp_path):
    real = tmp_path / "night.txt"
    real.write_bytes(b"x\n")
    (tmp_path / "one").symlink_to("night.txt")
    (tmp_path / "two").symlink_to("one")
    rewrite(str(tmp_path / "two"), append("y\n"))
    assert (tmp_path / "two").is_symlink() and (tmp_path / "one").is_symlink()
    assert real.read_bytes() == b"x\ny\n"


@pytest.mark.parametrize("mode", [0o640, 0o600, 0o644, 0o755, 0o4750])
def test_mode_is_kept(tmp_path, mode):
    path = tmp_path / "night.txt"
    path.write_bytes(b"x\n")
    os.chmod(path, mode)
    rewrite(str(path), append("y\n"))
    assert path.read_bytes() == b"x\ny\n"
    assert stat.S_IMODE(os.stat(path).st_mode) == mode


@pytest.mark.skipif(not ROOT, reason="changing a file's owner needs root")
def test_owner_is_kept(tmp_path):
    path = tmp_path / "night.txt"
    path.write_bytes(b"x\n")
    os.chown(path, 65534, 65534)
    os.chmod(path, 0o640)
    rewrite(str(path), append("y\n"))
    found = os.stat(path)
    assert (found.st_uid, found.st_gid, stat.S_IMODE(found.st_mode)) == (65534, 65534, 0o640)
    assert path.read_bytes() == b"x\ny\n"


@pytest.mark.skipif(not ROOT, reason="making a file another user's needs root")
def test_owner_that_cannot_be_kept_is_refused(tmp_path, monkeypatch):
    path = tmp_path / "night.txt"
    path.write_bytes(b"x\n")
    os.chown(path, 65534, 65534)

    def refuse(*args):
        raise PermissionError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(os, "fchown", refuse)
    with pytest.raises(FileRefused, match=r"could not keep its owner \(65534:65534\).*unchanged"):
        rewrite(str(path), append("y\n"))
    assert path.read_bytes() == b"x\n" and os.stat(path).st_uid == 65534
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("umask", [0o022, 0o077, 0o002, 0o027])
def test_new_file_gets_the_usual_mode(tmp_path, umask):
    path = tmp_path / "night.txt"
    seen = []

    def change(current):
        seen.append(current)
        return b"first deal\n"

    old = os.umask(umask)
    try:
        rewrite(str(path), change)
    finally:
        os.umask(old)
    assert seen == [None]
    assert path.read_bytes() == b"first deal\n"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o666 & ~umask
    assert leftovers(tmp_path) == []


def test_empty_file_is_bytes_not_none(tmp_path):
    path = tmp_path / "night.txt"
    path.touch()
    seen = []
    rewrite(str(path), lambda current: seen.append(current) or b"a\n")
    assert seen == [b""] and path.read_bytes() == b"a\n"


# ---------------------------------------------------------------- refusals


def test_fifo_is_refused_at_once(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    process = spawn(
        """
        import sys
        from cpscore.errors import FileRefused
        from cpscore.safefile import rewrite
        try:
            rewrite(sys.argv[1], lambda current: b"x")
        except FileRefused as error:
            print(error)
        else:
            sys.exit("not refused")
        """,
        fifo,
    )
    message = finish(process).strip()  # a regression that opens the FIFO hangs: the safety timeout fails it
    assert message.startswith(f"{fifo}: not a regular file (a FIFO)")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert leftovers(tmp_path) == []


@pytest.mark.skipif(not ROOT, reason="creating a device node needs root")
def test_device_is_refused(tmp_path):
    device = tmp_path / "dev"  # a private node inside tmp_path, never a real /dev path
    os.mknod(device, stat.S_IFCHR | 0o600, os.makedev(1, 3))
    with pytest.raises(FileRefused, match="not a regular file \\(a character device\\)"):
        rewrite(str(device), lambda current: b"x")
    found = os.lstat(device)
    assert stat.S_ISCHR(found.st_mode) and found.st_rdev == os.makedev(1, 3)


def test_socket_is_refused(tmp_path):
    import socket

    where = tmp_path / "sock"
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(where))
        with pytest.raises(FileRefused, match="\\(a socket\\)"):
            rewrite(str(where), lambda current: b"x")
    finally:
        server.close()
    assert stat.S_ISSOCK(os.lstat(where).st_mode)


def test_directory_is_refused(tmp_path):
    folder = tmp_path / "night.txt"
    folder.mkdir()
    with pytest.raises(FileRefused, match="not a regular file \\(a folder\\)"):
        rewrite(str(folder), lambda current: b"x")
    assert folder.is_dir() and os.listdir(folder) == []


def test_dangling_symlink_is_refused(tmp_path):
    link = tmp_path / "night.txt"
    link.symlink_to("missing.txt")
    with pytest.raises(FileRefused, match="symbolic link to .*missing.txt, which does not exist.*unchanged"):
        rewrite(str(link), lambda current: b"x")
    assert link.is_symlink() and os.readlink(link) == "missing.txt"
    assert not (tmp_path / "missing.txt").exists()


def test_symlink_loop_is_refused(tmp_path):
    (tmp_path / "a").symlink_to("b")
    (tmp_path / "b").symlink_to("a")
    with pytest.raises(FileRefused, match="not a regular file"):
        rewrite(str(tmp_path / "a"), lambda current: b"x")
    assert (tmp_path / "a").is_symlink() and (tmp_path / "b").is_symlink()


def test_hard_link_is_refused(tmp_path):
    one, two = tmp_path / "night.txt", tmp_path / "copy.txt"
    one.write_bytes(b"x\n")
    os.link(one, two)
    with pytest.raises(FileRefused, match="2 hard links.*unchanged.*copy it to a file of its own"):
        rewrite(str(one), append("y\n"))
    assert one.read_bytes() == two.read_bytes() == b"x\n"
    assert os.stat(one).st_ino == os.stat(two).st_ino and os.stat(one).st_nlink == 2


def test_read_only_file_is_refused(tmp_path):
    path = tmp_path / "night.txt"
    path.write_bytes(b"x\n")
    os.chmod(path, 0o444)
    with pytest.raises(EnvironmentFailure, match="is read-only; the file is unchanged; make it writable"):
        rewrite(str(path), append("y\n"))  # as root too
    assert path.read_bytes() == b"x\n"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o444
    assert leftovers(tmp_path) == []


def test_unwritable_folder_is_refused(tmp_path, monkeypatch):
    path = tmp_path / "night.txt"
    path.write_bytes(b"x\n")
    real_access = os.access
    monkeypatch.setattr(
        os, "access", lambda where, *args, **kw: where != str(tmp_path) and real_access(where, *args, **kw)
    )
    with pytest.raises(EnvironmentFailure, match="cannot write in the folder .*unchanged"):
        rewrite(str(path), append("y\n"))
    assert path.read_bytes() == b"x\n"


@pytest.mark.skipif(ROOT, reason="root may write in any folder")
def test_really_unwritable_folder_is_refused(tmp_path):
    folder = tmp_path / "locked"
    folder.mkdir()
    path = folder / "night.txt"
    path.write_bytes(b"x\n")
    os.chmod(folder, 0o555)
    try:
        with pytest.raises(
            EnvironmentFailure, match="cannot write in the folder .*unchanged; make the folder writable"
        ):
            rewrite(str(path), append("y\n"))
    finally:
        os.chmod(folder, 0o755)
    assert path.read_bytes() == b"x\n"
    assert sorted(os.listdir(folder)) == ["night.txt"]


def test_missing_folder_is_refused(tmp_path):
    path = tmp_path / "nowhere" / "night.txt"
    with pytest.raises(FileRefused, match="does not exist; create it first"):
        rewrite(str(path), lambda current: b"x")
    assert not (tmp_path / "nowhere").exists()


def test_refusals_are_input_errors_and_failures_are_not():
    assert issubclass(FileRefused, CpscoreError)
    assert not issubclass(EnvironmentFailure, CpscoreError)


# ---------------------------------------------------------------- changes between the check and the lock


def create(path):
    path.write_bytes(b"made meanwhile\n")


def fifo(path):
    os.mkfifo(path)


def hard_link(path):
    os.link(path, path.with_name("other.txt"))


def read_only(path):
    os.chmod(path, 0o444)


@pytest.mark.parametrize(
    "exists, meanwhile, expected",
    [
        (False, create, b"made meanwhile\nmine\n"),
        (True, os.unlink, b"mine\n"),
        (False, fifo, FileRefused),
        (True, hard_link, FileRefused),
        (True, read_only, EnvironmentFailure),
    ],
)
def test_target_is_checked_again_under_the_lock(tmp_path, monkeypatch, exists, meanwhile, expected):
    path = tmp_path / "night.txt"
    if exists:
        path.write_bytes(b"before\n")
    real_lock = safefile._lock

    def lock_later(*args):
        meanwhile(path)  # after the first checks, before the lock
        return real_lock(*args)

    monkeypatch.setattr(safefile, "_lock", lock_later)
    if isinstance(expected, bytes):
        rewrite(str(path), append("mine\n"))
        assert path.read_bytes() == expected
    else:
        with hang_fails(), pytest.raises(expected):  # a FIFO opened for reading would block
            rewrite(str(path), append("mine\n"))
        if stat.S_ISREG(os.lstat(path).st_mode):
            assert path.read_bytes() == b"before\n"
    assert leftovers(tmp_path) == []


# ---------------------------------------------------------------- failures


@pytest.mark.parametrize("error", [ValueError("bad deal"), OSError(errno.ENOSPC, "from change"), KeyboardInterrupt()])
@pytest.mark.parametrize("exists", [True, False])
def test_change_raising_writes_nothing(tmp_path, error, exists):
    path = tmp_path / "night.txt"
    if exists:
        path.write_bytes(b"x\n")

    def change(current):
        raise error

    with pytest.raises(type(error)) as raised:
        rewrite(str(path), change)
    assert raised.value is error  # propagated unchanged, not wrapped
    assert path.read_bytes() == b"x\n" if exists else not path.exists()
    assert leftovers(tmp_path) == []


def test_change_must_return_bytes(tmp_path):
    path = tmp_path / "night.txt"
    path.write_bytes(b"x\n")
    with pytest.raises(TypeError, match="must return bytes"):
        rewrite(str(path), lambda current: "text")
    assert path.read_bytes() == b"x\n"


def fail_with(error):
    def fail(*args, **kwargs):
        raise error

    return fail


@pytest.mark.parametrize("function", ["fsync", "replace", "write", "fchmod"])
@pytest.mark.parametrize(
    "error, raised",
    [
        (OSError(errno.ENOSPC, os.strerror(errno.ENOSPC)), EnvironmentFailure),
        (OSError(errno.EIO, os.strerror(errno.EIO)), EnvironmentFailure),
        (KeyboardInterrupt(), KeyboardInterrupt),
    ],
)
def test_failing_write_leaves_the_file_unchanged(tmp_path, monkeypatch, function, error, raised):
    path = tmp_path / "night.txt"
    path.write_bytes(b"x\n")
    os.chmod(path, 0o640)
    monkeypatch.setattr(os, function, fail_with(error))
    with pytest.raises(raised) as caught:
        rewrite(str(path), append("y\n"))
    monkeypatch.undo()
    if raised is EnvironmentFailure:
        message = str(caught.value)
        assert message == f"could not write {path}: {error.strerror}; the file is unchanged"
    assert path.read_bytes() == b"x\n"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o640
    assert leftovers(tmp_path) == []


def test_without_fcntl(tmp_path, monkeypatch):
    path = tmp_path / "night.txt"
    path.write_bytes(b"x\n")
    monkeypatch.setitem(sys.modules, "fcntl", None)  # import fcntl now raises ImportError
    with pytest.raises(EnvironmentFailure, match="safe appends need a POSIX system.*unchanged"):
        rewrite(str(path), append("y\n"))
    assert path.read_bytes() == b"x\n"


def test_import_is_cheap():
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, cpscore.safefile; print(*(m in sys.modules for m in ('tempfile', 'fcntl')))",
        ],
        capture_output=True,
        text=True,
        timeout=SAFETY,
        check=True,
    ).stdout
    assert out.split() == ["False", "False"]
