"""The catalogue of finding codes: what each code means, how severe it is, the usual fix, where it is documented.

A code is stable once released and means one thing. `docs/codes.md` is generated from this table
(`hexwright docs codes --write`). Each code is also a constant named after it (`HW_STACK_001` for
HW-STACK-001, listed at the end of this module), and a finding is made only through it,
`HW_STACK_001.at(message, loc)`, at the severity written here: no other module writes a code or picks a
severity (tests/hardening/test_codes_catalogue.py reads the package for a code written as text).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from authoring.diagnostics.record import Diagnostic, Loc, Severity

E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFO


@dataclass(frozen=True, slots=True)
class CodeInfo:
    """One finding code. `stage` is where it is found: read (bytes, YAML, CSV), schema, load (references
    and geometry), art, rules (set-up legality), print (markings), import (VASSAL modules) or cli."""

    code: str
    severity: Severity
    stage: str
    meaning: str
    hint: str
    doc: str

    @property
    def area(self) -> str:
        return self.code.split("-")[1]

    @property
    def name(self) -> str:
        """The name of this code's constant: HW_STACK_001 for HW-STACK-001."""
        return self.code.replace("-", "_")

    def at(
        self,
        message: str,
        loc: Loc | None = None,
        help: str = "",
        *,
        rule: str = "",
        path: tuple = (),
        related: tuple[Loc, ...] = (),
        hex: str = "",
    ) -> Diagnostic:
        """A finding of this code, at its catalogued severity (there is no other to pass)."""
        return Diagnostic(self.severity, self.code, message, loc, help, rule, path, related, hex)


_FORMAT = "docs/format.md"
_DIAG = "README.md#diagnostics"
_LIMITS = "README.md#input-limits"
_MAP_ART = "docs/art.md#map-art"
_COUNTER_ART = "docs/art.md#counter-art"


def _rule(rule_type: str) -> str:
    return f"docs/format.md#{rule_type}-rule-{rule_type}"


_ENTRIES: tuple[CodeInfo, ...] = (
    # Reading files: bytes, encodings, YAML, CSV, text
    CodeInfo(
        "HW-IO-001",
        E,
        "read",
        "a data file cannot be read (missing, a folder, not a regular file, no permission)",
        "check the path and that it names a regular file",
        _DIAG,
    ),
    CodeInfo(
        "HW-IO-002",
        E,
        "read",
        "a data file is larger than hexwright reads",
        "split the data into several files",
        _LIMITS,
    ),
    CodeInfo(
        "HW-IO-003",
        E,
        "read",
        "a file is not in an encoding hexwright can read as text",
        "save the file as UTF-8",
        _DIAG,
    ),
    CodeInfo(
        "HW-IO-004",
        I,
        "read",
        "a spreadsheet file was read in a legacy encoding (how it was understood)",
        "save it as UTF-8 to silence the note",
        _DIAG,
    ),
    CodeInfo(
        "HW-YAML-001", E, "read", "the YAML does not parse", "check indentation, colons and quotes on the line", _DIAG
    ),
    CodeInfo("HW-YAML-002", E, "read", "a YAML data file is empty", "a data file starts with `kind:`", _DIAG),
    CodeInfo("HW-YAML-003", E, "read", "a mapping repeats a key", "remove or rename one of the two keys", _DIAG),
    CodeInfo(
        "HW-YAML-005",
        E,
        "read",
        "a YAML document expands to too many values (alias bomb)",
        "remove recursive or heavily repeated aliases",
        _LIMITS,
    ),
    CodeInfo("HW-YAML-006", E, "read", "a YAML document is nested too deeply", "flatten the data", _LIMITS),
    CodeInfo("HW-YAML-007", E, "read", "a YAML tag (`!name`) hexwright does not read", "remove the tag", _DIAG),
    CodeInfo("HW-YAML-008", E, "read", "a mapping key is not a plain scalar", "write keys as plain names", _DIAG),
    CodeInfo("HW-YAML-009", E, "read", "a YAML merge key (`<<`)", "write the fields out", _DIAG),
    CodeInfo("HW-YAML-010", E, "read", "a tab character indents YAML", "replace the tab with spaces", _DIAG),
    CodeInfo("HW-CSV-001", E, "read", "a CSV file does not parse", "check quotes and separators on the row", _DIAG),
    CodeInfo(
        "HW-CSV-002",
        E,
        "read",
        "a CSV file is empty or has no header row",
        "start the file with a row of column names",
        "docs/format.md#counters-as-csv",
    ),
    CodeInfo(
        "HW-CSV-003",
        E,
        "read",
        "a CSV column appears twice",
        "keep one of the two columns",
        "docs/format.md#counters-as-csv",
    ),
    CodeInfo(
        "HW-CSV-004",
        E,
        "read",
        "a CSV row has more cells than the header has columns",
        "remove the extra cells or add a column header",
        "docs/format.md#counters-as-csv",
    ),
    CodeInfo(
        "HW-CSV-005",
        E,
        "read",
        "a CSV file's first row is not a header row",
        "add a row of column names",
        "docs/format.md#counters-as-csv",
    ),
    CodeInfo(
        "HW-CSV-006",
        E,
        "read",
        "a CSV header names a column hexwright does not know",
        "fix the column's name or delete the column",
        "docs/format.md#counters-as-csv",
    ),
    CodeInfo(
        "HW-CSV-007",
        E,
        "read",
        "a CSV header lacks a required column",
        "add the column",
        "docs/format.md#counters-as-csv",
    ),
    CodeInfo(
        "HW-CSV-008",
        E,
        "read",
        "a CSV cell does not hold what its column takes",
        "write the cell as the hint shows",
        "docs/format.md#counters-as-csv",
    ),
    CodeInfo(
        "HW-CSV-009",
        E,
        "read",
        "a CSV header cell is empty",
        "name the column or delete it",
        "docs/format.md#counters-as-csv",
    ),
    CodeInfo(
        "HW-CSV-010",
        E,
        "read",
        "a counters CSV has no side column, so its units have no side",
        "add a side column",
        "docs/format.md#counters-as-csv",
    ),
    CodeInfo(
        "HW-TEXT-001",
        E,
        "read",
        "text holds a control, bidi or other invisible character",
        "remove the character",
        _LIMITS,
    ),
    CodeInfo(
        "HW-TEXT-002",
        E,
        "read",
        "text ends in a backslash, which a VASSAL module cannot carry",
        "remove the trailing backslash",
        _LIMITS,
    ),
    CodeInfo(
        "HW-TEXT-003",
        E,
        "read",
        "a text is longer than hexwright prints",
        "shorten it, or move prose to a file",
        _LIMITS,
    ),
    CodeInfo(
        "HW-LIMIT-001", E, "read", "more findings in one file than are shown", "fix the findings shown first", _LIMITS
    ),
    CodeInfo(
        "HW-LIMIT-002",
        I,
        "read",
        "more findings in one command than are printed; the rest are counted",
        "fix the findings shown, or check one game or file at a time",
        _LIMITS,
    ),
    # Schema
    CodeInfo(
        "HW-SCHEMA-001", E, "schema", "a value breaks its schema", "see the field in the format reference", _FORMAT
    ),
    CodeInfo("HW-SCHEMA-002", E, "schema", "an unknown key", "fix the key's spelling or remove it", _FORMAT),
    CodeInfo("HW-SCHEMA-003", E, "schema", "a required field is missing", "add the field", _FORMAT),
    CodeInfo("HW-SCHEMA-004", E, "schema", "a value of the wrong type", "write a value of the type shown", _FORMAT),
    CodeInfo(
        "HW-SCHEMA-005",
        E,
        "schema",
        "a value that is not one of those allowed",
        "pick one of the allowed values",
        _FORMAT,
    ),
    CodeInfo(
        "HW-SCHEMA-006",
        E,
        "schema",
        "a data file is not a mapping with a `kind:` key",
        "start the file with `kind:`",
        _FORMAT,
    ),
    CodeInfo(
        "HW-SCHEMA-007",
        E,
        "schema",
        "a value not in the expected form (pattern, format)",
        "write it as the hint shows",
        _FORMAT,
    ),
    CodeInfo(
        "HW-SCHEMA-008", E, "schema", "a value outside its range or count limits", "write it as the hint shows", _FORMAT
    ),
    CodeInfo(
        "HW-KIND-001",
        E,
        "schema",
        "a file's `kind:` does not fit the folder it is in",
        "move the file, or fix its kind",
        _FORMAT,
    ),
    CodeInfo("HW-KIND-002", E, "schema", "an unknown file kind", "use one of the kinds listed", _FORMAT),
    # Loading: ids, references, geometry
    CodeInfo(
        "HW-ID-001",
        E,
        "load",
        "a game's id differs from the name of its folders",
        "make the two the same",
        "docs/format.md#kind-game--hexwright-game-manifest",
    ),
    CodeInfo(
        "HW-ID-002",
        E,
        "load",
        "a game id is not a plain name usable as a folder name",
        "use lowercase letters, digits and '-'",
        "docs/format.md#kind-game--hexwright-game-manifest",
    ),
    CodeInfo(
        "HW-ID-003",
        E,
        "load",
        "a file's `game:` names another game than the folders it lies in",
        "fix `game:` or move the file",
        _FORMAT,
    ),
    CodeInfo(
        "HW-NAME-001",
        E,
        "load",
        "an id makes a file name part that is too long",
        "shorten the id",
        "README.md#file-names",
    ),
    CodeInfo(
        "HW-DUP-001",
        E,
        "load",
        "two entries of a game-wide list share an id",
        "give each entry its own id",
        "docs/format.md#kind-game--hexwright-game-manifest",
    ),
    CodeInfo(
        "HW-DUP-002",
        E,
        "load",
        "two counters share an id",
        "use `quantity` for several copies",
        "docs/format.md#kind-counters--hexwright-counters",
    ),
    CodeInfo(
        "HW-DUP-003",
        E,
        "load",
        "two maps share an id",
        "give each map its own id",
        "docs/format.md#kind-map--hexwright-map",
    ),
    CodeInfo(
        "HW-DUP-004",
        E,
        "load",
        "two scenarios share an id",
        "give each scenario its own id",
        "docs/format.md#kind-scenario--hexwright-scenario",
    ),
    CodeInfo(
        "HW-DUP-005",
        E,
        "load",
        "two options of a scenario share an id",
        "give each option its own id",
        "docs/format.md#kind-scenario--hexwright-scenario",
    ),
    CodeInfo(
        "HW-REF-001",
        E,
        "load",
        "a reference to something the game does not declare (side, terrain, state...)",
        "pick one of the names suggested",
        _FORMAT,
    ),
    CodeInfo(
        "HW-REF-002", E, "load", "a reference to a counter the game does not have", "check the counter id", _FORMAT
    ),
    CodeInfo("HW-REF-003", E, "load", "a reference to a map the game does not have", "check the map id", _FORMAT),
    CodeInfo(
        "HW-HEX-001",
        E,
        "load",
        "a hex id that is no hex of the map",
        "check the hex id (leading zeros too)",
        "docs/format.md#kind-map--hexwright-map",
    ),
    CodeInfo(
        "HW-HEX-002",
        E,
        "load",
        "a hex on a map the scenario does not use",
        "add the map to the scenario",
        "docs/format.md#kind-scenario--hexwright-scenario",
    ),
    CodeInfo(
        "HW-HEXSIDE-001",
        E,
        "load",
        "a hexside given by two hexes that are not neighbours",
        "write a hexside as the two adjacent hexes it separates",
        "docs/format.md#kind-map--hexwright-map",
    ),
    CodeInfo(
        "HW-HEXSIDE-002",
        E,
        "load",
        "a hexside faces a hex it does not border",
        "`faces` is one of its two hexes",
        "docs/format.md#kind-map--hexwright-map",
    ),
    CodeInfo(
        "HW-HEXSIDE-003",
        E,
        "load",
        "an unknown hexside direction",
        "use one of the grid's directions",
        "docs/format.md#kind-map--hexwright-map",
    ),
    CodeInfo(
        "HW-HEXSIDE-004",
        E,
        "load",
        "a map-edge hexside that is not on the map's edge",
        "write inner hexsides as the pair of hexes they separate",
        "docs/format.md#kind-map--hexwright-map",
    ),
    CodeInfo(
        "HW-PATH-001",
        E,
        "load",
        "a road, rail or river path jumps between hexes that are not adjacent",
        "list every hex the line passes through",
        "docs/format.md#kind-map--hexwright-map",
    ),
    CodeInfo(
        "HW-PATH-002",
        E,
        "load",
        "an unknown exit direction of a path",
        "use one of the grid's directions",
        "docs/format.md#kind-map--hexwright-map",
    ),
    CodeInfo(
        "HW-PATH-010",
        E,
        "load",
        "a file path leaves the project (a link or `..` outside it)",
        "copy the file into the project",
        _DIAG,
    ),
    CodeInfo(
        "HW-PATH-011", E, "load", "a file the data names is not found", "paths are relative to the naming file", _DIAG
    ),
    CodeInfo(
        "HW-FILE-001",
        W,
        "load",
        "a file in a game's folders that hexwright does not read (another extension, a backup or lock file)",
        "save it in a form the folder takes, or move it out of the game's folders",
        _DIAG,
    ),
    CodeInfo(
        "HW-MAP-001",
        E,
        "load",
        "a map has more hexes than hexwright draws",
        "split it into maps joined by `layout`",
        _LIMITS,
    ),
    CodeInfo(
        "HW-MAP-002",
        E,
        "load",
        "a map's grid cannot be built from its numbering and size",
        "check the grid fields",
        "docs/format.md#kind-map--hexwright-map",
    ),
    CodeInfo(
        "HW-MAP-003",
        E,
        "load",
        "the maps of a game's layout do not join",
        "check each map's origin and shift",
        "docs/format.md#kind-game--hexwright-game-manifest",
    ),
    CodeInfo(
        "HW-MAP-004",
        E,
        "load",
        "a hex that two maps of the layout share has other terrain, features or hexsides in each map file",
        "give the shared hex the same data in both files",
        "docs/format.md#kind-game--hexwright-game-manifest",
    ),
    CodeInfo(
        "HW-SET-001",
        E,
        "load",
        "hex sets contain each other in a cycle",
        "remove one of the references",
        "docs/format.md#kind-game--hexwright-game-manifest",
    ),
    CodeInfo(
        "HW-SIZE-001",
        E,
        "load",
        "a length (counter or hex size) is not a length in range",
        "write e.g. '5/8in' or '16mm'",
        _FORMAT,
    ),
    CodeInfo(
        "HW-SIZE-002",
        E,
        "load",
        "a map prints larger than the image formats allow",
        "split the map or print smaller hexes",
        _LIMITS,
    ),
    CodeInfo(
        "HW-SIZE-003",
        E,
        "load",
        "a map image would be wider or taller than its format allows",
        "print smaller hexes or split the map",
        _LIMITS,
    ),
    CodeInfo(
        "HW-TABLE-001",
        E,
        "load",
        "a table row has another number of cells than the table has columns",
        "give one cell per column",
        "docs/format.md#kind-tables--hexwright-rule-tables",
    ),
    CodeInfo(
        "HW-TABLE-002",
        E,
        "load",
        "a rule table the charts cannot lay out on a page or in the module",
        "shorten the headers and cells, or split the table",
        _LIMITS,
    ),
    CodeInfo(
        "HW-COMBAT-001",
        E,
        "load",
        "tables.yaml `combat` names a table, die, counter value, terrain, feature, side, unit type, weather condition or marker counter (or face) the game does not declare",
        "use an id declared in game.yaml, tables.yaml (`combat.weathers`) or the counters",
        "docs/format.md#kind-tables--hexwright-rule-tables",
    ),
    CodeInfo(
        "HW-COMBAT-002",
        E,
        "load",
        "the table `combat.crt` names is no CRT the odds can be read from (no rows, a repeated, falling or 0 odds column, a repeated die roll)",
        "die rolls in the first column, each once; one column per odds ratio such as '3:1' or '1-2', rising; no comma in a cell",
        "docs/format.md#kind-tables--hexwright-rule-tables",
    ),
    CodeInfo(
        "HW-COMBAT-003",
        E,
        "load",
        "a counter's attack or defence strength, which combat sums, is not a number",
        "print the number alone (a mark such as '*' belongs in a flag or the label)",
        "docs/format.md#kind-tables--hexwright-rule-tables",
    ),
    CodeInfo(
        "HW-COMBAT-004",
        E,
        "load",
        "a combat effect with `support` names a condition besides its unit types and role, which the module cannot honour (it reads a unit's support strength whatever the battle)",
        "give the support effect only `support`, `unit_types`, `role`, `name` and `rule`; put the conditions on a multiplier or a `not_applied` effect",
        "docs/format.md#kind-tables--hexwright-rule-tables",
    ),
    CodeInfo(
        "HW-COUNTER-001",
        E,
        "load",
        "a counter has no side and is no marker",
        "give `side:`, or `marker: true`",
        "docs/format.md#kind-counters--hexwright-counters",
    ),
    CodeInfo(
        "HW-COUNTER-002",
        E,
        "load",
        "a counter has two faces for one state",
        "give each face its own state",
        "docs/format.md#kind-counters--hexwright-counters",
    ),
    CodeInfo(
        "HW-CARD-001",
        E,
        "load",
        "a set-up card row lacks a cell it needs",
        "a card row has hex, unit and state",
        "docs/format.md#set-up-cards-as-csv",
    ),
    CodeInfo(
        "HW-CARD-003",
        E,
        "load",
        "a set-up card lists a unit of another side",
        "move it to a card of its side",
        "docs/format.md#kind-setup-card--hexwright-set-up-card",
    ),
    CodeInfo(
        "HW-CLI-001",
        E,
        "cli",
        "a command names a map or game that is not in the project",
        "pick one listed",
        "README.md#commands",
    ),
    CodeInfo(
        "HW-CALC-001",
        E,
        "cli",
        "a `hexwright combat` unit argument names a unit, hex, face or marker the game or scenario has not, or is not UNIT@HEX[:STATE]",
        "name a counter id the scenario's set-up names, a hex of its maps and one of the counter's face states",
        "docs/combat.md",
    ),
    CodeInfo(
        "HW-CALC-002",
        E,
        "cli",
        "the units `hexwright combat` names make no battle (no defender or attacker, defenders in two hexes, an attacker of the defender's side or not beside it, no strength, no turn for a scenario with a turn record, a turn or roll the scenario or die has not)",
        "attack one hex with units of the other side beside it (artillery within its printed range)",
        "docs/combat.md",
    ),
    # Art
    CodeInfo(
        "HW-ART-001",
        W,
        "art",
        "a counter's text does not fit its face and was shrunk or cut",
        "shorten the text or print larger counters",
        "docs/counters.md#fitting-or-saying-why",
    ),
    CodeInfo(
        "HW-ART-010",
        E,
        "art",
        "an art file is not an image of a kind hexwright reads",
        "save it as PNG, JPEG or SVG",
        "docs/art.md#bring-your-own-art",
    ),
    CodeInfo("HW-ART-011", E, "art", "an art file has more pixels than hexwright reads", "scale the art down", _LIMITS),
    CodeInfo(
        "HW-ART-012",
        W,
        "art",
        "a calibration point is off the registered grid",
        "re-read the point or re-calibrate",
        _MAP_ART,
    ),
    CodeInfo(
        "HW-ART-013",
        E,
        "art",
        "hex centres fall outside the map art",
        "check hex_size and origin, or calibrate",
        _MAP_ART,
    ),
    CodeInfo(
        "HW-ART-014",
        W,
        "art",
        "a map has calibration points but no registration",
        "run `hexwright calibrate --write`",
        _MAP_ART,
    ),
    CodeInfo(
        "HW-ART-015",
        W,
        "art",
        "map art has too few pixels per hex for print",
        "use art of a higher resolution",
        _MAP_ART,
    ),
    CodeInfo(
        "HW-ART-016",
        E,
        "art",
        "SVG art that cannot be drawn (too many elements with `<use>` expanded, a "
        "self-naming `<use>`, an embedded picture too large, filters too slow to draw, an unknown entity)",
        "simplify the SVG",
        _LIMITS,
    ),
    CodeInfo(
        "HW-ART-020",
        W,
        "art",
        "counter face art is not square, so its edges are cut off",
        "crop the art to a square",
        _COUNTER_ART,
    ),
    CodeInfo(
        "HW-ART-021",
        W,
        "art",
        "raster art has too few pixels for 300 dpi print",
        "supply larger art, or SVG",
        _COUNTER_ART,
    ),
    CodeInfo(
        "HW-ART-022",
        E,
        "art",
        "full-face counter art far from square (past 4 to 1)",
        "crop the art to a square",
        _LIMITS,
    ),
    # Printed markings
    CodeInfo(
        "HW-PRINT-001",
        E,
        "print",
        "a value the rules say is printed appears on no counter face",
        "add the value to the counter layout",
        "docs/counters.md#markings-the-rules-require-printed",
    ),
    CodeInfo(
        "HW-PRINT-002",
        E,
        "print",
        "a flag the rules say is printed has no badge or band",
        "give the flag a `badge:` or `band:`",
        "docs/counters.md#markings-the-rules-require-printed",
    ),
    CodeInfo(
        "HW-CHECK-001",
        I,
        "load",
        "the set-up rules did not run, because a data file could not be used (its errors are listed)",
        "fix that file's errors",
        _DIAG,
    ),
    # Rules engine: set-up legality
    CodeInfo(
        "HW-RULE-001",
        E,
        "rules",
        "an unknown rule type, or parameters that do not fit the type",
        "see the rule type's parameters",
        "docs/format.md#rule-parameters",
    ),
    CodeInfo(
        "HW-RULE-002",
        E,
        "rules",
        "a rule names a feature, side, unit, hex set... the game does not declare",
        "pick one of the names suggested",
        "docs/format.md#rule-parameters",
    ),
    CodeInfo(
        "HW-RULE-003",
        E,
        "rules",
        "an option id the scenario does not offer",
        "pick one of the scenario's options",
        "docs/format.md#kind-scenario--hexwright-scenario",
    ),
    CodeInfo(
        "HW-OPT-001",
        E,
        "rules",
        "an option declares an effect kind that no rule of hexwright applies",
        "write the effect as one of the registered kinds (setup_rules, with_options, turn_values, not_checked)",
        "docs/format.md#kind-scenario--hexwright-scenario",
    ),
    CodeInfo(
        "HW-OPT-002",
        I,
        "rules",
        "an option in force changes something in play that the set-up checks do not see (named as not checked)",
        "nothing to fix: the players apply that part of the option",
        "docs/format.md#kind-scenario--hexwright-scenario",
    ),
    CodeInfo(
        "HW-OPT-003",
        E,
        "rules",
        "an option's effect names an option, turn or turn-record value the scenario does not have",
        "name one the scenario has",
        "docs/format.md#kind-scenario--hexwright-scenario",
    ),
    CodeInfo(
        "HW-STACK-001",
        E,
        "rules",
        "too many units in a hex (count model)",
        "move a unit to another hex",
        "docs/format.md#stacking-stacking",
    ),
    CodeInfo(
        "HW-STACK-002",
        E,
        "rules",
        "too many stacking points in a hex (points model)",
        "move a unit to another hex",
        "docs/format.md#stacking-stacking",
    ),
    CodeInfo(
        "HW-STACK-003",
        E,
        "rules",
        "a side's units in a hex fit no allowed combination (composition model)",
        "move a unit to another hex",
        "docs/format.md#stacking-stacking",
    ),
    CodeInfo(
        "HW-PLACE-002",
        E,
        "rules",
        "a unit starts in prohibited terrain",
        "pick a hex without that terrain",
        _rule("prohibited-terrain"),
    ),
    CodeInfo(
        "HW-PLACE-003",
        E,
        "rules",
        "a unit starts in a hex with enemy units",
        "pick a hex free of enemy units",
        "docs/setup-checks.md#set-up-checks-what-is-enforced-and-what-is-left-to-play",
    ),
    CodeInfo(
        "HW-PLACE-004",
        E,
        "rules",
        "a feature hex does not hold exactly one unit of the side (one-per-feature)",
        "set up one unit in each such hex",
        _rule("one-per-feature"),
    ),
    CodeInfo(
        "HW-PLACE-005",
        E,
        "rules",
        "a unit starts off the feature hexes it is limited to (only-on-feature)",
        "move it to a hex with the feature",
        _rule("only-on-feature"),
    ),
    CodeInfo(
        "HW-PLACE-006",
        E,
        "rules",
        "a unit starts outside its hex set (in-hex-set)",
        "move it into the hex set",
        _rule("in-hex-set"),
    ),
    CodeInfo(
        "HW-PLACE-007",
        E,
        "rules",
        "a unit starts or arrives inside a forbidden hex set (not-in-hex-set)",
        "move it out of the hex set",
        _rule("not-in-hex-set"),
    ),
    CodeInfo(
        "HW-PLACE-008",
        E,
        "rules",
        "a unit is not in the hex a unit-at rule names",
        "set it up in that hex",
        _rule("unit-at"),
    ),
    CodeInfo(
        "HW-PLACE-009",
        E,
        "rules",
        "too many selected units on one map (max-per-map)",
        "move one to another map",
        _rule("max-per-map"),
    ),
    CodeInfo(
        "HW-PLACE-010",
        E,
        "rules",
        "a hex of a garrison set holds too few units (garrison)",
        "add units to the hex",
        _rule("garrison"),
    ),
    CodeInfo(
        "HW-PLACE-011",
        E,
        "rules",
        "a unit that may not start on the map is set up on it (not-on-map-at-start)",
        "remove it from the set-up; it enters later",
        _rule("not-on-map-at-start"),
    ),
    CodeInfo(
        "HW-PLACE-012",
        E,
        "rules",
        "a unit does not start in its off-map box (in-box)",
        "put it in the box",
        _rule("in-box"),
    ),
    CodeInfo(
        "HW-PLACE-013",
        E,
        "rules",
        "a unit the scenario should hold is on no hex, in no box, pool or schedule (order-of-battle, cards)",
        "place it where it belongs",
        _rule("order-of-battle"),
    ),
    CodeInfo(
        "HW-PLACE-014",
        E,
        "rules",
        "a set-up card puts a unit elsewhere than the scenario sets it up, or uses one it does not "
        "(card-matches-scenario)",
        "set it up as the scenario shows",
        _rule("card-matches-scenario"),
    ),
    CodeInfo(
        "HW-PLACE-015",
        E,
        "rules",
        "a unit starts in another's place without the swap its substitute-for rule requires (substitute-for)",
        "make the swap the rule describes",
        _rule("substitute-for"),
    ),
    CodeInfo(
        "HW-PLACE-016",
        E,
        "rules",
        "a unit starts in a hex with none of the hexside features it must start beside (adjacent-to-hexside)",
        "move it beside such a hexside",
        _rule("adjacent-to-hexside"),
    ),
    CodeInfo(
        "HW-PLACE-017",
        E,
        "rules",
        "a unit starts farther from a friendly unit of a kind than the rule allows (near-unit)",
        "move it closer",
        _rule("near-unit"),
    ),
    CodeInfo(
        "HW-SIDE-001",
        E,
        "rules",
        "a unit is listed under a side it does not belong to",
        "move it to its side's entries",
        "docs/format.md#kind-scenario--hexwright-scenario",
    ),
    CodeInfo(
        "HW-STATE-001",
        E,
        "rules",
        "a unit's state is not one of its counter's faces",
        "use one of its faces",
        "docs/format.md#kind-counters--hexwright-counters",
    ),
    CodeInfo(
        "HW-STATE-002",
        E,
        "rules",
        "a unit starts at the wrong strength state (start-state)",
        "write the state required",
        _rule("start-state"),
    ),
    CodeInfo(
        "HW-STATE-003",
        E,
        "rules",
        "a set-up card gives a unit another strength state than the scenario's set-up",
        "write the scenario's state",
        "docs/format.md#kind-setup-card--hexwright-set-up-card",
    ),
    CodeInfo(
        "HW-STATE-004",
        E,
        "rules",
        "a reinforcement arrives at a strength state the rules do not create it at (arrival-state)",
        "write the state the rule allows on the reinforcement",
        _rule("arrival-state"),
    ),
    CodeInfo(
        "HW-MIX-001",
        E,
        "rules",
        "a unit is used more often than the counter mix has copies",
        "remove one use",
        "docs/format.md#kind-counters--hexwright-counters",
    ),
    CodeInfo(
        "HW-MIX-002",
        E,
        "rules",
        "a counter's steps do not follow its printed value (steps-from-value)",
        "set the steps the table gives",
        _rule("steps-from-value"),
    ),
    CodeInfo(
        "HW-MIX-003",
        E,
        "load",
        "the counter mix holds more pieces than hexwright builds",
        "split the game, or lower the quantities",
        _LIMITS,
    ),
    CodeInfo(
        "HW-CODE-001",
        E,
        "rules",
        "a unit's set-up code is missing or matches no pattern of the grammar",
        "write one of the valid codes",
        _rule("follow-setup-codes"),
    ),
    CodeInfo(
        "HW-CODE-002",
        E,
        "rules",
        "a unit is not where its set-up code says",
        "set it up as the code says",
        _rule("follow-setup-codes"),
    ),
    CodeInfo(
        "HW-CODE-003",
        E,
        "rules",
        "a set-up code names no hex on the maps in play",
        "add the maps the code needs",
        _rule("follow-setup-codes"),
    ),
    CodeInfo(
        "HW-CODE-004",
        E,
        "rules",
        "a set-up code pattern is not a valid regular expression",
        "write an RE2 expression",
        "docs/format.md#code-pattern-setupcode",
    ),
    CodeInfo(
        "HW-CODE-005",
        E,
        "rules",
        "set-up codes that lost their leading zeros in a spreadsheet (one finding per counters file)",
        "format the column as text and retype the codes",
        "docs/format.md#counters-as-csv",
    ),
    CodeInfo(
        "HW-SCHED-001",
        E,
        "rules",
        "a reinforcement or withdrawal falls outside the turn record",
        "pick a turn of the turn record",
        "docs/format.md#kind-scenario--hexwright-scenario",
    ),
    CodeInfo(
        "HW-SCHED-002",
        E,
        "rules",
        "an arrival location names nothing, or nothing on the maps in play",
        "pick a location on the scenario's maps",
        "docs/format.md#kind-scenario--hexwright-scenario",
    ),
    CodeInfo(
        "HW-SCHED-003",
        E,
        "rules",
        "a withdrawn unit is not in play by then",
        "bring it in earlier, or drop the withdrawal",
        "docs/format.md#kind-scenario--hexwright-scenario",
    ),
    CodeInfo(
        "HW-SCHED-004",
        E,
        "rules",
        "a pool becomes available outside the turn record",
        "pick a turn of the turn record",
        "docs/format.md#kind-scenario--hexwright-scenario",
    ),
    CodeInfo(
        "HW-SCHED-005",
        E,
        "rules",
        "the turn record is not numbered consecutively from its first turn",
        "number the turns consecutively",
        "docs/format.md#kind-scenario--hexwright-scenario",
    ),
    CodeInfo(
        "HW-SCHED-006",
        E,
        "rules",
        "a unit is in play before the turn it may enter (not-in-play-before)",
        "bring it in on that turn or later",
        _rule("not-in-play-before"),
    ),
    CodeInfo(
        "HW-SCHED-007",
        E,
        "rules",
        "a pool states no cost or no availability turn (pool-cost)",
        "add the missing fields to the pool",
        _rule("pool-cost"),
    ),
    CodeInfo(
        "HW-SCHED-008",
        E,
        "rules",
        "a reinforcement or pool enters outside its hex set, or a pool states no entry (arrive-in-hex-set)",
        "name the hex set, or one inside it, as the arrival",
        _rule("arrive-in-hex-set"),
    ),
    CodeInfo(
        "HW-VALUE-001",
        E,
        "rules",
        "a turn-record value breaks the rule that fixes it (turn-value)",
        "set the value as the rule fixes it",
        _rule("turn-value"),
    ),
    CodeInfo(
        "HW-VALUE-002",
        E,
        "rules",
        "a scenario value is missing or breaks the rule that fixes it (scenario-value)",
        "set the value as the rule requires",
        _rule("scenario-value"),
    ),
    CodeInfo(
        "HW-CARD-002",
        W,
        "rules",
        "a set-up card was written for another game or scenario",
        "check the card's header",
        "docs/format.md#kind-setup-card--hexwright-set-up-card",
    ),
    # Importing VASSAL modules
    CodeInfo(
        "HW-VMOD-001",
        W,
        "import",
        "a part of the module was imported only as far as the project can say it",
        "see what is imported and its limits",
        "docs/import-vmod.md#what-is-imported",
    ),
    CodeInfo(
        "HW-VMOD-002",
        W,
        "import",
        "the module does not say something the project needs; a default was written",
        "fill it in",
        "docs/import-vmod.md#limits",
    ),
    CodeInfo(
        "HW-VMOD-003",
        E,
        "import",
        "a member of the module cannot be read: damaged (its checksum does not match), encrypted or cut short",
        "get an undamaged copy of the module (download it again, or save it again in VASSAL's editor)",
        "docs/import-vmod.md#limits",
    ),
)

CATALOGUE: Mapping[str, CodeInfo] = MappingProxyType({c.code: c for c in _ENTRIES})

WHOLE_FILE = frozenset(
    {
        *("HW-IO-001", "HW-IO-002", "HW-IO-003"),
        *(f"HW-YAML-{n:03}" for n in (1, 2, 3, 5, 6, 7, 8, 9, 10)),
        *(f"HW-CSV-{n:03}" for n in range(1, 11)),
        *(f"HW-SCHEMA-{n:03}" for n in range(1, 9)),
        *("HW-KIND-001", "HW-KIND-002", "HW-MAP-001", "HW-MAP-002", "HW-MAP-003", "HW-SET-001"),
    }
)
"""Errors that leave their file unusable (it did not read, parse or fit its schema; a map's grid, the maps'
layout or the hex sets did not build): the set-up rules do not run on a game missing a part, they would only
echo it (HW-CHECK-001 says so). Each is an error: no note or warning stops a check."""


def lookup(code: str) -> CodeInfo | None:
    return CATALOGUE.get(code)


def by_code(code: str) -> CodeInfo:
    """The entry of a code chosen at run time; a code the catalogue does not list raises KeyError."""
    info = CATALOGUE.get(code)
    if info is None:
        raise KeyError(f"{code} is not a finding code of authoring/diagnostics/codes.py")
    return info


def render_reference() -> str:
    """docs/codes.md: every code by area, with its severity, meaning, usual fix and the section to read."""
    lines = [
        "# Finding codes",
        "",
        "<!-- Generated by `hexwright docs codes --write` from authoring/diagnostics/codes.py: edit that. -->",
        "",
        "Every finding hexwright reports carries one of these codes (`path:line:col: severity[CODE]: message`). "
        "A code is stable once released and means one thing.",
        "",
    ]
    areas: dict[str, list[CodeInfo]] = {}
    for info in sorted(_ENTRIES, key=lambda c: c.code):
        areas.setdefault(info.area, []).append(info)
    for area, infos in areas.items():
        lines += [
            f"## {area}",
            "",
            "| code | severity | meaning | usual fix | read |",
            "| --- | --- | --- | --- | --- |",
        ]
        for c in infos:
            lines.append(
                f"| `{c.code}` | {c.severity.value} | {c.meaning} | {c.hint} | [{c.doc.split('#')[0]}]({_link(c.doc)}) |"
            )
        lines.append("")
    return "\n".join(lines)


def _link(doc: str) -> str:
    """A link from docs/codes.md to `doc` (a path from the project root, with an optional #anchor)."""
    path, _, anchor = doc.partition("#")
    rel = path[len("docs/") :] if path.startswith("docs/") else f"../{path}"
    return rel + (f"#{anchor}" if anchor else "")


# The constants, one a code (generated by tools/codemod_codes.py from _ENTRIES: run it, do not edit).
HW_IO_001: Final = CATALOGUE["HW-IO-001"]
HW_IO_002: Final = CATALOGUE["HW-IO-002"]
HW_IO_003: Final = CATALOGUE["HW-IO-003"]
HW_IO_004: Final = CATALOGUE["HW-IO-004"]
HW_YAML_001: Final = CATALOGUE["HW-YAML-001"]
HW_YAML_002: Final = CATALOGUE["HW-YAML-002"]
HW_YAML_003: Final = CATALOGUE["HW-YAML-003"]
HW_YAML_005: Final = CATALOGUE["HW-YAML-005"]
HW_YAML_006: Final = CATALOGUE["HW-YAML-006"]
HW_YAML_007: Final = CATALOGUE["HW-YAML-007"]
HW_YAML_008: Final = CATALOGUE["HW-YAML-008"]
HW_YAML_009: Final = CATALOGUE["HW-YAML-009"]
HW_YAML_010: Final = CATALOGUE["HW-YAML-010"]
HW_CSV_001: Final = CATALOGUE["HW-CSV-001"]
HW_CSV_002: Final = CATALOGUE["HW-CSV-002"]
HW_CSV_003: Final = CATALOGUE["HW-CSV-003"]
HW_CSV_004: Final = CATALOGUE["HW-CSV-004"]
HW_CSV_005: Final = CATALOGUE["HW-CSV-005"]
HW_CSV_006: Final = CATALOGUE["HW-CSV-006"]
HW_CSV_007: Final = CATALOGUE["HW-CSV-007"]
HW_CSV_008: Final = CATALOGUE["HW-CSV-008"]
HW_CSV_009: Final = CATALOGUE["HW-CSV-009"]
HW_CSV_010: Final = CATALOGUE["HW-CSV-010"]
HW_TEXT_001: Final = CATALOGUE["HW-TEXT-001"]
HW_TEXT_002: Final = CATALOGUE["HW-TEXT-002"]
HW_TEXT_003: Final = CATALOGUE["HW-TEXT-003"]
HW_LIMIT_001: Final = CATALOGUE["HW-LIMIT-001"]
HW_LIMIT_002: Final = CATALOGUE["HW-LIMIT-002"]
HW_SCHEMA_001: Final = CATALOGUE["HW-SCHEMA-001"]
HW_SCHEMA_002: Final = CATALOGUE["HW-SCHEMA-002"]
HW_SCHEMA_003: Final = CATALOGUE["HW-SCHEMA-003"]
HW_SCHEMA_004: Final = CATALOGUE["HW-SCHEMA-004"]
HW_SCHEMA_005: Final = CATALOGUE["HW-SCHEMA-005"]
HW_SCHEMA_006: Final = CATALOGUE["HW-SCHEMA-006"]
HW_SCHEMA_007: Final = CATALOGUE["HW-SCHEMA-007"]
HW_SCHEMA_008: Final = CATALOGUE["HW-SCHEMA-008"]
HW_KIND_001: Final = CATALOGUE["HW-KIND-001"]
HW_KIND_002: Final = CATALOGUE["HW-KIND-002"]
HW_ID_001: Final = CATALOGUE["HW-ID-001"]
HW_ID_002: Final = CATALOGUE["HW-ID-002"]
HW_ID_003: Final = CATALOGUE["HW-ID-003"]
HW_NAME_001: Final = CATALOGUE["HW-NAME-001"]
HW_DUP_001: Final = CATALOGUE["HW-DUP-001"]
HW_DUP_002: Final = CATALOGUE["HW-DUP-002"]
HW_DUP_003: Final = CATALOGUE["HW-DUP-003"]
HW_DUP_004: Final = CATALOGUE["HW-DUP-004"]
HW_DUP_005: Final = CATALOGUE["HW-DUP-005"]
HW_REF_001: Final = CATALOGUE["HW-REF-001"]
HW_REF_002: Final = CATALOGUE["HW-REF-002"]
HW_REF_003: Final = CATALOGUE["HW-REF-003"]
HW_HEX_001: Final = CATALOGUE["HW-HEX-001"]
HW_HEX_002: Final = CATALOGUE["HW-HEX-002"]
HW_HEXSIDE_001: Final = CATALOGUE["HW-HEXSIDE-001"]
HW_HEXSIDE_002: Final = CATALOGUE["HW-HEXSIDE-002"]
HW_HEXSIDE_003: Final = CATALOGUE["HW-HEXSIDE-003"]
HW_HEXSIDE_004: Final = CATALOGUE["HW-HEXSIDE-004"]
HW_PATH_001: Final = CATALOGUE["HW-PATH-001"]
HW_PATH_002: Final = CATALOGUE["HW-PATH-002"]
HW_PATH_010: Final = CATALOGUE["HW-PATH-010"]
HW_PATH_011: Final = CATALOGUE["HW-PATH-011"]
HW_FILE_001: Final = CATALOGUE["HW-FILE-001"]
HW_MAP_001: Final = CATALOGUE["HW-MAP-001"]
HW_MAP_002: Final = CATALOGUE["HW-MAP-002"]
HW_MAP_003: Final = CATALOGUE["HW-MAP-003"]
HW_MAP_004: Final = CATALOGUE["HW-MAP-004"]
HW_SET_001: Final = CATALOGUE["HW-SET-001"]
HW_SIZE_001: Final = CATALOGUE["HW-SIZE-001"]
HW_SIZE_002: Final = CATALOGUE["HW-SIZE-002"]
HW_SIZE_003: Final = CATALOGUE["HW-SIZE-003"]
HW_TABLE_001: Final = CATALOGUE["HW-TABLE-001"]
HW_TABLE_002: Final = CATALOGUE["HW-TABLE-002"]
HW_COMBAT_001: Final = CATALOGUE["HW-COMBAT-001"]
HW_COMBAT_002: Final = CATALOGUE["HW-COMBAT-002"]
HW_COMBAT_003: Final = CATALOGUE["HW-COMBAT-003"]
HW_COMBAT_004: Final = CATALOGUE["HW-COMBAT-004"]
HW_COUNTER_001: Final = CATALOGUE["HW-COUNTER-001"]
HW_COUNTER_002: Final = CATALOGUE["HW-COUNTER-002"]
HW_CARD_001: Final = CATALOGUE["HW-CARD-001"]
HW_CARD_003: Final = CATALOGUE["HW-CARD-003"]
HW_CLI_001: Final = CATALOGUE["HW-CLI-001"]
HW_CALC_001: Final = CATALOGUE["HW-CALC-001"]
HW_CALC_002: Final = CATALOGUE["HW-CALC-002"]
HW_ART_001: Final = CATALOGUE["HW-ART-001"]
HW_ART_010: Final = CATALOGUE["HW-ART-010"]
HW_ART_011: Final = CATALOGUE["HW-ART-011"]
HW_ART_012: Final = CATALOGUE["HW-ART-012"]
HW_ART_013: Final = CATALOGUE["HW-ART-013"]
HW_ART_014: Final = CATALOGUE["HW-ART-014"]
HW_ART_015: Final = CATALOGUE["HW-ART-015"]
HW_ART_016: Final = CATALOGUE["HW-ART-016"]
HW_ART_020: Final = CATALOGUE["HW-ART-020"]
HW_ART_021: Final = CATALOGUE["HW-ART-021"]
HW_ART_022: Final = CATALOGUE["HW-ART-022"]
HW_PRINT_001: Final = CATALOGUE["HW-PRINT-001"]
HW_PRINT_002: Final = CATALOGUE["HW-PRINT-002"]
HW_CHECK_001: Final = CATALOGUE["HW-CHECK-001"]
HW_RULE_001: Final = CATALOGUE["HW-RULE-001"]
HW_RULE_002: Final = CATALOGUE["HW-RULE-002"]
HW_RULE_003: Final = CATALOGUE["HW-RULE-003"]
HW_OPT_001: Final = CATALOGUE["HW-OPT-001"]
HW_OPT_002: Final = CATALOGUE["HW-OPT-002"]
HW_OPT_003: Final = CATALOGUE["HW-OPT-003"]
HW_STACK_001: Final = CATALOGUE["HW-STACK-001"]
HW_STACK_002: Final = CATALOGUE["HW-STACK-002"]
HW_STACK_003: Final = CATALOGUE["HW-STACK-003"]
HW_PLACE_002: Final = CATALOGUE["HW-PLACE-002"]
HW_PLACE_003: Final = CATALOGUE["HW-PLACE-003"]
HW_PLACE_004: Final = CATALOGUE["HW-PLACE-004"]
HW_PLACE_005: Final = CATALOGUE["HW-PLACE-005"]
HW_PLACE_006: Final = CATALOGUE["HW-PLACE-006"]
HW_PLACE_007: Final = CATALOGUE["HW-PLACE-007"]
HW_PLACE_008: Final = CATALOGUE["HW-PLACE-008"]
HW_PLACE_009: Final = CATALOGUE["HW-PLACE-009"]
HW_PLACE_010: Final = CATALOGUE["HW-PLACE-010"]
HW_PLACE_011: Final = CATALOGUE["HW-PLACE-011"]
HW_PLACE_012: Final = CATALOGUE["HW-PLACE-012"]
HW_PLACE_013: Final = CATALOGUE["HW-PLACE-013"]
HW_PLACE_014: Final = CATALOGUE["HW-PLACE-014"]
HW_PLACE_015: Final = CATALOGUE["HW-PLACE-015"]
HW_PLACE_016: Final = CATALOGUE["HW-PLACE-016"]
HW_PLACE_017: Final = CATALOGUE["HW-PLACE-017"]
HW_SIDE_001: Final = CATALOGUE["HW-SIDE-001"]
HW_STATE_001: Final = CATALOGUE["HW-STATE-001"]
HW_STATE_002: Final = CATALOGUE["HW-STATE-002"]
HW_STATE_003: Final = CATALOGUE["HW-STATE-003"]
HW_STATE_004: Final = CATALOGUE["HW-STATE-004"]
HW_MIX_001: Final = CATALOGUE["HW-MIX-001"]
HW_MIX_002: Final = CATALOGUE["HW-MIX-002"]
HW_MIX_003: Final = CATALOGUE["HW-MIX-003"]
HW_CODE_001: Final = CATALOGUE["HW-CODE-001"]
HW_CODE_002: Final = CATALOGUE["HW-CODE-002"]
HW_CODE_003: Final = CATALOGUE["HW-CODE-003"]
HW_CODE_004: Final = CATALOGUE["HW-CODE-004"]
HW_CODE_005: Final = CATALOGUE["HW-CODE-005"]
HW_SCHED_001: Final = CATALOGUE["HW-SCHED-001"]
HW_SCHED_002: Final = CATALOGUE["HW-SCHED-002"]
HW_SCHED_003: Final = CATALOGUE["HW-SCHED-003"]
HW_SCHED_004: Final = CATALOGUE["HW-SCHED-004"]
HW_SCHED_005: Final = CATALOGUE["HW-SCHED-005"]
HW_SCHED_006: Final = CATALOGUE["HW-SCHED-006"]
HW_SCHED_007: Final = CATALOGUE["HW-SCHED-007"]
HW_SCHED_008: Final = CATALOGUE["HW-SCHED-008"]
HW_VALUE_001: Final = CATALOGUE["HW-VALUE-001"]
HW_VALUE_002: Final = CATALOGUE["HW-VALUE-002"]
HW_CARD_002: Final = CATALOGUE["HW-CARD-002"]
HW_VMOD_001: Final = CATALOGUE["HW-VMOD-001"]
HW_VMOD_002: Final = CATALOGUE["HW-VMOD-002"]
HW_VMOD_003: Final = CATALOGUE["HW-VMOD-003"]
