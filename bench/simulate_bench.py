"""Simulation speed: games/s with one worker and with two, in one run; Ray's cost
per game. Not a test.

    python bench/simulate_bench.py                  # 300 greedy,random games a row
    python bench/simulate_bench.py --games 1000 --seats random --no-ray

Rows (all through ``exlibris.simulate.runner.simulate``, the command's own path):

* ``local, 1 worker``: games in this process, one after another;
* ``local, 2 workers``: a spawned process pool (its start-up, the catalog compiled
  in each worker, is inside the timing);
* ``ray, 2 CPUs``: the same games as Ray tasks on a local Ray started beforehand
  (start-up outside the timing).

Then Ray's own cost per game, measured apart from any game: the round trip of empty
batches (a task that plays no game), divided by the games a Ray batch holds, as a
share of a game's mean time in the 1-worker row. The machine's load is printed, and
each local row's CPU time over its wall time (the cores it actually obtained; Ray's
workers are not children of this process, so its row shows only the driver's): on
a shared machine a second worker may not get a core of its own. Games per
CPU-second compare the rows' own cost when the wall clock cannot (not shown for
Ray, whose workers' CPU time this process cannot count).
"""

from __future__ import annotations

import argparse
import json
import os
import time
from typing import Any

from exlibris.simulate import backends
from exlibris.simulate.plan import Cell
from exlibris.simulate.runner import RunConfig, simulate


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children (the pool's workers)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def row(name: str, config: RunConfig) -> dict[str, Any]:
    cpu = cpu_seconds()
    started = time.perf_counter()
    result = simulate(config)
    wall = time.perf_counter() - started
    cpu = cpu_seconds() - cpu
    if config.backend == "ray":  # its workers' CPU time is not ours to count
        cpu = 0.0
    return {"row": name, "games": result.played, "wall_s": round(wall, 3),
            "games_per_s": round(result.played / wall, 2),
            "cores_obtained": round(cpu / wall, 2) if cpu else None,
            "games_per_cpu_s": round(result.played / cpu, 2) if cpu else None,
            "mean_game_s": round(result.game_seconds / max(1, result.played), 5),
            "failures": len(result.failures)}


def ray_task_cost(tasks: int) -> float:
    """Seconds a Ray task of ``play_batch([])`` takes, round trip, in a steady stream."""
    import ray

    from exlibris.simulate.play import play_batch

    task = ray.remote(num_cpus=1)(play_batch)
    ray.get([task.remote([]) for _ in range(8)])  # workers up
    started = time.perf_counter()
    ray.get([task.remote([]) for _ in range(tasks)])
    return (time.perf_counter() - started) / tasks


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seats", default="greedy,random")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-ray", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    def config(**kw: Any) -> RunConfig:
        return RunConfig([Cell("standard", 2)], args.games, args.seed,
                         args.seats.split(","), **kw)

    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    simulate(RunConfig([Cell("standard", 2)], 4, -1, ["random"]))  # catalog, caches
    rows = [row("local, 1 worker", config(workers=1)),
            row("local, 2 workers", config(workers=2))]
    ray_cost = None
    if not args.no_ray:
        backends.start_ray(None, 2)
        rows.append(row("ray, 2 CPUs", config(backend="ray", workers=2)))
        per_task = ray_task_cost(200)
        batch = backends.batch_size("ray", args.games, 2)
        mean = rows[0]["mean_game_s"]
        ray_cost = {"task_round_trip_s": round(per_task, 5), "games_a_batch": batch,
                    "per_game_s": round(per_task / batch, 6),
                    "share_of_a_game": round(per_task / batch / mean, 4)}
    meta = {"load_average_before": load, "cpus": backends.default_workers(),
            "seats": args.seats, "games": args.games}
    speedup = rows[1]["games_per_s"] / rows[0]["games_per_s"]
    per_cpu = (rows[1]["games_per_cpu_s"] / rows[0]["games_per_cpu_s"]
               if rows[0]["games_per_cpu_s"] and rows[1]["games_per_cpu_s"] else None)
    meta["load_average_after"] = os.getloadavg() if hasattr(os, "getloadavg") else None
    if args.json:
        print(json.dumps({"meta": meta, "rows": rows, "speedup_2_over_1": round(speedup, 3),
                          "per_cpu_second_2_over_1": per_cpu and round(per_cpu, 3),
                          "ray_overhead": ray_cost}, indent=2))
        return 0
    print(f"{args.games} games of {args.seats}, standard, 2 players; load average before: "
          f"{load}; cores: {meta['cpus']}")
    for r in rows:
        cpu = (f"; CPU time / wall time {r['cores_obtained']:.2f}; {r['games_per_cpu_s']} "
               "games a CPU-second" if r["cores_obtained"] else "")
        print(f"  {r['row']:<18} {r['wall_s']:>8.2f}s {r['games_per_s']:>8.2f} games/s  "
              f"(a game: {1000 * r['mean_game_s']:.1f} ms{cpu})")
    print(f"2 workers / 1 worker: {speedup:.2f}x"
          + (f"; games a CPU-second, 2 workers / 1: {per_cpu:.3f}" if per_cpu else "")
          + f"; load average after: {meta['load_average_after']}")
    if ray_cost:
        print(f"Ray: a task's round trip {1000 * ray_cost['task_round_trip_s']:.2f} ms, "
              f"{ray_cost['games_a_batch']} games a batch: "
              f"{1000 * ray_cost['per_game_s']:.3f} ms a game, "
              f"{100 * ray_cost['share_of_a_game']:.2f}% of a game's time")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
