"""Peak memory of the main process of ``exlibris simulate`` against the number of
games: rows stream to the journal and the report reads them back game by game, so
the peak should not grow with the run.

    python bench/simulate_memory.py 2000 20000      # games a run (default: both)

Each run is a fresh ``python -m exlibris simulate`` process (random bots, two
workers, ``--out`` a .jsonl and a ``--report``); its own peak resident size is
read from ``/proc/self/status`` (VmHWM) when it ends, the workers' not counted. The
first line is the same figure for a process that only imports the command
(``exlibris simulate --help``), the floor every run stands on.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

PROBE = """
import atexit, sys
def peak():
    for line in open('/proc/self/status'):
        if line.startswith('VmHWM'):
            sys.__stderr__.write('PEAK ' + line.split()[1] + '\\n')
atexit.register(peak)
from exlibris.cli.main import cli
sys.argv = ['exlibris'] + sys.argv[1:]
cli()
"""


def peak_kib(args: list[str]) -> int:
    done = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True,
                          text=True, check=False)
    for line in done.stderr.splitlines():
        if line.startswith("PEAK "):
            return int(line.split()[1])
    raise SystemExit(f"no peak figure: {done.stderr[-2000:]}")


def main(counts: list[int]) -> None:
    floor = peak_kib(["simulate", "--help"])
    print(f"floor (imports only): {floor / 1024:.1f} MiB")
    first = None
    for games in counts:
        with tempfile.TemporaryDirectory() as folder:
            out = Path(folder) / "r.jsonl"
            peak = peak_kib(["simulate", "--games", str(games), "--seats", "random",
                             "--workers", "2", "--out", str(out), "--report",
                             str(Path(folder) / "r.html")])
        first = first or peak
        print(f"{games} games: main process peak {peak / 1024:.1f} MiB, "
              f"{peak / floor:.2f}x the floor, {peak / first:.3f}x the first run")


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [2000, 20000])
