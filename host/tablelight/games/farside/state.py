"""The Farside position: plain data, every field listed once (``FarsideState.__slots__``) with what it
holds. The rule modules read and change these fields; nothing else adds one (slots refuse it).

Seats are 0 (red, models "a1", "a2"...) and 1 (blue, "b1"...). Besides the fields, this module keeps
the phase and status names and the few reads every rule needs: who acts, the models on the table,
the roll the game waits for, the count of rules fired.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any, Protocol

from tablelight.games.farside.tables import MISSIONS

SETUP, SECRETS, COMMAND, ACTION, MELEE, IMPACT, OVER = "setup", "secrets", "command", "action", "melee", "impact", "over"
ON_TABLE, LOST, LEFT = "table", "lost", "left"
MAX_IMPACT_PER_ACTION = 20
#: Manoeuvres with an effect the tracker applies; the others are recorded only.
MANOEUVRE_TARGETS = {"Cure": "damaged", "Disappear": "own", "The Chosen": "own"}
PLAYER_MISSIONS = ("loot", "breakthrough", "secure")
#: A model's optional lists in the setup armies: weapon names and special rules.
PROFILE_LISTS = ("melee", "shooting", "rules")


class Chance(Protocol):
    """The door the rule functions roll dice through: the engine's logged draws (``Game._chance_die``),
    so that every roll is in the log and a replay gives it back."""

    def draw_die(self, kind: str, sides: int = 6, **context: Any) -> int: ...


class FarsideState:
    """Everything a Farside Encounter game is at one moment (the engine holds one: ``game.pos``)."""

    __slots__ = (
        # The game's frame
        "record_format",  # the record format the game plays under (older ones keep their readings)
        "options",  # the resolved options (dict)
        # Armies
        "armies",  # the checked setup armies: [{"name", "models": [profile...]}] per seat (the record's setup)
        "models",  # model id -> {name, points, size, defense, [attack, melee, shooting, rules], owner,
        #            damage, impact, status (ON_TABLE, LOST, LEFT), activated, [action: what it did this turn]}
        # Setup
        "setup_rolls",  # per seat: its roll-off die, or None (the higher places the terrain)
        "placer",  # the seat that places terrain zones and loot tokens, or None before the roll-off
        "secure_zones",  # terrain zones to secure (2D3)
        "loot_tokens",  # loot tokens placed (2D3)
        "loot_left",  # loot tokens still on the table
        "deployment",  # per seat: deployment zone width in cm, or None before it is rolled
        "secrets",  # per seat: {"primary", "stratagem", "team_size"} or None (hidden from the other seat)
        # The round
        "phase",  # SETUP, SECRETS, COMMAND, ACTION, MELEE, IMPACT or OVER
        "round",  # the round number (0 before the first)
        "command_dice",  # per seat: its two command dice rolled this round ([] before)
        "chooser",  # the seat that chooses its command die now (the lower sum first)
        "command_die",  # per seat: the die taken as command die (= action points), or None
        "manoeuvre_die",  # per seat: the other die, or None
        "manoeuvre_used",  # per seat: the manoeuvre played with it this round, or None
        "action_points",  # per seat: action points left this turn
        "first",  # the seat that acts first this round, or None before the first command phase
        "active",  # the seat whose turn it is
        "melee_seat",  # the seat that records impacts in the melee phase
        "group",  # the activation in progress: {"roll": face or None, ["pile_in": True]}, or None
        "failed",  # a failed activation awaiting its choice: {"model", "roll"}, or None
        "evade_offer",  # a defence roll its owner may Evade: {"model", "fails"}, or None
        "chosen",  # per seat: its The Chosen model this round, or None
        "chosen_open",  # the start of the round: The Chosen may be named (after the command dice, before any action)
        "dead_zone_rolled",  # models that rolled for a dead zone this turn
        "pending",  # the roll the game waits for: {"roll": kind, "seat", "dice", "sides", "count_fails", ...context}, or None
        "impact_queue",  # models still to roll defence in this impact phase, in order
        # Missions
        "objectives",  # per seat: mission -> accomplished count
        "secured",  # zone -> the seat holding it
        "broken_through",  # per seat: models that broke through (a team of them scores)
        "losses",  # per seat: models lost (a team of them scores destruction for the enemy)
        "heavy_loss_given",  # per seat: it scored heavy loss (once each)
        "grand_slam_given",  # grand slam was scored (once a game)
        "martyr_given",  # martyr was scored (once a game)
        "end_reason",  # why the game ended ("" until it does)
        "end_announced",  # the seat that announced the end (option game_end = announced), or None
        "fired",  # Counter: how often each rule fired ("manoeuvre:The Chosen"...), read by the lab's coverage
    )

    def __init__(self, record_format: int, options: Mapping[str, Any], armies: list[dict[str, Any]]) -> None:
        """The position before the setup roll-off: every model on the table, nothing rolled."""
        self.record_format = record_format
        self.options = options
        self.armies = armies
        self.models: dict[str, dict[str, Any]] = {}
        for seat, army in enumerate(armies):
            for index, model in enumerate(army["models"], 1):
                self.models[f"{'ab'[seat]}{index}"] = {
                    **model, "owner": seat, "damage": 0, "impact": 0, "status": ON_TABLE, "activated": False,
                }
        self.setup_rolls: list[int | None] = [None, None]
        self.placer: int | None = None
        self.secure_zones = 0
        self.loot_tokens = 0
        self.loot_left = 0
        self.deployment: list[int | None] = [None, None]
        self.secrets: list[dict[str, Any] | None] = [None, None]
        self.phase = SETUP
        self.round = 0
        self.command_dice: list[list[int]] = [[], []]
        self.chooser = 0
        self.command_die: list[int | None] = [None, None]
        self.manoeuvre_die: list[int | None] = [None, None]
        self.manoeuvre_used: list[str | None] = [None, None]
        self.action_points = [0, 0]
        self.first: int | None = None
        self.active = 0
        self.melee_seat = 0
        self.group: dict[str, Any] | None = None
        self.failed: dict[str, Any] | None = None
        self.evade_offer: dict[str, Any] | None = None
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
        self.end_announced: int | None = None
        self.fired: Counter[str] = Counter()


def current_seat(p: FarsideState) -> int | None:
    """The seat to act: the owner of a roll it may Evade, the seat a roll waits for, else the phase's."""
    if p.phase == OVER:
        return None
    if p.evade_offer is not None:
        return int(p.models[p.evade_offer["model"]]["owner"])
    if p.pending is not None:
        return int(p.pending["seat"])
    if p.phase == SECRETS:
        return 0 if p.secrets[0] is None else 1
    if p.phase == COMMAND:
        return p.chooser
    if p.phase == MELEE:
        return p.melee_seat
    return p.active


def on_table(p: FarsideState, seat: int) -> list[str]:
    """``seat``'s models still on the table, in army order."""
    return [mid for mid, m in p.models.items() if m["owner"] == seat and m["status"] == ON_TABLE]


def request_roll(p: FarsideState, kind: str, seat: int, dice: int, sides: int, count_fails: bool = False, **context: Any) -> None:
    """The game waits for ``seat``'s roll of ``dice`` dice (the host makes it with dice = host)."""
    p.pending = {"roll": kind, "seat": seat, "dice": dice, "sides": sides, "count_fails": count_fails, **context}


def fire(p: FarsideState, rule: str) -> None:
    """Count one firing of ``rule`` (``category:name``) for the lab's rule coverage."""
    p.fired[rule] += 1
