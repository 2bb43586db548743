"""The firmware's pure parts (wire format, scene, renderer, limiter, board link) checked with the
same expectations on CPython (here, through pytest) and under a real MicroPython interpreter
(the npm WebAssembly build, through tests/firmware/mp_run.mjs)."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import check_auth  # type: ignore[import-not-found]
import check_hosts  # type: ignore[import-not-found]
import check_link  # type: ignore[import-not-found]
import check_scene  # type: ignore[import-not-found]
import check_testinput  # type: ignore[import-not-found]
import check_wire  # type: ignore[import-not-found]
import pytest

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).parent

CHECKS = [
    (f"{module.__name__}.{name}", getattr(module, name))
    for module in (check_wire, check_scene, check_link, check_testinput, check_hosts, check_auth)
    for name in sorted(dir(module))
    if name.startswith("test_")
]


@pytest.mark.parametrize("name,check", CHECKS, ids=[name for name, _ in CHECKS])
def test_on_cpython(name: str, check: Callable[[], None]) -> None:
    check()


def test_same_checks_under_micropython() -> None:
    node = shutil.which("node")
    runner_pkg = ROOT / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"
    assert node, "node is required: scripts/test.sh installs it"
    assert runner_pkg.exists(), "MicroPython (npm) missing: run `npm ci` (scripts/test.sh does)"
    result = subprocess.run(
        [node, str(HERE / "mp_run.mjs"), "--lib", str(ROOT / "firmware" / "lib"), "--lib", str(HERE / "portable"),
         str(HERE / "portable" / "run_all.py")],
        capture_output=True, text=True, timeout=120, cwd=ROOT,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"portable checks passed: {len(CHECKS)}" in result.stdout


def test_runner_fails_on_a_python_error(tmp_path: Path) -> None:
    script = tmp_path / "boom.py"
    script.write_text("import sys\nassert sys.implementation.name == 'micropython'\nraise ValueError('boom')\n")
    result = subprocess.run(["node", str(HERE / "mp_run.mjs"), str(script)], capture_output=True, text=True,
                            timeout=60, cwd=ROOT)
    assert result.returncode == 1 and "boom" in result.stderr


def test_same_checks_under_a_local_micropython_binary() -> None:
    """With $MICROPYTHON (a unix MicroPython or CircuitPython binary) the checks run there too,
    with a 64 KB heap as a rough RAM budget."""
    import os

    binary = os.environ.get("MICROPYTHON")
    if not binary:
        pytest.skip("set MICROPYTHON=/path/to/micropython to also run the checks on a local binary")
    env = dict(os.environ, MICROPYPATH=f"{ROOT / 'firmware' / 'lib'}:{HERE / 'portable'}")
    result = subprocess.run([binary, "-X", "heapsize=64k", str(HERE / "portable" / "run_all.py")], capture_output=True,
                            text=True, timeout=120, env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"portable checks passed: {len(CHECKS)}" in result.stdout


def test_code_py_main_loop_under_micropython(tmp_path: Path) -> None:
    """The real firmware/code.py, its lib/ and Adafruit's real neopixel + adafruit_pixelbuf run on
    MicroPython against scripted fake hardware (tests/firmware/mp_fakes): handshake, scene, keys,
    acks, status, loopback, and the exact bytes handed to neopixel_write."""
    import importlib.util

    for name in ("neopixel", "adafruit_pixelbuf"):
        spec = importlib.util.find_spec(name)
        assert spec is not None and spec.origin, f"{name} missing: scripts/test.sh installs it"
        shutil.copy(spec.origin, tmp_path / f"{name}.py")
    result = subprocess.run(
        ["node", str(HERE / "mp_run.mjs"), "--lib", str(HERE / "mp_fakes"), "--lib", str(ROOT / "firmware" / "lib"),
         "--lib", str(ROOT / "firmware"), "--lib", str(tmp_path), str(HERE / "mp_code_driver.py")],
        capture_output=True, text=True, timeout=120, cwd=ROOT,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "code.py under MicroPython: ok" in result.stdout


def test_code_py_on_600_leds_under_micropython(tmp_path: Path) -> None:
    """The same on a 600-LED board (wide LED numbers, a full-palette scene of 862 bytes) with a
    64 KB MicroPython heap: LEDs above 255 light, nothing is reported as an error."""
    import importlib.util

    for name in ("neopixel", "adafruit_pixelbuf"):
        spec = importlib.util.find_spec(name)
        assert spec is not None and spec.origin, f"{name} missing: scripts/test.sh installs it"
        shutil.copy(spec.origin, tmp_path / f"{name}.py")
    result = subprocess.run(
        ["node", str(HERE / "mp_run.mjs"), "--heap", str(64 * 1024), "--lib", str(HERE / "mp_fakes"),
         "--lib", str(ROOT / "firmware" / "lib"), "--lib", str(ROOT / "firmware"), "--lib", str(tmp_path),
         str(HERE / "mp_code_driver_wide.py")],
        capture_output=True, text=True, timeout=120, cwd=ROOT,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "code.py on 600 LEDs under MicroPython: ok" in result.stdout
