"""The command registry: every command has help, and a missing optional package is a clear error, not a traceback."""

import subprocess
import sys
from pathlib import Path

import pytest

from tw_fin_eval.cli import COMMANDS, main

REPO = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_command_has_help(name, capsys):
    with pytest.raises(SystemExit) as exc:
        main([name, "--help"])
    assert exc.value.code == 0
    assert f"tw-fin-eval {name}" in capsys.readouterr().out


def test_unknown_command_exits_2(capsys):
    assert main(["no-such-command"]) == 2
    assert "unknown command" in capsys.readouterr().err


def test_missing_optional_package_is_a_clear_error(tmp_path):
    """release needs datasets; without site-packages (python -S) it says so and exits 2, while the scorer and
    check-zh (its s2tw character table is committed: opencc only regenerates it) still run."""
    proc = subprocess.run([sys.executable, "-S", "-m", "tw_fin_eval", "release"],
                          capture_output=True, text=True, cwd=REPO)
    assert proc.returncode == 2
    assert "needs the package 'datasets'" in proc.stderr and "Traceback" not in proc.stderr
    simplified = tmp_path / "simplified.md"
    simplified.write_text("這是软件\n", encoding="utf-8")
    proc = subprocess.run([sys.executable, "-S", "-m", "tw_fin_eval", "check-zh", str(simplified)],
                          capture_output=True, text=True, cwd=REPO)
    assert proc.returncode == 1 and "簡體字「软」→ 改用繁體「軟」" in proc.stdout, proc.stderr
    proc = subprocess.run([sys.executable, "-S", "-m", "tw_fin_eval", "selfcheck", "--samples"],
                          capture_output=True, text=True, cwd=REPO)
    assert proc.returncode == 0, proc.stderr
