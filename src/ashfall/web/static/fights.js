// The fights list (create from a shipped or uploaded encounter, resume, player view, export, archive) and new tables.
"use strict";
(() => {
  const { api, why, el, status } = Table;
  const newTable = document.getElementById("new-table");
  if (newTable) {
    newTable.addEventListener("submit", async (e) => {
      e.preventDefault();
      const res = await api("POST", "/api/tables", { name: document.getElementById("table-name").value });
      if (!res.ok) { status(why(res), true); return; }
      location.href = "/table?token=" + encodeURIComponent(res.data.gm_token);
    });
    return;
  }
  const main = document.getElementById("main");
  const table = main.dataset.table;
  const tok = encodeURIComponent(Table.token());
  async function list() {
    const archived = document.getElementById("show-archived").checked;
    const res = await api("GET", `/api/tables/${table}/fights?archived=${archived}`);
    if (!res.ok) { status(why(res), true); return; }
    const body = document.getElementById("fights");
    body.textContent = "";
    for (const f of res.data.fights) {
      body.append(el("tr", { "data-id": f.id },
        el("td", {}, f.name + (f.archived ? " (archived)" : "")), el("td", {}, f.source), el("td", {}, f.version),
        el("td", {}, el("a", { href: `/table/fights/${f.id}?token=${tok}`, class: "resume" }, "Resume"), " ",
          el("button", { type: "button", onclick: () => exportFight(f) }, "Export"), " ",
          el("button", { type: "button", onclick: () => archive(f) }, f.archived ? "Restore" : "Archive"))));
    }
  }
  async function exportFight(f) {
    const res = await api("GET", `/api/fights/${f.id}/export`);
    if (!res.ok) { status(why(res), true); return; }
    const blob = new Blob([JSON.stringify(res.data, null, 2)], { type: "application/json" });
    const a = el("a", { href: URL.createObjectURL(blob), download: `fight-${f.id}.json` });
    document.body.append(a); a.click(); a.remove();
    status("exported " + f.name);
  }
  async function archive(f) {
    const res = await api("POST", `/api/fights/${f.id}/archive`, { archived: !f.archived, version: f.version });
    status(res.ok ? "ok" : why(res), !res.ok);
    list();
  }
  async function create(body) {
    const problems = document.getElementById("problems");
    problems.textContent = "";
    const res = await api("POST", `/api/tables/${table}/fights`, body);
    if (!res.ok) {
      status(why(res), true);
      for (const p of res.data.problems || []) {
        problems.append(el("li", {}, `${p.file} line ${p.line ?? "?"}, ${p.path}: ${p.message}`));
      }
      return;
    }
    location.href = `/table/fights/${res.data.id}?token=${tok}`;
  }
  document.getElementById("from-shipped").addEventListener("submit", (e) => {
    e.preventDefault();
    const seed = document.getElementById("seed").value;
    create({ encounter: document.getElementById("encounter").value, ...(seed ? { seed: +seed } : {}) });
  });
  document.getElementById("from-file").addEventListener("submit", async (e) => {
    e.preventDefault();
    const file = document.getElementById("upload").files[0];
    if (!file) { status("choose a file first", true); return; }
    create({ yaml: await file.text() });
  });
  document.getElementById("show-archived").addEventListener("change", list);
  list();
})();
