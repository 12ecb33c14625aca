"""Every console example in the README runs and prints exactly what it shows."""

import os
import pathlib
import re
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).parent.parent


def console_examples():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    for block in re.findall(r"```console\n(.*?)```", text, re.S):
        command, expected = None, []
        for line in block.splitlines():
            if line.startswith("$ "):
                if command:
                    yield command, "\n".join(expected) + "\n"
                command, expected = line[2:], []
            else:
                expected.append(line)
        if command:
            yield command, "\n".join(expected) + "\n"


EXAMPLES = list(console_examples())


def test_the_readme_has_examples():
    assert len(EXAMPLES) >= 8


@pytest.mark.parametrize(("command", "expected"), EXAMPLES, ids=[command[:60] for command, _ in EXAMPLES])
def test_readme_example(command, expected):
    shell = command.replace("cpscore ", f"{sys.executable} -m cpscore ", 1)
    env = {key: value for key, value in os.environ.items() if key != "NO_COLOR"}
    result = subprocess.run(["bash", "-c", shell + " 2>&1"], cwd=ROOT, capture_output=True, text=True, env=env)
    assert result.stdout == expected


def example_commands():
    """Every command an example file's comments give (``cpscore ...`` up to a ``#``)."""
    for path in sorted((ROOT / "examples").iterdir()):
        for line in path.read_text(encoding="utf-8").splitlines():
            found = re.search(r"\bcpscore [^#]*", line) if line.startswith("#") else None
            if found:
                yield path.name, found.group(0).strip()


@pytest.mark.parametrize(("name", "command"), list(example_commands()), ids=lambda value: value[:50])
def test_every_example_file_runs_as_its_comment_says(name, command):
    from click.testing import CliRunner

    from cpscore.cli import main

    args = [str(ROOT / arg) if arg.startswith("examples/") else arg for arg in command.split()[1:]]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, (name, result.output)
    assert result.stdout and not result.stderr.strip(), name
