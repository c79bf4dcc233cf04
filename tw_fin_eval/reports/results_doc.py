"""`results.json`: one machine-readable document per `score` run — what was scored, how, and with what
uncertainty. Keys of `subsets` are the release config names (finqa, convfinqa, finchain, financeagent,
finllm450, finsearchcomp). Read back by `tw-fin-eval compare` and rendered by `report.html`.

Uncertainty: the headline accuracy of each subset comes with a seeded percentile bootstrap (1,000 resamples)
clustered by conversation (ConvFinQA), by template (FinChain) and by item elsewhere (`stats.bootstrap`).
Breakdowns (category, subcategory, difficulty) carry the closed-form cluster-robust standard error of the
same ratio and a normal 95% interval, which costs nothing to compute for many small groups.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import importlib.metadata
import json
import math
import platform
import subprocess
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from tw_fin_eval.configs import CONFIGS
from tw_fin_eval.jsonl import dumps
from tw_fin_eval.reports import stats
from tw_fin_eval.reports.summary import headline_units
from tw_fin_eval.scoring import scorers
from tw_fin_eval.scoring.engine import UNMATCHED_WARN_SHARE, Outcome
from tw_fin_eval.subsets import SUBSETS, group_sort_key
from tw_fin_eval.twins import gap as twin_gap

SCHEMA = "tw_fin_eval.results/1"
PACKAGES = ("tw-fin-eval-basic", "datasets", "evaluate", "huggingface_hub", "pyarrow", "opencc")
BREAKDOWNS = ("category", "subcategory", "difficulty")
_CONFIG_OF = {c.dataset: c.name for c in CONFIGS.values()}
REPO = Path(__file__).resolve().parents[2]


def _cluster_name(task_type: str) -> str:
    scorer = scorers.SCORERS.get(task_type)
    return scorer.cluster_name if scorer is not None else "item"


def config_name(dataset: str | None) -> str:
    """Release config name of a dataset label (FinQA-TW → finqa); unknown datasets keep their label."""
    return _CONFIG_OF.get(dataset or "", dataset or "?")


def versions() -> dict[str, str | None]:
    out: dict[str, str | None] = {"python": platform.python_version()}
    for name in PACKAGES:
        try:
            out[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            out[name] = None
    import tw_fin_eval

    out["tw_fin_eval"] = getattr(tw_fin_eval, "__version__", out.get("tw-fin-eval-basic"))
    return out


def git_commit(root: Path = REPO) -> dict[str, Any] | None:
    """HEAD of the checkout the package runs from, and whether it has uncommitted changes (None outside git)."""
    if not (root / ".git").exists():
        return None
    try:
        head = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True,
                              timeout=10, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=10, check=True).stdout.strip() != ""
    except (OSError, subprocess.SubprocessError):
        return None
    return {"commit": head, "dirty": dirty}


def sha256_file(path: str | Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def robust_interval(units: Sequence[scorers.ItemResult]) -> dict[str, Any]:
    """Accuracy with the cluster-robust (linearisation) standard error of a ratio of cluster sums,
    var = m / (m − 1) · Σ (y_c − p·n_c)² / N², and a 95% interval that stays honest for small groups and at
    0% / 100%: the Wilson interval on the effective sample size n / deff (`stats.honest_interval`; 3 of 3 right
    is [43.9%, 100%], never [100%, 100%])."""
    cl = stats.clusters_of((it.cluster or it.id, 1.0 if it.correct else 0.0) for it in units)
    n = sum(c[1] for c in cl)
    if not n:
        return {"n": 0, "clusters": 0, "accuracy": None, "stderr": None, "ci95": None}
    p = sum(c[0] for c in cl) / n
    m = len(cl)
    se = math.sqrt(m / (m - 1) * sum((y - p * k) ** 2 for y, k in cl)) / n if m > 1 else 0.0
    return {"n": n, "clusters": m, "accuracy": p, "stderr": se,
            "ci95": stats.honest_interval(p, se if m > 1 else None, n, m)}


SAMPLING_ESTIMATES = {
    "all": "the whole subset was run: the accuracy is the subset's",
    "proportional": "a proportional stratified random sample (self-weighting): the accuracy estimates the subset's",
    "equal": "an equal-allocation stratified random sample: the accuracy is weighted back to each stratum's share "
             "of the subset and estimates the subset's",
    "first": "the first N records (--limit), not a random sample: the accuracy is of those records only and does "
             "not estimate the subset's",
    "unknown": "the runs lines do not record how their records were chosen (an older runner or a batch import)",
    "mixed": "the runs lines record more than one sampling design; the accuracy does not estimate the subset's",
}


def sampling_entry(outcome: Outcome, items: Sequence[scorers.ItemResult]) -> dict[str, Any]:
    """How this subset's records were chosen (the runs lines' `sampling`), and what its accuracy estimates. A run
    that covered every unit of the data is the whole subset, whatever its lines say."""
    label = items[0].dataset or "?" if items else "?"
    st = outcome.run_stats
    designs = [] if st is None else [(json.loads(k), n) for k, n in st.sampling.get(label, {}).items()]
    if items and not any(it.status == scorers.NOT_RUN for it in items):
        design: dict[str, Any] = {"method": "all"}
    elif not designs or all(d is None for d, _ in designs):
        design = {"method": "unknown"}
    elif len({dumps(d) for d, _ in designs if d is not None}) > 1:
        design = {"method": "mixed", "designs": [{**d, "lines": n} for d, n in designs if d is not None]}
    else:
        design = dict(next(d for d, _ in designs if d is not None))
        strata = (st.strata.get(label) if st is not None else None) or {}
        if strata:
            design["strata"] = {k: {"population": v[0], "sample": v[1]} for k, v in sorted(strata.items())}
    design["estimates"] = SAMPLING_ESTIMATES.get(design["method"], SAMPLING_ESTIMATES["unknown"])
    return design


def sampling_text(name: str, design: dict[str, Any] | None) -> str:
    """One line on how a subset's records were chosen, for report.md and report.html."""
    d = design or {"method": "unknown", "estimates": SAMPLING_ESTIMATES["unknown"]}
    how = d["method"]
    if how in ("proportional", "equal"):
        how = (f"{how} stratified random sample of {d.get('size')} of {d.get('population')} records "
               f"(--sample {d.get('sample')}, --sample-seed {d.get('sample_seed')}, strata by "
               f"{' › '.join(d.get('levels') or []) or 'none'})")
    elif how == "first":
        how = f"first {d.get('size')} of the records (--limit {d.get('limit')})"
    return f"{name}: {how} — {d.get('estimates')}"


def design_weights(design: dict[str, Any], units: Sequence[scorers.ItemResult]) -> list[float] | None:
    """Per unit, the records of its first-level stratum it stands for (stratum population ÷ records of the
    stratum among `units`) — only for an equal-allocation sample; None when the design is self-weighting."""
    key, strata = design.get("stratum_key"), design.get("strata") or {}
    if design.get("method") != "equal" or not key or not strata:
        return None
    records: dict[str, set[str]] = defaultdict(set)
    for it in units:
        records[_stratum(it, key)].add(it.id)
    return [strata.get(_stratum(it, key), {}).get("population", 0) / len(records[_stratum(it, key)])
            for it in units]


def _stratum(it: scorers.ItemResult, key: str) -> str:
    value = getattr(it, key, None)
    return "" if value is None else str(value)


def weighted_clusters(units: Sequence[scorers.ItemResult], weights: Sequence[float] | None) -> list[tuple[float, float]]:
    """(Σ w·correct, Σ w) per cluster; weights None = 1 each (the plain cluster sums)."""
    sums: dict[str, list[float]] = {}
    for i, it in enumerate(units):
        w = 1.0 if weights is None else weights[i]
        acc = sums.setdefault(it.cluster or it.id, [0.0, 0.0])
        acc[0] += w * (1.0 if it.correct else 0.0)
        acc[1] += w
    return [(a, b) for a, b in sums.values()]


def subset_entry(config: str, items: Sequence[scorers.ItemResult], row: dict[str, Any],
                 sampling: dict[str, Any] | None = None) -> dict[str, Any]:
    units = headline_units(items)
    weights = design_weights(sampling or {}, units)
    if weights is None:
        iv = stats.bootstrap(stats.clusters_of((it.cluster or it.id, 1.0 if it.correct else 0.0) for it in units),
                             seed=f"{stats.DEFAULT_SEED}:{config}")
    else:  # equal allocation: the ratio estimator with design weights, and its bootstrap
        iv = stats.bootstrap(weighted_clusters(units, weights), seed=f"{stats.DEFAULT_SEED}:{config}")  # type: ignore[arg-type]
        row = {**row, "unweighted_accuracy": row["accuracy"], "accuracy": iv.estimate}
    task_types = sorted({it.task_type for it in items})
    entry: dict[str, Any] = {
        "dataset": items[0].dataset if items else None, "task_types": task_types,
        "n": len(units), "accuracy": row["accuracy"], "stderr": iv.stderr,
        "ci95": stats.honest_interval(row["accuracy"], iv.stderr, len(units), iv.clusters, iv.lo, iv.hi),
        "bootstrap_ci95": None if iv.lo is None else [iv.lo, iv.hi],
        "clusters": iv.clusters, "cluster_by": sorted({_cluster_name(t) for t in task_types}),
    }
    for k in ("items", "run", "decided", "correct", "strict_accuracy", "flexible_accuracy", "truncated", "refused", "nonexact_format",
              "pending", "missing", "error", "not_run", "stale", "other_outcomes", "unanswerable_excluded",
              "fixed_gold", "upstream_accuracy", "mean_step_recall", "conversation_accuracy", "judge_decided",
              "judge_accuracy", "mean_score"):
        entry[k] = row.get(k)
    if sampling is not None:
        entry["sampling"] = sampling
        if weights is not None:
            entry["unweighted_accuracy"] = row["unweighted_accuracy"]
    entry["failure_kinds"] = dict(Counter(it.failure_kind for it in items if it.failure_kind).most_common())
    ran = [it for it in items if it.status not in (scorers.NOT_RUN,)]
    entry["truncation_rate"] = (row["truncated"] / len(ran)) if ran else None
    entry["breakdowns"] = {}
    for dim in BREAKDOWNS:
        groups: dict[str, list[scorers.ItemResult]] = defaultdict(list)
        for it in units:
            value = getattr(it, dim)
            if value not in (None, ""):
                groups[str(value)].append(it)
        if len(groups) > 1:
            key = group_sort_key(config, dim)
            entry["breakdowns"][dim] = [{"group": g, **robust_interval(groups[g])} for g in sorted(groups, key=key)]
    return entry


def by_config(items: Iterable[scorers.ItemResult]) -> dict[str, list[scorers.ItemResult]]:
    out: dict[str, list[scorers.ItemResult]] = defaultdict(list)
    for it in items:
        out[config_name(it.dataset)].append(it)
    return dict(out)


def macro_average(subsets: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Unweighted mean over subsets with an accuracy; subsets are independent, so se = √Σse² / k."""
    accs = [(name, s["accuracy"], s["stderr"]) for name, s in subsets.items() if s.get("accuracy") is not None]
    if not accs:
        return {"accuracy": None, "stderr": None, "ci95": None, "subsets": []}
    k = len(accs)
    mean = sum(a for _, a, _ in accs) / k
    # a subset's interval may be wider than its bootstrap standard error says (the Wilson floor at small n or
    # 0% / 100%): take the wider of the two, so the macro interval never claims more than its parts
    floors = {name: (s["ci95"][1] - s["ci95"][0]) / (2 * 1.96) for name, s in subsets.items() if s.get("ci95")}
    se = math.sqrt(sum(max(s or 0.0, floors.get(name, 0.0)) ** 2 for name, _, s in accs)) / k
    return {"accuracy": mean, "stderr": se, "ci95": [max(0.0, mean - 1.96 * se), min(1.0, mean + 1.96 * se)],
            "subsets": [name for name, _, _ in accs]}


POOLED_LABEL = "pooled over every unit (larger subsets weigh more; not the headline)"


def _left_out(subsets: dict[str, dict[str, Any]], not_run: dict[str, int]) -> dict[str, str]:
    """Subsets the headline does not average, and why."""
    out = {name: f"not run ({n} units)" for name, n in not_run.items()}
    for name, s in subsets.items():
        if s.get("accuracy") is None:
            why = [f"{s[k]} {k}" for k in ("pending", "missing", "stale", "not_run") if s.get(k)]
            out[name] = "no decided unit" + (f": {', '.join(why)}" if why else "")
    return out


def headline(subsets: dict[str, dict[str, Any]], not_run: dict[str, int], macro: dict[str, Any]) -> dict[str, Any]:
    """The one overall number every output leads with: the macro average over the subsets with an accuracy
    (each subset weighs the same) with its 95% interval, and the subsets it leaves out, with why."""
    head = {"metric": "macro_average", "accuracy": macro.get("accuracy"), "stderr": macro.get("stderr"),
            "ci95": macro.get("ci95"), "subsets": list(macro.get("subsets") or []),
            "left_out": _left_out(subsets, not_run)}
    head["text"] = headline_text(head)
    return head


def headline_text(head: dict[str, Any]) -> str:
    def pct(v: float) -> str:
        return f"{100 * v:.1f}%"

    names = head.get("subsets") or []
    if head.get("accuracy") is None:
        text = "no subset has a decided unit: no headline accuracy"
    else:
        ci = head["ci95"]
        text = (f"macro average over {len(names)} subset{'s' if len(names) != 1 else ''} ({', '.join(names)}): "
                f"{pct(head['accuracy'])} (95% CI {pct(ci[0])} – {pct(ci[1])})")
    left = head.get("left_out") or {}
    if left:
        text += "; left out: " + ", ".join(f"{k} ({v})" for k, v in left.items())
    return text


def generation(outcome: Outcome) -> dict[str, Any]:
    st = outcome.run_stats
    settings = [] if st is None else [{"settings": json.loads(k), "lines": n} for k, n in st.generation.most_common()]
    return {"settings": settings[0]["settings"] if len(settings) == 1 else None,
            "variants": settings, "history": dict(outcome.issues.histories)}


def cluster_names() -> dict[str, str]:
    """{subset: what its units are resampled by} from its scorers' `cluster_name`, for the subsets not clustered
    by item; "other": "item" for the rest."""
    out: dict[str, str] = {}
    for spec in SUBSETS.values():
        names = sorted({scorers.SCORERS[t].cluster_name for t in spec.task_types if t in scorers.SCORERS} - {"item"})
        if names:
            out[spec.name] = "/".join(names)
    return {**out, "other": "item"}


def build(outcome: Outcome, rows: Sequence[dict[str, Any]], *, inputs: dict[str, Any],
          purity: dict[str, Any] | None = None) -> dict[str, Any]:
    cfg = outcome.judge_config
    dataset_rows = {r["group"]: r for r in rows if r["dimension"] == "dataset"}
    groups = by_config(outcome.items)
    subsets: dict[str, dict[str, Any]] = {}
    not_run_subsets: dict[str, int] = {}
    for name, items in groups.items():
        row = dataset_rows.get(items[0].dataset or "")
        if row is None or row["run"] == 0:
            not_run_subsets[name] = len(items)  # partial runs: a subset never run is left out, and counted
            continue
        subsets[name] = subset_entry(name, items, row, sampling_entry(outcome, items))
        if purity and name in purity.get("subsets", {}):
            subsets[name]["zh_purity"] = purity["subsets"][name]
    iss = outcome.issues
    macro = macro_average(subsets)
    pooled = next((r for r in rows if r["dimension"] == "all"), {})
    return {
        "schema": SCHEMA,
        "model": iss.run_models[0] if len(iss.run_models) == 1 else None,
        "created": _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z"),
        "versions": versions(),
        "git_commit": git_commit(),
        "data_sha256": {str(p): sha256_file(p) for p in inputs.get("data", []) if Path(p).is_file()},
        "runs_sha256": {str(p): sha256_file(p) for p in inputs.get("runs", []) if Path(p).is_file()},
        "generation": generation(outcome),
        "judge": {"model": cfg.model, "repeats": cfg.repeats, "calls": outcome.judge_calls,
                  "cache_hits": outcome.judge_cache_hits} if cfg.enabled else None,
        "tolerance": {"rel": inputs.get("rel_tol"), "abs": inputs.get("abs_tol")},
        "uncertainty": {"method": "percentile bootstrap, clusters resampled with replacement, widened to the Wilson "
                                  "interval on the effective sample size (n / design effect) where that is wider",
                        "resamples": stats.DEFAULT_RESAMPLES, "seed": stats.DEFAULT_SEED,
                        "clusters": cluster_names(),
                        "breakdowns": "cluster-robust standard error; Wilson interval on the effective sample size"},
        "headline": headline(subsets, not_run_subsets, macro),
        "pooled": {"label": POOLED_LABEL, "accuracy": pooled.get("accuracy"), "correct": pooled.get("correct"),
                   "units": (pooled.get("decided") or 0) + (pooled.get("error") or 0)},
        "subsets": subsets,
        "macro_average": macro,
        "not_run": {"records_subsets": not_run_subsets, "units": sum(1 for it in outcome.items
                                                                      if it.status == scorers.NOT_RUN)},
        "runs": outcome.run_stats.to_json() if outcome.run_stats is not None else None,
        "zh_purity": purity,
        "memorisation_gap": twin_gap.compute(outcome.items),  # originals vs their twins (issue 31); null without
        "issues": {"duplicate_record_ids": len(iss.duplicate_record_ids), "unknown_run_keys": len(iss.unknown_run_keys),
                   "duplicate_generations": len(iss.duplicate_generations),
                   "failed_generations": len(iss.failed_generations), "not_run": len(iss.not_run),
                   "stale": len(iss.stale), "run_keys": iss.run_keys, "unmatched_share": iss.unmatched_share(),
                   "unmatched_warning": (iss.unmatched_share() or 0.0) > UNMATCHED_WARN_SHARE,
                   "unmatched_examples": iss.unknown_run_keys[:5]},
    }
