"""Findings of the loader and the rules engine, and their renderers.

A finding is made by its code's constant in the catalogue, `codes.HW_STACK_001.at(message, loc)`, at the
severity the catalogue gives it."""

from authoring.diagnostics.record import (
    Diagnostic,
    Loc,
    Severity,
    has_errors,
    sorted_diagnostics,
)

__all__ = ("Diagnostic", "Loc", "Severity", "has_errors", "sorted_diagnostics")
