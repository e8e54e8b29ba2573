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
    time.sleep(1.1)  # the next wall-clock second
    second = write_pdf([page], tmp_path / "b.pdf", 100, "letter").read_bytes()
    assert first == second
    assert not re.search(rb"/CreationDate|/ModDate|/ID\s*\[", first)


def test_img2pdf_comes_without_pikepdf_which_stays_importable(tmp_path: Path):
    """A PDF writer's process does not pay for pikepdf (50-60 ms) it never uses; later imports of it still work."""
    import subprocess
    import sys

    script = (
        "import sys\n"
        "from PIL import Image\n"
        "from authoring.render.shared.pdf import write_pdf\n"
        f"write_pdf([Image.new('RGB', (60, 40), (0, 90, 200))], {str(tmp_path / 'p.pdf')!r}, 100, 'a4')\n"
        "import img2pdf\n"
        "print('pikepdf' in sys.modules, img2pdf.have_pikepdf)\n"
        "import pikepdf\n"
        "print(pikepdf.__name__)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "False", "pikepdf"]
    assert (tmp_path / "p.pdf").read_bytes().startswith(b"%PDF")
