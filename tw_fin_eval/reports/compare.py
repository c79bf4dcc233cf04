"""`tw-fin-eval compare REPORT_A REPORT_B [more…] --out DIR`: is model A really better than model B?

Each REPORT is a folder written by `tw-fin-eval score` (results.json + results.jsonl) or its results.json.
Per subset, the comparison is paired on the units both reports scored (status scored or error, gold not
unanswerable): diff = accuracy(A) − accuracy(B) on those units, a 95% interval from a paired bootstrap with the
same clustering as the reports (ConvFinQA by conversation, FinChain by template, others by item), and the
two-sided McNemar exact p-value on the discordant units (A right and B wrong vs the reverse). Identical results
give diff 0, interval [0, 0] and p = 1. With more than two reports: every pair, and a ranking per subset with
each report's own interval.

Writes DIR/compare.json, DIR/compare.md and DIR/compare.html (self-contained, inline SVG).
"""

from __future__ import annotations

import argparse
import datetime as _dt
import itertools
import json
import math
import sys
from pathlib import Path
from typing import Any

from tw_fin_eval.errors import InputError
from tw_fin_eval.jsonl import AtomicFiles, dumps, dumps_strict, iter_jsonl, output_error
from tw_fin_eval.reports import html as html_report
from tw_fin_eval.reports import results_doc, stats
from tw_fin_eval.scoring import gold

SCHEMA = "tw_fin_eval.compare/1"
COUNTED = ("scored", "error")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("reports", nargs="+", metavar="REPORT",
                        help="folders written by `tw-fin-eval score` (or their results.json); two or more")
    parser.add_argument("--out", required=True, help="output folder (compare.json, compare.md, compare.html)")
    parser.add_argument("--resamples", type=int, default=stats.DEFAULT_RESAMPLES,
                        help=f"bootstrap resamples (default {stats.DEFAULT_RESAMPLES})")
    parser.add_argument("--seed", type=int, default=stats.DEFAULT_SEED, help="bootstrap seed")
    parser.add_argument("--quiet", action="store_true", help="no table on stdout")


class Report:
    """One scored run: its results.json and, per unit, (correct, cluster) keyed by (id, turn) per subset."""

    def __init__(self, arg: str) -> None:
        p = Path(arg)
        folder = p.parent if p.name == "results.json" else p
        self.folder = folder
        doc_path, lines_path = folder / "results.json", folder / "results.jsonl"
        if not folder.is_dir():
            raise InputError("not a report folder (expected the --out folder of `tw-fin-eval score`)", path=arg)
        for need in (doc_path, lines_path):
            if not need.is_file():
                raise InputError(f"missing {need.name}: is this a folder written by `tw-fin-eval score`?",
                                 path=folder)
        try:
            self.doc = json.loads(doc_path.read_text(encoding="utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise InputError(f"results.json is not valid JSON ({exc})", path=doc_path) from None
        if not isinstance(self.doc, dict) or not str(self.doc.get("schema", "")).startswith("tw_fin_eval.results/"):
            raise InputError("results.json is not a tw_fin_eval results document", path=doc_path)
        self.model = self.doc.get("model") or folder.name
        self.label = self.model
        self.units: dict[str, dict[tuple[str, int | None], tuple[bool, str]]] = {}
        self.strata: dict[str, dict[tuple[str, int | None], str]] = {}  # equal-allocation subsets: unit → stratum
        designs = {name: (e.get("sampling") or {}) for name, e in (self.doc.get("subsets") or {}).items()}
        for lineno, r in iter_jsonl(lines_path):
            if not isinstance(r.get("id"), str) or "status" not in r:
                raise InputError("not a results line (no id/status)", path=lines_path, line=lineno)
            if r["status"] not in COUNTED or r.get("gold_status") == gold.UNANSWERABLE:
                continue
            key = (r["id"], r.get("turn"))
            cluster = r.get("cluster") or (r["id"] if r.get("turn") is None else f"{r['id']}#turn{r['turn']}")
            name = results_doc.config_name(r.get("dataset"))
            self.units.setdefault(name, {})[key] = (bool(r.get("correct")), str(cluster))
            design = designs.get(name) or {}
            if design.get("method") == "equal" and design.get("stratum_key"):
                value = r.get(design["stratum_key"])
                self.strata.setdefault(name, {})[key] = "" if value is None else str(value)

    def weights(self, name: str, keys: list[tuple[str, int | None]]) -> list[float] | None:
        """Per paired unit, the records of its stratum it stands for (equal-allocation samples), else None."""
        strata = self.strata.get(name)
        pops = ((self.doc.get("subsets") or {}).get(name, {}).get("sampling") or {}).get("strata") or {}
        if not strata or not pops:
            return None
        records: dict[str, set[str]] = {}
        for k in keys:
            records.setdefault(strata.get(k, ""), set()).add(k[0])
        return [pops.get(strata.get(k, ""), {}).get("population", 0) / len(records[strata.get(k, "")]) for k in keys]


def compare_pair(a: Report, b: Report, *, resamples: int, seed: int) -> dict[str, Any]:
    subsets: dict[str, Any] = {}
    for name in [s for s in a.units if s in b.units]:
        ua, ub = a.units[name], b.units[name]
        keys = [k for k in ua if k in ub]
        if not keys:
            continue
        n = len(keys)
        w = a.weights(name, keys)
        ws = w if w is not None else [1.0] * n
        total = sum(ws)
        ca = sum(wi for wi, k in zip(ws, keys) if ua[k][0])
        cb = sum(wi for wi, k in zip(ws, keys) if ub[k][0])
        only_a = sum(1 for k in keys if ua[k][0] and not ub[k][0])
        only_b = sum(1 for k in keys if ub[k][0] and not ua[k][0])
        if w is None:
            clusters = stats.paired_clusters((ua[k][1], ua[k][0], ub[k][0]) for k in keys)
        else:  # (Σ w·(a − b), Σ w) per cluster
            sums: dict[str, list[float]] = {}
            for wi, k in zip(ws, keys):
                acc = sums.setdefault(ua[k][1], [0.0, 0.0])
                acc[0] += wi * (float(ua[k][0]) - float(ub[k][0]))
                acc[1] += wi
            clusters = [(s0, s1) for s0, s1 in sums.values()]  # type: ignore[misc]
        iv = stats.bootstrap(clusters, resamples=resamples, seed=f"{seed}:{name}")  # type: ignore[arg-type]
        subsets[name] = {"a": ca / total, "b": cb / total, "diff": (ca - cb) / total, "ci95": [iv.lo, iv.hi],
                         "weighted": w is not None,
                         "stderr": iv.stderr, "p_value": stats.mcnemar_exact(only_a, only_b), "n_paired": n,
                         "clusters": iv.clusters, "only_a": only_a, "only_b": only_b,
                         "both_right": sum(1 for k in keys if ua[k][0] and ub[k][0]),
                         "a_only_units": len(ua) - n, "b_only_units": len(ub) - n}
    macro = None
    if subsets:
        k = len(subsets)
        diff = sum(s["diff"] for s in subsets.values()) / k
        se = math.sqrt(sum((s["stderr"] or 0.0) ** 2 for s in subsets.values())) / k
        macro = {"a": sum(s["a"] for s in subsets.values()) / k, "b": sum(s["b"] for s in subsets.values()) / k,
                 "diff": diff, "ci95": [diff - 1.96 * se, diff + 1.96 * se], "stderr": se, "subsets": list(subsets),
                 "p_value": stats.normal_p(diff, se)}
    return {"a": a.label, "b": b.label, "subsets": subsets, "macro_average": macro}


ALPHA = 0.05


def adjust(pairs: list[dict[str, Any]]) -> None:
    """Holm's step-down adjustment in place: `p_holm` on every subset test over all subsets × pairs (one family),
    and on the macro averages over the pairs (a second family)."""
    tests = [s for pair in pairs for s in pair["subsets"].values() if s.get("p_value") is not None]
    for s, p in zip(tests, stats.holm([s["p_value"] for s in tests])):
        s["p_holm"] = p
    macros = [pair["macro_average"] for pair in pairs if pair.get("macro_average")]
    for m, p in zip(macros, stats.holm([m["p_value"] for m in macros])):
        m["p_holm"] = p


def verdict(pair: dict[str, Any], pairs: int = 1) -> str:
    """One plain sentence: who is ahead on the macro average, by how much, and whether it is significant."""
    mac = pair.get("macro_average")
    if not mac:
        return f"{pair['a']} and {pair['b']} have no subset scored in both: nothing to compare."
    diff, (lo, hi), p = mac["diff"], mac["ci95"], mac.get("p_holm", mac.get("p_value"))
    k = len(mac["subsets"])
    where = f"on the macro average over {k} subset{'s' if k != 1 else ''} ({', '.join(mac['subsets'])})"
    ptext = f"p = {p:.3g}" + (f", Holm-adjusted over the {pairs} pairs" if pairs > 1 else "")
    span = f"95% CI {100 * lo:+.1f} to {100 * hi:+.1f} points; {ptext}"
    if diff == 0:
        return f"{pair['a']} and {pair['b']} are level {where} ({span}): no difference."
    ahead, behind = (pair["a"], pair["b"]) if diff > 0 else (pair["b"], pair["a"])
    significant = p is not None and p < ALPHA and (lo > 0 or hi < 0)
    return (f"{ahead} is ahead of {behind} by {100 * abs(diff):.1f} points {where} ({span}): "
            + ("the difference is significant at the 5% level." if significant else
               "the difference is not significant at the 5% level — the interval includes 0, so this comparison "
               "does not tell the two apart."))


def ranking(reports: list[Report]) -> dict[str, list[dict[str, Any]]]:
    """Per subset (and the macro average), the reports ordered by their own accuracy, with their intervals."""
    out: dict[str, list[dict[str, Any]]] = {}
    names = sorted({n for r in reports for n in (r.doc.get("subsets") or {})})
    for name in names + ["macro_average"]:
        rows = []
        for r in reports:
            e = r.doc.get("macro_average") if name == "macro_average" else (r.doc.get("subsets") or {}).get(name)
            if e and e.get("accuracy") is not None:
                rows.append({"model": r.label, "accuracy": e["accuracy"], "ci95": e.get("ci95"),
                             "n": e.get("n", len(e.get("subsets") or []))})
        if rows:
            out[name] = sorted(rows, key=lambda x: -x["accuracy"])
    return out


def build(reports: list[Report], *, resamples: int = stats.DEFAULT_RESAMPLES,
          seed: int = stats.DEFAULT_SEED) -> dict[str, Any]:
    models = [r.model for r in reports]
    for r in reports:  # two runs of one model: tell them apart by folder
        if models.count(r.model) > 1:
            r.label = f"{r.model} ({r.folder.name})"
    labels = [r.label for r in reports]
    for i, r in enumerate(reports):  # … and by position when the folder is the same too
        if labels.count(r.label) > 1:
            r.label = f"{r.label} #{i + 1}"
    warnings = []
    base = reports[0].doc.get("data_sha256") or {}
    for r in reports[1:]:
        other = r.doc.get("data_sha256") or {}
        if sorted(base.values()) != sorted(other.values()):
            warnings.append(f"{r.label}: data files differ from {reports[0].label}'s (sha256); only units with the "
                            "same id and turn are paired")
    gens = {r.label: (r.doc.get("generation") or {}).get("settings") for r in reports}
    if len({dumps(g) for g in gens.values()}) > 1:
        warnings.append("generation settings differ: " + "; ".join(f"{k}: {dumps(v)}" for k, v in gens.items()))
    pairs = [compare_pair(a, b, resamples=resamples, seed=seed) for a, b in itertools.combinations(reports, 2)]
    adjust(pairs)
    for pair in pairs:
        pair["verdict"] = verdict(pair, len(pairs))
    return {
        "schema": SCHEMA,
        "created": _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z"),
        "method": {"pairing": "units scored in both (status scored or error; unanswerable gold excluded)",
                   "interval": "paired percentile bootstrap, clustered (convfinqa: conversation, finchain: "
                               "template, other: item)", "resamples": resamples, "seed": seed,
                   "test": "McNemar exact (two-sided binomial on discordant units)",
                   "multiple_comparisons": "Holm step-down (family-wise error 5%): over every subset × pair McNemar "
                                           "test as one family, and over the pairs' macro-average tests as another",
                   "macro_test": "normal approximation: z = macro difference / its standard error (the subsets' "
                                 "paired bootstrap standard errors, independent subsets)"},
        "reports": [{"label": r.label, "model": r.doc.get("model"), "path": str(r.folder),
                     "created": r.doc.get("created"), "git_commit": r.doc.get("git_commit"),
                     "generation": (r.doc.get("generation") or {}).get("settings"),
                     "headline": r.doc.get("headline")} for r in reports],
        "warnings": warnings,
        "subsets": pairs[0]["subsets"],
        "macro_average": pairs[0]["macro_average"],
        "pairs": pairs,
        "ranking": ranking(reports) if len(reports) > 2 else None,
    }


def _pct(v: float | None) -> str:
    return "" if v is None else f"{100 * v:.1f}%"


def _pt(v: float | None) -> str:
    return "" if v is None else f"{100 * v:+.1f}"


def markdown(cmp: dict[str, Any]) -> str:
    out = ["# tw_fin_eval_basic comparison", ""]
    for r in cmp["reports"]:
        out.append(f"- {r['label']}: {r['path']} (created {r['created']})")
    out += [f"- {w}" for w in cmp["warnings"]]
    m = cmp["method"]
    out += ["", f"diff = A − B in percentage points on the paired units; 95% CI: {m['interval']}, {m['resamples']} "
            f"resamples, seed {m['seed']}; p: {m['test']}.", ""]
    out += [f"Multiple comparisons: {m.get('multiple_comparisons')}; macro average: {m.get('macro_test')}.", ""]
    for pair in cmp["pairs"]:
        out += [f"## {pair['a']} (A) vs {pair['b']} (B)", "", f"**{pair.get('verdict', '')}**", "",
                "| subset | n paired | A | B | diff (pt) | 95% CI (pt) | only A right | only B right | p | p (Holm) |",
                "|---|---|---|---|---|---|---|---|---|---|"]
        mac = pair.get("macro_average")
        if mac:
            out.append(f"| **macro average** | | {_pct(mac['a'])} | {_pct(mac['b'])} | {_pt(mac['diff'])} | "
                       f"{_pt(mac['ci95'][0])} to {_pt(mac['ci95'][1])} | | | {mac['p_value']:.4g} | "
                       f"{mac.get('p_holm', mac['p_value']):.4g} |")
        for name, s in pair["subsets"].items():
            out.append(f"| {name} | {s['n_paired']} | {_pct(s['a'])} | {_pct(s['b'])} | {_pt(s['diff'])} | "
                       f"{_pt(s['ci95'][0])} to {_pt(s['ci95'][1])} | {s['only_a']} | {s['only_b']} | "
                       f"{s['p_value']:.4g} | {s.get('p_holm', s['p_value']):.4g} |")
        out.append("")
    if cmp.get("ranking"):
        out += ["## Ranking (each report's own accuracy and 95% interval)", ""]
        for name, rows in cmp["ranking"].items():
            out += [f"### {name}", "", "| rank | model | accuracy | 95% CI |", "|---|---|---|---|"]
            for i, r in enumerate(rows, 1):
                ci = r.get("ci95")
                out.append(f"| {i} | {r['model']} | {_pct(r['accuracy'])} | "
                           + ("" if not ci else f"{_pct(ci[0])} – {_pct(ci[1])}") + " |")
            out.append("")
    return "\n".join(out) + "\n"


def main(args: argparse.Namespace) -> int:
    if len(args.reports) < 2:
        raise InputError("compare needs at least two reports")
    if args.resamples < 10:
        raise InputError("--resamples must be at least 10")
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise InputError("--out must be a folder, not a file", path=out)
    reports = [Report(r) for r in args.reports]
    cmp = build(reports, resamples=args.resamples, seed=args.seed)
    paths = {"json": out / "compare.json", "md": out / "compare.md", "html": out / "compare.html"}
    try:
        with AtomicFiles() as files:
            files.write_text(paths["json"], dumps_strict(cmp, indent=2, note_key="notes") + "\n")
            files.write_text(paths["md"], markdown(cmp))
            files.write_text(paths["html"], html_report.render_compare(cmp))
    except OSError as exc:
        raise output_error(exc, "comparison") from None
    if not args.quiet:
        print(markdown(cmp).split("\n## ", 1)[-1] if len(reports) == 2 else markdown(cmp))
    print(f"wrote {', '.join(str(p) for p in paths.values())}", file=sys.stderr)
    return 0
