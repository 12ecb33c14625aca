"""Shell completion that knows cpscore (click's completion: the README's one
line per shell sources the script; a TAB runs ``cpscore`` with
``_CPSCORE_COMPLETE=bash_complete`` and the words typed so far).

Click completes the command names and options; the options' ``shell_complete``
functions (:func:`cpscore.commands._options.completer`) call :func:`complete`
here, which offers

* for ``--rules``: the presets, each with its summary, then the rule files
  (``.toml``) and the folders that start with the word typed;
* for ``--style``: the table styles;
* for the options that name a hand or a player (``--surrender``, ``--waive``,
  ``--fantasyland``, ``--banker``, ``--players``, ``--pair-stake A:B=``,
  ``--explain-pair A:B``): the names in the deal or session files already
  on the command line (their hands and ``@players`` seats), and the names of
  ``NAME=HAND`` arguments;
* for a file argument: the shell's own file completion.

:func:`use_cpscore_shells` makes bash and zsh complete ``A:B=`` as fish does:
no space after a value that ends in ``:`` or ``=``, and, in bash, the word
``Amy:B`` whole (bash cuts it at ``:`` and ``=``); and every shell complete
``--rules=o`` as ``--rules=ofc``.

This module is imported only when the shell asks, never on a run.  Nothing
here raises or prints (a TAB must never show a traceback): a file that is
missing, unreadable, not a regular file or not a session gives no names, and
an unexpected error gives no completion at all.
"""

from __future__ import annotations

import os
import stat
from typing import TYPE_CHECKING

import click
from click.shell_completion import BashComplete, CompletionItem, FishComplete, ZshComplete, add_completion_class

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

#: How much of a deal or session file is read for its names: a TAB must answer
#: at once, whatever the file.  256 kB is about 1,300 deals of four players (a long
#: night), read in some 40 ms; a newcomer after them is not offered.
MAX_READ = 256 * 1024
#: How many entries of a folder are looked at for rule files (a huge folder
#: must not hold up a TAB either).
MAX_FOLDER = 5000


def complete(kind: str, ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """The completions of ``kind`` for ``param``; none, rather than an error."""
    try:
        return _KINDS[kind](ctx, param, incomplete)
    except Exception:  # a TAB never prints a traceback: no completion instead
        return []


def _rules(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """The presets that start with ``incomplete`` (with their summary), then
    the rule files, after the folder item if there is one: bash's script
    drops what came before a folder item, and shows the folders only when
    nothing else is offered."""
    items = []
    if "/" not in incomplete:
        from cpscore.rules import get_rules, preset_names

        items = [
            CompletionItem(name, help=get_rules(name).summary) for name in preset_names() if name.startswith(incomplete)
        ]
    return sorted(items + _rule_files(incomplete), key=lambda item: item.type != "dir")


def _rule_files(incomplete: str) -> list[CompletionItem]:
    """The ``.toml`` files in the folder ``incomplete`` names (the current
    one if it names none) that start with its last part, and one folder item
    if a folder there does too, which lets the shell walk into it.  Hidden
    names only when the part starts with a dot."""
    folder, slash, start = incomplete.rpartition("/")
    prefix = folder + slash
    files, folders = [], False
    try:
        with os.scandir(os.path.expanduser(prefix) if prefix else ".") as entries:
            for count, entry in enumerate(entries):
                if count == MAX_FOLDER:
                    break
                if not entry.name.startswith(start) or (entry.name[0] == "." and not start.startswith(".")):
                    continue
                if entry.is_dir():
                    folders = True
                elif entry.name.endswith(".toml"):
                    files.append(prefix + entry.name)
    except (OSError, ValueError):  # no such folder, not one, not readable; a NUL in the word
        return []
    found = [CompletionItem(incomplete, type="dir")] if folders else []
    return found + [CompletionItem(name) for name in sorted(files)]


def _styles(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    from cpscore.formatting import table_styles

    return [CompletionItem(style) for style in table_styles() if style.startswith(incomplete)]


def _files(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """The shell's own completion of file names."""
    return [CompletionItem(incomplete, type="file")]


def _hands(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """The hands of the deal (``Amy``, ``Amy[1]``), for ``--surrender``,
    ``--waive`` and ``--fantasyland``; those the option already names left out."""
    return _offer(_names(ctx, hands=True), incomplete, _given(ctx, param))


def _players(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """The players (``Amy`` for ``Amy[1]``), for ``--banker`` and ``--players``;
    those the option already names left out."""
    return _offer(_names(ctx, hands=False), incomplete, _given(ctx, param))


def _pairs(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """``A:`` for each player, then ``A:B=`` (``--pair-stake``; ``A:B`` for
    ``--explain-pair``) for each other player once ``A:`` is typed."""
    players = _names(ctx, hands=False)
    first, colon, second = incomplete.partition(":")
    if not colon:
        return _offer([f"{name}:" for name in players], incomplete)
    if "=" in second or first not in players:
        return []
    end = "=" if param.name == "pair_stakes" else ""
    return _offer([f"{first}:{name}{end}" for name in players if name != first], incomplete)


def _offer(names: Iterable[str], incomplete: str, given: Iterable[str] = ()) -> list[CompletionItem]:
    """The names that start with ``incomplete``, in order, each once, but
    those ``given``."""
    left_out = set(given)
    return [
        CompletionItem(name) for name in dict.fromkeys(names) if name.startswith(incomplete) and name not in left_out
    ]


def _given(ctx: click.Context, param: click.Parameter) -> list[str]:
    """The names an option given several times already holds (``--players``
    values may each hold several, separated as on a ``@players`` line)."""
    values = ctx.params.get(param.name) if param.name else None
    if not isinstance(values, tuple):
        return []
    given: list[str] = []
    for value in values:
        if isinstance(value, str):
            given += [part.strip() for part in (value.split(",") if "," in value else value.split())]
    return given


def _names(ctx: click.Context, hands: bool) -> list[str]:
    """The names the command line knows so far, in order: those of each deal
    or session file among the arguments (the seats of its ``@players`` lines,
    then its hands), then those of ``NAME=HAND`` arguments; each hand name
    (``Amy[1]``) as its player's (``Amy``) unless ``hands``."""
    from cpscore.deal import owner

    names: list[str] = []
    typed = []
    for word in _arguments(ctx):
        if word != "-" and _is_file(word):
            names += _file_names(word)
        elif "=" in word:
            typed.append(word.partition("=")[0].strip())
    names += [name for name in typed if name]
    if hands:
        return names
    players = []
    for name in names:
        try:
            players.append(owner(name))
        except Exception:  # a bad OWNER[LABEL] is no player
            continue
    return players


def _arguments(ctx: click.Context) -> list[str]:
    """The command's arguments typed so far: their values, and the words that
    click could not place yet (an option waiting for its value stops the
    parse, which leaves the arguments before it in ``ctx.args``)."""
    words: list[object] = []
    for param in ctx.command.params:
        if isinstance(param, click.Argument) and param.name:
            value = ctx.params.get(param.name)
            words += value if isinstance(value, tuple) else [value]
    return [word for word in (*words, *ctx.args) if isinstance(word, str)]


def _is_file(path: str) -> bool:
    """Whether ``path`` is a regular file (a FIFO or a device would never end)."""
    try:
        return stat.S_ISREG(os.stat(os.path.expanduser(path)).st_mode)
    except (OSError, ValueError):
        return False


def _file_names(path: str) -> list[str]:
    """The seats and hands a deal or session file names, from its first
    :data:`MAX_READ` bytes; those read before a line the file cannot be read
    past (not UTF-8, too long, a bad header), and none for a file that is not
    a session at all."""
    import io

    from cpscore.session import read_session
    from cpscore.textio import read_lines

    names: list[str] = []
    try:
        with open(os.path.expanduser(path), "rb") as file:
            data = file.read(MAX_READ)
        if len(data) == MAX_READ:  # the last line is cut: leave it out
            data = data[: data.rfind(b"\n") + 1]
        header, deals = read_session(read_lines(io.BytesIO(data), path), path)
        seats = [header.players] if header.players else []
        names += _seats(seats)
        for deal in deals:
            names += _seats(value for key, value, _ in deal.changes if key == "players")
            names += [entry.name for entry in deal.entries]
    except Exception:  # an unreadable or invalid file: the names read so far
        pass
    return names


def _seats(values: Iterable[str]) -> list[str]:
    from cpscore.session import seat_names

    names = []
    for value in values:
        try:
            names += seat_names([value], "@players")
        except Exception:  # a bad @players line names no seat
            continue
    return names


_KINDS: dict[str, Callable[[click.Context, click.Parameter, str], list[CompletionItem]]] = {
    "rules": _rules,
    "styles": _styles,
    "files": _files,
    "hands": _hands,
    "players": _players,
    "pairs": _pairs,
}


def use_cpscore_shells() -> None:
    """Complete with :class:`_Bash`, :class:`_Zsh` and :class:`_Fish`: click's,
    which would leave ``A:B=`` pairs uncompletable in bash, add a space after
    ``Amy:`` in bash and zsh, and offer ``ofc`` for ``--rules=o``, which zsh
    and fish put in place of the whole word."""
    add_completion_class(_Bash)
    add_completion_class(_Zsh)
    add_completion_class(_Fish)


#: What cpscore adds to click's scripts: no space after a plain value that ends
#: in ``:`` or ``=`` (``Amy:``, ``Amy:Bob=``), which a second TAB or an amount
#: continues.  If click's script changes so that an anchor is gone, it is used
#: as it is (tests/test_completion.py checks the change is there).
_NO_SPACE = {
    "bash": [
        (
            "            COMPREPLY+=($value)\n",
            "            COMPREPLY+=($value)\n            [[ $value == *[:=] ]] && compopt -o nospace\n",
        )
    ],
    "zsh": [
        ("    local -a response\n", "    local -a response\n    local -a completions_no_space\n"),
        (
            '            if [[ "$descr" == "_" ]]; then\n',
            '            if [[ "$descr" == "_" && "$key" == *[:=] ]]; then\n'
            '                completions_no_space+=("$key")\n'
            '            elif [[ "$descr" == "_" ]]; then\n',
        ),
        (
            '    if [ -n "$completions" ]; then\n',
            '    if [ -n "$completions_no_space" ]; then\n'
            "        compadd -S '' -U -V unsorted -a completions_no_space\n"
            "    fi\n\n"
            '    if [ -n "$completions" ]; then\n',
        ),
    ],
}


def _script(template: str, shell: str) -> str:
    """Click's completion script for ``shell`` with :data:`_NO_SPACE` added."""
    edited = template
    for old, new in _NO_SPACE[shell]:
        if edited.count(old) != 1:
            return template
        edited = edited.replace(old, new)
    return edited


#: The characters at which bash cuts a word for completion (of its
#: COMP_WORDBREAKS, those a cpscore word holds: ``Amy:Bob=10``, ``--rules=ofc``).
_BREAKS = ":="


class _Bash(BashComplete):
    """Click's bash completion, with the words bash cut at ``:`` and ``=``
    joined again (``Amy``, ``:``, ``B`` is ``Amy:B``), and each value given
    back as the part after the last cut, which is what bash replaces."""

    source_template = _script(BashComplete.source_template, "bash")

    def get_completion_args(self) -> tuple[list[str], str]:
        args, incomplete = super().get_completion_args()
        if not incomplete:  # a new word, after a space
            return _joined(args), ""
        words = _joined([*args, incomplete])
        return words[:-1], words[-1]

    def get_completions(self, args: list[str], incomplete: str) -> list[CompletionItem]:
        tail = incomplete[max(map(incomplete.rfind, _BREAKS)) + 1 :]
        return _replacing(super().get_completions(args, incomplete), incomplete, len(incomplete) - len(tail))


def _joined(words: list[str]) -> list[str]:
    """The words with those made of :data:`_BREAKS` alone joined to the words
    either side of them, as they were typed (a cpscore word never is ``:`` or
    ``=`` alone)."""
    joined: list[str] = []
    glue = False
    for word in words:
        if word and not word.strip(_BREAKS):
            if joined:
                joined[-1] += word
            else:
                joined.append(word)
            glue = True
        elif glue:
            joined[-1] += word
            glue = False
        else:
            joined.append(word)
    return joined


def _replacing(items: list[CompletionItem], incomplete: str, kept: int) -> list[CompletionItem]:
    """The values as the shell puts them in place of the word typed but its
    first ``kept`` characters: click's values complete the word, or in
    ``--option=value`` what follows ``=``, which zsh and fish replace with
    the whole word (bash only the part after its last cut, :class:`_Bash`)."""
    value = incomplete.partition("=")[2] if incomplete[:1] == "-" and "=" in incomplete else incomplete
    before = incomplete[: len(incomplete) - len(value)]
    if not before and not kept:
        return items
    replaced = []
    for item in items:
        whole = before + item.value
        if item.type != "plain":
            replaced.append(item)
        elif whole.startswith(incomplete[:kept]):
            replaced.append(CompletionItem(whole[kept:], type=item.type, help=item.help))
    return replaced


class _Zsh(ZshComplete):
    """Click's zsh completion, with no space after ``Amy:`` and ``Amy:Bob=``,
    and ``--option=value`` completed whole."""

    source_template = _script(ZshComplete.source_template, "zsh")

    def get_completions(self, args: list[str], incomplete: str) -> list[CompletionItem]:
        return _replacing(super().get_completions(args, incomplete), incomplete, 0)


class _Fish(FishComplete):
    """Click's fish completion, with ``--option=value`` completed whole."""

    def get_completions(self, args: list[str], incomplete: str) -> list[CompletionItem]:
        return _replacing(super().get_completions(args, incomplete), incomplete, 0)
