import subprocess
import sys

from tw_fin_eval import __version__
from tw_fin_eval.cli import main


def test_version(capsys):
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip().startswith(f"tw-fin-eval {__version__} ")
    assert main(["-h"]) == 0 and "--version" in capsys.readouterr().out
    proc = subprocess.run([sys.executable, "-m", "tw_fin_eval", "-V"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and __version__ in proc.stdout
