"""The dataset configs (one per subset): data file, description, citation, and whether the public
Hugging Face release carries it. The builder script, the release writer and the card use this table."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ConfigInfo:
    name: str
    dataset: str
    data_file: str
    description: str
    citation: str
    in_release: bool = True
    optional: bool = False  # built only when its data file exists


FINQA_CITATION = """@inproceedings{chen2021finqa,
  title={FinQA: A Dataset of Numerical Reasoning over Financial Data},
  author={Chen, Zhiyu and Chen, Wenhu and Smiley, Charese and Shah, Sameena and Borova, Iana and Langdon, Dylan and Moussa, Reema and Beane, Matt and Huang, Ting-Hao and Routledge, Bryan and Wang, William Yang},
  booktitle={Proceedings of EMNLP 2021},
  year={2021},
  note={arXiv:2109.00122}
}"""
CONVFINQA_CITATION = """@inproceedings{chen2022convfinqa,
  title={ConvFinQA: Exploring the Chain of Numerical Reasoning in Conversational Finance Question Answering},
  author={Chen, Zhiyu and Li, Shiyang and Smiley, Charese and Ma, Zhiqiang and Shah, Sameena and Wang, William Yang},
  booktitle={Proceedings of EMNLP 2022},
  year={2022},
  note={arXiv:2210.03849}
}"""
FINCHAIN_CITATION = """@article{xie2025finchain,
  title={FinChain: A Symbolic Benchmark for Verifiable Chain-of-Thought Financial Reasoning},
  author={Xie, Zhuohan and others},
  journal={arXiv preprint arXiv:2506.02515},
  year={2025}
}"""
FINANCEAGENT_CITATION = """@article{bigeard2025financeagent,
  title={Finance Agent Benchmark: Benchmarking LLMs on Real-world Financial Research Tasks},
  author={Bigeard, Antoine and others},
  journal={arXiv preprint arXiv:2508.00828},
  year={2025}
}"""
FINSEARCHCOMP_CITATION = """@article{hu2025finsearchcomp,
  title={FinSearchComp: Towards a Realistic, Expert-Level Evaluation of Financial Search and Reasoning},
  author={Hu, Liang and others},
  journal={arXiv preprint arXiv:2509.13160},
  year={2025}
}"""

CONFIGS: dict[str, ConfigInfo] = {
    "finqa": ConfigInfo(
        "finqa", "FinQA-TW", "finqa_tw_test.jsonl",
        "FinQA test set in Taiwan financial Chinese: numerical reasoning over a financial table and evidence "
        "sentences (gold evidence where FinQA's gold_inds survive, silver evidence otherwise).",
        FINQA_CITATION),
    "convfinqa": ConfigInfo(
        "convfinqa", "ConvFinQA-TW", "convfinqa_tw_dev.jsonl",
        "ConvFinQA dev set in Taiwan financial Chinese: multi-turn numerical conversations over a table; turn k "
        "is asked with the gold answers of the earlier turns.",
        CONVFINQA_CITATION),
    "finchain": ConfigInfo(
        "finchain", "FinChain-TW", "finchain_tw.jsonl",
        "FinChain-TW: step-by-step financial calculations from our own zh-TW templates (12 domains, 58 topics, "
        "5 templates per topic, 10 seeds), with machine-readable intermediate steps.",
        FINCHAIN_CITATION),
    "financeagent": ConfigInfo(
        "financeagent", "FinanceAgent-TW", "financeagent_tw.jsonl",
        "Finance Agent Benchmark public set in Taiwan financial Chinese: open questions about U.S. filings with a "
        "reference answer and rubric; evaluated closed-book here (the original benchmark gives tools).",
        FINANCEAGENT_CITATION),
    "finllm450": ConfigInfo(
        "finllm450", "FinLLM450", "finllm450.jsonl",
        "FinLLM 450 (APMIC × bank consortium): multiple-choice, short-answer and case questions on Taiwan "
        "regulation and practice. Internal only.",
        "", in_release=False, optional=True),
    "finsearchcomp": ConfigInfo(
        "finsearchcomp", "FinSearchComp", "finsearchcomp.jsonl",
        "FinSearchComp (ByteDance Seed, CC BY 4.0): financial search questions judged by their own judge prompts. "
        "Supported for running and scoring; not part of the zh-TW release.",
        FINSEARCHCOMP_CITATION, in_release=False, optional=True),
}

RELEASE_CONFIGS = [c for c in CONFIGS.values() if c.in_release]
