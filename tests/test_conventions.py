"""Issue 22, part 4: conventions of the ecosystem.  ``--color
auto|always|never`` honouring NO_COLOR; ``--version``, and ``-v`` with
Python, the platform and the libraries."""

import platform

import pytest
from test_cli import run

from cpscore import __version__

DEAL = ["score", "A=Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d", "B=Qd Qc 3h / Jc Td 9d 6s 5c / Kc 7h 5h 4h 2d"]
RED = "\x1b[31m"


@pytest.mark.parametrize(
    ("options", "no_color", "coloured"),
    [
        pytest.param([], None, False, id="auto-not-a-terminal"),
        pytest.param(["--color", "auto"], None, False, id="auto-given"),
        pytest.param(["--color", "always"], None, True, id="always"),
        pytest.param(["--color", "always"], "1", True, id="always-overrides-NO_COLOR"),
        pytest.param(["--color", "never"], None, False, id="never"),
    ],
)
def test_colour_is_asked_for_or_left_out(monkeypatch, options, no_color, coloured):
    if no_color is None:
        monkeypatch.delenv("NO_COLOR", raising=False)
    else:
        monkeypatch.setenv("NO_COLOR", no_color)
    result = run(*options, *DEAL)
    assert result.exit_code == 0, result.stderr
    assert (RED in result.stdout) is coloured
    assert (RED + "9h") in result.stdout if coloured else "9h 9c 5d" in result.stdout


def test_colour_only_in_a_table():
    result = run("--color", "always", *DEAL, "--format", "json")
    assert result.exit_code == 0 and "\x1b" not in result.stdout


def test_a_bad_colour_is_a_usage_error():
    result = run("--color", "sometimes", *DEAL)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == (
        "Error: Invalid value for '--color': 'sometimes' is not one of 'auto', 'always', 'never'. (see 'main -h')\n"
    )


def test_the_version_and_with_v_what_a_bug_report_needs():
    assert run("--version").stdout == f"cpscore, version {__version__}\n"
    lines = run("-v").stdout.splitlines()
    assert lines[0] == f"cpscore, version {__version__}"
    assert lines[1].startswith(f"Python {platform.python_version()} (") and platform.system() in lines[1]
    assert lines[2].startswith("click ") and ", tabulate " in lines[2]


def test_wcwidth_is_imported_only_for_a_table_with_wide_text(tmp_path):
    """tabulate would import wcwidth at once (about 25 ms of start-up): only a table with
    text that is not ASCII needs it."""
    import subprocess
    import sys

    code = (
        "import sys; from click.testing import CliRunner; from cpscore.commands import main; "
        "result = CliRunner().invoke(main, sys.argv[1:]); assert result.exit_code == 0, result.output; "
        "print('wcwidth' in sys.modules and sys.modules['wcwidth'] is not None)"
    )
    plain = ["score", "A=Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d", "B=Qd Qc 3h / Jc Td 9d 6s 5c / Kc 7h 5h 4h 2d"]
    wide = [plain[0], plain[1].replace("A=", "张伟="), plain[2]]
    for arguments, imported in ((plain, "False"), (wide, "True")):
        done = subprocess.run([sys.executable, "-c", code, *arguments], capture_output=True, text=True, timeout=60)
        assert done.stdout.strip() == imported, (arguments, done.stderr)
