"""Running cpscore's command line in process (click's CliRunner), for the tests."""

from click.testing import CliRunner

from cpscore.cli import main


def run(*args, input=None):
    """``cpscore ARGS`` in process: the click result (exit code, stdout, stderr)."""
    return CliRunner().invoke(main, list(args), input=input)


def ok(*args, input=None) -> str:
    """``cpscore ARGS``, which must succeed: its stdout."""
    result = run(*args, input=input)
    assert result.exit_code == 0, result.stderr
    return result.stdout
