// The play page: the simulated board (the firmware's board core on the server),
// moved by clicking: a marble, then one of its lit holes.  Samas and Schaska games
// are drawn and played by playgames.js (showOther).
"use strict";
nav("/play");
let gameId = null, st = null, pausedFor = null;

function guide(s) {
  if (s.over) return s.over + (s.saved ? " The game is saved in Games." : "");
  const who = s.mover_name;
  if (s.wrong) return `Not there: ${s.reason || "that hole is not allowed"}. Click a lit hole.`;
  if (s.lifted) return s.targets.length ? `Now click where it goes: one of the coloured rings (the ring's colour is the die's).`
                                          : "That marble cannot move now: click it again to put it back.";
  if (!s.dice.length || s.state === "turn_complete") return `${who}: roll the dice.`;
  if (s.movable.length) return `${who} rolled ${s.dice[0]} and ${s.dice[1]}: click a marble to move (the dashed ones can).`;
  return `${who}: wait for the board`;
}

async function show(s) {
  st = s;
  window.samsaraPlay = s;
  if (s.id) { gameId = s.id; if (location.hash !== "#" + s.id) history.replaceState(null, "", "#" + s.id); }
  const picker = document.getElementById("game");
  if (picker.value !== s.game) { picker.value = s.game; pickGame(); }
  document.getElementById("samsaralayout").classList.toggle("hidden", s.game !== "samsara");
  document.getElementById("otherlayout").classList.toggle("hidden", s.game === "samsara");
  if (s.game !== "samsara") { showOther(s); return; }
  const marks = {};
  s.movable.forEach(n => marks[n] = "#e0a000");
  showBoard(document.getElementById("board"), s.svg, await holes(), click, marks);
  document.getElementById("guide").textContent = guide(s);
  const comp = document.getElementById("computer");
  comp.textContent = s.computer_words || "";
  comp.classList.toggle("hidden", !s.computer_words);
  document.getElementById("problem").textContent = s.problem || "";
  document.getElementById("sA").textContent = s.score[0];
  document.getElementById("sB").textContent = s.score[1];
  const names = s.names || ["A", "B"];
  document.getElementById("nA").textContent = names[0] === "A" ? "Player A" : names[0];
  document.getElementById("nB").textContent = names[1] === "B" ? "Player B" : names[1];
  document.getElementById("pA").classList.toggle("tomove", s.mover === "A" && !s.over);
  document.getElementById("pB").classList.toggle("tomove", s.mover === "B" && !s.over);
  const rem = s.remaining.slice();
  document.getElementById("dice").innerHTML = s.dice.map(d => {
    const i = rem.indexOf(d);
    if (i >= 0) { rem.splice(i, 1); return dieSVG(d, false); }
    return dieSVG(d, true);
  }).join("");
  const canRoll = !s.over && !s.lifted && (!s.dice.length || s.state === "turn_complete");
  const roll = document.getElementById("roll");
  roll.disabled = !canRoll;
  if (canRoll && s.computer_turn && pausedFor !== s.computer_turn) {
    // a short pause: the computer's turn is seen (its arrows) before the next roll
    pausedFor = s.computer_turn;
    roll.disabled = true;
    setTimeout(() => { if (st === s) roll.disabled = false; }, 900);
  }
  document.getElementById("undo").disabled = !!s.over || !(s.current || s.lifted ||
    s.state === "turn_complete");
  document.getElementById("record").innerHTML = s.record.map(([n, t]) =>
    `<div class="turnline">${n}. ${esc(names[(n - 1) % 2])}: ${esc(t)}</div>`).join("") +
    (s.current ? `<div><i>now: ${esc(s.current)}</i></div>` : "");
}

async function act(path, body) {
  if (!gameId) return;
  show(await api(`/api/play/${gameId}/${path}`, {method: "POST", body: body || {}}));
}
function click(name) { act("click", {hole: name}); }

async function newGame(opponent) {
  const q = new URLSearchParams(location.search);
  const body = {opponent: opponent, game: document.getElementById("game").value};
  if (body.game === "schaska") body.layout = document.getElementById("layout").value;
  const nA = document.getElementById("nameA").value, nB = document.getElementById("nameB").value;
  if (nA.trim() || nB.trim()) body.names = [nA.trim() || "A", nB.trim() || (opponent === "engine" ? "Computer" : "B")];
  if (q.get("position")) body.position = q.get("position");
  if (q.get("seed")) body.seed = parseInt(q.get("seed"), 10);
  const s = await api("/api/play/new", {method: "POST", body: body});
  document.getElementById("newproblem").textContent = s.error || "";
  if (s.error) return;
  show(s);
}

document.getElementById("new2").onclick = () => newGame("human");
document.getElementById("newE").onclick = () => newGame("engine");
document.getElementById("game").onchange = () => pickGame();   // playgames.js
document.getElementById("roll").onclick = () => act("roll");
document.getElementById("undo").onclick = () => act("undo");
(async () => {
  const id = location.hash.slice(1);
  if (id) {
    const s = await api("/api/play/" + id);
    if (!s.error) { show(s); return; }
  }
  document.getElementById("guide").textContent = "Choose a new game above.";
})();
