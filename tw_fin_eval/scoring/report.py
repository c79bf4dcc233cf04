"""Summaries and the three outputs of `score`: results.jsonl, summary.csv, report.md.

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

import array
import contextlib
import csv
import html
import io
import json
import math
import os
import tempfile
import urllib.parse
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from tw_fin_eval.answers import extract
from tw_fin_eval.errors import InputError
from tw_fin_eval.jsonl import AtomicFiles, OutputFolder, dumps, dumps_strict, locked_temp, safe_csv_cell
from tw_fin_eval.scoring import gold, results_doc, tasks
from tw_fin_eval.scoring.engine import STALE, Outcome
from tw_fin_eval.subsets import group_sort_key
from tw_fin_eval.twins import gap as twin_gap

COLUMNS = [
    "model", "dimension", "dataset", "group", "items", "run", "decided", "correct", "accuracy", "strict_accuracy",
    "flexible_accuracy", "upstream_accuracy", "unanswerable_excluded", "fixed_gold", "truncated", "refused", "nonexact_format", "stale",
    "rule_decided", "rule_accuracy", "keyword_decided", "keyword_accuracy", "judge_decided", "judge_accuracy",
    "pending", "missing", "error", "not_run", "other_outcomes", "bare_numeral_decided", "cross_format",
    "mean_step_recall", "pass_rate", "mean_score", "conversations", "conversation_accuracy",
] + [c.name for c in tasks.declared_columns()]  # columns the scorers declare (step precision / F1 …)
DIMENSIONS = ["dataset", "task_type", "category", "subcategory", "difficulty"]
_KNOWN = {tasks.SCORED, tasks.PENDING, tasks.MISSING, tasks.ERROR, tasks.NOT_RUN, STALE}


def _ratio(num: int | float, den: int | float) -> float | None:
    return None if not den else num / den


def _flexible_correct(it: tasks.ItemResult) -> bool:
    """Right under any extraction (strict, \\boxed{}, last number): the diagnostic beside the headline."""
    flex = getattr(it, "flexible_correct", None)
    return bool(it.correct if flex is None else flex)


def _truncated(it: tasks.ItemResult) -> bool:
    """Cut off by the length limit: the scorer's own flag when it sets one, else the runs line's finish_reason."""
    flag = getattr(it, "truncated", None)
    return bool(flag) if flag is not None else it.finish_reason == "length"


def headline_units(items: Iterable[tasks.ItemResult]) -> list[tasks.ItemResult]:
    """The units an accuracy counts: decided or failed, gold not unanswerable (issue 21)."""
    return [it for it in items if it.status in (tasks.SCORED, tasks.ERROR) and it.gold_status != gold.UNANSWERABLE]


class _Summary:
    """One group's counts, built item by item and mergeable: summary_rows visits every unit once (into the
    cell of its dataset × task type × category × subcategory × difficulty) and merges cells into the groups
    of each dimension, instead of one pass per group. Sums of fractions are kept as values and added with
    math.fsum, so a group's mean does not depend on the order its cells were merged in."""

    __slots__ = ("n", "c", "st", "recalls", "scores", "convs", "conv_complete", "fields", "declared")

    def __init__(self, fields: tuple[tuple[str, str], ...]) -> None:
        """`fields`: (column name, item attribute) of the scorer-declared columns (`_declared_fields`)."""
        self.n = 0
        self.c: Counter = Counter()
        self.st: Counter = Counter()
        self.recalls: list[float] = []
        self.scores: list[float] = []
        self.convs: dict[str, bool] = {}  # conversation → right so far
        self.conv_complete: dict[str, bool] = {}  # conversation → every turn decided or failed
        self.fields = fields
        self.declared: dict[str, list[float]] = {name: [] for name, _ in fields}

    def add(self, it: tasks.ItemResult) -> None:
        scored, error, not_run = tasks.SCORED, tasks.ERROR, tasks.NOT_RUN
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
        if it.task_type == "conversation_numeric":
            done = status in (scored, error)
            self.conv_complete[it.id] = self.conv_complete.get(it.id, True) and done
            self.convs[it.id] = self.convs.get(it.id, True) and bool(it.correct)
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
            c["strict"] += right and it.mode == extract.STRICT and it.decided_by != tasks.JUDGE
            c["bare"] += right and it.match_path == "bare_numeral"
            c["cross"] += it.match_path == "cross_format"
            if it.decided_by == tasks.JUDGE and it.score is not None:
                self.scores.append(it.score)

    def merge(self, other: _Summary) -> None:
        self.n += other.n
        self.c.update(other.c)
        self.st.update(other.st)
        self.recalls += other.recalls
        self.scores += other.scores
        for cid, ok in other.conv_complete.items():  # a conversation's turns share their cell
            self.conv_complete[cid] = self.conv_complete.get(cid, True) and ok
        for cid, ok in other.convs.items():
            self.convs[cid] = self.convs.get(cid, True) and ok
        for name, vals in other.declared.items():
            self.declared[name] += vals

    def result(self) -> dict[str, Any]:
        c, st, not_run = self.c, self.st, tasks.NOT_RUN
        denom = c["denom"]
        rule_n, kw_n, judge_n = c[f"n_{tasks.RULE}"], c[f"n_{tasks.KEYWORD}"], c[f"n_{tasks.JUDGE}"]
        judge_acc = _ratio(c[f"ok_{tasks.JUDGE}"], judge_n)
        complete = [cid for cid, ok in self.conv_complete.items() if ok]
        return {
            "items": self.n, "run": self.n - st[not_run], "decided": c["decided"], "correct": c["correct"],
            "accuracy": _ratio(c["correct"], denom),
            "strict_accuracy": _ratio(c["strict"], denom) if (rule_n + kw_n) else None,
            "flexible_accuracy": _ratio(c["flexible"], denom),
            "rule_decided": rule_n, "rule_accuracy": _ratio(c[f"ok_{tasks.RULE}"], rule_n),
            "keyword_decided": kw_n, "keyword_accuracy": _ratio(c[f"ok_{tasks.KEYWORD}"], kw_n),
            "judge_decided": judge_n, "judge_accuracy": judge_acc,
            "pending": st[tasks.PENDING], "missing": st[tasks.MISSING], "error": st[tasks.ERROR],
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
            "conversations": len(complete) if self.convs else None,
            "conversation_accuracy": _ratio(sum(1 for cid in complete if self.convs[cid]), len(complete))
            if self.convs else None,
            **{name: _mean(vals) for name, vals in self.declared.items()},
        }


def _mean(values: list[float]) -> float | None:
    return math.fsum(values) / len(values) if values else None


def _declared_fields() -> tuple[tuple[str, str], ...]:
    """(column name, item attribute) of the scorer-declared columns: the mean over the run items that have it."""
    return tuple((col.name, col.field) for col in tasks.declared_columns())


def summarize(items: Iterable[tasks.ItemResult]) -> dict[str, Any]:
    """One group's counts and accuracies, in a single pass over its items."""
    acc = _Summary(_declared_fields())
    for it in items:
        acc.add(it)
    return acc.result()


def summary_rows(items: Sequence[tasks.ItemResult]) -> list[dict[str, Any]]:
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
        for (ds, value), parts in sorted(groups.items(), key=lambda kv: (kv[0][0], group_sort_key(kv[0][0], dim)(kv[0][1]))):
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
        "pass_rate", "conversation_accuracy"} | {c.name for c in tasks.declared_columns()}


def md_table(rows: Sequence[dict[str, Any]], cols: Sequence[str], headers: Sequence[str] | None = None) -> str:
    headers = list(headers or cols)
    out = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in cols) + "|"]
    for r in rows:
        out.append("| " + " | ".join(_fmt(r.get(c), c in _PCT).replace("|", "\\|") for c in cols) + " |")
    return "\n".join(out)


def _public_url(url: str | None) -> str:
    """The judge URL without user:password@ or a query string (a key must never reach a report)."""
    parts = urllib.parse.urlsplit(url or "")
    host = parts.hostname or ""
    if parts.port:
        host += f":{parts.port}"
    return urllib.parse.urlunsplit((parts.scheme, host, parts.path, "", ""))


def _list_block(title: str, entries: Sequence[str], limit: int = 200) -> str:
    if not entries:
        return f"- {title}: 0"
    # inside <details> Markdown renders raw HTML: a server's error message is text, never markup
    shown = "\n".join(f"  - {html.escape(str(e), quote=False)}" for e in entries[:limit])
    more = f"\n  - … and {len(entries) - limit} more" if len(entries) > limit else ""
    return f"- {title}: {len(entries)}\n<details><summary>list</summary>\n\n{shown}{more}\n\n</details>"


def _pct(v: float | None) -> str:
    return "" if v is None else f"{100 * v:.1f}%"


def uncertainty_section(doc: dict[str, Any]) -> list[str]:
    """Accuracy per subset with its bootstrap standard error and 95% interval (results.json's numbers)."""
    subs = doc.get("subsets") or {}
    if not subs:
        return []
    out = ["## Accuracy with uncertainty (headline)", "",
           "| subset | units (n) | clusters | accuracy | ± stderr | 95% CI | flexible | upstream gold | "
           "unanswerable excluded | truncated | refused | pending | stale |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for name, e in subs.items():
        ci = e.get("ci95")
        out.append(f"| {name} | {e['n']} | {e['clusters']} ({'/'.join(e['cluster_by'])}) | {_pct(e['accuracy'])} | "
                   f"{_pct(e['stderr'])} | {'' if not ci else f'{_pct(ci[0])} – {_pct(ci[1])}'} | "
                   f"{_pct(e.get('flexible_accuracy'))} | {_pct(e.get('upstream_accuracy'))} | "
                   f"{e.get('unanswerable_excluded', 0)} | {e.get('truncated', 0)} | {e.get('refused', 0)} | "
                   f"{e.get('pending', 0)} | {e.get('stale', 0)} |")
    macro = doc.get("macro_average") or {}
    if macro.get("accuracy") is not None:
        ci = macro["ci95"]
        out.append(f"| **macro average** ({len(macro['subsets'])} subsets) |  |  | {_pct(macro['accuracy'])} | "
                   f"{_pct(macro['stderr'])} | {_pct(ci[0])} – {_pct(ci[1])} |  |  |  |  |  |  |  |")
    u = doc.get("uncertainty") or {}
    out += ["", f"Intervals: seeded {u.get('method', 'bootstrap')} ({u.get('resamples')} resamples, seed "
            f"{u.get('seed')}); ConvFinQA resampled by conversation, FinChain by template, other subsets by item. "
            "Headline accuracy counts verified and fixed gold (fixed: the corrected value); unanswerable units are "
            "excluded and counted; *upstream gold* scores every unit against the original release's value.", ""]
    out += ["Sampling (how the records were chosen, and what each accuracy estimates):", ""]
    out += [f"- {results_doc.sampling_text(name, e.get('sampling'))}" for name, e in subs.items()] + [""]
    return out


def run_section(doc: dict[str, Any]) -> list[str]:
    rs = doc.get("runs")
    if not rs:
        return []
    out = ["## The run itself (from the runs lines)", ""]
    out.append(f"- lines: {rs['lines']} ({rs['ok_lines']} successful, {rs['error_lines']} failed)")
    if rs.get("lines_with_usage"):
        out.append(f"- tokens: {rs['prompt_tokens']:,} prompt, {rs['completion_tokens']:,} completion"
                   + (f" (of which {rs['reasoning_tokens']:,} reasoning)" if rs.get("reasoning_tokens") else "")
                   + f" over {rs['lines_with_usage']} lines with usage")
    if rs.get("latency_p50_s") is not None:
        out.append(f"- latency per request: p50 {rs['latency_p50_s']:.2f} s, p95 {rs['latency_p95_s']:.2f} s")
    if rs["ok_lines"]:
        out.append(f"- truncated by the length limit (finish_reason length): {rs['truncated_lines']} of "
                   f"{rs['ok_lines']} successful lines ({_pct(rs['truncated_lines'] / rs['ok_lines'])})")
    if rs.get("errors"):
        out.append("- errors by kind: " + ", ".join(f"{k}: {n}" for k, n in rs["errors"].items()))
    gen = doc.get("generation") or {}
    if gen.get("variants"):
        out.append("- generation settings: " + "; ".join(f"{dumps(v['settings'])} ({v['lines']} lines)"
                                                         for v in gen["variants"]))
    else:
        out.append("- generation settings: not recorded in the runs lines")
    pur = doc.get("zh_purity")
    if pur and pur.get("responses"):
        out.append(f"- zh-TW purity: {_pct(pur['pure_share'])} of {pur['responses']} responses have no Simplified "
                   f"character or PRC term ({pur['with_findings']} flagged; per subset: "
                   + ", ".join(f"{k} {_pct(v['impure_share'])} flagged" for k, v in pur["subsets"].items()) + ")")
    elif pur is None:
        out.append("- zh-TW purity: not measured (needs the opencc package)")
    return out + [""]


def report_markdown(outcome: Outcome, rows: Sequence[dict[str, Any]], *, inputs: dict[str, Any],
                    doc: dict[str, Any] | None = None) -> str:
    items, iss, cfg = outcome.items, outcome.issues, outcome.judge_config
    rows = [r for r in rows if r["dimension"] == "all" or r["run"] > 0]  # partial runs: only what was run
    main_cols = ["group", "items", "run", "decided", "accuracy", "strict_accuracy", "rule_accuracy",
                 "judge_accuracy", "pending", "missing", "error", "not_run", "bare_numeral_decided",
                 "mean_step_recall", *(c.name for c in tasks.declared_columns()), "conversation_accuracy"]
    parts = ["# tw_fin_eval_basic scoring report", ""]
    parts.append(f"- data: {', '.join(map(str, inputs.get('data', [])))}")
    parts.append(f"- runs: {', '.join(map(str, inputs.get('runs', [])))} (model: {', '.join(iss.run_models) or '?'})")
    if iss.histories:
        parts.append("- ConvFinQA history: " + ", ".join(f"{h} ({n} turns)" for h, n in sorted(iss.histories.items()))
                     + " — gold = turn k saw the gold answers of earlier turns (the paper setting)")
    parts.append(f"- tolerance: relative ≤ {inputs.get('rel_tol')}, absolute ≤ {inputs.get('abs_tol')} "
                 "(percent questions: in percentage points)")
    judge_line = (f"{cfg.model} at {_public_url(cfg.base_url)} (repeats {cfg.repeats}, {outcome.judge_calls} calls"
                  + (f", {outcome.judge_cache_hits} replies from the cache)" if outcome.judge_cache_hits else ")")
                  if cfg.enabled else "none (judged items are pending)")
    parts += [f"- judge: {judge_line}", ""]
    if doc is not None and doc.get("headline"):
        parts += ["## Headline", "", f"**{doc['headline']['text']}**", "",
                  "Every subset weighs the same in the macro average; its interval combines the subsets' intervals "
                  "(independent samples). The pooled figure over every unit is further down, labelled as such.", ""]
    parts += ["Accuracy = correct / (decided + failed generations); rules decide first, the judge only where "
              "rules cannot. pending / missing (unparseable verdict) / not_run / stale are excluded and counted.", ""]
    not_run = sum(1 for it in items if it.status == tasks.NOT_RUN)
    if not_run:
        skipped = (doc or {}).get("not_run", {}).get("records_subsets") or {}
        parts += [f"Partial run: {not_run} of {len(items)} units were not run and are left out"
                  + (f" (subsets never run: {', '.join(f'{k} ({n})' for k, n in skipped.items())})" if skipped else "")
                  + ".", ""]
    if doc is not None:
        parts += uncertainty_section(doc) + twin_gap.markdown(doc) + run_section(doc)
    by_dim = defaultdict(list)
    for r in rows:
        by_dim[r["dimension"]].append(r)
    parts += ["## Pooled over every unit (not the headline)", "",
              "Larger subsets weigh more here; the headline above is the macro average.", "",
              md_table(by_dim["all"], main_cols), ""]
    parts += ["## By dataset", "", md_table(by_dim["dataset"], main_cols), ""]
    parts += ["## Rule / keyword / judge accuracy by dataset", "",
              md_table(by_dim["dataset"], ["group", "accuracy", "rule_decided", "rule_accuracy", "keyword_decided",
                                           "keyword_accuracy", "judge_decided", "judge_accuracy", "pass_rate",
                                           "mean_score"]), ""]
    for dim, title in (("task_type", "By task type"), ("category", "By category"),
                       ("subcategory", "By subcategory"), ("difficulty", "By difficulty")):
        if by_dim[dim]:
            parts += [f"## {title}", "", md_table(by_dim[dim], ["dataset"] + main_cols), ""]
    fin = [it for it in items if it.dataset == "FinLLM450"]
    if fin:
        parts += ["## FinLLM450: pass rate and mean score", ""]
        for label, key in (("ability", "category"), ("question type", "task_type")):
            groups: dict[str, list[tasks.ItemResult]] = defaultdict(list)
            for it in fin:
                groups[str(getattr(it, key))].append(it)
            frows = [{"group": g, **summarize(sub)} for g, sub in sorted(groups.items())]
            parts += [f"### per {label}", "",
                      md_table(frows, ["group", "items", "decided", "accuracy", "rule_accuracy", "pass_rate",
                                       "mean_score", "pending", "missing"],
                               ["group", "items", "decided", "all decided", "MCQ", "judged pass rate",
                                "mean score (0–10)", "pending", "missing"]),
                      ""]
        parts += ["MCQ = exact option-set match; judged pass = conclusion correct and score ≥ 7 "
                  "(short_answer / case_study); all decided = both together.", ""]
    order = [tasks.SCORED, tasks.PENDING, tasks.MISSING, tasks.ERROR, tasks.NOT_RUN]
    present = {it.status for it in items}
    statuses = [st for st in order if st in present] + sorted(present - set(order))
    if any(st not in _KNOWN for st in statuses):  # protocol-specific outcomes (e.g. no_ground_truth)
        per_ds: dict[str, Counter] = defaultdict(Counter)
        for it in items:
            per_ds[it.dataset or ""][it.status] += 1
        parts += ["## Outcomes by dataset", "", "| dataset | " + " | ".join(statuses) + " |",
                  "|---|" + "|".join("---" for _ in statuses) + "|"]
        parts += [f"| {ds} | " + " | ".join(str(c[st]) for st in statuses) + " |" for ds, c in sorted(per_ds.items())]
        parts.append("")
    modes = Counter(it.mode for it in items if it.status in {tasks.SCORED, tasks.PENDING, tasks.MISSING})
    parts += ["## Extraction modes", "", "| mode | items |", "|---|---|"]
    parts += [f"| {m} | {n} |" for m, n in sorted(modes.items(), key=lambda kv: -kv[1])] + [""]
    if outcome.agreement:
        parts += ["## Judge agreement (judged twice)", "", "| task type | judged twice | both scored | agreement | "
                  "kappa | mean abs score diff | outcome disagreements |", "|---|---|---|---|---|---|---|"]
        for tt, a in outcome.agreement.items():
            parts.append(f"| {tt} | {a['items_judged_twice']} | {a['both_scored']} | {_fmt(a['agreement'], True)} | "
                         f"{_fmt(a['kappa'])} | {_fmt(a['mean_abs_score_diff'])} | {a['outcome_disagreements']} |")
        parts.append("")
    pend = Counter(it.reason for it in items if it.status == tasks.PENDING)
    miss = Counter(it.reason for it in items if it.status == tasks.MISSING)
    parts += ["## Input problems and unscored items", ""]
    parts.append(_list_block("duplicate record ids (first kept)", iss.duplicate_record_ids))
    parts.append(_list_block("runs lines for unknown ids/turns", iss.unknown_run_keys))
    parts.append(_list_block("keys with more than one successful generation (last taken)", iss.duplicate_generations))
    parts.append(_list_block("failed generations (counted wrong)", iss.failed_generations))
    parts.append(f"- items not run (no line in the runs file): {len(iss.not_run)}")
    parts.append(_list_block("stale runs lines (prompt changed since the run; not scored, re-run them)", iss.stale))
    parts.append(_list_block("pending items by reason", [f"{r}: {n}" for r, n in pend.most_common()]))
    parts.append(_list_block("missing verdicts by reason", [f"{r}: {n}" for r, n in miss.most_common()]))
    return "\n".join(parts) + "\n"


class DetailsSpool:
    """The per-item details (question, gold, response, think) written to a temporary file while scoring runs,
    so that memory does not grow with the responses; `write_outputs` merges them into results.jsonl. Also
    counts the zh-TW purity of the responses (share with Simplified characters or PRC terms) per subset,
    when the rule checker can load its s2tw table (committed; opencc only if the table is missing)."""

    def __init__(self) -> None:
        # in the system's temporary folder: --out is created only when the outputs are written
        # (locked while we live: the next run removes one a SIGKILL left behind — jsonl.locked_temp)
        fd, self.path, self._lock = locked_temp(tempfile.gettempdir(), "tw_fin_eval_details.", ".jsonl.tmp")
        self._fh = os.fdopen(fd, "w", encoding="utf-8")
        self._check: Callable[[str], list] | None = None
        try:
            from tw_fin_eval.zhcheck.rules import check_zh

            check_zh("測試")  # loads the s2tw table and the glossary now: without them purity is not measured
            self._check = check_zh
        except (ImportError, InputError, OSError):  # the scorer itself needs neither
            pass
        self.purity_counts: dict[str, Counter] = defaultdict(Counter)
        self._pending: list[tuple[str, str]] = []
        self._pending_chars = 0

    def __call__(self, item: tasks.ItemResult, details: dict[str, Any]) -> None:
        lang = details.pop("lang", None)
        self._fh.write(dumps(details) + "\n")
        text = details.get("response")
        if self._check is not None and lang in (None, "zh-TW") and isinstance(text, str) and text.strip():
            self._pending.append((results_doc.config_name(item.dataset), text))
            self._pending_chars += len(text)
            if self._pending_chars >= self.BATCH_CHARS:
                self._check_pending()

    # Responses are checked in batches joined by blank lines (no finding spans one): most batches are clean,
    # and a clean batch costs one call instead of hundreds; a batch with a finding is checked one by one.
    BATCH_CHARS = 15_000

    def _check_pending(self) -> None:
        batch, self._pending, self._pending_chars = self._pending, [], 0
        if not batch:
            return
        assert self._check is not None
        clean = not self._check("\n\n".join(text for _, text in batch))
        for name, text in batch:
            c = self.purity_counts[name]
            c["responses"] += 1
            findings = [] if clean else self._check(text)
            if findings:
                c["impure"] += 1
                rules = {f.rule for f in findings}
                c["simplified"] += "simplified" in rules
                c["prc_terms"] += "prc_term" in rules

    def purity(self) -> dict[str, Any] | None:
        if self._check is None:
            return None
        self._check_pending()
        subsets = {}
        for name, c in sorted(self.purity_counts.items()):
            subsets[name] = {"responses": c["responses"], "with_findings": c["impure"],
                             "with_simplified": c["simplified"], "with_prc_terms": c["prc_terms"],
                             "impure_share": _ratio(c["impure"], c["responses"])}
        total = sum(c["responses"] for c in self.purity_counts.values())
        impure = sum(c["impure"] for c in self.purity_counts.values())
        return {"responses": total, "with_findings": impure, "impure_share": _ratio(impure, total),
                "pure_share": None if not total else 1 - impure / total, "subsets": subsets,
                "rule": "a visible response (think removed) with a Simplified character or a PRC term "
                        "(tw-fin-eval check-zh rules) is impure"}

    def lines(self) -> Iterator[str]:
        """Read back through the open descriptor, not the path: a temporary-file cleaner that removes the
        file meanwhile (seen with parallel test runs sharing /tmp) cannot lose the details."""
        self._fh.flush()
        fd = os.dup(self._fh.fileno())
        os.lseek(fd, 0, os.SEEK_SET)
        with open(fd, encoding="utf-8") as fh:
            yield from fh

    def close(self) -> None:
        if not self._fh.closed:
            self._fh.close()
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)
        if self._lock is not None:
            with contextlib.suppress(OSError):
                os.close(self._lock)
            self._lock = None


def _result_lines(outcome: Outcome, spool: DetailsSpool | None) -> Iterator[tuple[str, dict[str, Any], str | None]]:
    """(results.jsonl line, verdict fields, details JSON) per unit: the verdict fields, then (when a spool is
    given) question, gold, response, think."""
    details = spool.lines() if spool is not None else None
    for it in outcome.items:
        obj = it.to_json()
        head = dumps(obj)
        if details is None:
            yield head + "\n", obj, None
            continue
        extra = next(details)
        yield (head[:-1] + "," + extra[1:] if extra.strip() != "{}" else head + "\n"), obj, extra


PARQUET_COLUMNS = [("id", "string"), ("turn", "int64"), ("dataset", "string"), ("task_type", "string"),
                   ("category", "string"), ("subcategory", "string"), ("difficulty", "string"),
                   ("status", "string"), ("correct", "bool_"), ("upstream_correct", "bool_"),
                   ("gold_status", "string"), ("mode", "string"), ("extracted", "string"),
                   ("decided_by", "string"), ("match_path", "string"), ("score", "float64"),
                   ("step_recall", "float64"), ("finish_reason", "string"), ("reason", "string"),
                   ("question", "string"), ("gold_answer", "string"), ("gold_value", "float64"),
                   ("response", "string"), ("think", "string"), ("judge_verdict", "string"),
                   ("failure_kind", "string"), ("failure_why", "string")]


def _parquet_row(obj: dict[str, Any], extra: str | None) -> dict[str, Any]:
    d = json.loads(extra) if extra else {}
    g = d.get("gold") or {}
    answer = g.get("answer") if g.get("answer") is not None else g.get("answer_text")
    v = g.get("answer_value")
    return {**{name: obj.get(name) for name, _ in PARQUET_COLUMNS}, "question": d.get("question"),
            "response": d.get("response"), "think": d.get("think"),
            "gold_answer": None if answer is None else str(answer),
            "gold_value": float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None,
            "score": None if obj.get("score") is None else float(obj["score"]),
            "judge_verdict": None if obj.get("judge_verdict") is None else dumps(obj["judge_verdict"])}


def _bitmap(flags: Sequence[bool]) -> bytes:
    out = bytearray((len(flags) + 7) // 8)
    for i, f in enumerate(flags):
        if f:
            out[i >> 3] |= 1 << (i & 7)
    return bytes(out)


def _arrow_column(pa: Any, kind: str, values: Sequence[Any]) -> Any:
    """An Arrow array from Python values, built from its buffers: pa.array() would import pandas (0.3 s of
    a 2 s scoring run) only to check whether the values are a DataFrame."""
    n = len(values)
    present = [v is not None for v in values]
    nulls = n - sum(present)
    validity = pa.py_buffer(_bitmap(present)) if nulls else None
    if kind == "string":
        data = [b"" if v is None else str(v).encode("utf-8") for v in values]
        offsets = array.array("i", [0])
        for d in data:
            offsets.append(offsets[-1] + len(d))
        return pa.Array.from_buffers(pa.string(), n, [validity, pa.py_buffer(offsets.tobytes()),
                                                      pa.py_buffer(b"".join(data))], null_count=nulls)
    if kind == "bool_":
        return pa.Array.from_buffers(pa.bool_(), n, [validity, pa.py_buffer(_bitmap([bool(v) for v in values]))],
                                     null_count=nulls)
    code, typ = {"int64": ("q", pa.int64()), "float64": ("d", pa.float64())}[kind]
    data = array.array(code, [0 if v is None else v for v in values])
    return pa.Array.from_buffers(typ, n, [validity, pa.py_buffer(data.tobytes())], null_count=nulls)


class _ParquetSink:
    """details.parquet written in batches beside results.jsonl (memory stays flat). pyarrow writes the file by
    name: `target` is a temporary that AtomicFiles renames into place with the other outputs."""

    def __init__(self, target: str | os.PathLike, batch: int = 5000) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        self._pa, self.batch = pa, batch
        self.schema = pa.schema([(name, getattr(pa, kind)()) for name, kind in PARQUET_COLUMNS])
        self.writer = pq.ParquetWriter(str(target), self.schema, compression="zstd")
        self.cols: dict[str, list[Any]] = {name: [] for name, _ in PARQUET_COLUMNS}
        self.rows = 0

    def add(self, obj: dict[str, Any], extra: str | None) -> None:
        for name, value in _parquet_row(obj, extra).items():
            self.cols[name].append(value)
        self.rows += 1
        if self.rows >= self.batch:
            self._flush()

    def _flush(self) -> None:
        if self.rows:
            pa = self._pa
            arrays = [_arrow_column(pa, kind, self.cols[name]) for name, kind in PARQUET_COLUMNS]
            self.writer.write_table(pa.Table.from_arrays(arrays, schema=self.schema))
            self.cols = {name: [] for name, _ in PARQUET_COLUMNS}
            self.rows = 0

    def finish(self) -> None:
        try:
            self._flush()
        finally:
            self.writer.close()


ERROR_EXAMPLES_PER_SUBSET = 12
ERROR_EXAMPLES_PER_CELL = 2


class ErrorExamples:
    """Worked wrong answers for report.html, collected while results.jsonl is streamed: per subset, at most
    ERROR_EXAMPLES_PER_CELL per (failure kind, category) cell in file order, then a round-robin over the cells
    (stratified over categories and failure kinds), and the count of every wrong unit per failure kind."""

    def __init__(self) -> None:
        self.cells: dict[str, dict[tuple[str, str], list[dict[str, Any]]]] = defaultdict(dict)
        self.counts: dict[str, Counter] = defaultdict(Counter)

    def add(self, obj: dict[str, Any], extra: str | None) -> None:
        kind = obj.get("failure_kind")
        if kind is None:
            return
        name = results_doc.config_name(obj.get("dataset"))
        self.counts[name][kind] += 1
        cell = self.cells[name].setdefault((kind, str(obj.get("category") or obj.get("subcategory") or "")), [])
        if len(cell) < ERROR_EXAMPLES_PER_CELL:
            d = json.loads(extra) if extra else {}
            cell.append({**{k: obj.get(k) for k in ("id", "turn", "category", "subcategory", "difficulty",
                                                     "extracted", "reason", "failure_kind", "failure_why")},
                         "question": d.get("question"), "gold": gold_text(d.get("gold")),
                         "answer_line": answer_line(d.get("response"))})

    def doc(self) -> dict[str, Any]:
        out = {}
        for name, cells in self.cells.items():
            queues = [cells[k] for k in sorted(cells)]
            picked: list[dict[str, Any]] = []
            for k in range(ERROR_EXAMPLES_PER_CELL):
                picked += [q[k] for q in queues if k < len(q)]
            out[name] = {"wrong": sum(self.counts[name].values()),
                         "by_kind": dict(self.counts[name].most_common()),
                         "examples": picked[:ERROR_EXAMPLES_PER_SUBSET]}
        return out


def answer_line(response: str | None) -> str | None:
    """The model's answer line as shown in the error analysis: 「答案：…」's line when there is one, else the last
    non-empty line of the visible response."""
    if not response:
        return None
    seg = extract.answer_segment(response)
    if seg is not None:
        first = seg.strip().splitlines()[0] if seg.strip() else ""
        return ("答案：" + first)[:300]
    lines = [x for x in response.strip().splitlines() if x.strip()]
    return lines[-1][:300] if lines else None


def gold_text(g: dict[str, Any] | None) -> str | None:
    g = g or {}
    for k in ("answer", "answer_text", "reference_answer"):
        v = g.get(k)
        if isinstance(v, list):
            return ",".join(map(str, v))
        if v not in (None, ""):
            return str(v)
    v = g.get("answer_value")
    return None if v is None else f"{v:.12g}"


OUTPUT_NAMES = ("results.jsonl", "summary.csv", "report.md", "results.json", "report.html", "details.parquet")


def write_outputs(out_dir: str | os.PathLike | OutputFolder, outcome: Outcome, *, inputs: dict[str, Any],
                  spool: DetailsSpool | None = None) -> dict[str, Path]:
    """Every output is written into a staging folder beside `out_dir`, which then replaces the folder in one
    atomic swap (jsonl.OutputFolder: readers see the old report or the new one, never a mix; other files in
    the folder, like the judge cache, are kept). An error leaves the old report untouched. `out_dir` may be
    an OutputFolder the caller already locked (score locks --out before judging). results.jsonl is streamed
    (constant memory)."""
    folder = out_dir if isinstance(out_dir, OutputFolder) else OutputFolder(out_dir)
    with folder.replace(OUTPUT_NAMES) as stage:
        paths = _write_outputs(stage, outcome, inputs=inputs, spool=spool)
    return {k: folder.path / p.name for k, p in paths.items()}


def _write_outputs(out: Path, outcome: Outcome, *, inputs: dict[str, Any],
                   spool: DetailsSpool | None) -> dict[str, Path]:
    from tw_fin_eval.scoring import html_report

    rows = summary_rows(outcome.items)
    model = outcome.issues.run_models[0] if len(outcome.issues.run_models) == 1 else ""
    for r in rows:
        r["model"] = model
    doc = results_doc.build(outcome, rows, inputs=inputs, purity=spool.purity() if spool is not None else None)
    summary = csv_text(rows)
    report = report_markdown(outcome, rows, inputs=inputs, doc=doc)
    examples = ErrorExamples()
    paths = {"results": out / "results.jsonl", "summary": out / "summary.csv", "report": out / "report.md",
             "results_json": out / "results.json", "html": out / "report.html"}
    parquet: _ParquetSink | None = None
    # every temporary file is complete and fsynced before any is renamed into place
    with AtomicFiles() as files:
        try:
            parquet = _ParquetSink(files.reserve(out / "details.parquet"))
            paths["parquet"] = out / "details.parquet"
        except ImportError:  # pyarrow is optional for scoring
            pass

        def lines() -> Iterator[str]:
            for line, obj, extra in _result_lines(outcome, spool):
                if parquet is not None:
                    parquet.add(obj, extra)
                examples.add(obj, extra)
                yield line

        try:
            files.write_lines(paths["results"], lines())
        finally:
            if parquet is not None:
                parquet.finish()
        page = html_report.render_report(doc, rows, errors=examples.doc(),
                                         details="details.parquet" if "parquet" in paths else "results.jsonl")
        for key, text in (("summary", summary), ("report", report), ("html", page),
                          ("results_json", dumps_strict(doc, indent=2, note_key="notes") + "\n")):
            files.write_text(paths[key], text)
    return paths


def print_table(rows: Iterable[dict[str, Any]], cols: Sequence[str], out: Callable[[str], None] = print) -> None:
    rows = list(rows)
    cells = [[_fmt(r.get(c), c in _PCT) for c in cols] for r in rows]
    widths = [max([len(c)] + [len(row[i]) for row in cells]) for i, c in enumerate(cols)]
    out("  ".join(c.ljust(w) for c, w in zip(cols, widths)))
    for row in cells:
        out("  ".join(v.ljust(w) for v, w in zip(row, widths)))


def dumps_pretty(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, indent=2)
