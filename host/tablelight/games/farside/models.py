"""What happens to models: activations and their failures, leaving the table, losses, missions, manoeuvres."""

from __future__ import annotations


from tablelight.core.game import Action
from tablelight.games.farside.state import (
    IMPACT,
    LEFT,
    LOST,
    OVER,
    SECRETS,
    SETUP,
    FarsideState,
)


class FarsideModels(FarsideState):
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
        if action["type"] == "pile_in" or action.get("group"):
            self._fire("activation:pile_in" if action["type"] == "pile_in" else "activation:group")
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
            self._fire("activation:roll_failed")
            self.failed = {"model": mid, "roll": roll}
        else:
            self._fire("activation:roll_passed")

    def _resolve_failure(self, choice: str) -> None:
        assert self.failed is not None
        mid = self.failed["model"]
        self.failed = None
        if choice == "pass":
            self.models[mid]["action"] = "pass"  # it takes no action (so no Regeneration either)
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

    def _award(self, seat: int, mission: str) -> None:
        if self.phase == OVER:
            return
        self._fire(f"mission:{mission}")
        self.objectives[seat][mission] += 1
        if not self.grand_slam_given:
            kinds = sum(1 for m, n in self.objectives[seat].items() if n and m != "grand slam")
            if kinds >= 4:
                self.grand_slam_given = True
                self._fire("mission:grand slam")
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

    def _check_wipeout(self, impacts_done: bool = False) -> None:
        """End the game when a side has no models left. In the impact phase (record format 4, option
        wipe_out = after_impact) this waits until every defence roll of the phase is made
        (``impacts_done``): the rulebook has one impact phase for both players."""
        if self.phase in (OVER, SETUP, SECRETS):
            return
        if self.phase == IMPACT and self.settles_impacts() and not impacts_done:
            return
        left = [bool(self.on_table(seat)) for seat in (0, 1)]
        if all(left):
            return
        if any(left):
            survivor = left.index(True)
            self._award(survivor, "obliteration")
            self._finish(f"seat {1 - survivor} has no models left on the table", "wipe_out")
        else:
            self._finish("no models are left on the table", "no_models_left")

    def _manoeuvre(self, action: Action) -> None:
        player, name = action["player"], action["name"]
        self.manoeuvre_used[player] = name
        self._fire(f"manoeuvre:{name}")
        if name == "Inspired":
            assert self.failed is not None and self.group is not None
            mid = self.failed["model"]
            self.failed = None
            self.group["roll"] = None
            self._request_roll("activation", self.models[mid]["owner"], 1, 6, model=mid, inspired=True)
        elif name == "Cure":
            self.models[action["model"]]["damage"] -= 1
        elif name == "Disappear":
            # "It does not count as a loss but counts for the missions breakthrough and loot":
            # a breakthrough always, and loot when the model carries a loot token.
            self._leave(action["model"])
            self._count_breakthrough(player)
            if action.get("loot"):
                self.loot_left -= 1
                self._award(player, "loot")
        elif name == "The Chosen":
            self.chosen[player] = action["model"]

    def _regenerate(self, mid: str) -> None:
        """Regeneration, the model's simple action: a roll of 3+ removes a damage token, a 1 adds one."""
        self.models[mid]["action"] = "regeneration"
        self._request_roll("regeneration", self.models[mid]["owner"], 1, 6, model=mid)

    def _regenerated(self, mid: str, face: int) -> None:
        model = self.models[mid]
        face = self.counts_as(mid, face)
        self._fire("regeneration:" + ("healed" if face >= 3 else "harmed" if face == 1 else "no_effect"))
        if face >= 3:
            model["damage"] -= 1
        elif face == 1:
            model["damage"] += 1
            if model["damage"] >= 3:
                self._lose(mid, killed=False)

    def _dead_zone(self, mid: str) -> None:
        """A model on or across a dead zone: removed on a 1 or 2, rolled once every turn."""
        self.dead_zone_rolled.append(mid)
        self._request_roll("dead_zone", self.models[mid]["owner"], 1, 6, model=mid)

    def _dead_zone_rolled(self, mid: str, face: int) -> None:
        removed = self.counts_as(mid, face) <= 2
        self._fire("dead_zone:" + ("removed" if removed else "survived"))
        if removed:
            self._lose(mid, killed=False)
