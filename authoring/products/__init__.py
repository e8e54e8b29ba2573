"""Products: what each output shows, how it is keyed and where it is kept.

`fingerprint` (the code and libraries that draw), `keys` (the one recipe: a canonical digest of the model slice
an output shows, after the fingerprint), `catalogue` (every product and its key: counter face, sheet page, card
page, map image, print tile, board, preview tile, module member), `store` (the sealed entries and their trim)
and `stamps` (a stage's and an output's stamp). The build's stages, the module compiler and the live preview
ask here; `render` draws without knowing any of it.
"""
