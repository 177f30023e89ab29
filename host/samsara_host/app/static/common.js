// Shared helpers of the app's pages (docs/app.md): the menu, JSON calls, dice faces.
"use strict";
const PAGES = [["/", "Live board"], ["/library", "Games"], ["/play", "Play"],
               ["/board", "Board"], ["/online", "Online"]];

function nav(here) {
  const n = document.createElement("nav");
  n.innerHTML = '<span class="brand">Samsara</span>' + PAGES.map(([href, text]) =>
    `<a href="${href}"${href === here ? ' class="here"' : ""}>${text}</a>`).join("");
  document.body.prepend(n);
}

async function api(path, opts) {
  const o = Object.assign({headers: {"Content-Type": "application/json"}}, opts || {});
  if (o.body && typeof o.body !== "string") o.body = JSON.stringify(o.body);
  const r = await fetch(path, o);
  let data = {};
  try { data = await r.json(); } catch (e) { data = {error: "the app answered " + r.status}; }
  if (!r.ok && !data.error) data.error = "the app answered " + r.status;
  return data;
}

function esc(t) {
  return String(t == null ? "" : t).replace(/[&<>"]/g,
    c => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c]));
}

// The target colour of each die value, as the board lights them (samsara.scene).
const DIE_COLOURS = ["#888", "#3355ff", "#00c8c8", "#1fb81f", "#c8c800", "#ff6a00", "#c800c8"];
const PIPS = [[], [[50, 50]], [[28, 28], [72, 72]], [[28, 28], [50, 50], [72, 72]],
  [[28, 28], [72, 28], [28, 72], [72, 72]], [[28, 28], [72, 28], [50, 50], [28, 72], [72, 72]],
  [[28, 28], [72, 28], [28, 50], [72, 50], [28, 72], [72, 72]]];

function dieSVG(v, played) {
  const col = DIE_COLOURS[v] || "#888";
  const pips = (PIPS[v] || []).map(([x, y]) =>
    `<circle cx="${x}" cy="${y}" r="9" fill="${v === 2 || v === 4 ? "#222" : "#fff"}"/>`).join("");
  return `<svg viewBox="0 0 100 100" class="die${played ? " played" : ""}" data-value="${v}">` +
    `<rect x="4" y="4" width="92" height="92" rx="16" fill="${col}" stroke="#222" stroke-width="3"/>` +
    pips + `</svg>`;
}

// Dice in running text: "A rolls 4 5" -> "A rolls" and two small dice (the text is
// escaped first).
function diceText(t) {
  return esc(t).replace(/\b(rolls|roll) ([1-6])[ ]?([1-6])\b/g, (m, w, a, b) =>
    `${w} <span class="minidice" aria-label="${a} and ${b}">${dieSVG(+a, false)}${dieSVG(+b, false)}</span>`);
}

// Put the board's SVG into `box`; hotspots: {name: [x, y, r]} to make holes clickable.
function showBoard(box, svgText, hotspots, onClick, marks) {
  box.innerHTML = svgText;
  if (!hotspots) return;
  const svg = box.querySelector("svg");
  const ns = "http://www.w3.org/2000/svg";
  for (const [name, [x, y, r]] of Object.entries(hotspots)) {
    const c = document.createElementNS(ns, "circle");
    c.setAttribute("cx", x); c.setAttribute("cy", y); c.setAttribute("r", r + 2);
    c.setAttribute("fill", "transparent");
    c.setAttribute("class", "hot");
    c.setAttribute("data-hole", name);
    if (marks && marks[name]) {
      c.setAttribute("stroke", marks[name]); c.setAttribute("stroke-width", "2");
      c.setAttribute("stroke-dasharray", "3 2");
    }
    c.addEventListener("click", () => onClick(name));
    svg.appendChild(c);
  }
}

let HOLES = null;
async function holes() {
  if (!HOLES) HOLES = await api("/api/holes");
  return HOLES;
}
