"""Hexes that two maps of a game's layout both print (Typhoon 2.1: map M's column 01 is map N's column 39)
are one hex of the board: each map file must give it the same terrain, features and hexsides (HW-MAP-004).

One finding per disagreeing hex or hexside, located in the later map of the layout (the one joined on), the
earlier map's file and line named in the message and as a related location."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path

from authoring.diagnostics import Diagnostic, Loc
from authoring.diagnostics.codes import HW_MAP_004
from authoring.hexgrid import Hex, Hexside
from authoring.load.context import Ctx
from authoring.model import HexFeature, HexsideInfo, Map

CODE = HW_MAP_004
HELP = "a hex two maps share is one hex of the board: give it the same terrain, features and hexsides in both files"


def overlap_findings(order: tuple[str, ...], maps: Mapping[str, Map], ctxs: Mapping[str, Ctx]) -> list[Diagnostic]:
    """Every disagreement between two maps of the layout (`order`: its map ids) on the hexes both hold."""
    ids = [m for m in order if m in maps and m in ctxs]
    out: list[Diagnostic] = []
    for i, first in enumerate(ids):
        for later in ids[i + 1 :]:
            pair = _Pair(maps[first], ctxs[first], maps[later], ctxs[later])
            out += pair.hex_findings()
            out += pair.side_findings()
    return out


def _feature_key(f: HexFeature) -> tuple:
    return (f.type, f.name, f.kind, f.label, f.side, f.points)


def _feature_text(fs: tuple[HexFeature, ...]) -> str:
    def one(f: HexFeature) -> str:
        extra = [repr(x) for x in (f.name, f.kind, f.label, f.side) if x] + ([f"{f.points} pt"] if f.points else [])
        return f.type + (f" ({', '.join(extra)})" if extra else "")

    return ", ".join(sorted(one(f) for f in fs)) or "none"


def _where(loc: Loc) -> str:
    return f"{Path(loc.file).name}:{loc.line}:{loc.col}" if loc.line else Path(loc.file).name


class _Pair:
    """Two maps of the layout that share hexes: `a` earlier in the layout, `b` joined on it."""

    def __init__(self, a: Map, actx: Ctx, b: Map, bctx: Ctx) -> None:
        self.a, self.b, self.ctx = a, b, {a.id: actx, b.id: bctx}
        self.shared = frozenset(a.hexes.keys() & b.hexes.keys())

    def hex_findings(self) -> Iterator[Diagnostic]:
        for h in sorted(self.shared, key=self.b.label):
            ia, ib = self.a.hexes[h], self.b.hexes[h]
            what = []
            if sorted(ia.terrain) != sorted(ib.terrain):
                what.append(("terrain", " and ".join(sorted(ib.terrain)), " and ".join(sorted(ia.terrain))))
            fa, fb = sorted(map(_feature_key, ia.features)), sorted(map(_feature_key, ib.features))
            if fa != fb:
                what.append(("features", _feature_text(ib.features), _feature_text(ia.features)))
            if what:
                yield self._finding(
                    f"hex {ib.label}",
                    f"{ia.label}",
                    "; ".join(f"{kind}: {mine} here, {theirs} on map {self.a.id}" for kind, mine, theirs in what),
                    self._hex_loc(self.b, h, what[0][0]),
                    self._hex_loc(self.a, h, what[0][0]),
                )

    def side_findings(self) -> Iterator[Diagnostic]:
        sa, sb = self._sides(self.a), self._sides(self.b)
        for side in sorted(sa.keys() | sb.keys(), key=lambda s: (self.b.label(s.a), self.b.label(s.b))):
            ea, eb = sa.get(side, []), sb.get(side, [])
            if sorted(self._side_key(e) for e in ea) == sorted(self._side_key(e) for e in eb):
                continue
            yield self._finding(
                f"hexside {self.b.label(side.a)}/{self.b.label(side.b)}",
                f"{self.a.label(side.a)}/{self.a.label(side.b)}",
                f"{self._side_text(self.b, eb)} here, {self._side_text(self.a, ea)} on map {self.a.id}",
                self._side_loc(self.b, eb),
                self._side_loc(self.a, ea),
            )

    def _finding(self, here: str, there: str, differs: str, loc: Loc, other: Loc) -> Diagnostic:
        a, b = self.a.id, self.b.id
        return CODE.at(
            f"{here} of map {b} is {there} of map {a} ({_where(other)}), but the files disagree: {differs}",
            loc,
            help=HELP,
            related=(other,),
        )

    def _sides(self, m: Map) -> dict[Hexside, list[HexsideInfo]]:
        out: dict[Hexside, list[HexsideInfo]] = {}
        for s in m.hexsides:
            if s.side.a in self.shared and s.side.b in self.shared:
                out.setdefault(s.side, []).append(s)
        return out

    def _side_key(self, s: HexsideInfo) -> tuple[str, str]:
        """A hexside feature as both maps can compare it: its type and the hex it faces, by map b's id."""
        return (s.type, self.b.label(s.faces) if s.faces else "")

    @staticmethod
    def _side_text(m: Map, entries: list[HexsideInfo]) -> str:
        words = sorted(s.type + (f" facing {m.label(s.faces)}" if s.faces else "") for s in entries)
        return ", ".join(words) or "none"

    def _side_loc(self, m: Map, entries: list[HexsideInfo]) -> Loc:
        found = next((s.loc for s in entries if s.loc), None)
        return found or self._key_loc(m, "hexsides")

    def _hex_loc(self, m: Map, h: Hex, kind: str) -> Loc:
        """Where map `m`'s file gives hex `h` what differs: its terrain entry (or `default_terrain`), or its
        first feature."""
        if kind == "features" and m.hexes[h].features:
            loc = m.hexes[h].features[0].loc
            if loc:
                return loc
        label = m.label(h)
        ctx = self.ctx[m.id]
        terrain = ctx.src.data.get("terrain") or {}
        for ttype, hexes in terrain.items():
            for i, value in enumerate(hexes or ()):
                if str(value) == label:
                    return ctx.loc(("terrain", ttype, i))
        return self._key_loc(m, "default_terrain" if kind == "terrain" else "features")

    def _key_loc(self, m: Map, key: str) -> Loc:
        ctx = self.ctx[m.id]
        return ctx.loc((key,)) if key in (ctx.src.data or {}) else ctx.loc(())
