"""Authoring workflow: start a project, add scenarios, move set-ups to and from spreadsheets, watch and rebuild.

Everything here writes files atomically (temporary file, then os.replace) and refuses to
overwrite what a designer made; the CLI wrappers live in `authoring/cli/author.py`.
"""
