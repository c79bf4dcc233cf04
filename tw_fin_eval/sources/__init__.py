"""Source adapters: read ../shared/sources (read-only) into English items, one module per benchmark.

Each adapter exposes `load(root: Path) -> list[SourceItem]` in the benchmark's official order and is
listed in `ADAPTERS` (subset key → module)."""

from __future__ import annotations

import importlib
from pathlib import Path

from tw_fin_eval.sources.base import SourceItem, Subset

SUBSETS: dict[str, Subset] = {
    "finqa": Subset("finqa", "FinQA-TW", "tw_fin_eval.sources.finqa", "finqa_tw_test.jsonl"),
    "convfinqa": Subset("convfinqa", "ConvFinQA-TW", "tw_fin_eval.sources.convfinqa", "convfinqa_tw_dev.jsonl"),
    "financeagent": Subset("financeagent", "FinanceAgent-TW", "tw_fin_eval.sources.financeagent", "financeagent_tw.jsonl"),
}


def load_subset(subset: str, root: Path) -> list[SourceItem]:
    if subset not in SUBSETS:
        raise KeyError(f"unknown subset {subset!r}; known: {', '.join(SUBSETS)}")
    return importlib.import_module(SUBSETS[subset].module).load(root)


__all__ = ["SUBSETS", "SourceItem", "Subset", "load_subset"]
