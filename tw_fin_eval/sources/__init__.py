"""Source adapters: read ../shared/sources (read-only) into English items, one module per benchmark.

Each adapter exposes `load(root: Path) -> list[SourceItem]` in the benchmark's official order; a
translated subset's spec (tw_fin_eval/subsets/) names its adapter module."""

from __future__ import annotations

from tw_fin_eval.sources.base import SourceItem

__all__ = ["SourceItem"]
