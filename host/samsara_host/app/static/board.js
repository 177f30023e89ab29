// The board page: what the board says about itself, the LED self-test.
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
    rows.push(["Playing now", d.status.state], ["Game number", d.status.game == null ? "-" : d.status.game],
              ["Up for", Math.round((d.status.uptime_ms || 0) / 1000) + " s"]);
  }
  if (d.logs) rows.push(["Games on the board", d.logs.games],
    ["Not yet copied to this computer", d.logs.unpulled], ["Free log space", d.logs.free + " bytes"]);
  document.getElementById("facts").innerHTML = facts(rows);
  document.getElementById("ledtest").disabled = !d.connected;
  const s = d.defaults || {};
  document.getElementById("settings").innerHTML = facts(Object.keys(s).sort().map(k => {
    let v = s[k];
    if (k === "opponent_goal") v = v === "owner_scores" ? "scores for the goal's owner" : "is not allowed";
    if (k === "dice") v = v === "electronic" ? "electronic (the roll button)" : "real dice, entered with the buttons";
    return [WORDS[k] || k.replace(/_/g, " "), v];
  }));
}
document.getElementById("ledtest").onclick = async () => {
  const m = document.getElementById("ledmsg");
  m.textContent = "Watch the board: every light goes round once ...";
  const r = await api("/api/board/led_test", {method: "POST"});
  m.textContent = r.error || "Done. Did every hole light up? If one stayed dark, see the build guide.";
};
load();
