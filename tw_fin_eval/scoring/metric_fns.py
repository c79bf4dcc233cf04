"""The computations behind the `evaluate` metric modules in `metrics/` (which are thin shells over these).
Plain Python over lists, so they are usable without `evaluate` and tested directly."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from tw_fin_eval.answers import extract, match
from tw_fin_eval.schema import tolerance_from
from tw_fin_eval.scoring import judge, scorers


def _check_lengths(**cols: Sequence[Any] | None) -> int:
    sizes = {k: len(v) for k, v in cols.items() if v is not None}
    if len(set(sizes.values())) > 1:
        raise ValueError(f"inputs differ in length: {sizes}")
    return next(iter(sizes.values()), 0)


def _mean(xs: Sequence[float]) -> float | None:
    return sum(xs) / len(xs) if xs else None


def reference_strings(references: Sequence[Any] | None) -> list[str] | None:
    """A split's reference column as strings, for evaluate's one typed column: numbers (answer_value) as
    their shortest exact repr, "yes"/"no" (answer_text) as they are — so a column that mixes both works."""
    if references is None:
        return None
    return [repr(float(r)) if isinstance(r, (int, float)) and not isinstance(r, bool) else str(r) for r in references]


class StringReferences:
    """Mixin for an `evaluate.Metric` whose `references` column is one string column: a split's numbers
    (answer_value) and "yes"/"no" (answer_text) enter it as strings (see `reference_strings`)."""

    def add(self, *, prediction: Any = None, reference: Any = None, **kwargs: Any) -> Any:
        """Add one prediction and reference."""
        ref = None if reference is None else reference_strings([reference])[0]  # type: ignore[index]
        return super().add(prediction=prediction, reference=ref, **kwargs)  # type: ignore[misc]

    def add_batch(self, *, predictions: Any = None, references: Any = None, **kwargs: Any) -> Any:
        """Add a batch of predictions and references."""
        return super().add_batch(predictions=predictions, references=reference_strings(references),  # type: ignore[misc]
                                 **kwargs)

    def compute(self, *, predictions: Any = None, references: Any = None, **kwargs: Any) -> Any:
        """Compute the metric (references may mix numbers and "yes"/"no")."""
        return super().compute(predictions=predictions, references=reference_strings(references),  # type: ignore[misc]
                               **kwargs)


def _gold_fields(ref: Any, gold_answer: str | None) -> dict[str, Any]:
    """The record fields of one reference: a number (`answer_value`, with its display string `answer`),
    yes/no (`answer_text`), or a display string ("94", "14.1%", "1.2億")."""
    if isinstance(ref, (int, float)) and not isinstance(ref, bool):
        return {"answer_value": float(ref), "answer_text": None, "answer": gold_answer}
    ref_s = str(ref).strip()
    if match.normalize_yes_no(ref_s) is not None:
        return {"answer_value": None, "answer_text": ref_s, "answer": gold_answer or ref_s}
    value = match.gold_value_from_string(ref_s)
    if value is None:
        raise ValueError(f"reference {ref_s!r} is neither a number nor yes/no")
    return {"answer_value": value, "answer_text": None, "answer": gold_answer or ref_s}


def _ctx(rel_tol: float | None, abs_tol: float | None) -> scorers.ScoreSettings:
    """Score settings with the caller's tolerance, or none (the scorer picks) when neither part is given."""
    return scorers.ScoreSettings(tolerance=tolerance_from(rel_tol, abs_tol))


def _item_json(it: scorers.ItemResult) -> dict[str, Any]:
    return {"correct": bool(it.correct), "flexible_correct": bool(it.flexible_correct), "extracted": it.extracted,
            "mode": it.mode, "path": it.match_path, "refused": it.refused}


def _at(seq: Sequence[Any] | None, i: int) -> Any:
    return seq[i] if seq is not None else None


def numeric_match(predictions: Sequence[str], references: Sequence[Any], questions: Sequence[str] | None = None,
                  gold_answers: Sequence[str | None] | None = None, rel_tol: float | None = None, abs_tol: float | None = None,
                  return_items: bool = False, answer_scales: Sequence[int | None] | None = None) -> dict[str, Any]:
    """The `numeric` scorer item by item: called with a FinQA-TW split's columns (references = answer_value,
    or answer_text for yes/no; questions = question; gold_answers = answer; answer_scales = answer_scale) it
    gives the verdicts of `tw-fin-eval score`."""
    n = _check_lengths(predictions=predictions, references=references, questions=questions,
                       gold_answers=gold_answers, answer_scales=answer_scales)
    ctx, scorer = _ctx(rel_tol, abs_tol), scorers.SCORERS["numeric"]
    items = []
    for i, (pred, ref) in enumerate(zip(predictions, references)):
        rec = {"id": f"item-{i}", "task_type": "numeric", "question": _at(questions, i),
               **_gold_fields(ref, _at(gold_answers, i)), "answer_scale": _at(answer_scales, i)}
        items.append(scorer.score(rec, None, pred, ctx))
    out: dict[str, Any] = {
        "accuracy": _mean([float(bool(it.correct)) for it in items]) or 0.0,
        "flexible_accuracy": _mean([float(bool(it.flexible_correct)) for it in items]) or 0.0,
        "refusals": sum(1 for it in items if it.refused),
        "bare_numeral_decided": sum(1 for it in items if it.correct and it.match_path == match.PATH_BARE),
        "n": n,
    }
    if return_items:
        out["items"] = [_item_json(it) for it in items]
    return out


def conv_turn_match(predictions: Sequence[str], references: Sequence[Any], conversation_ids: Sequence[str],
                    questions: Sequence[str] | None = None, gold_answers: Sequence[str | None] | None = None,
                    rel_tol: float | None = None, abs_tol: float | None = None, return_items: bool = False,
                    answer_scales: Sequence[int | None] | None = None) -> dict[str, Any]:
    """The `conversation_numeric` scorer turn by turn (one row per turn: references = the turn's
    answer_value or answer_text, questions = the turn's question, gold_answers = the turn's answer,
    answer_scales = the turn's answer_scale). A conversation's rows come in turn order: a year asked in an
    earlier turn keeps later year golds exact, as in `tw-fin-eval score`."""
    n = _check_lengths(predictions=predictions, references=references, conversation_ids=conversation_ids,
                       questions=questions, gold_answers=gold_answers, answer_scales=answer_scales)
    ctx, scorer = _ctx(rel_tol, abs_tol), scorers.SCORERS["conversation_numeric"]
    items = []
    earlier: dict[str, list[dict[str, Any]]] = {}  # a conversation's rows so far, in row order (turn order)
    for i, (pred, ref) in enumerate(zip(predictions, references)):
        turn = {"question": _at(questions, i), **_gold_fields(ref, _at(gold_answers, i)),
                "answer_scale": _at(answer_scales, i)}
        turns = earlier.setdefault(str(conversation_ids[i]), [])
        turns.append(turn)
        rec = {"id": str(conversation_ids[i]), "task_type": "conversation_numeric", "turns": list(turns)}
        items.append(scorer.score(rec, len(turns) - 1, pred, ctx))
    convs: dict[str, list[bool]] = {}
    for cid, it in zip(conversation_ids, items):
        convs.setdefault(str(cid), []).append(bool(it.correct))
    out: dict[str, Any] = {
        "turn_accuracy": _mean([float(bool(it.correct)) for it in items]) or 0.0,
        "conversation_accuracy": scorers.conversation_accuracy(
            (str(cid), bool(it.correct)) for cid, it in zip(conversation_ids, items))[1] or 0.0,
        "flexible_turn_accuracy": _mean([float(bool(it.flexible_correct)) for it in items]) or 0.0,
        "n_turns": n, "n_conversations": len(convs),
    }
    if return_items:
        out["items"] = [_item_json(it) for it in items]
    return out


def finchain_step_recall(predictions: Sequence[str], references: Sequence[Any], steps: Sequence[Sequence[float]],
                         questions: Sequence[str] | None = None, gold_answers: Sequence[str | None] | None = None,
                         rel_tol: float | None = None, abs_tol: float | None = None,
                         return_items: bool = False) -> dict[str, Any]:
    """The `numeric_cot` scorer item by item. Numeric references are matched as numbers (with the tolerance
    the question's stated rounding implies, unless rel_tol/abs_tol are given); any other reference is a
    categorical conclusion matched by keyword against the label set of this batch (all categorical
    references, plus their negations); a conclusion that names no label is pending (None)."""
    n = _check_lengths(predictions=predictions, references=references, steps=steps, questions=questions,
                       gold_answers=gold_answers)
    ctx = _ctx(rel_tol, abs_tol)
    scorer = scorers.FinChainScorer()
    recs = []
    for i, (ref, st) in enumerate(zip(references, steps)):
        rec = {"id": f"item-{i}", "task_type": "numeric_cot", "template_id": "batch", "question": _at(questions, i),
               "steps": [{"label": "", "value": float(v)} for v in (st or [])]}
        if _is_numeric_ref(ref):
            fields = _gold_fields(ref, _at(gold_answers, i))
            rec.update(answer_type="numeric", answer_value=fields["answer_value"], answer=fields["answer"])
        else:
            rec.update(answer_type="categorical", answer_text=str(ref), answer=str(ref))
        recs.append(rec)
    scorer.prepare(recs)
    items = [scorer.score(rec, None, pred, ctx) for rec, pred in zip(recs, predictions)]
    recalls = [it.step_recall for it in items if it.step_recall is not None]
    f1s = [it.step_f1 for it in items if it.step_f1 is not None]
    decided = [it for it in items if it.status == scorers.SCORED]
    out: dict[str, Any] = {
        "accuracy": _mean([float(bool(it.correct)) for it in decided]) or 0.0,
        "flexible_accuracy": _mean([float(bool(it.flexible_correct)) for it in decided]) or 0.0,
        "pending": len(items) - len(decided),
        "step_recall": _mean(recalls) if recalls else None,
        "step_precision": _mean([it.step_precision for it in items if it.step_precision is not None]) if recalls else None,
        "step_f1": _mean(f1s) if f1s else None,
        "n": n,
    }
    if return_items:
        out["items"] = [{**_item_json(it), "correct": it.correct, "step_recall": it.step_recall,
                         "step_precision": it.step_precision, "step_f1": it.step_f1,
                         "keyword_undecided": it.status == scorers.PENDING} for it in items]
    return out


def _is_numeric_ref(ref: Any) -> bool:
    """A number, or a display string that is only a number ("94", "14.1%", "NT$1,200"); yes/no and other
    labels are categorical."""
    if isinstance(ref, (int, float)) and not isinstance(ref, bool):
        return True
    s = str(ref).strip()
    nums = extract.find_numbers(s)
    return len(nums) == 1 and nums[0].text.strip() == s


def choice_match(predictions: Sequence[str], references: Sequence[Sequence[str]],
                 option_formats: Sequence[str] | None = None, return_items: bool = False) -> dict[str, Any]:
    n = _check_lengths(predictions=predictions, references=references, option_formats=option_formats)
    ms = [match.match_choice(p, r, option_formats[i] if option_formats else None)
          for i, (p, r) in enumerate(zip(predictions, references))]
    out: dict[str, Any] = {
        "accuracy": _mean([float(m.correct and m.mode == extract.STRICT) for m in ms]) or 0.0,
        "flexible_accuracy": _mean([float(m.correct) for m in ms]) or 0.0,
        "cross_format": sum(1 for m in ms if m.cross_format),
        "n": n,
    }
    if return_items:
        out["items"] = [{"correct": m.correct and m.mode == extract.STRICT, "flexible_correct": m.correct,
                         "predicted": m.predicted, "mode": m.mode} for m in ms]
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

