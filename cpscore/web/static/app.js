// cpscore serve: the page's script.  Plain JavaScript, no build step, nothing
// loaded from elsewhere.  Every check is the server's (the library's one-line
// messages); the script only lays the cards out and shows what it is told.
"use strict";

(function () {
  const RANKS = "AKQJT98765432".split("");
  const SUITS = [["s", "\u2660"], ["h", "\u2665"], ["d", "\u2666"], ["c", "\u2663"]];
  const ROWS = [["front", 3], ["middle", 5], ["back", 5]];
  const HAND = 13;
  const token = new URLSearchParams(window.location.search).get("token");
  // The token has set its cookie by now (the page's answer): it leaves the address bar, so that
  // it is not shown over a shoulder, kept in the history or shared with the address.
  if (token) {
    try { window.history.replaceState(null, "", window.location.pathname); } catch (error) { /* kept */ }
  }

  let table = null;      // the server's table: rules, stakes, seats, next deal
  let session = null;    // cpscore session --format json
  let seats = [];        // the seats of the deal being entered
  // Maps keyed by a player's name have no prototype: a seat named __proto__, constructor or
  // toString is a name like any other.
  const byName = () => Object.create(null);
  const own = (object, key) => (Object.prototype.hasOwnProperty.call(object, key) ? object[key] : undefined);
  const drafts = byName(); // name -> {text, surrender, waive, out}
  let active = 0;        // the seat the card buttons fill
  let timer = null;
  let asked = 0;         // the last check sent: older answers are dropped
  let undoArmed = null;
  let undoDeal = null;   // the deal the armed Undo button names ({deal, digest}): only that one is removed
  // The deal being entered: its key, made when it began and sent with every save of it (a retry
  // of a save that landed, whose answer was lost, is answered "already saved" and saves nothing).
  let draftKey = null;
  let unanswered = false; // a save of this draft was sent and no answer came: it may have landed
  let saving = false;    // a save is on its way
  let shownTerms = null; // the terms the preview on the page was settled at: the save must still find them
  let repeatOf = null;   // {deal, digest}: the earlier deal these hands are
  let again = false;     // the table says it really was dealt twice: the save lets the repeat through
  let notice = "";       // said under the deal until it is saved: the session changed meanwhile
  let seen = null;       // what the session was when the preview was last made (see sessionMark)
  let stateTag = null;   // the tag (ETag) of the state last shown: a poll of an unchanged night gets no body

  const $ = (id) => document.getElementById(id);

  function el(tag, attributes, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attributes || {})) {
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else node.setAttribute(key, value);
    }
    for (const child of children) {
      if (child !== null && child !== undefined) node.append(child);
    }
    return node;
  }

  async function call(method, path, body, tag) {
    // The server's JSON answer; with "unreached" when none came (the network, or something between
    // the phone and the server answering instead): a save may have landed all the same.
    // With the tag of the answer last seen: {unchanged: true} when the server has nothing new.
    const options = { method, headers: {} };
    if (token) options.headers["X-Cpscore-Token"] = token;
    if (tag) options.headers["If-None-Match"] = tag;
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    let response;
    try {
      response = await fetch(path, options);
    } catch (error) {
      return { error: "the server cannot be reached: is cpscore serve still running?", unreached: true };
    }
    if (response.status === 304) return { unchanged: true };
    try {
      const answer = await response.json();
      if (answer && typeof answer === "object") answer.tag = response.headers.get("ETag");
      return answer;
    } catch (error) {
      return {
        error: `the server cannot be reached (the answer was ${response.status} ${response.statusText}, not the server's)`,
        unreached: true,
      };
    }
  }

  function newKey() {
    const bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
  }

  function digestOf(digest) {
    // A deal's identity (8 hex digits of its own lines): what tells it from another deal of the same number.
    return el("code", { class: "digest", text: digest || "" });
  }

  function dealNamed(number, digest) {
    // "deal N (digest)", as nodes
    return [`deal ${number} (`, digestOf(digest), ")"];
  }

  // Cards ----------------------------------------------------------------------

  function cardsIn(text) {
    const found = [];
    const pattern = /(10|[2-9tjqka])([shdc])/gi;
    let match;
    while ((match = pattern.exec(text)) !== null) {
      const rank = match[1] === "10" ? "T" : match[1].toUpperCase();
      found.push(rank + match[2].toLowerCase());
    }
    return found;
  }

  function strayWord(text) {
    // A word of a typed hand that is neither a card nor a marker: the server's error is shown.
    const words = text.replace(/[\/;,]/g, " ").split(/\s+/).filter(Boolean);
    const card = /^(10|[2-9tjqka])[shdc\u2660\u2665\u2666\u2663]$/i;
    return words.some((word) => !card.test(word) && !/^(surrender|waive|banker)$/i.test(word));
  }

  function handText(cards) {
    const rows = [];
    let start = 0;
    for (const [, size] of ROWS) {
      const row = cards.slice(start, start + size);
      if (row.length) rows.push(row.join(" "));
      start += size;
    }
    return rows.join(" / ");
  }

  function cardLabel(card) {
    const suit = SUITS.find(([letter]) => letter === card[1]);
    return el("span", { class: `card suit-${card[1]}`, text: card[0] + (suit ? suit[1] : card[1]) });
  }

  // The deal being entered survives a reload of the page (a phone that slept, a
  // tab brought back): kept in this tab's session storage until it is saved.
  const STORE = "cpscore-draft";

  function remember() {
    try {
      const kept = { file: table.file, key: draftKey, unanswered, players: $("players").value, drafts };
      window.sessionStorage.setItem(STORE, JSON.stringify(kept));
    } catch (error) { /* no storage (a private window): nothing kept */ }
  }

  function recall() {
    try {
      const kept = JSON.parse(window.sessionStorage.getItem(STORE) || "null");
      if (kept && kept.file === table.file) {
        Object.assign(drafts, kept.drafts);
        draftKey = typeof kept.key === "string" ? kept.key : null;  // the same deal: the same key
        unanswered = kept.unanswered === true;
        return kept.players;
      }
    } catch (error) { /* nothing kept */ }
    return null;
  }

  function forget() {
    // The draft's save was answered (saved, or saved already): the next deal is another draft.
    draftKey = null;
    unanswered = false;
    shownTerms = null;
    repeatOf = null;
    again = false;
    notice = "";
    try { window.sessionStorage.removeItem(STORE); } catch (error) { /* nothing kept */ }
  }

  function draft(name) {
    if (!drafts[name]) drafts[name] = { text: "", surrender: false, waive: false, out: false };
    return drafts[name];
  }

  function sent(name) {
    // The hand as a deal file writes it: the cards, then the markers.
    const hand = draft(name);
    if (hand.out) return "-";
    const markers = [];
    if (hand.surrender) markers.push("surrender");
    if (hand.waive) markers.push("waive");
    const text = hand.text.trim();
    if (!text) return markers.includes("surrender") ? "surrender" : "";
    return [text, ...markers].join("; ");
  }

  function usedCards() {
    const used = {};
    seats.forEach((name, index) => {
      if (draft(name).out) return;  // a seat that sits out sends no cards: its text holds none back
      for (const card of cardsIn(draft(name).text)) used[card] = index;
    });
    return used;
  }

  // The deal being entered -------------------------------------------------------

  function parseSeats(text) {
    const parts = text.includes(",") ? text.split(",") : text.split(/\s+/);
    return parts.map((part) => part.trim()).filter((part) => part);
  }

  function seatsText(names) {
    return names.some((name) => name.includes(" ")) ? names.join(", ") : names.join(" ");
  }

  function buildSeats() {
    const box = $("seats");
    box.replaceChildren();
    seats.forEach((name, index) => {
      const hand = draft(name);
      const input = el("textarea", {
        id: `hand-${index}`, class: "hand", rows: "2", autocomplete: "off", autocapitalize: "none", spellcheck: "false",
        placeholder: "front / middle / back", "aria-label": `${name}'s hand`,
      });
      input.value = hand.text;
      input.addEventListener("focus", () => choose(index));
      input.addEventListener("input", () => { hand.text = input.value; changed(); });
      const marks = el("div", { class: "marks" });
      for (const [key, label] of [["surrender", "surrender"], ["waive", "waive"], ["out", "sits out"]]) {
        if (key === "surrender" && table && !table.rules.surrender) continue;
        const box = el("input", { type: "checkbox", id: `${key}-${index}` });
        box.checked = hand[key];
        box.addEventListener("change", () => { hand[key] = box.checked; changed(); });
        marks.append(el("label", {}, box, " " + label));
      }
      const playing = table && table.fantasyland.includes(name);
      const seat = el(
        "div", { class: "seat", id: `seat-${index}` },
        el("div", { class: "seat-head" },
          el("strong", { text: name }),
          playing ? el("span", { class: "badge", text: "Fantasyland" }) : null,
          el("span", { class: "count", id: `count-${index}` })),
        input, marks,
        el("p", { class: "error", id: `error-${index}`, role: "alert" }),
        el("p", { class: "warning", id: `warning-${index}` }),
        el("p", { class: "note", id: `note-${index}` }),
      );
      seat.addEventListener("click", (event) => { if (event.target.tagName !== "INPUT") choose(index); });
      input.addEventListener("keydown", (event) => { if (event.key === "Enter") event.preventDefault(); });
      box.append(seat);
    });
    if (active >= seats.length) active = 0;
    refreshSeats();
  }

  function choose(index) {
    active = index;
    refreshSeats();
  }

  function refreshSeats() {
    seats.forEach((name, index) => {
      const count = cardsIn(draft(name).text).length;
      $(`count-${index}`).textContent = `${count}/${HAND}`;
      $(`seat-${index}`).classList.toggle("active", index === active);
      const input = $(`hand-${index}`);
      if (document.activeElement !== input) input.value = draft(name).text;
    });
    const used = usedCards();
    for (const button of document.querySelectorAll("#cards button")) {
      const owner = used[button.dataset.card];
      button.disabled = owner !== undefined && owner !== active;
      button.classList.toggle("mine", owner === active);
    }
    const name = seats[active];
    if (name === undefined) {
      $("picking").textContent = "";
      return;
    }
    const count = cardsIn(draft(name).text).length;
    let row = "full";
    let start = 0;
    for (const [label, size] of ROWS) {
      if (count < start + size) {
        row = `${label} ${count - start}/${size}`;
        break;
      }
      start += size;
    }
    $("picking").textContent = `Tapping cards for ${name}: ${row}`;
  }

  function buildPicker() {
    const box = $("cards");
    box.replaceChildren();
    for (const [suit, symbol] of SUITS) {
      const line = el("div", { class: "suit-line" });
      for (const rank of RANKS) {
        const card = rank + suit;
        const button = el("button", { type: "button", id: `card-${card}`, class: `suit-${suit}`, "aria-label": card });
        button.dataset.card = card;
        button.append(el("span", { class: "rank", text: rank === "T" ? "10" : rank }), el("span", { text: symbol }));
        button.addEventListener("click", () => tap(card));
        line.append(button);
      }
      box.append(line);
    }
  }

  function tap(card) {
    const name = seats[active];
    if (name === undefined) return;
    const hand = draft(name);
    const cards = cardsIn(hand.text);
    const at = cards.indexOf(card);
    if (at >= 0) {
      cards.splice(at, 1);  // tapped again: taken back
    } else if (cards.length < HAND) {
      cards.push(card);
    }
    hand.text = handText(cards);
    if (cards.length === HAND) {  // on to the next seat still short of cards
      const next = seats.findIndex((other, index) =>
        index !== active && !draft(other).out && cardsIn(draft(other).text).length < HAND);
      if (next >= 0) active = next;
    }
    changed();
  }

  function changed() {
    $("saved").textContent = "";
    if (draftKey === null) draftKey = newKey();  // a draft begins
    again = false;  // "dealt twice" was said of the hands as they were
    shownTerms = null;  // what is shown is the hands as they were: no save until they are checked
    $("save").disabled = true;
    $("again").hidden = true;
    remember();
    refreshSeats();
    clearTimeout(timer);
    timer = setTimeout(check, 200);
  }

  function dealBody() {
    const hands = byName();
    for (const name of seats) hands[name] = sent(name);
    return { players: $("players").value, hands };
  }

  async function check() {
    const number = ++asked;
    const mark = sessionMark();
    const answer = await call("POST", "api/check", dealBody());
    if (number !== asked) return;
    if (answer.repeat && !answer.unreached) {
      // These hands are an earlier deal's: the deal as it would be saved if it really was dealt twice.
      const twice = await call("POST", "api/check", { ...dealBody(), again: true });
      if (number !== asked) return;
      if (twice.deal) {
        answer.deal = twice.deal;
        answer.terms = twice.terms;
      }
    }
    seen = answer.unreached ? "unreached" : mark;  // unreached: checked again once the server answers
    showChecks(answer);
  }

  function repeatText(repeat) {
    return `Deal ${repeat.deal} (${repeat.digest}) has the same hands: this deal is in the file already.`;
  }

  function lostText() {
    return "The server cannot be reached, or its answer was lost (is cpscore serve still running? " +
      "is this phone on the table's network?): the deal may be saved already. Tap Save again: it is never saved twice.";
  }

  function showChecks(answer) {
    const reports = answer.seats || {};
    seats.forEach((name, index) => {
      const report = own(reports, name) || {};
      // A hand still being tapped in is not wrong yet: its count says how far it is.
      const hand = draft(name);
      const partial = cardsIn(hand.text).length < HAND && !hand.surrender && !hand.out && !strayWord(hand.text);
      $(`error-${index}`).textContent = partial ? "" : report.error || "";
      $(`warning-${index}`).textContent = report.warning ? `Warning: ${report.warning}` : "";
      const notes = [];
      if (report.out) notes.push(`${name} ${report.out === "sits out" ? "sits out" : "sits out: " + report.out}`);
      if (report.natural && !report.warning) notes.push(`Natural: ${report.natural}`);
      notes.push(...(report.notes || []));
      $(`note-${index}`).textContent = notes.join(" ");
    });
    repeatOf = answer.repeat || null;
    const general = answer.field === null || answer.field === undefined || answer.field === "deal";
    $("players-error").textContent = answer.field === "players" ? answer.error : "";
    // "no hand yet" is said beside its seat only once the seat has cards
    const empty = answer.field && reports[answer.field] && reports[answer.field].empty;
    $("deal-error").textContent = general && answer.error ? answer.error : "";
    if (repeatOf) $("deal-error").textContent = repeatText(repeatOf);
    if (empty) $("deal-error").textContent = "";
    if (notice && !$("deal-error").textContent) $("deal-error").textContent = notice;
    // A save whose answer was lost: said until a save is answered (the check may see the deal it saved).
    if (unanswered) $("deal-error").textContent = lostText();
    shownTerms = answer.deal && answer.terms ? answer.terms : null;
    // After a lost answer, hands that are an earlier deal's are most likely the deal that save landed as:
    // no "if saved again" (Save asks the server, by the draft's key, first).
    showPreview(unanswered && repeatOf ? null : answer.deal, repeatOf ? "If saved again" : "If saved");
    // A repeat is saved only by the tap that says it was dealt twice; after a lost answer, Save asks first.
    $("save").disabled = saving || !shownTerms || (repeatOf !== null && !unanswered);
    $("again").hidden = !(repeatOf && shownTerms && !unanswered);
    $("again").disabled = saving;
  }

  function showPreview(deal, title) {
    const preview = $("preview");
    preview.replaceChildren();
    if (deal) {
      preview.append(el("h3", {}, `${title}: `, ...dealNamed(deal.deal, deal.digest)), dealView(deal));
    }
  }

  async function save(dealtTwice) {
    if (saving) return;
    saving = true;
    $("save").disabled = true;
    $("again").disabled = true;
    if (dealtTwice === true) again = true;
    if (draftKey === null) draftKey = newKey();
    const body = { ...dealBody(), key: draftKey, terms: shownTerms };
    if (again) body.again = true;
    unanswered = true;  // until an answer comes: kept with the draft, over a reload
    remember();
    const answer = await call("POST", "api/save", body);
    saving = false;
    if (answer.unreached) {  // the save may have landed: the same key asks again, and saves it once
      $("deal-error").textContent = lostText();
      $("save").disabled = false;
      $("again").hidden = true;
      return;
    }
    unanswered = false;
    remember();
    if (answer.error) {
      if (answer.terms && answer.deal) {
        // The file changed since the deal was shown: it is shown as it would now be, and a new tap saves it.
        await load(false);
        asked++;  // a check on its way is of the session as it was
        seen = sessionMark();
        notice = answer.error;
        $("deal-error").textContent = notice;
        shownTerms = answer.terms;
        showPreview(answer.deal, repeatOf ? "If saved again" : "If saved");
        $("save").disabled = repeatOf !== null;
        $("again").hidden = repeatOf === null;
        $("again").disabled = false;
        return;
      }
      if (answer.repeat) {  // saved meanwhile with the same hands: said, and the deal checked again
        again = false;
        await load(false);
        await check();
        return;
      }
      if (answer.seats) showChecks(answer);
      const index = seats.indexOf(answer.field);
      if (index >= 0) $(`error-${index}`).textContent = answer.error;
      else if (answer.field === "players") $("players-error").textContent = answer.error;
      else $("deal-error").textContent = answer.error;
      $("save").disabled = !shownTerms;
      $("again").disabled = false;
      return;
    }
    for (const name of Object.keys(drafts)) delete drafts[name];
    forget();
    active = 0;
    $("preview").replaceChildren();
    $("again").hidden = true;
    const warnings = (answer.warnings || []).map((warning) => ` Warning: ${warning}`).join("");
    await load(true);
    const saved = $("saved");
    if (answer.already) {
      saved.replaceChildren("This deal was already saved as ", ...dealNamed(answer.saved, answer.digest),
        ": it is not saved twice.");
    } else {
      saved.replaceChildren("Saved ", ...dealNamed(answer.saved, answer.digest), `.${warnings}`);
    }
  }

  // What the session says ------------------------------------------------------

  function signed(value) {
    return value > 0 ? `+${value}` : `${value}`;
  }

  function dealView(deal) {
    const box = el("div", { class: "deal" });
    const list = el("ul", { class: "hands" });
    for (const player of deal.players) {
      const notes = [];
      if (player.foul) notes.push(`fouls: ${player.foul_reason}`);
      if (player.surrendered) notes.push("surrenders");
      if (player.natural) notes.push(`natural: ${player.natural}`);
      if (player.fantasyland && player.fantasyland.next) notes.push("Fantasyland next");
      list.append(el("li", {},
        el("strong", { text: player.name }), " ",
        el("span", { class: "cards", text: player.hand || "" }), " ",
        el("span", { class: player.units < 0 ? "neg" : "pos", text: signed(player.units) }),
        table.money ? el("span", { class: "amount", text: ` (${signed(player.amount)})` }) : null,
        notes.length ? el("span", { class: "notes", text: ` (${notes.join("; ")})` }) : null));
    }
    box.append(list);
    // The settlement matrix: each row's player against each column's, in units.
    const names = deal.players.map((player) => player.name);
    const units = byName();
    for (const pair of deal.pairs) {
      units[`${pair.a}\u0000${pair.b}`] = pair.units;
      units[`${pair.b}\u0000${pair.a}`] = -pair.units;
    }
    const matrix = el("table", { class: "matrix" });
    matrix.append(el("tr", {}, el("th", {}), ...names.map((name) => el("th", { text: name })), el("th", { text: "Total" })));
    for (const player of deal.players) {
      const row = el("tr", {}, el("th", { text: player.name }));
      for (const other of names) {
        const value = units[`${player.name}\u0000${other}`];
        row.append(el("td", { text: value === undefined ? "" : signed(value) }));
      }
      row.append(el("td", { class: "total", text: signed(player.units) }));
      matrix.append(row);
    }
    box.append(el("div", { class: "scroll" }, matrix));
    return box;
  }

  function showSession() {
    const money = table.money;
    const totals = $("totals");
    totals.replaceChildren(el("tr", {}, el("th", { text: "Player" }), el("th", { text: "Units" }),
      money ? el("th", { text: "Money" }) : null));
    for (const total of session.totals) {
      totals.append(el("tr", {}, el("td", { text: total.name }),
        el("td", { class: total.units < 0 ? "neg" : "pos", text: signed(total.units) }),
        money ? el("td", { text: signed(total.amount) }) : null));
    }
    if (!session.totals.length) totals.append(el("tr", {}, el("td", { text: "No deal yet." })));
    const transfers = $("transfers");
    transfers.replaceChildren();
    for (const transfer of session.transfers) {
      transfers.append(el("li", { text: `${transfer.from} pays ${transfer.to} ${transfer.amount}` }));
    }
    if (!session.transfers.length) transfers.append(el("li", { text: "Nobody owes anybody." }));

    const deals = session.deals;
    const last = deals[deals.length - 1];
    $("through").replaceChildren(...(last ? ["After ", ...dealNamed(last.deal, last.digest)] : []));
    const box = $("last-deal");
    box.replaceChildren();
    if (last) {
      box.append(el("h3", {}, `Deal ${last.deal} (`, digestOf(last.digest), `, line ${last.line})`), dealView(last));
    } else {
      box.append(el("p", { text: "No deal yet." }));
    }
    $("undo").disabled = !last;

    const pick = $("explain-deal");
    const chosen = pick.value;
    pick.replaceChildren(...deals.map((deal) => el("option", { value: deal.deal, text: deal.deal })));
    if (chosen && deals.some((deal) => String(deal.deal) === chosen)) pick.value = chosen;
    else if (last) pick.value = last.deal;
    explainPlayers();
  }

  function explainPlayers() {
    const deal = session.deals.find((found) => String(found.deal) === $("explain-deal").value);
    const names = deal ? deal.totals.map((total) => total.name) : [];
    for (const [id, place] of [["explain-a", 0], ["explain-b", 1]]) {
      const select = $(id);
      const chosen = select.value;
      select.replaceChildren(...names.map((name) => el("option", { value: name, text: name })));
      if (names.includes(chosen)) select.value = chosen;
      else if (names[place] !== undefined) select.value = names[place];
    }
    $("explain-go").disabled = names.length < 2;
  }

  async function explain() {
    const query = new URLSearchParams({ deal: $("explain-deal").value, a: $("explain-a").value, b: $("explain-b").value });
    const answer = await call("GET", `api/explain?${query}`);
    $("explain-error").textContent = answer.error || "";
    $("explanation").textContent = answer.error ? "" : answer.text;
  }

  function showRules() {
    const rules = table.rules;
    $("rules-summary").textContent = `${rules.id}: ${rules.summary}`;
    const stakes = $("stakes");
    stakes.replaceChildren(el("li", { text: `Stake: ${table.stake} a unit` }));
    for (const pair of table.pair_stakes) {
      stakes.append(el("li", { text: `${pair.pair.join(" and ")}: ${pair.stake} a unit` }));
    }
    if (table.buy_in !== null) stakes.append(el("li", { text: `Buy-in: ${table.buy_in}` }));
    $("rules-toml").textContent = rules.toml;
  }

  async function load(fresh, poll) {
    // poll: the periodic look, which sends the tag of the state last shown (an unchanged night: no body).
    const answer = await call("GET", "api/state", undefined, poll ? stateTag : null);
    if (answer.unchanged) return;
    stateTag = answer.error ? null : answer.tag;
    if (answer.error) {
      $("load-error").textContent = answer.error;
      return;
    }
    $("load-error").textContent = "";
    const before = table;
    table = answer.table;
    session = answer.session;
    $("file").textContent = table.file;
    const count = session.deals.length;
    $("summary").textContent = `rules ${table.rules.id}, ${count ? count + " deal" + (count === 1 ? "" : "s") : "no deal yet"}`;
    $("deal-number").textContent = table.next;
    $("over").textContent = table.over || "";
    const players = $("players");
    const typed = document.activeElement === players;
    const sameSeats = before && seatsText(before.seats) === players.value;
    if (fresh || !before || (sameSeats && !typed)) {
      const kept = before ? null : recall();  // the page was reloaded mid-deal
      players.value = kept !== null ? kept : seatsText(table.seats);
      $("players-error").textContent = table.seats_error || "";
      const next = parseSeats(players.value);
      if (fresh || !before || seatsText(next) !== seatsText(seats) ||
          JSON.stringify(before.fantasyland) !== JSON.stringify(table.fantasyland)) {
        seats = next;
        if (kept !== null) {  // on with the first seat still short of cards
          active = Math.max(0, seats.findIndex((name) => cardsIn(draft(name).text).length < HAND));
        }
        buildSeats();
      }
    }
    showSession();
    showRules();
    const last = session.deals.length ? session.deals[session.deals.length - 1] : null;
    if (undoArmed !== null && (!last || last.deal !== undoDeal.deal || last.digest !== undoDeal.digest)) {
      disarm();  // the last deal is another now
    }
    if (fresh) check();
    else if (draftKey !== null && seen !== null && seen !== sessionMark()) {
      // The session changed under the deal being entered (another phone, a command): the preview is
      // of the deal as it would now be saved.
      if (!unanswered && before && before.next < table.next) {
        notice = `Deal ${table.next - 1} was saved meanwhile (by another phone?): ` +
          "look at the last deal before saving this one.";
      }
      check();
    }
  }

  function sessionMark() {
    // What the deal being entered is settled against: the deals (each by its digest) and the table.
    if (!table || !session) return null;
    return JSON.stringify([session.deals.map((deal) => deal.digest), table.stake, table.pair_stakes, table.seats,
      table.fantasyland, table.buy_in, table.over]);
  }

  function seatsChanged() {
    seats = parseSeats($("players").value);
    buildSeats();
    changed();
  }

  async function undo() {
    const last = session.deals[session.deals.length - 1];
    if (!last) return;
    const button = $("undo");
    if (undoArmed === null) {  // a second tap removes it: no dialog to dismiss on a phone
      button.textContent = `Tap again to remove deal ${last.deal} (${last.digest})`;
      button.classList.add("armed");
      undoDeal = { deal: last.deal, digest: last.digest };
      undoArmed = setTimeout(disarm, 5000);
      return;
    }
    const armed = undoDeal;
    disarm();
    // The deal the button named, by its digest: if the last deal is another by now, nothing is removed.
    const answer = await call("POST", "api/undo", { expect: armed.deal, digest: armed.digest });
    $("undo-error").textContent = answer.error || "";
    $("undone").textContent = "";
    await load(false);
    if (!answer.error) {
      $("undone").replaceChildren("Removed ", ...dealNamed(answer.removed, answer.digest), ".");
    }
  }

  function disarm() {
    clearTimeout(undoArmed);
    undoArmed = null;
    undoDeal = null;
    $("undo").textContent = "Undo last deal";
    $("undo").classList.remove("armed");
  }

  function backCard() {
    const name = seats[active];
    if (name === undefined) return;
    const cards = cardsIn(draft(name).text);
    cards.pop();
    draft(name).text = handText(cards);
    changed();
  }

  function clearHand() {
    const name = seats[active];
    if (name === undefined) return;
    drafts[name] = { text: "", surrender: false, waive: false, out: false };
    buildSeats();
    changed();
  }

  document.addEventListener("DOMContentLoaded", () => {
    buildPicker();
    $("players").addEventListener("change", seatsChanged);
    $("save").addEventListener("click", () => save(false));
    $("again").addEventListener("click", () => save(true));
    $("undo").addEventListener("click", undo);
    $("explain-deal").addEventListener("change", explainPlayers);
    $("explain-go").addEventListener("click", explain);
    $("back-card").addEventListener("click", backCard);
    $("clear-hand").addEventListener("click", clearHand);
    $("save").disabled = true;
    load(true);
    // Another phone's saves show up here too.
    setInterval(() => { if (document.visibilityState === "visible") load(false, true); }, 5000);
  });
})();
