"""FinSearchComp adapter: all 635 upstream rows become typed open_judge records, keyed on (prompt_id, label),
every upstream field kept, the reference the judge needs present; bad source rows are refused by name."""

from __future__ import annotations

import copy
import json
import os
import re
from collections import Counter
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import datasets  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402
import pytest  # noqa: E402

import tw_fin_eval_basic as builder_mod  # noqa: E402
from tw_fin_eval.configs import CONFIGS  # noqa: E402
from tw_fin_eval.errors import InputError  # noqa: E402
from tw_fin_eval.features import project  # noqa: E402
from tw_fin_eval.jsonl import write_jsonl  # noqa: E402
from tw_fin_eval.release.validate import record_errors  # noqa: E402
from tw_fin_eval.sources import finsearchcomp as fsc  # noqa: E402
from tw_fin_eval.subsets import features_for  # noqa: E402

# published counts (paper / PROVENANCE.md): T1 244, T2 219, T3 172
COUNTS = {("T1", "Global"): 134, ("T1", "Greater China"): 110, ("T2", "Global"): 119,
          ("T2", "Greater China"): 100, ("T3", "Global"): 84, ("T3", "Greater China"): 88}
CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture(scope="module")
def rows(sources_root) -> list[dict]:
    path = sources_root / "finsearchcomp" / "finsearchcomp_data.json"
    if not path.is_file():
        pytest.skip("FinSearchComp source not available")
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def records(rows, sources_root) -> list[dict]:
    return fsc.build_records(sources_root)


def test_all_rows_counts_and_unique_stable_ids(rows, records):
    assert len(records) == len(rows) == 635
    assert Counter((r["task"], r["region"]) for r in records) == COUNTS
    ids = [r["id"] for r in records]
    assert len(set(ids)) == 635
    for r in records:
        assert re.fullmatch(r"finsearchcomp-t[123]-(global|greater-china)-b?\d{3}", r["id"]), r["id"]
        # the id is derived from the upstream key, so it is the same on every build
        assert r["id"].endswith("-" + r["prompt_id"].rsplit("_", 1)[1])
        assert r["id"].split("-")[1] == r["task"].lower() == r["prompt_id"][1:3].lower()
    # the upstream key is (prompt_id, label): 83 T1 prompt_ids occur in both regions
    keys = [(r["prompt_id"], r["label"]) for r in records]
    assert len(set(keys)) == 635
    both = [pid for pid, n in Counter(r["prompt_id"] for r in records).items() if n == 2]
    assert len(both) == 83 and all(pid.startswith("(T1)") for pid in both)
    assert [r["source"]["orig_id"] for r in records] == [f"{pid}|{lab}" for pid, lab in keys]


def test_every_upstream_field_kept_verbatim_in_upstream_order(rows, records):
    assert len(fsc.UPSTREAM_FIELDS) == 12 and set(rows[0]) == set(fsc.UPSTREAM_FIELDS)
    for row, rec in zip(rows, records):
        assert {k: rec[k] for k in row} == row


def test_json_export_equals_the_upstream_parquet(rows, sources_root):
    """The adapter reads our JSON export; it must hold exactly the rows of the HF parquet beside it."""
    table = pq.read_table(sources_root / "finsearchcomp" / "finsearchcomp.parquet").to_pylist()
    assert [{k: t[k] for k in fsc.UPSTREAM_FIELDS} for t in table] == rows


def test_reference_task_region_and_language(records):
    for r in records:
        expected_ref = r["response_reference"] if r["response_reference"] is not None \
            else r["response_reference_translate"]
        assert r["answer"] == expected_ref and r["answer"]
        assert r["category"].startswith(r["task"] + "_") and r["subcategory"] == r["region"]
        assert r["label"].endswith(f"({r['region']})")
        assert r["task_type"] == "open_judge" and r["dataset"] == "FinSearchComp" and r["requires_tools"] is True
        assert r["messages"] == [{"role": "user", "content": r["prompt"]}] and r["question"] == r["prompt"]
        # Greater China prompts are (Simplified) Chinese, Global prompts English
        assert bool(CJK.search(r["prompt"])) == (r["region"] == "Greater China")
        assert r["lang"] == ("zh-CN" if r["region"] == "Greater China" else "en")
        has_gt_slot = "{ground_truth}" in r["judge_prompt_template"]
        assert has_gt_slot == (r["task"] == "T1") == (r["ground_truth"] is not None)
    # every T1-Global row takes the translated reference (its response_reference is null in this version)
    t1_global = [r for r in records if (r["task"], r["region"]) == ("T1", "Global")]
    assert all(r["response_reference"] is None for r in t1_global)
    assert sum(r["response_reference"] is None for r in records) == 134
    assert {r["time"] for r in records if r["task"] == "T1"} == {"2025/8/14"}


def test_records_match_the_declared_features(records):
    features = features_for("finsearchcomp")
    config = CONFIGS["finsearchcomp"]
    assert not config.in_release
    assert all(record_errors(r, config, features) == [] for r in records)
    assert set(records[0]) == set(features)  # nothing dropped by projection


def test_builder_loads_all_635_typed(records, tmp_path):
    """The datasets builder (tw_fin_eval_basic.py) reads data/finsearchcomp.jsonl with the declared features."""
    config = CONFIGS["finsearchcomp"]
    write_jsonl(tmp_path / config.data_file, records)

    class Builder(builder_mod.TwFinEvalBasic):  # the optional config exists only when its file does
        BUILDER_CONFIGS = [builder_mod.TwFinEvalConfig(name=config.name, version=datasets.Version("0.1.0"),
                                                       description=config.description, data_file=config.data_file,
                                                       citation=config.citation)]
        DEFAULT_CONFIG_NAME = "finsearchcomp"

    b = Builder(config_name="finsearchcomp", data_dir=str(tmp_path), cache_dir=str(tmp_path / "cache"))
    b.download_and_prepare()
    ds = b.as_dataset(split="test")
    features = features_for("finsearchcomp")
    assert ds.features == features and len(ds) == 635
    assert ds.features["requires_tools"] == datasets.Value("bool")
    assert ds.features["ground_truth"] == datasets.Value("string")
    assert ds.to_list() == [project(r, features) for r in records]


# ---- bad input ---------------------------------------------------------------------------------------------
def _write(tmp_path: Path, rows: list[dict]) -> Path:
    folder = tmp_path / "finsearchcomp"
    folder.mkdir(exist_ok=True)
    (folder / "finsearchcomp_data.json").write_text(json.dumps(rows, ensure_ascii=False), encoding="utf-8")
    return tmp_path


def test_root_may_be_the_sources_folder_or_the_subset_folder(rows, tmp_path):
    root = _write(tmp_path, rows[:3])
    assert fsc.build_records(root) == fsc.build_records(root / "finsearchcomp")
    assert len(fsc.build_records(root)) == 3


def test_missing_file_names_the_path(tmp_path):
    with pytest.raises(InputError, match="finsearchcomp_data.json"):
        fsc.build_records(tmp_path)


def test_broken_json_names_file_and_line(tmp_path):
    (tmp_path / "finsearchcomp_data.json").write_text('[\n{"prompt_id": }\n]', encoding="utf-8")
    with pytest.raises(InputError) as exc:
        fsc.build_records(tmp_path)
    assert exc.value.line == 2 and "finsearchcomp_data.json" in str(exc.value)


@pytest.mark.parametrize("mutate,field", [
    (lambda r: r.pop("ground_truth"), "ground_truth"),
    (lambda r: r.update(prompt=""), "prompt"),
    (lambda r: r.update(response_reference=None, response_reference_translate=None), "response_reference"),
    (lambda r: r.update(judge_prompt_template=r["judge_prompt_template"] + "{extra}"), "judge_prompt_template"),
    (lambda r: r.update(judge_prompt_template=r["judge_prompt_template"].replace("{response}", "")),
     "judge_prompt_template"),
    (lambda r: r.update(label="Simple_Historical_Lookup(Mars)"), "label"),
    (lambda r: r.update(wind_ticker=5), "wind_ticker"),
])
def test_bad_row_is_refused_with_its_key(rows, tmp_path, mutate, field):
    bad = copy.deepcopy(rows[:2])
    mutate(bad[1])
    root = _write(tmp_path, bad)
    with pytest.raises(InputError) as exc:
        fsc.build_records(root)
    assert exc.value.field == field and exc.value.item_id.startswith("row 1 ")


def test_duplicate_key_is_refused(rows, tmp_path):
    root = _write(tmp_path, [rows[0], rows[1], rows[0]])
    with pytest.raises(InputError, match=r"duplicate key.*first at row 0"):
        fsc.build_records(root)


# ---- a fresh T1 snapshot -----------------------------------------------------------------------------------
def test_fresh_snapshot_replaces_t1_ground_truth_and_reaches_the_judge(records, tmp_path, capsys):
    from tw_fin_eval.scoring import finsearchcomp as fj

    data = tmp_path / "finsearchcomp.jsonl"
    write_jsonl(data, records)
    t1 = [r for r in records if r["task"] == "T1"]
    snap = tmp_path / "fresh.jsonl"
    fresh_gt = '{"NVDA.O": {"RT_LAST": "999.99", "RT_DATE": "20261130"}}'
    write_jsonl(snap, [{"id": t1[0]["id"], "ground_truth": fresh_gt, "time": "2026-11-30 09:30"},
                       {"id": t1[1]["id"], "ground_truth": "price 1.23"}])
    out = tmp_path / "fresh_records.jsonl"
    assert fsc.main(["--data", str(data), "--snapshot", str(snap), "--out", str(out)]) == 0
    assert f"2/{len(t1)} T1 records with the fresh snapshot" in capsys.readouterr().out
    new = {r["id"]: r for r in map(json.loads, out.read_text(encoding="utf-8").splitlines())}
    assert (new[t1[0]["id"]]["ground_truth"], new[t1[0]["id"]]["time"]) == (fresh_gt, "2026-11-30 09:30")
    assert (new[t1[1]["id"]]["ground_truth"], new[t1[1]["id"]]["time"]) == ("price 1.23", "2025/8/14")
    assert new[t1[2]["id"]] == t1[2]  # not in the snapshot: unchanged (and reported stale)
    assert len(new) == 635 and data.read_text(encoding="utf-8").count("999.99") == 0  # input untouched
    user = fj.FinSearchCompProtocol().build(new[t1[0]["id"]], "answer").user
    assert fresh_gt in user and t1[0]["ground_truth"] not in user
    _, stale = fsc.apply_snapshot(records, snap)
    assert len(stale) == len(t1) - 2 and t1[0]["id"] not in stale


@pytest.mark.parametrize("line,msg", [
    ({"id": "finsearchcomp-t1-global-999", "ground_truth": "x"}, "unknown FinSearchComp record id"),
    ({"id": "finsearchcomp-t2-greater-china-001", "ground_truth": "x"}, "only T1 records"),
    ({"id": "finsearchcomp-t1-global-005", "ground_truth": ""}, "non-empty string"),
    ({"id": "finsearchcomp-t1-global-005", "ground_truth": "x", "time": 20261130}, "time must be a string"),
])
def test_bad_snapshot_line_is_refused_with_file_and_line(records, tmp_path, line, msg):
    snap = tmp_path / "fresh.jsonl"
    write_jsonl(snap, [{"id": "finsearchcomp-t1-global-006", "ground_truth": "ok"}, line])
    with pytest.raises(InputError, match=msg) as exc:
        fsc.apply_snapshot(records, snap)
    assert exc.value.line == 2 and exc.value.path == str(snap)


def test_snapshot_cli_refuses_to_overwrite_its_input_and_duplicates(records, tmp_path, capsys):
    data = tmp_path / "finsearchcomp.jsonl"
    write_jsonl(data, records)
    snap = tmp_path / "fresh.jsonl"
    write_jsonl(snap, [{"id": "finsearchcomp-t1-global-005", "ground_truth": "x"}] * 2)
    assert fsc.main(["--data", str(data), "--snapshot", str(snap), "--out", str(data)]) == 2
    assert fsc.main(["--data", str(data), "--snapshot", str(snap), "--out", str(tmp_path / "o.jsonl")]) == 2
    err = capsys.readouterr().err
    assert "--out must differ" in err and "given twice" in err and ":2" in err
    assert not (tmp_path / "o.jsonl").exists()
