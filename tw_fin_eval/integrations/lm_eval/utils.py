"""What the task YAML files name with `!function utils.…` (lm-eval loads this file by path)."""

from __future__ import annotations

from typing import Any

from tw_fin_eval.integrations.lm_eval.harness import (
    build_docs,
    complete_conversations,
    conversation_accuracy,
    load_records,
    mean_skip_none,
    process_results,
    render_plain,
)
from tw_fin_eval.integrations.lm_eval.task import TwFinEvalTask


def load_docs(config: str, release: str | None = None, **_: Any) -> Any:
    """custom_dataset: the release config as lm-eval documents (`release` comes from --metadata)."""
    import datasets

    docs = build_docs(load_records(config, release))
    features = datasets.Features({
        "id": datasets.Value("string"), "turn": datasets.Value("int64"),
        "messages": [{"role": datasets.Value("string"), "content": datasets.Value("string")}],
        "target": datasets.Value("string"), "record": datasets.Value("string"),
    })
    return datasets.DatasetDict({"test": datasets.Dataset.from_list(docs, features=features)})


def doc_to_text(doc: dict[str, Any]) -> str:
    return render_plain(doc["messages"])


__all__ = ["TwFinEvalTask", "load_docs", "doc_to_text", "process_results", "mean_skip_none",
           "conversation_accuracy", "complete_conversations"]
