r"""Corrections to a session file: remove a deal (the last one, or deal N) or
replace deal N with another, keeping every other byte of the file.

:class:`Removal` and :class:`Replacement` are changes for
:func:`cpscore.safefile.rewrite`, as :class:`cpscore.night.Append` is: called
with the file's bytes under its lock, each returns the new bytes or raises,
and then nothing is written.  :func:`remove_deal` and :func:`replace_deal`
make the change; afterwards the change holds what it removed and added, and
:meth:`Removal.report` / :meth:`Replacement.report` say so in lines of text
(this module never prints).

Where a deal is
---------------
The deals are those :func:`cpscore.session.read_session` reads, numbered as
``cpscore session`` numbers them.  A deal runs from its first line
(``DealText.line``) to the blank line that ends it, or to the end of the
file; its *own* lines are those with something before any ``#``.  A comment
line among them is not the deal's: it stays.

What is kept
------------
The new file is the old one with the deal's own lines taken out (or, for a
replacement, the new deal's lines in their place), and every other byte as it
was: header lines, stake lines, comment lines (among the deal's lines too),
the other deals' text, blank lines, each line's end (LF, CRLF or CR), a
byte-order mark and a missing final newline.  A removed deal takes one blank
line with it when nothing else stood between it and a blank line (or the
start or end of the file) on either side, so that removing a deal ``add``
appended gives the file back as it was before.  The one other line removed:
taking out the last deal takes the stake and seat lines written between it and the
deal before it too (``@stake``, ``@pair-stake``), which would otherwise set
the stake for no deal; the report shows them.

What is checked
---------------
The file must read as a session: a deal of it with a malformed line is
refused, naming it, unless it is the deal being removed or replaced (that
is a way to mend it) and the file otherwise reads as a session (another deal
reads, or it has a header), so that a file that is not a session is never
cut.  A replacement is checked as ``add`` checks a deal: against the file's
rules and its other deals' players (a new name needs ``new_player``).  The
new text is read back before it is written: the same header, and the same
deals but for the one changed.  Errors are :class:`~cpscore.errors.CpscoreError`
(bad input) and, from the rewrite, :class:`~cpscore.errors.EnvironmentFailure`.

>>> text = b"@rules 1-6\n\nA: Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d\nB: Qs Jd 3c / Th Tc 8d 8s 3d / Kh Qh Jh 8h 2h\n"
>>> undo = Removal("night.txt")
>>> undo(text)
b'@rules 1-6\n'
>>> print("\n".join(undo.report()))
removed deal 1 (line 3, 315febeb) from night.txt:
  - A: Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d
  - B: Qs Jd 3c / Th Tc 8d 8s 3d / Kh Qh Jh 8h 2h
night.txt now has no deals

A change that names the deal it means (``expect``: its digest, as ``add`` and
``session`` show it) is refused when the deal there is another:

>>> Removal("night.txt", expect="315febeb")(text)
b'@rules 1-6\n'
>>> try:
...     Removal("night.txt", expect="0badf00d")(text)
... except DealError as error:
...     print(error)
deal 1 of night.txt is 315febeb, not '0badf00d': the session changed since (another phone, another command?); nothing is removed; look again (cpscore session night.txt)
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from cpscore.deal import Deal, Entry
from cpscore.errors import DealError, shown
from cpscore.rules import RuleSet
from cpscore.scoring import Settlement
from cpscore.session import DealResult, DealText, Header, deal_digest

__all__ = ["Removal", "Replacement", "remove_deal", "replace_deal"]

_BOM = b"\xef\xbb\xbf"
_LINE_END = re.compile("(\r\n|\r|\n)")

#: A line of the file: its text and its end ("\n", "\r\n", "\r", or "" for a last line without one).
Line = tuple[str, str]


def remove_deal(
    path: str, number: int | None = None, *, expect: str | None = None, lock_timeout: float = 30.0
) -> Removal:
    """Remove deal ``number`` (None: the last) from the session file ``path``,
    locked and atomically (:func:`cpscore.safefile.rewrite`); with ``expect``
    (a digest, :func:`cpscore.session.deal_digest`), only if the deal there is
    that one.  Returns the :class:`Removal`, which holds what was removed."""
    from cpscore.safefile import rewrite

    _exists(path, "remove")
    removal = Removal(path, number, expect)
    rewrite(path, removal, lock_timeout=lock_timeout)
    return removal


def replace_deal(
    path: str,
    number: int,
    entries: Iterable[Entry],
    surrender: Iterable[str] = (),
    waive: Iterable[str] = (),
    new_player: Iterable[str] = (),
    *,
    hands: Iterable[str] | None = None,
    expect: str | None = None,
    lock_timeout: float = 30.0,
) -> Replacement:
    """Replace deal ``number`` of the session file ``path`` with the deal of
    ``entries`` (or of ``hands``, in the order of the seats the session names
    for that deal), checked as ``add`` checks a deal; locked and atomic.  Returns
    the :class:`Replacement`, which holds the old lines, the new ones and the
    new deal's settlement (as ``cpscore session`` settles it, in its night).
    With ``expect`` (a digest), only if deal ``number`` is that deal."""
    from cpscore.safefile import rewrite

    _exists(path, "replace")
    replacement = Replacement(path, number, entries, surrender, waive, new_player, hands, expect)
    rewrite(path, replacement, lock_timeout=lock_timeout)
    return replacement


def _exists(path: str, doing: str) -> None:
    """A missing file is refused before the rewrite, which would leave its lock file behind."""
    import os.path

    if not os.path.lexists(path):
        raise DealError(_missing(path, doing))


def _missing(path: str, doing: str) -> str:
    return f"{path}: no such file, so there is no deal to {doing}; check the path"


class _Edit:
    """What a removal and a replacement share: the file read as lines and as a
    session, the deal picked, and the checks before and after."""

    doing = ""

    def __init__(self, target: str, number: int | None, expect: str | None = None) -> None:
        self.target = target
        self.asked = number
        self.expect = expect  # the digest the deal must have (--expect)
        self.digest = ""  # the changed deal's, before the change
        self.number = self.line = self.count = 0  # the deal changed, its first line, the deals after
        self.removed: list[str] = []  # the lines taken out, as they were

    def _read(self, current: bytes | None) -> tuple[bytes, str, list[Line], Header, list[DealText]]:
        from cpscore.session import read_session
        from cpscore.textio import decode, split_lines

        target = self.target
        if current is None:
            raise DealError(_missing(target, self.doing))
        bom = _BOM if current.startswith(_BOM) else b""
        text = decode(current, target)
        header, deals = read_session(split_lines(text, target), target)
        return bom, text, _split(text), header, list(deals)

    def _pick(self, header: Header, deals: list[DealText]) -> int:
        """The index of the deal asked for, after checking that the file reads as a session."""
        target, number, count = self.target, self.asked, len(deals)
        if not count:
            raise DealError(f"{target} has no deals: there is no deal to {self.doing}")
        if number is None:
            index = count - 1
        elif 1 <= number <= count:
            index = number - 1
        else:
            which = "its only deal is 1" if count == 1 else f"its deals are 1 to {count}"
            raise DealError(f"{target} has no deal {number}: {which} (cpscore session {target} lists them)")
        for other in deals:
            if other.error and other is not deals[index]:
                raise DealError(
                    f"{other.error} (deal {other.number}); fix that deal first, in an editor or with "
                    f"cpscore replace {target} {other.number}; the file is unchanged"
                )
        chosen = deals[index]
        self.digest = deal_digest(chosen)
        if self.expect is not None and self.digest != self.expect.strip().lower():
            raise DealError(
                f"deal {chosen.number} of {target} is {self.digest}, not {shown(self.expect, 20)}: the session "
                f"changed since (another phone, another command?); nothing is {self.doing}d; look again "
                f"(cpscore session {target})"
            )
        has_header = header.rules or header.stake or header.pair_stakes or header.buy_in or header.players
        if chosen.error and count == 1 and not has_header:
            raise DealError(
                f"{chosen.error}: {target} does not read as a session (no deal of it reads), "
                f"so nothing is {self.doing}d; check the path, or fix the file in an editor"
            )
        return index

    def _check_header(self, header: Header, again: Header) -> None:
        def values(header: Header) -> tuple:
            return (
                header.rules,
                header.stake,
                header.pair_stakes,
                header.buy_in,
                header.players,
                header.date,
            )

        if values(again) != values(header):
            raise self._not_read_back()

    def _not_read_back(self) -> DealError:
        return DealError(f"the change would not read back as intended from {self.target}; the file is unchanged")


class Removal(_Edit):
    """Deal ``number`` (None: the last) removed from a session file: a change
    for :func:`cpscore.safefile.rewrite`.  Afterwards it holds the deal's
    number and first line, the lines removed, how many of them were stake
    lines before it (:attr:`stake_lines`), and the number of deals left."""

    doing = "remove"

    def __init__(self, target: str, number: int | None = None, expect: str | None = None) -> None:
        super().__init__(target, number, expect)
        self.stake_lines = 0
        self.total = 0  # the deals before the removal

    def __call__(self, current: bytes | None) -> bytes:
        bom, text, lines, header, deals = self._read(current)
        index = self._pick(header, deals)
        deal = deals[index]
        last = index == len(deals) - 1
        stake = _between(lines, deals[index - 1], deal) if last and index else []
        own = _own_lines(lines, deal)
        kept = _without(lines, {*stake, *own})
        new = "".join(text + end for text, end in kept)
        self._check(new, header, deals, index)
        self.number, self.line, self.total, self.count = deal.number, deal.line, len(deals), len(deals) - 1
        self.removed = [lines[i][0] for i in sorted({*stake, *own})]
        self.stake_lines = len(stake)
        return bom + new.encode("utf-8")

    def _check(self, new: str, header: Header, deals: list[DealText], index: int) -> None:
        """The new text reads back as the old session without the deal (its
        stake lines moving on to the next deal)."""
        again, read = _reread(new, self.target)
        self._check_header(header, again)
        expected = [_facts(deal) for deal in deals]
        removed = expected.pop(index)
        if index < len(expected):  # the stake lines before the deal now come before the next one
            expected[index] = (expected[index][0], removed[1] + expected[index][1])
        if any(deal.error for deal in read) or [_facts(deal) for deal in read] != expected:
            raise self._not_read_back()

    def report(self) -> list[str]:
        """What was done, in lines: the deal removed and its lines, the deals left."""
        target = self.target
        with_stake = ""
        if self.stake_lines:
            those = "the line" if self.stake_lines == 1 else f"the {self.stake_lines} lines"
            with_stake = f", with {those} before it (@stake, @pair-stake, @players: they would change nothing)"
        lines = [f"removed deal {self.number} (line {self.line}, {self.digest}) from {target}{with_stake}:"]
        lines += [f"  - {_printable(line)}" for line in self.removed]
        left = f"now has {_deals(self.count)}"
        if self.number < self.total:  # the deals after it move up
            if self.number + 1 == self.total:
                left += f"; deal {self.total} is now deal {self.number}"
            else:
                left += f"; deals {self.number + 1} to {self.total} are now {self.number} to {self.total - 1}"
        return [*lines, f"{target} {left}"]


class Replacement(_Edit):
    """Deal ``number`` of a session file replaced with the deal of ``entries``,
    checked as ``add`` checks a deal (the file's rules, its other deals'
    players, ``surrender``, ``waive`` and ``new_player`` as for ``add``): a
    change for :func:`cpscore.safefile.rewrite`.  Afterwards it holds the
    deal's number and new first line, the lines removed and added, the new
    deal's settlement and warnings, and the number of deals."""

    doing = "replace"

    def __init__(
        self,
        target: str,
        number: int,
        entries: Iterable[Entry],
        surrender: Iterable[str] = (),
        waive: Iterable[str] = (),
        new_player: Iterable[str] = (),
        hands: Iterable[str] | None = None,
        expect: str | None = None,
    ) -> None:
        super().__init__(target, number, expect)
        self.entries = list(entries)
        self.hands = None if hands is None else list(hands)  # in seat order, under @players
        self.surrender, self.waive, self.new_player = list(surrender), list(waive), list(new_player)
        self.added: list[str] = []
        self.settlement: Settlement | None = None
        self.result: DealResult | None = None  # the new deal, settled in its night
        self.money = False  # whether the night's money is not its units
        self.warnings: list[str] = []

    def __call__(self, current: bytes | None) -> bytes:
        from cpscore.session import deal_lines

        bom, text, lines, header, deals = self._read(current)
        index = self._pick(header, deals)
        deal, rules, warnings = self._deal(header, deals, index)
        added = deal_lines(deal)
        own = _own_lines(lines, deals[index])
        newline = lines[own[0]][1] or ("\r\n" if "\r\n" in text else "\n")
        new = "".join(text + end for text, end in _replaced(lines, own, added, newline))
        self.line = self._check(new, header, deals, index, deal)
        self.number, self.count = deals[index].number, len(deals)
        self.removed, self.added = [lines[i][0] for i in own], added
        self.result, notes = self._settle(new, self.number)
        self.settlement, self.warnings = self.result.settlement, warnings + notes
        return bom + new.encode("utf-8")

    def _settle(self, new: str, number: int) -> tuple[DealResult, list[str]]:
        """The new deal settled as ``cpscore session`` will settle the new
        file (its stake, the bank, stacks, Fantasyland where they stand by
        then); every deal of it must still settle.  Its result and warnings."""
        from cpscore.night import settle_deal

        night, result, warnings = settle_deal(new, self.target, number, None, "; the file is unchanged")
        self.money = night.money
        return result, warnings

    def _deal(self, header: Header, deals: list[DealText], index: int) -> tuple[Deal, RuleSet, list[str]]:
        """The new deal, checked against the file's rules and the players of its
        other deals (as :class:`cpscore.night.Append` checks one), the rules,
        and the warnings."""
        from cpscore.deal import Names, build_deal, owner
        from cpscore.rules import get_rules
        from cpscore.session import (
            check_players,
            header_rules,
            refuse_fantasyland_markers,
            seated_entries,
            seats_before,
        )

        target = self.target
        # The seats in force for the deal (its own @players line too): the new deal is played in them.
        seats = seats_before(header, deals[: index + 1])
        entries = seated_entries(self.entries, self.hands, seats, target)
        known = Names()
        others = [deal for number, deal in enumerate(deals) if number != index]
        for other in others:
            for entry in other.entries:
                known.check(owner(entry.name), entry.where)
        here = {entry.name for entry in deals[index].entries}  # the replaced deal's players may stay
        rules = header_rules(header, target) or get_rules("2-4")
        refuse_fantasyland_markers(entries)
        warnings = check_players(entries, known, self.new_player, target, bool(others), {*here, *(seats or ())})
        return build_deal(entries, rules, self.surrender, self.waive), rules, warnings

    def _check(self, new: str, header: Header, deals: list[DealText], index: int, deal: Deal) -> int:
        """The new text reads back as the old session with the new deal in
        place of deal ``index``; returns the new deal's first line."""
        from cpscore.deal import build_deal

        again, read = _reread(new, self.target)
        self._check_header(header, again)
        if len(read) != len(deals) or any(other.error for other in read):
            raise self._not_read_back()
        for number, (old, now) in enumerate(zip(deals, read)):
            if number != index and _facts(old) != _facts(now):
                raise self._not_read_back()
        replaced = read[index]
        try:
            built = build_deal(replaced.entries)
        except DealError:
            raise self._not_read_back() from None

        def facts(deal: Deal) -> list[tuple]:
            return [(seat.name, seat.hand, seat.cards, seat.surrendered, seat.waive) for seat in deal.seats]

        if facts(built) != facts(deal) or _facts(replaced)[1] != _facts(deals[index])[1]:
            raise self._not_read_back()
        return replaced.line

    def lines(self) -> list[str]:
        """The old lines and the new, as the report shows them (``  - ``, ``  + ``),
        and the deals the file has; a view puts the settled deal above them
        (:func:`cpscore.session_views.replacement_report`)."""
        lines = [f"  - {_printable(line)}" for line in self.removed]
        lines += [f"  + {line}" for line in self.added]
        return [*lines, f"{self.target} has {_deals(self.count)}"]


# The file as lines ---------------------------------------------------------------------


def _split(text: str) -> list[Line]:
    r"""The lines of ``text`` with their ends, numbered as
    :func:`cpscore.textio.split_lines` numbers them.

    >>> _split("a\r\nb\n\nc")
    [('a', '\r\n'), ('b', '\n'), ('', '\n'), ('c', '')]
    """
    pieces = _LINE_END.split(text)
    lines = [(pieces[i], pieces[i + 1]) for i in range(0, len(pieces) - 1, 2)]
    if pieces[-1]:
        lines.append((pieces[-1], ""))
    return lines


def _blank(text: str) -> bool:
    """A blank line ends a deal (as :func:`cpscore.session.read_session` reads it)."""
    return not text.strip()


def _own(text: str) -> bool:
    """Whether a line says something: not blank, and not only a comment."""
    return bool(text.split("#", 1)[0].strip())


def _own_lines(lines: list[Line], deal: DealText) -> list[int]:
    """The indices of a deal's own lines: from its first line to the blank line
    that ends it, less the comment lines."""
    own = []
    index = deal.line - 1
    while index < len(lines) and not _blank(lines[index][0]):
        if _own(lines[index][0]):
            own.append(index)
        index += 1
    return own


def _between(lines: list[Line], before: DealText, deal: DealText) -> list[int]:
    """The indices of the lines that say something between the end of deal
    ``before`` and the start of ``deal``: the stake lines that take effect
    from ``deal`` on."""
    index = before.line - 1
    while index < len(lines) and not _blank(lines[index][0]):
        index += 1
    return [i for i in range(index, deal.line - 1) if _own(lines[i][0]) and not _payment(lines[i][0])]


def _payment(text: str) -> bool:
    """A ``@paid`` line: a payment stays when the deal after it is removed
    (it then follows the deal before, or ends the file)."""
    return text.split("#", 1)[0].strip().startswith("@paid")


def _without(lines: list[Line], removed: set[int]) -> list[Line]:
    r"""``lines`` less the ``removed`` ones; a run of removed lines that stood
    alone between blank lines (or the start or the end of the file) takes one
    of those blank lines with it, the one before it if there is one, so that
    the deals around it stay one blank line apart.

    >>> _without(_split("A\n\nB\n\nC\n"), {2})
    [('A', '\n'), ('', '\n'), ('C', '\n')]
    >>> _without(_split("# night\nA\n\nB\n"), {1})
    [('# night', '\n'), ('', '\n'), ('B', '\n')]
    """
    drop = set(removed)
    ordered = sorted(removed)
    runs: list[list[int]] = []
    for index in ordered:
        if runs and runs[-1][-1] == index - 1:
            runs[-1].append(index)
        else:
            runs.append([index])
    for run in runs:
        before, after = run[0] - 1, run[-1] + 1
        blank_before = before >= 0 and before not in drop and _blank(lines[before][0])
        blank_after = after < len(lines) and after not in drop and _blank(lines[after][0])
        if (blank_before or before < 0) and (blank_after or after >= len(lines)):
            if blank_before:
                drop.add(before)
            elif blank_after:
                drop.add(after)
    return [line for index, line in enumerate(lines) if index not in drop]


def _replaced(lines: list[Line], own: list[int], added: list[str], newline: str) -> list[Line]:
    r"""``lines`` with the lines ``added`` in place of the ``own`` lines of a
    deal: where its last own line was, which keeps its line end (a file
    without a final newline keeps having none); a comment line among the
    deal's lines stays, before the new deal.

    >>> _replaced(_split("A\n\nx\n# c\ny"), [2, 4], ["n", "m"], "\n")
    [('A', '\n'), ('', '\n'), ('# c', '\n'), ('n', '\n'), ('m', '')]
    """
    mine = set(own)
    last = own[-1]
    block = [(text, newline) for text in added[:-1]] + [(added[-1], lines[last][1])]
    result: list[Line] = []
    for index, line in enumerate(lines):
        if index == last:
            result += block
        elif index not in mine:
            result.append(line)
    return result


def _reread(text: str, target: str) -> tuple[Header, list[DealText]]:
    from cpscore.session import read_session
    from cpscore.textio import split_lines

    header, deals = read_session(split_lines(text, target), target)
    return header, list(deals)


def _facts(deal: DealText) -> tuple[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]]:
    """What a deal says, wherever it is in the file: its entries' names and
    texts, and the stake lines before it (``changes``, where the session reads them)."""
    entries = tuple((entry.name, entry.text) for entry in deal.entries)
    # A payment (@paid) is never moved nor removed: where it stands, before a deal, at the top
    # or at the end, it counts the same, so a removal may leave it at the top or the end.
    changes = tuple((change[0], change[1]) for change in getattr(deal, "changes", ()) if change[0] != "paid")
    return entries, changes


def _printable(line: str) -> str:
    """A line as the report shows it: as written, or quoted when it holds a
    character a terminal would act on."""
    return line if line.replace("\t", " ").isprintable() else repr(line)


def _deals(count: int) -> str:
    return "no deals" if count == 0 else "1 deal" if count == 1 else f"{count} deals"
