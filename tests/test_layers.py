"""Imports point down: each package of tablelight imports only the packages below it.

:data:`ALLOWED` is the table of which package may import which (docs/architecture.md, "Which
package may import which", shows the same table). Every ``import``/``from ... import`` in the
package's source counts, at module level, inside functions and under ``TYPE_CHECKING`` alike,
and so does ``importlib.import_module("tablelight....")`` with a written-out name (an f-string's
written prefix counts too). A game is found through its registry entry (strings in the game's
own ``GameEntry``), never named by a package below it.

The test reads the source of the ``tablelight`` that Python imports, so
``PYTHONPATH=/other/checkout/host pytest tests/test_layers.py`` checks another checkout.
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import tablelight

DOCS = Path(__file__).resolve().parents[1] / "docs" / "architecture.md"

#: package -> the packages it may import. A "package" is the first name under ``tablelight``
#: (``tablelight.core.game`` is in ``core``); ``tablelight`` is the root ``__init__`` (the
#: version), ``paths`` and ``__main__`` are the top-level modules. Read bottom-up: every row
#: names only rows above it, so the table itself has no cycle (checked below).
ALLOWED: dict[str, frozenset[str]] = {
    "tablelight": frozenset(),
    "paths": frozenset(),
    "wire": frozenset(),  # the one wire format, shared with the firmware: imports nothing of ours
    "core": frozenset({"tablelight"}),  # the rules contract; names no game
    "links": frozenset({"core", "wire"}),  # byte transports: serial, BLE
    "board": frozenset({"core", "links", "wire"}),  # the board protocol over a link
    "table": frozenset({"board", "core", "paths", "wire"}),  # the table service and the faces' contract; it drives a board
    "games": frozenset({"core", "paths", "table", "wire"}),  # plugins: engines and faces
    "view": frozenset(),  # drawing a board's LEDs (terminal, colours)
    "web": frozenset({"core", "paths", "table", "view", "wire"}),  # serving pages; web draws with view
    "sim": frozenset({"core", "paths", "table", "wire"}),  # the simulated board (real firmware)
    "lab": frozenset({"core"}),  # bot games in bulk; games reach it through their entries
    "flash": frozenset({"board", "core", "links", "paths"}),
    "buildsheet": frozenset({"core", "flash", "paths"}),
    "app": frozenset({"tablelight", "core", "board", "table", "web", "wire", "flash"}),  # the table in a web page (Pyodide); it sets boards up
    "bench": frozenset({"app", "board", "core", "games", "links", "sim", "table", "web", "wire"}),
    "cli": frozenset({
        "tablelight", "paths", "wire", "core", "links", "board", "table", "games", "view", "web",
        "sim", "lab", "flash", "buildsheet", "app", "bench",
    }),
    "__main__": frozenset({"cli"}),
}

#: (file under tablelight/, package it imports) -> why it may, for now. Each is an upward import
#: the layering does not allow; an exception that no longer happens fails the test, so the list
#: shrinks as they are mended.
EXCEPTIONS: dict[tuple[str, str], str] = {
    ("games/farside/cli.py", "cli"): "its main() runs the whole command line for `python -m "
    "tablelight.games.farside.cli` (tests/farside/test_cli.py calls it); `tablelight farside` does the same",
}


class Import(NamedTuple):
    file: str  # under tablelight/, with forward slashes
    line: int
    text: str  # the import as written (shortened)
    target: str  # the imported module's full name


def package_of(module: str) -> str | None:
    """``tablelight.core.game`` -> ``core``; ``tablelight`` -> ``tablelight``; other libraries -> None."""
    parts = module.split(".")
    if parts[0] != "tablelight":
        return None
    return parts[1] if len(parts) > 1 else "tablelight"


def source_root() -> Path:
    return Path(tablelight.__file__).parent


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path, root: Path) -> Iterator[Import]:
    """Every tablelight import in one file, wherever it is written."""
    name = module_name(path, root)
    is_package = path.name == "__init__.py"
    relative = path.relative_to(root).as_posix()
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines(keepends=True)
    tree = ast.parse(source, filename=str(path))
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if is_package else name.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            # ``from tablelight import web`` imports the package web; ``__version__`` is the root's.
            targets = [f"{module}.{alias.name}" if module == "tablelight" and _is_part(root, alias.name) else module
                       for alias in node.names]
        elif isinstance(node, ast.Call) and _calls_import_module(node) and node.args:
            written = _written_prefix(node.args[0])
            if written is not None:
                targets = [written]
        for target in targets:
            if package_of(target) is not None:
                text = source_segment(lines, node) or target
                yield Import(relative, node.lineno, " ".join(text.split())[:100], target)


def source_segment(lines: list[str], node: ast.AST) -> str:
    """The text of ``node`` (``ast.get_source_segment`` splits the whole file anew at each call)."""
    first, last = node.lineno - 1, (node.end_lineno or node.lineno) - 1  # type: ignore[attr-defined]
    start, end = node.col_offset, node.end_col_offset  # type: ignore[attr-defined]
    if first == last:
        return lines[first].encode()[start:end].decode()
    return "".join([lines[first].encode()[start:].decode(), *lines[first + 1:last], lines[last].encode()[:end].decode()])


def _is_part(root: Path, name: str) -> bool:
    return (root / name / "__init__.py").exists() or (root / f"{name}.py").exists()


def _calls_import_module(node: ast.Call) -> bool:
    func = node.func
    return (isinstance(func, ast.Attribute) and func.attr == "import_module") or (
        isinstance(func, ast.Name) and func.id == "import_module"
    )


def _written_prefix(arg: ast.expr) -> str | None:
    """The module name an import_module call writes out: the whole constant, or an f-string's start."""
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return arg.value
    if isinstance(arg, ast.JoinedStr) and arg.values and isinstance(arg.values[0], ast.Constant):
        prefix = str(arg.values[0].value)
        # "tablelight.games." names the package games even before the formatted part.
        return prefix.rstrip(".") if prefix.count(".") >= 1 else None
    return None


@functools.lru_cache(maxsize=4)  # three tests read the same tree: parse it once
def all_imports(root: Path) -> list[Import]:
    found: dict[tuple[str, int, str], Import] = {}
    for path in sorted(root.rglob("*.py")):
        for one in imports_of(path, root):
            found.setdefault((one.file, one.line, one.target), one)
    return list(found.values())


def package_of_file(file: str) -> str:
    first = file.split("/")[0]
    if first == "__init__.py":
        return "tablelight"
    return first.removesuffix(".py")


def cross_package(imports: list[Import]) -> list[tuple[str, str, Import]]:
    """(importing package, imported package, the import) for each import between packages."""
    edges = []
    for found in imports:
        source, target = package_of_file(found.file), package_of(found.target)
        assert target is not None
        if source != target:
            edges.append((source, target, found))
    return edges


def upward_imports(root: Path) -> list[str]:
    """Each import the table does not allow and no exception names, as ``file:line: import (why)``."""
    problems = []
    for source, target, found in cross_package(all_imports(root)):
        if target in ALLOWED.get(source, frozenset()) or (found.file, target) in EXCEPTIONS:
            continue
        may = ", ".join(sorted(ALLOWED.get(source, ()))) or "nothing of tablelight"
        problems.append(f"tablelight/{found.file}:{found.line}: {found.text}  ({source} -> {target}; {source} may import {may})")
    return problems


def package_cycles(edges: set[tuple[str, str]]) -> list[list[str]]:
    """The groups of packages that import each other, directly or round about (the strongly
    connected components of more than one package, Tarjan's algorithm), each sorted."""
    graph: dict[str, set[str]] = {}
    for a, b in edges:
        graph.setdefault(a, set()).add(b)
        graph.setdefault(b, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(groups)


def describe_cycle(group: list[str], imports: list[tuple[str, str, Import]]) -> str:
    """The imports between the packages of one group, one example each."""
    examples: dict[tuple[str, str], Import] = {}
    for a, b, found in imports:
        if a in group and b in group:
            examples.setdefault((a, b), found)
    return f"{', '.join(group)}: " + "; ".join(
        f"{a} -> {b} (tablelight/{f.file}:{f.line})" for (a, b), f in sorted(examples.items())
    )


def test_the_table_of_allowed_imports_has_no_cycle() -> None:
    allowed_edges = {(a, b) for a, targets in ALLOWED.items() for b in targets}
    assert package_cycles(allowed_edges) == []
    unknown = {b for targets in ALLOWED.values() for b in targets} - set(ALLOWED)
    assert not unknown, f"ALLOWED names packages it has no row for: {sorted(unknown)}"


def test_every_package_has_a_row_in_the_table() -> None:
    root = source_root()
    packages = {p.name for p in root.iterdir() if (p / "__init__.py").exists()}
    packages |= {p.stem for p in root.glob("*.py") if p.name != "__init__.py"} | {"tablelight"}
    missing = packages - set(ALLOWED)
    assert not missing, f"new packages need a row in ALLOWED (tests/test_layers.py) and docs/architecture.md: {sorted(missing)}"


def test_imports_point_down() -> None:
    problems = upward_imports(source_root())
    assert not problems, "imports that the table of allowed imports does not allow:\n" + "\n".join(problems)


def test_packages_import_each_other_in_no_cycle() -> None:
    """Only the exceptions may close a cycle (each one does today: see its reason)."""
    imports = [edge for edge in cross_package(all_imports(source_root())) if (edge[2].file, edge[1]) not in EXCEPTIONS]
    cycles = package_cycles({(a, b) for a, b, _ in imports})
    assert not cycles, "packages that import each other:\n" + "\n".join(describe_cycle(c, imports) for c in cycles)


def test_every_exception_still_happens() -> None:
    happening = {(found.file, target) for _, target, found in cross_package(all_imports(source_root()))}
    stale = [f"{file} -> {package}" for file, package in EXCEPTIONS if (file, package) not in happening]
    assert not stale, "these exceptions are mended: delete them from EXCEPTIONS: " + ", ".join(stale)


def documented_table() -> dict[str, frozenset[str]]:
    """The table of docs/architecture.md, "Which package may import which", as a dict."""
    section = DOCS.read_text(encoding="utf-8").split("## Which package may import which", 1)[1].split("\n## ", 1)[0]
    table: dict[str, frozenset[str]] = {}
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 2 or not cells[0].startswith("`"):
            continue
        packages = re.findall(r"`([\w.]+)`", re.sub(r"\(.*?\)", "", cells[0]))
        if cells[1] == "all of the above":
            may = frozenset(table)
        elif cells[1] == "nothing of tablelight":
            may = frozenset()
        else:
            may = frozenset(re.findall(r"`([\w.]+)`", cells[1]))
        table.update({package: may for package in packages})
    return table


def test_the_docs_show_the_same_table() -> None:
    assert documented_table() == ALLOWED


def test_a_planted_upward_import_is_found(tmp_path: Path) -> None:
    """The check itself: core importing the table, inside a function, is named with file and line."""
    root = tmp_path / "tablelight"
    (root / "core").mkdir(parents=True)
    (root / "table").mkdir()
    (root / "__init__.py").write_text("")
    (root / "table" / "__init__.py").write_text("")
    (root / "core" / "__init__.py").write_text("")
    (root / "core" / "game.py").write_text("import json\n\n\ndef f():\n    from ..table import service\n")
    (root / "table" / "service.py").write_text("from tablelight.core.game import f\n")
    problems = upward_imports(root)
    assert problems == [
        "tablelight/core/game.py:5: from ..table import service  (core -> table; core may import tablelight)"
    ]
    edges = {(a, b) for a, b, _ in cross_package(all_imports(root))}
    assert package_cycles(edges) == [["core", "table"]]


# ------------------------------------------------------------ inside a game: no circle, short class chains

#: Games whose engine is still a long class chain or an import circle, each with its reason; an
#: entry that no longer happens fails (the list only shrinks). Landover and Farside were both until 2026-11-28.
GAME_EXCEPTIONS: dict[tuple[str, str], str] = {
    ("mainland", "import circle"): "mainland/drawing.py names MainlandFace in its annotations (a TYPE_CHECKING import) and "
    "the face imports the drawing when it draws",
}
#: The longest chain of classes an engine may be: the engine, one class of its own below it, Game.
LONGEST_CHAIN = 3


def game_module_imports(root: Path, game: str) -> set[tuple[str, str]]:
    """(module, module it imports) between the modules of one game's package, wherever the import is
    written (``from tablelight.games.landover import places`` names the module ``places``)."""
    package = f"tablelight.games.{game}"
    folder = root / "games" / game
    edges = set()
    for path in sorted(folder.glob("*.py")):
        source = module_name(path, root)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            targets = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                module = node.module if not node.level else f"{package}.{node.module}"
                targets = [f"{module}.{a.name}" if module == package and (folder / f"{a.name}.py").exists() else module
                           for a in node.names]
            for target in targets:
                if target.startswith(package + ".") and target != source:
                    edges.add((source.removeprefix(package + "."), target.removeprefix(package + ".")))
    return edges


def game_packages(root: Path) -> list[str]:
    return sorted(p.parent.name for p in (root / "games").glob("*/__init__.py"))


def test_no_game_imports_its_own_modules_round_about() -> None:
    root = source_root()
    circles = {}
    for game in game_packages(root):
        cycles = package_cycles(game_module_imports(root, game))
        if cycles and (game, "import circle") not in GAME_EXCEPTIONS:
            circles[game] = cycles
    assert not circles, f"modules of one game that import each other round about: {circles}"


def engine_chain(game: str) -> list[str]:
    """The engine class of ``game`` and the classes of tablelight it is built on, down to Game."""
    from tablelight.core.registry import game_class

    cls = game_class(game)
    return [c.__qualname__ for c in cls.__mro__ if c.__module__.startswith("tablelight.")]


def test_no_engine_is_a_chain_of_more_than_three_classes() -> None:
    from tablelight.core.registry import game_names

    long = {name: engine_chain(name) for name in game_names()
            if len(engine_chain(name)) > LONGEST_CHAIN and (name, "class chain") not in GAME_EXCEPTIONS}
    assert not long, f"engines built as chains of more than {LONGEST_CHAIN} classes: {long}"


def test_every_game_exception_still_happens() -> None:
    root = source_root()
    for (game, what), reason in GAME_EXCEPTIONS.items():
        if what == "class chain":
            assert len(engine_chain(game)) > LONGEST_CHAIN, f"{game}'s engine is no longer a long chain: drop the exception ({reason})"
        else:
            assert package_cycles(game_module_imports(root, game)), f"{game} has no import circle now: drop the exception ({reason})"


def test_a_planted_circle_inside_a_game_is_found(tmp_path: Path) -> None:
    game = tmp_path / "tablelight" / "games" / "toy"
    game.mkdir(parents=True)
    (game / "__init__.py").write_text("")
    (game / "a.py").write_text("from tablelight.games.toy import b\n")
    (game / "b.py").write_text("def f():\n    from tablelight.games.toy.c import x\n")
    (game / "c.py").write_text("from tablelight.games.toy.a import y\n")
    assert package_cycles(game_module_imports(tmp_path / "tablelight", "toy")) == [["a", "b", "c"]]
