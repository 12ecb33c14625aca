"""Every console example in the README and the docs runs and prints exactly
what it shows; the README stays short; the command reference and the man
pages in docs/ are what the commands' help says."""

import os
import pathlib
import re
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).parent.parent


PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def console_examples():
    text = "".join(page.read_text(encoding="utf-8") for page in PAGES)
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


def test_the_readme_and_the_docs_have_examples():
    assert len(EXAMPLES) >= 8


def test_the_readme_is_short_and_opens_with_the_two_commands():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) < 200
    assert (
        "pip install . && cpscore score examples/three-players.txt\npip install '.[test]' && python -m pytest" in text
    )


def test_the_command_reference_and_the_man_pages_are_up_to_date():
    from cpscore.commands._reference import written

    stale = [
        str(path.relative_to(ROOT))
        for path, text in written(ROOT / "docs").items()
        if not path.exists() or path.read_text(encoding="utf-8") != text
    ]
    assert not stale, f"out of date (python -m cpscore.commands._reference docs): {stale}"
    for folder, suffix in (("man", ".1"), ("schemas", ".json")):  # none left over
        pages = {path.name for path in (ROOT / "docs" / folder).iterdir()}
        assert pages == {path.name for path in written(ROOT / "docs") if path.suffix == suffix}, folder


@pytest.mark.parametrize(("command", "expected"), EXAMPLES, ids=[command[:60] for command, _ in EXAMPLES])
def test_readme_example(command, expected):
    shell = command.replace("cpscore ", f"{sys.executable} -m cpscore ", 1)
    env = {key: value for key, value in os.environ.items() if key != "NO_COLOR"}
    result = subprocess.run(["bash", "-c", shell + " 2>&1"], cwd=ROOT, capture_output=True, text=True, env=env)
    assert result.stdout == expected


def example_commands():
    """Every command an example file's comments give (``cpscore ...`` up to a ``#``)."""
    for path in sorted(path for path in (ROOT / "examples").rglob("*") if path.is_file()):
        for line in path.read_text(encoding="utf-8").splitlines():
            found = re.search(r"\bcpscore [^#]*", line) if line.startswith("#") else None
            if found:
                yield str(path.relative_to(ROOT / "examples")), found.group(0).strip()


@pytest.mark.parametrize(("name", "command"), list(example_commands()), ids=lambda value: value[:50])
def test_every_example_file_runs_as_its_comment_says(name, command):
    from click.testing import CliRunner

    from cpscore.cli import main

    args = [str(ROOT / arg) if arg.startswith("examples/") else arg for arg in command.split()[1:]]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, (name, result.output)
    assert result.stdout and not result.stderr.strip(), name


def shell_examples():
    """The whole ``cpscore`` commands of the ``sh`` blocks of the README and the
    docs (a line continued with ``\\``; its comment dropped), by page.  Left out:
    a command with a placeholder (``...``, ``<TAB>``), and ``serve`` and ``play``,
    which wait for the table (their own tests run them)."""
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        commands = []
        for block in re.findall(r"```sh\n(.*?)```", text, re.S):
            for line in re.sub(r"\\\n\s*", " ", block).splitlines():
                command = re.split(r"\s+#\s", line.strip(), maxsplit=1)[0].strip()
                if not command.startswith("cpscore ") or "..." in command or "<TAB>" in command:
                    continue
                if command.split()[1] in ("serve", "play"):
                    continue
                commands.append(command)
        if commands:
            yield page, commands


def _files_of(text: str) -> dict[str, str]:
    """The rule files a page writes out (a toml block after a mention of `NAME.toml`)."""
    found = {}
    for match in re.finditer(r"```toml\n(.*?)```", text, re.S):
        named = re.findall(r"`([\w-]+\.toml)`", text[max(0, match.start() - 300) : match.start()])
        if named:
            found[named[-1]] = match.group(1)
    return found


@pytest.mark.parametrize(("page", "commands"), list(shell_examples()), ids=lambda value: getattr(value, "name", ""))
def test_every_shell_example_runs(tmp_path, page, commands):
    """In a folder with the examples and the page's rule files, each command in turn exits 0."""
    import shutil

    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    for name, text in _files_of(page.read_text(encoding="utf-8")).items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    env = {key: value for key, value in os.environ.items() if key != "NO_COLOR"}
    for command in commands:
        shell = command.replace("cpscore ", f"{sys.executable} -m cpscore ", 1)
        result = subprocess.run(["bash", "-c", shell], cwd=tmp_path, capture_output=True, text=True, env=env)
        assert result.returncode == 0, (command, result.stderr)
