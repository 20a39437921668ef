"""Start-up: `exlibris validate`, `exlibris score` and a game's first screen against
`python -c pass`, side by side in one run.

    python bench/startup.py [ROUNDS]

Each round runs `python -c pass`, `python -m exlibris validate`, `python -m exlibris
score tests/tables/spec-example.yaml` and `python -m exlibris play --seats human,greedy`
on a pseudo-terminal of 80 by 24 (timed until its first frame has been drawn, then
the game is stopped), in turn; the medians of the rounds (default 9) are printed as
ratios to `python -c pass`. The catalog cache is warm: a first run of each command
before the rounds fills it (in a temporary ``XDG_CACHE_HOME``). ``--cold`` times the
commands with no cache (``EXLIBRIS_NO_CACHE=1``) as well.
"""

from __future__ import annotations

import fcntl
import os
import select
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FRAME_END = b"\x1b[J"  # exlibris.interactive.fullscreen.FRAME_END


def _seconds(command: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, cwd=ROOT, capture_output=True, check=False, env=env)
    return time.perf_counter() - start


def _first_screen(env: dict[str, str], state: str) -> float:
    """Seconds from starting `exlibris play` until its first frame is on the terminal."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "exlibris", "play", "--seats", "human,greedy", "--seed", "5",
         "--save", os.path.join(state, "bench.json")],
        stdin=slave, stdout=slave, stderr=slave, cwd=ROOT, env={**env, "TERM": "xterm"})
    os.close(slave)
    output = b""
    try:
        while FRAME_END not in output and time.perf_counter() - start < 60:
            if select.select([master], [], [], 0.05)[0]:
                try:
                    output += os.read(master, 65536)
                except OSError:
                    break
        return time.perf_counter() - start
    finally:
        proc.kill()
        proc.wait()
        os.close(master)


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    rounds = int(args[0]) if args else 9
    cold = "--cold" in sys.argv
    with tempfile.TemporaryDirectory() as home:
        warm_env = {**os.environ, "XDG_CACHE_HOME": os.path.join(home, "cache"),
                    "XDG_STATE_HOME": os.path.join(home, "state")}
        warm_env.pop("EXLIBRIS_NO_CACHE", None)
        envs = {"": warm_env}
        if cold:
            envs[" (no cache)"] = {**warm_env, "EXLIBRIS_NO_CACHE": "1"}
        exlibris = [sys.executable, "-m", "exlibris"]
        commands = {"validate": [*exlibris, "validate"],
                    "score": [*exlibris, "score", "tests/tables/spec-example.yaml"]}
        for command in commands.values():  # fill the cache
            _seconds(command, warm_env)
        _first_screen(warm_env, home)
        times: dict[str, list[float]] = {"pass": []}
        for _ in range(rounds):
            times["pass"].append(_seconds([sys.executable, "-c", "pass"], warm_env))
            for label, env in envs.items():
                for name, command in commands.items():
                    times.setdefault(name + label, []).append(_seconds(command, env))
                times.setdefault("first screen" + label, []).append(_first_screen(env, home))
    floor = statistics.median(times.pop("pass"))
    print(f"python -c pass: {floor * 1000:.1f} ms (median of {rounds})")
    for what, found in times.items():
        median = statistics.median(found)
        print(f"{what}: {median:.3f} s = {median / floor:.1f}x python -c pass")


if __name__ == "__main__":
    main()
