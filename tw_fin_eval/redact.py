"""Text that came from outside (a server, a file): remove secrets from it and make it writable UTF-8.

Standard library only (the runner imports it on bare GPU boxes). One place for both rules, used by the
runner's HTTP client (every server text: replies, error bodies, headers), the runs file, and the judge.

- `Redactor(secrets)`: every occurrence of every secret, in any letter case and also in its JSON-escaped
  form, becomes `[REDACTED]`. Short secrets are redacted too. Scrub *before* cutting text to length:
  a cut made first could leave all but the last characters of a key behind.
- `clean_text(s)`: lone UTF-16 surrogates (from a JSON `"\\ud800"` escape) cannot be encoded as UTF-8;
  each becomes U+FFFD so the text can be written.
- `token_preview(s)`: what may be shown of a string that might be a secret (its first 3 characters).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Sequence
from typing import Any

REDACTED = "[REDACTED]"
_SURROGATE = re.compile("[\ud800-\udfff]")


class Redactor:
    """Replaces every known secret in text. Falsy secrets are ignored; with none, `scrub` is identity."""

    def __init__(self, secrets: Iterable[str | None] = ()) -> None:
        forms: set[str] = set()
        for secret in secrets:
            if secret:
                forms.add(secret)
                forms.add(json.dumps(secret, ensure_ascii=False)[1:-1])  # as it stands inside a JSON string
                forms.add(json.dumps(secret)[1:-1])
        # longest first, so a secret that contains another is replaced whole
        alternatives = "|".join(re.escape(f) for f in sorted(forms, key=len, reverse=True))
        self._pattern = re.compile(alternatives, re.IGNORECASE) if alternatives else None

    def __bool__(self) -> bool:
        return self._pattern is not None

    def scrub(self, text: str) -> str:
        if self._pattern is None or not text or self._pattern.search(text) is None:
            return text
        return self._pattern.sub(REDACTED, text)

    def scrub_bytes(self, data: bytes) -> str:
        """Bytes from the wire as text (invalid UTF-8 replaced), secrets removed."""
        return self.scrub(data.decode("utf-8", "replace"))

    def __repr__(self) -> str:  # never show the secrets
        return f"Redactor({'active' if self else 'empty'})"


def clean_text(text: str) -> str:
    """`text` with each lone surrogate replaced by U+FFFD (the text is returned as is when it has none).

    >>> clean_text("a\\ud800b")
    'a\\ufffdb'
    >>> clean_text("答案：3")
    '答案：3'
    """
    if text.isascii() or _SURROGATE.search(text) is None:
        return text
    return _SURROGATE.sub("\ufffd", text)


def clean_value(value: Any) -> Any:
    """`clean_text` applied to every string inside a JSON value (dict keys too)."""
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, list):
        return [clean_value(v) for v in value]
    if isinstance(value, dict):
        return {clean_text(k) if isinstance(k, str) else k: clean_value(v) for k, v in value.items()}
    return value


def has_lone_surrogate(value: Any) -> bool:
    """True if any string inside a JSON value holds a lone surrogate."""
    if isinstance(value, str):
        return not value.isascii() and _SURROGATE.search(value) is not None
    if isinstance(value, list):
        return any(has_lone_surrogate(v) for v in value)
    if isinstance(value, dict):
        return any(has_lone_surrogate(k) or has_lone_surrogate(v) for k, v in value.items())
    return False


def token_preview(text: str, keep: int = 3) -> str:
    """At most the first `keep` characters of something that may be a secret, then an ellipsis.

    >>> token_preview("sk-abcdef0123456789")
    'sk-…'
    """
    return text[:keep] + "…" if len(text) > keep else "…"


def looks_like_token(text: str) -> bool:
    """A heuristic for "this is a key, not a name": long, no spaces, with digits and lower-case letters
    or a usual key prefix. Environment variable names (OPENAI_API_KEY, my_key) do not look like one.

    >>> looks_like_token("sk-proj-Ab12Cd34Ef56Gh78")
    True
    >>> looks_like_token("OPENAI_API_KEY"), looks_like_token("judge_key_2")
    (False, False)
    """
    if len(text) < 12 or any(c.isspace() for c in text):
        return False
    if re.match(r"(sk|pk|rk|hf|gh[pousr]|xai|key|tok)[-_]", text, re.IGNORECASE):
        return True
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", text):
        return True  # '-', '.', '/', '+', '=' …: not a variable name
    digits = sum(c.isdigit() for c in text)
    return digits >= 3 and any(c.islower() for c in text) and any(c.isupper() for c in text) or digits >= 6


def key_from_env(name: str | None, *, option: str, defaults: Sequence[str] = ()) -> str | None:
    """The API key in environment variable `name`, which the flag `option` named; with no name, the first of
    `defaults` that is set (None when none is). One rule for the runner's and the judge's keys: a key pasted
    where its variable's name belongs is refused without echoing it (3 characters at most), and a named
    variable that is not set is an error rather than an unauthenticated run."""
    from tw_fin_eval.errors import InputError

    if name is None:
        return next((v for d in defaults if (v := os.environ.get(d))), None)
    field = option.lstrip("-").replace("-", "_")
    if looks_like_token(name) or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]{0,99}", name):
        raise InputError(f"{option} takes the NAME of an environment variable, got {token_preview(name)} "
                         "(that looks like a key: put it in a variable, e.g. export OPENAI_API_KEY=…, and pass "
                         "the variable's name)", field=field)
    value = os.environ.get(name)
    if not value:
        raise InputError(f"environment variable {name} is not set (named by {option})", field=field)
    return value
