"""Counter faces: layouts as data (layout.py), the fitting engine (face.py), its checker (check.py), unit symbols."""
