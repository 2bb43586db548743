import sys
from pathlib import Path

LIB = Path(__file__).resolve().parents[2] / "firmware" / "lib"
if str(LIB) not in sys.path:
    sys.path.insert(0, str(LIB))
