"""Per-output keys inside a stage: a stage whose inputs changed redraws only the outputs that show the change.

A stage's stamp (`cache`) says whether anything it reads changed; when something did, each group of its
files (one set-up card's pages and PDFs, one map's image and print tiles) is kept when its own key is
unchanged. A group's stamp lies beside its first file (`cache.record`): sealed with this machine's key,
bound to the files' identities, so a downloaded or replaced file is a miss. Keys start from the one
`fingerprint` (through `vassal.art.code_version`) and add exactly the data each output shows.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from pathlib import Path

from authoring.cache import record, up_to_date
from authoring.model import Game
from authoring.names import file_name, map_file_name

Group = tuple[Path, tuple[Path, ...]]
"""An output's files: the one its stamp lies beside, and the others the stamp also speaks for."""


def files_key(kind: str, key: str, *options: object) -> str:
    """The stamp digest of a group of files drawn from image key `key` with these writer options."""
    return hashlib.sha256(repr((kind, key, options)).encode()).hexdigest()


def kept(group: Group, key: str) -> bool:
    """The group's files are the ones this machine wrote from `key`, unchanged since."""
    first, *rest = sorted([group[0], *group[1]])
    return up_to_date(first, key, rest)


def keep(groups: dict[str, tuple[Group, str]], force: bool) -> tuple[list[str], list[Path]]:
    """(the ids of the groups to draw again, the files of the others): `groups` is id -> (group, key)."""
    todo, found = [], []
    for gid, (group, key) in groups.items():
        if not force and kept(group, key):
            found += [group[0], *group[1]]
        else:
            todo.append(gid)
    return todo, found


def stamp(paths: Sequence[Path], key: str) -> None:
    """Record the stamp of a group just written (its first file carries it)."""
    first, *rest = sorted(map(Path, paths))
    record(first, key, rest)


# --- set-up cards -------------------------------------------------------------------------


def card_group(folder: Path, sid: str, side: str) -> Group:
    """One card's files as the last build left them: its Letter PDF, the A4 PDF and its page PNGs
    (one unnumbered, or numbered from 1 while they are there)."""
    single = folder / file_name("setup", sid, side, ext="png")
    pages = [single] if single.exists() else []
    n = 1
    while not pages and (folder / file_name("setup", sid, side, str(n), ext="png")).exists():
        n += 1
    pages = pages or [folder / file_name("setup", sid, side, str(k), ext="png") for k in range(1, n)]
    files = sorted([folder / file_name("setup", sid, side, p, ext="pdf") for p in ("letter", "a4")] + pages)
    return files[0], tuple(files[1:])


def card_files(game: Game, folder: Path, processes: int, also, force: bool) -> list[Path]:
    """Every set-up card's files in `folder`, drawing only the cards whose `card_keys` changed."""
    from authoring.render.print.card_sides import card_sides
    from authoring.render.print.cards import DPI, write_cards
    from authoring.vassal.images import card_keys

    key_of = card_keys(game)
    cards = {(sid, side) for sid in game.scenarios for side in card_sides(game, game.scenarios[sid])}
    groups = {
        f"{sid}\0{side}": (card_group(folder, sid, side), files_key("card", key_of(sid, side), DPI))
        for sid, side in sorted(cards)
    }
    todo, found = keep(groups, force)
    chosen = [tuple(gid.split("\0")) for gid in todo]
    written = write_cards(game, folder, chosen, processes, also)
    for gid, paths in zip(todo, written):
        stamp(paths, groups[gid][1])
    return found + [p for paths in written for p in paths]


# --- maps ---------------------------------------------------------------------------------


def map_groups(game: Game, folder: Path, px_per_hex: float, papers: Sequence[str], dpi: float) -> dict:
    """Map id (and "" for the joined layout) -> (its files, their key): a map's image, registration proof
    and print tiles key on that map and the game's map style (`map_style_key`), not on the other maps."""
    from authoring.render.maps.draw import _LAYOUT_JOB, has_art
    from authoring.vassal.images import map_style_key

    keys = {m: map_style_key(game, m, px_per_hex) for m in sorted(game.maps)}
    groups = {}
    for m, key in keys.items():
        files = [folder / map_file_name("tiles", m, game.maps, p, ext="pdf") for p in papers]
        if has_art(game.maps[m]):
            files.append(folder / map_file_name("registration", m, game.maps, ext="png"))
        groups[m] = ((folder / map_file_name("map", m, game.maps, ext="png"), tuple(files)), key)
    if len(game.maps) > 1 and game.layout:
        key = _digest("layout", sorted(keys.items()), game.layout)
        groups[_LAYOUT_JOB] = ((folder / file_name("layout", ext="png"), ()), key)
    return {m: (group, files_key("map", key, px_per_hex, tuple(papers), dpi)) for m, (group, key) in groups.items()}


def map_files(game: Game, folder: Path, write: Callable, px_per_hex: float, papers, dpi: float, force: bool):
    """Every map file in `folder`, drawing only the maps whose key changed: `write(only)` draws the maps
    (and layout) named in `only` and returns their files."""
    groups = map_groups(game, folder, px_per_hex, papers, dpi)
    todo, found = keep(groups, force)
    written = write(frozenset(todo)) if todo else []
    by_group = {m: [p for p in written if p in {g[0], *g[1]}] for m, (g, _) in groups.items() if m in todo}
    for m, paths in by_group.items():
        if paths:
            stamp(paths, groups[m][1])
    return found + list(written)


def _digest(*parts: object) -> str:
    from authoring.vassal.art import digest

    return digest(*parts)
