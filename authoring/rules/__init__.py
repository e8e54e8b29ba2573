"""The set-up legality engine: scenario (or set-up card) + game data -> findings.

Checks are small generator functions yielding `Diagnostic`s (house style 6), registered in
`registry.py`; `engine.py` assembles the rules in force and runs them over one `Board`.
"""

from authoring.rules.engine import check_game, check_scenario

__all__ = ("check_game", "check_scenario")
