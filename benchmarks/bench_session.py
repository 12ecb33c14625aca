"""Throughput of `cpscore session` on a large random session, as ratios
measured in one run.

    python benchmarks/bench_session.py              # 20,000 deals; 1-6, ofc and taiwanese
    python benchmarks/bench_session.py --deals 5000 --repeat 5

For each rule set it writes a session of 4-player deals (benchmarks/make_session.py)
and times, in this one process and alternating so that the machine's noise
falls on all of them alike (best of ``--repeat``):

- the minimal hot path of benchmarks/hot_path.py over the file (the baseline);
- `cpscore session --totals FILE` (the command itself, output to /dev/null);
- `cpscore session FILE` (the table) and `cpscore session --format jsonl FILE`.

It prints `--totals` as a ratio of the hot path's throughput, and the table
and JSON Lines as ratios of `--totals`; it checks that the hot path's totals
are cpscore's.  Then it runs `cpscore session --totals` as a child process on
sessions of --memory sizes (1,000, 10,000 and 100,000 deals; add 1000000 for a
million) and prints each peak memory (memory must not grow with the number of
deals).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from hot_path import hot_totals  # noqa: E402
from make_session import write_session  # noqa: E402

from cpscore.cli import main as cpscore_main  # noqa: E402
from cpscore.rules import get_rules  # noqa: E402


def run_command(args: list[str]) -> str:
    """Run the cpscore command in this process; its output as text."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            cpscore_main(args, prog_name="cpscore", standalone_mode=False)
        except SystemExit as stop:  # pragma: no cover - a failure is a bug here
            if stop.code:
                raise
    return out.getvalue()


def peak_memory(cpscore: str, path: pathlib.Path) -> float:
    """Peak resident memory (MB) of one `session --totals` child."""
    code = (
        "import resource, subprocess, sys;"
        "subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL);"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code, cpscore, "session", "--totals", str(path)],
        check=True,
        capture_output=True,
        text=True,
    )
    return int(result.stdout) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--rules", nargs="*", default=["1-6", "ofc", "taiwanese"])
    parser.add_argument(
        "--memory",
        nargs="*",
        type=int,
        default=[1_000, 10_000, 100_000],
        metavar="DEALS",
        help="session sizes whose peak memory is measured (e.g. 1000 1000000)",
    )
    args = parser.parse_args()
    cpscore = shutil.which("cpscore", path=str(pathlib.Path(sys.executable).parent)) or shutil.which("cpscore")
    with tempfile.TemporaryDirectory() as folder:
        for name in args.rules:
            path = pathlib.Path(folder) / f"{name}.txt"
            with open(path, "w", encoding="utf-8") as out:
                write_session(args.deals, name, 2026, out)
            rules = get_rules(name)
            runs: dict[str, list[float]] = {"hot": [], "totals": [], "table": [], "jsonl": []}
            commands = {
                "totals": ["session", "--totals", str(path)],
                "table": ["session", str(path)],
                "jsonl": ["session", "--format", "jsonl", str(path)],
            }
            hot = None
            for _ in range(args.repeat):
                start = time.perf_counter()
                hot = hot_totals(str(path), rules)
                runs["hot"].append(time.perf_counter() - start)
                for key, command in commands.items():
                    start = time.perf_counter()
                    text = run_command(command)
                    runs[key].append(time.perf_counter() - start)
                    if key == "totals":
                        totals_text = text
            best = {key: min(times) for key, times in runs.items()}
            json_totals = json.loads(run_command(["session", "--totals", "--format", "json", str(path)]))
            assert hot == {row["name"]: row["units"] for row in json_totals["totals"]}, "the hot path disagrees"
            assert totals_text
            rate = {key: args.deals / seconds for key, seconds in best.items()}
            print(
                f"rules {name:9s} {args.deals:,} deals (best of {args.repeat}): "
                f"hot path {rate['hot']:8,.0f} deals/s; --totals {rate['totals']:8,.0f} deals/s "
                f"= {rate['totals'] / rate['hot']:.2f}x the hot path (target >= 1.0); "
                f"table {rate['table'] / rate['totals']:.2f}x (target >= 0.7), "
                f"jsonl {rate['jsonl'] / rate['totals']:.2f}x (target >= 0.6) --totals"
            )
            if cpscore is not None:
                peaks = []
                for count in args.memory:
                    sized = pathlib.Path(folder) / f"{name}-{count}.txt"
                    with open(sized, "w", encoding="utf-8") as out:
                        write_session(count, name, 2026, out)
                    peaks.append(f"{peak_memory(cpscore, sized):.0f} MB for {count:,}")
                    os.remove(sized)
                print(f"    peak memory of `cpscore session --totals`: {', '.join(peaks)} deals")
            os.remove(path)


if __name__ == "__main__":
    main()
