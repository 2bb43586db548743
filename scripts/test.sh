#!/usr/bin/env bash
# Install everything the tests need into .venv (and node_modules), then run them all.
# This is the project's one test command; .ci/run calls exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[test]'
exec .venv/bin/python -m pytest "$@"
