"""Bot-only `exlibris play` with a hostile effect in every location, over many seeds.

    python scripts/hostile_play.py [SEEDS] [EFFECT_NAME ...]

Each hostile effect of issue 16 is put at the head of every location's effect;
then SEEDS (default 200) bot-only games are played with `--save`. Every game
must end cleanly: finished (exit 0), or stopped with a clear error (exit 2, no
traceback) and a save that `--resume` brings to the same error.
"""
from __future__ import annotations

import resource
import sys
import tempfile
import time
from pathlib import Path

from click.testing import CliRunner

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import exlibris.catalog as catalog_module
from exlibris.catalog import read_catalog
from exlibris.cli.main import cli
from exlibris.paths import content_dir, rules_dir

HOSTILE = {
    "square": "n = 2\nrepeat 64 times:\n  n = n * n\n",
    "double-list": "x = [1]\nrepeat 64 times:\n  x = x + x\n",
    "any-attribute": 'x = first([1, "a"])\nrequire x.letter == "A"\n',
    "zone-compare": "require hand < 3\n",
    "text-compare": 'require "a" < 3\n',
    "zone-plus": "x = hand + hand\n",
    "activate-here": "activate(here)\n",
    "ref-attribute": "require @ghost.foo == 1\n",
    "loop": "repeat 1000000 times:\n  x = 1\n",
}


def hostile_catalog(effect: str, tmp: Path):
    """The shipped catalog with every location's effect prefixed by ``effect``
    (the files are written under ``tmp``)."""
    for root in (content_dir(), rules_dir()):
        for path in root.rglob("*.yaml"):
            target = tmp / root.name / path.relative_to(root)
            target.parent.mkdir(parents=True, exist_ok=True)
            text = path.read_text("utf-8")
            if "/locations/" in str(path):
                head, sep, body = text.partition("effect: |\n")
                indent = "  "
                text = head + sep + "".join(indent + line + "\n"
                                            for line in effect.splitlines()) + body
            target.write_text(text, "utf-8")
    catalog, problems = read_catalog([tmp / "content", tmp / "rules"])
    return catalog, problems


def main() -> None:
    seeds = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    names = sys.argv[2:] or list(HOSTILE)
    runner = CliRunner()
    worst = 0.0
    for name in names:
        with tempfile.TemporaryDirectory() as folder:
            catalog, problems = hostile_catalog(HOSTILE[name], Path(folder))
        if problems:
            print(f"{name}: rejected by validation ({problems[0]})")
            continue
        catalog_module.load_catalog = lambda catalog=catalog: catalog
        outcomes: dict[str, int] = {}
        for seed in range(seeds):
            with tempfile.TemporaryDirectory() as folder:
                save = Path(folder) / "s.json"
                start = time.perf_counter()
                result = runner.invoke(cli, ["play", "--seats", "greedy,random", "--seed",
                                             str(seed), "--save", str(save)])
                worst = max(worst, time.perf_counter() - start)
                if result.exception is not None and not isinstance(result.exception,
                                                                   SystemExit):
                    raise SystemExit(f"{name} seed {seed}: {result.exception!r}")
                assert "Traceback" not in result.output, result.output
                if result.exit_code == 0:
                    outcomes["finished"] = outcomes.get("finished", 0) + 1
                    continue
                assert result.exit_code == 2, (name, seed, result.output)
                assert "Traceback" not in result.output and "stopped" in result.output, \
                    result.output
                assert save.exists(), (name, seed)
                again = runner.invoke(cli, ["play", "--resume", str(save)])
                assert again.exit_code == 2 and "stopped" in again.output, again.output
                first = result.output.split("stopped at", 1)[1].split("[")[0]
                second = again.output.split("stopped at", 1)[1].split("[")[0]
                assert first == second, (first, second)
                outcomes["stopped"] = outcomes.get("stopped", 0) + 1
        print(f"{name}: {outcomes}; e.g. {result.output.strip()[:160]}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"slowest game {worst:.2f} s; peak memory {peak:.0f} MB")


if __name__ == "__main__":
    main()
