// The broadcast page (docs/app.md "Online"): every public game on the broker, its board
// drawn, refreshed every two seconds.
"use strict";
nav("/online");

async function refresh() {
  const data = await api("/api/online");
  const box = document.getElementById("games");
  const count = document.getElementById("count");
  if (data.error) { count.textContent = data.error; return; }
  if (!data.broker) {
    count.textContent = "No broker: start the app with --broker mqtt://HOST:PORT";
    box.innerHTML = "";
    return;
  }
  const live = data.games.filter(g => !g.over).length;
  count.textContent = `Live games on ${data.broker}: ${live}` +
    (data.games.length > live ? ` (and ${data.games.length - live} finished)` : "");
  box.innerHTML = data.games.map(g =>
    `<div class="game" data-game="${esc(g.game)}">${g.svg}` +
    `<p>${esc(g.names.A || "A")} - ${esc(g.names.B || "B")}, ${g.turns} turns` +
    `${g.over ? ", over" : ""}</p></div>`).join("") ||
    "<i>no public game on the broker now</i>";
}

refresh();
setInterval(refresh, 2000);
