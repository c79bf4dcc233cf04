"""Test helpers shared by every area's tests (standard library only): `FakeOpenAIServer`.

Imported lazily so `python -m tw_fin_eval.testing.openai_server` does not load the module twice."""

from __future__ import annotations

from typing import Any

__all__ = ["FakeOpenAIServer"]


def __getattr__(name: str) -> Any:
    if name == "FakeOpenAIServer":
        from tw_fin_eval.testing.openai_server import FakeOpenAIServer

        return FakeOpenAIServer
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
