"""The committed translations cover every kept item and pass every rule (issues: FinQA-TW, ConvFinQA-TW,
FinanceAgent-TW translation). The gold-answer self-check on the built records is in test_scoring_selfcheck.py."""

import pytest

from tw_fin_eval.build import build_subset
from tw_fin_eval.paths import TRANSLATIONS_DIR


@pytest.mark.parametrize("subset, kept", [("finqa", 1147), ("convfinqa", 421), ("financeagent", 50)])
def test_every_item_translated_and_rule_clean(sources_root, subset, kept):
    res = build_subset(subset, sources_root, TRANSLATIONS_DIR)
    assert res.excluded == []
    assert res.failing == [], "\n".join(i.format() for i in res.failing[:10])
    assert res.untranslated == 0
    assert len(res.records) == res.kept == kept
    if subset == "convfinqa":
        assert sum(len(r["turns"]) for r in res.records) == 1490



def test_rubric_judge_runs_on_the_translated_financeagent_records(sources_root, tmp_path):
    """FinanceAgent-TW end to end: the 50 translated records, their zh-TW reference answers as model outputs, and
    a judge server that checks criteria — every record is judged with all of its zh-TW criteria."""
    import json
    import re

    from tw_fin_eval.cli import main as cli_main
    from tw_fin_eval.jsonl import read_jsonl, write_jsonl
    from tw_fin_eval.testing.openai_server import FakeOpenAIServer

    records = build_subset("financeagent", sources_root, TRANSLATIONS_DIR).records
    data = tmp_path / "financeagent_tw.jsonl"
    write_jsonl(data, records)
    runs = tmp_path / "runs.jsonl"
    write_jsonl(runs, [{"id": r["id"], "turn": None, "dataset": r["dataset"], "model": "m", "error": None,
                        "response": r["answer"] + "\n答案：" + r["answer"][:40], "reasoning": None} for r in records])

    failing = {r["question"] for r in records[::5]}  # the judge fails criterion 1 of every fifth record

    def judge(body: dict) -> str:
        user = body["messages"][-1]["content"]
        n = len(re.findall(r"^\d+\. \[(?:正確性|不矛盾)\]", user, flags=re.M))
        fail_first = any(q in user for q in failing)
        return "逐條檢查完畢。\n" + json.dumps({"criteria": [{"id": i, "pass": not (fail_first and i == 1)}
                                                           for i in range(1, n + 1)]})

    with FakeOpenAIServer(judge) as srv:
        assert cli_main(["score", "--data", str(data), "--runs", str(runs), "--out", str(tmp_path / "rep"), "--quiet",
                         "--judge-base-url", srv.url, "--judge-model", "judge", "--judge-retries", "0"]) == 0
        asked = srv.requests
    assert len(asked) == 50
    by_question = {r["question"]: r for r in records}
    for body in asked:
        user = body["messages"][-1]["content"]
        rec = next(r for q, r in by_question.items() if q in user)
        assert all(c["criteria"] in user for c in rec["rubric"])  # the zh-TW criteria, every one
    results = read_jsonl(tmp_path / "rep" / "results.jsonl")
    assert len(results) == 50 and {r["status"] for r in results} == {"scored"}
    assert all(r["decided_by"] == "judge" for r in results)
    wrong = {r["id"] for r in results if not r["correct"]}
    assert wrong == {r["id"] for r in records[::5]}
