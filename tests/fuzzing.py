"""Fuzzing helpers shared by ``tests/test_fuzz.py`` and ``benchmarks/fuzz.py``.

An input is a :class:`Case`: the command's arguments, the files it reads
(written into a fresh folder that is the working directory while it runs) and
the bytes on stdin.  :func:`generate` builds one deterministically from a
``random.Random``: valid material (the files in ``examples/``, the README's
hands, freshly dealt hands, the preset rule files) with options picked at
random, then mutated (characters, tokens, lines, bytes, encodings, TOML
values and nesting, huge and odd numbers) or replaced by junk.

:meth:`Runner.run` invokes ``cpscore.cli.main`` in-process through click's
``CliRunner`` and :func:`check_outcome` decides whether the result breaks one
of the command line's promises:

* no uncaught exception (``result.exception`` other than ``SystemExit``);
* an exit code of 0, 1 or 2;
* on a non-zero exit: nothing on stdout, and stderr is one or more lines
  each starting with ``Error: `` (click's usage errors may add ``Usage: ...``,
  ``Try ...`` and blank lines before it); lines are split the way Python's
  ``str.splitlines`` splits them, so a raw CR or U+2028 in a message breaks it;
* no stderr line longer than :data:`MAX_LINE` characters (errors are bounded).

A failure's class names the invariant, the command and the innermost frame of
the cpscore package where the exception (or, for a bad error message, the
library error behind it) was raised.
"""

from __future__ import annotations

import base64
import contextlib
import dataclasses
import os
import random
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import tomllib
import traceback
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"

MAX_LINE = 300
PRESETS = (
    "2-4", "1-6", "ofc", "ofc-western", "pineapple", "turbo", "taiwanese", "shisanshui", "shisanshui-old", "maubinh",
    "capsa", "pusoy", "pineapple-ru", "pineapple-27",
)  # fmt: skip
COMMANDS = (
    "score", "check", "session", "stats", "standings", "add", "pay", "undo", "remove", "replace", "arrange",
    "rules show", "rules",
)  # fmt: skip
STYLES = (
    "simple", "grid", "github", "rounded_outline", "plain", "fancy_grid", "pipe", "orgtbl", "rst", "mediawiki",
    "html", "latex", "latex_raw", "latex_booktabs", "latex_longtable", "tsv", "jira", "textile", "moinmoin",
    "youtrack", "pretty", "psql", "double_outline", "heavy_grid", "mixed_grid", "unsafehtml", "asciidoc",
    "presto", "outline", "simple_grid", "double_grid", "heavy_outline", "mixed_outline", "simple_outline",
    "rounded_grid", "fancy_outline", "colon_grid",
)  # fmt: skip
BAD_STYLES = ("", "Simple", "GRID", "nope", "simple ", "grid\n", "fancy_grid\u2028", "\udcff", "ＧＲＩＤ")
FORMATS = {"score": ("table", "json", "csv"), "session": ("table", "json", "jsonl", "csv")}
FORMATS["check"] = FORMATS["arrange"] = FORMATS["stats"] = ("table", "json")
FORMATS["standings"] = ("table", "json", "csv")

RANKS = "23456789TJQKA"
SUITS = "shdc"
SUIT_SYMBOLS = {"s": "♠♤", "h": "♥♡", "d": "♦♢", "c": "♣♧"}
DECK = [rank + suit for rank in RANKS for suit in SUITS]

NAMES = ["Amy", "Bob", "Cy", "Dan", "Ann", "Ben", "Cat", "Carl", "Dee", "Eve", "Fay"]
ODD_NAMES = [
    "Zoë", "李雷", "Ａｍｙ", "amy", "AMY", "Mary Ann", "O'Neil", "Amy[1]", "Amy[2]", "Bob[x]", "Bob[]", "[1]",
    "Amy[1][2]", "Amy]", "X" * 80, "Ǆ", "ß", "SS", "İ", "i̇", "ﬀ", "Æsa", "Amy\u0301", "Аmy", "\u202eymA",
    " Amy", "Amy ", "@rules", "-", "--stake", "1", "٣", "Amy\tB", "#Amy", "Amy;", "a=b", "Amy:Bob", "\u200b",
    "Amy\u00a0", "Ｂｏｂ", "😀", "Amy\u2028", "Amy\r", "\x1b[31mAmy",
]  # fmt: skip

NATURAL_HANDS = [
    "2h 3d 4c 5s 6h 7d 8c 9s Th Jd Qc Ks Ah",  # dragon
    "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As",  # clean dragon
    "2h 2d 4c 4s 6h 6d 8c 8s Th Td Qc Qs Ah",  # six pairs
    "9h Td Jc Qs Kh 9d Tc Js Qh Kd 2c 3s 4h",  # three straights
    "3h 5h 7h 3c 5c 7c 9c Tc 2s 5s 7s 9s Js",  # three flushes
    "Js Jh Jd Jc Qs Qh Qd Qc Ks Kh Kd Kc As",  # twelve royals
    "2s 2h 2d 2c 5s 5h 5d 5c 9s 9h 9d 9c Ah",  # three quads
    "8s 8h 9d 9c Ts Jh Jd Qc Qs Kh Kd As Ah",  # all high
    "2s 2h 3d 3c 4s 5h 5d 6c 6s 7h 7d 8c As",  # all low
    "2h 3h 5h 7h 9h Jh Kh 2d 4d 6d 8d Td Qd",  # one colour
    "2s 2h 2d 5s 5h 5d 9s 9h 9d Js Jh Jd Ac",  # four trips
    "2h 3h 4h 5d 6d 7d 8d 9d 9c Tc Jc Qc Kc",  # three straight flushes
    "2s 3h 4d 5c 6s 7h 8d 9c Ts 2h 3d 4c 5s",  # nothing (an error when unset)
]  # fmt: skip

SETTINGS_TOP = (
    "id", "summary", "method", "surrender", "scoop_doubles", "home_run", "ace_high_front_straight",
    "six_pairs_odd_card", "wheel", "low_middle", "fantasyland", "max_players", "foul_plays", "fantasyland_cards",
    "criss_cross", "home_run_min_opponents", "home_run_split", "suit_order", "suit_foul", "natural_suit_tiebreak",
    "natural_rank", "natural_order", "natural_vs_natural", "false_claim", "pairing", "banker_rotation",
    "banker_wins_ties", "cap", "cap_scope", "table_stakes", "button_rotation", "fantasyland_repeats",
    "fantasyland_middle_stays", "low_middle_qualifier", "natural_row_order", "natural_beats_surrender", "horse",
    "ace_bonus",
)  # fmt: skip
ROYALTY_KEYS = ("mode", "cancel_when_both", "max_per_hand", "spade_bonus", "broken_royalties", "higher_takes")
FRONT_KEYS = tuple(r * 2 for r in RANKS) + tuple(r * 3 for r in RANKS) + ("trips",) + tuple(f"trips-{r}" for r in RANKS)
FIVE_KEYS = (
    "pair", "two-pair", "trips", "straight", "flush", "full-house", "quads", "straight-flush", "royal-flush",
    "steel-wheel", *(f"quads-{r}" for r in RANKS), "low-75432", "low-7", "low-8", "low-9", "low-T", "low-K",
)  # fmt: skip
NATURAL_KEYS = (
    "clean-dragon", "dragon", "twelve-royals", "three-straight-flushes", "three-quads", "all-high", "all-low",
    "six-and-higher", "one-colour", "twelve-one-colour", "four-trips", "five-pairs-trips", "six-pairs",
    "five-consecutive-pairs", "three-straights", "three-flushes", "no-broadway",
)  # fmt: skip
CHOICES = {
    "method": ("rows", "2-4", "1-6", "1-4"),
    "wheel": ("lowest", "second"),
    "fantasyland": ("none", "standard", "progressive", "2-7"),
    "mode": ("none", "holder", "row-bonus", "row-value"),
    "spade_bonus": (False, True, "row", "own"),
    "criss_cross": ("all", "corresponding"),
    "home_run_split": ("pair", "equal"),
    "natural_order": ("value", "rank"),
    "natural_vs_natural": ("higher", "net"),
    "pairing": ("all", "banker"),
    "banker_rotation": ("fixed", "next"),
    "cap_scope": ("deal", "session"),
    "suit_order": (False, ["s", "h", "c", "d"], ["d", "c", "h", "s"], ["s", "h", "d", "c"]),
    "natural_rank": (list(reversed(NATURAL_KEYS)), ["six-pairs", "dragon"], list(NATURAL_KEYS)),
    "table_stakes": (False, True, 100, 5),
    "cap": (False, 10, 40, 2),
    "false_claim": (False, 6, 3),
    "fantasyland_cards": (13, 14),
    "home_run_min_opponents": (1, 2, 3),
    "button_rotation": ("fixed", "next"),
    "fantasyland_repeats": (0, 1, 2, "unlimited", 99, 100),
    "low_middle_qualifier": (False, "T", "9", "7", "K", "A", "t"),
    "natural_row_order": ("back-middle-front", "back-front-middle"),
    "horse": (False, "Ah", "A♥", "10h", "As", "Xx", "Ah Ad"),
    "ace_bonus": (0, 1, 2, 0.5),
}
FLAGS = (
    "scoop_doubles", "home_run", "ace_high_front_straight", "six_pairs_odd_card", "low_middle", "cancel_when_both",
    "foul_plays", "suit_foul", "natural_suit_tiebreak", "banker_wins_ties", "broken_royalties", "higher_takes",
    "natural_beats_surrender", "fantasyland_middle_stays",
)  # fmt: skip

# Characters inserted by the mutations.  Arguments can hold any character but
# NUL, and of the surrogates only U+DC80..U+DCFF (how Python decodes argv bytes
# that are not UTF-8); files and stdin are bytes, so they get no surrogates.
SPECIAL_CHARS = (
    "\ufeff", "\r", "\n", "\r\n", "\u2028", "\u2029", "\x85", "\t", "\x0b", "\x0c", "\x1b", "\x1b[2J", "\x7f",
    "\x08", "\x1c", "\x1e", "\u200b", "\u200d", "\u202e", "\u0301", "\ufe0f", "\u00a0", "\u3000", "Ａ", "ｓ",
    "٣", "١٠", "१", "½", "⅓", "ß", "İ", "ﬀ", "ǅ", "♠", "♥", "♦", "♣", "♤", "♡", "♢", "♧", "🂡", "😀", "𝟙",
    "/", "|", "=", ":", "#", ";", "[", "]", ",", " ", "  ", "@", "-", "--", ".", '"', "'", "\\", "%s", "{}",
    "{0}", "$", "*", "?", "~", "\u0000",
)  # fmt: skip
ARG_SURROGATES = tuple(chr(c) for c in (0xDC80, 0xDCC3, 0xDCE9, 0xDCFF))

AMOUNTS = (
    "10", "0.5", "1", "0", "100", "2.50", "5", "0.25", "1e-999999999", "7.777777777777777777777777777777",
    "1_000", "٣", "١٠", "٣.٥", "-5", "-0", "-0.0", "", "  ", "NaN", "nan", "-nan", "inf", "-inf", "Infinity",
    "1e309", "1E+2", "1e15", "1e14", "999999999999999", "99999999999999.99", "0.000000000000000000000000000001",
    "1e-30", "1e-31", "1e-28", "0x10", "1,5", "+3", "1" + "0" * 100, "1e999999999", "0E-1000000", "sNaN",
    "１０", "1.", ".5", "5e", "10 ", " 10", "10\u2028", "½", "10€", "$10", "1e+999999999", "0e999999999",
    "123456789.123456789123456789123456789", "٠٫٥", "1\u00a0000", "1e-7", "3.0000000000", "1e1000",
)  # fmt: skip
TOML_RAW_NUMBERS = (
    "0", "1", "-1", "2", "3", "4", "5", "13", "2.5", "0.5", "-0.5", "1e309", "-1e309", "inf", "-inf", "nan",
    "+nan", "1e-999999999", "1e999999999", "7.777777777777777777777777777777", "1_000", "1_000.5", "0x10",
    "0o17", "0b101", "9223372036854775807", "-9223372036854775808", "18446744073709551616", "1e15", "1e14",
    "999999999999999.999", "1e-30", "1e-31", "0.1", "1e2", "6E-1", "-0", "-0.0", "+1", "10000000000000000",
)  # fmt: skip


# The seeds -----------------------------------------------------------------------------------


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _load_seeds():
    # Deal files; a file with header lines (@rules ...) is a session.
    files = {p.name: _read(p) for p in sorted(EXAMPLES.glob("*.txt"))}
    deals = {name: text for name, text in files.items() if not re.search(r"^@", text, re.M)}
    session = _read(EXAMPLES / "session.txt")
    house = _read(EXAMPLES / "house-rules.toml")
    presets = {}
    for path in sorted((ROOT / "cpscore" / "presets").glob("*.toml")):
        presets[path.stem] = f'preset = "{path.stem}"\n' + _read(path)
    readme = "".join(_read(page) for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))])
    card = r"(?:10|[2-9TJQKA])[shdc♠♥♦♣]"
    hands = set()
    for match in re.finditer(rf"{card}(?:[ ,]+{card}|\s*[/|]\s*{card})+", readme):
        text = match.group(0)
        count = len(re.findall(card, text))
        if count == 13:
            hands.add(text)
    for text in deals.values():
        for line in text.splitlines():
            if ":" in line and not line.startswith("#"):
                hands.add(line.split(":", 1)[1].split(";")[0].strip())
    hands.discard("surrender")
    hands.discard("")
    return deals, session, house, presets, sorted(hands)


SEED_DEALS, SEED_SESSION, SEED_HOUSE, SEED_PRESET_FILES, SEED_HANDS = _load_seeds()


# The input ---------------------------------------------------------------------------------


@dataclasses.dataclass
class Case:
    """One input: ``args`` after ``cpscore``; ``files`` maps a relative path to its
    bytes, or to ``"<dir>"``, ``"<symlink:TARGET>"`` or ``"<hardlink:TARGET>"``."""

    command: str
    args: list[str]
    files: dict[str, object] = dataclasses.field(default_factory=dict)
    stdin: bytes | None = None

    def size(self) -> int:
        files = sum(len(v) + len(k) if isinstance(v, bytes) else len(k) + 8 for k, v in self.files.items())
        return sum(len(a) + 1 for a in self.args) + files + len(self.stdin or b"")

    def copy(self) -> Case:
        return Case(self.command, list(self.args), dict(self.files), self.stdin)

    def to_json(self) -> dict:
        def content(value):
            if not isinstance(value, bytes):
                return {"special": value}
            entry = {"text": abbreviate(value.decode("utf-8", "backslashreplace")), "bytes": len(value)}
            if len(value) <= 65536:
                entry["base64"] = base64.b64encode(value).decode()
            return entry

        data = {
            "command": self.command,
            "shell": shell_command(self.args),
            "args": [abbreviate(a) for a in self.args],
            "files": {name: content(value) for name, value in self.files.items()},
        }
        if self.size() <= 65536:
            data["args_full"] = [utf8(a).decode("latin-1") for a in self.args]
            data["args_encoding"] = "each arg's bytes (UTF-8, surrogateescape) read as Latin-1"
        if self.stdin is not None:
            data["stdin"] = content(self.stdin)
        return data

    @classmethod
    def from_json(cls, data: dict) -> Case:
        args = [a.encode("latin-1").decode("utf-8", "surrogateescape") for a in data["args_full"]]
        files = {}
        for name, value in data["files"].items():
            files[name] = value["special"] if "special" in value else base64.b64decode(value["base64"])
        stdin = base64.b64decode(data["stdin"]["base64"]) if data.get("stdin") else None
        return cls(data["command"], args, files, stdin)

    def describe(self, limit: int = 300) -> str:
        lines = ["$ " + abbreviate(shell_command(self.args), limit)]
        for name, value in self.files.items():
            if isinstance(value, bytes):
                lines.append(f"--- {name} ({len(value)} bytes):")
                lines.append(abbreviate(value.decode("utf-8", "backslashreplace"), limit))
            else:
                lines.append(f"--- {name}: {value}")
        if self.stdin is not None:
            lines.append(f"--- stdin ({len(self.stdin)} bytes):")
            lines.append(abbreviate(self.stdin.decode("utf-8", "backslashreplace"), limit))
        return "\n".join(lines)


def abbreviate(text: str, limit: int = 300) -> str:
    """Runs of a repeated unit written as «UNIT×N»; the middle of a long text cut out."""

    def run(match):
        unit = match.group(1)
        return f"«{unit}×{len(match.group(0)) // len(unit)}»"

    text = re.sub(r"(.{1,8}?)\1{11,}", run, text, flags=re.S)
    if len(text) > limit:
        half = limit // 2
        text = f"{text[:half]}…[{len(text) - 2 * half} chars]…{text[-half:]}"
    return text


def _quote(arg: str) -> str:
    if (
        arg
        and all(c.isprintable() and c not in "\\'" for c in arg)
        and not any(0xDC80 <= ord(c) <= 0xDCFF for c in arg)
    ):
        return shlex.quote(arg)
    out = []
    for byte in arg.encode("utf-8", "surrogateescape"):
        c = chr(byte)
        if 0x20 <= byte < 0x7F and c not in "\\'":
            out.append(c)
        else:
            out.append(f"\\x{byte:02x}")
    return "$'" + "".join(out) + "'"


def shell_command(args: list[str]) -> str:
    """The command line a shell user would type (``$'...'`` for odd bytes)."""
    return " ".join(["cpscore", *map(_quote, args)])


# Building blocks: cards, hands, deals ----------------------------------------------------------


def card_text(rng: random.Random, card: str, style: dict) -> str:
    rank, suit = card[0], card[1]
    if rank == "T" and style["ten"]:
        rank = "10"
    if style["symbols"]:
        suit = SUIT_SYMBOLS[suit][style["symbols"] - 1]
    text = rank + suit
    if style["case"] == "lower":
        text = text.lower()
    elif style["case"] == "upper":
        text = text.upper()
    elif style["case"] == "mixed" and rng.random() < 0.5:
        text = text.swapcase()
    return text


def _style(rng: random.Random) -> dict:
    return {
        "ten": rng.random() < 0.1,
        "symbols": rng.choice([0] * 8 + [1, 2]),
        "case": rng.choice(["as"] * 14 + ["lower", "upper", "mixed"]),
        "gap": rng.choice([" "] * 16 + [",", ", ", "", "  ", "\t"]),
        "row": rng.choice([" / "] * 14 + ["/", " | ", "|", "  /  "]),
        "reverse": rng.random() < 0.1,
    }


def _strength_order(cards: list[str]) -> list[str]:
    """Cards grouped by rank, biggest groups and ranks first: a back taken from
    the front of this list usually beats the middle, which beats the front."""
    counts = {r: sum(1 for c in cards if c[0] == r) for r in RANKS}
    return sorted(cards, key=lambda c: (-counts[c[0]], -RANKS.index(c[0])))


def set_hand_text(rng: random.Random, cards: list[str], style: dict | None = None) -> str:
    style = style or _style(rng)
    cards = list(cards)
    if rng.random() < 0.6:
        cards = _strength_order(cards)
        back, middle, front = cards[:5], cards[5:10], cards[10:]
    else:
        rng.shuffle(cards)
        front, middle, back = cards[:3], cards[3:8], cards[8:]
    rows = [front, middle, back]
    if style["reverse"]:
        rows.reverse()
    return style["row"].join(style["gap"].join(card_text(rng, c, style) for c in row) for row in rows)


def unset_hand_text(rng: random.Random, cards: list[str], style: dict | None = None) -> str:
    style = style or _style(rng)
    return style["gap"].join(card_text(rng, c, style) for c in cards)


def random_cards(rng: random.Random, n: int = 13) -> list[str]:
    return rng.sample(DECK, n)


def random_hand(rng: random.Random, deck: list[str] | None = None) -> str:
    """A hand of 13 cards from ``deck`` (which loses them): mostly set, sometimes a seed."""
    roll = rng.random()
    if roll < 0.05:
        return rng.choice(SEED_HANDS)
    if roll < 0.1:
        return rng.choice(NATURAL_HANDS)
    if deck is not None and len(deck) >= 13:
        cards = [deck.pop() for _ in range(13)]
    else:
        cards = random_cards(rng)
    if roll < 0.16:
        return unset_hand_text(rng, cards)
    return set_hand_text(rng, cards)


def random_name(rng: random.Random) -> str:
    return rng.choice(ODD_NAMES) if rng.random() < 0.06 else rng.choice(NAMES)


def random_names(rng: random.Random, n: int) -> list[str]:
    names = rng.sample(NAMES, min(n, len(NAMES)))
    if rng.random() < 0.08:  # criss-cross
        owner = rng.choice(names)
        names[: min(2, n)] = [f"{owner}[{i + 1}]" for i in range(min(2, n))]
    if rng.random() < 0.06:
        names[rng.randrange(n)] = rng.choice(ODD_NAMES)
    return names


def result_entries(rng: random.Random, names: list[str]) -> list[tuple[str, str]]:
    """A deal of results, no cards; now and then one that does not sum to zero, or a marker."""
    results = [rng.choice([-12, -6, -3, -1, 0, 1, 2, 5, 9]) for _ in names[1:]]
    results.insert(0, -sum(results) + (rng.choice([1, -2, 0.5]) if rng.random() < 0.2 else 0))
    entries = [(name, f"{value:+g}" if value else "0") for name, value in zip(names, results)]
    if entries and rng.random() < 0.3:
        entries[0] = (entries[0][0], entries[0][1] + rng.choice([" ; dealer", "; Dealer", " ; waive", " ; banker"]))
    return entries


def random_entries(rng: random.Random, names: list[str] | None = None, markers: bool = True) -> list[tuple[str, str]]:
    """``[(name, hand text)]`` for one deal, cards dealt from one deck."""
    if names is None:
        names = random_names(rng, rng.choice([2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 1, 5]))
    if rng.random() < 0.06:
        return result_entries(rng, names)
    deck = DECK[:]
    rng.shuffle(deck)
    entries = []
    for name in names:
        roll = rng.random()
        if roll < 0.05:
            hand = "surrender"
        else:
            hand = random_hand(rng, deck)
            if markers and roll < 0.20:
                hand += rng.choice(
                    [" ; waive", " ; fantasyland", "; waive", " ; surrender", " ; waive ; fantasyland",
                     " ; Waive", " ; FANTASYLAND", " ; bogus", " ;", " ; waive ; waive", " ; banker", "; Banker",
                     " ; dealer", " ; dealer ; banker"]
                )  # fmt: skip
        entries.append((name, hand))
    return entries


def deal_text(rng: random.Random, entries: list[tuple[str, str]], extras: bool = True) -> str:
    lines = []
    if rng.random() < 0.2:
        lines.append("# a deal " + rng.choice(["", "with a comment", "Amy: Ah Ad / x"]))
    for name, hand in entries:
        gap = rng.choice([" "] * 6 + ["  ", "\t", "", ": "[1:]])
        lines.append(f"{name}:{gap}{hand}")
        if extras and rng.random() < 0.04:
            lines.append(rng.choice(["", "   ", "# comment", "\t"]))
    return "\n".join(lines) + ("\n" if rng.random() < 0.9 else "")


def random_deal_text(rng: random.Random) -> str:
    if rng.random() < 0.3:
        return rng.choice(list(SEED_DEALS.values()))
    return deal_text(rng, random_entries(rng))


def random_amount(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.7:
        return rng.choice(AMOUNTS[:8])
    if roll < 0.85:
        return rng.choice(AMOUNTS)
    if roll < 0.9:
        return rng.choice(["5" * 5000, "1" + "0" * 5000, "0." + "0" * 5000 + "1", "9" * 4301])
    mantissa = rng.choice(["1", "7", "2.5", "0.1", "123.456", "-3"])
    return f"{mantissa}e{rng.choice(['', '-', '+'])}{rng.choice([1, 2, 14, 15, 16, 28, 29, 30, 31, 100, 10**6, 10**9])}"


def random_int_text(rng: random.Random) -> str:
    return rng.choice(
        ["1", "2", "3", "5", "11", "0", "-1", "-3", "x", "", "1.5", "1e3", "٣", "３", " 3", "3 ", "+3",
         "99999999999999999999999", "1" + "0" * 5000, "0x3", "1_0", "nan", "inf", "-0"]
    )  # fmt: skip


def rules_option(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.8:
        return rng.choice(PRESETS)
    return rng.choice(
        ["OFC", "Taiwanese", "2-4 ", " 1-6", "2_4", "1-6\n", "ofc-Western", "", "pineapple\u2028", "taiwanese\x1b",
         "unknown", "house", "2-4.toml", "nope/", "\\x", "a" * 700, "ofc\udcff", "２-４", "-", "--rules"]
    )  # fmt: skip


# Rule files ------------------------------------------------------------------------------------


class Raw(str):
    """A TOML value written as it is (a number token, an array, an inline table...)."""


def toml_key(key: str) -> str:
    if key and re.fullmatch(r"[A-Za-z0-9_-]+", key):
        return key
    return _toml_string(key)


def _toml_string(value: str) -> str:
    out = ['"']
    for c in value:
        code = ord(c)
        if c == '"':
            out.append('\\"')
        elif c == "\\":
            out.append("\\\\")
        elif code < 0x20 and c != "\t" or code == 0x7F:
            out.append(f"\\u{code:04x}")
        elif 0xD800 <= code <= 0xDFFF:
            out.append(f"\\u{code:04x}")  # invalid in TOML: a decode error
        else:
            out.append(c)
    out.append('"')
    return "".join(out)


def toml_value(value) -> str:
    if isinstance(value, Raw):
        return str(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, (float, Decimal)):
        return str(value)
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{toml_key(k)} = {toml_value(v)}" for k, v in value.items()) + "}"
    return _toml_string(str(value))


def toml_dump(data: dict) -> str:
    """TOML text for ``data``: scalars first, then one ``[table]`` per nested dict."""
    lines: list[str] = []

    def section(table: dict, path: list[str]) -> None:
        scalars = [(k, v) for k, v in table.items() if not (isinstance(v, dict) and not isinstance(v, Inline))]
        tables = [(k, v) for k, v in table.items() if isinstance(v, dict) and not isinstance(v, Inline)]
        if path and (scalars or not tables):
            lines.append("")
            lines.append("[" + ".".join(toml_key(p) for p in path) + "]")
        for key, value in scalars:
            lines.append(f"{toml_key(key)} = {toml_value(value)}")
        for key, value in tables:
            section(value, [*path, key])

    section(data, [])
    return "\n".join(lines) + "\n"


class Inline(dict):
    """A dict written as an inline table."""


def _deep(rng: random.Random) -> Raw:
    depth = rng.choice([10, 100, 500, 1000, 3000, 10000])
    kind = rng.random()
    if kind < 0.4:
        return Raw("[" * depth + "1" + "]" * depth)
    if kind < 0.8:
        return Raw("{a = " * depth + "1" + "}" * depth)
    return Raw("[{a = " * depth + "1" + "}]" * depth)


def toml_random_value(rng: random.Random, key: str):
    roll = rng.random()
    if roll < 0.35:  # a value of the right kind
        if key in CHOICES:
            return rng.choice(CHOICES[key])
        if key in FLAGS:
            return rng.random() < 0.5
        if key == "max_players":
            return rng.choice([2, 3, 4])
        if key == "max_per_hand":
            return rng.choice([0, 1, 2])
        if key in ("id", "summary"):
            return rng.choice(["house", "my rules", "Ünïcode ♠", "x" * rng.choice([1, 100, 700])])
        if key == "preset":
            return rng.choice(PRESETS)
        return Raw(rng.choice(TOML_RAW_NUMBERS[:14]))
    if roll < 0.65:
        return Raw(rng.choice(TOML_RAW_NUMBERS))
    if roll < 0.72:
        return Raw(rng.choice(["5" * 5000, "-" + "9" * 4400, "1" * 4300, "0." + "0" * 5000 + "1", "1" + "0" * 400]))
    if roll < 0.8:
        return rng.choice(
            ["", "bonus", "Holder", "holder ", "ROWS", "none\u2028", "row\nbonus", "\x1b[31m", "🂡", "x" * 2000,
             "true", "1", "1e309", "\udcff", "a\u0000b"]
        )  # fmt: skip
    if roll < 0.86:
        return rng.choice(
            [Raw("[]"), Raw("[1, 2]"), Raw("{}"), Raw("{a = 1}"), Raw("1979-05-27T07:32:00Z"), Raw("07:32:00"),
             Raw("1979-05-27"), Raw('"""multi\nline"""'), Raw("'literal'"), Raw("[[1], ['a']]"), True, False]
        )  # fmt: skip
    if roll < 0.9:
        return _deep(rng)
    return rng.choice([True, False, 0, -1, 1, 2, 10**6])


def random_rule_data(rng: random.Random) -> dict:
    base_roll = rng.random()
    if base_roll < 0.3:
        data = tomllib.loads(SEED_HOUSE)
    elif base_roll < 0.7:
        data = tomllib.loads(rng.choice(list(SEED_PRESET_FILES.values())))
    else:
        data = {"preset": rng.choice(PRESETS)}
    for _ in range(rng.choice([0, 1, 1, 2, 2, 3, 4, 6])):
        op = rng.random()
        if op < 0.3:
            key = rng.choice((*SETTINGS_TOP, "preset"))
            data[key] = toml_random_value(rng, key)
        elif op < 0.5:
            table = data.setdefault("royalties", {})
            if not isinstance(table, dict):
                continue
            key = rng.choice(ROYALTY_KEYS)
            table[key] = toml_random_value(rng, key)
        elif op < 0.7:
            royalties = data.setdefault("royalties", {})
            if not isinstance(royalties, dict):
                continue
            row = rng.choice(["front", "middle", "back"])
            table = royalties.setdefault(row, {})
            if not isinstance(table, dict):
                continue
            key = rng.choice(FRONT_KEYS if row == "front" else FIVE_KEYS)
            if rng.random() < 0.1:
                key = rng.choice(["22 ", "aa", "AK", "A", "2222", "royal", "Full-House", "", "♠♠"])
            table[key] = toml_random_value(rng, key)
        elif op < 0.8:
            table = data.setdefault("naturals", {})
            if not isinstance(table, dict):
                continue
            key = rng.choice(NATURAL_KEYS)
            table[key] = toml_random_value(rng, key) if rng.random() < 0.7 else False
        elif op < 0.87:  # delete a setting
            keys = list(data)
            if keys:
                del data[rng.choice(keys)]
        elif op < 0.93:  # an unknown setting, somewhere
            where = data if rng.random() < 0.5 else data.setdefault(rng.choice(["royalties", "naturals"]), {})
            if isinstance(where, dict):
                where[rng.choice(["bogus", "Method", "royalty", "naturals ", "mode", "x" * 300, "ключ"])] = 1
        else:  # a table where a value belongs, or the reverse
            key = rng.choice(["method", "royalties", "naturals", "surrender", "preset"])
            data[key] = rng.choice([{"a": 1}, Inline(b=2), _deep(rng), 3, "x"])
    return data


def random_rule_text(rng: random.Random) -> str:
    text = toml_dump(random_rule_data(rng))
    if rng.random() < 0.15:
        text = mutate_text(rng, text, for_file=True, max_ops=3)
    if rng.random() < 0.05:
        text = rng.choice(["", "preset =", "[[royalties]]\n", 'preset = "ofc"\npreset = "ofc"\n', "\x00", "=\n"]) + text
    return text


def rule_file(rng: random.Random, files: dict, name: str | None = None) -> str:
    """Write a random rule file into ``files``; its path."""
    name = name or rng.choice(["house.toml"] * 8 + ["rules/house.toml", "Ünï.toml", "h o u s e.toml", "x.TOML"])
    files[name] = encode(rng, random_rule_text(rng))
    return name


# Mutations -------------------------------------------------------------------------------------


def _insertion(rng: random.Random, for_file: bool) -> str:
    roll = rng.random()
    if roll < 0.55:
        c = rng.choice(SPECIAL_CHARS)
        if c == "\u0000" and not for_file:
            c = "\u0001"
        return c
    if roll < 0.65 and not for_file:
        return rng.choice(ARG_SURROGATES)
    if roll < 0.8:
        return chr(rng.randrange(0x20, 0x7F))
    if roll < 0.9:
        code = rng.randrange(0xA0, 0xD7FF)
        return chr(code)
    code = rng.randrange(0xE000, 0x10FFFF)
    if 0xD800 <= code <= 0xDFFF:
        code = 0xE000
    return chr(code)


def _long(rng: random.Random, seed: str) -> str:
    size = rng.choice([700, 2000, 10_000, 50_000, 200_000])
    unit = rng.choice([seed or "A", "A", "Ah ", "Amy", "x", "/", "9", "♠", "\u0301", "🂡"])
    return (unit * (size // len(unit) + 1))[:size]


def mutate_text(rng: random.Random, text: str, for_file: bool = False, max_ops: int = 4) -> str:
    """``text`` with one to ``max_ops`` random edits: characters, tokens, case, lines."""
    for _ in range(rng.randint(1, max_ops)):
        op = rng.random()
        n = len(text)
        if op < 0.22:  # insert a character
            i = rng.randint(0, n)
            text = text[:i] + _insertion(rng, for_file) + text[i:]
        elif op < 0.3 and n:  # delete a span
            i = rng.randrange(n)
            text = text[:i] + text[i + rng.randint(1, 4) :]
        elif op < 0.36 and n:  # replace a character
            i = rng.randrange(n)
            text = text[:i] + _insertion(rng, for_file) + text[i + 1 :]
        elif op < 0.5:  # token edits
            tokens = re.split(r"(\s+)", text)
            words = [i for i, t in enumerate(tokens) if t and not t.isspace()]
            if not words:
                continue
            i = rng.choice(words)
            kind = rng.random()
            if kind < 0.25:
                tokens.insert(i, tokens[i] + " ")  # duplicated
            elif kind < 0.45:
                tokens[i] = ""  # deleted
            elif kind < 0.65:
                j = rng.choice(words)
                tokens[i], tokens[j] = tokens[j], tokens[i]
            elif kind < 0.8:
                tokens[i] = rng.choice([str.upper, str.lower, str.swapcase, str.title, str.casefold])(tokens[i])
            else:
                tokens[i] = rng.choice(
                    ["1h", "11h", "Xc", "Ah♠", "A♠\ufe0f", "Ａh", "10", "T", "AhKh", "A h", "0s", "1s", "Ahh",
                     "🂡", "Aₛ", "ah", "AH", "10C", "2♡", "Jx", "/", "|", "//", "surrender", "waive", ";",
                     "+6", "-2.5", "+", "dealer"]
                )  # fmt: skip
            text = "".join(tokens)
        elif op < 0.5 + 0.015 and ("/" in text or "|" in text):  # rows of one hand swapped
            lines = text.split("\n")
            rowed = [i for i, line in enumerate(lines) if "/" in line or "|" in line]
            i = rng.choice(rowed)
            head, colon, hand = lines[i].rpartition(":") if ":" in lines[i] else ("", "", lines[i])
            rows = re.split(r"[/|]", hand)
            rng.shuffle(rows)
            lines[i] = head + colon + "/".join(rows)
            text = "\n".join(lines)
        elif op < 0.53:  # a very long token
            i = rng.randint(0, n)
            text = text[:i] + _long(rng, text[i : i + 3]) + text[i:]
        elif op < 0.6:  # case of the whole text
            text = rng.choice([str.upper, str.lower, str.swapcase])(text)
        elif for_file and op < 0.85:  # line edits
            lines = text.split("\n")
            i = rng.randrange(len(lines))
            kind = rng.random()
            if kind < 0.2 and len(lines) > 1:
                j = rng.randrange(len(lines))
                lines[i], lines[j] = lines[j], lines[i]
            elif kind < 0.35:
                lines.insert(i, lines[i])
            elif kind < 0.5:
                del lines[i]
            elif kind < 0.6:
                lines.insert(i, rng.choice(["", "   ", "\t", "#", "# comment: x", ":", "=", "\ufeff"]))
            elif kind < 0.75:
                lines.insert(
                    i,
                    rng.choice(["@rules ", "@stake ", "@pair-stake ", "@Rules ", "@bogus ", "@", "@stake"])
                    + rng.choice([*PRESETS, "house.toml", "10", "Amy:Bob=5", "", random_amount(rng)]),
                )
            elif kind < 0.85:
                text = rng.choice(["\r\n", "\r", "\u2028", "\x85", "\n\n"]).join(lines)
                continue
            else:
                lines[i] = lines[i] + rng.choice([" ", "\t", " # c", " ;", " ; waive", "\\"])
            text = "\n".join(lines)
        else:  # duplicate a span
            if n:
                i = rng.randrange(n)
                j = min(n, i + rng.randint(1, 40))
                text = text[:j] + text[i:j] + text[j:]
    return text


def mutate_bytes(rng: random.Random, data: bytes, max_ops: int = 3) -> bytes:
    data = bytearray(data)
    for _ in range(rng.randint(1, max_ops)):
        op = rng.random()
        if op < 0.3 and data:
            i = rng.randrange(len(data))
            data[i] ^= 1 << rng.randrange(8)
        elif op < 0.55:
            i = rng.randint(0, len(data))
            data[i:i] = rng.choice(
                [b"\xff", b"\xfe", b"\xc3", b"\xe2\x99", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xc0\xaf", b"\x00",
                 b"\x80", b"\xef\xbb\xbf", bytes([rng.randrange(256)])]
            )  # fmt: skip
        elif op < 0.65 and data:
            del data[rng.randrange(len(data)) :]  # truncated
        elif op < 0.75 and data:
            i = rng.randrange(len(data))
            del data[i : i + rng.randint(1, 8)]
        else:
            i = rng.randint(0, len(data))
            data[i:i] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 6)))
    return bytes(data)


def utf8(text: str) -> bytes:
    """UTF-8; a surrogate escape (U+DC80..U+DCFF) becomes the byte it stands for."""
    try:
        return text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogatepass")


def encode(rng: random.Random, text: str) -> bytes:
    """Mostly UTF-8; sometimes another encoding or broken bytes."""
    roll = rng.random()
    if roll < 0.88:
        return utf8(text)
    text = utf8(text).decode("utf-8", "replace")  # no surrogates left for the other codecs
    if roll < 0.9:
        return b"\xef\xbb\xbf" + text.encode("utf-8", "replace")  # a BOM: fine
    if roll < 0.92:
        return ("é " + text).encode("latin-1", "replace")
    if roll < 0.94:
        return text.encode("utf-16")  # with a BOM
    if roll < 0.95:
        return text.encode(rng.choice(["utf-16-le", "utf-32", "cp1252", "shift_jis", "gb18030"]), "replace")
    return mutate_bytes(rng, text.encode("utf-8", "replace"))


def mutate_args(rng: random.Random, args: list[str], command_len: int, options: list[str]) -> list[str]:
    """Edits at the level of the argument list, leaving the command name alone."""
    args = list(args)
    for _ in range(rng.randint(1, 3)):
        head, tail = args[:command_len], args[command_len:]
        op = rng.random()
        if op < 0.4 and tail:  # one argument's text
            i = rng.randrange(len(tail))
            tail[i] = mutate_text(rng, tail[i], max_ops=2)
        elif op < 0.5 and tail:
            del tail[rng.randrange(len(tail))]
        elif op < 0.6 and tail:
            i = rng.randrange(len(tail))
            tail.insert(i, tail[i])
        elif op < 0.7 and len(tail) > 1:
            i, j = rng.randrange(len(tail)), rng.randrange(len(tail))
            tail[i], tail[j] = tail[j], tail[i]
        elif op < 0.85:  # an option, maybe without its value
            i = rng.randint(0, len(tail))
            option = rng.choice(options + ["--bogus", "-x", "--", "-", "--stake=", "--rules=ofc", "--help", "-h"])
            tail.insert(i, option)
        elif op < 0.9:  # an option's name, case changed or cut
            opts = [i for i, a in enumerate(tail) if a.startswith("--")]
            if opts:
                i = rng.choice(opts)
                tail[i] = rng.choice([tail[i].upper(), tail[i][:-1], tail[i] + "s", tail[i][1:], tail[i] + "="])
        else:  # the last argument replaced by junk
            if tail:
                tail[-1] = random_junk_string(rng)
        args = head + tail
    return args


def random_junk_string(rng: random.Random) -> str:
    n = rng.choice([0, 1, 2, 5, 10, 30, 100])
    return "".join(_insertion(rng, False) for _ in range(n))


# Options -------------------------------------------------------------------------------------


def _player_options(rng: random.Random, names: list[str], which: tuple[str, ...]) -> list[list[str]]:
    out = []
    for option in which:
        if rng.random() < 0.12:
            for _ in range(rng.choice([1, 1, 2])):
                out.append([option, rng.choice(names) if names and rng.random() < 0.85 else random_name(rng)])
    return out


def stake_options(rng: random.Random, names: list[str]) -> list[str]:
    out = []
    if rng.random() < 0.35:
        out += ["--stake", random_amount(rng)]
    if rng.random() < 0.2:
        for _ in range(rng.choice([1, 1, 2, 3])):
            a, b = rng.sample(names, 2) if len(names) > 1 else (random_name(rng), random_name(rng))
            if rng.random() < 0.1:
                a = random_name(rng)
            pair = rng.choice([f"{a}:{b}="] * 6 + [f"{b}:{a}=", f"{a}{b}=", f"{a}:{b}", f" {a} : {b} = ", f"{a}:{a}="])
            out += ["--pair-stake", pair + random_amount(rng)]
    return out


def _rules_args(rng: random.Random, files: dict, chance: float = 0.6) -> list[str]:
    if rng.random() >= chance:
        return []
    if rng.random() < 0.2:
        return ["--rules", rule_file(rng, files)]
    return ["--rules", rules_option(rng)]


def _format_args(rng: random.Random, command: str, explain: bool = True) -> list[list[str]]:
    out = []
    if rng.random() < 0.4:
        fmt = rng.choice(FORMATS[command]) if rng.random() < 0.92 else rng.choice(["JSON", "yaml", "", "Table"])
        out.append(["--format", fmt])
    if command != "arrange" and rng.random() < 0.25:
        out.append(["--style", rng.choice(STYLES) if rng.random() < 0.9 else rng.choice(BAD_STYLES)])
    if explain and rng.random() < 0.25:
        out.append(["--explain"])
    if rng.random() < 0.08:
        out.append(["--spade-bonus"])
    return out


def _shuffle_groups(rng: random.Random, groups: list[list[str]]) -> list[str]:
    groups = [g for g in groups if g]
    if rng.random() < 0.5:
        rng.shuffle(groups)
    out = []
    for group in groups:
        if len(group) == 2 and group[0].startswith("--") and rng.random() < 0.1:
            out.append(f"{group[0]}={group[1]}")
        else:
            out += group
    return out


OPTIONS = {
    "score": ["--rules", "--stake", "--pair-stake", "--surrender", "--waive", "--fantasyland", "--spade-bonus",
              "--banker", "--buy-in", "--format", "--style", "--explain"],
    "check": ["--rules", "--spade-bonus", "--fantasyland", "--format", "--style"],
    "session": ["--rules", "--spade-bonus", "--stake", "--pair-stake", "--buy-in", "--race", "--totals",
                "--skip-invalid", "--format", "--style", "--explain", "--round", "--plot"],
    "add": ["--rules", "--surrender", "--waive", "--new-player", "--players", "--stake", "--pair-stake", "--dealer",
            "--date", "--again"],
    "standings": ["--round", "--plot", "--format", "--style"],
    "pay": [],
    "stats": ["--rules", "--spade-bonus", "--stake", "--pair-stake", "--buy-in", "--skip-invalid", "--format", "--style"],
    "undo": [],
    "remove": [],
    "replace": ["--surrender", "--waive", "--new-player"],
    "arrange": ["--rules", "--spade-bonus", "--top", "--simulate", "--format"],
    "rules show": [],
    "rules": [],
}  # fmt: skip


# Generators, one per command -----------------------------------------------------------------


def _names_of(entries: list[tuple[str, str]]) -> list[str]:
    return [name for name, _ in entries]


def gen_score(rng: random.Random) -> Case:
    files: dict[str, object] = {}
    stdin = None
    groups: list[list[str]] = []
    names: list[str] = []
    kind = rng.random()
    if kind < 0.35:  # one deal file
        text = random_deal_text(rng)
        files["deal.txt"] = encode(rng, text if rng.random() < 0.7 else mutate_text(rng, text, for_file=True))
        groups.append(["deal.txt"])
        names = re.findall(r"^\s*([^:#\n]+?)\s*:", text, re.M)
    elif kind < 0.6:  # NAME=HAND arguments
        entries = random_entries(rng)
        names = _names_of(entries)
        for name, hand in entries:
            groups.append([f"{name}={hand}"])
    elif kind < 0.75:  # stdin
        text = random_deal_text(rng)
        stdin = encode(rng, text if rng.random() < 0.7 else mutate_text(rng, text, for_file=True))
        groups.append(["-"])
        names = re.findall(r"^\s*([^:#\n]+?)\s*:", text, re.M)
    else:  # a mix: a file, arguments and maybe stdin
        entries = random_entries(rng)
        names = _names_of(entries)
        split = rng.randint(0, len(entries))
        files["deal.txt"] = encode(rng, deal_text(rng, entries[:split]))
        groups.append(["deal.txt"])
        for name, hand in entries[split:]:
            groups.append([f"{name}={hand}"])
        if rng.random() < 0.3:
            stdin = encode(rng, deal_text(rng, random_entries(rng, names=[random_name(rng)])))
            groups.append(["-"])
            if rng.random() < 0.1:
                groups.append(["-"])
        if rng.random() < 0.1:
            groups.append([rng.choice(["missing.txt", "folder", "examples", "/dev/null", "deal.txt"])])
            files["folder"] = "<dir>"
    groups.append(_rules_args(rng, files))
    groups.append(stake_options(rng, names))
    groups += _player_options(rng, names, ("--surrender", "--waive", "--fantasyland"))
    if rng.random() < 0.1:
        groups.append(["--banker", rng.choice(names) if names and rng.random() < 0.8 else random_name(rng)])
    if rng.random() < 0.1:
        groups.append(["--buy-in", random_amount(rng)])
    groups += _format_args(rng, "score")
    return Case("score", ["score", *_shuffle_groups(rng, groups)], files, stdin)


def gen_check(rng: random.Random) -> Case:
    files: dict[str, object] = {}
    stdin = None
    hand = random_hand(rng)
    groups: list[list[str]] = []
    how = rng.random()
    if how < 0.6:
        hand_args = [hand]
    elif how < 0.85:
        hand_args = hand.split()
    else:
        hand_args = ["-"]
        stdin = encode(rng, hand + rng.choice(["\n", "", "\r\n", "\n\n", "\nAh Kh\n"]))
    groups.append(hand_args)
    groups.append(_rules_args(rng, files))
    if rng.random() < 0.15:
        groups.append(["--fantasyland"])
    groups += _format_args(rng, "check", explain=False)
    return Case("check", ["check", *_shuffle_groups(rng, groups)], files, stdin)


def random_session_text(rng: random.Random, files: dict) -> tuple[str, list[str]]:
    if rng.random() < 0.25:
        text = SEED_SESSION
        return text, ["Amy", "Bob", "Cy"]
    names = random_names(rng, rng.choice([2, 3, 3, 4]))
    lines = []
    if rng.random() < 0.2:
        lines.append("# a session")
    if rng.random() < 0.6:
        if rng.random() < 0.15:
            lines.append("@rules " + rule_file(rng, files, rng.choice(["house.toml", "rules/house.toml"])))
        else:
            lines.append("@rules " + rules_option(rng))
    if rng.random() < 0.5:
        lines.append("@stake " + random_amount(rng))
    for _ in range(rng.choice([0, 0, 0, 1, 2])):
        a, b = rng.sample(names, 2) if len(names) > 1 else (names[0], random_name(rng))
        lines.append(f"@pair-stake {a}:{b}={random_amount(rng)}")
    if rng.random() < 0.1:
        lines.append("@buy-in " + (random_amount(rng) if rng.random() < 0.5 else rng.choice(["30", "100", "5"])))
    if rng.random() < 0.05:
        lines.append(rng.choice(["@rules ofc", "@stake 2", "@bogus", "@", "@rules", "@buy-in", "@players"]))
    if rng.random() < 0.25:  # seats named once
        seated = list(names) if rng.random() < 0.8 else [*names, random_name(rng)]
        lines.append("@players " + (", " if rng.random() < 0.3 else " ").join(seated))
    if rng.random() < 0.2:
        lines.append("@date " + random_date(rng))
    if rng.random() < 0.1:
        lines.append(random_paid_line(rng, names))
    header = "\n".join(lines)
    deals = []
    for _ in range(rng.choice([1, 1, 2, 2, 3, 3, 4, 6])):
        players = list(names)
        if rng.random() < 0.1:
            players.append(random_name(rng))
        if rng.random() < 0.1 and len(players) > 2:
            players.remove(rng.choice(players))
        if rng.random() < 0.3:
            rng.shuffle(players)
        text = deal_text(rng, random_entries(rng, players, markers=rng.random() < 0.3)).rstrip("\n")
        if rng.random() < 0.08:  # a payment before the deal
            text = random_paid_line(rng, players) + "\n" + text
        if rng.random() < 0.1:  # the seats or the stake change from this deal on
            text = (
                rng.choice(["@players ", "@stake ", "@players "])
                + rng.choice([" ".join(players), ", ".join(players), random_amount(rng), players[0]])
                + "\n"
                + text
            )
        deals.append(text)
    separator = rng.choice(["\n\n"] * 10 + ["\n\n\n", "\n \n", "\n\t\n", "\n# between\n\n"])
    text = (header + "\n\n" if header else "") + separator.join(deals) + "\n"
    if rng.random() < 0.12:  # payments after the last deal
        text += "".join("\n" + random_paid_line(rng, names) + "\n" for _ in range(rng.choice([1, 1, 2])))
    return text, names


def random_date(rng: random.Random) -> str:
    """A night's date: mostly a real day, now and then not one."""
    if rng.random() < 0.85:
        return f"20{rng.randint(20, 30)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
    return rng.choice(["2026-02-30", "2026-13-01", "3 Dec", "2026/12/03", "26-12-03", "", "2026-12-03 20:00"])


def random_paid_line(rng: random.Random, names: list[str]) -> str:
    """A ``@paid`` line between two of the players: mostly well formed."""
    a, b = rng.sample(names, 2) if len(names) > 1 else (names[0], random_name(rng))
    amount = random_amount(rng)
    roll = rng.random()
    if roll < 0.8:
        return f"@paid {a} {b} {amount}"
    if roll < 0.85:
        return f"@paid {a}, {b}, {amount}"
    return rng.choice([f"@paid {a} {a} 5", f"@paid {a} {b}", f"@paid {a} {b} -3", f"@paid {a} {b} 0", "@paid"])


def gen_session(rng: random.Random) -> Case:
    files: dict[str, object] = {}
    text, names = random_session_text(rng, files)
    if rng.random() < 0.35:
        text = mutate_text(rng, text, for_file=True)
    data = encode(rng, text)
    stdin = None
    if rng.random() < 0.2:
        source = "-"
        stdin = data
    else:
        source = rng.choice(["night.txt"] * 10 + ["sub/night.txt", "Nacht ü.txt", "night"])
        files[source] = data
        if rng.random() < 0.03:
            source = rng.choice(["missing.txt", "folder", "/dev/null", ""])
            files["folder"] = "<dir>"
    groups = [[source]]
    # The same file again: refused by what it is (not a directory: no hard link can name one).
    if source != "-" and source in files and files[source] != "<dir>" and rng.random() < 0.08:
        again = rng.choice(["./" + source, "link.txt", "hard.txt", source])
        files["link.txt"], files["hard.txt"] = f"<symlink:{source}>", f"<hardlink:{source}>"
        groups.append([again])
    if rng.random() < 0.3:
        groups.append(_rules_args(rng, files, chance=1.0))
    groups.append(stake_options(rng, names) if rng.random() < 0.5 else [])
    if rng.random() < 0.2:
        groups.append(
            ["--race", rng.choice(["1", "2", "3", "5", "11"]) if rng.random() < 0.8 else random_int_text(rng)]
        )
    for flag, chance in (("--totals", 0.2), ("--skip-invalid", 0.25)):
        if rng.random() < chance:
            groups.append([flag])
    if rng.random() < 0.08:
        groups.append(["--buy-in", random_amount(rng)])
    groups += _settle_args(rng, source)
    groups += _format_args(rng, "session")
    return Case("session", ["session", *_shuffle_groups(rng, groups)], files, stdin)


def _settle_args(rng: random.Random, source: str) -> list[list[str]]:
    """``--round UNIT`` and ``--plot FILE.svg`` now and then (the plot sometimes the file being read)."""
    out = []
    if rng.random() < 0.15:
        out.append(["--round", rng.choice(["0.5", "1", "5", "25", "0.01"]) if rng.random() < 0.8 else random_amount(rng)])
    if rng.random() < 0.1:
        out.append(["--plot", rng.choice(["chart.svg", "sub/chart.svg", "chart.png", "chart.SVG", source, "gone/x.svg"])])
    return out


def gen_standings(rng: random.Random) -> Case:
    files: dict[str, object] = {}
    nights = []
    folder = rng.random() < 0.4
    for index in range(rng.choice([1, 2, 2, 3])):
        text, _ = random_session_text(rng, files)
        if rng.random() < 0.15:
            text = mutate_text(rng, text, for_file=True)
        name = f"club/night-{index}.txt" if folder else f"night-{index}.txt"
        files[name] = encode(rng, text)
        nights.append(name)
    sources = ["club"] if folder else nights
    if rng.random() < 0.08:
        sources = [*sources, rng.choice([*nights, "missing.txt", "-", "empty"])]
        files["empty/readme.md"] = b"no nights\n"
    groups: list[list[str]] = [sources]
    groups += _settle_args(rng, nights[0])
    groups += [group for group in _format_args(rng, "standings", explain=False) if group != ["--spade-bonus"]]
    return Case("standings", ["standings", *_shuffle_groups(rng, groups)], files)


def gen_pay(rng: random.Random) -> Case:
    files: dict[str, object] = {}
    target, names = _session_file(rng, files)
    names = names or random_names(rng, 2)
    payer, payee = (rng.sample(names, 2) if len(names) > 1 else (names[0], names[0]))
    if rng.random() < 0.15:
        payee = rng.choice([payer, random_name(rng), payee.lower(), ""])
    amount = random_amount(rng) if rng.random() < 0.8 else rng.choice(["0", "-5", "1e3", "x", "5.123456789"])
    args = ["pay", target, payer, payee, amount]
    if amount.startswith("-"):
        args = ["pay", "--", target, payer, payee, amount]
    return Case("pay", args, files)


def gen_add(rng: random.Random) -> Case:
    files: dict[str, object] = {}
    target = rng.choice(["night.txt"] * 8 + ["new.txt", "Nacht ü.txt", "-", "sub/night.txt"])
    existing_kind = rng.random()
    names = random_names(rng, 3)
    if existing_kind < 0.55:
        text, names = random_session_text(rng, files)
        if rng.random() < 0.2:
            text = mutate_text(rng, text, for_file=True)
        files[target] = encode(rng, text)
    elif existing_kind < 0.65:
        files[target] = rng.choice([b"", b"\n", b"\xef\xbb\xbf", b"# nothing\n", b"@rules ofc\n", b"\n\n\n"])
    elif existing_kind < 0.72:
        special = rng.random()
        if special < 0.3:
            files[target] = "<dir>"
        elif special < 0.6:
            text, names = random_session_text(rng, files)
            files["real.txt"] = text.encode("utf-8", "surrogateescape")
            files[target] = "<symlink:real.txt>"
        else:
            text, names = random_session_text(rng, files)
            files["real.txt"] = text.encode("utf-8", "surrogateescape")
            files[target] = "<hardlink:real.txt>"
    # else: a new file
    groups: list[list[str]] = []
    players = list(names)
    if rng.random() < 0.15:
        players.append(random_name(rng))
    entries = random_entries(rng, players, markers=rng.random() < 0.2)
    stdin = None
    seated = rng.random() < 0.3  # the hands alone, in seat order ('-': sits out)
    if seated:
        hands = [hand if rng.random() < 0.85 else "-" for _, hand in entries]
        if rng.random() < 0.1:
            hands.append(rng.choice(["-", entries[0][1]]))
        if rng.random() < 0.5:
            groups.append(["--players", (", " if rng.random() < 0.3 else " ").join(name for name, _ in entries)])
        if rng.random() < 0.1:
            stdin, hands = encode(rng, "\n".join(hands) + "\n"), []
    elif rng.random() < 0.75:
        hands = [f"{name}={hand}" for name, hand in entries]
    else:
        hands = []
        stdin = encode(rng, deal_text(rng, entries))
    if rng.random() < 0.25:
        groups.append(_rules_args(rng, files, chance=1.0))
    if rng.random() < 0.2:
        groups.append(["--stake", random_amount(rng)])
    if rng.random() < 0.1 and len(players) > 1:
        groups.append(["--pair-stake", f"{players[0]}:{players[1]}={random_amount(rng)}"])
    groups += _player_options(rng, players, ("--surrender", "--waive", "--new-player"))
    if rng.random() < 0.15:
        groups.append(["--again"])
    if rng.random() < 0.1 and players:
        groups.append(["--dealer", rng.choice([*players, random_name(rng)])])
    if rng.random() < 0.08:
        groups.append(["--date", random_date(rng)])
    args = ["add", *_shuffle_groups(rng, groups), target, *hands]
    return Case("add", args, files, stdin)


def _session_file(rng: random.Random, files: dict) -> tuple[str, list[str]]:
    """A session file (sometimes mutated) in the case's folder, and its players."""
    target = rng.choice(["night.txt"] * 8 + ["missing.txt", "-", "sub/night.txt"])
    text, names = random_session_text(rng, files)
    if rng.random() < 0.2:
        text = mutate_text(rng, text, for_file=True)
    if target != "missing.txt":
        files[target] = encode(rng, text)
    return target, names


def gen_stats(rng: random.Random) -> Case:
    files: dict[str, object] = {}
    target, names = _session_file(rng, files)
    stdin = files.pop("-", None)
    groups: list[list[str]] = [[target]]
    if rng.random() < 0.3:
        groups.append(_rules_args(rng, files, chance=1.0))
    groups.append(stake_options(rng, names) if rng.random() < 0.3 else [])
    groups += _format_args(rng, "stats", explain=False)
    return Case("stats", ["stats", *_shuffle_groups(rng, groups)], files, stdin)


def _expect_args(rng: random.Random, files: dict, target: str) -> list[str]:
    """Sometimes ``--expect DIGEST``: a digest of one of the file's deals, any 8 hex digits, or junk."""
    if rng.random() < 0.6:
        return []
    digests = []
    data = files.get(target)
    if isinstance(data, bytes):
        from cpscore.session import deal_digest, read_session
        from cpscore.textio import decode, split_lines

        try:
            digests = [deal_digest(deal) for deal in read_session(split_lines(decode(data, target), target), target)[1]]
        except Exception:  # a mutated file that does not read: no digest of it
            digests = []
    choice = rng.random()
    if digests and choice < 0.6:
        value = rng.choice(digests)
        value = value.upper() if rng.random() < 0.1 else value
    elif choice < 0.85:
        value = f"{rng.getrandbits(32):08x}"
    else:
        value = rng.choice(["", "xyz", "1234567", "123456789", "zzzzzzzz", " 0badf00d", random_junk_string(rng)])
    return ["--expect", value]


def gen_undo(rng: random.Random) -> Case:
    files: dict[str, object] = {}
    target, _ = _session_file(rng, files)
    return Case("undo", ["undo", target, *_expect_args(rng, files, target)], files)


def gen_remove(rng: random.Random) -> Case:
    files: dict[str, object] = {}
    target, _ = _session_file(rng, files)
    number = rng.choice(["1", "2", "3", "0", "-1", "9", "x", "1.5", "٣", ""])
    return Case("remove", ["remove", target, number, *_expect_args(rng, files, target)], files)


def gen_replace(rng: random.Random) -> Case:
    files: dict[str, object] = {}
    target, names = _session_file(rng, files)
    number = rng.choice(["1", "2", "3", "0", "9", "x"])
    entries = random_entries(rng, names or random_names(rng, 2), markers=rng.random() < 0.2)
    hands = [f"{name}={hand}" for name, hand in entries]
    groups = _player_options(rng, names, ("--surrender", "--waive", "--new-player"))
    groups.append(_expect_args(rng, files, target))
    return Case("replace", ["replace", *_shuffle_groups(rng, groups), target, number, *hands], files)


def gen_arrange(rng: random.Random) -> Case:
    files: dict[str, object] = {}
    stdin = None
    style = _style(rng)
    if rng.random() < 0.15:
        cards_text = rng.choice(NATURAL_HANDS)
    else:
        cards_text = unset_hand_text(rng, random_cards(rng), style)
    how = rng.random()
    groups: list[list[str]] = []
    if how < 0.6:
        positional = [cards_text]
    elif how < 0.8:
        positional = cards_text.split() if style["gap"].strip() == "" and style["gap"] else [cards_text]
    elif how < 0.92:
        lines = [cards_text] + [unset_hand_text(rng, random_cards(rng)) for _ in range(rng.choice([0, 1, 2]))]
        text = "\n".join(lines) + "\n"
        if rng.random() < 0.2:
            text = "# hands\n" + text.replace("\n", "  # one\n", 1)
        files["hands.txt"] = encode(rng, text)
        positional = ["hands.txt"]
    else:
        stdin = encode(rng, cards_text + "\n")
        positional = ["-"]
    groups.append(positional)
    groups.append(_rules_args(rng, files, chance=0.5))
    if rng.random() < 0.3:
        top = rng.choice(["1", "2", "3", "5"]) if rng.random() < 0.7 else random_int_text(rng)
        # over 20 (arrange's bound) it is refused at once: no clamp is needed to keep a case short
        groups.append(["--top", top])
    if rng.random() < 0.3:
        value = rng.choice(["1", "2", "3", "5"]) if rng.random() < 0.8 else rng.choice(["0", "-1", "x", "", "٣", "1.5", "501", "100000"])
        groups.append(["--simulate", value])
    groups += _format_args(rng, "arrange", explain=False)
    return Case("arrange", ["arrange", *_shuffle_groups(rng, groups)], files, stdin)


def gen_rules_show(rng: random.Random) -> Case:
    files: dict[str, object] = {}
    roll = rng.random()
    if roll < 0.3:
        name = rules_option(rng) if rng.random() < 0.5 else rng.choice(PRESETS)
    elif roll < 0.95:
        name = rule_file(rng, files)
    else:
        name = rng.choice(
            ["missing.toml", "folder.toml", "rules/", "a/b.toml", "/dev/null", "examples/house-rules.toml"]
        )
        files["folder.toml"] = "<dir>"
    return Case("rules show", ["rules", "show", name], files, None)


def gen_rules(rng: random.Random) -> Case:
    extra = [] if rng.random() < 0.5 else [rng.choice(["-h", "--help", "show", "list", "ofc", "--bogus", ""])]
    return Case("rules", ["rules", *extra], {}, None)


def gen_junk(rng: random.Random) -> Case:
    files: dict[str, object] = {}
    command = rng.choice(["score", "check", "session", "add", "arrange", "rules", "rules show", "", "Score", "-h",
                          "--version", "help", random_junk_string(rng)])  # fmt: skip
    head = command.split(" ") if command else []
    known = OPTIONS.get(command, [])
    args = list(head)
    for _ in range(rng.choice([0, 1, 2, 3, 5, 8])):
        roll = rng.random()
        if roll < 0.3 and known:
            args.append(rng.choice(known))
        elif roll < 0.45:
            args.append(random_amount(rng))
        elif roll < 0.6:
            name = rng.choice(["junk.txt", "junk.toml", "j"])
            files[name] = bytes(rng.randrange(256) for _ in range(rng.choice([0, 1, 10, 100, 1000])))
            args.append(name)
        elif roll < 0.7:
            args.append(rng.choice(PRESETS))
        else:
            args.append(random_junk_string(rng))
    stdin = bytes(rng.randrange(256) for _ in range(rng.choice([0, 0, 5, 50, 500]))) if rng.random() < 0.5 else None
    return Case("junk", args, files, stdin)


# Clean inputs: valid and consistent, to reach scoring, explaining and output -------------------

ROYALTY_PRESETS = ("ofc", "ofc-western", "pineapple", "taiwanese")
FANTASY_PRESETS = ("ofc", "ofc-western", "pineapple")


def _clean_entries(rng: random.Random, preset: str, names: list[str] | None = None) -> list[tuple[str, str]]:
    if names is None:
        most = 3 if preset == "pineapple" else 4
        names = rng.sample(NAMES, rng.randint(2, most))
        if rng.random() < 0.1 and len(names) >= 3:
            names[:2] = [f"{names[0]}[1]", f"{names[0]}[2]"]
    if rng.random() < 0.06:
        return result_entries(rng, names)
    deck = DECK[:]
    rng.shuffle(deck)
    entries = []
    for name in names:
        cards = [deck.pop() for _ in range(13)]
        if rng.random() < 0.05 and preset not in (*FANTASY_PRESETS, "taiwanese"):
            entries.append((name, "surrender"))
        else:
            entries.append((name, set_hand_text(rng, cards)))
    return entries


def _clean_options(rng: random.Random, command: str, preset: str, names: list[str]) -> list[list[str]]:
    groups = [["--rules", preset]] if preset != "2-4" or rng.random() < 0.5 else []
    owners = sorted({name.split("[")[0] for name in names})
    if command in ("score", "session"):
        if rng.random() < 0.4:
            groups.append(["--stake", rng.choice(AMOUNTS[:8])])
        if rng.random() < 0.2 and len(owners) > 1:
            a, b = rng.sample(owners, 2)
            groups.append(["--pair-stake", f"{a}:{b}={rng.choice(AMOUNTS[:8])}"])
    if command == "score":
        if rng.random() < 0.1:
            groups.append(["--surrender", rng.choice(names)])
        if rng.random() < 0.15 and preset in FANTASY_PRESETS:
            groups.append(["--fantasyland", rng.choice(names)])
    if preset in ROYALTY_PRESETS and rng.random() < 0.1:
        groups.append(["--spade-bonus"])
    fmt = rng.choice(FORMATS.get(command, ("table",)))
    if rng.random() < 0.5:
        groups.append(["--format", fmt])
    else:
        fmt = "table"
    if fmt == "table" and command in ("score", "session", "check") and rng.random() < 0.3:
        groups.append(["--style", rng.choice(STYLES)])
    if fmt == "table" and command in ("score", "session") and rng.random() < 0.35:
        groups.append(["--explain"])
    return groups


def gen_clean_score(rng: random.Random) -> Case:
    preset = rng.choice(PRESETS)
    entries = _clean_entries(rng, preset)
    names = _names_of(entries)
    groups = _clean_options(rng, "score", preset, names)
    files: dict[str, object] = {}
    if rng.random() < 0.5:
        files["deal.txt"] = deal_text(rng, entries).encode()
        groups.append(["deal.txt"])
    else:
        groups += [[f"{name}={hand}"] for name, hand in entries]
    return Case("score", ["score", *_shuffle_groups(rng, groups)], files)


def gen_clean_session(rng: random.Random) -> Case:
    preset = rng.choice(PRESETS)
    most = 3 if preset == "pineapple" else 4
    names = rng.sample(NAMES, rng.randint(2, most))
    deals = [
        deal_text(rng, _clean_entries(rng, preset, names), extras=False).rstrip("\n") for _ in range(rng.randint(1, 5))
    ]
    header = [f"@rules {preset}"] if rng.random() < 0.6 else []
    if rng.random() < 0.4:
        header.append(f"@stake {rng.choice(AMOUNTS[:8])}")
    text = ("\n".join(header) + "\n\n" if header else "") + "\n\n".join(deals) + "\n"
    groups = _clean_options(rng, "session", preset if not header else rng.choice([preset, "2-4"]), names)
    if header:
        groups = [g for g in groups if g[0] != "--rules"]
    if rng.random() < 0.2:
        groups.append(["--race", rng.choice(["1", "2", "3", "5", "11"])])
    if rng.random() < 0.2:
        groups.append(["--totals"])
    if rng.random() < 0.8:
        return Case("session", ["session", *_shuffle_groups(rng, groups), "night.txt"], {"night.txt": text.encode()})
    return Case("session", ["session", *_shuffle_groups(rng, groups), "-"], {}, text.encode())


def gen_clean_check(rng: random.Random) -> Case:
    preset = rng.choice(PRESETS)
    hand = set_hand_text(rng, random_cards(rng)) if rng.random() < 0.9 else rng.choice(NATURAL_HANDS[:-1])
    groups = _clean_options(rng, "check", preset, [])
    if preset in FANTASY_PRESETS and rng.random() < 0.2:
        groups.append(["--fantasyland"])
    return Case("check", ["check", *_shuffle_groups(rng, groups), hand])


def gen_clean_add(rng: random.Random) -> Case:
    preset = rng.choice(PRESETS)
    most = 3 if preset == "pineapple" else 4
    names = rng.sample(NAMES, rng.randint(2, most))
    files: dict[str, object] = {}
    args = ["add"]
    if rng.random() < 0.7:
        deals = [
            deal_text(rng, _clean_entries(rng, preset, names), extras=False).rstrip("\n")
            for _ in range(rng.randint(1, 3))
        ]
        files["night.txt"] = (f"@rules {preset}\n\n" + "\n\n".join(deals) + "\n").encode()
    else:
        args += ["--rules", preset]
    entries = _clean_entries(rng, preset, names)
    if rng.random() < 0.7:
        return Case("add", [*args, "night.txt", *[f"{n}={h}" for n, h in entries]], files)
    return Case("add", [*args, "night.txt"], files, deal_text(rng, entries).encode())


def gen_clean_arrange(rng: random.Random) -> Case:
    preset = rng.choice(PRESETS)
    groups = [["--rules", preset]] if rng.random() < 0.7 else []
    if rng.random() < 0.3:
        groups.append(["--top", rng.choice(["1", "2", "3"])])
    if rng.random() < 0.2:
        groups.append(["--simulate", rng.choice(["1", "2", "3"])])
    if rng.random() < 0.4:
        groups.append(["--format", "json"])
    cards = unset_hand_text(rng, random_cards(rng)) if rng.random() < 0.9 else rng.choice(NATURAL_HANDS)
    return Case("arrange", ["arrange", *_shuffle_groups(rng, groups), cards])


CLEAN = {
    "score": gen_clean_score,
    "session": gen_clean_session,
    "check": gen_clean_check,
    "add": gen_clean_add,
    "arrange": gen_clean_arrange,
}


GENERATORS = {
    "score": gen_score,
    "check": gen_check,
    "session": gen_session,
    "add": gen_add,
    "stats": gen_stats,
    "standings": gen_standings,
    "pay": gen_pay,
    "undo": gen_undo,
    "remove": gen_remove,
    "replace": gen_replace,
    "arrange": gen_arrange,
    "rules show": gen_rules_show,
    "rules": gen_rules,
    "junk": gen_junk,
}
WEIGHTS = {
    "score": 30, "check": 14, "session": 20, "stats": 5, "standings": 4, "add": 12, "pay": 3, "undo": 4,
    "remove": 4, "replace": 4,
    "arrange": 7, "rules show": 10, "rules": 1, "junk": 6,
}  # fmt: skip


def generate_for(command: str, rng: random.Random, mutate: float = 0.55) -> Case:
    """One input for ``command``; with probability ``mutate``, mutated after it is built."""
    if command in CLEAN and rng.random() < 0.3:
        case = CLEAN[command](rng)
    else:
        case = GENERATORS[command](rng)
    if command not in ("junk", "rules") and rng.random() < mutate:
        target = rng.random()
        command_len = 2 if command == "rules show" else 1
        if target < 0.5 or (not case.files and case.stdin is None):
            case.args = mutate_args(rng, case.args, command_len, OPTIONS.get(command, []))
        elif target < 0.8 and case.files:
            name = rng.choice([k for k in case.files if isinstance(case.files[k], bytes)] or [None])
            if name is not None:
                data = case.files[name]
                if rng.random() < 0.7:
                    text = data.decode("utf-8", "replace")
                    case.files[name] = encode(rng, mutate_text(rng, text, for_file=True))
                else:
                    case.files[name] = mutate_bytes(rng, data)
        elif case.stdin is not None:
            if rng.random() < 0.7:
                case.stdin = encode(rng, mutate_text(rng, case.stdin.decode("utf-8", "replace"), for_file=True))
            else:
                case.stdin = mutate_bytes(rng, case.stdin)
        else:
            case.args = mutate_args(rng, case.args, command_len, OPTIONS.get(command, []))
    return make_safe(case)


def generate(rng: random.Random) -> Case:
    command = rng.choices(list(WEIGHTS), weights=list(WEIGHTS.values()))[0]
    return generate_for(command, rng)


def case_rng(seed: int, index: int) -> random.Random:
    return random.Random(f"cpscore-fuzz:{seed}:{index}")


def make_safe(case: Case) -> Case:
    """``add``, ``undo``, ``remove`` and ``replace`` write their target: keep every argument inside the
    case's folder (no absolute paths, no ``..``, no ``~``)."""
    if {"add", "pay", "undo", "remove", "replace"} & set(case.args[:1]) or "--plot" in case.args:
        safe = []
        for arg in case.args:
            arg = arg.replace("..", "._")
            if arg.startswith(("/", "~", "\\")):
                arg = "_" + arg
            safe.append(arg)
        case.args = safe
    return case


# Running one input ---------------------------------------------------------------------------


class Timeout(BaseException):
    """An input ran longer than the runner's limit (a BaseException: CliRunner lets it through)."""


@contextlib.contextmanager
def time_limit(seconds: float | None):
    import threading

    if not seconds or not hasattr(signal, "SIGALRM") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum, frame):
        raise Timeout(f"over {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def materialize(files: dict[str, object], folder: str) -> None:
    for name, value in files.items():
        path = os.path.join(folder, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if value == "<dir>":
            os.makedirs(path, exist_ok=True)
        elif isinstance(value, str) and value.startswith("<symlink:"):
            os.symlink(value[len("<symlink:") : -1], path)
        elif isinstance(value, str) and value.startswith("<hardlink:"):
            os.link(os.path.join(folder, value[len("<hardlink:") : -1]), path)
        else:
            with open(path, "wb") as file:
                file.write(value)  # type: ignore[arg-type]


def _ordered(files: dict[str, object]) -> dict[str, object]:
    """Plain files first, so that links find their targets."""
    return dict(sorted(files.items(), key=lambda item: isinstance(item[1], str) and item[1] != "<dir>"))


@dataclasses.dataclass
class Failure:
    key: str  # the class
    detail: str  # what was seen (message, traceback tail)


@dataclasses.dataclass
class Outcome:
    exit_code: int
    stdout: bytes
    stderr: bytes
    seconds: float
    failure: Failure | None


def _package_dir() -> str:
    import cpscore

    return os.path.dirname(os.path.abspath(cpscore.__file__))


def _frames(tb) -> list[tuple[str, str]]:
    """(file, function) of each traceback frame, outermost first (cheaper than
    ``traceback.extract_tb``, which computes positions: deep recursions are slow)."""
    frames = []
    while tb is not None:
        code = tb.tb_frame.f_code
        frames.append((code.co_filename, code.co_name))
        tb = tb.tb_next
    return frames


def innermost_frame(tb) -> str | None:
    """``cpscore/FILE.py:FUNCTION`` of the innermost traceback frame in the package."""
    package = _package_dir() + os.sep
    found = None
    for filename, function in _frames(tb):
        if os.path.abspath(filename).startswith(package):
            found = f"cpscore/{os.path.relpath(filename, package)}:{function}"
    return found


def _chain(exception: BaseException | None) -> list[BaseException]:
    """The exception and those it was raised from or while handling, outermost first
    (``raise ... from None`` keeps the ``__context__``)."""
    chain: list[BaseException] = []
    while exception is not None and all(exception is not seen for seen in chain):
        chain.append(exception)
        exception = exception.__cause__ or exception.__context__
    return chain


def error_origin(exception: BaseException | None) -> str:
    """Where the error behind an exit was raised: the innermost cpscore frame of
    the deepest exception in the chain (click error <- library error), with the
    innermost frame outside cpscore when that is where it was raised (click)."""
    for item in reversed(_chain(exception)):
        where = innermost_frame(item.__traceback__)
        if where:
            frames = _frames(item.__traceback__)
            filename, function = frames[-1]
            if not os.path.abspath(filename).startswith(_package_dir() + os.sep):
                where += f" > {Path(filename).parent.name}/{Path(filename).name}:{function}"
            return f"{type(item).__name__} at {where}"
    return "?"


def caught_internal_error(exception: BaseException | None) -> BaseException | None:
    """The bug behind an 'Error: internal error ...' exit: cpscore's top level turns
    an unexpected exception into that one line (``raise ... from None`` keeps it
    as the ``__context__``).  Such an exception counts as if it were uncaught."""
    for item in _chain(exception):
        message = getattr(item, "message", None)
        if isinstance(message, str) and message.startswith("internal error") and item.__context__ is not None:
            return item.__context__
    return None


def _bad_lines(stderr: str) -> list[str]:
    lines = stderr.splitlines()
    bad = [line for line in lines if not line.startswith("Error: ")]
    if not bad and len(lines) > 1 and not all(" deal " in line or ", line " in line for line in lines):
        bad = lines[1:]  # one error line; only a session lists several invalid deals, each with its place
    return bad


def check_outcome(
    command: str,
    exit_code: int,
    stdout: bytes,
    stderr_bytes: bytes,
    exception: BaseException | None,
    exc_info=None,
    escaped: BaseException | None = None,
) -> Failure | None:
    """The first promise the result breaks, as a :class:`Failure`, or None.
    ``escaped`` is the exception that left the command's ``invoke`` (click
    prints it and exits outside its handler, so ``SystemExit`` has no chain)."""
    stderr = stderr_bytes.decode("utf-8", "replace")
    if isinstance(exception, Timeout):
        where = innermost_frame(exception.__traceback__) or "?"
        return Failure(f"Timeout (>{exception.args[0]}) at {where}", _tail(exception))
    if exception is not None and not isinstance(exception, SystemExit):
        tb = exc_info[2] if exc_info else exception.__traceback__
        where = innermost_frame(tb) or "outside cpscore"
        return Failure(f"{type(exception).__name__} at {where}", _tail(exception, tb))
    caught = caught_internal_error(escaped or exception)
    if caught is not None:
        where = innermost_frame(caught.__traceback__) or "outside cpscore"
        detail = "caught by cpscore's catch-all and printed as 'Error: internal error ...' (exit 1):\n"
        return Failure(f"{type(caught).__name__} at {where}", detail + _tail(caught))
    origin = error_origin(escaped or exception)
    if exit_code not in (0, 1, 2):
        return Failure(f"exit code {exit_code} from {origin}", stderr[-300:])
    long_lines = [line for line in stderr.splitlines() if len(line) > MAX_LINE]
    if long_lines:
        return Failure(
            f"stderr line over {MAX_LINE} chars from {origin}",
            f"{len(long_lines[0])} chars: {abbreviate(long_lines[0], 240)}",
        )
    if exit_code != 0:
        if stdout:
            return Failure(
                f"stdout not empty on exit {exit_code} from {origin}",
                f"stdout: {abbreviate(stdout.decode('utf-8', 'replace'), 200)}; stderr: {abbreviate(stderr, 200)}",
            )
        if not any(line.startswith("Error: ") for line in stderr.splitlines()):
            return Failure(f"no 'Error: ' line on exit {exit_code} from {origin}", repr(stderr[:300]))
        bad = _bad_lines(stderr)
        if bad:
            prefixed = [line for line in bad if re.match(r"[A-Za-z][\w-]*: ", line)]
            if len(prefixed) < len(bad):  # a message's own text on a line of its own
                return Failure(
                    f"stderr has a message broken over lines (a raw LF, CR, U+2028, VT, FF... from the input) from {origin}",
                    repr(stderr[:300]),
                )
            return Failure(f"stderr has {line_shape(prefixed[0])!r} lines on exit {exit_code}", repr(stderr[:300]))
    return None


def line_shape(line: str) -> str:
    """The kind of a line that is not an error: its first word ('Warning:',
    'skipped:'), and for a warning the words of its last clause, numbers and
    quoted parts blanked."""
    line = re.sub(r"'[^']*'|\"[^\"]*\"", "'…'", line)
    line = re.sub(r"\d+", "N", line)
    first, _, rest = line.partition(" ")
    if first.lower().startswith("warning"):
        clause = rest.rsplit(": ", 1)[-1]
        return f"{first} … " + " ".join(clause.split()[:5])
    return f"{first} …"


def _tail(exception: BaseException, tb=None) -> str:
    lines = traceback.format_exception(type(exception), exception, tb or exception.__traceback__, limit=-12)
    text = "".join(lines)
    text = text.replace(str(ROOT) + os.sep, "")
    return abbreviate(text[-1500:], 1500)


_ESCAPED: list[BaseException | None] = [None]


def _record_escapes(group) -> None:
    """Keep the exception that leaves ``group.invoke`` in ``_ESCAPED`` (and raise it
    on, unchanged): an instance attribute over the method, for this process only."""
    if getattr(group.invoke, "_fuzz_recording", False):
        return
    invoke = group.invoke

    def recording(ctx):
        try:
            return invoke(ctx)
        except BaseException as error:
            _ESCAPED[0] = error
            raise

    recording._fuzz_recording = True  # type: ignore[attr-defined]
    group.invoke = recording


class Runner:
    """Runs inputs in-process with ``CliRunner``, each in a fresh working folder."""

    def __init__(self, timeout: float | None = 3.0) -> None:
        from click.testing import CliRunner

        import cpscore.cli

        self.main = cpscore.cli.main
        _record_escapes(self.main)
        self.cli = CliRunner()
        self.timeout = timeout
        self.root = tempfile.mkdtemp(prefix="cpscore-fuzz-")
        self.count = 0

    def close(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> Runner:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def run(self, case: Case) -> Outcome:
        self.count += 1
        folder = os.path.join(self.root, f"c{self.count}")
        os.mkdir(folder)
        previous = os.getcwd()
        try:
            materialize(_ordered(case.files), folder)
            os.chdir(folder)
            start = time.perf_counter()
            _ESCAPED[:] = [None]
            try:
                with time_limit(self.timeout):
                    result = self.cli.invoke(
                        self.main, case.args, input=case.stdin, catch_exceptions=True, prog_name="cpscore"
                    )
            except Timeout as timeout:
                seconds = time.perf_counter() - start
                return Outcome(1, b"", b"", seconds, check_outcome(case.command, 1, b"", b"", timeout))
            seconds = time.perf_counter() - start
        finally:
            os.chdir(previous)
            shutil.rmtree(folder, ignore_errors=True)
        failure = check_outcome(
            case.command,
            result.exit_code,
            result.stdout_bytes,
            result.stderr_bytes,
            result.exception,
            result.exc_info,
            _ESCAPED[0],
        )
        return Outcome(result.exit_code, result.stdout_bytes, result.stderr_bytes, seconds, failure)


def run_fresh_process(case: Case, timeout: float = 60.0) -> tuple[int, bytes, bytes]:
    """The input through ``python -m cpscore`` in a new process (stdout strict
    UTF-8, as under an ``en_US.UTF-8`` locale): the exit code, stdout, stderr."""
    folder = tempfile.mkdtemp(prefix="cpscore-fuzz-confirm-")
    try:
        materialize(_ordered(case.files), folder)
        env = dict(os.environ, PYTHONIOENCODING="utf-8:strict", NO_COLOR="1", PYTHONPATH=str(ROOT))
        try:
            done = subprocess.run(
                [sys.executable, "-m", "cpscore", *case.args],
                input=case.stdin or b"",
                capture_output=True,
                cwd=folder,
                env=env,
                timeout=timeout,
            )
        except subprocess.TimeoutExpired:
            return -9, b"", b"(timed out)"
        return done.returncode, done.stdout, done.stderr
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def fresh_process_fails(case: Case) -> tuple[bool, str]:
    """Whether the real command breaks a promise on this input too, and what it printed."""
    code, stdout, stderr = run_fresh_process(case)
    text = stderr.decode("utf-8", "replace")
    if "Traceback (most recent call last)" in text or "Error: internal error" in text:
        last = text.strip().splitlines()[-1] if text.strip() else ""
        return True, f"exit {code}, traceback: {abbreviate(last, 200)}"
    failure = check_outcome("fresh", code, stdout, stderr, None)
    if failure:
        return True, f"exit {code}: {failure.key.split(' [')[0]}: {abbreviate(failure.detail, 200)}"
    return False, f"exit {code}, stderr {abbreviate(text, 200)!r}"


# Reducing a reproducer -------------------------------------------------------------------------


class _Budget(Exception):
    pass


def reduce_case(runner: Runner, case: Case, key: str, max_runs: int = 300, max_seconds: float = 8.0) -> Case:
    """A smaller input with the same failure class (greedy delta debugging)."""
    deadline = time.perf_counter() + max_seconds
    runs = [0]

    def same(candidate: Case) -> bool:
        if runs[0] >= max_runs or time.perf_counter() > deadline:
            raise _Budget
        runs[0] += 1
        outcome = runner.run(make_safe(candidate))
        return outcome.failure is not None and outcome.failure.key == key

    def shrink(items: list, rebuild) -> list:
        n = 2
        while items:
            chunk = max(1, len(items) // n)
            for start in range(0, len(items), chunk):
                candidate = items[:start] + items[start + chunk :]
                if same(rebuild(candidate)):
                    items = candidate
                    n = max(n - 1, 2)
                    break
            else:
                if chunk == 1:
                    break
                n = min(len(items), n * 2)
        return items

    best = case.copy()
    try:
        command_len = 2 if case.command == "rules show" else (1 if case.command != "junk" else 0)
        head = best.args[:command_len]

        def with_args(tail):
            c = best.copy()
            c.args = head + tail
            return c

        best.args = head + shrink(best.args[command_len:], with_args)
        for name in list(best.files):
            c = best.copy()
            del c.files[name]
            if same(c):
                best = c
        if best.stdin:
            c = best.copy()
            c.stdin = None
            if same(c):
                best = c
        for name in list(best.files):
            if not isinstance(best.files[name], bytes):
                continue

            def with_file(lines, name=name):
                c = best.copy()
                c.files[name] = b"".join(lines)
                return c

            lines = best.files[name].splitlines(keepends=True)
            best.files[name] = b"".join(shrink(lines, with_file))

            def with_bytes(chars, name=name):
                c = best.copy()
                c.files[name] = bytes(chars)
                return c

            if len(best.files[name]) <= 1500:
                best.files[name] = bytes(shrink(list(best.files[name]), with_bytes))
            else:
                best.files[name] = _halve(best.files[name], with_bytes, same)
        if best.stdin:

            def with_stdin(lines):
                c = best.copy()
                c.stdin = b"".join(lines)
                return c

            best.stdin = b"".join(shrink(best.stdin.splitlines(keepends=True), with_stdin))

            def with_stdin_bytes(chars):
                c = best.copy()
                c.stdin = bytes(chars)
                return c

            if len(best.stdin) <= 1500:
                best.stdin = bytes(shrink(list(best.stdin), with_stdin_bytes))
        for i in range(command_len, len(best.args)):

            def with_arg(chars, i=i):
                c = best.copy()
                c.args[i] = "".join(chars)
                return c

            if len(best.args[i]) > 4000:
                best.args[i] = _halve_text(best.args[i], with_arg, same)
            if len(best.args[i]) <= 1500:
                best.args[i] = "".join(shrink(list(best.args[i]), with_arg))
    except _Budget:
        pass
    return best


def _halve(data: bytes, rebuild, same) -> bytes:
    """Cut a long run in the middle while the failure stays."""
    while len(data) > 4000:
        middle = len(data) // 2
        quarter = len(data) // 4
        candidate = data[:quarter] + data[middle + quarter :]
        if not same(rebuild(list(candidate))):
            break
        data = candidate
    return data


def _halve_text(text: str, rebuild, same) -> str:
    while len(text) > 4000:
        quarter = len(text) // 4
        candidate = text[:quarter] + text[3 * quarter :]
        if not same(rebuild(list(candidate))):
            break
        text = candidate
    return text
