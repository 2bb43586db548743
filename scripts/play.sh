#!/usr/bin/env bash
# Install tablelight into .venv and run the main job: a Farlander game between bots at a lit board,
# the board's LEDs shown in the terminal. With no board attached the board is the simulated one
# (the real firmware on this machine, over a pseudo-terminal).
set -euo pipefail
cd "$(dirname "$0")/.."
# each step says what it does: the first install takes a minute or more (pip prints only problems)
echo "play.sh: making the virtual environment .venv (once)"
python3 -m venv .venv
echo "play.sh: installing tablelight and its dependencies into .venv (the first time takes a minute or more)"
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e .
# the simulated board runs Adafruit's real neopixel library (its declared deps would pull in Blinka)
echo "play.sh: installing Adafruit's neopixel library for the simulated board"
.venv/bin/python -m pip install --quiet --no-deps adafruit-circuitpython-neopixel adafruit-circuitpython-pixelbuf
echo "play.sh: starting the game"
BOARD=sim
if .venv/bin/python -c "import sys; from tablelight.board.discover import find_boards; sys.exit(0 if find_boards() else 1)" 2>/dev/null; then
    BOARD=auto
fi
exec .venv/bin/tablelight play farlander --players 3 --seats strong,random,random --board "$BOARD" --view terminal --bot-delay 0.05 "$@"
