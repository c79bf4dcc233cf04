"""The five `evaluate` metric modules, loaded the way users load them: `evaluate.load("metrics/<name>")` in
a clean process from the repository root with HF_HUB_OFFLINE=1 (no network), with compute, add and
add_batch, and rubric_judge against a real local OpenAI-compatible judge."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
NAMES = ["numeric_match", "conv_turn_match", "finchain_step_recall", "rubric_judge", "choice_match"]

PROBE = r'''
import json, sys
import evaluate
url = sys.argv[1]
res = {}
m = evaluate.load("metrics/numeric_match")
for p, r in [("答案：94", "94"), ("答案：9.4", "94")]:
    m.add(prediction=p, reference=r)
res["add"] = m.compute()
m.add_batch(predictions=["答案：14.1%", "答案：0.141"], references=["14.1%", "14.1%"])
m.add_batch(predictions=["答案：1"], references=["2"])
res["add_batch"] = m.compute()
res["float_refs"] = m.compute(predictions=["答案：14.1"], references=[0.141], questions=["成長率"], return_items=True)
c = evaluate.load("metrics/choice_match")
c.add_batch(predictions=["答案：A、C", "答案：2"], references=[["A", "C"], ["B"]])
res["choice"] = c.compute(option_formats=["letter", "letter"])
f = evaluate.load("metrics/finchain_step_recall")
f.add_batch(predictions=["步驟 1：NT$100\n答案：200"], references=["200"], steps=[[100.0, 150.0]])
res["finchain"] = f.compute()
cv = evaluate.load("metrics/conv_turn_match")
cv.add_batch(predictions=["答案：1", "答案：2"], references=["1", "3"], conversation_ids=["a", "a"])
cv.add_batch(predictions=["答案：5"], references=["5"], conversation_ids=["b"])
res["conv"] = cv.compute()
j = evaluate.load("metrics/rubric_judge")
res["judge_none"] = j.compute(predictions=["x"], references=["y"], questions=["q"])
res["judge_rubric"] = j.compute(
    predictions=["營收成長 12%"], references=["營收成長 12%"], questions=["營收成長率？"],
    rubrics=[[{"operator": "correctness", "criteria": "營收成長約 12%"},
              {"operator": "contradiction", "criteria": "12%"}]],
    judge_base_url=url, judge_model="j", max_retries=0, return_items=True)
res["judge_score2"] = j.compute(predictions=["a", "b"], references=["r", "r"], questions=["q1", "q2"],
                                judge_base_url=url, judge_model="j", repeats=2, max_retries=0)
print("RESULT " + json.dumps(res, ensure_ascii=False))
'''


def _judge(body: dict) -> str:
    user = body["messages"][-1]["content"]
    if "評分要點" in user:
        return '分析……\n```json\n{"criteria": [{"id": 1, "pass": true}, {"id": 2, "pass": true}]}\n```'
    return "{\"conclusion_correct\": true, \"score\": 8}" if "q1" in user else "看不懂"


@pytest.fixture(scope="module")
def probe():
    server_mod = pytest.importorskip("tw_fin_eval.testing.openai_server")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["HF_HUB_OFFLINE"] = "1"
    with server_mod.FakeOpenAIServer(_judge) as srv:
        proc = subprocess.run([sys.executable, "-", srv.url], input=PROBE, cwd=REPO, env=env, capture_output=True,
                              text=True, timeout=240)
    assert proc.returncode == 0, proc.stderr[-3000:]
    line = next(x for x in proc.stdout.splitlines() if x.startswith("RESULT "))
    return json.loads(line[len("RESULT "):])


def test_each_metric_has_module_and_card():
    for name in NAMES:
        src = (REPO / "metrics" / name / f"{name}.py").read_text(encoding="utf-8")
        for needle in ("_DESCRIPTION", "_CITATION", "_KWARGS_DESCRIPTION", "def _info", "def _compute",
                       "datasets.Features", ">>> "):
            assert needle in src, (name, needle)
        for line in src.splitlines():  # evaluate scans imports with a regex: one import per line
            if line.startswith("import "):
                assert "," not in line, (name, line)
        card = (REPO / "metrics" / name / "README.md").read_text(encoding="utf-8")
        assert card.startswith("---\n") and f"# {name}" in card.replace("# Metric Card for ", "# ")


def test_numeric_match_compute_add_add_batch(probe):
    assert probe["add"]["accuracy"] == 0.5 and probe["add"]["n"] == 2
    assert probe["add_batch"]["accuracy"] == pytest.approx(2 / 3) and probe["add_batch"]["n"] == 3
    assert probe["float_refs"]["accuracy"] == 1.0 and probe["float_refs"]["items"][0]["path"] == "percent"


def test_other_rule_metrics(probe):
    assert probe["choice"] == {"accuracy": 1.0, "flexible_accuracy": 1.0, "cross_format": 1, "n": 2}
    assert probe["finchain"]["accuracy"] == 1.0 and probe["finchain"]["step_recall"] == 0.5
    assert probe["conv"]["turn_accuracy"] == pytest.approx(2 / 3)
    assert probe["conv"]["conversation_accuracy"] == 0.5 and probe["conv"]["n_conversations"] == 2


def test_rubric_judge(probe):
    assert probe["judge_none"]["pending"] == 1 and probe["judge_none"]["judge"] == "none"
    r = probe["judge_rubric"]
    assert (r["scored"], r["passed"], r["pending"], r["missing"]) == (1, 1, 0, 0)
    assert [c["operator"] for c in r["items"][0]["detail"]["criteria"]] == ["correctness", "contradiction"]
    s = probe["judge_score2"]
    assert (s["scored"], s["missing"], s["mean_score"]) == (1, 1, 8.0)  # unparseable → missing, not 0
    assert s["agreement"]["both_scored"] == 1 and s["agreement"]["agreement"] == 1.0


DOCTESTS = r'''
import doctest, importlib.util, sys
failed = 0
for name in sys.argv[1:]:
    spec = importlib.util.spec_from_file_location(name, f"metrics/{name}/{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    runner.run(parser.get_doctest(mod._KWARGS_DESCRIPTION, {}, name, name, 0))
    failed += runner.failures
print("FAILED", failed)
'''


def test_metric_docstring_examples_run():
    """The examples on every rule metric's docstring (what `evaluate` shows users) are what it returns."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(HF_HUB_OFFLINE="1", PYTHONPATH=str(REPO))
    proc = subprocess.run([sys.executable, "-", "numeric_match", "conv_turn_match", "finchain_step_recall",
                           "choice_match"], input=DOCTESTS, cwd=REPO, env=env, capture_output=True, text=True,
                          timeout=240)
    assert proc.returncode == 0 and "FAILED 0" in proc.stdout, proc.stdout[-3000:] + proc.stderr[-2000:]
