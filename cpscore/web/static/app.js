// cpscore serve: the page's script.  Plain JavaScript, no build step, nothing
// loaded from elsewhere.  The server holds the deal being entered (each phone
// enters the seats it holds), reads every typed card and checks every hand:
// the script lays the rows and cards out, and shows what it is told.  Its
// words are in static/words.json, one catalogue per language.
"use strict";

(function () {
  const RANKS = "AKQJT98765432".split("");
  const SYMBOL = { s: "\u2660", h: "\u2665", d: "\u2666", c: "\u2663" };
  const ROWS = [["front", 3], ["middle", 5], ["back", 5]];
  const HAND = 13;
  const POLL = 2000; // ms: the deal being entered is looked at this often (an unchanged one costs no body)

  const token = new URLSearchParams(window.location.search).get("token");
  // The token has set its cookie by now (the page's answer): it leaves the address bar, so that
  // it is not shown over a shoulder, kept in the history or shared with the address.
  if (token) {
    try { window.history.replaceState(null, "", window.location.pathname); } catch (error) { /* kept */ }
  }

  // Maps keyed by a player's name have no prototype: a seat named __proto__, constructor or
  // toString is a name like any other.
  const byName = () => Object.create(null);
  const $ = (id) => document.getElementById(id);

  // Words ----------------------------------------------------------------------

  let catalogue = null;  // {languages: {...}, en: {...}, vi: {...}, zh: {...}}
  let language = "en";

  function word(key, values) {
    const own = catalogue && catalogue[language] && catalogue[language][key];
    let text = own !== undefined ? own : (catalogue && catalogue.en[key]) || key;
    for (const [name, value] of Object.entries(values || {})) text = text.split(`{${name}}`).join(String(value));
    return text;
  }

  function chooseLanguage() {
    const kept = storage("get", "cpscore-language");
    const offered = Object.keys(catalogue.languages);
    if (kept && offered.includes(kept)) return kept;
    for (const wanted of navigator.languages || [navigator.language || "en"]) {
      const short = String(wanted).toLowerCase().split("-")[0];
      if (offered.includes(short)) return short;
    }
    return "en";
  }

  function storage(how, key, value) {
    try {
      if (how === "get") return window.localStorage.getItem(key);
      if (how === "set") window.localStorage.setItem(key, value);
    } catch (error) { /* no storage (a private window) */ }
    return null;
  }

  function translate() {
    document.documentElement.lang = language;
    for (const node of document.querySelectorAll("[data-word]")) node.textContent = word(node.dataset.word);
    $("typed").placeholder = word("typed_placeholder");
  }

  // The phone: a random id it keeps, which names the seats it holds ------------------

  let phone = storage("get", "cpscore-phone");
  if (!phone || !/^[A-Za-z0-9-]{8,64}$/.test(phone)) {
    const bytes = new Uint8Array(12);
    window.crypto.getRandomValues(bytes);
    phone = Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
    storage("set", "cpscore-phone", phone);
  }

  async function call(method, path, body, tag) {
    // The server's JSON answer; with "unreached" when none came (a save may have landed all the same).
    // With the tag of the answer last seen: {unchanged: true} when the server has nothing new.
    const options = { method, headers: { "X-Cpscore-Phone": phone } };
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
      return { error: word("unreachable"), unreached: true };
    }
    if (response.status === 304) return { unchanged: true };
    try {
      const answer = await response.json();
      if (answer && typeof answer === "object") {
        answer.tag = response.headers.get("ETag");
        answer.status = response.status;
      }
      return answer;
    } catch (error) {
      return { error: word("unreachable_status", { status: response.status }), unreached: true };
    }
  }

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

  function signed(value) {
    return value > 0 ? `+${value}` : `${value}`;
  }

  function unbroken(text) {
    // No line break inside a hand's ranks (J-T-9-8-7): its hyphens do not break.
    return String(text).replace(/(\S)-(?=\S)/g, "$1\u2011");
  }

  function cardNode(card) {
    const rank = card[0] === "T" ? "10" : card[0];
    return el("span", { class: `card suit-${card[1]}`, text: rank + (SYMBOL[card[1]] || card[1]) });
  }

  function handNode(text) {
    // A hand as the session writes it: each card and each row kept whole on its line.
    const box = el("span", { class: "hand-text" });
    String(text || "").split(" / ").forEach((row, index) => {
      if (index) box.append(" / ");
      const part = el("span", { class: "row-text" });
      row.split(/\s+/).filter(Boolean).forEach((card, at) => {
        if (at) part.append(" ");
        part.append(/^[2-9TJQKA][shdc]$/.test(card) ? cardNode(card) : card);
      });
      box.append(part);
    });
    return box;
  }

  function digestOf(digest) {
    return el("code", { class: "digest", text: digest || "" });
  }

  // What the page knows -----------------------------------------------------------

  let table = null;      // the server's table: rules, stakes, seats, next deal
  let session = null;    // the night: deals (each as cpscore session --format jsonl writes it), totals
  let nightVersion = null;
  let through = null;    // the server's name for the deals held here (N:MARK), sent back to get only newer ones
  let deal = null;       // the deal being entered, as this phone sees it (GET /api/deal)
  let dealTag = null;
  let current = null;    // the seat this phone is entering (a seat it holds)
  let row = 0;           // the row a tapped card goes to
  const mine = byName(); // seat -> {rows, surrender, waive, out, set, rev}: this phone's hands as it has them
  let sending = null;    // the seat whose change is on its way
  const dirty = new Set(); // seats changed here since their last change was sent
  let saving = false;
  let changedAt = 0;     // the deal's version after this phone's last change: no older view is shown
  let boot = null;       // the server's run the versions are of
  let unanswered = null; // the key of the deal whose save was sent and got no answer (it may have landed)
  let armed = null;      // {what, until}: a second tap does it (undo, take over)

  // The deal being entered --------------------------------------------------------

  function seatView(name) {
    return deal ? deal.seats.find((seat) => seat.name === name) : undefined;
  }

  function cardsOf(hand) {
    return hand.rows.flat().filter((card) => card !== null);
  }

  function adopt(view) {
    // The server's view of the deal: this phone's own hands are taken from it, unless changed here meanwhile.
    // A view older than this phone's last change (a poll answered after it) is not taken.
    if (view.boot !== boot) {  // the server was started again: its versions count from 0
      boot = view.boot;
      changedAt = 0;
    }
    if (view.version < changedAt) return;
    if (unanswered !== null && view.key !== unanswered) unanswered = null;  // that deal was saved: the list shows it
    deal = view;
    for (const seat of view.seats) {
      if (seat.held === "me" && seat.rows && !dirty.has(seat.name) && sending !== seat.name) {
        mine[seat.name] = {
          rows: seat.rows.map((slots) => slots.slice()), surrender: seat.surrender, waive: seat.waive,
          out: seat.out, set: seat.set, rev: seat.rev,
        };
      }
    }
    for (const name of Object.keys(mine)) {
      const seat = seatView(name);
      if (!seat || seat.held !== "me") delete mine[name];
    }
    if (current === null || !mine[current]) {
      const kept = storage("get", `cpscore-seat:${table ? table.file : ""}`);
      current = kept && mine[kept] ? kept : Object.keys(mine)[0] || null;
      row = firstFree(current);
    }
    showDeal();
  }

  async function lookAtDeal(poll) {
    const answer = await call("GET", "api/deal", undefined, poll ? dealTag : null);
    if (answer.unchanged) return;
    if (answer.error) {
      $("load-error").textContent = answer.error;
      return;
    }
    $("load-error").textContent = "";
    dealTag = answer.tag;
    if (answer.night !== nightVersion) await lookAtNight();
    adopt(answer);
  }

  async function send(name) {
    // This phone's hand of seat NAME, whole, to the server; one change on its way at a time.
    if (sending !== null) return;
    const hand = mine[name];
    if (!hand) return;
    dirty.delete(name);
    sending = name;
    const body = { seat: name, rev: hand.rev, rows: hand.rows, surrender: hand.surrender, waive: hand.waive,
      out: hand.out, set: hand.set };
    const answer = await call("POST", "api/deal/hand", body);
    sending = null;
    if (answer.unreached) {  // not sent: kept, and sent again with the next look at the server
      dirty.add(name);
      $("hand-error").textContent = answer.error;
      return;
    }
    if (answer.error) {  // refused: the seat as the server has it is shown again, the other seats' changes go on
      $("hand-error").textContent = answer.error;
      dealTag = null;
      await lookAtDeal(false);
      $("hand-error").textContent = answer.error;
    } else {
      $("hand-error").textContent = "";
      noted(answer);
      if (mine[name]) mine[name].rev = answer.rev;
    }
    const next = dirty.values().next();
    if (!next.done) {
      await send(next.value);
      return;
    }
    if (!answer.error) await lookAtDeal(false);
  }

  async function idle() {
    // Until no change of this phone is on its way (a typed hand, a seat let go: made on the seat's latest revision).
    while (sending !== null) await new Promise((done) => setTimeout(done, 50));
  }

  function noted(answer) {
    // A change this phone made: the views from before it are old.
    if (answer && typeof answer.version === "number") changedAt = Math.max(changedAt, answer.version);
  }

  function changed(name) {
    $("saved").replaceChildren();
    dirty.add(name);
    showHand();
    send(name);
  }

  async function take(name, force) {
    const seat = seatView(name);
    if (!seat) return;
    const answer = await call("POST", "api/deal/hand", { seat: name, rev: seat.rev, take: true, force: !!force });
    $("deal-error").textContent = answer.error || "";
    noted(answer);
    if (answer.cleared) $("deal-error").textContent = word("seat_cleared", { name });
    if (!answer.error) {
      current = name;
      storage("set", `cpscore-seat:${table.file}`, name);
    }
    dealTag = null;
    await lookAtDeal(false);
  }

  async function release() {
    await idle();
    const hand = mine[current];
    if (!hand) return;
    const answer = await call("POST", "api/deal/hand", { seat: current, rev: hand.rev, release: true });
    $("deal-error").textContent = answer.error || "";
    noted(answer);
    current = null;
    dealTag = null;
    await lookAtDeal(false);
  }

  function firstFree(name) {
    // The first row of NAME's hand with a free place (the front when the hand is full).
    const hand = mine[name];
    return hand ? Math.max(0, hand.rows.findIndex((slots) => slots.includes(null))) : 0;
  }

  function chooseSeat(name) {
    const seat = seatView(name);
    if (!seat) return;
    if (seat.held === "me") {
      current = name;
      row = firstFree(name);
      storage("set", `cpscore-seat:${table.file}`, name);
      showDeal();
      return;
    }
    if (seat.held === "other") {
      if (!isArmed(`take:${name}`)) {
        arm(`take:${name}`);
        $("deal-error").textContent = word("take_over_confirm", { name });
        return;
      }
      disarm();
      take(name, true);
      return;
    }
    take(name, false);
  }

  function isArmed(what) {
    return armed !== null && armed.what === what && Date.now() < armed.until;
  }

  function arm(what) {
    armed = { what, until: Date.now() + 5000 };
  }

  function disarm() {
    armed = null;
  }

  function tapCard(card) {
    const hand = mine[current];
    if (!hand) return;
    $("hand-hint").textContent = "";
    for (const [name, other] of Object.entries(mine)) {
      if (name !== current && !other.out && cardsOf(other).includes(card)) {
        $("hand-hint").textContent = word("card_is_other", { card: label(card), name });
        return;
      }
    }
    for (let r = 0; r < ROWS.length; r++) {
      const at = hand.rows[r].indexOf(card);
      if (at >= 0) {  // tapped again: taken out of its place, nothing else moves
        hand.rows[r][at] = null;
        hand.set = false;
        changed(current);
        return;
      }
    }
    let target = row;
    if (!hand.rows[target].includes(null)) target = hand.rows.findIndex((slots) => slots.includes(null));
    if (target < 0) {
      $("hand-hint").textContent = word("hand_full");
      return;
    }
    hand.rows[target][hand.rows[target].indexOf(null)] = card;
    hand.set = false;
    if (!hand.rows[target].includes(null)) {  // the row is full: on to the next with a free place
      const next = hand.rows.findIndex((slots) => slots.includes(null));
      if (next >= 0) row = next;
    } else {
      row = target;
    }
    changed(current);
  }

  function tapSlot(r, at) {
    const hand = mine[current];
    if (!hand) return;
    row = r;
    if (hand.rows[r][at] !== null) {  // a placed card: out of this place only
      hand.rows[r][at] = null;
      hand.set = false;
      changed(current);
      return;
    }
    showHand();
  }

  function label(card) {
    return (card[0] === "T" ? "10" : card[0]) + SYMBOL[card[1]];
  }

  async function useTyped() {
    await idle();
    const hand = mine[current];
    if (!hand) return;
    const text = $("typed").value;
    const answer = await call("POST", "api/deal/hand", { seat: current, rev: hand.rev, text });
    if (answer.error) {
      $("hand-error").textContent = answer.error;
      return;
    }
    $("typed").value = "";
    $("hand-error").textContent = "";
    noted(answer);
    hand.rev = answer.rev;
    dirty.delete(current);
    dealTag = null;
    const name = current;
    delete mine[name];  // taken again from the server: the cards it read
    await lookAtDeal(false);
  }

  function showDeal() {
    if (!deal || !table) return;
    $("deal-number").textContent = deal.next;
    $("seat-names").textContent = deal.players || "";
    if (document.activeElement !== $("players")) $("players").value = deal.players || "";
    $("players-error").textContent = deal.players_error || "";
    const list = $("seat-list");
    list.replaceChildren();
    deal.seats.forEach((seat, index) => {
      const state = word(`state_${seat.state}`, { count: seat.count });
      const held = seat.held === "me" ? word("held_me") : seat.held === "other" ? word("held_other") : word("held_none");
      const button = el("button", { type: "button", id: `seat-${index}`,
        class: `seat-chip state-${seat.state}${seat.name === current ? " current" : ""}` },
        el("strong", { text: seat.name }),
        el("span", { class: "state", text: state }),
        el("span", { class: "held", text: held }),
        seat.fantasyland ? el("span", { class: "badge", text: word("fantasyland") }) : null);
      button.addEventListener("click", () => chooseSeat(seat.name));
      list.append(el("li", {}, button));
    });
    showHand();
    showPreview();
    showBar();
  }

  function showHand() {
    const hand = mine[current];
    $("hand").hidden = !hand;
    if (!hand) return;
    const seat = seatView(current) || {};
    $("hand-title").textContent = word("hand_of", { name: current, count: cardsOf(hand).length });
    const rows = $("rows");
    rows.replaceChildren();
    ROWS.forEach(([name, size], r) => {
      const line = el("div", { class: `row-slots${r === row ? " selected" : ""}`, role: "group", "aria-label": word(`row_${name}`) });
      line.append(el("button", { type: "button", class: "row-name", text: word(`row_${name}`) }));
      line.lastChild.addEventListener("click", () => { row = r; showHand(); });
      for (let at = 0; at < size; at++) {
        const card = hand.rows[r][at];
        const slot = el("button", { type: "button", id: `slot-${r}-${at}`, class: `slot${card ? ` suit-${card[1]}` : ""}`,
          "aria-label": card ? word("slot_card", { card: label(card) }) : word("slot_empty", { row: word(`row_${name}`) }) });
        slot.textContent = card ? label(card) : "";
        slot.dataset.row = String(r);
        slot.dataset.at = String(at);
        slot.addEventListener("click", () => tapSlot(r, at));
        line.append(slot);
      }
      rows.append(line);
    });
    const held = byName();
    for (const [name, other] of Object.entries(mine)) {
      if (name !== current && !other.out) for (const card of cardsOf(other)) held[card] = name;
    }
    const own = new Set(cardsOf(hand));
    for (const button of document.querySelectorAll("#cards button")) {
      const card = button.dataset.card;
      button.classList.toggle("mine", own.has(card));
      button.classList.toggle("other", held[card] !== undefined);
      button.setAttribute("aria-disabled", held[card] !== undefined ? "true" : "false");
      button.title = held[card] !== undefined ? word("card_is_other", { card: label(card), name: held[card] }) : "";
    }
    const marks = $("marks");
    marks.replaceChildren();
    for (const key of ["surrender", "waive", "out"]) {
      if (key === "surrender" && !table.rules.surrender) continue;
      const box = el("input", { type: "checkbox", id: `mark-${key}` });
      box.checked = hand[key];
      box.addEventListener("change", () => { hand[key] = box.checked; hand.set = false; changed(current); });
      marks.append(el("label", {}, box, " " + word(`mark_${key}`)));
    }
    const report = seat.report || {};
    $("hand-warning").textContent = report.warning || "";
    const notes = [];
    if (report.natural) notes.push(word("natural_claimed", { natural: report.natural }));
    for (const note of report.notes || []) notes.push(note);
    $("hand-note").textContent = notes.join(" ");
    if (report.error && !$("hand-error").textContent) $("hand-error").textContent = report.error;
  }

  function showPreview() {
    const box = $("preview");
    box.replaceChildren();
    $("deal-error").textContent = "";
    if (!deal || !deal.revealed || !deal.check) return;
    const check = deal.check;
    if (check.error) $("deal-error").textContent = check.repeat ? word("repeat", { deal: check.repeat.deal, digest: check.repeat.digest }) : check.error;
    if (check.deal) {
      box.append(el("h3", {}, word(check.repeat ? "if_saved_again" : "if_saved"), " ", digestOf(check.deal.digest)),
        dealView(check.deal));
    }
    if (unanswered === deal.key) $("deal-error").textContent = word("lost_answer");
  }

  function showBar() {
    const go = $("bar-go");
    const text = $("bar-text");
    const again = $("bar-again");
    again.hidden = true;
    go.hidden = false;
    go.disabled = saving;
    go.dataset.action = "";
    if (!deal) return;
    if (table && table.over) {
      text.textContent = table.over;
      go.hidden = true;
      return;
    }
    if (deal.revealed) {
      const check = deal.check || {};
      if (check.repeat && check.terms) {
        text.textContent = word("repeat_short", { deal: check.repeat.deal });
        again.hidden = false;
        go.hidden = true;
        return;
      }
      text.textContent = check.terms ? word("all_set") : (check.error || "");
      go.textContent = word("save_deal", { number: deal.next });
      go.dataset.action = "save";
      go.disabled = saving || !check.terms;
      return;
    }
    const waiting = deal.seats.filter((seat) => seat.state !== "set" && seat.state !== "out" && seat.state !== "surrender")
      .map((seat) => seat.name);
    text.textContent = waiting.length ? word("waiting_for", { names: waiting.join(", ") }) : "";
    const hand = mine[current];
    if (hand && !hand.set) {
      const count = cardsOf(hand).length;
      go.textContent = hand.out ? word("set_out") : hand.surrender ? word("set_surrender") : word("set_hand", { count });
      go.dataset.action = "set";
      go.disabled = !(hand.out || hand.surrender || count === HAND) || sending !== null;
    } else if (hand) {
      go.textContent = word("unset");
      go.dataset.action = "unset";
    } else {
      go.hidden = true;
    }
  }

  async function barGo() {
    const action = $("bar-go").dataset.action;
    if (action === "save") return save(false);
    const hand = mine[current];
    if (!hand) return;
    hand.set = action === "set";
    changed(current);
  }

  async function save(dealtTwice) {
    if (saving || !deal || !deal.check) return;
    saving = true;
    showBar();
    unanswered = deal.key;
    const answer = await call("POST", "api/deal/save", { key: deal.key, terms: deal.check.terms, again: dealtTwice === true });
    saving = false;
    if (answer.unreached) {
      $("deal-error").textContent = word("lost_answer");
      showBar();
      return;
    }
    unanswered = null;
    if (answer.error) {
      $("deal-error").textContent = answer.error;
      dealTag = null;
      await lookAtDeal(false);
      $("deal-error").textContent = answer.error;
      return;
    }
    const saved = $("saved");
    const text = answer.already ? "already_saved" : "saved";
    saved.replaceChildren(word(text, { deal: answer.saved }), " ", digestOf(answer.digest));
    for (const warning of answer.warnings || []) saved.append(el("span", { class: "warning", text: ` ${warning}` }));
    dealTag = null;
    await lookAtDeal(false);
  }

  // The night ----------------------------------------------------------------

  async function lookAtNight() {
    // The deals held here, named by the server's mark of them: only what changed comes back.
    const deals = session ? session.deals : [];
    const since = through ? `?since=${encodeURIComponent(through)}` : "";
    const answer = await call("GET", `api/state${since}`);
    if (answer.error) {
      $("load-error").textContent = answer.error;
      return;
    }
    table = answer.table;
    const kept = answer.from > 0 ? deals.slice(0, answer.from) : [];
    session = answer.session;
    session.deals = kept.concat(session.deals);
    nightVersion = answer.version;
    through = answer.through || null;
    showNight();
    lookAtStats();
  }

  function showNight() {
    $("file").textContent = table.file;
    const count = session.deals.length;
    const dates = (session.dates || []).map((found) => found.date).join(", ");
    $("summary").textContent = word("summary", { rules: table.rules.id, count }) + (dates ? ` · ${dates}` : "");
    $("over").textContent = table.over || "";
    showTotals();
    showChart();
    showDeals();
    showRules();
  }

  function showTotals() {
    const money = table.money;
    const totals = $("totals");
    const owed = byName();  // what each player is still owed after the payments recorded (@paid)
    for (const balance of session.balances || []) owed[balance.name] = balance.balance;
    const paid = Boolean(session.balances);
    totals.replaceChildren(el("tr", {}, el("th", { text: word("player") }), el("th", { text: word("units") }),
      money ? el("th", { text: word("money") }) : null, paid ? el("th", { text: word("still_owed") }) : null));
    for (const total of session.totals) {
      totals.append(el("tr", {}, el("td", { text: total.name }),
        el("td", { class: total.units < 0 ? "neg" : "pos", text: signed(total.units) }),
        money ? el("td", { text: signed(total.amount) }) : null,
        paid ? el("td", { text: signed(owed[total.name] ?? 0) }) : null));
    }
    if (!session.totals.length) totals.append(el("tr", {}, el("td", { text: word("no_deal") })));
    const transfers = $("transfers");
    transfers.replaceChildren();
    for (const transfer of session.transfers) {
      transfers.append(el("li", { text: word("pays", { from: transfer.from, to: transfer.to, amount: transfer.amount }) }));
    }
    if (!session.transfers.length) transfers.append(el("li", { text: word("nobody_owes") }));
    for (const payment of session.payments || []) {
      transfers.append(el("li", { class: "note", text: word("paid_line", { from: payment.from, to: payment.to, amount: payment.amount }) }));
    }
    const last = session.deals[session.deals.length - 1];
    $("through").replaceChildren(...(last ? [word("after_deal", { deal: last.deal }), " ", digestOf(last.digest)] : []));
  }

  let chartShown = null; // the night's version and the language the chart shows
  let chartTag = null;   // its tag: asked again with it, an unchanged night costs no body
  let chartAsked = 0;    // the latest request's number: an older answer arriving late is not shown
  let chartAsking = null; // what the request on its way is for

  async function showChart() {
    // Each player's running total (money when money differs from units): the server draws it
    // (GET api/chart.svg, the drawing of cpscore session --plot), asked for when the night or the language changed
    // (and at the next poll when it could not be had).
    const box = $("chart");
    if (!session.deals.length) {
      if (chartShown !== `none ${language}`) box.replaceChildren(el("p", { class: "note", text: word("no_deal") }));
      chartShown = `none ${language}`;
      return;
    }
    const wanted = `${nightVersion} ${language}`;
    if (wanted === chartShown || wanted === chartAsking) return;
    chartAsking = wanted;
    const asked = ++chartAsked;
    const headers = { "X-Cpscore-Phone": phone };
    if (token) headers["X-Cpscore-Token"] = token;
    if (chartTag && box.querySelector("svg")) headers["If-None-Match"] = chartTag;
    let response, text;
    try {
      response = await fetch(`api/chart.svg?lang=${encodeURIComponent(language)}`, { headers });
      text = response.status === 200 ? await response.text() : "";
    } catch (error) {
      if (asked === chartAsked) chartAsking = null;
      return;  // unreached: asked again at the next poll
    }
    if (asked !== chartAsked) return;
    chartAsking = null;
    if (response.status === 304) {
      chartShown = wanted;
      return;
    }
    // The server's own SVG (no script in it), taken in as a node of the page.
    const drawn = response.status === 200 ? new DOMParser().parseFromString(text, "image/svg+xml").documentElement : null;
    if (!drawn || drawn.namespaceURI !== "http://www.w3.org/2000/svg" || drawn.querySelector("parsererror")) return;
    drawn.setAttribute("class", "chart");
    box.replaceChildren(document.importNode(drawn, true));
    chartTag = response.headers.get("ETag");
    chartShown = wanted;
  }

  function dealLine(found) {
    // "Amy +6 (+60), Bob -3": each player's units (and money) in one deal.
    return found.players.map((player) => {
      const money = table.money ? ` (${signed(player.amount)})` : "";
      return `${player.name} ${signed(player.units)}${money}`;
    }).join(", ");
  }

  function notesOf(player) {
    const notes = [];
    if (player.foul) notes.push(word("fouls", { reason: player.foul_reason }));
    if (player.surrendered) notes.push(word("surrenders"));
    if (player.natural) notes.push(word("natural", { natural: player.natural }));
    if (player.fantasyland && player.fantasyland.next) notes.push(word("fantasyland_next"));
    if (player.dealer) notes.push(word("dealer"));
    return notes;
  }

  function dealView(found) {
    const box = el("div", { class: "deal" });
    const list = el("ul", { class: "hands" });
    for (const player of found.players) {
      const notes = notesOf(player);
      list.append(el("li", {},
        el("strong", { text: player.name }), " ",
        el("span", { class: player.units < 0 ? "neg" : "pos", text: signed(player.units) }),
        table.money ? el("span", { class: "amount", text: ` (${signed(player.amount)})` }) : null,
        el("br"),
        player.hand ? handNode(player.hand)
          : el("span", { class: "note", text: player.result === undefined ? word("no_hand") : word("result_only", { units: signed(player.result) }) }),
        notes.length ? el("span", { class: "notes", text: ` (${notes.join("; ")})` }) : null));
    }
    box.append(list);
    const names = found.players.map((player) => player.name);
    const units = byName();
    for (const pair of found.pairs) {
      units[`${pair.a}\u0000${pair.b}`] = pair.units;
      units[`${pair.b}\u0000${pair.a}`] = -pair.units;
    }
    const matrix = el("table", { class: "matrix" });
    matrix.append(el("tr", {}, el("th", {}), ...names.map((name) => el("th", { text: name })), el("th", { text: word("total") })));
    for (const player of found.players) {
      const line = el("tr", {}, el("th", { text: player.name }));
      for (const other of names) {
        const value = units[`${player.name}\u0000${other}`];
        line.append(el("td", { text: value === undefined ? "" : signed(value) }));
      }
      line.append(el("td", { class: "total", text: signed(player.units) }));
      matrix.append(line);
    }
    box.append(el("div", { class: "scroll" }, matrix));
    return box;
  }

  const open = new Set(); // the deals whose details are open (by digest), kept over a refresh

  function showDeals() {
    const box = $("deal-list");
    box.replaceChildren();
    const deals = session.deals;
    if (!deals.length) box.append(el("p", { class: "note", text: word("no_deal") }));
    for (let index = deals.length - 1; index >= 0; index--) {
      const found = deals[index];
      const notes = found.players.flatMap((player) => notesOf(player).map((note) => `${player.name}: ${note}`));
      const details = el("details", { class: "deal-item", id: `deal-${found.deal}` });
      details.open = open.has(found.digest);
      details.addEventListener("toggle", () => {
        if (details.open) open.add(found.digest); else open.delete(found.digest);
      });
      details.append(el("summary", {},
        el("strong", { text: `${found.deal}` }), " ", digestOf(found.digest), " ",
        el("span", { text: dealLine(found) }),
        notes.length ? el("span", { class: "notes", text: ` · ${notes.join("; ")}` }) : null));
      details.append(dealView(found), explainer(found), editor(found));
      if (index === deals.length - 1) {
        const undo = el("button", { type: "button", id: "undo", class: "undo", text: word("undo_deal", { deal: found.deal }) });
        undo.addEventListener("click", () => undoDeal(found, undo));
        details.append(el("div", { class: "tools" }, undo));
      }
      box.append(details);
    }
  }

  function explainer(found) {
    const names = found.players.map((player) => player.name);
    const box = el("div", { class: "explain" });
    if (names.length < 2) return box;
    const pick = (chosen) => {
      const select = el("select", {});
      for (const name of names) select.append(el("option", { value: name, text: name }));
      select.value = chosen;
      return select;
    };
    const a = pick(names[0]);
    const b = pick(names[1]);
    const go = el("button", { type: "button", text: word("explain") });
    const out = el("pre", { class: "explanation" });
    go.addEventListener("click", async () => {
      const query = new URLSearchParams({ deal: found.deal, a: a.value, b: b.value });
      const answer = await call("GET", `api/explain?${query}`);
      out.textContent = answer.error ? answer.error : unbroken(answer.text);
    });
    box.append(el("div", { class: "row" }, a, el("span", { text: word("versus") }), b, go), out);
    return box;
  }

  function editor(found) {
    // Edit this deal: its hands as text, replaced by its digest (cpscore replace --expect).
    const box = el("div", { class: "editor" });
    const edit = el("button", { type: "button", class: "small", text: word("edit_deal") });
    box.append(edit);
    edit.addEventListener("click", () => {
      edit.hidden = true;
      const inputs = byName();
      for (const player of found.players) {
        const input = el("input", { class: "edit-hand", autocomplete: "off", autocapitalize: "none", spellcheck: "false",
          "aria-label": word("hand_of_plain", { name: player.name }) });
        input.value = player.result !== undefined ? signed(player.result) + (player.dealer ? " ; dealer" : "")
          : (player.hand || "") + (player.surrendered ? (player.hand ? "; surrender" : "surrender") : "") +
          (player.waived ? "; waive" : "") + (player.dealer ? "; dealer" : "");
        inputs[player.name] = input;
        box.append(el("label", { class: "edit-line" }, el("strong", { text: player.name }), input));
      }
      const error = el("p", { class: "error", role: "alert" });
      const go = el("button", { type: "button", class: "primary replace", text: word("replace_deal", { deal: found.deal }) });
      go.addEventListener("click", async () => {
        const hands = byName();
        for (const name of Object.keys(inputs)) hands[name] = inputs[name].value;
        const answer = await call("POST", "api/replace", { deal: found.deal, digest: found.digest, hands });
        if (answer.error) {
          error.textContent = answer.error;
          return;
        }
        $("undone").replaceChildren(word("replaced", { deal: answer.replaced }), " ", digestOf(answer.digest));
        await lookAtNight();
      });
      box.append(go, error);
    });
    return box;
  }

  async function undoDeal(found, button) {
    if (!isArmed(`undo:${found.digest}`)) {  // a second tap removes it: no dialog to dismiss on a phone
      arm(`undo:${found.digest}`);
      button.textContent = word("undo_confirm", { deal: found.deal });
      button.classList.add("armed");
      return;
    }
    disarm();
    // The deal the button named, by its digest: if the last deal is another by now, nothing is removed.
    const answer = await call("POST", "api/undo", { expect: found.deal, digest: found.digest });
    $("undo-error").textContent = answer.error || "";
    $("undone").replaceChildren();
    if (!answer.error) $("undone").replaceChildren(word("removed", { deal: answer.removed }), " ", digestOf(answer.digest));
    await lookAtNight();
    dealTag = null;
    await lookAtDeal(false);
  }

  async function lookAtStats() {
    const answer = await call("GET", "api/stats");
    const box = $("stats");
    box.replaceChildren();
    if (answer.error || !answer.players) return;
    const money = table.money;
    const heads = ["player", "deals", "rows_won", "scoops", "fouls", "royalties", "biggest_win", "units"];
    box.append(el("tr", {}, ...heads.map((key) => el("th", { text: word(`stat_${key}`) }))));
    for (const player of answer.players) {
      const biggest = player.biggest_win ? signed(money ? player.biggest_win.amount : player.biggest_win.units) : "";
      box.append(el("tr", {},
        el("td", { text: player.name }),
        el("td", { text: player.deals }),
        el("td", { text: `${player.rows.won}-${player.rows.lost}-${player.rows.tied}` }),
        el("td", { text: `${player.scoops.made}/${player.scoops.suffered}` }),
        el("td", { text: player.fouls }),
        el("td", { text: player.royalties }),
        el("td", { text: biggest }),
        el("td", { class: player.units < 0 ? "neg" : "pos", text: signed(money ? player.amount : player.units) })));
    }
  }

  function showRules() {
    const rules = table.rules;
    $("rules-summary").textContent = `${rules.id}: ${rules.summary}`;
    const stakes = $("stakes");
    stakes.replaceChildren(el("li", { text: word("stake_line", { stake: table.stake }) }));
    for (const pair of table.pair_stakes) {
      stakes.append(el("li", { text: word("pair_stake_line", { a: pair.pair[0], b: pair.pair[1], stake: pair.stake }) }));
    }
    if (table.buy_in !== null) stakes.append(el("li", { text: word("buy_in_line", { amount: table.buy_in }) }));
    $("rules-toml").textContent = rules.toml;
  }

  // The cards to tap ------------------------------------------------------------

  function buildPicker() {
    const box = $("cards");
    box.replaceChildren();
    for (const suit of word("suit_order").split("")) {
      const line = el("div", { class: "suit-cards", role: "group", "aria-label": word(`suit_${suit}`) });
      for (const rank of RANKS) {
        const card = rank + suit;
        const button = el("button", { type: "button", id: `card-${card}`, class: `suit-${suit}`,
          "aria-label": `${rank === "T" ? "10" : rank} ${word(`suit_${suit}`)}` });
        button.dataset.card = card;
        button.textContent = label(card);
        button.addEventListener("click", () => tapCard(card));
        line.append(button);
      }
      box.append(line);
    }
  }

  function buildLanguages() {
    const select = $("language");
    select.replaceChildren();
    for (const [code, name] of Object.entries(catalogue.languages)) select.append(el("option", { value: code, text: name }));
    select.value = language;
    select.addEventListener("change", () => {
      language = select.value;
      storage("set", "cpscore-language", language);
      translate();
      buildPicker();
      if (table) showNight();
      showDeal();
    });
  }

  async function start() {
    const words = await fetch("static/words.json").then((response) => response.json()).catch(() => null);
    catalogue = words || { languages: { en: "English" }, en: {} };
    language = chooseLanguage();
    translate();
    buildLanguages();
    buildPicker();
    $("edit-seats").addEventListener("click", () => { $("seats-editor").hidden = !$("seats-editor").hidden; });
    $("seats-ok").addEventListener("click", async () => {
      const answer = await call("POST", "api/deal/seats", { players: $("players").value });
      $("players-error").textContent = answer.error || "";
      noted(answer);
      if (!answer.error) $("seats-editor").hidden = true;
      dealTag = null;
      await lookAtDeal(false);
    });
    $("typed-use").addEventListener("click", useTyped);
    $("typed").addEventListener("keydown", (event) => { if (event.key === "Enter") { event.preventDefault(); useTyped(); } });
    $("clear-hand").addEventListener("click", () => {
      const hand = mine[current];
      if (!hand) return;
      hand.rows = ROWS.map(([, size]) => Array(size).fill(null));
      hand.set = false;
      row = 0;
      changed(current);
    });
    $("release").addEventListener("click", release);
    $("bar-go").addEventListener("click", barGo);
    $("bar-again").addEventListener("click", () => save(true));
    await lookAtNight();
    await lookAtDeal(false);
    // The other phones' hands, and saves from anywhere, show up here too.
    setInterval(() => {
      if (document.visibilityState !== "visible" || sending !== null) return;
      const kept = dirty.values().next();
      if (!kept.done) send(kept.value);  // a change the server did not get: sent again
      else lookAtDeal(true);
      if (session) showChart();  // nothing to do unless the chart shown is not the night's
    }, POLL);
  }

  document.addEventListener("DOMContentLoaded", start);
})();
