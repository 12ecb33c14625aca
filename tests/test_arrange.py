"""The arranger: legal settings, agreement with a brute-force search, the CLI."""

import itertools
import json
import random

import pytest
from click.testing import CliRunner

from cpscore import _baseline, arrange_views, baselinegen
from cpscore.arrange import FANTASYLAND_VALUE, _combos, _Model, _model, _Rows, arrange, arrangement
from cpscore.cards import CARDS, parse_cards
from cpscore.cli import main
from cpscore.errors import CardError, CpscoreError, RulesError
from cpscore.formatting import render_json
from cpscore.hands import evaluate3, evaluate5, evaluate_row
from cpscore.rules import _merge, from_settings, get_rules
from cpscore.scoring import evaluate_core, fantasyland, row_codes

HAND = "Ah Ad Ac 7s 7d Ks Kd 4c 9h 9c 5d 5s 2c"
DRAGON = "2h 3d 4c 5s 6h 7d 8c 9s Th Jd Qc Ks Ah"


def changed(preset, **settings):
    """A rule set made anew from a preset with some settings changed."""
    return from_settings(_merge(get_rules(preset).settings(), settings), "test")


@pytest.mark.slow
def test_shipped_baseline_table_equals_a_fresh_build():
    fresh = baselinegen.build_table()
    assert baselinegen.BASELINE_PATH.read_text(encoding="utf-8") == baselinegen.render(fresh)
    assert _baseline.SAMPLES == baselinegen.SAMPLES


def every_setting(cards, rules, model):
    """(core, estimate) of every legal split of 13 cards, the slow way."""
    for back in itertools.combinations(cards, 5):
        rest = [card for card in cards if card not in back]
        for middle in itertools.combinations(rest, 5):
            front = [card for card in rest if card not in middle]
            core = evaluate_core(*([card.code for card in row] for row in (front, middle, back)), rules)
            if not core.foul:
                chances = (model.row(name, plain) for name, plain in zip(("front", "middle", "back"), core.plains))
                yield core, model.expected(*chances)[0]


def brute_force(cards, rules):
    """The best estimate over every legal split, the slow way."""
    return max(estimate for _, estimate in every_setting(cards, rules, _Model(rules)))


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["2-4", "1-6", "ofc", "taiwanese", "1-4"])
def test_agrees_with_brute_force(preset):
    rng = random.Random(preset)
    rules = changed("2-4", method="1-4", scoop_doubles=True) if preset == "1-4" else get_rules(preset)
    for _ in range(2):
        cards = rng.sample(CARDS, 13)
        assert arrange(cards, rules, 1)[0].expected == pytest.approx(brute_force(cards, rules), abs=1e-12)


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


def test_low_middle_is_refused():
    rules = changed("2-4", low_middle=True)
    with pytest.raises(RulesError, match="does not play the middle low"):
        arrange(parse_cards(HAND), rules)


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
    rows = _Rows(codes, _model(get_rules("2-4")), False)
    for combo, mask in zip(*_combos(13, 5)):
        assert rows.five[mask] == evaluate5([codes[i] for i in combo])
    for combo, mask in zip(*_combos(13, 3)):
        assert rows.three[mask] == evaluate3([codes[i] for i in combo])


@pytest.mark.parametrize("preset", ["2-4", "1-6", "ofc", "taiwanese", "1-4"])
@pytest.mark.parametrize("doubles", [False, True], ids=["single", "scoop-doubles"])
def test_the_quick_sum_is_the_estimate(preset, doubles):
    if preset == "1-4":
        model = _model(changed("2-4", method="1-4", scoop_doubles=doubles))
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
