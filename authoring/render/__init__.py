"""Renderers: counter faces, unit symbols, maps and print-and-play PDFs (Pillow, img2pdf)."""
