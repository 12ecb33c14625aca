"""The exceptions the library raises.

Every message says what is wrong and where (player, row, token, or file and
line), so the command line can print it as it is.  :class:`CpscoreError` is
bad input (the command line exits with code 2); :class:`EnvironmentFailure`
is a failure that is not the input's fault, such as a full disk or a folder
that cannot be written (exit code 1).
"""


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

    >>> shown("Xc"), shown("AhKd" * 20)
    ("'Xc'", "'AhKdAhKdAhKdAhKdAh...'")
    """
    text = str(value) if type(value).__name__ == "Decimal" else repr(value)
    return text if len(text) <= limit else text[: limit - 4] + "...'"
