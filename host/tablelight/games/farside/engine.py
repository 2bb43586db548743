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
  (defence rolls turn impact tokens into damage tokens; 3 remove a model).
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
    {"type": "activate", "model": "a1", "action": "complex"}            # 1 action point
    {"type": "activate", "model": "a2", "action": "simple", "group": true}  # same activation
    {"type": "failed", "model": "a2", "choice": "pass" | "act" | "simple"}
    {"type": "accept", "model": "b3"}      # keep a defence roll that Evade could reroll
    {"type": "impact", "model": "b3", "tokens": 2}
    {"type": "secure", "zone": 1}                                       # 1 action point
    {"type": "break_through", "model": "a1"}
    {"type": "loot", "model": "a1"}
    {"type": "manoeuvre", "player": 0, "name": "Cure", "model": "a1"}
    {"type": "end_turn"} / {"type": "pile_in", "model": "a4"} / {"type": "done"}
    {"type": "roll", "dice": [3, 5]} / {"type": "roll", "fails": 2}     # dice = table only
    {"type": "roll"}                                                    # dice = press only

Rule decisions are in docs/rules/farside.md ("Tracker").
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any

from tablelight.core.errors import MalformedActionError, RuleViolationError, SetupError
from tablelight.core.game import Action, Game, LogEntry
from tablelight.core.options import OptionSpec
from tablelight.games.farside.tables import MISSIONS, find_manoeuvre, tables

SETUP, SECRETS, COMMAND, ACTION, MELEE, IMPACT, OVER = "setup", "secrets", "command", "action", "melee", "impact", "over"
ON_TABLE, LOST, LEFT = "table", "lost", "left"
MAX_IMPACT_PER_ACTION = 20
#: Manoeuvres with an effect the tracker applies; the others are recorded only.
MANOEUVRE_TARGETS = {"Cure": "damaged", "Disappear": "own", "The Chosen": "own"}
PLAYER_MISSIONS = ("loot", "breakthrough", "secure")


def default_armies() -> list[dict[str, Any]]:
    """Two equal demo forces for games started without rosters (selfplay, rules serve)."""
    from tablelight.games.farside.army import cost_army
    from tablelight.games.farside.roster import roster_from_json

    roster = roster_from_json({
        "name": "Demo force",
        "models": [
            {"name": "Warrior", "count": 4, "size": 1, "attack": 4, "defense": 4, "move": 20,
             "melee": ["Combat"], "shooting": ["Assault Rifle"]},
            {"name": "Gunner", "size": 2, "attack": 4, "defense": 3, "move": 20,
             "melee": ["Improvised"], "shooting": ["Machine Gun"]},
        ],
    })
    army = army_from_report(cost_army(roster))
    return [army, {**army, "models": [dict(m) for m in army["models"]]}]


def army_from_report(report: Any) -> dict[str, Any]:
    """The tracker's view of a costed roster: one entry per model (counts expanded)."""
    models = []
    for entry, cost in zip(report.roster.models, report.models):
        for number in range(entry.count):
            name = entry.name if entry.count == 1 else f"{entry.name} {number + 1}"
            models.append({"name": name, "points": cost.each, "size": entry.size, "defense": entry.defense})
    return {"name": report.roster.name, "models": models}


def _check_armies(armies: Any) -> list[dict[str, Any]]:
    if not isinstance(armies, list) or len(armies) != 2:
        raise SetupError("setup 'armies' must be a list of two armies")
    checked = []
    for seat, army in enumerate(armies):
        if not isinstance(army, dict) or not isinstance(army.get("models"), list) or not army["models"]:
            raise SetupError(f"army {seat} must be an object with a non-empty 'models' list")
        models = []
        for index, model in enumerate(army["models"]):
            where = f"army {seat} model {index}"
            if not isinstance(model, dict):
                raise SetupError(f"{where} must be an object")
            name, points, size, defense = (model.get(k) for k in ("name", "points", "size", "defense"))
            if not isinstance(name, str) or not name:
                raise SetupError(f"{where} needs a name")
            if not isinstance(points, int) or isinstance(points, bool) or points < 0:
                raise SetupError(f"{where} needs points (a whole number)")
            if size not in (1, 2, 3):
                raise SetupError(f"{where}: size must be 1, 2 or 3")
            if defense not in (2, 3, 4, 5, 6):
                raise SetupError(f"{where}: defense must be 2..6 (for 2+..6+)")
            models.append({"name": name, "points": points, "size": size, "defense": defense})
        checked.append({"name": str(army.get("name", f"Army {seat + 1}")), "models": models})
    return checked


def _width(face: int) -> int:
    for row in tables()["deployment_width"]:
        if face in row["d6"]:
            return int(row["width_cm"])
    raise ValueError(face)


#: action type -> (checking method, phases in which it is allowed)
_CHECKS: dict[str, tuple[str, tuple[str, ...]]] = {
    "secret": ("_check_secret", (SECRETS,)),
    "command": ("_check_command", (COMMAND,)),
    "activate": ("_check_activate", (ACTION,)),
    "pile_in": ("_check_activate", (MELEE,)),
    "failed": ("_check_failed", (ACTION, MELEE)),
    "impact": ("_check_impact", (ACTION, MELEE)),
    "secure": ("_check_secure", (ACTION,)),
    "break_through": ("_check_leave", (ACTION,)),
    "loot": ("_check_leave", (ACTION,)),
    "manoeuvre": ("_check_manoeuvre", (ACTION, MELEE)),
    "end_turn": ("_check_end", (ACTION,)),
    "done": ("_check_end", (MELEE,)),
}


class FarsideEncounter(Game):
    name = "farside"
    min_players = 2
    max_players = 2
    #: Format 2 (2026-11-22): the activation roll comes before the choice of action (a failed
    #: complex action may become a simple one), and Evade is offered after a defence roll.
    #: Format 1 records keep declaring the action first and Evade as a recorded note only.
    latest_record_format = 2
    option_specs = (
        OptionSpec(
            "dice", str, "host",
            "host: the engine rolls (seeded, logged); table: players enter physical dice; "
            "press: the engine rolls when the seat that rolls sends a roll action",
            ("host", "table", "press"),
        ),
        OptionSpec("points_level", int, 500, "the agreed points level (500, 1000, 1500 or any)"),
        OptionSpec(
            "deployment", str, "roll_each",
            "deployment zone width: roll_each (a D6 per player), roll_shared (one D6), or fixed 10, 20, 30 cm",
            ("roll_each", "roll_shared", "10", "20", "30"),
        ),
        OptionSpec("objective_limit", int, 10, "the game ends after the round in which this many objectives are accomplished"),
        OptionSpec("round_limit", int, 0, "end the game after this many rounds (0: no limit, as in the rulebook)"),
    )

    # ------------------------------------------------------------------ setup

    def _setup(self, setup: Mapping[str, Any] | None) -> None:
        if self.options["objective_limit"] < 1 or self.options["round_limit"] < 0:
            raise SetupError("objective_limit must be at least 1 and round_limit 0 or more")
        self.armies = _check_armies(setup["armies"]) if setup and "armies" in setup else default_armies()
        self.models: dict[str, dict[str, Any]] = {}
        for seat, army in enumerate(self.armies):
            for index, model in enumerate(army["models"], 1):
                self.models[f"{'ab'[seat]}{index}"] = {
                    **model, "owner": seat, "damage": 0, "impact": 0, "status": ON_TABLE, "activated": False,
                }
        self.phase = SETUP
        self.setup_rolls: list[int | None] = [None, None]
        self.placer: int | None = None
        self.secure_zones = 0
        self.loot_tokens = 0
        self.loot_left = 0
        self.deployment: list[int | None] = [None, None]
        self.secrets: list[dict[str, Any] | None] = [None, None]
        self.round = 0
        self.command_dice: list[list[int]] = [[], []]
        self.command_die: list[int | None] = [None, None]
        self.manoeuvre_die: list[int | None] = [None, None]
        self.manoeuvre_used: list[str | None] = [None, None]
        self.action_points = [0, 0]
        self.first: int | None = None
        self.active = 0
        self.chooser = 0
        self.melee_seat = 0
        self.group: dict[str, Any] | None = None
        self.failed: dict[str, Any] | None = None
        self.evade_offer: dict[str, Any] | None = None  # a defence roll its owner may Evade
        self.chosen: list[str | None] = [None, None]
        self.pending: dict[str, Any] | None = None
        self.impact_queue: list[str] = []
        self.objectives: list[dict[str, int]] = [{m: 0 for m in MISSIONS} for _ in range(2)]
        self.secured: dict[int, int] = {}
        self.broken_through = [0, 0]
        self.losses = [0, 0]
        self.heavy_loss_given = [False, False]
        self.grand_slam_given = False
        self.martyr_given = False
        self.end_reason = ""
        self._request_roll("setup", 0, 1, 6)
        self._advance()

    def setup_record(self) -> dict[str, Any]:
        return {"armies": self.armies}

    # ---------------------------------------------------------------- helpers

    def _request_roll(self, kind: str, seat: int, dice: int, sides: int, count_fails: bool = False, **context: Any) -> None:
        self.pending = {"roll": kind, "seat": seat, "dice": dice, "sides": sides, "count_fails": count_fails, **context}

    def _advance(self) -> None:
        """Make the host's rolls until a player has to act (dice = host)."""
        while self.pending is not None and self.options["dice"] == "host" and self.phase != OVER:
            self._host_roll(self.pending)

    def _host_roll(self, pending: dict[str, Any]) -> None:
        """Roll the pending dice with the game's generator (logged) and resolve them."""
        context = {k: v for k, v in pending.items() if k not in ("roll", "dice", "sides", "count_fails")}
        values = [self._chance_die(pending["roll"], pending["sides"], **context) for _ in range(pending["dice"])]
        if pending["count_fails"]:
            model = self.models[pending["model"]]
            self._resolve_roll(pending, fails=sum(1 for v in values if v < model["defense"]))
        else:
            self._resolve_roll(pending, values=values)

    def on_table(self, seat: int) -> list[str]:
        return [mid for mid, m in self.models.items() if m["owner"] == seat and m["status"] == ON_TABLE]

    def total_objectives(self) -> int:
        return sum(sum(o.values()) for o in self.objectives)

    def victory_points(self) -> list[int]:
        """2 per own accomplished primary; 1 per enemy accomplishment of one's stratagem."""
        points = [0, 0]
        for seat in (0, 1):
            secret = self.secrets[seat]
            if secret is None:
                continue
            points[seat] += 2 * self.objectives[seat][secret["primary"]]
            points[seat] += self.objectives[1 - seat][secret["stratagem"]]
        return points

    # ---------------------------------------------------------------- queries

    def current_seat(self) -> int | None:
        if self.phase == OVER:
            return None
        if self.evade_offer is not None:
            return int(self.models[self.evade_offer["model"]]["owner"])
        if self.pending is not None:
            return int(self.pending["seat"])
        if self.phase == SECRETS:
            return 0 if self.secrets[0] is None else 1
        if self.phase == COMMAND:
            return self.chooser
        if self.phase == MELEE:
            return self.melee_seat
        return self.active

    def scores(self) -> list[int]:
        """Victory points once the game is over; accomplished mission objectives before."""
        if self.phase == OVER:
            return self.victory_points()
        return [sum(o.values()) for o in self.objectives]

    def legal_actions(self) -> list[Action]:
        seat = self.current_seat()
        if seat is None:
            return []
        candidates: list[Action] = []
        if self.evade_offer is not None:
            mid = self.evade_offer["model"]
            return [{"type": "accept", "model": mid}, {"type": "manoeuvre", "player": seat, "name": "Evade", "model": mid}]
        if self.pending is not None:
            pending = self.pending
            if self.options["dice"] == "press":
                return [{"type": "roll"}]
            if pending["count_fails"]:
                candidates = [{"type": "roll", "fails": k} for k in range(pending["dice"] + 1)]
            else:
                faces = range(1, pending["sides"] + 1)
                candidates = [{"type": "roll", "dice": list(c)} for c in itertools.combinations_with_replacement(faces, pending["dice"])]
            return candidates
        if self.phase == SECRETS:
            team = len(self.on_table(seat))
            return [
                {"type": "secret", "primary": p, "stratagem": s, "team_size": t}
                for p in MISSIONS for s in MISSIONS for t in range(1, team + 1)
            ]
        if self.phase == COMMAND:
            return [{"type": "command", "die": v} for v in sorted(set(self.command_dice[seat]))]
        if self.failed is not None:
            candidates = [{"type": "failed", "model": self.failed["model"], "choice": c} for c in ("pass", "act", "simple")]
            candidates += [{"type": "manoeuvre", "player": seat, "name": "Inspired"}]
            return [a for a in candidates if self.is_legal(a)]
        own = self.on_table(seat)
        everyone = [mid for mid, m in self.models.items() if m["status"] == ON_TABLE]
        candidates += [{"type": "impact", "model": mid, "tokens": n} for mid in everyone for n in range(1, MAX_IMPACT_PER_ACTION + 1)]
        if self.phase == ACTION:
            for mid in own:
                for kind in ("simple", "complex"):
                    candidates.append({"type": "activate", "model": mid, "action": kind})
                    candidates.append({"type": "activate", "model": mid, "action": kind, "group": True})
                candidates.append({"type": "break_through", "model": mid})
                candidates.append({"type": "loot", "model": mid})
            candidates += [{"type": "secure", "zone": z} for z in range(1, self.secure_zones + 1)]
            candidates.append({"type": "end_turn"})
        if self.phase == MELEE:
            candidates += [{"type": "pile_in", "model": mid} for mid in own]
            candidates.append({"type": "done"})
        if self.phase in (ACTION, MELEE):
            for player in (0, 1):
                for row in tables()["manoeuvres"]:
                    target = MANOEUVRE_TARGETS.get(row["name"])
                    if target is None:
                        candidates.append({"type": "manoeuvre", "player": player, "name": row["name"]})
                    else:
                        candidates += [
                            {"type": "manoeuvre", "player": player, "name": row["name"], "model": mid}
                            for mid in self.on_table(player)
                        ]
        return [a for a in candidates if self.is_legal(a)]

    # -------------------------------------------------------------- checking

    def _model(self, action: Action, owner: int | None = None) -> str:
        mid = action.get("model")
        if not isinstance(mid, str) or mid not in self.models:
            raise MalformedActionError("farside.model.unknown", f"unknown model {mid!r}; models are {', '.join(self.models)}")
        model = self.models[mid]
        if model["status"] != ON_TABLE:
            raise RuleViolationError("farside.model.gone", f"model {mid} ({model['name']}) is no longer on the table")
        if owner is not None and model["owner"] != owner:
            raise RuleViolationError("farside.model.not_yours", f"model {mid} ({model['name']}) belongs to seat {model['owner']}")
        return mid

    @staticmethod
    def _whole(value: Any, name: str, low: int, high: int) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise MalformedActionError(f"farside.{name}.range", f"{name} must be a whole number {low}..{high}, got {value!r}")
        return value

    def _check(self, action: Action) -> Action:
        kind = action.get("type")
        seat = self.current_seat()
        assert seat is not None
        if self.evade_offer is not None:
            return self._check_evade(action, seat)
        if kind == "roll" and self.options["dice"] == "host":
            raise RuleViolationError("farside.roll.host", "the host rolls the dice in this game (option dice = host)")
        if self.pending is not None:
            if kind != "roll":
                raise RuleViolationError("farside.roll.pending", f"seat {seat} must first enter the {self.pending['roll']} roll")
            return self._check_roll(action)
        if kind == "roll":
            raise RuleViolationError("farside.roll.none", "no roll is expected now")
        entry = _CHECKS.get(kind) if isinstance(kind, str) else None
        if entry is None or not isinstance(kind, str):
            raise MalformedActionError("farside.action.type", f"unknown action type {kind!r}")
        method, phases = entry
        if self.phase not in phases:
            raise RuleViolationError("farside.phase", f"{kind!r} is not possible in the {self.phase} phase")
        if self.failed is not None and kind not in ("failed", "manoeuvre"):
            raise RuleViolationError("farside.activation.failed_pending",
                                     f"model {self.failed['model']} failed its activation: choose pass or act first")
        checked: Action = getattr(self, method)(action, seat)
        return checked

    def _check_roll(self, action: Action) -> Action:
        pending = self.pending
        assert pending is not None
        if self.options["dice"] == "press":
            if set(action) != {"type"}:
                raise MalformedActionError("farside.roll.press", "the host rolls in this game (dice = press): send {\"type\": \"roll\"} without values")
            return {"type": "roll"}
        if pending["count_fails"]:
            fails = self._whole(action.get("fails"), "fails", 0, pending["dice"])
            return {"type": "roll", "fails": fails}
        dice = action.get("dice")
        if not isinstance(dice, list) or len(dice) != pending["dice"]:
            raise MalformedActionError("farside.roll.shape", f"enter {pending['dice']} dice as a list, e.g. {{\"dice\": [3, 5]}}")
        values = [self._whole(v, "die", 1, pending["sides"]) for v in dice]
        return {"type": "roll", "dice": sorted(values)}

    def _check_secret(self, action: Action, seat: int) -> Action:
        primary, stratagem = action.get("primary"), action.get("stratagem")
        for label, value in (("primary", primary), ("stratagem", stratagem)):
            if value not in MISSIONS:
                raise MalformedActionError("farside.secret.mission", f"{label} must be one of {', '.join(MISSIONS)}, got {value!r}")
        team = self._whole(action.get("team_size"), "team_size", 1, len(self.on_table(seat)))
        return {"type": "secret", "primary": primary, "stratagem": stratagem, "team_size": team}

    def _check_command(self, action: Action, seat: int) -> Action:
        die = action.get("die")
        if die not in self.command_dice[seat] or isinstance(die, bool):
            raise RuleViolationError("farside.command.die", f"choose one of your dice {self.command_dice[seat]}, got {die!r}")
        return {"type": "command", "die": die}

    def _check_activate(self, action: Action, seat: int) -> Action:
        mid = self._model(action, seat)
        if self.models[mid]["activated"]:
            raise RuleViolationError("farside.activate.twice", f"model {mid} was already activated this turn")
        if action["type"] == "pile_in":
            if seat != self.active:
                raise RuleViolationError("farside.pile_in.active", "only the active player's units pile in")
            return {"type": "pile_in", "model": mid}
        kind = action.get("action")
        if kind not in ("simple", "complex"):
            raise MalformedActionError("farside.activate.kind", f"action must be simple or complex, got {kind!r}")
        group = action.get("group", False)
        if not isinstance(group, bool):
            raise MalformedActionError("farside.activate.group", "group must be true or false")
        if group:
            if self.group is None or self.group.get("pile_in"):
                raise RuleViolationError("farside.activate.no_group", "no group activation is open: activate a first model with an action point")
        elif self.action_points[seat] < 1:
            raise RuleViolationError("farside.activate.no_points", "no action points left this turn")
        checked: Action = {"type": "activate", "model": mid, "action": kind}
        if group:
            checked["group"] = True
        return checked

    def _check_failed(self, action: Action, seat: int) -> Action:
        if self.failed is None:
            raise RuleViolationError("farside.failed.none", "no activation has failed")
        if action.get("model") != self.failed["model"]:
            raise RuleViolationError("farside.failed.model", f"the failed activation is model {self.failed['model']}'s")
        choice = action.get("choice")
        if choice not in ("pass", "act", "simple"):
            raise MalformedActionError("farside.failed.choice", f"choice must be pass, act or simple, got {choice!r}")
        if choice == "simple":
            model = self.models[self.failed["model"]]
            if self.record_format < 2 or model.get("action") != "complex" or self.failed["roll"] < model["damage"]:
                raise RuleViolationError(
                    "farside.failed.simple",
                    f"a simple action instead needs a complex action declared and a roll of at least the damage tokens ({model['damage']})",
                )
        return {"type": "failed", "model": self.failed["model"], "choice": choice}

    def _check_impact(self, action: Action, seat: int) -> Action:
        mid = self._model(action)
        tokens = self._whole(action.get("tokens"), "tokens", 1, MAX_IMPACT_PER_ACTION)
        return {"type": "impact", "model": mid, "tokens": tokens}

    def _check_secure(self, action: Action, seat: int) -> Action:
        zone = self._whole(action.get("zone"), "zone", 1, max(1, self.secure_zones))
        if zone > self.secure_zones:
            raise RuleViolationError("farside.secure.zone", f"there are {self.secure_zones} terrain zones to secure")
        if self.secured.get(zone) == seat:
            raise RuleViolationError("farside.secure.held", f"zone {zone} is already secured by you")
        if self.action_points[seat] < 1:
            raise RuleViolationError("farside.secure.no_points", "securing costs one action point; none are left")
        return {"type": "secure", "zone": zone}

    def _check_leave(self, action: Action, seat: int) -> Action:
        mid = self._model(action, seat)
        if action["type"] == "loot" and self.loot_left < 1:
            raise RuleViolationError("farside.loot.none", "no loot tokens are left on the table")
        return {"type": action["type"], "model": mid}

    def _check_manoeuvre(self, action: Action, seat: int) -> Action:
        player = self._whole(action.get("player"), "player", 0, 1)
        name = action.get("name")
        row = find_manoeuvre(name) if isinstance(name, str) else None
        if row is None:
            names = ", ".join(r["name"] for r in tables()["manoeuvres"])
            raise MalformedActionError("farside.manoeuvre.unknown", f"unknown manoeuvre {name!r}; known: {names}")
        if self.manoeuvre_used[player] is not None:
            raise RuleViolationError("farside.manoeuvre.used", f"seat {player} already used the manoeuvre die this round")
        die = self.manoeuvre_die[player] or 0
        if die < row["die"]:
            raise RuleViolationError("farside.manoeuvre.die", f"{row['name']} needs a manoeuvre die of {row['die']}+, seat {player} has {die}")
        checked: Action = {"type": "manoeuvre", "player": player, "name": row["name"]}
        if row["name"] == "Inspired":
            if self.failed is None or self.models[self.failed["model"]]["owner"] != player:
                raise RuleViolationError("farside.manoeuvre.inspired", "Inspired rerolls a failed activation roll of your own")
            return checked
        if self.failed is not None:
            raise RuleViolationError("farside.activation.failed_pending", f"model {self.failed['model']} failed its activation: choose pass or act first")
        if row["name"] == "Evade" and self.record_format >= 2:
            raise RuleViolationError("farside.manoeuvre.evade", "Evade rerolls a defence roll: the tracker offers it in the impact phase")
        target = MANOEUVRE_TARGETS.get(row["name"])
        if target is not None:
            mid = self._model(action, player)
            if target == "damaged" and self.models[mid]["damage"] < 1:
                raise RuleViolationError("farside.manoeuvre.cure", f"model {mid} has no damage token to remove")
            checked["model"] = mid
        elif "model" in action:
            checked["model"] = self._model(action)  # recorded for the players' reference
        return checked

    def _check_evade(self, action: Action, seat: int) -> Action:
        """After a defence roll that Evade could reroll: keep it or Evade."""
        assert self.evade_offer is not None
        mid = self.evade_offer["model"]
        kind = action.get("type")
        if kind == "accept" or (kind == "manoeuvre" and action.get("name") == "Evade"):
            if action.get("model") != mid:
                raise RuleViolationError("farside.evade.model", f"the defence roll to keep or Evade is model {mid}'s")
            if kind == "accept":
                return {"type": "accept", "model": mid}
            if action.get("player") != seat:
                raise RuleViolationError("farside.evade.player", f"Evade uses the manoeuvre die of the model's owner, seat {seat}")
            return {"type": "manoeuvre", "player": seat, "name": "Evade", "model": mid}
        raise RuleViolationError(
            "farside.evade.pending",
            f"model {mid} failed {self.evade_offer['fails']} defence dice: keep the roll (accept) or reroll them all (manoeuvre Evade)",
        )

    def _check_end(self, action: Action, seat: int) -> Action:
        return {"type": action["type"]}

    # -------------------------------------------------------------- performing

    def _perform(self, action: Action) -> None:
        kind = action["type"]
        seat = self.current_seat()
        assert seat is not None
        if self.evade_offer is not None:
            self._perform_evade(action)
            self._check_wipeout()
            self._advance()
            return
        if kind == "roll":
            pending = self.pending
            assert pending is not None
            if self.options["dice"] == "press":
                self._host_roll(pending)
            elif pending["count_fails"]:
                self._resolve_roll(pending, fails=action["fails"])
            else:
                self._resolve_roll(pending, values=action["dice"])
        elif kind == "secret":
            self.secrets[seat] = {k: action[k] for k in ("primary", "stratagem", "team_size")}
            if seat == 1:
                self._start_round()
        elif kind == "command":
            self._choose_command(seat, action["die"])
        elif kind in ("activate", "pile_in"):
            self._activate(seat, action)
        elif kind == "failed":
            self._resolve_failure(action["choice"])
        elif kind == "impact":
            self.models[action["model"]]["impact"] += action["tokens"]
        elif kind == "secure":
            self.action_points[seat] -= 1
            self.secured[action["zone"]] = seat
            self._award(seat, "secure")
        elif kind == "break_through":
            self._leave(action["model"])
            self._count_breakthrough(seat)
        elif kind == "loot":
            self._leave(action["model"])
            self.loot_left -= 1
            self._award(seat, "loot")
        elif kind == "manoeuvre":
            self._manoeuvre(action)
        elif kind == "end_turn":
            self.group = None
            self.action_points[seat] = 0
            self.phase = MELEE
            self.melee_seat = self.active
        elif kind == "done":
            self.group = None
            if self.melee_seat == self.active:
                self.melee_seat = 1 - self.active
            else:
                self._start_impact()
        self._check_wipeout()
        self._advance()

    def _resolve_roll(self, pending: dict[str, Any], values: list[int] | None = None, fails: int = 0) -> None:
        self.pending = None
        kind, seat = pending["roll"], pending["seat"]
        if kind == "setup":
            assert values is not None
            self.setup_rolls[seat] = values[0]
            if seat == 0:
                self._request_roll("setup", 1, 1, 6)
            elif self.setup_rolls[0] == self.setup_rolls[1]:
                self.setup_rolls = [None, None]
                self._request_roll("setup", 0, 1, 6)
            else:
                self.placer = 0 if (self.setup_rolls[0] or 0) > (self.setup_rolls[1] or 0) else 1
                self._request_roll("secure_zones", self.placer, 2, 3)
        elif kind == "secure_zones":
            assert values is not None and self.placer is not None
            self.secure_zones = sum(values)
            self._request_roll("loot_tokens", self.placer, 2, 3)
        elif kind == "loot_tokens":
            assert values is not None and self.placer is not None
            self.loot_tokens = self.loot_left = sum(values)
            mode = self.options["deployment"]
            if mode == "roll_each":
                self._request_roll("deployment", 1 - self.placer, 1, 6)
            elif mode == "roll_shared":
                self._request_roll("deployment", self.placer, 1, 6)
            else:
                self.deployment = [int(mode), int(mode)]
                self.phase = SECRETS
        elif kind == "deployment":
            assert values is not None and self.placer is not None
            width = _width(values[0])
            if self.options["deployment"] == "roll_shared":
                self.deployment = [width, width]
            else:
                self.deployment[seat] = width
                if self.deployment[self.placer] is None:
                    self._request_roll("deployment", self.placer, 1, 6)
                    return
            self.phase = SECRETS
        elif kind == "command":
            assert values is not None
            self.command_dice[seat] = list(values)
            if seat == 0:
                self._request_roll("command", 1, 2, 6, round=self.round)
            elif sum(self.command_dice[0]) == sum(self.command_dice[1]):
                self.command_dice = [[], []]
                self._request_roll("command", 0, 2, 6, round=self.round)
            else:
                self.chooser = 0 if sum(self.command_dice[0]) < sum(self.command_dice[1]) else 1
        elif kind == "activation":
            assert values is not None and self.group is not None
            self.group["roll"] = values[0]
            self._judge(pending["model"])
        elif kind == "defense":
            if self._may_evade(pending, fails):
                self.evade_offer = {"model": pending["model"], "fails": fails}
                return
            self._defend(pending["model"], fails)
            self._next_defense()

    # -- rounds

    def _start_round(self) -> None:
        self.round += 1
        self.phase = COMMAND
        self.command_dice = [[], []]
        self.command_die = [None, None]
        self.manoeuvre_die = [None, None]
        self.manoeuvre_used = [None, None]
        self.chosen = [None, None]
        self._request_roll("command", 0, 2, 6, round=self.round)

    def _choose_command(self, seat: int, die: int) -> None:
        dice = list(self.command_dice[seat])
        dice.remove(die)
        self.command_die[seat] = die
        self.manoeuvre_die[seat] = dice[0]
        other = 1 - seat
        if self.command_die[other] is None:
            self.chooser = other
            return
        ap = [self.command_die[0] or 0, self.command_die[1] or 0]
        sums = [sum(self.command_dice[0]), sum(self.command_dice[1])]
        if ap[0] != ap[1]:
            self.first = 0 if ap[0] < ap[1] else 1
        else:
            self.first = 0 if sums[0] < sums[1] else 1
        self._start_turn(self.first)

    def _start_turn(self, seat: int) -> None:
        self.phase = ACTION
        self.active = seat
        self.action_points[seat] = self.command_die[seat] or 0
        self.group = None
        for model in self.models.values():
            model["activated"] = False

    def _start_impact(self) -> None:
        self.phase = IMPACT
        self.group = None
        order = [self.active, 1 - self.active]
        self.impact_queue = [
            mid for seat in order for mid in self.on_table(seat) if self.models[mid]["impact"] > 0
        ]
        self._next_defense()

    def _next_defense(self) -> None:
        if self.phase == OVER:
            return
        while self.impact_queue:
            mid = self.impact_queue.pop(0)
            model = self.models[mid]
            if model["status"] == ON_TABLE and model["impact"] > 0:
                self._request_roll("defense", model["owner"], model["impact"], 6, count_fails=True, model=mid)
                return
        self._end_turn()

    def _may_evade(self, pending: dict[str, Any], fails: int) -> bool:
        """Evade (5+) may reroll a defence roll that would cause damage, once per round per die."""
        if self.record_format < 2 or pending.get("evaded"):
            return False
        model = self.models[pending["model"]]
        owner = model["owner"]
        die = self.manoeuvre_die[owner] or 0
        return fails > model["size"] - 1 and self.manoeuvre_used[owner] is None and die >= 5

    def _perform_evade(self, action: Action) -> None:
        assert self.evade_offer is not None
        mid, fails = self.evade_offer["model"], self.evade_offer["fails"]
        self.evade_offer = None
        if action["type"] == "accept":
            self._defend(mid, fails)
            self._next_defense()
            return
        model = self.models[mid]
        self.manoeuvre_used[model["owner"]] = "Evade"
        # The new result has to be accepted: the reroll is not offered again.
        self._request_roll("defense", model["owner"], model["impact"], 6, count_fails=True, model=mid, evaded=True)

    def _defend(self, mid: str, fails: int) -> None:
        model = self.models[mid]
        model["impact"] = 0
        model["damage"] += max(0, fails - (model["size"] - 1))
        if model["damage"] >= 3:
            self._lose(mid, killed=True)

    def _end_turn(self) -> None:
        if self.phase == OVER:
            return
        assert self.first is not None
        if self.active == self.first:
            self._start_turn(1 - self.first)
            return
        limit = self.options["round_limit"]
        if self.total_objectives() >= self.options["objective_limit"]:
            self._finish(f"{self.total_objectives()} mission objectives accomplished by the end of round {self.round}")
        elif limit and self.round >= limit:
            self._finish(f"the round limit ({limit}) was reached")
        else:
            self._start_round()

    def _finish(self, reason: str) -> None:
        self.phase = OVER
        self.pending = None
        self.end_reason = reason

    # -- activations

    def _activate(self, seat: int, action: Action) -> None:
        mid = action["model"]
        if action["type"] == "pile_in":
            # Pile-in moves of group members are simple actions without an action point.
            if self.group is None or not self.group.get("pile_in"):
                self.group = {"roll": None, "pile_in": True}
            kind = "simple"
        else:
            kind = action["action"]
            if not action.get("group"):
                self.action_points[seat] -= 1
                self.group = {"roll": None}
        assert self.group is not None
        model = self.models[mid]
        model["activated"] = True
        model["action"] = kind
        if model["damage"] == 0:
            return
        if self.group["roll"] is None:
            self._request_roll("activation", seat, 1, 6, model=mid)
        else:
            self._judge(mid)

    def _judge(self, mid: str) -> None:
        model = self.models[mid]
        assert self.group is not None
        roll = self.group["roll"]
        if roll == 1 and self.chosen[model["owner"]] == mid:
            roll = 6  # The Chosen: this model's ones count as sixes
        needed_ok = roll >= model["damage"] if model.get("action") == "simple" else roll > model["damage"]
        if not needed_ok:
            self.failed = {"model": mid, "roll": roll}

    def _resolve_failure(self, choice: str) -> None:
        assert self.failed is not None
        mid = self.failed["model"]
        self.failed = None
        if choice == "pass":
            return
        if choice == "simple":
            self.models[mid]["action"] = "simple"  # the roll allows a simple action: no damage token
            return
        model = self.models[mid]
        model["damage"] += 1
        if model["damage"] >= 3:
            if not self.martyr_given:
                self.martyr_given = True
                self._award(model["owner"], "martyr")
            self._lose(mid, killed=False)

    # -- missions

    def _award(self, seat: int, mission: str) -> None:
        if self.phase == OVER:
            return
        self.objectives[seat][mission] += 1
        if not self.grand_slam_given:
            kinds = sum(1 for m, n in self.objectives[seat].items() if n and m != "grand slam")
            if kinds >= 4:
                self.grand_slam_given = True
                self.objectives[seat]["grand slam"] += 1

    def _count_breakthrough(self, seat: int) -> None:
        self.broken_through[seat] += 1
        secret = self.secrets[seat]
        if secret and self.broken_through[seat] % secret["team_size"] == 0:
            self._award(seat, "breakthrough")

    def _leave(self, mid: str) -> None:
        self.models[mid]["status"] = LEFT
        self.models[mid]["impact"] = 0

    def _lose(self, mid: str, killed: bool) -> None:
        model = self.models[mid]
        model["status"] = LOST
        model["impact"] = 0
        owner = model["owner"]
        enemy = 1 - owner
        self.losses[owner] += 1
        secret = self.secrets[owner]
        if secret and self.losses[owner] % secret["team_size"] == 0:
            self._award(enemy, "destruction")
        # "The model with the highest point value in the game": of both armies, so both players
        # can score it only when their most expensive models cost the same.
        most = max(m["points"] for m in self.models.values())
        if killed and model["points"] == most and not self.heavy_loss_given[enemy]:
            self.heavy_loss_given[enemy] = True
            self._award(enemy, "heavy loss")
        self._check_wipeout()

    def _check_wipeout(self) -> None:
        if self.phase in (OVER, SETUP, SECRETS):
            return
        left = [bool(self.on_table(seat)) for seat in (0, 1)]
        if all(left):
            return
        if any(left):
            survivor = left.index(True)
            self._award(survivor, "obliteration")
            self._finish(f"seat {1 - survivor} has no models left on the table")
        else:
            self._finish("no models are left on the table")

    def _manoeuvre(self, action: Action) -> None:
        player, name = action["player"], action["name"]
        self.manoeuvre_used[player] = name
        if name == "Inspired":
            assert self.failed is not None and self.group is not None
            mid = self.failed["model"]
            self.failed = None
            self.group["roll"] = None
            self._request_roll("activation", self.models[mid]["owner"], 1, 6, model=mid, inspired=True)
        elif name == "Cure":
            self.models[action["model"]]["damage"] -= 1
        elif name == "Disappear":
            self._leave(action["model"])
            self._count_breakthrough(player)
        elif name == "The Chosen":
            self.chosen[player] = action["model"]

    # ------------------------------------------------------------------ views

    def state(self) -> dict[str, Any]:
        return {
            "game": self.name,
            "phase": self.phase,
            "round": self.round,
            "turn": self.current_seat(),
            "active": self.active if self.phase in (ACTION, MELEE, IMPACT) else None,
            "first_player": self.first,
            "pending_roll": dict(self.pending) if self.pending else None,
            "failed_activation": dict(self.failed) if self.failed else None,
            "evade_offer": dict(self.evade_offer) if self.evade_offer else None,
            "setup": {
                "rolls": list(self.setup_rolls), "placer": self.placer, "secure_zones": self.secure_zones,
                "loot_tokens": self.loot_tokens, "deployment_cm": list(self.deployment),
            },
            "command": {
                "dice": [list(d) for d in self.command_dice],
                "command_die": list(self.command_die),
                "manoeuvre_die": list(self.manoeuvre_die),
                "manoeuvre_used": list(self.manoeuvre_used),
                "action_points": list(self.action_points),
            },
            "armies": [a["name"] for a in self.armies],
            "models": {mid: {k: v for k, v in m.items()} for mid, m in self.models.items()},
            "secrets": [dict(s) if s else None for s in self.secrets],
            "team_size": [s["team_size"] if s else None for s in self.secrets],
            "objectives": [dict(o) for o in self.objectives],
            "objective_total": self.total_objectives(),
            "secured": {str(z): s for z, s in sorted(self.secured.items())},
            "loot_left": self.loot_left,
            "broken_through": list(self.broken_through),
            "losses": list(self.losses),
            "victory_points": self.victory_points() if self.phase == OVER else None,
            "scores": self.scores(),
            "winners": self.winners(),
            "end_reason": self.end_reason,
        }

    def view(self, seat: int) -> dict[str, Any]:
        self._check_seat(seat)
        state = self.state()
        if self.phase != OVER:
            other = 1 - seat
            if state["secrets"][other] is not None:
                state["secrets"][other] = {"team_size": state["secrets"][other]["team_size"]}
        return state

    def view_log(self, seat: int) -> list[LogEntry]:
        self._check_seat(seat)
        if self.phase == OVER:
            return list(self.log)
        hidden = []
        for entry in self.log:
            action = entry.get("action")
            if action and action.get("type") == "secret" and entry.get("seat") != seat:
                entry = {**entry, "action": {"type": "secret", "team_size": action["team_size"]}}
            hidden.append(entry)
        return hidden

    @classmethod
    def bot_names(cls) -> list[str]:
        return [*super().bot_names(), "tactician"]

    @classmethod
    def make_bot(cls, name: str, seed: int = 0) -> Any:
        if name == "tactician":
            from tablelight.games.farside.bots import TacticianBot

            return TacticianBot(seed)
        return super().make_bot(name, seed)

    def describe(self, color: bool = False) -> str:
        lines = [f"farside: round {self.round}, {self.phase} phase"
                 + (f", seat {self.current_seat()} to act" if self.current_seat() is not None else f" ({self.end_reason})")]
        if self.pending:
            lines.append(f"  waiting for seat {self.pending['seat']}'s {self.pending['roll']} roll ({self.pending['dice']} dice)")
        for seat in (0, 1):
            ap = self.action_points[seat]
            if self.command_die[seat]:
                dice = f"command die {self.command_die[seat]}, manoeuvre die {self.manoeuvre_die[seat]}"
            elif self.command_dice[seat]:
                dice = f"rolled {self.command_dice[seat]} (sum {sum(self.command_dice[seat])})"
            else:
                dice = "no command dice yet"
            objectives = ", ".join(f"{m} {n}" for m, n in self.objectives[seat].items() if n) or "none"
            lines.append(f"  seat {seat} ({self.armies[seat]['name']}): {dice}, {ap} action points; objectives: {objectives}")
            for mid in self.on_table(seat):
                m = self.models[mid]
                marks = f" damage {m['damage']}" * bool(m["damage"]) + f" impact {m['impact']}" * bool(m["impact"])
                lines.append(f"    {mid} {m['name']}{marks}{' (activated)' if m['activated'] else ''}")
        lines.append(f"  objectives {self.total_objectives()}/{self.options['objective_limit']}, loot left {self.loot_left}")
        return "\n".join(lines)
