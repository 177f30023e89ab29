// The board page: what the board says about itself, the LED and sensor self-tests,
// the per-hole sensor map (the board's `health`, drawn by samsara_host.sensors_cmd),
// deploying the firmware with a progress bar (/api/board/deploy, polled).
"use strict";
nav("/board");
const WORDS = {
  opponent_goal: "A marble in the opponent's goal",
  dice: "Dice", scan_ms: "Sensor scan every (ms)", settle_place_ms: "A placed marble counts after (ms)",
  settle_lift_ms: "A lifted marble counts after (ms)", budget_ma: "LED power budget (mA)",
};
function facts(list) {
  return list.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`).join("");
}
async function load() {
  const d = await api("/api/board");
  const b = document.getElementById("banner");
  b.textContent = d.banner || d.problem || "";
  b.classList.toggle("hidden", !(d.banner || d.problem));
  const h = d.hello || {};
  const rows = [["Connected", d.connected ? "yes" : "no"], ["Board", h.board || "-"],
    ["Firmware version", h.fw || "-"], ["Bundle hash", h.hash || "-"],
    ["Protocol", h.proto || "-"]];
  if (d.status) {
    rows.push(["Playing now", d.playing || "-"], ["Game number", d.status.game == null ? "-" : d.status.game],
              ["Up for", Math.round((d.status.uptime_ms || 0) / 1000) + " s"]);
  } else if (d.playing) {
    rows.push(["Playing now", d.playing]);      // a Samas or Schaska board (no status)
  }
  if (d.logs) rows.push(["Games on the board", d.logs.games],
    ["Not yet copied to this computer", d.logs.unpulled], ["Room on the board", d.logs.room == null ? "-" :
      `room for ${d.logs.room} more game${d.logs.room === 1 ? "" : "s"}`]);
  document.getElementById("facts").innerHTML = facts(rows);
  if (!deploying) document.getElementById("deploy").disabled = !d.connected;
  const l = d.leds || {};
  document.getElementById("leds").innerHTML = facts([
    ["LED power budget", l.budget_ma == null ? "-" : l.budget_ma + " mA"],
    ["Brightness", l.brightness || "-"]]);
  document.getElementById("ledwhere").textContent = l.where || "";
  document.getElementById("ledtest").disabled = !d.connected;
  calibrateButtons(d.connected);
  document.getElementById("sensors").disabled = !d.connected;
  document.getElementById("selftest").disabled = !d.connected;
  document.getElementById("rule").textContent = "Rule of the game on the board: " +
    (d.options || "not known");
  if (d.connected) sensors();
  const s = d.defaults || {};
  document.getElementById("settings").innerHTML = facts(Object.keys(s).filter(k => k !== "budget_ma").sort().map(k => {
    let v = s[k];
    if (k === "opponent_goal") v = v === "owner_scores" ? "scores for the goal's owner" : "is not allowed";
    if (k === "dice") v = v === "electronic" ? "electronic (the roll button)" : "real dice, entered with the buttons";
    return [WORDS[k] || k.replace(/_/g, " "), v];
  }));
}
const CAL_STATE = {empty: "Now the board is empty: press 2.",
  occupied: "Put a marble in every hole (the pieces too), then press 3.",
  ready: "Every sensor is measured: press 4 to save.", done: "Saved: the new calibration is in force.",
  failed: "The calibration failed: press Cancel and start again.", idle: "No calibration running."};
function calibrateButtons(on) {
  for (const b of document.querySelectorAll("[data-step]")) b.disabled = !on;
}
for (const b of document.querySelectorAll("[data-step]")) {
  b.onclick = async () => {
    const m = document.getElementById("calmsg");
    m.textContent = "Asking the board ...";
    const r = await api("/api/board/calibrate", {method: "POST", body: JSON.stringify({step: b.dataset.step})});
    if (r.error) { m.textContent = r.error; return; }
    if (r.supported === false) { m.textContent = "This board has reed switches: there is nothing to calibrate."; return; }
    let t = r.todo || CAL_STATE[r.state] || ("The board says: " + (r.state || "?"));
    if (r.missing) t += ` (${r.missing} sensors still without a marble reading)`;
    m.textContent = t;
  };
}
document.getElementById("ledtest").onclick = async () => {
  const m = document.getElementById("ledmsg");
  m.textContent = "Watch the board: every light goes round once ...";
  const r = await api("/api/board/led_test", {method: "POST"});
  m.textContent = r.error || "Done. Did every hole light up? If one stayed dark, see the build guide.";
};
async function sensors() {
  const m = document.getElementById("sensormsg");
  m.textContent = "Asking the board ...";
  const r = await api("/api/board/sensors");
  const map = document.getElementById("sensormap"), list = document.getElementById("findings");
  if (r.error || !r.supported) {
    m.textContent = r.error || "This firmware does not report its sensors' health (update it with samsara deploy).";
    map.innerHTML = ""; list.innerHTML = "";
    return;
  }
  const bad = [...new Set(r.findings.map(f => f[0]))];
  m.textContent = bad.length ? `Suspicious: ${bad.join(", ")} (red on the map)` :
    "Every sensor looks healthy.";
  m.classList.toggle("bad", bad.length > 0);
  map.innerHTML = r.svg;
  list.innerHTML = r.findings.map(([h, w]) => `<li data-hole="${esc(h)}">${esc(w)}</li>`).join("");
  window.samsaraSensors = r;
}
document.getElementById("sensors").onclick = sensors;
document.getElementById("selftest").onclick = async () => {
  const hole = document.getElementById("hole").value.trim().toUpperCase();
  const m = document.getElementById("selfmsg");
  m.textContent = `${hole} is lit alone on the board: put a marble into it and take it out again ...`;
  const r = await api("/api/board/self_test", {method: "POST", body: {hole}});
  m.textContent = r.error || (r.verdict === "ok" ? `${r.detail}: fine.` : `${r.detail}: check this hole.`);
};
let deploying = false;
function showDeploy(j) {
  window.samsaraDeploy = j;
  const m = document.getElementById("deploymsg"), row = document.getElementById("deployrow");
  if (j.state === "none") return;
  row.classList.remove("hidden");
  document.getElementById("deploybar").value = j.percent || 0;
  document.getElementById("deployfile").textContent = j.total ?
    `${j.path || ""} ${j.done} of ${j.total} bytes (${j.percent} %)` : "";
  m.textContent = j.error || j.message || "";
  m.classList.toggle("bad", !!j.error);
}
async function followDeploy() {
  deploying = true;
  document.getElementById("deploy").disabled = true;
  for (;;) {
    const j = await api("/api/board/deploy");
    if (j.error && !j.state) { document.getElementById("deploymsg").textContent = j.error; break; }
    showDeploy(j);
    const s = await api("/api/live"), b = document.getElementById("banner");
    b.textContent = s.banner || "";
    b.classList.toggle("hidden", !s.banner);
    if (!j.running) break;
    await new Promise(r => setTimeout(r, 300));
  }
  deploying = false;
  load();
}
document.getElementById("deploy").onclick = async () => {
  if (!confirm("Copy the firmware of this computer to the board? The board " +
               "restarts when the copy is done.")) return;
  const r = await api("/api/board/deploy", {method: "POST", body: {confirm: "yes"}});
  if (r.error) {
    const m = document.getElementById("deploymsg");
    m.textContent = r.error; m.classList.add("bad");
    return;
  }
  followDeploy();
};
load();
api("/api/board/deploy").then(j => { showDeploy(j); if (j.running) followDeploy(); });
