"""`tw-fin-eval lm-eval-path`: print the folder of our lm-evaluation-harness task configs, for
`lm_eval --include_path "$(tw-fin-eval lm-eval-path)" --tasks tw_fin_eval_basic …`."""

from __future__ import annotations

import argparse

from tw_fin_eval.integrations.lm_eval import include_path

EPILOG = """\
Example (an OpenAI-compatible server at localhost:8000; the release folder written by `tw-fin-eval release`):
  lm_eval --include_path "$(tw-fin-eval lm-eval-path)" --tasks tw_fin_eval_basic \\
      --model local-chat-completions --apply_chat_template \\
      --model_args model=my-model,base_url=http://localhost:8000/v1/chat/completions \\
      --metadata '{"release": "hf_release"}' --log_samples --output_path lm_eval_out
Without "release" the tasks read $TW_FIN_EVAL_RELEASE, else the Hub dataset APMIC/tw_fin_eval_basic.
Tasks: tw_fin_eval_basic (group: macro average), tw_fin_eval_finqa, tw_fin_eval_convfinqa, tw_fin_eval_finchain.
"""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = EPILOG


def main(args: argparse.Namespace) -> int:
    print(include_path())
    return 0
