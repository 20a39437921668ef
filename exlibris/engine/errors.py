"""Errors of the game engine (the effect language's own are in ``dsl/errors.py``)."""

from __future__ import annotations


class RulesError(RuntimeError):
    """The engine met a situation the rules and content do not cover."""
