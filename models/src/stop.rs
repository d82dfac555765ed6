//! A request to stop every running solve of the process, as if its time limit had passed:
//! Python's Ctrl-C (and any other front end's interrupt) sets it, and every engine checks it
//! where it checks its deadline — column generation's rounds, pricing, rounding and proof, CP's
//! termination, the compact MIP's construction and the large-neighbourhood search — so a
//! solve returns its incumbent and a valid bound within a moment (a HiGHS solve already under
//! way runs to its own limit). Process-wide: callers clear it before the next solve.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

static REQUESTED: AtomicBool = AtomicBool::new(false);

/// Asks every running solve to stop.
pub fn request() {
    REQUESTED.store(true, Ordering::SeqCst);
}

/// Withdraws the request (before starting a new solve).
pub fn clear() {
    REQUESTED.store(false, Ordering::SeqCst);
}

/// Whether a stop was requested.
pub fn requested() -> bool {
    REQUESTED.load(Ordering::Relaxed)
}

/// Whether a run with `deadline` must stop now: its deadline passed or a stop was requested.
pub(crate) fn past(deadline: Option<Instant>) -> bool {
    requested() || deadline.is_some_and(|d| Instant::now() >= d)
}

/// Time left before `deadline` (`None`: no limit), zero once a stop was requested.
pub(crate) fn left(deadline: Option<Instant>) -> Option<Duration> {
    if requested() {
        return Some(Duration::ZERO);
    }
    deadline.map(|d| d.saturating_duration_since(Instant::now()))
}

/// pumpkin's termination for a time budget that also ends on a stop request.
#[derive(Debug)]
pub(crate) struct Budget(pub(crate) optik_propagators::pumpkin_core::termination::TimeBudget);

impl optik_propagators::pumpkin_core::termination::TerminationCondition for Budget {
    fn should_stop(&mut self) -> bool {
        requested() || self.0.should_stop()
    }
}
