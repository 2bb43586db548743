#!/usr/bin/env bash
# Install everything the tests need into .venv (and node_modules), then run them all.
# This is the project's one test command; .ci/run calls exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[test]'
# firmware test parts whose declared dependencies would drag in Blinka (which refuses to import on a PC)
.venv/bin/python -m pip install --quiet --no-deps adafruit-circuitpython-typing adafruit-circuitpython-neopixel adafruit-circuitpython-pixelbuf
# the Adafruit libraries `tablelight flash` puts on a board (pinned wheels from PyPI), cached for the flash tests
TABLELIGHT_CACHE=.venv/tablelight-cache .venv/bin/tablelight flash --download >/dev/null
# Adafruit's real BLE library for the firmware's Bluetooth code on the simulated board (over the
# _bleio stand-in in host/tablelight/sim/fakes; its declared dependencies are Blinka's)
.venv/bin/python -m pip install --quiet --no-deps adafruit-circuitpython-ble==10.1.5
# Adafruit's BLE file transfer client, to prove the simulated board's file transfer service (its
# declared dependencies are adafruit_ble's, so Blinka's too)
.venv/bin/python -m pip install --quiet --no-deps adafruit-circuitpython-ble-file-transfer==4.0.14
# Adafruit's _bleio for CPython (bleak), the central that client runs on in tests/ble; in a folder of
# its own, since a top-level _bleio in site-packages would hide the simulated board's stand-in
.venv/bin/python -m pip install --quiet --no-deps --upgrade --target .venv/blinka-bleio adafruit-blinka-bleio==4.1.2
# a real MicroPython interpreter (WebAssembly) for the firmware's portable checks, pinned in package-lock.json
if ! command -v npm >/dev/null; then
    SUDO=$([ "$(id -u)" = 0 ] || echo sudo); $SUDO apt-get update -q && $SUDO apt-get install -y -q nodejs npm
fi
npm ci --no-audit --no-fund --silent
# Debian's chromium for the web view's headless-browser test (Playwright cannot download browsers here)
if [ ! -x /usr/bin/chromium ]; then
    SUDO=$([ "$(id -u)" = 0 ] || echo sudo); $SUDO apt-get update -q && $SUDO apt-get install -y -q --no-install-recommends chromium
fi
# valgrind's callgrind counts the engines' instructions for the cost guard (tests/core/test_engine_cost.py)
if ! command -v valgrind >/dev/null; then
    SUDO=$([ "$(id -u)" = 0 ] || echo sudo); $SUDO apt-get update -q && $SUDO apt-get install -y -q --no-install-recommends valgrind
fi
# Two workers (pytest-xdist), a test file each at a time: most tests wait on a browser, a board, a
# child process, so two share a 2-core machine well; a file's tests keep their module fixtures.
exec .venv/bin/python -m pytest -n 2 --dist loadfile "$@"
