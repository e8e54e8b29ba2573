// hexwright serve: what every page shares (game choice, live events, helpers). Plain JS, no libraries.
"use strict";
const HW = {
  params: new URLSearchParams(location.search),
  el(tag, attrs, ...children) {
    const svg = ["svg", "g", "polygon", "image", "rect", "circle", "text", "title"].includes(tag);
    const e = svg ? document.createElementNS("http://www.w3.org/2000/svg", tag) : document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") e.setAttribute("class", v);
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else if (v !== undefined && v !== null) e.setAttribute(k, v);
    }
    for (const c of children.flat(Infinity)) if (c !== null && c !== undefined) e.append(c.nodeType ? c : String(c));
    return e;
  },
  async json(url, options) {
    const r = await fetch(url, options);
    if (!r.ok) throw new Error((await r.json().catch(() => ({}))).error || r.statusText);
    return r.json();
  },
  game: "",
  games: [],
  where(f) { return f.file ? `${f.file}${f.line ? ":" + f.line + (f.col ? ":" + f.col : "") : ""}` : ""; },
  face(game, key, unit, state) {
    return `/img/face/${encodeURIComponent(game)}/${key}/${encodeURIComponent(unit)}/${encodeURIComponent(state || "-")}.png`;
  },
  setParam(name, value) {
    HW.params.set(name, value);
    history.replaceState(null, "", "?" + HW.params.toString());
  },
  // The header: navigation keeping the game, the game chooser, the live indicator; then `onGame` and live reloads.
  async start(here, onGame, onUpdate) {
    const data = await HW.json("/api/games");
    HW.games = data.games;
    HW.game = HW.params.get("game") || data.default;
    const nav = document.getElementById("nav");
    for (const [path, name] of [["/", "Map"], ["/counters", "Counters"], ["/cards", "Cards"], ["/charts", "Charts"]]) {
      nav.append(HW.el("a", {href: `${path}?game=${encodeURIComponent(HW.game)}`, class: path === here ? "here" : ""}, name));
    }
    const pick = document.getElementById("game");
    for (const g of HW.games) pick.append(HW.el("option", {value: g.id}, g.name));
    pick.value = HW.game;
    pick.addEventListener("change", () => { location.search = "?game=" + encodeURIComponent(pick.value); });
    await onGame();
    const live = document.getElementById("live");
    const events = new EventSource("/events");
    events.addEventListener("hello", () => { live.className = "on"; live.textContent = "live"; });
    events.onerror = () => { live.className = "off"; live.textContent = "reconnecting"; };
    events.addEventListener("update", (e) => {
      const u = JSON.parse(e.data);
      if (u.game === HW.game) onUpdate(u);
    });
  },
  showErrors(errors) {
    const box = document.getElementById("errors");
    box.replaceChildren();
    box.className = errors.length ? "shown" : "";
    if (!errors.length) return;
    box.append(HW.el("h2", {}, `The data has ${errors.length} error${errors.length > 1 ? "s" : ""}: the last good view is kept below`));
    const ol = HW.el("ol", {});
    for (const f of errors) {
      ol.append(HW.el("li", {class: "located"}, HW.el("span", {class: "where"}, HW.where(f)), ": ",
        HW.el("b", {class: f.severity}, f.code), ": ", f.message, f.help ? HW.el("div", {class: "where"}, "help: " + f.help) : null));
    }
    box.append(ol);
  },
};
