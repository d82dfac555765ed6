"""optik.anonymise: DataFrame and CSV-path input, the release in the input's row order, the
report with the JSON report's keys, the same optimum and release as the command line, and
the comparison with the heuristics."""

import json
import subprocess

import pandas as pd
import pytest

import optik
from conftest import TRIAL, TRIAL_SCHEMA

RELEASED = ["age", "sex", "site", "bmi", "smoking", "arm", "adverse_event"]
QUASI = ["age", "sex", "site", "bmi", "smoking"]


def covers(cell: str, value) -> bool:
    """Whether a released numeric cell (the value, or an interval [a-b]) holds `value`."""
    if cell.startswith("["):
        low, high = cell[1:-1].split("-")
        return float(low) <= float(value) <= float(high)
    return float(cell) == float(value)


def test_dataframe_round_trip_keeps_rows_in_input_order(trial):
    shuffled = trial.sample(frac=1.0, random_state=7).set_index("subject_id", drop=False)
    res = optik.anonymise(shuffled, schema=TRIAL_SCHEMA, k_column="k")
    assert list(res.release.columns) == RELEASED
    assert list(res.release.index) == list(shuffled.index)
    assert list(res.classes.index) == list(shuffled.index)
    for sid, row in res.release.iterrows():
        original = shuffled.loc[sid]
        assert covers(row["age"], original["age"]), (sid, row["age"], original["age"])
        assert covers(row["bmi"], original["bmi"])
        assert row["arm"] == original["arm"]
        assert row["adverse_event"] == original["adverse_event"]
    # a class is a set of rows released with the same quasi-identifiers, at least its k_i big
    for _, members in res.release.groupby(res.classes):
        assert len(members[QUASI].drop_duplicates()) == 1
        assert len(members) >= shuffled.loc[members.index, "k"].max()
    assert res.status == "optimal"
    assert res.objective == pytest.approx(52.969)
    assert res.lower_bound == res.objective


def test_report_has_exactly_the_json_reports_keys(tmp_path, optik_bin):
    res = optik.anonymise(TRIAL, schema=TRIAL_SCHEMA, k_column="k")
    subprocess.run(
        [optik_bin, "anonymise", TRIAL, "--schema", TRIAL_SCHEMA, "--k-column", "k",
         "--method", "optimal", "--out", tmp_path / "r.csv", "--report", tmp_path / "r.json",
         "--quiet"],
        check=True,
    )
    cli = json.loads((tmp_path / "r.json").read_text())
    assert set(res.report) == set(cli)
    assert set(res.report["metrics"]) == set(cli["metrics"])
    assert set(res.report["heuristics"][0]) == set(cli["heuristics"][0])


@pytest.mark.parametrize("criterion", ["dbil", "wcsd"])
def test_optimal_run_equals_the_command_lines(tmp_path, optik_bin, criterion):
    out, report = tmp_path / "release.csv", tmp_path / "report.json"
    subprocess.run(
        [optik_bin, "anonymise", TRIAL, "--schema", TRIAL_SCHEMA, "--k-column", "k",
         "--method", "optimal", "--criterion", criterion, "--class-column", "class",
         "--out", out, "--report", report, "--quiet"],
        check=True,
    )
    cli = json.loads(report.read_text())
    res = optik.anonymise(
        TRIAL, schema=TRIAL_SCHEMA, k_column="k", criterion=criterion, class_column="class"
    )
    assert res.release_csv == out.read_bytes()
    assert res.status == cli["status"] == "optimal"
    assert res.objective == cli["objective"]
    assert res.lower_bound == cli["lower_bound"]
    assert res.report["heuristics"] == cli["heuristics"]
    assert res.report["metrics"] == cli["metrics"]
    assert list(res.release["class"].astype(int)) == list(res.classes)


def test_csv_path_input_and_a_heuristic_with_comparison(trial):
    res = optik.anonymise(
        str(TRIAL), qi=["age", "sex", "bmi"], k=3, method="mdav", compare=True, seed=4
    )
    assert list(res.release.index) == list(range(len(trial)))
    assert res.status == "heuristic" and res.lower_bound is None
    assert [h["method"] for h in res.heuristics] == ["mdav", "kmember", "mondrian"]
    assert res.heuristics[0]["ratio"] == 1.0
    for h in res.heuristics:
        assert h["ratio"] * res.objective == pytest.approx(h["objective"])
    assert "subject_id" in res.release.columns  # no schema: every other column is released
    assert res.report["parameters"]["form"] == "ki"


def test_pictures_and_the_html_comparison_table():
    res = optik.anonymise(TRIAL, schema=TRIAL_SCHEMA, k_column="k", time_limit="30s")
    assert res.to_svg(plot_axes="age,bmi").startswith("<svg")
    page = res.to_html()
    assert "Compared with the heuristics" in page and "<td>MDAV</td>" in page


def test_dropped_rows_leave_gaps_in_the_index(trial):
    holed = trial.copy()
    holed.loc[5, "age"] = None
    with pytest.raises(ValueError, match=r"DataFrame: line 7, column 'age': missing value .* drop_missing"):
        optik.anonymise(holed, schema=TRIAL_SCHEMA, k_column="k", method="mondrian")
    res = optik.anonymise(
        holed, schema=TRIAL_SCHEMA, k_column="k", method="mondrian", drop_missing=True
    )
    assert 5 not in res.release.index and len(res.release) == len(trial) - 1
    assert res.report["input"]["dropped_missing"] == 1


def test_sse_microaggregation_with_centroid_release():
    # Six points in two tight groups: the optimal 3-anonymous SSE partition is the two groups,
    # and the centroid release replaces each value by its group's mean.
    df = pd.DataFrame({"x": [1.0, 2.0, 3.0, 10.0, 11.0, 12.0], "y": [0, 0, 3, 9, 9, 12]})
    res = optik.anonymise(df, qi="x,y", k=3, criterion="sse", release="centroid")
    assert res.status == "optimal"
    assert res.report["metrics"]["sse_il"] > 0.0
    assert list(res.classes.iloc[:3]) == [res.classes.iloc[0]] * 3
    assert res.classes.iloc[0] != res.classes.iloc[3]
    assert [float(v) for v in res.release["x"]] == [2.0, 2.0, 2.0, 11.0, 11.0, 11.0]
    assert [float(v) for v in res.release["y"]] == [1.0, 1.0, 1.0, 10.0, 10.0, 10.0]


def test_lns_keeps_the_largest_class_size():
    res = optik.anonymise(TRIAL, schema=TRIAL_SCHEMA, k_column="k", engine="lns",
                          max_class_size=6, time_limit=3.0)
    assert res.report["exact"]["engine"] == "lns"
    assert res.report["constraints"]["max_class_size"]["holds"] is True
    assert res.classes.value_counts().max() <= 6
    assert res.lower_bound <= res.objective


def test_auto_runs_the_search_under_l_diversity_above_300_records(trial):
    copies = []
    for c in range(7):
        t = trial.copy()
        t["subject_id"] = t["subject_id"] + f"-{c}"
        t["age"] = t["age"] + c
        copies.append(t)
    table = pd.concat(copies, ignore_index=True)
    assert len(table) == 420
    res = optik.anonymise(table, schema=TRIAL_SCHEMA, k_column="k", l_diversity=2,
                          sensitive="adverse_event", time_limit=2.0)
    assert res.report["exact"]["engine"] == "lns"
    assert "under l-diversity, above 300" in res.report["exact"]["lns"]["chosen_by"]
    assert res.report["constraints"]["l_diversity"]["holds"] is True
    assert res.lower_bound <= res.objective


def test_lns_keeps_l_diversity_and_links(tmp_path):
    links = tmp_path / "links.csv"
    links.write_text("must,1,2\ncannot,3,4\n")
    res = optik.anonymise(TRIAL, schema=TRIAL_SCHEMA, k_column="k", engine="lns",
                          l_diversity=2, sensitive="adverse_event", links=links,
                          time_limit=3.0)
    assert res.report["exact"]["engine"] == "lns"
    constraints = res.report["constraints"]
    assert constraints["l_diversity"]["holds"] is True
    assert constraints["links"]["holds"] is True
    assert res.classes.iloc[0] == res.classes.iloc[1]
    assert res.classes.iloc[2] != res.classes.iloc[3]
    assert res.lower_bound <= res.objective


def test_cp_engine_with_node_lps_reaches_the_same_optimum(trial):
    res = optik.anonymise(trial, schema=TRIAL_SCHEMA, k_column="k", engine="cp", node_lp=True,
                          time_limit=60)
    assert res.status == "optimal"
    assert res.objective == pytest.approx(52.969)
    assert res.report["parameters"]["node_lp"] is True
