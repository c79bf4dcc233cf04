"""Importing this package registers every topic module's templates. Topic modules are written by two
engineers in parallel, so a module that does not exist yet is skipped (only that exact module: any
other import error inside a topic module is a real bug and propagates)."""

from __future__ import annotations

import importlib

# One module per domain, in the order of core.DOMAINS.
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

LOADED: list[str] = []
MISSING: list[str] = []

for _name in TOPIC_MODULES:
    _full = f"{__name__}.{_name}"
    try:
        importlib.import_module(_full)
    except ModuleNotFoundError as exc:
        if exc.name != _full:
            raise
        MISSING.append(_name)
    else:
        LOADED.append(_name)
