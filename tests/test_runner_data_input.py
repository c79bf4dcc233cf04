"""What the runner reads (issue 16 point 2) and how it picks and asks (issue 18 points 5–6): JSONL, parquet,
a release folder with --config, a Hub id; quoted globs; --sample spread over subcategories; generation
settings sent, recorded in every runs line, and checked on resume."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from tw_fin_eval import data_input
from tw_fin_eval.cli import main as cli_main
from tw_fin_eval.configs import CONFIGS
from tw_fin_eval.errors import InputError
from tw_fin_eval.paths import DATA_DIR, REPO_ROOT
from tw_fin_eval.runner.requests import load_tasks
from tw_fin_eval.testing import FakeOpenAIServer

NAMES = ("finqa", "convfinqa", "finchain")
needs_data = pytest.mark.skipif(not all((DATA_DIR / CONFIGS[c].data_file).is_file() for c in NAMES),
                                reason="data/ not built (tw-fin-eval build)")


@pytest.fixture(scope="module")
def release(tmp_path_factory) -> Path:
    """A release of three configs written from a snapshot of data/ (others may rebuild data/ meanwhile)."""
    if not all((DATA_DIR / CONFIGS[c].data_file).is_file() for c in NAMES):
        pytest.skip("data/ not built")
    from tw_fin_eval.release.writer import write_release

    root = tmp_path_factory.mktemp("rel")
    data = root / "data_snapshot"
    data.mkdir()
    for c in NAMES:
        shutil.copy2(DATA_DIR / CONFIGS[c].data_file, data / CONFIGS[c].data_file)
    out = root / "hf_release"
    write_release(data, out, configs=[CONFIGS[c] for c in NAMES], log=lambda *_: None)
    return out


def _keyed(tasks) -> dict:
    return {t.key: t.messages for t in tasks}


@needs_data
@pytest.mark.parametrize("config", NAMES)
def test_parquet_and_release_folder_give_the_same_requests_as_jsonl(release, config):
    jsonl = release.parent / "data_snapshot" / CONFIGS[config].data_file
    want = _keyed(load_tasks([jsonl]))
    parquet = next((release / "data" / config).glob("*.parquet"))
    assert _keyed(load_tasks([parquet])) == want
    assert _keyed(load_tasks([release], configs=[config])) == want
    assert len(want) == (1490 if config == "convfinqa" else len({k[0] for k in want}))


@needs_data
def test_release_folder_errors(release, tmp_path):
    with pytest.raises(InputError, match="is a directory: a release folder needs --config"):
        load_tasks([release])
    with pytest.raises(InputError, match="no config 'financeagent'"):
        load_tasks([release], configs=["financeagent"])
    (tmp_path / "plain").mkdir()
    with pytest.raises(InputError, match="is a directory"):
        load_tasks([tmp_path / "plain"])
    bad = tmp_path / "bad.parquet"
    bad.write_bytes(b"not parquet at all")
    with pytest.raises(InputError, match="not a readable parquet file"):
        load_tasks([bad])
    with pytest.raises(InputError, match="file not found"):
        load_tasks([tmp_path / "missing.jsonl"])


def test_hub_id_needs_a_config_and_says_offline(monkeypatch):
    with pytest.raises(InputError, match="needs --config"):
        data_input.resolve("someone/some_dataset")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    (src,) = data_input.resolve("someone/not_cached_anywhere", ["finqa"])
    with pytest.raises(InputError, match="offline"):
        data_input.read_records(src)
    monkeypatch.setitem(sys.modules, "datasets", None)  # not installed
    with pytest.raises(InputError, match="needs the `datasets` package"):
        data_input.read_records(src)


def test_jsonl_needs_only_the_standard_library(tmp_path):
    """With pyarrow and datasets unimportable, JSONL still loads; parquet says what is missing."""
    data = tmp_path / "d.jsonl"
    data.write_text(json.dumps({"id": "q-1", "task_type": "numeric",
                                "messages": [{"role": "user", "content": "1+1？"}]}) + "\n", encoding="utf-8")
    (tmp_path / "x.parquet").write_bytes(b"PAR1")
    code = f"""
import sys
for name in ("pyarrow", "pyarrow.parquet", "datasets", "numpy", "pandas"):
    sys.modules[name] = None
sys.path.insert(0, {str(REPO_ROOT)!r})
from tw_fin_eval.errors import InputError
from tw_fin_eval.runner.requests import load_tasks
print(len(load_tasks([{str(data)!r}])))
try:
    load_tasks([{str(tmp_path / 'x.parquet')!r}])
except InputError as exc:
    print(exc)
"""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert lines[0] == "1" and "needs the `pyarrow` package" in lines[1]


def _records(n_topics: int = 6, per: int = 10) -> list[dict]:
    out = []
    for t in range(n_topics):
        for k in range(per):
            out.append({"id": f"r-{t}-{k}", "subcategory": f"topic{t}", "difficulty": ["基礎", "中級", "進階"][k % 3],
                        "category": "C", "task_type": "numeric", "messages": [{"role": "user", "content": f"{t}/{k}"}]})
    return out


def test_sample_spreads_over_subcategories_and_is_reproducible():
    recs = _records()
    idx = data_input.pick(recs, sample=12, seed=3)
    assert len(idx) == 12 and idx == sorted(idx)
    per_topic = Counter(recs[i]["subcategory"] for i in idx)
    assert set(per_topic.values()) == {2}  # 12 over 6 topics: 2 each
    assert all(len({recs[i]["difficulty"] for i in idx if recs[i]["subcategory"] == t}) == 2 for t in per_topic)
    assert data_input.pick(recs, sample=12, seed=3) == idx
    assert data_input.pick(recs, sample=12, seed=4) != idx
    assert data_input.pick(recs, limit=5) == [0, 1, 2, 3, 4]  # --limit keeps its first-N meaning
    assert data_input.pick(recs, sample=100) == list(range(60))


@needs_data
def test_sample_on_finchain_covers_every_topic():
    recs = [json.loads(line) for line in (DATA_DIR / CONFIGS["finchain"].data_file).open(encoding="utf-8")]
    topics = {r["subcategory"] for r in recs}
    idx = data_input.pick(recs, sample=len(topics) * 3)
    got = Counter((recs[i]["subcategory"], recs[i]["difficulty"]) for i in idx)
    assert {t for t, _ in got} == topics and set(got.values()) == {1} and len(got) == len(topics) * 3


# ---- through the CLI, against the test server -----------------------------------------------------------
def _data(tmp_path: Path, n: int = 6) -> Path:
    path = tmp_path / "d.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in _records(3, n // 3 or 1)),
                    encoding="utf-8")
    return path


def _run(capsys, srv, data, out, *extra):
    rc = cli_main(["run", "--data", str(data), "--base-url", srv.url,
                   "--model", "m", "--out", str(out), "--quiet", *extra])
    return rc, capsys.readouterr()


def test_generation_settings_are_sent_recorded_and_checked_on_resume(tmp_path, capsys):
    data = _data(tmp_path)
    out = tmp_path / "runs.jsonl"
    with FakeOpenAIServer(lambda body: "答案：1") as srv:
        rc, _ = _run(capsys, srv, data, out, "--limit", "2", "--seed", "11", "--max-tokens", "64",
                     "--extra", '{"top_p": 0.5}')
        assert rc == 0
        assert all(b["temperature"] == 0.0 and b["seed"] == 11 and b["max_tokens"] == 64 and b["top_p"] == 0.5
                   for b in srv.requests)
        lines = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
        assert all((x["temperature"], x["max_tokens"], x["extra"], x["seed"]) == (0.0, 64, {"top_p": 0.5}, 11)
                   for x in lines)
        sent = len(srv.requests)
        for changed in (["--temperature", "0.7"], ["--seed", "12"], ["--max-tokens", "65"],
                        ["--extra", '{"top_p": 0.9}']):
            args = {"--seed": "11", "--max-tokens": "64", "--extra": '{"top_p": 0.5}'}
            args[changed[0]] = changed[1]
            flat = [x for kv in args.items() for x in kv] + (changed if changed[0] == "--temperature" else [])
            rc, cap = _run(capsys, srv, data, out, *flat)
            assert rc == 2 and changed[0] in cap.err and "use the same settings" in cap.err
        assert len(srv.requests) == sent  # nothing sent by a refused resume
        rc, _ = _run(capsys, srv, data, out, "--seed", "11", "--max-tokens", "64", "--extra", '{"top_p": 0.5}')
        assert rc == 0 and len(srv.requests) == sent + 4  # the same settings resume: the other 4 items


def test_temperature_none_leaves_it_to_the_server_and_old_lines_resume(tmp_path, capsys):
    data = _data(tmp_path, 3)
    out = tmp_path / "runs.jsonl"
    old = {"id": "r-0-0", "turn": None, "model": "m", "messages_sha256": None, "response": "答案：1", "error": None}
    out.write_text(json.dumps(old) + "\n", encoding="utf-8")  # written before settings were recorded
    with FakeOpenAIServer(lambda body: "答案：1") as srv:
        rc, _ = _run(capsys, srv, data, out, "--temperature", "none")
        assert rc == 0 and len(srv.requests) == 2
        assert all("temperature" not in b and "seed" not in b for b in srv.requests)


def test_run_takes_a_quoted_glob_and_a_release_folder(tmp_path, capsys):
    (tmp_path / "a").mkdir()
    _data(tmp_path / "a")
    shutil.copy(tmp_path / "a" / "d.jsonl", tmp_path / "a" / "e.jsonl")
    with FakeOpenAIServer(lambda body: "答案：1") as srv:
        rc, cap = _run(capsys, srv, str(tmp_path / "a" / "*.jsonl"), tmp_path / "o.jsonl")
        assert rc == 2 and "duplicate id" in cap.err  # both files were read: the glob was expanded
        rc, cap = _run(capsys, srv, str(tmp_path / "a" / "nothing*.jsonl"), tmp_path / "o.jsonl")
        assert rc == 2 and "no file matches" in cap.err
        rc, cap = _run(capsys, srv, str(tmp_path / "a"), tmp_path / "o.jsonl")
        assert rc == 2 and "is a directory" in cap.err and "Traceback" not in cap.err
        assert srv.requests == []


@needs_data
def test_run_from_a_release_folder_end_to_end(release, tmp_path, capsys):
    out = tmp_path / "runs.jsonl"
    with FakeOpenAIServer(lambda body: "答案：1") as srv:
        rc, _ = _run(capsys, srv, str(release), out, "--config", "finqa,finchain", "--sample", "5", "--seed", "2")
        assert rc == 0 and len(srv.requests) == 10
    ids = [json.loads(x)["id"] for x in out.read_text(encoding="utf-8").splitlines()]
    assert sum(i.startswith("finqa") for i in ids) == 5 and sum(i.startswith("finchain") for i in ids) == 5
