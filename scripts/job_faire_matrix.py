"""The Job Faire's "done when" check at the command line, through `exlibris play`.

    python scripts/job_faire_matrix.py [--seeds 20] [--variant job-faire]

For 2, 3, 4 and 5 players (seats alternating greedy and random) and seeds 1..N:
plays `exlibris play --variant V --seats ... --seed S --json --table-out T` twice
and checks the two outputs are identical, then rescores T with
`exlibris score --json` and checks every player's total is the same. Prints one
line per failure and a summary; exits 1 on any failure.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from click.testing import CliRunner

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from exlibris.cli.main import cli


def check(players: int, seed: int, variant: str, folder: Path) -> str | None:
    seats = ",".join(("greedy", "random")[i % 2] for i in range(players))
    table = folder / f"t{players}-{seed}.yaml"
    args = ["play", "--variant", variant, "--seats", seats, "--seed", str(seed), "--json"]
    first = CliRunner().invoke(cli, [*args, "--table-out", str(table)])
    if first.exit_code != 0:
        return f"play failed ({first.exit_code}): {first.output[-300:]}"
    second = CliRunner().invoke(cli, args)
    if second.output != first.output:
        return "two runs with the same seed differ"
    scored = CliRunner().invoke(cli, ["score", "--json", str(table)])
    if scored.exit_code != 0:
        return f"score failed ({scored.exit_code}): {scored.output[-300:]}"
    played = [(p["name"], p["total"]) for p in json.loads(first.output)["players"]]
    rescored = [(p["name"], p["total"]) for p in json.loads(scored.output)["players"]]
    return None if played == rescored else f"totals {played} != rescored {rescored}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--variant", default="job-faire")
    args = parser.parse_args(argv)
    failures = games = 0
    with tempfile.TemporaryDirectory() as tmp:
        for players in (2, 3, 4, 5):
            for seed in range(1, args.seeds + 1):
                games += 1
                problem = check(players, seed, args.variant, Path(tmp))
                if problem:
                    failures += 1
                    print(f"FAIL {players} players, seed {seed}: {problem}")
    print(f"{games} games ({args.variant}, 2-5 players, seeds 1-{args.seeds}), each played "
          f"twice and rescored: {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
