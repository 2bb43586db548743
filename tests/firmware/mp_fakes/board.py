"""Stand-in for CircuitPython's ``board`` module (file name forced by ``import board``): pin names."""

from microcontroller import Pin

A0 = Pin("A0")
A1 = Pin("A1")
D5 = Pin("D5")
D6 = Pin("D6")
D9 = Pin("D9")
