"""`tw-fin-eval selfcheck`: score the gold answers as if a model had written them — offline, no model.

1. Every gold answer is written as a model output in one of several realistic formats (「答案：14.1%」,
   「答案：0.141」, 「答案：約 1.2 億元」, 「答案：NT$ 5,829.00」, 「(1,234)」, full-width digits,
   「**答案**：」 on its own line, a `<think>` block holding decoy numbers, 「答案：\\boxed{}」,
   a unit word that restates the table's scale 「94 百萬美元」, 是/否, option letters …). The format is
   chosen from a hash of the item id, so the run is deterministic. FinChain outputs carry the gold
   solution text, so step_recall is exercised too. Rule-scored subsets must come out at 100%.
2. A seeded 10% of the rule-scored items are corrupted the way models get answers wrong: ×1.1, the
   leading significant digit +1, ×10 (a wrong answer that still contains the right digits), a flipped
   sign, yes↔no, another label of the same template (a gold of 0 always gets the leading-digit change:
   0 × 1.1 is still 0). The scorer must reject them; the few corrupted
   items still judged right are the ones the tolerance legitimately accepts (e.g. a gold of 0 stays 0
   under ×1.1 and sign flips; a flipped sign where the question names the decrease or asks an undirected
   difference, 「差額是多少」), which is the "about 1%" of the spec.
3. The other reading of the spec's sentence (「把答案改錯 10%」 = every answer 10% off): every numeric
   answer written ×1.1; the share still judged right is printed per subset (about 1% expected).
Exit status 0 when every rule-scored subset scores 100% on the gold answers, 1 otherwise.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tw_fin_eval import paths
from tw_fin_eval.errors import InputError
from tw_fin_eval.reports import outputs, summary
from tw_fin_eval.schema import DEFAULT_TOLERANCE
from tw_fin_eval.scoring import engine, samples, scorers


def gold_output(record: dict[str, Any], turn: int | None) -> str:
    """The gold answer of one item written as a model output (the scorer's writer)."""
    return scorers.SCORERS[record["task_type"]].gold_output(record, turn)


def corrupt_output(record: dict[str, Any], turn: int | None, labels: Sequence[str] = ()) -> tuple[str, str]:
    """(kind, output) — a wrong answer of the kinds models produce."""
    return scorers.SCORERS[record["task_type"]].corrupt_output(record, turn, labels)


def _runs_index(outputs: dict[engine.Key, str]) -> engine.RunsIndex:
    idx = engine.RunsIndex()
    for k, v in outputs.items():
        idx.success[k] = v
        idx.success_count[k] = 1
    idx.models.add("gold")
    return idx


def build_outputs(records: Sequence[dict[str, Any]]) -> dict[engine.Key, str]:
    out: dict[engine.Key, str] = {}
    for rec in records:
        for unit in scorers.SCORERS[rec["task_type"]].units(rec):
            out[(rec["id"], unit)] = gold_output(rec, unit)
    return out


def corrupt(records: Sequence[dict[str, Any]], outputs: dict[engine.Key, str], *, share: float,
            seed: int) -> dict[engine.Key, tuple[str, str]]:
    """Seeded choice of `share` of the rule-scored units of each dataset → (kind, wrong output)."""
    labels: dict[str, set[str]] = defaultdict(set)
    for r in records:
        if r.get("answer_type") == "categorical":
            labels[r.get("template_id") or ""].add(r["answer_text"])
    by_ds: dict[str, list[tuple[dict[str, Any], int | None]]] = defaultdict(list)
    for rec in records:
        if scorers.SCORERS[rec["task_type"]].rule_scored:
            for unit in scorers.SCORERS[rec["task_type"]].units(rec):
                by_ds[rec.get("dataset") or "?"].append((rec, unit))
    rng = random.Random(seed)
    chosen: dict[engine.Key, tuple[str, str]] = {}
    for ds in sorted(by_ds):
        units = by_ds[ds]
        k = round(share * len(units))
        for rec, unit in rng.sample(units, k):
            chosen[(rec["id"], unit)] = corrupt_output(rec, unit, sorted(labels.get(rec.get("template_id") or "", ())))
    return chosen


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data", nargs="+", default=None, help="record files (default: data/*.jsonl)")
    parser.add_argument("--samples", action="store_true", help="use the built-in synthetic records instead of data/")
    parser.add_argument("--corrupt", type=float, default=0.10, help="share of items to corrupt (default 0.10)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the corruption choice (default 0)")
    parser.add_argument("--out", default=None, help="also write the gold run's results/summary/report here")


def load(args: argparse.Namespace) -> tuple[list[dict[str, Any]], list[str]]:
    if args.samples:
        return samples.sample_records(), ["<built-in samples>"]
    if args.data:
        from tw_fin_eval.scoring.cli import expand

        files = expand(args.data)
    else:
        files = sorted(str(p) for p in paths.DATA_DIR.glob("*.jsonl"))
        if not files:
            raise InputError("no data/*.jsonl yet — run `tw-fin-eval build` first, or use --samples",
                             path=paths.DATA_DIR)
    return engine.load_records(files, engine.Issues()), files


def run_selfcheck(records: Sequence[dict[str, Any]], *, share: float = 0.10, seed: int = 0) -> dict[str, Any]:
    outputs = build_outputs(records)
    gold = engine.score(records, _runs_index(outputs), progress=False)
    chosen = corrupt(records, outputs, share=share, seed=seed)
    bad_outputs = dict(outputs)
    bad_outputs.update({k: v[1] for k, v in chosen.items()})
    bad = engine.score(records, _runs_index(bad_outputs), progress=False)
    off = off_by_ten_percent(records)
    off_scored = engine.score(records, _runs_index({**outputs, **off}), progress=False)
    return {"gold": gold, "corrupted": bad, "chosen": chosen, "off10": off_scored, "off10_keys": set(off)}


def off_by_ten_percent(records: Sequence[dict[str, Any]]) -> dict[engine.Key, str]:
    """The other reading of the spec's check (「把答案改錯 10%」): EVERY numeric answer written 10% too high.
    Only answers the tolerance legitimately accepts survive (zeros, values within 0.005 of the gold)."""
    out: dict[engine.Key, str] = {}
    for rec in records:
        scorer = scorers.SCORERS[rec["task_type"]]
        for unit in scorer.units(rec):
            if (text := scorer.off_by_ten_output(rec, unit)) is not None:
                out[(rec["id"], unit)] = text
    return out


def main(args: argparse.Namespace) -> int:
    start = time.monotonic()
    if not 0.0 <= args.corrupt <= 1.0:
        raise InputError("--corrupt must be between 0 and 1")
    records, files = load(args)
    res = run_selfcheck(records, share=args.corrupt, seed=args.seed)
    gold, bad, chosen = res["gold"], res["corrupted"], res["chosen"]
    print(f"selfcheck: {len(records)} records from {', '.join(files)}")
    print("\n== gold answers as model outputs ==")
    rows = [r for r in summary.summary_rows(gold.items) if r["dimension"] == "dataset"]
    summary.print_table(rows, ["group", "items", "decided", "accuracy", "strict_accuracy", "pending",
                              "bare_numeral_decided", "mean_step_recall", "conversation_accuracy"])
    failures = [it for it in gold.items if scorers.SCORERS[it.task_type].rule_scored and it.status == scorers.SCORED and not it.correct]
    print(f"\n== {100 * args.corrupt:.0f}% corrupted (seed {args.seed}) ==")
    by_ds: dict[str, list[scorers.ItemResult]] = defaultdict(list)
    for it in bad.items:
        by_ds[it.dataset or "?"].append(it)
    print(f"{'dataset':<16} {'accuracy':>9} {'corrupted':>9} {'still judged right':>19}")
    for ds, its in sorted(by_ds.items()):
        decided = [it for it in its if it.status == scorers.SCORED]
        if not decided or not scorers.SCORERS[its[0].task_type].rule_scored:
            continue
        acc = sum(1 for it in decided if it.correct) / len(decided)
        hit = [it for it in its if (it.id, it.turn) in chosen]
        right = [it for it in hit if it.correct]
        share = f"{len(right)} ({100 * len(right) / len(hit):.1f}%)" if hit else "-"
        print(f"{ds:<16} {100 * acc:>8.1f}% {len(hit):>9} {share:>19}")
    print("\n== every numeric answer 10% too high (×1.1) ==")
    print(f"{'dataset':<16} {'numeric items':>13} {'still judged right':>19}")
    by_ds = defaultdict(list)
    for it in res["off10"].items:
        if (it.id, it.turn) in res["off10_keys"]:
            by_ds[it.dataset or "?"].append(it)
    for ds, its in sorted(by_ds.items()):
        right = sum(1 for it in its if it.correct)
        print(f"{ds:<16} {len(its):>13} {f'{right} ({100 * right / len(its):.1f}%)':>19}")
    kinds: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    index = {(it.id, it.turn): it for it in bad.items}
    for key, (kind, _) in chosen.items():
        kinds[kind][0] += 1
        kinds[kind][1] += bool(index[key].correct)
    print("corruption kinds (n / still judged right): "
          + ", ".join(f"{k} {n}/{r}" for k, (n, r) in sorted(kinds.items())))
    if args.out:
        outputs.write_outputs(args.out, gold, inputs={"data": files, "runs": ["<gold answers>"], "rel_tol": DEFAULT_TOLERANCE.rel,
                                                     "abs_tol": DEFAULT_TOLERANCE.abs})
        print(f"gold-run report written to {Path(args.out) / 'report.md'}")
    print(f"\n({len(gold.items) + len(bad.items) + len(res['off10'].items)} items scored in {time.monotonic() - start:.2f}s)")
    if failures:
        print(f"\nFAIL: {len(failures)} gold answers judged wrong, e.g.:", file=sys.stderr)
        for it in failures[:20]:
            print(f"  {it.id} turn={it.turn} extracted={it.extracted!r} mode={it.mode}", file=sys.stderr)
        return 1
    print("OK: every rule-scored subset scores 100% on its gold answers")
    return 0
