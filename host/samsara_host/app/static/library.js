// The library page: the pulled games, pull, rename, delete (the host's copy only).
"use strict";
nav("/library");

// A player's name and side as text (escaped where it is put into the page, once).
function whoText(p, side) { return p ? `${p} (${side})` : `Player ${side}`; }
function who(p, side) { return esc(whoText(p, side)); }

// Games of the Play page are numbered on their own: "Play page game 2", never to be
// taken for the board's game 2.
function gameTitle(g) {
  return (g.board === "browser" ? "Play page game " : "Game ") + esc(g.game);
}

function row(g) {
  const id = esc(g.id);
  if (g.error) {
    return `<tr class="torn" data-id="${id}"><td>${gameTitle(g)}</td>
      <td colspan="3"><span class="tag torn">cannot be read</span> ${esc(g.error)}</td>
      <td><button class="danger" data-del="${id}">Delete</button></td></tr>`;
  }
  const other = g.kind && g.kind !== "samsara";   // a Samas or Schaska game
  const res = other ? g.result :
              g.winner === "A" ? `${whoText(g.players[0], "A")} won` :
              g.winner === "B" ? `${whoText(g.players[1], "B")} won` :
              g.winner === "draw" ? "a draw" : "not finished";
  const played = other ? `${g.turns} ${g.kind === "samas" ? "round" : "turn"}${g.turns === 1 ? "" : "s"}`
                       : `score ${esc(g.score)}, ${g.turns} turns`;
  const open = other ? `<span class="keys">Replay is for Samsara games</span>`
                     : `<a class="button" href="/replay/${id}">Replay</a>`;
  const torn = g.torn ? `<div><span class="tag torn">torn</span> the file is damaged after
      turn ${g.turns}: ${esc(g.torn)}. The turns before it are shown.</div>` : "";
  return `<tr class="${g.torn ? "torn" : ""}" data-id="${id}">
    <td><b>${gameTitle(g)}</b><div class="keys">${esc(g.date)}</div>
        <div class="keys">${g.board === "browser" ? "played on the Play page" : "board " + esc(g.board)}</div></td>
    <td><div class="names">${who(g.players[0], "A")} vs ${who(g.players[1], "B")}</div>
        <div class="rename hidden">
          <input type="text" value="${esc(g.players[0])}" placeholder="name of A" aria-label="name of A">
          <input type="text" value="${esc(g.players[1])}" placeholder="name of B" aria-label="name of B">
          <button data-save="${id}">Save</button></div>
        <button class="light" data-edit="${id}">Change names</button></td>
    <td><span class="tag ${g.winner && g.winner !== "draw" ? "win" : ""}">${esc(res)}</span>
        <div>${played}</div>${torn}
        <div class="keys wide">${esc(g.options)}</div></td>
    <td>${open}</td>
    <td><button class="danger" data-del="${id}">Delete</button></td></tr>`;
}

async function load() {
  const d = await api("/api/library");
  const list = document.getElementById("list");
  document.getElementById("pull").disabled = !d.board;
  document.getElementById("pull").title = d.board ? "" : "no board is connected";
  document.getElementById("folder").textContent = `Games are kept in the folder ${d.folder}.`;
  if (!d.games || !d.games.length) {
    list.innerHTML = "<p class='guide'>No games yet. Play one on the board and press " +
      "\u201cGet new games from the board\u201d, or play one on the Play page.</p>";
    return;
  }
  list.innerHTML = `<table class="games"><thead><tr><th>Game</th><th>Players</th>
    <th>Result</th><th></th><th></th></tr></thead><tbody>${d.games.map(row).join("")}</tbody></table>`;
}

document.addEventListener("click", async (e) => {
  const t = e.target;
  const prob = document.getElementById("problem");
  if (t.dataset.edit) {
    const tr = t.closest("tr");
    tr.querySelector(".rename").classList.remove("hidden");
    t.classList.add("hidden");
  } else if (t.dataset.save) {
    const ins = t.closest("tr").querySelectorAll("input");
    const r = await api("/api/game/" + t.dataset.save, {method: "POST",
      body: {players: [ins[0].value, ins[1].value]}});
    prob.textContent = r.error || "";
    if (!r.error) load();
  } else if (t.dataset.del) {
    if (!confirm(`Delete game ${t.dataset.del} from this computer? The board's own copy is not touched.`)) return;
    const r = await api("/api/game/" + t.dataset.del + "?confirm=yes", {method: "DELETE"});
    prob.textContent = r.error || "";
    load();
  }
});

document.getElementById("pull").addEventListener("click", async () => {
  const b = document.getElementById("pull");
  const msg = document.getElementById("pullmsg");
  b.disabled = true;
  msg.textContent = "Getting the games ...";
  const r = await api("/api/library/pull", {method: "POST"});
  if (r.error) msg.textContent = r.error;
  else {
    const n = r.pulled.length;
    msg.textContent = n ? `Got ${n} game${n === 1 ? "" : "s"}.` : "No new games on the board.";
    if (r.failed.length) msg.textContent += " Could not get: " +
      r.failed.map(f => `game ${f.game} (${f.error})`).join("; ");
  }
  b.disabled = false;
  load();
});
load();
