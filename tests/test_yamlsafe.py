"""The safe YAML loader: plain data, positions, and refusals."""

from __future__ import annotations

import time

import pytest

from exlibris.errors import UserInputError
from exlibris.yamlsafe import MAX_DEPTH, LoadedYaml, load_yaml_file, load_yaml_text


def codes(text: str) -> list[tuple[str, int, int]]:
    with pytest.raises(UserInputError) as info:
        load_yaml_text(text, "t.yaml")
    return [(p.code, p.line, p.col) for p in info.value.problems]


def test_plain_data_and_positions() -> None:
    loaded = load_yaml_text("a: 1\nb:\n  - x\n  - 'y'\nc: {d: true, e: null}\n", "t.yaml")
    assert loaded.data == {"a": 1, "b": ["x", "y"], "c": {"d": True, "e": None}}
    assert loaded.position(("b", 1)) == (4, 5)
    assert loaded.content_position(("b", 1)) == (4, 6)
    assert loaded.position(("c", "e")) == (5, 17)
    assert loaded.position(("missing", "deeper")) == (1, 1)


def test_block_scalar_content_position() -> None:
    loaded = load_yaml_text("shelf: |\n\n    A1:CC  B2:HR\n", "t.yaml")
    assert loaded.content_position(("shelf",)) == (3, 5)


def test_yes_and_no_stay_strings_under_yaml_1_2() -> None:
    assert load_yaml_text("a: yes\nb: on\n").data == {"a": "yes", "b": "on"}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a: &x [1]\nb: *x\n", ("yaml/alias", 2, 4)),
        ("a: 1\na: 2\n", ("yaml/duplicate-key", 2, 1)),
        ("a: !!python/object:os.system x\n", ("yaml/tag", 1, 4)),
        ("a: !custom 1\n", ("yaml/tag", 1, 4)),
        ("<<: {a: 1}\n", ("yaml/merge-key", 1, 1)),
        ("a: [1\n", ("yaml/syntax", 2, 1)),
        ("? [a]\n: 1\n", ("yaml/complex-key", 1, 3)),
    ],
)
def test_refusals(text: str, expected: tuple[str, int, int]) -> None:
    assert codes(text) == [expected]


def test_billion_laughs_is_refused_fast() -> None:
    lines = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 10)]
    start = time.perf_counter()
    assert codes("\n".join(lines) + "\n")[0][0] == "yaml/alias"
    assert time.perf_counter() - start < 1


def test_deep_nesting_is_refused_without_recursion_error() -> None:
    found = codes("[" * 50_000)
    assert found[0][0] == "yaml/too-deep"
    assert found[0][2] == MAX_DEPTH + 1


def test_huge_scalar_and_huge_file(tmp_path) -> None:
    assert codes("a: " + "x" * 30_000 + "\n")[0][0] == "yaml/huge-scalar"
    big = tmp_path / "big.yaml"
    big.write_text("a: b\n" * 300_000)
    with pytest.raises(UserInputError) as info:
        load_yaml_file(big)
    assert info.value.problems[0].code == "yaml/too-large"


def test_binary_and_encoding(tmp_path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_bytes(b"a: \xff\xfe\n")
    with pytest.raises(UserInputError) as info:
        load_yaml_file(bad)
    assert info.value.problems[0].code == "file/encoding"
    assert codes("a: \x00\n")[0][0] == "file/binary"


def test_empty_document_is_none() -> None:
    assert isinstance(load_yaml_text(""), LoadedYaml)
    assert load_yaml_text("").data is None
