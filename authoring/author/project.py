"""`hexwright init`: a new game project with the fixed layout, from the starter template or a bundled game."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from authoring import atomic, bundled
from authoring.author import templates
from authoring.author.formatdoc import render as render_format
from authoring.author.fsutil import did_you_mean, refuse_existing, refuse_not_folder
from authoring.author.yamlblock import scalar
from authoring.errors import UsageError
from authoring.load import discover
from authoring.load.schemas import SCHEMA_DIR
from authoring.load.source import SourceError, load_source, parse_yaml, text_problems

_ID = re.compile(r"[a-z0-9][a-z0-9-]*\Z")
MAX_NAME = 200  # the schema's maxLength of a game's name


@dataclass(frozen=True)
class InitPlan:
    """What `init` will write: target path -> text. Computed in full before anything is written."""

    dest: Path
    game_id: str
    files: dict[Path, str | bytes]


def game_id_for(dest: Path, given: str | None) -> str:
    """The game id: `--id`, else the folder name made into an id ("My Game" -> "my-game")."""
    gid = given if given is not None else re.sub(r"[^a-z0-9]+", "-", dest.resolve().name.lower()).strip("-")
    if not _ID.match(gid or ""):
        raise UsageError(f"{gid!r} is not a usable game id; use lower-case letters, digits and '-' (pass --id)")
    return gid


def refuse_nested(dest: Path) -> None:
    """Stop (usage error, exit 2) when DEST lies inside a project: every command run in the new one would find
    the outer project's games (`find_root`). DEST that is a project itself is refused as any existing file is."""
    outer = next((p for p in dest.parents if (p / "scenarios").is_dir()), None)
    if outer is not None:
        raise UsageError(
            f"{dest} lies inside the project at {outer} (it holds scenarios/); a new project there would be nested "
            f"in it\n  = help: give a folder outside it (e.g. {outer.parent / 'mygame'}); a further scenario of "
            "one of its games is `hexwright new scenario GAME NAME`"
        )


def bundled_games(root: Path | None = None) -> dict[str, Path]:
    """The games shipped with hexwright (package data, beside its schemas), by id."""
    return {g.id: g.root for g in discover(root or bundled.root())}


def plan_init(
    dest: Path, from_game: str | None = None, game_id: str | None = None, name: str | None = None
) -> InitPlan:
    """Every file of the new project, read before any is written; refuses if one already exists."""
    dest = dest.resolve()
    refuse_not_folder(dest)
    refuse_nested(dest)
    files = schema_files(dest)
    files[dest / "docs" / "format.md"] = render_format()
    if from_game:
        games = bundled_games()
        if from_game not in games:
            raise UsageError(did_you_mean(from_game, games, "bundled game"))
        gid = from_game
        files.update(_copied_game(games[from_game], dest, from_game))
        title = _game_name(games[from_game], from_game)
        files[dest / "README.md"] = _fill(templates.README, gid, title)
    else:
        gid = game_id_for(dest, game_id)
        title = game_title(name, gid)
        for rel, text in templates.FILES.items():
            files[dest / rel.replace("GAME_ID", gid)] = _fill(text, gid, title)
    refuse_existing(files, dest)
    return InitPlan(dest, gid, files)


def _fill(text: str, gid: str, title: str) -> str:
    ref = rules_prefix(title, gid)
    return (
        text.replace("GAME_ID", gid)
        .replace("NAME_VALUE", scalar(title))
        .replace("GAME_NAME", title)
        .replace("RULES_REF_VALUE", scalar(ref))
        .replace("RULES_REF", ref)
    )


_WORD = re.compile(r"[^\W_]+(?:['\u2019][^\W_]+)*")
_ASIDE = re.compile(r"\([^)]*\)|\[[^]]*]|\{[^}]*}")


def rules_prefix(title: str, gid: str) -> str:
    """The citation prefix of a new game's rules ("Typhoon 3.1", "BFM 3.1"): a one-word title as it is,
    else the initials of its words with numbers whole ("Caen 1944 (art test)" gives "C1944"); an aside
    in brackets is left out and so is every character that is not a letter or digit (but a `-` between two
    numbers)."""
    words = [w.replace("'", "").replace("\u2019", "") for w in _WORD.findall(_ASIDE.sub(" ", title))]
    if not words:
        words = _WORD.findall(title) or [gid]
    if len(words) == 1:
        return words[0]
    out = ""
    for before, w in zip(["", *words], words):
        out += ("-" if before.isdigit() and w.isdigit() else "") + (w if w.isdigit() else w[0].upper())
    return out


def game_title(name: str | None, gid: str) -> str:
    """`--name`, or a title made from the id; refuses what cannot be a one-line name (exit 2)."""
    if name is None or not name.strip():
        return gid.replace("-", " ").title()

    name = name.strip()
    if "\n" in name:
        raise UsageError("--name holds a line break; a game's name is one line of plain text")
    problems = text_problems(parse_yaml(f"name: {scalar(name)}\n", "--name"))
    if problems:
        raise UsageError(f"--name {problems[0].message}; {problems[0].help}")
    if len(name) > MAX_NAME:
        raise UsageError(f"--name is {len(name)} characters long; a game's name has at most {MAX_NAME}")
    return name


def schema_files(dest: Path) -> dict[Path, str]:
    """The JSON Schemas, so the `$schema=../../schemas/...` line of every data file resolves in editors."""
    return {dest / "schemas" / p.name: p.read_text(encoding="utf-8") for p in sorted(SCHEMA_DIR.glob("*.schema.json"))}


def _game_name(src_root: Path, gid: str) -> str:
    try:
        data = load_source(src_root / "scenarios" / gid / "game.yaml").data
    except SourceError:
        return gid
    return str(data.get("name") or gid) if isinstance(data, dict) else gid


def _copied_game(src_root: Path, dest: Path, gid: str) -> dict[Path, str | bytes]:
    """Every file of the game, byte for byte (art and other binary files included)."""
    out: dict[Path, str | bytes] = {}
    for folder in ("scenarios", "maps", "counters"):
        base = src_root / folder / gid
        for p in sorted(base.rglob("*")) if base.is_dir() else ():
            if p.is_file() and not p.name.startswith("."):
                out[dest / p.relative_to(src_root)] = p.read_bytes()
    out[dest / ".gitignore"] = templates.GITIGNORE
    return out


def write_plan(plan: InitPlan) -> list[Path]:
    """Write the planned files (each atomically), in sorted order; returns them."""
    for path in sorted(plan.files):
        content = plan.files[path]
        if isinstance(content, bytes):
            atomic.write_bytes(path, content, inside=plan.dest)
        else:
            atomic.write_text(path, content, inside=plan.dest)
    return sorted(plan.files)


def init_project(
    dest: Path, from_game: str | None = None, game_id: str | None = None, name: str | None = None
) -> InitPlan:
    plan = plan_init(dest, from_game, game_id, name)
    write_plan(plan)
    return plan
