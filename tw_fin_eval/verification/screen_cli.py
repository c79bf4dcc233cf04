"""`tw-fin-eval verify-screen`: the residual-class pre-screen over every FinQA-TW item and ConvFinQA-TW
turn (tw_fin_eval.verification.screen): counts per class and, with --list, every flagged unit. Reads the
built records (data/, as the model sees them) and the English sources."""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

from tw_fin_eval import paths
from tw_fin_eval.errors import InputError
from tw_fin_eval.jsonl import iter_jsonl
from tw_fin_eval.subsets import get_spec, load_subset
from tw_fin_eval.verification.locate_cli import common_options
from tw_fin_eval.verification.screen import CHECKS, CLASSES, REPORT_ONLY_CHECKS, screen, screen_units
from tw_fin_eval.verification.verdicts import VERIFIED_SUBSETS, load_verdicts


def configure(parser: argparse.ArgumentParser) -> None:
    common_options(parser)
    parser.add_argument("--all", action="store_true", help="screen every verified subset (ignores --subset)")
    parser.add_argument("--data", default=str(paths.DATA_DIR), help="built records (default: %(default)s)")
    parser.add_argument("--class", dest="classes", action="append", choices=sorted(CLASSES),
                        help="only this class (repeatable)")
    parser.add_argument("--check", dest="checks", action="append", choices=sorted(CHECKS),
                        help="only this named check (repeatable; report-only: " + ", ".join(sorted(REPORT_ONLY_CHECKS))
                        + ")")
    parser.add_argument("--list", action="store_true", help="print every flagged unit, not just the counts")


def main(args: argparse.Namespace) -> int:
    root = paths.sources_dir(args.sources)
    total: Counter = Counter()
    for subset in VERIFIED_SUBSETS if args.all else [args.subset]:
        data = Path(args.data) / get_spec(subset).data_file
        if not data.is_file():
            raise InputError("built records missing: run `python -m tw_fin_eval build` first", path=data)
        items = load_subset(subset, root)
        verdicts = load_verdicts(subset, items, Path(args.verification))
        records = [obj for _, obj in iter_jsonl(data)]
        units = list(screen_units(subset, items, records, verdicts))
        flags = [f for f in screen(units) if (not args.classes or f.cls in args.classes)
                 and (not args.checks or f.check in args.checks)]
        if args.list:
            for f in sorted(flags, key=lambda f: (f.cls, f.unit.record_id, f.unit.turn or 0)):
                print(f.line())
        counts = Counter(f.cls for f in flags)
        flagged_units = Counter(f.cls for f in {(f.cls, f.unit.label): f for f in flags}.values())
        print(f"{subset}: {len(units):,} units screened")
        for cls, what in CLASSES.items():
            if not args.classes or cls in args.classes:
                print(f"  {cls:<13} {flagged_units[cls]:>5} units ({counts[cls]} flags)  {what}")
        total.update(flagged_units)
    return 0
