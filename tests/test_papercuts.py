"""Issue 22, part 5: a newcomer's papercuts.  A folder or an empty input is a
clear error for every command that reads cards; two deals with no blank line
between them get a hint naming both lines; ``add FILE -`` explains itself.
(The emoji selector after a suit, ``Q♠️``, is read wherever a card is:
tests/test_cards.py.)

Each case gives the command's arguments (``{dir}`` is a folder, ``{empty}`` an
empty file, ``{two}`` two deals with no blank line between them, ``{night}``
a session file with seats) and its exact error line; every case also checks
exit code 2, nothing on stdout, one line."""

import pytest
from test_cli import run

TWO = (
    "A: Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d\n"
    "B: Qs Jd 3c / Th Tc 8d 8s 3d / Kh Qh Jh 8h 2h\n"
    "A: As 6d 2s / 6c 6h 4d 4s 3s / Js Ts 9s 8c 7c\n"
    "B: Qd Qc 3h / Jc 9d 6s 5c 2d / Kc 7h 5h 4h 3c\n"
)

CASES = {
    "arrange-a-folder": (
        ["arrange", "{dir}"],
        "",
        "Error: 'd' is a folder: give 13 cards, a file with one hand a line, or - for stdin",
    ),
    "arrange-an-empty-file": (
        ["arrange", "{empty}"],
        "",
        "Error: empty.txt has no hand: write one hand of 13 cards a line",
    ),
    "arrange-empty-stdin": (["arrange", "-"], "", "Error: stdin has no hand: write one hand of 13 cards a line"),
    "check-a-folder": (
        ["check", "{dir}"],
        "",
        "Error: 'd' is a folder: check takes the hand itself, or - to read it from stdin",
    ),
    "check-a-file": (
        ["check", "{empty}"],
        "",
        "Error: 'empty.txt' is a file: check takes the hand itself, or - to read it from stdin "
        "(cpscore check - < 'empty.txt')",
    ),
    "check-empty-stdin": (["check", "-"], "\n", "Error: stdin has no hand: give front / middle / back, or 13 cards"),
    "score-a-folder": (["score", "{dir}"], "", "Error: cannot read deal file 'd': Is a directory"),
    "score-an-empty-file": (
        ["score", "{empty}"],
        "",
        "Error: empty.txt has no hand: it is empty, or holds only comments",
    ),
    "score-empty-stdin": (
        ["score", "-"],
        "# a comment\n",
        "Error: stdin has no hand: it is empty, or holds only comments",
    ),
    "session-a-folder": (["session", "{dir}"], "", "Error: cannot read session file 'd': Is a directory"),
    "session-an-empty-file": (
        ["session", "{empty}"],
        "",
        "Error: empty.txt has no deal and no header line: it is empty, or holds only comments",
    ),
    "stats-empty-stdin": (
        ["stats", "-"],
        "\n# nothing\n",
        "Error: stdin has no deal and no header line: it is empty, or holds only comments",
    ),
    "stats-a-folder": (["stats", "{dir}"], "", "Error: 'd' is a folder with no .txt file: give session files, or a folder of them"),
    "score-two-deals-without-a-blank-line": (
        ["score", "{two}"],
        "",
        "Error: two.txt, line 3: player 'A' is named twice (first at two.txt, line 1); "
        "a blank line ends a deal: is one missing before line 3?",
    ),
    "session-two-deals-without-a-blank-line": (
        ["session", "{two}"],
        "",
        "Error: two.txt, line 3: player 'A' is named twice (first at two.txt, line 1); "
        "a blank line ends a deal: is one missing before line 3?",
    ),
    "add-dash-alone": (
        ["add", "{night}", "-"],
        "",
        "Error: '-' alone is one seat that sits out, not stdin: to read the deal from stdin give no hand "
        "(cpscore add FILE < deal.txt); under seats, give every seat's hand, '-' for one that sits out",
    ),
}


@pytest.mark.parametrize(("arguments", "stdin", "expected"), CASES.values(), ids=CASES.keys())
def test_a_papercut_is_a_clear_error(tmp_path, monkeypatch, arguments, stdin, expected):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "d").mkdir()
    (tmp_path / "empty.txt").write_text("")
    (tmp_path / "two.txt").write_text(TWO)
    (tmp_path / "night.txt").write_text("@players Amy Bob\n")
    names = {"dir": "d", "empty": "empty.txt", "two": "two.txt", "night": "night.txt"}
    before = (tmp_path / "night.txt").read_bytes()
    result = run(*(argument.format(**names) for argument in arguments), input=stdin)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == expected + "\n"
    assert (tmp_path / "night.txt").read_bytes() == before


def _width(line: str) -> int:
    import wcwidth

    return wcwidth.wcswidth(line)


@pytest.mark.parametrize(
    "name", ["张伟", "Zoë", "Nguyễn", "김민수"], ids=["chinese", "combining-free", "vietnamese", "korean"]
)
def test_wide_and_combining_names_keep_every_table_aligned(tmp_path, name):
    night = tmp_path / "night.txt"
    night.write_text(
        f"@players {name} Bob Cy\n\n{name}: Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d\n"
        "Bob: Qd Qc 3h / Jc Td 9d 6s 5c / Kc 7h 5h 4h 2d\nCy: As 6d 2s / 6c 6h 4d 4s 3s / Js Ts 9s 8c 7c\n",
        encoding="utf-8",
    )
    for arguments in (["session", str(night)], ["session", str(night), "--totals"], ["stats", str(night)]):
        result = run(*arguments)
        assert result.exit_code == 0, result.stderr
        blocks = [block.splitlines() for block in result.stdout.split("\n\n")]
        for lines in blocks:
            rules = [line for line in lines if set(line) <= {"-", " "} and "-" in line]
            if not rules:
                continue  # not a table
            table = [line for line in lines if line.strip()]
            widths = {_width(line.rstrip()) for line in table if name in line or line in rules}
            assert len(widths) == 1, (arguments, lines)
