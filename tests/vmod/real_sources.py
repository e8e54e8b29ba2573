"""Lays out one corpus module's sources from a git snapshot of its repository (a bare git directory) the way
`real_corpus.assemble` reads them: the top-level module files (buildFile, moduledata, saved games, help
pages), `images/` (and the folders `images_from` names, and `subdir` when the module lives in one), and the
set-up files; an image over the size limit is left out and its pixel size kept in SNAPSHOT.json
(`standin_sizes`), a file the snapshot lacks is listed under `missing`.

    python tests/vmod/real_sources.py MANIFEST MIRRORS OUT [NAME ...]

MIRRORS holds OWNER+NAME/repo git directories; OUT/NAME is written for each module of the manifest (or the
named ones). Not used by the tests themselves: it rebuilds their sources.
"""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import yaml
from PIL import Image

LIMIT = 128 * 1024
KEEP = ("buildFile", "buildFile.xml", "moduledata", "extensiondata")
KEEP_EXT = (".vsav", ".vlog", ".properties", ".html")
_UNITS = {"px": 1.0, "pt": 1.25, "in": 90.0, "mm": 90 / 25.4, "cm": 90 / 2.54}


def _git(git: str, *args: str) -> bytes | None:
    """The command's output, None when it fails (a blob the snapshot lists but lacks)."""
    run = subprocess.run(["git", "--git-dir", git, *args], capture_output=True)
    return run.stdout if run.returncode == 0 else None


def svg_size(data: bytes) -> list[int] | None:
    """An SVG's width and height in pixels (from its width/height, else its viewBox)."""
    tag = re.search(r"<svg\b[^>]*>", data[:8000].decode("utf-8", "replace"), re.S)
    if not tag:
        return None
    dims = []
    for attr in ("width", "height"):
        m = re.search(rf'\b{attr}="([\d.]+)\s*(px|pt|in|mm|cm)?"', tag.group(0))
        dims.append(round(float(m.group(1)) * _UNITS[m.group(2) or "px"]) if m else None)
    if all(dims):
        return dims
    box = re.search(r'viewBox="\s*[-\d.]+[ ,]+[-\d.]+[ ,]+([\d.]+)[ ,]+([\d.]+)', tag.group(0))
    return [round(float(box.group(1))), round(float(box.group(2)))] if box else None


def image_size(name: str, data: bytes) -> list[int] | None:
    if name.lower().endswith(".svg") or data.lstrip()[:5] in (b"<?xml", b"<svg "):
        return svg_size(data)
    try:
        return list(Image.open(io.BytesIO(data)).size)
    except Exception:  # not an image the library reads: no stand-in size
        return None


def wanted(rel: str, folders: list[str], setups: set[str]) -> bool:
    if rel in setups:
        return True
    if "/" not in rel:
        return rel in KEEP or rel.lower().endswith(KEEP_EXT)
    return rel.split("/", 1)[0] in folders


def layout(entry: dict, git: str, out: Path) -> dict:
    """Writes the sources of `entry` at its commit into `out`; returns the SNAPSHOT record."""
    commit, sub = entry["commit"], entry.get("subdir", "").strip("/")
    limit = entry.get("image_limit", LIMIT)
    folders = ["images", *entry.get("images_from", [])]
    setups = set((entry.get("setups") or {}).values())
    snap = {"repo": entry["repo"], "commit": commit, "missing": [], "standin_sizes": {}}
    if entry.get("vmod"):  # the sources are a module file in the repository: its parts
        with zipfile.ZipFile(io.BytesIO(_git(git, "cat-file", "blob", f"{commit}:{entry['vmod']}"))) as zf:
            for name in zf.namelist():
                if wanted(name, folders, setups) and not name.endswith("/"):
                    (out / name).parent.mkdir(parents=True, exist_ok=True)
                    (out / name).write_bytes(zf.read(name))
        (out / "SNAPSHOT.json").write_text(json.dumps(snap, indent=1, sort_keys=True) + "\n")
        return snap
    listing = _git(git, "ls-tree", "-r", "-l", "-z", commit)
    if listing is None:
        raise SystemExit(f"{git}: no commit {commit}")
    for line in filter(None, listing.decode().split("\0")):
        meta, path = line.split("\t", 1)
        if sub and not path.startswith(sub + "/"):
            continue
        rel = path[len(sub) + 1 :] if sub else path
        if not wanted(rel, folders, setups):
            continue
        data = None if meta.split()[3] == "-" else _git(git, "cat-file", "blob", f"{commit}:{path}")
        if data is None:
            snap["missing"].append(rel)
            continue
        if "/" in rel and rel not in setups and len(data) > limit:
            size = image_size(rel, data)
            if size:
                snap["standin_sizes"][rel] = size
            continue
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).write_bytes(data)
    (out / "SNAPSHOT.json").write_text(json.dumps(snap, indent=1, sort_keys=True) + "\n")
    return snap


def main(argv: list[str]) -> None:
    manifest, mirrors, out = map(Path, argv[:3])
    for entry in yaml.safe_load(manifest.read_text())["modules"]:
        if argv[3:] and entry["name"] not in argv[3:]:
            continue
        snap = layout(entry, str(mirrors / entry["repo"].replace("/", "+") / "repo"), out / entry["name"])
        print(entry["name"], "missing", len(snap["missing"]), "stand-ins", len(snap["standin_sizes"]))


if __name__ == "__main__":
    main(sys.argv[1:])
