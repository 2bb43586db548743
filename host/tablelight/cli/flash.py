"""``tablelight flash``: install tablelight (and, with --circuitpython, CircuitPython) on a board.

Reads the drive's boot_out.txt and refuses boards and CircuitPython versions tablelight does not
support; writes settings.toml for a layout (--layout) and Bluetooth (--ble); installs the
firmware and the pinned Adafruit libraries whole-file-or-nothing, verified; then waits for the
board's hello. ``--verify`` only compares. The work is in :mod:`tablelight.flash`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from tablelight.flash import FlashError, boards, bootloader, drives, install, libraries
from tablelight.flash.hello import describe, wait_for_hello
from tablelight.flash.plan import Options, drive_files, keep_user_code
from tablelight.flash.report import verify_lines
from tablelight.flash.settings import layout_mismatches, layout_names


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "flash", help="install tablelight on a CircuitPython board (CIRCUITPY drive); --verify checks one",
        description="Install the tablelight firmware, its settings and the pinned Adafruit libraries on a "
                    "CircuitPython board, then wait for its hello. See docs/hardware.md.")
    parser.add_argument("--drive", metavar="PATH", help="the CIRCUITPY drive (default: find it)")
    parser.add_argument("--layout", metavar="NAME", help=f"write settings.toml for this board layout "
                        f"({', '.join(layout_names())}); default: keep the board's settings.toml")
    parser.add_argument("--ble", action=argparse.BooleanOptionalAction, default=None,
                        help="turn Bluetooth LE on (and install adafruit_ble) or off; default: as the board has it")
    parser.add_argument("--test-input", action=argparse.BooleanOptionalAction, default=None,
                        help="let a host inject key presses (for `pytest --board` on a test bench only; "
                             "docs/protocol.md); default: as the board has it (off)")
    parser.add_argument("--verify", action="store_true",
                        help="write nothing: name every file that differs from what flashing would write")
    parser.add_argument("--dry-run", action="store_true", help="list what would be written, write nothing")
    parser.add_argument("--offline", action="store_true", help="take the libraries from the cache only")
    parser.add_argument("--download", action="store_true",
                        help="only fetch the pinned libraries into the cache (then flashing works offline)")
    parser.add_argument("--circuitpython", metavar="FILE.uf2", type=Path,
                        help="first install CircuitPython from this .uf2 (through the board's UF2 bootloader)")
    parser.add_argument("--console", metavar="PORT",
                        help="the board's console (REPL) port: for the 1200-baud restart into the bootloader, "
                             "and the reset a new boot.py needs (default: ask for a press of reset)")
    parser.add_argument("--port", metavar="PORT", help="the data port to wait on for the hello (default: find it)")
    parser.add_argument("--wait", type=float, default=30.0, metavar="SECONDS",
                        help="how long to wait for drives and the hello (default 30)")
    parser.add_argument("--no-wait", action="store_true", help="do not wait for the board's hello")
    parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                        help="show a progress bar (default: on a terminal)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.wait <= 0:
        raise FlashError(f"--wait must be a positive number of seconds, not {args.wait:g}")
    if args.download:
        for path in libraries.fetch_all(args.offline):
            print(f"cached {path}")
        return 0
    if args.circuitpython is not None:
        install_circuitpython(args)
    drive = Path(args.drive) if args.drive else drives.find_circuitpy()
    if not drive.is_dir():
        raise FlashError(f"{drive} is not a folder (give the CIRCUITPY drive's mount point with --drive)")
    boot = boards.read_boot_out(drive)
    board = boards.check_supported(boot)
    print(f"{drive}: {board['name']}, CircuitPython {boot.version_text}")
    options = Options(layout=args.layout, ble=args.ble, test_input=args.test_input, offline=args.offline)
    files = drive_files(drive, board, options)
    settings = files.get("settings.toml", b"").decode("utf-8", "replace")
    mismatches = layout_mismatches(settings) if settings else []
    if args.verify:
        return report_verify(drive, install.compare(drive, files), mismatches)
    for problem in mismatches:  # the board's own settings.toml, kept: said, not changed
        print(f"warning: settings.toml: {problem} (`tablelight flash --layout NAME` rewrites it)", file=sys.stderr)
    kept = keep_user_code(drive, files)
    changes = install.compare(drive, files)
    differing = [c for c in changes if c.state != "same"]
    if args.dry_run:
        for change in differing:
            print(f"would write {change.path} ({change.state}, {len(change.data)} bytes)")
        for name, backup in kept.items():
            print(f"would keep your own {name} as {backup}")
        print(f"{len(changes) - len(differing)} files already identical")
        return 0
    install.check_space(drive, changes)
    written = install.apply(drive, changes, args.progress)
    print(f"wrote {len(written)} files, {len(changes) - len(written)} already identical; every file read back "
          "and checked")
    for name, backup in kept.items():
        print(f"your own {name} is kept as {drive / backup} (tablelight's {name} replaced it; rename the copy "
              f"back to {name} to run yours again)")
    if "boot.py" in written and args.console and not args.no_wait:
        print(f"boot.py changed: resetting the board through {args.console}", flush=True)
        bootloader.hard_reset(args.console)
    elif "boot.py" in written:
        print("boot.py changed: press the board's reset button once (it only takes effect after a hard reset)")
    if args.no_wait:
        return 0
    print(f"waiting up to {args.wait:g} s for the board's hello...", flush=True)
    port, hello = wait_for_hello(args.port, args.wait)
    print(describe(port, hello))
    expected = settings_layout(drive)
    if expected and hello.get("layout") != expected:
        raise FlashError(f"the board on {port} reports layout {hello.get('layout')!r}, but settings.toml says "
                         f"{expected!r}: is {port} this board? Press its reset button and check again")
    return 0


def report_verify(drive: Path, changes: list[install.Change], mismatches: list[str] | None = None) -> int:
    lines, matches = verify_lines(str(drive), changes, mismatches)
    for line in lines:
        print(line.text, file=sys.stderr if line.error else sys.stdout)
    return 0 if matches else 1


def settings_layout(drive: Path) -> str | None:
    from tablelight.flash.settings import parse

    try:
        value = parse((drive / "settings.toml").read_text(), "settings.toml").get("TL_LAYOUT")
    except OSError:
        return None
    return str(value) if value else None


def install_circuitpython(args: argparse.Namespace) -> None:
    """Restart the board into its bootloader, check the board, copy the .uf2, wait for CIRCUITPY."""
    uf2: Path = args.circuitpython
    if not uf2.is_file():
        raise FlashError(f"{uf2} is not a file: give the CircuitPython .uf2 you downloaded")
    bootloader.uf2_families(uf2)  # refuses a file that is not UF2 before touching the board
    known = boards.load_boards()
    if not drives.uf2_drives():
        if args.console:
            print(f"restarting the board on {args.console} into its bootloader (1200-baud touch)...", flush=True)
            bootloader.touch_1200(args.console)
        else:
            print("double-tap the board's reset button (its LED pulses; a drive like FTHR840BOOT appears)...",
                  flush=True)
    drive = drives.wait_for(drives.uf2_drives, "UF2 bootloader drive", args.wait,
                            "double-tap the board's reset button, then run the same command again")
    board = bootloader.uf2_board(drive, known)
    bootloader.check_uf2_for_board(uf2, board)
    print(f"{drive}: {board['name']} bootloader; copying {uf2.name}...", flush=True)
    bootloader.copy_uf2(uf2, drive)
    if not args.drive:
        found = drives.wait_for(drives.circuitpy_drives, "CIRCUITPY drive", args.wait,
                                "CircuitPython did not start: copy the .uf2 again, or try another version")
        args.drive = str(found)
    else:
        drives.wait_for(lambda: [Path(args.drive)] if (Path(args.drive) / "boot_out.txt").exists() else [],
                        "CIRCUITPY drive", args.wait, "CircuitPython did not start")
    print(f"CircuitPython is running: {args.drive}")
