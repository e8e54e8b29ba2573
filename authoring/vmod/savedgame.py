"""A saved game (`.vsav`, a predefined set-up's file): which boards each map uses and every piece placed."""
from __future__ import annotations

from dataclasses import dataclass

from authoring.vassal.codec import decode, deobfuscate, parse_add_piece_command, split_commands
from authoring.vmod.archive import Archive, ModuleReadError, open_archive

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
    """Commands that are neither boards nor pieces (stacks, properties, chat...)."""


def read_saved_game(data: bytes, what: str) -> SavedGame:
    """Decode a .vsav (zip with an obfuscated or plain `savedGame`)."""
    archive: Archive = open_archive(data)
    if not archive.has("savedGame"):
        raise ModuleReadError(f"{what}: no savedGame member: not a VASSAL saved game")
    raw = archive.read("savedGame")
    if len(raw) > MAX_SAVED_GAME_CHARS:
        raise ModuleReadError(f"{what}: the saved game is over {MAX_SAVED_GAME_CHARS} characters")
    try:
        text = deobfuscate(raw.decode("utf-8").strip())
    except (UnicodeDecodeError, ValueError) as exc:
        raise ModuleReadError(f"{what}: the saved game cannot be decoded ({exc})") from None
    return parse_commands(text)


MAX_NESTING = 8


def parse_commands(text: str, game: SavedGame | None = None, depth: int = 0) -> SavedGame:
    """Every board and piece command, also inside compound commands (an ESC-joined field, as pywargame and
    the engine's own `Command.append` nest them)."""
    game = game or SavedGame({}, [], 0)
    for command in split_commands(text):
        if "\x1b" in command and depth < MAX_NESTING:
            parse_commands(command, game, depth + 1)
        elif command.startswith("+/"):
            try:
                piece_id, definition = parse_add_piece_command(command)
            except ValueError:
                game.skipped += 1
                continue
            if definition.type == "stack" or definition.type.startswith("stack;"):
                game.skipped += 1
                continue
            game.pieces.append(Placed(piece_id, definition.type, definition.state))
        elif _BOARD_PICKER in command.split("\t", 1)[0]:
            head, *fields = decode(command, "\t")
            map_name = head[: head.index(_BOARD_PICKER)]
            boards = []
            for i in range(0, len(fields) - 2, 3):
                try:
                    boards.append((decode(fields[i], "/")[0], int(fields[i + 1]), int(fields[i + 2])))
                except ValueError:
                    continue
            game.boards[map_name] = boards
        elif command not in ("begin_save", "end_save", ""):
            game.skipped += 1
    return game
