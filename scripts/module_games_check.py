"""Play `exlibris play` games of module variants and check they finish, repeat and rescore.

For each variant, player count and seed: `exlibris play --seats ... --seed S --json
--table-out T` is run twice (through click's runner, in this process); both runs must
exit 0 and print the same result, and `exlibris score --json T` must give the same
totals as the game. Seats alternate greedy and random (which kind sits first
alternates with the seed).

    python scripts/module_games_check.py --variants artifactorium,expanded \
        --players 2,3,4,5 --seeds 1-20
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from click.testing import CliRunner

from exlibris.cli.main import cli


def seats(n: int, seed: int) -> str:
    kinds = ("greedy", "random") if seed % 2 else ("random", "greedy")
    return ",".join(kinds[i % 2] for i in range(n))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variants", default="artifactorium,expanded")
    parser.add_argument("--players", default="2,3,4,5")
    parser.add_argument("--seeds", default="1-20")
    args = parser.parse_args()
    first, _, last = args.seeds.partition("-")
    seeds = range(int(first), int(last or first) + 1)
    runner = CliRunner()
    failures = 0
    games = 0
    with tempfile.TemporaryDirectory() as tmp:
        for variant in args.variants.split(","):
            for n in map(int, args.players.split(",")):
                for seed in seeds:
                    table = Path(tmp) / f"{variant}-{n}-{seed}.yaml"
                    argv = ["play", "--variant", variant, "--seats", seats(n, seed),
                            "--seed", str(seed), "--json", "--table-out", str(table)]
                    first_run = runner.invoke(cli, argv)
                    second_run = runner.invoke(cli, argv)
                    scored = runner.invoke(cli, ["score", "--json", str(table)])
                    games += 1
                    where = f"{variant}, {n} players, seed {seed}"
                    if first_run.exit_code or second_run.exit_code or scored.exit_code:
                        print(f"FAIL {where}: exit {first_run.exit_code}/"
                              f"{second_run.exit_code}/{scored.exit_code}\n"
                              f"{first_run.output[-2000:]}{scored.output[-500:]}")
                        failures += 1
                        continue
                    played = json.loads(first_run.stdout)
                    again = json.loads(second_run.stdout)
                    rescored = json.loads(scored.stdout)
                    totals = [p["total"] for p in played["players"]]
                    if played != again:
                        print(f"FAIL {where}: two runs differ")
                        failures += 1
                    elif totals != [p["total"] for p in rescored["players"]]:
                        print(f"FAIL {where}: played {totals}, rescored "
                              f"{[p['total'] for p in rescored['players']]}")
                        failures += 1
    print(f"{games} games ({args.variants}; players {args.players}; seeds {args.seeds}): "
          f"{games - failures} finished, repeated identically and rescored to the same "
          f"totals; {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
