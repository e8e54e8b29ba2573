"""The build: every artifact of a game, stage by stage, after the data checks clean."""

from authoring.build.stages import *  # noqa: F403 - moved from authoring/build.py
