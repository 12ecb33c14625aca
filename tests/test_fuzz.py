"""Fuzz tests: every command, fed mutated and random input, keeps the command
line's promises (see tests/fuzzing.py): no traceback (nor an 'internal error'),
exit code 0, 1 or 2, and on an error nothing on stdout and only 'Error: '
lines on stderr, none over 300 characters.

The inputs come from the same generators as ``benchmarks/fuzz.py`` (seeded by
hypothesis), and from hypothesis strategies for texts, bytes and numbers.  The
module is bounded to a few seconds; for a long run use the script:

    python benchmarks/fuzz.py --inputs 20000 --seed 1
"""

from __future__ import annotations

import random

import fuzzing
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

# No shrinking: a seed does not shrink into a smaller input, and a failing test
# should stop at once (benchmarks/fuzz.py reduces its reproducers).
FUZZ = dict(
    deadline=None, database=None, phases=(Phase.explicit, Phase.generate), suppress_health_check=list(HealthCheck)
)
SEEDS = st.integers(min_value=0, max_value=2**64 - 1)

# What a command-line argument can hold: any character but NUL; of the
# surrogates only U+DC80..U+DCFF (bytes that are not UTF-8, as Python decodes argv).
ARG_CHARS = st.one_of(
    st.characters(exclude_categories=("Cs",), exclude_characters="\x00"),
    st.sampled_from([c for c in fuzzing.SPECIAL_CHARS if len(c) == 1 and c != "\x00"]),
    st.sampled_from(fuzzing.ARG_SURROGATES),
)
ARG_TEXT = st.lists(
    st.one_of(ARG_CHARS, st.sampled_from([c for c in fuzzing.SPECIAL_CHARS if c != "\x00"])), max_size=40
).map("".join)
FILE_TEXT = st.text(st.characters(exclude_categories=("Cs",)), max_size=200)


@pytest.fixture(scope="module")
def runner():
    with fuzzing.Runner(timeout=3.0) as runner:
        yield runner


def assert_keeps_promises(runner: fuzzing.Runner, case: fuzzing.Case) -> None:
    outcome = runner.run(case)
    failure = outcome.failure
    assert failure is None, f"{failure.key}\n{failure.detail}\n\nreproducer:\n{case.describe()}"


def seeded(command: str, seed: int) -> fuzzing.Case:
    return fuzzing.generate_for(command, random.Random(seed))


# The harness itself -------------------------------------------------------------------------


def test_valid_examples_pass(runner):
    """The README's commands run cleanly: a failure below is cpscore's, not the harness's."""
    deal = "Amy=Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d"
    examples = {name: text.encode() for name, text in fuzzing.SEED_DEALS.items()}
    own_rules = {"naturals.txt": "taiwanese", "false-claim.txt": "maubinh"}
    cases = [fuzzing.Case("score", ["score", name], dict(examples)) for name in examples if name not in own_rules] + [
        *[
            fuzzing.Case("score", ["score", "--rules", rules, name], dict(examples))
            for name, rules in own_rules.items()
        ],
        fuzzing.Case(
            "score", ["score", "--rules", "ofc", "--stake", "10", "--explain", "four-players.txt"], dict(examples)
        ),
        fuzzing.Case("score", ["score", "--format", "json", "-"], {}, examples["two-players.txt"]),
        fuzzing.Case("session", ["session", "s.txt"], {"s.txt": fuzzing.SEED_SESSION.encode()}),
        fuzzing.Case("session", ["session", "--format", "jsonl", "-"], {}, fuzzing.SEED_SESSION.encode()),
        fuzzing.Case("check", ["check", "--rules", "ofc", "Qs Qd 5c / 9h 9c 4d 4s 2c / As Ks Qh Jd Tc"]),
        fuzzing.Case("arrange", ["arrange", "--top", "2", *"Ah Ad Ac 7s 7d Ks Kd 4c 9h 9c 5d 5s 2c".split()]),
        fuzzing.Case("rules", ["rules"]),
        fuzzing.Case("rules show", ["rules", "show", "h.toml"], {"h.toml": fuzzing.SEED_HOUSE.encode()}),
        *[fuzzing.Case("rules show", ["rules", "show", name]) for name in fuzzing.PRESETS],
    ]
    for case in cases:
        outcome = runner.run(case)
        assert outcome.exit_code == 0 and outcome.failure is None, case.describe()
    # A bad input that is reported properly passes too.
    bad = fuzzing.Case("score", ["score", deal.replace("4c", "Xc"), "Bob=Qs Jd 3c / Th Tc 8d 8s 3d / Kh Qh Jh 8h 2h"])
    outcome = runner.run(bad)
    assert outcome.exit_code == 2 and outcome.failure is None, outcome


def test_the_check_catches_broken_promises():
    check = fuzzing.check_outcome
    assert check("score", 0, b"table\n", b"", None) is None
    assert check("score", 2, b"", b"Error: bad card\n", SystemExit(2)) is None
    usage = b"Usage: cpscore score [OPTIONS]\nTry 'cpscore score -h' for help.\n\nError: No such option: --x\n"
    assert check("score", 2, b"", usage, SystemExit(2)) is not None  # one line, no usage text
    usage = b"Error: No such option: --x (see 'cpscore score -h')\n"
    assert check("score", 2, b"", usage, SystemExit(2)) is None
    assert check("score", 1, b"", b"", KeyError("x")).key.startswith("KeyError")
    assert check("score", 3, b"", b"Error: x\n", SystemExit(3)).key.startswith("exit code 3")
    assert check("score", 2, b"half a table", b"Error: x\n", SystemExit(2)).key.startswith("stdout not empty")
    assert check("score", 2, b"", b"Warning: y\nError: x\n", SystemExit(2)).key.startswith("stderr has 'Warning: …")
    assert check("score", 2, b"", b"Error: x\ry\n", SystemExit(2)).key.startswith("stderr has a message broken")
    assert check("score", 2, b"", b"Error: x\n y\n", SystemExit(2)).key.startswith("stderr has a message broken")
    assert check("score", 2, b"", b"Error: " + b"x" * 600 + b"\n", SystemExit(2)).key.startswith("stderr line over")
    assert check("score", 2, b"", b"oops\n", SystemExit(2)).key.startswith("no 'Error: ' line")


def test_inputs_are_deterministic():
    a = fuzzing.generate(fuzzing.case_rng(7, 3))
    b = fuzzing.generate(fuzzing.case_rng(7, 3))
    assert a == b


# Every command, from the seeded generators ------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "examples"),
    [
        ("score", 65),
        ("check", 65),
        ("session", 55),
        ("add", 50),
        ("standings", 25),
        ("pay", 25),
        ("arrange", 15),
        ("rules show", 40),
        ("rules", 10),
        ("junk", 30),
    ],
    ids=lambda value: str(value).replace(" ", "-"),
)
def test_every_command_keeps_its_promises(runner, command, examples):
    @settings(max_examples=examples, **FUZZ)
    @given(seed=SEEDS)
    def keeps_promises(seed):
        assert_keeps_promises(runner, seeded(command, seed))

    keeps_promises()


# Rule files: --rules FILE.toml and rules show FILE.toml ---------------------------------------------


RULE_COMMANDS = ("rules show", "score", "check", "session", "arrange")


@settings(max_examples=40, **FUZZ)
@given(seed=SEEDS, command=st.sampled_from(RULE_COMMANDS))
def test_rule_files(runner, seed, command):
    rng = random.Random(seed)
    text = fuzzing.random_rule_text(rng)
    data = fuzzing.encode(rng, text)
    case = rule_file_case(rng, command, data)
    assert_keeps_promises(runner, case)


def rule_file_case(rng: random.Random, command: str, data: bytes) -> fuzzing.Case:
    files = {"house.toml": data}
    if command == "rules show":
        return fuzzing.Case(command, ["rules", "show", "house.toml"], files)
    if command == "session":
        case = fuzzing.generate_for("session", rng, mutate=0)
        if rng.random() < 0.5:  # the rules in the header, relative to the session file
            case.files = dict(case.files, **files)
            session = "s.txt"
            body = fuzzing.random_session_text(rng, {})[0]
            body = "\n".join(line for line in body.splitlines() if not line.startswith("@rules"))
            case.files[session] = ("@rules house.toml\n" + body).encode()
            case.args = ["session", session]
            case.stdin = None
            return case
    else:
        case = fuzzing.generate_for(command, rng, mutate=0)
    args = [a for i, a in enumerate(case.args) if a != "--rules" and (i == 0 or case.args[i - 1] != "--rules")]
    case.args = [args[0], "--rules", "house.toml", *args[1:]]
    case.files = dict(case.files, **files)
    return case


TOML_SETTINGS = (
    [(key,) for key in fuzzing.SETTINGS_TOP]
    + [("royalties", key) for key in fuzzing.ROYALTY_KEYS]
    + [("royalties", "front", key) for key in fuzzing.FRONT_KEYS[::3]]
    + [("royalties", row, key) for row in ("middle", "back") for key in fuzzing.FIVE_KEYS]
    + [("naturals", key) for key in fuzzing.NATURAL_KEYS]
)
TOML_VALUES = st.one_of(
    st.integers(),
    st.integers(min_value=-(10**40), max_value=10**40),
    st.decimals(allow_nan=True, allow_infinity=True, places=None),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30),
    st.booleans(),
    st.sampled_from(fuzzing.TOML_RAW_NUMBERS).map(fuzzing.Raw),
    st.lists(st.integers(min_value=0, max_value=5), max_size=3),
)


@settings(max_examples=40, **FUZZ)
@given(
    preset=st.sampled_from(fuzzing.PRESETS),
    values=st.lists(st.tuples(st.sampled_from(TOML_SETTINGS), TOML_VALUES), max_size=4),
    command=st.sampled_from(("rules show", "score", "check")),
    seed=SEEDS,
)
def test_rule_file_values(runner, preset, values, command, seed):
    data: dict = {"preset": preset}
    for path, value in values:
        table = data
        for part in path[:-1]:
            table = table.setdefault(part, {})
        if isinstance(value, float):
            value = fuzzing.Raw(repr(value))
        table[path[-1]] = value
    text = fuzzing.toml_dump(data)
    assert_keeps_promises(runner, rule_file_case(random.Random(seed), command, text.encode("utf-8", "surrogatepass")))


# Strategies for texts, bytes and numbers -------------------------------------------------------------


@settings(max_examples=50, **FUZZ)
@given(
    words=st.lists(
        st.one_of(ARG_TEXT, st.sampled_from(fuzzing.SEED_HANDS + fuzzing.NATURAL_HANDS)), min_size=1, max_size=4
    ),
    rules=st.sampled_from(fuzzing.PRESETS),
    fmt=st.sampled_from(("table", "json")),
)
def test_check_any_text(runner, words, rules, fmt):
    assert_keeps_promises(runner, fuzzing.Case("check", ["check", "--rules", rules, "--format", fmt, *words]))


@settings(max_examples=50, **FUZZ)
@given(
    data=st.one_of(st.binary(max_size=300), FILE_TEXT.map(lambda t: t.encode())),
    command=st.sampled_from((["score", "-"], ["session", "-"], ["check", "-"], ["arrange", "-"], ["add", "s.txt"])),
    rules=st.sampled_from(fuzzing.PRESETS),
)
def test_any_stdin(runner, data, command, rules):
    args = [command[0], *([] if command[0] == "add" else ["--rules", rules]), *command[1:]]
    assert_keeps_promises(runner, fuzzing.Case(command[0], args, {}, data))


@settings(max_examples=50, **FUZZ)
@given(
    lines=st.lists(
        st.one_of(
            st.sampled_from([f"{name}: {hand}" for name, hand in zip(fuzzing.NAMES * 4, fuzzing.SEED_HANDS)]),
            st.sampled_from(["", "# c", "@rules ofc", "@stake 10", "Carl: surrender", "Amy[1]: surrender"]),
            FILE_TEXT,
        ),
        max_size=10,
    ),
    command=st.sampled_from(("score", "session", "add")),
    encoding=st.sampled_from(("utf-8", "utf-8-sig", "utf-16", "latin-1")),
)
def test_any_deal_file(runner, lines, command, encoding):
    data = "\n".join(lines).encode(encoding, "replace")
    if command == "add":
        case = fuzzing.Case("add", ["add", "night.txt", "--new-player", "Amy", "Amy=" + fuzzing.NATURAL_HANDS[0]])
    else:
        case = fuzzing.Case(command, [command, "night.txt"])
    case.files = {"night.txt": data}
    assert_keeps_promises(runner, case)


AMOUNT_TEXT = st.one_of(
    st.sampled_from(fuzzing.AMOUNTS),
    st.decimals(allow_nan=True, allow_infinity=True).map(str),
    st.integers().map(str),
    st.floats().map(repr),
    ARG_TEXT,
)


@settings(max_examples=40, **FUZZ)
@given(
    stake=AMOUNT_TEXT,
    pair=st.one_of(AMOUNT_TEXT, st.none()),
    command=st.sampled_from(("score", "session")),
    rules=st.sampled_from(fuzzing.PRESETS),
)
def test_any_stake(runner, stake, pair, command, rules):
    files = {"deal.txt": fuzzing.SEED_DEALS["three-players.txt"].encode(), "s.txt": fuzzing.SEED_SESSION.encode()}
    target = "deal.txt" if command == "score" else "s.txt"
    names = ("Ann", "Ben") if command == "score" else ("Amy", "Bob")
    args = [command, "--rules", rules, "--stake", stake, target]
    if pair is not None:
        args += ["--pair-stake", f"{names[0]}:{names[1]}={pair}"]
    assert_keeps_promises(runner, fuzzing.Case(command, args, files))
