"""zh-TW checks shared by the FinChain-TW tests: the project's checker (tw_fin_eval.zhcheck.rules) when it
is present, else a fallback built from the same glossary (opencc s2tw per character, forbidden PRC terms,
English tokens outside the allow-list)."""

from __future__ import annotations

import functools
import os
import re

_LATIN_RE = re.compile(r"[A-Za-z][A-Za-z0-9&./'-]*")


@functools.cache
def _glossary():
    from tw_fin_eval.glossary import load_glossary

    return load_glossary()


@functools.cache
def _s2tw():
    import opencc

    return opencc.OpenCC("s2tw")


def _fallback_problems(text: str) -> list[str]:
    g = _glossary()
    out = []
    conv = _s2tw().convert(text)
    if len(conv) == len(text):
        for a, b in zip(text, conv):
            if a != b and a not in g.simplified_allow:
                out.append(f"simplified character {a!r} (s2tw → {b!r})")
    for term in g.forbidden:
        if term in text:
            exceptions = g.forbidden_exceptions.get(term, ())
            if not any(exc in text for exc in exceptions):
                out.append(f"forbidden PRC term {term!r}")
    for tok in _LATIN_RE.findall(text.replace("NT$", "").replace("US$", "")):
        if tok not in g.allowed_english and tok.rstrip(".") not in g.allowed_english:
            out.append(f"English residue {tok!r}")
    return out


def zh_problems(text: str) -> list[str]:
    """Human-readable problems in a zh-TW text (empty list: clean)."""
    if os.environ.get("FINCHAIN_ZH_FALLBACK"):  # debugging aid: the glossary-based fallback only
        return _fallback_problems(text)
    try:
        from tw_fin_eval.zhcheck.rules import check_zh, find_english_residue
    except ImportError:
        return _fallback_problems(text)
    out = [f"{f.rule}: {f.message} ({f.text})" for f in check_zh(text)]
    out += [f"english residue: {f.message} ({f.text})" if hasattr(f, "rule") else f"english residue: {f}"
            for f in find_english_residue(text)]
    return out


def zh_literals(path) -> list[str]:
    """Every string-literal piece with a CJK character in a module (f-string constant parts included,
    docstrings excluded)."""
    import ast
    from pathlib import Path

    tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.FunctionDef | ast.ClassDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docstrings.add(id(first.value))
    return [node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
            and re.search(r"[\u4e00-\u9fff]", node.value)]
