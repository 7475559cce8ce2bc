"""--help of the command line and of every subcommand prints and exits 0 (argparse formats help
text with %, so a bare percent sign in any help string crashes it)."""
import argparse

import pytest

from faultsweep_analysis import cli


def _subcommands() -> list[str]:
    parser = cli.build_parser()
    actions = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return sorted(actions[0].choices)


def test_there_are_subcommands():
    assert {"summary", "plot", "heatmap"} <= set(_subcommands())


@pytest.mark.parametrize("args", [["--help"]] + [[c, "--help"] for c in _subcommands()])
def test_help_exits_0_and_prints_usage(args, capsys):
    with pytest.raises(SystemExit) as stop:
        cli.main(args)
    assert stop.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: faultsweep-analysis")
    if args == ["--help"]:
        assert "95 % CIs" in " ".join(out.split())  # the escaped %% prints as one %


def test_module_entry_names_itself(capsys):
    with pytest.raises(SystemExit):
        cli.main(["--help"], prog="python3 -m faultsweep_analysis")
    assert capsys.readouterr().out.startswith("usage: python3 -m faultsweep_analysis")
