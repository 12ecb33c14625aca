"""A base for cpscore's result records: slotted classes with equality and a
readable repr by field.

Each record lists its fields in ``__slots__`` and assigns them in an explicit
``__init__``; nothing is generated at import time (``collections.namedtuple``
and ``dataclasses`` compile code for every class, which costs start-up time
on every run).  Records are values: cpscore never changes one after it is
made.

>>> class Point(Record):
...     __slots__ = ("x", "y")
...     def __init__(self, x, y):
...         self.x, self.y = x, y
>>> Point(1, 2), Point(1, 2) == Point(1, 2), Point(1, 2) == Point(2, 1)
(Point(x=1, y=2), True, False)
"""

from __future__ import annotations

# For annotations only.  Not ``typing.TYPE_CHECKING``: the cards and hands
# modules need nothing else of ``typing``, and it costs start-up time to import;
# mypy takes this name as true (``always_true`` in pyproject.toml).
_TYPE_CHECKING = False
if _TYPE_CHECKING:
    from typing import Self


class Record:
    __slots__: tuple[str, ...] = ()
    #: The fields, when they are not the slots: the constructor's arguments,
    #: some of them read through properties (a hand keeps card codes and
    #: makes its rows of cards on first use).  Fields are what is compared,
    #: shown, and passed again by :meth:`_replace`.
    _args: tuple[str, ...] = ()

    def _fields(self) -> tuple[str, ...]:
        return self._args or self.__slots__

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields())
        return f"{type(self).__name__}({fields})"

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in self._fields())

    __hash__ = None  # type: ignore[assignment]  # equal by value, so not hashable

    def _replace(self, **changes: object) -> Self:
        """A copy with some fields changed (as ``namedtuple._replace``)."""
        fields = {name: getattr(self, name) for name in self._fields()}
        fields.update(changes)
        return type(self)(**fields)
