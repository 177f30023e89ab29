// The replay page: step through a game turn by turn, the score chart beside it.
"use strict";
nav("/library");
const gid = location.pathname.replace(/^\/replay\//, "");
let game = null, k = 0;

function chart(steps, at) {
  const W = 300, H = 120, P = 18, n = Math.max(1, steps.length - 1);
  const x = i => P + (W - 2 * P) * i / n, y = v => H - P - (H - 2 * P) * v / 6;
  const line = (j, col) => `<polyline fill="none" stroke="${col}" stroke-width="2.5" points="` +
    steps.map((s, i) => `${x(i).toFixed(1)},${y(s.score[j]).toFixed(1)}`).join(" ") + `"/>`;
  let grid = "";
  for (let v = 0; v <= 6; v += 2) grid += `<line x1="${P}" x2="${W - P}" y1="${y(v)}" y2="${y(v)}" stroke="#ddd"/>` +
    `<text x="2" y="${y(v) + 4}" font-size="10">${v}</text>`;
  return `<svg viewBox="0 0 ${W} ${H}">${grid}${line(0, "#1f5fbf")}${line(1, "#c0392b")}` +
    `<line x1="${x(at)}" x2="${x(at)}" y1="${P - 6}" y2="${H - P}" stroke="#e0a000" stroke-width="2"/>` +
    `<text x="${W - P}" y="12" font-size="11" text-anchor="end"><tspan fill="#1f5fbf">A</tspan> / ` +
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
  document.querySelectorAll("#record div").forEach(d =>
    d.style.fontWeight = (+d.dataset.n === k) ? "bold" : "");
  if (game.analysis && game.analysis[k]) {
    document.getElementById("analysis").textContent = JSON.stringify(game.analysis[k]);
  }
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
  if (game.analysis) document.getElementById("analysisCard").style.display = "";
  document.getElementById("record").innerHTML = game.steps.slice(1).map(s =>
    `<div data-n="${s.n}" class="turnline" style="cursor:pointer">${s.n}. ${s.player} ${esc(s.notation)} <span class="keys">(${s.score[0]}-${s.score[1]})</span></div>`).join("");
  document.querySelectorAll("#record div").forEach(d =>
    d.addEventListener("click", () => show(+d.dataset.n)));
  show(0);
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
