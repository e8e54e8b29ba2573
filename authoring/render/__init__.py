"""Everything hexwright draws, by part.

- ``counters/``: counter faces. ``layout.py`` is the counter layouts as data (slots, defaults, which
  layout a counter uses), ``face.py`` the layout engine that fits each text in its slot and paints
  the face, ``check.py`` the box checker, ``symbols.py`` the NATO unit symbols.
- ``counter_art.py``: the one place a model ``Counter`` becomes a drawn face (``counter_image``),
  used by sheets, cards, findings images and the VASSAL module.
- ``maps/``: map scenes, styles, symbols, rasteriser, legend, findings images.
- ``print/``: printed outputs: counter sheets, map tiles, set-up cards and charts.
- ``shared/``: the bundled font, page layout for player aids (``canvas.py``) and PDF/PNG writing.
"""
