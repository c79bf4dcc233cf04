"""`tw-fin-eval verify-locate`: print items / conversations with every program operand located in the
table or text, next to the English and zh-TW question and the gold (docs/VERIFICATION.md)."""

from __future__ import annotations

import argparse
from pathlib import Path

from tw_fin_eval import paths
from tw_fin_eval.errors import InputError
from tw_fin_eval.overlay import load_overlays
from tw_fin_eval.subsets import get_spec, load_subset
from tw_fin_eval.verification.locate import convfinqa_view, finqa_view, iter_selected, parse_range
from tw_fin_eval.verification.verdicts import VERIFIED_SUBSETS, load_verdicts


def common_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--subset", choices=VERIFIED_SUBSETS, default=VERIFIED_SUBSETS[0], help="(default: %(default)s)")
    parser.add_argument("--sources", help=f"English source folder (default: ${paths.SOURCES_ENV} or ../shared/sources)")
    parser.add_argument("--verification", default=str(paths.VERIFICATION_DIR),
                        help="verdict folder (default: %(default)s)")


def configure(parser: argparse.ArgumentParser) -> None:
    common_options(parser)
    parser.add_argument("--range", required=True, metavar="A-B",
                        help="1-based item (FinQA) or conversation (ConvFinQA) positions, e.g. 1-25")
    parser.add_argument("--translations", default=str(paths.TRANSLATIONS_DIR),
                        help="zh-TW overlay folder (default: %(default)s)")
    parser.add_argument("--full", action="store_true", help="also print the whole table and page text")


def main(args: argparse.Namespace) -> int:
    items = load_subset(args.subset, paths.sources_dir(args.sources))
    try:
        positions = parse_range(args.range, len(items))
    except ValueError as exc:
        raise InputError(str(exc), field="--range") from None
    overlays = load_overlays(get_spec(args.subset), items, Path(args.translations))
    verdicts = load_verdicts(args.subset, items, Path(args.verification))
    for item in iter_selected(items, positions):
        rid = get_spec(args.subset).record_id(item.index)
        ov = overlays.get(item.source_id)
        if not get_spec(args.subset).conversational:
            v = verdicts.get((rid, None))
            lines = finqa_view(item, rid, ov.data["question"] if ov else None,
                               f"{v.status} {v.reason or ''}".strip() if v else None, args.full)
        else:
            marks = {k: f"{v.status} {v.reason or ''}".strip() for (i, k), v in verdicts.items() if i == rid}
            lines = convfinqa_view(item, rid, ov.data["turns"] if ov else None, marks, args.full)  # type: ignore[arg-type]
        print("\n".join(lines))
    return 0


