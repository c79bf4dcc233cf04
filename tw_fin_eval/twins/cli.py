"""`tw-fin-eval twins --config finqa|convfinqa --seed N --out DIR`: write DIR/<config>_twins.jsonl, the
contamination-resistant twins of the built records (docs/TWINS.md), and print the coverage.

    tw-fin-eval twins --config finqa --config convfinqa --seed 12345 --out private_twins/

Twins are made from data/ as it stands when the command runs (gold fixes landed later flow in on the next
run). Keep the seed private: anyone with the seed and the data can rebuild the same twins. Every twin passes
the checks of tw_fin_eval/twins/checks.py; a unit that cannot be twinned safely is skipped and counted by
reason. DIR/<config>_twins_coverage.json holds the same counts.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from tw_fin_eval import paths
from tw_fin_eval.errors import InputError
from tw_fin_eval.jsonl import atomic_writer, dumps, iter_jsonl, output_error
from tw_fin_eval.subsets import SUBSETS, get_spec
from tw_fin_eval.twins.build import GOLD_STATUSES, Skip, twin

# twins recompute the gold from its program: the subsets whose golds are programs read and checked
CONFIGS = tuple(s.name for s in SUBSETS.values() if s.gold_verification)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", action="append", choices=CONFIGS, required=True,
                        help="finqa and/or convfinqa (repeatable)")
    parser.add_argument("--seed", type=int, required=True,
                        help="the twins' seed (any integer ≥ 0; keep it private: it rebuilds the same twins)")
    parser.add_argument("--out", required=True, help="output folder (<config>_twins.jsonl is written there)")
    parser.add_argument("--data", default=None,
                        help="the built records of the one --config (default: data/<its data file>)")
    parser.add_argument("--quiet", action="store_true", help="print only the summary lines")


def scored_units(record: dict[str, Any]) -> int:
    """Units whose gold counts (verified or fixed): FinQA 0/1, ConvFinQA its counting turns."""
    if record.get("turns"):
        return sum(1 for t in record["turns"] if t.get("gold_status") in GOLD_STATUSES)
    return int(record.get("gold_status") in GOLD_STATUSES)


def make_twins(records: list[dict[str, Any]], seed: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """(twins, coverage) of one config's records."""
    twins: list[dict[str, Any]] = []
    skipped: Counter[str] = Counter()
    skipped_units: Counter[str] = Counter()
    examples: dict[str, list[str]] = {}
    units = twinned_units = 0
    for rec in records:
        n = scored_units(rec)
        units += n
        try:
            t = twin(rec, seed)
        except Skip as exc:
            skipped[exc.reason] += 1
            skipped_units[exc.reason] += n
            examples.setdefault(exc.reason, [])
            if len(examples[exc.reason]) < 5:
                examples[exc.reason].append(f"{rec['id']}" + (f" ({exc.detail})" if exc.detail else ""))
            continue
        twins.append(t)
        twinned_units += n
    coverage = {
        "seed": seed, "records": len(records), "twinned_records": len(twins),
        "scored_units": units, "twinned_units": twinned_units,
        "share": twinned_units / units if units else None,
        "skipped": [{"reason": r, "records": c, "units": skipped_units[r], "examples": examples[r]}
                    for r, c in skipped.most_common()],
    }
    return twins, coverage


def _data_path(config: str, override: str | None) -> Path:
    if override:
        return Path(override)
    return paths.DATA_DIR / get_spec(config).data_file


def main(args: argparse.Namespace) -> int:
    if args.seed < 0:
        raise InputError("--seed must be ≥ 0")
    configs = list(dict.fromkeys(args.config))
    if args.data and len(configs) > 1:
        raise InputError("--data names the records of one --config")
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise InputError("--out must be a folder, not a file", path=out)
    results = []
    for config in configs:
        path = _data_path(config, args.data)
        records = [rec for _, rec in iter_jsonl(path)]
        spec = get_spec(config)
        bad = [r.get("id") for r in records
               if r.get("task_type") not in spec.task_types or spec.conversational != bool(r.get("turns"))]
        if bad:
            raise InputError(f"not {config} records (e.g. {bad[0]!r}): pass the built {config} data file",
                             path=path)
        twins, coverage = make_twins(records, args.seed)
        results.append((config, path, twins, coverage))
    try:
        for config, path, twins, coverage in results:
            target = out / f"{config}_twins.jsonl"
            with atomic_writer(target) as fh:
                for t in twins:
                    fh.write(dumps(t) + "\n")
            coverage = dict(coverage, config=config, data=str(path), out=str(target))
            with atomic_writer(out / f"{config}_twins_coverage.json") as fh:
                fh.write(json.dumps(coverage, ensure_ascii=False, indent=2) + "\n")
            print_coverage(coverage, quiet=args.quiet)
    except OSError as exc:
        raise output_error(exc, "twins") from None
    return 0


def print_coverage(cov: dict[str, Any], *, quiet: bool = False, out=print) -> None:
    share = f"{cov['share']:.1%}" if cov["share"] is not None else "—"
    out(f"{cov['config']}: {cov['twinned_records']:,}/{cov['records']:,} records twinned; "
        f"{cov['twinned_units']:,}/{cov['scored_units']:,} verified/fixed units ({share}) → {cov['out']}")
    if quiet:
        return
    for s in cov["skipped"]:
        out(f"  skipped {s['records']:>4} records ({s['units']:>4} units): {s['reason']}"
            f"  e.g. {', '.join(s['examples'][:2])}")


if __name__ == "__main__":
    from tw_fin_eval.cli import main as cli_main

    sys.exit(cli_main(["twins", *sys.argv[1:]]))
