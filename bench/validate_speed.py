"""`exlibris validate` and `exlibris score` against `python -c pass`, for one or more
source trees, same run.

    python bench/validate_speed.py TREE [TREE ...]

Each round runs `python -c pass` and then, in every tree (a checkout or a `git
archive` of an older commit), `python -m exlibris validate` and `python -m exlibris
score tests/tables/spec-example.yaml`; the medians of nine rounds are printed as
ratios to `python -c pass`, so trees compare fairly on a busy machine. Example:
`git archive b5c3c88 | tar -x -C /tmp/before` then
`python bench/validate_speed.py /tmp/before .`
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time


def _seconds(command: list[str], cwd: str) -> float:
    start = time.perf_counter()
    subprocess.run(command, cwd=cwd, capture_output=True, check=False)
    return time.perf_counter() - start


def main() -> None:
    trees = sys.argv[1:] or ["."]
    commands = {"validate": ["validate"],
                "score": ["score", "tests/tables/spec-example.yaml"]}
    times: dict[str, list[float]] = {"pass": []}
    for _ in range(9):
        times["pass"].append(_seconds([sys.executable, "-c", "pass"], "."))
        for tree in trees:
            for name, args in commands.items():
                times.setdefault(f"{name} in {tree}", []).append(
                    _seconds([sys.executable, "-m", "exlibris", *args], tree))
    floor = statistics.median(times.pop("pass"))
    print(f"python -c pass: {floor * 1000:.1f} ms (median of 9)")
    for what, found in times.items():
        median = statistics.median(found)
        print(f"{what}: {median:.3f} s = {median / floor:.1f}x python -c pass")


if __name__ == "__main__":
    main()
