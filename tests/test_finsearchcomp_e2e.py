"""FinSearchComp end to end: `tw-fin-eval run` against a fake model server, then `tw-fin-eval score` with a
fake judge server that answers in every verdict format; per-task/region results with missing and
no_ground_truth counted apart and never averaged in."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from tw_fin_eval.cli import main as cli_main
from tw_fin_eval.jsonl import write_jsonl
from tw_fin_eval.scoring import finsearchcomp as fj
from tw_fin_eval.sources import finsearchcomp as fsc
from tw_fin_eval.testing import FakeOpenAIServer

GROUPS = [("T1", "Global"), ("T1", "Greater China"), ("T2", "Global"), ("T2", "Greater China"),
          ("T3", "Global"), ("T3", "Greater China")]


def canned(system: str) -> list[tuple[str, str, bool | None]]:
    """Two (judge reply, expected status, expected correct) per group, in GROUPS order."""
    return [
        ('Analysis:\nStudent\'s answer meets the Required Content: Yes;\nFinal score: {"score":1}', "scored", True),
        ('Analysis: the Real-time Authentic Information is empty.\n{"score":"null"}', "no_ground_truth", None),
        ("分析：\n学生答出了必答点：否；\n最终分数：｛“score”：０｝", "scored", False),  # Chinese punctuation
        (system + '\n\n分析：满足要求。\n最终分数：{"score":1}', "scored", True),  # examples echoed first
        ('-   Scoring Basis: same meaning.\n-   JSON:\n    ```\n    {"answer_score": 1}\n    ```', "scored", True),
        ("I am unable to grade this answer.", "missing", None),  # garbage
        ("- 【评分依据】：数字不一致。\n- 【JSON】：\n``` \n{\"answer_score\": 0} \n```", "scored", False),
        ('先分析：学生答案与标准答案一致。\n```json\n{"answer_score": 1}\n```', "scored", True),
        ('```json\n{"answer_score": 1}\n```', "scored", True),
        ('{"answer_score": "null"}', "missing", None),  # null is not a T2/T3 verdict
        ("【JSON】：```\n{「answer_score」：1}\n``", "scored", True),
        ('{"answer_score": 1}\n更正：\n```\n{"answer_score": 0}\n```', "scored", False),  # last verdict wins
    ]


@pytest.fixture(scope="module")
def picked(sources_root) -> list[dict]:
    if not (sources_root / "finsearchcomp" / "finsearchcomp_data.json").is_file():
        pytest.skip("FinSearchComp source not available")
    records = fsc.build_records(sources_root)
    out = []
    for task, region in GROUPS:
        out += [r for r in records if (r["task"], r["region"]) == (task, region)][:2]
    return out


def model_answer(prompt: str) -> str:
    return f"ANSWER for: {prompt[:30]}\n答案：42"


def test_run_and_score_end_to_end(picked, tmp_path: Path, monkeypatch, capsys):
    monkeypatch.setenv("TW_FIN_EVAL_PLUGINS", "tw_fin_eval.scoring.finsearchcomp")
    fj.install()  # another test may have re-routed open_judge in this process
    data = tmp_path / "finsearchcomp.jsonl"
    write_jsonl(data, picked)

    # 1. run: the model's reply carries a <think> block, which the judge must not see
    runs = tmp_path / "runs.jsonl"
    with FakeOpenAIServer(lambda body: model_answer(body["messages"][-1]["content"]), reasoning="think") as srv:
        assert cli_main(["run", "--data", str(data), "--base-url", srv.url, "--model", "m", "--out", str(runs),
                         "--quiet"]) == 0
        # the model sees exactly the record's messages: the bare prompt as the only user message
        assert sorted(json.dumps(b["messages"]) for b in srv.requests) == \
            sorted(json.dumps(r["messages"]) for r in picked)
    lines = [json.loads(x) for x in runs.read_text(encoding="utf-8").splitlines()]
    assert len(lines) == 12 and all("<think>" in x["response"] for x in lines)

    # 2. score with a judge that answers each item in its own format
    expected: dict[str, tuple[str, bool | None]] = {}
    replies: dict[str, str] = {}
    for i, rec in enumerate(picked):
        reply, status, correct = canned(rec["judge_system_prompt"])[i]
        user = independent_user(rec, model_answer(rec["prompt"]))
        replies[user] = reply
        expected[rec["id"]] = (status, correct)
    report = tmp_path / "report"
    with FakeOpenAIServer(lambda body: replies[body["messages"][-1]["content"]]) as judge_srv:
        rc = cli_main(["score", "--data", str(data), "--runs", str(runs), "--out", str(report), "--quiet",
                       "--judge-base-url", judge_srv.url, "--judge-model", "judge", "--judge-retries", "0"])
        assert rc == 0
        by_user = {b["messages"][-1]["content"]: b for b in judge_srv.requests}
    capsys.readouterr()
    assert set(by_user) == set(replies)  # every item judged once, with the exact filled template
    for rec in picked:
        body = by_user[independent_user(rec, model_answer(rec["prompt"]))]
        assert body["messages"][0] == {"role": "system", "content": rec["judge_system_prompt"]}
        assert body["model"] == "judge" and body.get("temperature") == 0.0

    results = {r["id"]: r for r in map(json.loads, (report / "results.jsonl").read_text(encoding="utf-8").splitlines())}
    assert {rid: (r["status"], r["correct"]) for rid, r in results.items()} == expected
    assert all(r["judge_raw"] for r in results.values())

    # the shared summary: accuracy over decided items only (6 right of 9), missing and no_ground_truth apart
    with (report / "summary.csv").open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    ds = next(r for r in rows if r["dimension"] == "dataset" and r["group"] == "FinSearchComp")
    assert (ds["decided"], ds["correct"], ds["missing"], ds["other_outcomes"]) == ("9", "6", "2", "1")
    assert float(ds["accuracy"]) == pytest.approx(6 / 9)
    per_task = {r["group"]: r for r in rows if r["dimension"] == "category"}
    assert float(per_task["T1_Time-Sensitive_Data_Fetching"]["accuracy"]) == pytest.approx(2 / 3)
    assert "no_ground_truth" in (report / "report.md").read_text(encoding="utf-8")

    # 3. the FinSearchComp table per task × region
    assert fj.main([str(report), "--csv", str(tmp_path / "fsc.csv")]) == 0
    table = capsys.readouterr().out
    assert "| T1 | Global | 2 | 100.0% | 1 | 1 | 0 | 1 | 0 | 0 | 0 |" in table
    assert "| T2 | Global | 2 | 100.0% | 1 | 1 | 1 | 0 | 0 | 0 | 0 |" in table
    assert "| T3 | Greater China | 2 | 50.0% | 2 | 1 | 0 | 0 | 0 | 0 | 0 |" in table
    assert "| all | all | 12 | 66.7% | 9 | 6 | 2 | 1 | 0 | 0 | 0 |" in table
    with (tmp_path / "fsc.csv").open(encoding="utf-8") as fh:
        summary = {(r["task"], r["region"]): r for r in csv.DictReader(fh)}
    assert summary[("all", "all")]["no_ground_truth"] == "1" and summary[("all", "all")]["missing"] == "2"


def independent_user(rec: dict, answer: str) -> str:
    ref = rec["response_reference"] if rec["response_reference"] is not None else rec["response_reference_translate"]
    text = rec["judge_prompt_template"].replace("{prompt}", rec["prompt"]).replace("{response_reference}", ref)
    if rec["ground_truth"] is not None:
        text = text.replace("{ground_truth}", rec["ground_truth"])
    return text.replace("{response}", answer)


def test_without_a_judge_every_item_is_pending(picked, tmp_path: Path, capsys):
    fj.install()
    data = tmp_path / "d.jsonl"
    write_jsonl(data, picked[:3])
    runs = tmp_path / "runs.jsonl"
    write_jsonl(runs, [{"id": r["id"], "turn": None, "response": "42", "error": None} for r in picked[:3]])
    assert cli_main(["score", "--data", str(data), "--runs", str(runs), "--out", str(tmp_path / "rep"), "--quiet"]) == 0
    capsys.readouterr()
    results = [json.loads(x) for x in (tmp_path / "rep" / "results.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [(r["status"], r["reason"]) for r in results] == [("pending", "no judge configured")] * 3


def test_summary_cli_refuses_results_without_finsearchcomp(tmp_path: Path, capsys):
    path = tmp_path / "results.jsonl"
    write_jsonl(path, [{"id": "finqa_tw-test-0001", "dataset": "FinQA-TW", "status": "scored", "correct": True}])
    assert fj.main([str(path)]) == 2
    assert "no FinSearchComp items" in capsys.readouterr().err
    assert fj.main([str(tmp_path / "nope")]) == 2


def test_score_command_routes_finsearchcomp_to_its_protocol_without_configuration(picked, tmp_path: Path):
    """A fresh `tw-fin-eval score` process (no $TW_FIN_EVAL_PLUGINS) judges FinSearchComp with the row's own
    protocol: the plug-in ships with the scorer."""
    import os
    import subprocess
    import sys

    data = tmp_path / "fsc.jsonl"
    write_jsonl(data, picked)
    runs = tmp_path / "runs.jsonl"
    write_jsonl(runs, [{"id": r["id"], "turn": None, "dataset": r["dataset"], "model": "m", "response": "答案：42",
                        "reasoning": None, "error": None} for r in picked])
    env = {k: v for k, v in os.environ.items() if k != "TW_FIN_EVAL_PLUGINS"}
    with FakeOpenAIServer(lambda body: '```json\n{"answer_score": 1}\n```\n{"score":1}') as judge_srv:
        proc = subprocess.run([sys.executable, "-m", "tw_fin_eval", "score", "--data", str(data), "--runs", str(runs),
                               "--out", str(tmp_path / "rep"), "--quiet", "--judge-base-url", judge_srv.url,
                               "--judge-model", "judge", "--judge-retries", "0"],
                              capture_output=True, text=True, env=env, cwd=Path(__file__).resolve().parent.parent)
        assert proc.returncode == 0, proc.stderr
        systems = {b["messages"][0]["content"] for b in judge_srv.requests}
    assert systems == {r["judge_system_prompt"] for r in picked}
    results = [json.loads(x) for x in (tmp_path / "rep" / "results.jsonl").read_text(encoding="utf-8").splitlines()]
    assert {r["status"] for r in results} == {"scored"} and all(r["correct"] for r in results)
