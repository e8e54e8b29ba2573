"""Assemble a VASSAL module with pywargame's API from a JSON spec and a folder of images (bench helper).

Runs under Python 3.12+ in `.venv-pywargame` (pywargame needs it; hexwright targets 3.11), started
by `bench_pywargame.py`, which writes the spec and the images from hexwright's own module of the
same game. Nothing here imports hexwright: the spec is plain data, so this side only measures how
long pywargame takes to assemble an equivalent module from the same images.

    python pywargame_build.py SPEC.json IMAGES_DIR OUT.vmod [--no-setups]   ->  prints {"seconds": ..., ...} (JSON)

"seconds" is the whole build after the imports, "setups_seconds" the part of it spent in pywargame's set-up
writer (`VSav`, one saved game per scenario); `--no-setups` leaves the set-ups out (the module assembled alone).
"boards_seconds": the board images added and the map window with its boards and grids; "pieces_seconds": the
pieces' images added, the prototypes and the piece palette (as hexwright_parts.py times hexwright's).
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

from pywargame.vassal import (
    BasicTrait,
    BuildFile,
    CalculatedTrait,
    CloneTrait,
    DeleteTrait,
    LayerTrait,
    MarkTrait,
    ModuleData,
    MovedTrait,
    PrototypeTrait,
    ReportTrait,
    VMod,
    VSav,
    key,
)

IMAGES = "images/"


def main(argv: list[str]) -> int:
    args = [a for a in argv[1:] if a != "--no-setups"]
    if len(args) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    spec_path, images_dir, out = Path(args[0]), Path(args[1]), Path(args[2])
    spec = json.loads(spec_path.read_text(encoding="utf-8"))
    if "--no-setups" in argv:
        spec = {**spec, "setups": []}
    start = time.perf_counter()
    counts = build(spec, images_dir, out)
    seconds = time.perf_counter() - start
    print(json.dumps({"seconds": seconds, "bytes": out.stat().st_size, **counts}))
    return 0


def build(spec: dict, images_dir: Path, out: Path) -> dict:
    """Write `out` (via a temporary file and a rename) and return what went in and the set-up writer's seconds."""
    temp = out.with_name(f".{out.name}.tmp")
    with VMod(str(temp), "w") as vmod:
        images = sorted(p for p in images_dir.iterdir() if p.is_file())
        board_images = {b["image"] for b in spec["boards"]}
        build_file = BuildFile()
        game = build_file.addGame(name=spec["name"], version=spec["version"], description=spec["description"])
        _module_basics(game, spec["sides"])
        start = time.perf_counter()
        for path in images:
            if path.name in board_images:
                vmod.addExternalFile(str(path), IMAGES + path.name)
        main_map = _main_map(game, spec["map"], spec["boards"])
        boards_seconds = time.perf_counter() - start
        start = time.perf_counter()
        for path in images:
            if path.name not in board_images:
                vmod.addExternalFile(str(path), IMAGES + path.name)
        _prototypes(game, spec["prototypes"])
        slots = _palette(game, spec["palette"])
        pieces_seconds = time.perf_counter() - start
        start = time.perf_counter()
        placed = sum(_setup(build_file, vmod, game, main_map, slots, s) for s in spec["setups"])
        setups_seconds = time.perf_counter() - start
        vmod.addFiles(**{VMod.BUILD_FILE: build_file.encode(), VMod.MODULE_DATA: _module_data(spec).encode()})
    os.replace(temp, out)
    return {
        "images": len(images),
        "pieces": len(slots),
        "setups": len(spec["setups"]),
        "placed": placed,
        "setups_seconds": setups_seconds,
        "boards_seconds": boards_seconds,
        "pieces_seconds": pieces_seconds,
    }


def _module_basics(game, sides: list[str]) -> None:
    game.addBasicCommandEncoder()
    roster = game.addPlayerRoster()
    for side in sides:
        roster.addSide(side)
    game.addGlobalOptions()
    game.addChatter()
    game.addKeyNamer()


def _main_map(game, name: str, boards: list[dict]):
    """One map window holding every board, each with its hex grid and numbering, in its layout cell."""
    main_map = game.addMap(mapName=name, buttonName="", launch=False)
    picker = main_map.addBoardPicker()
    for b in boards:
        board = picker.addBoard(name=b["name"], image=b["image"])
        grid = board.addHexGrid(**b["grid"])
        grid.addNumbering(**b["numbering"])
    order = sorted(boards, key=lambda b: (b["row"], b["column"]))
    columns = _columns(order)
    picker.addSetup(maxColumns=columns, boardNames=[b["name"] for b in order])
    main_map.addStackMetrics()
    for add in (
        "addForwardToChatter",
        "addMenuDisplayer",
        "addMapCenterer",
        "addStackExpander",
        "addPieceMover",
        "addKeyBufferer",
        "addSelectionHighlighters",
        "addHighlightLastMoved",
        "addImageSaver",
        "addScroller",
        "addCounterDetailViewer",
        "addZoomer",
    ):
        getattr(main_map, add)()
    return main_map


def _columns(order: list[dict]) -> int:
    """The board Setup's columns: pywargame fills cells row by row, so a layout that is such a fill keeps its
    cells; one with gaps (Typhoon's maps, whose layout leaves cells empty) is packed row by row, the widest
    row giving the columns (the same boards and grids, placed closer: the timing is the same work)."""
    columns = 1 + max(b["column"] for b in order)
    if all((b["column"], b["row"]) == (i % columns, i // columns) for i, b in enumerate(order)):
        return columns
    rows: dict[int, int] = {}
    for b in order:
        rows[b["row"]] = rows.get(b["row"], 0) + 1
    return max(rows.values())


def _prototypes(game, prototypes: list[dict]) -> None:
    container = game.addPrototypes()
    for p in prototypes:
        traits = []
        if p["commands"]:
            traits += [
                ReportTrait(key("C"), key("D"), key("F")),
                MovedTrait(),
                CloneTrait(command="Clone", key=key("C")),
                DeleteTrait(),
            ]
        traits += [MarkTrait(name=k, value=_slashless(v)) for k, v in p["properties"].items()]
        traits.append(BasicTrait())
        container.addPrototype(name=_slashless(p["name"]), description=p["description"], traits=traits)


def _palette(game, groups: list[dict]) -> dict[int, object]:
    """The piece window, its tab/list tree as in the spec; gpid -> PieceSlot."""
    window = game.addPieceWindow(name="Counters", text="Counters", tooltip="Counter palette")
    widgets: dict[tuple, object] = {(): window}
    slots = {}
    for group in groups:
        parent = window
        path: tuple = ()
        for kind, name in group["path"]:
            path += ((kind, name),)
            if path not in widgets:
                widgets[path] = parent.addTabs(entryName=name) if kind == "tab" else parent.addList(entryName=name)
            parent = widgets[path]
        for piece in group["pieces"]:
            slots[piece["gpid"]] = parent.addPieceSlot(
                entryName=_slashless(piece["name"]),
                gpid=piece["gpid"],
                width=piece["width"],
                height=piece["height"],
                traits=_piece_traits(piece),
            )
    return slots


def _piece_traits(piece: dict) -> list:
    """Outermost first, as VASSAL nests them: prototypes, properties, per-face values, faces, basic piece."""
    traits = [PrototypeTrait(name=_slashless(name)) for name in piece["prototypes"]]
    traits += [MarkTrait(name=k, value=_slashless(v)) for k, v in piece["properties"].items()]
    traits += [CalculatedTrait(name=name, expression=expression) for name, expression in piece["calculated"]]
    layer = piece.get("layer")
    if layer:
        traits.append(
            LayerTrait(
                images=layer["images"],
                newNames=layer["names"],
                name=layer["name"],
                activateName="",
                activateKey="",
                increaseName=layer["increase"][0],
                increaseKey=layer["increase"][1],
                decreaseName=layer["decrease"][0],
                decreaseKey=layer["decrease"][1],
                resetName="",
                loop=True,
                description=layer["description"],
            )
        )
    traits.append(BasicTrait(name=_slashless(piece["name"]), filename=piece["image"], gpid=piece["gpid"]))
    return traits


def _slashless(text: str) -> str:
    """`text` without "/": pywargame 0.8.0 reads a piece's add command back by splitting it at every unescaped
    "/" and does not escape one in a name or value (Typhoon's "II/SS"), so it would fail on its own output."""
    return text.replace("/", "-")


def _setup(build_file, vmod, game, main_map, slots: dict[int, object], setup: dict) -> int:
    """One predefined set-up: a saved game written into the module with pywargame's VSav."""
    spots: dict[tuple[int, int], list] = {}
    levels: dict[str, int] = {}
    for gpid, x, y, level in setup["pieces"]:
        spots.setdefault((x, y), []).append(slots[gpid])
        levels[slots[gpid]["entryName"]] = level
    vsav = VSav(build_file, vmod, game)
    save = vsav.addSaveFile()
    save.addNoGrid(main_map["mapName"], spots)
    # vobs=False: the "!VCSK" text encoding that VASSAL 3.6 reads (VSav.run defaults to the newer VOBS)
    vsav.run(
        savename=setup["file"],
        description=setup["name"],
        vobs=False,
        update=lambda name, traits: _level(levels, name, traits),
    )
    game.addPredefinedSetup(name=setup["name"], file=setup["file"], useFile=True)
    return len(setup["pieces"])


def _level(levels: dict[str, int], name: str, traits: list) -> None:
    """Start each unit on the face the scenario gives it (pywargame's documented update hook)."""
    for trait in traits:
        if isinstance(trait, LayerTrait) and name in levels:
            trait.setLevel(levels[name])


def _module_data(spec: dict) -> ModuleData:
    data = ModuleData()
    entry = data.addData()
    entry.addVersion(version=spec["version"])
    entry.addVASSALVersion()
    entry.addName(name=spec["name"])
    entry.addDescription(description=spec["description"])
    entry.addDateSaved()
    return data


if __name__ == "__main__":
    sys.exit(main(sys.argv))
