"""`tablelight build-sheet LAYOUT`: 1:1 pages that show every LED and key of the layout."""

from __future__ import annotations

import json
import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tablelight.buildsheet.drawing import MARGIN_MM, centre
from tablelight.cli.main import main

from .conftest import ROOT

LAYOUTS = ROOT / "hardware" / "layouts"
SVG = "{http://www.w3.org/2000/svg}"


def texts(path: Path) -> list[tuple[float, float, str]]:
    root = ET.parse(path).getroot()
    return [(float(t.get("x", 0)), float(t.get("y", 0)), t.text or "") for t in root.iter(f"{SVG}text")]


@pytest.mark.parametrize("layout", sorted(p.stem for p in LAYOUTS.glob("*.json")))
def test_every_led_and_key_is_on_the_tiles_and_every_key_in_the_matrix(layout: str, tmp_path: Path) -> None:
    data = json.loads((LAYOUTS / f"{layout}.json").read_text())
    assert main(["build-sheet", layout, "--paper", "a4", "--format", "svg", "--out", str(tmp_path)]) == 0
    pages = sorted(tmp_path.glob(f"{layout}-build-sheet-a4-*.svg"))
    tiles, wiring = pages[:-1], pages[-1]
    shown = [text for page in tiles for _, _, text in texts(page)]
    assert {int(t) for t in shown if t.isdigit()} == set(range(data["leds"]))
    assert {t for t in shown if re.fullmatch(r"K\d+", t)} == {f"K{k}" for k in range(data["keys"])}
    matrix = [t for _, _, t in texts(wiring)]
    assert {t for t in matrix if re.fullmatch(r"K\d+", t)} == {f"K{k}" for k in range(data["keys"])}
    columns = data["key_matrix"]["columns"]
    assert any(t.startswith(f"C{columns - 1} ") for t in matrix) and not any(t.startswith(f"C{columns} ") for t in matrix)
    for page in pages:  # A4 at 1:1: the page is 210 x 297 mm and its user units are millimetres
        root = ET.parse(page).getroot()
        assert (root.get("width"), root.get("height"), root.get("viewBox")) == ("210.0mm", "297.0mm", "0 0 210.0 297.0")


def test_the_drawing_is_to_scale(tmp_path: Path) -> None:
    assert main(["build-sheet", "farlander", "--paper", "letter", "--format", "svg", "--unit-mm", "20",
                 "--out", str(tmp_path)]) == 0
    data = json.loads((LAYOUTS / "farlander.json").read_text())
    first = sorted(tmp_path.glob("*-01.svg"))[0]
    numbers = {t: (x, y) for x, y, t in texts(first) if t.isdigit()}
    entries = {e["led"]: centre(e) for e in data["drawing"]["leds"]}
    (x0, y0), (x1, y1) = numbers["0"], numbers["1"]  # both on the first page
    assert math.dist((x0, y0), (x1, y1)) == pytest.approx(math.dist(entries[0], entries[1]) * 20, abs=0.05)
    assert x0 == pytest.approx(10 + MARGIN_MM + entries[0][0] * 20, abs=0.05)  # 10 mm page edge, then the margin


def test_big_boards_tile_over_pages_with_marks_that_meet(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["build-sheet", "landover", "--paper", "a4", "--format", "both", "--out", str(tmp_path)]) == 0
    svgs = sorted(tmp_path.glob("landover-build-sheet-a4-*.svg"))
    assert len(svgs) > 4 and "tile page(s)" in capsys.readouterr().out
    second = ET.parse(svgs[1]).getroot()
    assert second.find(f"{SVG}clipPath") is not None
    assert any("joins" in t for _, _, t in texts(svgs[0]))
    pdf = (tmp_path / "landover-build-sheet-a4.pdf").read_bytes()
    assert pdf.startswith(b"%PDF-") and len(re.findall(rb"/Type\s*/Page\b", pdf)) == len(svgs)


@pytest.mark.parametrize("layout", sorted(p.stem for p in LAYOUTS.glob("*.json")))
def test_every_tile_page_shows_part_of_the_board(layout: str, tmp_path: Path) -> None:
    for paper in ("a4", "letter"):
        assert main(["build-sheet", layout, "--paper", paper, "--format", "svg", "--out", str(tmp_path)]) == 0
        *tiles, _ = sorted(tmp_path.glob(f"{layout}-build-sheet-{paper}-*.svg"))
        furniture = ("tablelight build sheet", "page ", "50 mm")
        for page in tiles:  # an LED, a key or its label: not a blank page to print
            assert any(not t.startswith(furniture) for _, _, t in texts(page)), page.name


@pytest.mark.parametrize("args, words", [(["chess"], "no board layout 'chess'"),
                                         (["farlander", "--unit-mm", "0"], "--unit-mm 0 is outside")])
def test_bad_input_gets_one_clear_error(args: list[str], words: str, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["build-sheet", *args, "--out", str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err
    assert not (tmp_path / "out").exists()
