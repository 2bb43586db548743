"""Farside's state: the named fields (armies, models, phases, dice, missions) and the scores read from them.

The engine is a chain of classes, one module each (state, models, rounds, applying, checking,
views, engine); each adds one job to the one before.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from tablelight.core.errors import MalformedActionError, RuleViolationError, SetupError
from tablelight.core.fields import is_whole, is_whole_in
from tablelight.core.game import Action, Game
from tablelight.games.farside.tables import MISSIONS, tables


SETUP, SECRETS, COMMAND, ACTION, MELEE, IMPACT, OVER = "setup", "secrets", "command", "action", "melee", "impact", "over"
ON_TABLE, LOST, LEFT = "table", "lost", "left"
MAX_IMPACT_PER_ACTION = 20
#: Manoeuvres with an effect the tracker applies; the others are recorded only.
MANOEUVRE_TARGETS = {"Cure": "damaged", "Disappear": "own", "The Chosen": "own"}
PLAYER_MISSIONS = ("loot", "breakthrough", "secure")
#: A model's optional lists in the setup armies: weapon names and special rules.
PROFILE_LISTS = ("melee", "shooting", "rules")


def default_armies(points_level: int | None = None) -> list[dict[str, Any]]:
    """Two equal demo armies for games started without rosters (selfplay, rules serve, the lab):
    as many copies of the demo force (310 points) as fit into ``points_level``, at least one."""
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
    copies = max(1, (points_level or 0) // cost_army(roster).total)
    for entry in roster.models:
        entry.count *= copies
    army = army_from_report(cost_army(roster))
    return [army, {**army, "models": [dict(m) for m in army["models"]]}]


def army_points(army: Mapping[str, Any]) -> int:
    return sum(int(model["points"]) for model in army["models"])


def army_from_report(report: Any) -> dict[str, Any]:
    """The tracker's view of a costed roster: one entry per model (counts expanded)."""
    models = []
    for entry, cost in zip(report.roster.models, report.models):
        for number in range(entry.count):
            name = entry.name if entry.count == 1 else f"{entry.name} {number + 1}"
            model: dict[str, Any] = {
                "name": name, "points": cost.each, "size": entry.size, "defense": entry.defense, "attack": entry.attack,
            }
            lists = {"melee": [w.name for w in entry.melee], "shooting": [w.name for w in entry.shooting],
                     "rules": list(entry.special_rules)}
            model.update({key: names for key, names in lists.items() if names})
            models.append(model)
    return {"name": report.roster.name, "models": models}


def _checked_armies(armies: Any) -> list[dict[str, Any]]:
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
            if not is_whole(points) or points < 0:
                raise SetupError(f"{where} needs points (a whole number)")
            if size not in (1, 2, 3):
                raise SetupError(f"{where}: size must be 1, 2 or 3")
            if defense not in (2, 3, 4, 5, 6):
                raise SetupError(f"{where}: defense must be 2..6 (for 2+..6+)")
            entry = {"name": name, "points": points, "size": size, "defense": defense}
            # The rest of the profile, when the army gives it: the attack value, the weapons (names of
            # the rulebook's tables) and the special rules (Regeneration...).
            if "attack" in model:
                if model["attack"] not in (2, 3, 4, 5, 6):
                    raise SetupError(f"{where}: attack must be 2..6 (for 2+..6+)")
                entry["attack"] = model["attack"]
            for key in PROFILE_LISTS:
                if key in model:
                    names = model[key]
                    if not isinstance(names, list) or not all(isinstance(n, str) and n for n in names):
                        raise SetupError(f"{where}: {key} must be a list of names")
                    entry[key] = list(names)
            models.append(entry)
        checked.append({"name": str(army.get("name", f"Army {seat + 1}")), "models": models})
    return checked


def deployment_width(face: int) -> int:
    """The deployment zone width in cm for a rolled D6 face (rulebook table)."""
    for row in tables()["deployment_width"]:
        if face in row["d6"]:
            return int(row["width_cm"])
    raise ValueError(face)



class FarsideState(Game):
    """The named fields of a Farside Encounter game (two seats; models by id "a1", "b2"...).
    Faces and the console read these fields; only the engine writes them.

    Armies: ``armies`` (the checked setup armies), ``models[id]`` (name, points, size, defense,
    and, when the army gives them, ``attack``, ``melee`` and ``shooting`` (weapon names) and ``rules``
    (special rules); ``owner``, ``damage`` and ``impact`` tokens, ``status`` ON_TABLE / LOST / LEFT, ``activated``).
    Setup: ``setup_rolls``, ``placer`` (the seat that places terrain), ``secure_zones``,
    ``loot_tokens``, ``loot_left``, ``deployment`` (zone width in cm per seat), ``secrets`` (primary
    objective, stratagem, team size per seat; hidden from the other seat until the end).
    Round: ``phase``, ``round``, ``command_dice`` (each seat's 2D6), ``chooser`` (chooses its command
    die first), ``command_die`` (= action points), ``manoeuvre_die``, ``manoeuvre_used``,
    ``action_points`` (left this turn), ``first`` (seat that acts first), ``active`` (seat whose turn
    it is), ``melee_seat`` (seat to record impacts in the melee phase), ``group`` (the activation in
    progress), ``failed`` (a failed activation awaiting its choice), ``evade_offer``, ``chosen``
    (each seat's The Chosen model), ``chosen_open`` (the start of the round, when The Chosen is
    named: after the command dice, before the first action), ``dead_zone_rolled`` (models that rolled
    for a dead zone this turn), ``pending`` (the roll the game waits for: kind, seat, dice),
    ``impact_queue`` (models still to roll defence).
    Missions: ``objectives[seat][mission]`` (accomplished counts), ``secured`` (zone -> seat),
    ``broken_through``, ``losses``, ``heavy_loss_given``, ``grand_slam_given``, ``martyr_given``,
    ``end_reason`` (why the game ended), ``end_announced`` (the seat that announced the end, with
    option ``game_end = announced``). ``fired``: how often each rule fired, counted where it
    fires (``"manoeuvre:The Chosen"``, ``"activation:roll_failed"``...), read by the lab's coverage.
    """

    def _setup(self, setup: Mapping[str, Any] | None) -> None:
        if self.options["objective_limit"] < 1 or self.options["round_limit"] < 0:
            raise SetupError("objective_limit must be at least 1 and round_limit 0 or more")
        level = self.options["points_level"]
        if level < 1:
            raise SetupError(f"points_level must be at least 1, got {level}")
        self.armies = _checked_armies(setup["armies"]) if setup and "armies" in setup else default_armies(level)
        if self.options["points_check"] == "cap" and self.record_format >= 3:
            for seat, army in enumerate(self.armies):
                if army_points(army) > level:
                    raise SetupError(
                        f"army {seat} ({army['name']}) costs {army_points(army)} points, over the {level}-point level "
                        "(option points_check=record accepts it)"
                    )
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
        self.chosen_open = False
        self.dead_zone_rolled: list[str] = []
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
        self.end_announced: int | None = None  # the seat that announced the end (option game_end = announced)
        self.fired: Counter[str] = Counter()
        self._request_roll("setup", 0, 1, 6)  # the setup roll-off; FarsideApplying makes host rolls

    def setup_record(self) -> dict[str, Any]:
        return {"armies": self.armies}

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
        if not is_whole_in(value, low, high):
            raise MalformedActionError(f"farside.{name}.range", f"{name} must be a whole number {low}..{high}, got {value!r}")
        return value

    def settles_impacts(self) -> bool:
        """Whether a wipe-out in the impact phase waits for both sides' defence rolls (format 4 on)."""
        return self.record_format >= 4 and self.options["wipe_out"] == "after_impact"

    def takeover_moves_point(self) -> bool:
        """Whether taking over a secured zone moves its point from the old holder (record format 5 on,
        option secure_takeover = moves), rather than adding one while the old holder keeps its own."""
        return self.record_format >= 5 and self.options["secure_takeover"] == "moves"

    def counts_as(self, mid: str, face: int) -> int:
        """A die ``face`` rolled for model ``mid``: The Chosen's ones count as sixes on every roll of the
        model (record format 4 on; before, only its activation rolls counted, see ``_judge``)."""
        if face == 1 and self.record_format >= 4 and self.chosen[self.models[mid]["owner"]] == mid:
            return 6
        return face

    def defense_fails(self, mid: str, faces: list[int]) -> int:
        """The failed dice of model ``mid``'s defence roll ``faces``."""
        defense = self.models[mid]["defense"]
        return sum(1 for face in faces if self.counts_as(mid, face) < defense)

    def _request_roll(self, kind: str, seat: int, dice: int, sides: int, count_fails: bool = False, **context: Any) -> None:
        self.pending = {"roll": kind, "seat": seat, "dice": dice, "sides": sides, "count_fails": count_fails, **context}

    def _fire(self, rule: str) -> None:
        """Count one firing of ``rule`` (``category:name``) for the lab's rule coverage."""
        self.fired[rule] += 1

    def _finish(self, reason: str, kind: str) -> None:
        self._fire(f"end:{kind}")
        self.phase = OVER
        self.pending = None
        self.end_reason = reason
