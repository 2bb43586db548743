"""Views of a board's LEDs for people without the hardware: a terminal picture and a local web page."""
