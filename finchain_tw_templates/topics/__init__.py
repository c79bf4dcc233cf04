"""Importing this package registers every topic module's templates (one module per domain, in the order
of core.DOMAINS)."""

from __future__ import annotations

import importlib

TOPIC_MODULES: tuple[str, ...] = (
    "accounting",
    "corporate_finance",
    "crypto",
    "regulation",
    "markets",
    "ratios",
    "fintech",
    "investment",
    "mergers_acquisitions",
    "personal_finance",
    "risk_management",
    "sustainable_finance",
)

for _name in TOPIC_MODULES:
    importlib.import_module(f"{__name__}.{_name}")

LOADED: tuple[str, ...] = TOPIC_MODULES  # every topic module is imported; a missing one is an ImportError
