"""The content fuzz: generated content files of every kind, validated, then played.

    python scripts/content_fuzz.py --files 200 --seed 1
    python scripts/content_fuzz.py --files 12000 --seed 7 --json --keep fuzz-failures

Each file ``exlibris validate`` passes is played in seeded bot games in the modes
its kind reaches (``tests/content_fuzz.py``). Prints how many bundles were
generated, validated, the games played, the games the step budget stopped (their
message naming the entry), and every failure: a game that stopped any other way.
With ``--keep DIR`` each failure's files are saved there with a ``failure.json``
(rules, seats, seed) to reproduce it. Exit status 1 if any game failed.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from content_fuzz import KINDS, run  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=100, help="bundles to generate")
    parser.add_argument("--seed", type=int, default=0, help="the seed of the run")
    parser.add_argument("--keep", type=Path, help="a folder to save each failure's files in")
    parser.add_argument("--mcts-every", type=int, default=250,
                        help="every M-th game seats an mcts:4 bot (0: none)")
    parser.add_argument("--kind", action="append", choices=KINDS,
                        help="generate only this kind (repeatable; default: every kind)")
    parser.add_argument("--json", action="store_true", help="print a JSON summary")
    parser.add_argument("--progress", action="store_true",
                        help="a line of counts every 250 files, on standard error")
    args = parser.parse_args(argv)
    began = time.process_time()
    with tempfile.TemporaryDirectory(prefix="content-fuzz-") as work:
        totals = run(args.files, args.seed, Path(work), args.keep, args.mcts_every,
                     progress=args.progress, kinds=tuple(args.kind or KINDS))
    summary = {**totals.as_dict(), "seed": args.seed,
               "cpu_seconds": round(time.process_time() - began, 1)}
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(f"generated {totals.generated}, validated {totals.validated} "
              f"(from the grammar: {totals.grammar_validated}), games {totals.games}, "
              f"stopped by the step budget {totals.budget_stops}, "
              f"failures {len(totals.failures)}")
        print("validated by kind: " + ", ".join(
            f"{k} {v}" for k, v in sorted(totals.validated_by_kind.items())))
        for failure in totals.failures:
            print(f"  {failure['kind']} {failure['id']}: {failure['variant']} "
                  f"{failure['players']}p seed {failure['seed']} seats {failure['seats']}: "
                  f"{failure['error']} ({failure['at']})")
    return 1 if totals.failures else 0


if __name__ == "__main__":
    sys.exit(main())
