"""The piece images of a module a build is about to replace, kept in the new one for old saved games.

A saved game holds each piece's whole definition, images named in it; a counter later removed from the data
would leave its pieces in such a save naming images the new module lacks ("Image not found" on load). So the
build reads the module it replaces, if this machine wrote it (`products.stamps.previous_module`, read once with the members it copies): every
image its pieces could name (in its palette and prototypes, in its predefined set-ups) or that it itself kept
goes on into the new module, where the new build has no image of that name (`vassal.compile.compile_module`'s
`kept`).
"""

from __future__ import annotations

import re
from collections.abc import Collection
from pathlib import Path

from authoring.vassal.art import KEPT_IMAGES
from authoring.vmod.archive import Archive, ModuleReadError, open_archive, parse_xml
from authoring.vmod.savedgame import MAX_SAVED_GAME_CHARS, decode_saved_game

IMAGES = "images/"
PIECE_TAGS = ("VASSAL.build.widget.PieceSlot", "VASSAL.build.module.PrototypeDefinition")
IMAGE_NAME = re.compile(r"[^;,:\t\\/\s'\x1b]+\.(?:png|jpe?g|gif|svg)", re.IGNORECASE)
"""An image name in a piece definition: fields end at VASSAL's separators, escapes and quotes."""


def piece_images(module: Path | bytes | None, made: Collection[str] = ()) -> dict[str, bytes]:
    """Image name -> bytes of each image the module (a file or its bytes) has for its pieces, but those named
    in `made` (the new build's own images); {} when there is no module or it cannot be read (the build then
    keeps nothing: a first build, or a file that is no module)."""
    if module is None or (isinstance(module, Path) and not module.is_file()):
        return {}
    try:
        archive = open_archive(module)
        made = set(made)
        images = [n[len(IMAGES) :] for n in archive.names if n.startswith(IMAGES) and "/" not in n[len(IMAGES) :]]
        gone = sorted(n for n in images if n not in made)
        if not gone:  # every image drawn again (no counter dropped): the pieces' texts need no reading
            return {}
        listed = set(archive.read(KEPT_IMAGES).decode("utf-8").split("\n")) if archive.has(KEPT_IMAGES) else set()
        named = set(IMAGE_NAME.findall(_piece_text(archive)))
        return {n: archive.read(IMAGES + n) for n in gone if n in listed or n in named}
    except (ModuleReadError, UnicodeDecodeError, ValueError, OSError):
        return {}


def _piece_text(archive: Archive) -> str:
    """Every piece definition's text of the module: palette slots, prototypes and predefined set-ups."""
    root = parse_xml(archive.read("buildFile.xml"), "buildFile.xml") if archive.has("buildFile.xml") else None
    parts = [el.text or "" for tag in PIECE_TAGS for el in root.iter(tag)] if root is not None else []
    for name in sorted(archive.names):
        if name.endswith(".vsav"):
            saved = open_archive(archive.read(name))
            raw = saved.read("savedGame") if saved.has("savedGame") else b""
            if len(raw) <= 2 * MAX_SAVED_GAME_CHARS + 16:
                parts.append(decode_saved_game(raw))
    return "\n".join(parts)
