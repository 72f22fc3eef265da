// Shared by the table's pages: the token from the link (kept in sessionStorage), API calls, the status line.
"use strict";
const Table = (() => {
  const params = new URLSearchParams(location.search);
  const key = "ashfall-token:" + location.pathname.split("/").slice(0, 4).join("/");
  let token = params.get("token") || sessionStorage.getItem(key) || sessionStorage.getItem("ashfall-token") || "";
  if (params.get("token")) { sessionStorage.setItem(key, token); }
  function status(text, bad) {
    const el = document.getElementById("status");
    if (!el) { return; }
    el.textContent = text || "";
    el.classList.toggle("bad", !!bad);
  }
  async function api(method, path, body) {
    const opts = { method, headers: { "Authorization": "Bearer " + token } };
    if (body !== undefined) {
      opts.headers["Content-Type"] = "application/json";
      opts.body = JSON.stringify(body);
    }
    const res = await fetch(path, opts);
    let data = null;
    try { data = await res.json(); } catch (e) { data = null; }
    return { ok: res.ok, status: res.status, data: data || {} };
  }
  // The server's own words for a refusal: its rule and reason, or its detail.
  function why(res) {
    const d = res.data || {};
    if (d.rule && d.reason) { return d.rule + ": " + d.reason; }
    if (typeof d.detail === "string") { return d.detail + (res.status === 501 ? " (not available yet)" : ""); }
    if (Array.isArray(d.detail)) { return d.detail.map(x => x.msg).join("; "); }
    return "HTTP " + res.status;
  }
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) { continue; }
      if (k === "class") { node.className = v; }
      else if (k.startsWith("on")) { node.addEventListener(k.slice(2), v); }
      else { node.setAttribute(k, v === true ? "" : v); }
    }
    for (const c of children.flat(Infinity)) {
      if (c === null || c === undefined) { continue; }
      node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return node;
  }
  function stream(path, onView) {
    // Server-Sent Events; EventSource cannot set headers, so the token goes in the query.
    const src = new EventSource(path + (path.includes("?") ? "&" : "?") + "token=" + encodeURIComponent(token));
    const handler = (ev) => onView(JSON.parse(ev.data));
    src.addEventListener("gm", handler);
    src.addEventListener("player", handler);
    src.onerror = () => status("connection lost, reconnecting …", true);
    src.onopen = () => status("");
    return src;
  }
  function pct(x) { return (100 * x.value).toFixed(1) + "%"; }
  function conditionText(c) {
    return c.condition + (c.rounds ? " (" + c.rounds + " rd)" : c.duration ? " (" + c.duration.replace(/-/g, " ") + ")" : "");
  }
  return { token: () => token, api, why, el, status, stream, pct, conditionText };
})();
