"""Worked deals for the regional rules of docs/rules.md that issue 24 added: the horse
card, the ace bonus, higher_takes, natural_beats_surrender, natural_row_order, the 十三水
values, a 2-7 low middle and its Fantasyland, Fantasyland repeats, the button's
rotation.  Each case is an example of docs/rules.md, with its arithmetic in the
comment; each card deal is also settled by the reference scorer (tests/reference.py)."""

import json
import pathlib
import tempfile

import pytest
from click.testing import CliRunner
from test_reference import assert_agree

from cpscore.cli import main
from cpscore.deal import Entry, build_deal
from cpscore.errors import RulesError
from cpscore.rules import get_rules, rules_from_toml
from cpscore.scoring import settle

AMY = "Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d"
BOB = "Qs Jd 3c / Th Tc 8d 8s 3d / Kh Qh Jh 8h 2h"
CY = "As 6d 2s / 6c 6h 4d 4s 3s / Js Ts 9s 8c 7c"
ANN = "Qh Qd 2c / Kh Kd Kc 3h 3d / 9s 9h 9d 9c 4h"
CAT = "Ts 7d 4c / 6c 6d 5s 5h 3c / As Ks Qs 8s 2s"
GUS = "Kh Jc 2c / 5s 5d 7h 9c 9d / As Ks Js 7s 3s"
DEE = "2h 2d 4c 4s 6h 6d 8c 8s Th Td Qc Qs Ah"  # six pairs, unset
FLUSHES_A = "Jc 4c 2c / Qd Td 8d 6d 4d / As Ks Js 9s 7s"  # three flushes
FLUSHES_B = "Kd 5d 2d / Qc Tc 8c 6c 3c / Ah Kh Jh 9h 7h"  # three flushes: the same back
STRAIGHTS = "2h 3c 4h / 5s 6h 7c 8h 9h / 9c Th Jh Qh Kc"  # three straights
LOW_AMY = "Kh Kd 3c / 7s 5d 4c 3h 2s / Ah Ad Ac 9s 9d"  # 7-5-4-3-2 in the middle, KK in front
LOW_BOB = "Qs Jd 3s / Th 9c 8d 6s 4d / Kc Qc Jc 8c 6c"  # a ten-low middle
LOW_CY = "2h 2d 4s / As 5c 4h 3d 2c / Js Ts 9h 8h 7c"  # A-5-4-3-2: ace high, no low: a foul
THREE = {"Amy": AMY, "Bob": BOB, "Cy": CY}


def rules_of(spec: str):
    """A preset by name, or a rule file's text (TOML with ``preset = ...``)."""
    return rules_from_toml(spec, "house.toml") if "=" in spec else get_rules(spec)


def deal_of(spec: str, hands: dict):
    return build_deal([Entry(name, text, "") for name, text in hands.items()], rules_of(spec))


CASES = [
    # The horse card (docs/rules.md 8), shisanshui with horse = "Ah": Amy holds it. Amy-Bob +1 x 2 = 2;
    # Amy-Cy a scoop, 3 x 2 x 2 = 12; Bob-Cy +1, no horse. Without the horse: Amy +7, Bob 0, Cy -7.
    ("horse", 'preset = "shisanshui"\nhorse = "Ah"', THREE, {"Amy": 14, "Bob": -1, "Cy": -13}),
    ("no-horse", "shisanshui", THREE, {"Amy": 7, "Bob": 0, "Cy": -7}),
    # The horse doubles a natural too: Dee's six pairs (2-4: 3) against Gus; Dee holds Ah, so the pair
    # counts double: 6.
    ("horse-natural", 'preset = "2-4"\nhorse = "Ah"', {"Dee": DEE, "Gus": GUS}, {"Dee": 6}),
    # The ace bonus (docs/rules.md 6), maubinh with ace_bonus = 1: Amy holds 3 aces, Bob none, Cy 1.
    # Amy-Bob +1 rows + 3 aces = 4; Amy-Cy a sập 3 x 2 = 6 + 2 aces = 8; Bob-Cy +1 rows - 1 ace = 0.
    ("aces", 'preset = "maubinh"\nace_bonus = 1', THREE, {"Amy": 12, "Bob": -4, "Cy": -8}),
    # higher_takes (docs/rules.md 6), ofc: Ann scoops Cat (6) and holds QQ 7, a full house 12 and quads
    # 10; Cat's back flush 4 meets Ann's quads in the back, which Ann wins: Cat's 4 is not paid.
    # 6 + 29 = 35 (31 without: 6 + 29 - 4).
    ("higher-takes", 'preset = "ofc"\n[royalties]\nhigher_takes = true', {"Ann": ANN, "Cat": CAT}, {"Ann": 35}),
    ("holder", "ofc", {"Ann": ANN, "Cat": CAT}, {"Ann": 31}),
    # natural_beats_surrender (docs/rules.md 7), 2-4: Dee's six pairs (3) against Eve, who surrenders:
    # 3 by default; nothing with natural_beats_surrender = false.
    ("natural-vs-surrender", "2-4", {"Dee": DEE, "Eve": "surrender"}, {"Dee": 3}),
    (
        "natural-vs-surrender-off",
        'preset = "2-4"\nnatural_beats_surrender = false',
        {"Dee": DEE, "Eve": "surrender"},
        {"Dee": 0},
    ),
    # natural_row_order (docs/rules.md 7), 2-4: both three flushes, the backs of the same ranks. The
    # middles (Amy Q-T-8-6-4 over Bob Q-T-8-6-3) decide by default: Amy collects 3; back, then front
    # (Bob K-5-2 over Amy J-4-2): Bob collects 3.
    ("row-order", "2-4", {"Amy": FLUSHES_A, "Bob": FLUSHES_B}, {"Amy": 3}),
    (
        "row-order-front",
        'preset = "2-4"\nnatural_row_order = "back-front-middle"',
        {"Amy": FLUSHES_A, "Bob": FLUSHES_B},
        {"Amy": -3},
    ),
    # 十三水 (docs/rules.md 12): three flushes rank above three straights, claimed in rank order, and
    # collect their own 3; under shisanshui-old three straights rank higher and collect 4.
    ("flushes-over-straights", "shisanshui", {"Amy": FLUSHES_A, "Bob": STRAIGHTS}, {"Amy": 3}),
    ("straights-over-flushes-old", "shisanshui-old", {"Amy": FLUSHES_A, "Bob": STRAIGHTS}, {"Amy": -4}),
    # 2-7 Pineapple (docs/rules.md 10): Cy's A-5-4-3-2 middle is ace high, no ten-low: a foul. Amy-Bob:
    # a scoop (3 + 3) and Amy's KK 8, low-75432 8, full house 6 against Bob's flush 4: 6 + 22 - 4 = 24.
    # Amy-Cy 6 + 22 = 28; Bob-Cy 6 + 4 = 10.
    ("pineapple-27", "pineapple-27", {"Amy": LOW_AMY, "Bob": LOW_BOB, "Cy": LOW_CY}, {"Amy": 52, "Bob": -14}),
]


@pytest.mark.parametrize(("spec", "hands", "expected"), [case[1:] for case in CASES], ids=[c[0] for c in CASES])
def test_worked_deal(spec, hands, expected):
    deal = deal_of(spec, hands)
    result = settle(deal, rules_of(spec))
    found = {player.name: player.units for player in result.players}
    assert {name: found[name] for name in expected} == expected
    assert sum(found.values()) == 0
    assert_agree(deal, rules_of(spec))  # the reference scorer, written from docs/rules.md, agrees


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(main, list(args), input=input)


def test_the_horse_and_the_aces_are_explained_and_in_json(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    pathlib.Path("horse.toml").write_text('preset = "shisanshui"\nhorse = "Ah"\n')
    pathlib.Path("aces.toml").write_text('preset = "maubinh"\nace_bonus = 1\n')
    deal = "\n".join(f"{name}: {hand}" for name, hand in THREE.items())
    out = run("score", "--rules", "horse.toml", "--explain", "-", input=deal).output
    assert "multiplier x4: Amy scoops Cy: doubled; Amy holds the horse card, Ah: doubled again" in out
    assert "units   (+3 rows) x 4 = +12: Cy pays Amy 12" in out
    data = json.loads(run("score", "--rules", "horse.toml", "--format", "json", "-", input=deal).output)
    assert [pair["horse"] for pair in data["pairs"]] == [True, True, False]
    out = run("score", "--rules", "aces.toml", "--explain", "-", input=deal).output
    assert "aces    Amy holds 3, Bob 0: (3 - 0) x 1 = +3 (ace_bonus; never multiplied)" in out
    assert "units   +1 rows +3 aces = +4: Bob pays Amy 4" in out
    data = json.loads(run("score", "--rules", "aces.toml", "--format", "json", "-", input=deal).output)
    assert [pair["aces"] for pair in data["pairs"]] == [3, 2, -1]
    lines = run("session", "--rules", "aces.toml", "--format", "jsonl", "-", input=deal).output.splitlines()
    assert [pair["aces"] for pair in json.loads(lines[0])["pairs"]] == [3, 2, -1]
    plain = json.loads(run("score", "--format", "json", "-", input=deal).output)
    assert "horse" not in plain["pairs"][0] and "aces" not in plain["pairs"][0]  # only under rules that have them


def test_a_low_middle_is_named_as_the_low_it_is():
    deal = f"Amy: {LOW_AMY}\nBob: {LOW_BOB}\nCy: {LOW_CY}\n"
    out = run("score", "--rules", "pineapple-27", "--explain", "-", input=deal).output
    assert (
        "Cy fouled: middle ace high (A-5-4-3-2) is not ten-low or better (a low middle must hold no pair, straight"
        " or flush, and no higher card)"
    ) in out
    assert "five-high" not in out
    assert "Amy's seven high (7-5-4-3-2) is lower than Bob's ten high (T-9-8-6-4)" in out
    assert "Amy front KK 8 + middle low-75432 8 + back full house 6 = 22" in out
    assert "FL next (15)" in out  # KK in front and 7-5-4-3-2 in the middle: 15 cards
    data = json.loads(run("score", "--rules", "pineapple-27", "--format", "json", "-", input=deal).output)
    middle = data["players"][2]["rows"]["middle"]
    assert (middle["category"], middle["description"], middle["ranks"]) == ("high-card", "ace high", "A-5-4-3-2")
    lines = run("session", "--rules", "pineapple-27", "--format", "jsonl", "-", input=deal).output.splitlines()
    assert json.loads(lines[0])["players"][2]["rows"]["middle"] == middle


@pytest.mark.parametrize(
    ("text", "status", "cards"),
    [
        ("Kh Kd 3c / 8s 5d 4c 3h 2s / Ah Ad Ac 9s 9d", "enters", 14),  # KK in front
        ("Qh Qd 3c / 7s 5d 4c 3h 2s / Ah Ad Ac 9s 9d", "enters", 14),  # 7-5-4-3-2 in the middle (QQ: not)
        ("Qh Qd 3c / 8s 5d 4c 3h 2s / Ah Ad Ac 9s 9d", "none", None),  # QQ is not enough under 2-7
        ("Kh Kd 3c / 7s 5d 4c 3h 2s / Ah Ad Ac 9s 9d", "enters", 15),  # both
        ("Kh Kd 3c / 7s 5s 4s 3s 2s / Ah Ad Ac 9c 9d", "none", None),  # a suited 7-5-4-3-2 is a flush: a foul
    ],
)
def test_2_7_fantasyland(text, status, cards):
    data = json.loads(run("check", "--rules", "pineapple-27", "--format", "json", text).output)
    assert (data["fantasyland"]["status"], data["fantasyland"]["cards"]) == (status, cards)


A1 = "Qh Qd 2c / Kh Kd Kc 3h 3d / 9s 9h 9d 9c 4h"  # QQ in front: enters
A2 = "7s 7h 7d / 4c 5d 6h 7c 8s / Ks Kd Kh Qs Qd"  # trips in front: stays
A_MIDDLE = "Js 6h 2d / Kh Kd Kc 3h 3d / Ah Ad Ac 9c 9h"  # a full house in the middle only
B0 = "Ts 7d 4c / 6c 6d 5s 5h 3c / As Ks Qs 8s 2s"
B1 = "2s 3h 5c / 9h 9c Td Tc 4d / Ah Ad Ac Jh Js"


def statuses(rule_file: str, hands: list[tuple[str, str]]) -> list[str]:
    """Amy's Fantasyland status deal by deal, in a session under the rule file's text."""
    night = "@rules fl.toml\n\n" + "\n".join(f"Amy: {amy}\nBob: {bob}\n" for amy, bob in hands)
    with tempfile.TemporaryDirectory() as folder:
        (pathlib.Path(folder) / "fl.toml").write_text(rule_file)
        (pathlib.Path(folder) / "night.txt").write_text(night)
        lines = run("session", "--format", "jsonl", str(pathlib.Path(folder) / "night.txt")).output.splitlines()
    return [json.loads(line)["players"][0]["fantasyland"]["status"] for line in lines[:-1]]


@pytest.mark.parametrize(
    ("repeats", "expected"),
    [
        ("1", ["enters", "stays", "leaves", "enters"]),  # the default: one repeat, then out (and in again)
        ("2", ["enters", "stays", "stays", "leaves"]),
        ('"unlimited"', ["enters", "stays", "stays", "stays"]),
        ("0", ["enters", "leaves", "enters", "leaves"]),
    ],
    ids=["one", "two", "unlimited", "none"],
)
def test_fantasyland_repeats(repeats, expected):
    hands = [(A1, B0), (A2, B1), (A2, B1), (A2, B1)]
    assert statuses(f'preset = "ofc"\nfantasyland_repeats = {repeats}\n', hands) == expected


def test_a_middle_full_house_stays_unless_fantasyland_middle_stays_is_off():
    hands = [(A1, B0), (A_MIDDLE, B0)]
    assert statuses('preset = "pineapple"\n', hands) == ["enters", "stays"]
    assert statuses('preset = "pineapple"\nfantasyland_middle_stays = false\n', hands) == ["enters", "leaves"]


def test_the_button_passes_each_deal():
    # docs/rules.md 12: cap 3 on 2-4. Deal 1, Amy deals: Bob-Cy 0, Amy-Bob 2, Amy-Cy 1 (Amy at the cap).
    # Deal 2 has no marker: the button has passed to Bob, so Cy-Amy comes first (Cy pays 3), then
    # Amy-Bob (Bob pays 0: Amy at the cap). With the button fixed, deal 2 keeps the listing order.
    night = "@rules btn.toml\n\nAmy: +6 ; dealer\nBob: -2\nCy: -4\n\nAmy: +6\nBob: -2\nCy: -4\n"
    found = {}
    for rotation in ("next", "fixed"):
        with tempfile.TemporaryDirectory() as folder:
            here = pathlib.Path(folder)
            (here / "btn.toml").write_text(f'preset = "2-4"\ncap = 3\nbutton_rotation = "{rotation}"\n')
            (here / "night.txt").write_text(night)
            lines = run("session", "--format", "jsonl", str(here / "night.txt")).output.splitlines()
        found[rotation] = [{p["name"]: p["amount"] for p in json.loads(line)["players"]} for line in lines[:2]]
    assert found["next"] == [{"Amy": 3, "Bob": -2, "Cy": -1}, {"Amy": 3, "Bob": 0, "Cy": -3}]
    assert found["fixed"] == [{"Amy": 3, "Bob": -2, "Cy": -1}, {"Amy": 3, "Bob": -2, "Cy": -1}]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('horse = "Xx"', "horse: 'Xx' is not a card, such as \"As\", or false"),
        ("horse = 3", 'horse: 3 is not a card, such as "As", or false'),
        ("ace_bonus = -1", "ace_bonus: -1 is not a number of units, 0 or more"),
        ("fantasyland_repeats = -1", 'fantasyland_repeats: -1 is not a whole number from 0 to 99, or "unlimited"'),
        ('fantasyland_repeats = "always"', "fantasyland_repeats: 'always' is not a whole number"),
        ('low_middle_qualifier = "T"', "low_middle_qualifier: has no effect without low_middle = true"),
        ('low_middle = true\nlow_middle_qualifier = "6"', 'low_middle_qualifier: \'6\' is not a rank from "7" to "A"'),
        (
            'low_middle = true\nfantasyland = "standard"\nfantasyland_middle_stays = false',
            "fantasyland_middle_stays: has no effect with low_middle = true",
        ),
        ('button_rotation = "next"', "button_rotation: has no effect without a cap or table stakes"),
        ("[royalties]\nhigher_takes = true", 'royalties.higher_takes: has no effect unless mode = "holder"'),
        ("[royalties.middle]\nlow-7 = 4", "royalties.middle.low-7: has no effect without low_middle = true"),
        ('fantasyland = "2-7"', 'fantasyland: "2-7" needs low_middle = true'),
        ('natural_row_order = "front-first"', "natural_row_order: 'front-first' is not one of back-middle-front"),
        ("[naturals]\ndragon = true", "naturals.dragon: give its units (true stands for 3 only for no-broadway)"),
        ("surrender = false\nnatural_beats_surrender = false", "natural_beats_surrender: has no effect without both"),
        (
            'natural_row_order = "back-front-middle"\n[naturals]\nthree-straights = false\nthree-flushes = false',
            "natural_row_order: has no effect without three-straights",
        ),
    ],
)
def test_settings_that_cannot_be(text, message):
    with pytest.raises(RulesError) as caught:
        rules_from_toml(f'preset = "2-4"\n{text}\n', "house.toml")
    assert message in str(caught.value)


def test_no_broadway_true_is_3():
    rules = rules_from_toml('preset = "2-4"\n[naturals]\nno-broadway = true\n', "house.toml")
    assert rules.naturals.units["no-broadway"] == 3


def test_moot_settings_go_back_to_their_defaults():
    # pineapple-ru rotates the button; a rule file that turns its table stakes off needs no other change.
    rules = rules_from_toml('preset = "pineapple-ru"\ntable_stakes = false\n', "house.toml")
    assert rules.money.button_rotation == "fixed"
    assert get_rules("pineapple-ru").with_settings(table_stakes=False).money.button_rotation == "fixed"
    # pineapple-27 played high: its qualifier goes; its low middle entries must be replaced (an error says so).
    text = 'preset = "pineapple-27"\nlow_middle = false\nfantasyland = "standard"\n'
    rules = rules_from_toml(text + "[royalties.middle]\ntrips = 2\n", "h.toml")
    assert rules.rows.low_middle_qualifier is None
    with pytest.raises(RulesError, match="royalties.middle.low-75432: has no effect without low_middle = true"):
        rules_from_toml(text, "h.toml")


def test_the_new_presets():
    assert get_rules("turbo").settings() | {"id": "ofc", "summary": ""} == get_rules("ofc").settings() | {"summary": ""}
    shisanshui = get_rules("shisanshui").naturals
    assert {k: shisanshui.units[k] for k in ("three-straight-flushes", "all-high", "four-trips", "six-pairs")} == {
        "three-straight-flushes": 22,
        "all-high": 15,
        "four-trips": 6,
        "six-pairs": 4,
    }
    rank = shisanshui.natural_rank
    assert rank.index("three-flushes") < rank.index("three-straights")
    old = get_rules("shisanshui-old").naturals
    assert (old.units["three-straight-flushes"], old.units["three-straights"]) == (24, 4)
    assert get_rules("maubinh").naturals.units["six-pairs"] == 6  # not shisanshui's 4
    assert get_rules("pineapple-ru").money.button_rotation == "next"


DOCS = pathlib.Path(__file__).parent.parent / "docs" / "rules.md"


def toml_blocks() -> list[str]:
    import re

    return re.findall(r"```toml\n(.*?)```", DOCS.read_text(encoding="utf-8"), re.S)


@pytest.mark.parametrize("text", toml_blocks(), ids=lambda text: text.split("\n", 2)[1] if "\n" in text else text)
def test_every_rule_file_of_the_docs_is_valid(text):
    rules_from_toml(text, "docs.toml")


def test_the_rule_files_of_the_docs_do_what_they_say():
    files = {rules_from_toml(text, "docs.toml").id: rules_from_toml(text, "docs.toml") for text in toml_blocks()}
    # The Eastern royal flush: 14 in the middle, 7 in the back; a plain straight flush still 10 and 5.
    table = files["eastern-royal"].royalties.table
    assert (table.lookup("middle", "royal-flush"), table.lookup("back", "royal-flush")) == (14, 7)
    assert (table.lookup("middle", "straight-flush"), table.lookup("back", "straight-flush")) == (10, 5)
    royal = "2c 3d 4h / 9s 9h 9d 9c 4s / Ah Kh Qh Jh Th"  # quads in the middle, a royal flush in the back
    plain = "Qs Jd 3c / Ts Tc 8d 8s 3h / Kc Qc Jc 8c 5c"
    deal = build_deal([Entry("Amy", royal, ""), Entry("Bob", plain, "")], files["eastern-royal"])
    pair = settle(deal, files["eastern-royal"]).pairs[0]
    assert pair.royalties == 7 + 6  # row-value: quads 8 - 1 in the middle, the royal 7 - 1 in the back
    # OFC without middle trips; the rest of the OFC middle as it was.
    basic, ofc = files["ofc-basic"].royalties.table, get_rules("ofc").royalties.table
    assert basic.lookup("middle", "trips") == 0 and ofc.lookup("middle", "trips") == 2
    assert all(basic.lookup("middle", key) == ofc.lookup("middle", key) for key in ("straight", "flush", "quads"))
    # Pusoy with the classic naturals.
    assert dict(files["pusoy-naturals"].naturals.units) == {
        "dragon": 13,
        "six-pairs": 3,
        "three-straights": 3,
        "three-flushes": 3,
    }


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('preset = "maubinh"\nace_bonus = 1', "the arranger does not model ace_bonus (rules house)"),
        ('preset = "shisanshui"\nhorse = "Ah"', "the arranger does not model the horse card (horse, rules house)"),
        ('preset = "ofc"\n[royalties]\nhigher_takes = true', "the arranger does not model higher_takes (rules house)"),
        ('preset = "pineapple-27"', "the arranger does not play the middle low (low_middle, rules house)"),
    ],
    ids=["aces", "horse", "higher-takes", "low-middle"],
)
def test_the_arranger_refuses_what_it_does_not_model(tmp_path, text, message):
    (tmp_path / "house.toml").write_text(text)
    result = run("arrange", "--rules", str(tmp_path / "house.toml"), "Ah Ad 2c 2d 3c 3d 4h 4s 5c 5d 6h 6s 8c")
    assert result.exit_code == 2 and result.stdout == ""
    assert message in result.stderr


def test_no_repeat_allowed_leaves_in_a_single_deal_too():
    # fantasyland_repeats = 0: a hand played in Fantasyland leaves, in `score` and `check` as in a session.
    text = 'preset = "ofc"\nfantasyland_repeats = 0\n'
    rules = rules_from_toml(text, "house.toml")
    deal = build_deal([Entry("Amy", A2, ""), Entry("Bob", B1, "")], rules, fantasyland=["Amy"])
    assert settle(deal, rules).players[0].fantasyland.status == "leaves"
    assert_agree(deal, rules)


@pytest.mark.parametrize(
    "text",
    [
        'fantasyland_repeats = "unlimited"',
        "fantasyland_repeats = 0",
        'horse = "Ah"',
        "ace_bonus = 0.5",
        'natural_row_order = "back-front-middle"\n[naturals]\nthree-flushes = 3',
        "natural_beats_surrender = false\n[naturals]\ndragon = 13",
        "fantasyland_middle_stays = false",
        'cap = 10\nbutton_rotation = "next"',
        "[royalties]\nhigher_takes = true",
        "[naturals]\nno-broadway = true",
    ],
)
def test_every_new_setting_is_written_back_as_a_rule_file_that_reads_the_same(text):
    from cpscore.rules import from_settings, to_toml

    rules = rules_from_toml(f'preset = "ofc"\n{text}\n', "house.toml")
    assert rules_from_toml(to_toml(rules), "again.toml") == rules
    assert from_settings(rules.settings(), preset="ofc") == rules


def test_a_horse_natural_that_collects_nothing_is_not_doubled():
    # natural_beats_surrender = false: Dee's six pairs against a surrender pays 0, and the horse (Dee's
    # Ah) has nothing to double: the pair is not marked doubled.
    rules = rules_from_toml('preset = "2-4"\nhorse = "Ah"\nnatural_beats_surrender = false\n', "house.toml")
    deal = build_deal([Entry("Dee", DEE, ""), Entry("Eve", "surrender", "")], rules)
    pair = settle(deal, rules).pairs[0]
    assert (pair.units, pair.doubled) == (0, ())
    assert_agree(deal, rules)


def test_check_says_the_middle_qualifies():
    out = run("check", "--rules", "pineapple-27", LOW_AMY).output
    assert "Legal: the back is at least the front, and the middle is a T-low or better (it plays low)." in out
    rules = rules_from_toml('preset = "pineapple-27"\nlow_middle_qualifier = "10"\n', "house.toml")
    assert rules.rows.low_middle_qualifier == "T"


def test_a_low_middle_never_stays_in_fantasyland():
    # 2-7 Fantasyland on pineapple (fantasyland_middle_stays stays true): a "full house" middle is the
    # worst low there is, and does not keep a player in.
    rules = rules_from_toml('preset = "pineapple"\nlow_middle = true\nfantasyland = "2-7"\n', "house.toml")
    hand = "2c 4d 6h / Kh Kd Kc 3h 3s / Ah Ad Ac 9s 9d"
    deal = build_deal([Entry("Amy", hand, ""), Entry("Bob", B0, "")], rules, fantasyland=["Amy"])
    assert settle(deal, rules).players[0].fantasyland.status == "leaves"
    assert_agree(deal, rules)


def test_a_number_out_of_range_in_a_rule_file_is_one_line():
    # Found by the fuzz module: a decimal whose exponent has 1,372 digits.
    text = 'preset = "2-4"\n[royalties]\nbroken_royalties = ' + "1" * 767 + "e" + "1" * 1372 + "\n"
    with pytest.raises(RulesError, match=r"^h\.toml: not a rule file: a number in it is out of range$"):
        rules_from_toml(text, "h.toml")


def test_add_starts_a_table_stakes_night_with_its_buy_in(tmp_path):
    night = tmp_path / "night.txt"
    three = [f"{name}={hand}" for name, hand in THREE.items()]
    result = run("add", str(night), "--rules", "pineapple-ru", "--buy-in", "50", *three)
    assert result.exit_code == 0, result.output
    assert night.read_text().startswith("@rules pineapple-ru\n@buy-in 50\n\nAmy: ")
    again = run("add", str(night), "--buy-in", "60", *three)
    assert again.exit_code == 2 and again.stdout == ""
    assert "--buy-in: " in again.stderr and "has deals already, and its buy-in is the night's" in again.stderr
    same = run("add", str(night), "--buy-in", "50", "--again", *three)
    assert same.exit_code == 0 and "--buy-in 50: the night's buy-in is that already; nothing written" in same.stderr
    assert "Amy deals" in same.stdout  # the button has passed (button_rotation = "next")
    new = run("add", str(tmp_path / "other.txt"), "--rules", "pineapple-ru", *three)
    assert new.exit_code == 2 and not (tmp_path / "other.txt").exists()
    assert new.stderr == (
        "Error: the pineapple-ru rules play table stakes: give the buy-in (@buy-in N in the session, or --buy-in N)\n"
    )
    moot = run("add", str(tmp_path / "ofc.txt"), "--rules", "ofc", "--buy-in", "50", *three)
    assert moot.exit_code == 2 and "--buy-in has no effect: the ofc rules do not play table stakes" in moot.stderr
