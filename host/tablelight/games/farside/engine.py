"""The Farside Encounter round and mission tracker, as a rules engine.

Farside Encounter is played with miniatures on an open table, so this engine
does not move models: it keeps the books the players keep by hand. It follows
the rulebook's sequence:

* **setup**: both players roll a die (again on a tie); the higher one places
  2D3 terrain zones to secure and 2D3 loot tokens; deployment zone widths are
  rolled (option ``deployment``); each player secretly notes a primary
  objective, a stratagem and the team size (``secret``).
* **rounds**: the command phase (each player rolls 2D6, again on equal sums;
  the lower sum chooses its command die first; the command die is the action
  points; fewer points goes first, lower sum on a draw; the other die is the
  manoeuvre die), then each player's turn: action phase (``activate`` models
  for action points, activation rolls for damaged models, failed activations,
  martyrs), melee phase (both players record impact tokens), impact phase
  (defence rolls turn impact tokens into damage tokens; 3 remove a model; a side
  left without models loses once both sides rolled, option ``wipe_out``).
* **missions**: loot, breakthrough and secure are recorded by the players;
  destruction, heavy loss, grand slam, martyr and obliteration are awarded by
  the engine. The game ends after the round in which the total reaches
  ``objective_limit`` (10), or at once when a player has no models left on the
  table. Victory points: 2 per accomplished mission that is the player's
  primary objective, 1 (half of that) per mission the enemy accomplished that is
  the player's stratagem.

Dice come from the host (``dice = host``: ``Game._chance_die``, seeded and
logged) or from the table (``dice = table``: the seat that rolls enters the
result with a ``roll`` action, which is logged like any action). With
``dice = press`` the host rolls too, but only when the seat that rolls sends
``{"type": "roll"}`` (a lit console's roll key), so people see their roll
happen. Secrets
(primary objective and stratagem) are hidden from the other seat in
:meth:`view` and :meth:`view_log` until the game ends.

Actions (``model`` ids are "a1", "a2"... for seat 0 and "b1"... for seat 1)::

    {"type": "secret", "primary": "loot", "stratagem": "secure", "team_size": 3}
    {"type": "command", "die": 5}
    {"type": "command", "die": 5, "chosen": "a2"}    # a manoeuvre die of 6 names The Chosen at once
    {"type": "activate", "model": "a1", "action": "complex"}            # 1 action point
    {"type": "activate", "model": "a2", "action": "simple", "group": true}  # same activation
    {"type": "failed", "model": "a2", "choice": "pass" | "act" | "simple"}
    {"type": "accept", "model": "b3"}      # keep a defence roll that Evade could reroll
    {"type": "impact", "model": "b3", "tokens": 2}
    {"type": "secure", "zone": 1}                                       # 1 action point
    {"type": "break_through", "model": "a1"}
    {"type": "loot", "model": "a1"}
    {"type": "manoeuvre", "player": 0, "name": "Cure", "model": "a1"}
    {"type": "manoeuvre", "player": 1, "name": "Disappear", "model": "b2", "loot": true}  # carrying loot
    {"type": "regenerate", "model": "b1"}   # Regeneration, the model's simple action (a roll follows)
    {"type": "dead_zone", "model": "a3"}    # a model on a dead zone rolls (removed on 1 or 2)
    {"type": "end_turn"} / {"type": "pile_in", "model": "a4"} / {"type": "done"}
    {"type": "announce_end"}   # option game_end = announced, once the objective limit is reached
    {"type": "roll", "dice": [3, 5]} / {"type": "roll", "fails": 2}     # dice = table only
    {"type": "roll"}                                                    # dice = press only

Rule decisions are in docs/rules/farside.md ("Tracker").

The engine is thin: it holds the position (``self.pos``, a ``state.FarsideState``: plain data, every
field listed once) and calls the rule modules, each a set of functions over the position, importing
only the ones below it: ``state`` -> ``forces`` (the armies) -> ``missions`` (objectives, losses, the
wipe-out, victory points) -> ``combat`` (defence, damage, Regeneration, dead zones) -> ``activation``
-> ``manoeuvres`` -> ``rounds`` (command dice, turns, melee and impact phases, Evade) -> ``setup``
(the roll-off, zones, loot, deployment) -> ``dice`` (host and entered rolls, what each decides) ->
``turns`` (carrying out an action) -> ``checking`` -> ``listing`` (legal actions) -> ``views``. What
faces, drawings, bots and the lab read is the read API of ``reads.FarsideReads``, which this class
extends. Every roll the host makes goes through ``Game._chance_die`` (the rule functions roll through
this class's ``draw_die``) and is in the log.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tablelight.core.game import Action, Game
from tablelight.core.options import OptionSpec
from tablelight.games.farside.checking import check
from tablelight.games.farside.dice import advance
from tablelight.games.farside.forces import army_from_report, default_armies
from tablelight.games.farside.listing import legal_actions
from tablelight.games.farside.missions import scores
from tablelight.games.farside.reads import FarsideReads
from tablelight.games.farside.setup import new_position
from tablelight.games.farside.state import (
    ACTION,
    COMMAND,
    IMPACT,
    LEFT,
    LOST,
    MELEE,
    ON_TABLE,
    OVER,
    SECRETS,
    SETUP,
    current_seat,
)
from tablelight.games.farside.turns import perform
from tablelight.games.farside.views import describe_position, state_of, view_log_of, view_of, winners

#: The class, and the phase and model-status names and army helpers callers have always imported from here.
__all__ = [
    "ACTION", "COMMAND", "IMPACT", "LEFT", "LOST", "MELEE", "ON_TABLE", "OVER", "SECRETS", "SETUP",
    "FarsideEncounter", "army_from_report", "default_armies",
]


class FarsideEncounter(FarsideReads):
    name = "farside"
    min_players = 2
    max_players = 2
    has_secrets = True  # each side's secret choice until the game ends (view, view_log)
    own_bots = {"tactician": "tablelight.games.farside.bots:TacticianBot"}
    # Each roll the host makes: its kind and die (2D3 for the zones and loot tokens, d6 otherwise).
    chance_ranges = {
        "setup": (1, 6), "secure_zones": (1, 3), "loot_tokens": (1, 3), "deployment": (1, 6),
        "command": (1, 6), "activation": (1, 6), "defense": (1, 6),
        "regeneration": (1, 6), "dead_zone": (1, 6),
    }
    #: Format 2 (2026-11-22): the activation roll comes before the choice of action (a failed
    #: complex action may become a simple one), and Evade is offered after a defence roll.
    #: Format 1 records keep declaring the action first and Evade as a recorded note only.
    #: Format 3 (2026-11-23): an army costing more than points_level is refused (points_check=cap);
    #: older records keep the level as a note only.
    #: Format 4 (2026-11-26): both sides' defence rolls of an impact phase are made before a
    #: wipe-out ends the game (option wipe_out), and The Chosen is named at the start of the round
    #: and counts on every roll of its model. Older records keep the earlier readings.
    #: Format 5 (2026-11-28): taking over a secured zone moves its point to the new holder
    #: (option secure_takeover); older records keep adding a point while the old holder keeps its own.
    latest_record_format = 5
    option_specs = (
        OptionSpec(
            "dice", str, "host",
            "host: the engine rolls (seeded, logged); table: players enter physical dice; "
            "press: the engine rolls when the seat that rolls sends a roll action",
            ("host", "table", "press"),
        ),
        OptionSpec(
            "points_level", int, 500,
            "the agreed points level (500, 1000, 1500 or any): each army costs at most this; "
            "games without rosters get as many demo forces (310 points) as fit",
        ),
        OptionSpec(
            "points_check", str, "cap",
            "cap: an army costing more than points_level is refused at setup; record: the level is only recorded",
            ("cap", "record"),
        ),
        OptionSpec(
            "deployment", str, "roll_each",
            "deployment zone width: roll_each (a D6 per player), roll_shared (one D6), or fixed 10, 20, 30 cm",
            ("roll_each", "roll_shared", "10", "20", "30"),
        ),
        OptionSpec(
            "wipe_out", str, "after_impact",
            "after_impact: a player left without models in an impact phase loses once both sides "
            "made their defence rolls; at_once: the game ends with the last model's removal, "
            "before the other side rolls",
            ("after_impact", "at_once"),
        ),
        OptionSpec(
            "secure_takeover", str, "moves",
            "moves: taking over a zone the enemy secured moves its point to the new holder; "
            "adds: the new holder scores a point and the old holder keeps its own",
            ("moves", "adds"),
        ),
        OptionSpec(
            "game_end", str, "at_limit",
            "at_limit: the game ends after the round in which objective_limit is reached; announced: play "
            "goes on until a player announces the end (announce_end), then the round is completed",
            ("at_limit", "announced"),
        ),
        OptionSpec("objective_limit", int, 10, "the game ends after the round in which this many objectives are accomplished"),
        OptionSpec("round_limit", int, 0, "end the game after this many rounds (0: no limit, as in the rulebook)"),
    )

    # ------------------------------------------------------------------ the rules contract

    def _setup(self, setup: Mapping[str, Any] | None) -> None:
        """The position (``setup.new_position``: options and armies checked), then the host's first rolls."""
        self.pos = new_position(self.record_format, self.options, setup)
        advance(self.pos, self)

    def setup_record(self) -> dict[str, Any]:
        return {"armies": self.pos.armies}

    def current_seat(self) -> int | None:
        return current_seat(self.pos)

    def legal_actions(self) -> list[Action]:
        return legal_actions(self.pos)

    def _check(self, action: Action) -> Action:
        return check(self.pos, action)

    def _perform(self, action: Action) -> None:
        perform(self.pos, self, action)

    def scores(self) -> list[int]:
        """Victory points once the game is over; accomplished mission objectives before."""
        return scores(self.pos)

    def winners(self) -> list[int]:
        return winners(self.pos)

    def state(self) -> dict[str, Any]:
        return state_of(self.pos)

    def view(self, seat: int) -> dict[str, Any]:
        self._check_seat(seat)
        return view_of(self.pos, seat)

    def view_log(self, seat: int) -> list[Mapping[str, Any]]:
        self._check_seat(seat)
        return view_log_of(self.pos, self.log, seat)

    def describe(self, color: bool = False) -> str:
        return describe_position(self.pos)

    def draw_die(self, kind: str, sides: int = 6, **context: Any) -> int:
        """The door the rule functions roll dice through (state.Chance): the contract's logged draws."""
        return self._chance_die(kind, sides, **context)

    # A belief set up outside the rules (the search bot's sampled worlds): the log does not hold it.

    def suppose_secret(self, seat: int, primary: str, stratagem: str) -> None:
        """Take ``seat``'s secret mission to be ``primary`` and ``stratagem`` (its team size, announced,
        stays): the search redraws in its clones what it may not know."""
        secret = self.pos.secrets[seat]
        assert secret is not None, f"seat {seat} has noted no secret yet"
        self.pos.secrets[seat] = {**secret, "primary": primary, "stratagem": stratagem}
