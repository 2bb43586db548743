# mypy: ignore-errors
# (a stand-in for Adafruit's adafruit_ble in the simulated board: the "radio" is a second
#  pseudo-terminal, fd in TL_SIM_BLE_FD, so a host can reach the firmware's BLE path through it)
