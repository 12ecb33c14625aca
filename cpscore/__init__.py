"""cpscore: settle Chinese poker and open-face Chinese poker deals exactly.

The library is layered, each module depending only on those before it:
``cards`` -> ``hands`` (evaluation) -> ``rules`` -> ``deal`` -> ``scoring``
-> ``session`` -> ``night`` (the one place that knows a night's next deal)
-> the views (``formatting``, ``session_views``, ...) -> ``commands`` and
``web``.  Only ``commands`` imports click, only the views import tabulate,
nothing in the library prints or exits, and no module imports another's
underscore names (``tests/test_layers.py``).
"""

__version__ = "0.1.0"
