"""`tw-fin-eval finchain-private --seeds 1000-1009 --out DIR`: FinChain-TW at seeds you choose, for a private set.

    tw-fin-eval finchain-private --seeds 731000-731009 --out private/            # 10 seeds × 290 templates
    tw-fin-eval finchain-private --seeds 424242,90001-90004 --topics bond_pricing --out private/

Writes DIR/finchain_private.jsonl: the same templates as the release, run at your seeds (ids carry the seed,
「finchain_tw-bond_pricing_basic1-s731000」; `seed` and `template_id` are fields). `dataset` is
`FinChain-TW-private`, so a run that includes the release too reports the two apart, and `score` pairs them
by template in the memorisation gap (twins.gap). Seeds 0–9 are the public release and are refused: a private
set is only private while its seeds are. Same seeds → byte-identical file.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter

from tw_fin_eval.errors import InputError
from tw_fin_eval.jsonl import atomic_writer, dumps, output_error

DATASET = "FinChain-TW-private"
RELEASE_SEEDS = range(10)
MAX_SEEDS = 10_000


def parse_seeds(text: str) -> list[int]:
    """「1000-1009,31337」 → [1000, …, 1009, 31337] (sorted, unique); InputError on anything else."""
    seeds: set[int] = set()
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        try:
            if "-" in part:
                a, b = (int(x) for x in part.split("-", 1))
            else:
                a = b = int(part)
        except ValueError:
            raise InputError(f"--seeds: {part!r} is not a seed or a range like 1000-1009") from None
        if a < 0 or b < a:
            raise InputError(f"--seeds: {part!r} is not a range of seeds ≥ 0")
        if b - a + 1 + len(seeds) > MAX_SEEDS:
            raise InputError(f"--seeds: more than {MAX_SEEDS:,} seeds")
        seeds.update(range(a, b + 1))
    if not seeds:
        raise InputError("--seeds: no seed given")
    public = sorted(s for s in seeds if s in RELEASE_SEEDS)
    if public:
        raise InputError(f"--seeds: seeds {', '.join(map(str, public))} are the public release (0–9); choose others")
    return sorted(seeds)


def _runs(seeds: list[int]) -> list[tuple[int, int]]:
    """Contiguous runs (start, count) of sorted seeds."""
    out: list[list[int]] = []
    for s in seeds:
        if out and s == out[-1][0] + out[-1][1]:
            out[-1][1] += 1
        else:
            out.append([s, 1])
    return [(a, n) for a, n in out]


def generate(seeds: list[int], topics: list[str] | None = None) -> list[dict]:
    """Records in release template order, then seed order; `dataset` marks them private."""
    from finchain_tw_templates.generate import SelectionError, generate_records

    by_template: dict[str, list[dict]] = {}
    try:
        for start, count in _runs(seeds):
            for rec in generate_records(count, topics, None, start):
                by_template.setdefault(rec["template_id"], []).append(rec)
    except SelectionError as exc:
        raise InputError(str(exc)) from None
    out = []
    for recs in by_template.values():
        for rec in sorted(recs, key=lambda r: r["seed"]):
            rec["dataset"] = DATASET
            out.append(rec)
    return out


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seeds", required=True, help="seeds and ranges, e.g. 731000-731009,424242 (not 0–9)")
    parser.add_argument("--out", required=True, help="output folder (finchain_private.jsonl is written there)")
    parser.add_argument("--topics", default=None, help="comma-separated topic or domain keys (default: all)")


def main(args: argparse.Namespace) -> int:
    from pathlib import Path

    seeds = parse_seeds(args.seeds)
    topics = [t.strip() for t in args.topics.split(",") if t.strip()] if args.topics else None
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise InputError("--out must be a folder, not a file", path=out)
    records = generate(seeds, topics)
    target = out / "finchain_private.jsonl"
    try:
        with atomic_writer(target) as fh:
            for rec in records:
                fh.write(dumps(rec) + "\n")
    except OSError as exc:
        raise output_error(exc, "FinChain private set") from None
    diff = Counter(r["difficulty"] for r in records)
    print(f"finchain-private: {len(records):,} items ({len({r['template_id'] for r in records})} templates × "
          f"{len(seeds)} seeds; {', '.join(f'{d} {n}' for d, n in diff.items())}) → {target}")
    return 0


if __name__ == "__main__":
    from tw_fin_eval.cli import main as cli_main

    sys.exit(cli_main(["finchain-private", *sys.argv[1:]]))
