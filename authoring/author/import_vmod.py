"""`hexwright import-vmod`: an existing VASSAL module as a hexwright project (issue 19).

Reads the whole module first (`authoring.vmod`), plans every file, refuses to overwrite any, then writes
each atomically, like `init`. What the module cannot tell (terrain, stacking, set-up codes, tables,
the turn record) is written as `TODO` notes; `todo_findings` lists them as located warnings.
"""

from __future__ import annotations

import re
from collections import Counter as Tally
from collections import deque
from dataclasses import replace
from pathlib import Path

import yaml
from PIL import Image

from authoring.author import templates
from authoring.author.fsutil import refuse_existing, refuse_not_folder
from authoring.author.project import schema_files, write_plan
from authoring.author.vmod_common import (
    TODO,
    Folded,
    ImportCounter,
    ImportPlan,
    Sizes,
    art_file,
    dump_yaml,
    inches,
    short_name,
    signature,
    slug,
    squared,
    unique,
    unique_file,
)
from authoring.author.vmod_maps import import_maps, layout, shared_ids, stand_in_map
from authoring.author.vmod_setups import import_scenarios
from authoring.budget import COUNTER_SIZE_IN
from authoring.diagnostics.codes import HW_VMOD_001, HW_VMOD_002, HW_VMOD_003
from authoring.diagnostics.record import Loc
from authoring.diagnostics.summary import cut, kind
from authoring.errors import HexwrightError, UsageError
from authoring.load.project import display
from authoring.load.source import compose
from authoring.vassal.codec import parse_add_piece_command
from authoring.vmod.archive import DamagedMember, ModuleReadError, build_file, open_archive
from authoring.vmod.buildfile import MAX_SLOTS, Finding, Module, Slot, read_module
from authoring.vmod.picture import opened, too_large
from authoring.vmod.pieces import FacePlan, Piece, Prototypes, decode_placed, face_plan

__all__ = ("DamagedModule", "ImportPlan", "diagnostics", "import_vmod", "plan_import", "todo_findings")


def import_vmod(module: Path, dest: Path, game_id: str | None = None) -> ImportPlan:
    plan = plan_import(module, dest, game_id)
    write_plan(plan)
    return plan


class DamagedModule(HexwrightError):
    """A member of the module cannot be read (HW-VMOD-003, in `diagnostics`): nothing is written, exit 1."""

    def __init__(self, module_path: Path, exc: DamagedMember):
        message = str(exc).removeprefix(f"{module_path}: ")
        super().__init__(f"{display(Path(module_path))} cannot be imported; nothing was written")
        self.diagnostics = [
            HW_VMOD_003.at(
                message,
                Loc(display(Path(module_path))),
                help="get an undamaged copy of the module (download it again, or save it again in VASSAL's editor)",
            )
        ]


def plan_import(module_path: Path, dest: Path, game_id: str | None = None) -> ImportPlan:
    """Every file of the imported project, computed in full before anything is written; `DamagedModule` when a
    member the import reads is damaged or encrypted."""
    try:
        return _plan(module_path, dest, game_id)
    except DamagedMember as exc:
        raise DamagedModule(module_path, exc) from None


def _plan(module_path: Path, dest: Path, game_id: str | None) -> ImportPlan:
    try:
        archive = open_archive(Path(module_path))
        _, root = build_file(archive)
        module = read_module(archive, root)
    except DamagedMember:
        raise
    except ModuleReadError as exc:
        raise UsageError(str(exc)) from None
    dest = Path(dest).resolve()
    refuse_not_folder(dest)
    gid = game_id or (slug(module.name) or "imported").lower()
    if not re.match(r"[a-z0-9][a-z0-9-]*\Z", gid):
        raise UsageError(f"{gid!r} is not a usable game id; use lower-case letters, digits and '-' (pass --id)")
    plan = ImportPlan(dest, gid, schema_files(dest), list(module.findings))
    files = plan.files
    files[dest / ".gitignore"] = templates.GITIGNORE
    maps = import_maps(plan, archive, module)
    sides = _sides(module)
    protos = Prototypes(module.prototypes)
    counters, art, face_plans = _counters(plan, archive, module, sides, protos)
    states = _states(counters)
    unit_types = _unit_types(plan, counters, sides)
    shared_ids(plan, maps)
    if not maps and (module.setups or any(s.at_start for s in module.slots)):
        maps = stand_in_map(plan)
    scenarios = import_scenarios(plan, archive, module, maps, counters, face_plans, protos)
    order = [sid for sid, _ in sides]
    used_sides = (
        sorted({c.side for c in counters.values()}, key=lambda s: order.index(s) if s in order else len(order))
        or order
        or ["neutral"]
    )
    files[dest / "scenarios" / gid / "game.yaml"] = _game_yaml(
        module, gid, sides, used_sides, states, counters, maps, art, unit_types
    )
    files[dest / "counters" / gid / "counters.yaml"] = _counters_yaml(gid, counters, states)
    for name, data in art.items():
        files[dest / "counters" / gid / "art" / name] = data
    for sid, text in scenarios.items():
        files[dest / "scenarios" / gid / f"{sid}.yaml"] = text
    plan.figures.update(
        {"maps": len(maps), "counters": len(counters), "scenarios": len(scenarios), "slots": len(module.slots)}
    )
    refuse_existing(files, dest)
    return plan


def _sides(module: Module) -> list[tuple[str, str]]:
    """(id, name) of the module's player sides; without a roster, the palette's top-level folders."""
    names = list(dict.fromkeys(module.sides))
    if not names:
        names = list(dict.fromkeys(s.folders[0] for s in module.slots if s.folders))
    out = []
    for name in names:
        out.append((unique(slug(name).lower() or "side", dict(out)), name))
    return out


def _side_of(slot, piece: Piece, sides: list[tuple[str, str]]) -> str:
    """A slot's side: a folder, prototype, name or at-start stack named as the side, else one whose words
    (split on `_`, `-` and spaces, as module authors name pieces `Moslem_Cannon_1-0`) include the side's."""
    texts = [*slot.folders, *piece.prototypes, slot.entry_name, piece.name]
    for text in texts:
        for sid, name in sides:
            if name.lower() == text.lower():
                return sid
    for text in texts:
        words = _words(text)
        for sid, name in sides:
            side_words = _words(name)
            if side_words and any(words[i : i + len(side_words)] == side_words for i in range(len(words))):
                return sid
    return "neutral"


def _side_pattern(sides) -> re.Pattern | None:
    """One pattern for "names a side": any side's words, whole, in text whose words are joined by spaces."""
    names = sorted({" ".join(_words(n)) for _, n in sides} - {""}, key=len, reverse=True)
    return re.compile(" (?:" + "|".join(re.escape(n) for n in names) + ") ") if names else None


def _words(text: str) -> list[str]:
    return [w for w in re.split(r"[\s_\-]+", text.lower()) if w]


def _counters(
    plan: ImportPlan, archive, module: Module, sides, protos: Prototypes
) -> tuple[dict[str, ImportCounter], dict[str, bytes], dict[str, FacePlan]]:
    """A counter per piece slot (faces: its own image and its flip or step layer), then one per piece a
    Place Marker trait makes that no slot defines (a lord's mat made by its card), the art, and each
    counter's face plan."""
    made = _Made(plan, archive, sides)
    markers: dict[str, Slot] = {}
    for slot in module.slots:
        try:
            _, definition = parse_add_piece_command(slot.text)
            piece, _, _ = decode_placed(definition.type, definition.state, protos)
        except ValueError as exc:
            plan.findings.append(Finding(slot.where, f"piece slot {slot.entry_name!r} cannot be decoded: {exc}"))
            continue
        for name in piece.unknown_prototypes:
            plan.findings.append(
                Finding(
                    slot.where,
                    f"piece slot {slot.entry_name!r} uses prototype {name!r}, which the module does not define",
                )
            )
        made.add(slot, piece, slot.entry_name)
        for text in piece.markers:
            markers.setdefault(text, slot)
    _marker_counters(made, markers, protos)
    return made.counters, made.art, made.plans


class _Made:
    """The counters made so far, their art and face plans, and each counter's signature."""

    def __init__(self, plan: ImportPlan, archive, sides) -> None:
        self.plan, self.archive, self.sides = plan, archive, sides
        self.counters: dict[str, ImportCounter] = {}
        self.plans: dict[str, FacePlan] = {}
        self.art: dict[str, bytes] = {}
        self.art_names: dict[str, str | None] = {}
        self.sizes = Sizes(archive)
        self.tried: dict[str, int] = {}
        self.art_taken = Folded()
        self.signatures: set[tuple] = set()

    def add(self, slot, piece: Piece, entry_name: str, quiet: bool = False) -> bool:
        """A counter of `piece` from `slot` (its folders and place in the module); False when it has no image
        (said unless `quiet`: a marker with no image is game logic, and set-ups that place it say so)."""
        faces_plan = face_plan(piece, self.sizes)
        faces, names = [], []
        for image, level_name in zip(faces_plan.images, faces_plan.names):
            if image not in self.art_names:
                self.art_names[image] = _add_art(self.plan, slot, image, self.archive, self.art, self.art_taken)
            if self.art_names[image] is not None:
                faces.append(self.art_names[image])
                names.append(level_name)
        if not faces:
            if quiet:
                return False
            self.plan.findings.append(Finding(slot.where, f"piece slot {entry_name!r} has no image; not imported"))
            return False
        base = entry_name or piece.name or _stem(faces_plan.images[0])
        cid = unique(slug(base).lower() or "piece", self.counters, self.tried)
        sig = signature(piece, faces_plan)
        self.counters[cid] = ImportCounter(
            cid,
            short_name(piece.name or entry_name or base),
            _side_of(slot, piece, self.sides),
            faces,
            sig,
            slot.where,
            names,
            piece.prototypes,
        )
        self.plans[cid] = faces_plan
        self.signatures.add(sig)
        return True


def _marker_counters(made: _Made, markers: dict[str, Slot], protos: Prototypes) -> None:
    """A counter for each piece a Place Marker trait writes out in full (art and state from its definition)
    that no slot defines, also for markers that markers make; at most MAX_SLOTS counters in all."""
    queue, seen = deque(markers.items()), set(markers)
    while queue and len(made.counters) < MAX_SLOTS:
        text, slot = queue.popleft()
        try:
            _, definition = parse_add_piece_command(text)
            piece, _, _ = decode_placed(definition.type, definition.state, protos)
        except ValueError:
            continue
        for inner in piece.markers:
            if inner not in seen:
                seen.add(inner)
                queue.append((inner, slot))
        if signature(piece, face_plan(piece, made.sizes)) in made.signatures:
            continue
        made.add(replace(slot, entry_name=""), piece, "", quiet=True)


def _stem(image: str) -> str:
    """An image's file name without folders and extension (`Mat_T_Hermann.png` -> `Mat_T_Hermann`)."""
    return image.rsplit("/", 1)[-1].rsplit(".", 1)[0]


def _add_art(plan: ImportPlan, slot, image: str, archive, art: dict[str, bytes], taken: Folded) -> str | None:
    """The art file name for a module image (added to `art`), or None with a finding."""
    data = archive.image(image)
    if data is None:
        plan.findings.append(Finding(slot.where, f"image {image!r} of {slot.entry_name!r} is not in the module"))
        return None
    made = art_file(image, data)
    if made is None:
        why = too_large(data) or "is no image hexwright can read (PNG, JPEG, GIF or SVG)"
        plan.findings.append(Finding(slot.where, f"image {image!r} of {slot.entry_name!r} {why}"))
        return None
    padded = squared(*made)
    if padded is not None:
        made = padded[:2]
        w, h = padded[2]
        plan.findings.append(
            Finding(
                slot.where,
                f"image {image!r} of {slot.entry_name!r} is {w} x {h} px, longer than "
                "a counter face can show: centred on a square for the counter",
            )
        )
    name = unique_file(made[0], taken)
    taken.add(name)
    art[name] = made[1]
    return name


SYMBOLS = (
    "infantry",
    "armor",
    "mechanized",
    "cavalry",
    "artillery",
    "hq",
    "engineer",
    "recon",
    "mountain",
    "ski",
    "shock",
    "guards",
    "fighter",
    "bomber",
    "supply",
    "marker",
)
"""The project's unit symbols: a type whose name is one of them gets it (full-face art hides it anyway)."""


_CLASS = re.compile(r"\(class\)\s*$", re.I)


def _unit_types(plan: ImportPlan, counters: dict[str, ImportCounter], sides) -> list[dict]:
    """Unit types from prototypes, where the rule is clear: every piece that uses a prototype not named
    after a side uses exactly one such prototype, or, using several, exactly one named "X (class)" (the
    others hold shared traits: combat, markers); its name (without "(class)") is the piece's type."""
    sided = _side_pattern(sides)
    named: dict[str, bool] = {}
    per: dict[str, list[str]] = {}
    for c in counters.values():
        for p in c.prototypes:
            if p not in named:
                named[p] = bool(sided and sided.search(" " + " ".join(_words(p)) + " "))
        per[c.id] = list(dict.fromkeys(p for p in c.prototypes if not named[p]))
    if not any(per.values()):
        return []
    if any(len(v) > 1 for v in per.values()) and all(
        len([p for p in v if _CLASS.search(p)]) == 1 for v in per.values() if len(v) > 1
    ):
        per = {c: [p for p in v if _CLASS.search(p)] if len(v) > 1 else v for c, v in per.items()}
    if any(len(v) > 1 for v in per.values()):
        many = next(c for c, v in per.items() if len(v) > 1)
        plan.findings.append(
            Finding(
                counters[many].where,
                f"pieces use several prototypes each (e.g. {many!r}: "
                f"{', '.join(per[many])}): no unit types are inferred",
            )
        )
        return []
    types: dict[str, dict] = {}
    for cid, (proto, *_) in ((c, v) for c, v in per.items() if v):
        name = re.sub(r"\s*\(class\)\s*$", "", proto, flags=re.I).strip() or proto
        tid = slug(name).lower() or "type"
        counters[cid].type = tid
        entry = types.setdefault(tid, {"id": tid, "name": name[:1].upper() + name[1:]})
        if tid in SYMBOLS:
            entry["symbol"] = tid
    return list(types.values())


def _states(counters: dict[str, ImportCounter]) -> list[tuple[str, str, bool]]:
    """The game's strength states, (id, name, named by the module), and each counter's face states: a face
    is the state its own layer level names ("+ (half strength)" -> "Half strength"); an unnamed face, or
    one whose name its counter already used, is "Face N" by its position."""
    out: dict[str, tuple[str, str, bool]] = {}
    for c in counters.values():
        c.states = []
        for i in range(len(c.faces)):
            raw = c.level_names[i] if i < len(c.level_names) else ""
            name = raw.strip().lstrip("+").rstrip("+").strip().strip("()").strip()
            sid = slug(name).lower() if name else ""
            if not sid or sid in c.states or sid.startswith("face-"):
                sid, name = f"face-{i + 1}", f"Face {i + 1}"
            c.states.append(sid)
            out.setdefault(sid, (sid, name[:1].upper() + name[1:], not sid.startswith("face-")))
    if not out:
        out["face-1"] = ("face-1", "Face 1", False)
    generic = sorted((k for k in out if k.startswith("face-")), key=lambda k: int(k.split("-")[1]))
    return [out[k] for k in generic] + [v for k, v in out.items() if not k.startswith("face-")]


def _side_colours(counters: dict[str, ImportCounter], art: dict[str, bytes]) -> dict[str, str]:
    """Each side's colour: the mean colour of its first counter's first face."""
    out: dict[str, str] = {}
    for c in counters.values():
        if c.side in out or c.faces[0] not in art:
            continue
        try:
            with opened(art[c.faces[0]]) as im:
                r, g, b = im.convert("RGB").resize((1, 1), Image.Resampling.BOX).getpixel((0, 0))
        except Exception:  # noqa: BLE001 - a colour is a nicety, never a failure
            continue
        out[c.side] = f"#{r:02x}{g:02x}{b:02x}"
    return out


def _game_yaml(module: Module, gid: str, sides, used_sides, states, counters, maps, art, unit_types) -> str:
    names = dict(sides)
    colours = _side_colours(counters, art)
    side_list = [
        {
            "id": s,
            "name": names.get(s, "Neutral"),
            "color": colours.get(s, "#c0c0c0"),
            "text_color": "#000000",
            **(
                {}
                if s in names
                else {
                    "note": "pieces of no player side (markers)"
                    if counters
                    else "the module names no player side and has no pieces"
                }
            ),
        }
        for s in used_sides
    ]
    counter_px = _counter_px(counters, art)
    doc = {
        "kind": "game",
        "id": gid,
        "name": module.name,
        "version": module.version or "1.0",
        "description": module.description or f"Imported from the VASSAL module {module.name!r}.",
        "note": f"{TODO}: imported by `hexwright import-vmod`; terrain types, stacking, set-up codes, rule "
        "tables and strength-state names are not in a module: fill them in.",
        "sides": side_list,
        "terrain": [{"id": "clear", "name": "Clear", "note": f"{TODO}: the module's terrain is only art"}],
        "strength_states": [
            {
                "id": sid,
                "name": name,
                **({} if named else {"note": f"{TODO}: name this state (layer level {i} of the module)"}),
            }
            for i, (sid, name, named) in enumerate(states, 1)
        ],
    }
    if counter_px:
        doc["counter_size"] = f"{inches(counter_px, COUNTER_SIZE_IN)}in"
    if unit_types:
        doc["unit_types"] = unit_types
    if len(maps) > 1 and sum(len(m.labels) for m in maps.values()) == len(
        frozenset().union(*(m.labels for m in maps.values()))
    ):
        doc["layout"] = layout(maps)
    return dump_yaml("game", doc)


def _counter_px(counters: dict[str, ImportCounter], art: dict[str, bytes]) -> int | None:
    """The commonest piece image width, so rebuilt counters keep their size relative to the hexes."""
    widths: Tally = Tally()
    known: dict[str, int | None] = {}  # each art file opened once, however many counters show it
    for c in counters.values():
        if c.faces and c.faces[0] in art:
            if c.faces[0] not in known:
                known[c.faces[0]] = _width(art[c.faces[0]])
            if known[c.faces[0]] is not None:
                widths[known[c.faces[0]]] += 1
    return widths.most_common(1)[0][0] if widths else None


def _width(data: bytes) -> int | None:
    try:
        with opened(data) as im:
            return im.size[0]
    except Exception:  # noqa: BLE001 - unreadable art is reported by validate
        return None


def _counters_yaml(gid: str, counters: dict[str, ImportCounter], states) -> str:
    rows = []
    for c in counters.values():
        rows.append(
            {
                "id": c.id,
                "side": c.side,
                **({"type": c.type} if c.type else {}),
                "name": c.name,
                "faces": [{"state": st, "image": f"art/{f}"} for st, f in zip(c.states, c.faces)],
            }
        )
    doc = {
        "kind": "counters",
        "game": gid,
        "note": f"{TODO}: unit types, sizes, values and flags are not read from the module; faces are its images.",
        "counters": rows,
    }
    return dump_yaml("counters", doc)


def todo_findings(plan: ImportPlan) -> list[tuple[Path, int, str]]:
    """(file, line, text) of every TODO written: what the designer has to fill in, each note whole (a long
    note spans several lines of its file)."""
    out = []
    for path, content in sorted(plan.files.items()):
        if isinstance(content, str) and path.suffix == ".yaml" and TODO + ":" in content:
            out += [(path, line, text) for line, text in _todo_notes(compose(content))]
    return out


def _todo_notes(node) -> list[tuple[int, str]]:
    """(line, text from TODO on) of every scalar of a composed YAML tree that holds a TODO."""
    if isinstance(node, yaml.ScalarNode):
        value = str(node.value)
        return [(node.start_mark.line + 1, value[value.index(TODO) :])] if TODO + ":" in value else []
    if isinstance(node, yaml.MappingNode):
        return [found for pair in node.value for part in pair for found in _todo_notes(part)]
    if isinstance(node, yaml.SequenceNode):
        return [found for item in node.value for found in _todo_notes(item)]
    return []


def summarised(findings: list[Finding]) -> list[Finding]:
    """`findings` with each kind (the same message but for names and numbers) of many cut to its first few
    and one finding that counts the rest (`diagnostics.summary`, as a build's warnings)."""
    return cut(findings, lambda f: kind(f.message), lambda f: f.message, lambda f, text: Finding(f.where, text))


def diagnostics(plan: ImportPlan, module_path: Path) -> list:
    """The import's findings (HW-VMOD-001, located by XML path in the module) and its TODOs
    (HW-VMOD-002, located in the written file) as warnings: an import never fails on what it skips."""
    out = [
        HW_VMOD_001.at(
            f.message,
            Loc(f"{Path(module_path).name}:{f.where}"),
            help="imported as far as the project can say it; see docs/import-vmod.md",
        )
        for f in summarised(plan.findings)
    ]
    for path, line, text in todo_findings(plan):
        rel = path.relative_to(plan.dest) if path.is_relative_to(plan.dest) else path
        out.append(HW_VMOD_002.at(text, Loc(str(rel), line, 1), help="the module does not say this: fill it in"))
    return out
