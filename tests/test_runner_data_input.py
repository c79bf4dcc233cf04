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


def _strata(sizes: dict[str, int]) -> list[dict]:
    """Records in strata of the given sizes (subcategory)."""
    return [{"id": f"{name}-{k}", "subcategory": name, "difficulty": None, "category": "C",
             "task_type": "numeric", "messages": [{"role": "user", "content": f"{name}/{k}"}]}
            for name, n in sizes.items() for k in range(n)]


def test_sample_is_proportional_largest_remainder_and_reproducible():
    # FinQA's shape: one calculation type is 66% of the set — it must be ~66% of the sample, not 1/4 of it
    recs = _strata({"ratio": 660, "change": 170, "sum": 90, "product": 80})
    idx, design = data_input.choose(recs, sample=100, seed=3)
    assert len(idx) == 100 and idx == sorted(idx) and len(set(idx)) == 100
    got = Counter(recs[i]["subcategory"] for i in idx)
    assert got == {"ratio": 66, "change": 17, "sum": 9, "product": 8}  # exactly the shares (quota 66/17/9/8)
    assert design.method == "proportional" and design.key == "subcategory"
    assert design.strata == {"ratio": [660, 66], "change": [170, 17], "sum": [90, 9], "product": [80, 8]}
    # largest remainder: 10 of 1,000 → 6.6 / 1.7 / 0.9 / 0.8 → floors 6,1,0,0 then the three largest remainders
    assert Counter(recs[i]["subcategory"] for i in data_input.pick(recs, sample=10, seed=3)) == \
        {"ratio": 6, "change": 2, "sum": 1, "product": 1}
    # fewer seats than strata: no forced minimum (N = 3 < 4 strata), the largest shares win
    assert Counter(recs[i]["subcategory"] for i in data_input.pick(recs, sample=3, seed=3)) == {"ratio": 2, "change": 1}
    # a stratum of one record gets its seat when N allows one per stratum …
    tiny = _strata({"big": 990, "one": 1})
    assert Counter(recs_i["subcategory"] for recs_i in (tiny[i] for i in data_input.pick(tiny, sample=20))) == \
        {"big": 19, "one": 1}
    assert data_input.pick(recs, sample=100, seed=3) == idx
    assert data_input.pick(recs, sample=100, seed=4) != idx
    assert data_input.pick(recs, limit=5) == [0, 1, 2, 3, 4]  # --limit keeps its first-N meaning
    assert data_input.pick(recs, sample=5000) == list(range(1000))
    assert data_input.choose(recs, limit=5)[1].method == "first" and data_input.choose(recs)[1].method == "all"


def test_equal_allocation_records_the_weights():
    recs = _strata({"ratio": 660, "change": 170, "sum": 90, "product": 80})
    idx, design = data_input.choose(recs, sample=40, seed=1, allocation="equal")
    assert Counter(recs[i]["subcategory"] for i in idx) == {"ratio": 10, "change": 10, "sum": 10, "product": 10}
    line = design.line_fields(recs[0])
    assert line["method"] == "equal" and line["allocation"] == "equal" and line["sample_seed"] == 1
    assert (line["stratum_key"], line["stratum"], line["stratum_population"], line["stratum_sample"]) == \
        ("subcategory", "ratio", 660, 10)
    assert line["weight"] == pytest.approx(66.0)
    with pytest.raises(InputError, match="allocation"):
        data_input.choose(recs, sample=4, allocation="optimal")


@needs_data
def test_sample_of_the_release_estimates_each_subset():
    """Issue 27 point 1 on the real files: every first-level stratum's share of a 100-record sample is its share
    of the subset within rounding (the old equal spread gave FinQA 比率計算 16–20% against 66%)."""
    for name in NAMES:
        recs = [json.loads(line) for line in (DATA_DIR / CONFIGS[name].data_file).open(encoding="utf-8")]
        idx, design = data_input.choose(recs, sample=100)
        pop = Counter(data_input.stratum_value(r, design.key) for r in recs)
        got = Counter(data_input.stratum_value(recs[i], design.key) for i in idx)
        for stratum, n in pop.items():
            assert abs(got[stratum] - 100 * n / len(recs)) <= 1, (name, stratum, got[stratum], n)
    finchain = [json.loads(line) for line in (DATA_DIR / CONFIGS["finchain"].data_file).open(encoding="utf-8")]
    idx = data_input.pick(finchain, sample=100)
    assert Counter(finchain[i]["difficulty"] for i in idx) == {"基礎": 40, "中級": 40, "進階": 20}
    assert len({finchain[i]["category"] for i in idx}) == len({r["category"] for r in finchain})  # every domain


@needs_data
def test_equal_sample_on_finchain_covers_every_topic_and_difficulty():
    recs = [json.loads(line) for line in (DATA_DIR / CONFIGS["finchain"].data_file).open(encoding="utf-8")]
    topics = {r["subcategory"] for r in recs}
    idx = data_input.pick(recs, sample=len(topics) * 3, allocation="equal")
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


def test_sample_seed_is_not_the_generation_seed_and_the_design_is_in_every_line(tmp_path, capsys):
    data = tmp_path / "d.jsonl"
    data.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n"
                            for r in _strata({"ratio": 30, "change": 10})), encoding="utf-8")

    def ids(out: Path) -> list[str]:
        return [json.loads(x)["id"] for x in out.read_text(encoding="utf-8").splitlines()]

    with FakeOpenAIServer(lambda body: "答案：1") as srv:
        assert _run(capsys, srv, data, tmp_path / "a.jsonl", "--sample", "8", "--seed", "5")[0] == 0
        assert {b["seed"] for b in srv.requests} == {5}
        assert _run(capsys, srv, data, tmp_path / "b.jsonl", "--sample", "8", "--seed", "6")[0] == 0
        assert sorted(ids(tmp_path / "a.jsonl")) == sorted(ids(tmp_path / "b.jsonl"))  # --seed: same sample
        assert _run(capsys, srv, data, tmp_path / "c.jsonl", "--sample", "8", "--sample-seed", "9")[0] == 0
        assert sorted(ids(tmp_path / "c.jsonl")) != sorted(ids(tmp_path / "a.jsonl"))
        assert all("seed" not in b for b in srv.requests[-8:])  # --sample-seed is never sent
        lines = [json.loads(x) for x in (tmp_path / "c.jsonl").read_text(encoding="utf-8").splitlines()]
        for x in lines:
            s = x["sampling"]
            assert (s["method"], s["sample"], s["allocation"], s["sample_seed"], s["population"], s["size"]) == \
                ("proportional", 8, "proportional", 9, 40, 8)
            assert s["stratum_key"] == "subcategory" and s["stratum_population"] in (30, 10)
        assert Counter(x["sampling"]["stratum"] for x in lines) == {"ratio": 6, "change": 2}
        sent = len(srv.requests)
        rc, cap = _run(capsys, srv, data, tmp_path / "c.jsonl", "--sample", "8", "--sample-seed", "10")
        assert rc == 2 and "--sample-seed 9" in cap.err and "another --out" in cap.err
        assert len(srv.requests) == sent  # a second sample is never mixed into the first
        assert _run(capsys, srv, data, tmp_path / "c.jsonl")[0] == 0  # extending to the whole set is fine
        assert len(srv.requests) == sent + 32
