// The live page: the board's snapshot from /api/live/events (server-sent events).
"use strict";
nav("/");
let last = null;

function show(s) {
  last = s;
  window.samsaraLive = s;            // for tests and curious people
  const banner = document.getElementById("banner");
  banner.textContent = s.banner || "";
  banner.classList.toggle("hidden", !s.banner);
  const busy = document.getElementById("busy");
  busy.textContent = s.busy || "";
  busy.classList.toggle("hidden", !s.busy);
  document.getElementById("board").innerHTML = s.svg;
  const g = document.getElementById("guide");
  g.textContent = s.connected ? s.guidance : (s.banner ? "Waiting for the board ..." : s.guidance);
  g.classList.toggle("bad", !!(s.wrong || s.missing.length || s.extra.length));
  document.getElementById("sA").textContent = s.score[0];
  document.getElementById("sB").textContent = s.score[1];
  document.getElementById("pA").classList.toggle("tomove", s.mover === "A" && !s.over);
  document.getElementById("pB").classList.toggle("tomove", s.mover === "B" && !s.over);
  document.getElementById("whose").textContent = s.over ? s.over :
    (s.connected ? `${s.mover} to play` : "");
  const rem = s.remaining.slice();
  document.getElementById("dice").innerHTML = s.dice.length ? s.dice.map(d => {
    const i = rem.indexOf(d);
    if (i >= 0) { rem.splice(i, 1); return dieSVG(d, false); }
    return dieSVG(d, true);
  }).join("") : '<span class="keys">no roll yet</span>';
  document.getElementById("options").textContent = s.options ? "Rule: " + s.options : "";
  const rec = document.getElementById("record");
  rec.innerHTML = s.record.length ? s.record.map(([n, t]) =>
    `<div class="turnline" data-n="${n}">${n}. ${n % 2 ? "A" : "B"} ${esc(t)}</div>`).join("") : "<i>no turns yet</i>";
  rec.scrollTop = rec.scrollHeight;
  document.getElementById("words").innerHTML = s.words.slice().reverse().map(w =>
    `<div>${esc(w)}</div>`).join("");
}

function connect() {
  const es = new EventSource("/api/live/events");
  es.onmessage = (e) => show(JSON.parse(e.data));
  es.onerror = () => {
    const b = document.getElementById("banner");
    b.textContent = "The app is not answering: is `samsara app` still running? Trying again ...";
    b.classList.remove("hidden");
  };
}
connect();
