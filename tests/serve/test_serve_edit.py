"""Edits from the preview's page (issue 50): each kind writes exactly its change into the data file (comments,
order and layout kept), the findings follow, undo and redo restore the bytes, and an edit is refused when the
file changed on disk, when it would add an error, when it comes from another origin or names a file outside
the project. Starlette's TestClient, without a browser (tests/serve/test_serve_edit_browser.py drives the page)."""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest
from serve_support import copy_game

PORT = 8737
OWN = f"http://127.0.0.1:{PORT}"
JSON = {"Origin": OWN, "Content-Type": "application/json"}
SCEN = "scenarios/bfm/seven-turn.yaml"
MAP = "maps/bfm/main.yaml"


class Page:
    """A client of the app doing what the page does: read the view (and the files' digests), then edit."""

    def __init__(self, root: Path, game: str = "bfm", scenario: str = "seven-turn"):
        from starlette.testclient import TestClient

        from authoring.serve.app import make_app
        from authoring.serve.session import Session

        self.root, self.game, self.scenario = root, game, scenario
        self.client = TestClient(make_app(Session(root, game), watch_files=False), base_url=f"http://127.0.0.1:{PORT}")
        self.view()

    def view(self) -> dict:
        self.seen = self.client.get(f"/api/view?game={self.game}&scenario={self.scenario}").json()
        return self.seen

    def findings(self) -> list[tuple[str, str]]:
        return [(f["code"], f["hex"]) for f in self.view()["view"]["findings"]]

    def edit(self, headers=None, **body):
        body = {"game": self.game, "files": self.seen["files"], **body}
        if body.get("kind") in ("move", "arrival"):
            body.setdefault("scenario", self.scenario)
        r = self.client.post("/api/edit", json=body, headers=JSON if headers is None else headers)
        if r.status_code == 200:
            self.seen["files"].update(r.json()["files"])
        return r

    def step(self, which: str):
        r = self.client.post(f"/api/{which}", json={"game": self.game}, headers=JSON)
        if r.status_code == 200:
            self.seen["files"].update(r.json()["files"])
        return r


@pytest.fixture
def bfm(tmp_path):
    return Page(copy_game("bfm", tmp_path))


def _diff(before: bytes, after: bytes) -> list[str]:
    lines = difflib.unified_diff(before.decode().splitlines(True), after.decode().splitlines(True), n=0)
    return [line.rstrip("\n") for line in lines if line[:1] in "+-" and not line.startswith(("+++", "---"))]


def _bytes(page: Page, rel: str) -> bytes:
    return (page.root / rel).read_bytes()


def test_a_unit_moved_to_a_hex_changes_that_hex_only_and_the_findings_follow(bfm):
    before, found = _bytes(bfm, SCEN), bfm.findings()
    r = bfm.edit(kind="move", unit="sov-29", to={"hex": "0103"})  # onto the German VI corps: enemy stacking
    assert r.status_code == 200, r.text
    assert _diff(before, _bytes(bfm, SCEN)) == [
        '-    - {hex: "0301", units: [sov-29], state: half}',
        '+    - {hex: "0103", units: [sov-29], state: half}',
    ]
    after = bfm.findings()
    assert after != found and any(h == "0103" for _c, h in after)


def test_a_unit_leaves_a_stack_for_a_box_a_pool_and_a_turn(tmp_path):
    page = Page(copy_game("bfm", tmp_path))
    before = _bytes(page, SCEN)
    assert page.edit(kind="move", unit="sov-29", to={"box": "replacement-pool"}).status_code == 200
    assert page.edit(kind="move", unit="sov-5", to={"turn": 3}).status_code == 200
    assert _diff(before, _bytes(page, SCEN)) == [
        '-    - {hex: "0301", units: [sov-29], state: half}',
        "-    - {box: replacement-pool, units: [sov-5, sov-10, sov-40], state: half,",
        "+    - {box: replacement-pool, units: [sov-10, sov-40, sov-29], state: half,",
        "+  - {turn: 3, side: soviet, units: [sov-5], state: half}",
    ]
    # the new arrival is in its turn's place, before turn 4's, and the units are where the view says
    sched = page.view()["view"]["schedule"]
    assert [r["turn"] for r in sched["reinforcements"]][:2] == [3, 4]
    assert "sov-29" in [u["id"] for o in sched["off_map"] for u in o["units"]]


def test_a_unit_joins_a_pool(tmp_path):
    page = Page(copy_game("typhoon", tmp_path), "typhoon", "campaign")
    rel = "scenarios/typhoon/campaign.yaml"
    before = _bytes(page, rel)
    assert page.edit(kind="move", unit="sov-mil-7", to={"pool": "special-9"}).status_code == 200
    diff = _diff(before, _bytes(page, rel))
    assert diff[0] == "-  - {turn: 2, side: soviet, at: major-cities, units: [sov-mil-7]}"
    assert diff[1].startswith("-  - {id: special-9,") and diff[2].endswith("units: [sov-104rd, sov-mil-7]}")
    assert len(diff) == 3


def test_an_arrival_moves_to_another_turn(bfm):
    before = _bytes(bfm, SCEN)
    assert bfm.edit(kind="arrival", units=["sov-1shock"], turn=4, to_turn=6).status_code == 200
    diff = _diff(before, _bytes(bfm, SCEN))
    assert len(diff) == 2 and diff[0].replace("turn: 4", "turn: 6") == diff[1].replace("+", "-", 1)
    assert bfm.edit(kind="arrival", units=["sov-1shock"], turn=4, to_turn=5).status_code == 400  # not on 4 now


def test_painting_a_hex_moves_it_between_terrain_lists(bfm):
    before = _bytes(bfm, MAP)
    assert bfm.edit(kind="paint", hex="0303", terrain="forest").status_code == 200
    diff = _diff(before, _bytes(bfm, MAP))
    assert len(diff) == 2 and diff[1] == diff[0].replace('"0301", ', '"0301", "0303", ').replace("-", "+", 1)
    hexes = bfm.client.get("/api/hexes?game=bfm&scenario=seven-turn").json()["hexes"]
    assert next(h for h in hexes if h["id"] == "0303")["terrain"] == ["forest"]
    # painted with the map's default terrain, it leaves every list: the file is as it was
    assert bfm.edit(kind="paint", hex="0303", terrain="clear").status_code == 200
    assert _bytes(bfm, MAP) == before
    assert bfm.edit(kind="paint", hex="0303", terrain="clear").status_code == 400  # already so


def test_painting_a_units_hex_prohibited_terrain_is_a_finding(tmp_path):
    page = Page(copy_game("typhoon", tmp_path), "typhoon", "campaign")
    assert not page.findings()
    before = _bytes(page, "maps/typhoon/N.yaml")
    assert page.edit(kind="paint", hex="N0603", terrain="lake").status_code == 200
    assert _diff(before, _bytes(page, "maps/typhoon/N.yaml")) == [
        '-  lake: ["N1345", "N1445"]',
        '+  lake: ["N0603", "N1345", "N1445"]',  # in its sorted place, quoted as its neighbours
    ]
    assert ("HW-PLACE-002", "N0603") in page.findings()


def test_a_hex_two_maps_print_is_painted_in_both(tmp_path):
    """Typhoon 2.1: map M's column 01 is map N's column 39: one hex of the board, the same terrain in both files
    (HW-MAP-004 otherwise, which refuses an edit of one file alone). Undo puts both back."""
    page = Page(copy_game("typhoon", tmp_path), "typhoon", "campaign")
    files = ("maps/typhoon/M.yaml", "maps/typhoon/N.yaml")
    before = [_bytes(page, f) for f in files]
    r = page.edit(kind="paint", hex="M0105", terrain="swamp")
    assert r.status_code == 200 and sorted(r.json()["files"]) == list(files), r.text
    for f, old, label in zip(files, before, ("M0105", "N3905"), strict=True):
        diff = _diff(old, _bytes(page, f))  # one line of the sorted swamp list, with the hex in its place
        assert len(diff) == 2 and diff[1][1:].replace(f'"{label}", ', "", 1) == diff[0][1:], diff
    assert not page.findings()
    assert page.step("undo").status_code == 200
    assert [_bytes(page, f) for f in files] == before


def test_a_hexside_is_added_and_taken_away(bfm):
    before = _bytes(bfm, MAP)
    assert bfm.edit(kind="hexside", hexes=[["0303"], ["0304"]], type="river").status_code == 200
    assert _diff(before, _bytes(bfm, MAP)) == ['+    - ["0303", "0304"]']
    assert bfm.edit(kind="hexside", hexes=[["0304"], ["0303"]], type="river").status_code == 200
    assert _bytes(bfm, MAP) == before
    assert bfm.edit(kind="hexside", hexes=[["0105"], ["0106"]], type="river").status_code == 200
    assert _diff(before, _bytes(bfm, MAP)) == ['-    - ["0105", "0106"]']
    r = bfm.edit(kind="hexside", hexes=[["0101"], ["0105"]], type="river")
    assert r.status_code == 400 and "not neighbouring" in r.json()["error"]


def _rail(page: Page, a: str, b: str):
    return page.edit(kind="path", hexes=[[a], [b]], type="rail")


def test_a_rail_link_is_added_as_a_new_path_and_taken_away_to_the_byte(bfm):
    before = _bytes(bfm, MAP)
    r = _rail(bfm, "0103", "0104")  # neither hex ends a rail line
    assert r.status_code == 200 and r.json()["what"] == "rail between 0103 and 0104 added", r.text
    assert _diff(before, _bytes(bfm, MAP)) == ['+    - {hexes: ["0103", "0104"]}']
    assert "rail:   # 18 lines, 68 distinct hexes" in _bytes(bfm, MAP).decode()  # the list's comment kept
    assert _rail(bfm, "0104", "0103").json()["what"] == "rail between 0104 and 0103 taken away"
    assert _bytes(bfm, MAP) == before  # a path of exactly those two hexes goes


def test_a_rail_link_extends_a_line_that_ends_at_either_hex(bfm):
    before = _bytes(bfm, MAP)
    assert _rail(bfm, "0703", "0603").status_code == 200  # Rzhev - Vyazma ends at 0603
    assert _diff(before, _bytes(bfm, MAP)) == [
        '-    - {name: "Rzhev - Vyazma", hexes: ["0601", "0602", "0603"]}',
        '+    - {name: "Rzhev - Vyazma", hexes: ["0601", "0602", "0603", "0703"]}',
    ]
    assert bfm.step("undo").status_code == 200 and _bytes(bfm, MAP) == before


def test_cutting_a_rail_line_splits_it_and_undo_restores_the_bytes(bfm):
    before = _bytes(bfm, MAP)
    r = _rail(bfm, "0902", "0802")
    assert r.status_code == 200 and r.json()["what"] == "rail between 0902 and 0802 taken away", r.text
    assert _diff(before, _bytes(bfm, MAP)) == [
        '-    - {name: "Rzhev - Moscow", hexes: ["0601", "0702", "0802", "0902", "1002", "1103"]}',
        '+    - {name: "Rzhev - Moscow", hexes: ["0601", "0702", "0802"]}',
        '+    - {name: "Rzhev - Moscow", hexes: ["0902", "1002", "1103"]}',
    ]
    assert not bfm.findings()
    assert bfm.step("undo").status_code == 200 and _bytes(bfm, MAP) == before
    assert bfm.step("redo").status_code == 200
    assert _rail(bfm, "0802", "0902").status_code == 200  # joined again: the first piece is extended
    assert _diff(before, _bytes(bfm, MAP)) == [
        '-    - {name: "Rzhev - Moscow", hexes: ["0601", "0702", "0802", "0902", "1002", "1103"]}',
        '+    - {name: "Rzhev - Moscow", hexes: ["0601", "0702", "0802", "0902"]}',
        '+    - {name: "Rzhev - Moscow", hexes: ["0902", "1002", "1103"]}',
    ]


BLOCK_LINE = """\
    - name: Rzhev - Moscow   # the northern line
      hexes:
        - "0601"
        - "0702"
        - "0802"
        # Kalinin junction
        - "0902"
        - "1002"
        - "1103"
"""


def test_a_path_written_as_block_lists_is_cut_and_joined_with_its_comments_kept(tmp_path):
    page = Page(copy_game("bfm", tmp_path))
    path = page.root / MAP
    flow_line = '    - {name: "Rzhev - Moscow", hexes: ["0601", "0702", "0802", "0902", "1002", "1103"]}\n'
    path.write_text(path.read_text().replace(flow_line, BLOCK_LINE))
    page.view()
    before = path.read_bytes()
    assert _rail(page, "0802", "0902").status_code == 200
    assert _diff(before, path.read_bytes()) == [
        '-        - "0902"',
        '-        - "1002"',
        '-        - "1103"',
        '+    - {name: "Rzhev - Moscow", hexes: ["0902", "1002", "1103"]}',
    ]
    assert "# the northern line\n" in path.read_text() and "# Kalinin junction\n" in path.read_text()
    assert _rail(page, "0802", "0902").status_code == 200  # joined again: the first piece grows by a line
    assert '        - "0802"\n        - "0902"\n        # Kalinin junction\n' in path.read_text()
    for _ in range(2):
        assert page.step("undo").status_code == 200
    assert path.read_bytes() == before


def test_a_piece_of_one_hex_goes_unless_it_leaves_the_map(bfm):
    before = _bytes(bfm, MAP)
    assert _rail(bfm, "0601", "0602").status_code == 200  # Rzhev - Vyazma: 0601 alone is no path
    assert _diff(before, _bytes(bfm, MAP)) == [
        '-    - {name: "Rzhev - Vyazma", hexes: ["0601", "0602", "0603"]}',
        '+    - {name: "Rzhev - Vyazma", hexes: ["0602", "0603"]}',
    ]
    mid = _bytes(bfm, MAP)
    assert _rail(bfm, "0510", "0509").status_code == 200  # 0510 still leaves by the south edge
    assert _diff(mid, _bytes(bfm, MAP)) == [
        '-    - {name: "Bryansk - south edge", hexes: ["0509", "0510", {exit: S}]}',
        '+    - {name: "Bryansk - south edge", hexes: ["0510", {exit: S}]}',
    ]
    assert bfm.step("undo").status_code == 200 and bfm.step("undo").status_code == 200
    assert _bytes(bfm, MAP) == before


def test_a_path_type_on_a_map_without_paths_writes_the_key(tmp_path):
    page = Page(copy_game("bfm", tmp_path))
    path = page.root / MAP
    text = path.read_text()
    start, end = text.index("paths:\n"), text.index("edges:\n")
    path.write_text(text[:start] + text[end:])
    page.view()
    before = path.read_bytes()
    assert _rail(page, "0103", "0104").status_code == 200
    assert _diff(before, path.read_bytes()) == ['+paths: {rail: [{hexes: ["0103", "0104"]}]}']
    assert page.step("undo").status_code == 200 and path.read_bytes() == before


def test_a_river_on_the_map_edge_is_taken_away_and_added(bfm):
    before = _bytes(bfm, MAP)
    r = bfm.edit(kind="hexside", hexes=[["1405"]], side=1, type="river")  # 1 = NE on a flat-top map
    assert r.status_code == 200 and r.json()["what"] == "river on the NE edge of 1405 taken away", r.text
    assert _diff(before, _bytes(bfm, MAP)) == ['-    - {hex: "1405", side: NE}']
    assert bfm.edit(kind="hexside", hexes=[["0101"]], side=0, type="river").status_code == 200
    assert _diff(before, _bytes(bfm, MAP)) == ['+    - {hex: "0101", side: "N"}', '-    - {hex: "1405", side: NE}']
    assert not bfm.findings()
    assert bfm.step("undo").status_code == 200 and bfm.step("undo").status_code == 200
    assert _bytes(bfm, MAP) == before


def test_the_starter_games_road_is_cut_and_a_river_added_on_its_map_edge(tmp_path):
    from authoring.author.project import init_project

    init_project(tmp_path / "tiny")
    page, board = Page(tmp_path / "tiny", "tiny", "first-clash"), "maps/tiny/board.yaml"
    before = _bytes(page, board)
    assert page.edit(kind="path", hexes=[["0403"], ["0503"]], type="road").status_code == 200
    assert page.edit(kind="hexside", hexes=[["0101"]], side=0, type="river").status_code == 200
    assert _diff(before, _bytes(page, board)) == [
        '-  river: [["0501", "0601"], ["0502", "0602"], ["0503", "0603"]]',
        '+  river: [{hex: "0101", side: "N"}, ["0501", "0601"], ["0502", "0602"], ["0503", "0603"]]',
        '-    - {name: Main road, hexes: ["0103", "0203", "0303", "0403", "0503", "0603", "0703", "0803"]}',
        '+    - {name: Main road, hexes: ["0103", "0203", "0303", "0403"]}',
        '+    - {name: "Main road", hexes: ["0503", "0603", "0703", "0803"]}',  # the new piece's name quoted
    ]
    assert page.step("undo").status_code == 200 and page.step("undo").status_code == 200
    assert _bytes(page, board) == before


@pytest.mark.parametrize(
    ("body", "error"),
    [
        ({"kind": "hexside", "hexes": [["0505"]], "side": 0, "type": "river"}, "not on the edge"),
        ({"kind": "hexside", "hexes": [["0101"]], "side": 0, "type": "rail"}, "no hexside feature 'rail'"),
        ({"kind": "hexside", "hexes": [["0101"]], "side": 6, "type": "river"}, "side"),
        ({"kind": "path", "hexes": [["0505"], ["0507"]], "type": "rail"}, "not neighbouring"),
        ({"kind": "path", "hexes": [["0505"], ["0506"]], "type": "river"}, "no path type 'river'"),
        ({"kind": "path", "hexes": [["0505"]], "type": "rail"}, "two hexes"),
    ],
)
def test_a_wrong_path_or_edge_edit_is_refused_and_nothing_is_written(bfm, body, error):
    before = _bytes(bfm, MAP)
    r = bfm.edit(**body)
    assert r.status_code == 400 and error in r.json()["error"], r.text
    assert _bytes(bfm, MAP) == before


def test_the_palette_offers_the_path_types(bfm):
    pal = bfm.client.get("/api/palette?game=bfm").json()
    assert [t["id"] for t in pal["paths"]] == ["rail"] and [t["id"] for t in pal["hexsides"]] == ["river"]


def test_undo_and_redo_restore_the_bytes(bfm):
    scen, mp = _bytes(bfm, SCEN), _bytes(bfm, MAP)
    bfm.edit(kind="move", unit="sov-29", to={"hex": "0101"})
    moved = _bytes(bfm, SCEN)
    bfm.edit(kind="paint", hex="0303", terrain="forest")
    assert bfm.step("undo").json()["what"] == "undid 0303 painted forest"
    assert _bytes(bfm, MAP) == mp
    assert bfm.step("undo").status_code == 200 and _bytes(bfm, SCEN) == scen
    assert bfm.step("undo").status_code == 409  # nothing left
    assert bfm.step("redo").status_code == 200 and _bytes(bfm, SCEN) == moved
    assert bfm.step("undo").status_code == 200 and _bytes(bfm, SCEN) == scen


def test_a_file_changed_on_disk_is_not_overwritten(bfm):
    path = bfm.root / SCEN
    outside = path.read_bytes() + b"# saved in an editor meanwhile\n"
    path.write_bytes(outside)
    r = bfm.edit(kind="move", unit="sov-29", to={"hex": "0101"})
    assert r.status_code == 409 and r.json()["conflict"] == SCEN and "changed on disk" in r.json()["error"]
    assert path.read_bytes() == outside
    bfm.view()  # the page reads again: the edit goes through, the editor's line kept
    assert bfm.edit(kind="move", unit="sov-29", to={"hex": "0101"}).status_code == 200
    assert path.read_bytes().endswith(b"# saved in an editor meanwhile\n")
    # an undo finds the file as the edit left it, or refuses
    path.write_bytes(path.read_bytes() + b"# and again\n")
    assert bfm.step("undo").status_code == 409 and path.read_bytes().endswith(b"# and again\n")


def test_an_edit_that_adds_an_error_is_refused_with_the_finding(bfm):
    before = _bytes(bfm, SCEN)
    r = bfm.edit(kind="move", unit="sov-29", to={"hex": "9999"})
    assert r.status_code == 422, r.text
    found = r.json()["findings"]
    assert [f["code"] for f in found] == ["HW-HEX-001"] and found[0]["file"] == SCEN and found[0]["line"] == 35
    assert _bytes(bfm, SCEN) == before
    assert bfm.edit(kind="paint", hex="0303", terrain="lava").status_code == 400
    assert bfm.edit(kind="move", unit="nobody", to={"hex": "0101"}).status_code == 400
    assert bfm.step("undo").status_code == 409  # nothing was written, nothing to undo


@pytest.mark.parametrize(
    "headers",
    [
        {"Content-Type": "application/json"},  # no Origin: not the page
        {"Content-Type": "application/json", "Origin": "http://evil.example.com"},
        {"Content-Type": "text/plain", "Origin": OWN},  # as a form would post
    ],
)
def test_an_edit_from_elsewhere_is_refused(bfm, headers):
    before = _bytes(bfm, SCEN)
    r = bfm.edit(headers=headers, kind="move", unit="sov-29", to={"hex": "0101"})
    assert r.status_code in (403, 415), r.text
    assert _bytes(bfm, SCEN) == before
    assert bfm.client.post("/api/undo", json={"game": "bfm"}, headers=headers).status_code in (403, 415)


def test_a_malformed_edit_is_a_400(bfm):
    for body in ({"kind": "erase"}, {"kind": "move", "unit": "sov-29"}, {"kind": "move", "unit": "sov-29", "to": {}}):
        r = bfm.edit(**body)
        assert r.status_code == 400, (body, r.text)


def test_only_files_inside_the_project_are_written(tmp_path):
    """A scenario that is a link to a file outside the project is never written."""
    root = copy_game("bfm", tmp_path / "project")
    outside = tmp_path / "elsewhere.yaml"
    scen = root / SCEN
    original = scen.read_bytes()
    outside.write_bytes(original)
    scen.unlink()
    os.symlink(outside, scen)
    page = Page(root)
    r = page.edit(kind="move", unit="sov-29", to={"hex": "0101"})
    assert r.status_code in (403, 404), r.text
    assert outside.read_bytes() == original and scen.is_symlink()


def test_the_file_keeps_its_line_ends(tmp_path):
    root = copy_game("bfm", tmp_path)
    path = root / SCEN
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    page = Page(root)
    before = path.read_bytes()
    assert page.edit(kind="move", unit="sov-5", to={"turn": 2}).status_code == 200
    after = path.read_bytes()
    assert after.count(b"\r\n") == before.count(b"\r\n") + 1 and b"\n" not in after.replace(b"\r\n", b"")


def test_a_save_while_the_edit_is_checked_is_kept(bfm, monkeypatch):
    """The file is saved from outside while the game is loaded with the edit: the edit is not renamed over it."""
    from authoring.serve import editing

    path = bfm.root / SCEN
    outside = path.read_bytes() + b"# saved meanwhile\n"
    real = editing.load_game

    def saving_meanwhile(files, reads=None):
        path.write_bytes(outside)
        return real(files, reads)

    monkeypatch.setattr(editing, "load_game", saving_meanwhile)
    r = bfm.edit(kind="move", unit="sov-29", to={"hex": "0101"})
    assert r.status_code == 409 and r.json()["conflict"] == SCEN, r.text
    assert path.read_bytes() == outside
    assert not [p for p in path.parent.iterdir() if p.name.startswith(".")]  # no temporary file left


@pytest.mark.parametrize(
    ("gid", "sid"), [("bfm", "seven-turn"), ("bfm-art", "painted"), ("1941", "campaign"), ("typhoon", "campaign")]
)
def test_every_bundled_game_takes_each_edit_and_undoes_it(tmp_path, gid, sid):
    """The first set-up unit moved to the next placement's hex, the first hex of the first terrain list painted
    with the map's default terrain, the first hexside taken away, the first link of the first path cut: each a
    change of a line or two of its file, each undone to the byte."""
    import yaml

    page = Page(copy_game(gid, tmp_path), gid, sid)
    scen = f"scenarios/{gid}/{sid}.yaml"
    first_map = sorted((page.root / "maps" / gid).glob("*.yaml"))[0]
    mp = f"maps/{gid}/{first_map.name}"
    data, map_data = yaml.safe_load(_bytes(page, scen)), yaml.safe_load(first_map.read_text())
    side = next(iter(data["setup"]))
    placements = data["setup"][side]
    terrain, hexes = next(iter(map_data["terrain"].items()))
    kind, sides = next(iter(map_data["hexsides"].items()))
    pair = next(s for s in sides if isinstance(s, list))
    edits = [
        (scen, {"kind": "move", "unit": placements[0]["units"][0], "to": {"hex": placements[1]["hex"]}}),
        (mp, {"kind": "paint", "hex": hexes[0], "terrain": map_data["default_terrain"]}),
        (mp, {"kind": "hexside", "hexes": [[pair[0]], [pair[1]]], "type": kind}),
    ]
    for ptype, lines in (map_data.get("paths") or {}).items():  # the first link of the first path cut
        cells = [c for c in lines[0]["hexes"] if not isinstance(c, dict)]
        edits.append((mp, {"kind": "path", "hexes": [[cells[0]], [cells[1]]], "type": ptype}))
        break
    for rel, body in edits:
        before = _bytes(page, rel)
        r = page.edit(**body)
        assert r.status_code == 200, (body, r.text)
        assert 1 <= len(_diff(before, _bytes(page, rel))) <= 3, _diff(before, _bytes(page, rel))
        assert page.step("undo").status_code == 200 and _bytes(page, rel) == before
