//! The two HiGHS C calls the `highs` crate does not wrap, and the only unsafe code in optik:
//! `mip_node_count` is an int64 info value (the crate's `int_info_value` reads only `HighsInt`
//! ones, so node counts read 0), and the run time HiGHS compares its `time_limit` with is
//! accumulated over every solve of a model.
#![allow(unsafe_code)]

use highs::{Model, SolvedModel};

/// Seconds HiGHS has run on `model` over all its solves (its `time_limit` counts from zero).
pub(crate) fn run_time(model: &Model) -> f64 {
    // SAFETY: the pointer is the live HiGHS instance owned by `model`; the call only reads it.
    unsafe { highs_sys::Highs_getRunTime(model.as_ptr()) }
}

/// Branch-and-bound nodes of a solved MIP (0 when HiGHS does not say).
pub(crate) fn mip_node_count(solved: &SolvedModel) -> u64 {
    let mut value: i64 = 0;
    // SAFETY: the pointer is the live HiGHS instance owned by `solved`; the name is a valid C
    // string; HiGHS writes one int64 into `value`.
    let status = unsafe {
        highs_sys::Highs_getInt64InfoValue(solved.as_ptr(), c"mip_node_count".as_ptr(), &mut value)
    };
    if status == highs_sys::STATUS_OK {
        value.max(0) as u64
    } else {
        0
    }
}
