"""Every report equals the session: what ``add``, ``replace``, ``play`` (whose
preview is the append made in memory) and the page (its check and its save)
report for a deal is what ``cpscore session`` settles for that deal, in random
nights under every preset, with stakes and pair stakes changing between deals,
caps, table stakes, banker rotation and Fantasyland (hypothesis)."""

import json
import random

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cpscore.cards import CARDS
from cpscore.cli import main
from cpscore.deal import Entry
from cpscore.edits import Replacement
from cpscore.errors import CpscoreError
from cpscore.formatting import json_text
from cpscore.night import Append, Night
from cpscore.rules import get_rules, preset_names
from cpscore.session_views import deal_data, deal_notes

NAMES = ("Amy", "Bob", "Cy", "Dee")


def hand_text(rng, codes):
    cards = [str(CARDS[code]) for code in codes]
    rng.shuffle(cards)
    return f"{' '.join(cards[:3])} / {' '.join(cards[3:8])} / {' '.join(cards[8:])}"


def random_deal(rng, players):
    deck = list(range(52))
    rng.shuffle(deck)
    return [Entry(name, hand_text(rng, deck[13 * k : 13 * k + 13]), "") for k, name in enumerate(players)]


@st.composite
def nights(draw):
    preset = draw(st.sampled_from(preset_names()))
    rules = get_rules(preset)
    rng = random.Random(draw(st.integers(0, 2**32)))
    header = []
    cap = draw(st.sampled_from([None, None, 3, 10, 25]))
    if cap is not None:
        header.append(("rule file", f'preset = "{preset}"\ncap = {cap}\n'))
    else:
        header.append(("@rules", preset))
    if draw(st.booleans()):
        header.append(("@stake", str(draw(st.sampled_from([0, 2, 5, "2.5", 10])))))
    if rules.money.table_stakes:
        header.append(("@buy-in", str(draw(st.sampled_from([20, 60, 200])))))
    seated = list(NAMES[: draw(st.integers(2, rules.methods.max_players))])
    count = draw(st.integers(1, 5))
    deals = []
    for _ in range(count):
        players = [name for name in seated if len(seated) == 2 or draw(st.integers(0, 4))]
        if len(players) < 2:
            players = seated[:2]
        between = {}  # add's --stake and --pair-stake: lines before the deal
        if draw(st.integers(0, 3)) == 0:
            between["stake"] = draw(st.sampled_from([1, 3, 20]))
        if draw(st.integers(0, 4)) == 0:
            between["pair_stakes"] = {frozenset(players[:2]): draw(st.sampled_from([0, 7, 50]))}
        writer = draw(st.sampled_from(["add", "add", "page"]))
        deals.append((writer, between, random_deal(rng, players)))
    return header, deals, draw(st.integers(0, count - 1))


def session_deals(path):
    """The deals of ``cpscore session --format json``, and their notes (the table's), by number."""
    result = CliRunner().invoke(main, ["session", str(path), "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)["deals"]
    night = Night()
    notes = {}
    text = path.read_text(encoding="utf-8")
    night.settle_text(text, str(path), str(path), lambda result: notes.update({result.number: deal_notes(result)}))
    return {deal["deal"]: deal for deal in data}, notes


def same(result, deals, notes):
    """The deal a command reported is the session's deal of that number, field for field."""
    assert json.loads(json_text(deal_data(result))) == deals[result.number]
    assert deal_notes(result) == notes[result.number]


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("nights")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(night=nights(), case=st.integers(0, 10**9))
def test_every_report_of_a_deal_is_the_sessions(folder, night, case):
    from cpscore.web import app

    header, deals, index = night
    path = folder / f"night-{case}.txt"
    lines = []
    for key, value in header:
        if key == "rule file":
            (folder / f"rules-{case}.toml").write_text(value, encoding="utf-8")
            lines.append(f"@rules rules-{case}.toml")
        else:
            lines.append(f"{key} {value}")
    path.write_bytes(("\n".join(lines) + "\n").encode())
    reported = []
    for writer, between, entries in deals:
        try:
            if writer == "page":
                body = {"players": " ".join(e.name for e in entries), "hands": {e.name: e.text for e in entries}}
                body["again"] = True
                shown = app.check(str(path), body)
                if shown["error"]:
                    continue
                saved = app.save(str(path), {**body, "terms": shown["terms"]}, {})
                assert saved["saved"] == shown["deal"]["deal"]
                reported.append(("page", shown["deal"]))
            else:
                names = [entry.name for entry in entries]
                append = Append(str(path), entries, None, None, new_player=names, again=True, **between)
                path.write_bytes(append(path.read_bytes()))
                reported.append(("add", append.result))
        except (CpscoreError, app.Failure) as error:  # a night over (table stakes), a player not seated
            message = str(error) if isinstance(error, CpscoreError) else error.message
            assert "is over" in message or "not seated" in message, message
            continue
    if not reported:
        return
    found, notes = session_deals(path)
    for writer, result in reported:
        if writer == "page":
            assert result == found[result["deal"]]
        else:
            same(result, found, notes)
    # replace: the new deal is settled in its night, as the session settles the new file
    number = min(index, len(found) - 1) + 1
    players = [player["name"] for player in found[number]["players"]]
    rng = random.Random(case)
    replacement = Replacement(str(path), number, random_deal(rng, players), new_player=players)
    try:
        path.write_bytes(replacement(path.read_bytes()))
    except CpscoreError as error:  # a later deal no longer settles (a stack empty sooner)
        assert "over" in str(error), error
        return
    found, notes = session_deals(path)
    same(replacement.result, found, notes)
