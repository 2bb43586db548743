"""Farside's face, part 4: the steps by which a seat's page narrows a long list of choices, in players' words.

A page shows at most 8 buttons a step (``seat.js``) and walks :meth:`choice_steps` field by field.
An impact offers every model (10) times every count of tokens (up to 20): 200 choices. Two steps of
the face's own split them: a model's army before the model (``"army_of_model": 0``, "red army": 5
models each) and a range of counts before the count (``"range_of_tokens": 6``, "6 to 10 tokens").
:meth:`narrow` understands both. The steps are labelled in players' words ("a1 (Warrior 1)", "3
tokens", "primary objective: loot"), and a seat's secret mission is told as such
(:meth:`secret_sections`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from tablelight.core.game import Action
from tablelight.games.farside.menu import FIELD_ORDER, SEAT_NAMES
from tablelight.games.farside.words import FarsideWords
from tablelight.table.face import Outcome
from tablelight.table.picker import Picker

#: The face's own step that names a model's army before the model.
ARMY_STEP = "army_of_model"
#: The face's own step that names a range of token counts before the count.
RANGE_STEP = "range_of_tokens"
#: Token counts a range holds (a page shows a range's counts as one step of buttons).
RANGE = 5
#: How each mission scores, in players' words (docs/rules/farside.md, "End and victory points").
PRIMARY_WORDS = "2 victory points for each one you accomplish"
STRATAGEM_WORDS = "1 victory point for each one the enemy accomplishes"


def token_range(tokens: int) -> int:
    """The first count of the range ``tokens`` is in (1-5 -> 1, 6-10 -> 6...)."""
    return 1 + (tokens - 1) // RANGE * RANGE


class FarsideSteps(FarsideWords):
    """The choice steps, their labels and the secrets panel of the Farside face."""

    TYPE_WORDS: ClassVar[Mapping[str, str]] = {
        "roll": "roll the dice", "secret": "note your secret mission", "command": "take a command die",
        "activate": "activate a model", "pile_in": "pile in", "failed": "after the failed activation",
        "impact": "record impact tokens", "secure": "secure a terrain zone", "break_through": "break through",
        "loot": "carry loot off the table", "manoeuvre": "use a manoeuvre", "regenerate": "regenerate",
        "dead_zone": "roll for a dead zone", "end_turn": "end turn", "done": "end the melee",
        "announce_end": "announce the end of the game",
    }

    def choice_steps(self, action: Action) -> list[tuple[str, Any]]:
        steps: list[tuple[str, Any]] = []
        for field, value in action.items():
            if field == "model" and isinstance(value, str) and value in self.game.models:
                steps.append((ARMY_STEP, self.game.model(value)["owner"]))
            if field == "tokens" and isinstance(value, int) and not isinstance(value, bool) and value > 0:
                steps.append((RANGE_STEP, token_range(value)))
            steps.append((field, value))
        return steps

    def choice_value_words(self, field: str, value: Any) -> str | None:
        seat_word = SEAT_NAMES[value] if isinstance(value, int) and 0 <= value < len(SEAT_NAMES) else None
        if field == ARMY_STEP and seat_word:
            return f"{seat_word} army"
        if field == RANGE_STEP and isinstance(value, int):
            return f"{value} to {value + RANGE - 1} tokens"
        if field == "model":
            return self._model_words(value)
        if field == "tokens" and isinstance(value, int):
            return f"{value} token" + ("" if value == 1 else "s")
        if field == "player" and seat_word:
            return f"{seat_word}'s"
        if field == "primary":
            return f"primary objective: {value}"
        if field == "stratagem":
            return f"stratagem: {value}"
        if field == "team_size":
            return f"team of {value}"
        if field == "action" and isinstance(value, str):
            return f"{value} action"
        return None

    def narrow(self, chosen: dict[str, Any]) -> Outcome:
        """A page's partial choice, its own steps (army, range of tokens) included: the menu opens on the
        first legal action that agrees with all of it."""
        steps = {name: value for name, value in chosen.items() if name in (ARMY_STEP, RANGE_STEP)}
        if not steps or self.game.current_seat() is None:
            return super().narrow(chosen)
        fields = {name: value for name, value in chosen.items() if name not in steps}
        probe = Picker(self.game.legal_actions, FIELD_ORDER)
        found = probe.candidates() if probe.agree(fields) else []
        agreeing = [a for a in found if steps.items() <= dict(self.choice_steps(a)).items()]
        if not agreeing:
            return Outcome("no legal action agrees with that choice", refused=True)
        outcome = super().narrow(fields or {"type": agreeing[0]["type"]})
        if outcome.refused:
            return outcome
        self.index = next((i for i, a in enumerate(self.choices) if a == agreeing[0]), self.index)
        return Outcome(self._selected_words() if len(agreeing) == 1 else f"{len(agreeing)} choices left: choose on")

    def secret_sections(self, seat: int, view: dict[str, Any]) -> list[tuple[str, str | list[str]]] | None:
        """``seat``'s secret mission in players' words (the team size is public, said for the whole)."""
        secret = self.game.secrets[seat] if 0 <= seat < len(self.game.secrets) else None
        if secret is None:
            return [("Your secret mission", "not chosen yet")]
        return [("Your secret mission", [
            f"Primary objective: {secret['primary']} ({PRIMARY_WORDS})",
            f"Stratagem: {secret['stratagem']} ({STRATAGEM_WORDS})",
            f"Team size: {secret['team_size']} (both players know it)",
        ])]
