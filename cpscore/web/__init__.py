"""``cpscore serve``: the session file as a web page for the phones at the table.

:mod:`cpscore.web.app` is the WSGI application (Bottle routes over the same
library calls as ``add``, ``undo``, ``session`` and ``play``), and
:mod:`cpscore.web.server` the threaded standard-library server that runs it.
``static/`` holds the page: one HTML file, one script, one style sheet, all
shipped in the package (nothing is loaded from elsewhere).  Bottle is
imported only here, never at the CLI's start-up: it is the ``serve`` extra.
"""
