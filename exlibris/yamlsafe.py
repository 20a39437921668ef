"""Safe YAML loading for untrusted content and table files.

The text is parsed to events and composed to nodes, never constructed by a YAML
library: only plain data (maps, lists, strings, numbers, booleans, null) comes
out, with the line and column of every node kept. Aliases, custom tags,
duplicate keys, oversized files and deep nesting are refused with a
``UserInputError`` naming ``FILE:LINE:COL``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.events import (
    AliasEvent,
    CollectionEndEvent,
    CollectionStartEvent,
    NodeEvent,
)
from ruamel.yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from exlibris.errors import Problem, UserInputError, caret_context

MAX_FILE_BYTES = 1_000_000
MAX_DEPTH = 32
MAX_SCALAR_CHARS = 20_000
MAX_NODES = 50_000

Path_ = tuple[str | int, ...]

_CORE = "tag:yaml.org,2002:"
_INT = re.compile(r"[-+]?(0|[1-9][0-9_]*)$")
_HEX = re.compile(r"0x[0-9a-fA-F_]+$")
_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9][0-9_]*(\.[0-9_]*)?)([eE][-+]?[0-9]+)?$")
_TRUE = {"true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON"}
_FALSE = {"false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF"}
_NULL = {"", "~", "null", "Null", "NULL"}


@dataclass
class LoadedYaml:
    """Plain data from one YAML document, with the position of every node."""

    filename: str
    text: str
    data: Any
    _marks: dict[Path_, tuple[int, int]] = field(default_factory=dict, repr=False)
    _content: dict[Path_, tuple[int, int]] = field(default_factory=dict, repr=False)
    _keys: dict[Path_, tuple[int, int]] = field(default_factory=dict, repr=False)

    def position(self, path: Path_) -> tuple[int, int]:
        """1-based (line, col) of the node at ``path``, or of its nearest ancestor."""
        path = tuple(path)
        while path not in self._marks and path:
            path = path[:-1]
        return self._marks.get(path, (1, 1))

    def key_position(self, path: Path_) -> tuple[int, int]:
        """1-based (line, col) of the key that names ``path`` (else as ``position``)."""
        path = tuple(path)
        return self._keys.get(path) or self.position(path)

    def content_position(self, path: Path_) -> tuple[int, int]:
        """1-based (line, col) of the first character of a scalar's text.

        For a block scalar (``|`` or ``>``) that is the first line after the
        indicator; for a quoted scalar, the character after the quote.
        """
        path = tuple(path)
        if path in self._content:
            return self._content[path]
        return self.position(path)

    def problem(self, path: Path_, code: str, message: str, *, at_key: bool = False
                ) -> Problem:
        """A problem located at the node of ``path`` (or at its key)."""
        line, col = self.key_position(path) if at_key else self.position(path)
        return Problem(self.filename, line, col, code, message)


def load_yaml_file(path: Path | str, *, display_name: str | None = None) -> LoadedYaml:
    """Read and load one YAML file, refusing anything over the size limit."""
    path = Path(path)
    name = display_name or str(path)
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise _error(name, 1, 1, "yaml/too-large",
                         f"file is {size} bytes; the limit is {MAX_FILE_BYTES}")
        raw = path.read_bytes()
    except OSError as exc:
        raise _error(name, 1, 1, "file/unreadable", f"cannot read file: {exc.strerror}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _error(name, 1, 1, "file/encoding",
                     f"file is not UTF-8 text (byte {exc.start})") from None
    return load_yaml_text(text, name)


def load_yaml_text(text: str, filename: str = "<string>") -> LoadedYaml:
    """Load one YAML document from ``text``; ``filename`` is used in errors."""
    if len(text.encode("utf-8", "replace")) > MAX_FILE_BYTES:
        raise _error(filename, 1, 1, "yaml/too-large",
                     f"text is larger than {MAX_FILE_BYTES} bytes")
    if "\x00" in text:
        raise _error(filename, 1, 1, "file/binary", "file contains a NUL byte; is it text?")
    yaml = YAML(typ="safe", pure=True)
    try:
        _check_events(yaml, text, filename)
        node = yaml.compose(text)
    except UserInputError:
        raise
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        message = (exc.problem or exc.context or "invalid YAML").strip()
        raise _error(filename, line, col, "yaml/syntax", f"YAML syntax error: {message}",
                     text) from None
    except (YAMLError, RecursionError) as exc:
        raise _error(filename, 1, 1, "yaml/syntax", f"YAML syntax error: {exc}") from None
    loaded = LoadedYaml(filename, text, None)
    if node is not None:
        loaded.data = _Builder(loaded).build(node, ())
    return loaded


def _check_events(yaml: YAML, text: str, filename: str) -> None:
    """Refuse aliases, excessive nesting and too many nodes before composing."""
    depth = 0
    nodes = 0
    for event in yaml.parse(text):
        if isinstance(event, AliasEvent):
            mark = event.start_mark
            raise _error(filename, mark.line + 1, mark.column + 1, "yaml/alias",
                         "YAML aliases (*name) are not allowed in content files; "
                         "write the value out in full", text)
        if isinstance(event, NodeEvent):
            nodes += 1
            if nodes > MAX_NODES:
                mark = event.start_mark
                raise _error(filename, mark.line + 1, mark.column + 1, "yaml/too-many-nodes",
                             f"more than {MAX_NODES} values in one file")
        if isinstance(event, CollectionStartEvent):
            depth += 1
            if depth > MAX_DEPTH:
                mark = event.start_mark
                raise _error(filename, mark.line + 1, mark.column + 1, "yaml/too-deep",
                             f"nesting deeper than {MAX_DEPTH} levels", text)
        elif isinstance(event, CollectionEndEvent):
            depth -= 1


class _Builder:
    """Turns composed nodes into plain data, recording positions."""

    def __init__(self, loaded: LoadedYaml) -> None:
        self.loaded = loaded
        self.lines = loaded.text.splitlines()

    def build(self, node: Node, path: Path_) -> Any:
        mark = node.start_mark
        self.loaded._marks[path] = (mark.line + 1, mark.column + 1)
        if isinstance(node, MappingNode):
            return self._mapping(node, path)
        if isinstance(node, SequenceNode):
            self._check_tag(node, "seq")
            return [self.build(item, (*path, i)) for i, item in enumerate(node.value)]
        assert isinstance(node, ScalarNode)
        return self._scalar(node, path)

    def _mapping(self, node: MappingNode, path: Path_) -> dict[str, Any]:
        self._check_tag(node, "map")
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, ScalarNode):
                raise self._fail(key_node, "yaml/complex-key", "mapping keys must be plain words")
            if key_node.value == "<<" and key_node.style is None:
                raise self._fail(key_node, "yaml/merge-key", "merge keys (<<) are not allowed")
            key = self._scalar(key_node, None)
            if not isinstance(key, str):
                key = str(key).lower() if isinstance(key, bool) else str(key)
            if key in result:
                raise self._fail(key_node, "yaml/duplicate-key",
                                 f"key {key!r} appears twice in the same mapping")
            key_mark = key_node.start_mark
            self.loaded._keys[(*path, key)] = (key_mark.line + 1, key_mark.column + 1)
            result[key] = self.build(value_node, (*path, key))
        return result

    def _scalar(self, node: ScalarNode, path: Path_ | None) -> Any:
        value: str = node.value
        if len(value) > MAX_SCALAR_CHARS:
            raise self._fail(node, "yaml/huge-scalar",
                             f"a value of {len(value)} characters; the limit is {MAX_SCALAR_CHARS}")
        if path is not None:
            self._record_content(node, path)
        tag = node.tag or ""
        if tag and not tag.startswith(_CORE) and tag != "!":
            raise self._fail(node, "yaml/tag", f"custom YAML tag {tag!r} is not allowed")
        kind = tag[len(_CORE):] if tag.startswith(_CORE) else ""
        if node.style in ("'", '"', "|", ">") or kind == "str" or tag == "!":
            return value
        if kind not in ("", "int", "float", "bool", "null"):
            raise self._fail(node, "yaml/tag", f"YAML type {kind!r} is not allowed")
        return _resolve_plain(value)

    def _record_content(self, node: ScalarNode, path: Path_) -> None:
        mark = node.start_mark
        line, col = mark.line + 1, mark.column + 1
        if node.style in ("|", ">"):
            line += 1
            while line <= len(self.lines) and not self.lines[line - 1].strip():
                line += 1
            text = self.lines[line - 1] if line <= len(self.lines) else ""
            col = len(text) - len(text.lstrip(" ")) + 1
        elif node.style in ("'", '"'):
            col += 1
        self.loaded._content[path] = (line, col)

    def _check_tag(self, node: Node, kind: str) -> None:
        tag = node.tag or ""
        if tag and tag != _CORE + kind:
            raise self._fail(node, "yaml/tag", f"custom YAML tag {tag!r} is not allowed")

    def _fail(self, node: Node, code: str, message: str) -> UserInputError:
        mark = node.start_mark
        return _error(self.loaded.filename, mark.line + 1, mark.column + 1, code, message,
                      self.loaded.text)


def _resolve_plain(value: str) -> Any:
    """YAML 1.2 core-schema resolution of a plain scalar (plus yes/no booleans)."""
    if value in _NULL:
        return None
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    if _INT.match(value):
        return int(value.replace("_", ""))
    if _HEX.match(value):
        return int(value, 16)
    if _FLOAT.match(value) and any(ch.isdigit() for ch in value):
        return float(value.replace("_", ""))
    return value


def _error(filename: str, line: int, col: int, code: str, message: str,
           text: str = "") -> UserInputError:
    context = caret_context(text, line, col) if text else ""
    return UserInputError([Problem(filename, line, col, code, message, context)])
