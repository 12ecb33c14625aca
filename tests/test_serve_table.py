"""``cpscore serve`` at a table: the deal being entered, held by the server
(each phone enters the seats it holds and sees only the others' states until
every hand is set), the night kept between requests (an append settles only
the new deals), the whole night's views (an older deal replaced by its
digest, the statistics, the downloads) and what a poll costs.

The app is driven in this process through WSGI (:class:`Phone`): the same
app ``cpscore serve`` runs, without a port."""

from __future__ import annotations

import io
import json
import os
import re
import wsgiref.util

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from serving import AMY, BOB, BOB_FOULS, CY, cpscore

from cpscore.web.app import make_app
from cpscore.web.live import Invalid, Kept

SEAT_ROWS = {"Amy": AMY, "Bob": BOB, "Cy": CY}


class Phone:
    """One phone at the table: its id, and its requests to the app."""

    def __init__(self, app, name: str) -> None:
        self.app = app
        self.id = f"phone-{name}"

    def call(self, method: str, path: str, body: object = None, headers: dict[str, str] | None = None):
        """(status, headers, JSON or bytes) of one request."""
        environ: dict[str, object] = {}
        wsgiref.util.setup_testing_defaults(environ)
        target, _, query = path.partition("?")
        data = b"" if body is None else json.dumps(body).encode()
        environ.update(
            {
                "REQUEST_METHOD": method,
                "PATH_INFO": "/" + target,
                "QUERY_STRING": query,
                "HTTP_HOST": "127.0.0.1",
                "HTTP_X_CPSCORE_PHONE": self.id,
                "wsgi.input": io.BytesIO(data),
                "CONTENT_LENGTH": str(len(data)) if body is not None else "",
                "CONTENT_TYPE": "application/json" if body is not None else "",
            }
        )
        for key, value in (headers or {}).items():
            environ["HTTP_" + key.upper().replace("-", "_")] = value
        answer: dict[str, object] = {}

        def start(status: str, headers: list[tuple[str, str]], exc_info: object = None) -> None:
            answer["status"], answer["headers"] = int(status.split()[0]), {key.lower(): value for key, value in headers}

        raw = b"".join(self.app(environ, start))
        kind = answer["headers"].get("content-type", "")  # type: ignore[union-attr]
        shown = (
            json.loads(raw)
            if raw and kind.startswith("application/json") and "attachment" not in str(answer["headers"])
            else raw
        )
        return answer["status"], answer["headers"], shown

    def get(self, path: str, **headers: str):
        status, _, data = self.call("GET", path, headers=headers)
        return status, data

    def post(self, path: str, body: object):
        status, _, data = self.call("POST", path, body)
        return status, data

    def deal(self) -> dict:
        status, data = self.get("api/deal")
        assert status == 200, data
        return data

    def seat(self, name: str) -> dict:
        return next(seat for seat in self.deal()["seats"] if seat["name"] == name)

    def hand(self, name: str, **change: object):
        """A change of NAME's hand, made on the seat's revision as this phone last saw it."""
        return self.post("api/deal/hand", {"seat": name, "rev": self.seat(name)["rev"], **change})

    def enter(self, name: str, text: str, set_it: bool = True) -> None:
        assert self.hand(name, take=True)[0] == 200
        status, answer = self.hand(name, text=text)
        assert status == 200, answer
        if set_it:
            status, answer = self.hand(name, set=True)
            assert status == 200, answer


@pytest.fixture
def night(tmp_path):
    path = tmp_path / "night.txt"
    path.write_text("@rules ofc\n@stake 10\n@players Amy Bob Cy\n", encoding="utf-8")
    return path


@pytest.fixture
def app(night):
    return make_app(str(night))


@pytest.fixture
def phones(app):
    return [Phone(app, name) for name in ("amy", "bob", "cy")]


def _slots(text: str) -> list[list[str]]:
    return [row.split() for row in text.split(" / ")]


# The deal being entered --------------------------------------------------------------


def test_each_phone_sees_its_own_cards_and_only_the_others_states_until_all_are_set(phones, night):
    amy, bob, cy = phones
    amy.enter("Amy", AMY)
    bob.enter("Bob", BOB, set_it=False)
    seen_by_cy = {seat["name"]: seat for seat in cy.deal()["seats"]}
    assert seen_by_cy["Amy"]["state"] == "set" and "rows" not in seen_by_cy["Amy"]
    assert (
        seen_by_cy["Bob"]["state"] == "entering"
        and seen_by_cy["Bob"]["count"] == 13
        and "rows" not in seen_by_cy["Bob"]
    )
    assert seen_by_cy["Cy"]["state"] == "empty" and seen_by_cy["Cy"]["held"] is None
    assert "Ks" not in json.dumps(cy.deal())  # none of Amy's cards, anywhere in Cy's view
    mine = amy.seat("Amy")
    assert mine["held"] == "me" and mine["rows"] == _slots(AMY) and mine["set"] is True
    assert amy.seat("Bob")["held"] == "other"
    assert not cy.deal()["revealed"] and cy.deal()["check"] is None
    assert bob.hand("Bob", set=True)[0] == 200
    cy.enter("Cy", CY)
    view = amy.deal()
    assert view["revealed"] and view["check"]["error"] is None
    assert {seat["name"]: seat["rows"] for seat in view["seats"]} == {
        name: _slots(text) for name, text in SEAT_ROWS.items()
    }
    settled = view["check"]["deal"]
    assert (
        settled["deal"] == 1 and sum(player["units"] for player in settled["players"]) == 0 and view["check"]["terms"]
    )
    assert night.read_text().count("Amy:") == 0  # nothing is written before a save


def _all_set(phones: list[Phone]) -> tuple[dict, dict]:
    """Each phone enters its seat's hand and says it is set: the deal as shown, and the save that asks for it."""
    for phone, (name, text) in zip(phones, SEAT_ROWS.items()):
        phone.enter(name, text)
    view = phones[0].deal()
    return view, {"key": view["key"], "terms": view["check"]["terms"]}


def test_the_deal_is_saved_once_whichever_phones_tap_save_and_the_next_deal_keeps_the_seats(phones, night):
    amy, bob, cy = phones
    view, request = _all_set(phones)
    status, saved = bob.post("api/deal/save", request)
    assert status == 200 and saved["saved"] == 1
    status, again = cy.post("api/deal/save", request)  # the same deal, from another phone: saved once
    assert status == 200 and again["already"] is True and again["saved"] == 1 and again["digest"] == saved["digest"]
    assert (
        json.loads(cpscore("session", str(night), "--format", "json").stdout)["deals"][0]["digest"] == saved["digest"]
    )
    assert night.read_text().count("Amy: ") == 1
    after = amy.deal()
    assert after["next"] == 2 and after["key"] != view["key"] and not after["revealed"]
    assert [(seat["state"], seat["held"]) for seat in after["seats"]] == [
        ("empty", "me"),
        ("empty", "other"),
        ("empty", "other"),
    ]
    status, stale = amy.post("api/deal/save", {"key": "feed" * 8, "terms": view["check"]["terms"]})
    assert status == 409 and "changed meanwhile" in stale["error"]


def test_a_save_before_every_hand_is_set_names_who_is_missing(phones):
    amy, bob, _ = phones
    amy.enter("Amy", AMY)
    bob.enter("Bob", BOB, set_it=False)
    status, answer = amy.post("api/deal/save", {"key": amy.deal()["key"], "terms": None})
    assert status == 400 and answer["error"] == "not every hand is set yet: Bob, Cy"


@pytest.mark.parametrize(
    ("change", "status", "message"),
    [
        pytest.param({"text": "Ks Kd 4c / 9h 9c"}, 200, None, id="part-of-a-hand"),
        pytest.param({"text": "K♠️ K♦️ 4♣ / 9h"}, 200, None, id="emoji-selector"),
        pytest.param({"text": "Ks Kd 4c 9h"}, 200, None, id="no-rows-fill-from-the-front"),
        pytest.param({"text": "Ks / 9h 9c 5d 5s 2c 3c"}, 400, "Amy, middle: 6 cards, the middle has 5", id="row-over"),
        pytest.param({"text": "Ks Kd 4c Qs / 9h"}, 200, None, id="back-first-when-the-first-row-is-over-3"),
        pytest.param({"text": "Ks Kx"}, 400, "Amy: unknown card 'Kx'", id="unknown-card"),
        pytest.param({"text": "Ks Ks"}, 400, "Amy: Ks appears twice", id="card-twice"),
        pytest.param({"text": "Ks; fold"}, 400, "Amy: unknown marker 'fold'", id="unknown-marker"),
        pytest.param({"rows": [["Ks"], [], []]}, 400, "Amy, front: 3 places", id="rows-short"),
        pytest.param(
            {"rows": [["Ks", "Ks", None], [None] * 5, [None] * 5]},
            400,
            "Amy, front: Ks is in the hand twice",
            id="rows-twice",
        ),
        pytest.param({"set": True}, 400, "Amy has 0 of 13 cards", id="set-empty"),
        pytest.param({"set": "yes"}, 400, "set must be true or false", id="set-not-bool"),
    ],
)
def test_a_hand_change_is_read_by_the_clis_card_reader(phones, change, status, message):
    amy = phones[0]
    assert amy.hand("Amy", take=True)[0] == 200
    got, answer = amy.hand("Amy", **change)
    assert got == status, answer
    if message:
        assert answer["error"].startswith(message), answer["error"]


def test_typed_text_fills_the_rows_from_the_left_and_a_correction_moves_nothing_else(phones):
    amy = phones[0]
    amy.enter("Amy", "K♠️ Kd 4c / 9h 9c 5d", set_it=False)
    rows = amy.seat("Amy")["rows"]
    assert rows == [["Ks", "Kd", "4c"], ["9h", "9c", "5d", None, None], [None] * 5]
    rows[0][1] = None  # Kd taken out of its place, Qd tapped into the first free place of the front
    assert amy.hand("Amy", rows=rows)[0] == 200
    rows[0][1] = "Qd"
    assert amy.hand("Amy", rows=rows)[0] == 200
    assert amy.seat("Amy")["rows"] == [["Ks", "Qd", "4c"], ["9h", "9c", "5d", None, None], [None] * 5]


def test_a_stale_change_and_a_seat_on_another_phone_are_refused(phones):
    amy, bob, _ = phones
    assert amy.hand("Amy", take=True)[0] == 200
    old = amy.seat("Amy")["rev"]
    assert amy.hand("Amy", text="Ks")[0] == 200
    status, answer = amy.post("api/deal/hand", {"seat": "Amy", "rev": old, "text": "Qs"})
    assert status == 409 and "changed meanwhile" in answer["error"] and answer["stale"] is True
    status, answer = bob.hand("Amy", take=True)
    assert status == 409 and answer["held"] is True and "another phone" in answer["error"]
    status, answer = bob.hand("Amy", text="Qs")
    assert status == 409 and answer["held"] is True
    assert amy.seat("Amy")["rows"][0] == ["Ks", None, None]  # untouched
    for change in ({"release": True}, {"release": True, "out": True}, {"out": True, "set": True}):
        status, answer = bob.hand("Amy", **change)  # a seat on another phone is not Bob's to change
        assert status == 409 and answer["held"] is True, change
    assert amy.seat("Amy")["held"] == "me" and amy.seat("Amy")["out"] is False
    status, answer = bob.hand("Amy", take=True, force=True)  # Amy's phone is gone: Bob's takes the seat over,
    assert status == 200 and answer["cleared"] is True  # and does not see the cards Amy's phone entered
    assert bob.seat("Amy")["held"] == "me" and bob.seat("Amy")["rows"][0] == [None, None, None]
    assert amy.seat("Amy")["held"] == "other" and "rows" not in amy.seat("Amy")


def test_a_seat_let_go_and_taken_again_by_its_phone_keeps_its_cards(phones):
    amy = phones[0]
    amy.enter("Amy", "Ks Kd 4c / 9h", set_it=False)
    assert amy.hand("Amy", release=True)[0] == 200
    assert amy.seat("Amy")["held"] is None and "rows" not in amy.seat("Amy")
    status, answer = amy.hand("Amy", take=True)
    assert status == 200 and answer["cleared"] is False
    assert amy.seat("Amy")["rows"][0] == ["Ks", "Kd", "4c"]


def test_a_phone_entering_two_seats_cannot_give_both_one_card(phones):
    amy = phones[0]
    amy.enter("Amy", AMY, set_it=False)
    assert amy.hand("Cy", take=True)[0] == 200  # Cy has no phone: Amy's enters for him
    status, answer = amy.hand("Cy", text="Ks")
    assert status == 400 and answer["error"] == "Ks is Amy's (this phone holds that seat too)"
    assert phones[1].hand("Bob", take=True)[0] == 200
    assert phones[1].hand("Bob", text="Ks")[0] == 200  # another phone's seat: said only when all are set


def test_a_card_in_two_hands_on_two_phones_is_the_deals_error_once_all_are_set(phones):
    amy, bob, cy = phones
    amy.enter("Amy", AMY)
    bob.enter("Bob", AMY.replace("Ks", "Qs").replace("Kd", "Jd").replace("4c", "3c"))
    cy.enter("Cy", CY)
    check = cy.deal()["check"]
    assert check["deal"] is None and "is dealt twice" in check["error"]


def test_a_seat_that_sits_out_or_surrenders_is_set_without_cards(tmp_path):
    path = tmp_path / "night.txt"
    path.write_text("@rules 1-6\n@players Amy Bob Cy\n", encoding="utf-8")
    amy, bob, cy = (Phone(make_app(str(path)), name) for name in "abc")
    bob.app = cy.app = amy.app
    amy.enter("Amy", AMY)
    assert bob.hand("Bob", take=True)[0] == 200
    assert bob.hand("Bob", out=True)[0] == 200 and bob.hand("Bob", set=True)[0] == 200
    assert cy.hand("Cy", take=True)[0] == 200
    assert cy.hand("Cy", surrender=True)[0] == 200
    status, answer = cy.hand("Cy", set=True)
    assert status == 200, answer
    view = amy.deal()
    assert [seat["state"] for seat in view["seats"]] == ["set", "out", "surrender"]
    assert view["revealed"]


def test_the_cards_of_a_seat_that_sits_out_stay_its_phones_when_all_are_set(phones):
    amy, bob, cy = phones
    amy.enter("Amy", AMY)
    bob.enter("Bob", BOB, set_it=False)
    assert bob.hand("Bob", out=True)[0] == 200 and bob.hand("Bob", set=True)[0] == 200
    cy.enter("Cy", CY)
    view = amy.deal()
    assert view["revealed"] and "rows" not in view["seats"][1] and view["seats"][1]["state"] == "out"
    assert "Qs" not in json.dumps(view)  # none of Bob's cards
    assert bob.seat("Bob")["rows"] == _slots(BOB)  # still his, on his phone


def test_a_surrender_with_some_cards_placed_surrenders(tmp_path):
    path = tmp_path / "night.txt"
    path.write_text("@rules 1-6\n@players Amy Bob\n", encoding="utf-8")
    amy = Phone(make_app(str(path)), "amy")
    amy.enter("Amy", "Ks Kd", set_it=False)
    assert amy.hand("Amy", surrender=True)[0] == 200
    status, answer = amy.hand("Amy", set=True)
    assert status == 200, answer
    assert amy.seat("Amy")["state"] == "surrender"


def test_a_retry_of_a_save_whose_deal_was_undone_says_so(phones, night):
    amy, bob, _ = phones
    _, request = _all_set(phones)
    status, saved = amy.post("api/deal/save", request)
    assert status == 200
    assert amy.post("api/undo", {"digest": saved["digest"]})[0] == 200
    status, answer = bob.post("api/deal/save", request)
    assert status == 409 and "no longer in the file" in answer["error"]


def test_changing_the_seats_keeps_the_hands_of_those_still_seated(phones, night):
    amy = phones[0]
    amy.enter("Amy", AMY, set_it=False)
    status, answer = amy.post("api/deal/seats", {"players": "Amy Bob Dee"})
    assert status == 200, answer
    view = amy.deal()
    assert [seat["name"] for seat in view["seats"]] == ["Amy", "Bob", "Dee"] and view["players"] == "Amy Bob Dee"
    assert amy.seat("Amy")["count"] == 13
    status, answer = amy.post("api/deal/seats", {"players": "Amy amy"})
    assert status == 400 and answer["field"] == "players"
    assert amy.post("api/deal/seats", {"players": "Bob Cy"})[0] == 200  # Amy seated wrongly out, and back
    assert amy.post("api/deal/seats", {"players": "Amy Bob Cy"})[0] == 200
    assert amy.seat("Amy")["count"] == 13 and amy.seat("Amy")["held"] == "me"


# The night kept between requests -------------------------------------------------------


def _deal_lines(hands: dict[str, str]) -> str:
    return "\n" + "".join(f"{name}: {text}\n" for name, text in hands.items())


def test_an_append_settles_only_the_new_deals_and_equals_a_whole_reading(night):
    night.write_text(night.read_text() + _deal_lines(SEAT_ROWS), encoding="utf-8")
    kept = Kept(str(night))
    kept.night()
    with night.open("a") as file:  # a stake line and two deals, as cpscore add writes them
        file.write("\n@stake 5\n" + _deal_lines({"Amy": CY, "Bob": AMY, "Cy": BOB}) + _deal_lines(SEAT_ROWS))
    table, results = kept.night()
    assert (kept.reads, kept.appends) == (1, 1)  # read whole once, then the two deals added settled alone
    whole = Kept(str(night))
    again_table, _ = whole.night()
    assert kept.lines == whole.lines and [result.line for result in results] == [5, 11, 15]
    assert table.ledger.stake == again_table.ledger.stake == 5 and table.number == again_table.number == 4
    assert table.ledger.fantasyland == again_table.ledger.fantasyland
    with night.open("a") as file:
        file.write(_deal_lines(SEAT_ROWS))
    kept.night()
    assert (kept.reads, kept.appends) == (1, 2) and len(kept.results) == 4
    before = kept.version
    kept.night()  # the same bytes: nothing read again
    assert kept.version == before and (kept.reads, kept.appends) == (1, 2)


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(lambda text: text.replace("Amy: Ks", "Amy: Qd", 1).replace("Bob: Qs", "Bob: Ks", 1), id="edited"),
        pytest.param(lambda text: text + "Dee: " + BOB_FOULS + "\n", id="a-hand-added-to-the-last-deal"),
        pytest.param(lambda text: text + "# a note\nDee: " + BOB_FOULS + "\n", id="after-a-comment"),
        pytest.param(lambda text: text.rstrip("\n"), id="shortened"),
    ],
)
def test_any_other_change_reads_the_night_whole(night, change):
    night.write_text(night.read_text() + _deal_lines(SEAT_ROWS), encoding="utf-8")
    kept = Kept(str(night))
    kept.night()
    night.write_text(change(night.read_text()), encoding="utf-8")
    whole = Kept(str(night))
    try:
        whole.night()
    except Invalid as error:  # an invalid night: the kept one says the same
        with pytest.raises(Invalid, match=re.escape(str(error))):
            kept.night()
        assert kept.table is None and kept.appends == 0
    else:
        kept.night()
        assert kept.lines == whole.lines and (kept.reads, kept.appends) == (2, 0)


def test_a_rule_file_changed_reads_the_night_again(tmp_path):
    rules = tmp_path / "house.toml"
    rules.write_text('preset = "ofc"\nid = "house"\n', encoding="utf-8")
    path = tmp_path / "night.txt"
    path.write_text("@rules house.toml\n@players Amy Bob Cy\n" + _deal_lines(SEAT_ROWS), encoding="utf-8")
    kept = Kept(str(path))
    before = kept.night()[1][0].settlement.owners[0].units
    rules.write_text('preset = "2-4"\nid = "house"\n', encoding="utf-8")
    after = kept.night()[1][0].settlement.owners[0].units
    assert kept.reads == 2 and before != after
    assert kept.lines == _whole_lines(path)


def _whole_lines(path) -> list[str]:
    whole = Kept(str(path))
    whole.night()
    return whole.lines


def test_a_bom_in_the_lines_added_is_read_as_a_whole_reading_reads_it(night):
    night.write_text(night.read_text() + _deal_lines(SEAT_ROWS), encoding="utf-8")
    kept = Kept(str(night))
    kept.night()
    with night.open("ab") as file:
        file.write(b"\n\xef\xbb\xbf" + _deal_lines({"Amy": CY, "Bob": AMY, "Cy": BOB}).lstrip("\n").encode())
    with pytest.raises(Invalid) as whole:
        Kept(str(night)).night()
    with pytest.raises(Invalid, match=re.escape(str(whole.value))):
        kept.night()
    assert kept.appends == 0


def test_a_poll_of_an_unchanged_deal_costs_no_body_and_a_changed_night_sends_only_new_deals(phones, night):
    amy, bob, cy = phones
    status, headers, _ = amy.call("GET", "api/deal")
    tag = headers["etag"]
    status, headers, body = amy.call("GET", "api/deal", headers={"If-None-Match": tag})
    assert status == 304 and body == b""
    bob.enter("Bob", BOB, set_it=False)
    status, _, body = amy.call("GET", "api/deal", headers={"If-None-Match": tag})
    assert status == 200 and body["seats"][1]["state"] == "entering"
    night.write_text(night.read_text() + _deal_lines(SEAT_ROWS), encoding="utf-8")
    _, first = amy.get("api/state")
    assert first["from"] == 0 and first["through"].startswith("1:")
    night.write_text(night.read_text() + _deal_lines({"Amy": CY, "Bob": AMY, "Cy": BOB}), encoding="utf-8")
    _, later = amy.get(f"api/state?since={first['through']}")
    assert later["from"] == 1 and [d["deal"] for d in later["session"]["deals"]] == [2]
    assert later["session"]["totals"] == json.loads(cpscore("session", str(night), "--format", "json").stdout)["totals"]
    assert later["through"].startswith("2:")
    _, other = amy.get("api/state?since=1:00000000")  # not the deal 1 the server has: everything
    assert other["from"] == 0 and len(other["session"]["deals"]) == 2


@pytest.mark.parametrize(
    "edit",
    [
        pytest.param(lambda text: text.replace(f"Bob: {BOB}", f"Bob: {BOB_FOULS}", 1), id="the-first-deal-replaced"),
        pytest.param(
            lambda text: text.replace("Amy: " + CY, "@stake 20\n\nAmy: " + CY), id="a-stake-line-before-the-second"
        ),
    ],
)
def test_a_changed_deal_before_the_last_sends_every_deal_again(phones, night, edit):
    """The last deal's digest (its own lines) does not change when an earlier
    deal does, but its running totals do: the page's mark covers every deal."""
    amy = phones[0]
    night.write_text(
        night.read_text() + _deal_lines(SEAT_ROWS) + _deal_lines({"Amy": CY, "Bob": AMY, "Cy": BOB}), encoding="utf-8"
    )
    _, first = amy.get("api/state")
    night.write_text(edit(night.read_text()), encoding="utf-8")
    _, later = amy.get(f"api/state?since={first['through']}")
    assert later["from"] == 0 and len(later["session"]["deals"]) == 2
    assert later["session"]["deals"][1]["digest"] == first["session"]["deals"][1]["digest"]  # the same last deal,
    assert later["session"]["deals"][1]["running"] != first["session"]["deals"][1]["running"]  # settled otherwise


# The whole night ----------------------------------------------------------------------


def test_an_older_deal_is_replaced_by_its_digest_and_a_stale_digest_changes_nothing(phones, night):
    amy = phones[0]
    night.write_text(
        night.read_text() + _deal_lines(SEAT_ROWS) + _deal_lines({"Amy": CY, "Bob": AMY, "Cy": BOB}), encoding="utf-8"
    )
    _, state = amy.get("api/state")
    first = state["session"]["deals"][0]
    hands = {"Amy": AMY, "Bob": BOB_FOULS, "Cy": CY}
    status, answer = amy.post("api/replace", {"deal": 1, "digest": first["digest"], "hands": hands})
    assert status == 200 and answer["replaced"] == 1 and answer["was"] == first["digest"]
    assert f"Bob: {BOB_FOULS}" in night.read_text() and night.read_text().count("Amy: ") == 2
    before = night.read_bytes()
    status, answer = amy.post("api/replace", {"deal": 1, "digest": first["digest"], "hands": SEAT_ROWS})
    assert status == 400 and first["digest"] in answer["error"] and night.read_bytes() == before


def test_the_statistics_and_the_downloads_are_what_the_commands_print(phones, night):
    amy = phones[0]
    night.write_text(
        night.read_text() + _deal_lines(SEAT_ROWS) + _deal_lines({"Amy": CY, "Bob": AMY, "Cy": BOB}), encoding="utf-8"
    )
    status, stats = amy.get("api/stats")
    assert status == 200
    assert stats == json.loads(cpscore("stats", str(night), "--format", "json").stdout)
    status, headers, data = amy.call("GET", "download/json")
    assert status == 200 and data.decode() == cpscore("session", str(night), "--format", "json").stdout
    assert headers["content-disposition"] == "attachment; filename*=UTF-8''night.json"
    status, headers, data = amy.call("GET", "download/session")
    assert status == 200 and data == night.read_bytes() and headers["content-type"].startswith("text/plain")
    status, _, data = amy.call("GET", "download/other")
    assert status == 404


def test_a_night_gone_is_said_by_every_view(phones, night):
    os.remove(night)
    for path in ("api/deal", "api/state", "api/stats", "download/json"):
        status, _, answer = phones[0].call("GET", path)
        assert status == 409 and "is gone" in answer["error"], path


def test_a_natural_is_said_once_and_the_waive_box_plays_the_rows(tmp_path):
    path = tmp_path / "night.txt"
    path.write_text("@players Amy Bob\n", encoding="utf-8")  # the 2-4 rules, which have naturals
    amy = Phone(make_app(str(path)), "amy")
    amy.enter("Amy", "2s 2d 8c / 3s 3d 4s 4d 7s / 5s 5d 6s 6d 7d", set_it=False)
    report = amy.seat("Amy")["report"]
    assert report["natural"] == "six pairs (3)" and report["notes"] == []
    assert amy.hand("Amy", waive=True)[0] == 200
    report = amy.seat("Amy")["report"]
    assert report["natural"] is None and report["notes"] == []
    assert amy.seat("Amy")["waive"] is True


def test_every_word_of_the_page_is_in_every_language_with_its_placeholders():
    from importlib.resources import files

    static = files("cpscore.web") / "static"
    catalogue = json.loads((static / "words.json").read_text(encoding="utf-8"))
    english = catalogue["en"]
    assert set(catalogue["languages"]) == {"en", "vi", "zh"}
    for code in catalogue["languages"]:
        words = catalogue[code]
        assert set(words) == set(english), code
        for key, text in words.items():
            assert sorted(re.findall(r"\{\w+\}", text)) == sorted(re.findall(r"\{\w+\}", english[key])), (code, key)
        assert sorted(words["suit_order"]) == sorted("shdc"), code
    script = (static / "app.js").read_text(encoding="utf-8")
    page = (static / "index.html").read_text(encoding="utf-8")
    used = set(re.findall(r'word\("(\w+)"', script)) | set(re.findall(r'data-word="(\w+)"', page))
    # The server's words: the chart it draws (cpscore.web.app.chart).
    server = (files("cpscore.web") / "app.py").read_text(encoding="utf-8")
    used |= set(re.findall(r'words\(language, "(\w+)"\)', server))
    from cpscore.chart import ENGLISH  # the words of the chart the server draws, in every language

    used |= set(ENGLISH)
    used |= {f"{prefix}{name}" for prefix, names in _WORD_FAMILIES.items() for name in names}
    assert used - set(english) == set()
    assert set(english) - used - {"saved", "already_saved", "if_saved", "if_saved_again"} == set()


# Words app.js looks up by a computed key: `${prefix}${name}`.
_WORD_FAMILIES = {
    "state_": ("empty", "entering", "set", "out", "surrender"),
    "mark_": ("surrender", "waive", "out"),
    "row_": ("front", "middle", "back"),
    "suit_": ("s", "h", "d", "c"),
    "stat_": ("player", "deals", "rows_won", "scoops", "fouls", "royalties", "biggest_win", "units"),
}


# Whatever a phone sends, the answer is a one-line error, never a traceback --------------

_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 20)
    | st.sampled_from(["Amy", "Bob", "Cy", "Ks", "K♠️", "Ks Kd 4c / 9h", AMY, "-", "surrender", "", "x" * 300]),
    lambda inner: (
        st.lists(inner, max_size=6)
        | st.dictionaries(st.sampled_from(["Amy", "Bob", "a", "__proto__"]), inner, max_size=4)
    ),
    max_leaves=12,
)
_BODIES = st.dictionaries(
    st.sampled_from(
        [
            "seat",
            "rev",
            "take",
            "force",
            "release",
            "rows",
            "text",
            "surrender",
            "waive",
            "out",
            "set",
            "players",
            "key",
            "terms",
            "again",
            "deal",
            "digest",
            "hands",
        ]
    ),
    _VALUES,
    max_size=7,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    requests=st.lists(
        st.tuples(st.sampled_from(["api/deal/hand", "api/deal/seats", "api/deal/save", "api/replace"]), _BODIES),
        max_size=8,
    )
)
def test_any_request_of_the_table_is_answered_without_a_traceback(night, requests):
    night.write_text("@rules ofc\n@stake 10\n@players Amy Bob Cy\n" + _deal_lines(SEAT_ROWS), encoding="utf-8")
    app = make_app(str(night))
    amy, bob = Phone(app, "amy"), Phone(app, "bob")
    for index, (path, body) in enumerate(requests):
        phone = amy if index % 2 else bob
        status, answer = phone.post(path, body)
        assert status in (200, 400, 409), (path, body, answer)
        if status != 200:
            assert "\n" not in answer["error"] and len(answer["error"]) <= 300 and "Traceback" not in answer["error"]
        status, view = phone.get("api/deal")
        assert status == 200 and len(view["seats"]) >= 2
