"""The build: every artifact of a game, stage by stage, after the data checks clean.

    run.py           `run(Request) -> Report`: what `hexwright build` does, top to bottom
    context.py       `BuildContext`: the options, the workers of one `--jobs` value, the stages beside
    stages.py        the stages (module, sheets, maps, cards, charts), what each reads, their stamps
    module.py        the module stage's writer: the pure compiler handed its image store and keys
    side_by_side.py  the stages at once, each in a forked process, sharing the job tokens
    incremental.py   inside a stage, only the outputs whose own key changed (keys: `products.catalogue`)
    checked.py       a game loaded and checked for a build
    findings.py      the warnings a build stands on, kept so that an up-to-date build quotes them

The stamps, keys and sealed stores the stages use live in `authoring.products`. The CLI calls `run`; `author.watch` calls `build_game` on the games it has just checked.
"""

from authoring.pipeline.context import BuildContext, SheetSettings
from authoring.pipeline.run import Listener, Refused, Report, Request, build_game, output_lines, run
from authoring.pipeline.stages import (
    ALL_STAGES,
    BUILDERS,
    MAP_PX_PER_HEX,
    STAGE_DATA,
    STAGES,
    TILE_DPI,
    Outputs,
    art_warnings,
    build_cards,
    build_charts,
    build_maps,
    build_module,
    build_sheets,
    forget_stage,
    fresh,
    fresh_outputs,
    index_members,
    sheet_options,
    sheets_name,
    stage_digest,
    stage_digests,
    stage_files,
    stage_target,
)

__all__ = (
    "ALL_STAGES",
    "BUILDERS",
    "MAP_PX_PER_HEX",
    "STAGE_DATA",
    "STAGES",
    "TILE_DPI",
    "BuildContext",
    "Listener",
    "Outputs",
    "Refused",
    "Report",
    "Request",
    "SheetSettings",
    "art_warnings",
    "build_cards",
    "build_game",
    "build_charts",
    "build_maps",
    "build_module",
    "build_sheets",
    "forget_stage",
    "fresh",
    "fresh_outputs",
    "index_members",
    "output_lines",
    "run",
    "sheet_options",
    "sheets_name",
    "stage_digest",
    "stage_digests",
    "stage_files",
    "stage_target",
)
