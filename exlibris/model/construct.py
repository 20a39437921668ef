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
from typing import Annotated, Any, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel

M = TypeVar("M", bound=BaseModel)
_TRUSTED: dict[int, BaseModel] = {}  # id -> model: the model kept so that its id stays its own


def construct(model: type[M], data: dict[str, Any]) -> M:
    """``model`` from ``data`` that ``model.model_validate`` accepts; remembered as
    trusted."""
    built = _build(model, data)
    _TRUSTED[id(built)] = built
    return built


def is_trusted(value: BaseModel) -> bool:
    """Built by ``construct`` (from data known to validate)."""
    return _TRUSTED.get(id(value)) is value


def _build(model: type[M], data: dict[str, Any]) -> M:
    fields = model.model_fields
    values = {name: _value(fields[name].annotation, value) if name in fields else value
              for name, value in data.items()}
    return model.model_construct(**values)


def _value(annotation: Any, value: Any) -> Any:
    origin = get_origin(annotation)
    if origin is Annotated:
        return _value(get_args(annotation)[0], value)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return _build(annotation, value) if isinstance(value, dict) else value
    if origin in (Union, types.UnionType):
        if isinstance(value, dict):
            models = [a for a in map(_unannotated, get_args(annotation))
                      if isinstance(a, type) and issubclass(a, BaseModel)]
            if len(models) == 1:
                return _build(models[0], value)
            if models:
                raise TypeError(f"cannot tell which of {models} a mapping is")
        if isinstance(value, list):
            lists = [a for a in get_args(annotation) if get_origin(a) is list]
            return _value(lists[0], value) if len(lists) == 1 else value
        return value
    if origin is list and isinstance(value, list):
        (item,) = get_args(annotation) or (Any,)
        return [_value(item, v) for v in value]
    if origin is dict and isinstance(value, dict):
        _, item = get_args(annotation) or (Any, Any)
        return {k: _value(item, v) for k, v in value.items()}
    return value


def _unannotated(annotation: Any) -> Any:
    return get_args(annotation)[0] if get_origin(annotation) is Annotated else annotation
