// The live page: the board's snapshot from /api/live/events (server-sent events), and
// the board's game from here: New game, Roll, Undo, Hint (/api/live/<action>).  Every
// turn of the move list is a link (#turn-N): the board after it, drawn as the replay
// draws it (/api/live/turn/N), until "Back to the live board".
"use strict";
nav("/");
let last = null;
let viewing = 0;          // the turn shown instead of the live board (0: the live board)
let recordHTML = "";      // the move list as drawn last
let newBlocked = null;    // why New game is off (an online game is on), or null
let farBlocked = null;    // why Undo and Hint are off (the far player's turn), or null
let saidFor = null;       // the turn the words under the buttons were said in (Roll,
                          // Undo, Hint): they go once it moves on or the hint is shown

// What to call a side: the board, the player's name when known, else "You" against the
// board or "Player A".
function sideName(s, side) {
  if (s.vs_board === side) return "The board";
  const name = s.names ? s.names[side === "A" ? 0 : 1] : "";
  if (name) return name;
  if (s.vs_board) return "You";
  return "Player " + side;
}

function show(s) {
  last = s;
  window.samsaraLive = s;            // for tests and curious people
  const banner = document.getElementById("banner");
  banner.textContent = s.banner || "";
  banner.classList.toggle("hidden", !s.banner);
  document.getElementById("restartrow").classList.toggle("hidden", !s.restartable);
  const busy = document.getElementById("busy");
  busy.textContent = s.busy || "";
  busy.classList.toggle("hidden", !s.busy);
  const note = document.getElementById("note");
  note.textContent = s.note || "";
  note.classList.toggle("hidden", !s.note);
  const other = !!s.kind && s.kind !== "samsara";
  // Samsara's own parts (the buttons, dice, score, turn links) are hidden for another game
  ["controls", "samsaracard", "recordkeys"].forEach(id =>
    document.getElementById(id).classList.toggle("hidden", other));
  document.getElementById("gamecard").classList.toggle("hidden", !other);
  if (other) { showGame(s); return; }
  if (!viewing) drawBoard(s);
  document.getElementById("handsnote").classList.toggle("hidden", !s.hands || !s.connected);
  if (saidFor && (s.game !== saidFor.game || s.mover !== saidFor.mover ||
                  s.record.length !== saidFor.turns || (saidFor.action === "hint" && s.hint) ||
                  (saidFor.refused && (s.state !== saidFor.state ||
                                       (s.lifted || []).join() !== saidFor.lifted)))) {
    document.getElementById("said").textContent = "";
    saidFor = null;
  }
  const g = document.getElementById("guide");
  g.textContent = s.connected ? s.guidance : (s.banner ? "Waiting for the board ..." : s.guidance);
  g.classList.toggle("bad", !!(s.wrong || s.missing.length || s.extra.length));
  const says = document.getElementById("boardsays");
  const sayText = s.board_words ? s.board_words + " (the blue arrow)." :
    (s.hint_words ? "Hint: " + s.hint_words + " (the green arrows)." : "");
  says.textContent = sayText;
  says.classList.toggle("hidden", !sayText || !s.connected);
  const can = s.can || {};
  document.getElementById("roll").disabled = !can.roll;
  showNewBlocked(s);
  document.getElementById("nA").textContent = sideName(s, "A");
  document.getElementById("nB").textContent = sideName(s, "B");
  document.getElementById("sA").textContent = s.score[0];
  document.getElementById("sB").textContent = s.score[1];
  document.getElementById("pA").classList.toggle("tomove", s.mover === "A" && !s.over);
  document.getElementById("pB").classList.toggle("tomove", s.mover === "B" && !s.over);
  const mine = s.names && s.names[s.mover === "A" ? 0 : 1];
  document.getElementById("whose").textContent = s.over ? s.over :
    (!s.connected ? "" : s.vs_board === s.mover ? "The board's turn" :
     mine ? `${mine}'s turn` : s.vs_board ? "Your turn" : `Player ${s.mover} to play`);
  const rem = s.remaining.slice();
  document.getElementById("dice").innerHTML = s.dice.length ? s.dice.map(d => {
    const i = rem.indexOf(d);
    if (i >= 0) { rem.splice(i, 1); return dieSVG(d, false); }
    return dieSVG(d, true);
  }).join("") : '<span class="keys">no roll yet</span>';
  document.getElementById("options").textContent = s.options ? "Rule: " + s.options : "";
  const rec = document.getElementById("record");
  const start = s.start ? s.start.trim().split(" ").pop() : "A";
  const sideOf = n => (n % 2 === 1) === (start !== "B") ? "A" : "B";
  // the list is drawn again only when it changed: a link being tapped stays there
  const html = s.record.length ? s.record.map(([n, t]) =>
    `<div class="turnline${n === viewing ? " here" : ""}" data-n="${n}"><a href="#turn-${n}">` +
    `${n}. ${esc(sideName(s, sideOf(n)))}: ${esc(t)}</a></div>`).join("") : "<i>no turns yet</i>";
  if (html !== recordHTML) {
    recordHTML = html;
    rec.innerHTML = html;
    if (!viewing) rec.scrollTop = rec.scrollHeight;
  }
  document.getElementById("words").innerHTML = s.words.slice().reverse().map(w =>
    `<div>${diceText(w)}</div>`).join("");
}

// A Samas or Schaska board (s.kind): its board drawn by gamesvg.js from s.play, the
// headline, each player's pieces, the rounds or turns so far and what happened.
const GAME_TITLE = {samas: "Samas", schaska: "Schaska"};
let gameDrawn = null;     // the Samas or Schaska board as drawn last
function showGame(s) {
  document.title = "Samsara: live board (" + GAME_TITLE[s.kind] + ")";
  const p = s.play;
  const hands = !!(s.hands && s.connected && p);
  const hand = hands ? {sensed: s.sensed, look: look, open: !!s.moving} : undefined;
  const picture = !p ? "" : (s.kind === "samas" ? samasSVG(p, hand) : schaskaSVG(p, hand));
  // drawn again only when it changed: a piece being clicked stays there
  if (!viewing && picture !== gameDrawn) {
    gameDrawn = picture;
    document.getElementById("board").innerHTML = picture;
  }
  showGameHands(s, hands);
  const g = document.getElementById("guide");
  g.textContent = s.connected ? s.headline : (s.banner ? "Waiting for the board ..." : s.headline);
  g.classList.remove("bad");
  document.getElementById("boardsays").classList.add("hidden");
  const refused = document.getElementById("grefused");
  refused.textContent = s.refused || "";
  refused.classList.toggle("hidden", !s.refused);
  const shows = document.getElementById("gshows");     // (the app's own virtual board)
  shows.textContent = s.board_shows || "";
  shows.classList.toggle("hidden", !s.board_shows);
  shows.classList.toggle("bad", (s.board_shows || "").startsWith("Put the board right"));
  for (const side of ["A", "B"]) {
    const name = s.names ? s.names[side === "A" ? 0 : 1] : "";
    document.getElementById("gn" + side).textContent = name ? `${name} (${side})` : "Player " + side;
    const box = document.getElementById("gs" + side), q = p ? p.position[side] : null;
    let t = "";
    if (q && s.kind === "samas") {
      t = `hollow ${q.hole}; ${q.stones} stone${q.stones === 1 ? "" : "s"}, ` +
        `${q.jokers} joker${q.jokers === 1 ? "" : "s"}` + (s.ready[side] && !s.over ? "; ready" : "");
    } else if (q) {
      t = `start ${q.start}, on the track ${q.fields.length}, home ${q.home}`;
    }
    box.textContent = t;
    const tomove = !s.over && p && (s.kind === "samas" ? !s.ready[side] && !s.moving :
                                    p.position.turn === side);
    document.getElementById("g" + side).classList.toggle("tomove", !!tomove);
  }
  const rec = document.getElementById("record");
  const html = s.record.length ? s.record.map(([n, t]) =>
    `<div class="turnline" data-n="${n}">${n}. ${esc(t)}</div>`).join("") +
    (s.over ? `<div class="turnline"><b>${esc(s.over)}</b></div>` : "") :
    "<i>no " + (s.kind === "samas" ? "rounds" : "turns") + " yet</i>";
  if (html !== recordHTML) {
    recordHTML = html;
    rec.innerHTML = html;
    rec.scrollTop = rec.scrollHeight;
  }
  document.getElementById("words").innerHTML = s.words.slice().reverse().map(w =>
    `<div>${esc(w)}</div>`).join("");
}

// The app's own Samas or Schaska virtual board has no pieces to touch: the page is the
// hand (/api/live/hand, app/gamehands.py).  A click on a hollow, tray hole or field
// lifts the piece there or puts one on it; A's and B's buttons are each player's
// Ready.  Each tray stays behind its screen until its player looks; Ready closes it,
// and so does a look behind the other player's screen.
const look = {A: false, B: false};
let gameSaidFor = null;        // the snapshot's steps when the hand's words were said
const HANDS_NOTE = {
  samas: "A virtual board has no stones to touch: look behind your screen, click the " +
    "tray's holes to put in 0 to 3 stones or the joker (click again to take one out), " +
    "then press your Ready. After the reveal, click the Sama-stone and then the hollow " +
    "it goes to, and click the revealed stones to take them out of the trays.",
  schaska: "A virtual board has no figures to touch: click a figure to lift it, then the " +
    "field it goes to; click your first field to put a figure from the start on it. A " +
    "figure that goes home or back to its start is only lifted."};
function showGameHands(s, hands) {
  document.getElementById("ghands").classList.toggle("hidden", !hands);
  if (!hands) return;
  const samas = s.kind === "samas";
  document.getElementById("greadyrow").classList.toggle("hidden", !samas || !!s.over);
  document.getElementById("glookrow").classList.toggle("hidden", !samas || !!s.over || !!s.moving);
  for (const side of ["A", "B"]) {
    const who = (s.names && s.names[side === "A" ? 0 : 1]) || side;
    document.getElementById("ready" + side).textContent = `${who}: Ready`;
    document.getElementById("look" + side).textContent =
      look[side] ? `Hide ${who}'s tray` : `Look behind ${who}'s screen`;
    document.getElementById("ready" + side).disabled = !!s.moving || !!s.ready[side];
  }
  document.getElementById("gnew").classList.toggle("hidden", !s.over);
  document.getElementById("ghandsnote").textContent = HANDS_NOTE[s.kind] || "";
  if (gameSaidFor !== null && gameSaidFor !== s.steps) {
    document.getElementById("gsaid").textContent = "";
    gameSaidFor = null;
  }
}
async function gameHand(body) {
  const said = document.getElementById("gsaid");
  const r = await api("/api/live/hand", {method: "POST", body: body});
  said.textContent = r.error || r.words || "";
  said.classList.toggle("bad", !!r.error);
  gameSaidFor = last ? last.steps : null;
}
function lookTray(side, open) {
  look[side] = open;
  if (open) look[side === "A" ? "B" : "A"] = false;   // one screen open at a time
  if (last) showGame(last);
}
document.getElementById("board").addEventListener("click", (e) => {
  const s = last;
  if (!s || !s.kind || s.kind === "samsara" || !s.hands || viewing) return;
  const el = e.target.closest("[data-place], [data-field], .screen");
  if (!el) return;
  if (el.classList.contains("screen")) { lookTray(el.dataset.side, true); return; }
  if (s.kind === "samas" && el.dataset.place) gameHand({place: el.dataset.place});
  else if (s.kind === "schaska" && el.dataset.field) gameHand({field: +el.dataset.field});
});
for (const side of ["A", "B"]) {
  document.getElementById("ready" + side).onclick = () => {
    look[side] = false;               // the choice made: the screen goes back up
    if (last) showGame(last);
    gameHand({button: side});
  };
  document.getElementById("look" + side).onclick = () => lookTray(side, !look[side]);
}
document.getElementById("gnew").onclick = () => gameHand({button: "A", long: true});
document.getElementById("gnamesave").onclick = async () => {
  const said = document.getElementById("gnamesaid");
  const r = await api("/api/live/names", {method: "POST", body: {names: [
    document.getElementById("gnameA").value, document.getElementById("gnameB").value]}});
  said.textContent = r.error || "Named.";
  said.classList.toggle("bad", !!r.error);
};

// New game is off while an online game is on (the Online page's bridge plays the
// board's game), Undo and Hint while it is the far player's turn: the reasons under
// the buttons; asked every two seconds.
function showNewBlocked(s) {
  const why = document.getElementById("newblocked");
  why.textContent = newBlocked || "";
  why.classList.toggle("hidden", !newBlocked);
  document.getElementById("start").disabled = !(s && s.connected) || !!newBlocked;
  // Undo and Hint are off while the far player's turn of an online game is on the board
  const far = document.getElementById("farblocked");
  far.textContent = farBlocked || "";
  far.classList.toggle("hidden", !farBlocked);
  const can = (s && s.can) || {};
  document.getElementById("undo").disabled = !can.undo || !!farBlocked;
  document.getElementById("hint").disabled = !can.hint || !!farBlocked;
}
async function checkOnline() {
  const g = await api("/api/online/game");
  const was = newBlocked, wasFar = farBlocked;
  newBlocked = g.error ? null : (g.blocks_new || null);
  farBlocked = g.error ? null : (g.blocks_far || null);
  if (was !== newBlocked || wasFar !== farBlocked) showNewBlocked(last);
}

// The app's own virtual board has no hands: a click lifts the marble in a hole, or
// puts the marble in the hand into an empty one (/api/live/hand).
async function drawBoard(s) {
  if (s.kind && s.kind !== "samsara") { showGame(s); return; }
  const box = document.getElementById("board");
  gameDrawn = null;
  if (!s.hands) { box.innerHTML = s.svg; return; }
  const h = await holes();
  if (last === s) showBoard(box, s.svg, h, hand);
}
async function hand(name) {
  const r = await api("/api/live/hand", {method: "POST", body: {hole: name}});
  if (r.error) {
    const said = document.getElementById("said");
    said.textContent = r.error;
    said.classList.add("bad");
  }
}

async function act(action, body) {
  const said = document.getElementById("said");
  said.classList.remove("bad");
  said.textContent = "...";
  const before = last;
  const r = await api("/api/live/" + action, {method: "POST", body: body || {}});
  said.textContent = r.error || r.words || "";
  said.classList.toggle("bad", !!r.error);
  saidFor = null;
  if (r.error && before) {
    // a refusal's words stay until the board changes (the marble put back, the turn on)
    saidFor = {action: action, game: before.game, mover: before.mover, refused: true,
               turns: before.record.length, state: before.state,
               lifted: (before.lifted || []).join()};
  }
  if (!r.error && before && action !== "new") {
    saidFor = {action: action, game: before.game, mover: before.mover,
               turns: before.record.length};
    if (action === "hint" && last && last.hint) { said.textContent = ""; saidFor = null; }
  }
  if (!r.error && action === "new") document.getElementById("newgame").open = false;
}

document.getElementById("restart").onclick = async () => {
  document.getElementById("restart").disabled = true;
  const r = await api("/api/board/restart", {method: "POST", body: {}});
  document.getElementById("restart").disabled = false;
  if (r.error) document.getElementById("banner").textContent = r.error;
};
document.getElementById("roll").onclick = () => act("roll");
document.getElementById("undo").onclick = () => act("undo");
document.getElementById("hint").onclick = () => act("hint");
document.getElementById("start").onclick = () => {
  const vs = document.getElementById("opponent").value;
  act("new", {vs_board: vs || null, level: parseInt(document.getElementById("level").value, 10),
              starter: "A", names: [document.getElementById("nameA").value,
                                    document.getElementById("nameB").value]});
};

// One turn of the game instead of the live board (the move list's links, #turn-N).
async function showTurn(n) {
  const box = document.getElementById("turnview");
  const cap = document.getElementById("turncaption");
  viewing = n;
  box.classList.remove("hidden");
  cap.classList.remove("bad");
  const v = await api("/api/live/turn/" + n);
  if (viewing !== n) return;
  if (v.error) {
    cap.textContent = v.error;
    cap.classList.add("bad");
  } else {
    cap.textContent = v.caption;
    document.getElementById("board").innerHTML = v.svg;
  }
  const turns = last ? last.record.map(([k]) => k) : [];
  document.getElementById("turnprev").disabled = !turns.includes(n - 1);
  document.getElementById("turnnext").disabled = !turns.includes(n + 1);
  document.querySelectorAll("#record .turnline").forEach(d =>
    d.classList.toggle("here", +d.dataset.n === n));
  window.samsaraTurn = v.error ? {n: n, error: v.error} : v;
}
function backToLive() {
  viewing = 0;
  window.samsaraTurn = null;
  document.getElementById("turnview").classList.add("hidden");
  if (location.hash) history.replaceState(null, "", location.pathname);
  document.querySelectorAll("#record .turnline.here").forEach(d => d.classList.remove("here"));
  if (last) drawBoard(last);
}
function followHash() {
  const m = /^#turn-(\d+)$/.exec(location.hash);
  if (m) showTurn(+m[1]); else if (viewing) backToLive();
}
window.addEventListener("hashchange", followHash);
document.getElementById("backlive").onclick = backToLive;
document.getElementById("turnprev").onclick = () => { location.hash = "#turn-" + (viewing - 1); };
document.getElementById("turnnext").onclick = () => { location.hash = "#turn-" + (viewing + 1); };

function connect() {
  const es = new EventSource("/api/live/events");
  let first = true;
  es.onmessage = (e) => {
    show(JSON.parse(e.data));
    if (first) { first = false; followHash(); }   // a turn's link opened the page
  };
  es.onerror = () => {
    const b = document.getElementById("banner");
    b.textContent = "The app is not answering: is `samsara app` still running? Trying again ...";
    b.classList.remove("hidden");
  };
}
connect();
checkOnline();
setInterval(checkOnline, 2000);
