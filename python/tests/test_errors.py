"""Bad input raises ValueError with the command line's one-line message (settings named as
the keyword arguments); a wrong type of table, TypeError; Ctrl-C, KeyboardInterrupt."""

import os
import signal
import threading
import time

import numpy as np
import pandas as pd
import pytest

import optik
from conftest import TRIAL, TRIAL_SCHEMA


def test_missing_column_is_named():
    with pytest.raises(ValueError, match="unknown column 'weight'") as e:
        optik.anonymise(TRIAL, qi="age,weight", k=2)
    assert "\n" not in str(e.value)


def test_bad_k():
    with pytest.raises(ValueError, match="k must be at least 1, got 0"):
        optik.anonymise(TRIAL, schema=TRIAL_SCHEMA, k=0)
    with pytest.raises(ValueError, match="give one of k, k_column, k_dist, k_preset"):
        optik.anonymise(TRIAL, schema=TRIAL_SCHEMA)
    with pytest.raises(ValueError, match="give only one of"):
        optik.anonymise(TRIAL, schema=TRIAL_SCHEMA, k=2, k_column="k")
    with pytest.raises(ValueError, match="61"):
        optik.anonymise(TRIAL, qi="age,sex", k=61)  # more than the 60 records
    with pytest.raises(ValueError, match="'nope'"):
        optik.anonymise(TRIAL, qi="age,sex", k_column="nope")


def test_bad_names_and_settings():
    with pytest.raises(ValueError, match=r"unknown method 'greedy' \(expected mdav, kmember, mondrian, mdav-sse, optimal\)"):
        optik.anonymise(TRIAL, schema=TRIAL_SCHEMA, k=2, method="greedy")
    with pytest.raises(ValueError, match="unknown criterion"):
        optik.anonymise(TRIAL, schema=TRIAL_SCHEMA, k=2, criterion="loss")
    with pytest.raises(ValueError, match="time_limit"):
        optik.anonymise(TRIAL, schema=TRIAL_SCHEMA, k=2, time_limit=-1)
    with pytest.raises(ValueError, match="give either schema or qi"):
        optik.anonymise(TRIAL, k=2)
    with pytest.raises(ValueError, match="l_diversity, links and max_class_size need method optimal, not mdav"):
        optik.anonymise(TRIAL, schema=TRIAL_SCHEMA, k=2, method="mdav", max_class_size=4)
    with pytest.raises(ValueError, match="infeasible"):
        optik.anonymise(TRIAL, schema=TRIAL_SCHEMA, k_column="k", max_class_size=2)


def test_missing_file_and_wrong_type():
    with pytest.raises(ValueError, match="no_such.csv: cannot read"):
        optik.anonymise("no_such.csv", qi="age", k=2)
    with pytest.raises(TypeError, match="DataFrame or the path"):
        optik.anonymise([[1, 2]], qi="age", k=2)


def test_ctrl_c_interrupts_a_solve_promptly():
    rng = np.random.default_rng(3)
    table = pd.DataFrame(
        {"a": rng.integers(0, 100, 300), "b": rng.integers(0, 100, 300), "c": rng.random(300)}
    )
    # Python's own Ctrl-C handler, whatever the runner left: a process started in the
    # background by a shell without job control inherits SIGINT ignored, and Python then
    # installs no handler (the signal would never reach the call).
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT))
    started = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            # CP proves nothing on 300 random records within its limit: only Ctrl-C stops it
            optik.anonymise(table, qi="a,b,c", k=3, engine="cp", time_limit=8)
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
    assert time.monotonic() - started < 5.0
    # the solve stopped, not only the call: the process is idle afterwards (the CP search
    # would otherwise keep a core busy until its 8 s limit)
    cpu = time.process_time()
    time.sleep(1.0)
    assert time.process_time() - cpu < 0.3
    # and the next call is not stopped by the old request
    res = optik.anonymise(table.head(30), qi="a,b,c", k=3, method="mdav")
    assert res.status == "heuristic"
