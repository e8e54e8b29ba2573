// The map page: map image + hex outlines + counters + findings, hover panels, turn slider, drag and card export.
"use strict";
const M = {view: null, hexes: null, byLabel: new Map(), hexesKey: "", facesKey: "", moves: new Map(), zoom: 1,
           expanded: new Set(), turn: null, tilesAsked: 0, files: {}, queue: Promise.resolve(), stroke: null};

function scenarioId() { return HW.params.get("scenario") || ""; }

async function loadView() {
  const q = `game=${encodeURIComponent(HW.game)}&scenario=${encodeURIComponent(scenarioId())}`;
  const tiles = loadTiles(q).catch(() => {});   // asked at once: the picture need not wait for the set-up's checks
  // the hexes come along when their key is not `since` (only the changed ones when the server has those)
  const data = await HW.json(`/api/view?${q}&since=${M.hexes ? encodeURIComponent(M.hexesKey) : ""}`);
  HW.showErrors(data.errors);
  M.files = data.files || {};   // the digest of each data file as read now: every edit sends them back
  if (data.steps) {
    document.getElementById("undobtn").disabled = !data.steps.undo;
    document.getElementById("redobtn").disabled = !data.steps.redo;
  }
  if (!data.view) { document.body.dataset.updated = Date.now(); document.body.dataset.gen = data.gen; return; }
  let hexes = data.hexes;
  if (hexes && hexes.changed && !(M.hexes && hexes.since === M.hexesKey)) {   // changes to hexes this page lacks
    const sq = `game=${encodeURIComponent(HW.game)}&scenario=${encodeURIComponent(data.view.scenario)}`;
    hexes = await HW.json(`/api/hexes?${sq}`);
  }
  if (hexes && hexes.changed) changeHexes(hexes.changed);   // the hexes a save changed
  else if (hexes) { M.hexes = hexes; drawHexes(); }
  if (hexes) M.hexesKey = hexes.key;
  if (M.hexes) M.hexes.scenario = data.view.scenario;
  M.facesKey = data.faces_key;
  M.view = data.view;
  const notice = document.getElementById("notice");   // the label of representative maps
  notice.textContent = data.view.notice || "";
  notice.hidden = !data.view.notice;
  setupTurns();
  drawAll();
  const panel = M.panelHex && M.byLabel.get(M.panelHex);   // the hex panel shows the hex as it is now
  if (panel) showHex(panel.hex);
  document.body.dataset.updated = Date.now();   // when the page last showed new data (the bench reads it)
  document.body.dataset.gen = data.gen;
  document.body.dataset.scenario = data.view.scenario;
  await tiles;
}

// The map picture: tiles of the print's drawing, each at an address of what it shows. Only the tiles
// whose address changed are fetched; they replace the old ones together once all are in.
async function loadTiles(q) {
  const asked = ++M.tilesAsked;
  const pic = await HW.json(`/api/tiles?${q}`);
  const g = document.getElementById("maptiles");
  const have = new Map([...g.children].map((el) => [el.dataset.at, el]));
  const fresh = pic.tiles.filter(([x, y, , , id]) => { const el = have.get(`${x},${y}`); return !el || el.dataset.tile !== id; });
  const url = (id) => `/img/tile/${encodeURIComponent(HW.game)}/${id}.png`;
  await Promise.all(fresh.map(([, , , , id]) => new Promise((done) => {
    const pre = new Image(); pre.onload = pre.onerror = done; pre.src = url(id); })));
  if (asked !== M.tilesAsked) return;   // a newer picture was asked for meanwhile
  const keep = new Set(pic.tiles.map(([x, y]) => `${x},${y}`));
  for (const [at, el] of have) if (!keep.has(at)) el.remove();
  for (const [x, y, w, h, id] of fresh) {
    const at = `${x},${y}`;
    const el = have.get(at) || g.appendChild(HW.el("image", {"data-at": at, x, y, width: w, height: h}));
    el.setAttribute("href", url(id));
    el.dataset.tile = id;
  }
  document.body.dataset.mapkey = pic.key;
  document.body.dataset.mapdrawn = Date.now();   // when the picture of the newest data was in (the bench reads it)
}

function drawHexes() {
  const svg = document.getElementById("map");
  const [w, h] = M.hexes.size;
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  if (!M.zoomSet) { M.zoom = Math.min(1, document.getElementById("mapbox").clientWidth / w); M.zoomSet = true; }
  applyZoom();
  const g = document.getElementById("hexes");
  g.replaceChildren();
  M.byLabel.clear();
  M.hexes.hexes.forEach((hx, i) => {
    const p = HW.el("polygon", {class: "hex", points: hx.points, "data-id": hx.id});
    p.addEventListener("mouseenter", () => showHex(M.hexes.hexes[i]));
    g.append(p);
    for (const l of hx.labels) M.byLabel.set(l, {hex: hx, el: p});
  });
}

// Hexes whose panel changed (terrain, features, sets), in place: their outlines are where they were.
function changeHexes(changed) {
  for (const [i, hx] of changed) {
    M.hexes.hexes[i] = hx;
    for (const l of hx.labels) { const at = M.byLabel.get(l); if (at) at.hex = hx; }
  }
}

function applyZoom() {
  const svg = document.getElementById("map");
  if (!M.hexes) return;
  svg.setAttribute("width", M.hexes.size[0] * M.zoom);
  svg.setAttribute("height", M.hexes.size[1] * M.zoom);
}

function setupTurns() {
  const turns = M.view.schedule.turns;
  const slider = document.getElementById("turn");
  document.getElementById("turnbox").style.display = turns.length ? "" : "none";
  if (!turns.length) { M.turn = null; return; }
  slider.min = turns[0].turn;
  slider.max = turns[turns.length - 1].turn;
  if (M.turn === null || M.turn < +slider.min || M.turn > +slider.max) M.turn = turns[0].turn;
  slider.value = M.turn;
}

function sideShown(side) {
  const pick = document.getElementById("sidepick").value;
  return !pick || pick === side;
}

// Units on the map at the slider's turn: the set-up less withdrawals so far, plus arrivals at a single hex.
function onMap() {
  const t = M.turn, sch = M.view.schedule, gone = new Set(), out = [];
  if (t !== null) for (const w of sch.withdrawals) if (w.turn <= t) for (const u of w.units) gone.add(u.id);
  for (const p of M.view.setup) for (const u of p.units) {
    if (!gone.has(u.id)) out.push({unit: u, side: p.side, hex: M.moves.get(u.id) || p.hex, kind: "setup", from: p.hex});
  }
  if (t !== null) for (const r of sch.reinforcements) {
    if (r.turn <= t && r.hexes.length === 1) for (const u of r.units) if (!gone.has(u.id)) {
      out.push({unit: u, side: r.side, hex: r.hexes[0], kind: "arrived", from: r.hexes[0]});
    }
  }
  return out.filter((c) => sideShown(c.side));
}

function drawAll() {
  drawCounters();
  drawFindings();
  drawTurn();
  document.getElementById("turnno").textContent = M.turn === null ? "" : M.turn;
}

function drawCounters() {
  const g = document.getElementById("counters");
  g.replaceChildren();
  const f = M.hexes.f, size = f * 0.5, stacks = new Map();
  for (const c of onMap()) {
    const at = M.byLabel.get(c.hex);
    if (!at) continue;
    const k = stacks.get(c.hex) || 0;
    stacks.set(c.hex, k + 1);
    const open = M.expanded.has(c.hex);
    const dx = open ? k * size * 1.05 : k * 0.07 * f, dy = open ? 0 : -k * 0.07 * f;
    const x = at.hex.x - size / 2 + dx, y = at.hex.y - size / 2 + 0.04 * f + dy;
    const moved = M.moves.has(c.unit.id);
    const node = HW.el("g", {class: `counter ${c.kind}${moved ? " moved" : ""}`, "data-unit": c.unit.id, "data-hex": c.hex,
                             transform: `translate(${x.toFixed(1)},${y.toFixed(1)})`},
      HW.el("image", {href: HW.face(HW.game, M.facesKey, c.unit.id, c.unit.state), width: size, height: size}),
      HW.el("rect", {width: size, height: size}));
    node.addEventListener("mouseenter", () => showCounter(c));
    node.addEventListener("mouseleave", clearAllowed);
    if (c.kind === "setup") dragger(node, c, x, y); else node.addEventListener("click", () => toggleStack(c.hex));
    g.append(node);
  }
}

function toggleStack(hex) {
  if (M.expanded.has(hex)) M.expanded.delete(hex); else M.expanded.add(hex);
  drawCounters();
}

function svgPoint(evt) {
  const svg = document.getElementById("map");
  const pt = svg.createSVGPoint();
  pt.x = evt.clientX; pt.y = evt.clientY;
  return pt.matrixTransform(svg.getScreenCTM().inverse());
}

function dragger(node, c, x0, y0) {
  node.addEventListener("pointerdown", (evt) => {
    evt.preventDefault();
    const start = svgPoint(evt);
    let moved = false;
    node.setPointerCapture(evt.pointerId);
    const move = (e) => {
      const p = svgPoint(e);
      moved = moved || Math.hypot(p.x - start.x, p.y - start.y) > 3;
      node.setAttribute("transform", `translate(${x0 + p.x - start.x},${y0 + p.y - start.y})`);
    };
    const up = (e) => {
      node.removeEventListener("pointermove", move);
      node.removeEventListener("pointerup", up);
      if (!moved) { toggleStack(c.hex); return; }
      const under = document.elementsFromPoint(e.clientX, e.clientY).find((el) => el.classList && el.classList.contains("hex"));
      if (tool() === "move") { dropUnit(c.unit.id, e.clientX, e.clientY, c.from); return; }
      if (under) {
        const to = under.dataset.id;
        if (to === c.from) M.moves.delete(c.unit.id); else M.moves.set(c.unit.id, to);
      }
      drawCounters();
    };
    node.addEventListener("pointermove", move);
    node.addEventListener("pointerup", up);
  });
}

function dl(pairs) {
  return HW.el("dl", {}, pairs.filter(([, v]) => v !== "" && v !== undefined && v !== null)
    .map(([k, v]) => [HW.el("dt", {}, k), HW.el("dd", {}, v)]));
}

function showHex(hx) {
  M.panelHex = hx.id;
  const feats = hx.features.map((f) => [f.type, f.name, f.side && `(${f.side})`].filter(Boolean).join(" ")).join("; ");
  const here = M.view ? M.view.findings.filter((f) => hx.labels.includes(f.hex)).map((f) => `${f.n}. ${f.code}`).join(", ") : "";
  document.getElementById("panel").replaceChildren(HW.el("h3", {}, `Hex ${hx.id}`), dl([
    ["id", hx.labels.join(" / ")], ["terrain", hx.terrain.join(", ") || "-"], ["features", feats || "-"],
    ["hexsides", hx.hexsides.join("; ") || "-"], ["hex sets", hx.sets.join(", ") || "-"], ["findings", here]]));
}

function clearAllowed() {
  for (const el of document.querySelectorAll("#hexes .allowed")) el.classList.remove("allowed");
}

function showCounter(c) {
  M.panelHex = null;
  const info = M.view.counters[c.unit.id] || {id: c.unit.id, faces: [], code: ""};
  clearAllowed();
  const allowed = info.allowed === null || info.allowed === undefined ? null : M.view.targets[info.allowed];
  if (allowed) for (const l of allowed) { const at = M.byLabel.get(l); if (at) at.el.classList.add("allowed"); }
  const values = info.faces.map((f) => `${f.state}: ${Object.entries(f.values).map(([k, v]) => `${k} ${v}`).join(", ")}`).join("; ");
  document.getElementById("panel").replaceChildren(HW.el("h3", {}, `Counter ${c.unit.id}`), dl([
    ["name", info.name], ["side", info.side], ["type", [info.type, info.size].filter(Boolean).join(", ")],
    ["state", c.unit.state], ["values", values], ["hex", c.hex], ["code", info.code || "-"],
    ["code says", info.meaning], ["allowed hexes", allowed ? `${allowed.length} highlighted` : "-"]]));
}

function drawFindings() {
  const rings = document.getElementById("rings"), badges = document.getElementById("badges");
  rings.replaceChildren(); badges.replaceChildren();
  const f = M.hexes.f, perHex = new Map(), box = document.getElementById("findings");
  const list = M.view.findings.filter((d) => !d.hex || !M.byLabel.has(d.hex) || true);
  for (const d of list) {
    const at = d.hex && M.byLabel.get(d.hex);
    if (!at) continue;
    const k = perHex.get(d.hex) || 0;
    perHex.set(d.hex, k + 1);
    if (k === 0) rings.append(HW.el("polygon", {class: `ring ${d.severity}`, points: at.el.getAttribute("points")}));
    const bx = at.hex.x + 0.42 * f - k * 0.2 * f, by = at.hex.y - 0.36 * f;
    badges.append(HW.el("g", {class: `badge ${d.severity}`, "data-n": d.n},
      HW.el("circle", {cx: bx, cy: by, r: 0.11 * f}), HW.el("text", {x: bx, y: by, "font-size": 0.13 * f}, d.n),
      HW.el("title", {}, `${d.code}: ${d.message}`)));
  }
  box.replaceChildren(HW.el("h3", {}, `Findings (${list.length})`));
  if (!list.length) { box.append(HW.el("p", {class: "clean"}, "No findings: this set-up passes every check.")); return; }
  box.append(HW.el("ol", {}, list.map((d) => HW.el("li", {"data-hex": d.hex, onclick: () => jump(d.hex)},
    HW.el("b", {class: d.severity}, d.code), d.hex ? ` [${d.hex}]` : "", ": ", d.message,
    d.rule ? HW.el("div", {}, "rule: " + d.rule) : null, HW.el("div", {class: "where"}, HW.where(d))))));
}

function jump(label) {
  const at = label && M.byLabel.get(label);
  if (!at) return;
  const box = document.getElementById("mapbox");
  box.scrollTo({left: at.hex.x * M.zoom - box.clientWidth / 2, top: at.hex.y * M.zoom - box.clientHeight / 2});
  at.el.classList.add("flash");
  showHex(at.hex);
  setTimeout(() => at.el.classList.remove("flash"), 1500);
}

function unitList(units) {
  return HW.el("span", {class: "units"}, units.map((u) => HW.el("img", {src: HW.face(HW.game, M.facesKey, u.id, u.state),
    title: u.id, alt: u.id, "data-unit": u.id, draggable: "true",
    ondragstart: (e) => { e.dataTransfer.setData("text/x-hexwright-unit", u.id); e.stopPropagation(); }})));
}

function drawTurn() {
  const box = document.getElementById("turninfo");
  box.replaceChildren();
  for (const el of document.querySelectorAll("#hexes .entry")) el.classList.remove("entry");
  if (M.turn === null) return;
  const sch = M.view.schedule, t = M.turn, turn = sch.turns.find((x) => x.turn === t) || {};
  box.append(HW.el("p", {}, [turn.date, turn.weather].filter(Boolean).join(", ")));
  const now = sch.reinforcements.filter((r) => r.turn === t && sideShown(r.side));
  const later = sch.reinforcements.filter((r) => r.turn > t && sideShown(r.side));
  const gone = sch.withdrawals.filter((r) => r.turn === t && sideShown(r.side));
  drawTurnSlots();
  for (const r of now) {
    for (const l of r.hexes) { const at = M.byLabel.get(l); if (at) at.el.classList.add("entry"); }
    box.append(arrivalRow(r));
  }
  for (const r of gone) box.append(HW.el("div", {}, `Withdrawn (${r.side}): `, unitList(r.units)));
  const waiting = later.reduce((n, r) => n + r.units.length, 0);
  box.append(HW.el("div", {}, `Still to come: ${waiting} unit${waiting === 1 ? "" : "s"}`));
  const pools = sch.pools.filter((p) => sideShown(p.side));
  if (pools.length) box.append(HW.el("details", {}, HW.el("summary", {}, `${pools.length} pool${pools.length > 1 ? "s" : ""}`),
    pools.map((p) => HW.el("div", {"data-drop": "pool", "data-id": p.id, ...dropsUnit({pool: p.id})}, `${p.name} (${p.side}${p.available !== null ? ", " + p.available + " available" : ""}${p.at ? ", at " + p.at : ""}): `, unitList(p.units)))));
  for (const o of sch.off_map.filter((o) => sideShown(o.side))) box.append(HW.el("div", {"data-drop": "box", "data-id": o.box, ...dropsUnit({box: o.box})}, `Box ${o.box} (${o.side}): `, unitList(o.units)));
}

async function exportCard() {
  const side = document.getElementById("sidepick").value || (M.view.sides[0] || {}).id;
  const rows = [];
  for (const p of M.view.setup) if (p.side === side) for (const u of p.units) {
    rows.push({hex: M.moves.get(u.id) || p.hex, unit: u.id, state: u.state});
  }
  const out = document.getElementById("exported");
  const res = await HW.json("/api/export", {method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify({game: HW.game, scenario: M.view.scenario, side, rows})});
  const link = HW.el("a", {download: res.name, href: URL.createObjectURL(new Blob([res.csv], {type: "text/csv"}))}, `download ${res.name}`);
  const list = res.findings.length ? HW.el("ol", {}, res.findings.map((d) => HW.el("li", {onclick: () => jump(d.hex)},
    HW.el("b", {class: d.severity}, d.code), d.hex ? ` [${d.hex}]` : "", ": ", d.message, HW.el("div", {class: "where"}, HW.where(d)))))
    : HW.el("p", {class: "clean"}, "The card passes every check.");
  out.replaceChildren(HW.el("p", {}, `${side}: ${rows.length} units, `, link), HW.el("textarea", {readonly: ""}, res.csv),
                      HW.el("h3", {}, `Card findings (${res.findings.length})`), list);
  out.dataset.findings = res.findings.length;
}

async function onGame() {
  const game = HW.games.find((g) => g.id === HW.game) || {scenarios: [], sides: []};
  const pick = document.getElementById("scenario"), sides = document.getElementById("sidepick");
  for (const s of game.scenarios) pick.append(HW.el("option", {value: s.id}, s.name));
  if (scenarioId()) pick.value = scenarioId(); else if (game.scenarios.length) HW.setParam("scenario", game.scenarios[0].id);
  pick.addEventListener("change", () => { HW.setParam("scenario", pick.value); M.moves.clear(); M.turn = null; loadView(); });
  for (const s of game.sides) sides.append(HW.el("option", {value: s.id}, s.name));
  sides.value = HW.params.get("side") || "";
  sides.addEventListener("change", () => { HW.setParam("side", sides.value); drawAll(); });
  document.getElementById("turn").addEventListener("input", (e) => { M.turn = +e.target.value; drawAll(); });
  document.getElementById("exportbtn").addEventListener("click", exportCard);
  document.getElementById("resetbtn").addEventListener("click", () => { M.moves.clear(); drawCounters(); });
  await setupEditing();
  document.getElementById("zoomin").addEventListener("click", () => { M.zoom *= 1.25; applyZoom(); });
  document.getElementById("zoomout").addEventListener("click", () => { M.zoom /= 1.25; applyZoom(); });
  await loadView();
}

// ---- Editing the data: every edit is one POST naming what changes by value, with the digests of the
// files as this page last read them (a file changed on disk meanwhile is refused: 409, and the page reloads).

function tool() { return document.getElementById("tool").value; }

async function setupEditing() {
  const pal = await HW.json(`/api/palette?game=${encodeURIComponent(HW.game)}`).catch(() => ({terrain: [], hexsides: [], paths: []}));
  const terrain = document.getElementById("terrainpick"), sides = document.getElementById("hexsidepick");
  terrain.replaceChildren(...pal.terrain.map((t) => HW.el("option", {value: t.id}, t.name)));
  // hexside features and path types (roads, rails) both edit at a hexside: the value says which edit
  const group = (label, kind, types) => types.length ? [HW.el("optgroup", {label},
    ...types.map((t) => HW.el("option", {value: `${kind}:${t.id}`}, t.name)))] : [];
  sides.replaceChildren(...group("hexside features", "hexside", pal.hexsides), ...group("paths", "path", pal.paths || []));
  const pick = document.getElementById("tool"), svg = document.getElementById("map");
  const shown = () => {
    svg.setAttribute("class", `tool-${tool()}`);
    terrain.hidden = tool() !== "paint"; sides.hidden = tool() !== "hexside";
  };
  pick.value = HW.params.get("tool") || "look";
  pick.addEventListener("change", () => { HW.setParam("tool", pick.value); shown(); });
  shown();
  svg.addEventListener("pointerdown", onMapDown);
  svg.addEventListener("pointermove", onMapMove);
  window.addEventListener("pointerup", () => { M.stroke = null; });
  svg.addEventListener("dragover", (e) => e.preventDefault());
  svg.addEventListener("drop", (e) => {
    const unit = e.dataTransfer.getData("text/x-hexwright-unit");
    if (unit) { e.preventDefault(); dropUnit(unit, e.clientX, e.clientY, null); }
  });
  document.getElementById("undobtn").addEventListener("click", () => step("undo"));
  document.getElementById("redobtn").addEventListener("click", () => step("redo"));
  document.addEventListener("keydown", (e) => {
    if (!(e.ctrlKey || e.metaKey) || ["INPUT", "TEXTAREA", "SELECT"].includes(e.target.tagName)) return;
    if (e.key === "z" && !e.shiftKey) { e.preventDefault(); step("undo"); }
    else if (e.key === "y" || (e.key === "Z" && e.shiftKey)) { e.preventDefault(); step("redo"); }
  });
}

function hexUnder(x, y) {
  return document.elementsFromPoint(x, y).find((el) => el.classList && el.classList.contains("hex"));
}

function onMapDown(evt) {
  if (tool() === "paint") {
    const el = hexUnder(evt.clientX, evt.clientY);
    if (!el) return;
    evt.preventDefault();
    M.stroke = new Set();
    paintHex(el.dataset.id);
  } else if (tool() === "hexside") {
    const side = hexsideAt(svgPoint(evt)), [kind, type] = document.getElementById("hexsidepick").value.split(":");
    if (side && type && (kind === "hexside" || side.hexes.length === 2)) { evt.preventDefault(); queueEdit({kind, type, ...side}); }
  }
}

function onMapMove(evt) {
  if (!M.stroke || tool() !== "paint" || !evt.buttons) return;
  const el = hexUnder(evt.clientX, evt.clientY);
  if (el) paintHex(el.dataset.id);
}

function paintHex(label) {
  if (M.stroke.has(label)) return;
  M.stroke.add(label);
  const at = M.byLabel.get(label), terrain = document.getElementById("terrainpick").value;
  if (at && at.hex.terrain.length === 1 && at.hex.terrain[0] === terrain) return;   // already so
  queueEdit({kind: "paint", hex: label, terrain});
}

// The hexside nearest a point: the side of the hex under it nearest the point, between that hex and the one
// beyond it ({hexes: [a, b]}), or on the map edge when no hex is beyond ({hexes: [a], side: direction}).
function hexsideAt(p) {
  let best = null;
  for (const hx of M.hexes.hexes) {
    const d = Math.hypot(hx.x - p.x, hx.y - p.y);
    if (!best || d < best.d) best = {hx, d};
  }
  if (!best || best.d > M.hexes.f) return null;
  const hx = best.hx, pts = hx.points.split(" ").map((xy) => xy.split(",").map(Number));
  let k = 0, near = Infinity, mid = null;
  for (let i = 0; i < 6; i++) {   // corner i to i + 1: the side toward direction i + 2 (hexgrid.layout)
    const m = [(pts[i][0] + pts[(i + 1) % 6][0]) / 2, (pts[i][1] + pts[(i + 1) % 6][1]) / 2];
    const d = Math.hypot(m[0] - p.x, m[1] - p.y);
    if (d < near) { near = d; k = i; mid = m; }
  }
  const far = [2 * mid[0] - hx.x, 2 * mid[1] - hx.y];
  const other = M.hexes.hexes.find((o) => Math.hypot(o.x - far[0], o.y - far[1]) < M.hexes.f * 0.25);
  return other ? {hexes: [hx.labels, other.labels]} : {hexes: [hx.labels], side: (k + 2) % 6};
}

// A unit dropped at a point: on a hex, or on a box, pool or turn of the turn box.
function dropUnit(unit, x, y, from) {
  const target = document.elementsFromPoint(x, y).find((el) => el.dataset && el.dataset.drop);
  if (target) {
    const id = target.dataset.drop === "turn" ? +target.dataset.id : target.dataset.id;
    queueEdit({kind: "move", scenario: M.view.scenario, unit, to: {[target.dataset.drop]: id}});
    return;
  }
  const el = hexUnder(x, y);
  if (el && el.dataset.id !== from) queueEdit({kind: "move", scenario: M.view.scenario, unit, to: {hex: el.dataset.id}});
  else drawCounters();
}

// A box or pool row takes a face dragged from another row (HTML drag and drop; the map's counters use pointers).
function dropsUnit(to) {
  return {ondragover: (e) => e.preventDefault(), ondrop: (e) => {
    const unit = e.dataTransfer.getData("text/x-hexwright-unit");
    if (unit) { e.preventDefault(); queueEdit({kind: "move", scenario: M.view.scenario, unit, to}); }
  }};
}

function drawTurnSlots() {
  const box = document.getElementById("turnslots");
  box.replaceChildren(...M.view.schedule.turns.map((t) => HW.el("button", {"data-drop": "turn", "data-id": t.turn,
    class: t.turn === M.turn ? "now" : "", title: [t.date, t.weather].filter(Boolean).join(", "),
    onclick: () => { M.turn = t.turn; document.getElementById("turn").value = t.turn; drawAll(); },
    ondragover: (e) => e.preventDefault(),
    ondrop: (e) => dropOnTurn(e, t.turn)}, t.turn)));
}

function dropOnTurn(e, turn) {
  e.preventDefault();
  const arrival = e.dataTransfer.getData("text/x-hexwright-arrival"), unit = e.dataTransfer.getData("text/x-hexwright-unit");
  if (arrival) { const a = JSON.parse(arrival); moveArrival(a.units, a.turn, turn); }
  else if (unit) queueEdit({kind: "move", scenario: M.view.scenario, unit, to: {turn}});
}

function arrivalRow(r) {
  const ids = r.units.map((u) => u.id);
  const input = HW.el("input", {type: "number", value: r.turn, min: 1, title: "turn of arrival", class: "arrturn",
    onchange: (e) => moveArrival(ids, r.turn, +e.target.value)});
  return HW.el("div", {class: "arrive", draggable: "true", "data-units": ids.join(" "),
    ondragstart: (e) => e.dataTransfer.setData("text/x-hexwright-arrival", JSON.stringify({units: ids, turn: r.turn}))},
    `Arriving (${r.side})${r.at ? " at " + r.at : ""} on turn `, input, ": ", unitList(r.units));
}

function moveArrival(units, turn, toTurn) {
  if (toTurn !== turn && toTurn > 0) queueEdit({kind: "arrival", scenario: M.view.scenario, units, turn, to_turn: toTurn});
}

// Edits go one after another: each sends the digests the one before it left.
function queueEdit(body) {
  M.queue = M.queue.then(() => post("/api/edit", {game: HW.game, ...body, files: M.files})).catch(() => {});
  return M.queue;
}

function step(which) {
  M.queue = M.queue.then(() => post(`/api/${which}`, {game: HW.game})).catch(() => {});
  return M.queue;
}

async function post(url, body) {
  const r = await fetch(url, {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
  const res = await r.json().catch(() => ({error: r.statusText}));
  const status = document.getElementById("editstatus");
  if (r.ok) {
    Object.assign(M.files, res.files);
    status.className = "ok";
    status.replaceChildren(`${res.what} (${Object.keys(res.files).join(", ")})`);
    document.getElementById("undobtn").disabled = !res.undo;
    document.getElementById("redobtn").disabled = !res.redo;
    document.body.dataset.edited = Object.values(res.files).join(" ");
  } else if (r.status === 409 && res.conflict) {
    status.className = "conflict";
    status.replaceChildren(res.error);
    document.body.dataset.conflict = res.conflict;
  } else {
    status.className = "refused";
    status.replaceChildren(`Not written: ${res.error}`, res.findings && res.findings.length ? HW.el("ol", {}, res.findings.map((d) =>
      HW.el("li", {}, HW.el("b", {class: d.severity}, d.code), `: ${d.message} `, HW.el("span", {class: "where"}, HW.where(d))))) : "");
  }
  status.dataset.status = r.status;
  try { await loadView(); } finally {   // counted once the page shows the data after it
    document.body.dataset.edits = (+(document.body.dataset.edits || 0) + 1);
  }
}

HW.start("/", onGame, () => loadView());
