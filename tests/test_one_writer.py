"""Issue 39: one way to write a file. Every place the package opens a file for
writing, renames, replaces, truncates or deletes one is in ``exlibris/safefile.py``;
every other module calls it (``write_output``, ``replacing``, ``open_append``,
``create_new``, ``remove_file``, ``move_no_clobber``, ``Lock``). A library that
writes (pyarrow) is handed a file opened there, never a path."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "exlibris"
THE_WRITER = PACKAGE / "safefile.py"
WRITE_MODES = set("wax+")
# calls that write, rename, truncate or delete whatever their receiver is
WRITING_METHODS = {"write_text", "write_bytes", "unlink", "rename", "rmdir", "touch",
                   "symlink_to", "hardlink_to", "link_to", "truncate", "ftruncate"}
WRITING_FUNCTIONS = {
    "os": {"open", "replace", "rename", "renames", "remove", "unlink", "link", "symlink",
           "truncate", "ftruncate", "fdopen", "rmdir", "removedirs", "mkfifo", "mknod",
           "write"},
    "shutil": {"copy", "copy2", "copyfile", "copyfileobj", "copytree", "move", "rmtree"},
    "tempfile": {"mkstemp", "NamedTemporaryFile", "TemporaryFile", "mkdtemp"},
}


def _mode(call: ast.Call, position: int) -> str | None:
    """The mode given to an ``open`` call (None: the default, reading)."""
    for keyword in call.keywords:
        if keyword.arg == "mode":
            value = keyword.value
            return value.value if isinstance(value, ast.Constant) else "?"
    if len(call.args) > position:
        value = call.args[position]
        return value.value if isinstance(value, ast.Constant) else "?"
    return None


def writes_in(tree: ast.AST) -> list[tuple[int, str]]:
    """``(line, what)`` for every call in ``tree`` that writes a file."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Name) and func.id == "open":
            mode = _mode(node, 1)
            if mode is not None and (mode == "?" or WRITE_MODES & set(mode)):
                found.append((node.lineno, f"open(..., {mode!r})"))
        elif isinstance(func, ast.Attribute):
            owner = func.value.id if isinstance(func.value, ast.Name) else None
            if owner in WRITING_FUNCTIONS:
                if func.attr in WRITING_FUNCTIONS[owner]:
                    found.append((node.lineno, f"{owner}.{func.attr}"))
            elif func.attr == "open" and owner != "os":
                mode = _mode(node, 0)
                if mode is not None and (mode == "?" or WRITE_MODES & set(mode)):
                    found.append((node.lineno, f".open({mode!r})"))
            elif func.attr in WRITING_METHODS:
                found.append((node.lineno, f".{func.attr}()"))
            elif func.attr == "replace" and len(node.args) == 1 and not (
                    isinstance(node.args[0], ast.Constant)):
                found.append((node.lineno, ".replace(path)"))  # Path.replace, not str's
            elif (owner == "pq" and func.attr == "write_table") or (
                    func.attr == "ParquetWriter" and not isinstance(node.args[0], ast.Name)):
                found.append((node.lineno, f"{owner}.{func.attr}"))  # a path, not a file
    return found


def test_the_scan_finds_each_way_of_writing() -> None:
    """The scan itself: each form it must catch, caught (a scan that cannot fail is
    no test)."""
    source = "\n".join([
        "open(p, 'w')", "open(p, mode='a')", "open(p, 'x')", "open(p, 'r+b')",
        "p.open('w')", "p.write_text(t)", "p.write_bytes(b)", "os.replace(a, b)",
        "os.rename(a, b)", "p.rename(q)", "p.replace(q)", "p.unlink()", "os.unlink(p)",
        "os.remove(p)", "shutil.copy(a, b)", "shutil.move(a, b)", "tempfile.mkstemp()",
        "os.open(p, os.O_WRONLY)", "os.link(a, b)", "os.ftruncate(fd, 0)",
        "os.fdopen(fd, 'w')", "open(p, mode)",
    ])
    assert len(writes_in(ast.parse(source))) == source.count("\n") + 1
    harmless = "open(p)\nopen(p, 'rb')\np.open()\ntext.replace('a', 'b')\nos.stat(p)\n"
    assert writes_in(ast.parse(harmless)) == []


# an anonymous file (no name: nothing else can reach it) is not an output
ANONYMOUS = {"exlibris/simulate/backends.py": "tempfile.TemporaryFile"}


def test_every_write_of_the_package_goes_through_safefile() -> None:
    elsewhere = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path == THE_WRITER:
            continue
        tree = ast.parse(path.read_text("utf-8"))
        elsewhere += [f"{path.relative_to(PACKAGE.parent)}:{line}: {what}"
                      for line, what in writes_in(tree)
                      if ANONYMOUS.get(str(path.relative_to(PACKAGE.parent))) != what]
    assert elsewhere == [], "write through exlibris/safefile.py:\n" + "\n".join(elsewhere)
    assert writes_in(ast.parse(THE_WRITER.read_text("utf-8")))  # the one writer writes
