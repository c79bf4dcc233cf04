"""Agreement with a hand-adjudicated set of realistic model outputs (tests/fixtures/adversarial_outputs.jsonl:
174 outputs in six model styles — Qwen3 <think>, Llama-3 English-leaning, GPT-4o markdown, DeepSeek-R1 long
reasoning, Breeze/TAIDE, small rambling models — over real FinQA-TW / ConvFinQA-TW / FinChain-TW items,
each with the verdict written before the scorer was run). Every case must agree with the headline
(strict) verdict; a regression in any class shows up as the cases it breaks."""

from __future__ import annotations

import json
from pathlib import Path

from tw_fin_eval.scoring import engine

FIXTURE = Path(__file__).parent / "fixtures" / "adversarial_outputs.jsonl"


def load_cases() -> list[dict]:
    return [json.loads(line) for line in FIXTURE.open(encoding="utf-8")]


def score_cases(cases: list[dict]) -> list[tuple[dict, str]]:
    """(case, verdict) with verdict correct / wrong / pending — each case scored on its own."""
    out = []
    for case in cases:
        rec = {k: v for k, v in case["record"].items() if k != "label_set"}
        siblings = [dict(rec, id=f"{rec['id']}~{i}", answer_text=label)
                    for i, label in enumerate(case["record"].get("label_set") or [])]
        runs = engine.RunsIndex()
        key = (rec["id"], case["turn"])
        runs.success[key] = {"response": case["response"], "finish_reason": case["finish_reason"]}
        result = engine.score([rec, *siblings], runs, progress=False)
        item = next(it for it in result.items if it.id == rec["id"] and it.turn == case["turn"])
        if item.status == "pending":
            verdict = "pending"
        else:
            verdict = "correct" if item.correct else "wrong"
        out.append((case, verdict))
    return out


def agreement(scored: list[tuple[dict, str]]) -> float:
    return sum(c["expected"] == v for c, v in scored) / len(scored)


def test_fixture_is_broad():
    cases = load_cases()
    assert len(cases) >= 150
    assert len({c["style"] for c in cases}) >= 5
    assert {c["record"]["dataset"] for c in cases} == {"FinQA-TW", "ConvFinQA-TW", "FinChain-TW"}


def test_scorer_agrees_with_every_adjudicated_case():
    scored = score_cases(load_cases())
    wrong = [(c["case"], c["class"], c["response"][-60:], c["expected"], v) for c, v in scored if c["expected"] != v]
    assert not wrong, f"agreement {agreement(scored):.1%}; disagreements: {wrong}"
