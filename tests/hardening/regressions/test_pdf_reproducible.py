"""Regression: cards and charts PDFs differed between two builds (img2pdf stamped /CreationDate with the clock,
and its default pikepdf engine wrote a random /ID).

Found by tests/hardening/test_builds.py. Fix: `authoring.render.shared.pdf.write_pdf` passes `nodate=True` and
the internal engine, as the counter sheets already did.
"""
from __future__ import annotations

import re
import time
from pathlib import Path

from PIL import Image

from authoring.render.shared.pdf import write_pdf


def test_write_pdf_has_no_clock_or_random_id(tmp_path: Path):
    page = Image.new("RGB", (120, 80), (200, 30, 30))
    first = write_pdf([page], tmp_path / "a.pdf", 100, "letter").read_bytes()
    time.sleep(1.1)   # the next wall-clock second
    second = write_pdf([page], tmp_path / "b.pdf", 100, "letter").read_bytes()
    assert first == second
    assert not re.search(rb"/CreationDate|/ModDate|/ID\s*\[", first)
