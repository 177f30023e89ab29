// The Online page (docs/app.md "Online"): host or join a game with the board the app
// is connected to (POST /api/online/start, GET /api/online/game every second), and the
// broadcast list of every public game on the broker, refreshed every two seconds.
"use strict";
nav("/online");

let filled = false;
let listBroker = "";      // the broker whose public games the list shows ("": the app's)

function say(text, bad) {
  const s = document.getElementById("said");
  s.textContent = text || "";
  s.classList.toggle("bad", !!bad);
}

async function start(role) {
  const body = {role, broker: document.getElementById("broker").value.trim(),
                name: document.getElementById("myname").value.trim()};
  // (the code field: the one to join, or the host's own to go on with a stopped game)
  const code = document.getElementById("joincode").value.trim();
  if (code) body.code = code;
  if (role === "host") {
    body.side = document.getElementById("side").value;
    body.public = document.getElementById("public").checked;
  }
  say(role === "host" ? "Starting the game ..." : "Joining ...");
  followBroker();
  const data = await api("/api/online/start", {method: "POST", body});
  if (data.error) { say(data.error, true); return; }
  say("");
  showGame(data);
}

function showGame(data) {
  if (!filled && data.broker !== undefined) {
    filled = true;
    if (data.broker && !document.getElementById("broker").value)
      document.getElementById("broker").value = data.broker;
  }
  const g = data.game;
  const mine = document.getElementById("mine");
  const running = g && (g.state === "starting" || g.state === "playing");
  document.getElementById("host").disabled = !!running;
  document.getElementById("join").disabled = !!running;
  if (!g) { mine.classList.add("hidden"); return; }
  mine.classList.remove("hidden");
  mine.dataset.state = g.state;
  document.getElementById("mytitle").textContent =
    `Game ${g.game} on ${g.broker}` + (g.side ? `: you play ${g.side}` : "");
  const codebox = document.getElementById("codebox");
  codebox.classList.toggle("hidden", g.role !== "host");
  document.getElementById("code").textContent = g.role === "host" ? g.code : "";
  const p = g.progress || {};
  let words = p.waiting || "";
  if (g.state === "failed") words = g.error;
  else if (g.state === "stopped") {
    // (the bridge's last line says what was kept, and the broker if it was not reached)
    const last = g.lines.length ? g.lines[g.lines.length - 1] : "";
    words = last.startsWith("stopped") ? "S" + last.slice(1) + "." :
      "Stopped: host or join again with the same code to go on.";
  }
  else if (g.state === "over") words = p.waiting || "game over";
  const w = document.getElementById("waiting");
  w.textContent = words;
  w.classList.toggle("bad", g.state === "failed");
  const names = p.names || {};
  document.getElementById("players").textContent = p.game ?
    `A ${names.A || "?"} - B ${names.B || "?"}, score ${p.score || "0-0"}, ` +
    `${p.turns || 0} turn${p.turns === 1 ? "" : "s"} played` : "";
  const box = document.getElementById("myboard");
  if (g.svg) box.innerHTML = g.svg; else box.innerHTML = "";
  document.getElementById("lines").innerHTML =
    g.lines.map(l => `<div>${esc(l)}</div>`).join("");
  document.getElementById("stop").disabled = !running;
}

async function refreshGame() {
  const data = await api("/api/online/game");
  if (!data.error) showGame(data);
}

// The list follows the broker in the field (once typed: on change) and the one a game
// is hosted or joined on; before that, the app's --broker.
function followBroker() {
  listBroker = document.getElementById("broker").value.trim();
  refresh();
}

async function refresh() {
  const data = await api("/api/online" +
    (listBroker ? "?broker=" + encodeURIComponent(listBroker) : ""));
  const box = document.getElementById("games");
  const count = document.getElementById("count");
  count.classList.toggle("bad", !!(data.error || data.trouble));
  if (data.error) { count.textContent = data.error; box.innerHTML = ""; return; }
  if (!data.broker) {
    count.textContent = "The broadcast list: type a broker above (mqtt://HOST:PORT) to " +
      "see its public games";
    box.innerHTML = "";
    return;
  }
  const live = data.games.filter(g => !g.over).length;
  count.textContent = `Live games on ${data.broker}: ${live}` +
    (data.games.length > live ? ` (and ${data.games.length - live} finished)` : "") +
    (data.trouble ? ` (${data.trouble})` : "");
  box.innerHTML = data.games.map(g =>
    `<div class="game" data-game="${esc(g.game)}">${g.svg}` +
    `<p>${esc(g.names.A || "A")} - ${esc(g.names.B || "B")}, ` +
    (g.waiting ? "waiting for a player to join" : `${g.turns} turns${g.over ? ", over" : ""}`) +
    `</p></div>`).join("") ||
    "<i>no public game on the broker now</i>";
}

document.getElementById("broker").addEventListener("change", followBroker);
document.getElementById("host").addEventListener("click", () => start("host"));
document.getElementById("join").addEventListener("click", () => start("join"));
document.getElementById("stop").addEventListener("click", async () => {
  showGame(await api("/api/online/stop", {method: "POST"}));
});
refreshGame();
refresh();
setInterval(refreshGame, 1000);
setInterval(refresh, 2000);
