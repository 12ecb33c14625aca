"""Reading text the way every command does: UTF-8, a byte-order mark dropped,
lines split on ``\\n`` alone (``\\r\\n`` too), each line bounded in length.

Files that are not UTF-8 are refused with the line and column of the first
bad byte; UTF-16 (Notepad's "Unicode") is recognised by its byte-order mark
and named.  A line longer than :data:`MAX_LINE` bytes is refused before it is
read whole, so junk costs time in proportion to the limit, not to its size.

>>> decode(b"\\xef\\xbb\\xbfAmy: Ks\\r\\nBob: Qs\\n", "deal.txt")
'Amy: Ks\\r\\nBob: Qs\\n'
>>> list(split_lines("Amy: Ks\\r\\nBob: Qs\\u2028x\\n"))
['Amy: Ks', 'Bob: Qs\\u2028x']
>>> try:
...     decode(b"Jos\\xe9: Ks", "deal.txt")
... except ValueError as error:
...     print(error)
deal.txt, line 1: not UTF-8 text (byte 0xe9 at column 4): save the file as UTF-8
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import BinaryIO

from cpscore.errors import DealError

#: The longest line read, in bytes (a hand line takes about 60).
MAX_LINE = 4096
_BOM = "\ufeff"


def _not_utf8(data: bytes, source: str, first_line: int = 1) -> DealError:
    if first_line == 1 and data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return DealError(f"{source}: UTF-16 text, not UTF-8: save the file as UTF-8")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as error:
        start = data.rfind(b"\n", 0, error.start) + 1
        line = first_line + data.count(b"\n", 0, error.start)
        column = error.start - start + 1
        byte = data[error.start]
        return DealError(
            f"{source}, line {line}: not UTF-8 text (byte 0x{byte:02x} at column {column}): save the file as UTF-8"
        )
    return DealError(f"{source}: not UTF-8 text")  # pragma: no cover - decode failed above


def decode(data: bytes, source: str) -> str:
    """The text of ``data``, a leading byte-order mark dropped; a
    :class:`DealError` naming the line and column when it is not UTF-8."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise _not_utf8(data, source) from None
    return text[1:] if text.startswith(_BOM) else text


def split_lines(text: str, source: str = "") -> Iterator[str]:
    """The lines of ``text``, split at ``\n``, ``\r\n`` or ``\r`` (as Python
    reads text files; not at U+2028 and the other separators ``str.splitlines``
    knows, which stay in the line), each at most :data:`MAX_LINE` characters."""
    import re

    pieces = re.split("\r\n|\r|\n", text)
    if pieces[-1] == "":
        pieces.pop()  # the end of the last line, not a line
    for number, line in enumerate(pieces, start=1):
        if len(line) > MAX_LINE:
            raise DealError(_too_long(source, number, len(line)))
        yield line


def _too_long(source: str, number: int, size: int | None) -> str:
    where = f"{source}, line {number}" if source else f"line {number}"
    length = f"{size:,} characters" if size is not None else f"over {MAX_LINE:,} characters"
    return f"{where}: the line is {length} long: a line is at most {MAX_LINE:,} (a hand takes about 60)"


def read_lines(file: BinaryIO, source: str) -> Iterator[str]:
    """The decoded lines of a binary file as it is read (streaming; a file
    that cannot seek must be a buffered reader, as stdin and pipes are),
    split as :func:`split_lines` does, a BOM dropped; errors name the line."""
    import io

    if file.seekable():
        start = file.read(2)
        file.seek(-len(start), io.SEEK_CUR)
    else:  # a pipe or a terminal: look without reading
        start = file.peek(2)[:2]  # type: ignore[attr-defined]  # a buffered reader
    if start in (b"\xff\xfe", b"\xfe\xff"):
        raise DealError(f"{source}: UTF-16 text, not UTF-8: save the file as UTF-8")
    text = io.TextIOWrapper(file, encoding="utf-8", errors="surrogateescape", newline=None)
    try:
        number = 0
        while True:
            line = text.readline(MAX_LINE + 1)
            if not line:
                return
            number += 1
            if len(line) > MAX_LINE and not line.endswith("\n"):
                raise DealError(_too_long(source, number, None))
            if number == 1 and line.startswith(_BOM):
                line = line[1:]
            line = line.removesuffix("\n")
            if not line.isascii():
                bad = next((i for i, char in enumerate(line) if "\udc80" <= char <= "\udcff"), None)
                if bad is not None:
                    byte = ord(line[bad]) - 0xDC00
                    column = len(line[:bad].encode("utf-8", "surrogateescape")) + 1
                    raise DealError(
                        f"{source}, line {number}: not UTF-8 text (byte 0x{byte:02x} at column {column}): "
                        "save the file as UTF-8"
                    )
            yield line
    finally:
        try:
            text.detach()  # the caller's file stays open
        except ValueError:  # the caller closed it first: nothing to keep open
            pass
