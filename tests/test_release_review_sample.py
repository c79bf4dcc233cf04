"""`tw-fin-eval review-sample`: stratified quotas, one row per ConvFinQA conversation, shortfalls reported,
English and zh-TW side by side, UTF-8 with BOM, empty reviewer columns, deterministic for a seed."""

from __future__ import annotations

import argparse
import csv
from collections import Counter
from pathlib import Path

import pytest

from tw_fin_eval.release import review_sample as rs
from tw_fin_eval.release.synthetic import write_synthetic_data

# population: what the full subsets hold (the English sources' role); data: what is translated so far
POPULATION = {
    "finqa": Counter({"增減計算": 40, "比率計算": 40, "比較判斷": 20}),
    "convfinqa": Counter({"單題拆解": 30, "雙題組合": 10}),
    "financeagent": Counter({"數值推理": 6, "市場分析": 4}),
}


@pytest.fixture()
def data(tmp_path) -> Path:
    folder = tmp_path / "data"
    write_synthetic_data(folder, {"finqa": 60, "convfinqa": 6, "financeagent": 10})
    return folder


def test_largest_remainder_sums_and_is_proportional():
    q = rs.largest_remainder(346, {"a": 1147, "b": 421, "c": 50})
    assert q == {"a": 245, "b": 90, "c": 11} and sum(q.values()) == 346
    assert sum(rs.largest_remainder(7, {"x": 1, "y": 1, "z": 1}).values()) == 7
    assert rs.largest_remainder(5, {"x": 0}) == {"x": 0}


def test_quotas_follow_population_and_shortfall_is_reported(data):
    records, strata = rs.draw(data, size=30, seed=3, population=POPULATION)
    quota = {(s.subset, s.name): s.quota for s in strata}
    # 30 rows over 100/40/10 → 20/8/2; FinQA 20 over 40/40/20 → 8/8/4
    assert sum(quota.values()) == 30
    assert quota[("finqa", "增減計算")] == 8 and quota[("finqa", "比較判斷")] == 4
    assert quota[("convfinqa", "單題拆解")] == 6 and quota[("convfinqa", "雙題組合")] == 2
    # synthetic ConvFinQA: 3 單題拆解 + 3 雙題組合 translated → 單題拆解 is short by 3
    short = {(s.subset, s.name): s.shortfall for s in strata if s.shortfall}
    assert short == {("convfinqa", "單題拆解"): 3}
    assert len(records) == 27
    by = Counter((r["dataset"], r["subcategory"]) for r in records)
    assert by[("FinQA-TW", "增減計算")] == 8 and by[("ConvFinQA-TW", "單題拆解")] == 3
    assert len({r["id"] for r in records}) == len(records)


def test_sheet_is_bom_utf8_side_by_side_with_empty_reviewer_columns(data, tmp_path, capsys):
    out = tmp_path / "人工抽審表_review_sample.csv"
    args = argparse.Namespace(data=str(data), out=str(out), size=30, seed=3, sources=None, no_sources=True)
    assert rs.main(args) == 0
    raw = out.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    rows = list(csv.DictReader(out.open(encoding="utf-8-sig", newline="")))
    assert list(rows[0]) == rs.COLUMNS
    assert [r["序號 No"] for r in rows] == [str(i) for i in range(1, len(rows) + 1)]
    assert all(r["審閱者"] == r["判定"] == r["意見"] == "" for r in rows)
    finqa = next(r for r in rows if r["子集 Subset"] == "FinQA-TW")
    assert finqa["英文題目 Question (EN)"].startswith("what is the change") and "淨營收" in finqa["繁中題目 Question (zh-TW)"]
    assert "2014 net revenue" in finqa["英文表格 Table (EN)"] and "2014 年淨營收" in finqa["繁中表格 Table (zh-TW)"]
    conv = [r for r in rows if r["子集 Subset"] == "ConvFinQA-TW"]
    assert conv and all(r["繁中題目 Question (zh-TW)"].startswith("1. ") and "\n2. " in r["繁中題目 Question (zh-TW)"]
                        for r in conv)  # one row per conversation, every turn listed
    agent = next(r for r in rows if r["子集 Subset"] == "FinanceAgent-TW")
    assert "[correctness]" in agent["繁中參考答案與評分要點 Answer/rubric (zh-TW)"]
    assert "Rubric:" in agent["英文參考答案與評分要點 Answer/rubric (EN)"]
    assert "wrote" in capsys.readouterr().out


def test_deterministic_for_a_seed(data, tmp_path):
    def sheet(seed: int, name: str) -> bytes:
        out = tmp_path / name
        rs.write_sheet(out, rs.draw(data, size=25, seed=seed, population=POPULATION)[0])
        return out.read_bytes()

    assert sheet(7, "a.csv") == sheet(7, "b.csv")
    assert sheet(7, "a.csv") != sheet(8, "c.csv")


def test_missing_subset_file_gives_shortfall_not_crash(data):
    (data / "convfinqa_tw_dev.jsonl").unlink()
    records, strata = rs.draw(data, size=30, seed=1, population=POPULATION)
    assert not [r for r in records if r["dataset"] == "ConvFinQA-TW"]
    assert sum(s.shortfall for s in strata if s.subset == "convfinqa") == 8


def test_long_cells_are_truncated_for_excel():
    cell = rs._cell("字" * 40_000)
    assert len(cell) <= rs.CELL_LIMIT and cell.endswith("（截斷 truncated）")
