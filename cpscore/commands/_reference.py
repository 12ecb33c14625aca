"""The command reference (``docs/reference.md``) and the man pages
(``docs/man/*.1``), generated from the click commands themselves: each
command's help, as ``cpscore COMMAND -h`` prints it; and the JSON Schemas
of the outputs, copied from the package (``docs/schemas/``) for the site.  A test fails when the
files in docs/ are not what this writes; write them anew with::

    python -m cpscore.commands._reference docs
"""

from __future__ import annotations

import pathlib
import sys

import click

from cpscore import __version__

#: The width the help is wrapped at, whatever the terminal that writes the files.
WIDTH = 88


def _commands() -> list[tuple[str, click.Command, click.Context]]:
    """Every command, as (its full name, the command, its context): the group, its
    commands in ``cpscore --help``'s order, and the subcommands of a group among them."""
    from cpscore.commands import main

    root = click.Context(main, info_name="cpscore", max_content_width=WIDTH, terminal_width=WIDTH)
    found: list[tuple[str, click.Command, click.Context]] = [("cpscore", main, root)]

    def walk(group: click.Group, parent: click.Context, path: str) -> None:
        for name in group.list_commands(parent):
            command = group.get_command(parent, name)
            if command is None or command.hidden:
                continue
            context = click.Context(command, info_name=name, parent=parent)
            found.append((f"{path} {name}", command, context))
            if isinstance(command, click.Group):
                walk(command, context, f"{path} {name}")

    walk(main, root, "cpscore")
    return found


def reference() -> str:
    """``docs/reference.md``: every command's help."""
    parts = [
        "# Command reference\n",
        "Every command's help, as `cpscore COMMAND -h` prints it (generated from the commands by "
        "`python -m cpscore.commands._reference docs`; a test fails when it is out of date). The "
        "same text is in the man pages, `docs/man/`.\n",
    ]
    for name, command, context in _commands():
        parts.append(f"## `{name}`\n\n```text\n{command.get_help(context).rstrip()}\n```\n")
    return "\n".join(parts)


def _roff(text: str) -> str:
    """Text as a man page's roff: its backslashes and leading dots and quotes escaped."""
    lines = []
    for line in text.replace("\\", "\\e").splitlines():
        lines.append("\\&" + line if line.startswith((".", "'")) else line)
    return "\n".join(lines)


def man_pages() -> dict[str, str]:
    """``docs/man/NAME.1`` for each command (``cpscore-session.1``; ``cpscore.1`` for the group)."""
    pages = {}
    commands = _commands()
    names = [name.replace(" ", "-") for name, _, _ in commands]
    for name, command, context in commands:
        file = name.replace(" ", "-")
        # The help's first sentence, whole (click's short help cuts it at a width).
        first = " ".join((command.help or "").split("\n\n")[0].split())
        summary = first.split(". ")[0].rstrip(".")
        see_also = [other for other in names if other != file and (file == "cpscore" or other == "cpscore")]
        usage = " ".join(command.collect_usage_pieces(context))
        help_text = command.get_help(context)
        body = help_text.split("\n", 1)[1].lstrip("\n") if help_text.startswith("Usage:") else help_text
        pages[f"{file}.1"] = "\n".join(
            [
                f'.TH "{file.upper()}" "1" "" "cpscore {__version__}" "cpscore manual"',  # no date: the same every run
                ".SH NAME",
                f"{file} \\- {_roff(summary)}",
                ".SH SYNOPSIS",
                f".B {name}",
                _roff(usage),
                ".SH DESCRIPTION",
                ".nf",
                _roff(body.rstrip()),
                ".fi",
                ".SH SEE ALSO",
                ", ".join(f"{other}(1)" for other in see_also)
                + "; the documentation in the docs/ folder of the source.",
                "",
            ]
        )
    return pages


def written(folder: pathlib.Path) -> dict[pathlib.Path, str]:
    """Each generated file under ``folder`` (docs/) and its text."""
    files = {folder / "reference.md": reference()}
    files.update({folder / "man" / name: text for name, text in man_pages().items()})
    schemas = pathlib.Path(__file__).parent.parent / "schemas"
    files.update(
        {folder / "schemas" / path.name: path.read_text(encoding="utf-8") for path in sorted(schemas.glob("*.json"))}
    )
    return files


def main(arguments: list[str]) -> int:
    if len(arguments) != 1:
        print("usage: python -m cpscore.commands._reference DOCS-FOLDER", file=sys.stderr)
        return 2
    folder = pathlib.Path(arguments[0])
    (folder / "man").mkdir(parents=True, exist_ok=True)
    (folder / "schemas").mkdir(parents=True, exist_ok=True)
    for path, text in written(folder).items():
        path.write_text(text, encoding="utf-8")
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
