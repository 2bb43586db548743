"""The routes of the table's web server (Starlette). Wrapped by :class:`~tablelight.web.guard.Guard`.

Public (anyone who can reach the address; nothing secret):

* ``GET /`` the board page: the LEDs, whose turn, the public log, scores, who joined;
* ``GET /join`` the join page (a seat's link lands here with ``?token=``; or type a code);
* ``GET /seat/N`` the shell of seat N's page (it holds no data: the data come over the socket);
* ``WS /ws/board`` the LEDs and the public snapshot, live.

A seat's (header ``X-Seat-Token`` or, for the socket, ``?token=``: the device token from joining):

* ``POST /api/join`` ``{"token": ...}`` or ``{"code": ...}`` -> ``{"seat", "device"}``;
* ``GET /api/seat/N`` seat N's snapshot; ``POST /api/seat/N/act`` ``{"action", "at"}``;
* ``POST /api/seat/N/narrow`` ``{"chosen", "at"}``: part of an action (field -> value, ``{}``
  forgets it) for the board to show as if its keys had chosen it;
* ``WS /ws/seat/N?token=`` the LEDs and seat N's snapshot, live (closed with 4401 when the
  device is dropped).

The host's (header ``X-Host-Token``, the token of the host page's address, which only its owner
gets: :mod:`tablelight.web.host_link`):

* ``POST /api/press/K`` presses key K of the board; ``GET /api/host`` join links and codes;
  ``POST /api/host/drop`` ``{"seat"}`` drops a seat's device and issues a new code;
  ``POST /api/host/again`` once the game is over, a new game of the same game, seats, options and
  bots (:meth:`TableSession.play_again`; ``{"game": its id}``; 409 with one sentence while the game runs): every seat keeps its
  device and token, and the pages move to the new game live.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import segno
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates
from starlette.websockets import WebSocket, WebSocketDisconnect

from tablelight.core.errors import TablelightError
from tablelight.core.fields import is_whole
from tablelight.table.session import TableSession
from tablelight.view.colors import DISPLAY_GAMMA
from tablelight.web.access import Access, JoinRefused
from tablelight.web.desk import Desk
from tablelight.web.drawing import svg
from tablelight.web.parting import Parting
from tablelight.web.pulse import Pulse

HERE = Path(__file__).parent
#: How often a socket reads LEDs that change by themselves, or a board that went away (seconds).
FRAME = 0.1
#: The shortest time between two pictures sent to a socket of the shared page without a token (seconds).
PUBLIC_GAP_S = 0.25
#: Snapshots kept encoded (the shared page's and each seat's, with room for the ones just replaced).
ENCODED_KEPT = 32
#: Close code of a seat socket whose token is not (or no longer) valid.
TOKEN_REFUSED = 4401


@dataclass
class BoardFeed:
    """The board the pages show: its layout, what its LEDs show, and how to press a key."""

    layout: dict[str, Any]
    pixels: Callable[[], Sequence[Sequence[int]]]
    press: Callable[[int], object]
    title: str = ""
    labels: dict[int, str] = field(default_factory=dict)
    #: Beats when the LEDs change (None: the desk's pulse, or a read every ``poll`` seconds).
    pulse: Pulse | None = None
    #: Seconds between reads of LEDs that change by themselves (a simulated board animating), or None.
    poll: float | None = None


def make_app(board: BoardFeed, *, session: TableSession | None = None, desk: Desk | None = None, access: Access | None = None,
             base_url: Callable[[], str] = lambda: "", parting: Parting | None = None) -> Starlette:
    """The app for ``board``; with ``session`` (its one request entry and play again), its ``desk``
    (what the pages show) and ``access`` also the seats' pages. ``parting``: the open sockets'
    account of what they sent, flushed when the host stops (:mod:`tablelight.web.parting`)."""
    parting = parting if parting is not None else Parting()
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    # names this table in the pages' storage: kept across resume with the seats' devices (web.access)
    table_id = access.table_id if access is not None else secrets.token_hex(6)
    labelled_svg = svg(board.layout, board.labels)
    title = board.title or f"{board.layout['id']} board"
    keys = int(board.layout["keys"])
    page_data = {"title": title, "gamma": repr(DISPLAY_GAMMA), "table": table_id}

    def host_ok(request: Request) -> bool:
        return access is not None and access.is_host(request.headers.get("x-host-token"))

    async def board_page(request: Request) -> Response:
        # a seat to join only where a person plays: a bots-only game's page offers none
        joinable = access is not None and bool(access.seats)
        return templates.TemplateResponse(request, "board.html",
                                          {**page_data, "svg": labelled_svg, "seats": desk is not None, "joinable": joinable})

    async def join_page(request: Request) -> Response:
        return templates.TemplateResponse(request, "join.html", page_data)

    async def seat_page(request: Request) -> Response:
        seat = request.path_params["seat"]
        if access is None or seat not in access.seats:
            return JSONResponse({"error": "no such seat"}, status_code=404)
        return templates.TemplateResponse(request, "seat.html", {**page_data, "svg": labelled_svg, "seat": seat})

    async def join(request: Request) -> Response:
        body = await json_body(request)
        if access is None:
            return JSONResponse({"error": "this table has no seats to join"}, status_code=404)
        token, code = body.get("token"), body.get("code")
        if not isinstance(token, (str, type(None))) or not isinstance(code, (str, type(None))):
            return JSONResponse({"error": "token and code are text"}, status_code=400)
        try:
            seat, device = access.join(token=token, code=code, client=request.client.host if request.client else None)
        except JoinRefused as refused:
            if refused.retry_after:
                return JSONResponse({"error": str(refused)}, status_code=429, headers={"Retry-After": str(refused.retry_after)})
            return JSONResponse({"error": str(refused)}, status_code=403)
        if desk is not None:
            desk.changed()
        return JSONResponse({"seat": seat, "device": device})

    def seat_allowed(request: Request) -> int | None:
        seat = request.path_params["seat"]
        if access is None or not access.is_seat(seat, request.headers.get("x-seat-token")):
            return None
        return int(seat)

    async def seat_state(request: Request) -> Response:
        seat = seat_allowed(request)
        if seat is None or desk is None:
            return JSONResponse({"error": "this seat's token is needed"}, status_code=403)
        return JSONResponse(desk.seat(seat) or {})

    async def seat_request(request: Request, what: str) -> Response:
        """A seat's page sends ``{"action" | "chosen": {...}, "at": log length}`` (a whole action to
        apply, or the fields chosen so far to narrow by); parsed once and taken through the one door."""
        seat = seat_allowed(request)
        if seat is None or session is None or desk is None:
            return JSONResponse({"error": "this seat's token is needed"}, status_code=403)
        try:
            reply = session.request(seat, what, await json_body(request))
        finally:
            desk.changed()  # a narrowed choice changes the seat's list without a table event
        status = 400 if reply.error is not None else 200 if reply.done else 409
        return JSONResponse(reply.to_json(), status_code=status)

    async def seat_act(request: Request) -> Response:
        return await seat_request(request, "act")

    async def seat_narrow(request: Request) -> Response:
        return await seat_request(request, "narrow")

    async def press(request: Request) -> Response:
        if not host_ok(request):
            return JSONResponse({"error": "pressing the board's keys needs the host's token"}, status_code=403)
        key = request.path_params["key"]
        if not 0 <= key < keys:
            return JSONResponse({"error": f"key must be 0-{keys - 1}"}, status_code=400)
        board.press(key)
        return Response(status_code=204)

    async def host_state(request: Request) -> Response:
        if not host_ok(request) or access is None:
            return JSONResponse({"error": "the host's token is needed"}, status_code=403)
        seats = []
        for seat in access.seats:
            found = access.pass_of(seat)
            link = join_link(base_url(), found.join_token) if found.join_token else None
            seats.append({
                "seat": seat,
                "label": desk.table.seat_label(seat) if desk is not None else f"seat {seat}",
                "joined": access.joined(seat),  # a device joined now, or before resume
                "link": link,
                "code": found.code,
                "qr": segno.make(link).svg_inline(scale=3) if link else None,
            })
        return JSONResponse({"seats": seats})

    async def host_drop(request: Request) -> Response:
        if not host_ok(request) or access is None:
            return JSONResponse({"error": "the host's token is needed"}, status_code=403)
        seat = (await json_body(request)).get("seat")
        if not is_whole(seat) or seat not in access.seats:  # a bool is not a seat (True == 1)
            return JSONResponse({"error": f"seat must be one of {access.seats} (a whole number), not {json.dumps(seat)}"},
                                status_code=400)
        issued = access.drop(seat)
        if desk is not None:
            desk.changed()
        return JSONResponse({"seat": seat, "code": issued.code, "link": join_link(base_url(), issued.join_token)})

    async def host_again(request: Request) -> Response:
        """A new game of the same seats, once this one is over: every page and device moves to it."""
        if not host_ok(request) or session is None or desk is None:
            return JSONResponse({"error": "starting a new game needs the host's token"}, status_code=403)
        try:
            session.play_again()  # refused while the game runs, or when the host is stopping
        except TablelightError as error:
            return JSONResponse({"error": str(error)}, status_code=409)
        return JSONResponse({"game": session.game_id, "title": desk.title})

    async def board_socket(websocket: WebSocket) -> None:
        await websocket.accept()
        # Everyone may watch the shared page, strangers too: their sockets get at most a few pictures a
        # second (the latest), so watchers cannot slow the seats; the host's gets every change.
        placed = access is not None and access.has_place(websocket.query_params.get("token"))
        await stream(websocket, lambda: desk.public() if desk is not None else None, lambda: True,
                     least_gap=0.0 if placed else PUBLIC_GAP_S)

    async def seat_socket(websocket: WebSocket) -> None:
        seat = websocket.path_params["seat"]
        token = websocket.query_params.get("token")
        await websocket.accept()
        if access is None or desk is None or not access.is_seat(seat, token):
            await websocket.close(TOKEN_REFUSED, "this device has no (longer a) place at the table: join again")
            return
        await stream(websocket, lambda: desk.seat(seat), lambda: access.is_seat(seat, token))

    pulse = board.pulse if board.pulse is not None else (desk.pulse if desk is not None else None)
    #: id(snapshot) -> (snapshot, its message): a snapshot is encoded once for every socket that sends it
    #: (the desk replaces snapshots whole, so one object is one version; the entry keeps its id from reuse).
    encoded: OrderedDict[int, tuple[Any, str]] = OrderedDict()

    def state_message(state: Any) -> str:
        kept = encoded.get(id(state))
        if kept is not None and kept[0] is state:
            return kept[1]
        text = json.dumps({"state": state}, separators=(",", ":"), ensure_ascii=False)
        encoded[id(state)] = (state, text)
        while len(encoded) > ENCODED_KEPT:
            encoded.popitem(last=False)
        return text

    async def next_change(seen: int, timeout: float | None, least_gap: float) -> int:
        """Once ``least_gap`` seconds passed, wait for the pulse to pass ``seen`` (or ``timeout``)."""
        if least_gap:
            await parting.pause(least_gap)  # cut short when the host stops: the last picture goes at once
        if pulse is None:
            await asyncio.sleep(timeout if timeout is not None else FRAME)
            return 0
        return await pulse.wait(seen, timeout)

    async def stream(websocket: WebSocket, snapshot: Callable[[], Any], allowed: Callable[[], bool],
                     least_gap: float = 0.0) -> None:
        """Send the LEDs and the snapshot whenever they change, until the peer leaves or loses its place;
        at most one picture every ``least_gap`` seconds (changes in between are sent as the latest one).

        The socket sleeps until the pulse beats (the table changed); it reads the LEDs every
        ``board.poll`` seconds only when they change by themselves (a simulated board's animations).
        """
        sent_pixels: Any = None
        sent_version = -1

        def up_to_date() -> bool:  # has the page the latest snapshot (the host waits for it when it stops)
            state = snapshot()
            return state is None or state.get("version") == sent_version

        receiver = asyncio.ensure_future(websocket.receive())
        waiter: asyncio.Future[int] | None = None
        parting.opened(websocket, up_to_date)
        try:
            while True:
                if not allowed():
                    await websocket.close(TOKEN_REFUSED, "this device was dropped: ask the host for a new code")
                    return
                seen = pulse.count if pulse is not None else 0
                try:
                    pixels = [list(p[:3]) for p in board.pixels()]
                    reachable = True
                except Exception:  # the board went away: say so on the page
                    pixels, reachable = sent_pixels, False
                if pixels != sent_pixels:
                    await websocket.send_json({"pixels": pixels})
                    sent_pixels = pixels
                state = snapshot()
                if state is not None and state.get("version") != sent_version:
                    await websocket.send_text(state_message(state))
                    sent_version = state.get("version", -1)
                if not reachable:
                    await websocket.send_json({"board": False})
                parting.moved()
                timeout = board.poll if reachable else FRAME
                # the socket keeps reading its peer meanwhile (the receiver below): a peer that floods it is cut off
                waiter = asyncio.ensure_future(next_change(seen, timeout, least_gap))
                done, _ = await asyncio.wait({receiver, waiter}, return_when=asyncio.FIRST_COMPLETED)
                if receiver in done:
                    message = receiver.result()
                    if message.get("type") == "websocket.disconnect":
                        return
                    receiver = asyncio.ensure_future(websocket.receive())  # pages send nothing; ignore it
        except (WebSocketDisconnect, RuntimeError, OSError):
            return
        finally:
            parting.closed(websocket)
            receiver.cancel()
            if waiter is not None:
                waiter.cancel()

    routes = [
        Route("/", board_page),
        Route("/join", join_page),
        Route("/seat/{seat:int}", seat_page),
        Route("/api/join", join, methods=["POST"]),
        Route("/api/seat/{seat:int}", seat_state),
        Route("/api/seat/{seat:int}/act", seat_act, methods=["POST"]),
        Route("/api/seat/{seat:int}/narrow", seat_narrow, methods=["POST"]),
        Route("/api/press/{key:int}", press, methods=["POST"]),
        Route("/api/host", host_state),
        Route("/api/host/drop", host_drop, methods=["POST"]),
        Route("/api/host/again", host_again, methods=["POST"]),
        WebSocketRoute("/ws/board", board_socket),
        WebSocketRoute("/ws/seat/{seat:int}", seat_socket),
        Mount("/static", app=StaticFiles(directory=str(HERE / "static")), name="static"),
    ]
    return Starlette(routes=routes)


def join_link(base_url: str, token: str | None) -> str:
    return f"{base_url}/join?token={token}"


async def json_body(request: Request) -> dict[str, Any]:
    try:
        body = await request.json()
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}
