"""The exceptions the library raises for bad input.

Every message says what is wrong and where (player, row, token, or file and
line), so the command line can print it as it is.
"""


class CpscoreError(ValueError):
    """Base class: the input cannot be used as given."""


class CardError(CpscoreError):
    """A card token, a row or a hand is malformed."""


class DealError(CpscoreError):
    """A deal is inconsistent: names, player count, a card dealt twice."""


class RulesError(CpscoreError):
    """A rule set is unknown or a setting is invalid."""


class StakeError(CpscoreError):
    """A stake is malformed, negative, or names an unknown player."""
