"""Generate a synthetic large game for benchmarks: 3 maps of 60x45 hexes, 1,080 two-sided counters, 5 scenarios.

Deterministic (seeded), written as ordinary game files so every benchmark runs the real loader.
`scale` multiplies the number of counters and placed units (for the linear-growth benchmark).
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

COLS, ROWS = 60, 45
MAPS = {"N": (0, 0), "M": (COLS - 1, 0), "P": (0, ROWS - 1)}
TERRAIN = ["clear", "woods", "hills", "swamp", "marsh"]
SIDES = ["axis", "soviet"]


def _label(prefix: str, c: int, r: int) -> str:
    return f"{prefix}{c:02d}{r:02d}"


def _shared(prefix: str, c: int, r: int) -> bool:
    """Whether the hex is one another map also holds (N's last column is M's first, N's last row P's first):
    the random terrain, towns and rivers leave those alone, so the maps agree where they overlap."""
    return {"N": c == COLS or r == ROWS, "M": c == 1, "P": r == 1}[prefix]


def _game(out: Path) -> None:
    layout = "\n".join(f"  {m}: {{origin: [{o[0]}, {o[1]}]}}" for m, o in MAPS.items())
    (out / "scenarios/synth/game.yaml").write_text(
        f"""kind: game
id: synth
name: Synthetic Large Game
rules_ref: Synth
sides:
  - {{id: axis, name: Axis, color: "#8fa3b8"}}
  - {{id: soviet, name: Soviet, color: "#c9a36b"}}
terrain:
{chr(10).join(f"  - {{id: {t}, name: {t.title()}}}" for t in TERRAIN)}
hex_features:
  - {{id: city, name: City, symbol: city}}
  - {{id: supply, name: Supply source, symbol: supply}}
hexside_features:
  - {{id: river, name: River, style: river}}
paths:
  - {{id: rail, name: Railroad, style: rail}}
unit_types:
  - {{id: infantry, name: Infantry, symbol: infantry}}
  - {{id: armor, name: Armor, symbol: armor}}
unit_sizes:
  - {{id: division, name: Division, mark: XX}}
values:
  - {{id: attack, name: Attack}}
  - {{id: defence, name: Defence}}
  - {{id: movement, name: Movement}}
strength_states:
  - {{id: full, name: Full}}
  - {{id: reduced, name: Reduced}}
flags:
  - {{id: motorized, name: Motorized, value_style: box}}
stacking: {{model: points, limit: 10, rule: "3.2"}}
layout:
{layout}
hex_sets:
  west: {{edge: west}}
""",
        encoding="utf-8",
    )


def _map(out: Path, prefix: str, rng: random.Random) -> None:
    # M starts on an odd global column, so its printed even columns are the unshifted ones (2.1: shared cells)
    shifted = "odd" if MAPS[prefix][0] % 2 else "even"
    lines = [
        f"kind: map\nid: {prefix}\nname: Map {prefix}\ngame: synth",
        f"grid: {{orientation: flat, columns: {COLS}, rows: {ROWS}, shifted: {shifted}, "
        f"label: {{prefix: {prefix}}}, hex_size: 0.75in}}",
        "terrain:",
    ]
    for t in TERRAIN[1:]:
        drawn = ((rng.randint(1, COLS), rng.randint(1, ROWS)) for _ in range(300))
        hexes = sorted({_label(prefix, c, r) for c, r in drawn if not _shared(prefix, c, r)})
        lines.append(f"  {t}: [{', '.join(hexes)}]")
    lines.append("features:\n  city:")
    for i in range(20):
        c, r = rng.randint(1, COLS), rng.randint(1, ROWS)
        if not _shared(prefix, c, r):
            lines.append(f"    {_label(prefix, c, r)}: {{name: Town {prefix}{i}}}")
    lines.append("hexsides:\n  river:")
    for c in range(1, COLS + 1, 3):
        for r in range(1, ROWS):
            if not (_shared(prefix, c, r) and _shared(prefix, c, r + 1)):
                lines.append(f"    - [{_label(prefix, c, r)}, {_label(prefix, c, r + 1)}]")
    lines.append("paths:\n  rail:")
    for r in range(5, ROWS, 10):
        column = 1 + r
        lines.append(
            f"    - {{name: Line {r}, hexes: [{', '.join(_label(prefix, column, rr) for rr in range(1, ROWS + 1))}]}}"
        )
    (out / f"maps/synth/{prefix}.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")


def _counters(out: Path, n: int, rng: random.Random) -> list[tuple[str, str]]:
    rows = [
        "id,side,type,size,designation,stacking,flags,full.attack,full.defence,full.movement,"
        "reduced.attack,reduced.defence,reduced.movement"
    ]
    ids = []
    for i in range(n):
        side = SIDES[i % 2]
        armor = i % 5 == 0
        a, d = rng.randint(2, 12), rng.randint(2, 12)
        rows.append(
            f"u{i:05d},{side},{'armor' if armor else 'infantry'},division,{i},{rng.randint(1, 3)},"
            f"{'motorized' if armor else ''},{a},{d},{8 if armor else 4},{a // 2},{d // 2},{8 if armor else 4}"
        )
        ids.append((f"u{i:05d}", side))
    (out / "counters/synth/units.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    return ids


def _scenarios(out: Path, ids: list[tuple[str, str]], count: int) -> None:
    for s in range(count):
        lines = [f"kind: scenario\nid: s{s}\nname: Scenario {s}\nmaps: [N, M, P]", "turns:"]
        lines += [f"  - {{turn: {t}, date: 'Day {t}', weather: clear}}" for t in range(1, 21)]
        lines.append("setup:")
        by_side: dict[str, list[str]] = {"axis": [], "soviet": []}
        placed, reinf = ids[: len(ids) * 3 // 4], ids[len(ids) * 3 // 4 :]
        for k, (uid, side) in enumerate(placed):
            col = 1 + (k // 2) % 28 + (0 if side == "axis" else 30)
            row = 1 + (k // 56) % ROWS
            # every map gets a third of the units, one unit a hex: a side's (col, row) takes one of its three
            # maps per 2,520 placements (the rows' wrap), so 4x (3,240 placed) stacks no more than 1x
            prefix = "NMP"[(k + k // (56 * ROWS)) % 3]
            by_side[side].append(f"    - {{hex: {_label(prefix, col, row)}, units: [{uid}]}}")
        for side, entries in by_side.items():
            lines.append(f"  {side}:")
            lines += entries
        lines.append("reinforcements:")
        lines += [
            f"  - {{turn: {2 + k % 18}, side: {side}, units: [{uid}], at: west}}" for k, (uid, side) in enumerate(reinf)
        ]
        (out / f"scenarios/synth/s{s}.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")


def generate(out: Path, scale: int = 1, counters: int = 1080, scenarios: int = 5) -> Path:
    rng = random.Random(1941)
    for sub in ("scenarios/synth", "maps/synth", "counters/synth"):
        (out / sub).mkdir(parents=True, exist_ok=True)
    _game(out)
    for prefix in MAPS:
        _map(out, prefix, rng)
    _scenarios(out, _counters(out, counters * scale, rng), scenarios)
    return out


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("out", type=Path)
    ap.add_argument("--scale", type=int, default=1)
    args = ap.parse_args()
    print(generate(args.out, args.scale))
