"""cpscore: settle Chinese poker and open-face Chinese poker deals exactly.

The library is layered, each module depending only on those before it:
``cards`` -> ``hands`` (evaluation) -> ``rules`` -> ``deal`` -> ``scoring``
-> ``formatting`` -> ``commands``.  Only ``commands`` imports click, only
``formatting`` imports tabulate, and nothing in the library prints or exits.
"""

__version__ = "0.1.0"
