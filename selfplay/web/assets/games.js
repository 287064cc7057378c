// games.js submits the games filter as soon as a select changes, leaving
// the empty fields out of the address.
"use strict";

(() => {
  const form = document.querySelector("form.filters");
  const go = () => {
    const q = new URLSearchParams();
    for (const [k, v] of new FormData(form)) if (v) q.set(k, v);
    location.assign("/games" + (q.size ? "?" + q : ""));
  };
  form.addEventListener("submit", e => { e.preventDefault(); go(); });
  form.querySelectorAll("select").forEach(s => s.addEventListener("change", go));
})();
