"""Evaluation speed and start-up time of cpscore, as ratios to baselines
measured in the same run.

    python benchmarks/bench_core.py            # after `pip install .`
    python benchmarks/bench_core.py --quick    # fewer rounds

(a) ns per five-card and three-card evaluation through ``cpscore.hands``,
    next to reference functions defined here: a dict keyed by the product of
    one prime per rank.  ``reference`` is a complete five-card evaluator of
    that kind (flushes found by AND-ing one suit bit per card); ``bare lookup``
    is the product lookup alone, which cannot tell a flush, shown as a floor.
(b) start-up of ``cpscore score examples/three-players.txt`` (table and JSON)
    against ``python -c "import click, tabulate"`` and ``python -c "import
    click"``: the median of alternating runs.
"""

from __future__ import annotations

import argparse
import itertools
import pathlib
import random
import shutil
import statistics
import subprocess
import sys
import time
from collections import Counter

from cpscore.hands import evaluate3, evaluate5

ROOT = pathlib.Path(__file__).resolve().parent.parent
PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
P = [PRIMES[code >> 2] for code in range(52)]  # card code -> prime of its rank
BIT = [1 << (code & 3) for code in range(52)]  # card code -> suit bit


def _reference_tables():
    """Reference tables keyed by prime products (values: any ints will do)."""
    five, flush, three = {}, {}, {}
    for ranks in itertools.combinations_with_replacement(range(13), 5):
        if max(Counter(ranks).values()) <= 4:
            key = 1
            for rank in ranks:
                key *= PRIMES[rank]
            five[key] = key & 0xFFFF
            if len(set(ranks)) == 5:
                flush[key] = key & 0xFFFF | 0x10000
    for ranks in itertools.combinations_with_replacement(range(13), 3):
        key = PRIMES[ranks[0]] * PRIMES[ranks[1]] * PRIMES[ranks[2]]
        three[key] = key
    return five, flush, three


FIVE, FLUSH, THREE = _reference_tables()


def bare_lookup5(codes):
    a, b, c, d, e = codes
    return FIVE[P[a] * P[b] * P[c] * P[d] * P[e]]


def reference5(codes):
    a, b, c, d, e = codes
    key = P[a] * P[b] * P[c] * P[d] * P[e]
    if BIT[a] & BIT[b] & BIT[c] & BIT[d] & BIT[e]:
        return FLUSH[key]
    return FIVE[key]


def reference3(codes):
    a, b, c = codes
    return THREE[P[a] * P[b] * P[c]]


def _loop_ns(function, rows) -> float:
    start = time.perf_counter()
    for row in rows:
        function(row)
    return (time.perf_counter() - start) / len(rows) * 1e9


def evaluation(rounds: int, size: int) -> None:
    rng = random.Random(2026)
    deck = list(range(52))
    fives = [tuple(rng.sample(deck, 5)) for _ in range(size)]
    threes = [tuple(rng.sample(deck, 3)) for _ in range(size)]
    contenders = {
        "cpscore evaluate5": (evaluate5, fives),
        "reference 5-card": (reference5, fives),
        "bare lookup 5-card": (bare_lookup5, fives),
        "cpscore evaluate3": (evaluate3, threes),
        "reference 3-card": (reference3, threes),
    }
    times: dict[str, list[float]] = {name: [] for name in contenders}
    for _ in range(rounds):  # alternate, so drift hits every contender alike
        for name, (function, rows) in contenders.items():
            times[name].append(_loop_ns(function, rows))
    ns = {name: statistics.median(values) for name, values in times.items()}
    print(f"(a) evaluation, median of {rounds} alternating rounds of {size:,} random rows")
    for name, value in ns.items():
        print(f"    {name:20s} {value:7.1f} ns")
    print(
        f"    five-card:  cpscore / reference   = {ns['cpscore evaluate5'] / ns['reference 5-card']:.2f}x (target <= 1.1x)"
    )
    print(
        f"    five-card:  cpscore / bare lookup = {ns['cpscore evaluate5'] / ns['bare lookup 5-card']:.2f}x (no flush test in the bare lookup)"
    )
    print(
        f"    three-card: cpscore / reference   = {ns['cpscore evaluate3'] / ns['reference 3-card']:.2f}x (target <= 1.1x)"
    )


def _run_ms(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return (time.perf_counter() - start) * 1000


def startup(rounds: int) -> None:
    cpscore = shutil.which("cpscore", path=str(pathlib.Path(sys.executable).parent)) or shutil.which("cpscore")
    if cpscore is None:
        sys.exit("cpscore is not installed beside this Python: run `pip install .` first")
    example = str(ROOT / "examples" / "three-players.txt")
    commands = {
        "import click": [sys.executable, "-c", "import click"],
        "import click, tabulate": [sys.executable, "-c", "import click, tabulate"],
        "cpscore score (table)": [cpscore, "score", example],
        "cpscore score (json)": [cpscore, "score", "--format", "json", example],
    }
    for command in commands.values():  # warm the file cache and .pyc files
        _run_ms(command)
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(rounds):
        for name, command in commands.items():
            times[name].append(_run_ms(command))
    ms = {name: statistics.median(values) for name, values in times.items()}
    print(f"(b) start-up, median of {rounds} alternating runs")
    for name, value in ms.items():
        print(f"    {name:24s} {value:6.1f} ms")
    table = ms["cpscore score (table)"] / ms["import click, tabulate"]
    json_ratio = ms["cpscore score (json)"] / ms["import click"]
    print(f"    table / (click + tabulate) = {table:.2f}x (target <= 1.10x)")
    print(f"    json / click               = {json_ratio:.2f}x (target <= 1.15x)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds, smaller samples")
    args = parser.parse_args()
    evaluation(rounds=5 if args.quick else 11, size=50_000 if args.quick else 200_000)
    print()
    startup(rounds=7 if args.quick else 21)


if __name__ == "__main__":
    main()
