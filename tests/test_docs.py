"""Self-checking docs: the language reference and the usage table match the code."""

from __future__ import annotations

import re
from pathlib import Path

from exlibris.dsl import vocabulary as vocab
from exlibris.dsl.usage import render_markdown, usage_report

ROOT = Path(__file__).resolve().parent.parent


def test_language_reference_documents_every_word() -> None:
    text = (ROOT / "docs" / "language.md").read_text("utf-8")
    documented = set(re.findall(r"`([a-z_]+)\(", text)) | set(re.findall(r"\| `([a-z_]+)` \|",
                                                                         text))
    missing = [w for w in [*vocab.VERBS, *vocab.FUNCTIONS, *vocab.EVENTS] if w not in documented]
    assert missing == []


def test_vocabulary_usage_table_is_current() -> None:
    """Regenerate with: python -m exlibris.dsl.usage > docs/vocabulary.md"""
    on_disk = (ROOT / "docs" / "vocabulary.md").read_text("utf-8")
    assert on_disk == render_markdown(usage_report())


def test_table_format_doc_matches_the_fixed_specification() -> None:
    import pytest

    spec = next((p for p in (ROOT.parent / "shared" / "spec" / "table-format.md",
                             Path("/work/shared/spec/table-format.md")) if p.exists()), None)
    if spec is None:
        pytest.skip("the shared specification is not beside this checkout")
    doc = (ROOT / "docs" / "table-format.md").read_text("utf-8")
    assert doc.split("\n", 1)[1] == spec.read_text("utf-8")


def test_architecture_page_names_only_files_and_functions_that_exist() -> None:
    """docs/architecture.md follows the code: every file it names exists (a bare
    file name somewhere in the package), and every `path: name` it cites is
    defined in that file."""
    import re

    text = (ROOT / "docs" / "architecture.md").read_text("utf-8")
    package = ROOT / "exlibris"
    missing = []
    for ref in re.findall(r"`((?:exlibris/)?[\w/]+\.(?:py|lark))(?:: ([\w.]+))?", text):
        path, name = ref
        files = [ROOT / path] if path.startswith("exlibris/") else list(package.rglob(path))
        file = files[0] if files else ROOT / path
        if not file.exists():
            missing.append(path)
        elif name and not re.search(rf"(def|class) {re.escape(name.split('.')[-1])}\b",
                                    file.read_text("utf-8")):
            missing.append(f"{path}: {name}")
    assert missing == []
