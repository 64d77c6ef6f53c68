// The live table: renders the state the server sends (whole, on every change) and sends the
// few actions a player may take with the table PIN. No libraries, nothing from elsewhere.
"use strict";

const SYM = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SUIT_WORD = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const RANKS = ["A", "10", "K", "Q", "J", "9"];
const PIN_KEY = "pinochle-table-pin";
const SOUND_KEY = "pinochle-table-sound";
const ME_KEY = "pinochle-table-me";
const $ = (id) => document.getElementById(id);

let state = JSON.parse($("initial-state").textContent);
let lastId = null;
let lastHeard = Date.now();
let source = null;
let hiddenAt = 0;
const seenAlerts = new Set((state.alerts || []).concat(state.news || []).map((a) => a.id));

// -- little DOM helpers ---------------------------------------------------------------------

function h(tag, attrs, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat(Infinity)) {
    if (kid === null || kid === undefined || kid === false) continue;
    el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
  return el;
}

function fill(id, ...kids) {
  const el = $(id);
  el.replaceChildren(...kids.flat(Infinity).filter((k) => k !== null && k !== undefined && k !== false));
  return el;
}

function split(code) { return { rank: code.slice(0, -1), suit: code.slice(-1) }; }

function card(code, opts = {}) {
  const { rank, suit } = split(code);
  const cls = ["card", suit, opts.mini ? "mini" : "", opts.win ? "win" : "",
    opts.trump ? "trump" : ""].join(" ").trim();
  const label = `${rank} of ${SUIT_WORD[suit] || suit}`;
  const kids = [h("span", { class: "r" }, rank), h("span", { class: "s" }, SYM[suit] || suit)];
  if (opts.onclick) return h("button", { class: cls, type: "button", "aria-label": label,
    onclick: opts.onclick, "data-card": code }, kids);
  return h("span", { class: cls, role: "img", "aria-label": label, "data-card": code }, kids);
}

// Text from the server with suit symbols coloured.
function rich(text) {
  return String(text).split(/([♠♥♦♣])/).map((part) => {
    const suit = Object.keys(SYM).find((k) => SYM[k] === part);
    return suit ? h("span", { class: `sym-${suit}` }, part) : part;
  });
}

function suitText(s) { return s ? [h("span", { class: `sym-${s}` }, SYM[s]), " ", SUIT_WORD[s]] : ""; }

// -- reading the state ----------------------------------------------------------------------

const g = () => state.game;
const nameOf = (seat) => (seat === null || seat === undefined ? "" : g().names[seat]);

function statusLine(v) {
  const who = nameOf(v.turn);
  switch (v.phase) {
    case "deal": return [`${nameOf(state.next_dealer)} to deal`, `hand ${v.hand_number + 1}`];
    case "auction":
      if (v.must_bid !== null) return [`${who} must bid ${v.must_bid}`, ""];
      return [`${who} to bid`, v.high_bid ? `high bid ${v.high_bid} by ${nameOf(v.high_bidder)}`
        : `opening bid ${v.next_bids[0] ?? ""}`];
    case "push": return [`${who}: keep it or push it to the dealer`, `bid ${v.high_bid}`];
    case "trump":
      return [v.kitty || !state.kitty_size ? `${who} to name trump` : `${who} to show the kitty`,
        `${nameOf(v.contract.declarer)} took the bid at ${v.contract.bid}`];
    case "bury": return [`${who} to bury`, ""];
    case "passing": return [`${who} to pass cards`, ""];
    case "meld": return [who ? `${who} to meld` : "Meld", "lay meld on the mat"];
    case "play": {
      const trick = v.trick && !v.trick.complete ? v.trick : null;
      return [trick ? `${who} to play` : `${who} to lead`,
        `trick ${Math.min(v.tricks_played + 1, v.tricks_per_hand)} of ${v.tricks_per_hand}`];
    }
    case "hand-over":
      return [v.result ? v.result.text.replace(/^hand \d+: /, "") : "Hand over",
        pending(v) ? `pending: ${pending(v)} to agree before the next deal` : `${nameOf(state.next_dealer)} deals next`];
    case "game-over": return [`${nameOf(v.winner)} wins the game`,
      pending(v) ? `last hand pending: ${pending(v)} to agree` : "final score below"];
    default: return [v.phase, ""];
  }
}

// Who must still agree with the hand's result ("Bob or Cy"), or "" (agree_hands off, or agreed).
function pending(v) {
  const due = v.agreement ? v.agreement.due : [];
  return due.map((s) => v.names[s]).join(" or ");
}

function sides(v) {
  // Partnerships score as sides; everyone else as seats.
  if (v.partnerships && v.sides) return v.sides.map((seats) => ({ seats, label: seats.map((s) => v.names[s]).join(" & ") }));
  return v.names.map((n, s) => ({ seats: [s], label: n })).filter((x) => v.active.includes(x.seats[0]) || v.scores[x.seats[0]] || v.names.length <= 4);
}

// -- rendering -------------------------------------------------------------------------------

function render() {
  const v = g();
  // what the page shows, for people debugging it and for the browser tests
  document.body.dataset.number = state.number;
  document.body.dataset.phase = v ? v.phase : "none";
  renderAlerts(v);
  renderEntry(v);
  $("link").hidden = false;
  if (!v) {
    fill("variant", "Pinochle");
    fill("hand", "");
    fill("status", "No game yet", h("span", { class: "sub" },
      state.table.new_games ? "start one from the menu (needs the table PIN)" : ""));
    for (const id of ["standing", "scores", "mat", "contract", "auction", "meld", "result", "road", "sheet", "moves"]) fill(id);
    renderHint();
    renderActions(null);
    return;
  }
  fill("variant", v.variant);
  fill("hand", v.hand_number ? `hand ${v.hand_number}` : "");
  const [main, sub] = statusLine(v);
  fill("status", h("span", { class: v.phase === "game-over" ? "win" : "" }, ...rich(main)),
    sub ? h("span", { class: "sub" }, sub) : null);
  renderHint();
  renderStanding();
  renderScores(v);
  renderMat(v);
  renderContract(v);
  renderAuction(v);
  renderMeld(v);
  renderResult(v);
  renderRoad(v);
  renderSheet(v);
  renderMoves(v);
  renderActions(v);
  notify(v);
}

// The first thing a watcher needs to know: the PIN unlocks the controls.
function renderHint() {
  if (unlocked() || !state.table.pin) { fill("hint"); return; }
  fill("hint", h("p", {}, "Watching only. Enter the table PIN to deal, bid and enter cards from this phone."),
    h("button", { id: "hint-pin", class: "primary", type: "button", onclick: () => openMenu() }, "Enter the PIN"));
}

// The bid as it stands, in the game's own words (the server asks the rules core).
function renderStanding() {
  const b = state.bid;
  if (!b) { fill("standing"); return; }
  fill("standing", h("p", { id: "bid-declarer" }, b.declarer), h("p", { id: "bid-others", class: "muted" }, b.others));
}

// The road to the target: each side's total after each hand, a small chart drawn here.
const COLORS = ["#f2c14e", "#6aa2ff", "#ff6b6b", "#5fd38d"];
function renderRoad(v) {
  const road = state.road;
  if (!road || road.hands.length < 1) { fill("road"); return; }
  const W = 320, H = 150, P = 8;
  const all = road.sides.flatMap((x) => x.series).concat(road.target ? [road.target, 0] : [0]);
  const lo = Math.min(...all), hi = Math.max(...all, lo + 1);
  const n = road.hands.length;
  const x = (i) => P + (i * (W - 2 * P)) / n;
  const y = (val) => H - P - ((val - lo) * (H - 2 * P)) / (hi - lo);
  const svg = (tag, attrs) => { const el = document.createElementNS("http://www.w3.org/2000/svg", tag); for (const [k, val] of Object.entries(attrs)) el.setAttribute(k, val); return el; };
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "road", role: "img", "aria-label": "score by hand" });
  chart.append(svg("line", { x1: P, x2: W - P, y1: y(0), y2: y(0), class: "zero" }));
  if (road.target) chart.append(svg("line", { x1: P, x2: W - P, y1: y(road.target), y2: y(road.target), class: "target" }));
  road.sides.forEach((side, k) => {
    const off = (k - (road.sides.length - 1) / 2) * 2.5; // equal totals stay visible side by side
    chart.append(svg("polyline", { points: side.series.map((val, i) => `${x(i)},${y(val) + off}`).join(" "), stroke: COLORS[k % 4], class: "line" }));
    const last = side.series.length - 1;
    chart.append(svg("circle", { cx: x(last), cy: y(side.series[last]) + off, r: 4, fill: COLORS[k % 4] }));
  });
  const label = (side) => side.seats.map((s) => v.names[s]).join(" & ");
  fill("road", h("h2", {}, road.unit === "stakes" ? "Stakes ledger by hand" : `Road to ${road.target || "the end"}`), chart,
    h("ul", { class: "legend", id: "road-legend" }, road.sides.map((side, k) => h("li", {},
      h("span", { class: "swatch", style: `background:${COLORS[k % 4]}` }), `${label(side)} ${side.series[side.series.length - 1]}`,
      side.needs !== null ? h("span", { class: "muted" }, side.needs ? ` · needs ${side.needs}` : " · there") : null))),
    h("p", { class: "muted small" }, `hands 1 to ${n}, left to right`, road.target ? `; dashed line: the target, ${road.target}` : ""));
}

// Sound (off unless switched on here) when this phone's player is to act or an alert comes up.
let wasMine = false;
function beep(freq) {
  if (localStorage.getItem(SOUND_KEY) !== "on") return;
  try {
    const ctx = beep.ctx || (beep.ctx = new AudioContext());
    const osc = ctx.createOscillator(), gain = ctx.createGain();
    osc.frequency.value = freq; gain.gain.value = 0.08;
    osc.connect(gain).connect(ctx.destination);
    osc.start(); osc.stop(ctx.currentTime + 0.15);
    document.body.dataset.beeped = String(Number(document.body.dataset.beeped || 0) + 1);
  } catch (e) { /* no audio on this phone */ }
}
function notify(v) {
  const me = localStorage.getItem(ME_KEY);
  const due = v.agreement ? v.agreement.due : [];
  const mine = me !== null && me !== "" && (String(v.turn) === me || due.map(String).includes(me));
  if (mine && !wasMine) beep(660);
  wasMine = mine;
}

function seatChips(v, s) {
  return [
    s === v.dealer ? h("span", { class: "chip dealer", title: "dealer" }, "D") : null,
    v.contract && s === v.contract.declarer ? h("span", { class: "chip declarer", title: "declarer" }, "bid") : null,
    s === v.turn ? h("span", { class: "chip turn", title: "to act" }, "▶") : null,
  ];
}

function renderScores(v) {
  const rows = sides(v).map(({ seats, label }) => {
    const s0 = seats[0];
    const sum = (arr) => seats.reduce((t, s) => t + (arr[s] || 0), 0);
    const meld = seats.reduce((t, s) => t + (v.meld[s] ? v.meld[s].total : 0), 0);
    const anyMeld = seats.some((s) => v.meld[s]);
    return h("tr", { class: seats.includes(v.turn) ? "turn" : "", "data-seat": s0 },
      h("td", {}, label, seats.flatMap((s) => seatChips(v, s))),
      h("td", {}, anyMeld ? meld : "–"),
      h("td", {}, `${sum(v.points_taken)}`, v.buried_points && v.contract && seats.includes(v.contract.declarer)
        ? h("span", { class: "bury small", title: "the bury's points count with the tricks" }, ` +${v.buried_points} buried`) : null,
        h("span", { class: "muted small" }, ` /${sum(v.tricks_won)}`)),
      v.ledger ? h("td", {}, (v.ledger[s0] > 0 ? "+" : "") + v.ledger[s0]) : null,
      v.checks ? h("td", {}, v.checks[s0]) : null,
      h("td", { class: "score" }, v.scores[s0]));
  });
  const target = v.target ? ` · game to ${v.target}` : "";
  fill("scores", h("h2", {}, `Score${target}`), h("table", { class: "scores" },
    h("thead", {}, h("tr", {}, h("th", {}, v.partnerships ? "side" : "seat"), h("th", {}, "meld"),
      h("th", {}, "taken/tricks"), v.ledger ? h("th", {}, "stakes") : null,
      v.checks ? h("th", {}, "checks") : null, h("th", {}, "score"))),
    h("tbody", {}, rows)),
  v.pot !== null ? h("p", { class: "muted" }, `pot ${v.pot}`) : null,
  Object.keys(v.options).length ? h("p", { class: "muted small" },
    "options: " + Object.entries(v.options).map(([k, x]) => `${k}=${x}`).join(", ")) : null);
}

function trickCards(v, trick, numbers, mini) {
  const trump = v.contract && v.contract.trump;
  return trick.cards.map((c, i) => {
    const num = numbers[i];
    const fix = unlocked() && num ? () => openFix({ number: num, type: "CardPlayed", seat: c.seat, card: c.card }) : null;
    const lead = c.seat === trick.leader;
    const win = c.seat === trick.winning;
    return h("div", { class: "play", "data-seat": c.seat },
      card(c.card, { mini, win, trump: !mini && split(c.card).suit === trump, onclick: fix }),
      h("span", { class: "who" }, v.names[c.seat]),
      mini ? null : h("span", { class: win ? "tag win" : "tag" },
        win ? (trick.complete ? "takes it" : "winning") : lead ? "led" : ""));
  });
}

// Empty places for the seats still to play to this trick, in the order they play.
function waiting(v, t) {
  if (t.complete) return [];
  const order = v.active;
  const start = order.indexOf(t.leader);
  const rest = order.slice(start).concat(order.slice(0, start)).slice(t.cards.length);
  return rest.map((s) => h("div", { class: "play", "data-seat": s },
    h("span", { class: "card slot", "aria-label": `${v.names[s]} has not played` }),
    h("span", { class: "who" }, v.names[s]), h("span", { class: "tag" }, s === v.turn ? "to play" : "")));
}

function renderMat(v) {
  if (!["play", "hand-over"].includes(v.phase) && !v.trick && !v.last_trick) { fill("mat"); return; }
  const t = v.trick;
  const kids = [h("h2", {}, "On the mat")];
  kids.push(h("div", { class: "trick", id: "trick" },
    t ? [trickCards(v, t, state.plays.trick, false), waiting(v, t)]
      : h("span", { class: "empty-mat" }, v.phase === "play" ? `waiting for ${nameOf(v.turn)} to lead` : "no cards yet")));
  if (v.last_trick) {
    kids.push(h("div", { class: "last", id: "last-trick" }, h("span", { class: "muted small" }, "last trick"),
      trickCards(v, v.last_trick, state.plays.last_trick, true),
      h("span", { class: "small" }, `→ ${nameOf(v.last_trick.winning)}`)));
  }
  kids.push(h("p", { class: "taken" }, `tricks played ${v.tricks_played} of ${v.tricks_per_hand}`));
  fill("mat", kids);
}

function renderContract(v) {
  if (!v.contract && !v.kitty) { fill("contract"); return; }
  const c = v.contract;
  fill("contract", h("h2", {}, "Contract"),
    c ? h("p", { class: "contract-line" }, `${nameOf(c.declarer)} · ${c.bid ?? ""}`,
      c.trump ? [" · trump ", ...suitText(c.trump)] : h("span", { class: "muted" }, " · trump not named yet")) : null,
    unlocked() ? concedeButton(v) : null,
    v.kitty ? h("div", {}, h("span", { class: "muted small" }, "kitty"),
      h("div", { class: "cards" }, v.kitty.map((k) => card(k, { mini: true })))) : null);
}

function renderAuction(v) {
  if (!v.auction.length && v.phase !== "auction") { fill("auction"); return; }
  const highIndex = v.auction.map((b) => !b.pass).lastIndexOf(true);
  fill("auction", h("h2", {}, "Auction"), h("div", { class: "bids", id: "bids" },
    v.auction.length ? v.auction.map((b, i) => h("span", { class: `bid${b.pass ? " pass" : ""}${i === highIndex ? " high" : ""}` },
      `${v.names[b.seat]} ${b.pass ? "pass" : b.bid}`)) : h("span", { class: "muted" }, "no bids yet")));
}

function renderMeld(v) {
  const seats = v.meld.map((m, s) => [m, s]).filter(([m]) => m);
  if (!seats.length) { fill("meld"); return; }
  fill("meld", h("h2", {}, "Meld"), seats.map(([m, s]) => h("div", { class: "seat-meld", "data-seat": s },
    h("b", {}, `${v.names[s]} ${m.total}`),
    m.melds.length ? m.melds.map((x) => h("div", { class: "meld-row" },
      h("span", { class: "name" }, `${x.name} ${x.points}`),
      h("span", { class: "cards" }, x.cards.map((k) => card(k, { mini: true })))))
      : h("div", { class: "muted small" }, "no meld"))));
}

function renderResult(v) {
  const r = v.result;
  if (!r) { fill("result"); return; }
  const who = sides(v);
  fill("result", h("h2", {}, `Hand ${r.hand}`),
    h("p", { class: `result-line ${r.made ? "made" : "set"}` }, r.text.replace(/^hand \d+: /, "")),
    r.note ? h("p", { class: "muted" }, r.note) : null,
    h("table", {}, h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", {}, "meld"), h("th", {}, "tricks"), h("th", {}, "change"))),
      h("tbody", {}, who.map(({ seats, label }) => {
        const s0 = seats[0];
        const meld = seats.reduce((t, s) => t + (r.meld[s] || 0), 0);
        const tricks = seats.reduce((t, s) => t + (r.tricks[s] || 0), 0);
        const counted = seats.some((s) => r.meld_counted[s]);
        const change = v.ledger ? r.ledger_change[s0] : r.score_change[s0];
        return h("tr", {}, h("td", {}, label), h("td", {}, counted ? meld : h("s", {}, meld)),
          h("td", {}, tricks), h("td", {}, (change > 0 ? "+" : "") + change));
      }))));
}

function renderSheet(v) {
  const hands = v.history.slice();
  if (v.result && !hands.some((x) => x.hand === v.result.hand)) hands.push(v.result);
  if (!hands.length) { fill("sheet"); return; }
  const who = sides(v);
  const totals = who.map(() => 0);
  const rows = hands.map((r) => {
    const cells = who.map(({ seats }, i) => {
      const d = v.ledger ? r.ledger_change[seats[0]] : r.score_change[seats[0]];
      totals[i] += d;
      return h("td", {}, totals[i], h("span", { class: "delta" }, (d > 0 ? "+" : "") + d));
    });
    const bid = r.declarer === null ? "—" : `${nameOf(r.declarer)} ${r.bid ?? ""}`;
    return h("tr", {}, h("td", {}, `${r.hand}`, h("span", { class: "delta" }, [bid, " ", r.trump ? SYM[r.trump] : "", " ", r.outcome])), cells);
  });
  fill("sheet", h("h2", {}, v.ledger ? "Stakes by hand" : "Score sheet"),
    h("table", { class: "sheet-table" }, h("thead", {}, h("tr", {}, h("th", {}, "hand"), who.map((x) => h("th", {}, x.label)))),
      h("tbody", {}, rows)));
}

let showAllMoves = false;
function renderMoves(v) {
  const moves = state.moves || [];
  if (!moves.length) { fill("moves"); return; }
  const fixable = new Set(["CardPlayed", "BidMade", "TrumpNamed"]);
  const shown = showAllMoves ? moves : moves.slice(0, 6);
  fill("moves", h("h2", {}, "This hand, newest first"),
    h("ol", { class: "moves", id: "move-list" }, shown.map((m) => h("li", { "data-number": m.number },
      h("span", { class: "n" }, `#${m.number}`), h("span", { class: "t" }, ...rich(m.text)),
      m.source ? h("span", { class: "src" }, m.source) : null,
      unlocked() && fixable.has(m.type) ? h("button", { class: "small", type: "button", onclick: () => openFix(m) }, "fix") : null))),
    moves.length > 6 ? h("button", { class: "ghost small", type: "button", onclick: () => { showAllMoves = !showAllMoves; renderMoves(v); } },
      showAllMoves ? "show fewer" : `show all ${moves.length}`) : null);
}

function renderAlerts(v) {
  const items = (state.alerts || []).map((a) => {
    const head = h("div", { class: "head" }, h("p", {}, ...rich(a.text)),
      h("button", { class: "small ghost", type: "button", "aria-label": "dismiss", onclick: () => act(`alerts/${a.id}/dismiss`, {}) }, "✕"));
    const choices = a.kind === "camera-unsure" && a.candidates && a.candidates.length
      ? h("div", { class: "choices" }, h("span", { class: "muted small hint" }, "tap the card that was played:"),
        a.candidates.map((c) => card(c, { onclick: () => act(`alerts/${a.id}/confirm`, { card: c }) })))
      : null;
    return h("div", { class: `alert ${a.kind === "refused" ? "bad" : ""}`, "data-kind": a.kind, "data-id": a.id }, head, choices);
  });
  const reneges = v ? v.reneges.map((t) => h("div", { class: "alert bad", "data-kind": "renege" },
    h("div", { class: "head" }, h("p", {}, "Renege: ", ...rich(t))))) : [];
  fill("alerts", reneges, items);
  for (const a of (state.alerts || []).concat(state.news || [])) {
    if (!seenAlerts.has(a.id)) {
      seenAlerts.add(a.id);
      toast(a.text);
      if (navigator.vibrate && a.kind !== "note") navigator.vibrate(200);
      if (a.kind !== "note") beep(440);
    }
  }
}

// -- the action bar (with the PIN) ----------------------------------------------------------

function renderActions(v) {
  const bar = $("actions");
  if (!unlocked() || !v) { bar.hidden = true; return; }
  const kids = [];
  const undo = h("button", { type: "button", onclick: () => act("undo", { target: state.undo_target }) }, "Undo");
  if (v.phase === "auction" && v.turn !== null) {
    const bids = v.must_bid !== null ? [v.must_bid] : v.next_bids.slice(0, 12);
    kids.push(h("div", { class: "label" }, `for ${nameOf(v.turn)}`),
      h("div", { class: "scroll" }, bids.map((b, i) => h("button", { class: i === 0 ? "primary" : "", type: "button", onclick: () => act("bid", { seat: v.turn, amount: b }) }, `${b}`)),
        v.must_bid === null ? h("button", { type: "button", onclick: () => act("pass", { seat: v.turn }) }, "Pass") : null, undo));
  } else if (state.entry && state.entry.agree && state.entry.agree.length) {
    kids.push(h("div", { class: "label" }, "the result stands once the other side agrees"),
      h("div", { class: "scroll" }, state.entry.agree.map((s) => h("button", { class: "primary", type: "button", "data-agree": s,
        onclick: () => act("agree", { seat: s }) }, `${v.names[s]}: agreed`)), undo));
  } else if (["deal", "hand-over"].includes(v.phase)) {
    kids.push(h("div", { class: "scroll" }, h("button", { class: "primary", type: "button", onclick: () => act("deal", {}) }, `${nameOf(state.next_dealer)} dealt`), undo));
  } else if (v.phase === "game-over") {
    kids.push(h("div", { class: "scroll" }, h("button", { class: "primary", type: "button", onclick: openNewGame }, "New game"), undo));
  } else {
    // naming trump also keeps a 300 bid the bidder could push (brooklyn)
    const naming = ["trump", "push"].includes(v.phase);
    if (naming) kids.push(h("div", { class: "label" }, `trump for ${nameOf(v.contract.declarer)}`));
    kids.push(h("div", { class: "scroll" }, naming ? trumpButtons() : null, undo));
  }
  bar.replaceChildren(...kids);
  bar.hidden = false;
}

function trumpButtons() {
  return ["S", "H", "D", "C"].map((s) => h("button", { class: `suit-button ${s}`, type: "button", "aria-label": `${SUIT_WORD[s]} trump`, onclick: () => act("trump", { suit: s }) }, SYM[s]));
}

// Conceding is offered only while the game allows it (state.concession, asked of the rules).
// Alone, a second tap confirms it; by agreement (002: "unless everybody agrees") each player
// taps his own name first, and the throw-in goes in once all have.
let conceding = null; // {number, agree: Set of seats} while a concession is being confirmed
function concedeButton(v) {
  const c = state.concession;
  if (!c || (conceding && conceding.number !== state.number)) conceding = null;
  if (!c) return null;
  const stop = () => { conceding = null; render(); };
  if (!conceding) {
    return h("button", { id: "concede", class: "danger", type: "button",
      onclick: () => { conceding = { number: state.number, agree: new Set() }; render(); } },
      c.agreed ? "Throw in" : "Concede");
  }
  const cancel = h("button", { id: "concede-cancel", type: "button", onclick: stop }, "Cancel");
  const send = (body) => { conceding = null; act("concede", { seat: c.seat, ...body }); };
  if (!c.agreed) {
    return h("div", { id: "concede-confirm", class: "row" },
      h("button", { id: "concede-sure", class: "danger", type: "button", onclick: () => send({}) },
        `Tap again: ${nameOf(c.seat)} concedes`), cancel);
  }
  const agree = conceding.agree;
  const toggle = (s) => { if (agree.has(s)) agree.delete(s); else agree.add(s); render(); };
  return h("div", { id: "concede-confirm" },
    h("p", { class: "small" }, `${nameOf(c.seat)}'s side may throw in only if everybody agrees: each player taps his name`),
    h("div", { class: "row" }, c.players.map((s) => h("button", { type: "button", "data-agree-seat": s,
      class: agree.has(s) ? "primary" : null, "aria-pressed": agree.has(s) ? "true" : "false",
      onclick: () => toggle(s) }, `${v.names[s]} ${agree.has(s) ? "agrees ✓" : "agrees?"}`))),
    h("div", { class: "row" }, h("button", { id: "concede-sure", class: "danger", type: "button",
      disabled: !c.players.every((s) => agree.has(s)), onclick: () => send({ agreed: true, agree: [...agree] }) },
      "Throw in"), cancel));
}

// -- entering what the camera would see (no camera, or one that cannot read the mat) ----------

let entryChoice = null; // null: open whenever no camera reads the mat; else the person's choice
const entryOpen = () => (entryChoice !== null ? entryChoice : !(state.camera && state.camera.watching));
let sending = false;

// One entry at a time: a second tap while the first is on its way is ignored, not sent twice.
async function enter(path, body) {
  if (sending) return null;
  sending = true;
  try { return await act(path, body); } finally { sending = false; }
}

const goneFaces = () => new Set((state.entry && state.entry.gone) || []);
function faceCard(f, onclick) {
  const el = card(f, { onclick });
  if (goneFaces().has(f)) { el.classList.add("gone"); el.title = "both copies played"; }
  return el;
}

function faces() {
  return (state.entry && state.entry.faces) || ["S", "H", "D", "C"].flatMap((s) => RANKS.map((r) => `${r}${s}`));
}
const pickerClass = () => (faces().length === 20 ? "picker no-nines" : "picker");

function renderEntry(v) {
  const e = state.entry;
  const due = e && (e.play || e.kitty || e.meld.length || e.bury || e.pass || e.gather || e.push || e.draw || e.piles || e.claim);
  if (!unlocked() || !v || !due) { fill("entry"); return; }
  const open = entryOpen();
  const cam = state.camera || {};
  const head = h("div", { class: "entry-head" }, h("h2", {}, "Enter cards"),
    h("button", { id: "entry-toggle", class: "ghost small", type: "button", "aria-expanded": String(open),
      onclick: () => { entryChoice = !open; renderEntry(v); } }, open ? "hide" : "enter cards"));
  const note = h("p", { class: "muted small" }, cam.watching ? "the camera reads the cards: enter one here only if it cannot" : cam.text);
  if (!open) { fill("entry", head, note); return; }
  const who = (s) => v.names[s];
  const big = (id, text, path, body) => h("button", { id, class: "primary wide", type: "button", onclick: () => enter(path, body) }, text);
  const kids = [head, note];
  if (e.push) {
    kids.push(h("p", {}, `${who(e.push.seat)} may keep the ${v.high_bid} (show the kitty or name trump) or push it to ${who(e.push.dealer)} at ${e.push.bid}`),
      big("entry-push", `${who(e.push.seat)} pushes it to ${who(e.push.dealer)}`, "push", { seat: e.push.seat }));
  }
  if (e.kitty) {
    kids.push(h("button", { id: "entry-kitty", class: "primary wide", type: "button", onclick: () => openPick({
      title: `The kitty: ${e.kitty.count} cards`, count: e.kitty.count, done: "Kitty shown",
      send: (cards) => ["kitty", { cards }] }) }, `Kitty turned up: pick its ${e.kitty.count} cards`));
  }
  if (e.bury) kids.push(big("entry-bury", `${who(e.bury.seat)} buried ${e.bury.count} face down`, "bury", { seat: e.bury.seat }));
  if (e.pass) {
    kids.push(big("entry-pass", `${who(e.pass.seat)} passed ${e.pass.count} to ${who(e.pass.to_seat)} face down`, "pass-cards",
      { seat: e.pass.seat, to_seat: e.pass.to_seat }));
  }
  if (e.meld.length) {
    kids.push(h("div", { class: "entry-meld" }, h("p", {}, "Meld: tap a seat to enter what it lays down"),
      h("div", { class: "row" }, e.meld.map((s) => h("button", { class: v.meld[s] ? "" : "primary", type: "button", "data-meld-seat": s,
        onclick: () => openPick({ title: `${who(s)}'s meld`, count: null, done: "Meld these", none: "No meld",
          send: (cards) => ["meld", { seat: s, cards }] }) }, v.meld[s] ? `${who(s)} ✓ ${v.meld[s].total}` : `${who(s)}: meld…`)))));
  }
  if (e.draw) {
    kids.push(h("p", {}, `${who(e.draw.seat)} draws from the stock (${e.draw.left} turns left)`),
      big("entry-keep", `${who(e.draw.seat)} kept the top card`, "draw", { seat: e.draw.seat, keep: true }),
      big("entry-reject", `${who(e.draw.seat)} rejected it, kept the next`, "draw", { seat: e.draw.seat, keep: false }));
  }
  if (e.piles) {
    kids.push(h("div", { class: "row" }, e.piles.seats.map((s) => h("button", { type: "button", "data-pile-seat": s,
      onclick: () => openPick({ title: `${who(s)}'s discard pile: ${e.piles.count} cards`, count: e.piles.count, done: "Pile shown",
        send: (cards) => ["bury", { seat: s, cards }] }) }, `${who(s)}'s discard pile…`))));
  }
  if (e.gather) kids.push(big("entry-gather", "Trick gathered", "gather", {}));
  if (e.claim) {
    kids.push(h("div", { class: "row" }, e.claim.seats.map((s) => h("button", { type: "button", "data-claim-seat": s,
      onclick: () => { if (confirm(`${who(s)} claims the rest of the hand?`)) enter("claim", { seat: s }); } }, `${who(s)} claims the rest`)),
      e.claim.defeat ? h("button", { type: "button", class: "danger", onclick: () => {
        if (confirm(`${who(e.claim.declarer)} acknowledges defeat?`)) enter("claim", { seat: e.claim.declarer, lost: true }); } },
      `${who(e.claim.declarer)} gives up`) : null));
  }
  if (e.play) kids.push(playPicker(v, e.play));
  fill("entry", kids);
}

// The card a seat lays on the mat: one tap plays it.
function playPicker(v, p) {
  const t = v.trick && !v.trick.complete ? v.trick : null;
  const before = v.phase === "meld" ? "then " : "";
  return h("div", { id: "play-picker", "data-seat": p.seat },
    h("p", { class: "entry-who" }, `${before}${v.names[p.seat]} ${p.lead ? "leads" : "plays"}`,
      t ? [" to ", h("span", { class: "cards inline" }, t.cards.map((c) => card(c.card, { mini: true })))] : null),
    h("div", { class: pickerClass() }, faces().map((f) => faceCard(f, () => enter("play", { seat: p.seat, card: f })))));
}

// Several cards (the kitty, a meld): tap to add a copy, tap a chosen card to take it out.
let pick = null;
function openPick(opts) {
  pick = { ...opts, chosen: [] };
  fill("pick-title", opts.title);
  $("pick-grid").className = pickerClass();
  fill("pick-grid", faces().map((f) => faceCard(f, () => pickAdd(f))));
  $("pick-none").hidden = !opts.none;
  $("pick-none").textContent = opts.none || "";
  renderPick("");
  $("pick").showModal();
}

function pickAdd(f) {
  const copies = (state.entry && state.entry.copies) || 2;
  if (pick.chosen.filter((c) => c === f).length >= copies) { renderPick(`the deck has ${copies} of each card`); return; }
  if (pick.count && pick.chosen.length >= pick.count) { renderPick(`that is ${pick.count} already: take one out first`); return; }
  const order = faces();
  pick.chosen.push(f);
  pick.chosen.sort((a, b) => order.indexOf(a) - order.indexOf(b));
  renderPick("");
}

function renderPick(error) {
  fill("pick-chosen", pick.chosen.length ? pick.chosen.map((c, i) => card(c, { mini: true, onclick: () => { pick.chosen.splice(i, 1); renderPick(""); } }))
    : h("span", { class: "muted" }, "no cards yet"));
  for (const b of $("pick-grid").children) {
    const n = pick.chosen.filter((c) => c === b.dataset.card).length;
    if (n) b.dataset.count = `×${n}`; else delete b.dataset.count;
  }
  const done = $("pick-done");
  done.textContent = pick.count ? `${pick.done} (${pick.chosen.length} of ${pick.count})` : `${pick.done} (${pick.chosen.length})`;
  done.disabled = pick.count ? pick.chosen.length !== pick.count : !pick.chosen.length;
  $("pick-error").textContent = error;
}

async function sendPick(cards) {
  const [path, body] = pick.send(cards);
  const reply = await enter(path, body);
  if (reply && reply.error) $("pick-error").textContent = reply.error;
  else if (reply) $("pick").close();
}

// -- talking to the server ------------------------------------------------------------------

const unlocked = () => !!localStorage.getItem(PIN_KEY);

async function act(path, body) {
  const pin = localStorage.getItem(PIN_KEY);
  if (!pin) { openMenu("Enter the table PIN to do that."); return null; }
  let reply;
  try {
    const res = await fetch(`api/${path}`, { method: "POST", headers: { "Content-Type": "application/json", "X-Table-PIN": pin }, body: JSON.stringify(body) });
    reply = await res.json().catch(() => ({ error: `the table answered ${res.status}` }));
    if (res.status === 401 || res.status === 403) { localStorage.removeItem(PIN_KEY); render(); openMenu(reply.error); }
    if (!res.ok) { toast(reply.error || `refused (${res.status})`); return reply; }
  } catch (e) {
    toast("the table cannot be reached; check the Wi-Fi");
    return null;
  }
  if (reply.state) apply(reply.state, null);
  if (reply.text) toast(reply.text);
  return reply;
}

let toastTimer = 0;
function toast(text) {
  const t = $("toast");
  t.replaceChildren(...rich(text));
  t.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { t.hidden = true; }, 3500);
}

let fromStream = false;
function apply(next, id) {
  // A state sent in an answer may be older than one the stream already gave: keep the newest.
  // At the same journal number the stream's is the fresher: it is built after the alerts have
  // taken the event in (and after a dismissal), while the answer's may be built before.
  if (id === null && state.game_id === next.game_id
    && (next.number < state.number || (next.number === state.number && fromStream))) return;
  state = next;
  fromStream = id !== null;
  if (id) lastId = id;
  render();
}

function setLink(s) { const el = $("link"); el.dataset.state = s; el.textContent = s === "live" ? "live" : s === "lost" ? "reconnecting" : "connecting"; }

function connect() {
  if (source) source.close();
  setLink("connecting");
  source = new EventSource(lastId ? `events?last=${encodeURIComponent(lastId)}` : "events");
  source.addEventListener("state", (e) => { lastHeard = Date.now(); setLink("live"); apply(JSON.parse(e.data), e.lastEventId); });
  source.addEventListener("ping", () => { lastHeard = Date.now(); setLink("live"); });
  source.addEventListener("open", () => { lastHeard = Date.now(); setLink("live"); });
  source.addEventListener("error", () => setLink("lost"));
}

// A phone that slept, or a connection that went quiet past two heartbeats, reconnects at once
// (the server sends the present state to a new stream straight away).
function watch() {
  const beat = (state.table.heartbeat_s || 15) * 1000;
  setInterval(() => { if (Date.now() - lastHeard > 2.5 * beat) { lastHeard = Date.now(); connect(); } }, 2000);
  document.addEventListener("visibilitychange", () => {
    if (document.hidden) { hiddenAt = Date.now(); return; }
    if (Date.now() - hiddenAt > 3000 || !source || source.readyState !== EventSource.OPEN) connect();
  });
  window.addEventListener("online", connect);
}

// -- dialogs ----------------------------------------------------------------------------------

function openMenu(message) {
  $("pin-state").textContent = message || (unlocked() ? "This phone can change the game." : "Watching. Enter the table PIN to bid, correct and undo from this phone.");
  $("pin-form").hidden = unlocked();
  $("lock-button").hidden = !unlocked();
  $("new-game-button").hidden = !(unlocked() && state.table.new_games);
  $("sound-toggle").checked = localStorage.getItem(SOUND_KEY) === "on";
  const names = g() ? g().names : [];
  fill("me-select", h("option", { value: "" }, "nobody in particular"), names.map((n, s) => h("option", { value: s }, n)));
  $("me-select").value = localStorage.getItem(ME_KEY) || "";
  $("menu").showModal();
}

async function unlock(e) {
  e.preventDefault();
  const pin = $("pin-input").value.trim();
  if (!pin) return;
  const res = await fetch("api/pin", { method: "POST", headers: { "X-Table-PIN": pin } }).catch(() => null);
  if (res && res.ok) {
    localStorage.setItem(PIN_KEY, pin);
    $("pin-input").value = "";
    $("menu").close();
    toast("unlocked: this phone can change the game");
    render();
  } else {
    const reply = res ? await res.json().catch(() => ({})) : { error: "the table cannot be reached" };
    $("pin-state").textContent = reply.error || "wrong PIN";
  }
}

let presets = null;
async function openNewGame() {
  $("menu").open && $("menu").close();
  if (!presets) presets = await (await fetch("api/presets")).json();
  const sel = $("ng-preset");
  if (!sel.options.length) {
    for (const p of presets.presets) sel.append(h("option", { value: p.name }, p.name));
    if (g()) sel.value = g().variant;
  }
  seatsFor();
  $("new-game").showModal();
}

function seatsFor() {
  const p = presets.presets.find((x) => x.name === $("ng-preset").value);
  $("ng-description").textContent = p.description;
  const old = [...document.querySelectorAll("#ng-names input")].map((i) => i.value);
  const names = g() && g().names.length === p.seats ? g().names : old;
  fill("ng-names", Array.from({ length: p.seats }, (_, i) => [h("label", { for: `ng-seat-${i}` }, `Seat ${i + 1}${i === 0 ? " (then clockwise)" : ""}`),
    h("input", { id: `ng-seat-${i}`, value: names[i] || "", autocomplete: "off", maxlength: "24", required: true })]));
  fill("ng-dealer", Array.from({ length: p.seats }, (_, i) => h("option", { value: i }, `seat ${i + 1}`)));
  fill("ng-fields", p.fields.map((f) => h("div", {}, h("label", { for: `ng-${f.name}` }, f.label),
    h("input", { id: `ng-${f.name}`, type: "number", inputmode: "numeric", "data-option": f.name, "data-default": f.value,
      value: f.value, min: f.min, max: f.max, step: 1, required: true }))));
}

async function startGame(e) {
  e.preventDefault();
  const options = {};
  for (const input of document.querySelectorAll("#ng-fields input")) {
    if (!input.checkValidity()) { $("ng-error").textContent = `${input.previousSibling.textContent}: ${input.validationMessage}`; return; }
    if (input.value !== input.dataset.default) options[input.dataset.option] = input.value;
  }
  for (const line of $("ng-options").value.split("\n")) {
    const [k, ...rest] = line.split("=");
    if (k.trim()) options[k.trim()] = rest.join("=").trim();
  }
  const names = [...document.querySelectorAll("#ng-names input")].map((i) => i.value.trim());
  const reply = await act("game", { preset: $("ng-preset").value, names, dealer: Number($("ng-dealer").value), options });
  if (reply && reply.error) { $("ng-error").textContent = reply.error; return; }
  if (reply) $("new-game").close();
}

// -- past games, this game's history and the players' records (read from the journal) -----------

const when = (t) => new Date(t * 1000).toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
async function getJSON(url) {
  const res = await fetch(url).catch(() => null);
  const body = res ? await res.json().catch(() => ({})) : { error: "the table cannot be reached" };
  return res && res.ok ? body : { error: body.error || `the table answered ${res ? res.status : "nothing"}` };
}

function openPast(tab) {
  $("menu").open && $("menu").close();
  $("past").showModal();
  showTab(tab || (state.game_id ? "game" : "games"));
}

async function showTab(tab) {
  for (const b of document.querySelectorAll("#past [data-tab]")) b.className = b.dataset.tab === tab ? "primary" : "";
  $("past").dataset.tab = tab;
  fill("past-body", h("p", { class: "muted" }, "reading the journal…"));
  if (tab === "game") return state.game_id ? showGame(state.game_id) : fill("past-body", h("p", { class: "muted" }, "no game yet"));
  if (tab === "players") return showPlayers();
  const data = await getJSON("api/games");
  if (data.error) { fill("past-body", h("p", { class: "error" }, data.error)); return; }
  fill("past-title", "Past games");
  fill("past-body", data.games.length ? h("ol", { class: "games", id: "game-list" }, data.games.map((x) => h("li", {},
    h("button", { class: "game-row", type: "button", "data-game": x.id, onclick: () => showGame(x.id) },
      h("b", {}, `${x.variant} · ${when(x.created)}`),
      h("span", {}, x.names.map((n, i) => `${n} ${x.scores[i]}`).join(" · ")),
      h("span", { class: "muted small" }, x.winner ? `${x.winner} won` : `${x.phase}, hand ${x.hands}`))))) : h("p", { class: "muted" }, "no games yet"));
}

async function showGame(id, hand) {
  const data = await getJSON(`api/games/${id}` + (hand ? `?hand=${hand}` : ""));
  if (data.error) { fill("past-body", h("p", { class: "error" }, data.error)); return; }
  fill("past-title", `Game ${id}: ${data.variant}`);
  const unit = data.unit === "stakes" ? "ledger_change" : "score_change";
  fill("past-body", h("p", { class: "muted small" }, `${when(data.created)} · ${data.names.join(", ")}`,
    data.winner ? ` · ${data.winner} won` : ""),
    h("table", { class: "sheet-table", id: "game-hands" }, h("thead", {}, h("tr", {}, h("th", {}, "hand"), data.names.map((n) => h("th", {}, n)))),
      h("tbody", {}, data.hand_results.map((r) => [h("tr", { class: "hand-row", "data-hand": r.hand, onclick: () => showGame(id, r.hand === hand ? 0 : r.hand) },
        h("td", {}, h("button", { class: "small ghost", type: "button" }, `${r.hand} ${r.hand === hand ? "▾" : "▸"}`), h("span", { class: "delta" }, r.text.replace(/^hand \d+: /, ""))),
        data.names.map((_, s) => h("td", {}, (r[unit][s] > 0 ? "+" : "") + r[unit][s]))),
      r.hand === hand ? h("tr", {}, h("td", { colspan: data.names.length + 1 }, h("ol", { class: "moves", id: "hand-moves" },
        data.moves.map((m) => h("li", {}, h("span", { class: "n" }, `#${m.number}`), h("span", { class: "t" }, ...rich(m.text))))))) : null]))),
    h("p", { class: "muted small" }, `total: ${data.names.map((n, i) => `${n} ${data.scores[i]}`).join(" · ")} — tap a hand for its moves`),
    h("a", { class: "button", href: `api/games/${id}/sheet.csv`, download: "" }, "Score sheet (CSV)"));
}

async function showPlayers() {
  const data = await getJSON("api/records");
  if (data.error) { fill("past-body", h("p", { class: "error" }, data.error)); return; }
  fill("past-title", "Players");
  const cols = [["games", "games"], ["won", "won"], ["bids", "bids"], ["made", "made"], ["sets", "set"], ["average_meld", "avg meld"], ["biggest_meld", "best meld"]];
  fill("past-body", h("p", { class: "muted small" }, data.note, ` (${data.games} games in the journal)`),
    h("div", { class: "wide-table" }, h("table", { class: "sheet-table", id: "records" }, h("thead", {}, h("tr", {}, h("th", {}, "player"), cols.map(([, t]) => h("th", {}, t)))),
      h("tbody", {}, data.players.map((p) => h("tr", {}, h("td", {}, p.name), cols.map(([k]) => h("td", {}, p[k]))))))),
    h("a", { class: "button", href: "api/records.csv", download: "" }, "Records (CSV)"));
}

function openFix(move) {
  const body = [];
  const send = async (extra) => {
    const reply = await act("correct", { target: move.number, ...extra });
    if (reply && reply.error) $("fix-error").textContent = reply.error; else if (reply) $("fix").close();
  };
  $("fix-error").textContent = "";
  if (move.type === "CardPlayed") {
    fill("fix-title", `#${move.number}: ${nameOf(move.seat)} played `, ...rich(move.text ? move.text.split(" played ")[1] || "" : SYM[split(move.card).suit]), " — it was:");
    body.push(h("div", { class: pickerClass() }, faces().map((f) => card(f, { onclick: () => send({ card: f }) }))));
  } else if (move.type === "BidMade") {
    fill("fix-title", `#${move.number}: ${move.text} — it was:`);
    const input = h("input", { type: "number", inputmode: "numeric", step: "10", value: (move.text.match(/\d+$/) || [""])[0] });
    body.push(h("div", { class: "row" }, input, h("button", { class: "primary", type: "button", onclick: () => send({ amount: Number(input.value) }) }, "Correct")));
  } else if (move.type === "TrumpNamed") {
    fill("fix-title", `#${move.number}: ${move.text} — it was:`);
    body.push(h("div", { class: "row" }, ["S", "H", "D", "C"].map((s) => h("button", { class: `suit-button ${s}`, type: "button", onclick: () => send({ suit: s }) }, SYM[s]))));
  }
  fill("fix-body", body);
  $("fix").showModal();
}

// -- start ------------------------------------------------------------------------------------

function init() {
  $("menu-button").addEventListener("click", () => openMenu());
  $("pin-form").addEventListener("submit", unlock);
  $("lock-button").addEventListener("click", () => { localStorage.removeItem(PIN_KEY); $("menu").close(); render(); });
  $("new-game-button").addEventListener("click", openNewGame);
  $("past-button").addEventListener("click", () => openPast());
  for (const b of document.querySelectorAll("#past [data-tab]")) b.addEventListener("click", () => showTab(b.dataset.tab));
  $("sound-toggle").addEventListener("change", (e) => { localStorage.setItem(SOUND_KEY, e.target.checked ? "on" : "off"); if (e.target.checked) beep(660); });
  $("me-select").addEventListener("change", (e) => { localStorage.setItem(ME_KEY, e.target.value); wasMine = false; });
  $("new-game-form").addEventListener("submit", startGame);
  $("ng-preset").addEventListener("change", seatsFor);
  $("pick-done").addEventListener("click", () => sendPick(pick.chosen.slice()));
  $("pick-none").addEventListener("click", () => sendPick([]));
  for (const b of document.querySelectorAll("[data-close]")) b.addEventListener("click", () => b.closest("dialog").close());
  render();
  connect();
  watch();
}

init();
