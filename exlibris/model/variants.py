"""A variant's chain of ancestors and the settings it resolves to (light to import:
every game needs them, only ``validate`` needs the checks around them)."""

from __future__ import annotations

from typing import Any

from exlibris.model.merging import merge
from exlibris.model.rules import Settings, Variant


def variant_chain(variant_id: str, variants: dict[str, Variant]) -> list[Variant]:
    """The variant and its ancestors, base first; raises ValueError on a cycle or gap."""
    chain: list[Variant] = []
    current: str | None = variant_id
    while current is not None:
        if current not in variants:
            from exlibris.dsl.checker import did_you_mean

            raise ValueError(f"unknown variant {current!r}"
                             f"{did_you_mean(current, variants)}; known: "
                             f"{', '.join(sorted(variants))}")
        if any(v.id == current for v in chain):
            raise ValueError(f"variant {current!r} extends itself")
        chain.append(variants[current])
        current = variants[current].extends
    return list(reversed(chain))


def resolve_settings(variant_id: str, variants: dict[str, Variant]) -> Settings:
    """Merge a variant's chain into validated settings."""
    merged: dict[str, Any] = {}
    for variant in variant_chain(variant_id, variants):
        merged = merge(merged, variant.overlay)
    return Settings.model_validate(merged)
