"""Fuzz the untrusted-input parsers through the CLI, with timings and memory.

    python scripts/fuzz_inputs.py [N] [SEED]

Part 1 runs N (default 1,000) fresh random mutations of each parser's inputs
(YAML content, effect text, table files, saves, and since issue 39 the rows and
the manifest of a run) through `exlibris validate`, `score`, `replay` and
`simulate report` in this process, and reports exit codes, the slowest input
and the largest memory peak (tracemalloc) of any one input. Part 2 runs the
hostile inputs of issue 16 as separate processes limited to 500 MB of address
space, and reports each one's exit status, time and peak memory. Times are CPU
seconds (the machine may be shared; wall time is shown too), limited to 5 s.
Exit status 1 if any input gives a traceback, another exit status, or breaks a
limit.
"""

from __future__ import annotations

import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from click.testing import CliRunner

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from fuzzing import mutate  # noqa: E402

from exlibris.cli.main import cli  # noqa: E402

TIME_LIMIT = 5.0
MEMORY_LIMIT = 500 * 2**20


def content_inputs() -> list[bytes]:
    return [p.read_bytes() for p in sorted((ROOT / "content").rglob("*.yaml"))]


def effect_inputs() -> list[bytes]:
    from exlibris.catalog import load_catalog

    catalog = load_catalog()
    return [loc.effect.encode() for loc in catalog.locations.values()]


def effect_file(data: bytes) -> bytes:
    body = "".join(f"  {line}\n" for line in data.decode("utf-8", "replace").splitlines())
    return ("kind: location\nid: fuzzed\nname: Fuzzed\nnumber: 99\ntiming: instant\n"
            "spaces: [1]\nsolo: true\ntext: Fuzzed.\neffect: |\n" + (body or "  stop\n")
            ).encode()


def table_inputs() -> list[bytes]:
    return [p.read_bytes() for p in sorted((ROOT / "tests" / "tables").glob("*.yaml"))]


def save_inputs(folder: Path) -> list[bytes]:
    path = folder / "s.json"
    CliRunner().invoke(cli, ["play", "--seats", "human,greedy", "--seed", "5", "--save",
                             str(path)], input="1\n1\n1\nq\n")
    return [path.read_bytes()]


def run_inputs(folder: Path) -> tuple[list[bytes], list[bytes], Path]:
    """The rows and the manifest of a small run (issue 39), and a rows file whose
    manifest the fuzzing replaces."""
    out = folder / "run.jsonl"
    CliRunner().invoke(cli, ["simulate", "--games", "2", "--seats", "random", "--workers",
                             "1", "--out", str(out)])
    rows_file = folder / "m.jsonl"
    shutil.copy(out, rows_file)
    manifest = out.with_name(out.name + ".manifest.json").read_bytes()
    return [out.read_bytes()], [manifest], rows_file


def fuzz(name: str, originals: list[bytes], command: list[str], file_name: str, n: int,
         seed: int, folder: Path, wrap=None, argument: Path | None = None) -> bool:
    rng = random.Random(f"{name}:{seed}")
    runner = CliRunner()
    codes: dict[int, int] = {}
    slowest, slowest_wall, biggest, ok = 0.0, 0.0, 0, True
    path = folder / file_name
    for i in range(n):
        data = mutate(rng.choice(originals), rng)
        path.write_bytes(wrap(data) if wrap else data)
        tracemalloc.start()
        start, wall = time.process_time(), time.perf_counter()
        result = runner.invoke(cli, [*command, str(argument or path)])
        elapsed = time.process_time() - start
        wall = time.perf_counter() - wall
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        slowest, biggest = max(slowest, elapsed), max(biggest, peak)
        slowest_wall = max(slowest_wall, wall)
        codes[result.exit_code] = codes.get(result.exit_code, 0) + 1
        bad = ((result.exception is not None and not isinstance(result.exception, SystemExit))
               or result.exit_code not in (0, 2) or "Traceback" in result.output
               or elapsed > TIME_LIMIT or peak > MEMORY_LIMIT)
        if bad:
            ok = False
            keep = folder / f"failure-{name}-{i}"
            keep.write_bytes(path.read_bytes())
            print(f"  FAIL {name} #{i}: exit {result.exit_code} {result.exception!r} "
                  f"{elapsed:.2f} s CPU {peak / 2**20:.0f} MB; input kept in {keep}")
    print(f"{name:8} {n} mutations: exit codes {dict(sorted(codes.items()))}; slowest "
          f"{slowest:.2f} s CPU ({slowest_wall:.2f} s wall); largest peak "
          f"{biggest / 2**20:.1f} MB")
    return ok


def issue_inputs(folder: Path) -> list[tuple[str, list[str]]]:
    """The hostile files of issue 16, written to ``folder``; (label, command)."""
    def write(name: str, data: str | bytes) -> str:
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data if isinstance(data, bytes) else data.encode())
        return str(path)

    table = ("prominent: C\nbanned: M\nplayers:\n  - name: A\n    focus: F\n    hand: {hand}\n"
             "    shelf: \"{cell}  A1:CC\"\n  - name: B\n    focus: F\n    hand: 1\n"
             "    shelf: A2:CC\n")
    save = json.loads(save_inputs(folder)[0])

    def bad_save(name: str, **change: object) -> str:
        return write(name, json.dumps({**save, **change}))

    location = ("kind: location\nid: x\nname: X\nnumber: 99\ntiming: instant\nspaces: [1]\n"
                "solo: true\ntext: X.\neffect: |\n  {effect}\n")
    symlinked = folder / "linked"
    symlinked.mkdir()
    (symlinked / "zero.yaml").symlink_to("/dev/zero")
    scenario = ("kind: scenario\nname: s\ncontent: [{path}]\nsetup:\n  players:\n"
                "    - name: A\n    - name: B\nscript: []\nexpect: {{}}\n")
    runs = [
        ("tucked 10^8", ["score", write("t1.yaml", table.format(
            hand=0, cell="*foul-vowel-towel[100000000]"))]),
        ("hand 10**30", ["score", write("t2.yaml", table.format(hand="1" + "0" * 30,
                                                                cell="B1:CC"))]),
        ("token of 4301 digits", ["score", write("t3.yaml", table.format(
            hand=0, cell="A" + "1" * 4301 + ":CC"))]),
        ("tucked of 4301 digits", ["score", write("t4.yaml", table.format(
            hand=0, cell="*mystical-crystal-see-all-ball[" + "9" * 4301 + "]"))]),
        ("score /dev/zero", ["score", "/dev/zero"]),
        ("resume /dev/zero", ["play", "--resume", "/dev/zero"]),
        ("symlink to /dev/zero", ["validate", str(symlinked)]),
        ("save non-UTF-8", ["play", "--resume", write("s1.json", json.dumps(save).encode()
                                                       .replace(b'"seed"', b'"\xff"'))]),
        ("save deep JSON", ["play", "--resume", write("s2.json", "[" * 200_000)]),
        ("save seed null", ["play", "--resume", bad_save("s3.json", seed=None)]),
        ("save unknown variant", ["replay", "--all", bad_save("s4.json", variant="zz")]),
        ("save libraries 0", ["play", "--resume", bad_save("s5.json", libraries=0)]),
        ("save unknown library", ["play", "--resume", bad_save("s6.json", library=["x", None])]),
        ("save 4301-digit seed", ["play", "--resume", write(
            "s7.json", json.dumps(save).replace('"seed": 5', '"seed": ' + "9" * 4301))]),
        ("save decisions {}", ["play", "--resume", bad_save("s8.json", decisions={})]),
        ("save finished early", ["replay", "--all", bad_save("s9.json", finished=True)]),
        ("save 3 libraries", ["play", "--resume", bad_save("s10.json",
                                                           library=[None, None, None])]),
        ("scenario content /", ["scenario", "run", write("sc1.yaml", scenario.format(path="/"))]),
        ("scenario content ../..", ["scenario", "run",
                                    write("sc2.yaml", scenario.format(path="../.."))]),
        ("YAML 4301 digits", ["validate", write("y1.yaml", "n: " + "9" * 4301 + "\n")]),
        ("YAML 0x_", ["validate", write("y2/x.yaml", location.format(effect="stop")
                                        .replace("99", "0x_"))]),
        ("kind: [location]", ["validate", write("y3.yaml", "kind: [location]\n")]),
        ("effect dedent", ["validate", write("y4/x.yaml", location.format(
            effect="if true:\n      x = 1\n    y = 2"))]),
        ("effect 4301 digits", ["validate", write("y5/x.yaml", location.format(
            effect="x = " + "9" * 4301))]),
        ("800 KB line (too large)", ["validate", write("y6.yaml", "a: [" + "x" * 800_000 + "\n")]),
        ("300 KB, 49k values (too large)", ["validate", write("y7.yaml", "items:\n" + "".join(
            f"  - [a{i}, b{i}, c{i}, d{i}]\n" for i in range(9_700)))]),
        ("200 KB, 20k values", ["validate", write("y8.yaml", "items:\n" + "".join(
            f"  - [a{i}, b{i}, c{i}, d{i}]\n" for i in range(3_999)))]),
    ]
    return runs


def limit_child() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def run_issue_inputs(folder: Path) -> bool:
    ok = True
    for label, command in issue_inputs(folder):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        try:
            done = subprocess.run([sys.executable, "-m", "exlibris", *command], cwd=ROOT,
                                  capture_output=True, timeout=60, preexec_fn=limit_child,
                                  env={**os.environ, "NO_COLOR": "1"})
            code, err = done.returncode, done.stderr.decode("utf-8", "replace")
        except subprocess.TimeoutExpired:
            code, err = "timeout", ""
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        elapsed = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        peak = after.ru_maxrss
        good = code == 2 and "Traceback" not in err and elapsed <= TIME_LIMIT
        ok &= good
        first = err.strip().splitlines()[0][-90:] if err.strip() else ""
        print(f"{'ok  ' if good else 'FAIL'} {label:24} exit {code} {elapsed:4.2f} s CPU "
              f"({wall:4.2f} wall) max RSS so far {peak / 1024:.0f} MB  {first}")
    return ok


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else int(time.time())
    print(f"seed {seed}")
    folder = Path(tempfile.mkdtemp(prefix="exlibris-fuzz-"))
    ok = run_issue_inputs(folder)
    ok &= fuzz("yaml", content_inputs(), ["validate"], "entry.yaml", n, seed, folder)
    ok &= fuzz("effect", effect_inputs(), ["validate"], "fuzzed.yaml", n, seed, folder,
               wrap=effect_file)
    ok &= fuzz("table", table_inputs(), ["score"], "table.yaml", n, seed, folder)
    ok &= fuzz("save", save_inputs(folder), ["replay", "--all"], "save.json", n, seed, folder)
    rows, manifest, rows_file = run_inputs(folder)
    ok &= fuzz("rows", rows, ["simulate", "report", "--json"], "rows.jsonl", n, seed, folder)
    ok &= fuzz("manifest", manifest, ["simulate", "report"], "m.jsonl.manifest.json", n, seed,
               folder, argument=rows_file)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"this process's peak RSS: {peak:.0f} MB; {'all clean' if ok else 'FAILURES'}")
    if ok:
        shutil.rmtree(folder, ignore_errors=True)
    raise SystemExit(0 if ok else 1)


if __name__ == "__main__":
    main()
