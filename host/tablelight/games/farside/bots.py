"""A Farside Encounter bot that plays whole games: it fights the table's battle as well as keeping the books.

The engine tracks rounds and missions; the fight itself happens with miniatures
on the table, and players *record* its outcome (impact tokens). A random bot
therefore records absurd amounts of impact (97% of its actions) and every game
ends in the first round. :class:`TacticianBot` plays as a player would:

* it notes a primary objective that fits the table (loot when there are loot
  tokens, else securing zones) and destruction as its stratagem;
* it takes the larger command die as action points, unless a damaged model makes
  a manoeuvre die of 5 or 6 worth more than a point or two; a 6 it keeps names
  The Chosen (with the command die) when no model needs a Cure;
* each action point activates one model: the model shoots or fights the enemy
  model it can best finish off, and the bot records the impact tokens its own
  attack roll gives (the model's profile and weapons at a range band drawn at
  random, :mod:`tablelight.games.farside.standin`, a chosen model's ones counting
  as sixes; rolled with the bot's own generator -- standing in for the table), a
  model with Regeneration and damage regenerates instead, or, for its primary
  objective, it loots, secures a zone or breaks through (within :func:`table_allows`);
* a model with two damage tokens plans a simple action (it fails less often);
  a failed complex action becomes the simple one the roll allows; a failed model
  with two damage tokens acts as a martyr while the martyr point is still to be
  had (and it is not the last model), else Inspired rerolls it (a manoeuvre die
  of 4, or 5+ for a model at two damage tokens), else it passes;
* it Evades a defence roll that does more damage than a fresh roll does on
  average; with a manoeuvre die of 5+ a model at two damage tokens Disappears
  (carrying loot or breaking through, for those primaries) or is cured; an
  unused die of 3 or 4 fires a Sniper shot before the enemy's turn.

With ``dice = table`` or ``press`` it also makes its seat's rolls.

The tracker trusts what players record, so the tactician and the search bot
(``games/farside/search.py``) play the same stand-in table, :func:`table_allows`:
impact tokens only from the stand-in attack dice, no group activations, only
one's own manoeuvres, no dead zones, and a model leaves the table (loot, break
through, Disappear) never as the last model on the table, carries loot or
breaks through only after it was activated this turn (it had to get there),
and breaks through only from round ``LATE_ROUND`` (crossing the table takes turns).
"""

from __future__ import annotations

import math
from typing import Any

from tablelight.core.actions import FrozenList
from tablelight.core.fields import is_action_entry
from tablelight.core.game import Action
from tablelight.core.rng import Rng
from tablelight.games.farside.engine import FarsideEncounter
from tablelight.games.farside.standin import can_snipe, roll_attack

#: Round from which a model breaks through when it cannot do better (the enemy is worn down).
LATE_ROUND = 3
#: How often each mission is the tactician's guess of the enemy's primary (its stratagem).
STRATAGEM_WEIGHTS = {"loot": 2.0, "breakthrough": 1.0, "secure": 2.0, "destruction": 3.0, "heavy loss": 1.0,
                     "grand slam": 0.5, "martyr": 0.5, "obliteration": 1.0}
#: Manoeuvres of a 3+ die it plays at the end of its first turn (Sniper needs a long-range weapon).
LATE_MANOEUVRES = ("Sniper", "Suppressive Fire", "Seek Cover", "Redeploy")


def primary_weights(game: FarsideEncounter) -> dict[str, float]:
    """How often each mission is the tactician's primary objective: loot when the table has loot tokens
    to carry off, fighting missions more with bigger armies."""
    fighting = 1.0 + len(game.models) / 20
    return {"loot": 4.0 if game.loot_left >= 3 else 1.0, "breakthrough": 1.0, "secure": 3.0,
            "destruction": 2.0 * fighting, "heavy loss": 1.0, "grand slam": 0.5, "martyr": 0.5, "obliteration": fighting}


def weighted(rng: Rng, weights: dict[str, float]) -> str:
    """One key of ``weights`` drawn with its weight."""
    point = rng.random() * sum(weights.values())
    for key, weight in weights.items():
        point -= weight
        if point < 0:
            return key
    return next(reversed(weights))


def this_turn(game: FarsideEncounter) -> list[dict[str, Any]]:
    """The player actions of the turn so far (since the last command, end of turn or melee's end)."""
    actions: list[dict[str, Any]] = []
    for entry in reversed(game.log):
        if not is_action_entry(entry):
            continue
        if entry["action"]["type"] in ("command", "end_turn", "done"):
            break
        actions.append(entry["action"])
    return actions[::-1]


class TacticianBot:
    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def choose(self, game: FarsideEncounter) -> Action:
        seat = game.current_seat()
        assert seat is not None
        if game.pending is not None:
            return self._roll(game)
        if game.evade_offer is not None:
            return self._evade(game, seat)
        if game.phase == "secrets":
            return self._secret(game, seat)
        if game.phase == "command":
            return self._command(game, seat)
        if game.failed is not None:
            return self._failed(game, seat)
        if game.phase == "melee":
            return self._melee(game, seat)
        return self._action_phase(game, seat)

    def _melee(self, game: FarsideEncounter, seat: int) -> Action:
        """The melee phase: the active player piles in a model now and then (it fights: a simple
        action); the other one may fire at the chargers (Defensive Fire, a 3+ die)."""
        follow = self._follow_up(game, seat)
        if follow is not None:
            return follow
        enemy_there = bool(game.on_table(1 - seat))
        if seat == game.active:
            ready = sorted(mid for mid in game.on_table(seat) if not game.model(mid)["activated"])
            piled = any(done["type"] == "pile_in" for done in this_turn(game))
            if ready and not piled and enemy_there and self.rng.random() < 0.25:
                return Action({"type": "pile_in", "model": self.rng.choice(ready)})
        elif enemy_there:
            if 3 <= (game.manoeuvre_die[seat] or 0) <= 4 and self.rng.random() < 0.3:
                fire = Action({"type": "manoeuvre", "player": seat, "name": "Defensive Fire"})
                if game.is_legal(fire):
                    return fire
            fought = any(done["type"] == "impact" for done in this_turn(game))  # its own part of the melee
            hit = [mid for mid in game.on_table(seat) if game.model(mid)["impact"]]
            if hit and not fought and self.rng.random() < 0.3:
                # A model the enemy reached fights back: "the models of both players fight simultaneously".
                strike = self._attack(game, seat, min(hit), "complex", band="melee")
                if strike is not None:
                    return strike
        return Action({"type": "done"})

    def _roll(self, game: FarsideEncounter) -> Action:
        pending = game.pending
        assert pending is not None
        if game.options["dice"] == "press":
            return Action({"type": "roll"})
        faces = [self.rng.between(1, pending["sides"]) for _ in range(pending["dice"])]
        if pending["count_fails"]:
            return Action({"type": "roll", "fails": game.defense_fails(pending["model"], faces)})
        return Action({"type": "roll", "dice": FrozenList(sorted(faces))})

    def _secret(self, game: FarsideEncounter, seat: int) -> Action:
        """A primary that fits the table, drawn among the plausible ones (players differ), and a
        stratagem guessing the enemy's: every mission is someone's plan now and then."""
        primary = weighted(self.rng, primary_weights(game))
        stratagem = weighted(self.rng, STRATAGEM_WEIGHTS)
        models = len(game.on_table(seat))
        team = max(1, min(models, self.rng.between(1, 2) if models < 10 else self.rng.between(2, 3)))
        return Action({"type": "secret", "primary": primary, "stratagem": stratagem, "team_size": team})

    def _command(self, game: FarsideEncounter, seat: int) -> Action:
        low, high = sorted(game.command_dice[seat])
        take, keep = high, low
        damaged = [game.model(mid)["damage"] for mid in game.on_table(seat) if game.model(mid)["damage"]]
        if high >= 5 and low >= 3 and damaged:  # a Cure, Evade or The Chosen is worth a point or two
            take, keep = low, high
        action = Action({"type": "command", "die": take})
        if keep == 6 and max(damaged, default=0) < 2 and game.record_format >= 4:
            chosen = max(game.on_table(seat), key=lambda m: (game.model(m)["damage"], game.model(m)["points"], m))
            action = action.replace(chosen=chosen)
        return action

    def _evade(self, game: FarsideEncounter, seat: int) -> Action:
        """Evade when the roll does more damage than a fresh roll does on average."""
        offer = game.evade_offer
        assert offer is not None
        mid = offer["model"]
        model = game.model(mid)
        damage = max(0, offer["fails"] - (model["size"] - 1))
        if damage > fresh_damage(game, mid):
            return Action({"type": "manoeuvre", "player": seat, "name": "Evade", "model": mid})
        return Action({"type": "accept", "model": mid})

    def _failed(self, game: FarsideEncounter, seat: int) -> Action:
        failed = game.failed
        assert failed is not None
        mid = failed["model"]
        model = game.model(mid)
        inspired = self._inspired(game, seat)  # a die of 4: reroll, the planned action may still come
        if inspired is not None:
            return inspired
        simple = Action({"type": "failed", "model": mid, "choice": "simple"})
        if game.is_legal(simple):
            return simple  # the roll allows a simple action: no damage token
        act = Action({"type": "failed", "model": mid, "choice": "act"})
        if model["damage"] < 2:
            return act
        if not game.martyr_given and len(game.on_table(seat)) > 1 and game.on_table(1 - seat):
            return act  # a martyr: it still fights, and the first martyr scores
        die = game.manoeuvre_die[seat] or 0
        inspired = Action({"type": "manoeuvre", "player": seat, "name": "Inspired"})
        if die >= 4 and game.is_legal(inspired):
            return inspired
        return Action({"type": "failed", "model": mid, "choice": "pass"})

    def _inspired(self, game: FarsideEncounter, seat: int) -> Action | None:
        """A die of exactly 4 is worth most as Inspired: reroll a failed activation (any damage)."""
        inspired = Action({"type": "manoeuvre", "player": seat, "name": "Inspired"})
        if (game.manoeuvre_die[seat] or 0) == 4 and game.is_legal(inspired):
            return inspired
        return None

    def _action_phase(self, game: FarsideEncounter, seat: int) -> Action:
        follow = self._follow_up(game, seat)
        if follow is not None:
            return follow
        announce = Action({"type": "announce_end"})
        if game.options["game_end"] == "announced" and game.is_legal(announce):
            # Past the objective limit (option game_end = announced): end it while ahead on the
            # track, or now and then anyway (the table is tired).
            mine, theirs = (sum(game.objectives[s].values()) for s in (seat, 1 - seat))
            if mine >= theirs or self.rng.random() < 0.3:
                return announce
        ready = [mid for mid in game.on_table(seat) if not game.model(mid)["activated"]]
        join = self._join(game, seat, ready)
        if join is not None:
            return join
        manoeuvre = self._manoeuvre(game, seat)  # no action point needed
        if manoeuvre is not None:
            return manoeuvre
        if game.action_points[seat] >= 1:
            secret = game.secrets[seat] or {}
            mission = self._mission(game, seat, secret.get("primary"))
            if mission is not None:
                return mission
            if ready:
                # The healthiest model fights, unless the model in position is another one (a table
                # has no order of models: any ready model acts now and then, a damaged one, in the
                # thick of the fight, more often). A damaged one risks
                # failing its activation, so a model at two damage tokens (or one that regenerates)
                # plans a simple action.
                damaged = sorted(m for m in ready if game.model(m)["damage"])
                draw = self.rng.random()
                if damaged and draw < 0.35:
                    mid = self.rng.choice(damaged)  # in the thick of the fight: it acts while it can
                elif draw < 0.7:
                    mid = min(ready, key=lambda m: (game.model(m)["damage"], m))
                else:
                    mid = self.rng.choice(sorted(ready))
                model = game.model(mid)
                simple = model["damage"] >= 2 or (model["damage"] and "Regeneration" in model.get("rules", ()))
                return Action({"type": "activate", "model": mid, "action": "simple" if simple else "complex"})
        return self._late_manoeuvre(game, seat) or Action({"type": "end_turn"})

    def _join(self, game: FarsideEncounter, seat: int, ready: list[str]) -> Action | None:
        """Now and then a second model of the same kind joins the activation just made (a unit of two)."""
        last = next((done for done in reversed(this_turn(game)) if done["type"] == "activate"), None)
        if last is None or last.get("group") or self.rng.random() >= 0.3:
            return None
        for mid in sorted(ready):
            join = Action({"type": "activate", "model": mid, "action": last["action"], "group": True})
            if table_allows(game, join, seat) and game.is_legal(join):
                return join
        return None

    def _follow_up(self, game: FarsideEncounter, seat: int) -> Action | None:
        """What the last action of this seat started: its model's attack (or regeneration)."""
        # Rolls entered at the table (dice = table or press) come between an activation and its attack.
        last = next((entry for entry in reversed(game.log)
                     if is_action_entry(entry) and entry["action"]["type"] != "roll"), None)
        if not last or last.get("seat") != seat:
            return None
        action = last["action"]
        if action["type"] in ("activate", "pile_in") or (action["type"] == "failed" and action["choice"] != "pass"):
            mid = action["model"]
            model = game.model(mid)
            if model["status"] == "table" and model.get("action") == "simple" and model["damage"]:
                regenerate = Action({"type": "regenerate", "model": mid})
                if game.is_legal(regenerate):
                    return regenerate
            if model["status"] == "table" or action["type"] == "failed":  # a martyr fights before it falls
                return self._attack(game, seat, mid, model.get("action", "complex"))
        if action["type"] == "manoeuvre" and action["name"] in ("Suppressive Fire", "Heroic Reaction", "Defensive Fire"):
            # A quick shot (Defensive Fire: at the chargers, within 10 cm) by its healthiest model.
            shooters = game.on_table(seat)
            if shooters:
                shooter = min(shooters, key=lambda m: (game.model(m)["damage"], m))
                band = "10" if action["name"] == "Defensive Fire" else None
                return self._attack(game, seat, shooter, "simple", band=band)
        if action["type"] == "manoeuvre" and action["name"] == "Sniper":
            snipers = [m for m in game.on_table(seat) if can_snipe(game.model(m))]
            if snipers:
                sniper = max(snipers, key=lambda m: (game.model(m)["size"], -game.model(m)["damage"], m))
                return self._attack(game, seat, sniper, "complex", sniper=True)
        return None

    def _attack(self, game: FarsideEncounter, seat: int, mid: str, kind: str, sniper: bool = False, band: str | None = None) -> Action | None:
        """The stand-in attack of model ``mid`` (:mod:`.standin`): impact tokens on the enemy model it
        can best finish off. A model the enemy redeployed this round is out of reach while another is
        in it; one it sent to seek cover saves each impact token on a 5+ (the rulebook's cover
        without terrain)."""
        target = self._target(game, 1 - seat)
        if target is None or kind not in ("simple", "complex"):
            return None

        def counts(face: int) -> int:
            return int(game.counts_as(mid, face))

        if sniper:  # a focused shot over 30 cm
            hits = roll_attack(game.model(mid), kind, self.rng, counts, band="inf", melee=False)
        else:
            hits = roll_attack(game.model(mid), kind, self.rng, counts, band=band)
        if target == round_manoeuvre(game, 1 - seat, "Seek Cover"):
            hits -= sum(1 for _ in range(hits) if self.rng.between(1, 6) >= 5)
        return Action({"type": "impact", "model": target, "tokens": hits}) if hits else None

    def _manoeuvre(self, game: FarsideEncounter, seat: int) -> Action | None:
        """A manoeuvre die of 5+ saves a model at two damage tokens: for a loot or breakthrough primary
        it Disappears once it has moved this turn (carrying loot off the table), else it is cured."""
        if game.manoeuvre_used[seat] is not None or (game.manoeuvre_die[seat] or 0) < 5:
            return None
        primary = (game.secrets[seat] or {}).get("primary")
        leaves = primary == "breakthrough" or (primary == "loot" and game.loot_left > 0)
        for mid in [mid for mid in game.on_table(seat) if game.model(mid)["damage"] >= 2]:
            if leaves and len(game.on_table(seat)) > 1:
                if not game.model(mid)["activated"]:
                    continue  # it moves first (to the loot token), then Disappears
                disappear = Action({"type": "manoeuvre", "player": seat, "name": "Disappear", "model": mid})
                if primary == "loot":
                    disappear = disappear.replace(loot=True)
                if game.is_legal(disappear) and table_allows(game, disappear, seat):
                    return disappear
            cure = Action({"type": "manoeuvre", "player": seat, "name": "Cure", "model": mid})
            if game.is_legal(cure):
                return cure
        return None

    def _late_manoeuvre(self, game: FarsideEncounter, seat: int) -> Action | None:
        """An unused manoeuvre die at the end of its turn. A 3 or 4 after the first turn, before the
        enemy acts: a Sniper shot (with a long-range weapon), Suppressive Fire (a quick shot), Seek
        Cover or Redeploy for its most valuable model. A 5+ kept through the second turn of the round
        (nothing needed Cure, Evade or Disappear): now and then a Heroic Reaction (a simple action)."""
        die = game.manoeuvre_die[seat] or 0
        if game.phase != "action" or game.manoeuvre_used[seat] is not None or not game.on_table(1 - seat):
            return None
        if die >= 5:
            heroic = Action({"type": "manoeuvre", "player": seat, "name": "Heroic Reaction"})
            if game.first != seat and self.rng.random() < 0.3 and game.is_legal(heroic):
                return heroic
            return None
        if die < 3 or game.first != seat:
            return None
        names = [n for n in LATE_MANOEUVRES
                 if n != "Sniper" or any(can_snipe(game.model(m)) for m in game.on_table(seat))]
        name = self.rng.choice(names)
        action = Action({"type": "manoeuvre", "player": seat, "name": name})
        if name in ("Seek Cover", "Redeploy"):
            valued = max(game.on_table(seat), key=lambda m: (game.model(m)["points"], -game.model(m)["damage"], m))
            action = action.replace(model=valued)
        return action if game.is_legal(action) else None

    def _mission(self, game: FarsideEncounter, seat: int, primary: str | None) -> Action | None:
        if primary == "grand slam":  # four kinds of mission: carry loot off while there is some, else secure
            primary = "loot" if game.loot_left > 0 else "secure"
        if primary == "secure":
            for zone in range(1, game.secure_zones + 1):
                secure = Action({"type": "secure", "zone": zone})
                if game.secured.get(zone) != seat and table_allows(game, secure, seat):
                    return secure
        moved = [mid for mid in game.on_table(seat) if game.model(mid)["activated"]]
        if not moved:
            return None
        weakest = max(moved, key=lambda m: (game.model(m)["damage"], m))
        if primary == "loot" and game.loot_left > 0 and self.rng.random() < 0.5:
            action = Action({"type": "loot", "model": weakest})
        elif primary == "breakthrough" or game.model(weakest)["damage"] >= 2:
            action = Action({"type": "break_through", "model": weakest})
            crossing = Action({"type": "dead_zone", "model": weakest})
            # Half the tables have a dead zone across the middle: a model crossing it rolls first.
            if table_allows(game, action, seat) and game.is_legal(crossing) and self.rng.random() < 0.5:
                return crossing
        else:
            return None
        return action if table_allows(game, action, seat) else None

    def _target(self, game: FarsideEncounter, enemy: int) -> str | None:
        """The enemy model closest to being removed, the most expensive among equals, half the time;
        else any enemy model (the one in sight). Never one the enemy redeployed this round out of
        reach, while another is in reach."""
        models = game.on_table(enemy)
        away = round_manoeuvre(game, enemy, "Redeploy")
        if away in models and len(models) > 1:
            models = [m for m in models if m != away]
        if len(models) > 1 and self.rng.random() < 0.5:
            return str(self.rng.choice(sorted(models)))  # the model in sight is not always the weakest
        if not models:
            return None
        best: str = max(models, key=lambda m: (game.model(m)["damage"], game.model(m)["points"], m))
        return best


def round_manoeuvre(game: FarsideEncounter, player: int, name: str) -> str | None:
    """The model ``player`` named with manoeuvre ``name`` this round, if it used its die so."""
    if game.manoeuvre_used[player] != name:
        return None
    for entry in reversed(game.log):
        if not is_action_entry(entry):
            continue
        action = entry["action"]
        if action["type"] == "manoeuvre" and action["player"] == player and action["name"] == name:
            return str(action["model"]) if "model" in action else None
    return None


def fresh_damage(game: FarsideEncounter, mid: str) -> float:
    """The mean damage of a fresh defence roll of model ``mid``'s impact tokens (size ignores fails;
    a chosen model's ones count as sixes)."""
    model = game.model(mid)
    dice, ignored = model["impact"], model["size"] - 1
    fail = sum(1 for face in range(1, 7) if game.counts_as(mid, face) < model["defense"]) / 6
    return sum(
        math.comb(dice, k) * fail**k * (1 - fail) ** (dice - k) * max(0, k - ignored) for k in range(dice + 1)
    )


def kind_of(name: str) -> str:
    """A model's kind: its name without the number of its copy ("Warrior 3" -> "Warrior")."""
    return name.rstrip("0123456789").rstrip()


def group_joinable(game: FarsideEncounter, mid: str) -> bool:
    """Whether ``mid`` may join the open activation at the stand-in table: the activation was just
    made this turn by one model alone (no other joined) of ``mid``'s kind."""
    leader = None
    for done in reversed(this_turn(game)):
        if done["type"] == "activate":
            if done.get("group"):
                return False  # a second model already joined
            leader = done["model"]
            break
        if done["type"] not in ("impact", "roll", "failed", "accept", "regenerate"):
            return False
    return leader is not None and kind_of(game.model(leader)["name"]) == kind_of(game.model(mid)["name"])


def table_allows(game: FarsideEncounter, action: Action, seat: int) -> bool:
    """Whether a player could make ``action`` at the stand-in table (see the module docstring)."""
    kind = action["type"]
    if kind == "impact" or (kind == "manoeuvre" and action["player"] != seat):
        return False
    if kind == "dead_zone":  # one's own model that moved this turn, across the table's dead zone
        model = game.model(action["model"])
        return bool(model["owner"] == seat and model["activated"])
    if action.get("group"):  # a unit of two: one model joins an activation of the same kind of model
        return group_joinable(game, action["model"])
    if kind == "secure":  # a team gathered in the zone: team-size models moved there this turn for each zone
        team = (game.secrets[seat] or {}).get("team_size", 1)
        moved = sum(1 for mid in game.on_table(seat) if game.model(mid)["activated"])
        secured = sum(1 for done in this_turn(game) if done["type"] == "secure")
        return moved >= team * (secured + 1)
    if kind == "manoeuvre" and action["name"] == "Disappear":
        if len(game.on_table(seat)) <= 1:
            return False
        return not action.get("loot") or game.model(action["model"])["activated"]
    if kind in ("loot", "break_through"):
        if not game.model(action["model"])["activated"] or len(game.on_table(seat)) <= 1:
            return False
        return kind == "loot" or game.round >= LATE_ROUND
    return True
