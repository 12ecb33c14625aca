"""The arranger: legal settings, agreement with a brute-force search, the CLI."""

import itertools
import json
import random

import pytest
from click.testing import CliRunner

from cpscore import _baseline, baselinegen
from cpscore.arrange import _Model, arrange, arrangement
from cpscore.cards import CARDS, parse_cards
from cpscore.cli import main
from cpscore.errors import RulesError
from cpscore.hands import evaluate_row
from cpscore.rules import _merge, from_settings, get_rules
from cpscore.scoring import evaluate_core

HAND = "Ah Ad Ac 7s 7d Ks Kd 4c 9h 9c 5d 5s 2c"


@pytest.mark.slow
def test_shipped_baseline_table_equals_a_fresh_build():
    fresh = baselinegen.build_table()
    assert baselinegen.BASELINE_PATH.read_text(encoding="utf-8") == baselinegen.render(fresh)
    assert _baseline.SAMPLES == baselinegen.SAMPLES


def brute_force(cards, rules):
    """The best estimate over every legal split, the slow way."""
    model = _Model(rules)
    best = None
    for back in itertools.combinations(cards, 5):
        rest = [card for card in cards if card not in back]
        for middle in itertools.combinations(rest, 5):
            front = [card for card in rest if card not in middle]
            core = evaluate_core(*([card.code for card in row] for row in (front, middle, back)), rules)
            if core.foul:
                continue
            chances = (
                model.row("front", core.plains[0]),
                model.row("middle", core.plains[1]),
                model.row("back", core.plains[2]),
            )
            estimate = model.expected(*chances)[0]
            if best is None or estimate > best:
                best = estimate
    return best


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["2-4", "1-6", "ofc", "taiwanese"])
def test_agrees_with_brute_force(preset):
    rng = random.Random(preset)
    rules = get_rules(preset)
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
    rules = from_settings(_merge(get_rules("2-4").settings(), {"low_middle": True}), "test")
    with pytest.raises(RulesError, match="does not play the middle low"):
        arrange(parse_cards(HAND), rules)


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
    ],
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
