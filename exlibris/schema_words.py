"""pydantic's errors in an author's words: what the value should be, never a Python
type or a model class's name (``Input should be a valid dictionary or instance of
VariantSettings`` becomes ``should be a mapping of settings (key: value lines)``)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

ID_PATTERN = r"^[a-z0-9]+(-[a-z0-9]+)*$"
ID_WORDS = ("an id is lowercase letters, digits and hyphens, with no space, no capital "
            "and no hyphen at either end, like reading-nook or tile-7")

# the forms of ``StringConstraints(pattern=...)`` in the models, said in words
_PATTERNS = {
    ID_PATTERN: ID_WORDS,
    r"^[A-Z]$": "one capital letter, like M",
    r"^[A-Z]{2,4}$": "two to four capital letters",
    r"^#[0-9a-f]{6}$": "a colour written #rrggbb in lowercase hex digits, like #1a2b3c",
}


def _items(n: Any) -> str:
    return f"{n} item" if n == 1 else f"{n} items"


def _expected(ctx: Mapping[str, Any]) -> str:
    return str(ctx.get("expected", "one of the values allowed"))


# pydantic's error type -> the words for "the value ..."; ``{name}`` from its context
_WORDS: dict[str, Any] = {
    "string_type": "should be text",
    "int_type": "should be a whole number",
    "int_parsing": "should be a whole number",
    "int_from_float": "should be a whole number, not a fraction",
    "int_parsing_size": "is a number too large",
    "float_type": "should be a number",
    "float_parsing": "should be a number",
    "finite_number": "should be a finite number",
    "bool_type": "should be true or false",
    "bool_parsing": "should be true or false",
    "list_type": "should be a list ([a, b], or lines starting with '- ')",
    "tuple_type": "should be a list ([a, b], or lines starting with '- ')",
    "set_type": "should be a list ([a, b], or lines starting with '- ')",
    "dict_type": "should be a mapping (key: value lines)",
    "model_type": "should be a mapping (key: value lines)",
    "model_attributes_type": "should be a mapping (key: value lines)",
    "none_required": "should be left out (or null)",
    "literal_error": lambda ctx: f"should be {_expected(ctx)}",
    "enum": lambda ctx: f"should be {_expected(ctx)}",
    "too_short": lambda ctx: (f"should have at least {_items(ctx.get('min_length'))}"
                              f", not {ctx.get('actual_length')}"),
    "too_long": lambda ctx: (f"should have at most {_items(ctx.get('max_length'))}"
                             f", not {ctx.get('actual_length')}"),
    "string_too_short": lambda ctx: (f"should be at least {ctx.get('min_length')} "
                                     "character(s) long"),
    "string_too_long": lambda ctx: (f"should be at most {ctx.get('max_length')} "
                                    "characters long"),
    "string_pattern_mismatch": lambda ctx: "is not of the right form: " + _PATTERNS.get(
        str(ctx.get("pattern")), f"it should match {ctx.get('pattern')}"),
    "greater_than": lambda ctx: f"should be more than {ctx.get('gt')}",
    "greater_than_equal": lambda ctx: f"should be at least {ctx.get('ge')}",
    "less_than": lambda ctx: f"should be less than {ctx.get('lt')}",
    "less_than_equal": lambda ctx: f"should be at most {ctx.get('le')}",
    "multiple_of": lambda ctx: f"should be a multiple of {ctx.get('multiple_of')}",
    "missing": "is missing",
    "extra_forbidden": "is not a field here",
    "union_tag_invalid": lambda ctx: (f"names {ctx.get('tag')!r}, which should be "
                                      f"{ctx.get('expected_tags')}"),
    "union_tag_not_found": lambda ctx: f"needs its {ctx.get('discriminator')} field",
}

# what may be left of pydantic's own wording in a message it made (a validator's text)
_PREFIX = re.compile(r"^(?:Value error|Assertion failed), ")
_PYTHON = re.compile(r"\s*(?:or )?instance of \w+|\b(?:dictionary|dict)\b|"
                     r"\bafter validation\b,?|\bInput\b ")


def in_words(err: Mapping[str, Any]) -> str:
    """One pydantic error's message (``ValidationError.errors()``) in plain words: what
    the value should be."""
    kind = str(err.get("type", ""))
    ctx = err.get("ctx") or {}
    words = _WORDS.get(kind)
    if callable(words):
        return str(words(ctx))
    if words is not None:
        return words
    message = _PREFIX.sub("", str(err.get("msg", "is not valid here")))
    if kind in ("value_error", "assertion_error"):  # our own validators' words
        return message
    message = _PYTHON.sub(lambda m: "mapping" if "dict" in m.group(0) else "", message)
    return " ".join(message.split()) or "is not valid here"


def first_in_words(exc: Any) -> str:
    """The first error of a ``ValidationError`` as ``FIELD: what it should be``."""
    errors = exc.errors()
    if not errors:
        return "is not valid"
    err = errors[0]
    where = ".".join(str(p) for p in err.get("loc", ()))
    return f"{where or 'the value'} {in_words(err)}" if where else in_words(err)
