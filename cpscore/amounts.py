"""Exact amounts of units and money: ``int`` when whole, ``decimal.Decimal``
otherwise, never ``float``.

Whole amounts (every preset's units, the default stake) need no ``decimal``
import, which would cost a millisecond of start-up; a fractional stake or
rule value brings it in.  ``int`` and ``Decimal`` mix exactly in arithmetic.

Arithmetic is exact whatever the length of an amount: when cpscore makes its
first ``Decimal`` it sets the current thread's decimal context to the largest
precision and traps rounding (``Inexact``), so a sum or a product is never
rounded silently (the default context keeps 28 digits).  Amounts are bounded
instead: fewer than :data:`WHOLE_DIGITS` digits before the point and at most
:data:`FRACTION_DIGITS` after it.

>>> exact("2.50"), exact("10"), exact(3), exact(0.5)
(Decimal('2.50'), 10, 3, Decimal('0.5'))
>>> text(exact("2.50")), text(exact("1E+2")), text(-0)
('2.5', '100', '0')
>>> parse_amount("7.777777777777777777777777777777") * 3
Decimal('23.333333333333333333333333333331')
>>> try:
...     parse_amount("1e5")
... except AmountError as error:
...     print(error)
'1e5' has an exponent: write the amount as a plain decimal, such as 10 or 0.5
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from cpscore.errors import shown

if TYPE_CHECKING:
    from decimal import Decimal

    Amount = int | Decimal
else:
    Amount = "int | Decimal"  # for annotations only; typing.Union would cost start-up time

#: Amounts are below 10**15 (a thousand million million) ...
WHOLE_DIGITS = 15
#: ... and carry at most this many digits after the point.
FRACTION_DIGITS = 30
_LIMIT = 10**WHOLE_DIGITS
_PLAIN = r"([0-9]*)(?:\.([0-9]*))?"  # "10", "0.5", ".5", "5." (compiled on first use: start-up)
# Unambiguous (the digits after a point need the point), so matching is linear.
_EXPONENT = r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)[eE][+-]?[0-9]+"
_LONGEST = 2 + WHOLE_DIGITS + 1 + FRACTION_DIGITS + 40  # room for zeros and spaces; longer is refused unread


class AmountError(ValueError):
    """An amount that cpscore does not take; the message says why (the caller
    adds what the amount is for).  ``out_of_bounds``: it is a number, but too
    large, too small or too long."""

    def __init__(self, message: str, out_of_bounds: bool = False) -> None:
        super().__init__(message)
        self.out_of_bounds = out_of_bounds


def exact_arithmetic() -> None:
    """Make the current thread's decimal arithmetic exact: the largest
    precision and exponent range, and rounding trapped."""
    import decimal

    context = decimal.getcontext()
    if context.prec != decimal.MAX_PREC:
        context.prec = decimal.MAX_PREC
        context.Emax = decimal.MAX_EMAX
        context.Emin = decimal.MIN_EMIN
        context.traps[decimal.Inexact] = True


def _bounded(number: Decimal, written: object) -> Amount:
    """``number`` as an exact amount, or an :class:`AmountError` saying it is
    too large or has too many digits after the point."""
    if not number.is_finite():
        raise AmountError(f"{shown(written)} is not a number")
    if number and number.adjusted() >= WHOLE_DIGITS:
        raise AmountError(
            f"{shown(written)} is too large: amounts have at most {WHOLE_DIGITS} digits before the point", True
        )
    sign, digits, exponent = number.as_tuple()  # context-free, unlike normalize()
    trailing = len(digits) - len("".join(map(str, digits)).rstrip("0"))
    if number and isinstance(exponent, int) and exponent + trailing < -FRACTION_DIGITS:
        small = " is too small:" if number.adjusted() < -FRACTION_DIGITS else " has too many digits after the point:"
        raise AmountError(
            f"{shown(written)}{small} amounts have at most {FRACTION_DIGITS} digits after the point", True
        )
    exact_arithmetic()
    return int(number) if number == number.to_integral_value() else number


def parse_amount(written: str) -> Amount:
    """An amount written by a user (a stake): a plain decimal with ASCII digits,
    ``10``, ``0.5``, ``2.50``: no sign, exponent, separator or other digits.
    A negative amount is returned (the caller says whether it may be)."""
    if len(written) > _LONGEST:
        raise AmountError(
            f"{shown(written)} is {len(written):,} characters long: amounts have at most "
            f"{WHOLE_DIGITS} digits before the point and {FRACTION_DIGITS} after"
        )
    body = written.strip()
    negative = body.startswith("-")
    if negative:
        body = body[1:]
    match = re.fullmatch(_PLAIN, body, re.ASCII)
    if match is None or not any(match.groups()):
        if re.fullmatch(_EXPONENT, written.strip(), re.ASCII):
            from decimal import Decimal, InvalidOperation

            try:
                number = Decimal(written.strip())
            except InvalidOperation:  # an exponent beyond what any decimal can hold
                small = "-" in written.lower().partition("e")[2]
                limit = f"{FRACTION_DIGITS} digits after" if small else f"{WHOLE_DIGITS} digits before"
                raise AmountError(
                    f"{shown(written)} is too {'small' if small else 'large'}: amounts have at most {limit} the point",
                    True,
                ) from None
            _bounded(number, written)  # too large or too small: say so
            raise AmountError(
                f"{shown(written)} has an exponent: write the amount as a plain decimal, such as 10 or 0.5"
            )
        raise AmountError(f"{shown(written)} is not a number: write an amount such as 10 or 0.5 (digits 0-9)")
    whole, fraction = match.groups()
    whole = whole or "0"
    if len(whole.lstrip("0")) > WHOLE_DIGITS:
        raise AmountError(
            f"{shown(written)} is too large: amounts have at most {WHOLE_DIGITS} digits before the point", True
        )
    if fraction and len(fraction.rstrip("0")) > FRACTION_DIGITS:
        if not whole.strip("0") and not fraction[:FRACTION_DIGITS].strip("0"):
            raise AmountError(
                f"{shown(written)} is too small: amounts have at most {FRACTION_DIGITS} digits after the point"
            )
        raise AmountError(
            f"{shown(written)} has too many digits after the point: amounts have at most {FRACTION_DIGITS}"
        )
    if not fraction or not fraction.strip("0"):
        return -int(whole) if negative else int(whole)
    from decimal import Decimal

    exact_arithmetic()
    number = Decimal(f"{whole}.{fraction}")
    return -number if negative else number


def exact(value: object) -> Amount:
    """An exact amount from an int, a decimal string, a float as written, or a
    Decimal (a rule file's values); whole numbers become ``int``.
    :class:`AmountError` (a ``ValueError``) if it is not a finite number within
    the bounds (booleans are not numbers)."""
    if isinstance(value, bool):
        raise AmountError(f"{value!r} is not a number")
    if isinstance(value, int):
        if abs(value) >= _LIMIT:
            raise AmountError(
                f"{shown(value)} is too large: amounts have at most {WHOLE_DIGITS} digits before the point", True
            )
        return value
    from decimal import Decimal, InvalidOperation

    try:
        number = Decimal(str(value).strip()) if isinstance(value, (str, float)) else Decimal(value)  # type: ignore[arg-type]  # any other object: Decimal's TypeError is caught below
    except (InvalidOperation, TypeError, ValueError):
        raise AmountError(f"{shown(value)} is not a number") from None
    return _bounded(number, value)


def text(value: Amount) -> str:
    """An amount as cpscore writes it: no exponent, no trailing zeros, ``0`` for zero."""
    if isinstance(value, int):
        return str(value)
    if value == 0:
        return "0"
    return format(value.normalize(), "f")


def signed(value: Amount) -> str:
    """``+2``, ``-2`` or ``0``."""
    if type(value) is int:  # the common case, written at once
        return f"{value:+d}" if value else "0"
    return text(value) if value <= 0 else "+" + text(value)


def share(total: Amount, parts: int) -> Amount:
    """``total / parts`` rounded half up (away from zero) to 0.01, the one place
    cpscore rounds (docs/rules.md 8, ``home_run_split = "equal"``).

    >>> share(30, 3), share(10, 3), share(-5, 3), share(1, 8)
    (10, Decimal('3.33'), Decimal('-1.67'), Decimal('0.13'))
    """
    if isinstance(total, int) and total % parts == 0:
        return total // parts
    from decimal import ROUND_HALF_UP, Decimal, Inexact, localcontext

    with localcontext() as context:
        context.traps[Inexact] = False
        context.prec = WHOLE_DIGITS + FRACTION_DIGITS + 10
        rounded = (Decimal(total) / parts).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    return exact(rounded)
