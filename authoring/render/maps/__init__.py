"""Maps: scene (what goes where), style, symbols, rasteriser, draw (whole maps), legend, findings images."""
