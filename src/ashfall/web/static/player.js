// The player screen: the players' projection, live from the SSE stream; a player's own prompts, dice and turn.
"use strict";
(() => {
  const { api, why, el, status, conditionText } = Table;
  const main = document.getElementById("main");
  const fid = main.dataset.fight;
  const base = "/api/fights/" + fid;
  const mine = (main.dataset.mine || "").split(",").filter(Boolean);
  let view = null;

  function nameOf(id) { return ((view && view.creatures.find(c => c.id === id)) || { name: "someone unseen" }).name; }
  function health(c) {
    if (c.hp) { return "HP " + c.hp.hp + "/" + c.hp.max_hp + (c.hp.temp_hp ? " +" + c.hp.temp_hp : ""); }
    return c.band ? c.band : "";
  }
  async function show(v) {
    view = v;
    document.getElementById("round").textContent = v.ended ? `· ended, ${v.winner || "nobody"} won` : `· round ${v.round}`;
    document.getElementById("turn").textContent = v.ended ? "The fight is over." : v.active ? nameOf(v.active) + " is acting" : "Someone unseen is acting";
    const rail = document.getElementById("rail");
    rail.textContent = "";
    for (const id of v.order) {
      const c = v.creatures.find(x => x.id === id);
      if (!c) { continue; }
      const active = c.id === v.active;
      rail.append(el("li", { class: "creature" + (active ? " active" : "") + (c.band === "down" || (c.hp && c.hp.hp <= 0) ? " down" : ""),
                             "aria-current": active ? "true" : null, "data-id": c.id },
        el("span", { class: "swatch", style: "background:" + TableMap.sideColour(c, v.creatures) }),
        el("strong", {}, c.name), " ", el("span", { class: "side" }, "[" + c.side + "]"), " ",
        el("span", { class: c.hp ? "hp" : "band" }, health(c)), active ? el("span", { class: "now" }, " ◀ acting") : null,
        c.conditions.length ? el("ul", { class: "conds" }, c.conditions.map(k => el("li", {}, conditionText(k)))) : null));
    }
    const tom = document.getElementById("tom");
    if (v.map) { TableMap.draw(document.getElementById("map"), v, {}); tom.hidden = true; }
    else { tom.hidden = false; tom.textContent = ""; v.creatures.forEach(c => tom.append(el("li", {}, c.name + " (" + c.side + ")"))); }
    renderPrompt();
    renderDice();
    main.dataset.version = v.version;  // for tests: the version this screen shows, and since when
    (window.ashfallShown = window.ashfallShown || {})[v.version] = Date.now();
    await renderTurn();
  }
  async function write(path, body) {
    const res = await api("POST", base + path, { ...body, version: view.version });
    status(res.ok ? (res.data.status || "ok") : why(res), !res.ok);
  }
  function renderPrompt() {
    const p = view.prompt && view.prompt.asks !== "dice" ? view.prompt : null;
    const box = document.getElementById("prompt");
    box.hidden = !(p && mine.includes(p.actor));
    if (box.hidden) { return; }
    document.getElementById("prompt-text").textContent = p.text + " (" + p.rule + ")";
    const opts = document.getElementById("prompt-options");
    opts.textContent = "";
    for (const o of p.options) { opts.append(el("button", { type: "button", onclick: () => write("/decision", { answer: o.key }) }, o.label)); }
    if (p.optional) { opts.append(el("button", { type: "button", onclick: () => write("/decision", { answer: null }) }, "Decline")); }
  }
  function renderDice() {
    const req = view.prompt && view.prompt.asks === "dice" ? view.prompt : null;
    const box = document.getElementById("dice");
    box.hidden = !(req && mine.includes(req.owner));
    if (box.hidden) { return; }
    document.getElementById("dice-text").textContent = req.text || "";
    const input = document.getElementById("dice-faces");
    input.dataset.sides = req.sides || 20;
    input.dataset.count = req.count || 1;
  }
  document.getElementById("dice-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const input = document.getElementById("dice-faces");
    const faces = input.value.split(/[\s,]+/).filter(Boolean).map(Number);
    if (faces.length !== +input.dataset.count || faces.some(f => !Number.isInteger(f) || f < 1 || f > +input.dataset.sides)) {
      status("those faces are not on the die", true); return;
    }
    write("/dice", { faces });
  });
  document.getElementById("dice-roll").addEventListener("click", () => write("/dice", { roll_for_me: true }));
  async function renderTurn() {
    const box = document.getElementById("my-turn");
    const mineNow = view.active && mine.includes(view.active) && !view.ended && !view.prompt;
    box.hidden = !mineNow;
    if (!mineNow) { return; }
    const host = document.getElementById("intents");
    host.textContent = "";
    const res = await api("GET", base + "/intents");
    if (!res.ok) { host.append(el("p", {}, why(res))); return; }
    // attacks (those with odds) first, as on the GM's screen
    const ordered = [...res.data.intents].sort((a, b) => (b.odds ? 1 : 0) - (a.odds ? 1 : 0));
    for (const i of ordered) {
      const it = i.intent;
      const where = it.to ? " to " + it.to.join(",") : it.path && it.path.length ? " to " + it.path[it.path.length - 1].join(",") : "";
      const label = i.type.replace(/-/g, " ") + (it.target ? " → " + nameOf(it.target) : "") + where + (it.weapon ? " (" + it.weapon + ")" : "") + " · " + (i.bonus_action ? "bonus" : i.cost + " action(s)") +
        (i.odds ? " · hit " + Table.pct(i.odds.p_hit) : "");
      host.append(el("button", { type: "button", class: "intent", onclick: () => write("/intents", { intent: it }) }, label));
    }
  }
  document.getElementById("end-turn").addEventListener("click", () => write("/end-turn", {}));
  Table.stream(base + "/stream", show);
})();
