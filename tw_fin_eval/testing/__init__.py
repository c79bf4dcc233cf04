"""Test helpers shared by every area's tests (standard library only): `FakeOpenAIServer`."""

from tw_fin_eval.testing.openai_server import FakeOpenAIServer

__all__ = ["FakeOpenAIServer"]
