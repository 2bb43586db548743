"""Farside Encounter at a lit console: the tracker's dice, action points, turn and objectives.

Farside is played with miniatures on an open table, so its lit board is a console beside
the table (``hardware/layouts/farside.json``, section ``farside``). What it shows:

* per seat (0 red, 1 blue): the command die and the manoeuvre die as pips in the seat's
  colour (before the choice, the two rolled dice; they pulse for the seat that chooses;
  a used manoeuvre die goes dim), the action points left (lit; spent ones glow dimly)
  and a turn LED (pulses for the seat to act; solid for the active player while the
  other seat rolls; the winners' blink at the end);
* the objective track: one LED per accomplished mission objective up to 10, red
  objectives from the left, then blue; the LED of the objective limit glows dimly until
  it is reached; once reached (the last round) the track pulses;
* the phase LED; the last roll on two dice (in the roller's colour; a defence roll shows
  the number of failed dice in amber, up to 6 per die); entered physical dice blink there;
* lit keys: a key glows when pressing it can do something now; the open menu's key and a
  roll that waits for a press pulse in the colour of the seat to act.

Keys (every choice is one of the engine's legal actions, checked again by ``Game.apply``):

* ``roll``: the pending roll (``dice = press``: the host rolls; ``dice = table``: enter the
  dice set on the last-roll dice, or open the count of failed defence dice);
* ``spend``: spend an action point (activate a model, secure a zone): opens a menu;
* ``advance``: end the turn (action phase; with points left, press twice) or end the
  melee phase (``done``);
* ``impact``, ``leave`` (break through, loot), ``group`` (join the open activation, pile
  in): open menus; a seat's manoeuvre die opens that seat's manoeuvres; in the command
  phase a seat's two dice choose the command die;
* in a menu, ``next``/``prev`` change the field being chosen (model, tokens, ...),
  ``field`` moves to the next field, ``confirm`` applies, ``cancel`` closes;
  ``next``/``prev`` with no menu open list every legal action (secrets, failed
  activations, anything without a key of its own);
* the last-roll dice (``dice = table``): each press counts the die up (1..6, or 1..3).

A refused press changes nothing: the key flashes and the message says why (the engine's
own reason where it has one).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any

from tablelight.core.errors import IllegalActionError
from tablelight.core.game import Action, LogEntry
from tablelight.games.farside.engine import FarsideEncounter
from tablelight.table.face import BLINK, OFF, PULSE, SOLID, Outcome, Pixel, scaled
from tablelight.table.layout import LayoutError

#: Seat colours, as on the Farlander board: red, blue.
SEAT_COLORS: tuple[tuple[int, int, int], ...] = ((255, 0, 0), (0, 60, 255))
SEAT_NAMES = ("red", "blue")
WHITE = (255, 255, 255)
AMBER = (255, 140, 0)
PHASE_COLOR = (160, 160, 160)
#: Pip LED order of a die: top-left, top-right, middle-left, centre, middle-right, bottom-left, bottom-right.
PIP_PATTERNS: dict[int, tuple[int, ...]] = {
    0: (),
    1: (3,),
    2: (0, 6),
    3: (0, 3, 6),
    4: (0, 1, 5, 6),
    5: (0, 1, 3, 5, 6),
    6: (0, 1, 2, 4, 5, 6),
}
PHASES = ("setup", "secrets", "command", "action", "melee", "impact")
BUTTONS = ("roll", "spend", "advance", "impact", "leave", "group", "prev", "next", "field", "confirm", "cancel")
TRACK_LEDS = 10
AP_LEDS = 6
#: Order in which action fields are chosen in a menu (fields an action lacks are skipped).
FIELD_ORDER = (
    "type", "player", "name", "model", "zone", "action", "choice", "tokens", "group",
    "primary", "stratagem", "team_size", "die", "dice", "fails",
)
MENU_TITLES = {
    "spend": "spend an action point",
    "impact": "record impact tokens",
    "leave": "a model leaves the table",
    "group": "join the activation / pile in",
    "manoeuvre0": "red's manoeuvre",
    "manoeuvre1": "blue's manoeuvre",
    "roll": "the number of failed defence dice",
    "all": "every legal action",
}


class FarsideLayoutError(LayoutError):
    """The layout's ``farside`` section is missing or inconsistent."""


@dataclass(frozen=True)
class DiceRoll:
    """A roll for the board to animate locally (``BoardSession.dice(leds, values, color=...)``).

    ``leds`` are ordered die by die so that the first ``value`` LEDs of each die's group
    are that value's pips: the board's roll lands on a proper die face.
    """

    leds: list[int]
    values: list[int]
    color: tuple[int, int, int]



def _ints(value: Any, count: int | None, leds: int, what: str) -> list[int]:
    if not isinstance(value, list) or (count is not None and len(value) != count):
        raise FarsideLayoutError(f"farside layout: {what} must list {count} LED/key numbers")
    for item in value:
        if not isinstance(item, int) or isinstance(item, bool) or not 0 <= item < leds:
            raise FarsideLayoutError(f"farside layout: {what}: {item!r} is not a number 0-{leds - 1}")
    return list(value)


class FarsideLayout:
    """The ``farside`` section of a layout, checked: which LED and key does what."""

    def __init__(self, data: dict[str, Any]) -> None:
        section = data.get("farside")
        if not isinstance(section, dict):
            raise FarsideLayoutError("farside layout: missing section 'farside' (see hardware/layouts/farside.json)")
        leds, keys = data.get("leds"), data.get("keys")
        if not isinstance(leds, int) or not isinstance(keys, int):
            raise FarsideLayoutError("farside layout: leds and keys must be numbers")
        self.leds = leds
        seats = section.get("seats")
        if not isinstance(seats, list) or len(seats) != 2 or not all(isinstance(s, dict) for s in seats):
            raise FarsideLayoutError("farside layout: seats must list two objects (red, blue)")
        self.command_die = [_ints(s.get("command_die"), 7, leds, f"seat {n} command_die") for n, s in enumerate(seats)]
        self.manoeuvre_die = [_ints(s.get("manoeuvre_die"), 7, leds, f"seat {n} manoeuvre_die") for n, s in enumerate(seats)]
        self.action_points = [_ints(s.get("action_points"), AP_LEDS, leds, f"seat {n} action_points") for n, s in enumerate(seats)]
        self.turn = [_ints([s.get("turn")], 1, leds, f"seat {n} turn")[0] for n, s in enumerate(seats)]
        self.command_key = [_ints([s.get("command_key")], 1, keys, f"seat {n} command_key")[0] for n, s in enumerate(seats)]
        self.manoeuvre_key = [_ints([s.get("manoeuvre_key")], 1, keys, f"seat {n} manoeuvre_key")[0] for n, s in enumerate(seats)]
        self.track = _ints(section.get("objective_track"), TRACK_LEDS, leds, "objective_track")
        phases = section.get("phases")
        if not isinstance(phases, dict) or sorted(phases) != sorted(PHASES):
            raise FarsideLayoutError(f"farside layout: phases must map {', '.join(PHASES)} to LEDs")
        self.phases = {name: _ints([led], 1, leds, f"phase {name}")[0] for name, led in phases.items()}
        last = section.get("last_roll")
        if not isinstance(last, list) or len(last) != 2:
            raise FarsideLayoutError("farside layout: last_roll must list two dice of 7 pip LEDs")
        self.last_roll = [_ints(die, 7, leds, f"last_roll die {n}") for n, die in enumerate(last)]
        self.last_roll_keys = _ints(section.get("last_roll_keys"), 2, keys, "last_roll_keys")
        buttons = section.get("buttons")
        if not isinstance(buttons, dict) or sorted(buttons) != sorted(BUTTONS):
            raise FarsideLayoutError(f"farside layout: buttons must name {', '.join(BUTTONS)}")
        self.button_key: dict[str, int] = {}
        self.button_led: dict[str, int] = {}
        for name, item in buttons.items():
            if not isinstance(item, dict):
                raise FarsideLayoutError(f"farside layout: button {name} must be an object with key and led")
            self.button_key[name] = _ints([item.get("key")], 1, keys, f"button {name} key")[0]
            self.button_led[name] = _ints([item.get("led")], 1, leds, f"button {name} led")[0]
        all_leds = [led for group in self.command_die + self.manoeuvre_die + self.action_points + self.last_roll for led in group]
        all_leds += self.turn + self.track + list(self.phases.values()) + list(self.button_led.values())
        if len(set(all_leds)) != len(all_leds):
            raise FarsideLayoutError("farside layout: an LED is given two roles")
        all_keys = self.command_key + self.manoeuvre_key + self.last_roll_keys + list(self.button_key.values())
        if len(set(all_keys)) != len(all_keys):
            raise FarsideLayoutError("farside layout: a key is given two roles")
        #: key -> what it is: ("button", name), ("command", seat), ("manoeuvre", seat), ("last", die)
        self.key_role: dict[int, tuple[str, Any]] = {}
        for name, key in self.button_key.items():
            self.key_role[key] = ("button", name)
        for seat in (0, 1):
            self.key_role[self.command_key[seat]] = ("command", seat)
            self.key_role[self.manoeuvre_key[seat]] = ("manoeuvre", seat)
        for die, key in enumerate(self.last_roll_keys):
            self.key_role[key] = ("last", die)

    def flash_leds(self, thing: str) -> list[int]:
        """The LEDs of a flash target: a button name, ``command0``, ``manoeuvre1``, ``ap0``, ``last``, ``track``."""
        if thing in self.button_led:
            return [self.button_led[thing]]
        for prefix, groups in (("command", self.command_die), ("manoeuvre", self.manoeuvre_die), ("ap", self.action_points)):
            if thing.startswith(prefix) and thing[len(prefix):] in ("0", "1"):
                return list(groups[int(thing[len(prefix):])])
        if thing == "last":
            return self.last_roll[0] + self.last_roll[1]
        if thing == "track":
            return list(self.track)
        return []


def _order(value: Any, models: dict[str, int]) -> tuple[Any, ...]:
    """A sort key over mixed field values (model ids in army order, numbers before text)."""
    if value is None:
        return (0,)
    if isinstance(value, str) and value in models:
        return (1, models[value])
    if isinstance(value, (bool, int)):
        return (2, int(value))
    if isinstance(value, str):
        return (3, value)
    if isinstance(value, list):
        return (4, tuple(value))
    return (5, str(value))


class FarsideFace:
    """Look and input of Farside Encounter at the lit console (see the module docstring)."""

    default_layout = "farside"
    seat_names = SEAT_NAMES

    def __init__(self, game: FarsideEncounter, layout_data: dict[str, Any]) -> None:
        self.game = game
        self.layout = FarsideLayout(layout_data)
        self._model_rank = {mid: rank for rank, mid in enumerate(game.models)}
        self.menu: str | None = None
        self.choices: list[Action] = []
        self.index = 0
        self.focus = 0
        #: Physical dice being entered on the last-roll dice (dice = table).
        self.entry: list[int] = []
        #: True after a first press of advance that would lose action points.
        self.advance_armed = False

    # ------------------------------------------------------------------ input

    def reset(self) -> None:
        self.menu = None
        self.choices = []
        self.index = 0
        self.focus = 0
        self.entry = []
        self.advance_armed = False

    def press(self, key: int) -> Outcome:
        game = self.game
        seat = game.current_seat()
        if seat is None:
            return Outcome("the game is over", refused=True)
        role = self.layout.key_role.get(key)
        if role is None:
            return Outcome(f"key {key} does nothing on the farside console", refused=True)
        kind, which = role
        if not (kind == "button" and which == "advance"):
            self.advance_armed = False
        if kind == "command":
            return self._press_command_die(seat, which)
        if kind == "manoeuvre":
            return self._press_manoeuvre_die(seat, which)
        if kind == "last":
            return self._press_last_die(which)
        handler: Callable[[int], Outcome] = getattr(self, f"_press_{which}")
        return handler(seat)

    # -- the dice

    def _press_command_die(self, seat: int, die_seat: int) -> Outcome:
        game = self.game
        flash = [f"command{die_seat}"]
        if game.phase != "command" or game.pending is not None:
            if game.command_die[die_seat] is not None:
                return Outcome(
                    f"{SEAT_NAMES[die_seat]}'s command die is {game.command_die[die_seat]} "
                    f"({game.action_points[die_seat]} action point{'s' * (game.action_points[die_seat] != 1)} left); "
                    "it is chosen in the command phase",
                    refused=True, flash=flash,
                )
            return Outcome(self._reason({"type": "command", "die": 1}, "the command die is chosen in the command phase"),
                           refused=True, flash=flash)
        return self._choose_command(seat, die_seat, 0)

    def _choose_command(self, seat: int, die_seat: int, position: int) -> Outcome:
        game = self.game
        face = "command" if position == 0 else "manoeuvre"
        if die_seat != seat:
            return Outcome(f"{SEAT_NAMES[seat]} chooses a command die now, not {SEAT_NAMES[die_seat]}",
                           refused=True, flash=[f"{face}{die_seat}"])
        dice = game.command_dice[seat]
        action: Action = {"type": "command", "die": dice[position]}
        if not game.is_legal(action):
            return Outcome(self._reason(action), refused=True, flash=[f"{face}{die_seat}"])
        other = dice[1 - position]
        points = f"{dice[position]} action point{'s' * (dice[position] != 1)}"
        return Outcome(f"command die {dice[position]} ({points}), manoeuvre die {other}", action=action)

    def _press_manoeuvre_die(self, seat: int, die_seat: int) -> Outcome:
        game = self.game
        if game.phase == "command" and game.pending is None:
            return self._choose_command(seat, die_seat, 1)
        actions = [a for a in game.legal_actions() if a["type"] == "manoeuvre" and a["player"] == die_seat]
        if not actions:
            die = game.manoeuvre_die[die_seat]
            used = game.manoeuvre_used[die_seat]
            if used:
                why = f"{SEAT_NAMES[die_seat]} already used the manoeuvre die this round ({used})"
            elif die is None:
                why = f"{SEAT_NAMES[die_seat]} has no manoeuvre die yet"
            else:
                why = self._reason({"type": "manoeuvre", "player": die_seat, "name": "Sniper"},
                                   f"no manoeuvre of {SEAT_NAMES[die_seat]} is possible now")
            return Outcome(why, refused=True, flash=[f"manoeuvre{die_seat}"])
        return self._open(f"manoeuvre{die_seat}", actions)

    def _press_last_die(self, die: int) -> Outcome:
        pending = self.game.pending
        flash = ["last"]
        if self.game.options["dice"] != "table" or pending is None or pending["count_fails"]:
            why = "the last-roll dice take input only while physical dice are entered (dice = table)"
            if pending is not None and pending["count_fails"]:
                why = "a defence roll is entered as the number of failed dice: press roll"
            return Outcome(why, refused=True, flash=flash)
        if die >= pending["dice"]:
            return Outcome(f"this roll has {pending['dice']} die: set the first one", refused=True, flash=flash)
        if len(self.entry) != pending["dice"]:
            self.entry = [0] * pending["dice"]
        self.entry[die] = self.entry[die] % pending["sides"] + 1
        shown = ", ".join(str(v) if v else "-" for v in self.entry)
        return Outcome(f"entering the {pending['roll']} roll: {shown}; press roll (or confirm) when it matches your dice")

    # -- the buttons

    def _press_roll(self, seat: int) -> Outcome:
        game = self.game
        pending = game.pending
        if pending is None or game.options["dice"] == "host":
            return Outcome(self._reason({"type": "roll"}, "no roll is expected now"), refused=True, flash=["roll"])
        if game.options["dice"] == "press":
            return self._checked({"type": "roll"}, f"{SEAT_NAMES[seat]} rolls", ["roll"])
        if pending["count_fails"]:
            return self._open("roll", [a for a in game.legal_actions() if a["type"] == "roll"])
        return self._enter_dice()

    def _enter_dice(self) -> Outcome:
        pending = self.game.pending
        assert pending is not None
        if len(self.entry) != pending["dice"] or 0 in self.entry:
            return Outcome(
                f"set the {pending['dice']} dice you rolled on the last-roll dice first (each press counts one up)",
                refused=True, flash=["last"],
            )
        action: Action = {"type": "roll", "dice": sorted(self.entry)}
        return self._checked(action, f"roll entered: {', '.join(map(str, action['dice']))}", ["last"])

    def _press_spend(self, seat: int) -> Outcome:
        actions = [a for a in self.game.legal_actions()
                   if (a["type"] == "activate" and not a.get("group")) or a["type"] == "secure"]
        if not actions:
            return Outcome(self._spend_problem(seat), refused=True, flash=["spend", f"ap{seat}"])
        return self._open("spend", actions)

    def _spend_problem(self, seat: int) -> str:
        game = self.game
        if game.phase == "action" and game.pending is None and game.failed is None and game.action_points[seat] < 1:
            return "no action points left this turn: press advance to end your turn"
        own = game.on_table(seat)
        probe: Action = {"type": "activate", "model": own[0] if own else "a1", "action": "simple"}
        return self._reason(probe, "no model can spend an action point now")

    def _press_advance(self, seat: int) -> Outcome:
        game = self.game
        for kind in ("end_turn", "done"):
            action: Action = {"type": kind}
            if not game.is_legal(action):
                continue
            left = game.action_points[seat]
            if kind == "end_turn" and left > 0 and not self.advance_armed:
                self.advance_armed = True
                return Outcome(f"{left} action point{'s' * (left != 1)} left: press advance again to end your turn and lose "
                               f"{'them' if left != 1 else 'it'}, anything else to go on")
            words = "end of the turn" if kind == "end_turn" else "melee done"
            return Outcome(words, action=action)
        probe = {"type": "done"} if game.phase == "melee" else {"type": "end_turn"}
        return Outcome(self._reason(probe, f"nothing to advance in the {game.phase} phase"), refused=True, flash=["advance"])

    def _press_impact(self, seat: int) -> Outcome:
        actions = [a for a in self.game.legal_actions() if a["type"] == "impact"]
        if not actions:
            return Outcome(self._reason({"type": "impact", "model": "b1", "tokens": 1}, "no impact tokens can be recorded now"),
                           refused=True, flash=["impact"])
        return self._open("impact", actions)

    def _press_leave(self, seat: int) -> Outcome:
        actions = [a for a in self.game.legal_actions() if a["type"] in ("break_through", "loot")]
        if not actions:
            own = self.game.on_table(seat)
            probe: Action = {"type": "break_through", "model": own[0] if own else "a1"}
            return Outcome(self._reason(probe, "no model can leave the table now"), refused=True, flash=["leave"])
        return self._open("leave", actions)

    def _press_group(self, seat: int) -> Outcome:
        actions = [a for a in self.game.legal_actions()
                   if (a["type"] == "activate" and a.get("group")) or a["type"] == "pile_in"]
        if not actions:
            own = self.game.on_table(seat)
            model = own[0] if own else "a1"
            probe: Action = ({"type": "pile_in", "model": model} if self.game.phase == "melee"
                             else {"type": "activate", "model": model, "action": "simple", "group": True})
            why = self._reason(probe, "no model can join an activation now")
            if self.game.phase == "action" and self.game.group is not None and self.game.failed is None:
                why = "every model that could join this activation has been activated"
            return Outcome(why, refused=True, flash=["group"])
        return self._open("group", actions)

    def _press_next(self, seat: int) -> Outcome:
        return self._step(1)

    def _press_prev(self, seat: int) -> Outcome:
        return self._step(-1)

    def _press_field(self, seat: int) -> Outcome:
        if self.menu is None:
            return Outcome("no menu is open: press spend, impact, leave, group, a manoeuvre die, or next", refused=True, flash=["field"])
        fields = self._varying_fields()
        if len(fields) < 2:
            return Outcome(f"only the {self._field_name(fields[0]) if fields else 'action'} can be chosen here: use next/prev",
                           refused=True, flash=["field"])
        position = fields.index(self.focus) if self.focus in fields else -1
        self.focus = fields[(position + 1) % len(fields)]
        return Outcome(f"now choosing the {self._field_name(self.focus)}: {self._selected_words()}")

    def _press_confirm(self, seat: int) -> Outcome:
        game = self.game
        if self.menu is None:
            pending = game.pending
            if pending is not None and game.options["dice"] == "table" and not pending["count_fails"]:
                return self._enter_dice()
            return Outcome("nothing chosen to confirm: press spend, impact, leave, group, a manoeuvre die, or next",
                           refused=True, flash=["confirm"])
        action = self.choices[self.index]
        return self._checked(action, self.action_words(action), ["confirm"])

    def _press_cancel(self, seat: int) -> Outcome:
        if self.menu is None and not self.entry and not self.advance_armed:
            return Outcome("nothing to cancel")
        title = MENU_TITLES.get(self.menu or "", "the entered dice")
        self.reset()
        return Outcome(f"{title}: cancelled")

    # -- menus over legal actions

    def _open(self, menu: str, actions: list[Action]) -> Outcome:
        self.menu = menu
        self.choices = sorted(actions, key=self._sort_key)
        self.index = 0
        fields = self._varying_fields()
        self.focus = fields[0] if fields else 0
        more = " (next/prev to change" + (", field for the next field" if len(fields) > 1 else "") + ", confirm)"
        return Outcome(f"{MENU_TITLES[menu]}: {self._selected_words()}{more}")

    def _fields(self, action: Action) -> tuple[Any, ...]:
        return tuple(action.get(name) for name in FIELD_ORDER)

    def _sort_key(self, action: Action) -> tuple[Any, ...]:
        return tuple(_order(v, self._model_rank) for v in self._fields(action))

    def _varying_fields(self) -> list[int]:
        """Fields (positions in FIELD_ORDER) that can change from the current choice.

        Fields are chosen in order: field i can change if choices that agree with the
        current one on the fields before i differ in field i (an activation's model,
        then its simple/complex kind; a secure action has neither).
        """
        if not self.choices:
            return []
        current = self._fields(self.choices[self.index])
        rows = [self._fields(a) for a in self.choices]
        return [
            i for i in range(len(FIELD_ORDER))
            if len({repr(r[i]) for r in rows if r[:i] == current[:i]}) > 1
        ]

    @staticmethod
    def _field_name(position: int) -> str:
        return FIELD_ORDER[position].replace("_", " ")

    def _step(self, delta: int) -> Outcome:
        if self.menu is None:
            actions = self.game.legal_actions()
            if not actions:
                return Outcome("nothing can be done now", refused=True, flash=["next" if delta > 0 else "prev"])
            opened = self._open("all", actions)
            return opened
        focus = self.focus
        current = self._fields(self.choices[self.index])
        same_before = [i for i, a in enumerate(self.choices) if self._fields(a)[:focus] == current[:focus]]
        values: list[Any] = []
        for i in same_before:
            value = self._fields(self.choices[i])[focus]
            if value not in values:
                values.append(value)
        values.sort(key=lambda v: _order(v, self._model_rank))
        position = values.index(current[focus])
        wanted = values[(position + delta) % len(values)]
        candidates = [i for i in same_before if self._fields(self.choices[i])[focus] == wanted]

        def kept(i: int) -> int:
            # Prefer the choice that keeps the later fields as they were.
            row = self._fields(self.choices[i])
            return sum(1 for k in range(focus + 1, len(FIELD_ORDER)) if row[k] == current[k])

        self.index = max(candidates, key=lambda i: (kept(i), -i))
        if focus not in self._varying_fields():
            self.focus = min(self._varying_fields(), default=0)
        return Outcome(self._selected_words())

    def _selected_words(self) -> str:
        if not self.choices:
            return "nothing to choose"
        return self.action_words(self.choices[self.index])

    # -- checks

    def _checked(self, action: Action, words: str, flash: list[str]) -> Outcome:
        """``action`` for the table if the engine allows it now, else a refusal with its reason."""
        if self.game.is_legal(action):
            return Outcome(words, action=action)
        return Outcome(self._reason(action), refused=True, flash=flash)

    def _reason(self, action: Action, fallback: str = "not possible now") -> str:
        """The engine's reason for refusing ``action`` (``Game.check`` never changes the game)."""
        try:
            self.game.check(action)
        except IllegalActionError as error:
            return f"{error.message} [{error.rule}]"
        except Exception:  # a probe that does not fit the state at all
            return fallback
        return fallback

    # ------------------------------------------------------------------ words

    def _model_words(self, mid: Any) -> str:
        model = self.game.models.get(mid) if isinstance(mid, str) else None
        return f"{mid} ({model['name']})" if model else str(mid)

    def words_private(self, seat: int) -> bool:
        """Only the secret mission is hidden: what the seat to act is told is private while it chooses one."""
        return self.game.phase == "secrets"

    def describe_action(self, action: Action) -> str:
        """An applied action in words for the whole table (a mission stays secret), with the rolls after it."""
        return self._words(action, public=True)

    def action_words(self, action: Action) -> str:
        """An action in words for the seat choosing it (a mission named in full)."""
        return self._words(action, public=False)

    def _words(self, action: Action, public: bool) -> str:
        """The action in words; for a logged action, followed by the rolls the host made after it."""
        if public and action.get("type") == "secret":
            words = f"notes its secret mission (team size {action.get('team_size')})"
        else:
            words = self._action_words(action)
        rolls = self._rolls_after(action)
        return f"{words}: {rolls}" if rolls else words

    def _rolls_after(self, action: Action) -> str:
        """The host's rolls logged right after ``action`` (found by identity: the table passes log entries)."""
        log = self.game.log
        for index in range(len(log) - 1, -1, -1):
            if log[index].get("action") is action:
                break
        else:
            return ""
        end = index + 1
        while end < len(log) and "chance" in log[end]:
            end += 1
        parts = []
        start = index + 1
        while start < end:
            context = {k: v for k, v in log[start].items() if k != "value"}
            stop = start
            while stop + 1 < end and {k: v for k, v in log[stop + 1].items() if k != "value"} == context:
                stop += 1
            parts.append(self._roll_words(log[start:stop + 1]))
            start = stop + 1
        return "; ".join(parts)

    def _roll_words(self, entries: Sequence[LogEntry]) -> str:
        first = entries[0]
        values = ", ".join(str(e["value"]) for e in entries) if len(entries) <= 12 else f"of {len(entries)} dice"
        kind = str(first["chance"]).replace("_", " ")
        if first.get("model"):
            model = self.game.models.get(first["model"])
            words = f"{self._model_words(first['model'])}'s {kind} roll {values}"
            if kind == "defense" and model:
                fails = sum(1 for e in entries if e["value"] < model["defense"])
                words += f" ({fails} failed at {model['defense']}+)"
            return words
        seat = first.get("seat")
        who = SEAT_NAMES[seat] if seat in (0, 1) else "the host"
        return f"{who}'s {kind} roll {values}"

    def _action_words(self, action: Action) -> str:
        kind = action.get("type")
        model = self._model_words(action.get("model"))
        if kind == "roll":
            if "dice" in action:
                return f"enters a roll of {', '.join(map(str, action['dice']))}"
            if "fails" in action:
                return f"enters {action['fails']} failed defence dice"
            return "rolls"
        if kind == "secret":
            return (f"notes primary {action.get('primary')}, stratagem {action.get('stratagem')}, "
                    f"team size {action.get('team_size')}")
        if kind == "command":
            return f"takes {action.get('die')} as command die"
        if kind == "activate":
            joined = " joining the activation" if action.get("group") else " (1 action point)"
            return f"activates {model} for a {action.get('action')} action{joined}"
        if kind == "pile_in":
            return f"piles in with {model}"
        if kind == "failed":
            return f"{model} failed its activation: {'acts anyway (+1 damage)' if action.get('choice') == 'act' else 'passes'}"
        if kind == "impact":
            tokens = action.get("tokens")
            return f"records {tokens} impact token{'s' * (tokens != 1)} on {model}"
        if kind == "secure":
            return f"secures terrain zone {action.get('zone')} (1 action point)"
        if kind == "break_through":
            return f"{model} breaks through"
        if kind == "loot":
            return f"{model} carries loot off the table"
        if kind == "manoeuvre":
            player = action.get("player")
            who = SEAT_NAMES[player] if player in (0, 1) else str(player)
            target = f" on {model}" if "model" in action else ""
            return f"{who} uses the manoeuvre {action.get('name')}{target}"
        if kind == "end_turn":
            return "ends the turn"
        if kind == "done":
            return "ends the melee"
        return str(action)

    def prompt(self, seat: int) -> str:
        """What ``seat`` should press now (the table puts the seat's name in front)."""
        game = self.game
        pending = game.pending
        if pending is not None:
            what = f"the {pending['roll'].replace('_', ' ')} roll ({pending['dice']} {'dice' if pending['dice'] != 1 else 'die'}"
            what += f", D{pending['sides']})" if pending["sides"] != 6 else ")"
            if pending.get("model"):
                what += f" for {self._model_words(pending['model'])}"
            if game.options["dice"] == "press":
                return f"press roll for {what}"
            if pending["count_fails"]:
                defense = game.models[pending["model"]]["defense"]
                return f"roll {what} ({defense}+ saves), press roll, then next/prev to the number of failed dice, confirm"
            return f"roll {what}, set the dice on the last-roll dice (each press counts up), then press roll"
        if game.phase == "secrets":
            return "note your primary objective, stratagem and team size: next/prev, field, confirm"
        if game.phase == "command":
            dice = game.command_dice[seat]
            return f"press the die ({dice[0]} or {dice[1]}) to take as command die (action points); the other is your manoeuvre die"
        if game.failed is not None:
            return f"{self._model_words(game.failed['model'])} failed its activation: next/prev to pass or act, confirm"
        if game.phase == "action":
            ap = game.action_points[seat]
            return (f"{ap} action point{'s' * (ap != 1)}: spend, group, impact, leave, a manoeuvre die; "
                    "advance ends the turn")
        if game.phase == "melee":
            return "melee: impact to record melee impact tokens, group to pile in, advance when done"
        return "next/prev to choose an action, confirm"

    def flash_for(self, action: Action) -> list[Any]:
        kind = action.get("type")
        seat = self.game.current_seat() or 0
        return {
            "roll": ["roll", "last"],
            "command": [f"command{seat}", f"manoeuvre{seat}"],
            "activate": ["spend", f"ap{seat}"] if not action.get("group") else ["group"],
            "secure": ["spend", f"ap{seat}"],
            "pile_in": ["group"],
            "impact": ["impact"],
            "break_through": ["leave"],
            "loot": ["leave"],
            "manoeuvre": [f"manoeuvre{action.get('player') if action.get('player') in (0, 1) else seat}"],
            "end_turn": ["advance"],
            "done": ["advance"],
        }.get(kind if isinstance(kind, str) else "", ["confirm"])

    # ------------------------------------------------------------------ look

    def pixels(self, flashing: Collection[Any] = ()) -> list[Pixel]:
        game = self.game
        layout = self.layout
        pixels: list[Pixel] = [OFF] * layout.leds
        seat_to_act = game.current_seat()
        for seat in (0, 1):
            self._seat_pixels(pixels, seat, seat_to_act)
        self._track_pixels(pixels)
        if seat_to_act is not None and game.phase in layout.phases:
            pixels[layout.phases[game.phase]] = scaled(PHASE_COLOR, 1.0)
        self._last_roll_pixels(pixels)
        self._button_pixels(pixels, seat_to_act)
        for thing in flashing:
            for led in layout.flash_leds(str(thing)):
                pixels[led] = scaled(WHITE, 1.0, BLINK)
        return pixels

    def _die(self, pixels: list[Pixel], leds: Sequence[int], value: int, look: Pixel) -> None:
        for pip in PIP_PATTERNS.get(min(max(value, 0), 6), ()):
            pixels[leds[pip]] = look

    def _seat_pixels(self, pixels: list[Pixel], seat: int, seat_to_act: int | None) -> None:
        game = self.game
        layout = self.layout
        color = SEAT_COLORS[seat]
        command, manoeuvre = game.command_die[seat], game.manoeuvre_die[seat]
        rolled = game.command_dice[seat]
        if command is not None and manoeuvre is not None:
            self._die(pixels, layout.command_die[seat], command, scaled(color, 1.0))
            used = game.manoeuvre_used[seat] is not None
            self._die(pixels, layout.manoeuvre_die[seat], manoeuvre, scaled(color, 0.15 if used else 0.6))
        elif len(rolled) == 2:
            choosing = game.phase == "command" and game.pending is None and seat_to_act == seat
            look = scaled(color, 1.0, PULSE) if choosing else scaled(color, 0.6)
            self._die(pixels, layout.command_die[seat], rolled[0], look)
            self._die(pixels, layout.manoeuvre_die[seat], rolled[1], look)
        left = game.action_points[seat]
        total = command or 0
        in_turn = game.phase in ("action", "melee", "impact") and game.active == seat
        for index, led in enumerate(layout.action_points[seat]):
            if index < left:
                pixels[led] = scaled(color, 1.0)
            elif in_turn and index < total:
                pixels[led] = scaled(color, 0.1)
        if (self.menu == "spend" and seat_to_act == seat and 0 < left <= AP_LEDS
                and self.choices and self.choices[self.index]["type"] in ("activate", "secure")):
            pixels[layout.action_points[seat][left - 1]] = scaled(color, 1.0, BLINK)  # the point about to be spent
        turn = layout.turn[seat]
        if seat_to_act is None:
            pixels[turn] = scaled(color, 1.0, BLINK) if seat in game.winners() else scaled(color, 0.1)
        elif seat == seat_to_act:
            pixels[turn] = scaled(color, 1.0, PULSE)
        elif game.phase in ("action", "melee", "impact") and game.active == seat:
            pixels[turn] = scaled(color, 0.5)
        else:
            pixels[turn] = scaled(color, 0.1)

    def _track_pixels(self, pixels: list[Pixel]) -> None:
        game = self.game
        counts = [sum(game.objectives[seat].values()) for seat in (0, 1)]
        limit = game.options["objective_limit"]
        last_round = sum(counts) >= limit and not game.is_over()
        effect = PULSE if last_round else SOLID
        owners = [0] * counts[0] + [1] * counts[1]
        for index, led in enumerate(self.layout.track):
            if index < len(owners):
                pixels[led] = scaled(SEAT_COLORS[owners[index]], 1.0, effect)
            elif index + 1 == limit:
                pixels[led] = scaled(WHITE, 0.1)

    def last_roll(self) -> tuple[int | None, str, list[int]] | None:
        """(seat, roll kind, values) of the last roll in the log; a defence roll's values are [failed dice]."""
        log = self.game.log
        end = len(log) - 1
        while end >= 0:
            entry = log[end]
            if "chance" in entry:
                break
            action = entry.get("action")
            if action and action.get("type") == "roll" and ("dice" in action or "fails" in action):
                if "fails" in action:
                    return entry.get("seat"), "defense", [action["fails"]]
                return entry.get("seat"), "table", list(action["dice"])
            end -= 1
        if end < 0:
            return None
        return self._chance_run(log, end)

    def _chance_run(self, log: Sequence[LogEntry], end: int) -> tuple[int | None, str, list[int]]:
        last = log[end]
        context = {k: v for k, v in last.items() if k != "value"}
        start = end
        while start > 0 and "chance" in log[start - 1] and {k: v for k, v in log[start - 1].items() if k != "value"} == context:
            start -= 1
        values = [int(e["value"]) for e in log[start:end + 1]]
        kind = str(last["chance"])
        seat = last.get("seat")
        if kind == "defense":
            model = self.game.models.get(last.get("model", ""))
            defense = model["defense"] if model else 7
            owner = model["owner"] if model else None
            return owner, kind, [sum(1 for v in values if v < defense)]
        return seat if isinstance(seat, int) else None, kind, values

    def _last_roll_pixels(self, pixels: list[Pixel]) -> None:
        game = self.game
        faces = self.layout.last_roll
        pending = game.pending
        if self.entry and pending is not None:
            color = SEAT_COLORS[pending["seat"]]
            for die, value in enumerate(self.entry[:2]):
                self._die(pixels, faces[die], value, scaled(color, 1.0, BLINK))
            return
        last = self.last_roll()
        if last is None:
            return
        seat, kind, values = last
        if kind == "defense":
            fails = values[0]
            look = scaled(AMBER, 1.0)
            self._die(pixels, faces[0], min(fails, 6), look)
            self._die(pixels, faces[1], min(max(fails - 6, 0), 6), look)
            return
        color = SEAT_COLORS[seat] if seat in (0, 1) else WHITE
        for die, value in enumerate(values[:2]):
            self._die(pixels, faces[die], value, scaled(color, 0.8))

    def _available(self) -> set[str]:
        """The buttons that can do something now."""
        game = self.game
        legal = game.legal_actions()
        types = {a["type"] for a in legal}
        ready: set[str] = set()
        if game.pending is not None and game.options["dice"] != "host":
            ready.add("roll")
        if any((a["type"] == "activate" and not a.get("group")) or a["type"] == "secure" for a in legal):
            ready.add("spend")
        if types & {"end_turn", "done"}:
            ready.add("advance")
        if "impact" in types:
            ready.add("impact")
        if types & {"break_through", "loot"}:
            ready.add("leave")
        if any((a["type"] == "activate" and a.get("group")) or a["type"] == "pile_in" for a in legal):
            ready.add("group")
        if legal:
            ready |= {"next", "prev"}
        if self.menu is not None:
            ready |= {"confirm", "cancel"}
            if len(self._varying_fields()) > 1:
                ready.add("field")
        if self.entry:
            ready |= {"confirm", "cancel"}
        return ready

    def _button_pixels(self, pixels: list[Pixel], seat_to_act: int | None) -> None:
        if seat_to_act is None:
            return
        color = SEAT_COLORS[seat_to_act] if seat_to_act in (0, 1) else WHITE
        open_key = {"manoeuvre0": None, "manoeuvre1": None, "all": None}.get(self.menu or "", self.menu)
        press_roll = self.game.pending is not None and self.game.options["dice"] != "host"
        for name in self._available():
            led = self.layout.button_led[name]
            if name == open_key or (name == "roll" and press_roll) or (name == "advance" and self.advance_armed):
                pixels[led] = scaled(color, 1.0, PULSE)
            else:
                pixels[led] = scaled(WHITE, 0.25)

    # ------------------------------------------------------------------ dice animation

    def dice_rolls(self, entries: Sequence[LogEntry]) -> list[DiceRoll]:
        """Rolls among new log ``entries`` for the board to animate (``BoardSession.dice``).

        Command rolls land on the seat's two dice, other rolls on the last-roll dice (a
        defence roll: its failed dice in amber). Physical dice entered at the table are not
        animated (the players rolled them).
        """
        rolls: list[DiceRoll] = []
        index = 0
        entries = list(entries)
        while index < len(entries):
            if "chance" not in entries[index]:
                index += 1
                continue
            context = {k: v for k, v in entries[index].items() if k != "value"}
            end = index
            while end + 1 < len(entries) and "chance" in entries[end + 1] and \
                    {k: v for k, v in entries[end + 1].items() if k != "value"} == context:
                end += 1
            seat, kind, values = self._chance_run(entries, end)
            index = end + 1
            if kind == "command" and seat in (0, 1) and len(values) == 2:
                faces = [self.layout.command_die[seat], self.layout.manoeuvre_die[seat]]
                color = SEAT_COLORS[seat]
            elif kind == "defense":
                fails = values[0]
                values = [min(fails, 6), min(max(fails - 6, 0), 6)]
                faces = self.layout.last_roll
                color = AMBER
            else:
                faces = self.layout.last_roll
                color = SEAT_COLORS[seat] if seat in (0, 1) else WHITE
                values = values[:2]
            leds: list[int] = []
            for face, value in zip(faces, values):
                pattern = PIP_PATTERNS[min(max(value, 0), 6)]
                leds += [face[p] for p in pattern] + [face[p] for p in range(7) if p not in pattern]
            rolls.append(DiceRoll(leds, values, color))
        return rolls
