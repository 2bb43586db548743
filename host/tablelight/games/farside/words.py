"""Farside's face, part 2: words for people (what an action or a roll was, what to press now)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tablelight.core.fields import is_chance_entry
from tablelight.core.game import Action, LogEntry
from tablelight.games.farside.menu import SEAT_NAMES, FarsideMenu


class FarsideWords(FarsideMenu):
    """The Farside face's sentences."""

    def _model_words(self, mid: Any) -> str:
        model = self.game.models.get(mid) if isinstance(mid, str) else None
        return f"{mid} ({model['name']})" if model else str(mid)

    def words_private(self, seat: int) -> bool:
        """Only the secret mission is hidden: what the seat to act is told is private while it chooses one."""
        return self.game.phase == "secrets"

    def describe_entry(self, entry: Mapping[str, Any], seat: int | None = None) -> str | None:
        """A roll in words, once: rolls made right after an action are told with it (its words), so
        only rolls with no action before them (setup) get a line of their own."""
        log = self.game.log
        index = next((i for i in range(len(log) - 1, -1, -1) if log[i] is entry), None)
        if index is not None:
            while index > 0 and is_chance_entry(log[index - 1]):
                index -= 1
            if index > 0:
                return None
        if entry.get("hidden") or entry.get("value") is None:
            return super().describe_entry(entry, seat)
        return self._roll_words([entry])  # type: ignore[list-item]

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
        while end < len(log) and is_chance_entry(log[end]):
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
                fails = self.game.defense_fails(first["model"], [e["value"] for e in entries])
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
            chosen = f", names {self._model_words(action['chosen'])} The Chosen" if action.get("chosen") else ""
            return f"takes {action.get('die')} as command die{chosen}"
        if kind == "activate":
            joined = " joining the activation" if action.get("group") else " (1 action point)"
            return f"activates {model} for a {action.get('action')} action{joined}"
        if kind == "pile_in":
            return f"piles in with {model}"
        if kind == "failed":
            choice = action.get("choice")
            how = {"act": "acts anyway (+1 damage)", "simple": "takes a simple action instead"}.get(str(choice), "passes")
            return f"{model} failed its activation: {how}"
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
            loot = " carrying loot" if action.get("loot") else ""
            return f"{who} uses the manoeuvre {action.get('name')}{target}{loot}"
        if kind == "regenerate":
            return f"{model} regenerates (simple action: 3+ removes a damage token, 1 adds one)"
        if kind == "dead_zone":
            return f"{model} rolls for a dead zone (removed on 1 or 2)"
        if kind == "end_turn":
            return "ends the turn"
        if kind == "announce_end":
            return "announces the end of the game (this round is completed)"
        if kind == "done":
            return "ends the melee"
        return str(action)

    def prompt(self, seat: int) -> str:
        """What ``seat`` should press now (the table puts the seat's name in front)."""
        game = self.game
        pending = game.pending
        if pending is not None:
            what = self._roll_asked(pending)
            if game.options["dice"] == "press":
                return f"press roll for {what}"
            if pending["count_fails"]:
                defense = game.model(pending["model"])["defense"]
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
                    "end turn with the advance key")
        if game.phase == "melee":
            return "melee: impact to record melee impact tokens, group to pile in; done with the advance key"
        return "next/prev to choose an action, confirm"

    def _roll_asked(self, pending: Any) -> str:
        """The roll asked for: "the defence roll (2 dice) for a1 (Warrior 1)"."""
        what = f"the {pending['roll'].replace('_', ' ')} roll ({pending['dice']} {'dice' if pending['dice'] != 1 else 'die'}"
        what += f", D{pending['sides']})" if pending["sides"] != 6 else ")"
        if pending.get("model"):
            what += f" for {self._model_words(pending['model'])}"
        return what

    def page_prompt(self, seat: int) -> str:
        """What ``seat`` should choose now on its own page: the choices listed there, no console keys."""
        game = self.game
        pending = game.pending
        if pending is not None:
            what = self._roll_asked(pending)
            if game.options["dice"] == "press":
                return f"roll the dice for {what}"
            if pending["count_fails"]:
                defense = game.model(pending["model"])["defense"]
                return f"roll {what} ({defense}+ saves), then choose how many dice failed"
            return f"roll {what}, then choose what your dice show"
        if game.phase == "secrets":
            return "choose your primary objective, stratagem and team size"
        if game.phase == "command":
            dice = game.command_dice[seat]
            return f"take a command die ({dice[0]} or {dice[1]}: your action points); the other is your manoeuvre die"
        if game.failed is not None:
            return f"{self._model_words(game.failed['model'])} failed its activation: choose to pass or act"
        if game.phase == "action":
            ap = game.action_points[seat]
            return (f"{ap} action point{'s' * (ap != 1)}: activate a model, record impact tokens, secure a terrain zone "
                    "or use a manoeuvre; end turn when you are done")
        if game.phase == "melee":
            return "melee: record melee impact tokens or pile in; end the melee when you are done"
        return "choose an action"
