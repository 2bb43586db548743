"""The ``tablelight`` command.

Each subcommand lives in its own module with a ``register(subparsers)`` function
that adds its parser and sets ``func``; add a module to :data:`COMMAND_MODULES`
to add a command. A game's own commands come from its entry
(:attr:`tablelight.core.registry.GameEntry.commands`).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from tablelight import __version__
from tablelight.core.errors import TablelightError
from tablelight.core.registry import game_entries

COMMAND_MODULES = [
    "tablelight.cli.selfplay",
    "tablelight.cli.replay",
    "tablelight.cli.rules",
    "tablelight.cli.bench",
    "tablelight.cli.play",
    "tablelight.cli.games",
    "tablelight.cli.sim",
    "tablelight.cli.devices",
    "tablelight.cli.pairing",
    "tablelight.cli.flash",
    "tablelight.cli.build_sheet",
    "tablelight.cli.lab",
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tablelight", description="Lit tabletop game boards: rules engines, boards and the table service."
    )
    parser.add_argument("--version", action="version", version=f"tablelight {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    game_commands = [module for entry in game_entries().values() for module in entry.commands]
    for name in COMMAND_MODULES + game_commands:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        result: int = args.func(args)
        return result
    except TablelightError as error:
        print(f"tablelight: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("tablelight: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
