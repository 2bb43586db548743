"""What ``tablelight flash --verify`` says about a drive, as lines: the command prints them, the
app's page shows the same after setting a board up (and both read the same answer)."""

from __future__ import annotations

from dataclasses import dataclass

from tablelight.flash.install import Change


@dataclass(frozen=True)
class Line:
    text: str
    error: bool = False  # the command prints it to stderr


def verify_lines(where: str, changes: list[Change], mismatches: list[str] | None = None) -> tuple[list[Line], bool]:
    """Every file that differs or is missing, every way settings.toml disagrees with its layout,
    then the verdict; and whether the drive matches."""
    differing = [c for c in changes if c.state != "same"]
    lines = [Line(f"{'missing' if change.state == 'new' else 'differs'}: {change.path}") for change in differing]
    lines += [Line(f"wrong: settings.toml: {problem} (`tablelight flash --layout NAME` rewrites it)")
              for problem in mismatches or []]
    if mismatches and not differing:
        return lines + [Line(f"{where}: settings.toml does not match the layout it names", True)], False
    if differing:
        return lines + [Line(f"{where}: {len(differing)} of {len(changes)} files differ from this tablelight's "
                             "firmware (`tablelight flash` rewrites them)", True)], False
    return lines + [Line(f"{where}: all {len(changes)} files match")], True
