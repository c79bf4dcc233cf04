"""The memorisation gap end to end (issue 31): originals and their twins run against a scripted server through
`tw-fin-eval run` and `batch export`, then `score`. A "memorising" server (answers the original gold whatever
the numbers say) shows a large, significant drop on the twins; a "reasoning" server (executes the program of the
prompt it is shown, on that prompt's own table) shows none."""

from __future__ import annotations

import json
import re
import zlib
from pathlib import Path

import pytest

from tw_fin_eval import paths
from tw_fin_eval.cli import main as cli_main
from tw_fin_eval.testing import FakeOpenAIServer
from tw_fin_eval.twins import gap
from tw_fin_eval.twins.cli import make_twins
from tw_fin_eval.verification.program import execute

SEED = 5


def _records(name: str, n: int) -> list[dict]:
    path = paths.DATA_DIR / name
    if not path.is_file():
        pytest.skip(f"data/{name} not built")
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for _, line in zip(range(n), fh)]


@pytest.fixture(scope="module")
def sets(tmp_path_factory) -> dict:
    """80 FinQA-TW items, 20 ConvFinQA-TW conversations, their twins; a data file of each."""
    root = tmp_path_factory.mktemp("twins_gap")
    originals = _records("finqa_tw_test.jsonl", 80) + _records("convfinqa_tw_dev.jsonl", 20)
    twins = []
    for subset in ("numeric", "conversation_numeric"):
        made, _ = make_twins([r for r in originals if r["task_type"] == subset], SEED)
        twins += made
    orig_path, twin_path = root / "orig.jsonl", root / "twins.jsonl"
    for path, recs in ((orig_path, originals), (twin_path, twins)):
        path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in recs), encoding="utf-8")
    return {"root": root, "originals": originals, "twins": twins, "data": [str(orig_path), str(twin_path)]}


def _users(body: dict) -> list[str]:
    return [m["content"] for m in body["messages"] if m["role"] == "user"]


def _blind(text: str) -> str:
    """A prompt with its numbers blanked: what a model that recognises the item sees as "the same question"."""
    return re.sub(r"\.?\d[\d,.]*", "#", text)


def _reply(unit: dict) -> str:
    if unit.get("answer_value") is None:
        return "答案：" + ("是" if unit.get("answer_text") == "yes" else "否")
    return f"答案：{unit['answer_value']}"


def _memoriser(originals: list[dict]):
    """Recognises the item (numbers blanked) and answers the original's gold."""
    table = {}
    for r in originals:
        if r.get("turns"):
            for k, t in enumerate(r["turns"]):
                table[(_blind(r["first_user_prefix"] + r["turns"][0]["question"]), k)] = t
        else:
            table[(_blind(r["messages"][-1]["content"]), 0)] = r

    def respond(body: dict) -> str:
        users = _users(body)
        return "記得這題。\n" + _reply(table[(_blind(users[0]), len(users) - 1)])

    return respond


def _reasoner(records: list[dict]):
    """Reads the prompt it is shown: executes that prompt's program on that prompt's table (as a model that
    computes would), wrong on a fixed 10% of prompts whatever they say."""
    table = {}
    for r in records:
        if r.get("turns"):
            for k, t in enumerate(r["turns"]):
                table[(r["first_user_prefix"] + r["turns"][0]["question"], k)] = (t, r)
        else:
            table[(r["messages"][-1]["content"], 0)] = (r, r)

    def respond(body: dict) -> str:
        users = _users(body)
        unit, rec = table[(users[0], len(users) - 1)]
        result = execute(unit["program"], rec["original_en"]["table"])
        if zlib.crc32("\n".join(users).encode()) % 10 == 0:
            return "答案：-123456.789"
        if isinstance(result, str):
            return "答案：" + ("是" if result == "yes" else "否")
        return f"計算……\n答案：{round(result, 5)}"

    return respond


def _run_and_score(sets: dict, name: str, responder) -> dict:
    root: Path = sets["root"]
    runs, out = root / f"{name}.runs.jsonl", root / f"{name}_report"
    with FakeOpenAIServer(responder) as srv:
        assert cli_main(["run", "--base-url", srv.url, "--model", name, "--out", str(runs), "--data", *sets["data"],
                         "--quiet", "--concurrency", "4"]) == 0
    assert cli_main(["score", "--data", *sets["data"], "--runs", str(runs), "--out", str(out), "--quiet"]) == 0
    return {"doc": json.loads((out / "results.json").read_text(encoding="utf-8")),
            "md": (out / "report.md").read_text(encoding="utf-8"),
            "html": (out / "report.html").read_text(encoding="utf-8")}


def test_memorising_server_shows_a_large_significant_gap(sets):
    res = _run_and_score(sets, "memoriser", _memoriser(sets["originals"]))
    g = res["doc"]["memorisation_gap"]
    assert set(g["subsets"]) == {"finqa", "convfinqa"}
    for name, e in [*g["subsets"].items(), ("overall", g["overall"])]:
        assert e["original_accuracy"] > 0.95, name
        assert e["diff"] > 0.5 and e["ci95"][0] > 0.3 and e["p_value"] < 1e-4, (name, e)
    assert g["subsets"]["finqa"]["n_paired"] == sum(1 for t in sets["twins"] if not t.get("turns"))
    # the headline accuracy of the originals is not mixed with the twins
    assert res["doc"]["subsets"]["finqa"]["accuracy"] > 0.95
    assert "FinQA-TW-twins" in res["doc"]["subsets"]
    assert "## Memorisation gap" in res["md"] and "This model drops" in res["md"]
    assert "Memorisation gap" in res["html"] and "drops" in res["html"]


def test_reasoning_server_shows_no_gap(sets):
    res = _run_and_score(sets, "reasoner", _reasoner(sets["originals"] + sets["twins"]))
    g = res["doc"]["memorisation_gap"]
    for name, e in [*g["subsets"].items(), ("overall", g["overall"])]:
        assert 0.8 < e["original_accuracy"] < 0.97 and 0.8 < e["twin_accuracy"] < 0.97, name
        assert e["ci95"][0] <= 0 <= e["ci95"][1] and e["p_value"] > 0.05, (name, e)
        assert abs(e["diff"]) < 0.08


def test_no_twins_no_gap_section(tmp_path):
    from types import SimpleNamespace as It

    items = [It(id="finqa_tw-test-0001", turn=None, dataset="FinQA-TW", status="scored", correct=True,
                gold_status="verified", cluster="c")]
    assert gap.compute(items) is None and gap.markdown({"memorisation_gap": None}) == []


def test_batch_export_accepts_the_twins_file(sets, tmp_path):
    out = tmp_path / "batch.jsonl"
    assert cli_main(["batch", "export", "--data", sets["data"][1], "--model", "m", "--out", str(out)]) == 0
    lines = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    n_units = sum(len(t["turns"]) if t.get("turns") else 1 for t in sets["twins"])
    assert len(lines) == n_units and any("-twin-s5" in json.dumps(x) for x in lines)
