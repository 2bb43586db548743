"""Drawing a board's LEDs for people without the hardware: a terminal picture and the colours
a screen shows for an LED's (the web pages of :mod:`tablelight.web` draw with them too)."""
