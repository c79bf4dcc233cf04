"""The subset registry: every subset's `SubsetSpec`, in config order (the order of the card, the release,
the builder script). To add a subset, write its spec module beside these and list it here —
docs/ARCHITECTURE.md walks through it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tw_fin_eval.overlay import OverlaySpec
from tw_fin_eval.sources.base import SourceItem
from tw_fin_eval.subsets import convfinqa, financeagent, finchain, finllm450, finqa, finsearchcomp
from tw_fin_eval.subsets.spec import (
    CONVERTED,
    GENERATED,
    ORIGINAL,
    TRANSLATED,
    CardSpec,
    SubsetSpec,
)

SUBSETS: dict[str, SubsetSpec] = {
    spec.name: spec
    for spec in (finqa.SPEC, convfinqa.SPEC, finchain.SPEC, financeagent.SPEC, finllm450.SPEC, finsearchcomp.SPEC)
}
DEFAULT_SUBSET = finqa.SPEC.name  # the default config of the builder script and the card


def get_spec(name: str) -> SubsetSpec:
    try:
        return SUBSETS[name]
    except KeyError:
        raise KeyError(f"unknown subset {name!r}; known: {', '.join(SUBSETS)}") from None


def load_subset(name: str, root: Path) -> list[SourceItem]:
    """The English items of a translated subset (KeyError for an unknown subset name)."""
    return get_spec(name).load_source(root)


def features_for(config: str) -> Any:
    """The declared `datasets.Features` of a subset (its spec's `features()`; imports `datasets`)."""
    return get_spec(config).datasets_features()


def by_dataset(dataset: object) -> SubsetSpec | None:
    """The spec whose records carry this `dataset` label (None for an unknown label)."""
    return next((s for s in SUBSETS.values() if s.dataset == dataset), None)


def reference_text_task_types() -> frozenset[str]:
    """Task types whose gold `answer` is a translated reference text (`reference_text_gold`): check-zh reads it
    as zh-TW prose, the review sheet points to it instead of quoting it."""
    return frozenset(t for s in SUBSETS.values() if s.reference_text_gold for t in s.task_types)


def translated() -> list[SubsetSpec]:
    """Subsets built from English sources and zh-TW overlays (build --subset, translation-todo, check-zh)."""
    return [s for s in SUBSETS.values() if s.kind == TRANSLATED]


def built() -> list[SubsetSpec]:
    """What a full `tw-fin-eval build` writes, in build order: the translated subsets, then the others."""
    return translated() + [s for s in SUBSETS.values() if s.kind in (GENERATED, ORIGINAL)]


def released() -> list[SubsetSpec]:
    return [s for s in SUBSETS.values() if s.in_release]


def group_sort_key(dataset: str | None, dimension: str) -> Callable[[str], tuple[int, str]]:
    """Sort key of a breakdown's group values: the order the subset declares (`SubsetSpec.group_order`, e.g.
    FinChain difficulty 基礎 → 中級 → 進階), then the undeclared values alphabetically. `dataset` is the dataset
    label (FinChain-TW) or the config name (finchain)."""
    order: tuple[str, ...] = ()
    for spec in SUBSETS.values():
        if dataset in (spec.dataset, spec.name):
            order = dict(spec.group_order).get(dimension, ())
            break
    rank = {v: i for i, v in enumerate(order)}
    return lambda value: (rank.get(value, len(order)), value)


def reviewed() -> list[SubsetSpec]:
    """Subsets the human review sheet samples, in sheet order."""
    return [s for s in SUBSETS.values() if s.review_stratum is not None]


__all__ = ["CONVERTED", "DEFAULT_SUBSET", "GENERATED", "ORIGINAL", "SUBSETS", "TRANSLATED", "CardSpec",
           "OverlaySpec", "SubsetSpec", "built", "by_dataset", "features_for", "get_spec", "load_subset", "released", "reviewed", "translated"]
