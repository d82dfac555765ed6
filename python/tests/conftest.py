"""What the tests of the optik Python package share: the bundled clinical-trial example, and
the optik command-line binary the package's results are compared with."""

import os
import shutil
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[2]
INSTANCES = ROOT / "instances"
TRIAL = INSTANCES / "clinical_trial.csv"
TRIAL_SCHEMA = INSTANCES / "clinical_trial.toml"


def optik_binary() -> Path:
    """The optik binary: $OPTIK_BIN, else the workspace's debug or release build."""
    if "OPTIK_BIN" in os.environ:
        return Path(os.environ["OPTIK_BIN"])
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    for profile in ("debug", "release"):
        candidate = target / profile / "optik"
        if candidate.exists():
            return candidate
    found = shutil.which("optik")
    if found:
        return Path(found)
    raise RuntimeError("no optik binary: build it (cargo build) or set OPTIK_BIN")


@pytest.fixture(scope="session")
def optik_bin() -> Path:
    return optik_binary()


@pytest.fixture
def trial() -> pd.DataFrame:
    """The clinical trial as pandas reads it."""
    return pd.read_csv(TRIAL)
