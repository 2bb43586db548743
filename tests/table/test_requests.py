"""A seat's request is parsed once (``table/requests.py``) and every place refuses the same bad ones:
``true`` is not a seat and not a log length (``isinstance(True, int)`` holds in Python), in the
parser, the host's seat pages (the real server), the browser table's worker (its own screen's
requests and a phone's, ``AppTable.seat_request``; ``AppTable.act``)."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest

from tablelight.app.engine import AppTable
from tablelight.table.intents import Choose, Narrow
from tablelight.table.requests import RequestError, answer_request, parse_request

from ..web.conftest import serving

ACTION = {"type": "place", "card": 0, "x": 0, "y": 0, "rotation": 0}


@pytest.mark.parametrize("seat, what, body, words", [
    (True, "act", {"action": ACTION, "at": 3}, "'seat' must be a seat's number (0, 1, ...), not true"),
    (False, "narrow", {"chosen": {}, "at": 3}, "not false"),
    ("0", "act", {"action": ACTION, "at": 3}, 'not "0"'),
    (-1, "act", {"action": ACTION, "at": 3}, "not -1"),
    (0, "act", {"action": ACTION, "at": True}, "'at' must be the log's length the choice was shown at (0, 1, ...), not true"),
    (0, "narrow", {"chosen": {}, "at": 1.0}, "'at' must be the log's length"),
    (0, "act", {"action": ACTION}, "not null"),
    (0, "act", {"action": "camp", "at": 3}, "'action' must be a JSON object, not \"camp\""),
    (0, "narrow", {"chosen": [1], "at": 3}, "'chosen' must be a JSON object"),
    (0, "jump", {"action": ACTION, "at": 3}, "'what' must be \"act\" or \"narrow\", not \"jump\""),
    (0, "act", [ACTION], 'send {"action": {...}, "at": log length}'),
])
def test_a_bad_request_gets_one_sentence_naming_what_is_wrong(seat, what, body, words) -> None:
    with pytest.raises(RequestError) as raised:
        parse_request(seat, what, body)
    assert words in str(raised.value)
    sent = []
    reply = answer_request(sent.append, 2, seat, what, body)
    assert words in str(reply.to_json()["error"]) and not sent  # nothing reached the table


def test_a_good_request_is_the_tables_intent() -> None:
    assert parse_request(1, "act", {"action": ACTION, "at": 4}) == Choose(ACTION, seat=1, at=4)
    assert parse_request(0, "narrow", {"chosen": {"card": 2}, "at": 0}) == Narrow({"card": 2}, seat=0, at=0)
    assert "there is no seat 2" in str(answer_request(lambda intent: None, 2, 2, "act", {"action": ACTION, "at": 0}).error)


def test_the_host_pages_refuse_true_for_a_seat_or_a_position() -> None:
    with serving() as served:
        device = served.join(0)
        headers = {"Origin": served.base, "X-Seat-Token": device}
        state = httpx.get(f"{served.base}/api/seat/0", headers=headers).json()
        before, code = list(served.game.log), served.web.access.pass_of(1).code
        for what, body in (("act", {"action": ACTION, "at": True}), ("narrow", {"chosen": {}, "at": True})):
            answer = httpx.post(f"{served.base}/api/seat/0/{what}", json=body, headers=headers)
            assert answer.status_code == 400 and "'at' must be the log's length" in answer.json()["error"], answer.text
        host = {"Origin": served.base, "X-Host-Token": served.web.access.host_token}
        dropped = httpx.post(f"{served.base}/api/host/drop", json={"seat": True}, headers=host)
        assert dropped.status_code == 400 and "seat must be one of" in dropped.json()["error"]
        assert served.game.log == before and state["at"] == len(before)
        assert served.web.access.pass_of(1).code == code and served.web.access.joined(0)  # seat 1 (== True) kept its code


def test_the_browser_table_refuses_true_for_a_seat_or_a_position() -> None:
    async def play() -> None:
        table = AppTable()
        table.start(json.dumps({"game": "mainland", "seats": ["human", "human"], "seed": 5, "bot_delay": 0}))
        await asyncio.sleep(0.05)
        whole = json.loads(table.snapshot())
        acting = next(int(seat) for seat, view in whole["seats"].items() if view["your_turn"])
        view = whole["seats"][str(acting)]
        action = view["choices"][0]["action"]

        def request(seat: object, what: str, body: object) -> dict:
            return dict(json.loads(table.seat_request(json.dumps({"seat": seat, "what": what, "body": body}))))

        assert "'seat' must be a seat's number" in request(True, "act", {"action": action, "at": view["at"]})["error"]
        assert "'at' must be the log's length" in request(acting, "act", {"action": action, "at": True})["error"]
        assert "'at' must be the log's length" in request(acting, "narrow", {"chosen": {}, "at": True})["error"]
        page = json.loads(table.act(json.dumps({"seat": True, "action": action, "at": view["at"]})))
        assert page["done"] is False and "'seat' must be a seat's number" in page["words"]
        assert json.loads(table.snapshot())["actions"] == whole["actions"]  # nothing changed
        assert request(acting, "act", {"action": action, "at": view["at"]})["applied"] is True
        table.stop()

    asyncio.run(play())

