"""Faces, drawings and the game's readers (bots, search, lab coverage) read a game only through its
read API (issue 31; docs/architecture.md, "Inside an engine").

Each game has a read API (:data:`READ_APIS`): Landover's and Farside's are the engine's own base class
(``game.terrain(h)``), Farlander's and Mainland's a view of the engine (``FarlanderReads(game).owner(t)``).
Its public names, and the public names of the rules contract (``core.game.Game``: ``current_seat``,
``legal_actions``, ``players``, ``log``...), are all a face may read of a game: a read of an engine
field (``game.owner``, ``game.pos``, ``game.hands``) would tie the face to how the engine keeps its
position, which helpers may change for speed.

Checked by syntax (ast), in the source of the ``tablelight`` Python imports (so
``PYTHONPATH=/other/checkout/host pytest tests/core/test_read_api.py`` checks another checkout):

- the *face modules* of a game are its modules that import the table's face and drawing helpers
  (``tablelight.table...``), and ``face.py`` and ``drawing.py``; its *readers* are
  :data:`READERS` (bots, search, lab coverage and events), where the game has them;
- an expression is *the game* (the engine) when it is a name or an attribute called ``game``,
  ``engine`` or ``world`` (``self.game``), and *the read API* when it is called ``reads``
  (``face.reads``) or made there (``FarlanderReads(game)``); or a name assigned from one of them in
  the same module (``reads, layout = self.reads, self.layout``) or annotated with the engine's or the
  read API's class (``def draw(g: Farlander)``). A game under another name goes unseen: the check
  is by name, as Python cannot tell a type without running the code;
- every attribute read of the read API must name it; of the game, the contract, or the read API
  where the engine is built on it (Landover). So ``reads.owner(t)`` passes and ``game.owner[t]``
  (the engine's list) does not.
"""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path
from typing import NamedTuple

import tablelight
from tablelight.core.game import Game

#: game -> its read API ("module:Class").
READ_APIS: dict[str, str] = {
    "farlander": "tablelight.games.farlander.reads:FarlanderReads",
    "farside": "tablelight.games.farside.reads:FarsideReads",
    "landover": "tablelight.games.landover.reads:LandoverReads",
    "mainland": "tablelight.games.mainland.reads:MainlandReads",
}
#: Games not checked yet, each with why (the list only shrinks).
PENDING: dict[str, str] = {}
#: The modules of a game that read it besides its face: bots, the search's tuning, the lab's coverage and events.
READERS = ("bots.py", "search.py", "coverage.py", "lab_events.py")
#: Names (and attribute names) that hold a game ("game": the engine) or its read API ("reads") in the
#: faces and readers.
NAME_KINDS = {"game": "game", "engine": "game", "world": "game", "reads": "reads"}
#: (file under games/, name read) -> why it may: a door that is no read, for now. An exception that
#: no longer happens fails the test.
EXCEPTIONS: dict[tuple[str, str], str] = {
    ("landover/search.py", "pos"): "determinize writes the redrawn secrets into the clone's position",
    ("mainland/search.py", "set_cards"): "determinize lays the redrawn cards out through the engine's set-up door",
    ("farside/search.py", "suppose_secret"): "the search supposes the enemy's secret mission in its clones",
}


class Read(NamedTuple):
    file: str  # under games/
    line: int
    name: str  # the attribute read
    kind: str  # of what: "game" (the engine) or "reads" (its read API)


def source_root() -> Path:
    return Path(tablelight.__file__).parent


def contract_names() -> frozenset[str]:
    """The rules contract's public names: its methods, its class attributes (``name``), and the
    attributes ``Game.__init__`` sets (``players``, ``options``, ``seed``, ``log``...)."""
    names = {name for name in dir(Game) if not name.startswith("_")}
    names |= {name for name in Game.__annotations__ if not name.startswith("_")}  # name, min_players...
    for node in ast.walk(ast.parse(inspect.getsource(Game))):
        if (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
                and isinstance(node.value, ast.Name) and node.value.id == "self" and not node.attr.startswith("_")):
            names.add(node.attr)
    return frozenset(names)


def read_api_names(game: str) -> frozenset[str]:
    """The public names of ``game``'s read API (none when the game has none yet)."""
    module, _, name = READ_APIS[game].partition(":")
    try:
        cls = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError):
        return frozenset()
    return frozenset(n for n in dir(cls) if not n.startswith("_"))


def game_packages(root: Path) -> list[str]:
    return sorted(p.parent.name for p in (root / "games").glob("*/__init__.py"))


def imports_the_table(tree: ast.AST) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("tablelight.table"):
            return True
        if isinstance(node, ast.Import) and any(a.name.startswith("tablelight.table") for a in node.names):
            return True
    return False


def checked_modules(root: Path, game: str) -> list[Path]:
    """The face modules and the readers of ``game`` (see the module docstring)."""
    folder = root / "games" / game
    found = []
    for path in sorted(folder.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if path.name in ("face.py", "drawing.py", *READERS) or imports_the_table(tree):
            found.append(path)
    return found


def engine_carries_reads(game: str) -> bool:
    """The engine is built on its read API (Landover): ``game.terrain(h)`` reads through it."""
    module, _, name = READ_APIS[game].partition(":")
    try:
        return issubclass(getattr(importlib.import_module(module), name), Game)
    except (ImportError, AttributeError):
        return False


def class_names(game: str) -> tuple[str, str]:
    """(the engine class's name, the read API class's name): what annotations name them by."""
    from tablelight.core.registry import game_class

    return game_class(game).__name__, READ_APIS[game].partition(":")[2]


def kind_of(node: ast.expr, aliases: dict[str, str]) -> str | None:
    """``"game"`` (the engine: ``game``, ``self.game``), ``"reads"`` (its read API: ``reads``,
    ``face.reads``, ``FarlanderReads(g)``), either through an alias, or None."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id.endswith("Reads"):
        return "reads"
    if isinstance(node, ast.Name):
        return aliases.get(node.id) or NAME_KINDS.get(node.id)
    if isinstance(node, ast.Attribute):
        return NAME_KINDS.get(node.attr)
    return None


def aliases_of(tree: ast.AST, engine_class: str, reads_class: str) -> dict[str, str]:
    """Names that hold the game or its read API anywhere in the module: assigned from one (``g =
    self.game``; ``reads, layout = self.reads, x``) or annotated with its class (``def f(g: Farlander)``)."""
    aliases: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.arg) and isinstance(node.annotation, ast.Name):
            kind = {engine_class: "game", reads_class: "reads"}.get(node.annotation.id)
            if kind and node.arg not in NAME_KINDS:
                aliases[node.arg] = kind
    changed = True
    while changed:  # an alias of an alias
        changed = False
        for node in ast.walk(tree):
            if not isinstance(node, ast.Assign):
                continue
            for target in node.targets:
                pairs = list(zip(target.elts, node.value.elts)) if (
                    isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple)
                    and len(target.elts) == len(node.value.elts)) else [(target, node.value)]
                for left, right in pairs:
                    kind = kind_of(right, aliases)
                    if isinstance(left, ast.Name) and kind and left.id not in aliases and left.id not in NAME_KINDS:
                        aliases[left.id] = kind
                        changed = True
    return aliases


def game_reads(path: Path, root: Path, game: str) -> list[Read]:
    """Every attribute read of the game or its read API in one module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    aliases = aliases_of(tree, *class_names(game))
    relative = path.relative_to(root / "games").as_posix()
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr not in NAME_KINDS:  # face.game: the game itself, read next
            kind = kind_of(node.value, aliases)
            if kind:
                found.append(Read(relative, node.lineno, node.attr, kind))
    return found


def reads_beyond_the_api(root: Path, game: str) -> list[Read]:
    api, contract = read_api_names(game), contract_names()
    allowed = {"reads": api, "game": contract | api if engine_carries_reads(game) else contract}
    return sorted(found for path in checked_modules(root, game) for found in game_reads(path, root, game)
                  if found.name not in allowed[found.kind] and (found.file, found.name) not in EXCEPTIONS)


def test_every_game_has_a_read_api_or_is_pending() -> None:
    games = set(game_packages(source_root()))
    assert games == set(READ_APIS) | set(PENDING), (
        f"each game needs a read API in READ_APIS or a reason in PENDING: {sorted(games ^ (set(READ_APIS) | set(PENDING)))}")
    for game in READ_APIS:
        assert read_api_names(game), f"{game}'s read API {READ_APIS[game]} cannot be imported"


def test_faces_drawings_and_readers_read_the_game_only_through_its_read_api() -> None:
    root = source_root()
    problems = [f"tablelight/games/{r.file}:{r.line}: .{r.name}" for game in sorted(READ_APIS)
                for r in reads_beyond_the_api(root, game)]
    assert not problems, ("reads of a game beyond its read API and the rules contract (add a read to the "
                          "game's reads.py, or read one it has):\n" + "\n".join(problems))


def test_the_face_modules_are_found() -> None:
    """The check reads what it should: every game's face and drawing, and the faces' helpers."""
    root = source_root()
    for game in READ_APIS:
        names = {p.name for p in checked_modules(root, game)}
        assert {"face.py", "drawing.py", "bots.py"} <= names, (game, names)
    assert {"look.py", "words.py", "choice.py"} <= {p.name for p in checked_modules(root, "landover")}


def test_every_exception_still_happens() -> None:
    root = source_root()
    happening = {(r.file, r.name) for game in READ_APIS for path in checked_modules(root, game)
                 for r in game_reads(path, root, game)}
    stale = [f"{file}: .{name}" for file, name in EXCEPTIONS if (file, name) not in happening]
    assert not stale, "these exceptions are mended: delete them from EXCEPTIONS: " + ", ".join(stale)


def test_a_planted_field_read_is_found(tmp_path: Path) -> None:
    """The check itself: a face reading an engine field through the game, an alias of it or a face's
    game is named with file and line; reads of the read API and the contract are not."""
    folder = tmp_path / "tablelight" / "games" / "landover"
    folder.mkdir(parents=True)
    (folder / "__init__.py").write_text("")
    (folder / "face.py").write_text(
        "from tablelight.table.face import GameFace\n"
        "def pixels(face, game):\n"
        "    seat = game.current_seat()\n"          # the contract
        "    land = game.terrain(0)\n"              # the read API, which Landover's engine is built on
        "    owners = game.pos.corner_owner\n"      # 5: a field of the position
        "    engine, layout = face.game, face.layout\n"
        "    return engine.hands\n"                 # 7: through an alias
    )
    (folder / "drawing.py").write_text("def draw(face):\n    return face.game.seat, face.reads.counts\n")
    found = reads_beyond_the_api(tmp_path / "tablelight", "landover")
    assert [(r.file, r.line, r.name) for r in found] == [
        ("landover/drawing.py", 2, "counts"), ("landover/face.py", 5, "pos"), ("landover/face.py", 7, "hands")]


def test_a_field_read_under_a_read_api_name_is_found(tmp_path: Path) -> None:
    """Farlander's engine is not built on its read API: ``game.owner`` (the engine's list) is a field
    read though the read API has an ``owner(t)``; reads through the API, made or annotated, pass."""
    folder = tmp_path / "tablelight" / "games" / "farlander"
    folder.mkdir(parents=True)
    (folder / "__init__.py").write_text("")
    (folder / "face.py").write_text(
        "def render(game):\n"
        "    reads = FarlanderReads(game)\n"
        "    return reads.owner(0), game.owner[0], FarlanderReads(game).units(1), game.winners()\n"
    )
    (folder / "drawing.py").write_text(
        "def draw(board: FarlanderReads, g: Farlander):\n"
        "    return board.phase, board.ids, g.reserve[0], g.players\n"
    )
    (folder / "bots.py").write_text("")
    found = reads_beyond_the_api(tmp_path / "tablelight", "farlander")
    assert [(r.file, r.line, r.name, r.kind) for r in found] == [
        ("farlander/drawing.py", 2, "ids", "reads"), ("farlander/drawing.py", 2, "reserve", "game"),
        ("farlander/face.py", 3, "owner", "game")]
