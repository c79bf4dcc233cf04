"""Reading a judge's reply: every JSON object in it, tolerant of code fences, analysis text before the
JSON, Chinese punctuation (「：」「，」“ ”｛｝), single quotes, Python booleans and trailing commas; when
several objects appear (judges repeat the prompt's examples), the last one with the needed keys wins."""

from __future__ import annotations

import ast
import math
import re
from collections.abc import Sequence
from typing import Any

from tw_fin_eval.jsonl import loads

_PUNCT = str.maketrans({"“": '"', "”": '"', "„": '"', "「": '"', "」": '"', "『": '"', "』": '"',
                        "‘": "'", "’": "'", "｛": "{", "｝": "}", "：": ":", "，": ",", "［": "[", "］": "]"})
_TRAILING_COMMA = re.compile(r",\s*([}\]])")
_PY_LITERALS = re.compile(r"\b(True|False|None)\b")


def _loads_lenient(text: str) -> Any:
    """The JSON value of `text`, or None. Total: a hostile reply (nested 100 000 deep, a 5000-digit
    number, NaN) is simply no verdict (jsonl.loads bounds every parse)."""
    try:
        return loads(text)
    except ValueError:
        pass
    fixed = _TRAILING_COMMA.sub(r"\1", text)
    try:
        return loads(fixed)
    except ValueError:
        pass
    try:  # {'score': 8, 'pass': True}
        return ast.literal_eval(fixed)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        pass
    swapped = _PY_LITERALS.sub(lambda m: {"True": "true", "False": "false", "None": "null"}[m.group(1)],
                               fixed.replace("'", '"'))
    try:
        return loads(swapped)
    except ValueError:
        return None


def _balanced_spans(text: str) -> list[tuple[int, int]]:
    """Top-level {...} spans (string-aware)."""
    spans, depth, start, in_str, esc = [], 0, -1, False, False
    for i, ch in enumerate(text):
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
            continue
        if ch == '"' and depth:
            in_str = True
        elif ch == "{":
            if depth == 0:
                start = i
            depth += 1
        elif ch == "}" and depth:
            depth -= 1
            if depth == 0:
                spans.append((start, i + 1))
    return spans


def find_json_objects(text: str | None) -> list[dict[str, Any]]:
    """Every JSON object in a judge reply, in order (outer objects; nested ones stay inside)."""
    if not text:
        return []
    norm = text.translate(_PUNCT)
    out = []
    for a, b in _balanced_spans(norm):
        obj = _loads_lenient(norm[a:b])
        if isinstance(obj, dict):
            out.append(obj)
    return out


def last_object_with(text: str | None, keys: Sequence[str]) -> dict[str, Any] | None:
    """The last JSON object in `text` that has every key in `keys`."""
    for obj in reversed(find_json_objects(text)):
        if all(k in obj for k in keys):
            return obj
    return None


_TRUE = {"true", "yes", "是", "對", "正確", "1", "pass", "通過", "符合"}
_FALSE = {"false", "no", "否", "錯", "錯誤", "不正確", "0", "fail", "不通過", "不符合"}


def as_bool(value: Any) -> bool | None:
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)) and value in (0, 1):
        return bool(value)
    if isinstance(value, str):
        v = value.strip().lower()
        if v in _TRUE:
            return True
        if v in _FALSE:
            return False
    return None


def as_number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    try:
        if isinstance(value, (int, float)):
            number = float(value)
        elif isinstance(value, str) and (m := re.fullmatch(r"(-?\d{1,30}(?:\.\d{1,30})?) ?(?:/ ?10|分)?",
                                                            value.strip())):
            number = float(m.group(1))
        else:
            return None
    except OverflowError:  # an int of thousands of digits (from the lenient Python-literal path)
        return None
    return number if math.isfinite(number) else None
