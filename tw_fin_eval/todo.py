"""`tw-fin-eval translation-todo`: the English an overlay batch must translate, in the overlay's own
shape (docs/FORMATS.md §2), so a translator replaces each English value with zh-TW and keeps the keys.

Table cells without Latin letters are shown as they are and must stay as they are."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Any

from tw_fin_eval import paths
from tw_fin_eval import subsets as registry
from tw_fin_eval.errors import InputError
from tw_fin_eval.jsonl import dumps
from tw_fin_eval.overlay import load_overlays
from tw_fin_eval.sources.base import SourceItem
from tw_fin_eval.subsets import load_subset


def english_overlay(item: SourceItem) -> dict[str, Any]:
    """The English of one item in its overlay's shape (the subset's OverlaySpec.english), keyed by id."""
    return {"id": item.source_id, **registry.get_spec(item.subset).overlay.english(item)}


def parse_range(text: str) -> tuple[int, int]:
    m = re.fullmatch(r"(\d+)(?:-(\d+))?", text.strip())
    if not m:
        raise InputError(f"--range must look like 51-150, got {text!r}")
    lo = int(m.group(1))
    hi = int(m.group(2) or lo)
    if hi < lo:
        raise InputError(f"--range {text!r} is empty")
    return lo, hi


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--subset", required=True, choices=[s.name for s in registry.translated()])
    parser.add_argument("--range", default=None, help="1-based item positions in the official order, e.g. 51-150")
    parser.add_argument("--missing", action="store_true", help="only items without an overlay yet")
    parser.add_argument("--sources", help="English source folder")
    parser.add_argument("--out", help="write here instead of stdout")


def main(args: argparse.Namespace) -> int:
    items = load_subset(args.subset, paths.sources_dir(args.sources))
    if args.range:
        lo, hi = parse_range(args.range)
        items = [it for it in items if lo <= it.index <= hi]
    items = [it for it in items if not it.fields.get("ungrounded")]
    if args.missing:
        done = load_overlays(registry.get_spec(args.subset), load_subset(args.subset, paths.sources_dir(args.sources)),
                             paths.TRANSLATIONS_DIR)
        items = [it for it in items if it.source_id not in done]
    lines = [dumps(english_overlay(it)) for it in items]
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        print(f"{len(lines)} items → {args.out}", file=sys.stderr)
    else:
        sys.stdout.write("".join(line + "\n" for line in lines))
    return 0
