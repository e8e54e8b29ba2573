"""The starter game `hexwright init` writes: small, complete, and passing every check.

Kept as Python strings (not package data) so an installed hexwright always has them. The
placeholders GAME_ID, GAME_NAME and RULES_REF are replaced when the files are written; as YAML values
they are NAME_VALUE and RULES_REF_VALUE (quoted when YAML would read them otherwise).
"""

from __future__ import annotations

from types import MappingProxyType

GAME = """\
# yaml-language-server: $schema=../../schemas/game.schema.json
# GAME_NAME -- the game manifest: sides, terrain, unit kinds, stacking and set-up rules.
# Every key is explained in docs/format.md of hexwright (or run `hexwright schema game`).
kind: game
id: GAME_ID
name: NAME_VALUE
version: "0.1"
rules_ref: RULES_REF_VALUE       # findings cite rules as "RULES_REF 3.1"
sides:
  - {id: red, name: Red, color: "#c0392b", text_color: "#ffffff"}
  - {id: blue, name: Blue, color: "#2e6fb7", text_color: "#ffffff"}
terrain:
  - {id: clear, name: Clear, color: "#e8e4c9"}
  - {id: forest, name: Forest, color: "#6b8e3a", symbol: trees}
  - {id: lake, name: Lake, color: "#8fb8de", prohibited: true, note: "no unit may ever start here"}
hex_features:
  - {id: town, name: Town, symbol: town}
  - {id: red-start, name: Red set-up hex, symbol: star}
  - {id: blue-start, name: Blue set-up hex, symbol: cross}
hexside_features:
  - {id: river, name: River, color: "#2e6fb7", width: 0.08, style: river}
paths:
  - {id: road, name: Road, color: "#7a5230", style: road}
unit_types:
  - {id: infantry, name: Infantry, symbol: infantry}
  - {id: armor, name: Armor, symbol: armor}
unit_sizes:
  - {id: division, name: Division, mark: XX}
values:
  - {id: attack, name: Combat strength, abbrev: STR}
  - {id: movement, name: Movement allowance, abbrev: MA}
strength_states:
  - {id: full, name: Full strength}
  - {id: reduced, name: Reduced}
flags:
  - {id: motorized, name: Motorized}
counter_size: 0.625in
dice: [{name: d6, sides: 6}]
phases: [Blue Movement, Blue Combat, Red Movement, Red Combat]
stacking: {model: count, limit: 2, rule: "4.1"}
hex_sets:
  east-edge: {edge: east, map: board, note: "where Blue reinforcements enter"}
setup_rules:
  - {type: only-on-feature, rule: "3.1", feature: red-start, side: red}
  - {type: only-on-feature, rule: "3.2", feature: blue-start, side: blue}
"""

TABLES = """\
# yaml-language-server: $schema=../../schemas/tables.schema.json
# Charts printed for the players: combat results and terrain effects.
kind: tables
game: GAME_ID
tables:
  - id: crt
    name: Combat Results Table
    rule: "6.2"
    columns: ["Die", "1:2", "1:1", "2:1", "3:1"]
    rows:
      - [1, AE, AR, DR, DR]
      - [2, AR, AR, DR, DE]
      - [3, AR, DR, DR, DE]
      - [4, AR, DR, DE, DE]
      - [5, DR, DR, DE, DE]
      - [6, DR, DE, DE, DE]
    legend: {AE: Attacker eliminated, AR: Attacker retreats, DR: Defender retreats, DE: Defender eliminated}
  - id: tec
    name: Terrain Effects Chart
    rule: "5.1"
    columns: ["Terrain", "Movement cost", "Combat"]
    rows:
      - [Clear, 1, "-"]
      - [Forest, 2, "shift 1 left"]
      - [Lake, impassable, "-"]
      - [River hexside, "+1", "shift 1 left"]
"""

MAP = """\
# yaml-language-server: $schema=../../schemas/map.schema.json
# The board: 8 x 6 flat-topped hexes, ids CCRR as printed (0101 is the top-left hex).
kind: map
game: GAME_ID
id: board
name: NAME_VALUE
grid:
  orientation: flat
  columns: 8
  rows: 6
  first_column: 1
  first_row: 1
  shifted: even
  label: {prefix: "", column_digits: 2, row_digits: 2, column_style: numeric}
  hex_size: 0.75in
default_terrain: clear
terrain:
  forest: ["0302", "0303", "0604", "0605"]
  lake: ["0505"]
features:
  town:
    "0403": {name: Crossroads}
  red-start: ["0102", "0103", "0104"]
  blue-start: ["0702", "0703", "0704"]
hexsides:
  river: [["0501", "0601"], ["0502", "0602"], ["0503", "0603"]]
paths:
  road:
    - {name: Main road, hexes: ["0103", "0203", "0303", "0403", "0503", "0603", "0703", "0803"]}
labels:
  - {text: North, hex: "0401"}
edges: {west: {name: Red edge}, east: {name: Blue edge}}
"""

COUNTERS = """\
# yaml-language-server: $schema=../../schemas/counters.schema.json
# The counter mix: one entry per counter, faces strongest first.
kind: counters
game: GAME_ID
counters:
  - {id: red-1, side: red, type: infantry, size: division, designation: "1",
     faces: [{state: full, values: {attack: 4, movement: 4}}, {state: reduced, values: {attack: 2, movement: 4}}]}
  - {id: red-2, side: red, type: infantry, size: division, designation: "2",
     faces: [{state: full, values: {attack: 4, movement: 4}}, {state: reduced, values: {attack: 2, movement: 4}}]}
  - {id: red-3, side: red, type: infantry, size: division, designation: "3",
     faces: [{state: full, values: {attack: 3, movement: 4}}, {state: reduced, values: {attack: 1, movement: 4}}]}
  - {id: blue-1, side: blue, type: infantry, size: division, designation: "1",
     faces: [{state: full, values: {attack: 5, movement: 4}}, {state: reduced, values: {attack: 2, movement: 4}}]}
  - {id: blue-2, side: blue, type: infantry, size: division, designation: "2",
     faces: [{state: full, values: {attack: 5, movement: 4}}, {state: reduced, values: {attack: 2, movement: 4}}]}
  - {id: blue-3a, side: blue, type: armor, size: division, designation: "3 Pz", flags: [motorized],
     faces: [{state: full, values: {attack: 6, movement: 6}}, {state: reduced, values: {attack: 3, movement: 6}}]}
"""

SCENARIO = """\
# yaml-language-server: $schema=../../schemas/scenario.schema.json
# A first scenario: copy it with `hexwright new scenario GAME_ID NAME --from first-clash` to make variants.
kind: scenario
game: GAME_ID
id: first-clash
name: First Clash
maps: [board]
description: Red holds the river line; Blue attacks with an armored division arriving on turn 2.
turns:
  - {turn: 1, date: "Day 1", weather: clear}
  - {turn: 2, date: "Day 2", weather: clear}
  - {turn: 3, date: "Day 3", weather: rain, notes: ["Rain: movement costs +1 per hex."]}
  - {turn: 4, date: "Day 4", weather: clear}
setup:
  red:
    - {hex: "0102", units: [red-1], state: full}
    - {hex: "0103", units: [red-2], state: full}
    - {hex: "0104", units: [red-3], state: full}
  blue:
    - {hex: "0702", units: [blue-1], state: full}
    - {hex: "0704", units: [blue-2], state: full}
reinforcements:
  - {turn: 2, side: blue, units: [blue-3a], at: east-edge, state: full}
victory:
  - {id: town, side: blue, points: 10, text: "Blue wins by holding the Crossroads (0403) at the end of turn 4."}
"""

README = """\
# GAME_NAME

A hex-and-counter game made with hexwright.

    hexwright validate            # check every file and the set-ups
    hexwright watch GAME_ID       # re-check and rebuild whenever you save a file
    hexwright build module GAME_ID
    hexwright build sheets GAME_ID

Files: `scenarios/GAME_ID/game.yaml` (the manifest), `scenarios/GAME_ID/tables.yaml` (charts),
`scenarios/GAME_ID/*.yaml` (one file per scenario), `maps/GAME_ID/*.yaml` (maps), `counters/GAME_ID/*.yaml`
or `*.csv` (the counter mix). `schemas/` lets YAML-aware editors complete and check keys as you type.
Generated files go to `build/`.

Every file kind and field is described in `docs/format.md` (written by `hexwright init`; print the
reference of your hexwright version with `hexwright docs format`, or refresh the file with
`hexwright docs format --write`).
"""

GITIGNORE = "build/\n"

FILES = MappingProxyType(
    {
        "scenarios/GAME_ID/game.yaml": GAME,
        "scenarios/GAME_ID/tables.yaml": TABLES,
        "scenarios/GAME_ID/first-clash.yaml": SCENARIO,
        "maps/GAME_ID/board.yaml": MAP,
        "counters/GAME_ID/counters.yaml": COUNTERS,
        "README.md": README,
        ".gitignore": GITIGNORE,
    }
)

SCENARIO_SKELETON = """\
# yaml-language-server: $schema=../../schemas/scenario.schema.json
# SCENARIO_NAME -- fill in the turns and the set-up; `hexwright validate` says what is missing or wrong.
kind: scenario
game: GAME_ID
id: SCENARIO_ID
name: SCENARIO_NAME
maps: [MAPS]
description: ""
turns:
  - {turn: 1}
setup:
SETUP_SIDES"""
