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

from collections.abc import Callable

from tablelight.core.actions import FrozenList
from tablelight.core.game import Action
from tablelight.games.farside.console import FarsideLayout, FarsideLayoutError
from tablelight.games.farside.face_steps import FarsideSteps
from tablelight.games.farside.look import FarsideLook
from tablelight.games.farside.menu import MENU_TITLES, SEAT_NAMES, menu_of
from tablelight.table.face import Outcome, seat_and_role

__all__ = ["FarsideFace", "FarsideLayout", "FarsideLayoutError"]


class FarsideFace(FarsideLook, FarsideSteps):
    """Look and input of Farside Encounter at the lit console (see the module docstring): the menus
    (:mod:`.menu`), the look (:mod:`.look`), the words (:mod:`.words`), a page's choice steps
    (:mod:`.face_steps`) and, here, the keys."""

    def drawing(self, seat: int | None) -> str:
        """The round, the missions and both armies, model by model; ``seat``'s own secret mission in its
        own drawing (:mod:`.drawing`)."""
        from tablelight.games.farside.drawing import farside_svg

        return farside_svg(self, seat)

    def press(self, key: int) -> Outcome:
        found = seat_and_role(self.game, key, self.layout.key_role, "the farside console")
        if isinstance(found, Outcome):
            return found
        seat, (kind, which) = found
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

    def _press_command_die(self, seat: int, die_seat: int) -> Outcome:
        game = self.game
        flash = [f"command{die_seat}"]
        if game.phase != "command" or game.pending is not None:
            if game.command_die[die_seat] is not None:
                return Outcome(
                    f"{SEAT_NAMES[die_seat]}'s command die is {game.command_die[die_seat]} "
                    f"({game.action_points[die_seat]} action point{'s' * (game.action_points[die_seat] != 1)} left); "
                    "it is chosen in the command phase",
                    refused=True, flash=self.layout.leds_to_flash(flash),
                )
            return Outcome(self._reason(Action({"type": "command", "die": 1}), "the command die is chosen in the command phase"),
                           refused=True, flash=self.layout.leds_to_flash(flash))
        return self._choose_command(seat, die_seat, 0)

    def _choose_command(self, seat: int, die_seat: int, position: int) -> Outcome:
        game = self.game
        face = "command" if position == 0 else "manoeuvre"
        if die_seat != seat:
            return Outcome(f"{SEAT_NAMES[seat]} chooses a command die now, not {SEAT_NAMES[die_seat]}",
                           refused=True, flash=self.layout.leds_to_flash([f"{face}{die_seat}"]))
        dice = game.command_dice[seat]
        action: Action = Action({"type": "command", "die": dice[position]})
        if not game.is_legal(action):
            return Outcome(self._reason(action), refused=True, flash=self.layout.leds_to_flash([f"{face}{die_seat}"]))
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
                why = self._reason(Action({"type": "manoeuvre", "player": die_seat, "name": "Sniper"}),
                                   f"no manoeuvre of {SEAT_NAMES[die_seat]} is possible now")
            return Outcome(why, refused=True, flash=self.layout.leds_to_flash([f"manoeuvre{die_seat}"]))
        return self._open(f"manoeuvre{die_seat}", actions)

    def _press_last_die(self, die: int) -> Outcome:
        pending = self.game.pending
        flash = ["last"]
        if self.game.options["dice"] != "table" or pending is None or pending["count_fails"]:
            why = "the last-roll dice take input only while physical dice are entered (dice = table)"
            if pending is not None and pending["count_fails"]:
                why = "a defence roll is entered as the number of failed dice: press roll"
            return Outcome(why, refused=True, flash=self.layout.leds_to_flash(flash))
        if die >= pending["dice"]:
            return Outcome(f"this roll has {pending['dice']} die: set the first one", refused=True, flash=self.layout.leds_to_flash(flash))
        if len(self.entry) != pending["dice"]:
            self.entry = [0] * pending["dice"]
        self.entry[die] = self.entry[die] % pending["sides"] + 1
        shown = ", ".join(str(v) if v else "-" for v in self.entry)
        return Outcome(f"entering the {pending['roll']} roll: {shown}; press roll (or confirm) when it matches your dice")

    def _press_roll(self, seat: int) -> Outcome:
        game = self.game
        pending = game.pending
        if pending is None or game.options["dice"] == "host":
            return Outcome(self._reason(Action({"type": "roll"}), "no roll is expected now"), refused=True, flash=self.layout.leds_to_flash(["roll"]))
        if game.options["dice"] == "press":
            return self._checked(Action({"type": "roll"}), f"{SEAT_NAMES[seat]} rolls", ["roll"])
        if pending["count_fails"]:
            return self._open("roll", [a for a in game.legal_actions() if a["type"] == "roll"])
        return self._enter_dice()

    def _enter_dice(self) -> Outcome:
        pending = self.game.pending
        assert pending is not None
        if len(self.entry) != pending["dice"] or 0 in self.entry:
            return Outcome(
                f"set the {pending['dice']} dice you rolled on the last-roll dice first (each press counts one up)",
                refused=True, flash=self.layout.leds_to_flash(["last"]),
            )
        action: Action = Action({"type": "roll", "dice": FrozenList(sorted(self.entry))})
        return self._checked(action, f"roll entered: {', '.join(map(str, action['dice']))}", ["last"])

    def _press_spend(self, seat: int) -> Outcome:
        actions = [a for a in self.legal_now() if menu_of(a) == "spend"]
        if not actions:
            return Outcome(self._spend_problem(seat), refused=True, flash=self.layout.leds_to_flash(["spend", f"ap{seat}"]))
        return self._open("spend", actions)

    def _spend_problem(self, seat: int) -> str:
        game = self.game
        if game.phase == "action" and game.pending is None and game.failed is None and game.action_points[seat] < 1:
            return "no action points left this turn: press advance to end your turn"
        own = game.on_table(seat)
        probe: Action = Action({"type": "activate", "model": own[0] if own else "a1", "action": "simple"})
        return self._reason(probe, "no model can spend an action point now")

    def _press_advance(self, seat: int) -> Outcome:
        game = self.game
        for kind in ("end_turn", "done"):
            action: Action = Action({"type": kind})
            if not game.is_legal(action):
                continue
            left = game.action_points[seat]
            if kind == "end_turn" and left > 0 and not self.advance_armed:
                self.advance_armed = True
                return Outcome(f"{left} action point{'s' * (left != 1)} left: press advance again to end your turn and lose "
                               f"{'them' if left != 1 else 'it'}, anything else to go on")
            words = "end of the turn" if kind == "end_turn" else "melee done"
            return Outcome(words, action=action)
        probe = Action({"type": "done"}) if game.phase == "melee" else Action({"type": "end_turn"})
        return Outcome(self._reason(probe, f"nothing to advance in the {game.phase} phase"), refused=True, flash=self.layout.leds_to_flash(["advance"]))

    def _press_impact(self, seat: int) -> Outcome:
        actions = [a for a in self.legal_now() if menu_of(a) == "impact"]
        if not actions:
            return Outcome(self._reason(Action({"type": "impact", "model": "b1", "tokens": 1}), "no impact tokens can be recorded now"),
                           refused=True, flash=self.layout.leds_to_flash(["impact"]))
        return self._open("impact", actions)

    def _press_leave(self, seat: int) -> Outcome:
        actions = [a for a in self.legal_now() if menu_of(a) == "leave"]
        if not actions:
            own = self.game.on_table(seat)
            probe: Action = Action({"type": "break_through", "model": own[0] if own else "a1"})
            return Outcome(self._reason(probe, "no model can leave the table now"), refused=True, flash=self.layout.leds_to_flash(["leave"]))
        return self._open("leave", actions)

    def _press_group(self, seat: int) -> Outcome:
        actions = [a for a in self.legal_now() if menu_of(a) == "group"]
        if not actions:
            own = self.game.on_table(seat)
            model = own[0] if own else "a1"
            probe: Action = (Action({"type": "pile_in", "model": model}) if self.game.phase == "melee"
                             else Action({"type": "activate", "model": model, "action": "simple", "group": True}))
            why = self._reason(probe, "no model can join an activation now")
            if self.game.phase == "action" and self.game.group is not None and self.game.failed is None:
                why = "every model that could join this activation has been activated"
            return Outcome(why, refused=True, flash=self.layout.leds_to_flash(["group"]))
        return self._open("group", actions)

    def _press_next(self, seat: int) -> Outcome:
        return self._step(1)

    def _press_prev(self, seat: int) -> Outcome:
        return self._step(-1)

    def _press_field(self, seat: int) -> Outcome:
        if self.menu is None:
            return Outcome("no menu is open: press spend, impact, leave, group, a manoeuvre die, or next", refused=True, flash=self.layout.leds_to_flash(["field"]))
        fields = self._varying_fields()
        if len(fields) < 2:
            return Outcome(f"only the {self._field_name(fields[0]) if fields else 'action'} can be chosen here: use next/prev",
                           refused=True, flash=self.layout.leds_to_flash(["field"]))
        position = fields.index(self.focus) if self.focus in fields else -1
        self.focus = fields[(position + 1) % len(fields)]
        self._fix_before_focus()
        return Outcome(f"now choosing the {self._field_name(self.focus)}: {self._selected_words()}")

    def _press_confirm(self, seat: int) -> Outcome:
        game = self.game
        if self.menu is None:
            pending = game.pending
            if pending is not None and game.options["dice"] == "table" and not pending["count_fails"]:
                return self._enter_dice()
            return Outcome("nothing chosen to confirm: press spend, impact, leave, group, a manoeuvre die, or next",
                           refused=True, flash=self.layout.leds_to_flash(["confirm"]))
        action = self.choices[self.index]
        return self._checked(action, self.action_words(action), ["confirm"])

    def _press_cancel(self, seat: int) -> Outcome:
        if self.menu is None and not self.entry and not self.advance_armed:
            return Outcome("nothing to cancel")
        title = MENU_TITLES.get(self.menu or "", "the entered dice")
        self.reset()
        return Outcome(f"{title}: cancelled")

    def flash_for(self, action: Action) -> list[int]:
        kind = action.get("type")
        seat = self.game.current_seat() or 0
        return self.layout.leds_to_flash({
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
        }.get(kind if isinstance(kind, str) else "", ["confirm"]))
