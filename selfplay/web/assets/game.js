// game.js is the board viewer of /games/ID: it loads /api/games/ID (every
// position computed by the server's rules) and steps through it with the
// buttons, the move list, the value plot or the keyboard.
"use strict";

(async () => {
  const viewer = document.getElementById("viewer");
  const svg = document.getElementById("board");
  const errorLine = document.getElementById("game-error");
  const resp = await fetch("/api/games/" + encodeURIComponent(viewer.dataset.game));
  const game = await resp.json();
  if (!resp.ok) {
    errorLine.textContent = game.error || resp.statusText;
    return;
  }
  if (game.error) errorLine.textContent = "The rules refused a move; the game stops before it: " + game.error;
  const plies = game.plies, last = plies.length - 1;
  let cur = 0;
  const latin = Board.setting("latin", () => show(cur));
  const flip = Board.setting("flip", () => show(cur));
  const notation = document.getElementById("notation");
  notation.value = localStorage.getItem("chuzero.notation") || "usi";

  // the move list: one row per ply, Hodges and USI or machine notation
  const rows = [];
  const tbody = document.getElementById("moves");
  function fillMoves() {
    tbody.replaceChildren();
    rows.length = 0;
    rows.push(null);
    for (let i = 1; i <= last; i++) {
      const m = plies[i].move;
      const tr = document.createElement("tr");
      tr.dataset.ply = i;
      const side = plies[i - 1].side === "sente" ? "☗" : "☖";
      for (const t of [i + " " + side, m.hodges, m[notation.value]]) {
        const td = document.createElement("td");
        td.textContent = t;
        tr.appendChild(td);
      }
      if (i === game.opening_plies) tr.classList.add("opening-end");
      if (m.mid >= 0) tr.dataset.lion = "double";
      tr.addEventListener("click", () => show(i));
      tbody.appendChild(tr);
      rows.push(tr);
    }
  }
  notation.addEventListener("change", () => {
    localStorage.setItem("chuzero.notation", notation.value);
    fillMoves();
    show(cur);
  });

  const values = valuePlot(document.getElementById("values"), plies, i => show(i));

  function show(i) {
    cur = Math.max(0, Math.min(last, i));
    const p = plies[cur];
    Board.draw(svg, game.board, p.squares, { latin: latin(), flip: flip(), move: p.move });
    svg.dataset.ply = cur;
    const m = p.move;
    document.getElementById("ply").textContent = cur === 0 ? `start / ${last}` :
      `${cur} / ${last}  ${m.hodges}`;
    document.getElementById("sfen").textContent = p.sfen;
    document.getElementById("analyse").href = "/position?sfen=" + encodeURIComponent(p.sfen);
    rows.forEach((r, k) => r && r.classList.toggle("here", k === cur));
    if (rows[cur]) rows[cur].scrollIntoView({ block: "nearest" });
    values.mark(cur);
  }

  document.querySelectorAll("[data-go]").forEach(b => b.addEventListener("click", () => {
    show({ first: 0, prev: cur - 1, next: cur + 1, last: last }[b.dataset.go]);
  }));
  document.addEventListener("keydown", e => {
    if (e.target.closest("input, textarea, select")) return;
    const to = { ArrowRight: cur + 1, ArrowLeft: cur - 1, Home: 0, End: last, PageDown: cur + 10, PageUp: cur - 10 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    show(to);
  });
  fillMoves();
  show(0);
})();

// valuePlot draws the search's root value (for Sente) at each ply and its
// visits, with a marker at the current ply; a click jumps to a ply.
function valuePlot(box, plies, jump) {
  const have = plies.some(p => p.value !== undefined);
  if (!have) return { mark() {} };
  const W = 560, H = 140, L = 34, R = 8, T = 10, B = 22;
  const n = plies.length - 1 || 1;
  const x = i => L + (W - L - R) * i / n;
  const y = v => T + (H - T - B) * (1 - v) / 2;
  const svg = Board.el("svg", { viewBox: `0 0 ${W} ${H}`, class: "valueplot", id: "valueplot" }, box);
  Board.el("rect", { x: L, y: T, width: W - L - R, height: H - T - B, class: "frame" }, svg);
  for (const v of [1, 0, -1]) {
    Board.el("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: v === 0 ? "axis" : "grid" }, svg);
    Board.el("text", { x: L - 4, y: y(v) + 4, class: "tick", "text-anchor": "end" }, svg, (v > 0 ? "+" : "") + v);
  }
  const maxVisits = Math.max(1, ...plies.map(p => p.visits || 0));
  plies.forEach((p, i) => {
    if (!p.visits) return;
    const h = (H - T - B) * 0.35 * p.visits / maxVisits;
    Board.el("rect", { x: x(i) - 0.8, y: H - B - h, width: 1.6, height: h, class: p.full ? "visits full" : "visits" }, svg);
  });
  const pts = [];
  plies.forEach((p, i) => { if (p.value !== undefined) pts.push(`${x(i)},${y(p.value)}`); });
  Board.el("polyline", { points: pts.join(" "), class: "value" }, svg);
  Board.el("text", { x: L, y: H - 6, class: "tick" }, svg, `root value for ☗ Sente (line) and visits (bars, max ${maxVisits}) per ply`);
  const marker = Board.el("line", { y1: T, y2: H - B, class: "marker" }, svg);
  svg.addEventListener("click", e => {
    const r = svg.getBoundingClientRect();
    const px = (e.clientX - r.left) * W / r.width;
    jump(Math.round((px - L) / (W - L - R) * n));
  });
  return { mark(i) { marker.setAttribute("x1", x(i)); marker.setAttribute("x2", x(i)); } };
}
