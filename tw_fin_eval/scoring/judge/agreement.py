"""Agreement between two judge runs of the same items (`--judge-repeats 2`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tw_fin_eval.scoring.judge.protocols import SCORED, Verdict


def agreement(verdict_pairs: Sequence[Sequence[Verdict]]) -> dict[str, Any]:
    """Agreement between the first two runs over the items both runs scored: share of identical pass/fail,
    Cohen's kappa on pass/fail, mean |score difference| where the protocol scores."""
    pairs = [(vs[0], vs[1]) for vs in verdict_pairs if len(vs) >= 2
             and vs[0].outcome == SCORED and vs[1].outcome == SCORED]
    n = len(pairs)
    stats: dict[str, Any] = {"items_judged_twice": sum(1 for vs in verdict_pairs if len(vs) >= 2),
                             "both_scored": n, "agreement": None, "kappa": None, "mean_abs_score_diff": None,
                             "outcome_disagreements": sum(1 for vs in verdict_pairs if len(vs) >= 2
                                                          and vs[0].outcome != vs[1].outcome)}
    if not n:
        return stats
    same = sum(1 for a, b in pairs if a.correct == b.correct)
    po = same / n
    p1 = sum(1 for a, _ in pairs if a.correct) / n
    p2 = sum(1 for _, b in pairs if b.correct) / n
    pe = p1 * p2 + (1 - p1) * (1 - p2)
    stats["agreement"] = po
    stats["kappa"] = 1.0 if pe >= 1.0 else (po - pe) / (1 - pe)
    diffs = [abs(a.score - b.score) for a, b in pairs if a.score is not None and b.score is not None]
    if diffs:
        stats["mean_abs_score_diff"] = sum(diffs) / len(diffs)
    return stats
