"""Twin ids: `<original id>-twin-s<seed>` (standard library only; the scorer pairs units with it)."""

from __future__ import annotations

import re

TWIN_SUFFIX = "-twin-s"
DATASET_SUFFIX = "-twins"  # FinQA-TW → FinQA-TW-twins
_TWIN_ID = re.compile(r"^(?P<orig>.+)-twin-s(?P<seed>\d+)$")


def twin_id(original: str, seed: int) -> str:
    return f"{original}{TWIN_SUFFIX}{seed}"


def original_of(record_id: str) -> tuple[str, int] | None:
    """(original id, seed) of a twin id, None for any other id.

    >>> original_of("finqa_tw-test-0001-twin-s7"), original_of("finqa_tw-test-0001")
    (('finqa_tw-test-0001', 7), None)
    """
    m = _TWIN_ID.match(record_id or "")
    return (m.group("orig"), int(m.group("seed"))) if m else None
