"""Who may read and act for a seat: join tokens, typed codes, device tokens and the host token.

Each human seat has, until a device joins it, a *join token* (in the join link's ``?token=``)
and a short *code* a person can type on the join page. Joining spends both and gives the
device a fresh *device token*: one device per seat, so a link or code seen on the shared
screen is useless once the seat's own player has joined. The host (whoever holds the host
token: the owner, from a private file, see :mod:`tablelight.web.host_link`) can drop a seat's
device, which revokes its token and issues a new join token and code. Tokens come from :mod:`secrets` and are compared with
:func:`hmac.compare_digest`. Typed codes are throttled per client and for the whole table
(:mod:`tablelight.web.throttle`); join links are not (their tokens cannot be guessed).

**Across ``resume``.** A joined device keeps its token in the page's storage, under the table's
name (:attr:`Access.table_id`). :meth:`Access.kept` gives that name and a SHA-256 digest of each
joined device's token (never the token itself), which ``tablelight play`` keeps with the game in
the store (:meth:`tablelight.table.store.GameStore.set_seat_devices`) each time a device joins
or is dropped; ``resume`` hands them back (``Access(..., kept=...)``), so the same name is used
and a phone that joined before is still placed, with no new code.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from tablelight.web.throttle import CodeThrottle

#: Letters and digits a person cannot mix up (no 0/O, 1/I/L).
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6


class JoinRefused(Exception):
    """A join token or code that does not open a seat (the message says why, for the page).

    ``retry_after`` (seconds) is set when the client must wait before typing another code.
    """

    def __init__(self, message: str, retry_after: int = 0) -> None:
        super().__init__(message)
        self.retry_after = retry_after


@dataclass
class SeatPass:
    seat: int
    join_token: str | None
    code: str | None
    device_token: str | None = None
    #: The join token this seat's device joined with (to tell a reused link from a wrong one).
    spent_token: str | None = None
    #: The SHA-256 digest of the token of a device that joined before ``resume`` (its token is not kept).
    device_digest: str | None = None


def same(a: str | None, b: str | None) -> bool:
    """Constant-time equality of two tokens (False when either is missing)."""
    if not a or not b:
        return False
    return hmac.compare_digest(a.encode("utf-8"), b.encode("utf-8"))


def token_digest(token: str) -> str:
    """What is kept of a device token: its SHA-256 digest (the token is random: no salt needed)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class KeptDevices:
    """What is kept of the joined devices with a stored game: the table's name in the pages'
    storage and, per seat, the digest of its device's token."""

    table_id: str
    digests: dict[int, str]

    def to_json(self) -> dict[str, object]:
        return {"table": self.table_id, "seats": {str(seat): digest for seat, digest in sorted(self.digests.items())}}

    @classmethod
    def from_json(cls, data: object) -> KeptDevices | None:
        """The kept devices from the store, or None when there are none or they are not as written."""
        if not isinstance(data, dict) or not isinstance(data.get("table"), str) or not isinstance(data.get("seats"), dict):
            return None
        digests = {int(seat): digest for seat, digest in data["seats"].items()
                   if isinstance(seat, str) and seat.isdigit() and isinstance(digest, str) and len(digest) == 64}
        return cls(data["table"], digests)


def holds(found: SeatPass, token: str | None) -> bool:
    """True when ``token`` is the token of the device holding ``found``'s seat (joined now, or before resume)."""
    if found.device_token is not None:
        return same(token, found.device_token)
    return bool(token) and same(token_digest(token or ""), found.device_digest)


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normal_code(text: str) -> str:
    """A typed code as stored: upper case, spaces and dashes dropped."""
    return "".join(ch for ch in text.upper() if ch not in " -")


class Access:
    """The passes of the human ``seats`` and the host token. Thread-safe."""

    def __init__(
        self, seats: Iterable[int], on_issue: Callable[[SeatPass], None] | None = None, *, throttle: CodeThrottle | None = None,
        kept: KeptDevices | None = None,
    ) -> None:
        self.host_token = secrets.token_urlsafe(24)
        self.on_issue = on_issue
        self.throttle = throttle if throttle is not None else CodeThrottle()
        #: Names this table in the pages' storage (kept across ``resume``, see the module docstring).
        self.table_id = kept.table_id if kept is not None else secrets.token_hex(6)
        #: Called with :meth:`kept` whenever a device joins or is dropped (the store keeps it).
        self.on_devices: Callable[[KeptDevices], None] | None = None
        self._lock = threading.Lock()
        self._passes: dict[int, SeatPass] = {}
        for seat in seats:
            digest = kept.digests.get(seat) if kept is not None else None
            if digest is not None:  # its device joined before resume: still placed, no code to join with
                self._passes[seat] = SeatPass(seat, None, None, device_digest=digest)
            else:
                self._passes[seat] = SeatPass(seat, secrets.token_urlsafe(24), new_code())

    def kept(self) -> KeptDevices:
        """The table's name and the digests of the joined devices' tokens (see the module docstring)."""
        with self._lock:
            digests = {seat: token_digest(found.device_token) if found.device_token else found.device_digest
                       for seat, found in self._passes.items() if found.device_token or found.device_digest}
        return KeptDevices(self.table_id, {seat: digest for seat, digest in digests.items() if digest})

    def _devices_changed(self) -> None:
        if self.on_devices is not None:
            self.on_devices(self.kept())

    @property
    def seats(self) -> list[int]:
        return sorted(self._passes)

    def pass_of(self, seat: int) -> SeatPass:
        with self._lock:
            found = self._passes[seat]
            return SeatPass(found.seat, found.join_token, found.code, found.device_token, device_digest=found.device_digest)

    def joined(self, seat: int) -> bool:
        with self._lock:
            found = self._passes.get(seat)
            return found is not None and (found.device_token is not None or found.device_digest is not None)

    def is_host(self, token: str | None) -> bool:
        return same(token, self.host_token)

    def has_place(self, token: str | None) -> bool:
        """True for the host's token and any joined device's token: their connections are never
        crowded out by strangers' (:mod:`tablelight.web.limits`)."""
        if self.is_host(token):
            return True
        with self._lock:
            passes = list(self._passes.values())
        return any(holds(found, token) for found in passes)

    def is_seat(self, seat: int, token: str | None) -> bool:
        """True when ``token`` is the device token of ``seat`` (a human seat whose device joined)."""
        with self._lock:
            found = self._passes.get(seat)
        return found is not None and holds(found, token)

    def join(self, *, token: str | None = None, code: str | None = None, client: str | None = None) -> tuple[int, str]:
        """Spend a join token or code: (seat, the device's new token). :class:`JoinRefused` otherwise.

        ``client`` is the remote address: a code from a client that must wait is refused unchecked.
        """
        seat, device = self._join(token, code, client)
        self._devices_changed()
        return seat, device

    def _join(self, token: str | None, code: str | None, client: str | None) -> tuple[int, str]:
        with self._lock:
            if token:
                for found in self._passes.values():
                    if same(token, found.join_token):
                        return found.seat, self._claim(found)
                if any(same(token, p.spent_token) for p in self._passes.values()):
                    raise JoinRefused("this link was used already: a device has joined its seat")
                raise JoinRefused("this join link is not (or no longer) valid: ask the host for a new one")
            if code:
                wait = self.throttle.wait_left(client)
                if wait:
                    raise JoinRefused(f"too many wrong codes from this device: try again in {wait} s", retry_after=wait)
                wait = self.throttle.table_wait_left(client)
                if wait:
                    raise JoinRefused(f"too many wrong codes at this table: try again in {wait} s, or join with "
                                      "the link or QR code from the host", retry_after=wait)
                typed = normal_code(code)
                for found in self._passes.values():
                    if same(typed, found.code):
                        self.throttle.right(client)
                        return found.seat, self._claim(found)
                self.throttle.wrong(client)
                raise JoinRefused("no seat has this code (or it was used already): check it, or ask the host")
        raise JoinRefused("give the join link's token or a seat's code")

    def _claim(self, found: SeatPass) -> str:
        found.device_token = secrets.token_urlsafe(24)
        found.spent_token = found.join_token
        found.join_token = found.code = None
        found.device_digest = None
        return found.device_token

    def drop(self, seat: int) -> SeatPass:
        """Drop the seat's device (its token stops working) and issue a new join token and code."""
        with self._lock:
            if seat not in self._passes:
                raise KeyError(seat)
            fresh = SeatPass(seat, secrets.token_urlsafe(24), new_code())
            self._passes[seat] = fresh
            issued = SeatPass(seat, fresh.join_token, fresh.code)
        self._devices_changed()
        if self.on_issue is not None:
            self.on_issue(issued)
        return issued
