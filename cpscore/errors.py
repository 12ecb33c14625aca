"""The exceptions the library raises.

Every message says what is wrong and where (player, row, token, or file and
line), so the command line can print it as it is.  :class:`CpscoreError` is
bad input (the command line exits with code 2); :class:`EnvironmentFailure`
is a failure that is not the input's fault, such as a full disk or a folder
that cannot be written (exit code 1).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable


class CpscoreError(ValueError):
    """Base class: the input cannot be used as given."""


class CardError(CpscoreError):
    """A card token, a row or a hand is malformed."""


class DealError(CpscoreError):
    """A deal is inconsistent: names, player count, a card dealt twice."""


class RulesError(CpscoreError):
    """A rule set is unknown or a setting is invalid."""


class FileRefused(CpscoreError):
    """A file named as a session cannot be written safely: not a regular file,
    several hard links, or an owner that could not be kept."""


class EnvironmentFailure(Exception):
    """The machine failed the command: a read-only file, a full disk, a folder
    that cannot be written.  The message names the file and says it is unchanged."""


def shown(value: object, limit: int = 24) -> str:
    """A value as an error message repeats it: its repr, cut to about ``limit``
    characters, so that a junk token never floods the error line.

    >>> shown("Xc"), shown("AhKd" * 20), shown(10**30)
    ("'Xc'", "'AhKdAhKdAhKdAhKdAh...'", '10000000000000000000...')
    """
    text = str(value) if type(value).__name__ == "Decimal" else repr(value)
    if len(text) <= limit:
        return text
    close = text[-1] if text[-1] in "'\"" else ""  # a string's quote; a number has none
    return text[: limit - 4] + "..." + close


#: The longest line cpscore prints on stderr, its ``Error: `` (or ``Warning: ``) included.
MAX_LINE = 300

#: The longest error message, so that ``Error: `` and it make at most :data:`MAX_LINE` characters.
MAX_MESSAGE = MAX_LINE - len("Error: ")


def bounded(message: str, room: int = MAX_MESSAGE) -> str:
    """One line of at most ``room`` characters (by default what fits after
    ``Error: ``): a longer message loses its middle, so that its start (where)
    and its end (what to do) stay.

    >>> len(bounded("x" * 1000)), bounded("two" + chr(10) + "lines")
    (293, 'two lines')
    """
    message = " ".join(message.splitlines())
    if len(message) <= room:
        return message
    tail = min(75, room // 4)
    return message[: room - tail - 5] + " ... " + message[-tail:]


def internal_error(error: BaseException) -> str:
    """What a bug says, in one line: its kind and cpscore's line where it
    happened, never a traceback."""
    import os.path
    import traceback

    frames = [frame for frame in traceback.extract_tb(error.__traceback__) if "cpscore" in frame.filename]
    place = f" at {os.path.basename(frames[-1].filename)}:{frames[-1].lineno}" if frames else ""
    return f"internal error ({type(error).__name__}{place}): cpscore could not finish; please report it with the input"


def nearest(name: str, known: Iterable[str]) -> str | None:
    """The known name closest to ``name``, compared without case, for an error
    that says "did you mean"; None when none is close (:mod:`difflib`'s measure).

    >>> nearest("capp", ["cap", "cap_scope"]), nearest("Surrender", ["surrender"]), nearest("colour", ["cap"])
    ('cap', 'surrender', None)
    """
    from difflib import get_close_matches

    names = {known_name.lower(): known_name for known_name in known}
    found = get_close_matches(name.lower(), names, n=1)
    return names[found[0]] if found else None
