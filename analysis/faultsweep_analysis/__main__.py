import sys

from .cli import console

sys.exit(console(prog="python3 -m faultsweep_analysis"))
