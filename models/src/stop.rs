//! A request to stop every running solve of the process, as if its time limit had passed:
//! Python's Ctrl-C (and any other front end's interrupt) sets it, and every engine checks it
//! where it checks its deadline — column generation's rounds, pricing, rounding and proof, CP's
//! termination, the compact MIP's construction and the large-neighbourhood search — so a
//! solve returns its incumbent and a valid bound within a moment (a HiGHS MIP under way, column
//! generation's or the compact one, is left on its own thread, [`crate::detached`]; an LP runs
//! to its own limit). Process-wide: callers clear it before the next solve.
//!
//! A narrower request is a *token*: a flag that stops only the solves of the threads it is
//! installed on ([`with_token`]). Column generation's companion search runs under one, so the
//! main run can stop it (and the neighbourhoods its workers solve) the moment it ends.

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

static REQUESTED: AtomicBool = AtomicBool::new(false);

thread_local! {
    static TOKEN: RefCell<Option<Arc<AtomicBool>>> = const { RefCell::new(None) };
}

/// Runs `f` with `token` as this thread's stop token (restoring the previous one after):
/// setting the flag stops the solves `f` runs as a process-wide request would.
pub fn with_token<R>(token: Option<Arc<AtomicBool>>, f: impl FnOnce() -> R) -> R {
    let previous = TOKEN.with(|t| std::mem::replace(&mut *t.borrow_mut(), token));
    let out = f();
    TOKEN.with(|t| *t.borrow_mut() = previous);
    out
}

/// This thread's stop token, to install on the threads it hands work to.
pub fn token() -> Option<Arc<AtomicBool>> {
    TOKEN.with(|t| t.borrow().clone())
}

/// Asks every running solve to stop.
pub fn request() {
    REQUESTED.store(true, Ordering::SeqCst);
}

/// Withdraws the request (before starting a new solve).
pub fn clear() {
    REQUESTED.store(false, Ordering::SeqCst);
}

/// Whether a stop was requested, process-wide or by this thread's token.
pub fn requested() -> bool {
    REQUESTED.load(Ordering::Relaxed)
        || TOKEN.with(|t| {
            t.borrow()
                .as_ref()
                .is_some_and(|f| f.load(Ordering::Relaxed))
        })
}

/// Whether a run with `deadline` must stop now: its deadline passed or a stop was requested.
pub(crate) fn past(deadline: Option<Instant>) -> bool {
    requested() || deadline.is_some_and(|d| Instant::now() >= d)
}

/// [`past`] on a thread that is not the one whose token counts (a rayon worker of a search
/// started there): `token` is that thread's [`token`].
pub(crate) fn past_under(token: Option<&AtomicBool>, deadline: Option<Instant>) -> bool {
    past(deadline) || token.is_some_and(|f| f.load(Ordering::Relaxed))
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
