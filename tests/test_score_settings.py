"""One tolerance default (issue 25): `schema.Tolerance()` is the only place the numbers are written; a caller
that gives no tolerance gets None — "the scorer picks" — so an explicit `--rel-tol 0.01 --abs-tol 0.005`
can be told apart from no flag (FinChain then uses the flag, not the tolerance its stated rounding implies)."""

from __future__ import annotations

import argparse
import ast
import re
from pathlib import Path

from tw_fin_eval.schema import DEFAULT_TOLERANCE, Tolerance, tolerance_from
from tw_fin_eval.scoring import cli as score_cli
from tw_fin_eval.scoring import metric_fns, scorers

ROOT = Path(__file__).resolve().parents[1]
FINCHAIN = {"id": "finchain_tw-0001", "task_type": "numeric_cot", "answer_type": "numeric", "answer_value": 1000.0,
            "answer": "NT$1,000.00", "question": "請計算總額（四捨五入至小數點後第 2 位）。", "steps": []}


def test_no_tolerance_means_the_scorer_picks():
    assert tolerance_from() is None
    assert tolerance_from(rel=0.05) == Tolerance(rel=0.05, abs=DEFAULT_TOLERANCE.abs)
    assert tolerance_from(abs=0.1) == Tolerance(rel=DEFAULT_TOLERANCE.rel, abs=0.1)
    assert scorers.ScoreSettings().tolerance is None


def test_an_explicit_default_tolerance_overrides_finchain_stated_rounding():
    scorer = scorers.SCORERS["numeric_cot"]
    assert scorer.tolerance(FINCHAIN, scorers.ScoreSettings()) == Tolerance.for_decimals(2)
    assert scorer.tolerance(FINCHAIN, scorers.ScoreSettings(tolerance=DEFAULT_TOLERANCE)) == DEFAULT_TOLERANCE
    # 1,005 is 0.5% off: wrong at the stated two decimals, right at an explicit 1%
    assert not scorer.score(FINCHAIN, None, "答案：NT$1,005.00", scorers.ScoreSettings()).correct
    assert scorer.score(FINCHAIN, None, "答案：NT$1,005.00", scorers.ScoreSettings(tolerance=DEFAULT_TOLERANCE)).correct


def test_the_score_flags_default_to_none_and_explicit_values_are_kept():
    parser = argparse.ArgumentParser()
    score_cli.configure(parser)
    args = parser.parse_args(["--data", "d.jsonl", "--runs", "r.jsonl", "--out", "o"])
    assert args.rel_tol is None and args.abs_tol is None
    args = parser.parse_args(["--data", "d.jsonl", "--runs", "r.jsonl", "--out", "o", "--rel-tol", "0.01",
                              "--abs-tol", "0.005"])
    assert tolerance_from(args.rel_tol, args.abs_tol) == DEFAULT_TOLERANCE


def test_metrics_without_a_tolerance_score_as_the_scorer_does():
    out = metric_fns.numeric_match(predictions=["答案：94.9"], references=["94"])
    assert out["accuracy"] == 1.0  # within 1% by the default
    out = metric_fns.numeric_match(predictions=["答案：94.9"], references=["94"], rel_tol=0.001)
    assert out["accuracy"] == 0.0


def test_the_tolerance_numbers_are_written_once_in_the_package():
    """No literal 0.005 / rel 0.01 default outside schema.Tolerance (comments and docstrings aside)."""
    found = []
    for path in sorted((ROOT / "tw_fin_eval").rglob("*.py")):
        if path.name == "schema.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for default in node.args.defaults + node.args.kw_defaults:
                    if isinstance(default, ast.Constant) and default.value in (0.01, 0.005):
                        found.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name}")
            if isinstance(node, ast.keyword) and node.arg == "default" and isinstance(node.value, ast.Constant) \
                    and node.value.value in (0.01, 0.005):
                found.append(f"{path.relative_to(ROOT)}:{node.value.lineno} argparse default")
    assert not found, found
    text = (ROOT / "tw_fin_eval" / "schema.py").read_text(encoding="utf-8")
    assert re.search(r"rel: float = 0\.01", text) and re.search(r"abs: float = 0\.005", text)
