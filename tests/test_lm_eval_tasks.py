"""The lm-evaluation-harness tasks: documents, per-document metrics, and the parity test — `lm_eval` run
against the project's test server with scripted answers gives the same accuracy as `tw-fin-eval score`
on the same generations (taken from lm-eval's logged samples)."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tw_fin_eval.cli import main as cli_main
from tw_fin_eval.configs import CONFIGS
from tw_fin_eval.errors import InputError
from tw_fin_eval.integrations.lm_eval import harness, include_path
from tw_fin_eval.paths import DATA_DIR, REPO_ROOT
from tw_fin_eval.runner.requests import RequestSettings, build_request

CONFIG_NAMES = harness.TASK_CONFIGS


def _built() -> bool:
    return all((DATA_DIR / CONFIGS[c].data_file).is_file() for c in CONFIG_NAMES)


needs_data = pytest.mark.skipif(not _built(), reason="data/ not built (tw-fin-eval build)")


def _records(config: str, n: int | None = None) -> list[dict]:
    out = []
    with (DATA_DIR / CONFIGS[config].data_file).open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                out.append(json.loads(line))
            if n is not None and len(out) >= n:
                break
    return out


def test_include_path_holds_the_task_configs(capsys):
    names = {p.name for p in include_path().glob("*.yaml")}
    assert {"tw_fin_eval_basic.yaml", "tw_fin_eval_finqa.yaml", "tw_fin_eval_convfinqa.yaml",
            "tw_fin_eval_finchain.yaml"} <= names
    assert cli_main(["lm-eval-path"]) == 0
    assert Path(capsys.readouterr().out.strip()) == include_path()


@needs_data
def test_convfinqa_docs_are_one_per_turn_with_the_runners_gold_history():
    recs = _records("convfinqa", 3)
    docs = harness.build_docs(recs)
    assert len(docs) == sum(len(r["turns"]) for r in recs)
    settings = RequestSettings(model="m")
    for doc in docs:
        rec = next(r for r in recs if r["id"] == doc["id"])
        assert doc["messages"] == build_request(rec, doc["turn"], settings)["messages"]
        assert doc["target"] == rec["turns"][doc["turn"]]["answer"]
        assistants = [m["content"] for m in doc["messages"] if m["role"] == "assistant"]
        assert assistants == ["答案：" + t["answer"] for t in rec["turns"][: doc["turn"]]]


@needs_data
def test_process_results_uses_the_scorer_verdict():
    rec = _records("finqa", 1)[0]
    (doc,) = harness.build_docs([rec])
    right = harness.process_results(doc, [f"計算如下\n答案：{rec['answer']}"])
    assert right["acc"] == right["strict_acc"] == 1.0
    wrong = harness.process_results(doc, ["答案：-987654.321"])
    assert wrong["acc"] == wrong["strict_acc"] == wrong["flexible_acc"] == 0.0
    assert "step_recall" not in right and "conversation_acc" not in right

    fc = _records("finchain", 1)[0]
    (fdoc,) = harness.build_docs([fc])
    steps = "\n".join(f"步驟 {i}：{s['value']}" for i, s in enumerate(fc["steps"], 1))
    out = harness.process_results(fdoc, [f"{steps}\n答案：{fc['answer']}"])
    assert out["acc"] == 1.0 and out["step_recall"] == 1.0
    assert harness.process_results(fdoc, ["不知道"])["step_recall"] == 0.0


def test_aggregations(caplog):
    assert harness.conversation_accuracy([("a", True, 2), ("a", False, 2), ("b", True, 1)]) == 0.5
    assert harness.conversation_accuracy([("a", True, 1), ("b", True, 3)]) == 1.0  # b: cut by --limit
    assert harness.complete_conversations([("a", True, 1), ("b", True, 3)]) == 1
    assert "1 complete conversation(s); 1 cut short by --limit is left out" in caplog.text
    assert harness.mean_skip_none([1.0, None, 0.0]) == 0.5


def test_conversation_acc_with_a_limit_inside_the_first_conversation_is_null_not_nan():
    """lm_eval --limit 3 on ConvFinQA: three turns of a five-turn conversation — no conversation is complete.
    The old aggregation gave NaN; now None (JSON null) with `conversations` 0, never a number that looks real."""
    cut = [("c1", True, 5), ("c1", True, 5), ("c1", False, 5)]
    value = harness.conversation_accuracy(cut)
    assert value is None and harness.complete_conversations(cut) == 0
    assert json.dumps({"conversation_acc": value}) == '{"conversation_acc": null}'
    # --limit 10 over conversations of 5, 4 and 2 turns: two complete (counted), the third cut (left out)
    docs = [("c1", True, 5)] * 5 + [("c2", True, 4)] * 3 + [("c2", False, 4)] + [("c3", True, 2)]
    assert harness.conversation_accuracy(docs) == 0.5 and harness.complete_conversations(docs) == 2


def test_missing_release_is_a_clear_error(tmp_path):
    with pytest.raises(InputError, match="file not found"):
        harness.load_records("finqa", str(tmp_path / "nowhere"))
    with pytest.raises(InputError, match="no config 'finqa'"):
        (tmp_path / "data" / "finchain").mkdir(parents=True)
        (tmp_path / "data" / "finchain" / "x.parquet").write_bytes(b"")
        harness.load_records("finqa", str(tmp_path))


def test_samples_to_runs_rejects_foreign_samples(tmp_path):
    samples = tmp_path / "samples_x.jsonl"
    samples.write_text(json.dumps({"doc": {"question": "q"}, "resps": [["a"]]}) + "\n", encoding="utf-8")
    assert cli_main(["lm-eval-runs", str(samples), "--model", "m", "--out", str(tmp_path / "r.jsonl")]) == 2
    assert not (tmp_path / "r.jsonl").exists()


# ---- the parity test ------------------------------------------------------------------------------------
WRONG = "答案：-987654.321"


def _scripted(doc: dict) -> str:
    """A deterministic mix per document: strict right, strict wrong, right only through a fallback,
    no answer, right with the steps written out."""
    target = doc["target"]
    k = int(hashlib.sha256(f"{doc['id']}#{doc['turn']}".encode()).hexdigest(), 16) % 5
    if target in {"yes", "no"}:
        target = {"yes": "是", "no": "否"}[target]
    if k == 0:
        return f"依表格計算。\n答案：{target}"
    if k == 1:
        return WRONG
    if k == 2:
        return f"所以結果是 \\boxed{{{target}}}"
    if k == 3:
        return "資料不足，無法回答。"
    rec = json.loads(doc["record"])
    steps = "\n".join(f"步驟 {i}：得到 {s['value']}" for i, s in enumerate(rec.get("steps") or [], 1))
    return f"{steps}\n答案：{target}"


@needs_data
def test_lm_eval_accuracy_equals_tw_fin_eval_score(tmp_path):
    if importlib.util.find_spec("lm_eval") is None or shutil.which("lm_eval") is None:
        if os.environ.get("CI"):
            pytest.fail("lm_eval is not installed in CI (it is in the dev extra)")
        pytest.skip("lm_eval not installed (pip install -e '.[lm-eval]')")
    from tw_fin_eval.release.writer import write_release
    from tw_fin_eval.testing.openai_server import FakeOpenAIServer

    data = tmp_path / "data"  # a snapshot: data/ may be rebuilt by someone else while this runs
    data.mkdir()
    for c in CONFIG_NAMES:
        shutil.copy2(DATA_DIR / CONFIGS[c].data_file, data / CONFIGS[c].data_file)
    release = tmp_path / "hf_release"
    write_release(data, release, configs=[CONFIGS[c] for c in CONFIG_NAMES], log=lambda *_: None)

    by_messages: dict[str, dict] = {}
    for c in CONFIG_NAMES:
        for doc in harness.build_docs(_records(c, 40)):
            by_messages[json.dumps(doc["messages"], ensure_ascii=False)] = doc

    def responder(body: dict) -> str:
        return _scripted(by_messages[json.dumps(body["messages"], ensure_ascii=False)])

    limit = 15
    out = tmp_path / "lm_eval_out"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO_ROOT), os.environ.get("PYTHONPATH", "")]),
               HF_DATASETS_CACHE=str(tmp_path / "hf_cache"), HF_HUB_OFFLINE="1", HF_DATASETS_OFFLINE="1",
               TOKENIZERS_PARALLELISM="false")
    with FakeOpenAIServer(responder) as srv:
        proc = subprocess.run(
            [shutil.which("lm_eval"), "--include_path", str(include_path()), "--tasks", "tw_fin_eval_basic",
             "--model", "local-chat-completions", "--apply_chat_template",
             "--model_args", f"model=fake-model,base_url={srv.url}/chat/completions,num_concurrent=2,max_retries=1",
             "--metadata", json.dumps({"release": str(release)}), "--limit", str(limit),
             "--log_samples", "--output_path", str(out)],
            capture_output=True, text=True, env=env, timeout=600, cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr[-3000:]
        bodies = list(srv.requests)
    assert len(bodies) == 3 * limit
    assert all(json.dumps(b["messages"], ensure_ascii=False) in by_messages for b in bodies)
    assert any(m["role"] == "assistant" for b in bodies for m in b["messages"])  # ConvFinQA gold history

    (results_file,) = out.rglob("results_*.json")
    lm = json.loads(results_file.read_text(encoding="utf-8"))["results"]
    runs = tmp_path / "runs.jsonl"
    assert cli_main(["lm-eval-runs", *map(str, out.rglob("samples_*.jsonl")), "--model", "fake-model",
                     "--out", str(runs)]) == 0
    report = tmp_path / "report"
    assert cli_main(["score", "--data", *(str(data / CONFIGS[c].data_file) for c in CONFIG_NAMES),
                     "--runs", str(runs), "--out", str(report), "--quiet"]) == 0
    import csv

    rows = {r["group"]: r for r in csv.DictReader((report / "summary.csv").open(encoding="utf-8"))
            if r["dimension"] == "dataset"}
    for c in CONFIG_NAMES:
        ours = rows[CONFIGS[c].dataset]
        theirs = lm[f"tw_fin_eval_{c}"]
        assert int(ours["run"]) == limit
        assert theirs["acc,none"] == pytest.approx(float(ours["accuracy"]), abs=1e-6), c
        assert theirs["strict_acc,none"] == pytest.approx(float(ours["strict_accuracy"]), abs=1e-6), c
        assert 0.0 < theirs["acc,none"] < 1.0  # the scripted mix: some right, some wrong
    assert lm["tw_fin_eval_finchain"]["step_recall,none"] == pytest.approx(
        float(rows["FinChain-TW"]["mean_step_recall"]), abs=1e-6)
    assert lm["tw_fin_eval_convfinqa"]["conversation_acc,none"] == pytest.approx(
        float(rows["ConvFinQA-TW"]["conversation_accuracy"]), abs=1e-6)
    conv_docs = harness.build_docs(_records("convfinqa", 40))[:limit]
    sizes = {d["id"]: len(json.loads(d["record"])["turns"]) for d in conv_docs}
    complete = sum(1 for cid, n in sizes.items() if sum(d["id"] == cid for d in conv_docs) == n)
    assert 0 < complete < len(sizes)  # the limit cut the last conversation
    assert lm["tw_fin_eval_convfinqa"]["conversations,none"] == complete == int(rows["ConvFinQA-TW"]["conversations"])
    macro = sum(lm[f"tw_fin_eval_{c}"]["acc,none"] for c in CONFIG_NAMES) / 3
    assert lm["tw_fin_eval_basic"]["acc,none"] == pytest.approx(macro, abs=1e-9)
