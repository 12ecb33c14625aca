"""The ``cpscore`` command's entry point (``[project.scripts]`` and ``python -m
cpscore``).  The commands themselves are the package :mod:`cpscore.commands`."""

from cpscore.commands import main

__all__ = ["main"]
