"""Small modules written by hand, each reproducing one finding of issue 30 on real modules: a buildFile from
a few element strings, images, and saved games whose pieces sit where the test says (also on a Stack only,
as older engines save them)."""

from __future__ import annotations

from pathlib import Path

from corpus import png_bytes

from authoring.vassal import archive as va
from authoring.vassal import elements as el
from authoring.vassal.codec import add_piece_command, encode, obfuscate
from authoring.vassal.traits import BasicPiece, Layer, Piece

B = "VASSAL.build."
# the class names the compiler writes, from its one table
BOARD, HEX, NUMBERING = el.BOARD, el.HEX_GRID, el.HEX_GRID_NUMBERING
REGIONS, REGION = el.REGION_GRID, el.REGION


def png(size: tuple[int, int], colour: str = "#c0504d", text: str = "") -> bytes:
    return png_bytes(size, colour, text)


def svg(size: tuple[int, int], colour: str = "#4f81bd") -> bytes:
    w, h = size
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}"><rect width="{w}" height="{h}" '
        f'fill="{colour}"/></svg>'
    ).encode()


def hex_grid(numbering: str = "") -> str:
    """A flat-top grid, hexes 60 high, numbered from 01 like most wargames."""
    return (
        f'<{HEX} dx="52.0" dy="60.0" x0="30" y0="30" sideways="false" snapTo="true" visible="false">'
        f'<{NUMBERING} first="H" hOff="1" vOff="1" hLeading="1" vLeading="1" hType="N" vType="N" sep="" '
        f'stagger="false" locationFormat="$gridLocation$" {numbering}/></{HEX}>'
    )


def region_grid(*regions: tuple[str, int, int]) -> str:
    return (
        f'<{REGIONS} snapto="true" visible="false">'
        + "".join(f'<{REGION} name="{n}" originx="{x}" originy="{y}"/>' for n, x, y in regions)
        + f"</{REGIONS}>"
    )


def board(name: str, image: str, grid: str = "") -> str:
    return f'<{BOARD} image="{image}" name="{name}" reversible="false">{grid}</{BOARD}>'


def map_window(name: str, *boards: str) -> str:
    return (
        f'<{B}module.Map mapName="{name}" edgeHeight="0" edgeWidth="0"><{B}module.map.BoardPicker>'
        + "".join(boards)
        + f"</{B}module.map.BoardPicker><{B}module.map.StackMetrics/></{B}module.Map>"
    )


def slot(name: str, piece: Piece, gpid: int) -> str:
    text = add_piece_command(*piece.definition()).replace("&", "&amp;").replace("<", "&lt;")
    return f'<{B}widget.PieceSlot entryName="{name}" gpid="{gpid}" height="48" width="48">{text}</{B}widget.PieceSlot>'


def palette(*folders: tuple[str, list[str]]) -> str:
    lists = "".join(
        f'<{B}widget.ListWidget entryName="{name}">{"".join(slots)}</{B}widget.ListWidget>' for name, slots in folders
    )
    return (
        f'<{B}module.PieceWindow name="Pieces"><{B}widget.TabWidget entryName="Pieces">{lists}'
        f"</{B}widget.TabWidget></{B}module.PieceWindow>"
    )


def roster(*sides: str) -> str:
    return f"<{B}module.PlayerRoster>" + "".join(f"<entry>{s}</entry>" for s in sides) + f"</{B}module.PlayerRoster>"


def setup(name: str, file: str) -> str:
    return f'<{B}module.PredefinedSetup name="{name}" file="{file}" useFile="true" isMenu="false"/>'


def unit(name: str, image: str, *layers: Layer) -> Piece:
    return Piece((*layers, BasicPiece(name=name, image=image)))


def placed(piece: Piece, map_id: str, x: int, y: int, piece_id: str, gpid: int = 1) -> str:
    """An add-piece command with the piece's own map and position."""
    *outer, basic = piece.traits
    return add_piece_command(
        *Piece(
            (*outer, BasicPiece(name=basic.name, image=basic.image, map_id=map_id, x=x, y=y, gpid=str(gpid)))
        ).definition(),
        piece_id,
    )


def stacked(pieces: list[tuple[Piece, str]], map_id: str, x: int, y: int, stack_id: str) -> list[str]:
    """As VASSAL 3.1 saves a stack: each piece on map 'null' at 0,0, then the Stack with the map, the position
    and the pieces' ids."""
    commands = [placed(piece, "null", 0, 0, pid) for piece, pid in pieces]
    commands.append(
        add_piece_command("stack", encode([map_id, str(x), str(y), *(pid for _, pid in pieces)], ";"), stack_id)
    )
    return commands


def saved_game(boards: dict[str, list[str]], commands: list[str]) -> bytes:
    picks = [va.board_picker_command(m, [(b, i, 0) for i, b in enumerate(names)]) for m, names in boards.items()]
    text = "\x1b".join(["begin_save", *picks, *commands, "end_save"])
    return va.zip_bytes(
        {
            "savedGame": obfuscate(text, 0x21).encode(),
            "savedata": va.save_data("t", "1.0", 0),
            "moduledata": va.module_data("t", "1.0", "", 0),
        }
    )


def module(
    folder: Path,
    name: str,
    body: str,
    images: dict[str, bytes],
    files: dict[str, bytes] | None = None,
    root_attrs: str = "",
) -> Path:
    """NAME.vmod: a GameModule around `body`, `images` under images/, other `files` at the top."""
    build = (
        f'<?xml version="1.0" encoding="UTF-8" standalone="no"?><{B}GameModule name="{name}" version="1.0" '
        f'VassalVersion="3.6.7" {root_attrs}><{B}module.BasicCommandEncoder/>{body}</{B}GameModule>'
    )
    content = {
        "buildFile.xml": build.encode(),
        "moduledata": va.module_data(name, "1.0", "", 0, vassal_version="3.6.7"),
    }
    content.update({f"images/{k}": v for k, v in images.items()})
    content.update(files or {})
    path = Path(folder) / f"{name}.vmod"
    path.write_bytes(va.zip_bytes(content))
    return path
