"""FinLLM450 end to end: convert the synthetic workbook, run it against a fake model server with
`tw-fin-eval run` (FORMATS §3 runs file), score it with `tw-fin-eval score` — MCQ by exact option-set match; short_answer / case_study `pending`
without a judge, and scored 0–10 by a fake OpenAI-compatible judge (pass = conclusion correct and ≥ 7) —
and read the per-ability and per-question-type pass rates and mean scores from summary.csv / report.md."""

from __future__ import annotations

import csv
import json
import re

import pytest

from tests.test_finllm450_synth import ROWS, write_workbook
from tw_fin_eval.cli import main as cli_main
from tw_fin_eval.jsonl import read_jsonl, write_jsonl

server_mod = pytest.importorskip("tw_fin_eval.testing.openai_server")

# serial → the fake model's reply. MCQ: right / wrong / partial multi-answer / cross-format / boxed / think.
# Short and case: a marker the fake judge reads — [S<score>] conclusion right, [S<score>F] conclusion wrong,
# [X] an unparseable verdict.
OUTPUTS = {
    1: "勞退新制雇主提繳率不得低於 6%。\n答案：C",
    2: "身分不是財產權。\\boxed{D}",
    3: "（1,200－300）÷ 800 = 1.125\n答案：B",
    5: "應向法務部調查局申報。\n答案：(B)",
    7: "新臺幣升值對進口商不利。\n答案：A",          # wrong (gold B)
    8: "病歷屬特種個資。\n答案：A",                    # partial multi-answer (gold A、C): wrong
    11: "執票人仍得追索。\n答案：2",
    12: "應聲請法院拍賣。\n答案：2",                   # wrong against the workbook's (converted) gold 3
    13: "銀行只審單據。\n答案：2",                     # a number for a letter question: 2 → B, right
    16: "<think>答案：B？再想想。</think>平均成本。\n答案：A",
    18: "負債比率衡量財務槓桿。\n答案：C",
    4: "5P 為借款戶、資金用途、還款來源、債權保障、授信展望。[S9]\n答案：如上五項。",
    6: "應於 5 個營業日內申報。[S6]\n答案：5 個營業日。",
    9: "缺口約 900 萬元。[S8]\n答案：每年增加提撥 45 萬元。",
    10: "建議核貸。[S8F]\n答案：核貸。",
    14: "最高保額 300 萬元。[S7]\n答案：300 萬元。",
    15: "可用遠期外匯。[X]\n答案：遠期外匯。",
    17: "5P 為借款戶、資金用途、還款來源、債權保障、授信展望。[S9]\n答案：如上五項。",  # same question as 4
}
MCQ_RIGHT = {1, 3, 5, 11, 13, 16, 18}  # strict headline: 2 (\\boxed{D}, no 「答案：」) is right only flexibly


def _judge(body: dict) -> str:
    user = body["messages"][-1]["content"]
    m = re.search(r"\[(S(\d+)(F?)|X)\]", user)
    if m is None or m.group(1) == "X":
        return "這份回答我無法評分。"
    score, wrong = int(m.group(2)), bool(m.group(3))
    return f"理由：略。\n{{\"conclusion_correct\": {str(not wrong).lower()}, \"score\": {score}}}"


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    """convert → `tw-fin-eval run` against a fake model server (replies chosen by the question) → runs file."""
    root = tmp_path_factory.mktemp("finllm450_score")
    book = write_workbook(root / "book.xlsx")
    data = root / "data" / "finllm450.jsonl"
    assert cli_main(["convert-finllm450", "--xlsx", str(book), "--out", str(data), "--issues",
                     str(root / "issues.csv"), "--quiet"]) == 0
    records = read_jsonl(data)
    by_prompt = {r["messages"][-1]["content"]: OUTPUTS[int(r["source"]["orig_id"])] for r in records}
    assert len(by_prompt) == len(records) - 1  # 序號 4 and 17 share their question (and their fake reply)
    runs = root / "runs" / "fake.jsonl"
    with server_mod.FakeOpenAIServer(lambda body: by_prompt[body["messages"][-1]["content"]]) as srv:
        assert cli_main(["run", "--data", str(data), "--base-url", srv.url, "--model", "fake-model", "--out",
                         str(runs), "--concurrency", "2", "--max-retries", "0", "--quiet"]) == 0
        assert len(srv.requests) == len(records)
    lines = read_jsonl(runs)
    assert sorted(x["id"] for x in lines) == sorted(r["id"] for r in records) and all(x["error"] is None for x in lines)
    return root, data, runs, records


def _rows(out) -> dict[tuple[str, str], dict[str, str]]:
    with open(out / "summary.csv", encoding="utf-8", newline="") as fh:
        return {(r["dimension"], r["group"]): r for r in csv.DictReader(fh) if r["dataset"] in ("", "FinLLM450")}


def test_without_judge_mcq_scored_and_open_items_pending(setup, monkeypatch):
    root, data, runs, records = setup
    out = root / "report_nojudge"
    assert cli_main(["score", "--data", str(data), "--runs", str(runs), "--out", str(out), "--quiet"]) == 0
    results = {r["id"]: r for r in read_jsonl(out / "results.jsonl")}
    for rec in records:
        serial = int(rec["source"]["orig_id"])
        got = results[rec["id"]]
        if rec["task_type"] == "mcq":
            assert (got["status"], got["correct"]) == ("scored", serial in MCQ_RIGHT), rec["id"]
            assert got["flexible_correct"] == (serial in MCQ_RIGHT | {2}), rec["id"]
        else:
            assert (got["status"], got["correct"], got["reason"]) == ("pending", None, "no judge configured")
    assert results["finllm450-0013"]["match_path"] == "cross_format"
    assert results["finllm450-0008"]["extracted"] == "A"  # the partial multi-answer is read, and wrong
    assert results["finllm450-0002"]["mode"] == "boxed"
    rows = _rows(out)
    mcq = rows[("task_type", "mcq")]
    assert (mcq["decided"], mcq["correct"], float(mcq["accuracy"])) == ("11", "7", pytest.approx(7 / 11))
    assert rows[("task_type", "short_answer")]["pending"] == "4" and rows[("task_type", "case_study")]["pending"] == "3"


def test_with_fake_judge_pass_rate_and_mean_score_per_ability_and_type(setup, monkeypatch):
    root, data, runs, records = setup
    monkeypatch.delenv("JUDGE_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    out = root / "report_judge"
    with server_mod.FakeOpenAIServer(_judge) as srv:
        assert cli_main(["score", "--data", str(data), "--runs", str(runs), "--out", str(out), "--quiet",
                         "--judge-base-url", srv.url, "--judge-model", "judge-m", "--judge-retries", "0"]) == 0
        prompts = [b["messages"][-1]["content"] for b in srv.requests]
    assert len(prompts) == 7  # only short_answer / case_study reach the judge
    by_id = {r["id"]: r for r in records}
    four = next(p for p in prompts if "[S9]" in p)
    assert by_id["finllm450-0004"]["reference_answer"] in four  # judged against the reference answer …
    assert ROWS[3]["APMIC 最終回覆"] not in four  # … never against the APMIC reply
    results = {r["id"]: r for r in read_jsonl(out / "results.jsonl")}
    judged = {int(i[-4:]): (r["status"], r["correct"], r["score"]) for i, r in results.items()
              if by_id[i]["task_type"] != "mcq"}
    assert judged == {4: ("scored", True, 9.0), 6: ("scored", False, 6.0), 9: ("scored", True, 8.0),
                      10: ("scored", False, 8.0), 14: ("scored", True, 7.0), 15: ("missing", None, None),
                      17: ("scored", True, 9.0)}
    rows = _rows(out)

    def pick(dim, group):
        r = rows[(dim, group)]
        return (int(r["decided"]), int(r["correct"]), r["pass_rate"] and round(float(r["pass_rate"]), 4),
                r["mean_score"] and round(float(r["mean_score"]), 4), int(r["missing"]))

    assert pick("task_type", "mcq") == (11, 7, "", "", 0)
    assert pick("task_type", "short_answer") == (4, 3, 0.75, 7.75, 0)
    assert pick("task_type", "case_study") == (2, 1, 0.5, 8.0, 1)
    assert pick("category", "財富規劃與退休理財") == (4, 3, 1.0, 8.0, 0)  # 0002 is right only flexibly
    assert pick("category", "授信與財務分析") == (5, 4, round(2 / 3, 4), round(26 / 3, 4), 0)
    assert pick("category", "法規判讀與合規") == (5, 2, 0.0, 6.0, 0)
    assert pick("category", "金融知識查詢") == (3, 2, 1.0, 7.0, 1)
    report = (out / "report.md").read_text(encoding="utf-8")
    section = report.split("## FinLLM450: pass rate and mean score")[1]
    assert "### per ability" in section and "### per question type" in section
    assert "| 授信與財務分析 | 5 | 5 | 80.0% | 100.0% | 66.7% | 8.67 | 0 | 0 |" in section
    assert "| case_study | 3 | 2 | 50.0% |  | 50.0% | 8.00 | 0 | 1 |" in section


def test_gold_answers_as_outputs_score_every_mcq_right(setup):
    """Self-check: the converted gold (letter→number fixed) is what the scorer accepts."""
    root, data, _, records = setup
    runs = root / "runs" / "gold.jsonl"
    write_jsonl(runs, [{"id": r["id"], "turn": None, "model": "gold", "error": None,
                        "response": "答案：" + "、".join(r["answer"])} for r in records if r["task_type"] == "mcq"])
    out = root / "report_gold"
    assert cli_main(["score", "--data", str(data), "--runs", str(runs), "--out", str(out), "--quiet"]) == 0
    results = [r for r in read_jsonl(out / "results.jsonl") if r["task_type"] == "mcq"]
    assert len(results) == 11 and all(r["correct"] for r in results)
    assert json.loads((out / "results.jsonl").read_text(encoding="utf-8").splitlines()[0])["dataset"] == "FinLLM450"


@pytest.mark.parametrize("reply,gold,fmt", [
    ("答案：C", ["C"], "letter"),
    ("答案：A、C", ["A", "C"], "letter"),  # the form our MCQ prompt asks for
    ("答案：1、3", ["1", "3"], "number"),
    ("答案：Ｃ", ["C"], "letter"),
    ("答案：(A)(C)", ["A", "C"], "letter"),
    ("答案：(1)(3)", ["1", "3"], "number"),
    ("答案：③", ["3"], "number"),
])
def test_mcq_answer_forms(reply, gold, fmt):
    from tw_fin_eval.answers.match import match_choice

    assert match_choice(reply, gold, fmt).correct
