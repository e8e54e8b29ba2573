"""Game data -> a finished VASSAL module's bytes (`module_chunks`), made whole on every build (its unchanged
members copied as stored from the module it replaces).

`compile_module` reads top to bottom: images, pieces, windows, set-ups, archive. Nothing in the
module is hand-made, so it cannot drift from the data. Pure: the caller hands in where the images are
kept (`art.Images`) and how they are keyed (`art.ImageKeys`), and writes the bytes and the manifest
(`pipeline.module.write_module`, which leaves a module whose inputs are unchanged as it is).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, replace
from functools import cache, partial
from pathlib import Path
from typing import TypeVar

from lxml import etree

from authoring.errors import BuildError
from authoring.model import Counter, Game
from authoring.names import natural_key
from authoring.progress import SILENT, Progress
from authoring.vassal import aids, archive, briefing, combat, draws, help, identity, images, turns, victory, windows
from authoring.vassal import elements as el
from authoring.vassal.art import KEPT_IMAGES, Batch, ImageKeys, Images
from authoring.vassal.boards import BoardPlan, MapSet, distinct_boards, plans_for
from authoring.vassal.boxes import BoxBoard, BoxSpec, box_board
from authoring.vassal.codec import Definition, add_piece_command, nest
from authoring.vassal.help import setup_title
from authoring.vassal.native import native_px_per_hex
from authoring.vassal.pieces import (
    DEAD_MAP,
    HIDDEN,
    TRACK_MAP,
    WITHDRAWAL_IMAGE,
    at_state,
    counter_piece,
    dead_box,
    expanded,
    prototypes,
    withdrawal_piece,
)
from authoring.vassal.setups import (
    SetupContext,
    box_positions,
    saved_game_files,
    track_sections,
    withdrawal_chits,
)
from authoring.vassal.traits import Piece

DEFAULT_PX_PER_HEX = 72
"""Hex width across the flats on screen, in pixels."""
DATE_MS = 946_684_800_000
"""Fixed `dateSaved` (2000-01-01): the module's bytes depend on the data only."""
VASSAL_VERSION = "3.6.0"
MANIFEST_VERSION = 1
IMAGES = "images/"
WITHDRAWAL_SLOT = "withdrawal reminder"
"""The slot key of the palette's withdrawal chit (not a counter key: those start `counter:`)."""
T = TypeVar("T")


@dataclass(frozen=True)
class Options:
    px_per_hex: float
    counter_px: int


def module_options(game: Game, px_per_hex: float = DEFAULT_PX_PER_HEX, counter_px: int | None = None) -> Options:
    """The module's scale: boards that are the designer's art as it is keep its hex size; counters keep their
    printed size relative to the hexes unless `counter_px` says otherwise."""
    if px_per_hex == DEFAULT_PX_PER_HEX:
        px_per_hex = native_px_per_hex(game) or px_per_hex
    return Options(float(px_per_hex), counter_px or default_counter_px(game, px_per_hex))


Kept = Callable[[Collection[str]], Mapping[str, bytes]]
"""The images an earlier module had for its pieces, by name, but the names given (the new module's own)."""


def module_chunks(
    game: Game,
    options: Options,
    cache: Images,
    keys: ImageKeys,
    progress: Progress = SILENT,
    cards_drawn: Callable[[], object] | None = None,
    kept: Kept | None = None,
    previous: Callable[[], Mapping[str, archive.Stored]] | None = None,
) -> tuple[archive.Zipped, int]:
    """The `.vmod`'s bytes (in chunks, deterministic, with how each member was had) and its count of files,
    its images named by `keys` and read from (or drawn into) `cache`; the caller writes them. `cards_drawn`:
    when another stage draws the set-up card pages into the cache (`build all`'s cards stage), returns once it
    has; the module then draws none of them. `kept`: the piece images of the module this one replaces
    (`vmod.kept.piece_images`), which the module keeps where it has no image of that name, so that a game saved
    with the old one still loads. `previous()`: the members of the module this one replaces
    (`archive.stored_members`), whose unchanged members are copied rather than compressed again."""
    try:
        build_file, files = compile_module(game, options, cache, keys, progress, cards_drawn)
        files.update(kept_files(files, kept))
    except (ValueError, KeyError, OSError) as error:
        raise BuildError(f"cannot build the VASSAL module of {game.id!r}: {error}") from error
    moduledata = archive.module_data(game.name, game.version, _description(game), DATE_MS, VASSAL_VERSION)
    before = previous() if previous is not None else None
    return archive.module_parts(build_file, moduledata, files, cache.deflated, before), len(files)


def kept_files(files: Mapping[str, bytes], kept: Kept | None) -> dict[str, bytes]:
    """The kept images the module lacks (each under images/) and the member listing them, or nothing."""
    made = {name[len(IMAGES) :] for name in files if name.startswith(IMAGES)}
    old = dict(kept(made)) if kept is not None else {}
    if not old:
        return {}
    listing = "\n".join(sorted(old)).encode("utf-8")
    return {**{IMAGES + name: data for name, data in sorted(old.items())}, KEPT_IMAGES: listing}


def default_counter_px(game: Game, px_per_hex: float) -> int:
    """Counters keep their printed size relative to the hexes."""
    hex_in = min((m.hex_size_in for m in game.maps.values()), default=game.counter_size_in) or 1.0
    return max(16, round(px_per_hex * game.counter_size_in / hex_in))


def help_source(game: Game) -> tuple[str, bytes] | None:
    """The designer's help page the module is made from, by its path inside the project and its bytes, never
    by an absolute path (so that two clones of a project give one manifest); None without one."""
    page = help.help_source(game)
    if page is None:
        return None
    root = Path(game.root).resolve()
    return (page.relative_to(root).as_posix() if page.is_relative_to(root) else page.name, page.read_bytes())


def compile_module(
    game: Game,
    options: Options,
    cache: Images,
    keys: ImageKeys,
    progress: Progress = SILENT,
    cards_drawn: Callable[[], object] | None = None,
) -> tuple[etree._Element, dict[str, bytes]]:
    """The buildFile tree and every archive file except buildFile.xml and moduledata. `cards_drawn`: see
    `module_chunks`."""
    step = progress.steps(5)
    card_faces = images.new_faces()  # a counter is on a card of every scenario: drawn once
    planned_charts = images.chart_jobs(game, keys, card_faces)  # `keys` walk each part of the model once
    cache.prefetch(planned_charts.keys())  # the biggest entries (set-up card pages), read while the rest is made
    # 1. images: counter faces and maps, then boards with the chart pages, then box boards (in `build all`,
    #    the set-up card pages are drawn by the cards stage beside this one, which the module waits for only
    #    once all else is done: then the charts are read last)
    step.next("drawing counters and maps")
    planned_faces = images.face_jobs(game, options.counter_px, keys, card_faces)
    boards = images.BoardWork(game, cache, keys, options.px_per_hex, progress)
    alone = cards_drawn is None  # in `build all` the cards stage draws the set-up card pages
    cards_here = alone and not all(cache.has(key) for key, _ in planned_charts.cards)

    def draw_card_faces() -> None:
        """Every counter the cards show, drawn once, here, while the first pool draws: the second pool's
        workers start with them (each drew its own copy), and drawn between the two pools, they kept the
        second core idle."""
        images.draw_card_faces(game, card_faces)

    # one pool: the faces fill the cores
    cache.draw_ahead([*boards.map_batches(), Batch(planned_faces.jobs)], draw_card_faces if cards_here else None)
    faces = images.counter_faces(planned_faces, cache)
    step.next("drawing boards")
    (dead, dead_job), tracks = box_boards(game, options.counter_px, keys)
    scores = victory_board(game, options.counter_px, keys)
    box_jobs = [dead_job, *(job for _, _, job in tracks.values()), *([scores[1]] if scores else [])]
    ahead = [*boards.board_batches(), Batch(box_jobs)]  # the box boards too: drawn after, they ran on one core
    if alone:  # the chart pages join the boards' pool: three boards alone leave a worker idle
        ahead += images.chart_batches(planned_charts)
    cache.draw_ahead(ahead)
    sets, board_files = boards.images()
    box_images = [dead.image, *(t.image for _, t, _ in tracks.values()), *([scores[0].image] if scores else [])]
    box_pngs = dict(zip(box_images, cache.many(box_jobs)))
    # 2. pieces and palette
    slots = identity.slot_ids(
        game.id, [*map(identity.counter_key, game.counters), WITHDRAWAL_SLOT, *draws.slot_keys(game)]
    )
    gpids = {cid: slots[identity.counter_key(cid)] for cid in sorted(game.counters)}
    pieces, definitions = _pieces(game, gpids, {key: name for key, (name, _png) in faces.items()})
    withdrawal_gpid = slots[WITHDRAWAL_SLOT]
    # 3. set-ups
    step.next("writing set-ups")
    track_plan = turns.turn_track(game)
    protos = prototypes(game)
    in_play = {cid: expanded(piece, {p.name: p.piece for p in protos}) for cid, piece in pieces.items()}  # as played
    setups = _setups(
        game,
        sets,
        in_play,
        dead,
        {sid: (name, board) for sid, (name, board, _) in tracks.items()},
        track_plan,
        _types(in_play),
        scores[0] if scores else None,
    )
    # 4. charts, then every file: images, help, set-ups
    step.next("drawing charts")
    pages, chart_files = images.charts(planned_charts, cache, cards_drawn)
    pictures = images.keys_used(
        {name: png for name, png in faces.values()},
        board_files,
        chart_files,
        {
            **box_pngs,
            WITHDRAWAL_IMAGE: images.marker_image(cache, keys, "OUT", options.counter_px),
            **_combat_pngs(game, cache, keys, options.counter_px),
            **_withdrawal_pngs(game, cache, keys, options.counter_px),
            **_victory_pngs(game, cache, keys, options.counter_px),
        },
    )
    files = {IMAGES + name: data for name, data in pictures.items()}
    help_files, help_titles = help.help_files(game)
    files.update(help_files)
    files.update({name: made() for name, made in setups.items()})
    # 5. the component tree
    step.next("assembling the module")
    children = [
        el.basic_command_encoder(),
        windows.documentation(help_titles),
        el.player_roster([s.name for s in game.sides]),
        el.global_options(nonowner_unmaskable=el.NEVER),  # a masked unit: only its side unmasks it
        el.chatter(),
        el.key_namer(),
        windows.main_map(game, distinct_boards(sets)),
        windows.dead_map(game, dead),
        *(
            [_with_decks(game, windows.track_map(game, [(n, b) for n, b, _ in tracks.values()]), tracks, slots, pieces)]
            if tracks
            else []
        ),
        *(
            [windows.box_map(game, victory.VICTORY_MAP, [(victory.VICTORY_MAP, scores[0])], victory.window_button())]
            if scores
            else []
        ),
        *victory.global_properties(game),
        windows.palette(
            _palette(game, pieces, definitions, gpids, options.counter_px, withdrawal_gpid), options.counter_px
        ),
        el.prototypes_container([el.prototype_definition(p.name, p.piece.slot_text(), p.description) for p in protos]),
        *windows.dice(game),
        *turns.turn_tracker(track_plan, [*aids.phase_hotkeys(game), *briefing.turn_hotkeys(game)]),
        briefing.module_properties(game),
        *aids.clear_moved_buttons(game),
        *aids.windows(game),
        *_combat_elements(game),
        windows.chart_window(pages),
        *[el.predefined_setup(setup_title(game, game.scenarios[sid]), name) for sid, name in _setup_names(game)],
    ]
    root = el.game_module(
        game.name,
        game.version,
        _description(game),
        max(slots.values()) + 1,
        _one_global_properties(children),
        vassal_version=VASSAL_VERSION,
    )
    step.finish()
    return root, files


def _one_global_properties(children: list[el.Element]) -> list[el.Element]:
    """`children` with every module-level global property in the first GlobalProperties container: the
    engine builds only one per module ("No more than one [Global Properties] allowed") and drops the rest."""
    containers = [c for c in children if c.tag == el.GLOBAL_PROPERTIES]
    for extra in containers[1:]:
        containers[0].extend(list(extra))
    return [c for c in children if c.tag != el.GLOBAL_PROPERTIES or c is containers[0]]


DEAD_PILE_CAPACITY = 12
"""Eliminated units a dead-pile box shows as one stack without spilling (more still stack, growing up)."""


BoxJob = tuple[str, Callable[[], object]]
"""(image cache key, drawing) of a box board's image."""


def box_boards(
    game: Game, counter_px: int, keys: ImageKeys
) -> tuple[tuple[BoxBoard, BoxJob], dict[str, tuple[str, BoxBoard, BoxJob]]]:
    """The dead-pile board and, per scenario id, its reinforcement board (board name, board, image job).

    Each scenario's set-up loads its own reinforcement board (as it loads its own maps' boards):
    its turns, its off-map boxes and pools, sized for its stacks."""

    def board(name: str, title: str, sections: list) -> tuple[BoxBoard, BoxJob]:
        made, draw = box_board(name, title, sections, counter_px)
        return made, (keys.box(name, title, sections, counter_px), draw)

    dead = [
        BoxSpec(dead_box(s.name, box), f"{s.name} {box.lower()}", DEAD_PILE_CAPACITY)
        for s in game.sides
        for _, box in game.loss_boxes
    ]
    tracks = {}
    for sid in sorted(game.scenarios):
        scenario = game.scenarios[sid]
        title = setup_title(game, scenario)
        track, job = board(f"{TRACK_MAP}_{sid}", f"Reinforcements: {title}", track_sections(game, [scenario]))
        tracks[sid] = (track_board_name(title), track, job)
    return board(DEAD_MAP, "Eliminated units", [("By side", dead)]), tracks


def _one_global_properties(children: list[el.Element]) -> list[el.Element]:
    """`children` with every GlobalProperties container's properties in the first one: the engine allows one
    per module (combat's values and the victory counts share it)."""
    containers = [c for c in children if c.tag == el.GLOBAL_PROPERTIES]
    for other in containers[1:]:
        containers[0].extend(list(other))
    return [c for c in children if c.tag != el.GLOBAL_PROPERTIES or c is containers[0]]


def victory_board(game: Game, counter_px: int, keys: ImageKeys) -> tuple[BoxBoard, BoxJob] | None:
    """The Victory window's board (a box per VP counter and loss count), None when the data keeps no count."""
    sections = victory.sections(game)
    if not sections:
        return None
    made, draw = box_board(victory.VICTORY_MAP, "Victory points and losses", sections, counter_px)
    return made, (keys.box(victory.VICTORY_MAP, "Victory points and losses", sections, counter_px), draw)


def _extra_traits(game: Game, cid: str) -> list:
    """A counter's traits for the loss counts that concern it and the mask of a secret draw holding it."""
    counter = game.counters[cid]
    draw = draws.draw_of(game, counter)
    return [*victory.unit_traits(game, counter), *([draws.mask(game, draw)] if draw is not None else [])]


def _with_decks(
    game: Game,
    track_map: el.Element,
    tracks: Mapping[str, tuple[str, BoxBoard, BoxJob]],
    slots: Mapping[str, int],
    pieces: Mapping[str, Piece],
) -> el.Element:
    """The reinforcement window with each scenario's secret draws as decks on that scenario's board."""
    for sid in sorted(game.scenarios):
        scenario = game.scenarios[sid]
        board_name, board, _ = tracks[sid]
        at = {b.name: (b.x, b.y) for b in board.boxes}
        for draw in scenario.draws:
            deck = [
                el.piece_slot(
                    pieces[cid].basic.name,
                    slots[draws.slot_key(sid, draw, i)],
                    pieces[cid].slot_text(),
                    board.counter_px,
                    board.counter_px,
                )
                for i, cid in enumerate(draws.copies(game, draw))
            ]
            name = f"{draw.name}: {setup_title(game, scenario)}"
            track_map.append(draws.draw_pile(name, board_name, at[draws.deck_box(draw)], deck, board.counter_px))
    return track_map


def track_board_name(title: str) -> str:
    return f"{TRACK_MAP}: {title}"


def _pieces(
    game: Game, gpids: Mapping[str, int], face_names: Mapping[tuple[str, str], str]
) -> tuple[dict[str, Piece], dict[str, Definition]]:
    """Each counter's palette piece and its definition (the palette's slot text), by counter id."""
    pieces = {
        cid: counter_piece(
            game, game.counters[cid], gpid, _faces_of(game.counters[cid], face_names), _extra_traits(game, cid)
        )
        for cid, gpid in gpids.items()
    }
    return pieces, {cid: piece.definition() for cid, piece in pieces.items()}


def _types(pieces: Mapping[str, Piece]) -> dict[str, str]:
    """Each piece's encoded type (`Piece.type_text`), the traits pieces share (their prototypes', expanded
    into every piece as played) encoded once."""
    strings: dict[int, tuple[object, str]] = {}

    def type_string(trait) -> str:
        held = strings.get(id(trait))
        if held is None or held[0] is not trait:
            held = strings[id(trait)] = (trait, trait.type_string())
        return held[1]

    return {cid: nest([type_string(t) for t in piece.traits]) for cid, piece in pieces.items()}


def _faces_of(counter: Counter, face_names: Mapping[tuple[str, str], str]) -> dict[str, str]:
    """State -> image of each face, and of the hidden side when the counter has one."""
    states = [*(f.state for f in counter.faces), HIDDEN]
    return {s: face_names[(counter.id, s)] for s in states if (counter.id, s) in face_names}


def _palette(
    game: Game,
    pieces: Mapping[str, Piece],
    definitions: Mapping[str, Definition],
    gpids: Mapping[str, int],
    size: int,
    withdrawal_gpid: int,
) -> list:
    """Tabs per side (lists per nationality, else per unit type) and a Markers tab."""

    def slot(cid: str) -> el.Element:
        text = add_piece_command(definitions[cid].type, definitions[cid].state)  # = pieces[cid].slot_text()
        return el.piece_slot(pieces[cid].basic.name, gpids[cid], text, size, size)

    tabs = []
    counters = sorted(game.counters.values(), key=lambda c: natural_key(c.id))
    for side in game.sides:
        own = [c for c in counters if c.side == side.id and not c.marker]
        if not own:
            continue
        by_nat = any(c.nationality for c in own)
        groups: dict[str, list[str]] = {}
        for c in own:
            groups.setdefault(_group_name(game, c, by_nat), []).append(c.id)
        tabs.append((side.name, [slot(cid) for ids in groups.values() for cid in ids]))
    markers = [slot(c.id) for c in counters if c.marker or not c.side]
    chit = _with_gpid(withdrawal_piece("Withdraw"), withdrawal_gpid)
    markers.append(el.piece_slot("Withdrawal reminder", withdrawal_gpid, chit.slot_text(), size, size))
    tabs.append(("Markers", markers))
    return tabs


def _withdrawal_pngs(game: Game, cache: Images, keys: ImageKeys, size: int) -> dict[str, bytes]:
    """Each withdrawal chit's image: OUT and the units that leave, on a tint of their side's colour."""
    out = {}
    for name, (side, units) in withdrawal_chits(game).items():
        colour = _tint(game.side(side).color) if side and any(s.id == side for s in game.sides) else "#ffffff"
        out[name] = images.marker_image(cache, keys, "OUT", size, units, colour)
    return out


def _victory_pngs(game: Game, cache: Images, keys: ImageKeys, size: int) -> dict[str, bytes]:
    """The scoreboard pieces' chits and each secret draw's mask."""
    out = {}
    if game.victory.points:
        out[victory.VP_IMAGE] = images.marker_image(cache, keys, "VP", size)
    if game.victory.losses:
        out[victory.LOSS_IMAGE] = images.marker_image(cache, keys, "LOST", size)
    for sid in sorted(game.scenarios):
        for draw in game.scenarios[sid].draws:
            colour = _tint(game.side(draw.side).color)
            out[draws.mask_image(draw)] = images.marker_image(cache, keys, "?", size, (draw.name,), colour)
    return out


def _combat_pngs(game: Game, cache: Images, keys: ImageKeys, size: int) -> dict[str, bytes]:
    """The attacker mark a unit shows while marked (a small chit in its upper right corner)."""
    if combat.plan(game) is None:
        return {}
    return {combat.ATTACKER_IMAGE: images.corner_mark(cache, keys, "ATT", size, colour="#ff9090")}


def _combat_elements(game: Game) -> list[el.Element]:
    """The combat data the units' resolve action reads, and the button clearing the attacker marks."""
    fight = combat.plan(game)
    if fight is None:
        return []
    return [el.global_properties(combat.global_values(game, fight)), combat.clear_attackers_button()]


def _tint(colour: str) -> str:
    """`colour` mixed two parts to three with white: a side's chit, light enough for black text."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return "#{:02x}{:02x}{:02x}".format(*(round(255 - (255 - v) * 0.4) for v in (r, g, b)))


def _with_gpid(piece: Piece, gpid: int) -> Piece:
    return piece.with_basic(replace(piece.basic, gpid=str(gpid)))


def _group_name(game: Game, counter: Counter, by_nationality: bool) -> str:
    if by_nationality:
        return next(
            (n.name for n in game.nationalities if n.id == counter.nationality),
            game.side(counter.side).name if counter.side else "Other",
        )
    return next((t.name for t in game.unit_types if t.id == counter.type), counter.type or "Other")


def _setup_names(game: Game) -> list[tuple[str, str]]:
    return [(sid, f"setup_{sid}.vsav") for sid in sorted(game.scenarios)]


def _setups(
    game: Game,
    sets: Mapping[MapSet, tuple[BoardPlan, ...]],
    pieces: Mapping[str, Piece],
    dead: BoxBoard,
    tracks: Mapping[str, tuple[str, BoxBoard]],
    track_plan: turns.TurnTrack,
    types: Mapping[str, str],
    scores: BoxBoard | None = None,
) -> dict[str, Callable[[], bytes]]:
    """Each scenario's saved game, on the boards of its own maps (`boards.plans_for`) and its own
    reinforcement board, as a function that waits for it (its zip is deflated in a thread while the
    build goes on). `types`: each counter's encoded piece type (a face changes only the state)."""

    @cache
    def piece_for(cid: str, state: str | None) -> Piece:
        return at_state(pieces[cid], game.counters[cid], state)

    out, encoded = {}, {}  # each palette piece's traits encoded once for all scenarios
    for sid, name in _setup_names(game):
        scenario = game.scenarios[sid]
        plans = plans_for(sets, scenario.maps)
        track_name, track = tracks[sid]
        boxes = box_positions(dead.boxes, track.boxes)
        board_maps = [
            (windows.MAIN_MAP, [(p.name, p.column, p.row) for p in plans]),
            (DEAD_MAP, [(DEAD_MAP, 0, 0)]),
            (TRACK_MAP, [(track_name, 0, 0)]),
        ]
        scoreboard: list = []
        if scores is not None:
            boxes.update({b.name: (victory.VICTORY_MAP, b.x, b.y) for b in scores.boxes})
            board_maps.append((victory.VICTORY_MAP, [(victory.VICTORY_MAP, 0, 0)]))
            scoreboard = victory.scoreboard(game)
        ctx = SetupContext(game, plans, boxes, piece_for, board_maps, encoded, types, scoreboard)
        extra = [c for c in [turns.restore_command(track_plan, sid)] if c] + briefing.restore_commands(game, scenario)
        members = saved_game_files(ctx, scenario, DATE_MS, extra)
        out[name] = later(partial(archive.zip_bytes, members))  # deflated while the build goes on
    return out


def _description(game: Game) -> str:
    return game.description or game.publisher or game.name


def later(work: Callable[[], T]) -> Callable[[], T]:
    """Start `work` in a thread; the function returned waits for its result (or raises its error). For
    work that releases the GIL (zlib, hashing, file writes), which then runs on another core."""
    result: list = []

    def run() -> None:
        try:
            result.append((True, work()))
        except BaseException as error:  # noqa: BLE001 - handed to the caller
            result.append((False, error))

    worker = threading.Thread(target=run, daemon=True)
    worker.start()

    def wait() -> T:
        worker.join()
        ok, value = result[0]
        if not ok:
            raise value
        return value

    return wait
