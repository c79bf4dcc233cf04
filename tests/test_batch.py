"""Batch files (issue 16 point 4): export → fabricated batch output → import → score, the exported body equal
to what the runner sends live, errors kept as error lines, --history self refused."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest

from tw_fin_eval.cli import main as cli_main
from tw_fin_eval.configs import CONFIGS
from tw_fin_eval.paths import DATA_DIR
from tw_fin_eval.runner import batch
from tw_fin_eval.testing import FakeOpenAIServer

NAMES = ("finqa", "convfinqa")
needs_data = pytest.mark.skipif(not all((DATA_DIR / CONFIGS[c].data_file).is_file() for c in NAMES),
                                reason="data/ not built (tw-fin-eval build)")


def _snapshot(tmp_path: Path) -> list[Path]:
    out = []
    for c in NAMES:
        shutil.copy2(DATA_DIR / CONFIGS[c].data_file, tmp_path / CONFIGS[c].data_file)
        out.append(tmp_path / CONFIGS[c].data_file)
    return out


def _read(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def test_custom_id_round_trip():
    for key in [("finqa_tw-test-0001", None), ("convfinqa_tw-dev-0007", 0), ("convfinqa_tw-dev-0007", 12)]:
        assert batch.parse_custom_id(batch.custom_id(key)) == key


@needs_data
def test_export_body_is_exactly_what_the_runner_sends(tmp_path, capsys):
    files = _snapshot(tmp_path)
    settings = ["--limit", "3", "--seed", "5", "--max-tokens", "512", "--extra", '{"top_p": 0.9}']
    data = ["--data", *map(str, files)]
    assert cli_main(["batch", "export", *data, "--model", "m", "--out", str(tmp_path / "in.jsonl"), *settings]) == 0
    exported = _read(tmp_path / "in.jsonl")
    with FakeOpenAIServer(lambda body: "答案：1") as srv:
        assert cli_main(["run", *data, "--base-url", srv.url, "--model", "m", "--out", str(tmp_path / "live.jsonl"),
                         "--quiet", "--concurrency", "1", *settings]) == 0
        live = list(srv.requests)
    assert len(exported) == len(live) == 3 + sum(  # 3 FinQA items + every turn of 3 conversations
        len(json.loads(x)["turns"]) for x in files[1].read_text(encoding="utf-8").splitlines()[:3])
    by_id = {e["custom_id"]: e for e in exported}
    assert {json.dumps(b, sort_keys=True, ensure_ascii=False) for b in live} == \
        {json.dumps(e["body"], sort_keys=True, ensure_ascii=False) for e in exported}
    assert all(e["method"] == "POST" and e["url"] == "/v1/chat/completions" for e in exported)
    assert "convfinqa_tw-dev-0001#turn2" in by_id and "finqa_tw-test-0001" in by_id
    capsys.readouterr()


def test_history_self_is_refused_with_a_reason(tmp_path, capsys):
    rc = cli_main(["batch", "export", "--data", str(tmp_path / "none.jsonl"), "--model", "m", "--history", "self",
                   "--out", str(tmp_path / "in.jsonl")])
    err = capsys.readouterr().err
    assert rc == 2 and "own answer to turn" in err and not (tmp_path / "in.jsonl").exists()


def _fabricate(inputs: list[dict]) -> tuple[list[dict], list[dict], dict]:
    """An output file and an error file as the OpenAI Batch API writes them; one request left without
    any line. Returns (output, errors, what each custom_id got)."""
    output, errors, fate = [], [], {}
    for i, line in enumerate(inputs):
        cid = line["custom_id"]
        if i == 1:
            fate[cid] = "missing"
            continue
        if i % 5 == 2:
            errors.append({"id": f"batch_req_{i}", "custom_id": cid, "response": None,
                           "error": {"code": "server_error", "message": "the model crashed"}})
            fate[cid] = "error"
        elif i % 5 == 3:
            output.append({"id": f"batch_req_{i}", "custom_id": cid, "error": None,
                           "response": {"status_code": 429, "request_id": "r", "body": {"error": {"message": "slow down"}}}})
            fate[cid] = "error"
        else:
            answer = "答案：1" if i % 2 else "答案：-987654"
            output.append({"id": f"batch_req_{i}", "custom_id": cid, "error": None, "response": {
                "status_code": 200, "request_id": f"r{i}", "body": {
                    "id": f"chatcmpl-{i}", "object": "chat.completion", "created": 1764547200, "model": "m",
                    "choices": [{"index": 0, "finish_reason": "stop",
                                 "message": {"role": "assistant", "content": f"<think>想一想</think>{answer}"}}],
                    "usage": {"prompt_tokens": 10, "completion_tokens": 3, "total_tokens": 13}}}})
            fate[cid] = "ok"
    return output, errors, fate


@needs_data
def test_batch_round_trip_export_import_score(tmp_path, capsys):
    files = _snapshot(tmp_path)
    data = ["--data", *map(str, files)]
    assert cli_main(["batch", "export", *data, "--model", "m", "--limit", "4", "--out", str(tmp_path / "in.jsonl")]) == 0
    inputs = _read(tmp_path / "in.jsonl")
    output, errors, fate = _fabricate(inputs)
    (tmp_path / "out.jsonl").write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in output), "utf-8")
    (tmp_path / "err.jsonl").write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in errors), "utf-8")
    runs = tmp_path / "runs.jsonl"
    rc = cli_main(["batch", "import", str(tmp_path / "out.jsonl"), str(tmp_path / "err.jsonl"),
                   "--requests", str(tmp_path / "in.jsonl"), "--out", str(runs)])
    cap = capsys.readouterr()
    assert rc == 1 and "1 requests have no output line" in cap.err  # the missing one is reported, exit 1
    lines = {batch.custom_id((x["id"], x["turn"])): x for x in _read(runs)}
    assert set(lines) == {c for c, f in fate.items() if f != "missing"}
    for cid, line in lines.items():
        assert (line["error"] is None) == (fate[cid] == "ok")
        if fate[cid] == "ok":
            assert line["response"].endswith("答案：1") or line["response"].endswith("答案：-987654")
            assert line["reasoning"] == "想一想" and line["usage"]["completion_tokens"] == 3
        body = next(x["body"] for x in inputs if x["custom_id"] == cid)
        assert line["messages"] == body["messages"] and line["model"] == "m" and line["temperature"] == 0.0
    assert any("the model crashed" in (x["error"] or "") for x in lines.values())
    assert any("HTTP 429" in (x["error"] or "") for x in lines.values())

    rc = cli_main(["score", *data, "--runs", str(runs), "--out", str(tmp_path / "rep"), "--quiet"])
    assert rc == 0
    rows = {r["group"]: r for r in csv.DictReader((tmp_path / "rep" / "summary.csv").open(encoding="utf-8"))}
    n_ok = sum(1 for f in fate.values() if f == "ok")
    n_err = sum(1 for f in fate.values() if f == "error")
    assert int(rows["all"]["run"]) == n_ok + n_err and int(rows["all"]["error"]) == n_err
    capsys.readouterr()

    # a live run resumes the imported file: only the failed and the missing requests are asked
    with FakeOpenAIServer(lambda body: "答案：1") as srv:
        rc = cli_main(["run", *data, "--limit", "4", "--base-url", srv.url, "--model", "m", "--out", str(runs),
                       "--quiet"])
        assert rc == 0 and len(srv.requests) == n_err + 1

    # import refuses to overwrite, and output from another batch
    assert cli_main(["batch", "import", str(tmp_path / "out.jsonl"), "--requests", str(tmp_path / "in.jsonl"),
                     "--out", str(runs)]) == 2
    (tmp_path / "other.jsonl").write_text(json.dumps({"custom_id": "nope-1", "response": None,
                                                      "error": {"message": "x"}}) + "\n", encoding="utf-8")
    assert cli_main(["batch", "import", str(tmp_path / "other.jsonl"), "--requests", str(tmp_path / "in.jsonl"),
                     "--out", str(tmp_path / "r2.jsonl")]) == 2
    assert "not in the requests file" in capsys.readouterr().err
    assert not (tmp_path / "r2.jsonl").exists()
