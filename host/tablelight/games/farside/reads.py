"""Farside's read API: everything a face, a drawing, a bot, the search or the lab reads of a game, as
methods and read-only properties of the engine (as python-chess gives a board ``pieces(...)`` and
``is_check()``). They answer from the position (``game.pos``, a ``FarsideState``) and return values
the caller may keep: numbers, names, fresh lists and dicts, and read-only views of the models.
Nothing here changes the game.

Seats are 0 (red) and 1 (blue); models are named by id ("a1", "b2"...).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from tablelight.core.game import Game
from tablelight.games.farside import combat, missions
from tablelight.games.farside.state import FarsideState, on_table


def _copy(found: dict[str, Any] | None) -> dict[str, Any] | None:
    return None if found is None else dict(found)


class FarsideReads(Game):
    """The read API (the engine, ``engine.FarsideEncounter``, is this class plus the rules' entry points)."""

    pos: FarsideState

    # ------------------------------------------------------------------ the armies and their models

    @property
    def armies(self) -> list[dict[str, Any]]:
        """The setup's armies, ``{"name", "models": [profile...]}`` per seat (copies)."""
        return [{**army, "models": [dict(m) for m in army["models"]]} for army in self.pos.armies]

    def army_name(self, seat: int) -> str:
        return str(self.pos.armies[seat]["name"])

    def model(self, mid: str) -> Mapping[str, Any]:
        """Model ``mid``, read-only: its profile (name, points, size, defense, and when its army gives them
        attack, melee, shooting, rules), ``owner``, ``damage`` and ``impact`` tokens, ``status`` ("table",
        "lost", "left"), ``activated`` this turn and the ``action`` it took."""
        return MappingProxyType(self.pos.models[mid])

    @property
    def models(self) -> dict[str, Mapping[str, Any]]:
        """Every model by id, in army order (red's then blue's), each read-only as :meth:`model` gives it."""
        return {mid: MappingProxyType(m) for mid, m in self.pos.models.items()}

    def on_table(self, seat: int) -> list[str]:
        """``seat``'s models still on the table, in army order."""
        return on_table(self.pos, seat)

    def counts_as(self, mid: str, face: int) -> int:
        """What a die ``face`` rolled for model ``mid`` counts as (The Chosen's ones count as sixes)."""
        return combat.counts_as(self.pos, mid, face)

    def defense_fails(self, mid: str, faces: list[int]) -> int:
        """The failed dice of model ``mid``'s defence roll ``faces``."""
        return combat.defense_fails(self.pos, mid, faces)

    # ------------------------------------------------------------------ the setup

    @property
    def setup_rolls(self) -> list[int | None]:
        return list(self.pos.setup_rolls)

    @property
    def placer(self) -> int | None:
        """The seat that placed the terrain zones and loot tokens (None before the roll-off)."""
        return self.pos.placer

    @property
    def secure_zones(self) -> int:
        return self.pos.secure_zones

    @property
    def loot_tokens(self) -> int:
        return self.pos.loot_tokens

    @property
    def loot_left(self) -> int:
        return self.pos.loot_left

    @property
    def deployment(self) -> list[int | None]:
        """Each seat's deployment zone width in cm (None before it is rolled)."""
        return list(self.pos.deployment)

    @property
    def secrets(self) -> list[dict[str, Any] | None]:
        """Each seat's secret mission (``primary``, ``stratagem``, ``team_size``) or None: every seat's,
        as the state has them (a seat's view hides the other's)."""
        return [_copy(s) for s in self.pos.secrets]

    # ------------------------------------------------------------------ the round

    @property
    def phase(self) -> str:
        """"setup", "secrets", "command", "action", "melee", "impact" or "over"."""
        return self.pos.phase

    @property
    def round(self) -> int:
        return self.pos.round

    @property
    def active(self) -> int:
        """The seat whose turn it is (in the action, melee and impact phases)."""
        return self.pos.active

    @property
    def first(self) -> int | None:
        """The seat that acts first this round (None before the first command phase)."""
        return self.pos.first

    @property
    def command_dice(self) -> list[list[int]]:
        """Each seat's two command dice this round ([] before they are rolled)."""
        return [list(d) for d in self.pos.command_dice]

    @property
    def command_die(self) -> list[int | None]:
        """Each seat's command die (its action points this round), or None before the choice."""
        return list(self.pos.command_die)

    @property
    def manoeuvre_die(self) -> list[int | None]:
        return list(self.pos.manoeuvre_die)

    @property
    def manoeuvre_used(self) -> list[str | None]:
        """The manoeuvre each seat played with its manoeuvre die this round, or None."""
        return list(self.pos.manoeuvre_used)

    @property
    def action_points(self) -> list[int]:
        """Each seat's action points left this turn."""
        return list(self.pos.action_points)

    @property
    def chosen(self) -> list[str | None]:
        """Each seat's The Chosen model this round, or None."""
        return list(self.pos.chosen)

    @property
    def group(self) -> dict[str, Any] | None:
        """The activation in progress (``{"roll": face or None}``, ``"pile_in"`` in the melee), or None."""
        return _copy(self.pos.group)

    @property
    def pending(self) -> dict[str, Any] | None:
        """The roll the game waits for: ``{"roll": kind, "seat", "dice", "sides", "count_fails"}`` and its
        context (``model``, ``round``...), or None."""
        return _copy(self.pos.pending)

    @property
    def failed(self) -> dict[str, Any] | None:
        """A failed activation awaiting its owner's choice, ``{"model", "roll"}``, or None."""
        return _copy(self.pos.failed)

    @property
    def evade_offer(self) -> dict[str, Any] | None:
        """A defence roll its owner may Evade, ``{"model", "fails"}``, or None."""
        return _copy(self.pos.evade_offer)

    # ------------------------------------------------------------------ missions and the end

    @property
    def objectives(self) -> list[dict[str, int]]:
        """Per seat: mission -> objectives accomplished."""
        return [dict(o) for o in self.pos.objectives]

    def total_objectives(self) -> int:
        return missions.total_objectives(self.pos)

    def victory_points(self) -> list[int]:
        """2 per own accomplished primary; 1 per enemy accomplishment of one's stratagem."""
        return missions.victory_points(self.pos)

    @property
    def secured(self) -> dict[int, int]:
        """Zone -> the seat holding it."""
        return dict(self.pos.secured)

    @property
    def broken_through(self) -> list[int]:
        return list(self.pos.broken_through)

    @property
    def losses(self) -> list[int]:
        return list(self.pos.losses)

    @property
    def martyr_given(self) -> bool:
        """The game's one martyr objective was scored."""
        return self.pos.martyr_given

    @property
    def end_reason(self) -> str:
        """Why the game ended ("" until it does)."""
        return self.pos.end_reason

    @property
    def end_announced(self) -> int | None:
        """The seat that announced the end (option game_end = announced), or None."""
        return self.pos.end_announced

    @property
    def fired(self) -> Counter[str]:
        """How often each rule fired (``"manoeuvre:The Chosen"``, ``"activation:roll_failed"``...): the lab's coverage."""
        return Counter(self.pos.fired)
