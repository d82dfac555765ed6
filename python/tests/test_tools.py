"""optik.check, optik.assess and optik.export, with the command line's options and results."""

import json
import subprocess

import pytest

import optik
from conftest import TRIAL, TRIAL_SCHEMA


@pytest.fixture(scope="module")
def released():
    return optik.anonymise(TRIAL, schema=TRIAL_SCHEMA, k_column="k", method="kmember")


def test_check_reads_the_k_column_from_the_original(released):
    report = optik.check(released.release, schema=TRIAL_SCHEMA, k_column="k", original=TRIAL)
    assert report["verified"] is True and report["violations"] == 0
    assert report["records"] == 60
    with pytest.raises(ValueError, match="give the original table with original"):
        optik.check(released.release, schema=TRIAL_SCHEMA, k_column="k")


def test_check_finds_a_broken_release(released):
    broken = released.release.copy()
    broken.iloc[0, broken.columns.get_loc("sex")] = "X"
    report = optik.check(broken, schema=TRIAL_SCHEMA, k_column="k", original=TRIAL)
    assert report["verified"] is False
    assert report["first_violation"]["line"] == 2  # the DataFrame's first row


def test_check_equals_the_command_line(tmp_path, optik_bin, released):
    path = tmp_path / "release.csv"
    path.write_bytes(released.release_csv)
    subprocess.run(
        [optik_bin, "check", path, "--schema", TRIAL_SCHEMA, "--k-column", "k",
         "--original", TRIAL, "--report", tmp_path / "check.json"],
        check=True, capture_output=True,
    )
    cli = json.loads((tmp_path / "check.json").read_text())
    assert optik.check(path, schema=TRIAL_SCHEMA, k_column="k", original=TRIAL) == cli


def test_assess_measures_a_release_against_its_original(released):
    report = optik.assess(
        released.release, schema=TRIAL_SCHEMA, k_column="k", original=TRIAL, max_subset=2
    )
    assert report["classes"]["k_achieved"] >= 2
    assert report["classes"]["k_violations"] == 0
    assert 0 < report["risk"]["prosecutor"]["highest"] <= 1
    with pytest.raises(ValueError, match="risk_threshold must be between 0 and 1"):
        optik.assess(released.release, schema=TRIAL_SCHEMA, risk_threshold=2)


def test_export_formats(tmp_path, optik_bin, trial):
    instance = json.loads(optik.export(trial, schema=TRIAL_SCHEMA, k_column="k"))
    assert instance["n"] == 60 and instance["k"] == list(trial["k"])
    subprocess.run(
        [optik_bin, "export", TRIAL, "--schema", TRIAL_SCHEMA, "--k-column", "k",
         "--format", "dzn", "--out", tmp_path / "t.dzn"],
        check=True,
    )
    dzn = optik.export(TRIAL, schema=TRIAL_SCHEMA, k_column="k", format="dzn")
    assert dzn == (tmp_path / "t.dzn").read_text()
    with pytest.raises(ValueError, match="format lp: the compact MIP has no split model"):
        optik.export(TRIAL, schema=TRIAL_SCHEMA, k_column="k", format="lp", criterion="split")
