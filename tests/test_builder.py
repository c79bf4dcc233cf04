"""tw_fin_eval_basic.py, the datasets builder used directly: one typed config per subset, the declared
features, the same rows as the release, clear errors on missing/empty/bad data, optional configs only
when their data file exists."""

from __future__ import annotations

import os

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import pyarrow.parquet as pq  # noqa: E402
import pytest  # noqa: E402

import tw_fin_eval_basic as builder_mod  # noqa: E402
from tw_fin_eval.configs import CONFIGS, RELEASE_CONFIGS  # noqa: E402
from tw_fin_eval.errors import InputError  # noqa: E402
from tw_fin_eval.features import project  # noqa: E402
from tw_fin_eval.jsonl import write_jsonl  # noqa: E402
from tw_fin_eval.release import writer  # noqa: E402
from tw_fin_eval.release.synthetic import write_synthetic_data  # noqa: E402
from tw_fin_eval.subsets import features_for  # noqa: E402

NAMES = [c.name for c in RELEASE_CONFIGS]


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory):
    root = tmp_path_factory.mktemp("builder")
    records = write_synthetic_data(root / "data")
    return root, records


def _prepare(root, name, data_dir=None):
    b = builder_mod.TwFinEvalBasic(config_name=name, data_dir=str(data_dir or root / "data"),
                                   cache_dir=str(root / "cache"))
    b.download_and_prepare()
    return b.as_dataset(split="test")


@pytest.mark.parametrize("name", NAMES)
def test_builder_config_yields_typed_rows(synthetic, name):
    root, records = synthetic
    ds = _prepare(root, name)
    assert ds.features == features_for(name)
    assert ds.to_list() == [project(r, features_for(name)) for r in records[name]]
    assert ds.info.citation == CONFIGS[name].citation


def test_builder_and_release_agree(synthetic, tmp_path):
    root, _ = synthetic
    writer.write_release(root / "data", tmp_path / "rel", log=lambda *_: None)
    for name in NAMES:
        from_release = pq.read_table(tmp_path / "rel" / "data" / name / "test-00000-of-00001.parquet").to_pylist()
        assert _prepare(root, name).to_list() == from_release


def test_builder_configs_cover_release_and_optional_only_when_present(tmp_path, monkeypatch):
    monkeypatch.setenv(builder_mod.DATA_DIR_ENV, str(tmp_path))
    assert [c.name for c in builder_mod._configs()] == NAMES
    write_jsonl(tmp_path / CONFIGS["finllm450"].data_file, [{"id": "finllm450-0001"}])
    assert "finllm450" in [c.name for c in builder_mod._configs()]
    assert {c.name for c in builder_mod.TwFinEvalBasic.BUILDER_CONFIGS} >= set(NAMES)


def test_builder_refuses_bad_record_with_line_and_id(tmp_path):
    records = write_synthetic_data(tmp_path / "data")
    bad = dict(records["finchain"][1], seed="seven")
    write_jsonl(tmp_path / "data" / CONFIGS["finchain"].data_file, [records["finchain"][0], bad])
    with pytest.raises(Exception) as exc:
        _prepare(tmp_path, "finchain")
    # datasets may wrap the generator's error; the cause names file, line, id and field
    chain, e = [], exc.value
    while e is not None:
        chain.append(e)
        e = e.__cause__ or e.__context__
    msg = next(str(x) for x in chain if isinstance(x, InputError))
    assert "finchain_tw.jsonl:2" in msg and "id=finchain_tw-0002" in msg and "seed" in msg


def test_builder_refuses_missing_and_empty(tmp_path):
    (tmp_path / "data").mkdir()
    with pytest.raises(FileNotFoundError, match="tw-fin-eval build"):
        _prepare(tmp_path, "finqa")
    (tmp_path / "data" / CONFIGS["finqa"].data_file).write_text("")
    with pytest.raises(ValueError, match="empty"):
        _prepare(tmp_path, "finqa")
