"""Each mistake authors made that used to slip through: one clear FILE:LINE:COL error
from `validate`, and an exit status of 2 (never a traceback) from `play` and
`scenario run` given the same file."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from exlibris.cli.main import cli
from exlibris.sources import use_content

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "authoring"

VARIANT = """\
kind: variant
id: my-variant
name: Mine
extends: standard
text: t
settings:
{settings}"""

ARTIFACT = """\
kind: artifact
id: alphabet-abacus
name: Abacus
timing: ongoing
solo: false
text: t
abilities:
  - timing: ongoing
    text: t
    when: {when}
    effect: |
      draw(1)
"""

ASSISTANT = """\
kind: assistant
id: night-owl
name: Owl
edition: expanded
solo: false
text: t
abilities:
  - timing: {timing}
    text: t
    when: {when}
    effect: |
      {effect}
"""

# file name, text, expected FILE-relative "LINE:COL", code, words of the message
MISTAKES = [
    ("my-variant.yaml", VARIANT.format(settings="  scoring:\n    awards: 18\n"),
     "8:13", "rules/invalid-settings", "scoring.awards"),
    ("my-variant.yaml", VARIANT.format(settings="  rulings:\n    deck_runs_out: reshufle\n"),
     "8:20", "rules/invalid-settings", "'no-reshuffle' or 'reshuffle'"),
    ("my-variant.yaml", VARIANT.format(settings="  setup:\n    hand_sise: 7\n"),
     "8:5", "rules/unknown-setting", "did you mean 'hand_size'"),
    ("my-variant.yaml", VARIANT.replace("extends: standard\n", "").format(
        settings="  setup:\n    hand_size: 7\n"),
     "2:1", "rules/missing-extends", "add 'extends: standard'"),
    ("alphabet-abacus.yaml", ARTIFACT.format(when="after placed at location"),
     "10:11", "dsl/never-fires", "an artifact is never placed"),
    ("night-owl.yaml", ASSISTANT.format(timing="reaction", when="arrival by opponent at home",
                                        effect="draw(1)"),
     "10:11", "dsl/never-fires", "never at home"),
    ("night-owl.yaml", ASSISTANT.format(timing="ongoing", when="after draw during preparation",
                                        effect="draw(1)"),
     "10:11", "dsl/never-fires", "'draw' never happens during preparation"),
    ("night-owl.yaml", ASSISTANT.format(timing="reaction", when="after shelve once per rund",
                                        effect="draw(1)"),
     "10:33", "dsl/unknown-limit", "did you mean 'round'"),  # the caret at the bad word
    ("night-owl.yaml", ASSISTANT.format(timing="reaction", when="after shelve once pr round",
                                        effect="draw(1)"),
     "10:24", "dsl/syntax", "did you mean `once per`?"),
    ("night-owl.yaml", ASSISTANT.format(timing="reaction", when="after shelve",
                                        effect="discard(up too 1, from: hand)"),
     "12:15", "dsl/syntax", "did you mean `up to 1`?"),
    ("night-owl.yaml", ASSISTANT.format(timing="reaction", when="after shelve",
                                        effect="draw(books(shelf, M))"),
     "12:25", "dsl/unknown-name", "@M"),
    ("reading-nook.yaml", (EXAMPLES / "reading-nook.yaml").read_text("utf-8").replace(
        "id: reading-nook", "id: mummy"),
     "3:5", "content/id-clash", "the shipped assistant 'mummy'"),
    ("reading-nook.yaml", (EXAMPLES / "reading-nook.yaml").read_text("utf-8").replace(
        "number: 23", "number: 6"),
     "5:9", "content/duplicate-number", "the shipped location 'wishing-well'"),
]


@pytest.fixture(autouse=True)
def _no_own_content(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("EXLIBRIS_CONTENT", raising=False)
    use_content(())
    yield
    use_content(())


@pytest.mark.parametrize(("name", "text", "where", "code", "words"), MISTAKES,
                         ids=[f"{m[3]}-{i}" for i, m in enumerate(MISTAKES)])
def test_one_clear_error_and_no_traceback(tmp_path: Path, name: str, text: str, where: str,
                                          code: str, words: str) -> None:
    folder = tmp_path / "author"
    shutil.copytree(EXAMPLES, folder)
    if name == "reading-nook.yaml" and "id: mummy" in text:
        (folder / name).unlink()
        name = "mummy.yaml"
    (folder / name).write_text(text, "utf-8")
    runner = CliRunner()
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        checked = runner.invoke(cli, ["validate", "."])
        errors = [line for line in checked.stderr.splitlines() if line.startswith(name)]
        assert checked.exit_code == 2, checked.output
        assert len(errors) == 1, checked.stderr
        assert errors[0].startswith(f"{name}:{where}: ") and errors[0].endswith(f"[{code}]"), \
            errors[0]
        assert words in errors[0]
        for args in (["play", "--content", ".", "--seats", "greedy,random", "--seed", "1"],
                     ["scenario", "run", "."]):
            use_content(())
            result = runner.invoke(cli, args)
            assert result.exit_code == 2, (args, result.output)
            assert result.exception is None or isinstance(result.exception, SystemExit), \
                result.exception
            assert f"{name}:{where}: " in result.stderr
    finally:
        os.chdir(cwd)
