"""Speed before and after a change, in one run: a benchmark script under two
cpscore trees in turn, and the start-up of the command under both.

    python benchmarks/bench_before_after.py --before /tmp/before19
    python benchmarks/bench_before_after.py --before /tmp/before19 --rounds 5 --deals 5000
    python benchmarks/bench_before_after.py --before /tmp/before19 --script bench_core.py --no-startup
    python benchmarks/bench_before_after.py --before /tmp/before19 --script bench_arrange.py --no-startup

--before TREE is a checkout of the code before the change (a git worktree will
do); --after TREE defaults to this tree (--snapshot: a copy of it taken at the
start, for a tree being edited meanwhile; either way each run prints a digest
of the cpscore sources it ran, and a tree changed during the run is warned
of).  Each run is a child process with its tree first on PYTHONPATH (which
comes before the editable install), started outside both trees, so only the
``cpscore`` package imported differs; every run reports the file of each
cpscore module it imported, and a run that took any of them from elsewhere is
an error.  The benchmark script is TREE's own copy in TREE/benchmarks when it
has one (a script and its helpers are written against their tree's API:
benchmarks/hot_path.py reads the rule set's fields), else this tree's;
--scripts current runs this tree's copy for both.  The benchmark files that
differ between the two trees are listed.

1. The benchmark: --script (default bench_session.py, given ``--deals 20000
   --repeat 5``; arguments this script does not know are passed on and win)
   runs --rounds times under each tree, alternating (before, after, before,
   after, ...), so that the machine's noise falls on both alike.  The figures
   each run prints are parsed and the best over the rounds is compared: for
   bench_session.py, per rule set, the deals/s of the hot path, ``--totals``,
   the table and JSON Lines and ``--totals`` over the hot path; for
   bench_core.py the ns per evaluation and the start-up medians; for
   bench_arrange.py the median ms per hand.  ``after/before`` is always a speed
   ratio (above 1: faster after; for times, before over after); a figure below
   0.97 is flagged.  bench_session.py prints the table and JSON Lines only as
   ratios of ``--totals`` (two decimals), so its ``run_command`` and
   ``hot_totals`` are wrapped to record each timed call: the deals/s shown are
   the number of deals over the best recorded time (the wrapping costs well
   under a microsecond a call, against seconds); the printed ratios are kept
   as each tree reported them, and ``--totals`` over the hot path is also
   worked out from the recorded times ("recorded"): timed alternately within
   each run, it is the figure the machine's load moves least.  Figures of the
   baselines (the hot path, the reference evaluators, ``import click``) are
   shown but not flagged.
2. Start-up: ``python -c "import click"`` (the baseline: start-up should stay
   close to bare ``import click``), then ``python -m cpscore --version``,
   ``cpscore --help`` and ``cpscore score examples/three-players.txt`` under
   each tree, --startup-runs (default 20) alternating rounds, best and median
   in ms.  Twice: with bytecode cached (PYTHONPYCACHEPREFIX, a temporary
   folder, so neither tree is written to), as an installed package runs, and
   from source (PYTHONDONTWRITEBYTECODE, nothing cached, every module
   compiled).  One verbose run of each command (PYTHONVERBOSE) shows which
   cpscore/__init__.py it loaded.
"""

from __future__ import annotations

import argparse
import filecmp
import hashlib
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
FLAG = 0.97  # a speed ratio below this is called out
#: Figures of the benchmarks' own baselines, shown but not called out (hot_path.py
#: is the benchmark's code; it calls cpscore only for royalties and the rare natural).
BASELINE = re.compile(r"hot path$|^reference|^bare|^import click|bare loop median")

#: Runs a benchmark script as ``python SCRIPT ARGS`` would (its folder first on
#: sys.path), wrapping bench_session.py's timed calls, then reports the cpscore
#: modules imported.  argv: SCRIPT ARGS...
WRAPPER = r"""
import importlib.util, json, pathlib, sys, time
script = pathlib.Path(sys.argv[1]).resolve()
sys.argv = [str(script), *sys.argv[2:]]
sys.path[0] = str(script.parent)
spec = importlib.util.spec_from_file_location("benchmark_under_test", script)
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
times = {}

def record(key, started):
    times.setdefault(key, []).append(time.perf_counter() - started)

if hasattr(module, "run_command") and hasattr(module, "hot_totals"):
    run_command, hot_totals = module.run_command, module.hot_totals

    def timed_command(args):
        kind = ("json" if "json" in args else "jsonl" if "jsonl" in args
                else "totals" if "--totals" in args else "table")
        started = time.perf_counter()
        try:
            return run_command(args)
        finally:
            record(pathlib.Path(args[-1]).stem + " " + kind, started)

    def timed_hot(path, rules):
        started = time.perf_counter()
        try:
            return hot_totals(path, rules)
        finally:
            record(pathlib.Path(path).stem + " hot", started)

    module.run_command, module.hot_totals = timed_command, timed_hot
module.main()
sys.stdout.flush()
print("@@TIMES " + json.dumps(times))
print("@@IMPORTED " + json.dumps({name: getattr(m, "__file__", None)
      for name, m in sorted(sys.modules.items()) if name == "cpscore" or name.startswith("cpscore.")}))
"""

Metric = tuple[str, float, str, str]  # name, value, unit, "high" or "low" (which is better)


def tree_env(tree: Path, extra: dict[str, str] | None = None) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(tree), env.get("PYTHONPATH")]))
    env.update(extra or {})
    return env


def source_digest(tree: Path) -> str:
    """A digest of the tree's cpscore/**/*.py, to notice a tree edited mid-run."""
    digest = hashlib.sha256()
    for path in sorted((tree / "cpscore").rglob("*.py")):
        digest.update(str(path.relative_to(tree)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


def git_state(tree: Path) -> str:
    def git(*args: str) -> str:
        result = subprocess.run(["git", "-C", str(tree), *args], capture_output=True, text=True)
        return result.stdout.rstrip("\n")

    dirty = [line for line in git("status", "--short", "--untracked-files=no").splitlines() if line]
    return f"{git('rev-parse', '--short', 'HEAD') or '?'}" + (
        f" + uncommitted changes to {', '.join(line[3:] for line in dirty)}" if dirty else ""
    )


# -- parsing each benchmark's output ------------------------------------------------------------

SESSION_LINE = re.compile(
    r"rules (?P<rules>\S+)\s+(?P<deals>[\d,]+) deals \(best of \d+\): hot path\s+(?P<hot>[\d,]+) deals/s; "
    r"--totals\s+(?P<totals>[\d,]+) deals/s = (?P<ratio>[\d.]+)x the hot path.*?; "
    r"table (?P<table>[\d.]+)x, jsonl (?P<jsonl>[\d.]+)x --totals"
)
MEMORY_LINE = re.compile(r"peak memory .*?: (?P<big>\d+) MB for [\d,]+ deals, (?P<small>\d+) MB")


def parse_session(text: str, times: dict[str, list[float]]) -> list[Metric]:
    metrics: list[Metric] = []
    rules = None
    for line in text.splitlines():
        found = SESSION_LINE.search(line)
        if found:
            rules, deals = found["rules"], int(found["deals"].replace(",", ""))
            totals = float(found["totals"].replace(",", ""))
            rates = {
                "hot path": float(found["hot"].replace(",", "")),
                "--totals": totals,
                "table": float(found["table"]) * totals,  # from the printed ratio, if not recorded
                "jsonl": float(found["jsonl"]) * totals,
            }
            for label, kind in (("hot path", "hot"), ("--totals", "totals"), ("table", "table"), ("jsonl", "jsonl")):
                if times.get(f"{rules} {kind}"):
                    rates[label] = deals / min(times[f"{rules} {kind}"])
            for label, rate in rates.items():
                metrics.append((f"{rules} {label}", rate, "deals/s", "high"))
            metrics.append((f"{rules} --totals / hot path (printed)", float(found["ratio"]), "x", "high"))
            metrics.append((f"{rules} table / --totals (printed)", float(found["table"]), "x", "high"))
            metrics.append((f"{rules} jsonl / --totals (printed)", float(found["jsonl"]), "x", "high"))
            if times.get(f"{rules} hot") and times.get(f"{rules} totals"):
                # the same ratio from the recorded times, to more than two decimals: the figure
                # least moved by the machine's load, since each run times both alternately
                metrics.append(
                    (f"{rules} --totals / hot path (recorded)", rates["--totals"] / rates["hot path"], "x", "high")
                )
            continue
        found = MEMORY_LINE.search(line)
        if found and rules:
            metrics.append((f"{rules} peak memory, all deals", float(found["big"]), "MB", "low"))
            metrics.append((f"{rules} peak memory, a tenth", float(found["small"]), "MB", "low"))
    return metrics


def parse_core(text: str, times: dict[str, list[float]]) -> list[Metric]:
    metrics: list[Metric] = []
    for line in text.splitlines():
        if found := re.match(r"\s+(.+?)\s+([\d.]+) (ns|ms)$", line):
            metrics.append((found[1], float(found[2]), found[3], "low"))
        elif found := re.match(r"\s+(.+?)\s+= ([\d.]+)x", line):
            metrics.append((found[1].strip(), float(found[2]), "x", "low"))
    return metrics


def parse_arrange(text: str, times: dict[str, list[float]]) -> list[Metric]:
    metrics: list[Metric] = []
    rules = ""
    for line in text.splitlines():
        if found := re.match(r"\((?:a|c)\) .*rules ([^\s,]+)", line):
            rules = found[1]
        elif found := re.match(r"\s+(arranger|bare loop)\s+median\s+([\d.]+) ms", line):
            metrics.append((f"{rules} {found[1]} median", float(found[2]), "ms", "low"))
        elif found := re.match(r"\s+ratio, .*?= ([\d.]+)", line):
            metrics.append((f"{rules} arranger / bare loop", float(found[1]), "x", "low"))
        elif found := re.match(r"\s+(\d+) cards\s+median\s+([\d.]+) ms\s+slowest\s+([\d.]+) ms", line):
            metrics.append((f"{rules} {found[1]} cards median", float(found[2]), "ms", "low"))
    return metrics


PARSERS: dict[str, Callable[[str, dict[str, list[float]]], list[Metric]]] = {
    "bench_session": parse_session,
    "bench_core": parse_core,
    "bench_arrange": parse_arrange,
}
DEFAULT_ARGS = {"bench_session": ["--deals", "20000", "--repeat", "5"]}


# -- running -------------------------------------------------------------------------------------


def run_benchmark(label: str, tree: Path, script: Path, args: list[str], workdir: Path) -> tuple[str, dict, dict]:
    """Run the script under ``tree``, echoing its output; (text, recorded times, cpscore modules)."""
    command = [sys.executable, "-c", WRAPPER, str(script), *args]
    print(
        f"\n== {label}: PYTHONPATH={tree} python {script} {' '.join(args)}  (cpscore sources {source_digest(tree)})",
        flush=True,
    )
    started = time.perf_counter()
    process = subprocess.Popen(
        command,
        cwd=workdir,
        env=tree_env(tree),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert process.stdout is not None
    lines = []
    times: dict = {}
    imported: dict = {}
    for line in process.stdout:
        if line.startswith("@@TIMES "):
            times = json.loads(line[8:])
        elif line.startswith("@@IMPORTED "):
            imported = json.loads(line[11:])
        else:
            lines.append(line)
            print(f"   {line}", end="", flush=True)
    if process.wait():
        raise SystemExit(f"{label}: the benchmark failed (exit {process.returncode})")
    strays = sorted(
        name for name, file in imported.items() if file and not Path(file).resolve().is_relative_to(tree / "cpscore")
    )
    if "cpscore" not in imported or strays:
        raise SystemExit(f"{label}: cpscore modules imported from outside {tree}: {strays or 'cpscore missing'}")
    print(
        f"   [{label}: {time.perf_counter() - started:.0f} s; imported cpscore from {imported['cpscore']}"
        f" ({len(imported)} cpscore modules, all under {tree / 'cpscore'})]",
        flush=True,
    )
    return "".join(lines), times, imported


def best(values: list[float], better: str) -> float:
    return max(values) if better == "high" else min(values)


def speed_ratio(before: float, after: float, better: str) -> float:
    """Above 1: faster (or smaller) after."""
    if better == "high":
        return after / before if before else float("nan")
    return before / after if after else float("nan")


def fmt(value: float, unit: str) -> str:
    if unit == "deals/s":
        return f"{value:,.0f}"
    if unit == "x":
        return f"{value:.3f}"
    return f"{value:,.1f}"


def print_table(title: str, rows: list[tuple[str, str, list[float], list[float], str]]) -> list[str]:
    """rows: (name, unit, before values, after values, better); returns the flagged rows."""
    flagged = []
    width = max([len(name) for name, *_ in rows] + [6])
    print(f"\n{title}")
    header = f"{'figure':{width}s}  {'unit':7s}  {'before':>10s}  {'after':>10s}  {'after/before':>12s}   per round (before | after)"
    print(header)
    print("-" * len(header))
    for name, unit, before, after, better in rows:
        b, a = best(before, better), best(after, better)
        ratio = speed_ratio(b, a, better)
        mark = ""
        if BASELINE.search(name):
            mark = "  (baseline: not cpscore's code)"
        elif unit == "MB":  # whole megabytes: 1 MB more of 28 is rounding, not growth
            if a > b + 1:
                mark = "  <-- grew"
                flagged.append(f"{name}: {b:.0f} -> {a:.0f} MB")
        elif unit != "x" or "/" not in name:  # flag cpscore's speeds and times, not the ratios to a baseline
            if ratio < FLAG:
                mark = f"  <-- below {FLAG:.2f}"
                flagged.append(f"{name}: {ratio:.3f}x")
        rounds = f"{' '.join(fmt(v, unit) for v in before)} | {' '.join(fmt(v, unit) for v in after)}"
        print(f"{name:{width}s}  {unit:7s}  {fmt(b, unit):>10s}  {fmt(a, unit):>10s}  {ratio:11.3f}x{mark}   {rounds}")
    return flagged


def benchmark(options: argparse.Namespace, extra: list[str], trees: dict[str, Path], workdir: Path) -> list[str]:
    name = Path(options.script).stem
    args = DEFAULT_ARGS.get(name, []) + extra
    scripts = {}
    for label, tree in trees.items():
        own = tree / "benchmarks" / Path(options.script).name
        scripts[label] = own if options.scripts == "own" and own.is_file() else HERE / Path(options.script).name
        print(f"{label}: runs {scripts[label]}")
    differ = [
        path.name
        for path in sorted((trees["after"] / "benchmarks").glob("*.py"))
        if (trees["before"] / "benchmarks" / path.name).is_file()
        and not filecmp.cmp(path, trees["before"] / "benchmarks" / path.name, shallow=False)
    ]
    print(f"benchmark files that differ between the trees: {', '.join(differ) or 'none'}")
    parser = PARSERS.get(name)
    results: dict[str, list[list[Metric]]] = {"before": [], "after": []}
    texts: dict[str, list[str]] = {"before": [], "after": []}
    for round_ in range(options.rounds):
        for label in ("before", "after"):
            text, times, _ = run_benchmark(
                f"{label} round {round_ + 1}/{options.rounds}", trees[label], scripts[label], args, workdir
            )
            texts[label].append(text)
            results[label].append(parser(text, times) if parser else [])
    if not parser or not results["before"][0]:
        print(f"\n{name}: no parser for its output; the runs are quoted above")
        return []
    names = [metric[0] for metric in results["before"][0]]
    rows = []
    for metric_name in names:
        values = {
            label: [value for run in runs for (n, value, _, _) in run if n == metric_name]
            for label, runs in results.items()
        }
        unit, better = next((u, b) for (n, _, u, b) in results["before"][0] if n == metric_name)
        if values["before"] and values["after"]:
            rows.append((metric_name, unit, values["before"], values["after"], better))
    title = (
        f"{name} {' '.join(args)}: best of {options.rounds} alternating runs per tree "
        "(after/before: speed, above 1 = faster after)"
    )
    flagged = print_table(title, rows)
    if name == "bench_arrange":  # the estimate's quality should not move at all
        for label in ("before", "after"):
            shortfalls = {line.strip() for text in texts[label] for line in text.splitlines() if "shortfall" in line}
            print(f"{label} shortfall line(s): {' / '.join(sorted(shortfalls))}")
    return [f"{name} {item}" for item in flagged]


def startup(options: argparse.Namespace, trees: dict[str, Path], workdir: Path) -> list[str]:
    cpscore = shutil.which("cpscore", path=str(Path(sys.executable).parent)) or shutil.which("cpscore")
    example = str(ROOT / "examples" / "three-players.txt")
    commands = {
        "python -m cpscore --version": [sys.executable, "-m", "cpscore", "--version"],
        "cpscore --help": [cpscore or "cpscore", "--help"],
        "cpscore score example": [cpscore or "cpscore", "score", example],
    }
    flagged = []
    cache = workdir / "pycache"
    modes = {
        "bytecode cached (PYTHONPYCACHEPREFIX, a temporary folder)": {
            "PYTHONPYCACHEPREFIX": str(cache),
            "PYTHONDONTWRITEBYTECODE": "",
        },
        "from source (PYTHONDONTWRITEBYTECODE=1, nothing cached)": {"PYTHONDONTWRITEBYTECODE": "1"},
    }
    for mode, extra in modes.items():
        envs = {label: tree_env(tree, extra) for label, tree in trees.items()}
        for env in envs.values():
            if not env["PYTHONDONTWRITEBYTECODE"]:
                del env["PYTHONDONTWRITEBYTECODE"]
        baseline_env = dict(os.environ, **extra)
        if not baseline_env["PYTHONDONTWRITEBYTECODE"]:
            del baseline_env["PYTHONDONTWRITEBYTECODE"]
        jobs: list[tuple[str, str | None, list[str], dict[str, str]]] = [
            ("import click", None, [sys.executable, "-c", "import click"], baseline_env)
        ]
        for name, command in commands.items():
            for label in trees:
                jobs.append((name, label, command, envs[label]))
        if mode.startswith("bytecode"):  # which cpscore each command loads
            for name, label, command, env in jobs[1:]:
                result = subprocess.run(
                    command, cwd=workdir, env=dict(env, PYTHONVERBOSE="1"), capture_output=True, text=True
                )
                loaded = re.search(r"(\S+/cpscore/__init__\.py)", result.stderr)
                print(f"{label:6s} {name:28s} loads {loaded[1] if loaded else '?'}")
                if not loaded or not Path(loaded[1]).resolve().is_relative_to(trees[label]):
                    raise SystemExit(f"{label} {name}: cpscore not loaded from {trees[label]}")
        for _, _, command, env in jobs:  # warm the file cache (and the bytecode cache)
            subprocess.run(command, cwd=workdir, env=env, check=True, stdout=subprocess.DEVNULL)
        times: dict[tuple[str, str | None], list[float]] = {(name, label): [] for name, label, _, _ in jobs}
        for round_ in range(options.startup_runs):
            order = jobs if round_ % 2 == 0 else [jobs[0], *reversed(jobs[1:])]  # before first, then after first
            for name, label, command, env in order:
                started = time.perf_counter()
                subprocess.run(command, cwd=workdir, env=env, check=True, stdout=subprocess.DEVNULL)
                times[name, label].append((time.perf_counter() - started) * 1000)
        click_best = min(times["import click", None])
        print(f"\nstart-up, {mode}: {options.startup_runs} alternating rounds, ms")
        header = (
            f"{'command':28s}  {'before best':>11s}  {'after best':>10s}  {'after/before':>12s}  "
            f"{'before med':>10s}  {'after med':>9s}  {'best / click (before, after)':>28s}"
        )
        print(header)
        print("-" * len(header))
        baseline = 'python -c "import click"'
        print(
            f"{baseline:28s}  {click_best:11.1f}  {'':>10s}  {'':>12s}  "
            f"{statistics.median(times['import click', None]):10.1f}"
        )
        for name in commands:
            b, a = times[name, "before"], times[name, "after"]
            ratio = min(b) / min(a)
            mark = f"  <-- below {FLAG:.2f}" if ratio < FLAG else ""
            if mark:
                flagged.append(f"start-up ({mode.split(' (')[0]}) {name}: {ratio:.3f}x")
            print(
                f"{name:28s}  {min(b):11.1f}  {min(a):10.1f}  {ratio:11.3f}x  {statistics.median(b):10.1f}  "
                f"{statistics.median(a):9.1f}  {min(b) / click_best:13.2f}x {min(a) / click_best:6.2f}x{mark}"
            )
    return flagged


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", type=Path, required=True, help="the tree before the change")
    parser.add_argument("--after", type=Path, default=ROOT, help="the tree after (default: this one)")
    parser.add_argument("--script", default="bench_session.py", help="a script in benchmarks/")
    parser.add_argument("--rounds", type=int, default=3, help="runs of the script per tree, alternating")
    parser.add_argument(
        "--scripts", choices=("own", "current"), default="own", help="each tree's copy of the script, or this tree's"
    )
    parser.add_argument("--startup-runs", type=int, default=20)
    parser.add_argument("--no-startup", action="store_true", help="leave out the start-up measurement")
    parser.add_argument("--no-benchmark", action="store_true", help="only the start-up measurement")
    parser.add_argument(
        "--snapshot", action="store_true", help="measure a copy of the after tree taken at the start (edits mid-run)"
    )
    options, extra = parser.parse_known_args()
    trees = {"before": options.before.resolve(), "after": options.after.resolve()}
    for tree in trees.values():
        if not (tree / "cpscore" / "__init__.py").is_file():
            raise SystemExit(f"{tree}: no cpscore package there")
    originals = dict(trees)
    digests = {label: source_digest(tree) for label, tree in trees.items()}
    for label, tree in trees.items():
        print(f"{label}: {tree} at {git_state(tree)} (cpscore sources {digests[label]})")
    print(f"python: {sys.executable} {sys.version.split()[0]}; {os.cpu_count()} cores; load {os.getloadavg()}")
    flagged = []
    with tempfile.TemporaryDirectory(prefix="cpscore-before-after-") as folder:
        workdir = Path(folder)
        if options.snapshot:
            copy = workdir / "after-snapshot"
            for part in ("cpscore", "benchmarks", "examples"):
                shutil.copytree(trees["after"] / part, copy / part, ignore=shutil.ignore_patterns("__pycache__"))
            print(f"after: a snapshot of {trees['after']} (cpscore sources {source_digest(copy)}) in {copy}")
            trees = {**trees, "after": copy}
        if not options.no_benchmark:
            flagged += benchmark(options, extra, trees, workdir)
        if not options.no_startup:
            flagged += startup(options, trees, workdir)
    for label, tree in originals.items():
        if source_digest(tree) != digests[label]:
            print(
                f"WARNING: {tree}'s cpscore sources changed during the run ({digests[label]} -> {source_digest(tree)})"
            )
    print(f"\nload at the end {os.getloadavg()}")
    print(f"below {FLAG:.2f}x: {'; '.join(flagged) if flagged else 'nothing'}")


if __name__ == "__main__":
    main()
