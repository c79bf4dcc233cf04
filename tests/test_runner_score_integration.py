"""The runner's output feeds the scorer: run synthetic FinQA/ConvFinQA records against a server that
answers with the gold values (after a <think> block, through retried faults), then score the runs file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tw_fin_eval.cli import main as cli_main
from tw_fin_eval.testing import FakeOpenAIServer

pytest.importorskip("tw_fin_eval.scoring.cli")

SYSTEM = "你是一位嚴謹的台灣財務分析師。"


def base(rid: str, dataset: str, task_type: str, question: str) -> dict:
    return {"id": rid, "dataset": dataset, "source": {"name": dataset, "paper": "", "orig_id": rid, "url": "",
                                                      "license": "MIT"},
            "category": "C_財報數值推理", "subcategory": None, "task_type": task_type, "difficulty": None,
            "lang": "zh-TW", "question": question, "context": {"table": None, "evidence": [], "setting": None},
            "answer_text": None, "program": None, "original_en": {},
            "meta": {"translation": "test", "review_status": "unreviewed", "version": "0.1"}}


def records() -> list[dict]:
    recs = []
    for i, value in enumerate([94.0, -12.5, 1234.0, 0.5]):
        q = f"第 {i} 題：營收差額是多少？"
        rec = base(f"finqa_tw-test-{i:04d}", "FinQA-TW", "numeric", q)
        rec.update(answer=f"{value:g}", answer_value=value,
                   messages=[{"role": "system", "content": SYSTEM}, {"role": "user", "content": q}])
        recs.append(rec)
    turns = [{"question": "2019 年營收？", "answer": "5735", "answer_value": 5735.0, "answer_text": None,
              "program": "5735", "question_en": "?"},
             {"question": "2020 年呢？", "answer": "5829", "answer_value": 5829.0, "answer_text": None,
              "program": "5829", "question_en": "?"},
             {"question": "差多少？", "answer": "94", "answer_value": 94.0, "answer_text": None,
              "program": "subtract(5829, 5735)", "question_en": "?"}]
    conv = base("convfinqa_tw-dev-0001", "ConvFinQA-TW", "conversation_numeric", turns[0]["question"])
    conv.update(answer="5735", answer_value=5735.0, turns=turns, system=SYSTEM, first_user_prefix="表格\n\n問題：",
                subcategory="單題拆解",
                messages=[{"role": "system", "content": SYSTEM}, {"role": "user", "content": "表格\n\n問題：2019 年營收？"}])
    recs.append(conv)
    return recs


def test_runs_file_scores_100_percent_with_gold_answers(tmp_path: Path, capsys):
    recs = records()
    data = tmp_path / "d.jsonl"
    data.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in recs), encoding="utf-8")
    by_question = {r["messages"][-1]["content"]: r["answer"] for r in recs if r["task_type"] == "numeric"}
    conv_answers = [t["answer"] for t in recs[-1]["turns"]]

    def gold(body):
        users = [m["content"] for m in body["messages"] if m["role"] == "user"]
        answer = by_question.get(users[-1]) or conv_answers[len(users) - 1]
        return f"逐步計算……\n答案：{answer}"

    out = tmp_path / "runs.jsonl"
    with FakeOpenAIServer(gold, reasoning="think", script=["500"]) as srv:
        rc = cli_main(["run", "--data", str(data), "--base-url", srv.url, "--model", "m", "--out", str(out),
                       "--quiet", "--max-retries", "1"])
    assert rc == 0
    report = tmp_path / "report"
    rc = cli_main(["score", "--data", str(data), "--runs", str(out), "--out", str(report), "--quiet"])
    capsys.readouterr()
    assert rc == 0
    results = [json.loads(line) for line in (report / "results.jsonl").read_text(encoding="utf-8").splitlines()]
    assert sorted((r["id"], r["turn"]) for r in results) == sorted(
        [(f"finqa_tw-test-{i:04d}", None) for i in range(4)] + [("convfinqa_tw-dev-0001", k) for k in range(3)])
    assert all(r["status"] == "scored" and r["correct"] for r in results), results
