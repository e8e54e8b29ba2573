"""Editing the data from the preview's page in a real headless Chromium (issue 50): a counter dragged to a hex
and a hex painted write exactly that change into the data file (its comments kept) and the page's findings
follow; Undo puts the bytes back; a file saved from outside meanwhile is never overwritten; a page of another
origin cannot edit. Screenshots go to `SCREENS`."""

from __future__ import annotations

import difflib
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from serve_support import SCREENS, Served, chrome, copy_game, wait_for

EVIL = "evil.example.com"
CASES = [
    # game, scenario, unit, from, to, hex painted, terrain, its map file, findings the paint adds
    ("bfm", "seven-turn", "sov-29", "0301", "0103", "0303", "forest", "maps/bfm/main.yaml", False),
    ("typhoon", "campaign", "ger-15id", "N0603", "N0604", "N0604", "lake", "maps/typhoon/N.yaml", True),
]

pytestmark = pytest.mark.slow  # the browser


@pytest.fixture(scope="module")
def driver():
    d = chrome(f"--host-resolver-rules=MAP {EVIL} 127.0.0.1", "--disable-features=HttpsUpgrades")
    yield d
    d.quit()


def _open(driver, served: Served, gid: str, sid: str) -> None:
    driver.get(served.url(f"/?game={gid}&scenario={sid}&tool=move"))
    wait_for(driver, "document.body.dataset.gen && document.body.dataset.mapkey", 120)


def _findings(driver) -> str:
    return driver.execute_script("return document.getElementById('findings').textContent")


def _diff(before: bytes, after: bytes) -> list[str]:
    lines = difflib.unified_diff(before.decode().splitlines(True), after.decode().splitlines(True), n=0)
    return [line.rstrip("\n") for line in lines if line[:1] in "+-" and not line.startswith(("+++", "---"))]


def _edited(driver, count: int, status: int = 200) -> None:
    """Wait until the page has the answer of its `count`-th edit and has shown the view after it."""
    wait_for(driver, f"+document.body.dataset.edits === {count}", 180)
    wait_for(driver, f"document.getElementById('editstatus').dataset.status === '{status}'", 180)


def _drag(driver, unit: str, to: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    node = driver.find_element(By.CSS_SELECTOR, f'#counters .counter[data-unit="{unit}"]')
    driver.execute_script("arguments[0].scrollIntoView({block: 'center', inline: 'center'})", node)
    target = driver.find_element(By.CSS_SELECTOR, f'#hexes polygon[data-id="{to}"]')
    ActionChains(driver).click_and_hold(node).move_by_offset(5, 5).move_to_element(target).release().perform()


def _tool(driver, tool: str, pick: tuple[str, str] | None = None) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    Select(driver.find_element(By.ID, "tool")).select_by_value(tool)
    if pick:
        Select(driver.find_element(By.ID, pick[0])).select_by_value(pick[1])


def _click_hex(driver, label: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    poly = driver.find_element(By.CSS_SELECTOR, f'#hexes polygon[data-id="{label}"]')
    driver.execute_script("arguments[0].scrollIntoView({block: 'center', inline: 'center'})", poly)
    ActionChains(driver).move_to_element(poly).click().perform()


@pytest.mark.parametrize(("gid", "sid", "unit", "start", "to", "painted", "terrain", "map_file", "adds"), CASES)
def test_drag_and_paint_write_the_data_and_undo_restores_it(
    driver, tmp_path, gid, sid, unit, start, to, painted, terrain, map_file, adds
):
    root = copy_game(gid, tmp_path / "project")
    scen_file = root / "scenarios" / gid / f"{sid}.yaml"
    scen_before, map_before = scen_file.read_bytes(), (root / map_file).read_bytes()
    with Served(root, gid) as served:
        _open(driver, served, gid, sid)
        shown = _findings(driver)
        _drag(driver, unit, to)
        _edited(driver, 1)
        diff = _diff(scen_before, scen_file.read_bytes())
        assert len(diff) == 2 and f'"{start}"' in diff[0] and diff[1] == diff[0].replace(start, to).replace("-", "+", 1)
        wait_for(driver, f"document.getElementById('findings').textContent !== {shown!r}", 180)
        assert to in _findings(driver)  # the new finding names the hex the unit went to
        assert (
            driver.execute_script(
                f"return document.querySelector('#counters .counter[data-unit=\"{unit}\"]').dataset.hex"
            )
            == to
        )

        shown = _findings(driver)
        _tool(driver, "paint", ("terrainpick", terrain))
        _click_hex(driver, painted)
        _edited(driver, 2)
        diff = _diff(map_before, (root / map_file).read_bytes())
        # one line of the terrain list: the same hexes, and the painted one among them
        assert len(diff) == 2 and f'"{painted}"' not in diff[0], diff
        assert diff[1][1:].replace(f'"{painted}", ', "", 1) == diff[0][1:], diff
        wait_for(driver, f"M.byLabel.get('{painted}').hex.terrain.join() === '{terrain}'", 180)
        if adds:
            wait_for(driver, f"document.getElementById('findings').textContent !== {shown!r}", 180)
            assert "HW-PLACE-002" in _findings(driver)
        driver.save_screenshot(str(SCREENS / f"{gid}-edited.png"))

        from selenium.webdriver.common.by import By

        driver.find_element(By.ID, "undobtn").click()
        _edited(driver, 3)
        assert (root / map_file).read_bytes() == map_before
        driver.find_element(By.ID, "undobtn").click()
        _edited(driver, 4)
        assert scen_file.read_bytes() == scen_before
        wait_for(
            driver,
            f"document.querySelector('#counters .counter[data-unit=\"{unit}\"]').dataset.hex === '{start}'",
            180,
        )


def test_a_save_from_outside_is_never_overwritten(driver, tmp_path):
    """The page has not heard of the save (no file watcher here): its edit is refused, the page says so and
    reads the file again, and the next edit keeps the outside save's line."""
    root = copy_game("bfm", tmp_path / "project")
    path = root / "scenarios" / "bfm" / "seven-turn.yaml"
    with Served(root, "bfm", watch=False) as served:
        _open(driver, served, "bfm", "seven-turn")
        outside = path.read_bytes() + b"# saved from an editor\n"
        path.write_bytes(outside)
        _drag(driver, "sov-29", "0103")
        _edited(driver, 1, 409)
        assert path.read_bytes() == outside
        assert "changed on disk" in driver.find_element("id", "editstatus").text
        assert driver.execute_script("return document.body.dataset.conflict") == "scenarios/bfm/seven-turn.yaml"
        wait_for(
            driver, "document.querySelector('#counters .counter[data-unit=\"sov-29\"]').dataset.hex === '0301'", 180
        )
        _drag(driver, "sov-29", "0103")
        _edited(driver, 2)
        after = path.read_bytes()
        assert after.endswith(b"# saved from an editor\n") and _diff(outside, after)[1].startswith(
            '+    - {hex: "0103"'
        )


class _Blank(BaseHTTPRequestHandler):
    def do_GET(self):
        body = b"<!doctype html><title>elsewhere</title><p>another site"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def test_a_page_of_another_origin_cannot_edit(driver, tmp_path):
    """A page elsewhere posts an edit as a form would (no-cors, text/plain) and as JSON (its preflight is
    refused), and asks for an undo: nothing is written."""
    from authoring.serve.editing import file_digests

    root = copy_game("bfm", tmp_path / "project")
    path = root / "scenarios" / "bfm" / "seven-turn.yaml"
    before = path.read_bytes()
    other = ThreadingHTTPServer(("127.0.0.1", 0), _Blank)
    threading.Thread(target=other.serve_forever, daemon=True).start()
    try:
        with Served(root, "bfm") as served:
            digests = file_digests(served.session.state("bfm").files, root)
            driver.get(f"http://{EVIL}:{other.server_address[1]}/")
            body = {
                "game": "bfm",
                "scenario": "seven-turn",
                "kind": "move",
                "unit": "sov-29",
                "to": {"hex": "0101"},
                "files": digests,
            }
            driver.execute_script(
                """
                const [base, body] = arguments;
                window.outcome = {};
                const note = (k) => (v) => { window.outcome[k] = String(v); };
                for (const [k, type, mode] of [['form', 'text/plain', 'no-cors'], ['json', 'application/json', 'cors']]) {
                  fetch(base + '/api/edit', {method: 'POST', mode, headers: {'Content-Type': type}, body})
                    .then(note(k), note(k));
                }
                fetch(base + '/api/undo', {method: 'POST', mode: 'no-cors', headers: {'Content-Type': 'text/plain'},
                                           body: '{"game": "bfm"}'}).then(note('undo'), note('undo'));
                """,
                served.url(""),
                json.dumps(body),
            )
            wait_for(driver, "Object.keys(window.outcome).length === 3", 180)
            outcome = driver.execute_script("return window.outcome")
            assert outcome["json"].startswith("TypeError"), outcome  # the preflight or the answer refused
            assert path.read_bytes() == before
            assert not served.session.histories.get("bfm") or not served.session.histories["bfm"].done
    finally:
        other.shutdown()
        other.server_close()


CENTRES = """
const [from, to] = [...arguments].map((css) => document.querySelector(css));
from.scrollIntoView({block: "center", inline: "center"});
const mid = (el) => { const r = el.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; };
return [...mid(from), ...mid(to)];
"""


def _drag_at(driver, source: str, target: str) -> None:
    """A pointer drag from the middle of the element `source` (CSS) to that of `target`, by points of the
    window found at one moment: the page redraws after each edit (and again when the file watcher sees the
    save), which makes a held element reference stale."""
    from selenium.webdriver.common.actions.action_builder import ActionBuilder

    x0, y0, x1, y1 = driver.execute_script(CENTRES, source, target)
    actions = ActionBuilder(driver)
    pointer = actions.pointer_action
    pointer.move_to_location(int(x0), int(y0)).pointer_down().move_to_location(int(x0) + 5, int(y0) + 5)
    pointer.move_to_location(int(x1), int(y1)).pointer_up()
    actions.perform()


def _type(driver, css: str, text: str) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    field = driver.find_element(By.CSS_SELECTOR, css)
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys(text, Keys.TAB)


def _again(act, tries: int = 3) -> None:
    """`act` done again when the page redrew the element under it (nothing was done then)."""
    from selenium.common.exceptions import StaleElementReferenceException

    for n in range(tries):
        try:
            return act()
        except StaleElementReferenceException:
            if n == tries - 1:
                raise


DND = """
const [src, dst] = [...arguments].map((css) => document.querySelector(css)), data = new DataTransfer();
const fire = (el, type) => el.dispatchEvent(new DragEvent(type, {bubbles: true, cancelable: true, dataTransfer: data}));
fire(src, "dragstart"); fire(dst, "dragenter"); fire(dst, "dragover"); fire(dst, "drop"); fire(src, "dragend");
"""
"""HTML drag and drop from the element `src` onto `dst` (CSS selectors): WebDriver's pointer actions fire no
HTML5 drag events."""

SIDE = """
const [label, d] = arguments, poly = document.querySelector(`#hexes polygon[data-id='${label}']`);
poly.scrollIntoView({block: "center", inline: "center"});
const at = (i) => new DOMPoint(poly.points[i].x, poly.points[i].y).matrixTransform(poly.getScreenCTM());
const a = at((d + 4) % 6), b = at((d + 5) % 6), box = poly.getBoundingClientRect();
const cx = box.x + box.width / 2, cy = box.y + box.height / 2;
return [cx + 0.8 * ((a.x + b.x) / 2 - cx), cy + 0.8 * ((a.y + b.y) / 2 - cy)];
"""
"""The point of the window just inside hex `label`, next to the middle of its side `d` (side d runs between
corners d + 4 and d + 5, `hexgrid.layout`)."""


def _click_side(driver, label: str, d: int) -> None:
    from selenium.webdriver.common.actions.action_builder import ActionBuilder

    x, y = driver.execute_script(SIDE, label, d)
    actions = ActionBuilder(driver)
    actions.pointer_action.move_to_location(int(x), int(y)).click()
    actions.perform()


def test_hexside_click_arrival_turn_and_a_drop_on_a_box(driver, tmp_path):
    """bfm: a click next to the 0303-0304 hexside adds a river there; an arrival's turn typed in the turn box
    moves it; a counter dropped on the replacement-pool box joins that box."""
    from selenium.webdriver.common.by import By

    root = copy_game("bfm", tmp_path / "project")
    map_file, scen_file = root / "maps/bfm/main.yaml", root / "scenarios/bfm/seven-turn.yaml"
    map_before, scen_before = map_file.read_bytes(), scen_file.read_bytes()
    with Served(root, "bfm") as served:
        _open(driver, served, "bfm", "seven-turn")
        _tool(driver, "hexside", ("hexsidepick", "hexside:river"))
        _click_side(driver, "0303", 3)  # 3: south, toward 0304
        _edited(driver, 1)
        assert _diff(map_before, map_file.read_bytes()) == ['+    - ["0303", "0304"]']

        _tool(driver, "move")
        _again(lambda: driver.find_element(By.CSS_SELECTOR, '#turnslots button[data-id="4"]').click())
        _again(lambda: _type(driver, '.arrive[data-units="sov-1shock"] input', "6"))
        _edited(driver, 2)
        diff = _diff(scen_before, scen_file.read_bytes())
        assert (
            len(diff) == 2
            and diff[0].startswith("-  - {turn: 4,")
            and diff[1] == diff[0].replace("turn: 4", "turn: 6").replace("-", "+", 1)
        )

        _drag_at(
            driver, '#counters .counter[data-unit="sov-30"]', '#turninfo [data-drop="box"][data-id="replacement-pool"]'
        )
        _edited(driver, 3)
        text = scen_file.read_text()
        assert '{hex: "0302", units: [sov-30]' not in text
        assert "units: [sov-5, sov-10, sov-40, sov-30], state: half" in text
        wait_for(driver, "!document.querySelector('#counters .counter[data-unit=\"sov-30\"]')", 180)


def test_rail_and_map_edge_clicks_and_an_arrival_dragged_to_a_turn(driver, tmp_path):
    """bfm: with the rail picked, a click at the 0103-0104 hexside joins them by a new rail line and a click at
    the 0802-0902 hexside cuts the Rzhev - Moscow line in two; with the river picked, a click at 1405's
    north-east side (the map edge) takes that river away; the arrival of turn 4 dragged onto turn button 6
    arrives on turn 6. Each a change of exactly those lines, undone to the byte."""
    from selenium.webdriver.common.by import By

    root = copy_game("bfm", tmp_path / "project")
    map_file, scen_file = root / "maps/bfm/main.yaml", root / "scenarios/bfm/seven-turn.yaml"
    map_before, scen_before = map_file.read_bytes(), scen_file.read_bytes()
    with Served(root, "bfm") as served:
        _open(driver, served, "bfm", "seven-turn")
        _tool(driver, "hexside", ("hexsidepick", "path:rail"))
        _click_side(driver, "0103", 3)  # 3: south, toward 0104
        _edited(driver, 1)
        assert _diff(map_before, map_file.read_bytes()) == ['+    - {hexes: ["0103", "0104"]}']
        _click_side(driver, "0802", 1)  # 1: north-east, toward 0902
        _edited(driver, 2)
        assert _diff(map_before, map_file.read_bytes()) == [
            '-    - {name: "Rzhev - Moscow", hexes: ["0601", "0702", "0802", "0902", "1002", "1103"]}',
            '+    - {name: "Rzhev - Moscow", hexes: ["0601", "0702", "0802"]}',
            '+    - {name: "Rzhev - Moscow", hexes: ["0902", "1002", "1103"]}',
            '+    - {hexes: ["0103", "0104"]}',
        ]
        _tool(driver, "hexside", ("hexsidepick", "hexside:river"))
        _click_side(driver, "1405", 1)  # 1: north-east, off the map
        _edited(driver, 3)
        assert '{hex: "1405", side: NE}' not in map_file.read_text()
        assert "river on the NE edge of 1405 taken away" in driver.find_element(By.ID, "editstatus").text

        _tool(driver, "move")
        _again(lambda: driver.find_element(By.CSS_SELECTOR, '#turnslots button[data-id="4"]').click())
        driver.execute_script(DND, '.arrive[data-units="sov-1shock"]', '#turnslots button[data-id="6"]')
        _edited(driver, 4)
        diff = _diff(scen_before, scen_file.read_bytes())
        assert (
            len(diff) == 2
            and diff[0].startswith("-  - {turn: 4,")
            and diff[1] == diff[0].replace("turn: 4", "turn: 6").replace("-", "+", 1)
        )
        driver.save_screenshot(str(SCREENS / "edit-rail-edge-arrival.png"))
        for n in range(5, 9):
            driver.find_element(By.ID, "undobtn").click()
            _edited(driver, n)
        assert map_file.read_bytes() == map_before and scen_file.read_bytes() == scen_before
