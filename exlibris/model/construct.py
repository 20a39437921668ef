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
from collections.abc import Callable
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
    converters, defaults = _plan(model)
    values = {}
    for name, value in data.items():
        convert = converters.get(name)
        values[name] = value if convert is None else convert(value)
    given = set(values)
    for name, default in defaults:
        if name not in values:
            values[name] = default() if callable(default) else default
    return model.model_construct(given, **values)


Convert = Callable[[Any], Any]


@cache
def _plan(model: type[BaseModel]) -> tuple[dict[str, Convert], tuple[tuple[str, Any], ...]]:
    """What ``_build`` does to each field's value (a field kept as it is has none), and
    each optional field's default: worked out once a model from its annotations."""
    converters = {}
    for name, info in model.model_fields.items():
        convert = _converter(info.annotation)
        if convert is not None:
            converters[name] = convert
    return converters, _defaults(model)


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


def _converter(annotation: Any) -> Convert | None:
    """How a value that validates as ``annotation`` becomes what validation makes of it:
    nested models built, lists and mappings copied (a mapping's numeric keys written as
    strings made numbers); None for a value kept as it is."""
    origin = get_origin(annotation)
    if origin is Annotated:
        return _converter(get_args(annotation)[0])
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        model = annotation
        return lambda value: _build(model, value) if isinstance(value, dict) else value
    if origin in (Union, types.UnionType):
        return _union(annotation)
    if origin is list:
        (item,) = get_args(annotation) or (Any,)
        each = _converter(item)
        if each is None:
            return lambda value: list(value) if isinstance(value, list) else value
        return lambda value: [each(v) for v in value] if isinstance(value, list) else value
    if origin is dict:
        key, item = get_args(annotation) or (Any, Any)
        number = _unannotated(key) is int  # "3": a player count written as a string
        each = _converter(item) or _same
        return lambda value: {int(k) if number and isinstance(k, str) else k: each(v)
                              for k, v in value.items()} if isinstance(value, dict) else value
    return None


def _same(value: Any) -> Any:
    return value


def _union(union: Any) -> Convert:
    """A union's converter: a mapping or a list as the one member of the union that
    it can validate as (a ``TypeError`` if that is not one member); a plain value
    kept as it is."""
    members = [_unannotated(a) for a in get_args(union)]
    maps = [a for a in members if get_origin(a) is dict
            or (isinstance(a, type) and issubclass(a, BaseModel))]
    lists = [a for a in members if get_origin(a) is list]
    as_map = (_converter(maps[0]) or _same) if len(maps) == 1 else None
    as_list = (_converter(lists[0]) or _same) if len(lists) == 1 else None

    def convert(value: Any) -> Any:
        if isinstance(value, dict):
            if as_map is None:
                raise TypeError(f"cannot tell which of {maps} a dict is")
            return as_map(value)
        if isinstance(value, list):
            if as_list is None:
                raise TypeError(f"cannot tell which of {lists} a list is")
            return as_list(value)
        return value

    return convert


def _unannotated(annotation: Any) -> Any:
    return get_args(annotation)[0] if get_origin(annotation) is Annotated else annotation
