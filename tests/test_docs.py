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
