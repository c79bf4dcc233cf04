"""`tw-fin-eval verify-check`: validate the verdict files (file:line:id on any problem, exit 2) and print
the counts per status and reason, and the second-read disagreement rate."""

from __future__ import annotations

import argparse
from pathlib import Path

from tw_fin_eval import paths
from tw_fin_eval.sources import load_subset
from tw_fin_eval.verification.locate_cli import common_options
from tw_fin_eval.verification.verdicts import STATUSES, VERIFIED_SUBSETS, coverage, load_verdicts


def configure(parser: argparse.ArgumentParser) -> None:
    common_options(parser)
    parser.add_argument("--all", action="store_true", help="check every verified subset (ignores --subset)")


def main(args: argparse.Namespace) -> int:
    root = paths.sources_dir(args.sources)
    for subset in VERIFIED_SUBSETS if args.all else [args.subset]:
        items = load_subset(subset, root)
        verdicts = load_verdicts(subset, items, Path(args.verification))
        cov = coverage(subset, items, verdicts)
        print(f"{subset}: {cov.line()}")
        for status in STATUSES[1:]:
            for (s, reason), n in sorted(cov.reasons.items()):
                if s == status:
                    print(f"  {status:<13} {reason:<24} {n:>5}")
        seconds = [v for v in verdicts.values() if v.second_read]
        if seconds:
            disagree = sum(1 for v in seconds if not v.second_read["agree"])  # type: ignore[index]
            print(f"  second reads {len(seconds)}, disagreements {disagree} ({disagree / len(seconds):.1%})")
    return 0
