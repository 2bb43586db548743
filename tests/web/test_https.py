"""HTTPS for the table's pages (``--https``): the certificate kept, the pages served over TLS only,
origins checked with their scheme, a real browser reaching a seat page live over wss."""

from __future__ import annotations

import os
import ssl
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tablelight.core.errors import SetupError
from tablelight.table.service import Table
from tablelight.web.table_web import TableWeb
from tablelight.web.tls import HttpsChoice, TlsFiles

from .conftest import serving

CHROMIUM = "/usr/bin/chromium"


def trusting(files: TlsFiles) -> ssl.SSLContext:
    """A client that trusts exactly this certificate (as a phone does once its owner accepted it)."""
    return ssl.create_default_context(cafile=str(files.cert))


def test_self_signed_certificate_is_made_once_kept_private_and_made_again_for_a_new_address(tmp_path):
    choice = HttpsChoice.from_options(True, None, None, tmp_path)
    assert choice is not None
    first = choice.files_for(["127.0.0.1"])
    assert first.key.stat().st_mode & 0o777 == 0o600
    first.check()
    first_print = first.fingerprint
    assert choice.files_for(["127.0.0.1"]).fingerprint == first_print  # a phone that accepted it keeps working
    wider = choice.files_for(["127.0.0.1", "192.168.7.20"]).fingerprint
    assert wider != first_print
    assert len(wider.split(":")) == 32


def test_plain_http_unless_asked():
    assert HttpsChoice.from_options(False, None, None, Path("/nonexistent")) is None


@pytest.mark.parametrize(
    "cert, key, words",
    [
        ("cert.pem", None, "go together"),
        (None, "key.pem", "go together"),
        ("missing.pem", "key.pem", "does not exist"),
        ("cert.pem", "other-key.pem", "not a PEM certificate and its key"),
        ("cert.pem", "cert.pem", "not a PEM certificate and its key"),
    ],
)
def test_own_certificate_files_are_checked_up_front(tmp_path, cert, key, words):
    made = HttpsChoice.from_options(True, None, None, tmp_path / "a").files_for(["127.0.0.1"])
    other = HttpsChoice.from_options(True, None, None, tmp_path / "b").files_for(["127.0.0.1"])
    names = {"cert.pem": made.cert, "key.pem": made.key, "other-key.pem": other.key, "missing.pem": tmp_path / "missing.pem"}
    with pytest.raises(SetupError, match=words):
        HttpsChoice.from_options(True, None if cert is None else str(names[cert]), None if key is None else str(names[key]), tmp_path)


@pytest.fixture
def served_https(tmp_path) -> Iterator[tuple[TableWeb, Table, TlsFiles]]:
    with serving(idle_timeout=2, https=HttpsChoice.from_options(True, None, None, tmp_path)) as served:
        assert served.web.view.server.tls is not None
        yield served.web, served.table, served.web.view.server.tls


def test_pages_are_served_over_tls_only_and_origins_must_say_https(served_https):
    web, table, files = served_https
    base = web.view.base_url
    assert base.startswith("https://127.0.0.1:")
    with httpx.Client(verify=trusting(files)) as client:
        assert client.get(f"{base}/").status_code == 200
        code = web.access.pass_of(0).code
        http_origin = base.replace("https://", "http://")
        refused = client.post(f"{base}/api/join", json={"code": code}, headers={"Origin": http_origin})
        assert refused.status_code == 403
        assert not web.access.joined(0)
        joined = client.post(f"{base}/api/join", json={"code": code}, headers={"Origin": base})
        assert joined.status_code == 200, joined.text
    with pytest.raises(httpx.HTTPError):  # plain HTTP on the same port gets no page
        httpx.get(base.replace("https://", "http://") + "/", timeout=3)


def test_a_phone_opens_its_seat_page_over_https_and_it_stays_live(served_https):
    sync_api = pytest.importorskip("playwright.sync_api")
    if not os.path.exists(CHROMIUM):
        pytest.skip("Debian chromium is not installed (scripts/test.sh installs it)")
    web, table, files = served_https
    link = web.view.join_link(str(web.access.pass_of(0).join_token))
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"])
        try:
            # the owner accepted the self-signed certificate, as a person does after checking its fingerprint
            page = browser.new_context(ignore_https_errors=True, viewport={"width": 390, "height": 844}).new_page()
            page.goto(link)
            page.locator(".secret", has_text="hand").wait_for()
            page.wait_for_function("Number(document.body.dataset.frames || 0) > 0")  # the wss feed arrived
            assert page.url.startswith("https://")
            assert page.locator("#away").is_hidden()
        finally:
            browser.close()


def test_certificate_files_are_remembered_as_absolute_paths_for_resume(tmp_path, monkeypatch):
    import argparse

    from tablelight.cli.table_run import add_table_arguments, table_settings

    parser = argparse.ArgumentParser()
    add_table_arguments(parser)
    monkeypatch.chdir(tmp_path)
    settings = table_settings(parser.parse_args(["--https-cert", "c.pem", "--https-key", "k.pem"]))
    assert settings["https_cert"] == str(tmp_path / "c.pem") and settings["https_key"] == str(tmp_path / "k.pem")
    resumed = table_settings(parser.parse_args([]), stored=settings)
    assert resumed["https_cert"] == str(tmp_path / "c.pem") and resumed["https"] is False
    assert table_settings(parser.parse_args(["--https"]), stored=settings)["https"] is True
