"""tablelight: lit tabletop game boards.

The host package holds the rules engines (:mod:`tablelight.games`), the shared
rules contract they follow (:mod:`tablelight.core`) and the command line
(:mod:`tablelight.cli`).
"""

__version__ = "0.1.0"
