"""Record what cpscore prints for a fixed set of inputs, and compare two such records.

Issue 19 (the rule-set refactor: rule sets and the settlement kernel) must leave
every output byte for byte as it was.  This script proves it: ``produce`` runs
cpscore's click entry point in-process (click.testing.CliRunner, as
tests/test_cli.py does) on a fixed set of inputs and writes, for each case, the
exact stdout, stderr and exit code to a JSON file; ``compare`` diffs two such
files.  The inputs:

- every example in examples/ with the command it is for (score, session, check,
  stats, rules show), in the table format, JSON (and JSONL, CSV), --totals,
  --explain, under its own rules, other presets and examples/house-rules.toml;
- ``cpscore rules``, ``cpscore rules show NAME`` for every preset, and --help;
- about 3,000 random deals (benchmarks/make_session.py's generator, fixed seeds)
  as sessions of 2, 3 and 4 players under every preset (session --format json,
  jsonl, csv, table, --totals; stats), a sample of them as single deals
  (score --format json, score --explain, check --format json), and house rule
  files that turn on what no preset does (cap, foul_plays, low_middle, ...);
- bad rule files (an unknown key, a wrong enum value, a wrong type, a bogus
  royalties.mode, ineffective combinations, ...) with their error and exit code.

The inputs are always this tree's (its examples/ and make_session.py), whichever
cpscore runs.  They are written to a temporary folder and cpscore runs with that
folder as its working directory, given relative paths; the one place a path still
gets out (a session's "@rules FILE" error names the rule file by its full path) has
the folder replaced by <TMP>, so that runs compare.  The generated files are
recorded too (a digest of each, kind "input": make_session.py draws from the
cpscore under test's cards), so a difference in the inputs shows up as one.

    python benchmarks/compare_outputs.py check --before /tmp/before19
    PYTHONPATH=/tmp/before19 python benchmarks/compare_outputs.py produce /tmp/before.json
    python benchmarks/compare_outputs.py produce /tmp/after.json   # the tree installed (editable: this one)
    python benchmarks/compare_outputs.py compare /tmp/before.json /tmp/after.json

``produce`` uses whatever ``cpscore`` is imported (PYTHONPATH comes before the
editable install); it says which on stderr and in the file's "meta".  (To check by
hand, run ``python -c 'import cpscore; print(cpscore.__file__)'`` outside this
tree: ``python -c`` puts the working directory first on sys.path.)  ``check``
produces both in subprocesses (--before TREE, and --after TREE, default this
tree, each put first on PYTHONPATH) and compares them.  --deals N (default
3000) and --seed S (default 19) choose the random deals; both runs of a
comparison must use the same.  ``compare`` exits 1 when any case differs or is
missing from one side, 0 when all are equal.
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import importlib.metadata
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
EXAMPLES = ROOT / "examples"
PLACEHOLDER = "<TMP>"

#: Every preset, in the order ``cpscore rules`` lists them (cpscore/presetgen.py ORDER), with
#: the most players a deal may have and the options a session needs.  Fixed here rather than
#: read from the package, so that the inputs are the same whichever cpscore runs.
PRESETS = {
    "2-4": {"max_players": 4},
    "1-6": {"max_players": 4},
    "ofc": {"max_players": 4},
    "ofc-western": {"max_players": 4},
    "pineapple": {"max_players": 3},
    "taiwanese": {"max_players": 4},
    "shisanshui": {"max_players": 4},
    "maubinh": {"max_players": 4},
    "capsa": {"max_players": 4},
    "pusoy": {"max_players": 4},  # banker pairing: the first player banks, the bank rotates
    "pineapple-ru": {"max_players": 3, "options": ["--buy-in", "10000"]},  # table stakes: a buy-in is required
}
#: Presets that allow a surrender (the others refuse one): the generated deals include some.
SURRENDER = {"2-4", "1-6", "ofc", "ofc-western", "pineapple", "pineapple-ru"}
PLAYERS = ("Amy", "Bob", "Cy", "Dee")

#: House rule files turning on settings no preset uses; each plays a short generated session.
HOUSE_RULES = {
    "cap-deal": 'preset = "1-6"\ncap = 12\ncap_scope = "deal"\n',
    "cap-session": 'preset = "ofc"\ncap = 150\ncap_scope = "session"\n',
    "foul-plays": 'preset = "2-4"\nfoul_plays = true\n',
    "low-middle": 'preset = "1-6"\nlow_middle = true\n',
    "method-1-4": 'preset = "2-4"\nmethod = "1-4"\nwheel = "second"\n',
    "home-run-equal": 'preset = "taiwanese"\nhome_run_min_opponents = 2\nhome_run_split = "equal"\n',
    "suits": 'preset = "1-6"\nsuit_order = ["s", "h", "c", "d"]\nsuit_foul = true\n',
    "banker-fixed": 'preset = "1-6"\npairing = "banker"\nbanker_rotation = "fixed"\nbanker_wins_ties = true\n',
    "progressive-fl": 'preset = "ofc"\nfantasyland = "progressive"\n',
    "spade-own": 'preset = "ofc"\n\n[royalties]\nspade_bonus = "own"\n',
    "cancel-max": 'preset = "ofc-western"\n\n[royalties]\ncancel_when_both = true\nmax_per_hand = 1\n',
    "broken": 'preset = "ofc"\n\n[royalties]\nbroken_royalties = true\n',
    "stack-300": 'preset = "ofc"\ntable_stakes = 300\n',
    "row-bonus": 'preset = "1-6"\nsurrender = 3.5\n\n[royalties]\nmode = "row-bonus"\n\n[royalties.back]\nflush = 1\nquads = 5\n',
}

#: Rule files that must be refused (or warned about): each is shown, and used to score a deal.
BAD_RULES = {
    "unknown-key": 'preset = "2-4"\nbogus_setting = 1\n',
    "unknown-royalty-key": 'preset = "ofc"\n\n[royalties]\nbogus = 1\n',
    "unknown-front-key": 'preset = "ofc"\n\n[royalties.front]\nAAAA = 3\n',
    "unknown-natural": 'preset = "taiwanese"\n\n[naturals]\nfour-dragons = 9\n',
    "wrong-enum-method": 'preset = "2-4"\nmethod = "2-5"\n',
    "wrong-enum-fantasyland": 'preset = "ofc"\nfantasyland = "sometimes"\n',
    "wrong-type-surrender": 'preset = "2-4"\nsurrender = "lots"\n',
    "wrong-type-max-players": 'preset = "2-4"\nmax_players = "four"\n',
    "wrong-type-royalty": 'preset = "ofc"\n\n[royalties.back]\nflush = "four"\n',
    "out-of-range-max-players": 'preset = "2-4"\nmax_players = 5\n',
    "out-of-range-home-run": 'preset = "taiwanese"\nhome_run_min_opponents = 4\n',
    "negative-surrender": 'preset = "2-4"\nsurrender = -1\n',
    "royalties-mode-bogus": 'preset = "ofc"\n\n[royalties]\nmode = "bogus"\n',
    "banker-ties-all-pairing": 'preset = "2-4"\nbanker_wins_ties = true\npairing = "all"\n',
    "fl-cards-14-no-fl": 'preset = "2-4"\nfantasyland_cards = 14\n',
    "suit-foul-no-suits": 'preset = "1-6"\nsuit_foul = true\n',
    "no-preset": 'method = "1-6"\n',
    "unknown-preset": 'preset = "omaha"\n',
    "not-toml": 'preset = "2-4"\nmethod = \n',
    "cap-scope-bogus": 'preset = "1-6"\ncap = 10\ncap_scope = "night"\n',
    "suit-order-bad": 'preset = "1-6"\nsuit_order = ["s", "h", "x", "d"]\n',
}


# --------------------------------------------------------------------------- produce


class Recorder:
    """Runs cpscore in-process and keeps each case's stdout, stderr and exit code."""

    def __init__(self, tmp: Path) -> None:
        from click.testing import CliRunner

        from cpscore.cli import main

        self.main = main
        try:  # click < 8.2 mixes stderr into stdout unless told not to
            self.runner = CliRunner(mix_stderr=False)
        except TypeError:
            self.runner = CliRunner()
        self.tmp_paths = sorted({str(tmp), os.path.realpath(tmp)}, key=len, reverse=True)
        self.cases: dict[str, dict] = {}

    def stable(self, text: str) -> str:
        """TEXT with the temporary folder's path replaced by <TMP>.

        cpscore shortens an error line to 300 characters, so a line that held the path
        and came near that could differ with the path's length: such a line is reported.
        """
        for path in self.tmp_paths:
            if path in text:
                for line in text.splitlines():
                    if path in line and len(line) >= 290:
                        print(f"warning: a line near 300 characters holds the temporary path: {line}", file=sys.stderr)
                text = text.replace(path, PLACEHOLDER)
        return text

    def run(self, kind: str, case_id: str, args: list[str], stdin: str | None = None) -> dict:
        if case_id in self.cases:
            raise ValueError(f"case id given twice: {case_id}")
        result = self.runner.invoke(self.main, args, input=stdin, prog_name="cpscore", catch_exceptions=True)
        case = {
            "kind": kind,
            "args": args,
            "stdout": self.stable(result.stdout_bytes.decode("utf-8", "backslashreplace")),
            "stderr": self.stable(result.stderr_bytes.decode("utf-8", "backslashreplace")),
            "exit_code": result.exit_code,
        }
        if stdin is not None:
            case["stdin"] = stdin
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            case["exception"] = self.stable(f"{type(result.exception).__name__}: {result.exception}")
        self.cases[case_id] = case
        return case

    def cmd(self, kind: str, args: list[str], stdin: str | None = None, label: str | None = None) -> dict:
        """A case whose id is its command line (or LABEL and the options, for long arguments)."""
        case_id = f"{kind}: cpscore {' '.join(args)}" if label is None else f"{kind}: {label}"
        return self.run(kind, case_id, args, stdin)

    def note(self, kind: str, case_id: str, text: str) -> None:
        """A case that is not a command: a digest of an input, so that inputs are compared too."""
        self.cases[f"{kind}: {case_id}"] = {"kind": kind, "args": [], "stdout": text, "stderr": "", "exit_code": 0}


def hand_lines(path: Path) -> list[tuple[str, str]]:
    """The (name, hand) lines of a deal or session file."""
    hands = []
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if not line or line.startswith("@") or ":" not in line:
            continue
        name, hand = line.split(":", 1)
        hands.append((name.strip(), hand.strip()))
    return hands


def record_examples(rec: Recorder) -> None:
    """Every example with the command it is for, in every format it has."""
    house = "examples/house-rules.toml"
    # deal files: (file, the rules to play it under, its own first; the options its comment gives)
    deals = [
        ("two-players.txt", ["2-4", "ofc", "pusoy", house], []),
        ("three-players.txt", ["2-4", "ofc", "capsa", house], []),
        ("four-players.txt", ["1-6", "ofc-western", "shisanshui", house], ["--stake", "5"]),
        ("naturals.txt", ["taiwanese", "2-4", "shisanshui", "maubinh", house], []),
        ("false-claim.txt", ["maubinh", "taiwanese"], []),
        ("surrender.txt", ["2-4", "1-6", "ofc", house], []),
    ]
    for name, rule_sets, extra in deals:
        path = f"examples/{name}"
        for rules in rule_sets:
            for fmt in ("table", "json", "csv"):
                rec.cmd("example", ["score", "--rules", rules, "--format", fmt, *extra, path])
            rec.cmd("example", ["score", "--rules", rules, "--explain", *extra, path])
        rec.cmd("example", ["score", path])  # the defaults, as the file's comment runs it
    # the README's own command lines
    rec.cmd(
        "example",
        ["score", "--rules", "ofc", "--stake", "10", "--pair-stake", "Ann:Ben=100", "examples/three-players.txt"],
    )
    rec.cmd("example", ["score", "--explain", "--rules", "ofc", "--stake", "10", "examples/four-players.txt"])
    rec.cmd("example", ["score", "--explain-pair", "Amy:Dan", "--rules", "ofc", "examples/four-players.txt"])
    rec.cmd(
        "example", ["score", "--style", "grid", "--rules", "pusoy", "--banker", "Ben", "examples/three-players.txt"]
    )
    rec.cmd("example", ["score", "--rules", "pineapple-ru", "--buy-in", "20", "examples/three-players.txt"])
    rec.cmd(
        "example",
        ["score", "--rules", "pineapple-ru", "--buy-in", "20", "--format", "json", "examples/three-players.txt"],
    )
    rec.cmd(
        "example", ["score", "--rules", "ofc", "--spade-bonus", "--fantasyland", "Ann", "examples/three-players.txt"]
    )
    rec.cmd("example", ["score", "--rules", "taiwanese", "--waive", "Eve", "--format", "json", "examples/naturals.txt"])
    rec.cmd("example", ["score", "--surrender", "Amy", "--format", "json", "examples/two-players.txt"])
    text = (EXAMPLES / "three-players.txt").read_text(encoding="utf-8")
    rec.cmd(
        "example",
        ["score", "--rules", "shisanshui", "-"],
        stdin=text,
        label="cpscore score --rules shisanshui - < examples/three-players.txt",
    )

    # session files: (file, the options to read it with besides its own header's)
    sessions = [
        ("session.txt", [["--rules", "1-6"], ["--rules", "ofc-western"], ["--rules", house]]),
        ("seats.txt", [["--rules", "ofc"], ["--rules", "taiwanese"], ["--rules", house]]),
        ("banker.txt", [["--rules", "capsa"], ["--rules", "pineapple"], ["--rules", house]]),
        ("table-stakes.txt", [["--rules", "ofc"], ["--buy-in", "500"], ["--buy-in", "12"]]),
    ]
    for name, variants in sessions:
        path = f"examples/{name}"
        for extra in [[], *variants]:
            for fmt in ("table", "json", "jsonl", "csv"):
                rec.cmd("example", ["session", "--format", fmt, *extra, path])
            rec.cmd("example", ["session", "--totals", *extra, path])
            rec.cmd("example", ["session", "--totals", "--format", "json", *extra, path])
            rec.cmd("example", ["session", "--explain", *extra, path])
            rec.cmd("example", ["stats", *extra, path])
            rec.cmd("example", ["stats", "--format", "json", *extra, path])
        rec.cmd("example", ["session", "--race", "5", "--format", "json", path])
        rec.cmd("example", ["session", "--deal", "2", "--style", "github", path])
    rec.cmd("example", ["session", "--stake", "2.5", "--pair-stake", "Amy:Bob=7", "examples/session.txt"])
    rec.cmd("example", ["session", "--buy-in", "30", "--format", "json", "examples/table-stakes.txt"])
    rec.cmd("example", ["session", "examples/session.txt", "examples/seats.txt"])
    rec.cmd("example", ["session", "--spade-bonus", "--format", "jsonl", "examples/session.txt"])

    # check: every hand of every example, under its rules and ofc, table and JSON
    checks = []
    for name, rule_sets, _ in deals + [(s, ["ofc"], []) for s, _ in sessions]:
        for _, hand in hand_lines(EXAMPLES / name):
            hand = hand.split(";", 1)[0].strip()
            if hand != "surrender":
                for rules in (rule_sets[0], "ofc", house):
                    checks += [["check", "--rules", rules, "--format", fmt, hand] for fmt in ("table", "json")]
                checks.append(["check", "--rules", "ofc", "--fantasyland", hand])
    for args in dict.fromkeys(map(tuple, checks)):  # each hand and rules once, in the order met
        rec.cmd("example", list(args))
    for rules, hand in [
        ("ofc", "Qs Qd 5c / 9h 9c 4d 4s 2c / As Ks Qh Jd Tc"),
        ("taiwanese", "9h Td Jc Qs Kh 9d Tc Js Qh Kd 2c 3s 4h"),
        ("pineapple", "Qs Qd 5c / 9h 9c 4d 4s 2c / As Ks Qh Jd Tc"),
        ("ofc", "Qs Qd 5c / 9h 9c 9d 4s 2s / Ah Kh Qh Jh 8h"),
        ("pusoy", "Qs Qd 5c / 9h 9c 9d 4s 2s / Ah Kh Qh Jh 8h"),
    ]:
        rec.cmd("example", ["check", "--rules", rules, hand])
        rec.cmd("example", ["check", "--rules", rules, "--spade-bonus", "--format", "json", hand])
    rec.cmd("example", ["rules", "show", house])


def record_rules(rec: Recorder) -> None:
    listed = rec.cmd("rules", ["rules"])
    names = [line.split()[0] for line in listed["stdout"].splitlines() if line.strip()]
    if names != list(PRESETS):
        print(f"note: cpscore rules lists {names}, this script plays {list(PRESETS)}", file=sys.stderr)
    for name in dict.fromkeys([*PRESETS, *names]):
        rec.cmd("rules", ["rules", "show", name])
    for args in (
        ["rules", "show", "nosuch"],
        ["rules", "show", "missing.toml"],
        ["score", "--rules", "nosuch", "examples/two-players.txt"],
    ):
        rec.cmd("rules", args)
    for command in (
        "--help",
        "score --help",
        "check --help",
        "session --help",
        "stats --help",
        "rules --help",
        "rules show --help",
    ):
        rec.cmd("help", command.split())


def write_session(
    path: Path, count: int, rules: str, seed: int, players: tuple[str, ...], surrender: bool
) -> list[list[str]]:
    """make_session.write_session for any number of players: the same hands from the same seed.

    With SURRENDER, a second generator (so that the hands stay make_session's) makes about
    one hand in 40 a surrender.  Returns the deals, each a list of 'NAME: HAND' lines.
    """
    from make_session import random_hand

    from cpscore.cards import CARDS

    rng = random.Random(seed)
    marks = random.Random(seed + 1)
    deck = list(CARDS)
    deals = []
    with open(path, "w", encoding="utf-8") as out:
        out.write(f"# {count} random deals (benchmarks/make_session.py, seed {seed})\n@rules {rules}\n")
        for _ in range(count):
            rng.shuffle(deck)
            out.write("\n")
            lines = []
            for seat, name in enumerate(players):
                hand = random_hand(rng, deck[13 * seat : 13 * seat + 13])
                if surrender and marks.random() < 0.025:
                    hand = "surrender"
                lines.append(f"{name}: {hand}")
            out.write("".join(line + "\n" for line in lines))
            deals.append(lines)
    return deals


def digest(path: Path) -> str:
    data = path.read_bytes()
    return f"sha256 {hashlib.sha256(data).hexdigest()}, {len(data)} bytes\n"


def record_generated(rec: Recorder, tmp: Path, total: int, seed: int) -> None:
    """Sessions of 2, 3 and 4 players under every preset; a sample as single deals."""
    folder = tmp / "gen"
    folder.mkdir()
    plan = [(preset, n) for preset, spec in PRESETS.items() for n in (2, 3, 4) if n <= spec["max_players"]]
    per_file, extra = divmod(total, len(plan))
    sample = random.Random(seed)
    for index, (preset, n) in enumerate(plan):
        count = per_file + (index < extra)
        name = f"gen/{preset}-{n}p.txt"
        deals = write_session(tmp / name, count, preset, seed * 1000 + index, PLAYERS[:n], preset in SURRENDER)
        rec.note("input", name, digest(tmp / name))
        options = PRESETS[preset].get("options", [])
        money = {2: [], 3: ["--stake", "2.5"], 4: ["--pair-stake", "Amy:Bob=10"]}[n]
        for fmt in ("json", "jsonl", "csv", "table"):
            rec.cmd("session", ["session", *options, *money, "--format", fmt, name])
        rec.cmd("session", ["session", *options, *money, "--totals", name])
        rec.cmd("session", ["session", *options, *money, "--totals", "--format", "json", name])
        rec.cmd("session", ["stats", *options, *money, "--format", "json", name])
        # single deals: score --format json on one in 4, --explain and check on one in 20
        for number, lines in enumerate(deals, 1):
            hands = [line.replace(": ", "=", 1) for line in lines]
            label = f"{name} deal {number}"
            if sample.random() < 1 / 4:
                args = ["score", "--rules", preset, *options, "--format", "json", *hands]
                rec.cmd("score", args, label=f"cpscore score --rules {preset} --format json <{label}>")
            if sample.random() < 1 / 20:
                args = ["score", "--rules", preset, *options, "--stake", "3", "--explain", *hands]
                rec.cmd("explain", args, label=f"cpscore score --rules {preset} --stake 3 --explain <{label}>")
                hand = lines[0].split(": ", 1)[1]
                if hand != "surrender":
                    rec.cmd(
                        "check",
                        ["check", "--rules", preset, "--format", "json", hand],
                        label=f"cpscore check --rules {preset} --format json <{label}, first hand>",
                    )
    # table stakes that run out: the session ends, a later deal is an error (or skipped)
    name = "gen/pineapple-ru-3p.txt"
    rec.cmd("session", ["session", "--buy-in", "40", "--format", "json", name])
    rec.cmd("session", ["session", "--buy-in", "40", "--skip-invalid", "--format", "jsonl", name])
    rec.cmd("session", ["session", "--buy-in", "40", "--skip-invalid", "--totals", name])
    rec.cmd("session", ["session", "--buy-in", "150", "--skip-invalid", "--format", "json", "gen/pineapple-ru-2p.txt"])
    rec.cmd("session", ["session", "--rules", "pineapple", "--race", "11", "--format", "json", name])


def record_house(rec: Recorder, tmp: Path, deals: int, seed: int) -> None:
    """House rule files that change what no preset does, each on a short session."""
    (tmp / "house").mkdir()
    for index, (name, text) in enumerate(HOUSE_RULES.items()):
        rules = f"house/{name}.toml"
        (tmp / rules).write_text(text, encoding="utf-8")
        session = f"house/{name}-3p.txt"
        # the header is relative to the session's folder: the rule file beside it
        write_session(
            tmp / session,
            deals,
            f"{name}.toml",
            seed * 1000 + 500 + index,
            PLAYERS[:3],
            text.split('"')[1] in SURRENDER,
        )
        rec.note("input", session, digest(tmp / session))
        rec.cmd("house", ["rules", "show", rules])
        rec.cmd("house", ["session", "--stake", "2", "--format", "json", session])
        rec.cmd("house", ["session", "--totals", session])
        rec.cmd("house", ["session", "--deal", "1-3", "--explain", session])
        rec.cmd("house", ["score", "--rules", rules, "--explain", "examples/four-players.txt"])


def record_arrange(rec: Recorder, seed: int) -> None:
    """The arranger under every preset and the house rule files: random hands of
    13 cards, and Fantasyland hands of 14 and 17 where the rules play it."""
    from cpscore.cards import CARDS

    rng = random.Random(seed * 7 + 1)
    deck = [str(card) for card in CARDS]
    targets = [(preset, PRESETS[preset].get("options", [])) for preset in PRESETS]
    targets += [(f"house/{name}.toml", []) for name in HOUSE_RULES]
    for rules, options in targets:
        for number in range(6):
            hand = " ".join(rng.sample(deck, 13))
            fmt = "json" if number % 2 else "table"
            role = ["--player"] if rules in ("pusoy",) else []
            rec.cmd("arrange", ["arrange", "--rules", rules, *options, *role, "--format", fmt, hand])
        if rules in ("ofc", "pineapple"):
            for count in (14, 17):
                hand = " ".join(rng.sample(deck, count))
                rec.cmd("arrange", ["arrange", "--rules", rules, "--format", "json", hand])
    hand = " ".join(rng.sample(deck, 13))
    rec.cmd("arrange", ["arrange", "--rules", "ofc", "--simulate", "40", "--format", "json", hand])
    rec.cmd("arrange", ["arrange", "--rules", "ofc", "--spade-bonus", "--top", "5", hand])


def record_bad(rec: Recorder, tmp: Path) -> None:
    """Rule files that are refused (one error line naming the file and setting) or warned about."""
    (tmp / "bad").mkdir()
    for name, text in BAD_RULES.items():
        rules = f"bad/{name}.toml"
        (tmp / rules).write_text(text, encoding="utf-8")
        rec.cmd("bad-rules", ["rules", "show", rules])
        rec.cmd("bad-rules", ["score", "--rules", rules, "examples/two-players.txt"])
        rec.cmd(
            "bad-rules", ["check", "--rules", rules, "--format", "json", "Qs Qd 5c / 9h 9c 4d 4s 2c / As Ks Qh Jd Tc"]
        )
        session = f"bad/{name}-session.txt"
        (tmp / session).write_text(
            f"@rules {name}.toml\n\n" + (EXAMPLES / "two-players.txt").read_text(encoding="utf-8"), encoding="utf-8"
        )
        rec.cmd("bad-rules", ["session", session])
    # bad options for the presets that need them
    rec.cmd("bad-rules", ["session", "gen/pineapple-ru-2p.txt"])  # no buy-in
    rec.cmd("bad-rules", ["session", "--rules", "pineapple", "gen/ofc-4p.txt"])  # too many players
    rec.cmd("bad-rules", ["score", "--rules", "2-4", "--banker", "Amy", "examples/two-players.txt"])
    rec.cmd("bad-rules", ["score", "--rules", "2-4", "--fantasyland", "Amy", "examples/two-players.txt"])
    rec.cmd("bad-rules", ["score", "--rules", "2-4", "--spade-bonus", "examples/two-players.txt"])
    rec.cmd("bad-rules", ["score", "--rules", "taiwanese", "--surrender", "Amy", "examples/two-players.txt"])


def produce(out: Path, deals: int, seed: int) -> int:
    import cpscore

    start = time.perf_counter()
    tmp = Path(tempfile.mkdtemp(prefix="cpscore-compare-"))
    previous = os.getcwd()
    print(f"cpscore {getattr(cpscore, '__version__', '?')} from {Path(cpscore.__file__).parent}", file=sys.stderr)
    try:
        shutil.copytree(EXAMPLES, tmp / "examples")
        os.chdir(tmp)
        rec = Recorder(tmp)
        record_examples(rec)
        record_rules(rec)
        record_generated(rec, tmp, deals, seed)
        record_house(rec, tmp, max(3, deals // 100), seed)
        record_arrange(rec, seed)
        record_bad(rec, tmp)
    finally:
        os.chdir(previous)
        shutil.rmtree(tmp, ignore_errors=True)
    seconds = time.perf_counter() - start
    kinds = Counter(case["kind"] for case in rec.cases.values())
    meta = {
        "cpscore": str(Path(cpscore.__file__).parent),
        "version": getattr(cpscore, "__version__", None),
        "click": importlib.metadata.version("click"),
        "python": sys.version.split()[0],
        "deals": deals,
        "seed": seed,
        "seconds": round(seconds, 1),
        "cases": len(rec.cases),
        "kinds": dict(sorted(kinds.items())),
    }
    with open(out, "w", encoding="utf-8") as file:
        json.dump({"meta": meta, "cases": rec.cases}, file, ensure_ascii=False, indent=1)
        file.write("\n")
    exits = Counter(case["exit_code"] for case in rec.cases.values())
    print(f"{len(rec.cases)} cases in {seconds:.1f} s to {out}", file=sys.stderr)
    print("  by kind: " + ", ".join(f"{kind} {count}" for kind, count in sorted(kinds.items())), file=sys.stderr)
    print("  by exit code: " + ", ".join(f"{code}: {count}" for code, count in sorted(exits.items())), file=sys.stderr)
    broken = [case_id for case_id, case in rec.cases.items() if "exception" in case]
    for case_id in broken[:10]:
        print(f"  uncaught exception: {case_id}: {rec.cases[case_id]['exception']}", file=sys.stderr)
    return 0


# --------------------------------------------------------------------------- compare


def load(path: Path) -> dict:
    with open(path, encoding="utf-8") as file:
        data = json.load(file)
    if not isinstance(data, dict) or "cases" not in data:
        raise SystemExit(f"{path}: not a file written by compare_outputs.py produce")
    return data


def readable(text: str) -> list[str] | None:
    """JSON or JSONL output laid out one value a line, so that a diff shows the field; else None."""
    if not text.strip():
        return None
    try:
        values = [json.loads(text)]
    except ValueError:
        try:
            values = [json.loads(line) for line in text.splitlines() if line.strip()]
        except ValueError:
            return None
    return [line + "\n" for value in values for line in json.dumps(value, indent=1, ensure_ascii=False).splitlines()]


def case_diff(before: dict, after: dict, limit: int = 20, width: int = 200) -> list[str]:
    """A short account of how two records of a case differ: the exit code, then a unified diff
    of stdout, stderr (and an uncaught exception); JSON is laid out a value a line first (only
    for the diff: the comparison is of the exact text).  At most LIMIT lines of WIDTH characters."""
    lines = []
    if before["exit_code"] != after["exit_code"]:
        lines.append(f"exit code {before['exit_code']} -> {after['exit_code']}")
    for field in ("stdout", "stderr", "exception"):
        old, new = before.get(field, ""), after.get(field, "")
        if old == new:
            continue
        old_lines, new_lines = old.splitlines(keepends=True), new.splitlines(keepends=True)
        old_json, new_json = readable(old), readable(new)
        note = ""
        if old_json is not None and new_json is not None:
            if old_json != new_json:
                old_lines, new_lines, note = old_json, new_json, " (JSON laid out)"
            else:
                lines.append(f"{field}: the same JSON values, written differently (spacing)")
        diff = difflib.unified_diff(old_lines, new_lines, f"before {field}{note}", f"after {field}{note}", n=1)
        for line in diff:
            line = line[:-1] if line.endswith("\n") else line + "  (no newline at end)"
            lines.append(line if len(line) <= width else line[:width] + f"... ({len(line)} characters)")
    return lines[:limit] + ([f"... ({len(lines) - limit} more lines)"] if len(lines) > limit else [])


def compare(before_path: Path, after_path: Path) -> int:
    before, after = load(before_path), load(after_path)
    for label, data, path in (("before", before, before_path), ("after", after, after_path)):
        meta = data.get("meta", {})
        print(
            f"{label}: {path}: cpscore from {meta.get('cpscore')}, {meta.get('cases')} cases, deals {meta.get('deals')}, seed {meta.get('seed')}"
        )
    old, new = before["cases"], after["cases"]
    for key in ("deals", "seed"):
        if before.get("meta", {}).get(key) != after.get("meta", {}).get(key):
            print(f"warning: the two runs used different --{key}: their random cases are not the same inputs")
    common = [case_id for case_id in old if case_id in new]
    only_before = [case_id for case_id in old if case_id not in new]
    only_after = [case_id for case_id in new if case_id not in old]
    differ = [
        case_id
        for case_id in common
        if any(old[case_id].get(f) != new[case_id].get(f) for f in ("stdout", "stderr", "exit_code", "exception"))
    ]
    for case_id in differ:
        print(f"\nDIFFERS: {case_id}")
        for line in case_diff(old[case_id], new[case_id]):
            print(f"  {line}")
    for label, ids in (("only in before", only_before), ("only in after", only_after)):
        for case_id in ids[:20]:
            print(f"{label}: {case_id}")
        if len(ids) > 20:
            print(f"{label}: ... and {len(ids) - 20} more")
    kinds = Counter(old[case_id]["kind"] for case_id in common)
    bad_kinds = Counter(old[case_id]["kind"] for case_id in differ)
    print(f"\ncompared {len(common)} cases: {len(common) - len(differ)} equal, {len(differ)} differ", end="")
    print(f", {len(only_before)} only in before, {len(only_after)} only in after")
    print(
        "  by kind: "
        + ", ".join(
            f"{k} {n}" + (f" ({bad_kinds[k]} differ)" if bad_kinds[k] else "") for k, n in sorted(kinds.items())
        )
    )
    return 1 if differ or only_before or only_after else 0


# --------------------------------------------------------------------------- check


def check(before_tree: Path, after_tree: Path, deals: int, seed: int, keep: Path | None) -> int:
    folder = keep or Path(tempfile.mkdtemp(prefix="cpscore-compare-out-"))
    folder.mkdir(parents=True, exist_ok=True)
    outputs = {"before": folder / "before.json", "after": folder / "after.json"}
    trees = {"before": before_tree.resolve(), "after": after_tree.resolve()}
    processes = {}
    for label, tree in trees.items():
        if not (tree / "cpscore" / "__init__.py").is_file():
            raise SystemExit(f"{tree}: no cpscore package there")
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(tree), env.get("PYTHONPATH")]))
        command = [
            sys.executable,
            str(Path(__file__).resolve()),
            "produce",
            str(outputs[label]),
            "--deals",
            str(deals),
            "--seed",
            str(seed),
        ]
        print(f"{label}: PYTHONPATH={tree} {' '.join(command[1:])}", file=sys.stderr)
        processes[label] = subprocess.Popen(command, env=env)
    failed = [label for label, process in processes.items() if process.wait() != 0]
    if failed:
        print(f"produce failed for {', '.join(failed)}", file=sys.stderr)
        return 2
    try:
        for label, tree in trees.items():
            found = load(outputs[label]).get("meta", {}).get("cpscore")
            if Path(found) != tree / "cpscore":
                print(f"warning: the {label} run imported cpscore from {found}, not {tree / 'cpscore'}")
        return compare(outputs["before"], outputs["after"])
    finally:
        if keep is None:
            shutil.rmtree(folder, ignore_errors=True)
        else:
            print(f"kept {outputs['before']} and {outputs['after']}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    p_produce = commands.add_parser("produce", help="record every case's output under the cpscore imported")
    p_produce.add_argument("out", type=Path, help="the JSON file to write")
    p_compare = commands.add_parser("compare", help="compare two records; exit 1 if any case differs")
    p_compare.add_argument("before", type=Path)
    p_compare.add_argument("after", type=Path)
    p_check = commands.add_parser("check", help="produce under two trees (subprocesses) and compare")
    p_check.add_argument(
        "--before", type=Path, required=True, help="the tree (a folder holding cpscore/) before the change"
    )
    p_check.add_argument("--after", type=Path, default=ROOT, help=f"the tree after it (default {ROOT})")
    p_check.add_argument("--keep", type=Path, help="keep before.json and after.json in this folder")
    for sub in (p_produce, p_check):
        sub.add_argument("--deals", type=int, default=3000, help="random deals across the presets (default 3000)")
        sub.add_argument("--seed", type=int, default=19, help="the random deals' seed (default 19)")
    args = parser.parse_args()
    if args.command == "produce":
        sys.path.insert(1, str(HERE))  # make_session (sys.path[0] is this folder when run as a script)
        return produce(args.out, args.deals, args.seed)
    if args.command == "compare":
        return compare(args.before, args.after)
    return check(args.before, args.after, args.deals, args.seed, args.keep)


if __name__ == "__main__":
    sys.exit(main())
