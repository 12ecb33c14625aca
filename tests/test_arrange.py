"""The arranger: legal settings, agreement with a brute-force search, the CLI."""

import itertools
import json
import random

import pytest
from click.testing import CliRunner

from cpscore import _baseline, arrange_views, baselinegen
from cpscore.arrange import (
    FANTASYLAND_VALUE,
    _combos,
    _Model,
    _model,
    _Rows,
    _suit_share,
    arrange,
    arrangement,
    refusal,
)
from cpscore.cards import CARDS, ROW_NAMES, parse_cards, parse_hand
from cpscore.cli import main
from cpscore.errors import CardError, CpscoreError, RulesError
from cpscore.formatting import render_json
from cpscore.hands import evaluate3, evaluate5, evaluate_row
from cpscore.naturals import detect
from cpscore.rules import METHOD_BONUSES, changed_settings, from_settings, get_rules, preset_names, rules_from_toml
from cpscore.scoring import broken_royalties, evaluate_core, fantasyland, kernel, row_codes, suit_key

HAND = "Ah Ad Ac 7s 7d Ks Kd 4c 9h 9c 5d 5s 2c"
DRAGON = "2h 3d 4c 5s 6h 7d 8c 9s Th Jd Qc Ks Ah"

#: The presets the arranger plays (it refuses a low middle: pineapple-27).
ARRANGED = [name for name in preset_names() if refusal(get_rules(name)) is None]


def changed(preset, **settings):
    """A rule set made anew from a preset with some settings changed."""
    return from_settings(changed_settings(get_rules(preset), settings), "test")


@pytest.mark.slow
def test_shipped_baseline_table_equals_a_fresh_build():
    fresh = baselinegen.build_table()
    assert baselinegen.BASELINE_PATH.read_text(encoding="utf-8") == baselinegen.render(fresh)
    assert _baseline.SAMPLES == baselinegen.SAMPLES


def every_setting(cards, rules, model):
    """(core, estimate) of every legal split of 13 cards, the slow way: the
    kernel's own foul check (suit_foul included) and broken royalties, each
    row's chances from its cards in this hand (suits, 2s)."""
    held = [card.code for card in cards]
    known = {}  # each row's chances, worked out once: a row is in many splits

    def chances(name, codes):
        key = (name, tuple(codes))
        if key not in known:
            known[key] = model.row_chances(name, codes, held)
        return known[key]

    for back in itertools.combinations(cards, 5):
        rest = [card for card in cards if card not in back]
        for middle in itertools.combinations(rest, 5):
            front = [card for card in rest if card not in middle]
            rows = [[card.code for card in row] for row in (front, middle, back)]
            core = evaluate_core(*rows, rules)
            if not core.foul:
                found = (chances(name, codes) for name, codes in zip(ROW_NAMES, rows))
                yield core, model.expected(*found)[0] + float(core.broken)


def brute_force(cards, rules, banker=None):
    """The best estimate over every legal split, the slow way."""
    return max(estimate for _, estimate in every_setting(cards, rules, _Model(rules, banker)))


def rule_file(text, name="house.toml"):
    """A rule set as a rule file gives it."""
    return rules_from_toml(text, name)


#: Hands that meet the settings below: 2s with royalties, none of 2s, quads
#: and a straight flush sharing a card, two flushes of the same ranks, rows
#: that tie, a steel wheel and trips.
SPADE = "2s 2h 2d Ks Kd 9c 9h 4s 5s 6s 7s 8d Ac"
NO_SPADE = "Qh Qd 7c 7d 3h 4h 5h 6h 9h Ts Jd Kc Ac"
BROKEN = "7s 7h 7d 7c 8h 9h Th Jh 2s 3d Kc Ks Ad"
FLUSHES = "Qc 8h 2c Kd Jd 9d 6d 3d Ks Js 9s 6s 3s"
TIES = "Qc Jd 8h Kh Kd 9c 6s 6h Ah 2d 3c 4s 5h"
RANKS = "Ah 2h 3h 4h 5h Ks Kd Kc 9s 9d Qs Jc 7d"

RANK_ENTRIES = """preset = "ofc"
[royalties.front]
QQ = 7
trips = 10
trips-K = 25
[royalties.middle]
straight = 4
quads = 20
quads-A = 40
straight-flush = 30
steel-wheel = 35
[royalties.back]
straight = 2
full-house = 6
quads = 10
quads-K = 18
straight-flush = 15
steel-wheel = 16
royal-flush = 25
"""

#: Rule files that set what the estimate models: (id, rule file, banker, a hand that meets it).
MODELLED = [
    ("spade-row-holder", 'preset = "ofc"\n[royalties]\nspade_bonus = "row"\n', None, SPADE),
    ("spade-row-no-2s", 'preset = "ofc"\n[royalties]\nspade_bonus = "row"\n', None, NO_SPADE),
    ("spade-own-holder", 'preset = "pineapple"\n[royalties]\nspade_bonus = "own"\n', None, SPADE),
    ("spade-row-bonus", 'preset = "taiwanese"\n[royalties]\nspade_bonus = "row"\n', None, SPADE),
    ("spade-own-row-value", 'preset = "shisanshui"\n[royalties]\nspade_bonus = "own"\n', None, NO_SPADE),
    ("spade-row-suits", 'preset = "capsa"\n[royalties]\nspade_bonus = "row"\n', None, SPADE),
    ("broken-holder", 'preset = "ofc"\n[royalties]\nbroken_royalties = true\n', None, BROKEN),
    ("broken-row-bonus", 'preset = "taiwanese"\n[royalties]\nbroken_royalties = true\n', None, BROKEN),
    ("cancel-when-both", 'preset = "taiwanese"\n[royalties]\ncancel_when_both = true\n', None, BROKEN),
    ("rank-entries", RANK_ENTRIES, None, RANKS),
    ("suit-order", 'preset = "2-4"\nsuit_order = ["h", "s", "d", "c"]\n', None, TIES),
    ("suit-foul", 'preset = "1-6"\nsuit_order = ["d", "c", "h", "s"]\nsuit_foul = true\n', None, FLUSHES),
    ("home-run-of-1", 'preset = "shisanshui"\nhome_run_min_opponents = 1\n', None, TIES),
    ("home-run-of-1-equal", 'preset = "capsa"\nhome_run_min_opponents = 1\nhome_run_split = "equal"\n', None, TIES),
    (
        "banker-wins-ties-banker",
        'preset = "shisanshui"\npairing = "banker"\nbanker_wins_ties = true\n',
        True,
        TIES,
    ),
    (
        "banker-wins-ties-player",
        'preset = "shisanshui"\npairing = "banker"\nbanker_wins_ties = true\n',
        False,
        TIES,
    ),
    ("banker-home-run-player", 'preset = "maubinh"\npairing = "banker"\nhome_run_min_opponents = 1\n', False, TIES),
]


@pytest.mark.slow
@pytest.mark.parametrize("preset", [*ARRANGED, "1-4"])
def test_agrees_with_brute_force(preset):
    rng = random.Random(preset)
    rules = changed("2-4", method="1-4", scoop_doubles=True) if preset == "1-4" else get_rules(preset)
    for _ in range(2):
        cards = rng.sample(CARDS, 13)
        assert arrange(cards, rules, 1)[0].expected == pytest.approx(brute_force(cards, rules), abs=1e-12)


@pytest.mark.slow
@pytest.mark.parametrize(("text", "banker", "hand"), [entry[1:] for entry in MODELLED], ids=[e[0] for e in MODELLED])
def test_agrees_with_brute_force_under_rule_files(text, banker, hand):
    rules = rule_file(text)
    for cards in (parse_cards(hand), random.Random(text).sample(CARDS, 13)):
        got = arrange(cards, rules, 1, banker=banker)[0].expected
        assert got == pytest.approx(brute_force(cards, rules, banker), abs=1e-12)


@pytest.mark.parametrize(
    ("rules", "banker", "hand"),
    [(get_rules(name), None, SPADE) for name in ARRANGED] + [(rule_file(e[1]), e[2], e[3]) for e in MODELLED],
    ids=[*ARRANGED, *(e[0] for e in MODELLED)],
)
def test_the_search_reads_the_estimates_numbers(rules, banker, hand):
    """Every row of the hand as the search reads it in bulk is the row's
    estimate worked out from its cards, the slow way (the brute force's)."""
    codes = [card.code for card in parse_cards(hand)]
    model = _model(rules, banker)
    rows = _Rows(codes, model)
    for name, size in (("front", 3), ("middle", 5), ("back", 5)):
        for combo, mask in zip(*_combos(13, size)):
            slow = model.row_chances(name, [codes[i] for i in combo], codes)
            assert rows.chances(name, mask) == pytest.approx((slow.win, slow.lose, slow.royalty), abs=1e-12)
            if rules.suits.suit_order is not None:
                assert slow.tie == 0  # suits break every tie


def test_settings_are_legal_distinct_and_best_first():
    rules = get_rules("2-4")
    for seed in range(5):
        cards = random.Random(seed).sample(CARDS, 13)
        settings = arrange(cards, rules, 5)
        assert len(settings) == 5
        assert len({str(setting.hand) for setting in settings}) == 5
        assert [s.expected for s in settings] == sorted((s.expected for s in settings), reverse=True)
        for setting in settings:
            front, middle, back = (evaluate_row(row) for row in setting.hand.rows)
            assert front <= middle <= back
            assert sorted(setting.hand.cards()) == sorted(cards)


def test_a_known_hand():
    best = arrange(parse_cards(HAND), get_rules("2-4"))[0]
    assert str(best.hand) == "7s 7d 4c / Ks Kd 5d 5s 2c / Ah Ad Ac 9h 9c"
    assert 3 < best.expected < 3.5
    assert [round(row.win, 2) for row in best.rows] == [0.98, 0.73, 0.92]


def test_simulation_is_repeatable_and_close_to_the_estimate():
    cards = parse_cards(HAND)
    first = arrangement(cards, get_rules("2-4"), 2, 200)
    again = arrangement(cards, get_rules("2-4"), 2, 200)
    assert [s.simulated for s in first.settings] == [s.simulated for s in again.settings]
    assert abs(first.settings[0].simulated - first.settings[0].expected) < 0.5


def test_naturals_are_named():
    made = arrangement(parse_cards("2h 3d 4c 5s 6h 7d 8c 9s Th Jd Qc Ks Ah"), get_rules("2-4"), 1)
    assert made.naturals == ["dragon", "three-straights"]


# The rows of a hand, and the quick sum the search passes settings over by ------------


@pytest.mark.parametrize("seed", range(6))
def test_a_hands_rows_are_the_evaluators_values(seed):
    rng = random.Random(seed)
    suit = [card for card in CARDS if card.suit.value == "h"]
    # Half the hands are mostly one suit, for the flushes and straight flushes.
    cards = rng.sample(CARDS, 13) if seed % 2 else rng.sample(suit, 9) + rng.sample(CARDS[:8], 4)
    cards = list(dict.fromkeys(cards))[:13]
    while len(cards) < 13:
        cards = list(dict.fromkeys(cards + rng.sample(CARDS, 1)))
    codes = [card.code for card in cards]
    rows = _Rows(codes, _model(get_rules("2-4")))
    for combo, mask in zip(*_combos(13, 5)):
        assert rows.five[mask] == evaluate5([codes[i] for i in combo])
    for combo, mask in zip(*_combos(13, 3)):
        assert rows.three[mask] == evaluate3([codes[i] for i in combo])


QUICK_SUM_RULES = [
    *((name, None) for name in ARRANGED),
    ("1-4", None),
    ("home-run-of-1", None),
    ("banker-home-run-banker", True),
    ("banker-home-run-player", False),
]


@pytest.mark.parametrize(("preset", "banker"), QUICK_SUM_RULES, ids=[name for name, _ in QUICK_SUM_RULES])
@pytest.mark.parametrize("doubles", [False, True], ids=["single", "scoop-doubles"])
def test_the_quick_sum_is_the_estimate(preset, banker, doubles):
    if preset == "1-4":
        model = _model(changed("2-4", method="1-4", scoop_doubles=doubles))
    elif preset == "home-run-of-1":
        model = _model(changed("shisanshui", home_run_min_opponents=1, scoop_doubles=doubles))
    elif preset.startswith("banker-home-run"):
        rules = changed("shisanshui", pairing="banker", home_run_min_opponents=1, scoop_doubles=doubles)
        model = _model(rules, banker)
    else:
        model = _model(changed(preset, scoop_doubles=doubles))
    rng = random.Random(preset)
    for _ in range(2000):
        figures = []
        for _row in range(3):
            win = rng.random()
            figures += [win, rng.random() * (1 - win), rng.uniform(-5, 30)]
        wf, lf, rf, wm, lm, rm = figures[:6]
        c, p, q, s, t = model.with_back(*figures[6:])
        quick = c + p * (wf + wm) - q * (lf + lm) + s * wf * wm - t * lf * lm + rf + rm
        assert quick == pytest.approx(model.value(*figures)[0], abs=1e-11)


# The model is cached by the rule set's value ------------------------------------------

QUADS = "As Ah Ad Ac 7s Ks Kd 4c 9h 9c 5d 5s 2c"


def _quads_pay(units):
    return changed("ofc", royalties={"back": {**get_rules("ofc").royalties.table.back, "quads": units}})


def test_rule_sets_equal_in_value_share_a_model():
    made_again = from_settings(get_rules("ofc").settings(), "preset ofc")
    assert made_again is not get_rules("ofc") and made_again == get_rules("ofc")
    assert _model(made_again) is _model(get_rules("ofc"))
    assert _model(_quads_pay(10)) is _model(_quads_pay(10))
    assert _model(_quads_pay(11)) is not _model(_quads_pay(10))


def test_results_follow_the_rule_sets_values_across_switches():
    cards = parse_cards(QUADS)
    rule_sets = {
        "ofc": lambda: get_rules("ofc"),
        "ofc made again": lambda: from_settings(get_rules("ofc").settings(), "again"),
        "quads pay 11": lambda: _quads_pay(11),
        "quads pay 40": lambda: _quads_pay(40),
        "2-4": lambda: get_rules("2-4"),
        "1-6": lambda: get_rules("1-6"),
        "taiwanese": lambda: get_rules("taiwanese"),
    }
    first = {name: [(str(s.hand), s.expected) for s in arrange(cards, make(), 3)] for name, make in rule_sets.items()}
    assert first["ofc"] == first["ofc made again"]
    # One royalty value apart: the quads in the back are worth 1 and 30 units more, less
    # the baseline's quads (holder royalties net out): 1 x and 30 x the same amount.
    one, thirty = (first[name][0][1] - first["ofc"][0][1] for name in ("quads pay 11", "quads pay 40"))
    assert 0.9 < one < 1 and thirty == pytest.approx(30 * one, abs=1e-9)
    rng = random.Random(1)
    for _ in range(30):  # many switches, each rule set made anew each time
        name = rng.choice(list(rule_sets))
        assert [(str(s.hand), s.expected) for s in arrange(cards, rule_sets[name](), 3)] == first[name], name


# Natural first ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "preset", "recommend", "rows"),
    [
        (DRAGON, "2-4", "dragon", None),
        (DRAGON, "1-6", "dragon", None),
        (
            "Qh Kd Ac 3c 4d 5h 6s 7c 8d 9h Ts Jc Qd",
            "2-4",
            "three-straights",
            "Kd Ac Qd / 3c 4d 5h 6s 7c / 8d 9h Ts Jc Qh",
        ),
        ("As Ah Ad Ac Ks Kh Kd Kc Qs Qh Js Jh 9c", "2-4", None, None),  # six pairs, 3: the rows are worth 3.95
        (HAND, "2-4", None, None),  # no natural
        (DRAGON, "ofc", None, None),  # no naturals under ofc
    ],
    ids=["dragon-2-4", "dragon-1-6", "three-straights", "six-pairs-worth-less", "none", "no-naturals"],
)
def test_a_natural_worth_more_than_the_best_setting_is_recommended(cards, preset, recommend, rows):
    made = arrangement(parse_cards(cards), get_rules(preset), 2)
    assert made.recommend == recommend
    assert (str(made.natural_hand) if made.natural_hand else None) == rows
    if recommend:
        assert float(made.natural_units) > made.settings[0].expected
    if made.natural_hand is not None:  # the rows that claim it, as a set hand
        from cpscore.naturals import detect

        assert detect(made.natural_hand.cards(), made.natural_hand, get_rules(preset)).id == recommend


def test_the_views_lead_with_the_natural_to_declare():
    rules = get_rules("1-6")
    made = arrangement(parse_cards(DRAGON), rules, 1)
    best = made.settings[0].expected
    lines = arrange_views.render_arrangement(made, rules).splitlines()
    assert lines[0] == f"Declare the dragon: 13 units from each opponent, more than the best setting ({best:+.2f})."
    assert lines[1].startswith("Cards: ")
    assert lines[2] == "Naturals: dragon, three straights; left unset, the hand claims the first"
    data = json.loads(render_json(arrange_views.arrangement_data(made)))
    assert data["recommend"] == {"natural": "dragon", "units": 13, "hand": None}
    straights = arrangement(parse_cards("Qh Kd Ac 3c 4d 5h 6s 7c 8d 9h Ts Jc Qd"), get_rules("2-4"), 1)
    text = arrange_views.render_arrangement(straights, get_rules("2-4")).splitlines()
    assert text[0].startswith("Declare three straights: 3 units from each opponent, more than the best setting (+")
    assert (
        text[1] == "Its rows: Kd Ac Qd / 3c 4d 5h 6s 7c / 8d 9h Ts Jc Qh (set so, or left unset, the hand claims it)."
    )
    worth_less = arrangement(parse_cards("As Ah Ad Ac Ks Kh Kd Kc Qs Qh Js Jh 9c"), get_rules("2-4"), 1)
    text = arrange_views.render_arrangement(worth_less, get_rules("2-4")).splitlines()
    assert text[0].startswith("Cards: ")
    assert text[1] == "Naturals: six pairs; left unset, the hand claims the first"
    assert json.loads(render_json(arrange_views.arrangement_data(worth_less)))["recommend"] is None


# Fantasyland hands -----------------------------------------------------------------------

#: Hands of 14 and 15 cards that stay in Fantasyland only if staying counts:
#: the best setting for this deal alone keeps no trips in front, no full house in
#: the middle, no quads in the back.
STAY_IF_IT_COUNTS = [
    "Qh 8d Qd 3h 8c 8h Ad 5h Kd 6d 2c 5d 5s Jd",
    "Tc Th 5d Ts 5s Qh 4h 8h Ac 6c 7c 6h Js 3h 5c",
]


def _stays(setting, rules):
    core = evaluate_core(*row_codes(setting.hand), rules)
    assert core.foul is None
    return fantasyland(core, rules, True).next


@pytest.mark.parametrize("count", [14, 15, 16, 17])
@pytest.mark.parametrize("preset", ["pineapple", "ofc"])
def test_a_fantasyland_hand_keeps_13_cards(count, preset):
    rules = get_rules(preset)
    for seed in range(2):
        cards = random.Random(count * 10 + seed).sample(CARDS, count)
        settings = arrange(cards, rules, 4)
        assert len(settings) == 4
        assert len({(str(s.hand), tuple(s.discards)) for s in settings}) == 4
        assert [s.worth for s in settings] == sorted((s.worth for s in settings), reverse=True)
        for setting in settings:
            assert len(setting.hand.cards()) == 13 and len(setting.discards) == count - 13
            assert sorted(setting.hand.cards() + setting.discards) == sorted(cards)
            assert setting.fantasyland == (FANTASYLAND_VALUE if _stays(setting, rules) else 0.0)
            assert setting.worth == setting.expected + setting.fantasyland


@pytest.mark.parametrize("count", [14, 15])
def test_without_a_value_for_staying_it_is_the_best_13_cards(count):
    rules = get_rules("pineapple")
    cards = random.Random(count).sample(CARDS, count)
    best = max(arrange(list(kept), rules, 1)[0].expected for kept in itertools.combinations(cards, 13))
    assert arrange(cards, rules, 1, fantasyland_value=0.0)[0].expected == pytest.approx(best, abs=1e-12)


@pytest.mark.parametrize("cards", STAY_IF_IT_COUNTS, ids=["14-cards", "15-cards"])
def test_a_hand_that_can_stay_keeps_a_staying_setting_when_it_is_worth_it(cards):
    rules = get_rules("pineapple")
    hand = parse_cards(cards)
    plain = arrange(hand, rules, 1, fantasyland_value=0.0)[0]
    assert not _stays(plain, rules)
    staying = arrange(hand, rules, 1)[0]
    assert _stays(staying, rules) and staying.fantasyland == FANTASYLAND_VALUE
    assert staying.expected < plain.expected < staying.worth
    assert not arrange(hand, rules, 1, fantasyland_value=0.5)[0].fantasyland  # too little to give up units for


def test_13_cards_in_fantasyland_count_staying_when_asked():
    rules = get_rules("ofc")
    cards = parse_cards("Qh 8d Qd 3h 8c 8h Ad 5h Kd 6d 5d 5s Jd")
    assert arrange(cards, rules, 1) == arrange(cards, rules, 1, fantasyland=False)
    assert not arrange(cards, rules, 1, fantasyland_value=100.0)[0].fantasyland  # not in Fantasyland: no value
    staying = arrange(cards, rules, 1, fantasyland=True, fantasyland_value=100.0)[0]
    assert _stays(staying, rules) and staying.discards == ()


def brute_force_fantasyland(cards, rules, stay_values):
    """For each value of staying, the best worth over every 13 of the cards and
    every legal setting of them, the slow way."""
    model = _Model(rules)
    best = dict.fromkeys(stay_values, float("-inf"))
    for kept in itertools.combinations(cards, 13):
        for core, estimate in every_setting(kept, rules, model):
            stays = fantasyland(core, rules, True).next
            for value in stay_values:
                best[value] = max(best[value], estimate + (value if stays else 0))
    return best


@pytest.mark.slow
def test_fantasyland_agrees_with_brute_force():
    rules = get_rules("pineapple")
    cards = parse_cards(STAY_IF_IT_COUNTS[0])
    for stay_value, best in brute_force_fantasyland(cards, rules, (6.0, 2.0, 0.0)).items():
        got = arrange(cards, rules, 1, fantasyland_value=stay_value)[0]
        assert got.worth == pytest.approx(best, abs=1e-12), stay_value


def test_the_views_show_discards_and_staying():
    rules = get_rules("pineapple")
    made = arrangement(parse_cards(STAY_IF_IT_COUNTS[1]), rules, 2)
    text = arrange_views.render_arrangement(made, rules)
    lines = text.splitlines()
    assert lines[1] == "Fantasyland: 15 cards, 13 kept; staying in counts 6 units"
    best = made.settings[0]
    assert lines[4] == f"   expected {best.expected:+.2f} units, and +6.00 for staying in Fantasyland"
    assert f"   Discard: {' '.join(map(str, best.discards))}\n" in text
    data = json.loads(render_json(arrange_views.arrangement_data(made)))
    assert data["fantasyland_value"] == 6 and data["naturals"] == [] and data["recommend"] is None
    first = data["settings"][0]
    assert first["discards"] == [str(card) for card in best.discards] and len(first["discards"]) == 2
    assert (first["stays"], first["fantasyland"]) == (True, 6)
    assert sorted(first["hand"].replace("/ ", "").split() + first["discards"]) == sorted(STAY_IF_IT_COUNTS[1].split())


@pytest.mark.parametrize(
    ("count", "preset", "options", "error", "message"),
    [
        (12, "2-4", {}, CardError, "12 cards: the arranger takes 13 different cards"),
        (1, "2-4", {}, CardError, "1 card: the arranger takes 13 different cards"),
        (14, "2-4", {}, CardError, "14 to 17 only under rules with Fantasyland (such as ofc or pineapple), not 2-4"),
        (17, "taiwanese", {}, CardError, "14 to 17 only under rules with Fantasyland"),
        (12, "pineapple", {}, CardError, "12 cards: the arranger takes 13 different cards, or 14 to 17 in Fantasyland"),
        (18, "ofc", {}, CardError, "18 cards: the arranger takes 13 different cards, or 14 to 17 in Fantasyland"),
        (13, "2-4", {"fantasyland": True}, RulesError, "the 2-4 rules have no Fantasyland"),
        (14, "ofc", {"fantasyland": False}, CardError, "14 cards are a Fantasyland hand"),
    ],
    ids=[
        "12",
        "1",
        "14-no-fantasyland",
        "17-no-fantasyland",
        "12-pineapple",
        "18-ofc",
        "asked-no-fantasyland",
        "14-plain",
    ],
)
def test_a_count_the_rules_do_not_take_says_what_to_pass(count, preset, options, error, message):
    cards = random.Random(count).sample(CARDS, count)
    with pytest.raises(error, match=message.replace("(", r"\(").replace(")", r"\)")) as raised:
        arrangement(cards, get_rules(preset), **options)
    assert isinstance(raised.value, CpscoreError)


def test_a_card_given_twice_is_an_error():
    cards = parse_cards(HAND)
    with pytest.raises(CardError, match="Ah is given twice: the arranger takes different cards"):
        arrange([*cards[:12], cards[0]], get_rules("2-4"))


def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input)


def test_cli_table():
    result = run("arrange", "--top", "1", *HAND.split())
    assert result.exit_code == 0, result.stderr
    assert result.stdout == (
        "Cards: Ah Ad Ac 7s 7d Ks Kd 4c 9h 9c 5d 5s 2c  (rules 2-4)\n"
        "Naturals: none\n"
        "\n"
        "1. 7s 7d 4c / Ks Kd 5d 5s 2c / Ah Ad Ac 9h 9c\n"
        "   expected +3.21 units\n"
        "   front  pair of sevens              wins  98%  ties   0%  loses   2%\n"
        "   middle two pair, kings and fives   wins  73%  ties   0%  loses  27%\n"
        "   back   aces full of nines          wins  92%  ties   0%  loses   8%\n"
        "   bonus +0.95\n"
    )


def test_cli_json_and_files(tmp_path):
    hands = tmp_path / "hands.txt"
    hands.write_text(f"# two hands\n{HAND}\n2h 3d 4c 5s 6h 7d 8c 9s Th Jd Qc Ks Ah\n")
    data = json.loads(run("arrange", "--format", "json", str(hands)).stdout)
    assert [len(item["settings"]) for item in data] == [3, 3]
    assert data[0]["settings"][0]["hand"] == "7s 7d 4c / Ks Kd 5d 5s 2c / Ah Ad Ac 9h 9c"
    assert data[0]["settings"][0]["expected"] == 3.209
    assert set(data[0]["settings"][0]) == {"hand", "expected", "rows", "bonus", "royalties"}
    assert data[1]["naturals"] == ["dragon", "three-straights"]
    piped = json.loads(run("arrange", "--format", "json", "--top", "1", "-", input=HAND + "\n").stdout)
    assert piped[0]["cards"] == HAND.split()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["arrange", "Ah", "Kd"], "Error: 2 cards: the arranger takes 13 different cards"),
        (["arrange", *HAND.replace("2c", "Xx").split()], "Error: unknown card 'Xx'"),
        (
            ["arrange", *HAND.replace("2c", "Ah").split()],
            "Error: Ah is given twice: the arranger takes 13 different cards",
        ),
        (["arrange"], "Error: no cards"),
        (["arrange", "--top", "0", *HAND.split()], "Invalid value for '--top'"),
        (
            ["arrange", *STAY_IF_IT_COUNTS[0].split()],
            "Error: 14 cards: the arranger takes 13 different cards, with no rows;"
            " 14 to 17 only under rules with Fantasyland (such as --rules pineapple)",
        ),
        (
            ["arrange", "--rules", "pineapple", "Ah", "Kd"],
            "Error: 2 cards: the arranger takes 13 different cards, or 14 to 17 in Fantasyland, with no rows",
        ),
        (
            ["arrange", "--rules", "ofc", *STAY_IF_IT_COUNTS[0].split(), "2s", "2h", "2d", "Kc"],
            "Error: 18 cards: the arranger takes 13 different cards, or 14 to 17 in Fantasyland, with no rows",
        ),
    ],
    ids=["2-cards", "unknown", "twice", "none", "top-0", "14-without-fantasyland", "2-fantasyland", "18-fantasyland"],
)
def test_cli_errors(args, message):
    result = run(*args)
    assert result.exit_code == 2
    assert message in result.stderr
    assert result.stdout == ""


def test_cli_reads_a_file_with_a_short_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "h.txt").write_text(HAND + "\n")
    data = json.loads(run("arrange", "--format", "json", "--top", "1", "h.txt").stdout)
    assert data[0]["cards"] == HAND.split()
    together = json.loads(run("arrange", "--format", "json", "--top", "1", HAND.replace(" ", "")).stdout)
    assert together[0]["cards"] == HAND.split()


def test_cli_fantasyland_hands_and_the_natural_first(tmp_path):
    hands = tmp_path / "hands.txt"
    hands.write_text("\n".join(STAY_IF_IT_COUNTS) + "\n")
    result = run("arrange", "--rules", "pineapple", "--top", "1", str(hands))
    assert result.exit_code == 0, result.stderr
    assert "Fantasyland: 14 cards, 13 kept; staying in counts 6 units\n" in result.stdout
    assert "Fantasyland: 15 cards, 13 kept; staying in counts 6 units\n" in result.stdout
    assert result.stdout.count("   Discard: ") == 2
    data = json.loads(run("arrange", "--rules", "ofc", "--format", "json", "--top", "1", str(hands)).stdout)
    assert [len(item["settings"][0]["discards"]) for item in data] == [1, 2]
    dragon = run("arrange", "--rules", "1-6", "--top", "1", DRAGON)
    assert dragon.stdout.startswith("Declare the dragon: 13 units from each opponent, more than the best setting (+")


# What the rules change ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "options", "message"),
    [
        (
            changed("2-4", low_middle=True),
            {},
            "the arranger does not play the middle low (low_middle, rules 2-4): its baseline plays it high;"
            " arrange under a rule file with low_middle = false",
        ),
        (
            changed("ofc", royalties={"max_per_hand": 2}),
            {},
            "the arranger does not model max_per_hand = 2 (rules ofc): it counts every royalty a hand holds;"
            " arrange under a rule file with max_per_hand = 0",
        ),
        (
            changed("shisanshui", pairing="banker", banker_wins_ties=True),
            {},
            "under the shisanshui rules tied rows go to the banker (banker_wins_ties): say whether the hand is the"
            " banker's (--banker) or a player's (--player)",
        ),
        (
            changed("capsa", pairing="banker", home_run_min_opponents=1),
            {},
            "under the capsa rules only the banker makes a home run (home_run_min_opponents = 1): say whether the"
            " hand is the banker's (--banker) or a player's (--player)",
        ),
        (
            changed("shisanshui", pairing="banker", banker_wins_ties=True, home_run_min_opponents=1),
            {},
            "under the shisanshui rules tied rows go to the banker (banker_wins_ties) and only the banker makes a home"
            " run (home_run_min_opponents = 1): say whether the hand is the banker's (--banker) or a player's"
            " (--player)",
        ),
        (
            get_rules("2-4"),
            {"banker": True},
            "the 2-4 rules settle every pair: there is no banker (leave out --banker and --player)",
        ),
    ],
    ids=["low-middle", "max-per-hand", "banker-wins-ties", "banker-home-run", "both", "no-banker"],
)
def test_a_setting_it_does_not_model_is_refused_with_what_to_do(rules, options, message):
    with pytest.raises(RulesError) as raised:
        arrangement(parse_cards(HAND), rules, **options)
    assert str(raised.value) == message


@pytest.mark.parametrize(
    ("preset", "settings"),
    [
        ("2-4", {"foul_plays": True}),
        ("taiwanese", {"foul_plays": True}),
        ("2-4", {"criss_cross": "corresponding"}),
        ("shisanshui", {"home_run_min_opponents": 3}),
        ("taiwanese", {"home_run_min_opponents": 2}),
        ("shisanshui", {"home_run_split": "equal"}),
        ("shisanshui", {"home_run_min_opponents": 1, "home_run_split": "equal"}),
        ("capsa", {"pairing": "banker"}),
        ("shisanshui", {"pairing": "banker", "banker_rotation": "next"}),
        ("pusoy", {"pairing": "all", "banker_rotation": "fixed"}),
        ("shisanshui", {"cap": 40}),
        ("shisanshui", {"cap": 40, "cap_scope": "session"}),
        ("ofc", {"table_stakes": 100}),
        ("ofc", {"table_stakes": True}),
        ("maubinh", {"natural_vs_natural": "higher"}),
        ("capsa", {"natural_suit_tiebreak": False}),
        ("maubinh", {"false_claim": False}),
        ("2-4", {"six_pairs_odd_card": True}),
        ("2-4", {"surrender": False}),
        ("ofc", {"fantasyland_cards": 14}),
    ],
    ids=[
        "foul-plays",
        "foul-plays-doubled",
        "criss-cross",
        "home-run-of-3",
        "home-run-of-2",
        "home-run-split",
        "home-run-split-of-1",
        "banker-pairing",
        "banker-rotation",
        "pusoy-without-banker",
        "cap",
        "cap-session",
        "table-stakes",
        "table-stakes-buy-in",
        "natural-vs-natural",
        "natural-suit-tiebreak",
        "false-claim",
        "six-pairs-odd-card",
        "surrender",
        "fantasyland-cards",
    ],
)
def test_a_setting_that_does_not_choose_the_setting_changes_nothing(preset, settings):
    """Settings the estimate leaves out on purpose (the module notes say why):
    the same settings with the same estimates, with and without them."""
    base = get_rules(preset)
    other = changed(preset, **settings)
    if settings.get("home_run_split") == "equal" and "home_run_min_opponents" in settings:
        base = changed(preset, home_run_min_opponents=1)  # one opponent: an equal split of one pair is the pair
    for seed in range(2):
        cards = random.Random(seed).sample(CARDS, 13)
        for count in (13, 14) if base.ofc.fantasyland != "none" else (13,):
            hand = cards + [card for card in CARDS if card not in cards][:1] if count == 14 else cards
            ours = [(str(s.hand), s.expected, s.discards) for s in arrange(hand, base, 3)]
            assert [(str(s.hand), s.expected, s.discards) for s in arrange(hand, other, 3)] == ours


def test_suits_split_the_ties_and_a_suit_foul_is_never_set():
    cards = parse_cards(FLUSHES)
    pusoy, capsa = get_rules("pusoy"), get_rules("capsa")
    settings = arrange(cards, pusoy, 10)
    assert str(settings[0].hand) == "Qc 8h 2c / Ks Js 9s 6s 3s / Kd Jd 9d 6d 3d"  # diamonds above spades
    for setting in settings:
        assert evaluate_core(*row_codes(setting.hand), pusoy).foul is None
        assert all(row.tie == 0 for row in setting.rows)
    flipped = "Qc 8h 2c / Kd Jd 9d 6d 3d / Ks Js 9s 6s 3s"
    assert evaluate_core(*row_codes(parse_hand(flipped)), pusoy).foul.by_suit
    assert flipped not in {str(setting.hand) for setting in settings}
    assert {str(setting.hand) for setting in arrange(cards, capsa, 2)} == {flipped, str(settings[0].hand)}


def _opponents_rows(codes, held):
    """Every row the opponent can hold in our row's ranks and category, the slow way."""
    from cpscore.hands import evaluate3, evaluate5

    evaluate = evaluate3 if len(codes) == 3 else evaluate5
    ranks = sorted(code // 4 for code in codes)
    free = [code for code in range(52) if code not in held and code // 4 in ranks]
    for row in itertools.combinations(free, len(codes)):
        if sorted(code // 4 for code in row) == ranks and evaluate(row) == evaluate(codes):
            yield row


@pytest.mark.parametrize(
    ("row", "hand", "order"),
    [
        ("As Ah 7d", "", "shcd"),
        ("Ad Ac 7d", "", "shcd"),
        ("Ad Ac 7d", "As", "shcd"),
        ("Kh Qh 9c", "Kd", "shcd"),
        ("7s 7h 7d", "7c", "shcd"),
        ("Kd Jd 9d 6d 3d", "Ks Js 9s 6s 3s", "dchs"),
        ("Ks Js 9s 6s 3s", "Kd", "dchs"),
        ("Ah Kd Qc Js 9h", "Ac 9c", "shcd"),
        ("5h 4d 3c 2s Ah", "5s", "shcd"),
        ("9h 9c 5d 5s 2c", "Ks Kd 4c 9s", "hsdc"),
        ("Ts Th Td 3s 3h", "", "shcd"),
        ("Ts Th Td 3s 3h", "Tc", "shcd"),
    ],
    ids=[
        "top-pair",
        "bottom-pair",
        "bottom-pair-as-held",
        "high-card-front",
        "trips-none-left",
        "flush",
        "flush-top-suit",
        "five-ranks",
        "wheel",
        "two-pair",
        "full-house",
        "full-house-none-left",
    ],
)
def test_the_suit_split_is_the_kernels_order_over_the_opponents_rows(row, hand, order):
    """The share of the opponent's rows of our ranks that ours beats on suits
    is what the kernel's suit key says, counted over every such row."""
    from cpscore.hands import evaluate_row

    strength = [3 - order.index(suit) for suit in "cdhs"]
    codes = [card.code for card in parse_cards(row)]
    held = codes + [card.code for card in parse_cards(hand)]
    plain = evaluate_row(parse_cards(row))
    ours = suit_key(codes, plain, strength)
    theirs = [suit_key(other, plain, strength) for other in _opponents_rows(codes, set(held))]
    expected = sum(key < ours for key in theirs) / len(theirs) if theirs else 0.5
    assert _suit_share(codes, plain, sum(1 << code for code in held), strength) == pytest.approx(expected)


@pytest.mark.parametrize(
    "text",
    [
        'preset = "ofc"\n',
        'preset = "ofc"\n[royalties]\nspade_bonus = "own"\n',
        RANK_ENTRIES,
        RANK_ENTRIES + '\n[royalties]\nspade_bonus = "own"\n',
        'preset = "pusoy"\n',
    ],
    ids=["ofc", "spade-own", "rank-entries", "rank-entries-spade-own", "pusoy"],
)
def test_a_holders_royalty_term_is_the_kernels_royalty(text):
    """In holder mode, without the opponent's 2s to weigh, a row's royalty term
    is the royalty the kernel gives it (rank entries and the spade bonus
    included): the estimate reads the same lookup."""
    rules = rule_file(text)
    model = _model(rules)
    # With a spade bonus, hands that hold 2s (else the opponent may, and its doubling counts).
    for hand in (SPADE, BROKEN) if rules.royalties.spade_bonus else (SPADE, RANKS, BROKEN):
        cards = parse_cards(hand)
        codes = [card.code for card in cards]
        rng = random.Random(hand)
        for _ in range(300):
            order = rng.sample(codes, 13)
            rows = (order[:3], order[3:8], order[8:])
            core = evaluate_core(*rows, rules)
            if core.foul:
                continue
            terms = [model.row_chances(name, row, codes).royalty for name, row in zip(ROW_NAMES, rows)]
            assert terms == [float(amount) for amount in core.royalties]


def test_the_spade_bonus_doubles_the_royalty_of_the_row_with_2s():
    cards = parse_cards(SPADE)
    plain = arrange(cards, get_rules("ofc"), 1)[0]
    own = arrange(cards, changed("ofc", royalties={"spade_bonus": "own"}), 1)[0]
    row = arrange(cards, changed("ofc", royalties={"spade_bonus": "row"}), 1)[0]
    back = 6  # the back's full house of 2s, 2s in it
    assert str(plain.hand) == str(own.hand) == "Ks Kd Ac / 4s 5s 6s 7s 8d / 2s 2h 2d 9c 9h"
    assert own.royalties == pytest.approx(plain.royalties + back)
    opponents_back = _model(get_rules("ofc"))._sums["back"]["average"][0]  # doubled too under "row"
    assert row.royalties == pytest.approx(plain.royalties + back - opponents_back)


@pytest.mark.parametrize("hand", [BROKEN, RANKS, SPADE, "7s 7h 7d 7c 6h 5h 4h 3h 8h 8s 8d 8c Ks"], ids=range(4))
def test_broken_royalties_are_the_kernels(hand):
    rules = rule_file('preset = "ofc"\n[royalties]\nbroken_royalties = true\n')
    cards = parse_cards(hand)
    codes = [card.code for card in cards]
    rows = _Rows(codes, _model(rules))
    rng = random.Random(hand)
    for _ in range(500):
        order = rng.sample(range(13), 13)
        masks = [sum(1 << i for i in part) for part in (order[:3], order[3:8], order[8:])]
        assert rows.broken(*masks) == float(broken_royalties([codes[i] for i in order], rules))
        assert rows.broken(*masks) <= rows.broken_most


def test_broken_royalties_count_in_the_setting_and_its_view():
    rules = rule_file('preset = "2-4"\n[royalties]\nbroken_royalties = true\n[royalties.back]\nquads = 5\n')
    made = arrangement(parse_cards(BROKEN), rules, 1)
    best = made.settings[0]
    assert best.royalties == float(evaluate_core(*row_codes(best.hand), rules).broken) > 0
    assert f"bonus {best.bonus:+.2f}, royalties {best.royalties:+.2f}" in arrange_views.render_arrangement(made, rules)


def test_the_wheel_ranks_second_where_the_rules_say():
    wheel = [card.code for card in parse_cards("Ah 2d 3c 4s 5h")]
    king = [card.code for card in parse_cards("9h Td Jc Qs Kh")]
    for preset, wheel_wins_more in (("2-4", False), ("shisanshui", True), ("maubinh", True)):
        model = _model(get_rules(preset))
        chances = [model.row_chances("back", row, row).win for row in (wheel, king)]
        assert (chances[0] > chances[1]) == wheel_wins_more, preset


@pytest.mark.parametrize(
    ("rules", "banker", "multipliers"),
    [
        (get_rules("shisanshui"), None, (2, 2)),
        (changed("shisanshui", home_run_min_opponents=1), None, (4, 4)),
        (changed("ofc", home_run=True, home_run_min_opponents=1), None, (2, 2)),
        (changed("shisanshui", pairing="banker", home_run_min_opponents=1), True, (4, 2)),
        (changed("shisanshui", pairing="banker", home_run_min_opponents=1), False, (2, 4)),
        (changed("2-4", home_run=True, home_run_min_opponents=2), None, (1, 1)),
    ],
    ids=["scoop-doubles", "home-run-of-1", "home-run-no-doubling", "banker", "player", "home-run-of-2"],
)
def test_a_scoop_of_the_one_opponent_is_a_home_run_of_1(rules, banker, multipliers):
    model = _model(rules, banker)
    assert model.multipliers == multipliers
    units = 3 + sum(METHOD_BONUSES[rules.methods.method])
    scoop = model.value(1, 0, 0, 1, 0, 0, 1, 0, 0)[0]
    scooped = model.value(0, 1, 0, 0, 1, 0, 0, 1, 0)[0]
    holder = model.opponent_holder if rules.royalties.mode == "holder" else 0.0
    assert (scoop + holder, scooped + holder) == (units * multipliers[0], -units * multipliers[1])


def test_ties_go_to_the_banker_in_the_estimate_and_the_simulation():
    rules = changed("shisanshui", pairing="banker", banker_wins_ties=True)
    cards = parse_cards(TIES)
    banker, player = (arrangement(cards, rules, 1, 100, banker=role).settings[0] for role in (True, False))
    assert all(row.tie == 0 for row in banker.rows + player.rows)
    assert banker.expected > player.expected
    assert banker.simulated > player.simulated
    plain = arrange(cards, get_rules("shisanshui"), 1)[0]
    assert [b.win for b in banker.rows] == pytest.approx([p.win + p.tie for p in plain.rows])


@pytest.mark.parametrize(
    ("cards", "rules", "naturals", "recommend"),
    [
        (
            "6h 7d 8c 9s Th Jd Qc Ks Ah 6d 7c 8s 9h",
            'preset = "2-4"\n[naturals]\nsix-and-higher = 20\n',
            ["six-and-higher"],
            "six-and-higher",
        ),
        (
            "2h 4h 6h 8h Th Qh 2d 4d 6d 8d Td Qd As",
            'preset = "2-4"\n[naturals]\ntwelve-one-colour = 20\n',
            ["twelve-one-colour", "six-pairs"],
            "twelve-one-colour",
        ),
        (
            "As Ah Ad Ks Kh Qs Qh Js Jh 9s 9h 5c 5d",
            "maubinh",
            ["five-pairs-trips", "six-pairs"],
            "five-pairs-trips",
        ),
        # Claimed by rank: five pairs and trips (5) come before six pairs (6) under shisanshui.
        ("As Ah Ad Ks Kh Qs Qh Js Jh 9s 9h 5c 5d", "shisanshui", ["five-pairs-trips", "six-pairs"], "five-pairs-trips"),
        ("5s 5h 6s 6d 7c 7h 8s 8d 9c 9h Kc Qd 2c", "maubinh", ["five-consecutive-pairs"], "five-consecutive-pairs"),
        (HAND, "maubinh", [], None),
    ],
    ids=[
        "six-and-higher",
        "twelve-one-colour",
        "five-pairs-trips",
        "claimed-by-rank",
        "five-consecutive-pairs",
        "none",
    ],
)
def test_the_new_naturals_are_claimed_in_the_rules_order(cards, rules, naturals, recommend):
    rules = get_rules(rules) if "=" not in rules else rule_file(rules)
    made = arrangement(parse_cards(cards), rules, 1)
    assert made.naturals == naturals
    assert made.recommend == recommend
    if naturals:  # the first is the one claimed, and what it collects
        assert made.natural_units == rules.naturals.units[naturals[0]]
        assert detect(parse_cards(cards), None, rules).id == naturals[0]
        assert (recommend is not None) == (float(made.natural_units) > made.settings[0].worth)


def test_a_hand_without_a_natural_is_never_declared_a_false_claim():
    rules = get_rules("maubinh")  # false_claim = 6
    for seed in range(20):
        made = arrangement(random.Random(seed).sample(CARDS, 13), rules, 1)
        assert made.recommend is None or made.recommend in made.naturals


@pytest.mark.parametrize("preset", ["pineapple", "pineapple-ru"])
def test_standard_fantasyland_of_14_cards_discards_one(preset):
    rules = get_rules(preset)
    assert (rules.ofc.fantasyland, rules.ofc.fantasyland_cards) == ("standard", 14)
    cards = parse_cards(STAY_IF_IT_COUNTS[0])
    made = arrangement(cards, rules, 2, 50)
    assert made.fantasyland == FANTASYLAND_VALUE
    for setting in made.settings:
        assert len(setting.discards) == 1 and setting.simulated is not None
        core = evaluate_core(*row_codes(setting.hand), rules)
        land = fantasyland(core, rules, True)
        assert (land.next, land.cards) == ((True, 14) if setting.fantasyland else (False, None))


def test_the_simulation_settles_units_without_caps_and_table_stakes():
    cards = parse_cards(HAND)
    free = arrangement(cards, changed("pineapple-ru", table_stakes=False), 3, 60)
    staked = arrangement(cards, get_rules("pineapple-ru"), 3, 60)  # table_stakes = true: no buy-in to give
    capped = arrangement(cards, changed("pineapple-ru", table_stakes=False, cap=1), 3, 60)
    assert [s.simulated for s in staked.settings] == [s.simulated for s in free.settings]
    assert [s.simulated for s in capped.settings] == [s.simulated for s in free.settings]


def test_the_simulated_baseline_never_fouls_on_suits():
    rules = get_rules("pusoy")
    seen = []

    def settle(seats, settling, **options):
        seen.append(evaluate_core(*row_codes(seats[1].hand), rules).foul)
        return kernel(seats, settling, **options)

    import cpscore.arrange as module

    original = module.kernel
    module.kernel = settle
    try:
        arrangement(parse_cards(HAND), rules, 1, 200)
    finally:
        module.kernel = original
    assert seen and not any(seen)


@pytest.mark.parametrize(
    ("rule_text", "options", "message"),
    [
        (
            'preset = "ofc"\n[royalties]\nmax_per_hand = 1\n',
            [],
            "Error: the arranger does not model max_per_hand = 1 (rules house): it counts every royalty a hand"
            " holds; arrange under a rule file with max_per_hand = 0\n",
        ),
        (
            'preset = "shisanshui"\npairing = "banker"\nbanker_wins_ties = true\n',
            [],
            "Error: under the house rules tied rows go to the banker (banker_wins_ties): say whether the hand is"
            " the banker's (--banker) or a player's (--player)\n",
        ),
        (
            'preset = "2-4"\n',
            ["--player"],
            "Error: the house rules settle every pair: there is no banker (leave out --banker and --player)\n",
        ),
    ],
    ids=["max-per-hand", "banker-wins-ties", "no-banker"],
)
def test_cli_refuses_what_it_does_not_model(tmp_path, rule_text, options, message):
    rules = tmp_path / "house.toml"
    rules.write_text(rule_text)
    for cards in (HAND.split(), ["Ah"]):  # said before any hand is read
        result = run("arrange", "--rules", str(rules), *options, *cards)
        assert (result.exit_code, result.stdout, result.stderr) == (2, "", message)


def test_cli_banker_and_player_and_the_new_presets(tmp_path):
    rules = tmp_path / "ties.toml"
    rules.write_text('preset = "shisanshui"\npairing = "banker"\nbanker_wins_ties = true\n')
    banker = json.loads(run("arrange", "--rules", str(rules), "--banker", "--format", "json", TIES).stdout)
    player = json.loads(run("arrange", "--rules", str(rules), "--player", "--format", "json", TIES).stdout)
    assert banker[0]["settings"][0]["expected"] > player[0]["settings"][0]["expected"]
    for preset in ARRANGED:
        result = run("arrange", "--rules", preset, "--top", "1", "--simulate", "20", HAND)
        assert result.exit_code == 0, (preset, result.stderr)
    staked = run("arrange", "--rules", "pineapple-ru", "--top", "1", "--simulate", "20", STAY_IF_IT_COUNTS[0])
    assert staked.exit_code == 0, staked.stderr
    assert "Fantasyland: 14 cards, 13 kept; staying in counts 6 units\n" in staked.stdout
    capsa = run("arrange", "--rules", "capsa", "--top", "1", FLUSHES).stdout
    assert capsa.count("ties   0%") == 3
