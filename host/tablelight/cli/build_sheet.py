"""``tablelight build-sheet LAYOUT``: printable 1:1 templates for building a board (SVG and PDF,
A4 and Letter): where each LED and key goes, their numbers, the data line and the key matrix."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from tablelight.core.errors import TablelightError


class BuildSheetError(TablelightError):
    """The build sheet could not be made (unknown layout, bad scale, unwritable folder)."""


def register(subparsers: Any) -> None:
    from tablelight.flash.settings import layout_names

    parser = subparsers.add_parser("build-sheet", help="printable 1:1 templates for wiring a board (SVG, PDF)")
    parser.add_argument("layout", help=f"board layout: {', '.join(layout_names())}")
    parser.add_argument("--paper", choices=("a4", "letter", "both"), default="both", help="default both")
    parser.add_argument("--format", choices=("svg", "pdf", "both"), default="both", help="default both")
    parser.add_argument("--unit-mm", type=float, default=None, metavar="MM",
                        help="millimetres per layout unit (default: 16 mm between the closest two parts)")
    parser.add_argument("--out", type=Path, default=Path("."), metavar="DIR", help="output folder (default .)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from tablelight.buildsheet.drawing import default_unit_mm
    from tablelight.buildsheet.pages import tile
    from tablelight.buildsheet.svg import page_svg
    from tablelight.flash import FlashError
    from tablelight.flash.boards import load_boards
    from tablelight.flash.settings import load_layout

    try:
        layout = load_layout(args.layout)
    except FlashError as error:
        raise BuildSheetError(str(error)) from None
    unit = args.unit_mm if args.unit_mm is not None else default_unit_mm(layout)
    if not 1.0 <= unit <= 200.0:
        raise BuildSheetError(f"--unit-mm {unit:g} is outside 1..200 millimetres per layout unit")
    board = next(iter(load_boards().values()))  # the reference board: its pins name the matrix wires
    try:
        args.out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise BuildSheetError(f"cannot create {args.out}: {error.strerror or error}") from None
    papers = ("a4", "letter") if args.paper == "both" else (args.paper,)
    written: list[Path] = []
    for paper in papers:
        pages = tile(layout, unit, paper, board)
        stem = f"{layout['id']}-build-sheet-{paper}"
        title = f"tablelight {layout['id']} build sheet ({paper.upper()}, 1:1)"
        try:
            if args.format in ("svg", "both"):
                for number, page in enumerate(pages, 1):
                    path = args.out / f"{stem}-{number:02d}.svg"
                    path.write_text(page_svg(page, f"{title}, page {number} of {len(pages)}"))
                    written.append(path)
            if args.format in ("pdf", "both"):
                from tablelight.buildsheet.pdf import write_pdf

                path = args.out / f"{stem}.pdf"
                write_pdf(pages, path, title)
                written.append(path)
        except OSError as error:
            raise BuildSheetError(f"cannot write into {args.out}: {error.strerror or error}") from None
        print(f"{paper.upper()}: {len(pages) - 1} tile page(s) + 1 wiring page, 1 unit = {unit:g} mm")
    for path in written:
        print(f"wrote {path}")
    print("print at 100 % (actual size) and check the 50 mm bar; tape the tiles with their corner marks aligned")
    return 0
