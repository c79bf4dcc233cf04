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


def test_one_version_everywhere():
    """Issue 27 point 8: the README title, pyproject, the dataset card and --version show one release number; the
    data version is stated beside it."""
    import re

    from tw_fin_eval import DATA_VERSION
    from tw_fin_eval.paths import REPO_ROOT
    from tw_fin_eval.release.card import render_body

    pyproject = (REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(r'^version = "([^"]+)"', pyproject, re.M).group(1) == __version__
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    title = readme.splitlines()[0]
    assert title.endswith(f" v{__version__}"), title
    assert f"data version {DATA_VERSION}" in readme[:600]
    assert set(re.findall(r"v(\d+\.\d+(?:\.\d+)?)\b", title)) == {__version__}
    card = render_body([], repo_id="APMIC/tw_fin_eval_basic", generated="now")
    assert card.splitlines()[0].endswith(f" v{__version__}")
    assert f"資料版本 *data version* {DATA_VERSION}" in card
    for path in [*REPO_ROOT.glob("metrics/*/*.py"), *REPO_ROOT.glob("metrics/*/README.md")]:  # citations
        for found in re.findall(r"tw_fin_eval_basic[^\n]*?\bv(\d+\.\d+(?:\.\d+)?)\b", path.read_text(encoding="utf-8")):
            assert found == __version__, path


def test_readme_quick_path_comes_before_the_reference():
    from tw_fin_eval.paths import REPO_ROOT

    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    heads = [line for line in readme.splitlines() if line.startswith("## ")]
    assert heads[0].startswith("## Quick path")
    block = readme.split("## Quick path", 1)[1].split("```bash", 1)[1].split("```", 1)[0].strip().splitlines()
    assert len(block) == 5
    for step, word in zip(block, ("vllm serve", "tw-fin-eval run", "tw-fin-eval score", "report.html",
                                  "tw-fin-eval compare")):
        assert word in step
    assert "--sample" in block[1]
    assert "tw-fin-eval plan" in readme.split("## Install", 1)[0]
