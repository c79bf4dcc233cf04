"""The computations behind the metric modules, called directly (no evaluate import: fast)."""

from __future__ import annotations

import pytest

from tw_fin_eval.scoring import metric_fns


def test_numeric_match_items_and_bad_references():
    out = metric_fns.numeric_match(["答案：94 百萬美元", "答案：1994"], ["94", "94"], return_items=True)
    assert out["accuracy"] == 0.5 and out["bare_numeral_decided"] == 1
    assert [it["path"] for it in out["items"]] == ["bare_numeral", None]
    with pytest.raises(ValueError, match="neither a number nor yes/no"):
        metric_fns.numeric_match(["答案：1"], ["高風險"])
    with pytest.raises(ValueError, match="differ in length"):
        metric_fns.numeric_match(["答案：1"], ["1", "2"])


def test_finchain_categorical_keyword_uses_batch_labels():
    preds = ["答案：中風險", "答案：高風險", "答案：不屬於高風險", "答案：中高風險"]
    refs = ["中風險", "高風險", "高風險", "高風險"]
    out = metric_fns.finchain_step_recall(preds, refs, [[], [], [], []], return_items=True)
    # a negated or glued label cannot be decided by keyword: pending (a judge decides), never counted wrong
    assert [it["correct"] for it in out["items"]] == [True, True, None, None]
    assert out["items"][3]["keyword_undecided"] is True and out["pending"] == 2 and out["accuracy"] == 1.0
    assert out["step_recall"] is None


def test_finchain_step_recall_sign_and_scale():
    out = metric_fns.finchain_step_recall(
        ["步驟 1：淨利減少 1,200 萬元\n步驟 2：報酬率 5.25%\n答案：5.25%"], ["5.25%"], [[-12_000_000.0, 0.0525, 7.0]])
    assert out["accuracy"] == 1.0
    assert out["step_recall"] == pytest.approx(2 / 3)  # 7 is absent; 「步驟 1」 does not count as a value


def test_choice_and_conv():
    assert metric_fns.choice_match(["答案：A"], [["A", "C"]])["accuracy"] == 0.0
    out = metric_fns.conv_turn_match(["答案：1", "答案：是"], ["1", "yes"], ["c", "c"])
    assert out["conversation_accuracy"] == 1.0


def test_rubric_judge_without_endpoint_is_pending():
    out = metric_fns.rubric_judge(["a"], ["b"], ["q"], rubrics=[[{"operator": "correctness", "criteria": "x"}]])
    assert out["pending"] == 1 and out["scored"] == 0 and out["pass_rate"] is None
    with pytest.raises(ValueError, match="mode"):
        metric_fns.rubric_judge(["a"], ["b"], ["q"], mode="essay")
