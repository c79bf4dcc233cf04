"""The English item every adapter produces, and helpers shared by the adapters."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tw_fin_eval.errors import InputError, not_a_file


@dataclass
class Evidence:
    key: str  # "text_N" (N-th sentence of pre_text + post_text) or "table_N" (row N of the table)
    text: str  # the English sentence (table rows: FinQA's generated sentence)

    @property
    def is_table(self) -> bool:
        return self.key.startswith("table_")

    @property
    def row(self) -> int:
        return int(self.key.split("_", 1)[1])


@dataclass
class SourceItem:
    """One English item: the fields a translation overlay must cover plus everything else the zh-TW
    record needs (answers, programs, provenance)."""

    subset: str
    source_id: str
    index: int  # 1-based position in the official order
    question: str = ""
    table: list[list[str]] | None = None
    evidence: list[Evidence] = field(default_factory=list)
    setting: str | None = None
    fields: dict[str, Any] = field(default_factory=dict)  # subset-specific (answers, turns, rubric, …)

    @property
    def text_evidence(self) -> list[Evidence]:
        return [e for e in self.evidence if not e.is_table]


def read_json(path: Path) -> Any:
    try:
        with path.open(encoding="utf-8") as fh:
            return json.load(fh)
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        raise not_a_file(path, "source file missing", "source file") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"source file is not valid JSON ({exc.msg})", path=path, line=exc.lineno) from None


_NUM = re.compile(r"(?<![\w.])-?\$?\s?\(?\d[\d,]*(?:\.\d+)?")


def numbers_in(text: str) -> list[float]:
    """Every number written in a FinQA cell or sentence ("$ 5,735", "-32 ( 32 )", "4.1%")."""
    out = []
    for m in _NUM.finditer(text):
        tok = m.group(0).replace("$", "").replace("(", "").replace(",", "").replace(" ", "")
        try:
            out.append(float(tok))
        except ValueError:
            continue
    return out


def table_row_sentence(table: list[list[str]], row: int) -> str:
    """FinQA's English rendering of a table row ("the 2014 net revenue of amount ( in millions ) is $ 5735 ;")."""
    header = table[0] if table else []
    cells = table[row]
    parts = []
    for c in range(1, len(cells)):
        col = header[c] if c < len(header) else ""
        parts.append(f"the {cells[0]} of {col} is {cells[c]} ;")
    return " ".join(parts)
