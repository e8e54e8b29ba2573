"""Shared by every renderer: the bundled font, page layout for player aids, PDF and PNG writing."""
