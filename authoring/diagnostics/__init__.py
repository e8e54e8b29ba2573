"""Findings of the loader and the rules engine, and their renderers."""

from authoring.diagnostics.record import (
    Diagnostic,
    Loc,
    Severity,
    error,
    has_errors,
    info,
    sorted_diagnostics,
    warning,
)

__all__ = ("Diagnostic", "Loc", "Severity", "error", "warning", "has_errors", "info", "sorted_diagnostics")
