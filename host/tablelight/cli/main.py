"""The ``tablelight`` command.

Each subcommand lives in its own module with a ``register(subparsers)`` function
that adds its parser and sets ``func``; name the command and its module in
:data:`COMMANDS` to add one. A game's own commands come from its entry
(:attr:`tablelight.core.registry.GameEntry.commands`).

Only the module of the command being run is imported (``tablelight --version``
imports none, nor any game): the command line starts fast and a command's
dependencies are loaded only when it runs. ``tablelight --help`` (or no command)
imports them all, to list them.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import Any

from tablelight import __version__
from tablelight.core.errors import TablelightError

#: Each built-in command -> the module whose ``register`` adds it, in the order ``--help`` lists them.
COMMANDS: dict[str, str] = {
    "selfplay": "tablelight.cli.selfplay",
    "replay": "tablelight.cli.replay",
    "rules": "tablelight.cli.rules",
    "bench": "tablelight.cli.bench",
    "play": "tablelight.cli.play",
    "games": "tablelight.cli.games",
    "resume": "tablelight.cli.games",
    "sim": "tablelight.cli.sim",
    "devices": "tablelight.cli.devices",
    "pair": "tablelight.cli.pairing",
    "forget": "tablelight.cli.pairing",
    "flash": "tablelight.cli.flash",
    "build-sheet": "tablelight.cli.build_sheet",
    "lab": "tablelight.cli.lab",
    "app": "tablelight.cli.app",
}
HELP_OPTIONS = {"-h", "--help"}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or of ``command`` alone where it is a built-in one. Another
    word gets the games' commands, or every command when it is none of them (so argparse's
    error lists them all)."""
    parser, subparsers = top_parser()
    if command in COMMANDS:
        _register(subparsers, [COMMANDS[command]])
        return parser
    if command is not None:
        _register(subparsers, game_command_modules())
        if command in subparsers.choices:
            return parser
        parser, subparsers = top_parser()
    _register(subparsers, built_in_modules() + game_command_modules())
    return parser


def top_parser() -> tuple[argparse.ArgumentParser, Any]:
    """The ``tablelight`` parser without its commands, and the subparsers to add them to."""
    parser = argparse.ArgumentParser(
        prog="tablelight", description="Lit tabletop game boards: rules engines, boards and the table service."
    )
    parser.add_argument("--version", action="version", version=f"tablelight {__version__}")
    return parser, parser.add_subparsers(dest="command", metavar="COMMAND")


def built_in_modules() -> list[str]:
    return list(dict.fromkeys(COMMANDS.values()))


def game_command_modules() -> list[str]:
    from tablelight.core.registry import game_entries

    return [module for entry in game_entries().values() for module in entry.commands]


def _register(subparsers: Any, modules: list[str]) -> None:
    for module in modules:
        importlib.import_module(module).register(subparsers)


def parser_for(argv: Sequence[str]) -> argparse.ArgumentParser:
    """The parser for ``argv`` with only what it needs: the named command's module; none for
    ``--version``; every command for ``--help`` or an empty line (to list them)."""
    # The first word that is not an option is the command: the top-level options take no value.
    command = next((arg for arg in argv if not arg.startswith("-")), None)
    if command is not None or not argv or HELP_OPTIONS & set(argv):
        return build_parser(command)
    return top_parser()[0]  # --version, or an option argparse refuses


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    parser = parser_for(arguments)
    args = parser.parse_args(arguments)
    if not getattr(args, "func", None):
        build_parser().print_help()
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
