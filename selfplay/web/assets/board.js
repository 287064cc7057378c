// board.js draws a shogi board as SVG for the game and position pages.
// The server sends the board's shape (files, ranks, zone depth, labels,
// the piece table) and each position as a list of squares in display
// order: row by row from the top as Sente sees the board, "K" for a
// Sente piece, "k" for Gote's, "" for an empty square.
"use strict";

const Board = (() => {
  const NS = "http://www.w3.org/2000/svg";
  const CELL = 40, PAD = 22;

  function el(name, attrs, parent, text) {
    const e = document.createElementNS(NS, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }

  // where display index i is drawn: column and row, flipped or not
  function cellOf(b, i, flip) {
    let col = i % b.files, row = Math.floor(i / b.files);
    if (flip) { col = b.files - 1 - col; row = b.ranks - 1 - row; }
    return [PAD + col * CELL, PAD + row * CELL];
  }

  function centre(b, i, flip) {
    const [x, y] = cellOf(b, i, flip);
    return [x + CELL / 2, y + CELL / 2];
  }

  // piece draws a piece: a pentagon pointing at the opponent and its
  // kanji (or Hodges letters), red when promoted.
  function piece(g, b, code, x, y, opt) {
    const gote = code !== code.toUpperCase();
    const info = b.pieces[code.toUpperCase()] || { kanji: "?", latin: code, english: code };
    const p = el("g", { class: "pc" + (gote ? " gote" : " sente") + (info.promoted ? " prom" : ""),
      transform: `translate(${x + CELL / 2} ${y + CELL / 2})` + ((gote !== !!opt.flip) ? " rotate(180)" : "") }, g);
    el("title", {}, p, `${gote ? "☖" : "☗"} ${info.english} ${info.name || ""}`);
    el("path", { d: "M0 -17 L12 -11 L15 17 L-15 17 L-12 -11 Z" }, p);
    const text = opt.latin ? info.latin : info.kanji;
    el("text", { y: 6, "font-size": opt.latin ? (text.length > 2 ? 11 : 14) : 19 }, p, text);
  }

  function arrows(g, b, list, flip) {
    const defs = el("defs", {}, g);
    const m = el("marker", { id: "head", viewBox: "0 0 10 10", refX: 5, refY: 5, markerWidth: 2.6, markerHeight: 2.6, orient: "auto-start-reverse" }, defs);
    el("path", { d: "M0 0 L10 5 L0 10 Z", class: "arrowhead" }, m);
    const top = list.length ? list[0].p : 1;
    list.forEach((a, k) => {
      if (a.pass) return;
      const pts = [a.from, a.mid, a.to].filter(i => i >= 0).map(i => centre(b, i, flip));
      const w = 3 + 7 * Math.sqrt(a.p / top);
      el("polyline", { class: "arrow" + (k === 0 ? " best" : ""), points: pts.map(p => p.join(",")).join(" "),
        "stroke-width": w, opacity: 0.4 + 0.45 * a.p / top, "marker-end": "url(#head)" }, g);
    });
  }

  // draw renders squares (a position) on svg. opt: latin (Hodges letters
  // for kanji), flip (Gote at the bottom), move (the last move: from, mid,
  // to), arrows (moves with probabilities p).
  function draw(svg, b, squares, opt) {
    opt = opt || {};
    const W = b.files * CELL + 2 * PAD, H = b.ranks * CELL + 2 * PAD;
    svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
    svg.replaceChildren();
    svg.dataset.position = squares.join(",");
    el("rect", { class: "wood", x: 0, y: 0, width: W, height: H }, svg);
    const mv = opt.move || {};
    for (let i = 0; i < b.files * b.ranks; i++) {
      const [x, y] = cellOf(b, i, opt.flip);
      const row = Math.floor(i / b.files);
      let cls = "sq";
      if (row < b.zone || row >= b.ranks - b.zone) cls += " zone";
      if (i === mv.from) cls += " last-from";
      if (i === mv.to) cls += " last-to";
      if (i === mv.mid) cls += " last-mid";
      el("rect", { class: cls, x, y, width: CELL, height: CELL, "data-i": i }, svg);
    }
    // the zone lines, with the traditional dots where they cross
    const lines = [b.zone, b.ranks - b.zone];
    for (const r of lines) {
      el("line", { class: "zoneline", x1: PAD, x2: PAD + b.files * CELL, y1: PAD + r * CELL, y2: PAD + r * CELL }, svg);
    }
    const cols = [b.zone, b.files - b.zone];
    for (const r of lines) for (const c of cols) el("circle", { class: "dot", cx: PAD + c * CELL, cy: PAD + r * CELL, r: 3 }, svg);
    const files = opt.flip ? [...b.file_labels].reverse() : b.file_labels;
    const ranks = opt.flip ? [...b.rank_labels].reverse() : b.rank_labels;
    files.forEach((l, c) => el("text", { class: "label", x: PAD + c * CELL + CELL / 2, y: PAD - 7 }, svg, l));
    ranks.forEach((l, r) => el("text", { class: "label", x: W - PAD / 2, y: PAD + r * CELL + CELL / 2 + 4 }, svg, l));
    if (mv.mid >= 0 && mv.from >= 0) {
      const pts = [mv.from, mv.mid, mv.to].map(i => centre(b, i, opt.flip));
      el("polyline", { class: "lionpath", points: pts.map(p => p.join(",")).join(" ") }, svg);
    }
    const g = el("g", { class: "pieces" }, svg);
    squares.forEach((code, i) => {
      if (!code) return;
      const [x, y] = cellOf(b, i, opt.flip);
      piece(g, b, code, x, y, opt);
    });
    if (opt.arrows) arrows(el("g", { class: "arrows" }, svg), b, opt.arrows, opt.flip);
  }

  // hasKanji reports whether this browser has a font with the pieces'
  // kanji: drawn on a canvas, two different kanji (or a kanji and a
  // private-use character no font has) come out pixel for pixel the same
  // when both are the missing-glyph box. Computed once.
  let kanjiFont;
  function hasKanji() {
    if (kanjiFont !== undefined) return kanjiFont;
    const c = document.createElement("canvas");
    c.width = c.height = 32;
    const ctx = c.getContext("2d", { willReadFrequently: true });
    if (!ctx) return (kanjiFont = true); // cannot tell: trust the fonts
    const draw = (ch) => {
      ctx.clearRect(0, 0, 32, 32);
      ctx.font = '24px "Noto Sans CJK JP", "Noto Serif CJK JP", serif';
      ctx.fillText(ch, 2, 26);
      return ctx.getImageData(0, 0, 32, 32).data.join(",");
    };
    const king = draw("王"), jewel = draw("玉"), none = draw("\uE000");
    kanjiFont = king !== jewel && king !== none;
    return kanjiFont;
  }

  // setting keeps a checkbox's state in localStorage and calls change on
  // every change. The Latin letters ("latin") are on by default where no
  // font has the kanji, so the board reads on a machine without CJK fonts.
  function setting(id, change) {
    const box = document.getElementById(id);
    if (!box) return () => false;
    const stored = localStorage.getItem("chuzero." + id);
    box.checked = stored === null ? id === "latin" && !hasKanji() : stored === "1";
    if (id === "latin" && !hasKanji()) box.title = "this browser has no font with the pieces' kanji";
    box.addEventListener("change", () => {
      localStorage.setItem("chuzero." + id, box.checked ? "1" : "0");
      change();
    });
    return () => box.checked;
  }

  return { draw, el, setting, hasKanji };
})();
