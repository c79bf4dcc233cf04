"""The release's metrics load without this package: `evaluate.load("<release>/code/metrics/<name>")` in a
plain venv holding only `evaluate` (and its dependencies) gives the same numbers as tw_fin_eval.scoring."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tw_fin_eval.configs import CONFIGS
from tw_fin_eval.errors import InputError
from tw_fin_eval.paths import DATA_DIR, REPO_ROOT
from tw_fin_eval.release import standalone
from tw_fin_eval.scoring import metric_fns

EVALUATE_SPEC = "evaluate>=0.4.6,<0.5"  # as in pyproject.toml

CASES = {
    "numeric_match": dict(predictions=["計算後\n答案：14.1%", "答案：0.141", "\\boxed{94}", "答案：940",
                                       "答案：94 百萬美元", "答案：否", "答案：1.2億"],
                          references=["14.1%", "14.1%", "94", "94", "94", "no", "120000000"]),
    "conv_turn_match": dict(predictions=["答案：5", "答案：6", "答案：7"], references=["5", "6", "8"],
                            conversation_ids=["a", "a", "b"]),
    "finchain_step_recall": dict(predictions=["步驟 1：100\n步驟 2：0.05\n答案：105", "答案：高風險"],
                                 references=["105", "中風險"], steps=[[100.0, 0.05], [1.0]]),
    "choice_match": dict(predictions=["答案：B", "答案：A、C", "答案：2"], references=[["B"], ["A", "C"], ["C"]]),
}


def _expected() -> dict:
    return {name: getattr(metric_fns, name)(**kwargs) for name, kwargs in CASES.items()}


def test_closure_follows_imports_and_stays_inside_the_package():
    mods = standalone.module_closure()
    for name in ("tw_fin_eval", "tw_fin_eval.scoring", "tw_fin_eval.scoring.metric_fns",
                 "tw_fin_eval.scoring.scorers", "tw_fin_eval.answers.numbers", "tw_fin_eval.errors"):
        assert name in mods
    assert not any(n.startswith(("tw_fin_eval.release", "tw_fin_eval.build")) for n in mods)


def test_generated_core_matches_the_package_and_leaves_it_alone(tmp_path):
    core = standalone.render_core(standalone.module_closure())
    path = tmp_path / "_core_under_test.py"
    path.write_text(core, encoding="utf-8")
    import importlib.util

    spec = importlib.util.spec_from_file_location("_core_under_test", path)
    module = importlib.util.module_from_spec(spec)
    before = {k: v for k, v in sys.modules.items() if k.startswith("tw_fin_eval")}
    spec.loader.exec_module(module)
    try:
        assert module.metric_fns is not metric_fns  # its own copy, not the installed package
        assert {k: v for k, v in sys.modules.items() if k.startswith("tw_fin_eval")} == before
        for name, kwargs in CASES.items():
            assert getattr(module.metric_fns, name)(**kwargs) == getattr(metric_fns, name)(**kwargs)
    finally:
        for k in [k for k in sys.modules if k.startswith("_core_under_test")]:
            del sys.modules[k]
    assert standalone.render_core(standalone.module_closure()) == core  # deterministic


def test_a_metric_without_the_import_line_is_refused(tmp_path):
    (tmp_path / "odd").mkdir()
    (tmp_path / "odd" / "odd.py").write_text("import tw_fin_eval.scoring.metric_fns as m\n", encoding="utf-8")
    with pytest.raises(InputError, match="exactly one line"):
        standalone.make_standalone(tmp_path)


def _fresh_venv() -> Path:
    """A plain venv (no system site-packages) with only `evaluate` installed from the package registry,
    kept in a cache folder between runs (created once per machine, ~30 s)."""
    root = Path(os.environ.get("TW_FIN_EVAL_VENV_CACHE", Path.home() / ".cache" / "tw_fin_eval" / "venvs"))
    key = hashlib.sha256(f"{EVALUATE_SPEC}|{sys.version}".encode()).hexdigest()[:12]
    venv = root / f"evaluate-only-{key}"
    py = venv / "bin" / "python"
    if (venv / ".complete").is_file() and py.is_file():
        return venv
    shutil.rmtree(venv, ignore_errors=True)
    root.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    proc = subprocess.run([str(py), "-m", "pip", "install", "-q", EVALUATE_SPEC], capture_output=True, text=True,
                          timeout=900, env=dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1"))
    if proc.returncode != 0:
        shutil.rmtree(venv, ignore_errors=True)
        if os.environ.get("CI"):
            pytest.fail(f"cannot pip install {EVALUATE_SPEC} into a fresh venv: {proc.stderr[-1500:]}")
        pytest.skip(f"cannot pip install {EVALUATE_SPEC} (no package registry?)")
    (venv / ".complete").write_text(EVALUATE_SPEC, encoding="utf-8")
    return venv


PROBE = r"""
import importlib.util, json, sys
assert importlib.util.find_spec("tw_fin_eval") is None, "the venv is not fresh: tw_fin_eval is importable"
import evaluate
release, cases = sys.argv[1], json.loads(sys.argv[2])
out = {}
for name, kwargs in cases.items():
    out[name] = evaluate.load(f"{release}/code/metrics/{name}").compute(**kwargs)
judge = evaluate.load(f"{release}/code/metrics/rubric_judge")
out["rubric_judge"] = judge.compute(predictions=["答案：可以"], references=["可以"], questions=["可以嗎？"])
print(json.dumps(out, ensure_ascii=False))
"""


@pytest.mark.skipif(not (DATA_DIR / CONFIGS["finqa"].data_file).is_file(), reason="data/ not built")
def test_release_metrics_load_in_a_venv_with_only_evaluate(tmp_path):
    from tw_fin_eval.release.writer import write_release

    data = tmp_path / "data"
    data.mkdir()
    shutil.copy2(DATA_DIR / CONFIGS["finqa"].data_file, data / CONFIGS["finqa"].data_file)
    release = tmp_path / "hf_release"
    write_release(data, release, configs=[CONFIGS["finqa"]], repo_root=REPO_ROOT, log=lambda *_: None)
    for name in (*CASES, "rubric_judge"):
        assert (release / "code" / "metrics" / name / f"{standalone.CORE_MODULE}.py").is_file()
        assert standalone.RELEASE_IMPORT in (release / "code" / "metrics" / name / f"{name}.py").read_text("utf-8")
    # the repository's own metric scripts are untouched
    assert standalone.REPO_IMPORT in (REPO_ROOT / "metrics" / "numeric_match" / "numeric_match.py").read_text("utf-8")

    venv = _fresh_venv()
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "PYTHONHOME"}}
    env.update(HF_HUB_OFFLINE="1", HF_DATASETS_OFFLINE="1", HF_HOME=str(tmp_path / "hf_home"))
    proc = subprocess.run([str(venv / "bin" / "python"), "-c", PROBE, str(release), json.dumps(CASES)],
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    expected = json.loads(json.dumps(_expected(), ensure_ascii=False))
    for name in CASES:
        assert got[name] == expected[name], name
    assert got["rubric_judge"]["pending"] == 1 and got["rubric_judge"]["judge"] == "none"


@pytest.mark.skipif(not (DATA_DIR / CONFIGS["finqa"].data_file).is_file(), reason="data/ not built")
def test_card_commands_work_from_the_release_folder(tmp_path):
    """The card's commands, run in the release folder as a user would: FinChain generate.py with a Python
    that has no tw_fin_eval, run.py and score.py straight from the parquet; the card has a BibTeX entry for
    this dataset, a changelog line and the baseline-results block the compare tool fills."""
    import re

    from tw_fin_eval.release.writer import write_release
    from tw_fin_eval.testing import FakeOpenAIServer

    data = tmp_path / "data"
    data.mkdir()
    shutil.copy2(DATA_DIR / CONFIGS["finqa"].data_file, data / CONFIGS["finqa"].data_file)
    release = tmp_path / "hf_release"
    write_release(data, release, configs=[CONFIGS["finqa"]], repo_root=REPO_ROOT, log=lambda *_: None)
    card = (release / "README.md").read_text(encoding="utf-8")
    assert "@misc{apmic2026twfinevalbasic" in card and "## 版本紀錄 Changelog" in card
    assert "<!-- baseline-results:start -->" in card and "<!-- baseline-results:end -->" in card
    assert "to_json" not in card  # no "convert the parquet to JSONL first" step

    (gen,) = re.findall(r"`(python finchain_tw_templates/generate\.py [^`]+)`", card)
    gen = gen.replace("--seeds 10", "--seeds 1").replace("finchain_new.jsonl", str(tmp_path / "fc.jsonl"))
    venv = _fresh_venv()
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "PYTHONHOME"}}
    proc = subprocess.run([str(venv / "bin" / "python"), *gen.split()[1:]], cwd=release, env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert sum(1 for _ in (tmp_path / "fc.jsonl").open(encoding="utf-8")) > 100

    (run_cmd,) = re.findall(r"^(python code/tools/run\.py .+)$", card, flags=re.M)
    (score_cmd,) = re.findall(r"^(python code/tools/score\.py .+)$", card, flags=re.M)
    with FakeOpenAIServer(lambda body: "答案：1") as srv:
        cmd = run_cmd.replace("http://localhost:8000/v1", srv.url).split()[1:] + ["--limit", "3", "--quiet"]
        proc = subprocess.run([sys.executable, *cmd], cwd=release, env=env, capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr[-2000:]
        assert len(srv.requests) == 3
    proc = subprocess.run([sys.executable, *score_cmd.split()[1:], "--quiet"], cwd=release, env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert (release / "reports" / "my_model" / "summary.csv").is_file()
