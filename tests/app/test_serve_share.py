"""``tablelight app serve DIR --share``: the table's own device keeps 127.0.0.1 (a secure context for
Web Bluetooth and Web Serial), the phones get the app at the shared address (over TLS with
``--https``), and the table's join codes point there. Only the table's own address names the
phones' address (``phones-address.json``): a link's parameter cannot send phones elsewhere.
127.0.0.2 stands in for the machine's network address (Linux routes all of 127/8 to loopback)."""

from __future__ import annotations

import os
import ssl
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from tablelight.app.build import Built
from .conftest import ROOT, Served
from .test_browser import Visit, browser  # noqa: F401 (the browser fixture)
from .test_phones import PHONE, Table

SHARED = "127.0.0.2"


@pytest.fixture(scope="module")
def shared_app(built_app: Built, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    data = tmp_path_factory.mktemp("data")
    served = Served(built_app.folder, "--share", SHARED, "--https", data_home=data)
    assert (data / "tablelight" / "tablelight-key.pem").is_file()  # kept with the game store, not in the served folder
    assert not list(built_app.folder.glob("*.pem")) and not list(built_app.folder.parent.glob("*.pem"))
    yield served
    served.stop()


def fetch(url: str) -> tuple[int, bytes]:
    unverified = ssl.create_default_context()
    unverified.check_hostname = False
    unverified.verify_mode = ssl.CERT_NONE  # the self-signed certificate: phones check its fingerprint
    try:
        with urllib.request.urlopen(url, timeout=10, context=unverified) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, b""


def test_the_shared_address_serves_the_app_over_tls_and_only_the_local_one_names_it(shared_app: Served) -> None:
    port = shared_app.url.rsplit(":", 1)[1].strip("/")
    assert shared_app.phones_url == f"https://{SHARED}:{port}/"
    status, body = fetch(shared_app.url + "phones-address.json")
    assert status == 200 and body == f'{{"url":"https://{SHARED}:{port}/"}}'.encode()
    status, body = fetch(shared_app.phones_url + "seat.html")
    assert status == 200 and b"seat" in body
    assert fetch(shared_app.phones_url + "phones-address.json") == (200, b'{"url":null}')
    with pytest.raises((urllib.error.URLError, ConnectionError)):  # the shared address speaks TLS only
        urllib.request.urlopen(f"http://{SHARED}:{port}/", timeout=10)


def test_a_phone_joins_through_the_shared_address(browser: Any, shared_app: Served) -> None:  # noqa: F811
    visit = Visit(browser, shared_app.url)
    phone_context = browser.new_context(ignore_https_errors=True, **PHONE)
    try:
        table = Table(visit)
        link = table.join_url(0)
        assert link.startswith(shared_app.phones_url + "seat.html#"), link
        assert visit.page.is_hidden("#phones-local")  # the codes reach phones: no warning
        phone = phone_context.new_page()
        phone.goto(link)
        phone.wait_for_selector("body[data-state=answer]", timeout=20_000)
        said = table.take(phone.inner_text("#answer-text"))
        assert "connecting" in said or "joined" in said, said
        phone.wait_for_selector("body[data-state=joined] .secret", timeout=20_000)
    finally:
        phone_context.close()
        visit.context.close()


def refused(*options: str) -> str:
    """What ``tablelight app serve`` says on stderr when it refuses ``options`` (a child process:
    the browser's loop runs in this one)."""
    run = subprocess.run([sys.executable, "-m", "tablelight", "app", "serve", *options], capture_output=True, text=True,
                         timeout=60, env=dict(os.environ, PYTHONPATH=str(ROOT / "host")))
    assert run.returncode == 1 and "Traceback" not in run.stderr and len(run.stderr.strip().splitlines()) == 1, run.stderr
    return run.stderr


def test_https_without_share_and_an_address_not_here_are_refused(built_app: Built) -> None:
    folder = str(built_app.folder)
    assert "--https serves the shared address" in refused(folder, "--https")
    assert "cannot serve on 192.0.2.7" in refused(folder, "--port", "0", "--share", "192.0.2.7")
    assert "--share takes lan" in refused(folder, "--share", "phones")
