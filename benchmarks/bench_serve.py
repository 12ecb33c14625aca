"""What a phone's poll costs `cpscore serve`: bytes and server time per
request, at 100, 500 and 2,000 deals.

    python benchmarks/bench_serve.py                 # 100, 500 and 2,000 deals (1-6 rules)
    python benchmarks/bench_serve.py --deals 100 500 --repeat 5

For each size it writes a session of 4-player deals (benchmarks/make_session.py)
and drives the app `cpscore serve` runs (cpscore.web.app.make_app) in this
process, through WSGI, timing each request (best of ``--repeat``):

- ``first load``: GET /api/state with nothing known (a phone opening the page);
- ``poll, unchanged``: GET /api/deal with the tag of what the phone shows,
  the request the page makes every 2 seconds (304, no body);
- ``state, unchanged``: GET /api/state with its tag (304);
- ``poll after a deal was added``: a deal appended to the file (as a save or
  ``cpscore add`` writes it), then GET /api/deal (the deal in progress and the
  night's new version) and GET /api/state?since=N:MARK (only the new deal,
  and the totals): the night kept by the server settles only the new deal;
- ``before: whole night re-read``: the same state answered by a fresh app,
  which reads and settles the whole night, as every poll did before.
"""

from __future__ import annotations

import argparse
import io
import json
import pathlib
import sys
import tempfile
import time
import wsgiref.util

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from make_session import write_session  # noqa: E402

from cpscore.web.app import make_app  # noqa: E402


def request(app, path: str, tag: str | None = None) -> tuple[int, int, str | None, float, bytes]:
    """(status, bytes, ETag, seconds, body) of one GET."""
    environ: dict[str, object] = {}
    wsgiref.util.setup_testing_defaults(environ)
    target, _, query = path.partition("?")
    environ.update(
        {
            "PATH_INFO": "/" + target,
            "QUERY_STRING": query,
            "HTTP_HOST": "127.0.0.1",
            "HTTP_X_CPSCORE_PHONE": "bench-phone",
            "wsgi.input": io.BytesIO(b""),
        }
    )
    if tag:
        environ["HTTP_IF_NONE_MATCH"] = tag
    got: dict[str, object] = {}

    def start(status: str, headers: list[tuple[str, str]], exc_info: object = None) -> None:
        got["status"] = int(status.split()[0])
        got["tag"] = next((value for key, value in headers if key.lower() == "etag"), None)

    began = time.perf_counter()
    body = b"".join(app(environ, start))
    seconds = time.perf_counter() - began
    return got["status"], len(body), got["tag"], seconds, body  # type: ignore[return-value]


def best(repeat: int, measure) -> tuple[int, int, float]:
    """(status, bytes, best seconds) of ``repeat`` runs of ``measure()``."""
    runs = [measure() for _ in range(repeat)]
    return runs[0][0], runs[0][1], min(run[3] for run in runs)


def size_rows(path: pathlib.Path, rules: str, repeat: int) -> list[tuple[str, tuple[int, int, float]]]:
    """The rows printed for one session file."""
    rows = []
    app = make_app(str(path))
    rows.append(("first load: GET /api/state", best(1, lambda: request(app, "api/state"))))
    _, _, deal_tag, _, _ = request(app, "api/deal")
    rows.append(
        (
            "poll, unchanged: GET /api/deal + tag",
            best(repeat, lambda: request(app, "api/deal", deal_tag)),
        )
    )
    _, _, state_tag, _, body = request(app, "api/state")
    rows.append(
        (
            "state, unchanged: GET /api/state + tag",
            best(repeat, lambda: request(app, "api/state", state_tag)),
        )
    )
    through = json.loads(body)["through"]
    added = []
    for _ in range(repeat):  # each run: one more deal, as a save appends it
        with path.open("a", encoding="utf-8") as out:
            text = io.StringIO()
            write_session(1, rules, 7 + len(added), text)
            out.write(text.getvalue().split("\n", 2)[2])  # its deal, after a blank line; not its header
        poll = request(app, "api/deal", deal_tag)
        state = request(app, f"api/state?since={through}")
        added.append((poll, state))
        answer = json.loads(state[4])
        assert answer["from"] > 0 and len(answer["session"]["deals"]) == 1, "the new deal alone was not sent"
        through = answer["through"]
        deal_tag = poll[2]
    poll = min(added, key=lambda pair: pair[0][3])[0]
    state = min(added, key=lambda pair: pair[1][3])[1]
    rows.append(("after a deal was added: GET /api/deal", (poll[0], poll[1], poll[3])))
    rows.append(("  and GET /api/state?since=N:MARK", (state[0], state[1], state[3])))
    fresh = best(1, lambda: request(make_app(str(path)), "api/state"))
    rows.append(("before: whole night re-read per poll", fresh))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, nargs="+", default=[100, 500, 2000])
    parser.add_argument("--rules", default="1-6")
    parser.add_argument("--repeat", type=int, default=3)
    options = parser.parse_args()
    print(f"{'deals':>6}  {'request':<40} {'status':>6} {'bytes':>11} {'server ms':>10}")
    with tempfile.TemporaryDirectory() as folder:
        for count in options.deals:
            path = pathlib.Path(folder) / f"night-{count}.txt"
            with path.open("w", encoding="utf-8") as out:
                write_session(count, options.rules, 2026, out)
            rows = size_rows(path, options.rules, options.repeat)
            for label, (status, size, seconds) in rows:
                print(f"{count:>6}  {label:<40} {status:>6} {size:>11,} {seconds * 1000:>10.1f}")


if __name__ == "__main__":
    main()
