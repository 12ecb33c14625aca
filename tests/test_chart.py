"""The running-totals chart (cpscore.chart): one SVG drawing, checked on its
structure and numbers, and the same drawing whether the page's server or the
CLI makes it."""

from __future__ import annotations

import io
import json
import pathlib
import re
import shutil
import wsgiref.util
import xml.etree.ElementTree as ET
from decimal import Decimal

import pytest
from serving import AMY, BOB, CY, cpscore

from cpscore.amounts import exact, signed
from cpscore.chart import COLOURS, running_points, running_svg
from cpscore.web.app import make_app

NS = "{http://www.w3.org/2000/svg}"
EXAMPLES = pathlib.Path(__file__).parent.parent / "examples"


def _parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg.encode("utf-8"))
    assert root.tag == f"{NS}svg"
    return root


def _lines(root: ET.Element) -> list[list[tuple[float, float]]]:
    """Each player's line: its points (x, y)."""
    return [
        [tuple(map(float, point.split(","))) for point in line.get("points", "").split()]  # type: ignore[misc]
        for line in root.iter(f"{NS}polyline")
    ]


def _legend(root: ET.Element) -> list[tuple[str, str]]:
    """The legend's (name, total) items, in order."""
    return [
        (item.find(f"{NS}text[@class='name']").text or "", item.find(f"{NS}text[@class='total']").text or "")  # type: ignore[union-attr]
        for item in root.iter(f"{NS}g")
        if item.get("class") == "legend"
    ]


def _texts(root: ET.Element, kind: str) -> list[ET.Element]:
    return [text for text in root.iter(f"{NS}text") if text.get("class") == kind]


def _zero(root: ET.Element) -> float:
    (line,) = [line for line in root.iter(f"{NS}line") if line.get("class") == "zero"]
    assert line.get("y1") == line.get("y2")
    return float(line.get("y1", "nan"))


def _box(root: ET.Element) -> tuple[float, float]:
    _, _, width, height = map(float, root.get("viewBox", "").split())
    return width, height


NAMES = ["Amy", "Bob", "Cy"]
POINTS = [[0, 6, 2, 8, 8], [0, -3, -5, -2, -10], [0, -3, 3, -6, 2]]


def test_one_line_per_player_with_a_point_at_the_start_and_after_each_deal():
    root = _parse(running_svg(NAMES, POINTS, axis="deal 4", label="Running totals"))
    lines = _lines(root)
    assert len(lines) == 3 and all(len(line) == 5 for line in lines)
    xs = [x for x, _ in lines[0]]
    assert all(line == lines[0] or [x for x, _ in line] == xs for line in lines)  # one x for each deal
    steps = {round(b - a, 1) for a, b in zip(xs, xs[1:])}
    assert max(steps) - min(steps) <= 0.2 and min(steps) > 0  # evenly spaced, left to right
    width, _ = _box(root)
    assert 0 < xs[0] and xs[-1] <= width
    # A higher total is higher on the drawing (a smaller y), an equal one level.
    for series, line in zip(POINTS, lines):
        for (a, ya), (b, yb) in zip(zip(series, (y for _, y in line)), zip(series[1:], (y for _, y in line[1:]))):
            assert (ya > yb) if b > a else (ya < yb) if b < a else ya == yb
    assert [text.text for text in _texts(root, "axis")] == ["deal 4"]
    assert [text.text for text in _texts(root, "start")] == ["0"]


def test_the_zero_line_is_at_the_y_of_0_and_the_top_and_bottom_values_are_labelled():
    root = _parse(running_svg(NAMES, POINTS, axis="deal 4", label="Running totals"))
    zero = _zero(root)
    for series, line in zip(POINTS, _lines(root)):
        assert line[0][1] == zero  # everyone starts at 0
        assert all(y == zero for value, (_, y) in zip(series, line) if value == 0)
    assert [text.text for text in _texts(root, "value")] == ["+8", "0", "-10"]
    # The top and bottom values are where the lines reach them (each label 4 below its line, centred).
    top, _, bottom = (float(text.get("y", "nan")) - 4 for text in _texts(root, "value"))
    ys = [y for line in _lines(root) for _, y in line]
    assert top == min(ys) and bottom == max(ys)
    guides = sorted(float(line.get("y1", "nan")) for line in root.iter(f"{NS}line") if line.get("class") == "guide")
    assert guides == [top, bottom]


@pytest.mark.parametrize(("last", "off"), [((50, -3), 0), ((200, -1), 4), ((1, -200), 8)])
def test_labels_that_would_overlap_are_moved_apart_0s_on_its_line_or_near(last, off):
    root = _parse(running_svg(["Amy", "Bob"], [[0, last[0]], [0, last[1]]], axis="deal 1", label="x"))
    texts = _texts(root, "value")
    assert [text.text for text in texts] == [signed(max(last)), "0", signed(min(last))]
    places = [float(text.get("y", "nan")) - 4 for text in texts]
    assert all(b - a >= 12 for a, b in zip(places, places[1:]))
    assert abs(places[1] - _zero(root)) <= off


def test_the_legend_has_each_name_and_its_exact_final_total_in_the_order_given():
    amounts = [
        [exact(0), exact("2.5"), exact("0.125") * 3],
        [exact(0), exact("-2.5"), exact("-0.375")],
        [exact(0), exact(0), exact("1E+2") - 100],
    ]
    svg = running_svg(["Cy", "Amy", "Bob"], amounts, axis="deal 2", label="Running totals", money=True)
    root = _parse(svg)
    assert _legend(root) == [("Cy", "+0.375"), ("Amy", "-0.375"), ("Bob", "0")]
    assert [signed(series[-1]) for series in amounts[:2]] == ["+0.375", "-0.375"]
    assert [text.text for text in _texts(root, "value")] == ["+2.5", "0", "-2.5"]
    assert root.get("data-values") == "money" and 'data-values="units"' in running_svg(
        ["Amy"], [[0]], axis="", label=""
    )
    # A total longer than a float holds is written exactly.
    long = Decimal("123456789012345.123456789")
    root = _parse(running_svg(["Amy", "Bob"], [[0, long], [0, -long]], axis="deal 1", label="x", money=True))
    assert _legend(root) == [("Amy", "+123456789012345.123456789"), ("Bob", "-123456789012345.123456789")]


HOSTILE = ["<b>", "&", 'say "hi"', "张伟", "Nguyễn Thị Minh Khai", "</svg><script>alert(1)</script>", "a\x01b"]


def test_names_and_words_are_escaped_and_any_name_draws():
    points = [[0, index - 3] for index in range(len(HOSTILE))]
    svg = running_svg(HOSTILE, points, axis="<deal> & 1", label='"Running" <totals> & more')
    root = _parse(svg)  # well-formed XML
    names = [name for name, _ in _legend(root)]
    assert names[:4] == HOSTILE[:4] and names[-1] == "a\ufffdb"
    assert any(name.startswith("</svg><script>") or name == HOSTILE[5] for name in names)  # text, perhaps cut
    assert not [element for element in root.iter() if element.tag in (f"{NS}script", "script", f"{NS}b")]
    assert root.get("aria-label") == '"Running" <totals> & more'
    assert root.find(f"{NS}title").text == '"Running" <totals> & more'  # type: ignore[union-attr]
    assert [text.text for text in _texts(root, "axis")] == ["<deal> & 1"]


def test_a_long_name_is_cut_in_the_drawing_and_whole_in_its_title():
    name = "Nguyễn Thị Minh Khai của Hội Mậu Binh Sài Gòn Chợ Lớn"
    root = _parse(running_svg([name, "Bob"], [[0, 5], [0, -5]], axis="deal 1", label="x"))
    (first, _), second = _legend(root)
    assert first.endswith("\u2026") and name.startswith(first[:-1]) and second == ("Bob", "-5")
    item = next(item for item in root.iter(f"{NS}g") if item.get("class") == "legend")
    assert item.find(f"{NS}title").text == name  # type: ignore[union-attr]


def test_the_same_input_gives_the_same_bytes():
    made = [running_svg(HOSTILE[:4], [[0, 1, 2]] * 4, axis="deal 2", label="x") for _ in range(3)]
    assert made[0] == made[1] == made[2]
    assert running_svg(["Amy"], [[0, Decimal("2.50")]], axis="d", label="x") == running_svg(
        ["Amy"], [[0, Decimal("2.5")]], axis="d", label="x"
    )


def test_a_standalone_svg_document_with_nothing_to_fetch_or_run():
    svg = running_svg(NAMES, POINTS, axis="deal 4", label="Running totals")
    assert svg.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" ')
    root = _parse(svg)
    assert root.get("role") == "img" and root.get("aria-label") == "Running totals"
    assert root[0].tag == f"{NS}title" and root[0].text == "Running totals"
    assert root.get("width") == "340" and _box(root)[0] == 340
    assert not re.search(r"<script|<style|style=|href|url\(|@import|<foreignObject|<image", svg, re.IGNORECASE)
    # Every element is inside the view box.
    width, height = _box(root)
    for element in root.iter():
        for key in ("x", "x1", "x2"):
            if element.get(key) is not None:
                assert 0 <= float(element.get(key, "")) <= width, ET.tostring(element)
        for key in ("y", "y1", "y2"):
            if element.get(key) is not None:
                assert 0 <= float(element.get(key, "")) <= height, ET.tostring(element)


@pytest.mark.parametrize(("players", "columns"), [(1, 1), (2, 2), (3, 3), (4, 3), (8, 3), (12, 3)])
def test_the_height_grows_with_the_legend_rows(players, columns):
    names = [f"P{index}" for index in range(players)]
    root = _parse(running_svg(names, [[0, index] for index in range(players)], axis="deal 1", label="x"))
    rows = -(-players // columns)
    width, height = _box(root)
    assert height == 12 + 150 + 34 + rows * 20 + 4 and root.get("height") == f"{height:g}"
    bases = sorted({float(text.get("y", "")) for text in _texts(root, "name")})
    assert len(bases) == rows and bases[-1] < height
    assert len({float(text.get("x", "")) for text in _texts(root, "name")}) == min(columns, players)


def test_colours_cycle_and_the_ninth_player_on_is_dashed():
    names = [f"P{index}" for index in range(10)]
    root = _parse(running_svg(names, [[0, index - 5] for index in range(10)], axis="deal 1", label="x"))
    lines = list(root.iter(f"{NS}polyline"))
    assert [line.get("stroke") for line in lines] == [*COLOURS, COLOURS[0], COLOURS[1]]
    assert [line.get("stroke-dasharray") is not None for line in lines] == [False] * 8 + [True] * 2
    swatches = [item.find(f"{NS}line") for item in root.iter(f"{NS}g") if item.get("class") == "legend"]
    assert [(s.get("stroke"), s.get("stroke-dasharray")) for s in swatches] == [  # type: ignore[union-attr]
        (line.get("stroke"), line.get("stroke-dasharray")) for line in lines
    ]


def test_a_night_with_no_deal_is_a_drawing_that_says_so():
    root = _parse(running_svg(NAMES, [[0], [0], [0]], axis="No deal yet.", label="Running totals"))
    assert [len(line) for line in _lines(root)] == [1, 1, 1]
    assert _legend(root) == [("Amy", "0"), ("Bob", "0"), ("Cy", "0")]
    assert [text.text for text in _texts(root, "axis")] == ["No deal yet."]
    assert [text.text for text in _texts(root, "value")] == ["0"]
    root = _parse(running_svg([], [], axis="No deal yet.", label="Running totals"))  # nobody yet
    assert _lines(root) == [] and _legend(root) == [] and _zero(root) > 0


def test_two_thousand_deals_keep_every_point_and_stay_small():
    import random

    chosen = random.Random(7)
    points: list[list[int]] = [[0] for _ in range(4)]
    for _ in range(2000):
        moves = [chosen.randint(-30, 30) for _ in range(3)]
        for series, move in zip(points, [*moves, -sum(moves)]):
            series.append(series[-1] + move)
    svg = running_svg(["Amy", "Bob", "Cy", "Dan"], points, axis="deal 2000", label="x")
    assert [len(line) for line in _lines(_parse(svg))] == [2001] * 4
    assert len(svg.encode()) < 110_000


def test_series_of_another_length_are_refused():
    with pytest.raises(ValueError):
        running_svg(["Amy", "Bob"], [[0, 1]], axis="", label="")
    with pytest.raises(ValueError):
        running_svg(["Amy", "Bob"], [[0, 1], [0]], axis="", label="")


def test_running_points_repeat_a_total_where_a_deal_has_none():
    assert running_points(["Amy", "Eve"], [{"Amy": 5}, {"Amy": 2}, {"Amy": 4, "Eve": -3}, {"Amy": 1}]) == [
        [0, 5, 2, 4, 1],
        [0, 0, 0, -3, -3],
    ]


# The page's chart is the CLI's ----------------------------------------------------------


def _get(app, path: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    environ: dict[str, object] = {}
    wsgiref.util.setup_testing_defaults(environ)
    target, _, query = path.partition("?")
    environ.update({"REQUEST_METHOD": "GET", "PATH_INFO": "/" + target, "QUERY_STRING": query})
    environ.update({"HTTP_HOST": "127.0.0.1", "wsgi.input": io.BytesIO(b"")})
    for key, value in (headers or {}).items():
        environ["HTTP_" + key.upper().replace("-", "_")] = value
    answer: dict[str, object] = {}

    def start(status: str, headers: list[tuple[str, str]], exc_info: object = None) -> None:
        answer["status"], answer["headers"] = int(status.split()[0]), {key.lower(): value for key, value in headers}

    body = b"".join(app(environ, start))
    return answer["status"], answer["headers"], body  # type: ignore[return-value]


def _from_the_cli(path: str, money: bool, axis: str, label: str) -> str:
    """The chart drawn from ``cpscore session FILE --format json``'s running totals."""
    printed = json.loads(cpscore("session", path, "--format", "json").stdout, parse_float=Decimal)
    names = [total["name"] for total in printed["totals"]]
    key = "amount" if money else "units"
    runnings = [{entry["name"]: exact(entry[key]) for entry in deal["running"]} for deal in printed["deals"]]
    return running_svg(names, running_points(names, runnings), axis=axis, label=label, money=money)


@pytest.mark.parametrize(
    ("example", "money", "count"),
    [("session.txt", True, 3), ("seats.txt", True, 3), ("three-players.txt", False, 1), ("table-stakes.txt", True, 2)],
)
def test_the_pages_chart_is_the_one_the_cli_draws(tmp_path, example, money, count):
    path = tmp_path / example
    shutil.copy(EXAMPLES / example, path)
    status, headers, body = _get(make_app(str(path)), "api/chart.svg?lang=en")
    assert status == 200 and headers["content-type"] == "image/svg+xml; charset=utf-8"
    served = body.decode("utf-8")
    assert served == _from_the_cli(str(path), money, f"deal {count}", "Running totals")
    assert _parse(served).get("data-values") == ("money" if money else "units")
    # and `cpscore session --plot` writes that very drawing, with or without the deals printed
    for options in ((), ("--totals",), ("--format", "csv")):
        plot = tmp_path / "night.svg"
        cpscore("session", str(path), "--plot", str(plot), *options)
        assert plot.read_text(encoding="utf-8") == served


@pytest.mark.parametrize(
    ("plot", "message"),
    [
        ("night.png", "Invalid value for '--plot': 'night.png': write the chart to a file whose name ends in .svg"),
        ("night.txt", "write the chart to a file whose name ends in .svg"),
        ("gone/night.svg", "Error: gone/night.svg: the folder "),
        ("night.svg", "Invalid value for '--plot': 'night.svg' is a file being read: choose another"),
    ],
    ids=["png", "the-session", "no-folder", "a-source"],
)
def test_plot_refuses_a_path_it_must_not_write(tmp_path, monkeypatch, plot, message):
    monkeypatch.chdir(tmp_path)
    shutil.copy(EXAMPLES / "session.txt", tmp_path / "night.txt")
    shutil.copy(EXAMPLES / "session.txt", tmp_path / "night.svg")  # a session file, oddly named
    before = {path.name: path.read_bytes() for path in tmp_path.iterdir()}
    sources = ["night.txt", "night.svg"] if plot == "night.svg" else ["night.txt"]
    result = cpscore("session", *sources, "--plot", plot, check=False)
    assert result.returncode == 2 and result.stdout == ""
    assert message in result.stderr
    assert {path.name: path.read_bytes() for path in tmp_path.iterdir()} == before


@pytest.mark.parametrize(
    "options", [["--deal", "9"], ["--explain-pair", "Amy:Zed"], ["--plot", "."]], ids=["deal", "pair", "folder"]
)
def test_no_chart_is_written_when_the_command_fails(tmp_path, monkeypatch, options):
    monkeypatch.chdir(tmp_path)
    shutil.copy(EXAMPLES / "session.txt", tmp_path / "night.txt")
    plot = [] if "--plot" in options else ["--plot", "chart.svg"]
    result = cpscore("session", "night.txt", *plot, *options, check=False)
    assert result.returncode == 2 and result.stdout == ""
    assert sorted(path.name for path in tmp_path.iterdir()) == ["night.txt"]


def test_the_english_words_of_the_chart_are_the_pages():
    from cpscore.chart import ENGLISH

    words = json.loads((pathlib.Path(__file__).parent.parent / "cpscore/web/static/words.json").read_text("utf-8"))
    assert ENGLISH == {key: words["en"][key] for key in ENGLISH}


def test_a_fractional_stake_draws_exact_money_and_a_late_player_from_0(tmp_path):
    path = tmp_path / "night.txt"
    path.write_text(
        f"@rules ofc\n@stake 2.5\n\nAmy: {AMY}\nBob: {BOB}\n\nAmy: {AMY}\nBob: {BOB}\nCy: {CY}\n", encoding="utf-8"
    )
    status, _, body = _get(make_app(str(path)), "api/chart.svg")
    assert status == 200
    served = body.decode("utf-8")
    assert served == _from_the_cli(str(path), True, "deal 2", "Running totals")
    printed = json.loads(cpscore("session", str(path), "--format", "json").stdout, parse_float=Decimal)
    root = _parse(served)
    assert _legend(root) == [(total["name"], signed(exact(total["amount"]))) for total in printed["totals"]]
    assert any("." in total for _, total in _legend(root))  # money in halves
    cy = _lines(root)[2]
    assert cy[0][1] == cy[1][1] == _zero(root)  # Cy sat down at deal 2: at 0 until then


def test_the_chart_speaks_the_pages_language_and_answers_304_while_the_night_is_unchanged(tmp_path):
    path = tmp_path / "night.txt"
    shutil.copy(EXAMPLES / "session.txt", path)
    app = make_app(str(path))
    status, headers, body = _get(app, "api/chart.svg?lang=zh")
    root = _parse(body.decode("utf-8"))
    assert status == 200 and root.get("aria-label") == "累计走势"
    assert [text.text for text in _texts(root, "axis")] == ["第3局"]
    tag = headers["etag"]
    assert _get(app, "api/chart.svg?lang=zh", {"If-None-Match": tag})[0] == 304
    assert _get(app, "api/chart.svg?lang=vi", {"If-None-Match": tag})[0] == 200  # another language
    assert _get(app, "api/chart.svg?lang=xx")[2].decode().count(">deal 3</text>") == 1  # unknown: English
    cpscore("undo", str(path))
    status, headers, body = _get(app, "api/chart.svg?lang=zh", {"If-None-Match": tag})
    assert status == 200 and headers["etag"] != tag
    root = _parse(body.decode("utf-8"))
    assert [text.text for text in _texts(root, "axis")] == ["第2局"] and {len(line) for line in _lines(root)} == {3}


def test_a_night_with_no_deal_is_drawn_saying_so_and_the_token_guards_the_chart(tmp_path):
    path = tmp_path / "night.txt"
    path.write_text("@rules ofc\n@players Amy Bob Cy\n", encoding="utf-8")
    app = make_app(str(path))
    status, _, body = _get(app, "api/chart.svg")
    root = _parse(body.decode("utf-8"))
    assert status == 200 and [text.text for text in _texts(root, "axis")] == ["No deal yet."]
    shared = make_app(str(path), token="sesame")
    status, _, body = _get(shared, "api/chart.svg")
    assert status == 403 and "token" in json.loads(body)["error"]
    assert _get(shared, "api/chart.svg", {"X-Cpscore-Token": "sesame"})[0] == 200
    assert _get(shared, "api/chart.svg?token=sesame")[0] == 200
    path.unlink()
    status, _, body = _get(app, "api/chart.svg")
    assert status == 409 and "gone" in json.loads(body)["error"]
