"""`tablelight bench link --ble` runs the whole BLE path at two MTUs and reports its figures
(sizes and write counts checked, never times)."""

from __future__ import annotations

import json

import pytest

from tablelight.cli.main import main


def test_bench_link_ble_reports_both_mtus(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "link", "--ble", "--scenes", "2", "--presses", "3", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    small, large = figures["mtus"]
    assert figures["layout"] == "landover" and small["leds"] == 348
    assert (small["mtu"], large["mtu"]) == (23, 247)
    assert small["scene_bytes"] == large["scene_bytes"] > 20 * small["move_bytes"] // 2
    assert small["scene_writes"] > large["scene_writes"] >= 2 and small["move_writes"] == 1
    assert 0 < small["scene_p50_ms"] <= small["scene_max_ms"]


def test_bench_link_ble_names_what_is_missing(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Without Adafruit's BLE library the bench said "the simulated board is not running"."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    (tmp_path / "sitecustomize.py").write_text(
        "import sys\n"
        "class Hidden:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] == 'adafruit_ble':\n"
        "            raise ModuleNotFoundError(f'No module named {name!r}', name=name)\n"
        "sys.meta_path.insert(0, Hidden())\n")
    host = Path(__file__).resolve().parents[2] / "host"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), str(host)]))
    ran = subprocess.run([sys.executable, "-m", "tablelight", "bench", "link", "--ble", "--scenes", "1",
                          "--presses", "1", "--json"], capture_output=True, text=True, timeout=120, env=env)
    assert ran.returncode == 1, ran.stdout + ran.stderr
    assert "needs adafruit_ble" in ran.stderr and "pip install --no-deps adafruit-circuitpython-ble" in ran.stderr
    assert "not running" not in ran.stderr and "Traceback" not in ran.stderr
