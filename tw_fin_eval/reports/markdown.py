"""report.md: the scoring report in Markdown, from the summary rows and results.json (no accuracy is computed here)."""

from __future__ import annotations

import html
import urllib.parse
from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Any

from tw_fin_eval.jsonl import dumps
from tw_fin_eval.reports import results_doc
from tw_fin_eval.reports.summary import _KNOWN, _fmt, md_table, summarize
from tw_fin_eval.scoring import scorers
from tw_fin_eval.scoring.engine import Outcome
from tw_fin_eval.subsets import SUBSETS
from tw_fin_eval.twins import gap as twin_gap


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
    """report.md: the run's header, the headline with uncertainty and the run itself (from results.json), the
    summary tables, FinLLM450's judged figures, outcomes, extraction modes, judge agreement, input problems."""
    items = outcome.items
    rows = [r for r in rows if r["dimension"] == "all" or r["run"] > 0]  # partial runs: only what was run
    parts = _header(outcome, inputs, doc)
    if doc is not None:
        parts += uncertainty_section(doc) + twin_gap.markdown(doc) + run_section(doc)
    parts += _summary_tables(rows)
    parts += _pass_rate_sections(items) + _outcomes_section(items) + _modes_section(items)
    parts += _agreement_section(outcome) + _problems_section(outcome)
    return "\n".join(parts) + "\n"


def _header(outcome: Outcome, inputs: dict[str, Any], doc: dict[str, Any] | None) -> list[str]:
    items, iss, cfg = outcome.items, outcome.issues, outcome.judge_config
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
    not_run = sum(1 for it in items if it.status == scorers.NOT_RUN)
    if not_run:
        skipped = (doc or {}).get("not_run", {}).get("records_subsets") or {}
        parts += [f"Partial run: {not_run} of {len(items)} units were not run and are left out"
                  + (f" (subsets never run: {', '.join(f'{k} ({n})' for k, n in skipped.items())})" if skipped else "")
                  + ".", ""]
    return parts


def _summary_tables(rows: Sequence[dict[str, Any]]) -> list[str]:
    main_cols = ["group", "items", "run", "decided", "accuracy", "strict_accuracy", "rule_accuracy",
                 "judge_accuracy", "pending", "missing", "error", "not_run", "bare_numeral_decided",
                 "mean_step_recall", *(c.name for c in scorers.declared_columns()), "conversation_accuracy"]
    parts: list[str] = []
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
    return parts


def _pass_rate_sections(items: Sequence[scorers.ItemResult]) -> list[str]:
    """The subsets declaring `pass_rate_breakdowns` (FinLLM450): pass rate and mean score per group."""
    parts: list[str] = []
    for spec in SUBSETS.values():
        fin = [it for it in items if it.dataset == spec.dataset] if spec.pass_rate_breakdowns else []
        if not fin:
            continue
        parts += [f"## {spec.dataset}: pass rate and mean score", ""]
        for label, key in spec.pass_rate_breakdowns:
            groups: dict[str, list[scorers.ItemResult]] = defaultdict(list)
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
    return parts


def _outcomes_section(items: Sequence[scorers.ItemResult]) -> list[str]:
    """Outcomes per dataset, when a protocol has its own (e.g. no_ground_truth)."""
    parts: list[str] = []
    order = [scorers.SCORED, scorers.PENDING, scorers.MISSING, scorers.ERROR, scorers.NOT_RUN]
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
    return parts


def _modes_section(items: Sequence[scorers.ItemResult]) -> list[str]:
    parts: list[str] = []
    modes = Counter(it.mode for it in items if it.status in {scorers.SCORED, scorers.PENDING, scorers.MISSING})
    parts += ["## Extraction modes", "", "| mode | items |", "|---|---|"]
    parts += [f"| {m} | {n} |" for m, n in sorted(modes.items(), key=lambda kv: -kv[1])] + [""]
    return parts


def _agreement_section(outcome: Outcome) -> list[str]:
    parts: list[str] = []
    if outcome.agreement:
        parts += ["## Judge agreement (judged twice)", "", "| task type | judged twice | both scored | agreement | "
                  "kappa | mean abs score diff | outcome disagreements |", "|---|---|---|---|---|---|---|"]
        for tt, a in outcome.agreement.items():
            parts.append(f"| {tt} | {a['items_judged_twice']} | {a['both_scored']} | {_fmt(a['agreement'], True)} | "
                         f"{_fmt(a['kappa'])} | {_fmt(a['mean_abs_score_diff'])} | {a['outcome_disagreements']} |")
        parts.append("")
    return parts


def _problems_section(outcome: Outcome) -> list[str]:
    items, iss = outcome.items, outcome.issues
    parts: list[str] = []
    pend = Counter(it.reason for it in items if it.status == scorers.PENDING)
    miss = Counter(it.reason for it in items if it.status == scorers.MISSING)
    parts += ["## Input problems and unscored items", ""]
    parts.append(_list_block("duplicate record ids (first kept)", iss.duplicate_record_ids))
    parts.append(_list_block("runs lines for unknown ids/turns", iss.unknown_run_keys))
    parts.append(_list_block("keys with more than one successful generation (last taken)", iss.duplicate_generations))
    parts.append(_list_block("failed generations (counted wrong)", iss.failed_generations))
    parts.append(f"- items not run (no line in the runs file): {len(iss.not_run)}")
    parts.append(_list_block("stale runs lines (prompt changed since the run; not scored, re-run them)", iss.stale))
    parts.append(_list_block("pending items by reason", [f"{r}: {n}" for r, n in pend.most_common()]))
    parts.append(_list_block("missing verdicts by reason", [f"{r}: {n}" for r, n in miss.most_common()]))
    return parts
