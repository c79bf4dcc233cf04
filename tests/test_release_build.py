"""`tw-fin-eval release`: hf_release/ loads exactly as users will load it (load_dataset on the folder, also
streaming), with the declared features, a card whose YAML round-trips, and nothing that must stay private.
Built from small synthetic records in a tmp folder (offline, a few seconds); one test on the real data/."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import datasets  # noqa: E402
import pytest  # noqa: E402
from datasets.info import DatasetInfosDict  # noqa: E402
from datasets.utils.metadata import MetadataConfigs  # noqa: E402
from huggingface_hub import DatasetCard  # noqa: E402

from tw_fin_eval.configs import CONFIGS, RELEASE_CONFIGS  # noqa: E402
from tw_fin_eval.features import project  # noqa: E402
from tw_fin_eval.jsonl import dumps, write_jsonl  # noqa: E402
from tw_fin_eval.paths import DATA_DIR, REPO_ROOT  # noqa: E402
from tw_fin_eval.release import writer  # noqa: E402
from tw_fin_eval.release.synthetic import write_synthetic_data  # noqa: E402
from tw_fin_eval.release.verify import verify_release, zh_findings  # noqa: E402
from tw_fin_eval.subsets import features_for  # noqa: E402

NAMES = [c.name for c in RELEASE_CONFIGS]
COUNTS = {"finqa": 5, "convfinqa": 2, "finchain": 4, "financeagent": 3}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("rel")
    data = root / "data"
    records = write_synthetic_data(data, COUNTS)
    # internal / non-zh-TW subsets lying in data/ must never reach the release
    write_jsonl(data / CONFIGS["finllm450"].data_file, [{"id": "finllm450-0001"}])
    write_jsonl(data / CONFIGS["finsearchcomp"].data_file, [{"id": "finsearchcomp-x"}])
    out = root / "hf_release"
    stats = writer.write_release(data, out, today="2026-01-01", log=lambda *_: None)
    return out, records, stats, root / "cache"


@pytest.mark.parametrize("name", NAMES)
def test_load_dataset_every_config_with_declared_features(built, name):
    out, records, _, cache = built
    ds = datasets.load_dataset(str(out), name, split="test", cache_dir=str(cache))
    assert ds.features == features_for(name)
    assert len(ds) == COUNTS[name]
    assert ds.to_list() == [project(r, features_for(name)) for r in records[name]]


@pytest.mark.parametrize("name", NAMES)
def test_streaming_load_every_config(built, name):
    out, records, _, cache = built
    ds = datasets.load_dataset(str(out), name, split="test", streaming=True, cache_dir=str(cache))
    assert ds.features == features_for(name)
    assert [row["id"] for row in ds] == [r["id"] for r in records[name]]


def test_types_do_not_drift(built):
    """int answers become float64, all-null columns keep their type, yes/no answers stay null."""
    out, _, _, cache = built
    finqa = datasets.load_dataset(str(out), "finqa", split="test", cache_dir=str(cache))
    assert finqa.features["answer_value"] == datasets.Value("float64")
    assert finqa.features["difficulty"] == datasets.Value("string")  # null in every record
    assert isinstance(finqa[0]["answer_value"], float)
    assert any(v is None for v in finqa["answer_value"])
    conv = datasets.load_dataset(str(out), "convfinqa", split="test", cache_dir=str(cache))
    assert isinstance(conv[0]["turns"], list) and conv[0]["turns"][1]["answer_value"] is None
    assert conv[0]["context"]["table"][1] == ["淨利", "120", "100"]


def test_config_names(built):
    out, *_ = built
    assert sorted(datasets.get_dataset_config_names(str(out))) == sorted(NAMES)


def test_card_yaml_round_trips_and_declares_features(built):
    out, *_ = built
    card = DatasetCard.load(out / "README.md")
    again = DatasetCard(str(card))
    assert again.data.to_dict() == card.data.to_dict()
    data = card.data
    assert data.language == ["zh", "en"] and "zh-TW" in data.language_details
    assert data.license == "other" and data.license_link == "LICENSES.md"
    assert data.size_categories == ["n<1K"] and data.pretty_name
    metadata = MetadataConfigs.from_dataset_card_data(data)
    infos = DatasetInfosDict.from_dataset_card_data(data)
    assert set(metadata) == set(infos) == set(NAMES)
    assert metadata.get_default_config_name() == "finqa"
    for name in NAMES:
        assert infos[name].features == features_for(name)
        assert infos[name].splits["test"].num_examples == COUNTS[name]
        assert metadata[name]["data_files"] == [{"split": "test", "path": f"data/{name}/test-*"}]


def test_card_body_counts_are_measured(built):
    out, *_ = built
    body = DatasetCard.load(out / "README.md").text
    assert "{{" not in body
    for name in NAMES:
        assert f"| `{name}` | {CONFIGS[name].dataset} | {COUNTS[name]} |" in body
    assert f"**{sum(COUNTS.values())}**" in body
    assert "對話 conversations：2，輪數 turns：4" in body
    assert 'load_dataset("APMIC/tw_fin_eval_basic", "finqa", split="test")' in body
    for c in RELEASE_CONFIGS:  # every upstream citation is on the card
        assert c.citation.splitlines()[0] in body


def test_release_contents_and_exclusions(built):
    out, *_ = built
    files = {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()}
    assert {f"data/{n}/test-00000-of-00001.parquet" for n in NAMES} <= files
    assert not [f for f in files if f.startswith("data/") and f.split("/")[1] not in NAMES]
    assert not [f for f in files if "finllm450" in f.lower() and f.endswith((".parquet", ".jsonl"))]
    assert not [f for f in files if Path(f).name == "tw_fin_eval_basic.py"]
    assert not [f for f in files if "__pycache__" in f or f.endswith(".pyc")]
    assert {"code/tools/score.py", "code/tools/run.py", "code/tw_fin_eval/features.py",
            "finchain_tw_templates/generate.py", "LICENSES.md"} <= files
    assert (out / "LICENSES.md").read_bytes() == (REPO_ROOT / "LICENSES.md").read_bytes()
    assert not list(out.parent.glob(".hf_release.*"))  # no temporary folder left behind


def test_verify_accepts_release_and_zh_clean(built):
    out, *_ = built
    assert verify_release(out) == []
    assert zh_findings(out) == []


def _copy(src: Path, dst: Path) -> Path:
    shutil.copytree(src, dst)
    return dst


def test_verify_flags_loading_script_and_private_config(built, tmp_path):
    rel = _copy(built[0], tmp_path / "hf_release")
    (rel / "tw_fin_eval_basic.py").write_text("# would break load_dataset\n")
    (rel / "data" / "finllm450").mkdir()
    (rel / "data" / "finllm450" / "test-00000-of-00001.parquet").write_bytes(b"x")
    problems = "\n".join(verify_release(rel))
    assert "tw_fin_eval_basic.py" in problems and "data/finllm450" in problems


def _release(data: Path, out: Path) -> int:
    """`tw-fin-eval release` through the real command registry (InputError → exit 2)."""
    from tw_fin_eval.cli import main

    return main(["release", "--data", str(data), "--out", str(out), "--no-check-zh"])


@pytest.fixture()
def previous(tmp_path):
    """A data folder and an existing release that a refused release must leave untouched."""
    data = tmp_path / "data"
    write_synthetic_data(data)
    out = tmp_path / "hf_release"
    out.mkdir()
    (out / "marker.txt").write_text("previous release")
    return data, out


def _assert_untouched(out: Path) -> None:
    assert (out / "marker.txt").read_text() == "previous release"
    assert sorted(p.name for p in out.iterdir()) == ["marker.txt"]
    assert not [p for p in out.parent.iterdir() if p.name.startswith(".hf_release")]


def test_refuses_missing_data_file(previous, capsys):
    data, out = previous
    (data / CONFIGS["convfinqa"].data_file).unlink()
    assert _release(data, out) == 2
    assert re.search(r"error: .*convfinqa_tw_dev\.jsonl: .*missing", capsys.readouterr().err)
    _assert_untouched(out)


def test_refuses_empty_data_file(previous, capsys):
    data, out = previous
    (data / CONFIGS["financeagent"].data_file).write_text("")
    assert _release(data, out) == 2
    assert re.search(r"error: .*financeagent_tw\.jsonl: .*empty", capsys.readouterr().err)
    _assert_untouched(out)


def test_refuses_bad_record_naming_file_line_id_field(previous, capsys):
    data, out = previous
    path = data / CONFIGS["finqa"].data_file
    lines = path.read_text(encoding="utf-8").splitlines()
    import json

    bad = json.loads(lines[1])
    bad["answer_value"] = "ninety-four"
    lines[1] = dumps(bad)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert _release(data, out) == 2
    msg = capsys.readouterr().err
    assert "finqa_tw_test.jsonl:2" in msg and "id=finqa_tw-test-0002" in msg
    assert "answer_value" in msg
    _assert_untouched(out)


def test_interrupted_release_leaves_previous_folder(previous, monkeypatch):
    data, out = previous

    def boom(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(writer, "render_card", boom)
    with pytest.raises(KeyboardInterrupt):
        writer.write_release(data, out, log=lambda *_: None)
    _assert_untouched(out)


def test_release_replaces_previous_folder(previous):
    data, out = previous
    dead = out.parent / ".hf_release.tmp-999999999"  # left by a release killed outright (no such pid)
    (dead / "data").mkdir(parents=True)
    assert _release(data, out) == 0
    assert not (out / "marker.txt").exists() and (out / "README.md").is_file()
    assert not [p for p in out.parent.iterdir() if p.name.startswith(".hf_release")]


def test_parquet_is_deterministic(previous, tmp_path):
    data, _ = previous
    a = writer.write_release(data, tmp_path / "a", today="2026-01-01", log=lambda *_: None)
    b = writer.write_release(data, tmp_path / "b", today="2026-01-01", log=lambda *_: None)
    assert [s.items for s in a] == [s.items for s in b]

    def digest(folder: Path) -> dict[str, str]:
        # data and card only: code/ is a plain copy of a working tree others may be editing right now
        files = [folder / "README.md", *sorted((folder / "data").rglob("*.parquet"))]
        return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest() for p in files}

    assert digest(tmp_path / "a") == digest(tmp_path / "b")


def _real_configs() -> list[str]:
    return [c.name for c in RELEASE_CONFIGS if (DATA_DIR / c.data_file).is_file()
            and (DATA_DIR / c.data_file).stat().st_size > 0]


@pytest.mark.skipif(not _real_configs(), reason="data/ not built (tw-fin-eval build)")
def test_real_data_release_loads(tmp_path):
    """The built data/: every non-empty release config releases and loads with its declared features."""
    names = _real_configs()
    data = tmp_path / "data"  # a snapshot: data/ may be rebuilt by someone else while this runs
    data.mkdir()
    for n in names:
        shutil.copy2(DATA_DIR / CONFIGS[n].data_file, data / CONFIGS[n].data_file)
    out = tmp_path / "hf_release"
    stats = writer.write_release(data, out, configs=[CONFIGS[n] for n in names], log=lambda *_: None)
    for s in stats:
        lines = sum(1 for line in (data / s.config.data_file).open(encoding="utf-8") if line.strip())
        ds = datasets.load_dataset(str(out), s.config.name, split="test", cache_dir=str(tmp_path / "cache"))
        assert ds.features == features_for(s.config.name)
        assert len(ds) == s.items == lines
    assert verify_release(out, allow_partial=True) == []


def test_card_date_follows_source_date_epoch(monkeypatch):
    from tw_fin_eval.release.writer import _release_date

    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")  # 2026-01-01T00:00:00Z
    assert _release_date() == "2026-01-01"
    monkeypatch.delenv("SOURCE_DATE_EPOCH")
    import datetime as dt

    assert _release_date() == dt.datetime.now(dt.timezone.utc).date().isoformat()
