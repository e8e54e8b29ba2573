"""The corpus of real module sources (issue 30): `tests/vmod/real/manifest.yaml` says where each came from.
The sources of a module whose licence allows it are committed in tests/vmod/real/NAME (`committed: true`);
the others stay beside the project (../shared/vmod-corpus/src/NAME, never committed: no licence allows
it; `real_sources.py` rebuilds them from the repositories). `assemble(entry, folder)` zips one into
NAME.vmod as the module's build would, with generated stand-ins of the art the snapshot lacks.
"""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

import yaml
from PIL import Image

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ROOT / ".." / "shared" / "vmod-corpus" / "src"
MANIFEST = Path(__file__).with_name("real") / "manifest.yaml"
_IMAGE = re.compile(r"[^;,\t/\"<>=\\\n]+?\.(?:png|gif|jpe?g|svg)", re.I)
_SKIP = (".pdf", ".java", ".class", ".jar", ".js", ".md", ".bat", ".json")
_NOT_MODULE = ("LICENSE",)  # the licence committed beside a module's sources


def entries() -> list[dict]:
    return yaml.safe_load(MANIFEST.read_text())["modules"]


def source(entry: dict) -> Path:
    """The folder of the module's sources: committed beside the manifest, or the shared sources."""
    return MANIFEST.parent / entry["name"] if entry.get("committed") else SOURCES / entry["name"]


def available(entry: dict) -> bool:
    return source(entry).is_dir()


def assemble(entry: dict, folder: Path) -> Path:
    """NAME.vmod in `folder` from the source tree: buildFile, moduledata, saved games, images/ (also the
    folders `images_from` names), stand-ins for art it names but lacks."""
    src = source(entry)
    files: dict[str, bytes] = {}
    for path in sorted(p for p in src.rglob("*") if p.is_file()):
        rel = path.relative_to(src).as_posix()
        if rel.startswith("images/") or (
            path.parent == src and not path.name.endswith(_SKIP) and path.name not in _NOT_MODULE
        ):
            files[rel] = path.read_bytes()
    for folder_name in entry.get("images_from", []):
        for path in sorted((src / folder_name).glob("*")):
            files.setdefault(f"images/{path.name}", path.read_bytes())
    for name, rel in (entry.get("setups") or {}).items():
        files[name] = (src / rel).read_bytes()
    build = files.get("buildFile.xml") or files.get("buildFile") or b""
    text = build.decode("utf-8", "replace")
    boards = set(re.findall(r'<VASSAL\.build\.module\.map\.boardPicker\.Board [^>]*image="([^"]+)"', text))
    standins = dict(entry.get("standins") or {})
    snapshot = src / "SNAPSHOT.json"
    if snapshot.exists():  # images over 128 KiB were left out of the sources; their pixel sizes are kept
        import json

        sizes = json.loads(snapshot.read_text()).get("standin_sizes", {})
        standins.update(
            {
                rel.split("/", 1)[1] if rel.startswith("images/") else rel.rsplit("/", 1)[-1]: size
                for rel, size in sizes.items()
            }
        )
    for name in sorted(set(_IMAGE.findall(text)) | set(standins)):
        name = name.strip()
        if name and f"images/{name}" not in files:
            size = standins.get(name) or ((1200, 900) if name in boards else entry.get("piece_size", [60, 60]))
            files[f"images/{name}"] = standin(name, tuple(size))
    out = folder / f"{entry['name']}.vmod"
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in files.items():
            zf.writestr(name, data)
    return out


def standin(name: str, size: tuple[int, int]) -> bytes:
    """Art of `size` in the format the name says: an SVG rectangle, or a PNG/JPEG/GIF, of a colour taken
    from the name (two boards' stand-ins never look the same)."""
    import hashlib

    w, h = size
    colour = "#" + hashlib.sha256(name.encode()).hexdigest()[:6]
    if name.lower().endswith(".svg"):
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">'
            f'<rect width="{w}" height="{h}" fill="{colour}" stroke="#000"/></svg>'
        ).encode()
    fmt = {"jpg": "JPEG", "jpeg": "JPEG", "gif": "GIF"}.get(name.rsplit(".", 1)[-1].lower(), "PNG")
    out = io.BytesIO()
    Image.new("RGB", (w, h), colour).save(out, fmt)
    return out.getvalue()


def measure(entry: dict, work: Path, engine: bool, build: bool = True) -> dict:
    """One row of the corpus table: import exit code and seconds (in process), validation errors, `build module`
    exit code, and with `engine` the real engine's errors on the rebuilt module and the pieces it puts on
    the same location name in the set-ups of the same name (matched / the original's total)."""
    import subprocess
    import sys
    import time

    from authoring.author.import_vmod import import_vmod
    from authoring.diagnostics import has_errors
    from authoring.errors import UsageError
    from authoring.validate import validate_path

    module = assemble(entry, work)
    row = {
        "module": entry["name"],
        "import": 0,
        "validate": "-",
        "build": "-",
        "engine errors": "-",
        "on hexes": "-",
        "pieces": "-",
        "seconds": 0.0,
    }
    started = time.perf_counter()
    try:
        plan = import_vmod(module, work / "project")
    except UsageError:
        row["import"] = 2
        return row
    row["seconds"] = round(time.perf_counter() - started, 1)
    _, diags, _ = validate_path(plan.dest, rules=True)
    row["validate"] = sum(1 for d in diags if d.severity.value == "error")
    if has_errors(diags) or not build:
        return row
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "authoring.cli",
            "build",
            "module",
            plan.game_id,
            "--project",
            str(plan.dest),
            "--jobs",
            "1",
        ],
        capture_output=True,
        text=True,
        timeout=1800,
    )
    row["build"] = run.returncode
    row["build output"] = run.stdout[-2000:] + run.stderr[-2000:]
    rebuilt = plan.dest / "build" / plan.game_id / f"{plan.game_id}.vmod"
    if engine and run.returncode == 0:
        from engine import engine_report

        after = engine_report(rebuilt)
        row["engine errors"] = len(after["errors"])
        if entry.get("setups_in_module", True) and after.get("setups") is not None:
            before = engine_report(module)
            from authoring.load import discover, load_game

            game = load_game(next(iter(discover(plan.dest)))).game
            hexes = {m.grid.hex_to_label(h) for m in game.maps.values() for h in m.grid.hexes}
            row["pieces"] = _fraction(*matched(before, after))
            row["on hexes"] = _fraction(*matched(before, after, hexes)) if hexes else "-"
    return row


def matched(before: dict, after: dict, hexes: set[str] | None = None) -> tuple[int, int]:
    """(pieces of the original's set-ups found with the same name on the same location name in the rebuilt
    set-up of the same name, pieces of the original's set-ups); with `hexes`, only the pieces the original
    has on a location of that name (the imported maps' hex ids)."""
    from collections import Counter

    rebuilt = {
        s["name"]: Counter((p["name"], p.get("location")) for p in s.get("pieces", [])) for s in after.get("setups", [])
    }
    total = hit = 0
    for s in before.get("setups", []):
        if "pieces" not in s:
            continue
        want = Counter(
            (p["name"], p.get("location")) for p in s["pieces"] if hexes is None or p.get("location") in hexes
        )
        have = rebuilt.get(s["name"], Counter())
        total += sum(want.values())
        hit += sum((want & have).values())
        # a piece the original leaves unnamed is named by its counter id in the rebuilt module: it counts
        # where a piece of the rebuilt set-up, not matched otherwise, stands on its location
        spare = Counter(loc for (_, loc), n in (have - want).items() for _ in range(n))
        hit += sum(
            (Counter(loc for (name, loc), n in (want - have).items() if name == "" for _ in range(n)) & spare).values()
        )
    return hit, total


def _fraction(hit: int, total: int) -> str:
    return f"{hit}/{total}" if total else "-"


def table(rows: list[dict]) -> str:
    keys = ["module", "import", "validate", "build", "engine errors", "on hexes", "pieces", "seconds"]
    lines = ["| " + " | ".join(keys) + " |", "|" + "---|" * len(keys)]
    lines += ["| " + " | ".join(str(r.get(k, "")) for k in keys) + " |" for r in rows]
    return "\n".join(lines)
