"""Shell completion: what cpscore answers a TAB, through click's protocol (the
environment variables the README's completion scripts set), exactly."""

import os
import shlex
import subprocess
import sys

import pytest
from click.testing import CliRunner
from test_cli import COMMANDS

from cpscore.cli import main
from cpscore.commands import _completion
from cpscore.formatting import table_styles
from cpscore.rules import preset_names

PRESETS = preset_names()
AMY = "Amy=Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d"
BOB = "Bob=Qs Jd 3c / Th Tc 8d 8s 3d / Kh Qh Jh 8h 2h"

NIGHT = """\
@rules 1-6
@players Amy Bob Cy

Amy: Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d
Bob: Qs Jd 3c / Th Tc 8d 8s 3d / Kh Qh Jh 8h 2h
Cy: surrender

@players Amy Bob Dee

Amy: Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d
Bob: Qs Jd 3c / Th Tc 8d 8s 3d / Kh Qh Jh 8h 2h
"""

CRISS_CROSS = """\
Amy[1]: Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d
Amy[2]: Qs Jd 3c / Th Tc 8d 8s 3d / Kh Qh Jh 8h 2h
Bob: surrender
"""


def answer(words, shell="bash"):
    """cpscore's raw answer to a TAB after ``words`` (the last one is the word
    being completed, "" for a new one), as the shell's completion script asks."""
    if shell == "fish":  # fish gives the line up to the cursor, and the word at the cursor
        env = {"COMP_WORDS": shlex.join(["cpscore", *words[:-1]]) + " " + words[-1], "COMP_CWORD": words[-1]}
    else:
        env = {"COMP_WORDS": shlex.join(["cpscore", *words]), "COMP_CWORD": str(len(words))}
    env["_CPSCORE_COMPLETE"] = f"{shell}_complete"
    result = CliRunner().invoke(main, [], env=env, prog_name="cpscore")
    assert (result.exit_code, result.stderr) == (0, "")
    return result.stdout


def completions(*words, shell="zsh"):
    """The words the shell is offered after ``words``: plain ones as
    themselves, the shell's own file and folder completion as ``<file>`` and
    ``<dir>``.  (zsh and fish give words whole; bash cuts them at ':' and
    '=', see BASH_CASES.)"""
    lines = answer(list(words), shell).splitlines()
    if shell == "bash":
        items = [line.partition(",")[::2] for line in lines if line]  # type,value
    else:
        items = [(lines[index], lines[index + 1]) for index in range(0, len(lines) - 1, 3)]  # type, value, help
    return [value.replace("\\:", ":") if kind == "plain" else f"<{kind}>" for kind, value in items]


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """A current folder holding a session, a criss-cross deal, rule files and a sub-folder."""
    (tmp_path / "night.txt").write_text(NIGHT, encoding="utf-8")
    (tmp_path / "cross.txt").write_text(CRISS_CROSS, encoding="utf-8")
    (tmp_path / "house.toml").write_text('preset = "2-4"\n', encoding="utf-8")
    (tmp_path / ".hidden.toml").write_text('preset = "2-4"\n', encoding="utf-8")
    (tmp_path / "notes.txt").write_text("not rules\n", encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "club.toml").write_text('preset = "ofc"\n', encoding="utf-8")
    (tmp_path / "sub" / "readme.md").write_text("", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


CASES = [
    # commands and options: click's, through the lazy group
    ("commands", [""], COMMANDS),
    ("commands s", ["s"], ["score", "session", "stats", "standings", "serve"]),
    ("commands re", ["re"], ["remove", "replace"]),
    ("no command", ["x"], []),
    ("group options", ["-"], ["-h", "--help", "--version", "-V", "-v", "--color"]),
    ("rules subcommand", ["rules", ""], ["show"]),
    ("score options --st", ["score", "--st"], ["--stake", "--style"]),
    ("an option given once is not offered again", ["score", "--style", "grid", "--st"], ["--stake"]),
    ("session options --ex", ["session", "night.txt", "--ex"], ["--explain", "--explain-pair"]),
    ("add options --p", ["add", "night.txt", "--p"], ["--players", "--pair-stake"]),
    ("--format is a choice", ["session", "--format", "j"], ["json", "jsonl"]),
    # --rules: presets, then rule files and folders
    ("presets and files", ["score", "--rules", ""], ["<dir>", *PRESETS, "house.toml"]),
    ("presets p", ["check", "--rules", "p"], ["pineapple", "pusoy", "pineapple-ru", "pineapple-27"]),
    ("presets ofc", ["arrange", "--rules", "ofc"], ["ofc", "ofc-western"]),
    ("preset t, session", ["session", "--rules", "t"], ["turbo", "taiwanese"]),
    ("preset m, stats", ["stats", "--rules", "m"], ["maubinh"]),
    ("preset c, add", ["add", "night.txt", "--rules", "c"], ["capsa"]),
    ("preset s and a folder, play", ["play", "night.txt", "--rules", "s"], ["<dir>", "shisanshui", "shisanshui-old"]),
    ("preset, rules show", ["rules", "show", "2"], ["2-4"]),
    ("a rule file", ["score", "--rules", "h"], ["house.toml"]),
    ("a rule file in a folder", ["score", "--rules", "sub/"], ["sub/club.toml"]),
    ("a rule file in a folder, started", ["score", "--rules", "sub/c"], ["sub/club.toml"]),
    ("hidden rule files when asked", ["score", "--rules", ".h"], [".hidden.toml"]),
    ("no such folder", ["score", "--rules", "nowhere/"], []),
    ("nothing matches", ["score", "--rules", "zz"], []),
    # --style
    ("styles g", ["score", "--style", "g"], ["github", "grid"]),
    ("styles pi, session", ["session", "night.txt", "--style", "pi"], ["pipe"]),
    ("no style", ["check", "--style", "zz"], []),
    # file arguments: the shell's own completion
    ("session file", ["session", ""], ["<file>"]),
    ("add file", ["add", "ni"], ["<file>"]),
    ("score input", ["score", AMY, ""], ["<file>"]),
    # hands and players of the session or deal file on the command line
    ("--surrender, session seats and hands", ["add", "night.txt", "--surrender", ""], ["Amy", "Bob", "Cy", "Dee"]),
    ("--surrender, started", ["add", "night.txt", "--surrender", "D"], ["Dee"]),
    ("--waive leaves out those named", ["add", "night.txt", "--waive", "Amy", "--waive", ""], ["Bob", "Cy", "Dee"]),
    ("--waive, replace", ["replace", "night.txt", "2", "--waive", "B"], ["Bob"]),
    (
        "--surrender, option first",
        ["replace", "--surrender", "Cy", "night.txt", "1", "--surrender", ""],
        ["Amy", "Bob", "Dee"],
    ),
    ("--new-player is no one yet", ["add", "night.txt", "--new-player", ""], []),
    ("add --dealer, the hands", ["add", "night.txt", "--dealer", "C"], ["Cy"]),
    ("pay, the payer", ["pay", "night.txt", ""], ["Amy", "Bob", "Cy", "Dee"]),
    ("pay, the payee", ["pay", "night.txt", "Amy", "B"], ["Bob"]),
    ("standings, files", ["standings", ""], ["<file>"]),
    ("--surrender, criss-cross hands", ["score", "cross.txt", "--surrender", ""], ["Amy[1]", "Amy[2]", "Bob"]),
    (
        "--fantasyland, after other options",
        ["score", "cross.txt", "--rules", "ofc", "--fantasyland", "A"],
        ["Amy[1]", "Amy[2]"],
    ),
    ("--banker, players", ["score", "cross.txt", "--banker", ""], ["Amy", "Bob"]),
    ("--waive, hands on the command line", ["score", AMY, BOB, "--waive", ""], ["Amy", "Bob"]),
    ("two files", ["session", "cross.txt", "night.txt", "--explain-pair", ""], ["Amy:", "Bob:", "Cy:", "Dee:"]),
    ("play --players", ["play", "night.txt", "--players", ""], ["Amy", "Bob", "Cy", "Dee"]),
    (
        "play --players leaves out the seats named",
        ["play", "night.txt", "--players", "Amy Bob", "--players", ""],
        ["Cy", "Dee"],
    ),
    ("add --players, commas", ["add", "night.txt", "--players", "Cy,Amy", "--players", ""], ["Bob", "Dee"]),
    # --pair-stake A: then A:B=, --explain-pair A:B
    ("--pair-stake first player", ["session", "night.txt", "--pair-stake", ""], ["Amy:", "Bob:", "Cy:", "Dee:"]),
    ("--pair-stake first player, started", ["stats", "night.txt", "--pair-stake", "A"], ["Amy:"]),
    (
        "--pair-stake second player",
        ["session", "night.txt", "--pair-stake", "Amy:"],
        ["Amy:Bob=", "Amy:Cy=", "Amy:Dee="],
    ),
    ("--pair-stake second player, started", ["add", "night.txt", "--pair-stake", "Dee:B"], ["Dee:Bob="]),
    ("--pair-stake amount", ["session", "night.txt", "--pair-stake", "Amy:Bob="], []),
    ("--pair-stake no such player", ["session", "night.txt", "--pair-stake", "Zed:"], []),
    ("--pair-stake players of hands", ["score", "cross.txt", "--pair-stake", ""], ["Amy:", "Bob:"]),
    (
        "--explain-pair second player",
        ["session", "night.txt", "--explain-pair", "Bob:"],
        ["Bob:Amy", "Bob:Cy", "Bob:Dee"],
    ),
    ("--explain-pair, score", ["score", AMY, BOB, "--explain-pair", "Amy:"], ["Amy:Bob"]),
    ("no file, no names", ["session", "--pair-stake", ""], []),
]


@pytest.mark.parametrize(("words", "expected"), [case[1:] for case in CASES], ids=[case[0] for case in CASES])
def test_completions(folder, words, expected):
    assert completions(*words) == expected


# Bash cuts a word at ':' and '=' (COMP_WORDBREAKS): Amy:B reaches cpscore as
# Amy, :, B, and bash replaces only what follows the last cut.
BASH_CASES = [
    ("commands", ["s"], ["score", "session", "stats", "standings", "serve"]),
    ("presets", ["check", "--rules", "p"], ["pineapple", "pusoy", "pineapple-ru", "pineapple-27"]),
    ("--surrender", ["add", "night.txt", "--surrender", ""], ["Amy", "Bob", "Cy", "Dee"]),
    ("--pair-stake first player", ["session", "night.txt", "--pair-stake", "B"], ["Bob:"]),
    ("--pair-stake after ':'", ["session", "night.txt", "--pair-stake", "Amy", ":"], ["Bob=", "Cy=", "Dee="]),
    ("--pair-stake after ':', started", ["stats", "night.txt", "--pair-stake", "Amy", ":", "C"], ["Cy="]),
    ("--pair-stake amount", ["session", "night.txt", "--pair-stake", "Amy", ":", "Bob", "="], []),
    ("--pair-stake no such player", ["session", "night.txt", "--pair-stake", "Zed", ":"], []),
    ("--explain-pair after ':'", ["session", "night.txt", "--explain-pair", "Bob", ":"], ["Amy", "Cy", "Dee"]),
    (
        "after a whole pair stake",
        ["session", "night.txt", "--pair-stake", "Amy", ":", "Bob", "=", "10", "--pair-stake", "C"],
        ["Cy:"],
    ),
    ("--option=", ["score", "--rules", "="], ["<dir>", *PRESETS, "house.toml"]),
    ("--option=value", ["score", "--style", "=", "g"], ["github", "grid"]),
    ("--option=A:", ["session", "night.txt", "--pair-stake", "=", "Amy", ":", "B"], ["Bob="]),
    ("NAME=HAND", ["score", "Amy", "=", "x", "Bob[1]", "=", "y", "--waive", ""], ["Amy", "Bob[1]"]),
]


@pytest.mark.parametrize(("words", "expected"), [case[1:] for case in BASH_CASES], ids=[case[0] for case in BASH_CASES])
def test_bash_completions(folder, words, expected):
    assert completions(*words, shell="bash") == expected


OPTION_VALUE_CASES = [
    ("--rules=ta", ["score", "--rules=ta"], ["--rules=taiwanese"]),
    ("--style=gi", ["check", "--style=gi"], ["--style=github"]),
    ("--pair-stake=A", ["session", "night.txt", "--pair-stake=A"], ["--pair-stake=Amy:"]),
    ("--pair-stake=Amy:C", ["session", "night.txt", "--pair-stake=Amy:C"], ["--pair-stake=Amy:Cy="]),
]


@pytest.mark.parametrize("shell", ["zsh", "fish"])
@pytest.mark.parametrize(
    ("words", "expected"), [case[1:] for case in OPTION_VALUE_CASES], ids=[case[0] for case in OPTION_VALUE_CASES]
)
def test_zsh_and_fish_replace_an_option_value_word_whole(folder, shell, words, expected):
    if shell == "fish":
        expected = [f"plain,{value}" for value in expected]
        assert [line.partition("\t")[0] for line in answer(words, "fish").splitlines()] == expected
    else:
        assert completions(*words) == expected


def test_every_style_is_offered(folder):
    assert completions("stats", "night.txt", "--style", "") == table_styles()
    assert "simple" in table_styles() and "rounded_outline" in table_styles()


def test_zsh_and_fish_show_what_a_preset_and_a_command_are():
    assert answer(["score", "--rules", "ta"], "zsh") == (
        "plain\ntaiwanese\nrows with bonuses, scoops double, home run of 3, naturals\n"
    )
    assert answer(["score", "--rules", "ta"], "fish") == (
        "plain,taiwanese\trows with bonuses, scoops double, home run of 3, naturals\n"
    )
    assert answer(["che"], "zsh") == "plain\ncheck\nCheck one hand: each row's category, foul...\n"


def test_fish_completes_pairs(folder):
    assert answer(["session", "night.txt", "--pair-stake", "Cy:"], "fish") == (
        "plain,Cy:Amy=\nplain,Cy:Bob=\nplain,Cy:Dee=\n"
    )


BAD_FILES = {
    "missing": None,
    "a folder": "folder",
    "empty": b"",
    "binary": bytes(range(256)) * 4,
    "UTF-16": "Amy: Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d\n".encode("utf-16"),
    "not UTF-8": b"Amy\xff: Ks Kd 4c\n",
    "no NAME: lines": b"hello world\nthis is not a session\n",
    "an unknown header": b"@colour red\n\nAmy: Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d\n",
    "a line too long": b"Amy" + b" " * 10_000 + b": x\n",
    "bad names": b"=: x\n@x: y\nA#b\n[Amy]: x\n",
}


@pytest.mark.parametrize("content", list(BAD_FILES.values()), ids=list(BAD_FILES))
def test_a_file_that_is_not_a_session_gives_no_names(tmp_path, monkeypatch, content):
    monkeypatch.chdir(tmp_path)
    if content == "folder":
        (tmp_path / "bad.txt").mkdir()
    elif content is not None:
        (tmp_path / "bad.txt").write_bytes(content)
    for option, typed in (("--surrender", ""), ("--pair-stake", ""), ("--pair-stake", "Amy:"), ("--banker", "")):
        assert completions("score", "bad.txt", option, typed) == [], option


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes")
def test_a_named_pipe_is_not_read(tmp_path, monkeypatch):
    """Opening a FIFO nobody writes to would hang the shell."""
    monkeypatch.chdir(tmp_path)
    os.mkfifo(tmp_path / "pipe")
    assert completions("session", "pipe", "--pair-stake", "") == []


@pytest.mark.skipif(not os.path.exists("/proc/self/mem"), reason="no /proc")
def test_a_file_that_cannot_be_read_gives_no_names():
    """/proc/self/mem is a regular file whose first bytes cannot be read (EIO),
    even as root (for whom no permission bit keeps a file unreadable)."""
    assert completions("add", "/proc/self/mem", "--surrender", "") == []


def test_the_names_before_a_bad_line_are_offered(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "night.txt").write_bytes(NIGHT.encode() + b"\nZed\xff: x\nYan: y\n")
    assert completions("add", "night.txt", "--surrender", "") == ["Amy", "Bob", "Cy", "Dee"]


def test_only_the_start_of_a_big_file_is_read(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(_completion, "MAX_READ", len(NIGHT) + 20)
    newcomer = "\nEve: Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d\nZoe: Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d\n"
    (tmp_path / "night.txt").write_text(NIGHT + newcomer, encoding="utf-8")
    # Eve's line is cut at the limit: neither she (her line is left out) nor Zoe is read.
    assert completions("add", "night.txt", "--surrender", "") == ["Amy", "Bob", "Cy", "Dee"]
    monkeypatch.setattr(_completion, "MAX_READ", len(NIGHT) + 60)
    assert completions("add", "night.txt", "--surrender", "") == ["Amy", "Bob", "Cy", "Dee", "Eve"]


def test_a_tab_loads_no_rules(folder, monkeypatch):
    """The --rules callback is not run while completing: no rule set is built,
    and no rule file read (one could be a named pipe, which would never end)."""
    import cpscore.rules

    loaded = []
    monkeypatch.setattr(cpscore.rules, "load_rules_file", lambda path: loaded.append(path))
    monkeypatch.setattr(cpscore.rules, "get_rules", lambda name: loaded.append(name))
    assert completions("score", "--rules", "house.toml", "--st") == ["--stake", "--style"]
    assert completions("session", "night.txt", "--rules", "ofc", "--st") == ["--stake", "--style"]
    assert completions("check", "--st") == ["--style"]  # the default, 2-4
    assert loaded == []


def test_a_failing_completer_offers_nothing(monkeypatch):
    def broken(ctx, param, incomplete):
        raise RuntimeError("a bug")

    monkeypatch.setitem(_completion._KINDS, "styles", broken)
    assert completions("score", "--style", "") == []


# The real entry point, in a subprocess: what the shell runs on a TAB.


def run_cpscore(env, *args):
    env = {**os.environ, **env}
    return subprocess.run([sys.executable, "-m", "cpscore", *args], env=env, capture_output=True, timeout=30)


def test_the_entry_point_answers_a_tab_and_imports_only_what_it_needs():
    """Command names import only the matching command's module, and no table."""
    env = {"_CPSCORE_COMPLETE": "bash_complete", "COMP_WORDS": "cpscore sc", "COMP_CWORD": "1"}
    result = run_cpscore({**env, "PYTHONPROFILEIMPORTTIME": "1"})
    assert (result.returncode, result.stdout) == (0, b"plain,score\n")
    imported = {line.rsplit("|", 1)[1].strip() for line in result.stderr.decode().splitlines() if "|" in line}
    assert "cpscore.commands.score" in imported
    assert not imported & {"cpscore.commands.session", "cpscore.commands.check", "cpscore._tables", "tabulate"}
    assert all(line.startswith("import time:") for line in result.stderr.decode().splitlines())


def test_a_word_that_is_not_utf8_makes_no_traceback(tmp_path):
    env = {"_CPSCORE_COMPLETE": "bash_complete", "COMP_WORDS": "cpscore session \udcff", "COMP_CWORD": "2"}
    result = run_cpscore(env)
    assert (result.returncode, result.stdout, result.stderr) == (1, b"", b"")


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_the_completion_scripts(shell):
    """The README's one line per shell prints click's script for cpscore."""
    result = CliRunner().invoke(main, [], env={"_CPSCORE_COMPLETE": f"{shell}_source"}, prog_name="cpscore")
    assert (result.exit_code, result.stderr) == (0, "")
    assert f"_CPSCORE_COMPLETE={shell}_complete" in result.stdout
    assert "_cpscore_completion" in result.stdout
    no_space = {"bash": "compopt -o nospace", "zsh": "compadd -S '' -U -V unsorted -a completions_no_space"}
    if shell in no_space:  # cpscore's change to click's script is there: no space after Amy: and Amy:Bob=
        assert no_space[shell] in result.stdout


def test_bash_completes_with_the_readme_line(tmp_path):
    """The README's bash line, for real: the script is sourced and its function
    run as bash runs it on a TAB (with a `cpscore` on the PATH)."""
    (tmp_path / "cpscore").write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} -m cpscore "$@"\n')
    (tmp_path / "cpscore").chmod(0o755)
    (tmp_path / "night.txt").write_text(NIGHT, encoding="utf-8")
    (tmp_path / "pool").mkdir()
    script = """
        eval "$(_CPSCORE_COMPLETE=bash_source cpscore)"
        compopt() { local IFS=" "; echo "(compopt $*)"; }  # the builtin works only in a completion bash runs
        tab() {
            COMP_WORDS=("$@")
            COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
            COMPREPLY=()
            _cpscore_completion cpscore
            echo "${COMPREPLY[*]}"
        }
        tab cpscore score --rules p  # and the folder pool/: shown by bash only when nothing else is
        tab cpscore add night.txt --surrender ''
        tab cpscore add night.txt --pair-stake Amy : B
    """
    env = {**os.environ, "PATH": f"{tmp_path}{os.pathsep}{os.environ['PATH']}"}
    result = subprocess.run(["bash", "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=30)
    assert (result.stdout, result.stderr) == (
        "(compopt -o dirnames)\npineapple pusoy pineapple-ru pineapple-27\nAmy Bob Cy Dee\n(compopt -o nospace)\nBob=\n",
        "",
    )
