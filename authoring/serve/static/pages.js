// The counters, cards and charts pages: pictures drawn by the print renderers, redrawn on every save.
"use strict";
const G = () => encodeURIComponent(HW.game);

async function withErrors(url) {
  const view = await HW.json(`/api/view?game=${G()}`);
  HW.showErrors(view.errors);
  const data = await HW.json(url);
  document.body.dataset.gen = view.gen;
  return data;
}

const PAGES = {
  async counters() {
    const data = await withErrors(`/api/counters?game=${G()}`);
    const grid = HW.el("div", {class: "grid"}, data.counters.map((c) => HW.el("div", {class: "card", "data-unit": c.id},
      HW.el("div", {class: "faces"}, c.faces.map((f) => HW.el("img", {src: HW.face(HW.game, data.faces_key, c.id, f.state), alt: `${c.id} ${f.state}`, title: f.state}))),
      HW.el("b", {}, c.id), c.name ? ` ${c.name}` : "", HW.el("div", {}, [c.side, c.code && `code ${c.code}`, c.quantity > 1 && `x${c.quantity}`].filter(Boolean).join(", ")),
      c.faces.map((f) => HW.el("div", {class: "where"}, `${f.state}: ${Object.entries(f.values).map(([k, v]) => `${k} ${v}`).join(", ")}`)))));
    document.getElementById("content").replaceChildren(HW.el("p", {class: "pages"}, `${data.counters.length} counters`), grid);
  },
  async cards() {
    const data = await withErrors(`/api/cards?game=${G()}`);
    const box = HW.el("div", {class: "pages"});
    for (const c of data.cards) {
      const base = `/img/card/${G()}/${data.gen}/${encodeURIComponent(c.scenario)}/${encodeURIComponent(c.side)}`;
      const count = (await HW.json(`${base}/count`)).pages;
      box.append(HW.el("h3", {}, `${c.name}: ${c.side_name}`));
      for (let i = 0; i < count; i++) box.append(HW.el("img", {src: `${base}/${i}`, alt: `${c.scenario} ${c.side} page ${i + 1}`}));
    }
    document.getElementById("content").replaceChildren(box);
  },
  async charts() {
    const data = await withErrors(`/api/charts?game=${G()}`);
    const box = HW.el("div", {class: "pages"});
    for (const t of data.tables) {
      box.append(HW.el("h3", {}, t.name + (t.rule ? ` (${t.rule})` : "")));
      if (t.label) box.append(HW.el("p", {class: "notice"}, t.label));   // representative data says so
      box.append(HW.el("img", {src: `/img/chart/${G()}/${data.gen}/table/${encodeURIComponent(t.id)}.png`, alt: t.name}));
    }
    for (const s of data.tracks) {
      box.append(HW.el("h3", {}, `Turn record track: ${s.name}`));
      if (s.label) box.append(HW.el("p", {class: "notice"}, s.label));
      box.append(HW.el("img", {src: `/img/chart/${G()}/${data.gen}/track/${encodeURIComponent(s.id)}.png`, alt: s.name}));
    }
    document.getElementById("content").replaceChildren(box);
  },
};
