"""What each lab game starts from, when the game says (Farside's armies, drawn from a roster pool).

A game may keep a module ``lab_setup`` beside its engine (found like its ``coverage`` declaration,
so the lab names no game) with:

- ``add_arguments(parser)``: its own lab options (Farside's ``--roster FILE``);
- ``plan_setup(args, variants)``: what every game draws from, as JSON, checked once before any
  game is played (it heads the results file with the rest of the plan);
- ``game_setup(plan_setup, players, options, seed)``: one game's ``setup`` for the engine, drawn
  with the game's own setup seed (derived like every lab seed, so any worker draws the same).

A game without the module starts every lab game from its own default setup.
"""

from __future__ import annotations

import argparse
from typing import Any

from tablelight.lab.coverage import game_module
from tablelight.lab.plan import Job, derive_seed


def add_arguments(parser: argparse.ArgumentParser, game: str) -> None:
    module = game_module(game, "lab_setup")
    if module is not None:
        module.add_arguments(parser)


def plan_setup(game: str, args: argparse.Namespace, variants: list[dict[str, Any]]) -> dict[str, Any] | None:
    module = game_module(game, "lab_setup")
    if module is None:
        return None
    setup: dict[str, Any] = module.plan_setup(args, variants)
    return setup


def game_setup(plan: dict[str, Any], job: Job) -> dict[str, Any] | None:
    """The setup of game ``job`` (None: the engine's default)."""
    if plan.get("setup") is None:
        return None
    module = game_module(plan["game"], "lab_setup")
    if module is None:
        return None
    variant = plan["variants"][job.variant]
    seed = derive_seed(plan["seed"], "setup", job.variant, job.index)
    setup: dict[str, Any] = module.game_setup(plan["setup"], variant["players"], variant["options"], seed)
    return setup
