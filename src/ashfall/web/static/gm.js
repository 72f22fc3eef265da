// The GM screen: initiative rail, map, action bar with exact odds, decisions, dice, GM tools, explanation log.
"use strict";
(() => {
  const { api, why, el, status, pct, conditionText } = Table;
  const main = document.getElementById("main");
  const fid = main.dataset.fight;
  const base = "/api/fights/" + fid;
  let view = null, intents = [], chosen = null, target = null, drawn = null, preview = null;
  let tactics = null, tacticsAsked = 0, cursor = null, cursorFor = null, marks = { delayed: [], readied: [] };
  const selected = new Set();
  let logRecords = [], loading = Promise.resolve();
  document.getElementById("fights-link").href = "/table?token=" + encodeURIComponent(Table.token());

  const GROUPS = [
    ["Attacks", ["strike", "power-strike", "all-out-attack", "sweeping-strike", "full-auto-burst", "off-hand-strike",
                 "coup-de-grace", "psi-strike", "improvised-attack", "strike-object", "extra-attack-strike", "aim"]],
    ["Maneuvers", ["grapple", "shove", "trip", "disarm", "feint", "overrun", "drag", "escape", "release-grapple", "constrict"]],
    ["Movement", ["stride", "step", "crawl", "stand", "sprint", "swim", "mount", "dismount", "drive"]],
    ["Readied and delayed", ["ready", "delay", "fire-readied"]],
  ];
  function groupOf(type) {
    for (const [name, types] of GROUPS) { if (types.includes(type)) { return name; } }
    return "Other";
  }
  const nameOf = (id) => ((view && view.creatures.find(c => c.id === id)) || { name: id }).name;
  function intentLabel(i) {
    const it = i.intent;
    const bits = [i.type.replace(/-/g, " ")];
    if (it.target) { bits.push("→ " + nameOf(it.target)); }
    if (it.weapon) { bits.push("(" + it.weapon + ")"); }
    if (it.path && it.path.length) { const end = it.path[it.path.length - 1]; bits.push("to " + end.join(",")); }
    if (it.to) { bits.push("to " + it.to.join(",")); }
    for (const [k, v] of Object.entries(it)) {
      if (!["type", "actor", "target", "weapon", "path", "to"].includes(k) && v !== null && v !== false && typeof v !== "object") { bits.push(k.replace(/_/g, " ") + (v === true ? "" : " " + v)); }
    }
    return bits.join(" ");
  }
  function costText(i) {
    if (i.free) { return "free"; }
    if (i.bonus_action) { return "bonus action"; }
    return i.cost + (i.cost === 1 ? " action" : " actions");
  }

  async function refresh() {
    const res = await api("GET", base);
    if (!res.ok) { status(why(res), true); return; }
    await show(res.data);
  }
  async function show(v) {
    const changed = !view || v.version !== view.version;
    view = v;
    renderRail(); renderMap(); renderPrompt(); renderDice(); renderTools(); renderWait();
    document.getElementById("round").textContent = v.ended ? `· ended, ${v.winner || "nobody"} won` : `· round ${v.round}`;
    document.getElementById("undo").disabled = !v.undo_available;
    document.getElementById("redo").disabled = !v.redo_available;
    if (changed) { loading = Promise.all([loadIntents(), loadLog(), loadTactics(), loadMorale(), loadRail()]); }
    await loading;
    // the version this screen shows in full (intents and log loaded): for tests and tools
    if (view.version === v.version) { main.dataset.version = v.version; }
  }

  function renderRail() {
    const rail = document.getElementById("rail");
    rail.textContent = "";
    for (const id of view.order) {
      const c = view.creatures.find(x => x.id === id);
      if (!c) { continue; }
      const active = c.id === view.active;
      const box = el("input", { type: "checkbox", id: "sel-" + c.id, checked: selected.has(c.id),
                                onchange: (e) => { e.target.checked ? selected.add(c.id) : selected.delete(c.id); renderTools(); } });
      const hp = c.hp.hp + "/" + c.hp.max_hp + (c.hp.temp_hp ? " +" + c.hp.temp_hp : "");
      rail.append(el("li", { class: "creature" + (active ? " active" : "") + (c.hp.hp <= 0 ? " down" : ""),
                             "aria-current": active ? "true" : null, "data-id": c.id },
        box, el("label", { for: "sel-" + c.id },
          el("span", { class: "swatch", style: "background:" + TableMap.sideColour(c, view.creatures) }),
          el("strong", {}, c.name), " ", el("span", { class: "side" }, "[" + c.side + (c.pc ? ", PC" : "") + "]"),
          " ", el("span", { class: "hp" }, "HP " + hp), " ", el("span", { class: "init" }, "init " + c.initiative),
          active ? el("span", { class: "now" }, " ◀ acting") : null,
          c.seen_by_players ? null : el("span", { class: "hidden-tag" }, " (hidden from players)")),
        railMarks(c),
        c.conditions.length ? el("ul", { class: "conds" }, c.conditions.map(k => el("li", {}, conditionText(k)))) : null));
    }
    const budget = document.getElementById("budget");
    budget.textContent = "";
    const a = view.creatures.find(c => c.id === view.active);
    if (a) {
      const t = a.turn;
      const pips = [0, 1, 2].map(n => el("span", { class: "pip" + (n < t.actions_left ? " on" : "") }, n < t.actions_left ? "●" : "○"));
      budget.append(el("p", {}, el("strong", {}, a.name + ": "), el("span", { "aria-label": t.actions_left + " of 3 actions left" }, pips),
        " · bonus action " + (t.bonus_used ? "used" : "ready") + " · reaction " + (a.reaction_available ? "ready" : "used") +
        " · " + t.movement_left_ft + " ft of movement left"));
      const lasting = a.conditions.filter(k => ["delaying", "readied", "ready"].includes(k.condition));
      if (lasting.length) { budget.append(el("p", {}, lasting.map(conditionText).join(", "))); }
    }
  }

  // Delay and Ready where they apply: a creature that delayed waits for its new place (DEL-2); a readied
  // action waits for its trigger until the creature's next turn (RDY-2, RDY-4).
  const TRIGGER_WORDS = { enters: "enters", leaves: "leaves", "into-view": "comes into view", attacks: "attacks",
                          moves: "moves", gm: "the GM says so" };
  function railMarks(c) {
    const out = [];
    const d = marks.delayed.find(m => m.actor === c.id);
    if (d) {
      out.push(el("p", { class: "mark delayed" }, "⏸ delayed: acts after " + (d.after ? nameOf(d.after) : "the others") + " ", ruleButton(d.rule)));
    }
    const r = marks.readied.find(m => m.actor === c.id);
    if (r) {
      const a = r.action, t = r.trigger;
      const what = a.kind === "strike" ? "Strike" + (a.target ? " → " + nameOf(a.target) : "") + (a.weapon ? " (" + a.weapon + ")" : "")
        : a.kind + (a.path.length ? " to " + a.path[a.path.length - 1].join(",") : "");
      const who = t.kind === "gm" ? "" : (t.creature ? nameOf(t.creature) : "an enemy") + " ";
      const where = t.squares.length ? " " + t.squares.map(q => q.join(",")).join(" ") : "";
      out.push(el("p", { class: "mark readied" }, "⚑ readied: " + what + " when " + who + TRIGGER_WORDS[t.kind] + where + " ",
        ruleButton(r.rule), el("span", { class: "dim" }, " until its next turn"),
        t.kind === "gm" && c.id !== view.active ? el("button", { type: "button", class: "fire", onclick: () => act({ type: "fire-readied", actor: c.id }) }, "Fire now") : null));
    }
    return out;
  }
  async function loadRail() {
    const at = view.version;
    const res = await api("GET", base + "/rail");
    if (!res.ok || view.version !== at) { return; }
    marks = res.data;
    renderRail();
  }

  function renderMap() {
    const tom = document.getElementById("tom");
    if (!view.map) {
      document.getElementById("map").textContent = "";
      tom.hidden = false;
      tom.textContent = "";
      for (const c of view.creatures) {
        tom.append(el("li", {}, el("button", { type: "button", onclick: () => pickTarget(c.id) }, c.name + " (" + c.side + ")")));
      }
      return;
    }
    tom.hidden = true;
    const mapHost = document.getElementById("map");
    const hadFocus = mapHost.contains(document.activeElement);
    if (!cursor || (cursorFor !== view.active && !hadFocus)) {  // a new turn: the keyboard starts at the active creature
      const a = view.creatures.find(c => c.id === view.active);
      cursor = (a && a.position) || cursor || [0, 0];
      cursorFor = view.active;
    }
    drawn = TableMap.draw(mapHost, view, { target, onSquare: previewMove, onToken: pickTarget, cursor,
                                           onCursor: (x, y) => { cursor = [x, y]; },
                                           tactics: tactics && tactics.target === target ? tactics : null });
    if (hadFocus) { TableMap.focusSquare(drawn.svg, cursor[0], cursor[1]); }
    if (preview && preview.path.length) {
      const a = view.creatures.find(c => c.id === preview.actor);
      if (a && a.position) { TableMap.showPath(drawn, a.position, preview.path, preview.legal); }
    }
  }

  document.getElementById("move-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const x = parseInt(document.getElementById("move-x").value, 10), y = parseInt(document.getElementById("move-y").value, 10);
    if (Number.isInteger(x) && Number.isInteger(y) && x >= 0 && y >= 0) { previewMove(x, y, true); } else { status("enter the square's x and y", true); }
  });
  async function previewMove(x, y, focusMove) {
    const res = await api("GET", `${base}/move?x=${x}&y=${y}`);
    const box = document.getElementById("move-preview");
    box.textContent = "";
    if (!res.ok) { status(why(res), true); return; }
    preview = res.data;
    const a = view.creatures.find(c => c.id === preview.actor);
    if (a && a.position) { TableMap.showPath(drawn, a.position, preview.path, preview.legal); }
    const aoo = preview.provokes.length ? "provokes an Attack of Opportunity from " + preview.provokes.map(nameOf).join(", ") + " (RX-21)" : "provokes nothing";
    if (preview.legal) {
      box.append(el("p", {}, `Move ${nameOf(preview.actor)} to ${x},${y}: ${preview.feet} ft, ${preview.cost} action(s); ${aoo}. `),
        el("button", { type: "button", id: "do-move", onclick: () => act(preview.intent) }, "Move here"));
      if (focusMove) { document.getElementById("do-move").focus(); }
    } else {
      box.append(el("p", { class: "refused" }, `Cannot move to ${x},${y}: ${preview.rule}: ${preview.reason}`));
    }
  }

  function pickTarget(id) {
    target = target === id ? null : id;
    tactics = null;
    renderMap();
    renderIntents();
    loadTactics();
    const first = intents.find(i => i.intent.target === target && i.odds);
    if (first) { choose(first); }
  }

  // Flanking and cover against the selected target, from the active creature first (the rules' own reading).
  async function loadTactics() {
    const box = document.getElementById("tactics");
    const at = view.version, wanted = target, ask = ++tacticsAsked;
    if (!wanted || !view.map) { tactics = null; box.textContent = ""; box.hidden = true; return; }
    const weapon = chosen && chosen.intent.target === wanted && chosen.intent.weapon ? chosen.intent.weapon : "";
    const res = await api("GET", `${base}/tactics?target=${encodeURIComponent(wanted)}` + (weapon ? "&weapon=" + encodeURIComponent(weapon) : ""));
    if (!res.ok || view.version !== at || target !== wanted || ask !== tacticsAsked) { return; }  // a newer question
    tactics = res.data;
    box.hidden = false;
    box.textContent = "";
    box.append(el("h3", {}, "Against " + nameOf(wanted)));
    const list = el("ul", {});
    for (const a of tactics.attackers) {
      const f = a.flanking.flanked
        ? ["flanks it with " + a.flanking.with.map(nameOf).join(", ") + " ", ruleButton(a.flanking.rule), " +" + a.flanking.modifier.value + " to hit ", ruleButton(a.flanking.modifier.rule)]
        : ["no flanking"];
      const blocked = a.flanking.not_flanking.map(n => [" (" + nameOf(n.ally) + " stands opposite but does not flank ", ruleButton(n.rule), ")"]);
      const c = a.cover.untargetable ? ["total cover: cannot be targeted ", ruleButton(a.cover.untargetable)]
        : a.cover.counted === "none" ? [a.cover.level === "none" ? "no cover" : a.cover.level + " cover, which does not count here"]
        : [a.cover.counted + " cover", ...a.cover.modifiers.map(m => [" +" + m.value + " DV ", ruleButton(m.rule)])];
      const notes = a.cover.notes.map(n => [" ", ruleButton(n)]);
      list.append(el("li", { "data-attacker": a.attacker, class: a.attacker === tactics.attacker ? "chosen" : null },
        el("strong", {}, nameOf(a.attacker)), a.attacker === tactics.attacker ? " (acting)" : "", ": ", f, blocked, "; ",
        c, notes, " (with " + (a.cover.weapon || "no weapon") + ")", a.high_ground ? "; high ground" : "", "; DV " + a.dv.total));
    }
    if (!tactics.attackers.length) { list.append(el("li", {}, "Nobody hostile to it is on the map.")); }
    box.append(list);
    renderMap();
  }

  // Delay (DEL-1) and Ready (RDY-1): the choices the engine cannot list by itself (a place in the order, a trigger).
  function renderWait() {
    const a = view.creatures.find(c => c.id === view.active);
    document.getElementById("wait-box").hidden = !a || view.ended || !!view.pending;
    if (!a) { return; }
    const later = view.order.slice(view.order.indexOf(a.id) + 1);
    const after = document.getElementById("delay-after");
    after.textContent = "";
    for (const id of later) { after.append(el("option", { value: id }, nameOf(id))); }
    const at = document.getElementById("ready-target");
    const keep = at.value;
    at.textContent = "";
    at.append(el("option", { value: "" }, "whoever sets it off"));
    for (const c of view.creatures.filter(x => x.side !== a.side && x.hp.hp > 0)) { at.append(el("option", { value: c.id }, c.name)); }
    at.value = [...at.options].some(o => o.value === keep) ? keep : "";
  }
  document.getElementById("delay-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const after = document.getElementById("delay-after").value;
    if (!after) { status("nobody acts later this round: there is no place to delay to (DEL-3)", true); return; }
    act({ type: "delay", actor: view.active, after });
  });
  document.getElementById("ready-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const t = document.getElementById("ready-target").value;
    act({ type: "ready", actor: view.active, action: { kind: "strike", ...(t ? { target: t } : {}) },
          trigger: { kind: document.getElementById("ready-trigger").value } });
  });

  async function loadIntents() {
    const at = view.version;
    let got = [];
    if (!view.ended && view.active && !view.pending) {
      const res = await api("GET", base + "/intents");
      if (res.ok) { got = res.data.intents; } else { status(why(res), true); }
    }
    if (view.version !== at) { return; }  // a newer version arrived meanwhile: its own load shows it
    // numbered in the order shown: attacks first, so 1-9 reach them
    const rank = (i) => { const g = groupOf(i.type); const n = GROUPS.findIndex(([name]) => name === g); return n < 0 ? GROUPS.length : n; };
    intents = got.map((i, n) => [i, n]).sort((a, b) => rank(a[0]) - rank(b[0]) || a[1] - b[1]).map(([i]) => i);
    await renderIntents();
  }

  // Enemies no listed attack can reach: ask the engine why (read only), shown greyed with its rule.
  async function refusedAttacks() {
    const a = view.creatures.find(c => c.id === view.active);
    if (!a || !a.weapons.length) { return []; }
    const reachable = new Set(intents.filter(i => i.type === "strike").map(i => i.intent.target));
    const out = [];
    for (const e of view.creatures.filter(c => c.side !== a.side && c.hp.hp > 0 && !reachable.has(c.id))) {
      const intent = { type: "strike", actor: a.id, target: e.id, weapon: a.weapons[0] };
      const res = await api("POST", base + "/check", { intent });
      if (res.ok && !res.data.legal) { out.push({ intent, rule: res.data.rule, reason: res.data.reason }); }
    }
    return out;
  }

  async function renderIntents() {
    const host = document.getElementById("intents");
    host.textContent = "";
    document.getElementById("actions-for").textContent = view.active ? "for " + nameOf(view.active) : "";
    const groups = {};
    intents.forEach((i, n) => { (groups[groupOf(i.type)] = groups[groupOf(i.type)] || []).push([i, n]); });
    for (const [name] of [...GROUPS, ["Other"]]) {
      if (!groups[name]) { continue; }
      const fs = el("fieldset", {}, el("legend", {}, name));
      for (const [i, n] of groups[name]) {
        const key = n < 9 ? String(n + 1) : null;
        fs.append(el("button", { type: "button", class: "intent" + (chosen === i ? " chosen" : "") + (target && i.intent.target === target ? " on-target" : ""),
                                 "aria-pressed": chosen === i ? "true" : "false", "aria-keyshortcuts": key, "data-type": i.type, "data-target": i.intent.target || null,
                                 title: i.rule, onclick: () => choose(i) },
          key ? el("kbd", {}, key) : null, " " + intentLabel(i), el("span", { class: "cost" }, " · " + costText(i)),
          i.odds ? el("span", { class: "mini" }, " · hit " + pct(i.odds.p_hit)) : null));
      }
      host.append(fs);
    }
    if (!intents.length) { host.append(el("p", {}, view.ended ? "The fight is over." : view.pending ? "Waiting for a decision." : "No legal intents.")); }
    const version = view.version;
    const refused = await refusedAttacks();
    if (refused.length && view.version === version) {
      const fs = el("fieldset", {}, el("legend", {}, "Not possible now"));
      for (const r of refused) {
        fs.append(el("button", { type: "button", class: "intent illegal", "aria-disabled": "true", title: r.rule + ": " + r.reason },
          "strike → " + nameOf(r.intent.target), el("span", { class: "why" }, " — " + r.rule + ": " + r.reason)));
      }
      host.append(fs);
    }
  }

  function choose(i) {
    const before = chosen;
    chosen = i;
    if (target && i.intent.target === target && (!before || before.intent.weapon !== i.intent.weapon || before.intent.target !== target)) { loadTactics(); }
    const odds = document.getElementById("odds");
    odds.textContent = "";
    odds.append(el("p", {}, el("strong", {}, intentLabel(i)), " · " + costText(i) + " · rule " + i.rule));
    if (i.odds) {
      const o = i.odds;
      odds.append(el("dl", { class: "oddsgrid" },
        el("dt", {}, "hit"), el("dd", { title: o.p_hit.exact }, pct(o.p_hit)),
        el("dt", {}, "crit"), el("dd", { title: o.p_crit.exact }, pct(o.p_crit)),
        el("dt", {}, "expected damage"), el("dd", { title: o.expected_damage.exact }, o.expected_damage.value.toFixed(2)),
        el("dt", {}, "drops " + nameOf(o.target)), el("dd", { title: o.p_drop.exact }, pct(o.p_drop)),
        el("dt", {}, "attack vs DV"), el("dd", {}, (o.bonus >= 0 ? "+" : "") + o.bonus + " vs " + o.dv)));
    }
    const confirm = document.getElementById("confirm");
    confirm.disabled = false;
    renderIntentsPressed();
  }
  function renderIntentsPressed() {
    document.querySelectorAll("#intents button.intent:not(.illegal)").forEach((b, n) => {
      const on = intents[n] === chosen;
      b.classList.toggle("chosen", on);
      b.setAttribute("aria-pressed", on ? "true" : "false");
    });
  }

  async function write(path, body) {
    const res = await api("POST", base + path, { ...body, version: view.version });
    if (!res.ok) { status(why(res), true); await refresh(); return null; }
    if (res.data.version !== undefined) { (window.ashfallAcked = window.ashfallAcked || {})[res.data.version] = Date.now(); }
    status(res.data.status === "decision" ? "A decision is needed: " + res.data.pending.decision.text : (res.data.status || "ok"));
    chosen = null; preview = null;
    document.getElementById("confirm").disabled = true;
    document.getElementById("odds").textContent = "";
    document.getElementById("move-preview").textContent = "";
    await refresh();
    return res.data;
  }
  const act = (intent) => write("/intents", { intent });

  function renderPrompt() {
    const box = document.getElementById("prompt");
    const p = view.pending && view.pending.decision;
    box.hidden = !p;
    if (!p) { return; }
    document.getElementById("prompt-text").textContent = nameOf(p.actor) + " is asked (" + p.kind + ", " + p.rule + "): " +
      p.text.replace(/^([a-z-]+) by (\S+)$/, (all, what, who) => what.replace(/-/g, " ") + " by " + nameOf(who));
    const opts = document.getElementById("prompt-options");
    opts.textContent = "";
    for (const o of p.options) {
      opts.append(el("button", { type: "button", class: "answer", title: o.rule, onclick: () => write("/decision", { answer: o.key }) }, o.label));
    }
    if (p.optional) { opts.append(el("button", { type: "button", class: "answer decline", onclick: () => write("/decision", { answer: null }) }, "Decline")); }
    opts.querySelector("button").focus();
  }

  function renderDice() {
    const box = document.getElementById("dice");
    const req = view.pending && (view.pending.dice || view.pending.dice_request);
    box.hidden = !req;
    if (!req) { return; }
    document.getElementById("dice-text").textContent = req.text || JSON.stringify(req);
    const input = document.getElementById("dice-faces");
    input.dataset.sides = req.sides || req.size || 20;
    input.dataset.count = req.count || 1;
  }
  function validFaces(input) {
    const sidesN = +input.dataset.sides, count = +input.dataset.count;
    const faces = input.value.split(/[\s,]+/).filter(Boolean).map(Number);
    if (faces.length !== count || faces.some(f => !Number.isInteger(f) || f < 1 || f > sidesN)) { return null; }
    return faces;
  }
  document.getElementById("dice-faces").addEventListener("input", (e) => {
    e.target.setCustomValidity(validFaces(e.target) ? "" : `enter ${e.target.dataset.count} face(s) from 1 to ${e.target.dataset.sides}`);
  });
  document.getElementById("dice-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const faces = validFaces(document.getElementById("dice-faces"));
    if (!faces) { status("those faces are not on the die", true); return; }
    write("/dice", { faces });
  });
  document.getElementById("dice-roll").addEventListener("click", () => write("/dice", { roll_for_me: true }));

  function renderTools() {
    const names = [...selected].map(nameOf);
    document.getElementById("selected").textContent = names.length ? "Selected: " + names.join(", ") : "Select creatures in the initiative list.";
    const sides = document.getElementById("sides");
    sides.textContent = "";
    for (const side of [...new Set(view.creatures.map(c => c.side))]) { sides.append(el("option", { value: side })); }
    const rem = document.getElementById("reminders");
    rem.textContent = "";
    for (const r of view.reminders || []) { rem.append(el("li", {}, r.text || JSON.stringify(r))); }
  }
  // The morale panel: each NPC group's status and Will, the check due now (a morale dice request) and the
  // checks its next events would call for, each DC with its parts and their rule IDs (MOR).
  const EVENT_WORDS = { "next-drop": "If one more of them drops", "leader-down": "If their leader falls or cannot command",
                        fear: "If one of them is frightened or shaken (checks alone)" };
  const dcParts = (f) => ["DC " + f.dc + " = ", f.parts.map((p, n) => [(n ? (p.value >= 0 ? " + " : " − ") + Math.abs(p.value) : String(p.value)) + " " + p.label + " ", ruleButton(p.rule)])];
  async function loadMorale() {
    const at = view.version;
    const res = await api("GET", base + "/morale");
    if (!res.ok || view.version !== at) { return; }
    const m = res.data;
    const box = document.getElementById("morale-panel");
    box.textContent = "";
    box.append(el("h3", {}, "Morale ", ruleButton(m.rule)));
    if (!m.active) { box.append(el("p", { class: "dim" }, m.reason + " ", ruleButton(m.rule))); return; }
    for (const g of m.groups) {
      const sec = el("div", { class: "morale-group", "data-group": g.group });
      sec.append(el("p", {}, el("strong", {}, g.group), " · " + g.status.replace(/-/g, " ") + (g.rallied ? " (rallied)" : "") +
        " · casualties " + g.casualties.length + "/" + g.size,
        g.will ? [" · Will " + (g.will.value >= 0 ? "+" : "") + g.will.value + " ", ruleButton(g.will.rule)] : null));
      if (g.due) { sec.append(el("p", { class: "due" }, el("strong", {}, "⚠ Check due now: "), g.due.text + " ", ruleButton(g.due.rule))); }
      const list = el("ul", { class: "forecast" });
      for (const f of g.forecast) {
        if (f.event === "half-strength") {
          list.append(el("li", {}, "Half Strength after " + f.drops + " more drop" + (f.drops === 1 ? "" : "s") + " ", ruleButton(f.rule)));
          continue;
        }
        list.append(el("li", { "data-event": f.event }, (EVENT_WORDS[f.event] || f.event) + ": ",
          f.triggers.map(t => [t.trigger.replace(/-/g, " ") + " ", ruleButton(t.rule), " "]), "→ ", dcParts(f)));
      }
      if (g.forecast.length) { sec.append(list); }
      if (g.rally_dc) { sec.append(el("p", {}, "Rally against DC " + g.rally_dc.dc + " ", ruleButton(g.rally_dc.rule))); }
      const last = g.last_check;
      if (last) {
        sec.append(el("p", { class: "last-check" }, "Last check: " + last.total + " against ", dcParts(last), " → " + last.outcome.replace(/-/g, " ") + " ", ruleButton(last.rule)));
      }
      const off = g.members.filter(x => x.status !== "hold");
      if (off.length) { sec.append(el("p", {}, off.map(x => nameOf(x.id) + ": " + x.status.replace(/-/g, " ")).join(", "))); }
      box.append(sec);
    }
    if (m.immune.length) { box.append(el("p", { class: "dim" }, "Never check: ", m.immune.map(i => [nameOf(i.id) + " ", ruleButton(i.rule), " "]))); }
    if (!m.groups.length) { box.append(el("p", { class: "dim" }, "No NPC group checks morale.")); }
  }

  async function override(kind, change) {
    const targets = kind === "combatant" && change.add ? [] : [...selected];
    if (!targets.length && !(kind === "combatant" && change.add)) { status("select one or more creatures first", true); return; }
    await write("/overrides/" + kind, { targets, change, reason: document.getElementById("reason").value || "GM ruling" });
  }
  const amount = () => parseInt(document.getElementById("amount").value, 10) || 0;
  const value = (id) => document.getElementById(id).value;
  // each target saves separately when a save is chosen (the server rolls or asks for each)
  document.getElementById("damage").addEventListener("click", () => override("damage", {
    amount: amount(), damage_type: value("damage-type"), ...(value("save") ? { save: value("save"), dc: parseInt(value("dc"), 10) || 10 } : {}) }));
  document.getElementById("heal").addEventListener("click", () => override("hp", { delta: amount() }));
  document.getElementById("set-hp").addEventListener("click", () => override("hp", { hp: amount() }));
  document.getElementById("add-condition").addEventListener("click", () => override("condition", {
    condition: value("condition"), rounds: parseInt(value("rounds"), 10) || null }));
  document.getElementById("remove-condition").addEventListener("click", () => override("condition", { condition: value("condition"), remove: true }));
  // Adding a creature mid-fight (a library creature or a quick-added PC) and removing the selected ones: the
  // combatant override (GM rule tag, undoable like any record).
  const optionalInt = (id) => { const v = value(id).trim(); return v === "" ? null : parseInt(v, 10); };
  document.getElementById("add-creature").addEventListener("click", () => {
    const creature = value("new-creature").trim(), side = value("new-side").trim();
    if (!creature || !side) { status("name the library creature and its side", true); return; }
    const add = { creature, side };
    if (value("new-name").trim()) { add.name = value("new-name").trim(); }
    const x = optionalInt("new-x"), y = optionalInt("new-y"), init = optionalInt("new-init");
    if (x !== null && y !== null) { add.position = [x, y]; }
    if (init !== null) { add.initiative = init; }
    override("combatant", { add });
  });
  document.getElementById("add-pc").addEventListener("click", () => {
    const pc = { name: value("pc-name").trim(), hp: optionalInt("pc-hp"), dv: optionalInt("pc-dv"),
                 attack_bonus: optionalInt("pc-attack"), damage: value("pc-damage").trim(), initiative_bonus: optionalInt("pc-init") || 0 };
    if (!pc.name || pc.hp === null || pc.dv === null || pc.attack_bonus === null || !pc.damage || !value("pc-side").trim()) {
      status("a quick PC needs its name, HP, DV, attack bonus, damage and side", true); return;
    }
    override("combatant", { add: { pc, side: value("pc-side").trim() } });
  });
  document.getElementById("remove-creature").addEventListener("click", () => {
    if (!selected.size) { status("select the creatures to remove first", true); return; }
    override("combatant", { remove: true }).then(() => { for (const id of [...selected]) { if (!view.creatures.some(c => c.id === id)) { selected.delete(id); } } renderTools(); });
  });
  async function loadLibrary() {
    const res = await api("GET", "/api/library/creatures");
    if (!res.ok) { return; }  // the library picker is not served: the creature's id is typed
    const list = Array.isArray(res.data) ? res.data : (res.data.creatures || []);
    const host = document.getElementById("library");
    host.textContent = "";
    for (const c of list) { host.append(el("option", { value: c.id, label: `${c.name} · HP ${c.hp} · DV ${c.dv}` })); }
  }
  loadLibrary();
  document.getElementById("mark-morale").addEventListener("click", () => override("morale", { status: value("morale") }));
  document.getElementById("hide").addEventListener("click", async () => {
    const hidden = new Set(view.settings.hidden);
    for (const id of selected) { hidden.has(id) ? hidden.delete(id) : hidden.add(id); }
    const res = await api("PUT", base + "/settings", { settings: { ...view.settings, hidden: [...hidden] }, version: view.version });
    status(res.ok ? "players' view updated" : why(res), !res.ok);
    await refresh();
  });
  document.getElementById("set-dice").addEventListener("click", async () => {
    const settings = { ...view.settings, dice: { ...view.settings.dice } };
    for (const id of selected) { settings.dice[id] = document.getElementById("dice-mode").value; }
    const res = await api("PUT", base + "/settings", { settings, version: view.version });
    status(res.ok ? "dice settings saved" : why(res), !res.ok);
    await refresh();
  });

  async function loadLog() {
    const at = view.version;
    const res = await api("GET", base + "/log");
    if (!res.ok || view.version !== at) { return; }
    logRecords = res.data.records.filter(r => !r.undone);
    const filter = document.getElementById("log-filter");
    const keep = filter.value;
    filter.textContent = "";
    filter.append(el("option", { value: "" }, "everyone"));
    for (const c of view.creatures) { filter.append(el("option", { value: c.id }, c.name)); }
    filter.value = keep;
    renderLog();
  }
  function ruleButton(id) { return el("button", { type: "button", class: "ruleid", onclick: () => showRule(id) }, id); }
  function renderLog() {
    const who = document.getElementById("log-filter").value;
    const log = document.getElementById("log");
    log.textContent = "";
    for (const r of [...logRecords].reverse()) {
      const rows = r.rows.filter(row => !who || row.actor === who || row.target === who);
      if (!rows.length) { continue; }
      const li = el("li", { class: "record" }, el("p", { class: "intent-line" }, "#" + r.seq + " " + r.intent.type + (r.intent.actor ? " · " + nameOf(r.intent.actor) : "")));
      for (const row of rows) {
        li.append(el("div", { class: "row " + row.level },
          el("p", {}, row.parts.map(p => p.ref ? el("span", { class: "ref" }, p.text) : p.text), " ", row.rules.map(ruleButton)),
          row.modifiers.length ? el("ul", { class: "mods" }, row.modifiers.map(m => el("li", {}, (m.value >= 0 ? "+" : "") + m.value + " " + m.label + " (" + m.applies_to + ") ", ruleButton(m.rule)))) : null,
          row.ledger.length ? el("table", { class: "ledger" }, el("caption", {}, "damage ledger"),
            row.ledger.map(l => el("tr", {}, el("td", {}, l.step), el("td", {}, l.damage_type), el("td", {}, l.before + " → " + l.after), el("td", {}, l.label), el("td", {}, ruleButton(l.rule))))) : null,
          row.details.length ? el("ul", { class: "details" }, row.details.map(d => el("li", {}, d))) : null));
      }
      log.append(li);
    }
  }
  document.getElementById("log-filter").addEventListener("change", renderLog);
  async function showRule(id) {
    const res = await api("GET", "/api/rules/" + encodeURIComponent(id));
    const box = document.getElementById("rule");
    box.hidden = false;
    box.textContent = "";
    box.append(el("h3", {}, id), el("p", {}, res.ok ? res.data.text : why(res)),
      res.ok && res.data.lines ? el("p", { class: "dim" }, "lines " + res.data.lines + (res.data.status ? " · " + res.data.status : "")) : null,
      el("button", { type: "button", onclick: () => { box.hidden = true; } }, "Close"));
    box.querySelector("button:last-child").focus();
  }

  document.getElementById("confirm").addEventListener("click", () => { if (chosen) { act(chosen.intent); } });
  document.getElementById("end-turn").addEventListener("click", () => write("/end-turn", {}));
  document.getElementById("undo").addEventListener("click", () => write("/undo", { steps: 1 }));
  document.getElementById("redo").addEventListener("click", () => write("/redo", { steps: 1 }));
  document.getElementById("player-link").addEventListener("click", async () => {
    const pcs = view.creatures.filter(c => c.pc).map(c => c.id);
    const res = await api("POST", base + "/players", { creatures: pcs.length ? pcs : [view.creatures[0].id] });
    if (!res.ok) { status(why(res), true); return; }
    const url = location.origin + "/table/fights/" + fid + "/player?token=" + encodeURIComponent(res.data.token);
    status("Player link: " + url);
  });
  document.addEventListener("keydown", (e) => {
    const typing = ["INPUT", "SELECT", "TEXTAREA"].includes(document.activeElement.tagName);
    if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "z") {
      e.preventDefault();
      document.getElementById(e.shiftKey ? "redo" : "undo").click();
      return;
    }
    if (typing || e.ctrlKey || e.metaKey || e.altKey) { return; }
    if (/^[1-9]$/.test(e.key) && intents[+e.key - 1]) { e.preventDefault(); choose(intents[+e.key - 1]); document.getElementById("confirm").focus(); }
    else if (e.key === "e" || e.key === "E") { e.preventDefault(); document.getElementById("end-turn").click(); }
  });

  Table.stream(base + "/stream", (v) => { if (!view || v.version !== view.version) { show(v); } });
  refresh();
})();
