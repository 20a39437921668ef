"""Parsing effect-language source into the typed AST, with author-friendly errors.

The trees of the shipped content's effects are kept in the per-user cache
(``tree_cache.py``), and the package has them parsed too (``prebuilt.py``), so that
a game or a first ``validate`` never imports Lark for them; any other text is parsed by Lark
(``lark_parser.py``), which also makes every syntax error's message.
"""

from __future__ import annotations

from typing import Any

from exlibris import prebuilt
from exlibris.dsl import ast, tree_cache


def _parsed(text: str, start: str) -> Any:
    tree = tree_cache.lookup(start, text)
    if tree is None:
        tree = prebuilt.tree(start, text)  # parsed when the package was made
    if tree is not None:
        return tree
    from exlibris.dsl import lark_parser

    return lark_parser.parse(text, start)


def parse_program(text: str) -> ast.Program:
    """Parse an ``effect:`` program."""
    return _parsed(text, "program")  # type: ignore[no-any-return]


def parse_trigger(text: str) -> ast.Trigger:
    """Parse a ``when:`` trigger (one line)."""
    return _parsed(text, "trigger")  # type: ignore[no-any-return]


def parse_rule(text: str) -> ast.PlacementRule:
    """Parse one ``placement:`` rule (one line)."""
    return _parsed(text, "rule")  # type: ignore[no-any-return]


def parse_expression(text: str) -> ast.Expr:
    """Parse a ``score:`` expression (one line)."""
    return _parsed(text, "expression")  # type: ignore[no-any-return]


def __getattr__(name: str) -> Any:
    """The Lark side's names (``MAX_SOURCE_CHARS``, ``_parser``, ``write_tables``...),
    imported when asked."""
    if name.startswith("__"):
        raise AttributeError(name)
    from exlibris.dsl import lark_parser

    try:
        return getattr(lark_parser, name)
    except AttributeError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
