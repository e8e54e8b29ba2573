"""`make bench` section (issue 7): the synthetic game's module built by hexwright and, from the same images, by pywargame.

pywargame (PyPI) needs Python 3.12+ while hexwright targets 3.11, so it runs in its own virtual
environment `.venv-pywargame` at the repository root, made once by `make bench-setup` (the one step that
fetches: the bench itself never does, and says so when the environment is missing), through
`pywargame_build.py`. Its input is read back from hexwright's module: the board and counter images, and
a JSON spec of the boards, grids, pieces, prototypes and set-up positions.

Each side is timed part by part, taking turns, so that no ratio hides where the time goes:
- hexwright, from cached images: `build module --force` as a whole process, and inside its process after
  the imports (`hexwright_parts.py`): loading and checking the game, the module, and of the module the set-ups,
  the boards and the pieces;
- pywargame: `pywargame_build.py` as a whole process with the set-ups and without them (`--no-setups`), and
  inside its process after the imports: the whole build, and of it the set-up writer (`VSav`), the boards and
  the pieces.
The ratios (pywargame / hexwright) are printed with the set-ups, without them, and for the set-ups, the boards
and the pieces alone (goal, issue 49: at least 2x on each).
The pywargame part never breaks `make bench`: any failure prints one line and the run goes on.
Alone: `python tests/bench/bench_pywargame.py`. `HEXWRIGHT_PY312=/path/to/python3.12 make bench-setup` picks
the environment's interpreter.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
import zipfile
from pathlib import Path

from lxml import etree

from authoring.vassal import elements as el
from authoring.vassal.codec import decode, deobfuscate, parse_add_piece_command, split_commands, unnest
from authoring.vassal.pieces import MAIN_MAP

sys.path.insert(0, str(Path(__file__).parent))
from bench_module import ROUNDS, build_module, copy_project, spread  # noqa: E402 - the module section's timing
from goals import record_module  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
VENV = ROOT / ".venv-pywargame"
PYWARGAME = "pywargame==0.8.0"
BUILDER = Path(__file__).with_name("pywargame_build.py")
PARTS = Path(__file__).with_name("hexwright_parts.py")
PY_ENV = "HEXWRIGHT_PY312"
MIN_PY = (3, 12)
COMMAND_TRAITS = {"report", "sendto", "markmoved", "clone", "delete"}
# Field positions in VASSAL's Embellishment ("emb2") type, counted with the "emb2" id at 0.
LAYER_INCREASE_NAME, LAYER_DECREASE_NAME, LAYER_IMAGES, LAYER_NAMES, LAYER_NAME = 4, 7, 16, 17, 19
LAYER_INCREASE_KEY, LAYER_DECREASE_KEY, LAYER_DESCRIPTION = 28, 29, 30


class Skip(Exception):
    """The comparison cannot run here (no Python 3.12+, no pywargame): said, not failed."""


TYPHOON = "typhoon"


def run(synth_root: Path, tmp: Path) -> None:
    """The synthetic game, then Typhoon (the bundled large game), each compared on its own."""
    for label, root in (("synthetic game", synth_root), ("Typhoon", _typhoon(Path(tmp) / "typhoon-sources"))):
        print(
            f"VASSAL module beside pywargame ({PYWARGAME}), {label}: same game, same images, median (min-max) "
            f"of {ROUNDS} interleaved rounds"
        )
        try:
            _compare(root, Path(tmp) / f"bench-pywargame-{label.split()[0].lower()}")
        except Skip as reason:
            print(f"  pywargame comparison skipped: {reason}")
        except Exception as error:  # noqa: BLE001 - the bench reports and goes on
            print(f"  pywargame comparison failed: {type(error).__name__}: {_one_line(str(error))}")


def _typhoon(dest: Path) -> Path:
    """A copy of Typhoon's sources (the comparison builds into a copy of its own)."""
    shutil.rmtree(dest, ignore_errors=True)
    for part in ("counters", "maps", "scenarios"):
        shutil.copytree(ROOT / part / TYPHOON, dest / part / TYPHOON)
    return dest


def _compare(synth_root: Path, out: Path) -> None:
    """hexwright's `build module --force` with its image cache warm, and pywargame_build.py from the
    images and spec read back from that module, with and without set-ups, part by part, taking turns."""
    shutil.rmtree(out, ignore_errors=True)
    python = venv_python()
    project = copy_project(synth_root, out / "project")
    built = out / "hexwright"
    build_module(project, built)  # clean: draws the images (timed in bench_module) and gives the module
    vmod = next(built.glob("*/*.vmod"))
    images = out / "input" / "images"
    spec = module_spec(vmod, images)
    spec_path = images.parent / "spec.json"
    spec_path.write_text(json.dumps(spec, indent=1), encoding="utf-8")
    rounds: list[dict[str, float]] = []
    for round_ in range(ROUNDS):
        fig = {"hexwright whole": build_module(project, built, force=True)}
        fig.update({f"hexwright {k}": v for k, v in _hexwright_parts(project, built).items()})
        target = out / "pywargame" / str(round_) / f"{spec['name']}.vmod"
        fig["pywargame whole"], result = _pywargame(python, spec_path, images, target)
        fig["pywargame total"], fig["pywargame setups"] = result["seconds"], result["setups_seconds"]
        fig["pywargame boards"], fig["pywargame pieces"] = result["boards_seconds"], result["pieces_seconds"]
        alone = target.with_name("no-setups.vmod")
        fig["pywargame whole, no set-ups"], bare = _pywargame(python, spec_path, images, alone, "--no-setups")
        fig["pywargame no set-ups"] = bare["seconds"]
        rounds.append(fig)
    for line in report(rounds):
        print("  " + line)
    record_module(parts(rounds), vmod.stem)
    print(f"  modules: hexwright {_size(vmod, images)}; pywargame {_size(target, images)}")
    elsewhere = sum(s["elsewhere"] for s in spec["setups"])
    print(
        f"  ({len(spec['boards'])} boards, {result['pieces']:,} pieces, {len(spec['setups'])} set-ups placing "
        f"{result['placed']:,} units on the map in both; hexwright's module also loads and checks the game's "
        f"sources and has the box windows with {elsewhere:,} more set-up placements, turn track, charts, "
        f"cards and help)"
    )


def parts(rounds: list[dict[str, float]]) -> dict[str, list[float]]:
    """Each figure over the rounds, with the parts that are sums or differences taken round by round
    (then a median of them is a median of what each round measured)."""
    out = {name: [r[name] for r in rounds] for name in rounds[0]}
    out["hexwright no set-ups"] = [r["hexwright module"] - r["hexwright setups"] for r in rounds]
    out["hexwright loaded"] = [r["hexwright load_check"] + r["hexwright module"] for r in rounds]
    out["hexwright loaded, no set-ups"] = [
        a + b for a, b in zip(out["hexwright load_check"], out["hexwright no set-ups"])
    ]
    out["pywargame less set-ups"] = [r["pywargame total"] - r["pywargame setups"] for r in rounds]
    return out


def ratio(fig: dict[str, list[float]], theirs: str, ours: str) -> float:
    """pywargame's median over hexwright's: above 1, hexwright is the faster."""
    return statistics.median(fig[theirs]) / statistics.median(fig[ours])


def report(rounds: list[dict[str, float]]) -> list[str]:
    """The lines that print the rounds' figures part by part, then the ratios pywargame / hexwright."""
    fig = parts(rounds)

    def s(name: str) -> str:
        return spread(fig[name])

    def x(theirs: str, ours: str) -> str:
        return f"{ratio(fig, theirs, ours):.1f}x"

    return [
        "whole processes",
        f"  hexwright build module --force (cached images)  {s('hexwright whole')}",
        f"  pywargame, with set-ups                         {s('pywargame whole')}",
        f"  pywargame, without set-ups                      {s('pywargame whole, no set-ups')}",
        "in their processes, after the imports",
        f"  hexwright  load and check {s('hexwright load_check')}   module {s('hexwright module')}"
        f"   of it set-ups {s('hexwright setups')}   module less set-ups {s('hexwright no set-ups')}",
        f"  pywargame  module {s('pywargame total')}   of it set-ups (VSav) {s('pywargame setups')}"
        f"   module less set-ups {s('pywargame less set-ups')}   built without set-ups {s('pywargame no set-ups')}",
        "pywargame / hexwright (above 1: hexwright is faster)",
        f"  with set-ups     whole processes {x('pywargame whole', 'hexwright whole')}   after imports: module "
        f"{x('pywargame total', 'hexwright module')}, with hexwright's load and check "
        f"{x('pywargame total', 'hexwright loaded')}",
        f"  without set-ups  after imports: module {x('pywargame no set-ups', 'hexwright no set-ups')}, with "
        f"hexwright's load and check {x('pywargame no set-ups', 'hexwright loaded, no set-ups')}",
        f"  set-ups alone    {x('pywargame setups', 'hexwright setups')}",
        *_part_lines(fig),
    ]


def _part_lines(fig: dict[str, list[float]]) -> list[str]:
    """The boards and the pieces alone, each side's figure and the ratio (when both sides timed them)."""
    lines = []
    for part, words in (("boards", "boards alone "), ("pieces", "pieces alone ")):
        theirs, ours = f"pywargame {part}", f"hexwright {part}"
        if theirs in fig and ours in fig:
            lines.append(
                f"  {words}    {ratio(fig, theirs, ours):.1f}x   (hexwright {spread(fig[ours])}, "
                f"pywargame {spread(fig[theirs])})"
            )
    return lines


def _hexwright_parts(project: Path, out: Path) -> dict[str, float]:
    """`hexwright_parts.py`'s figures: load_check, module, setups, boards and pieces seconds."""
    done = subprocess.run(
        [sys.executable, str(PARTS), str(project), str(out)], capture_output=True, text=True, timeout=1800
    )
    if done.returncode != 0:
        raise RuntimeError(f"hexwright_parts.py failed: {_last_line(done.stderr)}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _pywargame(python: Path, spec_path: Path, images: Path, target: Path, *flags: str) -> tuple[float, dict]:
    """(process seconds, what `pywargame_build.py` reports: its in-process seconds and counts)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    done = subprocess.run(
        [str(python), str(BUILDER), str(spec_path), str(images), str(target), *flags],
        capture_output=True,
        text=True,
        timeout=1800,
    )
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(_last_line(done.stderr) or f"exit status {done.returncode}")
    return wall, json.loads(done.stdout.strip().splitlines()[-1])


def _size(vmod: Path, images: Path) -> str:
    """Module size, and the compressed bytes in it of the images both modules hold (those in `images`)."""
    names = {"images/" + p.name for p in images.iterdir()}
    with zipfile.ZipFile(vmod) as archive:
        shared = sum(info.compress_size for info in archive.infolist() if info.filename in names)
    return f"{vmod.stat().st_size / 1e6:6.1f} MB (shared images {shared / 1e6:4.1f} MB)"


# -- Python 3.12+ and the pywargame environment ------------------------------------------------------


def venv_python() -> Path:
    """The pywargame venv's interpreter; the bench fetches nothing, so without the venv the comparison is skipped."""
    python = VENV / "bin" / "python"
    if python.exists() and _has_pywargame(python):
        return python
    raise Skip(f"no {VENV.name} with {PYWARGAME}: `make bench-setup` makes it once (it fetches {PYWARGAME} from PyPI)")


def setup() -> int:
    """`make bench-setup`: the venv made (once) with a Python >= 3.12 and pywargame installed in it."""
    python = VENV / "bin" / "python"
    if python.exists() and _has_pywargame(python):
        print(f"{VENV.name}: {PYWARGAME} is installed")
        return 0
    base = find_python()
    if base is None:
        print(f"pywargame needs Python 3.12+ (none found; set {PY_ENV} to one)", file=sys.stderr)
        return 1
    print(f"setting up {VENV.name} with {base} and {PYWARGAME}")
    for command in ([base, "-m", "venv", "--clear", str(VENV)], [str(python), "-m", "pip", "install", "-q", PYWARGAME]):
        done = subprocess.run(command, capture_output=True, text=True, timeout=900)
        if done.returncode != 0:
            print(f"could not install {PYWARGAME}: {_last_line(done.stderr) or done.returncode}", file=sys.stderr)
            return 1
    return 0


def _has_pywargame(python: Path) -> bool:
    check = "import importlib.metadata as m, pywargame.vassal; print(m.version('pywargame'))"
    done = subprocess.run([str(python), "-c", check], capture_output=True, text=True, timeout=120)
    return done.returncode == 0 and done.stdout.strip() == PYWARGAME.split("==")[1]


def find_python() -> str | None:
    """`$HEXWRIGHT_PY312`, python3.12/3.13 on PATH, else a pyenv-installed 3.12+ (pyenv shims may not resolve)."""
    candidates = [os.environ.get(PY_ENV), shutil.which("python3.12"), shutil.which("python3.13"), sys.executable]
    pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    if pyenv.is_dir():
        candidates += [str(p / "bin" / "python3") for p in sorted(pyenv.iterdir(), key=_version_key)]
    return next((c for c in candidates if c and _is_recent(c)), None)


def _version_key(path: Path) -> tuple:
    return tuple(int(part) if part.isdigit() else 0 for part in path.name.split("."))


def _is_recent(python: str) -> bool:
    check = f"import sys; sys.exit(0 if sys.version_info >= {MIN_PY} else 1)"
    try:
        return subprocess.run([python, "-c", check], capture_output=True, timeout=60).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


# -- hexwright's module -> the spec and images pywargame_build.py assembles --------------------------


def module_spec(vmod: Path, images_dir: Path) -> dict:
    """What the pywargame build needs, read back from hexwright's module; its images go to `images_dir`."""
    with zipfile.ZipFile(vmod) as archive:
        root = etree.fromstring(archive.read("buildFile.xml"))
        setups = [_setup(archive, s) for s in root.iter(el.PREDEFINED_SETUP) if s.get("useFile") == "true"]
        main = next(m for m in root.iter(el.MAP) if m.get("mapName") == MAIN_MAP)
        boards = _boards(main, setups[0]["layout"] if setups else [])
        palette = _palette(root)
        images = {b["image"] for b in boards}
        images |= {i for g in palette for p in g["pieces"] for i in [p["image"], *(p["layer"] or {}).get("images", [])]}
        images.discard("")
        images_dir.mkdir(parents=True, exist_ok=True)
        for name in sorted(images):
            (images_dir / name).write_bytes(archive.read("images/" + name))
    return {
        "name": root.get("name"),
        "version": root.get("version"),
        "description": root.get("description"),
        "sides": [entry.text for roster in root.iter(el.PLAYER_ROSTER) for entry in roster.iter("entry")],
        "map": MAIN_MAP,
        "boards": boards,
        "prototypes": _prototypes(root),
        "palette": palette,
        "setups": [{k: v for k, v in s.items() if k != "layout"} for s in setups],
    }


def _boards(main, layout: list) -> list[dict]:
    cells = {name: (column, row) for name, column, row in layout}
    out = []
    for index, board in enumerate(main.iter(el.BOARD)):
        grid = board.find(el.HEX_GRID)
        column, row = cells.get(board.get("name"), (index, 0))
        out.append(
            {
                "name": board.get("name"),
                "image": board.get("image"),
                "column": column,
                "row": row,
                "grid": dict(grid.attrib),
                "numbering": dict(grid.find(el.HEX_GRID_NUMBERING).attrib),
            }
        )
    return out


def _prototypes(root) -> list[dict]:
    out = []
    for proto in root.iter(el.PROTOTYPE_DEFINITION):
        traits = _traits(proto.text)
        out.append(
            {
                "name": proto.get("name"),
                "description": proto.get("description", ""),
                "commands": any(t[0] in COMMAND_TRAITS for t, _ in traits),
                "properties": _marks(traits),
            }
        )
    return out


def _palette(root) -> list[dict]:
    """Piece slots grouped by their tab/list path, in document order."""
    groups: list[dict] = []
    for slot in root.iter(el.PIECE_SLOT):
        path = [
            ["tab" if a.tag == el.TAB_WIDGET else "list", a.get("entryName")]
            for a in reversed(list(slot.iterancestors()))
            if a.tag in (el.TAB_WIDGET, el.LIST_WIDGET, el.PANEL_WIDGET)
        ]
        if not groups or groups[-1]["path"] != path:
            groups.append({"path": path, "pieces": []})
        groups[-1]["pieces"].append(_piece(slot))
    return groups


def _piece(slot) -> dict:
    traits = _traits(slot.text)
    layer = next((t for t, _ in traits if t[0] == "emb2"), None)
    basic = traits[-1][0]
    return {
        "name": slot.get("entryName"),
        "gpid": int(slot.get("gpid")),
        "width": int(slot.get("width")),
        "height": int(slot.get("height")),
        "prototypes": [t[1] for t, _ in traits if t[0] == "prototype"],
        "properties": _marks(traits),
        "calculated": [[t[1], t[2]] for t, _ in traits if t[0] == "calcProp"],
        "layer": _layer(layer) if layer else None,
        "image": basic[3] if len(basic) > 3 else "",
    }


def _layer(t: list[str]) -> dict:
    return {
        "images": decode(t[LAYER_IMAGES], ","),
        "names": decode(t[LAYER_NAMES], ","),
        "name": t[LAYER_NAME],
        "increase": [t[LAYER_INCREASE_NAME], t[LAYER_INCREASE_KEY]],
        "decrease": [t[LAYER_DECREASE_NAME], t[LAYER_DECREASE_KEY]],
        "description": t[LAYER_DESCRIPTION],
    }


def _traits(text: str) -> list[tuple[list[str], str]]:
    """(type fields, state) per trait, outermost first, of a PieceSlot's or prototype's definition."""
    _id, definition = parse_add_piece_command(text)
    return [(decode(t, ";"), s) for t, s in zip(unnest(definition.type), unnest(definition.state))]


def _marks(traits: list[tuple[list[str], str]]) -> dict[str, str]:
    props: dict[str, str] = {}
    for fields, state in traits:
        if fields[0] == "mark":
            props.update(zip(decode(fields[1], ","), decode(state, ",")))
    return props


def _setup(archive: zipfile.ZipFile, element) -> dict:
    """A set-up's board layout and its units on the main map: [gpid, x, y, face level]."""
    with zipfile.ZipFile(io.BytesIO(archive.read(element.get("file")))) as vsav:
        text = deobfuscate(vsav.read("savedGame").decode("utf-8"))
    layout, pieces, elsewhere = [], [], 0
    for command in split_commands(text):
        if command.startswith(MAIN_MAP + "BoardPicker\t"):
            fields = decode(command, "\t")
            layout = [(fields[i], int(fields[i + 1]), int(fields[i + 2])) for i in range(1, len(fields) - 2, 3)]
        elif command.startswith("+/"):
            _id, definition = parse_add_piece_command(command)
            if definition.type == "stack":
                continue
            types, states = unnest(definition.type), unnest(definition.state)
            basic = decode(states[-1], ";")
            if basic[0] != MAIN_MAP:
                elsewhere += 1
                continue
            level = next((int(s) for t, s in zip(types, states) if t.startswith("emb2;")), 1)
            pieces.append([int(basic[3]), int(basic[1]), int(basic[2]), level])
    return {
        "name": element.get("name"),
        "file": element.get("file"),
        "layout": layout,
        "pieces": pieces,
        "elsewhere": elsewhere,
    }


def _last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return _one_line(lines[-1]) if lines else ""


def _one_line(text: str) -> str:
    return " ".join(text.split())[:300]


if __name__ == "__main__":
    if sys.argv[1:] == ["--setup"]:
        sys.exit(setup())
    sys.path.insert(0, str(Path(__file__).parent))
    from benchlib import run_alone

    run_alone(run)
