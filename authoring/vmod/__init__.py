"""Reading an existing VASSAL module (`.vmod`): archive, buildFile, grids, pieces and saved games.

Author-side only: `authoring.author.import_vmod` turns what this package reads into project files.
Nothing here imports a later stage (load, model, render, vassal output).
"""
