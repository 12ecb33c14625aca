"""Fuzz every cpscore command in-process and count the broken promises by class.

    python benchmarks/fuzz.py --inputs 20000 --seed 1 --report fuzz.json
    python benchmarks/fuzz.py --inputs 2000 --command session --command add
    python benchmarks/fuzz.py --replay fuzz.json          # run the reproducers again

Each input is generated from (seed, index) alone, so a run is the same for the
same seed whatever --jobs is.  An input fails when cpscore raises an uncaught
exception, exits with a code other than 0, 1 or 2, or exits non-zero with
something on stdout or with stderr that is not 'Error: ' lines (click's usage
lines allowed), or writes a stderr line over 300 characters (see
tests/fuzzing.py).  The summary gives, per failure class, the count and the
shortest reproducer found, reduced further by delta debugging (--no-reduce to
skip) and run once more through `python -m cpscore` in a fresh process to
confirm it (--no-confirm to skip).  The exit code is 1 when anything failed.
"""

from __future__ import annotations

import argparse
import collections
import json
import multiprocessing
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import fuzzing  # noqa: E402


def _limit_memory(gigabytes: float) -> None:
    try:
        import resource

        limit = int(gigabytes * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (ImportError, ValueError, OSError):
        pass


def _work(job: tuple[int, list[int], tuple[str, ...], float, float]) -> dict:
    """Run the inputs with these indices; the counts and, per class, the smallest input."""
    seed, indices, commands, timeout, memory = job
    if memory:
        _limit_memory(memory)
    stats = {"by_command": collections.Counter(), "seconds": collections.Counter(), "exits": collections.Counter()}
    stats["harness"] = []
    classes: dict[str, dict] = {}
    slowest: list[tuple[float, int]] = []
    with fuzzing.Runner(timeout=timeout) as runner:
        for index in indices:
            rng = fuzzing.case_rng(seed, index)
            try:
                if commands:
                    case = fuzzing.generate_for(rng.choice(commands), rng)
                else:
                    case = fuzzing.generate(rng)
            except Exception as error:  # a bug of the generators, not of cpscore: say so, go on
                stats["harness"].append(f"input #{index}: {type(error).__name__}: {error}")
                continue
            outcome = runner.run(case)
            stats["by_command"][case.command] += 1
            stats["seconds"][case.command] += outcome.seconds
            stats["exits"][outcome.exit_code] += 1
            slowest.append((outcome.seconds, index))
            slowest = sorted(slowest, reverse=True)[:5]
            failure = outcome.failure
            if failure is None:
                continue
            entry = classes.setdefault(
                failure.key, {"count": 0, "commands": collections.Counter(), "case": None, "size": None, "index": None}
            )
            entry["count"] += 1
            entry["commands"][case.command] += 1
            size = case.size()
            if entry["size"] is None or size < entry["size"]:
                entry.update(case=case, size=size, index=index, detail=failure.detail)
    stats["slowest"] = slowest
    return {"stats": stats, "classes": classes}


def _merge(parts: list[dict]) -> tuple[dict, dict]:
    stats = {"by_command": collections.Counter(), "seconds": collections.Counter(), "exits": collections.Counter()}
    slowest = []
    stats["harness"] = []
    classes: dict[str, dict] = {}
    for part in parts:
        stats["harness"] += part["stats"]["harness"]
        for key in ("by_command", "seconds", "exits"):
            stats[key].update(part["stats"][key])
        slowest += part["stats"]["slowest"]
        for key, entry in part["classes"].items():
            mine = classes.setdefault(key, {"count": 0, "commands": collections.Counter(), "size": None})
            mine["count"] += entry["count"]
            mine["commands"].update(entry["commands"])
            if mine["size"] is None or entry["size"] < mine["size"]:
                mine.update(case=entry["case"], size=entry["size"], index=entry["index"], detail=entry["detail"])
    stats["slowest"] = sorted(slowest, reverse=True)[:5]
    return stats, classes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=1000, help="how many inputs (default 1000)")
    parser.add_argument("--seed", type=int, default=0, help="the run's seed (default 0)")
    parser.add_argument("--report", metavar="FILE", help="write the classes and reproducers as JSON")
    parser.add_argument("--command", action="append", choices=list(fuzzing.GENERATORS), help="only these (repeatable)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--timeout", type=float, default=5.0, help="seconds one input may take (default 5)")
    parser.add_argument("--memory", type=float, default=8.0, help="address-space limit per process, GiB (0: none)")
    parser.add_argument("--no-reduce", action="store_true", help="do not reduce the reproducers")
    parser.add_argument("--no-confirm", action="store_true", help="do not re-run reproducers in a fresh process")
    parser.add_argument("--replay", metavar="REPORT", help="run the reproducers of a report again and stop")
    options = parser.parse_args(argv)

    if options.replay:
        return _replay(options.replay, options.timeout)

    commands = tuple(options.command or ())
    jobs = max(1, options.jobs)
    indices = list(range(options.inputs))
    chunks = [indices[i::jobs] for i in range(jobs)]
    work = [(options.seed, chunk, commands, options.timeout, options.memory) for chunk in chunks]
    start = time.perf_counter()
    if jobs == 1:
        parts = [_work(work[0])]
    else:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            parts = pool.map(_work, work)
    seconds = time.perf_counter() - start
    stats, classes = _merge(parts)
    total = sum(entry["count"] for entry in classes.values())
    ordered = sorted(classes.items(), key=lambda item: (-item[1]["count"], item[0]))

    rate = options.inputs / seconds if seconds else 0.0
    print(
        f"cpscore fuzz: {options.inputs} inputs, seed {options.seed}, {seconds:.1f} s "
        f"({rate:.0f} inputs/s, {jobs} job{'s' if jobs > 1 else ''})"
    )
    print(
        "  by command: "
        + ", ".join(
            f"{name} {count} ({1000 * stats['seconds'][name] / count:.1f} ms avg)"
            for name, count in stats["by_command"].most_common()
        )
    )
    print("  exit codes: " + ", ".join(f"{code}: {count}" for code, count in sorted(stats["exits"].items())))
    print("  slowest: " + ", ".join(f"#{index} {s * 1000:.0f} ms" for s, index in stats["slowest"]))
    if stats["harness"]:
        print(
            f"  HARNESS ERRORS (generator bugs, not cpscore's): {len(stats['harness'])}, first: {stats['harness'][0]}"
        )
    print(f"failures: {total} in {len(classes)} classes")

    report = []
    reducer = None if options.no_reduce else fuzzing.Runner(timeout=options.timeout)
    try:
        for number, (key, entry) in enumerate(ordered, start=1):
            case = entry["case"]
            if reducer is not None:
                case = fuzzing.reduce_case(reducer, case, key)
            confirmed = None
            if not options.no_confirm:
                confirmed = fuzzing.fresh_process_fails(case)
            commands_seen = ", ".join(f"{c} {n}" for c, n in entry["commands"].most_common())
            print()
            print(f"{number}. [{entry['count']}] {key}")
            print(f"   commands: {commands_seen}; input #{entry['index']} (seed {options.seed})")
            print(
                "   "
                + fuzzing.abbreviate(entry["detail"].strip().splitlines()[-1] if entry["detail"].strip() else "", 300)
            )
            for line in case.describe().splitlines():
                print("   " + line)
            if confirmed is not None:
                print(f"   fresh process: {'FAILS' if confirmed[0] else 'passes'} ({confirmed[1]})")
            report.append(
                {
                    "class": key,
                    "count": entry["count"],
                    "commands": dict(entry["commands"]),
                    "index": entry["index"],
                    "detail": entry["detail"],
                    "reproducer": case.to_json(),
                    "original_size": entry["size"],
                    "fresh_process": None if confirmed is None else {"fails": confirmed[0], "output": confirmed[1]},
                }
            )
    finally:
        if reducer is not None:
            reducer.close()

    if options.report:
        data = {
            "inputs": options.inputs,
            "seed": options.seed,
            "seconds": round(seconds, 2),
            "inputs_per_second": round(rate, 1),
            "by_command": dict(stats["by_command"]),
            "failures": total,
            "classes": report,
        }
        Path(options.report).write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"\nreport written to {options.report}")
    return 1 if total or stats["harness"] else 0


def _replay(path: str, timeout: float) -> int:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    failing = 0
    with fuzzing.Runner(timeout=timeout) as runner:
        for entry in data["classes"]:
            case = fuzzing.Case.from_json(entry["reproducer"])
            outcome = runner.run(case)
            now = outcome.failure.key if outcome.failure else "passes"
            failing += outcome.failure is not None
            same = "same class" if now == entry["class"] else "CHANGED"
            print(f"{entry['class']}\n    now: {now} ({same})")
    print(f"{failing} of {len(data['classes'])} reproducers still fail")
    return 1 if failing else 0


if __name__ == "__main__":
    os.environ.setdefault("NO_COLOR", "1")
    sys.exit(main())
