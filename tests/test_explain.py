"""--explain: the reasoning a floor person would give, as a view of the settlement."""

import pytest
from click.testing import CliRunner

from cpscore.cards import parse_cards
from cpscore.cli import main
from cpscore.deal import Entry, build_deal
from cpscore.explain import deciding, explain
from cpscore.hands import evaluate_row
from cpscore.rules import get_rules, resolve_rules
from cpscore.scoring import settle

AMY = "Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d"
BOB = "Qs Jd 3c / Th Tc 8d 8s 3d / Kh Qh Jh 8h 2h"


def why(rules, hands, stake=1, surrender=()):
    rules = resolve_rules(rules) if isinstance(rules, str) else rules
    deal = build_deal(
        [Entry(name, text, "") for name, text in hands.items()]
        + [Entry(name, "surrender", "") for name in surrender if name not in hands],
        rules,
        [name for name in surrender if name in hands],
    )
    return explain(settle(deal, rules, stake))


def test_two_of_three_under_2_4_exactly():
    assert why("2-4", {"Amy": AMY, "Bob": BOB}) == (
        "Amy against Bob (2-4):\n"
        "  front   Amy's pair of kings (K-K-4) beats Bob's queen high (Q-J-3)\n"
        "          a pair over high card: +1\n"
        "  middle  Bob's two pair, tens and eights (T-T-8-8-3) beats Amy's two pair, nines and fives (9-9-5-5-2)\n"
        "          tens over nines: -1\n"
        "  back    Amy's aces full of sevens (A-A-A-7-7) beats Bob's king-high flush (K-Q-J-8-2)\n"
        "          a full house over a flush: +1\n"
        "  rows    +1 -1 +1 = +1\n"
        "  bonus   Amy wins two rows of three (2-4): the overall unit +1\n"
        "  units   +1 rows +1 bonus = +2: Bob pays Amy 2\n"
    )


@pytest.mark.parametrize(
    ("stronger", "weaker", "words"),
    [
        ("Kh Kd 4c", "Qs Jd 3c", "a pair over high card"),
        ("Th Tc 8d 8s 3d", "9h 9c 5d 5s 2c", "tens over nines"),
        ("Ah Ad 9c 5s 2h", "As Ac 8d 7s 6h", "then 9 over 8"),
        ("Kh Qh Jh 8h 3h", "Ks Qs Js 8s 2s", "then 3 over 2"),
        ("Ah Ad Ac 7s 7d", "Kh Qh Jh 8h 2h", "a full house over a flush"),
        ("9s 9h 9d 9c 4h", "As Ad 6s 6h 7c", "quads over two pair"),
    ],
)
def test_deciding_ranks(stronger, weaker, words):
    assert deciding(evaluate_row(parse_cards(stronger)), evaluate_row(parse_cards(weaker))) == words


def test_tie_line():
    text = why(
        "2-4",
        {"A": "Qc Jd 3c / 8h 8c 7d 6s 4c / Ah Kh Qh Jh 9h", "B": "Qd Jc 3d / 8d 8s 7c 6c 4d / As Ks Qs Js 9s"},
    )
    assert "  front   tie: both queen high (Q-J-3)\n          0\n" in text
    assert "  middle  tie: both pair of eights (8-8-7-6-4)\n" in text
    assert "tie: both ace-high flush (A-K-Q-J-9)" in text
    assert "units   0 rows = 0: nothing changes hands" in text


def test_foul_names_rows_and_deciding_ranks():
    text = why("1-6", {"Amy": AMY, "Dan": "Qd Qc 3h / Jc Td 9d 6s 5c / Kc 7h 5h 4h 2d"})
    assert (
        "  Dan fouled: front pair of queens (Q-Q-3) beats middle jack high (J-T-9-6-5), a pair over high card: "
        "Dan loses every row and holds no royalties\n"
    ) in text
    assert "  front   Amy takes it\n          +1\n" in text
    assert "  bonus   Amy wins all three rows (1-6 scoop): +3\n" in text
    assert "  units   +3 rows +3 bonus = +6: Dan pays Amy 6\n" in text


def test_royalties_with_their_table_entries_and_money():
    text = why(
        "ofc",
        {"A": "Jc 9d 4s / Kh Kd 8s 6c 2d / 7s 7d 7h 7c Ad", "B": "Tc 8c 4c / Qh Qd 9h 5d 2c / As Js 9s 5s 3s"},
        10,
    )
    assert "royalties (paid by holder, ofc table): A back quads 10 = 10; B back flush 4 = 4; net +6" in text
    assert "units   +3 rows +3 bonus +6 royalties = +12; money +12 x 10 = +120: B pays A 120" in text
    rows = why(
        "taiwanese",
        {"Ann": "Qh Qd 2c / Kh Kd Kc 3h 3d / 9s 9h 9d 9c 4h", "Ben": "Js Jd 5c / Th Td 8c 8d 2d / Ac Ad 6s 6h 7c"},
    )
    assert "royalty +1 (middle full house 1 in the taiwanese table): +1" in rows
    assert "royalty +2 (back quads 2 in the taiwanese table): +1" in rows
    assert "royalties (row-bonus: a row's winner collects 1 + the table value; taiwanese table): +3" in rows
    assert "multiplier x2: Ann scoops Ben: doubled" in rows
    assert "units   (+3 rows +3 royalties) x 2 = +12: Ben pays Ann 12" in rows


def test_naturals_and_their_tie_breaks():
    text = why(
        "taiwanese",
        {
            "Dee": "2h 2d 4c 4s 6h 6d 8c 8s Th Td Qc Qs Ah",
            "Eve": "3h 5h 7h / 3c 5c 7c 9c Tc / 2s 5s 7s 9s Js",
        },
    )
    assert (
        "Dee's six pairs (6) against Eve's three flushes (3): Dee's natural ranks higher and collects its own value"
        in text
    )
    assert "units   natural +6 = +6: Eve pays Dee 6" in text
    tie = why(
        "taiwanese",
        {"A": "2h 2d 4c 4s 6h 6d 8c 8s Th Td Kc Ks Ah", "B": "2c 2s 4d 4h 6c 6s 8d 8h Tc Ts Kd Kh Qh"},
    )
    assert "both six pairs: A's pairs K-T-8-6-4-2, B's K-T-8-6-4-2: a tie" in tie
    from cpscore.rules import changed_settings, from_settings

    odd_card = from_settings(changed_settings(get_rules("taiwanese"), {"six_pairs_odd_card": True}), "test")
    odd = why(
        odd_card,
        {"A": "2h 2d 4c 4s 6h 6d 8c 8s Th Td Kc Ks Ah", "B": "2c 2s 4d 4h 6c 6s 8d 8h Tc Ts Kd Kh Qh"},
    )
    assert "both six pairs: A's pairs K-T-8-6-4-2 and odd A, B's K-T-8-6-4-2 and odd Q: A is higher" in odd
    dragons = why("2-4", {"A": "2h 3d 4c 5s 6h 7d 8c 9s Th Jd Qc Ks Ah", "B": "2d 3c 4s 5h 6d 7c 8s 9h Td Jc Qs Kh Ad"})
    assert "both dragon: docs/rules.md gives no tie-break, a tie" in dragons
    assert "nothing changes hands" in dragons


def test_surrender():
    text = why("2-4", {"Amy": AMY, "Bob": "Qs Qc 3c / Jh Tc 8d 6s 3d / Kh Qh Jd 8h 2h"}, surrender=["Carl"])
    assert "Carl surrenders: pays Amy the 2-4 surrender, 2.5; nothing else is paid" in text
    assert "Carl surrenders and Bob fouled: nothing changes hands" in text


def test_explanation_agrees_with_the_settlement_everywhere():
    """Every pair's explanation ends with the settlement's own units and payer."""
    rules = get_rules("ofc")
    deal = build_deal([Entry(n, h, "") for n, h in {"Amy": AMY, "Bob": BOB}.items()], rules)
    result = settle(deal, rules, 5)
    text = explain(result)
    pair = result.pairs[0]
    assert f"= +{pair.units}; money +{pair.units} x 5 = +{pair.amount}: Bob pays Amy {pair.amount}" in text


def test_cli_explain():
    runner = CliRunner()
    result = runner.invoke(main, ["score", "--explain", f"Amy={AMY}", f"Bob={BOB}"])
    assert result.exit_code == 0
    assert "\nWhy, pair by pair:\n\nAmy against Bob (2-4):\n" in result.stdout
    refused = runner.invoke(main, ["score", "--explain", "--format", "json", f"Amy={AMY}", f"Bob={BOB}"])
    assert refused.exit_code == 2
    assert "--explain goes with the table format" in refused.stderr


def test_session_explain(tmp_path):
    path = tmp_path / "s.txt"
    path.write_text(f"Amy: {AMY}\nBob: {BOB}\n\nAmy: {AMY}\nBob: {BOB}\n")
    result = CliRunner().invoke(main, ["session", "--explain", str(path)])
    assert result.exit_code == 0
    assert result.stdout.count("      Amy against Bob (2-4):\n") == 2
    assert "        units   +1 rows +1 bonus = +2: Bob pays Amy 2\n" in result.stdout


def test_a_tie_between_three_straights_names_each_row_as_it_ranks(tmp_path):
    """With wheel = "second" the wheel back outranks a six-high back, and the
    explanation names it as the wheel; fronts are three-card straights."""
    rules = tmp_path / "w.toml"
    rules.write_text('preset = "2-4"\nwheel = "second"\n')
    deal = tmp_path / "d.txt"
    deal.write_text(
        "Amy: Qh Kd Ac / 9c Td Jh Qs Kc / Ad 2h 3s 4c 5d\nBob: 2c 3h 4h / 8d 9h Ts Jc Qd / 2d 3c 4d 5h 6s\n"
    )
    result = CliRunner().invoke(main, ["score", "--rules", str(rules), "--explain", str(deal)])
    assert result.exit_code == 0, result.output
    assert (
        "both three straights: back Amy five-high straight (5-4-3-2-A) vs Bob six-high straight (6-5-4-3-2); "
        "middle Amy king-high straight (K-Q-J-T-9) vs Bob queen-high straight (Q-J-T-9-8); "
        "front Amy ace-high three-card straight (A-K-Q) vs Bob four-high three-card straight (4-3-2): Amy is higher"
    ) in result.output


def test_one_pair_explained_alone_reads_its_cut_and_split(tmp_path):
    """explain_pair on its own finds the pair's cut and home-run split, as explain does for the deal."""
    from cpscore.explain import explain_pair
    from cpscore.rules import changed_settings, from_settings

    ann = "Qh Qd 2c / Kh Kd Kc 3h 3d / 9s 9h 9d 9c 4h"
    ben = "Js Jd 5c / Th Td 8c 8d 2d / Ac Ad 6s 6h 7c"
    cat = "Ts 7d 4c / 6c 6d 5s 5h 3c / As Ks Qs 8s 2s"
    base = get_rules("ofc")
    for changes, found in (
        ({"cap": 30}, "  cut     cap 30 on each player's net over this deal"),
        ({"home_run": True, "home_run_min_opponents": 2, "home_run_split": "equal"}, "  split   T / n = 60 / 2 = 30"),
    ):
        rules = from_settings(changed_settings(base, changes), "test")
        deal = build_deal([Entry(n, h, "") for n, h in {"Ann": ann, "Ben": ben, "Cat": cat}.items()], rules)
        result = settle(deal, rules)
        alone = "\n".join(explain_pair(pair, result) for pair in result.pairs)
        assert alone == explain(result)
        assert found in alone


def test_royalty_entries_name_the_entry_paid():
    """A front trips paid by the category entry is 'front trips'; a rank entry is named by its rank."""
    tom = "Ah Kd 2c / Jd Jc 9d 9c 4s / Qs Qd Qc 5s 5d"
    text = why("taiwanese", {"Sev": "7s 7h 7d / 3c 4d 5h 6s 7c / Kh Qh Th 8h 2h", "Tom": tom})
    assert "royalty +3 (front trips 3 in the taiwanese table)" in text
    ofc = why("ofc", {"Sev": "7s 7h 7d / 3c 4d 5h 6s 7c / Kh Qh Th 8h 2h", "Tom": tom})
    assert "Sev front 777 15" in ofc
