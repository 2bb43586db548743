"""The join and answer codes (app/static/rtc_code.js) under node: what a session description keeps
(ICE credentials, the certificate's fingerprint, UDP candidates of every address kind) comes back
whole from a code; a damaged code is refused in one sentence; secrets compare equal only when equal."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from .conftest import ROOT

RTC_CODE = ROOT / "host" / "tablelight" / "app" / "static" / "rtc_code.js"
NODE = shutil.which("node") or ""
if not NODE:
    pytest.skip("node is not installed (scripts/test.sh installs it)", allow_module_level=True)

# A gathered offer as Chromium writes it: an mDNS name, an IPv4 and an IPv6 address, a TCP
# candidate (left out: phones reach the table over UDP) and a server-reflexive one.
OFFER = "\r\n".join([
    "v=0", "o=- 1300838480957040593 2 IN IP4 127.0.0.1", "s=-", "t=0 0", "a=group:BUNDLE 0",
    "m=application 9 UDP/DTLS/SCTP webrtc-datachannel", "c=IN IP4 0.0.0.0",
    "a=candidate:3373415901 1 udp 2113937151 093ce966-70ef-4d51-a4fa-1e29536ab0ac.local 59731 typ host generation 0",
    "a=candidate:1 1 udp 2113937150 192.168.1.20 40000 typ host generation 0",
    "a=candidate:2 1 udp 2113937149 fe80::1c2d:3eff:fe4f:5a6b 40001 typ host generation 0",
    "a=candidate:3 1 tcp 1518280447 192.168.1.20 9 typ host tcptype active generation 0",
    "a=candidate:4 1 udp 1677729535 203.0.113.7 50000 typ srflx raddr 0.0.0.0 rport 0 generation 0",
    "a=ice-ufrag:a2zi", "a=ice-pwd:9MeXgsSd+w9mV0F5fCaUz3WV", "a=ice-options:trickle",
    "a=fingerprint:sha-256 AD:6C:96:15:70:C5:4B:3E:FB:75:11:61:F7:21:A5:69:05:9F:48:FE:20:47:A1:2D:F6:CD:8E:C1:F2:60:D8:DB",
    "a=setup:actpass", "a=mid:0", "a=sctp-port:5000", "a=max-message-size:262144", "",
])

SCRIPT = """
const code = await import(process.argv[1]);
const offer = process.argv[2];
const out = {};
const parts = code.partsOf(offer);
const join = code.joinCode(3, "AAECAwQFBgcICQoLDA0ODw", parts);
out.join = join;
const read = code.readJoinCode(join);
out.read = { seat: read.seat, secret: read.secret, ufrag: read.parts.ufrag, pwd: read.parts.pwd,
             candidates: read.parts.candidates,
             same_fingerprint: Buffer.from(read.parts.fingerprint).equals(Buffer.from(parts.fingerprint)) };
out.rebuilt = code.descriptionOf(read.parts, "answer");
out.reparsed = code.partsOf(out.rebuilt).candidates;
const answer = code.answerCode("Tab1e123", parts);
out.answer = code.readAnswerCode(answer.replace(/(.{20})/g, "$1\\n")).table;
out.refusals = [];
for (const bad of ["", "J1.3", join.replace("~h4", "~h7"), join.replace(/\\.[^.]+$/, ".hm!!"),
                   join.replace("AAECAwQFBgcICQoLDA0ODw", "AAEC"), "A1.x.y", join.replace(/\\d+$/, "99999")]) {
  try { code.readJoinCode(bad); out.refusals.push(null); }
  catch (error) { out.refusals.push([error instanceof code.CodeError, error.message]); }
}
out.same = [code.sameText("abc", "abc"), code.sameText("abc", "abd"), code.sameText("abc", "abcd"), code.sameText("", "a")];
out.ice = code.randomIceText(24);
console.log(JSON.stringify(out));
"""


@pytest.fixture(scope="module")
def coded() -> dict:
    ran = subprocess.run([NODE, "--input-type=module", "-e", SCRIPT, RTC_CODE.as_uri(), OFFER], capture_output=True,
                         text=True, timeout=60)
    assert ran.returncode == 0, ran.stderr
    return dict(json.loads(ran.stdout))


def test_a_join_code_keeps_what_the_phone_needs(coded: dict) -> None:
    read = coded["read"]
    assert read["seat"] == 3 and read["secret"] == "AAECAwQFBgcICQoLDA0ODw"
    assert read["ufrag"] == "a2zi" and read["pwd"] == "9MeXgsSd+w9mV0F5fCaUz3WV" and read["same_fingerprint"]
    assert read["candidates"] == [
        {"address": "093ce966-70ef-4d51-a4fa-1e29536ab0ac.local", "port": 59731, "type": "host"},
        {"address": "192.168.1.20", "port": 40000, "type": "host"},
        {"address": "fe80:0:0:0:1c2d:3eff:fe4f:5a6b", "port": 40001, "type": "host"},
        {"address": "203.0.113.7", "port": 50000, "type": "srflx"},
    ]
    assert coded["reparsed"] == read["candidates"]  # the rebuilt description reads back the same
    assert "a=setup:active" in coded["rebuilt"] and "a=fingerprint:sha-256 AD:6C:96" in coded["rebuilt"]
    assert len(coded["join"]) < len(OFFER) / 3


def test_an_answer_code_names_the_tables_connection_it_answers(coded: dict) -> None:
    assert coded["answer"] == "Tab1e123"  # line breaks of a pasted code are ignored


def test_a_damaged_code_is_refused_in_one_sentence(coded: dict) -> None:
    refusals = coded["refusals"]
    assert all(refusal is not None and refusal[0] for refusal in refusals), refusals
    assert all("\n" not in refusal[1] for refusal in refusals)
    assert refusals[0][1] == "it is not a tablelight join code"
    assert refusals[2][1] == refusals[3][1] == "a candidate in it is damaged" and refusals[6][1] == "a candidate in it is damaged"
    assert refusals[4][1] == "its seat secret is damaged"


def test_secrets_compare_equal_only_when_equal_and_ice_text_is_plain(coded: dict) -> None:
    assert coded["same"] == [True, False, False, False]
    assert len(coded["ice"]) == 24 and coded["ice"].isalnum()
