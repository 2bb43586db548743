"""The app's slim wheel under Pyodide (the pinned npm package, run by node): the four engines play
the same seeded games as CPython, the wire format's portable checks pass, and a game driven by the
table core on asyncio is stored in sqlite, resumed from the file and finished, as on CPython."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tablelight.app.build import Built

HERE = Path(__file__).parent
ROOT = HERE.parents[1]
LIBS = [ROOT / "firmware" / "lib", ROOT / "tests" / "firmware" / "portable"]


def last_json_line(output: str) -> dict:
    return json.loads(output.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def on_cpython() -> dict:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "host"), *map(str, LIBS)]))
    result = subprocess.run([sys.executable, str(HERE / "same_everywhere.py")], capture_output=True, text=True,
                            timeout=120, env=env)
    assert result.returncode == 0, result.stderr
    return last_json_line(result.stdout)


@pytest.fixture(scope="module")
def on_pyodide(built_app: Built) -> dict:
    node = shutil.which("node")
    assert node, "node is required: scripts/test.sh installs it"
    wheel = next(built_app.folder.glob("tablelight-*.whl"))
    libs = [arg for lib in LIBS for arg in ("--lib", str(lib))]
    result = subprocess.run([node, str(HERE / "pyodide_run.mjs"), "--wheel", str(wheel), *libs,
                             str(HERE / "same_everywhere.py")], capture_output=True, text=True, timeout=180, cwd=ROOT)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-4000:]
    return last_json_line(result.stdout)


def test_the_four_engines_play_the_same_games_in_pyodide(on_cpython: dict, on_pyodide: dict) -> None:
    assert set(on_pyodide["engines"]) == {"farlander", "mainland", "landover", "farside"}
    for name, played in on_cpython["engines"].items():
        assert on_pyodide["engines"][name] == played, name
        assert played["entries"] > 10


def test_the_wire_portable_checks_pass_in_pyodide(on_cpython: dict, on_pyodide: dict) -> None:
    assert on_pyodide["portable_checks"] == on_cpython["portable_checks"] > 50


def test_a_stored_game_resumes_from_sqlite_in_pyodide(on_cpython: dict, on_pyodide: dict) -> None:
    stored = on_pyodide["store"]
    assert stored["resumed_at"] == stored["stopped_at"] > 0 and stored["over"]
    assert stored == on_cpython["store"]


def test_the_runner_fails_on_a_python_error(built_app: Built, tmp_path: Path) -> None:
    script = tmp_path / "boom.py"
    script.write_text("import sys\nassert sys.platform == 'emscripten'\nraise ValueError('boom')\n")
    wheel = next(built_app.folder.glob("tablelight-*.whl"))
    result = subprocess.run(["node", str(HERE / "pyodide_run.mjs"), "--wheel", str(wheel), str(script)],
                            capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert result.returncode == 1 and "boom" in result.stderr


def test_the_wheel_is_slim_pure_python_and_declares_the_games(built_app: Built) -> None:
    wheel = next(built_app.folder.glob("tablelight-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "tablelight/app/engine.py" in names and "tablelight/web/desk.py" in names
    assert "tablelight/board/protocol.py" in names and "tablelight/wire/format.py" in names
    assert not any(n.startswith(("tablelight/cli/", "tablelight/sim/", "tablelight/web/app.py")) for n in names)
    assert all(n.endswith((".py", ".json", ".toml", ".typed", "RECORD", "METADATA", "WHEEL", ".txt"))
               or (n.endswith(".pyc") and "/__pycache__/" in n)
               # the pinned Adafruit libraries a board is set up with, as data (never imported by the page)
               or (n.startswith("tablelight/data/wheels/") and n.endswith(".whl")) for n in names), names
    points = zipfile.ZipFile(wheel).read("tablelight-0.1.0.dist-info/entry_points.txt").decode()
    assert "farlander = tablelight.games.farlander:GAME" in points


def test_the_wheel_brings_its_modules_compiled_for_pyodide_so_a_visit_compiles_nothing(built_app: Built,
                                                                                      tmp_path: Path) -> None:
    assert built_app.uncompiled == ""
    wheel = next(built_app.folder.glob("tablelight-*.whl"))
    script = tmp_path / "compiled.py"
    script.write_text(
        "import importlib.util, os, sys\n"
        "import tablelight.app.engine, tablelight.games.landover.engine\n"
        "mods = [m for n, m in sys.modules.items() if n.startswith('tablelight') and getattr(m, '__file__', None)]\n"
        "bad = []\n"
        "for m in mods:\n"
        "    cached = importlib.util.cache_from_source(m.__file__)\n"
        "    head = open(cached, 'rb').read(8) if os.path.exists(cached) else b''\n"
        "    # Pyodide's own magic number; flags 0b01: checked by hash, never against the source's time\n"
        "    if head[:4] != importlib.util.MAGIC_NUMBER or head[4:8] != b'\\x01\\x00\\x00\\x00':\n"
        "        bad.append(m.__name__)\n"
        "print(len(mods), bad)\n")
    result = subprocess.run(["node", str(HERE / "pyodide_run.mjs"), "--wheel", str(wheel), str(script)],
                            capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    count, bad = result.stdout.strip().split(" ", 1)
    assert int(count) > 30 and bad == "[]", result.stdout
