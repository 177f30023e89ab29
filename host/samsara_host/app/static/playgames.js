// The Play page's Samas and Schaska games (docs/app.md "Play"): the board drawn from the
// server's state object, the choices (Samas) or legal moves (Schaska) as buttons.  The
// rules run on the server (app/playsamas.py, app/playschaska.py); this file only draws
// and sends the players' picks through play.js's act(); the drawings are gamesvg.js's.
"use strict";
const CHOICE_WORDS = {"0": "No stones", "1": "1 stone", "2": "2 stones", "3": "3 stones", "J": "Joker"};

function samasControls(s) {
  let out = "";
  ["A", "B"].forEach((p, i) => {
    out += `<div class="player${s.chosen[p] || s.over ? "" : " tomove"}" style="margin-bottom:8px">` +
      `<div><b>${esc(s.names[i])}</b></div>`;
    if (s.over) out += "<div>&nbsp;</div>";
    else if (s.chosen[p]) out += `<div id="chosen${p}">has chosen (hidden until both have)</div>`;
    else out += `<div class="step-row" style="justify-content:center">` + s.legal[p].map(c =>
      `<button class="light" id="choose${p}-${c}" data-choice="${c}">${CHOICE_WORDS[c]}</button>`).join("") + "</div>";
    out += "</div>";
  });
  if (s.last) out += `<div id="reveal" class="boardsays">Revealed: ${esc(s.names[0])} ${esc(CHOICE_WORDS[s.last.A].toLowerCase())}, ` +
    `${esc(s.names[1])} ${esc(CHOICE_WORDS[s.last.B].toLowerCase())}: ${esc(s.last.words)}.</div>`;
  return out;
}

function schaskaControls(s) {
  if (s.over) return `<div>Progress: A ${s.totals[0]}, B ${s.totals[1]}</div>`;
  const i = s.mover === "A" ? 0 : 1;
  return `<div><b>${esc(s.names[i])}</b> to move:</div><div class="step-row" style="margin-top:6px">` +
    s.legal.map((m, k) => `<button class="light" id="act-${k}">${esc(m.words)}</button>`).join("") + "</div>";
}

function otherGuide(s) {
  if (s.over) return s.over + (s.saved ? " The game is kept in the games folder (" + s.saved + ")." : "");
  if (s.game === "samas") {
    const waiting = ["A", "B"].filter(p => !s.chosen[p]).map(p => s.names[p === "A" ? 0 : 1]);
    if (waiting.length === 2) return `Round ${s.round}: each player picks in secret (the other looks away).`;
    return `Round ${s.round}: ${waiting[0]}, your choice; then both are revealed.`;
  }
  return `${s.names[s.mover === "A" ? 0 : 1]}: pick a move. A figure moves by its field's value, ` +
    "jumping over occupied fields.";
}

function showOther(s) {
  const box = document.getElementById("oboard");
  box.innerHTML = s.game === "samas" ? samasSVG(s) : schaskaSVG(s);
  document.getElementById("oguide").textContent = otherGuide(s);
  document.getElementById("oproblem").textContent = s.problem || "";
  const ctl = document.getElementById("ocontrols");
  ctl.innerHTML = s.game === "samas" ? samasControls(s) : schaskaControls(s);
  if (s.game === "samas") {
    ctl.querySelectorAll("button[data-choice]").forEach(b => b.onclick = () =>
      act("choose", {player: b.id.charAt(6), choice: b.dataset.choice}));
  } else {
    s.legal.forEach((m, k) => document.getElementById("act-" + k).onclick = () =>
      act("act", {move: m.move}));
  }
  document.getElementById("orecord").innerHTML = s.game === "samas"
    ? s.record.map(([k, a, b, w]) => `<div class="turnline">${k}. A ${esc(a)}, B ${esc(b)}: ${esc(w)}</div>`).join("")
    : s.record.map(([k, _p, w]) => `<div class="turnline">${k}. ${esc(w)}</div>`).join("");
  const rec = document.getElementById("orecord");
  rec.scrollTop = rec.scrollHeight;
}

// The game picker: Samsara has the computer to play against; Schaska takes a layout.
async function pickGame() {
  const g = document.getElementById("game").value;
  document.getElementById("newE").classList.toggle("hidden", g !== "samsara");
  document.getElementById("layoutrow").classList.toggle("hidden", g !== "schaska");
  const inp = document.getElementById("layout");
  if (g === "schaska" && !inp.value) {
    const d = await api("/api/schaska/layout");
    if (d.default) inp.value = d.default;
  }
}
pickGame();   // the picker as the browser restored it
