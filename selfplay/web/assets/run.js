// run.js keeps the run page live: every few seconds it fetches /api/run
// and updates the status numbers, the tables and the plots in place.
"use strict";

(() => {
  const root = document.getElementById("run");
  const poll = 1000 * (parseFloat(root.dataset.poll) || 5);

  function table(t) {
    if (!t.rows || !t.rows.length) {
      const p = document.createElement("p");
      p.className = "note";
      p.textContent = "none yet";
      return p;
    }
    const tab = document.createElement("table");
    const row = (cells, tag) => {
      const tr = document.createElement("tr");
      for (const c of cells) {
        const td = document.createElement(tag);
        td.textContent = c;
        tr.appendChild(td);
      }
      return tr;
    };
    tab.createTHead().appendChild(row(t.head, "th"));
    const tb = tab.createTBody();
    for (const r of t.rows) tb.appendChild(row(r, "td"));
    return tab;
  }

  function update(v) {
    const fields = new Map();
    root.querySelectorAll("[data-key]").forEach(e => fields.set(e.dataset.key, e));
    for (const f of [...v.status, ...v.kinds, ...(v.process || [])]) {
      const e = fields.get(f.key);
      if (e && e.textContent !== f.value) {
        e.textContent = f.value;
        e.classList.remove("changed");
        void e.offsetWidth; // restart the highlight
        e.classList.add("changed");
      }
    }
    for (const [id, t] of [["eval-table", v.eval], ["gating-table", v.gating], ["strength-table", v.strength], ["checkpoints-table", v.checkpoints]]) {
      const box = document.getElementById(id);
      if (box) box.replaceChildren(table(t));
    }
    for (const p of v.plots) {
      const img = root.querySelector(`img[data-plot="${p.file}"]`);
      if (img && img.getAttribute("src") !== p.url) img.src = p.url;
    }
    document.getElementById("now").textContent = v.now.replace("T", " ").replace(/\.\d+/, "");
  }

  async function tick() {
    try {
      const r = await fetch("/api/run");
      if (r.ok) update(await r.json());
    } catch (e) {
      // the server went away (the run stopped): keep the page as it is
    }
    setTimeout(tick, poll);
  }
  setTimeout(tick, poll);
})();
