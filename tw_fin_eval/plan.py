"""`tw-fin-eval plan`: before running — how many records per subset give a ±3-point 95% interval, and what a
full run would cost in tokens and time.

    tw-fin-eval plan                                   # data/*.jsonl, stated defaults
    tw-fin-eval plan --results reports/a/results.json  # accuracy and clustering measured by an earlier run
    tw-fin-eval plan --runs runs/a.jsonl               # tokens and time from a finished (or sampled) run

Sample size. A subset's accuracy is a ratio over units (ConvFinQA turns, other records) clustered as the reports
resample them (ConvFinQA by conversation, FinChain by template, others by item). With n units in a sample of r
records, the 95% half-width is  z·√(deff·p(1−p)/n)·√(1 − r/R)  (R records in the subset: sampling without
replacement). The design effect of clustering is deff = 1 + (m − 1)·ρ, with m the mean units per cluster *in the
sample* (a 100-record FinChain sample touches ~100 of its 290 templates, so m ≈ 1.2 although the whole set has 10
per template) and ρ the intra-cluster correlation. With --results, p is that run's accuracy and ρ comes from its
bootstrap standard error (deff_run = se² · n / p(1−p), ρ = (deff_run − 1)/(m_run − 1)); without, p = 0.5 (the
widest interval) and ρ = --icc (default 0.3) — both stated in the output.

Cost. From the runs lines (a runs file, or the `runs` section of a results.json): mean prompt and completion tokens
per request per subset, and the run's throughput (requests per second between its first and last line), scaled to
every unit of each subset. The throughput holds for the same server, model and --concurrency.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from tw_fin_eval import data_input
from tw_fin_eval.errors import InputError
from tw_fin_eval.paths import DATA_DIR
from tw_fin_eval.subsets import released

Z95 = 1.959964
DEFAULT_P = 0.5
DEFAULT_ICC = 0.3


def configure(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = __doc__.split("\n\n", 1)[1]
    parser.add_argument("--data", nargs="+", default=None,
                        help="records (as for run; default: the release subsets in data/)")
    parser.add_argument("--config", action="append", metavar="NAME", help="config(s) of a release folder or Hub id")
    parser.add_argument("--results", metavar="RESULTS",
                        help="results.json (or its report folder) of an earlier `score`: its accuracy and design "
                             "effect per subset, and its runs' usage")
    parser.add_argument("--runs", nargs="+", metavar="RUNS", help="runs file(s) of a finished run: tokens and time")
    parser.add_argument("--half-width", type=float, default=0.03, metavar="H",
                        help="wanted 95%% interval half-width (default 0.03 = ±3 points)")
    parser.add_argument("--icc", type=float, default=DEFAULT_ICC,
                        help=f"intra-cluster correlation when no --results measures it (default {DEFAULT_ICC})")
    parser.add_argument("--json", action="store_true", help="print the plan as JSON")


@dataclass
class Shape:
    """What the data says about one subset: records, units and how units group into clusters."""
    name: str
    dataset: str
    records: int
    units: int
    clusters: int
    records_per_cluster: float

    @property
    def units_per_record(self) -> float:
        return self.units / self.records

    def mean_cluster_units(self, r: int) -> float:
        """Expected units per touched cluster in a simple random sample of r records."""
        k = self.records_per_cluster
        if r >= self.records or k <= 1:
            return self.units_per_record * (k if r >= self.records else 1.0)
        touched = self.clusters * (1 - (1 - r / self.records) ** k)
        return self.units_per_record * r / touched


def shapes(specs: list[str], configs: list[str] | None) -> list[Shape]:
    from tw_fin_eval.reports.results_doc import config_name
    from tw_fin_eval.scoring import scorers
    from tw_fin_eval.scoring.plugins import load_plugins

    load_plugins()
    out = []
    for source in data_input.resolve_all(specs, configs):
        recs = data_input.read_records(source)
        if not recs:
            continue
        units = 0
        cluster_records: dict[str, set[str]] = defaultdict(set)
        dataset = str(recs[0].get("dataset"))
        for rec in recs:
            scorer = scorers.scorer_for(str(rec.get("task_type")))
            if scorer is None:
                raise InputError(f"unknown task_type {rec.get('task_type')!r}", path=source.label,
                                 item_id=str(rec.get("id")))
            for unit in scorer.units(rec):
                units += 1
                cluster_records[scorer.cluster(rec, unit)].add(rec["id"])
        out.append(Shape(config_name(dataset), dataset, len(recs), units, len(cluster_records),
                         len(recs) / len(cluster_records)))
    return out


def half_width(shape: Shape, r: int, p: float, icc: float) -> float:
    n = r * shape.units_per_record
    deff = 1 + (shape.mean_cluster_units(r) - 1) * icc
    fpc = max(0.0, 1 - r / shape.records)
    return Z95 * math.sqrt(deff * p * (1 - p) / n * fpc)


def records_needed(shape: Shape, h: float, p: float, icc: float) -> int | None:
    """The fewest records whose interval is at most ±h (None: only the whole subset, which has no sampling
    error left)."""
    lo, hi = 1, shape.records
    if half_width(shape, hi - 1, p, icc) > h:
        return None
    while lo < hi:  # the half-width falls as r grows
        mid = (lo + hi) // 2
        if half_width(shape, mid, p, icc) <= h:
            hi = mid
        else:
            lo = mid + 1
    return lo


def _load_results(arg: str) -> dict[str, Any]:
    p = Path(arg)
    path = p / "results.json" if p.is_dir() else p
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise InputError(f"cannot read results.json ({exc.strerror or exc})", path=path) from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"results.json is not valid JSON ({exc})", path=path) from None
    if not isinstance(doc, dict) or not str(doc.get("schema", "")).startswith("tw_fin_eval.results/"):
        raise InputError("not a tw_fin_eval results.json (written by `tw-fin-eval score`)", path=path)
    return doc


def measured_icc(entry: dict[str, Any]) -> float | None:
    """ρ from an earlier run's bootstrap standard error and the mean cluster size of that run."""
    p, se, n, clusters = entry.get("accuracy"), entry.get("stderr"), entry.get("n"), entry.get("clusters")
    if p is None or se is None or not n or not clusters or p * (1 - p) == 0:
        return None
    m = n / clusters
    if m <= 1.0001:
        return None  # item-level clusters: no correlation to measure
    deff = se * se * n / (p * (1 - p))
    return max(0.0, (deff - 1) / (m - 1))


def _seconds(a: str | None, b: str | None) -> float | None:
    try:
        t0 = datetime.fromisoformat(str(a).replace("Z", "+00:00"))
        t1 = datetime.fromisoformat(str(b).replace("Z", "+00:00"))
    except ValueError:
        return None
    s = (t1 - t0).total_seconds()
    return s if s > 0 else None


def cost(runs: dict[str, Any] | None, all_shapes: list[Shape]) -> dict[str, Any] | None:
    """Tokens and time of a full run, scaled from the measured run (None without usage)."""
    if not runs or not runs.get("by_dataset"):
        return None
    per = runs["by_dataset"]
    span = _seconds(runs.get("first_created"), runs.get("last_created"))
    lines = sum(int(c.get("lines", 0)) for c in per.values())
    rate = (lines - 1) / span if span and lines > 1 else None
    rows, total_units, total_prompt, total_completion = [], 0, 0.0, 0.0
    for s in all_shapes:
        c = per.get(s.dataset)
        if not c or not c.get("lines"):
            rows.append({"subset": s.name, "measured_lines": 0, "units": s.units})
            continue
        mp = c.get("prompt_tokens", 0) / c["lines_with_prompt_tokens"] if c.get("lines_with_prompt_tokens") else None
        mc = c.get("completion_tokens", 0) / c["lines_with_completion_tokens"] \
            if c.get("lines_with_completion_tokens") else None
        lat = c.get("latency_sum_ms", 0) / 1000 / c["lines_with_latency"] if c.get("lines_with_latency") else None
        row = {"subset": s.name, "measured_lines": c["lines"], "units": s.units, "mean_prompt_tokens": mp,
               "mean_completion_tokens": mc, "mean_latency_s": lat,
               "prompt_tokens": None if mp is None else round(mp * s.units),
               "completion_tokens": None if mc is None else round(mc * s.units)}
        rows.append(row)
        total_units += s.units
        total_prompt += row["prompt_tokens"] or 0
        total_completion += row["completion_tokens"] or 0
    return {"subsets": rows, "throughput_rps": rate, "units": total_units, "prompt_tokens": round(total_prompt),
            "completion_tokens": round(total_completion),
            "time_s": None if not rate else total_units / rate,
            "note": "tokens = measured mean per request × every unit of the subset; time = those units at the "
                    "measured run's throughput (its lines ÷ the time between its first and last line), which "
                    "holds for the same server, model and --concurrency"}


def build_plan(all_shapes: list[Shape], *, h: float, icc: float, results: dict[str, Any] | None,
               runs: dict[str, Any] | None) -> dict[str, Any]:
    rows = []
    subs = (results or {}).get("subsets") or {}
    for s in all_shapes:
        entry = subs.get(s.name) or {}
        p = entry.get("accuracy")
        p_from = "results.json" if p is not None else "default: the widest interval"
        if p is None or p * (1 - p) == 0:
            if p is not None:
                p_from = f"results.json gave {p:.2f}, no spread: default"
            p = DEFAULT_P
        clustered = s.records_per_cluster > 1 or s.units_per_record > 1
        rho = measured_icc(entry) if entry and clustered else None
        rho_from = "results.json design effect" if rho is not None else (
            "default --icc" if clustered else "item clusters")
        rho = (icc if clustered else 0.0) if rho is None else rho
        need = records_needed(s, h, p, rho)
        rows.append({"subset": s.name, "records": s.records, "units": s.units, "clusters": s.clusters,
                     "p": p, "p_from": p_from, "icc": rho, "icc_from": rho_from,
                     "records_needed": need, "units_needed": None if need is None else round(need * s.units_per_record),
                     "design_effect": None if need is None else 1 + (s.mean_cluster_units(need) - 1) * rho,
                     "whole_subset_half_width": half_width(s, s.records - 1, p, rho) if s.records > 1 else None})
    return {"half_width": h, "confidence": 0.95, "subsets": rows, "cost": cost(runs, all_shapes),
            "method": "95% half-width z·√(deff·p(1−p)/n)·√(1 − r/R); deff = 1 + (m − 1)·ρ with m the mean units "
                      "per cluster in a sample of r records"}


def _fmt_tokens(v: float | None) -> str:
    return "—" if v is None else f"{v:,.0f}"


def _fmt_time(s: float | None) -> str:
    if s is None:
        return "—"
    return f"{s / 3600:.1f} h" if s >= 3600 else f"{s / 60:.0f} min" if s >= 60 else f"{s:.0f} s"


def text(plan: dict[str, Any]) -> str:
    h = plan["half_width"]
    out = [f"plan: records per subset for a 95% interval of ±{100 * h:.1f} points "
           "(pass the largest you need as --sample N, or one run per subset)", ""]
    head = ["subset", "records", "units", "--sample N", "units", "deff", "p (from)", "ρ (from)"]
    rows = []
    for r in plan["subsets"]:
        n = r["records_needed"]
        rows.append([r["subset"], str(r["records"]), str(r["units"]),
                     "all" if n is None else str(n), "—" if n is None else str(r["units_needed"]),
                     "—" if r["design_effect"] is None else f"{r['design_effect']:.2f}",
                     f"{r['p']:.2f} ({r['p_from']})",
                     f"{r['icc']:.2f} ({r['icc_from']})" if r["icc_from"] != "item clusters" else "— (item clusters)"])
    out += _table(head, rows)
    for r in plan["subsets"]:
        if r["records_needed"] is None and r["whole_subset_half_width"] is not None:
            out.append(f"  {r['subset']}: even every record leaves ±{100 * r['whole_subset_half_width']:.1f} points "
                       "(the subset is too small for ±" f"{100 * h:.1f})")
    out += ["", f"method: {plan['method']}"]
    c = plan.get("cost")
    if c:
        out += ["", "cost of a full run (every unit of every subset above), from the measured run:", ""]
        rows = [[r["subset"], str(r["measured_lines"]), str(r["units"]),
                 _fmt_tokens(r.get("mean_prompt_tokens")), _fmt_tokens(r.get("mean_completion_tokens")),
                 _fmt_tokens(r.get("prompt_tokens")), _fmt_tokens(r.get("completion_tokens"))] for r in c["subsets"]]
        rows.append(["total", "", str(c["units"]), "", "", _fmt_tokens(c["prompt_tokens"]),
                     _fmt_tokens(c["completion_tokens"])])
        out += _table(["subset", "measured", "units", "prompt/req", "completion/req", "prompt tokens",
                       "completion tokens"], rows)
        rate = c.get("throughput_rps")
        out += ["", f"time: {_fmt_time(c.get('time_s'))} at the measured {rate:.2f} requests/s" if rate else
                "time: — (the runs lines have no usable timestamps)", f"note: {c['note']}"]
        missing = [r["subset"] for r in c["subsets"] if not r["measured_lines"]]
        if missing:
            out.append(f"note: no measured lines for {', '.join(missing)}: their tokens are not counted")
    else:
        out += ["", "cost: pass --runs (a finished run's runs file) or --results with a runs section for tokens and "
                "time"]
    return "\n".join(out)


def _table(head: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(x) for x in col) for col in zip(head, *rows)]
    return ["  ".join(v.ljust(w) for v, w in zip(r, widths)).rstrip() for r in [head, *rows]]


def _default_data() -> list[str]:
    files = [str(DATA_DIR / c.data_file) for c in released() if (DATA_DIR / c.data_file).is_file()]
    if not files:
        raise InputError("no --data given and data/ is not built: run `tw-fin-eval build`, or pass --data")
    return files


def main(args: argparse.Namespace) -> int:
    if not 0 < args.half_width < 0.5:
        raise InputError("--half-width must be between 0 and 0.5 (0.03 = ±3 points)", field="half_width")
    if not 0 <= args.icc <= 1:
        raise InputError("--icc must be between 0 and 1", field="icc")
    specs = data_input.expand_globs(args.data) if args.data else _default_data()
    all_shapes = shapes(specs, args.config)
    results = _load_results(args.results) if args.results else None
    runs = None
    if args.runs:
        from tw_fin_eval.scoring import engine

        runs = engine.load_runs(data_input.expand_globs(args.runs)).stats.to_json()
    elif results is not None:
        runs = results.get("runs")
    plan = build_plan(all_shapes, h=args.half_width, icc=args.icc, results=results, runs=runs)
    print(json.dumps(plan, ensure_ascii=False, indent=2) if args.json else text(plan))
    return 0


if __name__ == "__main__":  # pragma: no cover
    from tw_fin_eval.cli import main as cli_main

    sys.exit(cli_main(["plan", *sys.argv[1:]]))
