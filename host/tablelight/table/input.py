"""Key presses -> Farlander actions: the input state machine of a person at the board.

Distribution phase: pressing a territory places a unit there at once.

Action phase (a conquest is built in steps):

1. press the territory to conquer (the target); it blinks and your bordering
   territories that can send units pulse;
2. press those territories to move units in: each press adds one unit from it;
   a press beyond what it can send (it keeps one) or beyond 5 in all takes its
   units back to 0;
3. press confirm.

Cancel drops the whole conquest being built. Pressing the target again drops it
too; pressing another conquerable territory before any unit is chosen switches
the target. The machine never applies anything: :meth:`InputMachine.press`
returns an :class:`Outcome` holding a complete action (for the table to apply), or
a message and the territories to flash when a press is refused. Refused presses
change nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tablelight.core.errors import IllegalActionError
from tablelight.core.game import Action
from tablelight.table.layout import BoardLayout

if TYPE_CHECKING:
    from tablelight.games.farlander.engine import Farlander

MAX_MOVE_IN = 5


@dataclass
class Outcome:
    """What a press did: an action to apply, or a message (and territories to flash when refused)."""

    message: str
    action: Action | None = None
    refused: bool = False
    flash: list[int] = field(default_factory=list)


class InputMachine:
    """Turns key presses of the seat to act into actions; see the module docstring."""

    def __init__(self, game: Farlander, layout: BoardLayout) -> None:
        self.game = game
        self.layout = layout
        self.key_territory: dict[int, int] = {}
        for index, territory in enumerate(game.map.territories):
            if not 0 <= territory.tile < layout.slots:
                continue
            for key in layout.keys_of(territory.tile, territory.edges):
                self.key_territory[key] = index
        self.target: int | None = None
        self.moves: dict[int, int] = {}

    # ----------------------------------------------------------------- queries

    def keys_for(self, territory: int) -> list[int]:
        """Every key that selects ``territory`` (the first is a fine one to press)."""
        return sorted(key for key, t in self.key_territory.items() if t == territory)

    def sources(self) -> dict[int, int]:
        """Territories that can send units to the current target -> how many at most."""
        seat = self.game.current_seat()
        if self.target is None or seat is None:
            return {}
        return self.game.spare_units(seat, self.target)

    def reset(self) -> None:
        self.target = None
        self.moves = {}

    # ------------------------------------------------------------------ presses

    def press(self, key: int) -> Outcome:
        game = self.game
        seat = game.current_seat()
        if seat is None:
            return Outcome("the game is over", refused=True)
        if key == self.layout.confirm_key:
            return self._confirm()
        if key == self.layout.cancel_key:
            if self.target is None:
                return Outcome("nothing to cancel")
            name = game.ids[self.target]
            self.reset()
            return Outcome(f"conquest of {name} cancelled")
        territory = self.key_territory.get(key)
        if territory is None:
            return Outcome(f"key {key} is not part of any territory on this map", refused=True)
        if game.phase == "distribution":
            return Outcome(f"place a unit in {game.ids[territory]}", action={"type": "place", "territory": game.ids[territory]})
        if self.target is None:
            return self._choose_target(territory)
        if territory == self.target:
            name = game.ids[territory]
            self.reset()
            return Outcome(f"conquest of {name} cancelled")
        sources = self.sources()
        if territory in sources:
            return self._add_unit(territory, sources)
        if not self.moves and territory in game.targets(seat):
            return self._choose_target(territory)
        return Outcome(self._source_problem(territory), refused=True, flash=[territory])

    # ----------------------------------------------------------------- helpers

    def _choose_target(self, territory: int) -> Outcome:
        game = self.game
        seat = game.current_seat()
        assert seat is not None
        if territory not in game.targets(seat):
            return Outcome(self._engine_reason(territory), refused=True, flash=[territory])
        self.target = territory
        self.moves = {}
        sources = ", ".join(f"{game.ids[t]} (up to {n})" for t, n in sorted(self.sources().items()))
        return Outcome(
            f"conquer {game.ids[territory]} (defence {game.defense(territory)}, your strength "
            f"{game.strength(seat, territory)}): press {sources} to move units in, then confirm"
        )

    def _engine_reason(self, territory: int) -> str:
        """The engine's own reason why ``territory`` cannot be conquered now.

        A conquest with no units moved can never be legal, so ``apply`` only checks
        and raises (it never changes the game): for a bad target it names the
        target's rule, which is the message a person needs.
        """
        try:
            self.game.apply({"type": "conquer", "target": self.game.ids[territory], "moves": {}})
        except IllegalActionError as error:
            return error.message
        raise AssertionError("a conquest moving no units was accepted")  # pragma: no cover

    def _add_unit(self, territory: int, sources: dict[int, int]) -> Outcome:
        game = self.game
        assert self.target is not None
        current = self.moves.get(territory, 0)
        total = sum(self.moves.values())
        if current >= sources[territory] or total >= MAX_MOVE_IN:
            self.moves.pop(territory, None)
            note = f"{game.ids[territory]} sends no units now"
        else:
            self.moves[territory] = current + 1
            note = f"{game.ids[territory]} sends {current + 1}"
        total = sum(self.moves.values())
        return Outcome(f"{note}; {total} of at most {MAX_MOVE_IN} units move into {game.ids[self.target]}")

    def _source_problem(self, territory: int) -> str:
        game = self.game
        seat = game.current_seat()
        assert self.target is not None and seat is not None
        name, target = game.ids[territory], game.ids[self.target]
        if game.owner[territory] != seat:
            return f"{name} is not yours: units can only come from your territories bordering {target}"
        if territory not in game.neighbors[self.target]:
            return f"{name} does not border {target}"
        return f"{name} holds a single unit: it must keep it and cannot send any to {target}"

    def _confirm(self) -> Outcome:
        game = self.game
        if game.phase == "distribution":
            return Outcome("nothing to confirm: in the distribution phase a press places a unit at once", refused=True)
        if self.target is None:
            return Outcome("nothing to confirm: press a territory to conquer first", refused=True)
        if not self.moves:
            return Outcome(
                f"choose the units to move into {game.ids[self.target]} first: press your bordering territories",
                refused=True,
                flash=[self.target],
            )
        ordered = sorted(self.moves.items(), key=lambda item: game.ids[item[0]])
        action: Action = {
            "type": "conquer",
            "target": game.ids[self.target],
            "moves": {game.ids[t]: n for t, n in ordered},
        }
        return Outcome(f"conquer {game.ids[self.target]}", action=action)
