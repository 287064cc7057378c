// position.js is the position page: it sends the SFEN and the chosen
// checkpoint to /api/position and draws the board with the network's most
// probable moves as arrows, their probabilities and the value.
"use strict";

(() => {
  const form = document.getElementById("posform");
  const svg = document.getElementById("board");
  const out = document.getElementById("analysis");
  let last = null;
  const latin = Board.setting("latin", redraw);
  const flip = Board.setting("flip", redraw);

  function redraw() {
    if (!last) return;
    const n = last.network;
    Board.draw(svg, last.board, last.squares, { latin: latin(), flip: flip(), arrows: n ? n.moves.slice(0, 8) : null });
  }

  function pct(x) { return (100 * x).toFixed(1) + "%"; }

  function table(n) {
    const t = document.createElement("table");
    t.className = "priors";
    t.id = "priors";
    t.innerHTML = "<thead><tr><th>#</th><th>Hodges</th><th>USI</th><th>probability</th></tr></thead>";
    const tb = document.createElement("tbody");
    n.moves.forEach((m, k) => {
      const tr = document.createElement("tr");
      for (const c of [k + 1, m.hodges, m.usi, pct(m.p)]) {
        const td = document.createElement("td");
        td.textContent = c;
        tr.appendChild(td);
      }
      const bar = document.createElement("span");
      bar.className = "bar";
      bar.style.width = (100 * m.p / n.moves[0].p).toFixed(0) + "%";
      tr.lastChild.appendChild(bar);
      tb.appendChild(tr);
    });
    t.appendChild(tb);
    return t;
  }

  function show(v) {
    last = v;
    redraw();
    document.getElementById("sfen").textContent = v.sfen;
    out.replaceChildren();
    const p = (text, cls) => {
      const e = document.createElement("p");
      e.textContent = text;
      if (cls) e.className = cls;
      out.appendChild(e);
      return e;
    };
    p(`${v.side === "sente" ? "☗ Sente" : "☖ Gote"} to move; ${v.legal} legal moves.` + (v.result ? ` Over: ${v.result}.` : ""));
    const q = v.quiescence;
    if (q) {
      const score = Math.abs(q.score) >= 1e9 ? (q.score > 0 ? "a mate" : "mated") : `${q.score >= 0 ? "+" : ""}${q.score.toFixed(1)}`;
      const e = p(`Material ${q.static >= 0 ? "+" : ""}${q.static.toFixed(1)} as it stands, ${score} after the exchanges ` +
        `(capture search, ${q.nodes} nodes): quiescence value ${q.value >= 0 ? "+" : ""}${q.value.toFixed(3)}`, "quiescence");
      e.id = "quiescence";
    }
    const n = v.network;
    if (!n) {
      p(v.no_network || "no network", "note");
      return;
    }
    const val = p("", "value");
    val.id = "value";
    val.textContent = `${n.checkpoint} (step ${n.step}): value ${n.value >= 0 ? "+" : ""}${n.value.toFixed(3)} for the side to move ` +
      `(win ${pct(n.wdl[0])}, draw ${pct(n.wdl[1])}, loss ${pct(n.wdl[2])})` +
      (n.lambda > 0 ? `; the search blends ${Math.round(100 * n.lambda)}% of the quiescence value in: ${n.leaf >= 0 ? "+" : ""}${n.leaf.toFixed(3)}` : "");
    out.appendChild(table(n));
  }

  async function analyse() {
    const q = new URLSearchParams(new FormData(form));
    history.replaceState(null, "", "/position?" + q);
    out.replaceChildren();
    const r = await fetch("/api/position?" + q);
    const v = await r.json();
    if (!r.ok) {
      const e = document.createElement("p");
      e.className = "error";
      e.id = "position-error";
      e.textContent = v.error || r.statusText;
      out.appendChild(e);
      return;
    }
    show(v);
  }

  form.addEventListener("submit", e => { e.preventDefault(); analyse(); });
  document.getElementById("checkpoint").addEventListener("change", analyse);
  analyse();
})();
