"""`hexwright new scenario`: a skeleton, or a copy of an existing scenario to vary, in the game's folder."""

from __future__ import annotations

import json
import re
from pathlib import Path

from authoring import names
from authoring.author import templates
from authoring.author.fsutil import did_you_mean, refuse_existing
from authoring.author.keep import replace_checked
from authoring.author.setup_io import find_scenario
from authoring.author.yamlblock import scalar
from authoring.diagnostics.text import printable
from authoring.errors import HexwrightError, UsageError
from authoring.load import discover, find_root, schemas
from authoring.load.project import GameFiles, display
from authoring.load.source import SourceError, load_source, parse_yaml, text_problems
from authoring.readfile import read_limited

_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]*\Z")


def _game(project: Path, game: str) -> GameFiles:
    games = discover(find_root(project))
    for g in games:
        if g.id == game:
            return g
    raise UsageError(
        did_you_mean(game, [g.id for g in games], "game")
        + ("" if games else " (no game here: run `hexwright init` first, or pass --project)")
    )


def scenario_id(name: str) -> str:
    sid = name if _ID.match(name) else re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    if not _ID.match(sid):
        raise UsageError(f"{name!r} cannot be a scenario id; use letters, digits and '-'")

    if len(names.encode_part(sid)) > names.MAX_PART:  # what validate refuses (HW-NAME-001), before any file is named
        raise UsageError(
            f"scenario id {sid[:40]!r}... is too long for a file name (at most {names.MAX_PART} "
            "characters); give a shorter NAME"
        )
    return sid


def new_scenario(project: Path, game: str, name: str, from_scenario: str | None = None) -> Path:
    """Write scenarios/<game>/<id>.yaml; refuses to overwrite a file or to reuse a scenario id."""
    files = _game(project, game)
    sid = scenario_id(name)
    target = files.manifest.parent / f"{sid}.yaml"
    refuse_existing([target], files.root)
    taken = {_id_of(p) for p in files.scenarios}
    if sid in taken:
        raise UsageError(f"game {game!r} already has a scenario {sid!r}; pick another name")
    title = name if name != sid else sid.replace("-", " ").capitalize()
    if from_scenario:
        text = _copy(find_scenario(files.root, from_scenario, game).path, sid, title)
    else:
        text = _skeleton(files, sid, title)
    _check_written(text, name, display(target))
    replace_checked(files, target, text, f"the new scenario {sid!r}", new=True)
    return target


def _check_written(text: str, name: str, shown: str) -> None:
    """Refuse a NAME that `validate` would refuse in the file written (a bidirectional override, a control
    character, a trailing backslash, a name over its length): what `new scenario` writes always validates
    where it wrote. Parsing also makes sure that a bug here never leaves a broken file behind."""
    src = parse_yaml(text, shown)
    found = [d for d in text_problems(src) + schemas.validate(src, "scenario") if d.path[:1] in (("name",), ("id",))]
    if found:
        raise UsageError(
            printable(f"{name!r} cannot be a scenario name: {found[0].message}")
            + "; use letters, digits, spaces and punctuation on one line"
        )


def _id_of(path: Path) -> str:
    try:
        data = load_source(path).data
    except SourceError:
        return path.stem
    return str(data.get("id", path.stem)) if isinstance(data, dict) else path.stem


def _copy(source: Path, sid: str, title: str) -> str:
    """The source scenario's text with a new top-level `id:` and `name:`; comments and layout kept."""
    text = read_limited(source).decode("utf-8")
    text, n_id = re.subn(r"(?m)^id:[^\n]*$", f"id: {scalar(sid)}", text, count=1)
    text, _ = re.subn(
        r"(?m)^name:[^\n]*$", f"name: {scalar(title) if ' ' not in title else _quote(title)}", text, count=1
    )
    if n_id != 1:
        raise HexwrightError(f"{display(source)} has no top-level `id:` line to change; copy it by hand")
    note = f"# Copied from {source.name} by `hexwright new scenario`; change what the variant does differently.\n"
    lines = text.split("\n", 1)
    if lines[0].startswith("# yaml-language-server:"):
        return lines[0] + "\n" + note + (lines[1] if len(lines) > 1 else "")
    return note + text


def _quote(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _skeleton(files: GameFiles, sid: str, title: str) -> str:
    manifest = load_source(files.manifest).data
    sides = [str(s["id"]) for s in manifest.get("sides", []) if isinstance(s, dict) and "id" in s]
    maps = [str(load_source(p).data.get("id", p.stem)) for p in files.maps]
    setup = "".join(
        f'  {scalar(s)}: []     # placements: - {{hex: "0101", units: [unit-id], state: full}}\n' for s in sides
    )
    return (
        templates.SCENARIO_SKELETON.replace("GAME_ID", files.id)
        .replace("SCENARIO_ID", sid)
        .replace("SCENARIO_NAME", title)
        .replace("MAPS", ", ".join(maps))
        .replace("SETUP_SIDES", setup)
    )
