"""Source adapters: read ../shared/sources (read-only) into English items, one module per benchmark.

Each adapter exposes `load(root: Path) -> list[SourceItem]` in the benchmark's official order; a
translated subset's spec (tw_fin_eval/subsets/) names its adapter module."""

from __future__ import annotations

from pathlib import Path

from tw_fin_eval.sources.base import SourceItem


def load_subset(subset: str, root: Path) -> list[SourceItem]:
    """The English items of a translated subset (KeyError for an unknown subset name)."""
    from tw_fin_eval.subsets import get_spec

    return get_spec(subset).load_source(root)


__all__ = ["SourceItem", "load_subset"]
