#!/usr/bin/env bash
# Install tablelight into .venv and run the main job: a Farlander game between bots, shown in the terminal.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e .
exec .venv/bin/tablelight selfplay farlander --players 3 --bots strong,random,random --show --delay 0.05 "$@"
