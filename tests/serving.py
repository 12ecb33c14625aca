"""A real ``cpscore serve`` process for the tests: started on a free port,
its printed address read back, stopped with Ctrl-C (or killed)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import urllib.error
import urllib.request

# Three hands that play (examples/session.txt's first deal), and a hand that fouls.
AMY = "Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d"
BOB = "Qs Jd 3c / Th Tc 8d 8s 3d / Kh Qh Jh 8h 2h"
CY = "As 6d 2s / 6c 6h 4d 4s 3s / Js Ts 9s 8c 7c"
BOB_FOULS = "Qd Qc 3h / Jc Td 9d 6s 5c / Kc 7h 5h 4h 2d"
DEAL = {"Amy": AMY, "Bob": BOB, "Cy": CY}


def cpscore(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    """``cpscore ARGS`` as a command, its output as text."""
    done = subprocess.run([sys.executable, "-m", "cpscore", *args], capture_output=True, text=True, timeout=60)
    if check and done.returncode != 0:
        raise AssertionError(f"cpscore {' '.join(args)} exited {done.returncode}: {done.stderr}")
    return done


def deal_count(path: os.PathLike[str] | str) -> int:
    """The deals of a session file, as ``cpscore session --format json`` reads them."""
    return len(json.loads(cpscore("session", str(path), "--format", "json").stdout)["deals"])


class Served:
    """``cpscore serve FILE ARGS`` running; ``url`` is the address it printed."""

    def __init__(self, path: os.PathLike[str] | str, *args: str) -> None:
        self.path = str(path)
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "cpscore", "serve", self.path, "--port", "0", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        assert self.process.stdout is not None
        self.printed: list[str] = []
        for line in self.process.stdout:  # until the address is printed (or the process ends)
            self.printed.append(line)
            if "Ctrl-C" in line:
                break
        found = re.search(r"http://\S+", "".join(self.printed))
        if found is None:
            self.process.kill()
            raise AssertionError(f"no address printed: {self.printed} {self.process.stderr.read()}")  # type: ignore[union-attr]
        self.url = found.group(0)
        self.port = int(re.search(r":(\d+)/", self.url).group(1))  # type: ignore[union-attr]
        self.base = f"http://127.0.0.1:{self.port}/"
        token = re.search(r"token=([\w-]+)", self.url)
        self.token = token.group(1) if token else None

    def request(self, method: str, path: str, body: object = None, headers: dict[str, str] | None = None):
        """(status, JSON answer) of one request, with the token when there is one."""
        data = None if body is None else json.dumps(body).encode()
        sent = {"Content-Type": "application/json"} if body is not None else {}
        if self.token:
            sent["X-Cpscore-Token"] = self.token
        sent.update(headers or {})
        request = urllib.request.Request(self.base + path, data=data, method=method, headers=sent)
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())

    def stop(self) -> tuple[int, str, str]:
        """Ctrl-C: the exit code and what was printed after the address, and on stderr."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
        out, err = self.process.communicate(timeout=30)
        return self.process.returncode, out, err

    def kill(self) -> None:
        self.process.kill()
        self.process.communicate(timeout=30)
