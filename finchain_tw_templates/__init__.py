"""FinChain-TW: zh-TW parameterised financial-calculation templates (our own rewrite of the FinChain
taxonomy, arXiv 2506.02515) and the generator of the FinChain-TW records.

    python finchain_tw_templates/generate.py --seeds 10 --out data/finchain_tw.jsonl

Layout: `core` (Problem, Step, TemplateSpec, DOMAINS, REGISTRY, @template), `common` (names, formatting,
input pickers, the Chain solution builder), `topics/` (one module per domain; importing
`finchain_tw_templates.topics` registers every template), `generate` (records, coverage, CLI).
See NOTES.md for conventions and exceptions. Standard library only, except that building records
imports `tw_fin_eval.prompts` for the ready-built messages.
"""

from __future__ import annotations

from typing import Any

__all__ = ["generate_records"]


def generate_records(seeds: int = 10, **kwargs: Any) -> list[dict[str, Any]]:
    """All FinChain-TW records in release order (see generate.generate_records for the options)."""
    from finchain_tw_templates.generate import generate_records as _generate

    return _generate(seeds, **kwargs)
