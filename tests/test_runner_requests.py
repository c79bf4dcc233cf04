"""Request building is one function: the bodies the runner sends are exactly `build_request`'s, for gold
and self history, and bad records are rejected with the id named."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.test_runner_run import conv_record, numeric_record, write_jsonl
from tw_fin_eval.errors import InputError
from tw_fin_eval.runner.loop import RunConfig, run
from tw_fin_eval.runner.requests import RequestSettings, build_request
from tw_fin_eval.testing import FakeOpenAIServer


@pytest.mark.parametrize("history", ["gold", "self"])
def test_bodies_sent_by_the_runner_equal_build_request(tmp_path: Path, history: str):
    recs = [numeric_record(0), numeric_record(1), conv_record()]
    data = write_jsonl(tmp_path / "d.jsonl", recs)
    extra = {"chat_template_kwargs": {"enable_thinking": False}, "top_p": None}
    with FakeOpenAIServer(lambda body: "答案：7") as srv:
        summary = run(RunConfig(data=[str(data)], base_url=srv.url, model="m", out=str(tmp_path / "o.jsonl"),
                                temperature=0.0, max_tokens=64, extra=extra, history=history,
                                concurrency=1, progress=False), out_stream=open("/dev/null", "w"))
        sent = list(srv.requests)
    assert summary.ok == 5
    settings = RequestSettings(model="m", temperature=0.0, max_tokens=64, extra=extra, history=history)
    expected = [build_request(recs[0], None, settings), build_request(recs[1], None, settings)]
    expected += [build_request(recs[2], k, settings, own_answers=["答案：7"] * k) for k in range(3)]
    assert [json.dumps(b, ensure_ascii=False) for b in sent] == [json.dumps(b, ensure_ascii=False) for b in expected]
    assert "top_p" not in sent[0] and list(sent[0])[:4] == ["model", "messages", "temperature", "max_tokens"]


def test_build_request_gold_history_shows_gold_answers_and_none_settings_are_not_sent():
    body = build_request(conv_record(), 2, RequestSettings(model="m"))
    assert set(body) == {"model", "messages"}
    text = json.dumps(body["messages"], ensure_ascii=False)
    assert "5735" in text and "5829" in text and "兩者差多少" in text


def test_build_request_rejects_bad_records_naming_the_id():
    with pytest.raises(InputError, match="id=x"):
        build_request({"id": "x", "messages": []}, None, RequestSettings(model="m"))
    with pytest.raises(InputError, match="no turn 7"):
        build_request(conv_record(), 7, RequestSettings(model="m"))
    with pytest.raises(InputError, match="needs the model's answers"):
        build_request(conv_record(), 2, RequestSettings(model="m", history="self"), own_answers=["a"])
