"""Writes a module with pywargame (run by a Python that has it: `.venv-pywargame/bin/python`, Python 3.12+),
for the import-vmod corpus. Usage: python pywargame_module.py OUT.vmod

A flat-top hex grid in a zone of the board (pywargame's own layout; numbered from 01 01), two sides, three two-faced
pieces per side in a tabbed palette, and one predefined set-up written by pywargame's own save writer.
"""

import io
import sys

from PIL import Image, ImageDraw
from pywargame.vassal import BuildFile, VMod, VSav
from pywargame.vassal.traits import BasicTrait, LayerTrait

SIDES = ("Allies", "Axis")


def png(size, colour, text=""):
    im = Image.new("RGB", size, colour)
    ImageDraw.Draw(im).text((4, size[1] // 3), text, fill="black")
    out = io.BytesIO()
    im.save(out, "PNG")
    return out.getvalue()


def main(out):
    build = BuildFile()
    game = build.addGame(name="pywargame-test", version="1.0", VassalVersion="3.6.0", description="made by pywargame")
    game.addBasicCommandEncoder()
    game.addGlobalOptions()
    roster = game.addPlayerRoster()
    for side in SIDES:
        roster.addSide(side)
    game.addChatter()
    main_map = game.addMap(mapName="Board")
    main_map.addCounterDetailViewer()
    main_map.addStackMetrics()
    main_map.addScroller()
    main_map.addForwardToChatter()
    main_map.addMenuDisplayer()
    main_map.addPieceMover()
    main_map.addImageSaver()
    main_map.addZoomer()
    picker = main_map.addBoardPicker()
    board = picker.addBoard(name="Board", image="board.png", width=600, height=480)
    zoned = board.addZonedGrid()  # pywargame puts every grid in a zone (its LaTeX exporter does too)
    zone = zoned.addZone(name="Hexes", path="0,0;520,0;520,470;0,470", locationFormat="$gridLocation$")
    grid = zone.addHexGrid(x0=36, y0=40, dx=54.0, dy=62.0, visible=False)
    grid.addNumbering(
        first="H",
        hType="N",
        vType="N",
        hLeading=1,
        vLeading=1,
        hOff=1,
        vOff=1,
        stagger=False,
        locationFormat="$gridLocation$",
        sep="",
    )
    game.addPrototypes()  # pywargame flattens pieces through the (empty) prototypes container
    window = game.addPieceWindow(name="Counters")
    tabs = window.addTabs(entryName="Counters")
    files = {"board.png": png((600, 480), "#e8e4c9", "pywargame board")}
    names = []
    for s, side in enumerate(SIDES):
        panel = tabs.addList(entryName=side)
        for u in range(3):
            name = f"{side} {u + 1}"
            front, back = f"{side}_{u}_front.png", f"{side}_{u}_back.png"
            files[front] = png((50, 50), ["#c0504d", "#4f81bd"][s], name)
            files[back] = png((50, 50), ["#e6b8b7", "#b8cce4"][s], name + "'")
            traits = [
                LayerTrait(
                    images=[front, back],
                    newNames=["", "+ flipped"],
                    activateName="",
                    increaseName="Flip",
                    increaseChar="F",
                    name="Step",
                ),
                BasicTrait(name=name, filename="", gpid=""),
            ]
            panel.addPieceSlot(entryName=name, traits=traits, width=50, height=50)
            names.append(name)
    game.addPredefinedSetup(name="Start", file="Start.vsav", useFile=True, isMenu=False)
    with VMod(out, "w") as vmod:
        vmod.addFiles(**{"buildFile.xml": build.encode(), "moduledata": _moduledata(game)})
        for name, data in files.items():
            vmod.addFile("images/" + name, data)
        vsav = VSav(build=build, vmod=vmod)  # VMod.addVSav misses its import in pywargame 0.8
        save = vsav.addSaveFile()
        save.add(grid, "Board", **{"Allies 1": "0202", "Allies 2": "0303", "Axis 1": "0505", "Axis 3": "0704"})
        vsav.run(filename=out + ".vsav", description="Start", vobs=False)  # !VCSK: what the 3.6 engine reads
        with open(out + ".vsav", "rb") as fh:
            vmod.addFile("Start.vsav", fh.read())


def _moduledata(game):
    return (
        f'<?xml version="1.0" encoding="UTF-8" standalone="no"?><data version="1"><version>1.0</version>'
        f"<VassalVersion>3.6.0</VassalVersion><dateSaved>0</dateSaved><description/>"
        f"<name>{game['name']}</name></data>"
    ).encode()


if __name__ == "__main__":
    main(sys.argv[1])
