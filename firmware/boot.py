"""Runs once at power-up, before USB: add the binary data channel next to the REPL console.

The host finds the data port by USB VID 0x239A and the interface name "CircuitPython CDC2 data";
the console stays for logs and the REPL. Takes effect after a hard reset (not a soft reload).
"""

import usb_cdc

usb_cdc.enable(console=True, data=True)
