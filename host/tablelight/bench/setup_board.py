"""``tablelight bench setup``: seconds to set a board up from the app's page, against ``tablelight flash``.

The app is built and served as for ``tablelight bench app``; headless Chromium opens it, and the
page's drive picker is pointed at a folder of the Origin Private File System standing in for a
new board's CIRCUITPY (``boot_out.txt`` of a Feather nRF52840 Express, CircuitPython 9.2.1; a
headless browser has no chooser and no USB drive). Figures, each the median of ``--rounds``:

* choosing the drive to the plan shown (the page reads the drive, the worker plans in Pyodide,
  the page hashes what is there);
* *install* to *done*: every file written under a temporary name and moved into place, read back
  and hashed, then ``flash --verify``'s report;
* the same again on the set-up board (nothing to write: reading and hashing only);
* ``tablelight flash`` into a folder on this machine's disk, same files, same run (a child
  process: Python's start and imports included).

Over Bluetooth: the page's client of CircuitPython's file transfer service through Chromium's
emulated Web Bluetooth, relayed over bumble's virtual radio to a simulated bare board (CircuitPython's
BLE workflow serving a temporary folder; :mod:`tablelight.bench.file_transfer_relay`): choosing the
board to the plan, *install* to *done*, and *done* to the board restarted into tablelight (its LEDs
lit by tablelight's firmware). Every 20-byte packet is a CDP round trip and the page reads each
notification (the emulation cannot push one), so this measures the page's client, the emulation
and the simulated radio, not a real one.

A bench stopped by SIGTERM or SIGHUP unwinds (browser, server, simulated boards and folders go;
:func:`tablelight.bench.app_serving.bench_folder`); the simulated board's process ends with its
SimBoard's channel, so none outlives a bench killed outright.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from tablelight.app.build import build_app
from tablelight.bench.app import BROWSER_ARGS, CHROMIUM
from tablelight.bench.app_serving import bench_folder, served, wait_until
from tablelight.bench.bluetooth_relay import BLUETOOTH_ARGS, READ_NOTIFICATIONS, choose_first_device
from tablelight.bench.file_transfer_relay import FileTransferRelay

BOOT_OUT = ("Adafruit CircuitPython 9.2.1 on 2024-11-20; Adafruit Feather nRF52840 Express with nRF52840\n"
            "Board ID:feather_nrf52840_express\nUID:C5A7C1E2B3D4\n")
#: The page's picker answers with a fresh OPFS folder holding only boot_out.txt (a new board).
STAND_IN = """
window.showDirectoryPicker = async () => (await navigator.storage.getDirectory()).getDirectoryHandle("CIRCUITPY", { create: true });
window.__newBoard = async (bootOut) => {
  const root = await navigator.storage.getDirectory();
  await root.removeEntry("CIRCUITPY", { recursive: true }).catch(() => {});
  const drive = await root.getDirectoryHandle("CIRCUITPY", { create: true });
  const out = await (await drive.getFileHandle("boot_out.txt", { create: true })).createWritable();
  await out.write(bootOut);
  await out.close();
};
"""
STEP_MS = 120_000


def _step(page: Any, *steps: str) -> str:
    page.wait_for_function("(steps) => steps.includes(document.getElementById('board-setup').dataset.step)",
                           arg=list(steps), timeout=STEP_MS)
    step = str(page.get_attribute("#board-setup", "data-step"))
    if step == "failed":
        raise RuntimeError(f"setting the board up failed: {page.text_content('#setup-status')}")
    return step


def _timed_setup(page: Any, choose: str) -> tuple[float, float]:
    """Click ``choose`` (the USB drive or the Bluetooth board): seconds to the plan shown, then
    seconds from *install* to *done*."""
    started = time.perf_counter()
    page.click(choose)
    _step(page, "planned", "failed")
    planned = time.perf_counter()
    page.click("#setup-install")
    _step(page, "done", "failed")
    return planned - started, time.perf_counter() - planned


def _usb_round(page: Any) -> dict[str, float]:
    page.evaluate("(text) => window.__newBoard(text)", BOOT_OUT)
    plan, install = _timed_setup(page, "#setup-usb")
    started = time.perf_counter()
    page.click("#setup-usb")
    _step(page, "planned", "failed")
    checked = time.perf_counter()
    if "already on it" not in str(page.text_content("#setup-status")):
        raise RuntimeError(f"the set-up board still has files to write: {page.text_content('#setup-status')}")
    return {"plan_s": plan, "install_s": install, "check_again_s": checked - started}


def _bluetooth_round(playwright: Any, chromium: str, url: str, drive: Path) -> dict[str, float]:
    from tablelight.sim.board import SimBoard
    from tablelight.sim.radio import VirtualRadio

    drive.mkdir()
    (drive / "boot_out.txt").write_text(BOOT_OUT)
    (drive / "code.py").write_text('print("Hello World!")\n')  # what CircuitPython puts on a new board
    radio = VirtualRadio()
    try:
        with SimBoard.start(None, firmware=drive, radio=radio, ble_workflow=True) as sim:
            browser = playwright.chromium.launch(executable_path=chromium, args=BROWSER_ARGS + BLUETOOTH_ARGS)
            try:
                relay = FileTransferRelay(browser.new_browser_cdp_session(), radio, radio.adapter("browser"),
                                          sim.ble_address or "")
                context = browser.new_context()
                context.add_init_script(READ_NOTIFICATIONS)
                page = context.new_page()
                choose_first_device(context, page)
                page.goto(url)
                page.wait_for_selector("body[data-state=ready]", timeout=STEP_MS)
                page.click("#board-setup summary")
                plan, install = _timed_setup(page, "#setup-ble-board")
                done = time.perf_counter()
                # the page let the board go: it restarts, and tablelight's firmware lights its LEDs
                wait_until(lambda: sim.boots > 1, "the board's restart after setting up", STEP_MS / 1000,
                           lambda: page.wait_for_timeout(20))
                sim.wait_pixels(lambda pixels: bool(pixels), timeout=STEP_MS / 1000)
                restarted = time.perf_counter() - done
            finally:
                browser.close()
    finally:
        radio.close()
    return {"ble_plan_s": plan, "ble_install_s": install, "ble_restart_s": restarted, "ble_writes": relay.writes,
            "ble_kib": relay.written / 1024}


def _flash_into_folder(drive: Path) -> tuple[float, int, int]:
    drive.mkdir()
    (drive / "boot_out.txt").write_text(BOOT_OUT)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "tablelight", "flash", "--drive", str(drive), "--no-wait",
                           "--no-progress"], capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise RuntimeError(f"tablelight flash into a folder failed: {done.stderr.strip()}")
    files = [p for p in drive.rglob("*") if p.is_file() and p.name != "boot_out.txt"]
    return seconds, len(files), sum(p.stat().st_size for p in files)


def run_setup_bench(chromium: str = CHROMIUM, rounds: int = 3) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    with bench_folder() as folder:
        built = build_app(folder / "site")
        with served(built.folder) as url, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, args=BROWSER_ARGS)
            try:
                page = browser.new_context().new_page()
                page.add_init_script(STAND_IN)
                page.goto(url)
                page.wait_for_selector("body[data-state=ready]", timeout=STEP_MS)
                page.click("#board-setup summary")
                measured = [_usb_round(page) for _ in range(rounds)]
            finally:
                browser.close()
            over_ble = [_bluetooth_round(playwright, chromium, url, folder / f"ble-drive-{n}") for n in range(rounds)]
        flashed = [_flash_into_folder(folder / f"flash-drive-{n}") for n in range(rounds)]
    figures: dict[str, Any] = {key: round(statistics.median(m[key] for m in measured), 3) for key in measured[0]}
    figures.update({key: round(statistics.median(m[key] for m in over_ble), 3) for key in over_ble[0]})
    figures.update({"flash_cli_s": round(statistics.median(f[0] for f in flashed), 3), "files": flashed[0][1],
                    "bytes": flashed[0][2], "rounds": rounds})
    return figures


def print_figures(figures: dict[str, Any]) -> None:
    print(f"setting a new board up from the page in headless Chromium, over USB (a private-file-system folder "
          f"standing in for CIRCUITPY), {figures['files']} files, {figures['bytes'] // 1024} KiB; medians of "
          f"{figures['rounds']} rounds")
    print(f"  choose the drive to the plan shown: {figures['plan_s']:.2f} s")
    print(f"  install to done (write, move into place, read back, verify): {figures['install_s']:.2f} s")
    print(f"  the set-up board chosen again (nothing to write): {figures['check_again_s']:.2f} s")
    print(f"  tablelight flash into a folder, same run (its process's start included): {figures['flash_cli_s']:.2f} s")
    print(f"  over Bluetooth (emulated Web Bluetooth relayed over the virtual radio to the simulated board's file "
          f"transfer service): choose the board to the plan {figures['ble_plan_s']:.2f} s, install to done "
          f"{figures['ble_install_s']:.2f} s ({figures['ble_writes']:.0f} writes of up to 20 bytes, "
          f"{figures['ble_kib']:.0f} KiB with the commands: Bluetooth stays on, so adafruit_ble goes too), done to the "
          f"board restarted into tablelight {figures['ble_restart_s']:.2f} s")


def add_parser(kinds: Any) -> None:
    """``bench setup`` among ``tablelight bench``'s kinds."""
    parser = kinds.add_parser("setup", help="seconds to set a board up from the app's page (USB drive stand-in, "
                                            "emulated Bluetooth), against tablelight flash into a folder")
    parser.add_argument("--chromium", default=CHROMIUM, help=f"the Chromium to drive (default {CHROMIUM})")
    parser.add_argument("--rounds", type=int, default=3, help="boards set up, each a fresh drive (default 3)")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    parser.set_defaults(func=run)


def run(args: Any) -> int:
    from tablelight.core.errors import SetupError

    if not Path(args.chromium).exists():
        raise SetupError(f"no Chromium at {args.chromium}: install Debian's chromium or give --chromium PATH")
    if args.rounds < 1:
        raise SetupError("--rounds takes a whole number from 1")
    try:
        import playwright  # noqa: F401
    except ImportError:
        raise SetupError("bench setup drives Chromium with Playwright: pip install 'tablelight[test]'") from None
    figures = run_setup_bench(args.chromium, args.rounds)
    if args.json:
        print(json.dumps(figures))
    else:
        print_figures(figures)
    return 0
