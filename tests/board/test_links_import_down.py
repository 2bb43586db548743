"""links/ is below board/: a transport never imports the protocol that runs over it."""

from __future__ import annotations

import ast
from pathlib import Path

import tablelight.links


def test_nothing_in_links_imports_board() -> None:
    upward = []
    for path in sorted(Path(tablelight.links.__file__).parent.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            upward += [f"{path.name}: {name}" for name in names if name.startswith("tablelight.board")]
    assert upward == []
