// The replay page: step through a game turn by turn, the score chart beside it, and
// the engine's analysis (fetched apart: it is computed once, in the background).
"use strict";
nav("/library");
const gid = location.pathname.replace(/^\/replay\//, "");
let game = null, k = 0, an = null;
const FLAG_WORDS = {doubtful: "doubtful", mistake: "a mistake", blunder: "a blunder"};

// The figures are the server's (an.figures, an.summaries: analysis.figure and
// analyze_cmd.summary_line), so the page reads as `samsara analyze` and the exports.

// A's win probability after each step (null where unknown: the start, no analysis).
function winProbs(steps) {
  if (!an || an.state !== "done") return null;
  const t = an.analysis.turns;
  return steps.map((s, i) => i === 0 ? null : (t[i - 1] ? t[i - 1].win_prob : null));
}

function chart(steps, at) {
  const W = 300, H = 120, P = 18, n = Math.max(1, steps.length - 1);
  const x = i => P + (W - 2 * P) * i / n, y = v => H - P - (H - 2 * P) * v / 6;
  const line = (j, col) => `<polyline fill="none" stroke="${col}" stroke-width="2.5" points="` +
    steps.map((s, i) => `${x(i).toFixed(1)},${y(s.score[j]).toFixed(1)}`).join(" ") + `"/>`;
  let grid = "";
  for (let v = 0; v <= 6; v += 2) grid += `<line x1="${P}" x2="${W - P}" y1="${y(v)}" y2="${y(v)}" stroke="#ddd"/>` +
    `<text x="2" y="${y(v) + 4}" font-size="10">${v}</text>`;
  const wp = winProbs(steps);
  let wline = "";
  if (wp) {
    const yw = v => H - P - (H - 2 * P) * v;
    const pts = wp.map((v, i) => v == null ? null : `${x(i).toFixed(1)},${yw(v).toFixed(1)}`)
      .filter(p => p);
    wline = `<polyline class="winprob" fill="none" stroke="#2e7d32" stroke-width="2" ` +
      `stroke-dasharray="5 3" points="${pts.join(" ")}"/>` +
      [0, 0.5, 1].map(v => `<text x="${W - 1}" y="${yw(v) + 4}" font-size="9" ` +
        `text-anchor="end" fill="#2e7d32">${100 * v}%</text>`).join("");
  }
  return `<svg viewBox="0 0 ${W} ${H}">${grid}${line(0, "#1f5fbf")}${line(1, "#c0392b")}${wline}` +
    `<line x1="${x(at)}" x2="${x(at)}" y1="${P - 6}" y2="${H - P}" stroke="#e0a000" stroke-width="2"/>` +
    `<text x="${W - P - 26}" y="12" font-size="11" text-anchor="end"><tspan fill="#1f5fbf">A</tspan> / ` +
    `<tspan fill="#c0392b">B</tspan></text></svg>`;
}

function show(i) {
  const steps = game.steps;
  k = Math.max(0, Math.min(steps.length - 1, i));
  const s = steps[k];
  document.getElementById("board").innerHTML = s.svg;
  document.getElementById("caption").textContent = s.caption;
  document.getElementById("where").textContent = `turn ${k} of ${steps.length - 1}`;
  document.getElementById("dice").innerHTML = s.notation ?
    s.notation.split(" ")[0].split("").map(d => dieSVG(+d, false)).join("") : "";
  document.getElementById("chart").innerHTML = chart(steps, k);
  document.getElementById("prev").disabled = k === 0;
  document.getElementById("first").disabled = k === 0;
  document.getElementById("next").disabled = k === steps.length - 1;
  document.getElementById("last").disabled = k === steps.length - 1;
  document.querySelectorAll("#record div").forEach(d => {
    d.style.fontWeight = (+d.dataset.n === k) ? "bold" : "";
    d.classList.toggle("here", +d.dataset.n === k);
  });
  // every turn has its own link: /replay/<game>#turn-N
  const want = k ? "#turn-" + k : "";
  if (location.hash !== want) history.replaceState(null, "", location.pathname + want);
  showAnalysis();
  window.samsaraReplay = {turn: k, turns: steps.length - 1, position: s.notation};
}

async function load() {
  game = await api("/api/game/" + gid);
  if (game.error && !game.steps.length) {
    document.getElementById("title").textContent = "This game cannot be read";
    document.getElementById("caption").textContent = game.error;
    return;
  }
  const t = game.tags;
  const pa = t.PlayerA && t.PlayerA !== "?" ? t.PlayerA : "A";
  const pb = t.PlayerB && t.PlayerB !== "?" ? t.PlayerB : "B";
  document.getElementById("title").textContent =
    `Game ${t.Game || ""}: ${pa} vs ${pb}, ${game.summary}`;
  if (game.torn) {
    const b = document.getElementById("torn");
    b.textContent = `This file is torn (${game.torn}): the ${game.steps.length - 1} turns before the damage are shown.`;
    b.classList.remove("hidden");
  }
  const who = {A: pa, B: pb};
  document.getElementById("record").innerHTML = game.steps.slice(1).map(s =>
    `<div data-n="${s.n}" class="turnline"><a href="#turn-${s.n}">${s.n}. ${esc(who[s.player] || s.player)}: ${esc(s.notation)}</a> <span class="keys">(${s.score[0]}-${s.score[1]})</span></div>`).join("");
  document.querySelectorAll("#record div").forEach(d =>
    d.addEventListener("click", (e) => { e.preventDefault(); show(+d.dataset.n); }));
  const m = /^#turn-(\d+)$/.exec(location.hash);
  show(m ? +m[1] : 0);
  loadAnalysis();
}

window.addEventListener("hashchange", () => {
  const m = /^#turn-(\d+)$/.exec(location.hash);
  if (game && m && +m[1] !== k) show(+m[1]);
});

function turnWords(t, f, who) {
  if (t.best === null) return "<p>A roll without a move (Moksha): nothing to judge.</p>";
  let h = `<p>Played: <b>${esc(t.played)}</b></p>`;
  if (!f.loss) h += `<p class="flag-best">The engine's best turn too.</p>`;
  else {
    h += `<p>The engine's best: <b class="best">${esc(t.best)}</b></p>`;
    h += `<p>Loss for ${esc(who)}: <span class="loss">${esc(f.loss)}</span> of the chance to win` +
      (t.flag ? `: <span class="flag flag-${t.flag}">${FLAG_WORDS[t.flag]}</span>` : " (a small slip)") + "</p>";
  }
  if (f.win) h += `<p>Chance to win after it: <span class="win">${esc(f.win)}</span></p>`;
  h += `<p class="keys">Luck of the roll ${diceText("roll " + t.dice.join(" ")).slice(5)}: ` +
    `<span class="luck">${esc(f.luck)}</span> for ${esc(who)}.</p>`;
  return h;
}

function showAnalysis() {
  const box = document.getElementById("analysis");
  if (!an) return;
  if (an.state === "running") {
    box.innerHTML = `<i class="analysing">Analysing the game's ${an.turns} turns ... ` +
      `(${Math.round(an.elapsed_s)} s; a few seconds per turn on a slow computer)</i>`;
    return;
  }
  if (an.state !== "done") { box.innerHTML = `<i>${esc(an.reason || an.error || "no analysis")}</i>`; return; }
  const a = an.analysis, s = game.steps[k];
  let h = "";
  if (an.torn) h += `<p class="keys">Only the ${a.turns.length} turns that could be read are analysed.</p>`;
  const t = k > 0 ? a.turns[k - 1] : null;
  if (t) h += turnWords(t, an.figures[k - 1], s.player);
  else h += "<p>Step through the game: the engine judges every turn (its best turn, " +
    "how much the turn played cost, and the luck of the dice).</p>";
  h += `<p class="keys">Over the game:</p><p class="keys summary" data-player="A">A: ` +
    `${esc(an.summaries.A)}</p><p class="keys summary" data-player="B">B: ` +
    `${esc(an.summaries.B)}</p>`;
  box.innerHTML = h;
}

async function loadAnalysis() {
  an = await api("/api/game/" + gid + "/analysis");
  if (an.error) an = {state: "none", reason: an.error};
  if (an.state === "running") { showAnalysis(); setTimeout(loadAnalysis, 1000); return; }
  if (an.state === "done") {
    document.getElementById("wpKey").classList.remove("hidden");
    an.analysis.turns.forEach((t, i) => {
      const d = document.querySelector(`#record div[data-n="${game.steps[i + 1] ? game.steps[i + 1].n : -1}"]`);
      if (d && t.flag) d.insertAdjacentHTML("beforeend", ` <span class="flag flag-${t.flag}">${t.flag}</span>`);
    });
  }
  window.samsaraAnalysis = an.state;
  show(k);
}

document.getElementById("first").onclick = () => show(0);
document.getElementById("prev").onclick = () => show(k - 1);
document.getElementById("next").onclick = () => show(k + 1);
document.getElementById("last").onclick = () => show(1e9);
document.addEventListener("keydown", (e) => {
  if (!game) return;
  if (e.key === "ArrowRight" || e.key === " ") { show(k + 1); e.preventDefault(); }
  else if (e.key === "ArrowLeft") { show(k - 1); e.preventDefault(); }
  else if (e.key === "Home") show(0);
  else if (e.key === "End") show(1e9);
});
load();
