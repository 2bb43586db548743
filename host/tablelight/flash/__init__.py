"""Installing tablelight on a CircuitPython board: what to install (boards, settings, pinned
libraries), where (the CIRCUITPY drive), how (whole files only, verified) and, before that,
CircuitPython itself (the UF2 bootloader). ``tablelight flash`` (tablelight.cli.flash) drives it."""

from tablelight.core.errors import TablelightError


class FlashError(TablelightError):
    """Flashing could not go on; nothing on the drive was changed unless the message says so."""
