"""No name with a leading underscore is used outside the module family that defines it.

A *module family* is one package folder: ``host/tablelight/games/landover/*.py`` is one family,
``host/tablelight/table/*.py`` another, ``tests/landover/*.py`` another (a sub-folder is a family of
its own). A name like ``_cached`` is private to the families that define it (a ``def``, a
``class``, or an assignment to it, as a variable or as an attribute, in one of their files).
Outside them it may not be reached as ``something._cached``, imported with
``from module import _cached``, or named in ``getattr``/``setattr``/``hasattr``/``delattr`` or
``monkeypatch.setattr``. Fine everywhere: dunder names (``__init__``), ``self._x`` and ``cls._x``
(a subclass using the hooks of the rules contract, such as ``Game._chance_below``), and names
the project does not define (those belong to other libraries).

The check is by name, not by type (Python cannot tell the type of ``x`` in ``x._cached`` without
running it): a name counts as its family's when any file of the family defines it.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHECKED = (ROOT / "host" / "tablelight", ROOT / "tests")
#: Folders whose files are stand-ins for CircuitPython modules: their underscore names
#: (``_bleio``) are CircuitPython's own public names, kept as the real modules spell them.
STAND_INS = (ROOT / "host" / "tablelight" / "sim" / "fakes",)
NAME_CALLS = {"getattr", "setattr", "hasattr", "delattr"}
#: Uses still to move, each with the reason it is here: (file, name). The check fails on any
#: other use, and on an entry here that is no longer used (so that the list only shrinks).
KNOWN: dict[tuple[str, str], str] = {}


def is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def python_files() -> list[Path]:
    files = []
    for folder in CHECKED:
        files += [p for p in folder.rglob("*.py") if not any(p.is_relative_to(s) for s in STAND_INS)]
    return sorted(files)


def family(path: Path) -> Path:
    return path.parent


def on_self(node: ast.Attribute) -> bool:
    """``self._x``, ``cls._x`` or ``super()._x``."""
    owner = node.value
    if isinstance(owner, ast.Name):
        return owner.id in ("self", "cls")
    return isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name) and owner.func.id == "super"


def definitions(tree: ast.AST) -> set[str]:
    """The underscore names a file defines: functions, classes, variables, import aliases and the
    attributes it assigns on ``self``/``cls``."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            found.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and on_self(node):
            found.add(node.attr)  # an object's own field (writing another object's is a use)
        elif isinstance(node, ast.alias) and node.asname:
            found.add(node.asname)
    return {name for name in found if is_private(name)}


def uses(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """(line, name) of every underscore name the file reaches on something other than self or cls."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and is_private(node.attr):
            if not on_self(node):
                yield node.lineno, node.attr
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if is_private(alias.name):
                    yield node.lineno, alias.name
        elif isinstance(node, ast.Call) and len(node.args) >= 2:
            func = node.func
            named = (isinstance(func, ast.Name) and func.id in NAME_CALLS) or (
                isinstance(func, ast.Attribute) and func.attr == "setattr"
            )
            text = node.args[1]
            if named and isinstance(text, ast.Constant) and isinstance(text.value, str) and is_private(text.value):
                yield node.lineno, text.value


def violations() -> list[str]:
    """Every use of another family's underscore name, as ``path:line: name (defined in ...)``."""
    trees = {path: ast.parse(path.read_text(), str(path)) for path in python_files()}
    defined_in: dict[Path, set[str]] = defaultdict(set)
    for path, tree in trees.items():
        defined_in[family(path)] |= definitions(tree)
    project = set().union(*defined_in.values())
    found = []
    for path, tree in trees.items():
        own = defined_in[family(path)]
        for line, name in uses(tree):
            if name in project and name not in own:
                owners = sorted(str(f.relative_to(ROOT)) for f, names in defined_in.items() if name in names)
                found.append(f"{path.relative_to(ROOT)}:{line}: {name} (defined in {', '.join(owners)})")
    return sorted(found)


def test_no_private_name_is_used_outside_its_family() -> None:
    found = violations()
    known = {(line.split(":")[0], line.split(": ")[1].split(" ")[0]) for line in found}
    new = [line for line in found if (line.split(":")[0], line.split(": ")[1].split(" ")[0]) not in KNOWN]
    assert not new, "underscore names used outside the family that defines them:\n" + "\n".join(new)
    gone = sorted(f"{path}: {name}" for path, name in KNOWN if (path, name) not in known)
    assert not gone, "no longer used, take them off KNOWN:\n" + "\n".join(gone)


def test_the_check_finds_a_use_from_another_family(tmp_path: Path) -> None:
    """The check itself: an attribute, an import and a getattr of another family's name are found;
    self, cls, dunders and the family's own names are not."""
    code = (
        "from tablelight.x import _hidden\n"
        "game._cached(1)\n"
        "getattr(game, '_version')\n"
        "self._own()\n"
        "cls._own2\n"
        "game.__dict__\n"
        "def _mine(): pass\n"
        "game._mine\n"
        "self._field = 1\n"
        "game._written = 2\n"
    )
    tree = ast.parse(code)
    assert sorted(name for _, name in uses(tree)) == ["_cached", "_hidden", "_mine", "_version", "_written"]
    assert definitions(tree) == {"_mine", "_field"}
