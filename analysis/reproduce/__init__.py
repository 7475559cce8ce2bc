"""Per-paper reproduction scripts; each is also a command line (python3 analysis/reproduce/<paper>.py)."""
