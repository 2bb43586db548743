"""An installed wheel carries what the command needs beyond Python code: board layouts and firmware."""

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_wheel_contains_the_layouts_the_firmware_and_the_wire_format(tmp_path):
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(tmp_path), str(ROOT)],
        capture_output=True, text=True,
    )
    assert built.returncode == 0, built.stderr
    (wheel,) = tmp_path.glob("tablelight-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for layout in (ROOT / "hardware" / "layouts").glob("*.json"):
        assert f"tablelight/data/hardware/layouts/{layout.name}" in names
    for source in ["boot.py", "code.py", "settings.toml", *(f"lib/{p.name}" for p in (ROOT / "firmware" / "lib").glob("*.py"))]:
        assert f"tablelight/data/firmware/{source}" in names
    assert "tablelight/wire/format.py" in names and "tablelight/wire/framing.py" in names and "tablelight/py.typed" in names
