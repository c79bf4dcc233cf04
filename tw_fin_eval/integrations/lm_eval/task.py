"""The lm-eval Task class of the tw_fin_eval tasks: a ConfigurableTask whose prompt is the document's
ready-built chat messages (system prompt, table, question; for ConvFinQA the gold history), sent as they
are — lm-eval's own prompt assembly (few-shot, system instruction) would change our protocol."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lm_eval.api.task import ConfigurableTask

from tw_fin_eval.integrations.lm_eval.harness import render_plain


class TwFinEvalTask(ConfigurableTask):
    def __init__(self, config: dict[str, Any] | None = None, **kwargs: Any) -> None:
        # lm-eval hands a Python task its whole YAML config, including the `class` key that chose it
        config = {k: v for k, v in (config or {}).items() if k != "class"}
        super().__init__(config=config, **kwargs)

    def fewshot_context(self, doc: dict[str, Any], num_fewshot: int, system_instruction: str | None = None,
                        apply_chat_template: bool = False, fewshot_as_multiturn: bool = False,
                        chat_template: Callable[..., Any] | None = None, gen_prefix: str | None = None) -> Any:
        if num_fewshot:
            raise ValueError(f"{self.config.task}: few-shot is not supported — the tw_fin_eval prompts are "
                             "zero-shot and ready-built (leave --num_fewshot unset)")
        if system_instruction:
            raise ValueError(f"{self.config.task}: --system_instruction is not supported — every document "
                             "carries its own zh-TW system prompt")
        messages = [{"role": m["role"], "content": m["content"]} for m in doc["messages"]]
        if apply_chat_template and chat_template is not None:
            return chat_template(messages, add_generation_prompt=True)
        return render_plain(messages)
