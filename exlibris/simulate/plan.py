"""Which games a run plays: cells (variant x player count), seeds, seats.

Game ``i``'s seed depends only on the run's seed ``S`` and ``i`` (a hash), and so do
its seats (rotated by ``i``), so a game's result never depends on how the run is
split among workers or backends. The same seeds are used in every cell, which makes
variants compare on the same deals.
"""

from __future__ import annotations

import hashlib
import shlex
from collections.abc import Sequence
from dataclasses import dataclass

from exlibris.catalog import Catalog

SEED_BITS = 48


def game_seed(run_seed: int, index: int) -> int:
    """Game ``index``'s seed in the run seeded ``run_seed``: a hash of the pair."""
    digest = hashlib.blake2b(f"exlibris-simulate:{run_seed}:{index}".encode(),
                             digest_size=8).digest()
    return int.from_bytes(digest, "big") >> (64 - SEED_BITS)


def seats_for(pattern: Sequence[str], players: int, index: int, rotate: bool = True
              ) -> list[str]:
    """The agents at each seat of game ``index``: ``pattern`` repeated to ``players``
    seats, then rotated by ``index`` so every agent sits at every position equally.
    With more agents than seats, a round robin (:func:`round_robin`)."""
    if len(pattern) > players:
        return round_robin(pattern, players, index, rotate)
    kinds = [pattern[j % len(pattern)] for j in range(players)]
    if not rotate:
        return kinds
    shift = index % players
    return kinds[shift:] + kinds[:shift]


def tables(pattern: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """The tables of a round robin: every choice of ``players`` of the agents of
    ``pattern`` (by their place in it), in order."""
    from itertools import combinations

    return [tuple(pattern[i] for i in chosen)
            for chosen in combinations(range(len(pattern)), players)]


def round_robin(pattern: Sequence[str], players: int, index: int, rotate: bool = True
                ) -> list[str]:
    """A tournament's game ``index``: the tables of :func:`tables` in turn, each
    played ``players`` games running, rotated by one seat a game (so a run of
    ``players`` x tables games seats every agent against every other at every
    position equally)."""
    every = tables(pattern, players)
    kinds = list(every[(index // players) % len(every)])
    if not rotate:
        return kinds
    shift = index % players
    return kinds[shift:] + kinds[:shift]


@dataclass(frozen=True, order=True)
class Cell:
    """One row of a comparison: a variant at a player count."""

    variant: str
    players: int

    @property
    def label(self) -> str:
        return f"{self.variant}, {self.players}p"


@dataclass(frozen=True)
class GameSpec:
    """Everything a worker needs to play one game (and to replay it later);
    ``content`` is the author's content in use (resolved paths), if any."""

    cell: Cell
    index: int
    seed: int
    seats: tuple[str, ...]
    content: tuple[str, ...] = ()
    variant_path: str = ""  # the variant's own file, when it was given by path

    @property
    def key(self) -> tuple[str, int, int]:
        return (self.cell.variant, self.cell.players, self.index)

    def replay_command(self) -> str:
        variant = "" if self.cell.variant == "standard" else f" --variant {self.cell.variant}"
        if self.variant_path:
            variant = f" --variant {shlex.quote(self.variant_path)}"
        content = "".join(f" --content {shlex.quote(p)}" for p in self.content
                          if p != self.variant_path)
        return (f"exlibris play --seed {self.seed} --seats {','.join(self.seats)}{variant}"
                f"{content}")


class PlanError(ValueError):
    """A run that cannot be planned (unknown variant, no playable cell...)."""


def playable(catalog: Catalog, variant: str, players: int) -> str | None:
    """None if the engine plays ``variant`` at ``players``; otherwise its reason."""
    from exlibris.engine.flow import check_playable
    from exlibris.engine.game import RulesError
    from exlibris.model.variants import resolve_settings

    try:
        check_playable(resolve_settings(variant, catalog.variants), players, variant)
    except RulesError as exc:
        return str(exc)
    return None


def player_counts(catalog: Catalog, variant: str) -> list[int]:
    """The player counts ``variant``'s rules are written for."""
    from exlibris.model.variants import resolve_settings

    return list(resolve_settings(variant, catalog.variants).players)


def cells(catalog: Catalog, variants: Sequence[str], players: Sequence[int] | None
          ) -> tuple[list[Cell], list[str]]:
    """The cells to play, and a note for each one skipped because the engine refuses
    it. ``variants`` may hold ``all`` (every variant the catalog has) and ``players``
    None (every count each variant's rules allow). A variant or count named
    explicitly that the engine refuses is an error, not a note."""
    from exlibris.model.variants import variant_chain

    every = "all" in variants
    # with all, standard comes first: the others are compared against it
    names = (sorted(catalog.variants, key=lambda v: (v != "standard", v)) if every
             else list(dict.fromkeys(variants)))
    result: list[Cell] = []
    skipped: list[str] = []
    for name in names:
        try:
            variant_chain(name, catalog.variants)
        except ValueError as exc:
            raise PlanError(f"--variant {name}: {exc}") from None
        counts = player_counts(catalog, name) if players is None else list(players)
        for count in counts:
            reason = playable(catalog, name, count)
            if reason is None:
                result.append(Cell(name, count))
            elif every or players is None:
                skipped.append(f"{name} at {count} players: {reason}")
            else:
                raise PlanError(f"--variant {name} --players {count}: {reason}")
    if not result:
        raise PlanError("no playable variant and player count: " + "; ".join(skipped))
    return result, skipped

