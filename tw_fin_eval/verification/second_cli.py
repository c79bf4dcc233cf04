"""`tw-fin-eval verify-second`: compare a blind second reader's verdict lines with the first reads (the
disagreement rate, every disagreement) and, with --write, fold them into the verdict files as `second_read`."""

from __future__ import annotations

import argparse
from pathlib import Path

from tw_fin_eval import paths
from tw_fin_eval.subsets import load_subset
from tw_fin_eval.verification.second import compare, fold, summary
from tw_fin_eval.verification.verdicts import VERIFIED_SUBSETS


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("reads", nargs="+", help="second-read file(s) in the verdict-line format")
    parser.add_argument("--sources", help=f"English source folder (default: ${paths.SOURCES_ENV} or ../shared/sources)")
    parser.add_argument("--verification", default=str(paths.VERIFICATION_DIR),
                        help="verdict folder with the first reads (default: %(default)s)")
    parser.add_argument("--write", action="store_true",
                        help="fold the reads into the verdict files as second_read (top-level verdicts unchanged)")
    parser.add_argument("--replace", action="store_true", help="with --write: overwrite a different second_read")


def main(args: argparse.Namespace) -> int:
    root = paths.sources_dir(args.sources)
    items = {s: load_subset(s, root) for s in VERIFIED_SUBSETS}
    comparisons = compare(items, Path(args.verification), [Path(p) for p in args.reads])
    print("\n".join(summary(comparisons)))
    if args.write:
        n = fold(comparisons, Path(args.verification), replace=args.replace)
        print(f"wrote second_read into {n} verdict line(s) under {args.verification}")
    return 0
