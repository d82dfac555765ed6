//! HiGHS counters the `highs` crate cannot read: `mip_node_count` is an int64 info value, and
//! the crate's `int_info_value` reads only `HighsInt` ones (it fails, so node counts read 0).

use highs::SolvedModel;

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
