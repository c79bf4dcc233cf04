"""Where things are: the repository root, the English sources, the build outputs."""

from __future__ import annotations

import os
from pathlib import Path

from tw_fin_eval.errors import not_a_folder

PACKAGE_DIR = Path(__file__).resolve().parent
REPO_ROOT = PACKAGE_DIR.parent
SOURCES_ENV = "TW_FIN_EVAL_SOURCES"

DATA_DIR = REPO_ROOT / "data"
TRANSLATIONS_DIR = REPO_ROOT / "translations"
VERIFICATION_DIR = REPO_ROOT / "verification"  # gold verdicts (docs/VERIFICATION.md)
GLOSSARY_PATH = REPO_ROOT / "術語表_glossary_zh-TW.md"
RELEASE_DIR = REPO_ROOT / "hf_release"


def sources_dir(override: str | os.PathLike | None = None) -> Path:
    """--sources beats $TW_FIN_EVAL_SOURCES beats ../shared/sources beside the repository."""
    if override:
        path = Path(override)
    elif os.environ.get(SOURCES_ENV):
        path = Path(os.environ[SOURCES_ENV])
    else:
        path = REPO_ROOT.parent / "shared" / "sources"
    if not path.is_dir():
        raise not_a_folder(path, f"sources folder not found (set --sources or ${SOURCES_ENV})", "sources folder")
    return path

