"""tw_fin_eval_basic: the `datasets` builder with one typed config per subset.

datasets ≥ 4 no longer runs loading scripts from the Hub, so the public release is parquet + a generated card
(`tw-fin-eval release`). This builder exposes the same typed configs (features from
tw_fin_eval.features, configs from the subset registry tw_fin_eval.subsets) for local use; the release writes the same rows
with the same features (tests/test_builder.py checks that they agree). It works when instantiated directly:

    from tw_fin_eval_basic import TwFinEvalBasic
    builder = TwFinEvalBasic(config_name="finqa")
    builder.download_and_prepare()
    ds = builder.as_dataset(split="test")

Every record is checked against the declared features first: a wrong-typed or missing field stops the
build with the file, line, id and field instead of turning into a silent null.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import datasets

from tw_fin_eval import __version__
from tw_fin_eval.errors import InputError
from tw_fin_eval.features import project
from tw_fin_eval.jsonl import iter_jsonl
from tw_fin_eval.paths import DATA_DIR
from tw_fin_eval.release.validate import record_errors
from tw_fin_eval.subsets import DEFAULT_SUBSET, SUBSETS, features_for

_HOMEPAGE = "https://huggingface.co/datasets/APMIC/tw_fin_eval_basic"
_LICENSE = "Derivative of FinQA/ConvFinQA (MIT), FinChain (Apache-2.0), Finance Agent Benchmark (MIT; CC BY 4.0 per the paper); see LICENSES.md"
DATA_DIR_ENV = "TW_FIN_EVAL_DATA"


@dataclass
class TwFinEvalConfig(datasets.BuilderConfig):
    data_file: str = ""
    citation: str = ""


def _data_dir() -> Path:
    return Path(os.environ.get(DATA_DIR_ENV) or DATA_DIR)


def _configs() -> list[TwFinEvalConfig]:
    out = []
    for c in SUBSETS.values():
        if c.optional and not (_data_dir() / c.data_file).is_file():
            continue  # FinLLM450 / FinSearchComp appear only when their data file exists
        out.append(TwFinEvalConfig(name=c.name, version=datasets.Version(__version__), description=c.description,
                                   data_file=c.data_file, citation=c.citation))
    return out


class TwFinEvalBasic(datasets.GeneratorBasedBuilder):
    """Taiwan financial LLM evaluation set (basic abilities), one config per subset, split `test`."""

    BUILDER_CONFIG_CLASS = TwFinEvalConfig
    BUILDER_CONFIGS = _configs()
    DEFAULT_CONFIG_NAME = DEFAULT_SUBSET

    def _info(self) -> datasets.DatasetInfo:
        return datasets.DatasetInfo(
            description=self.config.description,
            features=features_for(self.config.name),
            homepage=_HOMEPAGE,
            license=_LICENSE,
            citation=self.config.citation,
        )

    def _split_generators(self, dl_manager):
        folder = Path(self.config.data_dir) if self.config.data_dir else _data_dir()
        path = folder / self.config.data_file
        if not path.is_file():
            raise FileNotFoundError(f"{path}: not built yet — run `tw-fin-eval build`")
        if path.stat().st_size == 0:
            raise ValueError(f"{path}: empty (nothing translated or built yet for {self.config.name!r})")
        return [datasets.SplitGenerator(name=datasets.Split.TEST, gen_kwargs={"path": str(path)})]

    def _generate_examples(self, path: str):
        # Same checks as the release: a wrong-typed field is reported with file, line and id instead of
        # being nulled by project() or failing inside Arrow without saying which record.
        features = self.info.features
        config = SUBSETS[self.config.name]
        for lineno, record in iter_jsonl(path):
            errors = record_errors(record, config, features)
            if errors:
                raise InputError("; ".join(errors[:3]), path=path, line=lineno, item_id=record.get("id"))
            yield record["id"], project(record, features)
