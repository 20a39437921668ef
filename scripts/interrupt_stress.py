"""Stop ``exlibris simulate`` with two workers again and again, and report any run that
does not end: what a one-in-a-hundred hang at Ctrl-C or SIGTERM needs to be seen.

Not a test (a run takes minutes). Each round starts ``exlibris simulate --games 400
--seats greedy --workers 2 --out DIR/rN.jsonl``, waits for its journal's first
game, waits a random moment more (up to ``--jitter`` seconds, from a seeded
generator), sends the signal and waits ``--patience`` seconds for the command to
end. One that has not ended is sent SIGABRT (with ``-X faulthandler``, Python then
prints every thread's stack), its standard error is printed, and the script stops
with exit status 1. ``--load N`` keeps N busy-looping processes beside it, as a
loaded CI machine would.

    python scripts/interrupt_stress.py --rounds 300 --load 2
    python scripts/interrupt_stress.py --rounds 50 --signal INT
"""

from __future__ import annotations

import argparse
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from exlibris.simulate import runner

BUSY = "while True: pass"


def one_round(out: Path, how: signal.Signals, jitter: float, patience: float,
              rng: random.Random) -> tuple[int | None, str]:
    """Start, stop and wait for one run: its exit status (None: it hung) and, if it
    hung, the end of its standard error."""
    proc = subprocess.Popen(
        [sys.executable, "-X", "faulthandler", "-m", "exlibris", "simulate", "--games", "400",
         "--seats", "greedy", "--workers", "2", "--out", str(out)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    journal = runner.journal_path(out)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not (journal.exists() and journal.stat().st_size):
        time.sleep(0.05)
    time.sleep(rng.random() * jitter)
    proc.send_signal(how)
    try:
        proc.communicate(timeout=patience)
        return proc.returncode, ""
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGABRT)
        _, err = proc.communicate(timeout=30)
        return None, err.decode(errors="replace")[-8000:]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--signal", default="TERM", choices=["TERM", "INT"])
    parser.add_argument("--jitter", type=float, default=2.0, help="seconds, at most")
    parser.add_argument("--patience", type=float, default=30.0, help="seconds")
    parser.add_argument("--load", type=int, default=0, help="busy processes beside it")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    how = signal.Signals[f"SIG{args.signal}"]
    rng = random.Random(args.seed)
    busy = [subprocess.Popen([sys.executable, "-c", BUSY]) for _ in range(args.load)]
    statuses: dict[int, int] = {}
    try:
        with tempfile.TemporaryDirectory() as folder:
            for n in range(args.rounds):
                status, err = one_round(Path(folder) / f"r{n}.jsonl", how, args.jitter,
                                        args.patience, rng)
                if status is None:
                    print(f"round {n + 1}: still running {args.patience:g} s after SIG"
                          f"{args.signal}; its threads:\n{err}", flush=True)
                    return 1
                statuses[status] = statuses.get(status, 0) + 1
    finally:
        for proc in busy:
            proc.kill()
            proc.wait()
    print(f"{args.rounds} rounds, SIG{args.signal}: every run ended; exit statuses "
          + ", ".join(f"{code} x{count}" for code, count in sorted(statuses.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
