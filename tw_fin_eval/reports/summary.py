"""The summary of a scored run — the one place for the headline units and the summary table: which units an
accuracy counts (`headline_units`), every group's counts and accuracies (`summary_rows`), summary.csv and the
console table. results.json, report.md and report.html read these rows; they compute no accuracy of their own.

Accuracy definitions (the same in the CSV and the Markdown):
- ``accuracy`` (final) = correct / (decided + failed generations). Decided = status ``scored`` (by rule,
  keyword or judge). A failed generation counts as wrong. ``pending``, ``missing`` (unparseable judge
  verdict — never 0), ``not_run`` and protocol-specific outcomes are excluded and counted in their own columns.
- ``rule_accuracy`` / ``keyword_accuracy`` / ``judge_accuracy`` = correct / decided among the items that
  way decided — rules first, the judge only where rules cannot decide.
- ``strict_accuracy`` = items right with the answer read after 「答案：」 (no fallback) over the same
  denominator as ``accuracy``, shown for groups with rule-decided items.
- ``pass_rate`` / ``mean_score``: judge-scored items (FinLLM450 short_answer/case_study pass = conclusion
  right and ≥ 7; mean of the 0–10 scores); ``conversation_accuracy``: conversations with every turn right.
"""

from __future__ import annotations

import csv
import io
import math
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from tw_fin_eval.answers import extract
from tw_fin_eval.jsonl import safe_csv_cell
from tw_fin_eval.scoring import gold, scorers
from tw_fin_eval.scoring.engine import STALE
from tw_fin_eval.subsets import group_sort_key

COLUMNS = [
    "model", "dimension", "dataset", "group", "items", "run", "decided", "correct", "accuracy", "strict_accuracy",
    "flexible_accuracy", "upstream_accuracy", "unanswerable_excluded", "fixed_gold", "truncated", "refused", "nonexact_format", "stale",
    "rule_decided", "rule_accuracy", "keyword_decided", "keyword_accuracy", "judge_decided", "judge_accuracy",
    "pending", "missing", "error", "not_run", "other_outcomes", "bare_numeral_decided", "cross_format",
    "mean_step_recall", "pass_rate", "mean_score", "conversations", "conversation_accuracy",
] + [c.name for c in scorers.declared_columns()]  # columns the scorers declare (step precision / F1 …)
DIMENSIONS = ["dataset", "task_type", "category", "subcategory", "difficulty"]
_KNOWN = {scorers.SCORED, scorers.PENDING, scorers.MISSING, scorers.ERROR, scorers.NOT_RUN, STALE}


def _ratio(num: int | float, den: int | float) -> float | None:
    return None if not den else num / den


def _flexible_correct(it: scorers.ItemResult) -> bool:
    """Right under any extraction (strict, \\boxed{}, last number): the diagnostic beside the headline."""
    flex = getattr(it, "flexible_correct", None)
    return bool(it.correct if flex is None else flex)


def _truncated(it: scorers.ItemResult) -> bool:
    """Cut off by the length limit: the scorer's own flag when it sets one, else the runs line's finish_reason."""
    flag = getattr(it, "truncated", None)
    return bool(flag) if flag is not None else it.finish_reason == "length"


def headline_units(items: Iterable[scorers.ItemResult]) -> list[scorers.ItemResult]:
    """The units an accuracy counts: decided or failed, gold not unanswerable (issue 21)."""
    return [it for it in items if it.status in (scorers.SCORED, scorers.ERROR) and it.gold_status != gold.UNANSWERABLE]


class _Summary:
    """One group's counts, built item by item and mergeable: summary_rows visits every unit once (into the
    cell of its dataset × task type × category × subcategory × difficulty) and merges cells into the groups
    of each dimension, instead of one pass per group. Sums of fractions are kept as values and added with
    math.fsum, so a group's mean does not depend on the order its cells were merged in."""

    __slots__ = ("n", "c", "st", "recalls", "scores", "turns", "fields", "declared")

    def __init__(self, fields: tuple[tuple[str, str], ...]) -> None:
        """`fields`: (column name, item attribute) of the scorer-declared columns (`_declared_fields`)."""
        self.n = 0
        self.c: Counter = Counter()
        self.st: Counter = Counter()
        self.recalls: list[float] = []
        self.scores: list[float] = []
        self.turns: list[tuple[str, bool | None]] = []  # (conversation, verdict or None when not counted)
        self.fields = fields
        self.declared: dict[str, list[float]] = {name: [] for name, _ in fields}

    def add(self, it: scorers.ItemResult) -> None:
        scored, error, not_run = scorers.SCORED, scorers.ERROR, scorers.NOT_RUN
        c = self.c
        status = it.status
        self.n += 1
        self.st[status] += 1
        if status != not_run:
            if it.step_recall is not None:
                self.recalls.append(it.step_recall)
            for name, attr in self.fields:
                if (v := getattr(it, attr, None)) is not None:
                    self.declared[name].append(v)
        if status not in (not_run, STALE):
            c["truncated"] += _truncated(it)
            c["refused"] += bool(getattr(it, "refused", False))
            if (exact := getattr(it, "exact_format", None)) is not None:
                c["format_n"] += 1
                c["nonexact"] += not exact
        if scorers.SCORERS[it.task_type].conversational:
            self.turns.append((it.id, bool(it.correct) if status in (scored, error) else None))
        if status in (scored, error):  # upstream gold: every unit, unanswerable included
            c["up"] += 1
            c["up_correct"] += bool(it.correct if it.upstream_correct is None else it.upstream_correct)
        if it.gold_status == gold.UNANSWERABLE:
            c["unanswerable"] += status != not_run
            return
        if it.gold_status == gold.FIXED and status != not_run:
            c["fixed"] += 1
        if status == error:
            c["denom"] += 1
        elif status == scored:
            c["denom"] += 1
            c["decided"] += 1
            right = bool(it.correct)
            c["correct"] += right
            c["flexible"] += _flexible_correct(it)
            c[f"n_{it.decided_by}"] += 1
            c[f"ok_{it.decided_by}"] += right
            c["strict"] += right and it.mode == extract.STRICT and it.decided_by != scorers.JUDGE
            c["bare"] += right and it.match_path == "bare_numeral"
            c["cross"] += it.match_path == "cross_format"
            if it.decided_by == scorers.JUDGE and it.score is not None:
                self.scores.append(it.score)

    def merge(self, other: _Summary) -> None:
        self.n += other.n
        self.c.update(other.c)
        self.st.update(other.st)
        self.recalls += other.recalls
        self.scores += other.scores
        self.turns += other.turns  # a conversation's turns share their cell
        for name, vals in other.declared.items():
            self.declared[name] += vals

    def result(self) -> dict[str, Any]:
        c, st, not_run = self.c, self.st, scorers.NOT_RUN
        denom = c["denom"]
        rule_n, kw_n, judge_n = c[f"n_{scorers.RULE}"], c[f"n_{scorers.KEYWORD}"], c[f"n_{scorers.JUDGE}"]
        judge_acc = _ratio(c[f"ok_{scorers.JUDGE}"], judge_n)
        conversations, conversation_acc = scorers.conversation_accuracy(self.turns)
        return {
            "items": self.n, "run": self.n - st[not_run], "decided": c["decided"], "correct": c["correct"],
            "accuracy": _ratio(c["correct"], denom),
            "strict_accuracy": _ratio(c["strict"], denom) if (rule_n + kw_n) else None,
            "flexible_accuracy": _ratio(c["flexible"], denom),
            "rule_decided": rule_n, "rule_accuracy": _ratio(c[f"ok_{scorers.RULE}"], rule_n),
            "keyword_decided": kw_n, "keyword_accuracy": _ratio(c[f"ok_{scorers.KEYWORD}"], kw_n),
            "judge_decided": judge_n, "judge_accuracy": judge_acc,
            "pending": st[scorers.PENDING], "missing": st[scorers.MISSING], "error": st[scorers.ERROR],
            "not_run": st[not_run], "stale": st[STALE],
            "other_outcomes": sum(n for s_, n in st.items() if s_ not in _KNOWN),
            "truncated": c["truncated"], "refused": c["refused"],
            # replies that did not write the prompt's exact 「答案：」 line (「答案是」, \boxed{} only, none)
            "nonexact_format": _ratio(c["nonexact"], c["format_n"]),
            "unanswerable_excluded": c["unanswerable"], "fixed_gold": c["fixed"],
            "upstream_accuracy": _ratio(c["up_correct"], c["up"]),
            "bare_numeral_decided": c["bare"], "cross_format": c["cross"],
            "mean_step_recall": _mean(self.recalls),
            "pass_rate": judge_acc if self.scores else None,
            "mean_score": _mean(self.scores),
            "conversations": conversations if self.turns else None,
            "conversation_accuracy": conversation_acc if self.turns else None,
            **{name: _mean(vals) for name, vals in self.declared.items()},
        }


def _mean(values: list[float]) -> float | None:
    return math.fsum(values) / len(values) if values else None


def _declared_fields() -> tuple[tuple[str, str], ...]:
    """(column name, item attribute) of the scorer-declared columns: the mean over the run items that have it."""
    return tuple((col.name, col.field) for col in scorers.declared_columns())


def summarize(items: Iterable[scorers.ItemResult]) -> dict[str, Any]:
    """One group's counts and accuracies, in a single pass over its items."""
    acc = _Summary(_declared_fields())
    for it in items:
        acc.add(it)
    return acc.result()


def summary_rows(items: Sequence[scorers.ItemResult]) -> list[dict[str, Any]]:
    """The "all" row and one row per group of each dimension (a dimension's empty group is left out,
    e.g. difficulty outside FinChain; the dataset dimension keeps it)."""
    fields = _declared_fields()
    cells: dict[tuple[Any, ...], _Summary] = {}
    for it in items:
        key = tuple(getattr(it, dim) for dim in DIMENSIONS)
        if (acc := cells.get(key)) is None:
            acc = cells[key] = _Summary(fields)
        acc.add(it)

    def merged(parts: Iterable[_Summary]) -> dict[str, Any]:
        total = _Summary(fields)
        for part in parts:
            total.merge(part)
        return total.result()

    rows = [{"dimension": "all", "dataset": "", "group": "all", **merged(cells.values())}]
    ds_index = DIMENSIONS.index("dataset")
    for i, dim in enumerate(DIMENSIONS):
        groups: dict[tuple[str, str], list[_Summary]] = defaultdict(list)
        for key, acc in cells.items():
            ds = "" if dim == "dataset" else (key[ds_index] or "")
            groups[(ds, "" if key[i] is None else str(key[i]))].append(acc)
        # groups in their subset's declared order (FinChain difficulty 基礎 → 中級 → 進階), others alphabetically
        for (ds, value), parts in sorted(groups.items(),
                                         key=lambda kv: (kv[0][0], group_sort_key(kv[0][0], dim)(kv[0][1]))):
            if dim != "dataset" and value == "":
                continue  # e.g. difficulty is null outside FinChain
            rows.append({"dimension": dim, "dataset": ds, "group": value, **merged(parts)})
    return rows


def _fmt(v: Any, pct: bool = False) -> str:
    if v is None:
        return ""
    if isinstance(v, float):
        return f"{100 * v:.1f}%" if pct else f"{v:.2f}"
    return str(v)


def csv_text(rows: Sequence[dict[str, Any]]) -> str:
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=COLUMNS, lineterminator="\n")
    w.writeheader()
    for r in rows:  # a model name or group starting with = + - @ is not a formula (jsonl.safe_csv_cell)
        w.writerow({k: (f"{r[k]:.6f}" if isinstance(r.get(k), float) else ("" if r.get(k) is None
                                                                            else safe_csv_cell(r[k])))
                    for k in COLUMNS})
    return buf.getvalue()


_PCT = {"accuracy", "strict_accuracy", "flexible_accuracy", "upstream_accuracy", "rule_accuracy", "keyword_accuracy", "judge_accuracy", "mean_step_recall",
        "pass_rate", "conversation_accuracy"} | {c.name for c in scorers.declared_columns()}


def md_table(rows: Sequence[dict[str, Any]], cols: Sequence[str], headers: Sequence[str] | None = None) -> str:
    headers = list(headers or cols)
    out = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in cols) + "|"]
    for r in rows:
        out.append("| " + " | ".join(_fmt(r.get(c), c in _PCT).replace("|", "\\|") for c in cols) + " |")
    return "\n".join(out)


def print_table(rows: Iterable[dict[str, Any]], cols: Sequence[str], out: Callable[[str], None] = print) -> None:
    rows = list(rows)
    cells = [[_fmt(r.get(c), c in _PCT) for c in cols] for r in rows]
    widths = [max([len(c)] + [len(row[i]) for row in cells]) for i, c in enumerate(cols)]
    out("  ".join(c.ljust(w) for c, w in zip(cols, widths)))
    for row in cells:
        out("  ".join(v.ljust(w) for v, w in zip(row, widths)))
