"""Rule sets as records (issue 19): sections, enums, checks when made from
Python as from a rule file, frozen and hashable values, presets as
differences, what is derived once, and the kernel's named pair record."""

from __future__ import annotations

import pathlib
import pickle
import random
import tomllib

import pytest

from cpscore import presetgen
from cpscore.cards import CARDS
from cpscore.errors import RulesError
from cpscore.rules import (
    NATURALS,
    OWNERS,
    SECTIONS,
    Banker,
    Method,
    Methods,
    Money,
    Ofc,
    RoyaltyMode,
    RuleSet,
    SettingError,
    Suits,
    changed_settings,
    from_settings,
    get_rules,
    preset_names,
    rules_from_toml,
)
from cpscore.scoring import (
    PairOutcome,
    PairResult,
    best_disjoint,
    broken_combinations,
    broken_royalties,
    broken_units,
    kernel,
)

PRESET_DIR = pathlib.Path(presetgen.__file__).parent / "presets"


# Sections and enums ---------------------------------------------------------------


def test_every_setting_has_one_section_a_default_and_a_line_of_docs():
    names = [setting.name for kind in SECTIONS.values() for setting in kind.SETTINGS]
    assert len(names) == len(set(names)) == len(OWNERS)
    for kind in SECTIONS.values():
        assert kind.__doc__
        for setting in kind.SETTINGS:
            assert setting.doc and "\n" not in setting.doc, setting.name
            assert setting.check(setting.default) == setting.default or setting.name == "table", setting.name


def test_a_rule_set_of_defaults_is_every_settings_default():
    rules = RuleSet(id="plain")
    assert rules.methods.method is Method.TWO_FOUR and rules.royalties.mode is RoyaltyMode.NONE
    assert rules.preset == "plain" and rules.money.cap is None and not rules.money.cuts


def test_choices_are_enums_whose_values_are_the_rule_files_words():
    rules = get_rules("pusoy")
    assert rules.methods.method == "1-6" and isinstance(rules.methods.method, Method)
    assert f"{rules.methods.method}" == "1-6" and rules.banker.pairing == "banker"
    assert [str(suit) for suit in rules.suits.suit_order] == ["d", "c", "h", "s"]
    assert rules.settings()["suit_order"] == ["d", "c", "h", "s"]
    assert type(rules.settings()["method"]) is str  # plain data, as JSON and TOML hold it


# Checked when made, however made ----------------------------------------------------


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: Methods(method="2-5"), "method: '2-5' is not one of rows, 2-4, 1-6, 1-4"),
        (lambda: get_rules("2-4").with_settings(method="2-5"), "method: '2-5' is not one of rows, 2-4, 1-6, 1-4"),
        (
            lambda: get_rules("2-4")._replace(methods=get_rules("2-4").methods._replace(method="2-5")),
            "method: '2-5' is not one of",
        ),
        (lambda: Methods(methd="2-4"), "methd: unknown setting"),
        (lambda: get_rules("ofc").with_settings(colour="red"), "colour: unknown setting"),
        (lambda: Banker(banker_wins_ties=True), 'banker_wins_ties: has no effect without pairing = "banker"'),
        (lambda: Suits(suit_foul=True), "suit_foul: needs suit_order"),
        (lambda: Money(cap=0), "cap: a cap of 0 would cut every payment"),
        (lambda: Money(cap_scope="session"), "cap_scope: has no effect without a cap"),
        (lambda: Ofc(fantasyland_cards=14), 'fantasyland_cards: has no effect unless fantasyland = "standard"'),
        (
            lambda: get_rules("pusoy").with_settings(criss_cross="corresponding"),
            "pairing: banker pairing cannot be combined with criss-cross",
        ),
        (lambda: get_rules("capsa").with_settings(low_middle=True), "suit_order: cannot be combined with low_middle"),
        (lambda: get_rules("2-4").with_settings(home_run_split="equal"), "home_run_split: has no effect without"),
        (
            lambda: get_rules("ofc").with_settings(broken_royalties=True, table={"back": {"flush": 4}}),
            "royalties.broken_royalties: has no effect: the back table pays no quads",
        ),
        (lambda: get_rules("ofc").with_settings(table={"front": {"QQQQ": 1}}), "royalties.front.QQQQ: unknown"),
        (lambda: get_rules("ofc").with_settings(units={"dragons": 13}), "naturals.dragons: unknown setting"),
        (lambda: RuleSet(id="x", methods=Money()), "methods: Money("),
        (
            lambda: get_rules("2-4")._replace(method="1-6"),
            "method: a setting of the methods section: use with_settings",
        ),
        (lambda: RuleSet(id=3), "id: 3 is not a string"),
    ],
    ids=[
        "method-word",
        "with-settings",
        "section-replace",
        "section-unknown",
        "rule-set-unknown",
        "banker-ties",
        "suit-foul",
        "cap-0",
        "cap-scope",
        "fantasyland-cards",
        "banker-criss-cross",
        "suits-low-middle",
        "split-without-home-run",
        "broken-without-quads",
        "table-key",
        "natural",
        "section-type",
        "setting-for-a-section",
        "id-type",
    ],
)
def test_a_rule_set_made_in_python_is_checked_as_a_rule_file_is(make, message):
    with pytest.raises(SettingError) as error:
        make()
    assert str(error.value).startswith(message)


def test_python_and_a_rule_file_get_the_same_message():
    with pytest.raises(SettingError) as made:
        get_rules("ofc").with_settings(max_players=6)
    with pytest.raises(RulesError) as read:
        rules_from_toml('preset = "ofc"\nmax_players = 6\n', "house.toml")
    assert str(read.value) == f"house.toml: {made.value}"


def test_rule_sets_are_frozen_equal_by_value_and_hashable():
    rules = get_rules("ofc")
    with pytest.raises(AttributeError):
        rules.id = "other"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        rules.money.cap = 5  # type: ignore[misc]
    again = from_settings(rules.settings(), preset="ofc")
    assert again is not rules and again == rules and hash(again) == hash(rules)
    assert {rules: 1}[again] == 1
    assert rules.with_settings(cap=5) != rules and rules.with_settings(cap=5).money.cap == 5
    assert pickle.loads(pickle.dumps(rules)) == rules


def test_a_presets_float_surrender_hashes_as_its_exact_value():
    from decimal import Decimal

    assert hash(Methods(surrender=2.5)) == hash(Methods(surrender=Decimal("2.5")))
    assert Methods(surrender=2.5) == Methods(surrender=Decimal("2.5"))


def test_changed_settings_puts_back_a_setting_the_change_makes_moot():
    rules = from_settings(changed_settings(get_rules("pineapple"), {"fantasyland": "none"}), "test")
    assert rules.ofc.fantasyland_cards == 13
    house = rules_from_toml('preset = "pineapple"\nfantasyland = "progressive"\n', "house.toml")
    assert house.ofc.fantasyland == "progressive" and house.ofc.fantasyland_cards == 13
    with pytest.raises(RulesError, match="fantasyland_cards: has no effect"):
        rules_from_toml('preset = "pineapple"\nfantasyland = "none"\nfantasyland_cards = 14\n', "house.toml")


# Presets as differences ----------------------------------------------------------------


def test_each_preset_file_names_its_parent_and_only_what_it_changes():
    total = 0
    for name in preset_names():
        data = tomllib.loads((PRESET_DIR / f"{name}.toml").read_text(encoding="utf-8"))
        assert ("parent" in data) == (name != "2-4"), name
        keys = [key for key, value in data.items() if not isinstance(value, dict)]
        keys += [f"{key}.{inner}" for key, value in data.items() if isinstance(value, dict) for inner in value]
        total += len(keys)
    assert total < 200  # 595 when every preset spelled out every setting


def test_a_preset_file_repeating_its_parents_value_is_refused(tmp_path, monkeypatch):
    for path in PRESET_DIR.glob("*.toml"):
        (tmp_path / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    with (tmp_path / "pineapple.toml").open("a", encoding="utf-8") as file:
        file.write('\n[royalties]\nmode = "holder"\n')
    monkeypatch.setattr(presetgen, "PRESET_DIR", tmp_path)
    with pytest.raises(ValueError, match="pineapple.toml: royalties.mode repeats its parent's value"):
        presetgen.read_presets()


def test_a_new_setting_with_a_default_touches_no_preset():
    """Presets resolve through their parents to full rule sets: a setting a
    preset does not name is its parent's, and at the root its default."""
    for name in preset_names():
        rules = get_rules(name)
        assert from_settings(rules.settings()) == rules
        assert set(rules.settings()) >= {"method", "royalties", "naturals", "table_stakes"}


# Derived once per value ----------------------------------------------------------------


def test_derived_is_made_once_per_rule_set_value():
    made = []

    def build(rules):
        made.append(rules.id)
        return object()

    rules = get_rules("taiwanese")
    again = from_settings(rules.settings(), preset="taiwanese")
    assert rules.derived(build) is rules.derived(build) is again.derived(build)
    assert made == ["taiwanese"]
    other = rules.with_settings(scoop_doubles=not rules.multipliers.scoop_doubles)
    assert other.derived(build) is not rules.derived(build)


# The kernel's pair, by name ---------------------------------------------------------------


def test_a_pair_outcomes_fields_are_its_positions_and_the_pair_results_fields():
    pair = PairOutcome(range(len(PairOutcome.FIELDS)))
    assert [getattr(pair, name) for name in PairOutcome.FIELDS] == list(range(len(PairOutcome.FIELDS)))
    assert PairOutcome.FIELDS[2:] == PairResult.__slots__[2:]


@pytest.mark.parametrize(
    ("preset", "changes", "doubled"),
    [
        ("2-4", {}, ()),
        ("taiwanese", {"scoop_doubles": False}, ("home-run",)),
        ("taiwanese", {}, ("scoop", "home-run")),
        ("taiwanese", {"home_run": False}, ("scoop",)),
    ],
    ids=["none", "home-run", "both", "scoop"],
)
def test_a_pair_says_why_its_multiplier_applied(preset, changes, doubled):
    from cpscore.deal import build_deal, entry_from_argument
    from cpscore.scoring import settle

    rules = from_settings(changed_settings(get_rules(preset), changes), "test")
    hands = [
        "Amy=As Ad Kc / 9h 9c 9d 5s 5c / Ah Kh Qh Jh Th",
        "Bob=2s 3d 4c / 2h 3h 5h 6d 8c / 6h 7c 8d Ts Jc",
        "Cy=2c 3c 4d / 2d 3s 5d 6s 8h / 6c 7d 8s Td Js",
        "Dee=4h 4s 7h / Qc Qd 7s 9s Tc / Kd Ks Qs Jd Ac",
    ]
    deal = build_deal([entry_from_argument(hand) for hand in hands[: 4 if doubled else 2]], rules)
    result = settle(deal, rules)
    amy = [pair for pair in result.pairs if pair.a == "Amy"]
    assert amy and all(pair.doubled == doubled for pair in amy)
    assert all(pair.multiplier == 2 ** len(doubled) for pair in amy)
    # explain says what happened: "doubled again" only after the scoop doubled it
    from cpscore.explain import explain_pair

    text = explain_pair(amy[0], result)
    assert ("home run: Amy scoops every opponent (at least 3): doubled again" in text) == (len(doubled) == 2)
    assert ("home run: Amy scoops every opponent (at least 3): doubled\n" in text + "\n") == (doubled == ("home-run",))


# One copy of each rule: the arranger's form is the kernel's -----------------------------


def test_the_arrangers_broken_royalties_are_the_kernels():
    from cpscore.arrange import _broken, _combinations, _most_broken  # the search's float form

    rules = from_settings(changed_settings(get_rules("ofc"), {"royalties": {"broken_royalties": True}}), "test")
    rng = random.Random(19)
    quads = [CARDS[rank * 4 + suit] for rank in (8, 12) for suit in range(4)]
    flush = [CARDS[code] for code in (48, 44, 40, 36, 32)]  # As Ks Qs Js Ts
    for _ in range(300):
        cards = rng.sample(quads + flush, rng.randrange(5, 13))
        cards += rng.sample([card for card in CARDS if card not in cards], 13 - len(cards))
        rng.shuffle(cards)
        codes = [card.code for card in cards]
        exact = broken_royalties(codes, rules)
        floats = _combinations(codes, rules)
        assert _broken(floats, 0b111, 0b11111 << 3, 0b11111 << 8) == float(exact)
        combos = broken_combinations(codes, rules.royalties.table)
        assert _most_broken(floats) == float(best_disjoint([c for c in combos if c[1]]))
        assert broken_units(combos, 0b111, 0b11111 << 3, 0b11111 << 8) == exact


def test_kernel_pairs_are_pair_outcomes():
    from cpscore.deal import build_deal, entry_from_argument

    rules = get_rules("1-6")
    deal = build_deal(
        [
            entry_from_argument("Amy=Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d"),
            entry_from_argument("Bob=Qs Jd 3c / Th Tc 8d 8s 3d / Kh Qh Jh 8h 2h"),
        ],
        rules,
    )
    (pair,) = kernel(deal.seats, rules).pairs
    assert isinstance(pair, PairOutcome) and (pair.i, pair.j, pair.decided_by, pair.rows) == (0, 1, "rows", (1, -1, 1))
    assert NATURALS  # the registry the naturals section checks against


@pytest.mark.parametrize("preset", ["1-6", "ofc", "taiwanese", "pineapple-ru", "capsa"])
def test_a_preset_is_made_without_decimal_arithmetic(preset):
    """A child preset is resolved from its parents' data, not from their rule
    sets (which would make their surrender exact): start-up stays small."""
    import subprocess
    import sys

    code = f"import sys; from cpscore.rules import get_rules\nget_rules({preset!r})\nprint('decimal' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"


def test_a_float_surrender_is_kept_only_when_it_is_exact():
    from decimal import Decimal

    assert Methods(surrender=0.1).surrender == Decimal("0.1")
    assert hash(Methods(surrender=0.1)) == hash(Methods(surrender=Decimal("0.1")))
    with pytest.raises(SettingError, match="surrender: "):
        Methods(surrender=float("inf"))
    with pytest.raises(SettingError, match="surrender: "):
        Methods(surrender=1e20)


def test_equal_rule_sets_share_what_is_derived_while_one_lives():
    import gc

    made = []

    def build(rules):
        made.append(1)
        return object()

    first = get_rules("ofc").with_settings(cap=7)
    second = get_rules("ofc").with_settings(cap=7)
    assert first.derived(build) is second.derived(build) and made == [1]
    del first, second
    gc.collect()
    get_rules("ofc").with_settings(cap=7).derived(build)
    assert made == [1, 1]  # none lived: made again, nothing was kept for it
