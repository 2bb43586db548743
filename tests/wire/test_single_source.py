"""The wire format exists once: the host's modules are links to the firmware's files, and the
messages file finds its framing both on the board (next to it in lib/) and on the host."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LINKS = {"format.py": "tablelight_wire.py", "framing.py": "tablelight_wire_frame.py"}


def test_the_host_modules_are_links_to_the_firmware_files():
    for host_name, firmware_name in LINKS.items():
        link = ROOT / "host" / "tablelight" / "wire" / host_name
        assert link.is_symlink(), f"{link} must stay a link to firmware/lib/{firmware_name}"
        assert link.resolve() == (ROOT / "firmware" / "lib" / firmware_name).resolve()


def test_every_firmware_module_is_within_the_size_limit():
    for source in sorted((ROOT / "firmware").rglob("*.py")):
        lines = source.read_text().count("\n")
        assert lines <= 600, f"{source.relative_to(ROOT)} has {lines} lines (600 at most)"


def test_the_host_gets_its_framing_from_the_firmware_file():
    from tablelight.wire import wire

    for name in ("frame", "FrameReader", "WireError", "crc16"):
        source = sys.modules[getattr(wire, name).__module__].__file__
        assert Path(source).resolve() == (ROOT / "firmware" / "lib" / "tablelight_wire_frame.py").resolve(), name
    assert wire.FrameReader().feed(wire.encode_status_req()) == [bytes((wire.MSG_STATUS_REQ,))]


def test_the_messages_find_their_framing_on_a_host_without_the_firmware_on_the_path(tmp_path: Path):
    """As installed from a wheel: only the tablelight package, no firmware/lib on sys.path."""
    wire_dir = tmp_path / "tablelight" / "wire"
    wire_dir.mkdir(parents=True)
    (tmp_path / "tablelight" / "__init__.py").write_text("")
    (wire_dir / "__init__.py").write_bytes((ROOT / "host" / "tablelight" / "wire" / "__init__.py").read_bytes())
    for host_name, firmware_name in LINKS.items():
        (wire_dir / host_name).write_bytes((ROOT / "firmware" / "lib" / firmware_name).read_bytes())
    script = (f"import sys; sys.path.insert(0, {str(tmp_path)!r}); from tablelight.wire import wire; "
              f"assert wire.__file__.startswith({str(tmp_path)!r}), wire.__file__; "
              "assert 'tablelight_wire_frame' not in sys.modules; "
              "print(wire.FrameReader().feed(wire.encode_loop(b'hi')), wire.WireError.__module__)")
    ran = subprocess.run([sys.executable, "-I", "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.split() == ["[b'Khi']", "tablelight.wire.framing"]
