// The battle map as SVG: walls, terrain, cover, heights, hazards, light and tokens (colour by side AND a label).
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
    const lightOf = {};
    for (const [x, y, lvl] of (view.scene && view.scene.light) || []) { lightOf[x + "," + y] = lvl; }
    const ambient = (view.scene && view.scene.ambient) || "bright";
    for (let y = 0; y < m.height; y++) {
      for (let x = 0; x < m.width; x++) {
        const lvl = lightOf[x + "," + y] || ambient;
        const r = s("rect", { x: x * CELL, y: y * CELL, width: CELL, height: CELL, class: "sq light-" + lvl,
                              "data-x": x, "data-y": y });
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
    host.append(svg);
    return { svg, pathLayer };
  }
  function showPath(drawn, from, path, ok) {
    if (!drawn) { return; }
    drawn.pathLayer.textContent = "";
    const pts = [from, ...path].map(([x, y]) => `${x * CELL + CELL / 2},${y * CELL + CELL / 2}`).join(" ");
    drawn.pathLayer.append(s("polyline", { points: pts, class: ok ? "ok" : "refused" }));
  }
  return { draw, showPath, sideColour, short };
})();
