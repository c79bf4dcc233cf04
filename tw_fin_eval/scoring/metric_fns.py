"""The computations behind the `evaluate` metric modules in `metrics/` (which are thin shells over these).
Plain Python over lists, so they are usable without `evaluate` and tested directly."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from tw_fin_eval.scoring import extract, judge, match, tasks
from tw_fin_eval.scoring.match import Tolerance


def _check_lengths(**cols: Sequence[Any] | None) -> int:
    sizes = {k: len(v) for k, v in cols.items() if v is not None}
    if len(set(sizes.values())) > 1:
        raise ValueError(f"inputs differ in length: {sizes}")
    return next(iter(sizes.values()), 0)


def _mean(xs: Sequence[float]) -> float | None:
    return sum(xs) / len(xs) if xs else None


def _gold_item(pred: str, ref: Any, questions: Sequence[str | None], tol: Tolerance) -> match.Match:
    """Numeric or yes/no gold given as a value or a display string ("94", "14.1%", "yes", "是")."""
    if isinstance(ref, (int, float)) and not isinstance(ref, bool):
        return match.match_numeric(pred, float(ref), questions=questions, tol=tol)
    ref_s = str(ref).strip()
    if match.normalize_yes_no(ref_s) is not None:
        return match.match_yes_no(pred, ref_s)
    value = match.gold_value_from_string(ref_s)
    if value is None:
        raise ValueError(f"reference {ref_s!r} is neither a number nor yes/no")
    return match.match_numeric(pred, value, gold_answer=ref_s, questions=questions, tol=tol)


def numeric_match(predictions: Sequence[str], references: Sequence[Any], questions: Sequence[str] | None = None,
                  rel_tol: float = 0.01, abs_tol: float = 0.005, return_items: bool = False) -> dict[str, Any]:
    n = _check_lengths(predictions=predictions, references=references, questions=questions)
    tol = Tolerance(rel=rel_tol, abs=abs_tol)
    ms = [_gold_item(p, r, [questions[i]] if questions else [], tol) for i, (p, r) in enumerate(zip(predictions, references))]
    out: dict[str, Any] = {
        "accuracy": _mean([float(m.correct) for m in ms]) or 0.0,
        "strict_accuracy": _mean([float(m.correct and m.mode == extract.STRICT) for m in ms]) or 0.0,
        "flexible_accuracy": _mean([float(m.correct) for m in ms]) or 0.0,
        "bare_numeral_decided": sum(1 for m in ms if m.correct and m.path == match.PATH_BARE),
        "n": n,
    }
    if return_items:
        out["items"] = [{"correct": m.correct, "extracted": m.extracted, "mode": m.mode, "path": m.path} for m in ms]
    return out


def conv_turn_match(predictions: Sequence[str], references: Sequence[Any], conversation_ids: Sequence[str],
                    questions: Sequence[str] | None = None, rel_tol: float = 0.01, abs_tol: float = 0.005,
                    return_items: bool = False) -> dict[str, Any]:
    n = _check_lengths(predictions=predictions, references=references, conversation_ids=conversation_ids,
                       questions=questions)
    tol = Tolerance(rel=rel_tol, abs=abs_tol)
    ms = [_gold_item(p, r, [questions[i]] if questions else [], tol) for i, (p, r) in enumerate(zip(predictions, references))]
    convs: dict[str, list[bool]] = {}
    for cid, m in zip(conversation_ids, ms):
        convs.setdefault(str(cid), []).append(m.correct)
    out: dict[str, Any] = {
        "turn_accuracy": _mean([float(m.correct) for m in ms]) or 0.0,
        "conversation_accuracy": _mean([float(all(v)) for v in convs.values()]) or 0.0,
        "strict_turn_accuracy": _mean([float(m.correct and m.mode == extract.STRICT) for m in ms]) or 0.0,
        "n_turns": n, "n_conversations": len(convs),
    }
    if return_items:
        out["items"] = [{"correct": m.correct, "extracted": m.extracted, "mode": m.mode} for m in ms]
    return out


def finchain_step_recall(predictions: Sequence[str], references: Sequence[Any], steps: Sequence[Sequence[float]],
                         questions: Sequence[str] | None = None, rel_tol: float = 0.01, abs_tol: float = 0.005,
                         return_items: bool = False) -> dict[str, Any]:
    """Numeric references are matched as numbers; any other reference is a categorical conclusion matched
    by keyword against the label set of this batch (all categorical references, plus their negations)."""
    n = _check_lengths(predictions=predictions, references=references, steps=steps, questions=questions)
    tol = Tolerance(rel=rel_tol, abs=abs_tol)
    scorer = tasks.FinChainScorer()
    cat_refs = [str(r) for r in references if not _is_numeric_ref(r)]
    scorer.prepare([{"answer_type": "categorical", "answer_text": r, "template_id": "batch"} for r in cat_refs])
    items = []
    for i, (pred, ref, st) in enumerate(zip(predictions, references, steps)):
        recall = tasks.step_recall(pred, [{"label": "", "value": float(v)} for v in (st or [])], tol)
        if _is_numeric_ref(ref):
            m = _gold_item(pred, ref, [questions[i]] if questions else [], tol)
            items.append({"correct": m.correct, "extracted": m.extracted, "mode": m.mode, "step_recall": recall})
        else:
            mode, conclusion = extract.extract_conclusion(pred)
            ok = scorer.keyword({"answer_text": str(ref), "template_id": "batch"}, conclusion)
            items.append({"correct": bool(ok), "extracted": conclusion, "mode": mode, "step_recall": recall,
                          "keyword_undecided": ok is None})
    recalls = [it["step_recall"] for it in items if it["step_recall"] is not None]
    out: dict[str, Any] = {
        "accuracy": _mean([float(it["correct"]) for it in items]) or 0.0,
        "strict_accuracy": _mean([float(it["correct"] and it["mode"] == extract.STRICT) for it in items]) or 0.0,
        "step_recall": _mean(recalls) if recalls else None,
        "n": n,
    }
    if return_items:
        out["items"] = items
    return out


def _is_numeric_ref(ref: Any) -> bool:
    if isinstance(ref, (int, float)) and not isinstance(ref, bool):
        return True
    s = str(ref).strip()
    return match.normalize_yes_no(s) is not None or (match.gold_value_from_string(s) is not None
                                                      and extract.find_numbers(s)[0].text.strip() == s)


def choice_match(predictions: Sequence[str], references: Sequence[Sequence[str]],
                 option_formats: Sequence[str] | None = None, return_items: bool = False) -> dict[str, Any]:
    n = _check_lengths(predictions=predictions, references=references, option_formats=option_formats)
    ms = [match.match_choice(p, r, option_formats[i] if option_formats else None)
          for i, (p, r) in enumerate(zip(predictions, references))]
    out: dict[str, Any] = {
        "accuracy": _mean([float(m.correct) for m in ms]) or 0.0,
        "strict_accuracy": _mean([float(m.correct and m.mode == extract.STRICT) for m in ms]) or 0.0,
        "cross_format": sum(1 for m in ms if m.cross_format),
        "n": n,
    }
    if return_items:
        out["items"] = [{"correct": m.correct, "predicted": m.predicted, "mode": m.mode} for m in ms]
    return out


_MODE_TASK = {"score": "short_answer", "rubric": "open_rubric_agent", "conclusion": "numeric_cot"}


def rubric_judge(predictions: Sequence[str], references: Sequence[str], questions: Sequence[str],
                 rubrics: Sequence[Sequence[dict[str, str]]] | None = None, mode: str | None = None,
                 judge_base_url: str | None = None, judge_model: str | None = None,
                 api_key_env: str = "JUDGE_API_KEY", repeats: int = 1, concurrency: int = 4, timeout: float = 120.0,
                 max_retries: int = 2, return_items: bool = False, progress: bool = False) -> dict[str, Any]:
    """Judge each prediction: `score` (0–10 vs the reference; pass = conclusion right and ≥ 7), `rubric`
    (every criterion; pass = all pass) or `conclusion` (same conclusion as the reference)."""
    n = _check_lengths(predictions=predictions, references=references, questions=questions, rubrics=rubrics)
    mode = mode or ("rubric" if rubrics else "score")
    if mode not in _MODE_TASK:
        raise ValueError(f"mode must be one of {sorted(_MODE_TASK)}, got {mode!r}")
    if mode == "rubric" and not rubrics:
        raise ValueError("mode 'rubric' needs rubrics")
    cfg = judge.JudgeConfig(base_url=judge_base_url, model=judge_model, api_key=os.environ.get(api_key_env),
                            timeout=timeout, max_retries=max_retries, concurrency=concurrency, repeats=repeats)
    protocol = judge.PROTOCOLS[{"score": "score_0_10", "rubric": "rubric", "conclusion": "conclusion"}[mode]]
    records = []
    for i in range(n):
        rec = {"id": f"item-{i}", "task_type": _MODE_TASK[mode], "question": questions[i],
               "reference_answer": references[i], "answer": references[i], "answer_text": references[i]}
        if rubrics:
            rec["rubric"] = [dict(c) for c in rubrics[i]]
        records.append(rec)
    requests = [protocol.build(rec, pred) for rec, pred in zip(records, predictions)]
    verdicts = judge.JudgeRunner(cfg, progress=progress).run([r for r in requests if r is not None])
    it = iter(verdicts)
    per_item = [next(it) if r is not None else [judge.Verdict(judge.PENDING, reason="nothing to judge against")]
                for r in requests]
    firsts = [vs[0] for vs in per_item]
    scored = [v for v in firsts if v.outcome == judge.SCORED]
    scores = [v.score for v in scored if v.score is not None]
    out: dict[str, Any] = {
        "n": n, "scored": len(scored), "passed": sum(1 for v in scored if v.correct),
        "pass_rate": _mean([float(bool(v.correct)) for v in scored]),
        "mean_score": _mean(scores),
        "pending": sum(1 for v in firsts if v.outcome == judge.PENDING),
        "missing": sum(1 for v in firsts if v.outcome == judge.MISSING),
        "judge": "configured" if cfg.enabled else "none",
    }
    if repeats >= 2:
        out["agreement"] = judge.agreement(per_item)
    if return_items:
        out["items"] = [[v.to_json() for v in vs] if repeats >= 2 else vs[0].to_json() for vs in per_item]
    return out

