"""Printed outputs: counter sheets, tiled maps, set-up cards and charts, on Letter or A4."""
