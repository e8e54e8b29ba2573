"""A saved game (`.vsav`, a predefined set-up's file): which boards each map uses and every piece placed."""

from __future__ import annotations

import lzma
from dataclasses import dataclass, field

from authoring.vassal.codec import decode, deobfuscate, parse_add_piece_command, split_commands
from authoring.vmod.archive import Archive, ModuleReadError, open_archive
from authoring.vmod.numbers import finite

_BOARD_PICKER = "BoardPicker"
MAX_SAVED_GAME_CHARS = 64 * 1024 * 1024


@dataclass(frozen=True)
class Placed:
    """One add-piece command of a saved game."""

    id: str
    type: str
    state: str


@dataclass
class SavedGame:
    boards: dict[str, list[tuple[str, int, int]]]
    """Map name -> (board name, column, row) of each board the game uses."""
    pieces: list[Placed]
    skipped: int
    """Commands that are neither boards nor pieces (properties, chat...)."""
    holders: dict[str, tuple[str, int, int]] = field(default_factory=dict)
    """Piece id -> (map, x, y) of the Stack or Deck that holds it: older engines keep a stacked piece's
    map and position there, not on the piece."""


def read_saved_game(data: bytes, what: str) -> SavedGame:
    """Decode a .vsav (zip with an obfuscated or plain `savedGame`)."""
    try:
        archive: Archive = open_archive(data)
    except ModuleReadError as exc:
        raise ModuleReadError(f"{what}: {str(exc).split(': ', 1)[-1]}") from None
    if not archive.has("savedGame"):
        raise ModuleReadError(f"{what}: no savedGame member: not a VASSAL saved game")
    raw = archive.read("savedGame")
    if len(raw) > MAX_SAVED_GAME_CHARS:
        raise ModuleReadError(f"{what}: the saved game is over {MAX_SAVED_GAME_CHARS} characters")
    try:
        text = decode_saved_game(raw)
    except (UnicodeDecodeError, ValueError, lzma.LZMAError) as exc:
        raise ModuleReadError(f"{what}: the saved game cannot be decoded ({exc})") from None
    return parse_commands(text)


XZ_HEADER = b"\xfd7zXZ\x00"
VOBS_HEADER = b"VOBS"


def decode_saved_game(raw: bytes) -> str:
    """The command text of a `savedGame` member in any of VASSAL's encodings: `!VCSK` + hex (3.x), `VOBS`
    + key byte + XORed bytes, or XZ (3.7), or plain text. XZ output is bounded (a bomb stops at the limit)."""
    if raw.startswith(XZ_HEADER):
        decompressor = lzma.LZMADecompressor()
        data = decompressor.decompress(raw, max_length=MAX_SAVED_GAME_CHARS)
        if not decompressor.eof:
            raise ValueError(f"the XZ saved game expands beyond {MAX_SAVED_GAME_CHARS} bytes")
        return data.decode("utf-8")
    if raw.startswith(VOBS_HEADER) and len(raw) > len(VOBS_HEADER):
        key = raw[len(VOBS_HEADER)]
        return bytes(b ^ key for b in raw[len(VOBS_HEADER) + 1 :]).decode("utf-8")
    return deobfuscate(raw.decode("utf-8").strip())


MAX_NESTING = 8


def parse_commands(text: str, game: SavedGame | None = None, depth: int = 0) -> SavedGame:
    """Every board and piece command, also inside compound commands (an ESC-joined field, as pywargame and
    the engine's own `Command.append` nest them)."""
    game = game or SavedGame({}, [], 0, {})
    for command in split_commands(text):
        if "\x1b" in command and depth < MAX_NESTING:
            parse_commands(command, game, depth + 1)
        elif command.startswith("+/"):
            try:
                piece_id, definition = parse_add_piece_command(command)
            except ValueError:
                game.skipped += 1
                continue
            if definition.type == "stack" or definition.type.startswith(("stack;", "deck;")):
                _holder(game, definition.type.startswith("deck;"), definition.state)
                continue
            game.pieces.append(Placed(piece_id, definition.type, definition.state))
        elif _BOARD_PICKER in command.split("\t", 1)[0]:
            head, *fields = decode(command, "\t")
            map_name = head[: head.index(_BOARD_PICKER)]
            boards = []
            for i in range(0, len(fields) - 2, 3):
                column, row = _place(fields[i + 1]), _place(fields[i + 2])
                if column is not None and row is not None:
                    boards.append((decode(fields[i], "/")[0], column, row))
            game.boards[map_name] = boards
        elif command not in ("begin_save", "end_save", ""):
            game.skipped += 1
    return game


MAX_BOARD_PLACE = 1000
"""Largest column or row of a board in a map's board picker (a map of more boards across is no map)."""


def _place(text: str) -> int | None:
    """A board picker column or row: a whole number from 0 to MAX_BOARD_PLACE, or None."""
    value = finite(text)
    return int(value) if value is not None and value == int(value) and 0 <= value <= MAX_BOARD_PLACE else None


def _holder(game: SavedGame, deck: bool, state: str) -> None:
    """A Stack's state is `MAP;X;Y;ID;ID...`, a Deck's `MAP;X;Y;FACEDOWN;ID,ID,...`."""
    fields = decode(state, ";")
    if len(fields) < 3:
        game.skipped += 1
        return
    x, y = finite(fields[1]), finite(fields[2])
    if x is None or y is None:
        game.skipped += 1
        return
    place = (fields[0], int(x), int(y))
    ids = decode(fields[4], ",") if deck and len(fields) > 4 else [] if deck else fields[3:]
    for piece_id in ids:
        if piece_id and not piece_id.startswith("@@"):
            game.holders.setdefault(piece_id, place)
