# mypy: ignore-errors
# (part of the simulated board's _bleio stand-in: the radio chip)
"""The radio under the _bleio stand-in: a bumble host stack in its own event-loop thread, talking
HCI to a controller that the parent process keeps on its virtual radio (tablelight.sim.radio).

On an nRF52840 the SoftDevice plays this part. Settings it copies from CircuitPython's nordic port
(ports/nordic/common-hal/_bleio): "just works" pairing with bonding (legacy, no MITM, no LESC, I/O
capabilities NONE), ATT MTU up to 512, bonds kept in flash (here: a JSON file that survives the
board's reboot, TL_SIM_BLE_BONDS).
"""

import asyncio
import os
import threading

from bumble.device import Device
from bumble.hci import Address, LeFeatureMask
from bumble.keys import JsonKeyStore
from bumble.pairing import PairingConfig, PairingDelegate
from bumble.transport import open_transport

NORDIC_MAX_MTU = 512  # BLE_GATTS_VAR_ATTR_LEN_MAX: what the port answers an MTU exchange with
CALL_TIMEOUT = 5.0


class Stack:
    """One bumble Device over HCI, run in a daemon thread; ``call`` runs a coroutine there."""

    def __init__(self, hci_spec: str, address: str, bonds_path: str) -> None:
        self.address = address
        self.bonds_path = bonds_path
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True, name="_bleio radio")
        self.thread.start()
        self.device = self.call(self._open(hci_spec), 15.0)

    def call(self, coroutine, timeout: float = CALL_TIMEOUT):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def soon(self, function, *args) -> None:
        self.loop.call_soon_threadsafe(function, *args)

    async def _open(self, hci_spec: str):
        transport = await open_transport(hci_spec)
        device = Device.with_hci("CIRCUITPY", Address(self.address), transport.source, transport.sink)
        device.keystore = JsonKeyStore(None, self.bonds_path)
        device.pairing_config_factory = lambda connection: PairingConfig(
            sc=False, mitm=False, bonding=True, identity_address_type=PairingConfig.AddressType.RANDOM,
            delegate=PairingDelegate(io_capability=PairingDelegate.IoCapability.NO_OUTPUT_NO_INPUT))
        device.gatt_server.max_mtu = NORDIC_MAX_MTU
        await device.power_on()
        # CircuitPython advertises up to 31 bytes with the legacy commands (an advertisement plus a
        # scan response), and the radio's host controllers read the scan response from there
        device.host.local_le_features &= ~LeFeatureMask.LE_EXTENDED_ADVERTISING
        return device

    def erase_bonds(self) -> None:
        try:
            os.remove(self.bonds_path)
        except FileNotFoundError:
            pass
        self.device.keystore = JsonKeyStore(None, self.bonds_path)


_stack = None


def stack() -> Stack:
    """The board's radio, started on first use (as the SoftDevice is enabled on first _bleio use)."""
    global _stack
    if _stack is None:
        spec = os.environ.get("TL_SIM_BLE_HCI", "")
        if not spec:
            raise RuntimeError("_bleio stand-in: no radio (start the SimBoard with a VirtualRadio)")
        _stack = Stack(spec, os.environ.get("TL_SIM_BLE_ADDRESS", "F1:F1:F1:F1:F1:F1"),
                       os.environ.get("TL_SIM_BLE_BONDS", "bonds.json"))
    return _stack
