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

import csv
import io
import json
import os
import urllib.parse
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from tw_fin_eval.jsonl import AtomicFiles, dumps
from tw_fin_eval.scoring import extract, tasks
from tw_fin_eval.scoring.engine import Outcome

COLUMNS = [
    "dimension", "dataset", "group", "items", "run", "decided", "correct", "accuracy", "strict_accuracy",
    "rule_decided", "rule_accuracy", "keyword_decided", "keyword_accuracy", "judge_decided", "judge_accuracy",
    "pending", "missing", "error", "not_run", "other_outcomes", "bare_numeral_decided", "cross_format",
    "mean_step_recall", "pass_rate", "mean_score", "conversations", "conversation_accuracy",
]
DIMENSIONS = ["dataset", "task_type", "category", "subcategory", "difficulty"]
_KNOWN = {tasks.SCORED, tasks.PENDING, tasks.MISSING, tasks.ERROR, tasks.NOT_RUN}


def _ratio(num: int | float, den: int | float) -> float | None:
    return None if not den else num / den


def summarize(items: Sequence[tasks.ItemResult]) -> dict[str, Any]:
    st = Counter(it.status for it in items)
    decided = [it for it in items if it.status == tasks.SCORED]
    correct = sum(1 for it in decided if it.correct)
    denom = len(decided) + st[tasks.ERROR]

    def by(how: str) -> tuple[int, float | None]:
        sub = [it for it in decided if it.decided_by == how]
        return len(sub), _ratio(sum(1 for it in sub if it.correct), len(sub))

    rule_n, rule_acc = by(tasks.RULE)
    kw_n, kw_acc = by(tasks.KEYWORD)
    judge_n, judge_acc = by(tasks.JUDGE)
    strict = sum(1 for it in decided if it.correct and it.mode == extract.STRICT and it.decided_by != tasks.JUDGE)
    recalls = [it.step_recall for it in items if it.step_recall is not None and it.status != tasks.NOT_RUN]
    scores = [it.score for it in decided if it.decided_by == tasks.JUDGE and it.score is not None]
    convs: dict[str, list[tasks.ItemResult]] = defaultdict(list)
    for it in items:
        if it.task_type == "conversation_numeric":
            convs[it.id].append(it)
    complete = [turns for turns in convs.values() if all(t.status in {tasks.SCORED, tasks.ERROR} for t in turns)]
    return {
        "items": len(items), "run": len(items) - st[tasks.NOT_RUN], "decided": len(decided), "correct": correct,
        "accuracy": _ratio(correct, denom),
        "strict_accuracy": _ratio(strict, denom) if (rule_n + kw_n) else None,
        "rule_decided": rule_n, "rule_accuracy": rule_acc, "keyword_decided": kw_n, "keyword_accuracy": kw_acc,
        "judge_decided": judge_n, "judge_accuracy": judge_acc,
        "pending": st[tasks.PENDING], "missing": st[tasks.MISSING], "error": st[tasks.ERROR],
        "not_run": st[tasks.NOT_RUN], "other_outcomes": sum(n for s, n in st.items() if s not in _KNOWN),
        "bare_numeral_decided": sum(1 for it in decided if it.correct and it.match_path == "bare_numeral"),
        "cross_format": sum(1 for it in decided if it.match_path == "cross_format"),
        "mean_step_recall": _ratio(sum(recalls), len(recalls)),
        "pass_rate": judge_acc if scores else None,
        "mean_score": _ratio(sum(scores), len(scores)),
        "conversations": len(complete) if convs else None,
        "conversation_accuracy": _ratio(sum(1 for turns in complete if all(t.correct for t in turns)), len(complete))
        if convs else None,
    }


def summary_rows(items: Sequence[tasks.ItemResult]) -> list[dict[str, Any]]:
    rows = [{"dimension": "all", "dataset": "", "group": "all", **summarize(items)}]
    for dim in DIMENSIONS:
        groups: dict[tuple[str, str], list[tasks.ItemResult]] = defaultdict(list)
        for it in items:
            value = getattr(it, dim)
            ds = "" if dim == "dataset" else (it.dataset or "")
            groups[(ds, "" if value is None else str(value))].append(it)
        for (ds, value), sub in sorted(groups.items()):
            if dim != "dataset" and value == "":
                continue  # e.g. difficulty is null outside FinChain
            rows.append({"dimension": dim, "dataset": ds, "group": value, **summarize(sub)})
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
    for r in rows:
        w.writerow({k: (f"{r[k]:.6f}" if isinstance(r.get(k), float) else ("" if r.get(k) is None else r[k]))
                    for k in COLUMNS})
    return buf.getvalue()


_PCT = {"accuracy", "strict_accuracy", "rule_accuracy", "keyword_accuracy", "judge_accuracy", "mean_step_recall",
        "pass_rate", "conversation_accuracy"}


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
    shown = "\n".join(f"  - {e}" for e in entries[:limit])
    more = f"\n  - … and {len(entries) - limit} more" if len(entries) > limit else ""
    return f"- {title}: {len(entries)}\n<details><summary>list</summary>\n\n{shown}{more}\n\n</details>"


def report_markdown(outcome: Outcome, rows: Sequence[dict[str, Any]], *, inputs: dict[str, Any]) -> str:
    items, iss, cfg = outcome.items, outcome.issues, outcome.judge_config
    main_cols = ["group", "items", "run", "decided", "accuracy", "strict_accuracy", "rule_accuracy",
                 "judge_accuracy", "pending", "missing", "error", "not_run", "bare_numeral_decided",
                 "mean_step_recall", "conversation_accuracy"]
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
    parts += ["Accuracy = correct / (decided + failed generations); rules decide first, the judge only where "
              "rules cannot. pending / missing (unparseable verdict) / not_run are excluded and counted.", ""]
    by_dim = defaultdict(list)
    for r in rows:
        by_dim[r["dimension"]].append(r)
    parts += ["## Overall", "", md_table(by_dim["all"], main_cols), ""]
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
    parts.append(_list_block("items not run (no line in the runs file)", iss.not_run))
    parts.append(_list_block("pending items by reason", [f"{r}: {n}" for r, n in pend.most_common()]))
    parts.append(_list_block("missing verdicts by reason", [f"{r}: {n}" for r, n in miss.most_common()]))
    return "\n".join(parts) + "\n"


def write_outputs(out_dir: str | os.PathLike, outcome: Outcome, *, inputs: dict[str, Any]) -> dict[str, Path]:
    """Everything is rendered in memory first, then each file is written atomically: an error leaves no
    partial report behind."""
    rows = summary_rows(outcome.items)
    results = "".join(dumps(it.to_json()) + "\n" for it in outcome.items)
    summary = csv_text(rows)
    report = report_markdown(outcome, rows, inputs=inputs)
    out = Path(out_dir)
    paths = {"results": out / "results.jsonl", "summary": out / "summary.csv", "report": out / "report.md"}
    # every temporary file is complete and fsynced before any is renamed into place
    with AtomicFiles() as files:
        for key, text in (("results", results), ("summary", summary), ("report", report)):
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
