// The battle map as SVG: walls, terrain, cover, heights, hazards, light and tokens (colour by side AND a label);
// on the GM's map, flanking and cover against the selected target (text and a hatch, not colour alone), and
// keyboard squares: one square in the Tab order, arrow keys move between squares, Enter picks.
"use strict";
const TableMap = (() => {
  const CELL = 32;
  const NS = "http://www.w3.org/2000/svg";
  const PC_COLOUR = "#2f6fb5";
  const SIDE_COLOURS = ["#b5382f", "#2f8a4a", "#8a5a2f", "#6a3fa0", "#a08a1f", "#1f7f86"];
  function s(tag, attrs, text) {
    const n = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) { n.setAttribute(k, v); }
    if (text !== undefined) { n.textContent = text; }
    return n;
  }
  // The players' creatures are blue; the other sides take colours in the order of their names, so both
  // screens agree (a side the players cannot see at all is the only way they could differ).
  function sideColour(creature, creatures) {
    if (creature.pc) { return PC_COLOUR; }
    const sides = [...new Set((creatures || [creature]).filter(c => !c.pc).map(c => c.side))].sort();
    return SIDE_COLOURS[Math.max(0, sides.indexOf(creature.side)) % SIDE_COLOURS.length];
  }
  // A short label for a token: initials plus a trailing number ("Raider 2" -> "R2").
  function short(name) {
    const words = name.split(/\s+/);
    const num = /\d+$/.test(words[words.length - 1]) ? words.pop() : "";
    return (words.map(w => w[0]).join("").slice(0, 2) + num).toUpperCase();
  }
  function draw(host, view, opts) {
    host.textContent = "";
    const m = view.map;
    if (!m) { return null; }
    const svg = s("svg", { viewBox: `0 0 ${m.width * CELL} ${m.height * CELL}`, role: "img",
                         "aria-label": `Battle map, ${m.width} by ${m.height} squares`, class: "map" });
    svg.append(s("title", {}, "Battle map"));
    const keys = !!opts.onSquare;  // the GM's map: squares are keyboard targets
    const cursor = opts.cursor || [0, 0];
    const what = {};  // a square's contents, for its label
    const add = (x, y, text) => { (what[x + "," + y] = what[x + "," + y] || []).push(text); };
    for (const c of view.creatures) { if (c.position) { add(c.position[0], c.position[1], c.name + (c.id === opts.target ? " (target)" : "")); } }
    for (const [x, y] of m.walls) { add(x, y, "wall"); }
    for (const [x, y, , name] of m.cover) { add(x, y, name); }
    for (const [x, y, t] of m.terrain) { add(x, y, t + " terrain"); }
    const lightOf = {};
    for (const [x, y, lvl] of (view.scene && view.scene.light) || []) { lightOf[x + "," + y] = lvl; }
    const ambient = (view.scene && view.scene.ambient) || "bright";
    for (let y = 0; y < m.height; y++) {
      for (let x = 0; x < m.width; x++) {
        const lvl = lightOf[x + "," + y] || ambient;
        const r = s("rect", { x: x * CELL, y: y * CELL, width: CELL, height: CELL, class: "sq light-" + lvl,
                              "data-x": x, "data-y": y });
        if (keys) {
          const here = what[x + "," + y];
          r.setAttribute("tabindex", x === cursor[0] && y === cursor[1] ? "0" : "-1");
          r.setAttribute("role", "button");
          r.setAttribute("aria-label", `square ${x},${y}` + (here ? ": " + here.join(", ") : ""));
        }
        if (opts.onSquare) { r.addEventListener("click", () => opts.onSquare(x, y)); }
        svg.append(r);
      }
    }
    const mark = (x, y, cls, text, title) => {
      const g = s("g", { class: cls });
      g.append(s("rect", { x: x * CELL + 1, y: y * CELL + 1, width: CELL - 2, height: CELL - 2 }));
      if (text) { g.append(s("text", { x: x * CELL + CELL / 2, y: y * CELL + CELL / 2 + 4, "text-anchor": "middle" }, text)); }
      if (title) { g.append(s("title", {}, title)); }
      g.style.pointerEvents = "none";
      svg.append(g);
    };
    for (const [x, y] of m.walls) { mark(x, y, "wall", "", "wall"); }
    for (const [x, y, t] of m.terrain) { mark(x, y, "terrain", t === "difficult" ? ":" : "≈", "terrain: " + t); }
    const LEVELS = { 1: "partial", 2: "heavy", 3: "total" };  // COV-1..3
    for (const [x, y, n, name] of m.cover) {
      const level = LEVELS[n] || String(n);
      mark(x, y, "cover cover-" + level, level[0].toUpperCase(), name + ": " + level + " cover");
    }
    for (const [x, y, h] of m.elevation) { mark(x, y, "height", "▲" + h, "height " + h + " ft"); }
    const sc = view.scene || {};
    for (const [x, y, d] of sc.water || []) { mark(x, y, "water", "~" + d, "water " + d + " ft deep"); }
    for (const [x, y] of sc.fire || []) { mark(x, y, "fire", "F", "fire"); }
    for (const [x, y] of sc.gas || []) { mark(x, y, "gas", "G", "toxic gas"); }
    for (const [x, y, cause, level] of sc.veils || []) { mark(x, y, "veil", "░", cause.replace(/-/g, " ") + ": " + level); }
    for (const [x, y, kind] of sc.hazards || []) { mark(x, y, "hazard", "!", "hazard: " + kind); }
    const pathLayer = s("g", { class: "path" });
    svg.append(pathLayer);
    for (const c of view.creatures) {
      if (!c.position) { continue; }
      const [x, y] = c.position;
      const down = (c.hp && c.hp.hp <= 0) || c.band === "down";
      const g = s("g", { class: "token" + (c.id === view.active ? " active" : "") + (down ? " down" : "") +
                         (opts.target === c.id ? " target" : ""), "data-id": c.id });
      // shape as well as colour: players' creatures are round, everyone else square-ish
      const fill = sideColour(c, view.creatures);
      g.append(c.pc ? s("circle", { cx: x * CELL + CELL / 2, cy: y * CELL + CELL / 2, r: CELL / 2 - 3, fill, class: "body" })
                    : s("rect", { x: x * CELL + 3, y: y * CELL + 3, width: CELL - 6, height: CELL - 6, rx: 5, fill, class: "body" }));
      g.append(s("text", { x: x * CELL + CELL / 2, y: y * CELL + CELL / 2 + 4, "text-anchor": "middle" }, short(c.name)));
      g.append(s("title", {}, `${c.name} (${c.side})${down ? ", down" : ""}`));
      if (opts.onToken) { g.addEventListener("click", (ev) => { ev.stopPropagation(); opts.onToken(c.id); }); }
      svg.append(g);
    }
    if (opts.tactics) { drawTactics(svg, view, opts.tactics); }
    if (keys) {
      svg.setAttribute("aria-label", `Battle map, ${m.width} by ${m.height} squares: arrow keys move between squares, ` +
                       "Enter on a creature picks it as the target, Enter on an empty square shows the path there");
      svg.addEventListener("keydown", (ev) => {
        const at = ev.target.closest && ev.target.closest("rect.sq");
        if (!at) { return; }
        const x = +at.dataset.x, y = +at.dataset.y;
        const step = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[ev.key];
        if (step) {
          ev.preventDefault(); ev.stopPropagation();
          const nx = Math.min(m.width - 1, Math.max(0, x + step[0])), ny = Math.min(m.height - 1, Math.max(0, y + step[1]));
          focusSquare(svg, nx, ny);
          if (opts.onCursor) { opts.onCursor(nx, ny); }
        } else if (ev.key === "Enter" || ev.key === " ") {
          ev.preventDefault(); ev.stopPropagation();
          const who = view.creatures.find(c => c.position && c.position[0] === x && c.position[1] === y);
          if (who && opts.onToken) { opts.onToken(who.id); } else { opts.onSquare(x, y, true); }
        }
      });
    }
    host.append(svg);
    return { svg, pathLayer };
  }
  function focusSquare(svg, x, y) {
    const old = svg.querySelector('rect.sq[tabindex="0"]');
    if (old) { old.setAttribute("tabindex", "-1"); }
    const r = svg.querySelector(`rect.sq[data-x="${x}"][data-y="${y}"]`);
    if (r) { r.setAttribute("tabindex", "0"); r.focus(); }
  }
  const COVER_MARK = { partial: "½", heavy: "¾", total: "■" };  // COV-1..3
  // Flanking and cover against the target, from each creature hostile to it: the selected attacker's line of
  // attack with its cover written on it, a hatch and "flanked" on a flanked target, and a badge on each attacker
  // ("F" flanks; ½ ¾ ■ its cover), each with a title in words.
  function drawTactics(svg, view, t) {
    const pos = (id) => { const c = view.creatures.find(x => x.id === id); return c && c.position; };
    const nm = (id) => (view.creatures.find(x => x.id === id) || { name: id }).name;
    const to = pos(t.target);
    if (!to || !t.attackers.length) { return; }
    const centre = ([x, y]) => [x * CELL + CELL / 2, y * CELL + CELL / 2];
    const layer = s("g", { class: "tactics", "data-target": t.target });
    layer.style.pointerEvents = "none";
    const defs = s("defs", {});
    const pat = s("pattern", { id: "flank-hatch", width: 6, height: 6, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" });
    pat.append(s("line", { x1: 0, y1: 0, x2: 0, y2: 6, class: "hatch" }));
    defs.append(pat);
    layer.append(defs);
    const first = t.attackers[0];
    const words = (a) => {
      const f = a.flanking.flanked ? `flanks with ${a.flanking.with.map(nm).join(", ")} (POS-1, +${a.flanking.modifier.value} AMOD-1)` : "does not flank";
      const c = a.cover.untargetable ? `total cover: cannot target (${a.cover.untargetable})` :
        a.cover.counted === "none" ? (a.cover.level === "none" ? "no cover" : `${a.cover.level} cover, not counted (${a.cover.notes.join(", ")})`) : `${a.cover.counted} cover ` + a.cover.modifiers.map(m => `+${m.value} DV (${m.rule})`).join(" ");
      return `${nm(a.attacker)}: ${f}; ${c}; DV ${a.dv.total}`;
    };
    if (t.attacker && first.attacker === t.attacker) {
      const from = pos(first.attacker);
      if (from) {
        const [x1, y1] = centre(from), [x2, y2] = centre(to);
        const line = s("line", { x1, y1, x2, y2, class: "los cover-" + (first.cover.untargetable ? "total" : first.cover.counted) });
        line.append(s("title", {}, words(first)));
        layer.append(line);
        const label = first.cover.untargetable ? "no target" : first.cover.counted === "none" ? "clear" :
          first.cover.counted + " +" + first.cover.modifiers.reduce((n, m) => n + m.value, 0);
        layer.append(s("text", { x: (x1 + x2) / 2, y: (y1 + y2) / 2 - 3, "text-anchor": "middle", class: "los-label" }, label));
      }
    }
    if (t.attackers.some(a => a.flanking.flanked)) {
      const [x, y] = to;
      layer.append(s("rect", { x: x * CELL, y: y * CELL, width: CELL, height: CELL, fill: "url(#flank-hatch)", class: "flanked" }));
      layer.append(s("text", { x: x * CELL + CELL / 2, y: y * CELL - 2, "text-anchor": "middle", class: "flank-label" }, "flanked"));
    }
    for (const a of t.attackers) {
      const at = pos(a.attacker);
      if (!at) { continue; }
      const mark = (a.flanking.flanked ? "F" : "") + (a.cover.untargetable ? COVER_MARK.total : COVER_MARK[a.cover.counted] || "");
      if (!mark) { continue; }
      const g = s("g", { class: "badge", "data-attacker": a.attacker });
      g.append(s("rect", { x: at[0] * CELL + CELL - 13, y: at[1] * CELL - 2, width: 15, height: 11, rx: 2 }));
      g.append(s("text", { x: at[0] * CELL + CELL - 5.5, y: at[1] * CELL + 7, "text-anchor": "middle" }, mark));
      g.append(s("title", {}, words(a)));
      layer.append(g);
    }
    svg.append(layer);
  }
  function showPath(drawn, from, path, ok) {
    if (!drawn) { return; }
    drawn.pathLayer.textContent = "";
    const pts = [from, ...path].map(([x, y]) => `${x * CELL + CELL / 2},${y * CELL + CELL / 2}`).join(" ");
    drawn.pathLayer.append(s("polyline", { points: pts, class: ok ? "ok" : "refused" }));
  }
  return { draw, showPath, sideColour, short, focusSquare };
})();
