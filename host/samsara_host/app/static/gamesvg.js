// The drawings of Samas and Schaska (docs/app.md "Play" and "Live board"): the board
// drawn from a state as the Play page's state and the live page's `play` give it
// ({position, and for Schaska layout, last, totals}).  Shared by play.html and
// live.html; needs common.js's esc().
"use strict";
const COL = {A: "#3a78e0", B: "#d9443a"};
const WOOD = "#c9a06a", HOLLOW = "#8a6236";

// hand (the live page's hands on the app's own virtual board, or undefined): {sensed:
// {hollows, trays}, look: {A, B}}: what the sensors read is drawn over the game (a
// Sama-stone the game wants where none is sensed dashed, one sensed where the game
// wants none grey), each place clickable (data-place), and both trays below, each
// behind its screen unless its player looks (look[side]) or a round is revealed.
function samasSVG(s, hand) {
  const pos = s.position, w = 480;
  let out = `<svg viewBox="0 0 ${w} ${hand ? 300 : 210}" role="img" aria-label="the Samas board">` +
    `<rect x="4" y="36" width="${w - 8}" height="72" rx="30" fill="${WOOD}" stroke="${HOLLOW}" stroke-width="2"/>`;
  const x = h => 40 + (h - 1) * 50;
  for (let h = 1; h <= 9; h++) {
    out += `<text x="${x(h)}" y="26" text-anchor="middle" font-size="15" fill="#555">${h}</text>` +
      `<circle class="hollow" data-hole="${h}"${hand ? ` data-place="H${h}"` : ""} cx="${x(h)}" cy="72" r="21" fill="${HOLLOW}"/>`;
  }
  const same = pos.A.hole === pos.B.hole;
  const on = hand && hand.sensed ? hand.sensed.hollows : null;
  for (const p of ["A", "B"]) {
    const dx = same ? (p === "A" ? -8 : 8) : 0, h = pos[p].hole;
    const there = !on || on.includes(h);
    out += `<circle class="sama${there ? "" : " missing"}" data-player="${p}" data-hole="${h}"` +
      `${hand ? ` data-place="H${h}"` : ""} cx="${x(h) + dx}" cy="72" r="14" ` +
      (there ? `fill="${COL[p]}" stroke="#fff" stroke-width="3"/>` :
       `fill="none" stroke="${COL[p]}" stroke-width="3" stroke-dasharray="4 3" pointer-events="none"/>`);
  }
  if (on) {
    for (const h of on) {
      if (h === pos.A.hole || h === pos.B.hole) continue;
      out += `<circle class="loose" data-place="H${h}" cx="${x(h)}" cy="72" r="14" fill="#999" ` +
        `stroke="#fff" stroke-width="3"/>`;
    }
  }
  out += `<text x="8" y="126" font-size="13" fill="${COL.A}">A races to 9 \u2192</text>` +
    `<text x="${w - 8}" y="126" font-size="13" fill="${COL.B}" text-anchor="end">\u2190 B races to 1</text>`;
  ["A", "B"].forEach((p, i) => {
    const y = 152 + i * 36;
    out += `<text x="8" y="${y + 5}" font-size="15" font-weight="bold" fill="${COL[p]}">${p}</text>`;
    for (let k = 0; k < 13; k++) {
      const held = k < pos[p].stones;
      out += `<circle class="${held ? "stone" : "gone"}" data-player="${p}" cx="${36 + k * 24}" cy="${y}" r="9" ` +
        `fill="${held ? COL[p] : "none"}" stroke="${held ? "#333" : "#bbb"}" stroke-width="1.5"/>`;
    }
    for (let k = 0; k < 2; k++) {
      const held = k < pos[p].jokers;
      out += `<g class="${held ? "joker" : "gone"}" data-player="${p}"><circle cx="${372 + k * 30}" cy="${y}" r="12" ` +
        `fill="${held ? "#e6b422" : "none"}" stroke="${held ? "#333" : "#bbb"}" stroke-width="1.5"/>` +
        `<text x="${372 + k * 30}" y="${y + 5}" text-anchor="middle" font-size="13" font-weight="bold" ` +
        `fill="${held ? "#222" : "#bbb"}">J</text></g>`;
    }
  });
  if (hand) out += samasTrays(hand, w);
  return out + "</svg>";
}

// Both trays of the Samas board, for the page's hands: 3 stone holes and a joker hole
// each (data-place A1..A3, AJ, B1..B3, BJ), behind a screen (class "screen",
// data-side) unless hand.look[side] or hand.open (a revealed round).
function samasTrays(hand, w) {
  const trays = (hand.sensed && hand.sensed.trays) || {A: [], B: []};
  let out = "";
  ["A", "B"].forEach((p, i) => {
    const x0 = 12 + i * (w / 2), y = 262;
    out += `<text x="${x0}" y="226" font-size="13" font-weight="bold" fill="${COL[p]}">` +
      `${p}'s tray</text>`;
    out += `<rect x="${x0}" y="234" width="${w / 2 - 24}" height="56" rx="8" fill="${WOOD}" ` +
      `stroke="${HOLLOW}" stroke-width="1.5"/>`;
    ["1", "2", "3", "J"].forEach((k, j) => {
      const cx = x0 + 30 + j * 52 + (k === "J" ? 8 : 0), full = trays[p].includes(k);
      out += `<circle class="trayhole${full ? " full" : ""}" data-place="${p}${k}" cx="${cx}" ` +
        `cy="${y}" r="20" fill="${HOLLOW}" stroke="#5c3b1e" stroke-width="1"/>`;
      if (full) {
        out += k === "J" ?
          `<g class="traystone" data-place="${p}${k}"><circle cx="${cx}" cy="${y}" r="13" ` +
          `fill="#e6b422" stroke="#333" stroke-width="1.5"/><text x="${cx}" y="${y + 5}" ` +
          `text-anchor="middle" font-size="13" font-weight="bold" fill="#222">J</text></g>` :
          `<circle class="traystone" data-place="${p}${k}" cx="${cx}" cy="${y}" r="11" ` +
          `fill="${COL[p]}" stroke="#333" stroke-width="1.5"/>`;
      }
    });
    if (!hand.open && !(hand.look && hand.look[p])) {
      out += `<g class="screen" data-side="${p}"><rect x="${x0 - 4}" y="230" width="${w / 2 - 16}" ` +
        `height="64" rx="8" fill="#6b4a2b"/><text x="${x0 + (w / 2 - 24) / 2}" y="267" ` +
        `text-anchor="middle" font-size="14" fill="#fff">${p}'s screen: tap to look</text></g>`;
    }
  });
  return out;
}

const VALUE_FILL = v => v === 8 ? "#e6b422" : v > 0 ? "#2e8b46" : "#c0392b";
const ROW = 8;

// hand (the live page's hands on the app's own virtual board, or undefined): {sensed:
// {fields}}: a figure the game has on a field the sensors read empty is drawn dashed
// (lifted), one sensed where the game has none grey; every field is clickable.
function schaskaSVG(s, hand) {
  const n = s.layout.length, rows = Math.ceil(n / ROW), pos = s.position;
  const h = 60 + rows * 78 + 60, w = 96 + ROW * 54;
  const at = f => [48 + ((f - 1) % ROW) * 54 + 27, 50 + Math.floor((f - 1) / ROW) * 78 + 30];
  const owner = {};
  for (const p of ["A", "B"]) pos[p].fields.forEach(f => owner[f] = p);
  const last = s.last || {};
  let out = `<svg viewBox="0 0 ${w} ${h}" role="img" aria-label="the Schaska track">`;
  const ends = (y, words) => words.map(([t, c], i) =>
    `<text x="${w / 2 + (i ? 8 : -8)}" y="${y}" font-size="15" font-weight="bold" fill="${c}" ` +
    `text-anchor="${i ? "start" : "end"}">${esc(t)}</text>`).join("");
  out += ends(24, [[`A start: ${pos.A.start}`, COL.A], [`B home: ${pos.B.home}`, COL.B]]);
  out += `<text x="${w / 2}" y="42" font-size="12" fill="#555" text-anchor="middle">before field 1</text>`;
  for (let f = 1; f <= n; f++) {
    const [cx, cy] = at(f), v = s.layout[f - 1];
    const mark = f === last.from || f === last.to;
    out += `<g class="field" data-field="${f}" data-value="${v}">` +
      `<rect x="${cx - 25}" y="${cy - 25}" width="50" height="50" rx="7" fill="${VALUE_FILL(v)}" ` +
      `stroke="${mark ? "#ffd400" : "#5c3b1e"}" stroke-width="${mark ? 5 : 1.5}"/>` +
      `<text x="${cx}" y="${cy - 8}" text-anchor="middle" font-size="15" font-weight="bold" fill="#fff">` +
      `${v === 8 ? "8" : (v > 0 ? "+" : "") + v}</text>` +
      `<text x="${cx}" y="${cy + 40}" text-anchor="middle" font-size="11" fill="#555">${f}</text></g>`;
    const on = hand && hand.sensed ? hand.sensed.fields.includes(f) : !!owner[f];
    if (owner[f]) {
      out += `<circle class="figure${on ? "" : " lifted"}" data-player="${owner[f]}" data-field="${f}" ` +
        `cx="${cx}" cy="${cy + 9}" r="11" ` + (on ? `fill="${COL[owner[f]]}" stroke="#fff" stroke-width="2.5"/>` :
        `fill="none" stroke="${COL[owner[f]]}" stroke-width="2.5" stroke-dasharray="4 3" pointer-events="none"/>`);
    } else if (on) {
      out += `<circle class="loose" data-field="${f}" cx="${cx}" cy="${cy + 9}" r="11" fill="#999" ` +
        `stroke="#fff" stroke-width="2.5"/>`;
    }
  }
  const yb = h - 30;
  out += `<text x="${w / 2}" y="${yb - 16}" font-size="12" fill="#555" text-anchor="middle">after field ${n}</text>`;
  out += ends(yb, [[`A home: ${pos.A.home}`, COL.A], [`B start: ${pos.B.start}`, COL.B]]);
  out += `<text x="${w / 2}" y="${h - 8}" font-size="12" fill="#555" text-anchor="middle">` +
    `A moves toward field ${n}, B toward field 1; progress A ${s.totals[0]}, B ${s.totals[1]}</text>`;
  return out + "</svg>";
}
