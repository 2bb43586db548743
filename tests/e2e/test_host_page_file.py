"""The host page as the user guide says to open it: the file ``tablelight play`` writes, opened in a
real headless Chromium (file://). Its redirect to the host's address is a navigation from a file,
which the browser marks cross-site; the page must open all the same, and other sites stay out."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time

import httpx
import pytest

from .helpers import wait_for

CHROMIUM = "/usr/bin/chromium"
BROWSER_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"]
sync_api = pytest.importorskip("playwright.sync_api")
if not os.path.exists(CHROMIUM):
    pytest.skip("Debian chromium is not installed (scripts/test.sh installs it)", allow_module_level=True)


def test_the_host_page_file_opens_the_host_page_in_chromium(tmp_path):
    db = tmp_path / "g.sqlite"
    play = subprocess.Popen(
        [sys.executable, "-m", "tablelight", "play", "mainland", "--seats", "human,bot", "--board", "sim",
         "--view", "web", "--web-port", "0", "--db", str(db)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    host_file = tmp_path / "host-page-1.html"
    try:
        wait_for(lambda: time.sleep(0.05) or host_file.exists(), timeout=60)
        address = re.search(r'url=([^"]+)"', host_file.read_text()).group(1).replace("&amp;", "&")
        with sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS)
            try:
                page = browser.new_page()
                page.goto(host_file.as_uri())
                page.wait_for_url(re.compile(r"^http://"), timeout=15000)
                page.wait_for_selector("#host:not([hidden])", timeout=15000)  # the host's panel: the token was taken
                assert "cross-site" not in page.content()
                assert "green" in page.inner_text("#host-seats")  # the seat by its colour
                # Another site still cannot load a part of the page or act: only a whole page opens.
                answer = httpx.get(address, headers={"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "no-cors", "Sec-Fetch-Dest": "image"})
                assert answer.status_code == 403
                framed = httpx.get(address, headers={"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "iframe"})
                assert framed.status_code == 403
                posted = httpx.post(address.split("?")[0] + "api/press/0", json={},
                                    headers={"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document"})
                assert posted.status_code == 403
            finally:
                browser.close()
    finally:
        play.kill()
        play.wait(10)
