"""``tablelight rules serve``: a JSON-lines rules server any client can drive.

One request per line on stdin, one response per line on stdout, in order, the
way chess GUIs drive engines over UCI. Requests are JSON objects with ``cmd``
and an optional ``id`` that is echoed back. Every response has ``"ok"``; a
failed request gets ``"ok": false`` and an ``error`` object (``kind``,
``message`` and, for illegal actions, the ``rule``) and changes nothing. A bad
line never stops the server. A client that plays one seat of a game with
secrets adds ``"as_seat": n`` to its requests: answers then carry only what
that seat may see (never the seed), and only that seat's actions are applied. See ``docs/rules-serve.md`` for every command.
"""

from __future__ import annotations

import io
import json
import sys
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from typing import IO, Any

from tablelight import __version__
from tablelight.core.actions import Action
from tablelight.core.errors import IllegalActionError, RecordError, TablelightError
from tablelight.core.fields import is_player_action, is_whole
from tablelight.core.game import Game
from tablelight.core.inputs import InputError, parse_json
from tablelight.core.record import replay
from tablelight.core.registry import game_class, game_names
from tablelight.core.rng import secret_seed

PROTOCOL = "tablelight-rules/1"
#: A request line longer than this is answered with an error and skipped (records are far smaller).
MAX_LINE_BYTES = 4 * 1024 * 1024
#: At most this many games are kept; a new one beyond it frees a finished game (the least recently
#: used first), else the least recently used one. Memory stays bounded however long a client runs.
MAX_GAMES = 64
#: A game nobody asked about for this long is freed when the next game is created or loaded.
IDLE_SECONDS = 3600.0


class RequestError(Exception):
    """A request the server cannot carry out (bad shape, unknown game id...)."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message


def _field(request: dict[str, Any], name: str, kind: type | tuple[type, ...], default: Any = ...) -> Any:
    if name not in request:
        if default is ...:
            raise RequestError("BadRequest", f"{request.get('cmd')!r} needs the field {name!r}")
        return default
    value = request[name]
    if not isinstance(value, kind) or (kind is int and not is_whole(value)):
        names = kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
        raise RequestError("BadRequest", f"field {name!r} must be {names}, got {value!r}")
    return value


class RulesServer:
    """Holds the games of one session and answers requests (no I/O here)."""

    def __init__(self, max_games: int = MAX_GAMES, idle_seconds: float = IDLE_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        #: game id -> game, least recently used first
        self.games: OrderedDict[int, Game] = OrderedDict()
        self._used: dict[int, float] = {}
        self.max_games = max_games
        self.idle_seconds = idle_seconds
        self.clock = clock
        self.last_id: int | None = None
        self._next_id = 1
        self.commands: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
            "hello": self.hello,
            "games": self.list_games,
            "new": self.new,
            "load": self.load,
            "state": self.state,
            "legal": self.legal,
            "apply": self.apply,
            "undo": self.undo,
            "view": self.view,
            "scores": self.scores,
            "record": self.record,
            "bot": self.bot,
            "close": self.close,
            "quit": self.quit,
        }

    # -------------------------------------------------------------- plumbing

    def handle_line(self, line: str | bytes) -> dict[str, Any]:
        try:
            request = parse_json(line, "the line", max_bytes=MAX_LINE_BYTES)
        except InputError as error:
            return self._error(None, "BadJSON", str(error))
        if not isinstance(request, dict):
            return self._error(None, "BadRequest", "a request is a JSON object like {\"cmd\": \"hello\"}")
        return self.handle(request)

    def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        request_id = echoable_id(request.get("id"))
        command = request.get("cmd")
        handler = self.commands.get(command) if isinstance(command, str) else None
        if handler is None:
            known = ", ".join(sorted(self.commands))
            return self._error(request_id, "UnknownCommand", f"unknown cmd {command!r}; commands: {known}")
        try:
            answer = handler(request)
        except IllegalActionError as error:
            return {"id": request_id, "ok": False, "error": error.to_json()}
        except RequestError as error:
            return self._error(request_id, error.kind, error.message)
        except RecordError as error:
            response = self._error(request_id, "RecordError", error.message)
            response["error"]["entry"] = error.entry
            return response
        except TablelightError as error:
            return self._error(request_id, type(error).__name__, str(error))
        except Exception as error:  # a server must outlive a bug: report it, keep serving
            return self._error(request_id, "InternalError", f"{type(error).__name__}: {error}")
        return {"id": request_id, "ok": True, **answer}

    @staticmethod
    def _error(request_id: Any, kind: str, message: str) -> dict[str, Any]:
        return {"id": request_id, "ok": False, "error": {"kind": kind, "message": message}}

    def _game(self, request: dict[str, Any]) -> tuple[int, Game]:
        game_id = _field(request, "game_id", int, self.last_id)
        if game_id is None:
            raise RequestError("NoGame", "no game yet: send {\"cmd\": \"new\", \"game\": ...} first")
        if game_id not in self.games:
            if 0 < game_id < self._next_id:
                raise RequestError("NoGame", f"game {game_id} is closed: by `close`, or freed to keep memory bounded "
                                   f"(at most {self.max_games} games, none idle over {self.idle_seconds:g} s): "
                                   "load its record again")
            raise RequestError("NoGame", f"no game with game_id {game_id}")
        self.games.move_to_end(game_id)
        self._used[game_id] = self.clock()
        return game_id, self.games[game_id]

    def _register(self, game: Game) -> int:
        self._free_room()
        game_id = self._next_id
        self._next_id += 1
        self.games[game_id] = game
        self._used[game_id] = self.clock()
        self.last_id = game_id
        return game_id

    def _forget(self, game_id: int) -> None:
        del self.games[game_id]
        del self._used[game_id]
        if self.last_id == game_id:
            self.last_id = None

    def _free_room(self) -> None:
        """Free idle games, then (at the limit) a finished one, else the least recently used."""
        now = self.clock()
        for game_id in [i for i, used in self._used.items() if now - used > self.idle_seconds]:
            self._forget(game_id)
        while len(self.games) >= self.max_games:
            finished = next((i for i, game in self.games.items() if game.is_over()), None)
            self._forget(finished if finished is not None else next(iter(self.games)))

    @staticmethod
    def _seat_scope(request: dict[str, Any], game: Game) -> int | None:
        """The seat a client plays as (``as_seat``): answers then show only what that seat may see."""
        seat = _field(request, "as_seat", int, None)
        if seat is not None and not 0 <= seat < game.players:
            raise RequestError("BadRequest", f"as_seat must be 0-{game.players - 1}, got {seat}")
        return seat

    @staticmethod
    def _refuse_other_seat(scope: int | None, seat: int | None, what: str) -> None:
        """A client scoped to seat ``scope`` may not act (or ask) for another ``seat``."""
        if scope is not None and seat != scope:
            whose = "nobody's (the game is over)" if seat is None else f"seat {seat}'s"
            raise RequestError("NotYourSeat", f"as_seat {scope} may {what} only for seat {scope}; this is {whose}")

    def _summary(self, request: dict[str, Any], game_id: int, game: Game) -> dict[str, Any]:
        seat = self._seat_scope(request, game)
        state = game.state() if seat is None else game.view(seat)
        return {"game_id": game_id, "seat": game.current_seat(), "over": game.is_over(), "state": state}

    def _log_since(self, request: dict[str, Any], game: Game, start: int) -> list[Any]:
        seat = self._seat_scope(request, game)
        log = game.log if seat is None else game.view_log(seat)
        return list(log[start:])

    # -------------------------------------------------------------- commands

    def hello(self, request: dict[str, Any]) -> dict[str, Any]:
        return {"protocol": PROTOCOL, "version": __version__, "games": game_names()}

    def list_games(self, request: dict[str, Any]) -> dict[str, Any]:
        games = []
        for name in game_names():
            cls = game_class(name)
            games.append(
                {
                    "name": name,
                    "players": [cls.min_players, cls.max_players],
                    "options": [
                        {"name": s.name, "type": s.kind.__name__, "help": s.help} for s in cls.option_specs
                    ],
                    "bots": cls.bot_names(),
                }
            )
        return {"games": games}

    def new(self, request: dict[str, Any]) -> dict[str, Any]:
        cls = game_class(_field(request, "game", str))
        players = _field(request, "players", int, cls.min_players)
        # No seed given: a secret one, so that no seat can guess the hidden cards it decides.
        seed = _field(request, "seed", int, None)
        if seed is None:
            seed = secret_seed()
        options = _field(request, "options", dict, {})
        setup = {"map": _field(request, "map", dict)} if "map" in request else None
        game = cls(players, options, seed, setup=setup)
        game_id = self._register(game)
        return self._summary(request, game_id, game)

    def load(self, request: dict[str, Any]) -> dict[str, Any]:
        game = replay(_field(request, "record", dict))
        game_id = self._register(game)
        return self._summary(request, game_id, game)

    def state(self, request: dict[str, Any]) -> dict[str, Any]:
        return self._summary(request, *self._game(request))

    def legal(self, request: dict[str, Any]) -> dict[str, Any]:
        game_id, game = self._game(request)
        seat = self._seat_scope(request, game)
        # Another seat's options can reveal its hidden cards: list them only for the seat to act.
        actions = game.legal_actions() if seat is None or seat == game.current_seat() else []
        return {"game_id": game_id, "seat": game.current_seat(), "actions": actions}

    def apply(self, request: dict[str, Any]) -> dict[str, Any]:
        game_id, game = self._game(request)
        action = Action.parse(_field(request, "action", dict), "the request's 'action'")
        seat = _field(request, "seat", int, None)
        scope = self._seat_scope(request, game)
        if scope is not None:
            if seat is not None and seat != scope:
                raise RequestError("NotYourSeat", f"as_seat {scope} may apply actions only for seat {scope}, not seat {seat}")
            seat = scope  # checked by the engine: refused unless it is that seat's turn
        before = len(game.log)
        game.apply(action, seat=seat)
        return {**self._summary(request, game_id, game), "log": self._log_since(request, game, before)}

    def undo(self, request: dict[str, Any]) -> dict[str, Any]:
        game_id, game = self._game(request)
        scope = self._seat_scope(request, game)
        if scope is not None:
            last = next((e for e in reversed(game.log) if is_player_action(e)), None)
            self._refuse_other_seat(scope, None if last is None else last["seat"], "undo actions")
        undone = game.undo()
        return {**self._summary(request, game_id, game), "undone": undone}

    def view(self, request: dict[str, Any]) -> dict[str, Any]:
        game_id, game = self._game(request)
        seat = _field(request, "seat", int)
        self._refuse_other_seat(self._seat_scope(request, game), seat, "view the game")
        return {"game_id": game_id, "seat": seat, "view": game.view(seat), "log": game.view_log(seat)}

    def scores(self, request: dict[str, Any]) -> dict[str, Any]:
        game_id, game = self._game(request)
        return {"game_id": game_id, "over": game.is_over(), **game.result()}

    def record(self, request: dict[str, Any]) -> dict[str, Any]:
        game_id, game = self._game(request)
        record = game.to_record()
        seat = self._seat_scope(request, game)
        if seat is not None:
            # The seed decides every hidden card: a seat's record never carries it.
            del record["seed"]
            for key in game.secret_setup:  # a starting position with every seat's cards, say
                record.pop(key, None)
            record["as_seat"] = seat
            record["log"] = game.view_log(seat)
        return {"game_id": game_id, "record": record}

    def bot(self, request: dict[str, Any]) -> dict[str, Any]:
        game_id, game = self._game(request)
        if game.is_over():
            raise RequestError("GameOver", "the game is over")
        # A bot decides from the whole game, hidden cards included: a scoped client may ask
        # only for its own seat's move.
        self._refuse_other_seat(self._seat_scope(request, game), game.current_seat(), "ask the bot")
        bot = type(game).make_bot(_field(request, "bot", str, "random"), _field(request, "seed", int, 0))
        action = bot.choose(game.clone())
        applied = bool(_field(request, "apply", bool, False))
        before = len(game.log)
        if applied:
            game.apply(action)
        return {
            **self._summary(request, game_id, game),
            "action": action,
            "applied": applied,
            "log": self._log_since(request, game, before),
        }

    def quit(self, request: dict[str, Any]) -> dict[str, Any]:
        return {"bye": True}

    def close(self, request: dict[str, Any]) -> dict[str, Any]:
        game_id, _ = self._game(request)
        self._forget(game_id)
        return {"game_id": game_id, "closed": True}


def echoable_id(value: Any) -> Any:
    """The request's ``id`` if it can be written back as JSON (no NaN or Infinity), else null."""
    try:
        json.dumps(value, allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        return None
    return value


def request_lines(stdin: IO[bytes], limit: int | None = None) -> Iterator[bytes | None]:
    """The lines of ``stdin`` as bytes (decoded later, strictly); ``None`` for a line over ``limit``
    (default :data:`MAX_LINE_BYTES`), whose rest is read and thrown away without holding it."""
    limit = limit or MAX_LINE_BYTES
    while True:
        line = stdin.readline(limit + 1)
        if not line:
            return
        if len(line) > limit and not line.endswith(b"\n"):
            while True:
                rest = stdin.readline(limit)
                if not rest or rest.endswith(b"\n"):
                    break
            yield None
            continue
        yield line


def serve(stdin: IO[bytes] | IO[str] | None = None, stdout: IO[str] | None = None) -> int:
    """Answer requests line by line until end of input or ``{"cmd": "quit"}``."""
    source: Any = stdin if stdin is not None else sys.stdin.buffer
    if isinstance(source, io.TextIOBase):  # a text stream (tests): the bytes underneath, if any
        source = getattr(source, "buffer", None) or io.BytesIO(source.read().encode("utf-8", "surrogateescape"))
    stdout = stdout or sys.stdout
    server = RulesServer()
    for line in request_lines(source):
        if line is None:
            response = server._error(None, "LineTooLong", f"a request line is at most {MAX_LINE_BYTES} bytes")
        elif not line.strip():
            continue
        else:
            response = server.handle_line(line)
        try:
            text = json.dumps(response, separators=(",", ":"), allow_nan=False)
        except (TypeError, ValueError, RecursionError) as error:  # an answer JSON cannot carry
            text = json.dumps(server._error(response.get("id"), "InternalError", f"cannot answer in JSON: {error}"))
        stdout.write(text + "\n")
        stdout.flush()
        if response.get("bye"):
            break
    return 0
