"""Safe YAML loading for untrusted content and table files.

The text is parsed to events and built straight into plain data in one pass,
never composed or constructed by a YAML library: only maps, lists, strings,
numbers, booleans and null come out, with the line and column of every node
kept. Aliases, custom tags, duplicate keys, oversized files and values, and
deep nesting are refused during that pass with a ``UserInputError`` naming
``FILE:LINE:COL``. The limits are in ``exlibris.limits``.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from exlibris import prebuilt
from exlibris.errors import Problem, UserInputError, caret_context
from exlibris.limits import (
    MAX_DEPTH,
    MAX_FILE_BYTES,
    MAX_INT_DIGITS,
    MAX_NODES,
    MAX_SCALAR_CHARS,
    int_too_long,
)
from exlibris.safefile import FileRefused, read_limited
from exlibris.shipped_cache import Record, lookup, shipped_sha256

__all__ = ["MAX_DEPTH", "MAX_FILE_BYTES", "LoadedYaml", "load_yaml_file", "load_yaml_text"]

Path_ = tuple[str | int, ...]

_CORE = "tag:yaml.org,2002:"
_INT = re.compile(r"[-+]?(0|[1-9][0-9_]*)$")
_HEX = re.compile(r"0x[0-9a-fA-F_]+$")
_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9][0-9_]*(\.[0-9_]*)?)([eE][-+]?[0-9]+)?$")
_TRUE = {"true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON"}
_FALSE = {"false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF"}
_NULL = {"", "~", "null", "Null", "NULL"}


def _layout_only(value: str) -> bool:
    """True if the only characters of ``value`` that are not printable are newlines
    and tabs."""
    return value.replace("\n", "").replace("\t", "").replace("\r", "").isprintable()


@dataclass
class LoadedYaml:
    """Plain data from one YAML document, with the position of every node."""

    filename: str
    text: str
    data: Any
    _marks: dict[Path_, tuple[int, int]] = field(default_factory=dict, repr=False)
    _content: dict[Path_, tuple[int, int]] = field(default_factory=dict, repr=False)
    _keys: dict[Path_, tuple[int, int]] = field(default_factory=dict, repr=False)
    # the positions as the cache keeps them (JSON text), read when first asked for:
    # most commands never ask
    _packed: str | None = field(default=None, repr=False)
    # the SHA-256 (hex) of the file's bytes, when it was read from a record (``typed``)
    sha256: str | None = field(default=None, repr=False, compare=False)

    @property
    def typed(self) -> bool:
        """The data is known to read into its model: a shipped file as the package made
        it, which the package vouches for (``prebuilt.typed``); ``catalog.read_entry``
        builds its model unchecked."""
        sha = self.sha256
        return sha is not None and prebuilt.record(sha) is not None and prebuilt.typed()

    def _unpack(self) -> None:
        packed, self._packed = self._packed, None
        try:
            marks, content, keys = json.loads(packed or "[[], [], []]")
            self._marks, self._content, self._keys = (
                _unpairs(marks), _unpairs(content), _unpairs(keys))
        except (ValueError, TypeError, RecursionError):  # a damaged cache: from the text
            again = load_yaml_text(self.text, self.filename)
            self._marks, self._content, self._keys = again._marks, again._content, again._keys

    def position(self, path: Path_) -> tuple[int, int]:
        """1-based (line, col) of the node at ``path``, or of its nearest ancestor."""
        if self._packed is not None:
            self._unpack()
        path = tuple(path)
        while path not in self._marks and path:
            path = path[:-1]
        return self._marks.get(path, (1, 1))

    def key_position(self, path: Path_) -> tuple[int, int]:
        """1-based (line, col) of the key that names ``path`` (else as ``position``)."""
        if self._packed is not None:
            self._unpack()
        path = tuple(path)
        return self._keys.get(path) or self.position(path)

    def content_position(self, path: Path_) -> tuple[int, int]:
        """1-based (line, col) of the first character of a scalar's text.

        For a block scalar (``|`` or ``>``) that is the first line after the
        indicator; for a quoted scalar, the character after the quote.
        """
        if self._packed is not None:
            self._unpack()
        path = tuple(path)
        if path in self._content:
            return self._content[path]
        return self.position(path)

    def record(self) -> Record:
        """The data, and the positions as JSON text, as plain JSON data (for
        ``shipped_cache``: the positions are read only when asked for)."""
        if self._packed is not None:
            self._unpack()
        positions = [_pairs(self._marks), _pairs(self._content), _pairs(self._keys)]
        return {"data": self.data, "positions": json.dumps(positions, separators=(",", ":"))}

    @classmethod
    def from_record(cls, filename: str, text: str, record: Record, *,
                    sha256: str | None = None) -> LoadedYaml | None:
        """The file as ``record`` keeps it; None for a record ``record()`` cannot give.
        ``sha256``: that of the file's bytes, if known."""
        if not isinstance(record, dict) or "data" not in record \
                or not isinstance(record.get("positions"), str):
            return None
        return cls(filename, text, record["data"], _packed=record["positions"], sha256=sha256)

    def problem(self, path: Path_, code: str, message: str, *, at_key: bool = False
                ) -> Problem:
        """A problem located at the node of ``path`` (or at its key)."""
        line, col = self.key_position(path) if at_key else self.position(path)
        return Problem(self.filename, line, col, code, message)


def _pairs(marks: dict[Path_, tuple[int, int]]) -> list[list[Any]]:
    return [[list(path), line, col] for path, (line, col) in marks.items()]


def _unpairs(pairs: list[list[Any]]) -> dict[Path_, tuple[int, int]]:
    return {tuple(path): (line, col) for path, line, col in pairs}


def record_of(text: str, filename: str) -> Record | None:
    """What ``shipped_cache`` keeps of a file's text (None if it does not load)."""
    try:
        return load_yaml_text(text, filename).record()
    except UserInputError:
        return None


def load_yaml_file(path: Path | str, *, display_name: str | None = None) -> LoadedYaml:
    """Read and load one regular file, refusing it past the byte limit (counted while
    reading, so a device or a growing file is refused too). A shipped file comes
    from the per-user cache when it is there (``shipped_cache``)."""
    name = display_name or str(path)
    cached = lookup(path, record_of)
    loaded = LoadedYaml.from_record(name, *cached, sha256=shipped_sha256(path)) \
        if cached is not None else None
    if loaded is not None:
        return loaded
    try:
        raw = read_limited(path, MAX_FILE_BYTES)
    except FileRefused as exc:
        code = "yaml/too-large" if exc.code == "file/too-large" else exc.code
        raise _error(name, 1, 1, code, str(exc)) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _error(name, 1, 1, "file/encoding",
                     f"file is not UTF-8 text (byte {exc.start})") from None
    sha = hashlib.sha256(raw).hexdigest()
    made = prebuilt.record(sha)  # a shipped file as shipped
    loaded = LoadedYaml.from_record(name, text, made, sha256=sha) if made is not None else None
    return loaded if loaded is not None else load_yaml_text(text, name)


# The YAML parser's words for common slips, and what to do about each (its own words
# follow, for a search).
_YAML_ADVICE: tuple[tuple[str, str], ...] = (
    ("found character '\\t' that cannot start any token",
     "a tab character; YAML indents with spaces only: replace the tab with spaces"),
    ("but found '<block mapping start>'",
     "this line is indented differently from the keys before it; give the keys of one "
     "mapping the same indentation"),
    ("but found '<block sequence start>'",
     "this list item is indented differently from the items before it; indent the "
     "'- ' items of one list alike"),
    ("expected <block end>, but found '-'",
     "a list item ('- ...') where a key was expected; indent it under the key whose "
     "list it is"),
    ("mapping values are not allowed here",
     "a ':' where no key can start: this line is indented more than the keys around "
     "it, or a value holding ': ' needs quotes"),
    ("could not find expected ':'",
     "a key without its ':' (write 'key: value'), or a line that continues the one "
     "before without being indented"),
    ("found unexpected end of stream",
     "the file ends too early: a quote or a bracket is left open"),
    ("expected ',' or ']'",
     "a list in [ ] that is not closed, or a ',' missing between its items"),
    ("expected ',' or '}'",
     "a mapping in { } that is not closed, or a ',' missing between its entries"),
)


def plain_yaml_message(problem: str) -> str:
    """The YAML parser's message in plain words, where the slip is a known one."""
    for words, advice in _YAML_ADVICE:
        if words in problem:
            return f"{advice} (the parser: {problem})"
    return problem


def load_yaml_text(text: str, filename: str = "<string>") -> LoadedYaml:
    """Load one YAML document from ``text``; ``filename`` is used in errors."""
    if len(text.encode("utf-8", "replace")) > MAX_FILE_BYTES:
        raise _error(filename, 1, 1, "yaml/too-large",
                     f"text is larger than {MAX_FILE_BYTES} bytes")
    if "\x00" in text:
        raise _error(filename, 1, 1, "file/binary", "file contains a NUL byte; is it text?")
    from ruamel.yaml import YAML  # imported only when a file is parsed
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    loaded = LoadedYaml(filename, text, None)
    yaml = YAML(typ="safe", pure=True)
    try:
        loaded.data = _Builder(loaded, yaml.resolver).run(yaml.parse(text))
    except UserInputError:
        raise
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        message = plain_yaml_message((exc.problem or exc.context or "invalid YAML").strip())
        raise _error(filename, line, col, "yaml/syntax", f"YAML syntax error: {message}",
                     text) from None
    except (YAMLError, RecursionError, ValueError) as exc:
        raise _error(filename, 1, 1, "yaml/syntax", f"YAML syntax error: {exc}") from None
    return loaded


class _Open:
    """A map or list being built: its value, its path, and a map's pending key."""

    __slots__ = ("key", "path", "value")

    def __init__(self, value: dict[str, Any] | list[Any], path: Path_) -> None:
        self.value = value
        self.path = path
        self.key: str | None = None


class _Builder:
    """Builds plain data straight from parser events, in one pass.

    The safety checks (aliases, tags, merge keys, duplicate keys, nesting,
    node count, value sizes) are made as each event arrives, so a hostile file
    is refused as soon as it shows itself and is never composed into nodes.
    """

    def __init__(self, loaded: LoadedYaml, resolver: Any) -> None:
        self.loaded = loaded
        self.resolver = resolver
        self.lines = loaded.text.splitlines()
        self.nodes = 0
        self.documents = 0

    def run(self, events: Iterator[Any]) -> Any:
        from ruamel.yaml.events import (
            AliasEvent,
            CollectionEndEvent,
            CollectionStartEvent,
            DocumentStartEvent,
            MappingStartEvent,
            NodeEvent,
        )

        stack: list[_Open] = []
        root: Any = None
        for event in events:
            if isinstance(event, DocumentStartEvent):
                self.documents += 1
                if self.documents > 1:
                    raise self._fail(event, "yaml/syntax",
                                     "YAML syntax error: one document per file; remove '---'")
                continue
            if isinstance(event, AliasEvent):
                raise self._fail(event, "yaml/alias",
                                 "YAML aliases (*name) are not allowed in content files; "
                                 "write the value out in full")
            if isinstance(event, CollectionEndEvent):
                done = stack.pop()
                if not stack:
                    root = done.value
                continue
            if not isinstance(event, NodeEvent):
                continue
            self.nodes += 1
            if self.nodes > MAX_NODES:
                raise self._fail(event, "yaml/too-many-nodes",
                                 f"more than {MAX_NODES} values in one file", quote=False)
            parent = stack[-1] if stack else None
            if isinstance(parent, _Open) and isinstance(parent.value, dict) and parent.key is None:
                parent.key = self._key(event, parent)
                continue
            path = self._path(parent)
            mark = event.start_mark
            self.loaded._marks[path] = (mark.line + 1, mark.column + 1)
            if isinstance(event, CollectionStartEvent):
                if len(stack) >= MAX_DEPTH:
                    raise self._fail(event, "yaml/too-deep",
                                     f"nesting deeper than {MAX_DEPTH} levels")
                is_map = isinstance(event, MappingStartEvent)
                self._check_tag(event, "map" if is_map else "seq")
                frame = _Open({} if is_map else [], path)
                self._attach(parent, frame.value)
                stack.append(frame)
            else:
                self._record_content(event, path)
                value = self._scalar(event)
                if parent is None:
                    root = value
                else:
                    self._attach(parent, value)
        return root

    def _path(self, parent: _Open | None) -> Path_:
        if parent is None:
            return ()
        if isinstance(parent.value, list):
            return (*parent.path, len(parent.value))
        assert parent.key is not None
        return (*parent.path, parent.key)

    @staticmethod
    def _attach(parent: _Open | None, value: Any) -> None:
        if parent is None:
            return
        if isinstance(parent.value, list):
            parent.value.append(value)
        else:
            assert parent.key is not None
            parent.value[parent.key] = value
            parent.key = None

    def _key(self, event: Any, parent: _Open) -> str:
        from ruamel.yaml.events import ScalarEvent

        if not isinstance(event, ScalarEvent):
            raise self._fail(event, "yaml/complex-key", "mapping keys must be plain words")
        if event.value == "<<" and event.style is None:
            raise self._fail(event, "yaml/merge-key", "merge keys (<<) are not allowed")
        key = self._scalar(event)
        if not isinstance(key, str):
            key = str(key).lower() if isinstance(key, bool) else str(key)
        assert isinstance(parent.value, dict)
        if key in parent.value:
            raise self._fail(event, "yaml/duplicate-key",
                             f"key {key!r} appears twice in the same mapping")
        mark = event.start_mark
        self.loaded._keys[(*parent.path, key)] = (mark.line + 1, mark.column + 1)
        return key

    def _scalar(self, event: Any) -> Any:
        value: str = event.value
        if len(value) > MAX_SCALAR_CHARS:
            raise self._fail(event, "yaml/huge-scalar",
                             f"a value of {len(value)} characters; the limit is "
                             f"{MAX_SCALAR_CHARS}")
        if not value.isprintable() and not _layout_only(value):
            char = next(c for c in value if not (c.isprintable() or c in "\n\t"))
            raise self._fail(event, "yaml/control-character",
                             f"a value holds the character U+{ord(char):04X} (a control "
                             "character, an escape or a direction override), which a "
                             "terminal would obey; write text only")
        tag = str(event.tag or "")
        if not tag:
            from ruamel.yaml.nodes import ScalarNode

            tag = (str(self.resolver.resolve(ScalarNode, value, (True, False)))
                   if event.style is None else _CORE + "str")
        if tag and not tag.startswith(_CORE) and tag != "!":
            raise self._fail(event, "yaml/tag", f"custom YAML tag {tag!r} is not allowed")
        kind = tag[len(_CORE):] if tag.startswith(_CORE) else ""
        if event.style in ("'", '"', "|", ">") or kind == "str" or tag == "!":
            return value
        if kind not in ("", "int", "float", "bool", "null"):
            raise self._fail(event, "yaml/tag", f"YAML type {kind!r} is not allowed")
        if (_INT.match(value) or _HEX.match(value)) and int_too_long(value):
            raise self._fail(event, "yaml/number-too-large",
                             f"a number of more than {MAX_INT_DIGITS} digits")
        return _resolve_plain(value)

    def _record_content(self, event: Any, path: Path_) -> None:
        mark = event.start_mark
        line, col = mark.line + 1, mark.column + 1
        if event.style in ("|", ">"):
            line += 1
            while line <= len(self.lines) and not self.lines[line - 1].strip():
                line += 1
            text = self.lines[line - 1] if line <= len(self.lines) else ""
            col = len(text) - len(text.lstrip(" ")) + 1
        elif event.style in ("'", '"'):
            col += 1
        self.loaded._content[path] = (line, col)

    def _check_tag(self, event: Any, kind: str) -> None:
        tag = str(event.tag or "")
        if tag and tag != _CORE + kind:
            raise self._fail(event, "yaml/tag", f"custom YAML tag {tag!r} is not allowed")

    def _fail(self, event: Any, code: str, message: str, *, quote: bool = True
              ) -> UserInputError:
        mark = event.start_mark
        return _error(self.loaded.filename, mark.line + 1, mark.column + 1, code, message,
                      self.loaded.text if quote else "")


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
    if _HEX.match(value) and value[2:].strip("_"):
        return int(value[2:].replace("_", ""), 16)
    if _FLOAT.match(value) and any(ch.isdigit() for ch in value):
        return float(value.replace("_", ""))
    return value


def _error(filename: str, line: int, col: int, code: str, message: str,
           text: str = "") -> UserInputError:
    context = caret_context(text, line, col) if text else ""
    return UserInputError([Problem(filename, line, col, code, message, context)])
