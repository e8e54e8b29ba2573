"""hexwright's JSON Schemas as documents: looked up, inlined and compiled to fast yes/no checks.

Below the loader (which turns schema errors into findings) and the rules engine (which checks rule
parameters against the rules schema), so that neither has to import the other.
"""
