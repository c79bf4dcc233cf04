"""One vocabulary for answer reading (issue 25): every word list lives in `answers.vocabulary`, and the same
decrease words give a sign to a final answer and to an intermediate value step_recall reads."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tw_fin_eval.answers import extract, vocabulary
from tw_fin_eval.scoring.scorers import step_scores

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("word", ["衰退", "縮減", "減少", "虧損", "淨損", "流出", "負成長", "下調"])
def test_a_decrease_word_signs_the_final_answer_and_a_step_value_alike(word):
    output = f"步驟 1：營收{word} 5,120\n答案：{word} 5,120"
    assert extract.extract_number(output).num.value == -5120.0
    steps = [{"label": "營收變動", "value": -5120.0}]
    assert step_scores(output, steps).recall == 1.0


def test_without_a_decrease_word_a_positive_number_is_not_a_negative_step():
    output = "步驟 1：營收 5,120\n答案：5,120"
    assert extract.extract_number(output).num.value == 5120.0
    assert step_scores(output, [{"label": "營收變動", "value": -5120.0}]).recall == 0.0
    # a decrease word further away than the window does not sign the number
    far = "營收衰退的原因很多，主要是市場不佳，本期為 5,120\n答案：5,120"
    assert step_scores(far, [{"label": "營收變動", "value": -5120.0}]).recall == 0.0


def test_every_decrease_verb_a_question_asks_is_also_a_decrease_word():
    assert set(vocabulary.DECREASE_VERBS) <= set(vocabulary.DECREASE_WORDS)


def test_no_answer_reading_module_spells_a_word_list_of_its_own():
    """The Chinese words of answer reading are written in vocabulary.py; a regex elsewhere holding a run of
    |-separated CJK words is a second list (the reason the decrease words disagreed)."""
    cjk_alternation = re.compile(r"[\u4e00-\u9fff]{1,6}(?:\|[\u4e00-\u9fff]{1,6}){3,}")
    offenders = []
    for rel in ("tw_fin_eval/answers/numbers.py", "tw_fin_eval/answers/extract.py", "tw_fin_eval/answers/match.py",
                "tw_fin_eval/scoring/scorers.py", "tw_fin_eval/sources/finllm450/options.py"):
        tree = ast.parse((ROOT / rel).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and cjk_alternation.search(node.value):
                offenders.append(f"{rel}:{node.lineno}: {node.value[:40]}")
    assert not offenders, offenders
