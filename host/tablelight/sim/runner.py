"""Entry point of the simulated board's subprocess: run the real firmware/code.py.

``python -m tablelight.sim.runner FIRMWARE_DIR`` with TL_SIM_DATA_FD (pty master) and
TL_SIM_CTRL_FD (control socket) in the environment. settings.toml is loaded into the
environment the way CircuitPython's os.getenv reads it; variables already set win (the SimBoard
uses that to pick a layout's LED and key counts). With TL_SIM_BLE_WORKFLOW=1 the board also serves
CircuitPython's BLE file transfer service over its folder, and stays up after code.py ends.
"""

from __future__ import annotations

import os
import runpy
import sys
import traceback
from pathlib import Path

from tablelight.core.inputs import InputError, read_toml_file

FAKES = Path(__file__).resolve().parent / "fakes"


def main(argv: list[str]) -> int:
    firmware = Path(argv[0]).resolve()
    settings = firmware / "settings.toml"
    if settings.exists():
        try:
            values = read_toml_file(settings, max_bytes=64 * 1024)
        except InputError as error:
            print(f"tablelight sim: {error}", file=sys.stderr)
            return 2
        for name, value in values.items():
            os.environ.setdefault(name, str(value))
    # as on the board: the firmware's own files and lib/ first, then the fake hardware modules,
    # then site-packages (for Adafruit's real neopixel and adafruit_pixelbuf)
    sys.path[:0] = [str(firmware), str(firmware / "lib"), str(FAKES)]
    os.chdir(firmware)
    workflow = os.environ.get("TL_SIM_BLE_WORKFLOW", "0") not in ("0", "")
    if workflow:
        start_ble_workflow(firmware)
    try:
        runpy.run_path(str(firmware / "code.py"), run_name="__main__")
    except Exception:
        if not workflow:
            raise
        traceback.print_exc()  # as CircuitPython prints it, then stays up for its workflows
    if workflow:
        print("\nCode done running.", flush=True)
        import _simctl  # type: ignore[import-not-found]

        _simctl.wait_for_parent()  # the supervisor keeps serving the drive until the board restarts
    return 0


def start_ble_workflow(drive: Path) -> None:
    """CircuitPython's BLE workflow: the file transfer service over the drive, on the board's
    radio; a change to the drive restarts the board into it (sim/ble_workflow.py)."""
    import _bleio  # the stand-in (fakes first on the path)
    import _simctl

    from tablelight.sim.ble_workflow import FileTransferWorkflow

    autoreload = os.environ.get("TL_SIM_BLE_AUTORELOAD_S", "")
    FileTransferWorkflow(_bleio, drive, on_changed=_simctl.request_reload,
                         autoreload_s=float(autoreload) if autoreload else None).start()


if __name__ == "__main__":
    try:
        raise SystemExit(main(sys.argv[1:]))
    except KeyboardInterrupt:
        raise SystemExit(0)
