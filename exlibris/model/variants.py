"""A variant's chain of ancestors and the settings it resolves to (light to import:
every game needs them, only ``validate`` needs the checks around them)."""

from __future__ import annotations

from typing import Any

from exlibris.model.construct import construct, is_trusted
from exlibris.model.merging import ChainError, linearize, merge
from exlibris.model.rules import Settings, Variant


def variant_chain(variant_id: str, variants: dict[str, Variant]) -> list[Variant]:
    """The variant and its ancestors, base first, each once (a later parent after an
    earlier one, so that it wins); raises ValueError on a cycle or gap."""
    try:
        order = linearize(variant_id, lambda v: variants[v].parents if v in variants else None)
    except ChainError as exc:
        if exc.missing is None:
            raise
        from exlibris.dsl.checker import did_you_mean

        others = sorted(set(variants) - {variant_id})  # never the file's own id
        raise ValueError(f"unknown variant {exc.missing!r}"
                         f"{did_you_mean(exc.missing, others)}; known: "
                         f"{', '.join(others)}") from None
    return [variants[v] for v in order]


def resolve_settings(variant_id: str, variants: dict[str, Variant]) -> Settings:
    """Merge a variant's chain into validated settings (a chain of shipped variants
    known to resolve is not validated again: ``model/construct.py``)."""
    merged: dict[str, Any] = {}
    chain = variant_chain(variant_id, variants)
    for variant in chain:
        merged = merge(merged, variant.overlay)
    merged["abilities"] = [ability for variant in chain for ability in variant.abilities]
    if all(is_trusted(v) for v in chain):
        try:
            return construct(Settings, merged, remember=False)
        except TypeError:  # data construct cannot place: validated
            pass
    return Settings.model_validate(merged)
