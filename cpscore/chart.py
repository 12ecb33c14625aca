"""The chart of a night's running totals: each player's running total over the
deals (or a season's nights) as one standalone SVG document, the one drawing
that ``cpscore serve``'s page shows (the server draws it, ``GET
/api/chart.svg``) and that ``cpscore session FILE --plot FILE.svg`` writes.

A view: it draws what it is given, in plain SVG with no plotting library, no
script, no style sheet and no font to fetch, and the same input always gives
the same bytes.  The caller chooses the words (the x-axis's text, the
chart's name), so the drawing has no language of its own.

The drawing, in a 340-wide view box (legible at a phone's width):

* the plot, 150 high: a line for each player from x = 0 (the start, every
  total 0) to x = N (after the last deal), the x positions evenly spaced; the
  y range runs from the lowest value to the highest, 0 always in it (the
  lines 2.5 thick, 1.5 past 200 deals, where they are dense);
* the zero line, and the top and bottom values written at the left (a faint
  guide line at each); labels that would overlap are moved apart;
* under the plot, ``0`` at the left end and ``axis`` (``deal 12``) at the right;
* the legend, in rows under that: each player's colour, name and final total
  (exact, as ``cpscore.amounts.signed`` writes it), in the order given, in 3,
  2 or 1 columns (the most that fit every name and total): the drawing is
  200 high and 20 more for each row of the legend.  A name too long for one column is cut with an
  ellipsis, its whole name in the item's ``<title>``.

Colours are the page's (:data:`COLOURS`), cycling; the 9th player and on
also get a dash pattern (:data:`DASHES`), shown on their legend swatch.
Positions are rounded to 0.1; amounts are never turned into floats for their
text.  Every point is drawn (no thinning): a point costs at most 12 bytes,
so 2,000 deals of 4 players make about 90 KB.  A night with no deal
(``points`` of one value each, or no player at all) is still a valid
drawing: the zero line, the legend at 0, and ``axis`` for the caller to say
so ("no deal yet").
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from cpscore.amounts import signed

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence

    from cpscore.amounts import Amount

#: The players' colours, in order (the page's): the 9th player starts over, dashed.
COLOURS = ("#1f6f4a", "#c0262d", "#1f4fa8", "#8a5a00", "#7b2fa0", "#0f7f8c", "#b3471d", "#4d5a66")
#: The dash pattern of each round of colours: solid for the first 8 players, then these.
DASHES = ("", "7 3", "2 3", "9 3 2 3")

WIDTH = 340
_PAD = 8  # the margin at the left and right
_TOP = 12  # the plot's top
_PLOT = 150  # the plot's height
_AXIS_TEXT = 12  # the font size of the values and the x-axis
_LEGEND_TEXT = 13  # the font size of the legend
_ROW = 20  # a legend row's height
_SWATCH = 18  # a legend item's colour (14) and the gap after it
_GUTTER = 16  # the gap between two columns of the legend
_MUTED, _INK, _ZERO, _GUIDE = "#5d6875", "#1d232a", "#9aa3ad", "#e4e7ea"
_FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Noto Sans CJK SC', 'Microsoft YaHei', sans-serif"


#: The chart's words in English: what ``cpscore session --plot`` writes, and the
#: page's own English words (``static/words.json``: a test keeps them equal).
ENGLISH = {"chart": "Running totals", "deal_n": "deal {deal}", "no_deal": "No deal yet.", "night_n": "night {night}"}


def night_svg(
    names: Sequence[str],
    runnings: Iterable[Mapping[str, Amount]],
    *,
    money: bool,
    words: Mapping[str, str] = ENGLISH,
    per: str = "deal",
) -> str:
    """The chart of a night (``per="deal"``) or of a season (``per="night"``):
    each player's running total after each deal (night), as ``runnings``
    gives them, drawn by :func:`running_svg` with ``words`` (``chart``,
    ``deal_n`` or ``night_n``, ``no_deal``).  The page and ``--plot`` both
    draw with this."""
    points = running_points(names, runnings)
    count = len(points[0]) - 1 if points else 0
    key = f"{per}_n"
    axis = words[key].replace("{" + per + "}", str(count)) if count else words["no_deal"]
    return running_svg(names, points, axis=axis, label=words["chart"], money=money)


def running_points(names: Sequence[str], runnings: Iterable[Mapping[str, Amount]]) -> list[list[Amount]]:
    """Each player's running total at x = 0, 1, ..., N from the totals after
    each deal (``runnings``, one mapping of name to total a deal): 0 at the
    start, and where a deal has no total for a player (not seated yet), their
    last one again.

    >>> running_points(["Amy", "Dan"], [{"Amy": 3}, {"Amy": 1, "Dan": -2}])
    [[0, 3, 1], [0, 0, -2]]
    """
    points: list[list[Amount]] = [[0] for _ in names]
    for running in runnings:
        for name, series in zip(names, points):
            series.append(running.get(name, series[-1]))
    return points


def running_svg(
    names: Sequence[str], points: Sequence[Sequence[Amount]], *, axis: str, label: str, money: bool = False
) -> str:
    """The chart of each player's running total, as a standalone SVG document
    (see the module).  ``points[i]``: player ``names[i]``'s total at x = 0
    (the start: 0), 1, ..., N, each series as long as the others (a player
    who joins late or sits out repeats their total: :func:`running_points`).
    ``axis``: the text at the x-axis's right end ("deal 12", "night 5");
    ``label``: the chart's name (its ``<title>`` and ``aria-label``);
    ``money``: the totals are money (else units), said by the root's
    ``data-values`` for a script reading the drawing; it draws the same.

    >>> svg = running_svg(["Amy", "Bob"], [[0, 6], [0, -6]], axis="deal 1", label="Running totals")
    >>> svg.count("<polyline"), ">+6</text>" in svg, ">-6</text>" in svg
    (2, True, True)
    """
    if len(names) != len(points):
        raise ValueError(f"{len(names)} names for {len(points)} series")
    lengths = {len(series) for series in points}
    if len(lengths) > 1 or 0 in lengths:
        raise ValueError("each player's series needs the same number of values, at least one")
    steps = max(lengths, default=1) - 1
    every = [value for series in points for value in series]
    top, bottom = max([0, *every]), min([0, *every])
    high, span = float(top), float(top) - float(bottom)

    def y(value: Amount) -> float:
        return _TOP + (_PLOT / 2 if not span else (high - float(value)) * _PLOT / span)

    values = [_value(value) for value in sorted({top, 0, bottom}, reverse=True)]
    left = min(WIDTH / 2, max(28.0, _PAD + 4 + max(_width(shown, _AXIS_TEXT) for shown in values)))
    right = WIDTH - _PAD

    def x(step: int) -> float:
        return left + step * (right - left) / max(1, steps)

    legend = _Legend(names, [signed(series[-1]) if series[-1] else "0" for series in points])
    legend_top = _TOP + _PLOT + 34
    height = legend_top + legend.rows * _ROW + (4 if legend.rows else 0)
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" width="{WIDTH}" height="{height}"'
        f' role="img" aria-label="{_escape(label)}" data-values="{"money" if money else "units"}"'
        f' font-family="{_FONT}">',
        f"<title>{_escape(label)}</title>",
        f"<desc>{_escape(axis.rstrip('.:'))}: {_escape(', '.join(f'{n} {t}' for n, t in zip(names, legend.totals)))}</desc>",
        f'<rect width="{WIDTH}" height="{height}" fill="#fff"/>',
    ]
    zero = _n(y(0))
    for value in (top, bottom):  # a faint guide line at the top and bottom values
        if value:
            out.append(
                f'<line class="guide" x1="{_n(left)}" x2="{right}" y1="{_n(y(value))}" y2="{_n(y(value))}"'
                f' stroke="{_GUIDE}" stroke-width="1"/>'
            )
    out.append(
        f'<line class="zero" x1="{_n(left)}" x2="{right}" y1="{zero}" y2="{zero}" stroke="{_ZERO}" stroke-width="1"/>'
    )
    places = _apart(y(top) if top else None, y(0), y(bottom) if bottom else None)
    for at, shown in zip(places, values):
        out.append(
            f'<text class="value" x="{_n(left - 4)}" y="{_n(at + 4)}" text-anchor="end" font-size="{_AXIS_TEXT}"'
            f' fill="{_MUTED}">{shown}</text>'
        )
    below = _n(_TOP + _PLOT + 20)
    out.append(f'<text class="start" x="{_n(left)}" y="{below}" font-size="{_AXIS_TEXT}" fill="{_MUTED}">0</text>')
    out.append(
        f'<text class="axis" x="{right}" y="{below}" text-anchor="end" font-size="{_AXIS_TEXT}"'
        f' fill="{_MUTED}">{_escape(axis)}</text>'
    )
    thickness = "2.5" if steps <= 200 else "1.5"  # a long night's lines are dense: thinner
    for index, series in enumerate(points):
        line = " ".join(f"{_n(x(step))},{_n(y(value))}" for step, value in enumerate(series))
        out.append(
            f'<polyline class="line" points="{line}" fill="none"{_stroke(index)} stroke-width="{thickness}"'
            ' stroke-linejoin="round" stroke-linecap="round"/>'
        )
    out.extend(legend.drawn(legend_top))
    out.append("</svg>")
    return "\n".join(out) + "\n"


class _Legend:
    """The legend's items laid out in rows: as many columns as fit every item."""

    def __init__(self, names: Sequence[str], totals: list[str]) -> None:
        self.names, self.totals = list(names), totals
        usable = WIDTH - 2 * _PAD
        needs = [
            _SWATCH + _width(name, _LEGEND_TEXT) + 12 + _width(total, _LEGEND_TEXT, bold=True)
            for name, total in zip(names, totals)
        ]
        self.columns = next(
            (count for count in (3, 2) if count <= len(names) and max(needs) <= (usable + _GUTTER) / count - _GUTTER),
            1,
        )
        self.width = (usable + _GUTTER) / self.columns  # a column and the gutter after it
        self.rows = -(-len(names) // self.columns)

    def drawn(self, top: float) -> list[str]:
        out = []
        for index, (name, total) in enumerate(zip(self.names, self.totals)):
            row, column = divmod(index, self.columns)
            left, base = _PAD + column * self.width, top + row * _ROW + 14
            room = self.width - _GUTTER - _SWATCH - 12 - _width(total, _LEGEND_TEXT, bold=True)
            shown = _cut(name, room, _LEGEND_TEXT)
            out.append('<g class="legend">' + (f"<title>{_escape(name)}</title>" if shown != name else ""))
            out.append(
                f'<line x1="{_n(left)}" x2="{_n(left + 14)}" y1="{_n(base - 4)}" y2="{_n(base - 4)}"'
                f'{_stroke(index)} stroke-width="3" stroke-linecap="round"/>'
            )
            out.append(
                f'<text class="name" x="{_n(left + _SWATCH)}" y="{_n(base)}" font-size="{_LEGEND_TEXT}"'
                f' fill="{_INK}">{_escape(shown)}</text>'
            )
            out.append(
                f'<text class="total" x="{_n(left + self.width - _GUTTER)}" y="{_n(base)}" text-anchor="end"'
                f' font-size="{_LEGEND_TEXT}" font-weight="600" fill="{_INK}">{total}</text>'
            )
            out.append("</g>")
        return out


def _stroke(index: int) -> str:
    """Player ``index``'s stroke attributes: its colour, and past the 8th its dashes."""
    dashes = DASHES[index // len(COLOURS) % len(DASHES)]
    return f' stroke="{COLOURS[index % len(COLOURS)]}"' + (f' stroke-dasharray="{dashes}"' if dashes else "")


def _value(value: Amount) -> str:
    return signed(value) if value else "0"


def _apart(top: float | None, zero: float, bottom: float | None, gap: float = 12) -> list[float]:
    """The places of the top value's label, 0's and the bottom value's (None:
    no such label), moved apart to at least ``gap``: 0's stays on its line
    unless the other is at the drawing's edge (a little beyond the plot).

    >>> _apart(12.0, 20.0, 162.0)
    [8.0, 20.0, 162.0]
    >>> _apart(12.0, 161.0, 162.0)
    [12.0, 158.0, 170.0]
    >>> _apart(None, 87.0, None)
    [87.0]
    """
    low, high = _TOP - 4.0, _TOP + _PLOT + 8.0
    if bottom is not None:
        bottom = max(bottom, zero + gap)
        if bottom > high:
            bottom, zero = high, min(zero, high - gap)
    if top is not None:
        top = min(top, zero - gap)
        if top < low:
            top, zero = low, max(zero, low + gap)
    return [place for place in (top, zero, bottom) if place is not None]


def _width(text: str, size: float, bold: bool = False) -> float:
    """About how wide ``text`` is drawn at font size ``size`` (a wide CJK
    character is a square, a combining mark nothing): for the layout only."""
    import unicodedata

    total = 0.0
    for char in text:
        if unicodedata.combining(char):
            continue
        if unicodedata.east_asian_width(char) in "WF":
            total += 1.0
        elif char in " .,:;'!|iljtf()[]-":
            total += 0.33
        elif char.isupper() or char in "mwMW@%&+":
            total += 0.72
        else:
            total += 0.58
    return total * size * (1.06 if bold else 1.0)


def _cut(text: str, room: float, size: float) -> str:
    """``text``, cut with an ellipsis to fit ``room``."""
    if _width(text, size) <= room:
        return text
    kept = text
    while kept and _width(kept + "\u2026", size) > room:
        kept = kept[:-1]
    return kept.rstrip() + "\u2026"


def _n(number: float) -> str:
    """A position rounded to 0.1, without a trailing ``.0``.

    >>> _n(12.0), _n(12.34), _n(-0.01)
    ('12', '12.3', '0')
    """
    written = f"{number:.1f}".removesuffix(".0")
    return "0" if written == "-0" else written


_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _escape(text: str) -> str:
    """``text`` as XML text or attribute value: ``& < > "`` escaped, and
    characters XML cannot hold (controls, lone surrogates) replaced by U+FFFD.

    >>> _escape('<b> & "x"\\x01')
    '&lt;b&gt; &amp; &quot;x&quot;\\ufffd'
    """
    text = _INVALID.sub("\ufffd", text)
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
