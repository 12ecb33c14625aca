"""Exact amounts of units and money: ``int`` when whole, ``decimal.Decimal``
otherwise, never ``float``.

Whole amounts (every preset's units, the default stake) need no ``decimal``
import, which would cost a millisecond of start-up; a fractional stake or
rule value brings it in.  ``int`` and ``Decimal`` mix exactly in arithmetic.

>>> exact("2.50"), exact("10"), exact(3), exact(0.5)
(Decimal('2.50'), 10, 3, Decimal('0.5'))
>>> text(exact("2.50")), text(exact("1E+2")), text(-0)
('2.5', '100', '0')
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from decimal import Decimal

    Amount = int | Decimal
else:
    Amount = "int | Decimal"  # for annotations only; typing.Union would cost start-up time
_LIMIT = 10**15  # far beyond any stake; keeps absurd exponents out


def exact(value: object) -> Amount:
    """An exact amount from an int, a decimal string, a float as written, or a
    Decimal; whole numbers become ``int``.  ``ValueError`` if it is not a finite
    number (booleans are not numbers)."""
    if isinstance(value, bool):
        raise ValueError(f"{value!r} is not a number")
    if isinstance(value, int):
        return value
    from decimal import Decimal, InvalidOperation

    try:
        number = Decimal(str(value).strip()) if isinstance(value, (str, float)) else Decimal(value)
    except (InvalidOperation, TypeError, ValueError):
        raise ValueError(f"{value!r} is not a number") from None
    if not number.is_finite() or abs(number) >= _LIMIT:
        raise ValueError(f"{value!r} is not a usable number")
    return int(number) if number == number.to_integral_value() else number


def text(value: Amount) -> str:
    """An amount as cpscore writes it: no exponent, no trailing zeros, ``0`` for zero."""
    if isinstance(value, int):
        return str(value)
    if value == 0:
        return "0"
    return format(value.normalize(), "f")


def signed(value: Amount) -> str:
    """``+2``, ``-2`` or ``0``."""
    return text(value) if value <= 0 else "+" + text(value)
