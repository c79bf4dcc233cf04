import os
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))


@pytest.fixture(scope="session")
def sources_root() -> Path:
    """The English sources (../shared/sources or $TW_FIN_EVAL_SOURCES); tests that need them are skipped,
    with the reason, on a checkout without them."""
    from tw_fin_eval.errors import InputError
    from tw_fin_eval.paths import sources_dir

    try:
        return sources_dir(os.environ.get("TW_FIN_EVAL_SOURCES"))
    except InputError as exc:
        pytest.skip(f"needs the English sources: {exc}")
