"""``cpscore serve`` from the server's side: a real server process on a free
port, its JSON answers, concurrent saves, the token, bad requests, a phone
gone mid-request, Ctrl-C and a kill."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading

import pytest
from serving import AMY, BOB, BOB_FOULS, CY, DEAL, Served, cpscore, deal_count

SEATS = ("--players", "Amy Bob Cy")


@pytest.fixture
def served(tmp_path):
    server = Served(tmp_path / "night.txt", "--rules", "ofc", "--stake", "10", *SEATS)
    yield server
    server.stop()


@pytest.fixture(scope="module")
def refusing(tmp_path_factory):
    """One server for the requests it refuses (none of them writes): started once."""
    server = Served(tmp_path_factory.mktemp("refusing") / "night.txt", "--rules", "ofc", "--stake", "10", *SEATS)
    yield server
    server.stop()


def test_a_new_session_gets_its_header_and_the_state_says_it(served, tmp_path):
    assert (tmp_path / "night.txt").read_text() == "@rules ofc\n@stake 10\n@players Amy Bob Cy\n"
    assert "Serving new session" in served.printed[0] and served.url.startswith("http://127.0.0.1:")
    assert served.token is None  # on the loopback address: no token
    status, state = served.request("GET", "api/state")
    assert status == 200
    table = state["table"]
    assert table["rules"]["id"] == "ofc" and table["stake"] == 10 and table["seats"] == ["Amy", "Bob", "Cy"]
    assert table["next"] == 1 and table["money"] is True
    assert state["session"] == {
        "format_version": 1,
        "rules": "ofc",
        "stake": 10,
        "deals": [],
        "totals": [],
        "transfers": [],
        "versus": [],
    }


def test_the_state_is_the_json_cpscore_session_prints(served):
    assert served.request("POST", "api/save", {"hands": DEAL})[0] == 200
    _, state = served.request("GET", "api/state")
    printed = json.loads(cpscore("session", served.path, "--format", "json").stdout)
    assert state["session"] == printed
    assert state["table"]["next"] == 2
    assert state["table"]["fantasyland"] == ["Amy"]  # Amy's kings up front: Fantasyland next deal


def test_check_reports_a_foul_before_the_save_and_a_card_dealt_twice_beside_its_hand(served):
    status, answer = served.request("POST", "api/check", {"hands": {"Amy": AMY, "Bob": BOB_FOULS, "Cy": CY}})
    assert status == 200
    assert answer["seats"]["Bob"]["warning"].startswith("Bob fouls: front pair of queens")
    assert answer["error"] is None and answer["deal"]["deal"] == 1
    assert [player["foul"] for player in answer["deal"]["players"]] == [False, True, False]
    _, twice = served.request("POST", "api/check", {"hands": {"Amy": AMY, "Bob": AMY, "Cy": CY}})
    assert twice["field"] == "Bob" and twice["deal"] is None
    assert twice["seats"]["Bob"]["error"].startswith("Ks is dealt twice: in Amy's front and in Bob's front")
    _, short = served.request("POST", "api/check", {"hands": {"Amy": AMY}})
    assert short["field"] == "Bob" and short["seats"]["Bob"] == {"empty": True}
    assert deal_count(served.path) == 0  # checks write nothing


def test_a_hand_is_checked_as_play_checks_it(served):
    from cpscore.errors import CpscoreError
    from cpscore.play import Round
    from cpscore.rules import get_rules

    bad = "Ks Kd 4c / 9h 9c 5d 5s / Ah Ad Ac 7s 7d 2c"
    _, answer = served.request("POST", "api/check", {"hands": {"Amy": bad, "Bob": BOB, "Cy": CY}})
    with pytest.raises(CpscoreError) as raised:
        Round(["Amy", "Bob", "Cy"], get_rules("ofc")).check("Amy", bad)
    assert answer["seats"]["Amy"]["error"] == str(raised.value)


def test_save_appends_as_add_does_and_the_file_reads_back(served, tmp_path):
    status, saved = served.request("POST", "api/save", {"hands": DEAL})
    assert (status, saved["saved"], saved["line"]) == (200, 1, 5)
    printed = json.loads(cpscore("session", served.path, "--format", "json").stdout)
    assert saved["digest"] == printed["deals"][0]["digest"] and re.fullmatch("[0-9a-f]{8}", saved["digest"])
    # The same deal added by cpscore add to a copy of the header makes the same file.
    copy = tmp_path / "copy.txt"
    copy.write_text("@rules ofc\n@stake 10\n@players Amy Bob Cy\n")
    cpscore("add", str(copy), AMY, BOB, CY)
    assert (tmp_path / "night.txt").read_text() == copy.read_text()


def test_a_second_tap_on_save_does_not_save_the_deal_twice(served):
    status, saved = served.request("POST", "api/save", {"hands": DEAL})
    assert status == 200
    status, again = served.request("POST", "api/save", {"hands": DEAL})  # no key: the hands say it
    assert status == 409 and again["repeat"] == {"deal": 1, "digest": saved["digest"]}
    assert again["field"] == "again"
    assert again["error"].startswith(f"deal 1 ({saved['digest']}) of night.txt has the same hands")
    assert deal_count(served.path) == 1


@pytest.mark.slow  # a real process killed, raced or on a terminal: CI runs it (-m slow)
def test_concurrent_saves_from_several_phones_and_an_add_lose_nothing(served):
    phones, each = 6, 4
    answers: list[int] = []

    def phone() -> None:
        for _ in range(each):
            answers.append(served.request("POST", "api/save", {"hands": DEAL, "again": True})[0])

    threads = [threading.Thread(target=phone) for _ in range(phones)]
    adding = subprocess.Popen([sys.executable, "-m", "cpscore", "add", "--again", served.path, AMY, BOB, CY])
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert adding.wait(timeout=60) == 0
    assert answers == [200] * (phones * each)
    assert deal_count(served.path) == phones * each + 1
    _, state = served.request("GET", "api/state")
    assert len(state["session"]["deals"]) == phones * each + 1


def test_undo_removes_the_last_deal_and_only_the_one_expected(served):
    digests = []
    for again in (False, True):  # the same hands twice: the same digest, told apart by the number
        status, saved = served.request("POST", "api/save", {"hands": DEAL, "again": again})
        assert status == 200
        digests.append(saved["digest"])
    digest = digests[1]
    assert digests[0] == digest
    status, wrong = served.request("POST", "api/undo", {"expect": 1, "digest": digest})
    assert status == 400 and wrong["error"].startswith("the last deal is deal 2, not 1")
    status, other = served.request("POST", "api/undo", {"expect": 2, "digest": "0badcafe"})
    assert status == 400
    assert other["error"].startswith(f"deal 2 of night.txt is {digest}, not '0badcafe': the session changed")
    status, unnamed = served.request("POST", "api/undo", {"expect": 2})
    assert (status, unnamed["field"]) == (400, "digest")
    assert deal_count(served.path) == 2
    status, undone = served.request("POST", "api/undo", {"expect": 2, "digest": digest})
    assert (status, undone["removed"], undone["digest"]) == (200, 2, digest)
    assert undone["report"][0] == f"removed deal 2 (line 9, {digest}) from night.txt:"  # never the server's folder
    assert deal_count(served.path) == 1
    assert served.request("POST", "api/undo", {"digest": digest})[0] == 200
    status, none = served.request("POST", "api/undo", {"digest": digest})
    assert status == 400 and "no deal" in none["error"]


def test_explain_is_the_explanation_of_explain_pair(served):
    served.request("POST", "api/save", {"hands": DEAL})
    status, answer = served.request("GET", "api/explain?deal=1&a=Amy&b=Bob")
    assert status == 200 and answer["text"].startswith("Amy against Bob (ofc):")
    printed = cpscore("session", served.path, "--explain-pair", "Amy:Bob").stdout
    assert all(line.strip() in printed for line in answer["text"].splitlines())
    status, unknown = served.request("GET", "api/explain?deal=1&a=Amy&b=Dan")
    assert status == 400 and unknown["field"] == "pair" and "Dan" in unknown["error"]
    status, missing = served.request("GET", "api/explain?deal=7&a=Amy&b=Bob")
    assert (status, missing["field"]) == (400, "deal") and missing["error"] == "deal 7: night.txt has 1 deals"


def test_a_newcomer_at_the_table_is_seated_in_the_file(served, tmp_path):
    # No deal yet: the header's @players line is rewritten, as add --players rewrites it.
    status, saved = served.request("POST", "api/save", {"players": "Amy Bob Cy Dan", "hands": {**DEAL, "Dan": "-"}})
    assert status == 200, saved
    assert (tmp_path / "night.txt").read_text().startswith("@rules ofc\n@stake 10\n@players Amy Bob Cy Dan\n\n")
    # A deal in the file: a newcomer's seats are a @players line before the deal.
    status, saved = served.request(
        "POST", "api/save", {"players": "Amy Bob Cy Eve", "hands": {**DEAL, "Eve": "-"}, "again": True}
    )
    assert status == 200, saved
    assert "\n\n@players Amy Bob Cy Eve\n" in (tmp_path / "night.txt").read_text()
    _, state = served.request("GET", "api/state")
    assert state["table"]["seats"] == ["Amy", "Bob", "Cy", "Eve"]
    status, bad = served.request("POST", "api/check", {"players": "Amy amy", "hands": {}})
    assert status == 400 and bad["field"] == "players" and "amy" in bad["error"]


@pytest.mark.parametrize(
    ("headers", "body", "status", "error"),
    [
        ({"Content-Type": "text/plain"}, b"{}", 415, "send JSON"),
        ({}, b"{not json", 400, "the request is not JSON"),
        ({}, b"[1, 2]", 400, "a JSON object"),
        ({}, b'{"hands": ["Ks"]}', 400, "hands must map"),
        ({}, b'{"hands": {"Zed": "-"}}', 400, "Zed is not seated"),
        ({}, b'{"hands": {}, "terms": 1}', 400, "terms must be text"),
        ({}, b"{" + b" " * 70000 + b"}", 413, "over the limit of 65536"),
    ],
)
def test_bad_requests_get_one_line_errors(refusing, headers, body, status, error):
    served = refusing
    import urllib.error
    import urllib.request

    sent = {"Content-Type": "application/json", **headers}
    request = urllib.request.Request(served.base + "api/save", data=body, method="POST", headers=sent)
    with pytest.raises(urllib.error.HTTPError) as raised:
        urllib.request.urlopen(request, timeout=30)
    answer = json.loads(raised.value.read())
    assert raised.value.code == status and error in answer["error"] and "\n" not in answer["error"]
    assert deal_count(served.path) == 0


def test_unknown_paths_and_methods_are_json_errors(served):
    assert served.request("GET", "api/nothing")[0] == 404
    assert served.request("GET", "api/save")[0] == 405
    assert served.request("GET", "static/../app.py")[0] == 404


def _raw(port: int, data: bytes, read: bool = True) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=30) as connection:
        connection.sendall(data)
        if not read:
            return b""
        connection.shutdown(socket.SHUT_WR)
        chunks = []
        while chunk := connection.recv(65536):
            chunks.append(chunk)
        return b"".join(chunks)


def test_a_huge_or_unmeasured_body_is_refused_before_it_is_read(served):
    head = "POST /api/save HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    answer = _raw(served.port, (head + "Content-Length: 1000000000\r\n\r\n{").encode())
    assert answer.startswith(b"HTTP/1.0 413") and b"over the limit of 65536" in answer
    answer = _raw(served.port, (head + "Transfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n").encode())
    assert answer.startswith(b"HTTP/1.0 411")
    assert deal_count(served.path) == 0


def test_a_host_other_than_the_loopback_address_is_refused(served):
    answer = _raw(served.port, b"GET /api/state HTTP/1.1\r\nHost: evil.example:80\r\nConnection: close\r\n\r\n")
    assert answer.startswith(b"HTTP/1.0 403") and b"answers on the loopback address" in answer
    assert served.request("GET", "api/state", headers={"Host": f"localhost:{served.port}"})[0] == 200


def test_a_phone_gone_mid_request_harms_nothing(served):
    # The body is announced but never comes, twice; then the connection is dropped at once.
    head = (
        b"POST /api/save HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n"
    )
    _raw(served.port, head + b'{"hands": {"Amy"', read=False)
    answer = _raw(served.port, head + b'{"hands"')
    assert b"cut short" in answer
    _raw(served.port, b"GET /api/sta", read=False)
    status, _ = served.request("POST", "api/save", {"hands": DEAL})
    assert status == 200 and deal_count(served.path) == 1
    code, out, err = served.stop()
    assert code == 0 and err == ""  # no traceback


@pytest.mark.slow  # a real process killed, raced or on a terminal: CI runs it (-m slow)
def test_ctrl_c_stops_the_server_cleanly(served):
    served.request("POST", "api/save", {"hands": DEAL})
    code, out, err = served.stop()
    assert code == 0 and err == ""
    assert out.strip() == f"Stopped: {served.path} is as the last save left it."
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", served.port), timeout=5).close()


@pytest.mark.slow  # a real process killed, raced or on a terminal: CI runs it (-m slow)
def test_a_killed_server_leaves_the_file_whole(tmp_path):
    server = Served(tmp_path / "night.txt", "--rules", "ofc", *SEATS)
    saved = []
    stop = threading.Event()

    def phone() -> None:
        while not stop.is_set():
            try:
                status, _ = server.request("POST", "api/save", {"hands": DEAL, "again": True})
            except OSError:  # the server is gone
                return
            if status == 200:
                saved.append(1)

    threads = [threading.Thread(target=phone) for _ in range(4)]
    for thread in threads:
        thread.start()
    while len(saved) < 12 and all(thread.is_alive() for thread in threads):  # saves are landing
        threads[0].join(0.01)
    assert len(saved) >= 12, "the saves stopped before the kill"
    server.process.send_signal(signal.SIGKILL)
    server.process.wait(timeout=30)
    stop.set()
    for thread in threads:
        thread.join()
    count = deal_count(tmp_path / "night.txt")  # reads whole: every deal complete
    assert len(saved) <= count <= len(saved) + len(threads)  # none acknowledged is lost
    # The next server (and the next add) carries on from it.
    again = Served(tmp_path / "night.txt")
    assert again.request("POST", "api/save", {"hands": DEAL, "again": True})[0] == 200
    again.stop()
    assert deal_count(tmp_path / "night.txt") == count + 1


# Shared on the network: the token ---------------------------------------------------


@pytest.fixture
def shared(tmp_path):
    server = Served(tmp_path / "night.txt", "--rules", "ofc", *SEATS, "--host", "0.0.0.0")
    yield server
    server.stop()


def test_shared_the_address_carries_a_token_and_requests_without_it_are_refused(shared):
    assert shared.token is not None and len(shared.token) >= 20
    assert any("token" in line for line in shared.printed)
    status, answer = shared.request("GET", "api/state")  # with the token (header)
    assert status == 200
    token, shared.token = shared.token, None
    status, refused = shared.request("GET", "api/state")
    assert status == 403 and refused["error"].startswith("this page needs its token")
    status, refused = shared.request("POST", "api/save", {"hands": DEAL})
    assert status == 403 and "needs its token" in refused["error"]
    assert shared.request("GET", "api/state", headers={"X-Cpscore-Token": token[:-1] + "x"})[0] == 403
    assert shared.request("GET", f"api/state?token={token}")[0] == 200
    assert shared.request("GET", "")[0] == 403  # the page itself too
    assert deal_count(shared.path) == 0


def test_shared_the_page_sets_the_token_cookie_for_its_script(shared):
    import urllib.request

    with urllib.request.urlopen(f"{shared.base}?token={shared.token}", timeout=30) as page:
        cookie = page.headers["Set-Cookie"]
        assert b"static/app.js" in page.read()
    assert f"cpscore_token={shared.token}" in cookie and "HttpOnly" in cookie
    token, shared.token = shared.token, None
    assert shared.request("GET", "api/state", headers={"Cookie": f"cpscore_token={token}"})[0] == 200


# The command line --------------------------------------------------------------------


def test_serve_refuses_bad_input_with_one_line(tmp_path):
    night = tmp_path / "night.txt"
    night.write_text("@rules ofc\n")
    done = cpscore("serve", str(night), "--rules", "2-4", check=False)
    assert done.returncode == 2 and done.stderr.startswith("Error: ") and done.stderr.count("\n") == 1
    assert "already exists" in done.stderr and night.read_text() == "@rules ofc\n"
    done = cpscore("serve", str(tmp_path / "new.txt"), "--rules", "nope", check=False)
    assert done.returncode == 2 and "'--rules'" in done.stderr and not (tmp_path / "new.txt").exists()
    broken = tmp_path / "broken.txt"
    broken.write_text("Amy: Ks Kd\nBob: Qs\n")
    done = cpscore("serve", str(broken), check=False)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    done = cpscore("serve", str(tmp_path / "no" / "night.txt"), check=False)
    assert done.returncode == 2 and "does not exist" in done.stderr


@pytest.mark.slow  # a real process killed, raced or on a terminal: CI runs it (-m slow)
def test_a_port_in_use_is_an_environment_failure(served, tmp_path):
    done = cpscore("serve", str(tmp_path / "other.txt"), "--port", str(served.port), check=False)
    assert done.returncode == 1 and done.stderr.startswith(f"Error: cannot listen on 127.0.0.1:{served.port}")


def test_the_cli_does_not_import_the_web_library():
    code = (
        "import sys; from cpscore.commands import main\n"
        "try: main(['score', 'examples/three-players.txt'], standalone_mode=False)\n"
        "finally: print(sorted(m for m in sys.modules if m.split('.')[0] in ('bottle', 'segno', 'wsgiref')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip().endswith("[]"), done.stdout


def test_the_page_ships_in_the_package():
    from importlib.resources import files

    static = files("cpscore.web") / "static"
    page = (static / "index.html").read_text()
    for name in ("app.js", "style.css"):
        assert f"static/{name}" in page and (static / name).read_text()
    assert "static/words.json" in (static / "app.js").read_text()
    for name in ("index.html", "app.js", "style.css", "words.json"):  # nothing loaded from elsewhere
        text = (static / name).read_text().replace('"http://www.w3.org/2000/svg"', "")  # a name, not an address
        assert "//" not in re.sub(r"(?m)^\s*//.*$|[^:]//\s.*$", "", text), name


def test_without_the_extra_serve_says_how_to_install_it(tmp_path):
    code = "import sys; sys.modules['bottle'] = None; from cpscore.commands import main; main(['serve', 'night.txt'])"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr == (
        "Error: cpscore serve needs the web library Bottle: pip install '.[serve]' in cpscore's folder "
        "(once cpscore is on PyPI: pip install 'cpscore[serve]')\n"
    )
    assert not (tmp_path / "night.txt").exists()


def test_a_natural_is_shown_before_the_save_and_a_waive_plays_the_rows(tmp_path):
    server = Served(tmp_path / "night.txt", "--players", "Amy Bob")  # the 2-4 rules, which have naturals
    six_pairs = "2s 2d 8c / 3s 3d 4s 4d 7s / 5s 5d 6s 6d 7d"
    bob = BOB.replace("3d", "3h")
    try:
        _, claimed = server.request("POST", "api/check", {"hands": {"Amy": six_pairs, "Bob": bob}})
        assert claimed["seats"]["Amy"]["natural"] == "six pairs (3)"
        assert claimed["seats"]["Amy"]["notes"][0].startswith(
            "Amy's hand makes a natural, six pairs (3), and claims it"
        )
        assert claimed["deal"]["players"][0]["natural"] == "six-pairs"
        _, waived = server.request("POST", "api/check", {"hands": {"Amy": six_pairs + "; waive", "Bob": bob}})
        assert waived["seats"]["Amy"]["natural"] is None and waived["deal"]["players"][0]["waived"] is True
        assert server.request("POST", "api/save", {"hands": {"Amy": six_pairs + "; waive", "Bob": bob}})[0] == 200
        assert f"Amy: {six_pairs} ; waive\n" in (tmp_path / "night.txt").read_text()  # as add writes it
    finally:
        server.stop()


@pytest.mark.slow  # a real process killed, raced or on a terminal: CI runs it (-m slow)
def test_on_a_terminal_shared_prints_a_qr_code_and_ctrl_c_stops(tmp_path):
    import os

    import pexpect

    env = {**os.environ, "TERM": "xterm", "PYTHONIOENCODING": "utf-8"}
    child = pexpect.spawn(
        sys.executable,
        [
            "-m",
            "cpscore",
            "serve",
            str(tmp_path / "night.txt"),
            "--players",
            "Amy Bob",
            "--host",
            "0.0.0.0",
            "--port",
            "0",
        ],
        env=env,
        encoding="utf-8",
        timeout=60,
        dimensions=(80, 200),
    )
    try:
        child.expect(r"token=([\w-]+)")
        child.expect("give it only to the table")
        child.expect("\u2588")  # the QR code's blocks
        child.expect("Ctrl-C stops the server")
        child.sendcontrol("c")  # a real Ctrl-C, from the terminal
        child.expect("Stopped: ")
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0
        assert "Traceback" not in (child.before or "")
    finally:
        child.close(force=True)


def test_money_is_exact_in_every_request_thread(tmp_path):
    stake = "0.000000000000000000000000000001"  # 30 digits after the point: beyond 28-digit arithmetic
    server = Served(tmp_path / "night.txt", "--players", "Amy Bob Cy", "--stake", "1234567." + stake[2:])
    try:
        for _ in range(3):  # a new thread each time
            assert server.request("POST", "api/save", {"hands": DEAL, "again": True})[0] == 200
        import urllib.request

        with urllib.request.urlopen(server.base + "api/state", timeout=30) as answer:
            text = answer.read().decode()
        printed = cpscore("session", server.path, "--totals", "--format", "json").stdout
        totals = json.loads(printed, parse_float=str)["totals"]
        assert totals == json.loads(text, parse_float=str)["session"]["totals"]
        assert "." in totals[0]["amount"] and len(totals[0]["amount"]) > 30  # exact, not a float's 17 digits
    finally:
        server.stop()


# Found by review: the server's side ------------------------------------------------------


def test_malformed_requests_are_400s_never_an_internal_error(refusing):
    head = "POST /api/check HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    answer = _raw(refusing.port, (head + "Content-Length: abc\r\n\r\n{}").encode())
    assert answer.startswith(b"HTTP/1.0 400") and b"Content-Length is not a number" in answer
    body = b"[" * 30000
    answer = _raw(refusing.port, (head + f"Content-Length: {len(body)}\r\n\r\n").encode() + body)
    assert answer.startswith(b"HTTP/1.0 400") and b"nested too deeply" in answer
    body = b'{"hands": {"\\ud800": "x"}}'  # a lone surrogate: no text can hold it
    answer = _raw(refusing.port, (head + f"Content-Length: {len(body)}\r\n\r\n").encode() + body)
    assert answer.startswith(b"HTTP/1.0 400") and b"not Unicode (a lone surrogate)" in answer
    status, answer = refusing.request("GET", "api/explain?deal=" + "9" * 5000 + "&a=x&b=y")
    assert (status, answer["field"]) == (400, "deal") and "is not a deal number" in answer["error"]


def test_explain_takes_names_written_in_any_script(tmp_path):
    server = Served(tmp_path / "night.txt", "--players", "Zoë Bob")
    try:
        assert server.request("POST", "api/save", {"hands": {"Zoë": AMY, "Bob": BOB}})[0] == 200
        status, answer = server.request("GET", "api/explain?deal=1&a=Zo%C3%AB&b=Bob")
        assert status == 200, answer
        assert answer["pair"] == ["Zoë", "Bob"] and "Zoë" in answer["text"]
    finally:
        server.stop()


def test_a_session_file_gone_while_served_is_not_a_new_night(served):
    assert served.request("POST", "api/save", {"hands": DEAL})[0] == 200
    os.remove(served.path)
    status, answer = served.request("GET", "api/state")
    assert status == 409 and answer["error"].startswith("night.txt is gone (deleted or renamed while served)")
    status, answer = served.request("POST", "api/save", {"hands": DEAL})
    assert status == 409 and not os.path.exists(served.path)


# Issue 18: a deal has an identity; no deal twice; what was shown is what is saved ----------


def _read(path: str) -> bytes:
    with open(path, "rb") as file:
        return file.read()


def test_a_save_retried_with_its_key_after_it_landed_is_answered_already_and_saves_nothing(served):
    # The phone's first save landed, its answer was lost on the way: the retry carries the draft's key.
    _, checked = served.request("POST", "api/check", {"hands": DEAL})
    body = {"hands": DEAL, "key": "3f9a0c1e5b7d2468ace0bd13579f2468", "terms": checked["terms"]}
    status, saved = served.request("POST", "api/save", body)
    assert (status, saved["saved"]) == (200, 1)
    before = _read(served.path)
    status, retried = served.request("POST", "api/save", body)
    assert status == 200
    assert retried == {"saved": 1, "digest": saved["digest"], "already": True, "warnings": []}
    assert _read(served.path) == before and deal_count(served.path) == 1
    # Another draft (another key) with other hands is saved as the next deal.
    other = {"hands": {"Amy": BOB, "Bob": AMY, "Cy": CY}, "key": "another-draft"}
    assert served.request("POST", "api/save", other)[1]["saved"] == 2


def test_a_retried_save_of_a_deal_dealt_twice_names_the_second_deal(served):
    # Deals 1 and 2 have the same hands (really dealt twice), and so the same lines and digest.
    assert served.request("POST", "api/save", {"hands": DEAL})[0] == 200
    body = {"hands": DEAL, "key": "k-dealt-twice", "again": True}
    status, saved = served.request("POST", "api/save", body)
    assert (status, saved["saved"]) == (200, 2)
    status, retried = served.request("POST", "api/save", body)
    assert (status, retried) == (200, {"saved": 2, "digest": saved["digest"], "already": True, "warnings": []})
    assert deal_count(served.path) == 2


def test_a_save_at_terms_the_file_no_longer_has_shows_the_deal_anew_and_writes_nothing(served):
    status, checked = served.request("POST", "api/check", {"hands": DEAL})
    assert status == 200 and checked["deal"]["deal"] == 1 and checked["deal"]["stake"] == 10
    assert re.fullmatch("[0-9a-f]{16}", checked["terms"])
    # Another writer, meanwhile: a deal at a new stake.
    cpscore("add", served.path, "--stake", "100", BOB, AMY, CY)
    before = _read(served.path)
    body = {"hands": DEAL, "key": "k-stale", "terms": checked["terms"]}
    status, stale = served.request("POST", "api/save", body)
    assert (status, stale["field"]) == (409, "deal")
    assert stale["error"] == (
        "night.txt changed since this deal was shown: it would now be deal 2, settled as shown again; nothing was saved"
    )
    assert stale["deal"]["deal"] == 2 and stale["deal"]["stake"] == 100 and stale["terms"] != checked["terms"]
    assert _read(served.path) == before and deal_count(served.path) == 1
    # What the page now shows is what a check says now; saved at those terms, it lands.
    _, now = served.request("POST", "api/check", {"hands": DEAL})
    assert (now["deal"], now["terms"]) == (stale["deal"], stale["terms"])
    status, saved = served.request("POST", "api/save", {**body, "terms": stale["terms"]})
    assert (status, saved["saved"]) == (200, 2)
    printed = json.loads(cpscore("session", served.path, "--format", "json").stdout)
    assert printed["deals"][1]["digest"] == saved["digest"] == stale["deal"]["digest"]
    assert printed["deals"][1]["stake"] == 100


def test_a_repeat_is_refused_naming_the_earlier_deal_and_again_saves_it(served):
    status, first = served.request("POST", "api/save", {"hands": DEAL, "key": "k-first"})
    assert status == 200
    repeat = {"deal": 1, "digest": first["digest"]}
    _, checked = served.request("POST", "api/check", {"hands": DEAL})
    assert (checked["repeat"], checked["field"], checked["deal"], checked["terms"]) == (repeat, "again", None, None)
    before = _read(served.path)
    status, refused = served.request("POST", "api/save", {"hands": DEAL, "key": "k-second"})
    assert (status, refused["repeat"], refused["field"]) == (409, repeat, "again")
    assert refused["error"] == (
        f"deal 1 ({first['digest']}) of night.txt has the same hands: this deal is in the file already; "
        "if it really was dealt twice, add it again with --again"
    )
    assert _read(served.path) == before
    # It really was dealt twice: shown (a check with again), and saved at what was shown.
    _, twice = served.request("POST", "api/check", {"hands": DEAL, "again": True})
    assert twice["repeat"] is None and twice["error"] is None and twice["deal"]["deal"] == 2
    body = {"hands": DEAL, "key": "k-second", "again": True, "terms": twice["terms"]}
    status, saved = served.request("POST", "api/save", body)
    assert (status, saved["saved"], saved["digest"]) == (200, 2, first["digest"])
    assert deal_count(served.path) == 2


def test_a_stale_undo_from_another_phone_removes_nothing(served):
    assert served.request("POST", "api/save", {"hands": DEAL})[0] == 200
    assert served.request("POST", "api/save", {"hands": {"Amy": AMY, "Bob": BOB_FOULS, "Cy": CY}})[0] == 200
    # Phones A and B both show deal 2 as the last deal.
    _, state = served.request("GET", "api/state")
    shown = state["session"]["deals"][-1]
    assert shown["deal"] == 2
    # Phone B undoes it and saves the corrected deal 2.
    status, undone = served.request("POST", "api/undo", {"expect": 2, "digest": shown["digest"]})
    assert (status, undone["removed"], undone["digest"]) == (200, 2, shown["digest"])
    status, corrected = served.request("POST", "api/save", {"hands": {"Amy": AMY, "Bob": BOB, "Cy": BOB_FOULS}})
    assert (status, corrected["saved"]) == (200, 2) and corrected["digest"] != shown["digest"]
    before = _read(served.path)
    # Phone A's armed Undo still names the deal 2 it showed: refused, and B's deal stays.
    status, refused = served.request("POST", "api/undo", {"expect": 2, "digest": shown["digest"]})
    assert status == 400
    assert refused["error"].startswith(f"deal 2 of night.txt is {corrected['digest']}, not '{shown['digest']}'")
    assert "nothing is removed" in refused["error"]
    assert _read(served.path) == before
    _, state = served.request("GET", "api/state")
    assert [deal["digest"] for deal in state["session"]["deals"]][-1] == corrected["digest"]


def test_a_negative_content_length_is_refused_and_removes_nothing(served):
    served.request("POST", "api/save", {"hands": DEAL})
    head = "POST /api/undo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    answer = _raw(served.port, (head + 'Content-Length: -5\r\n\r\n{"digest": "x"}').encode())
    assert answer.startswith(b"HTTP/1.0 400") and b"Content-Length is negative" in answer
    assert deal_count(served.path) == 1


def test_a_request_naming_thousands_of_seats_is_refused_at_once(refusing):
    names = " ".join(f"{index:x}" for index in range(12_000))  # within the 64 KiB a request may have
    status, answer = refusing.request("POST", "api/check", {"players": names, "hands": {}})
    assert status == 400 and answer["error"] == "a table seats at most 64 players" and answer["field"] == "players"
    hands = {f"P{index}": "" for index in range(65)}
    assert refusing.request("POST", "api/check", {"hands": hands})[0] == 400


@pytest.mark.slow  # waits out the server's deadline: CI runs it (-m slow)
def test_a_body_that_stops_coming_is_answered_408_and_a_slow_drip_is_cut_off(served):
    from cpscore.web.server import DEADLINE

    head = (
        b"POST /api/save HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n"
    )
    with socket.create_connection(("127.0.0.1", served.port), timeout=DEADLINE * 3) as connection:
        connection.sendall(head + b'{"hands": {"Amy"')  # and then nothing, the connection left open
        answer = b""
        while chunk := connection.recv(65536):  # the answer, until the server closes
            answer += chunk
    assert answer.startswith(b"HTTP/1.0 408") and b"did not arrive whole within" in answer
    with socket.create_connection(("127.0.0.1", served.port), timeout=DEADLINE * 3) as connection:
        dripped = b""
        for byte in b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n":  # a byte a second: never a whole request
            try:
                connection.sendall(bytes([byte]))
                dripped += connection.recv(1, socket.MSG_DONTWAIT)
            except BlockingIOError:
                pass
            except OSError:  # cut off
                break
            threading.Event().wait(1)
        else:
            raise AssertionError("the server kept reading a request that never ended")
    assert served.request("POST", "api/save", {"hands": DEAL})[0] == 200
    code, _, err = served.stop()
    assert code == 0 and err == ""


@pytest.mark.slow  # many connections at once: CI runs it (-m slow)
def test_two_hundred_phones_at_once_are_all_answered(served):
    answers: list[int] = []

    def ask() -> None:
        answers.append(served.request("GET", "api/state")[0])

    threads = [threading.Thread(target=ask) for _ in range(200)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert answers == [200] * 200


def test_a_poll_of_an_unchanged_night_gets_304_and_no_body(served):
    import urllib.error
    import urllib.request

    def state(tag: str | None = None):
        headers = {"If-None-Match": tag} if tag else {}
        request = urllib.request.Request(served.base + "api/state", headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return answer.status, answer.headers.get("ETag"), answer.read()
        except urllib.error.HTTPError as error:
            return error.code, error.headers.get("ETag"), error.read()

    status, tag, body = state()
    assert status == 200 and tag and json.loads(body)["session"]["deals"] == []
    assert state(tag) == (304, tag, b"")
    assert state('"another"')[0] == 200
    served.request("POST", "api/save", {"hands": DEAL})
    status, changed, body = state(tag)  # the night changed: the whole state, with its new tag
    assert status == 200 and changed != tag and len(json.loads(body)["session"]["deals"]) == 1
    assert state(changed) == (304, changed, b"")
