"""Alias kept for code written before the subset registry (tw_fin_eval.subsets): CONFIGS is the registry,
a ConfigInfo is a SubsetSpec. New code imports tw_fin_eval.subsets."""

from __future__ import annotations

from tw_fin_eval.subsets import SUBSETS as CONFIGS
from tw_fin_eval.subsets import released
from tw_fin_eval.subsets.spec import SubsetSpec as ConfigInfo

RELEASE_CONFIGS = released()

__all__ = ["CONFIGS", "RELEASE_CONFIGS", "ConfigInfo"]
