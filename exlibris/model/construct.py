"""Models built from data already known to validate, without validating it again.

Validation needs each model's validator, and pydantic builds those on first use
(the models say ``defer_build``): for the 28 models of content and rules that is
a good part of a game's start-up. The shipped files, as the per-user cache has them
(``shipped_cache.py``), were validated by an earlier command (``typed()`` says so,
for the files as they are now), so they are built here with ``model_construct``,
nested models and all, as validation would have built them: the same values, the
same defaults, the same fields set. ``tests/test_model_construct.py`` holds each
shipped file and variant to that.

A model built here from trusted data is remembered (``is_trusted``), so that the
settings a chain of trusted variants resolves to can be trusted too.
"""

from __future__ import annotations

import types
from functools import cache
from typing import Annotated, Any, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel

M = TypeVar("M", bound=BaseModel)
_TRUSTED: dict[int, BaseModel] = {}  # id -> model: the model kept so that its id stays its own


def construct(model: type[M], data: dict[str, Any], *, remember: bool = True) -> M:
    """``model`` from ``data`` that ``model.model_validate`` accepts, remembered as
    trusted unless ``remember`` is false (a model built per game, not kept)."""
    built = _build(model, data)
    if remember:
        _TRUSTED[id(built)] = built
    return built


def is_trusted(value: BaseModel) -> bool:
    """Built by ``construct`` (from data known to validate)."""
    return _TRUSTED.get(id(value)) is value


def _build(model: type[M], data: dict[str, Any]) -> M:
    fields = model.model_fields
    values = {name: _value(fields[name].annotation, value) if name in fields else value
              for name, value in data.items()}
    given = set(values)
    for name, default in _defaults(model):
        if name not in values:
            values[name] = default() if callable(default) else default
    return model.model_construct(given, **values)


@cache
def _defaults(model: type[BaseModel]) -> tuple[tuple[str, Any], ...]:
    """Each optional field's default: a value, or a factory to call (``model_construct``
    would ask ``inspect`` about each factory at every call)."""
    found = []
    for name, info in model.model_fields.items():
        if info.default_factory is not None:
            found.append((name, info.default_factory))
        elif not info.is_required():
            if not isinstance(info.default, str | int | float | bool | type(None) | tuple):
                raise TypeError(f"{model.__name__}.{name}: a default to copy")
            found.append((name, info.default))
    return tuple(found)


def _value(annotation: Any, value: Any) -> Any:
    origin = get_origin(annotation)
    if origin is Annotated:
        return _value(get_args(annotation)[0], value)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return _build(annotation, value) if isinstance(value, dict) else value
    if origin in (Union, types.UnionType):
        return _value(_member(annotation, value), value)
    if origin is list and isinstance(value, list):
        (item,) = get_args(annotation) or (Any,)
        return [_value(item, v) for v in value]
    if origin is dict and isinstance(value, dict):
        key, item = get_args(annotation) or (Any, Any)
        number = _unannotated(key) is int  # "3": a player count written as a string
        return {int(k) if number and isinstance(k, str) else k: _value(item, v)
                for k, v in value.items()}
    return value


def _member(union: Any, value: Any) -> Any:
    """The member of a union that a mapping or a list validated as (Any for a plain
    value, which is kept as it is)."""
    if isinstance(value, dict):
        kinds = [a for a in map(_unannotated, get_args(union)) if get_origin(a) is dict
                 or (isinstance(a, type) and issubclass(a, BaseModel))]
    elif isinstance(value, list):
        kinds = [a for a in map(_unannotated, get_args(union)) if get_origin(a) is list]
    else:
        return Any
    if len(kinds) != 1:
        raise TypeError(f"cannot tell which of {kinds} a {type(value).__name__} is")
    return kinds[0]


def _unannotated(annotation: Any) -> Any:
    return get_args(annotation)[0] if get_origin(annotation) is Annotated else annotation
