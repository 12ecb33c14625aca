"""Throughput of `cpscore session --totals` on a large random session.

    python benchmarks/bench_session.py             # 100,000 deals, rules 1-6 and ofc
    python benchmarks/bench_session.py --deals 20000

For each rule set: writes a session of 4-player deals (benchmarks/make_session.py),
runs `cpscore session --totals FILE` on it (the check pass and the totals,
in one process), and prints deals per second and the child's peak memory;
then the same on a session ten times smaller, to show memory does not grow
with the number of deals.
"""

from __future__ import annotations

import argparse
import pathlib
import resource
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from make_session import write_session  # noqa: E402


def run(cpscore: str, path: pathlib.Path) -> tuple[float, float]:
    """Seconds and peak resident memory (MB) of one `session --totals` run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.perf_counter()
    subprocess.run([cpscore, "session", "--totals", str(path)], check=True, stdout=subprocess.DEVNULL)
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return seconds, max(peak, before) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=100_000)
    args = parser.parse_args()
    cpscore = shutil.which("cpscore", path=str(pathlib.Path(sys.executable).parent)) or shutil.which("cpscore")
    if cpscore is None:
        sys.exit("cpscore is not installed beside this Python: run `pip install .` first")
    with tempfile.TemporaryDirectory() as folder:
        for rules in ("1-6", "ofc"):
            sizes = {}
            for count in (args.deals // 10, args.deals):
                path = pathlib.Path(folder) / f"{rules}-{count}.txt"
                with open(path, "w", encoding="utf-8") as out:
                    write_session(count, rules, 2026, out)
                seconds, peak = run(cpscore, path)
                sizes[count] = (seconds, peak)
            seconds, peak = sizes[args.deals]
            small_peak = sizes[args.deals // 10][1]
            print(
                f"rules {rules:4s} {args.deals:,} deals: {seconds:6.2f} s, {args.deals / seconds:8,.0f} deals/s "
                f"(target >= 20,000); peak memory {peak:.0f} MB ({small_peak:.0f} MB for {args.deals // 10:,} deals)"
            )


if __name__ == "__main__":
    main()
