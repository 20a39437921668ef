"""Start-up: `exlibris validate`, `exlibris score` and a game's first screen against
`python -c pass`, side by side in one run.

    python bench/startup.py [ROUNDS] [--cold] [--against DIR] [--split]

Each round runs `python -c pass`, `python -m exlibris validate`, `python -m exlibris
score tests/tables/spec-example.yaml` and `python -m exlibris play --seats human,greedy`
on a pseudo-terminal of 80 by 24 (timed until its first frame has been drawn, then
the game is stopped) and in line mode (standard input at its end: timed until the game
has asked its first question, saved and stopped), in turn; the medians of the rounds
(default 9) are printed as ratios to `python -c pass`. Each game starts with no save
at its path, as a user's first does. The catalog cache is warm: a first run of each command
before the rounds fills it (in a temporary ``XDG_CACHE_HOME``). ``--cold`` times the
commands with no cache (``EXLIBRIS_NO_CACHE=1``) as well. ``--against DIR`` also
times the checkout in DIR (another version of exlibris, e.g. the main branch) in
the same rounds, each command right after this one's, so that a loaded machine
slows both alike; its figures are marked ``[DIR]``. Compare checkouts alike as to
``.pyc`` files: with ``PYTHONDONTWRITEBYTECODE`` set, one that has none compiles
every module at every start.

``--split`` adds two rows that say where the line-mode first question's time goes: a
process that only imports the modules of other projects the game loads (click,
pydantic, rich, the standard library's), and one that imports every module it loads,
exlibris's too (found by running the game once first); what the game takes beyond
the second is the work itself.

Each row gives the wall time and the CPU time (user and system) of the command's
process, each as a ratio to ``python -c pass``'s: on a loaded machine a process waits
for a core most of its wall time, and the CPU time is the steadier figure.
"""

from __future__ import annotations

import fcntl
import json
import os
import resource
import select
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FRAME_END = b"\x1b[J"  # exlibris.interactive.fullscreen.FRAME_END


def children_cpu() -> float:
    """CPU seconds (user and system) of this process's children that have ended."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def seconds(command: list[str], env: dict[str, str], root: Path) -> float:
    start = time.perf_counter()
    subprocess.run(command, cwd=root, capture_output=True, check=False, env=env)
    return time.perf_counter() - start


def _fresh_save(state: str, name: str) -> str:
    """A save file in ``state`` with no save there yet (each game starts as a user's
    first does, and no ``.previous`` copies pile up to their limit)."""
    for old in Path(state).glob(f"{name}*.json"):
        old.unlink()
    return os.path.join(state, f"{name}.json")


def first_screen(env: dict[str, str], state: str, root: Path) -> float:
    """Seconds from starting `exlibris play` until its first frame is on the terminal."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "exlibris", "play", "--seats", "human,greedy", "--seed", "5",
         "--save", _fresh_save(state, "bench")],
        stdin=slave, stdout=slave, stderr=slave, cwd=root, env={**env, "TERM": "xterm"})
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


def first_question_line_mode(env: dict[str, str], state: str, root: Path) -> float:
    """Seconds of `exlibris play --seats human,greedy` in line mode (standard input not
    a terminal) until its first question, answered by the end of input (it saves and
    stops there)."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "exlibris", "play", "--seats", "human,greedy",
                    "--seed", "5", "--save", _fresh_save(state, "line")],
                   cwd=root, stdin=subprocess.DEVNULL, capture_output=True, check=False,
                   env=env)
    return time.perf_counter() - start


# run a line-mode game as ``first_question_line_mode`` does and write the modules it
# loaded (beyond those Python starts with), in the order they were loaded
_LOADED = (
    "import json, sys\n"
    "before = set(sys.modules)\n"
    "from exlibris.cli.main import cli\n"
    "try:\n    cli(sys.argv[2:])\nexcept SystemExit:\n    pass\n"
    "with open(sys.argv[1], 'w') as out:\n"
    "    json.dump([m for m in sys.modules if m not in before], out)\n")
# import those modules (one that cannot be imported by name alone is passed over)
_IMPORT = ("import importlib, json, sys\n"
           "for name in json.load(open(sys.argv[1])):\n"
           "    try:\n        importlib.import_module(name)\n"
           "    except Exception:\n        pass\n")


def loaded_modules(env: dict[str, str], state: str, root: Path, home: str) -> tuple[str, str]:
    """Two files naming the modules a line-mode first question loads: those of other
    projects, and all of them."""
    every = os.path.join(home, "loaded.json")
    subprocess.run([sys.executable, "-c", _LOADED, every, "play", "--seats", "human,greedy",
                    "--seed", "5", "--save", _fresh_save(state, "split")],
                   cwd=root, stdin=subprocess.DEVNULL, capture_output=True, check=True,
                   env=env)
    with open(every, encoding="utf-8") as found:
        names = json.load(found)
    others = os.path.join(home, "libraries.json")
    with open(others, "w", encoding="utf-8") as out:
        json.dump([n for n in names if n.split(".")[0] != "exlibris"], out)
    return others, every


def _arguments() -> tuple[int, bool, list[Path]]:
    args = sys.argv[1:]
    roots = [ROOT]
    if "--against" in args:
        at = args.index("--against")
        roots.append(Path(args[at + 1]).resolve())
        del args[at:at + 2]
    plain = [a for a in args if not a.startswith("--")]
    return (int(plain[0]) if plain else 9), "--cold" in args, roots


def main() -> None:
    rounds, cold, roots = _arguments()
    with tempfile.TemporaryDirectory() as home:
        base = {**os.environ, "XDG_STATE_HOME": os.path.join(home, "state")}
        base.pop("EXLIBRIS_NO_CACHE", None)
        # each checkout its own cache: a cache written by one version drops the other's
        warm = {root: {**base, "XDG_CACHE_HOME": os.path.join(home, f"cache{i}")}
                for i, root in enumerate(roots)}
        labels = [""] + [" (no cache)"] * cold

        def env_of(label: str, root: Path) -> dict[str, str]:
            return {**warm[root], "EXLIBRIS_NO_CACHE": "1"} if label else warm[root]

        exlibris = [sys.executable, "-m", "exlibris"]
        commands = {"validate": [*exlibris, "validate"],
                    "score": [*exlibris, "score", "tests/tables/spec-example.yaml"]}
        marks = {root: "" if root == ROOT else f" [{root}]" for root in roots}
        for root in roots:  # fill the cache
            for command in commands.values():
                seconds(command, warm[root], root)
            first_screen(warm[root], home, root)
        times: dict[str, list[float]] = {"pass": []}
        cpu: dict[str, list[float]] = {}

        def timed(name: str, run: Callable[..., float], *args: Any) -> None:
            """Run one command (it has ended when ``run`` returns): its wall and CPU."""
            before = children_cpu()
            times.setdefault(name, []).append(run(*args))
            cpu.setdefault(name, []).append(children_cpu() - before)

        split = loaded_modules(warm[ROOT], home, ROOT, home) if "--split" in sys.argv else ()
        for _ in range(rounds):
            timed("pass", seconds, [sys.executable, "-c", "pass"], base, ROOT)
            for label, names in zip(("libraries only", "all it loads"), split, strict=False):
                timed(f"first question's imports, {label}", seconds,
                      [sys.executable, "-c", _IMPORT, names], warm[ROOT], ROOT)
            for label in labels:
                for name, command in commands.items():
                    for root in roots:
                        timed(name + label + marks[root], seconds, command,
                              env_of(label, root), root)
                for root in roots:
                    timed("first screen" + label + marks[root], first_screen,
                          env_of(label, root), home, root)
                for root in roots:
                    timed("first question, line mode" + label + marks[root],
                          first_question_line_mode, env_of(label, root), home, root)
    floor = statistics.median(times.pop("pass"))
    floor_cpu = statistics.median(cpu.pop("pass"))
    if os.environ.get("PYTHONDONTWRITEBYTECODE"):
        print("note: PYTHONDONTWRITEBYTECODE is set: a checkout with no .pyc files compiles "
              "every module at every start (an installed wheel has them)")
    print(f"python -c pass: {floor * 1000:.1f} ms, CPU {floor_cpu * 1000:.1f} ms (medians of "
          f"{rounds}); load average {os.getloadavg()[0]:.1f}")
    for what, found in times.items():
        median, used = statistics.median(found), statistics.median(cpu[what])
        print(f"{what}: {median:.3f} s = {median / floor:.1f}x python -c pass; "
              f"CPU {used * 1000:.0f} ms = {used / floor_cpu:.1f}x")


if __name__ == "__main__":
    main()
