//! A solve on a thread of its own that the caller can walk away from. HiGHS checks its
//! `time_limit` only at certain points of its MIP: on one instance its root loop (propagation,
//! LP re-solves, reduced-cost fixing, repeated while columns get fixed) ran 5.5 s past the
//! limit, and no HiGHS option or callback reaches into that loop (docs/exact.md, "Limits that
//! hold"). Run on a worker thread of the caller's, the solve can be left at the run's deadline
//! or at a stop request: the caller goes on with what it had, and the worker ends when HiGHS
//! does, its result dropped.

use std::cell::RefCell;
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How often the caller looks at the stop request while it waits.
const POLL: Duration = Duration::from_millis(20);

/// How long past the run's deadline a solve is waited for before the run leaves it. HiGHS
/// usually stops within a few hundredths of a second of its own limit, but column generation's
/// companion gives its sub-problems' MIPs limits of 0.05 s that HiGHS overran by up to 0.7 s:
/// left at the deadline itself, 27 of their 1,044 MIPs in a minute (Adult 1,000, k = 5) were
/// dropped unfinished, 2 of 932 with this half second. It keeps the limit's promise
/// (max(2 s, 5%)).
pub(crate) const PAST_DEADLINE: Duration = Duration::from_millis(500);

/// When a solve for a run with `deadline` is left: [`PAST_DEADLINE`] after it (never without).
pub(crate) fn abandon_time(deadline: Option<Instant>) -> Option<Instant> {
    deadline.map(|d| d + PAST_DEADLINE)
}

/// A job for a worker: it sends its own result.
type Job = Box<dyn FnOnce() + Send>;

thread_local! {
    /// This thread's worker, kept between solves: HiGHS on a fresh thread costs about 3 ms a
    /// solve more (its per-thread set-up; 11.3 against 8.5 ms on a 30-record MIP), and the
    /// companion's workers solve hundreds of small MIPs a second. Dropped when a solve is left
    /// (the worker ends after it) and when this thread ends.
    static WORKER: RefCell<Option<mpsc::Sender<Job>>> = const { RefCell::new(None) };
}

/// A new worker thread that runs the jobs it is sent, in order, until its sender is dropped.
fn spawn_worker() -> Option<mpsc::Sender<Job>> {
    let (tx, rx) = mpsc::channel::<Job>();
    std::thread::Builder::new()
        .name("optik-highs".into())
        // HiGHS's own worker threads get the platform's 8 MiB; Rust's default is 2 MiB.
        .stack_size(8 << 20)
        .spawn(move || {
            while let Ok(job) = rx.recv() {
                job();
            }
        })
        .ok()?;
    Some(tx)
}

/// Runs `work` on this thread's worker (started on first use) and returns its result, or
/// `None` when `abandon_at` passes or a stop is requested (process-wide or by the calling
/// thread's token) before it ends, or when no thread can be started. `work` owns everything it
/// reads, so the worker may outlive the call; a left worker is not used again.
pub(crate) fn run_detached<T, F>(abandon_at: Option<Instant>, work: F) -> Option<T>
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    let gone = || crate::stop::requested() || abandon_at.is_some_and(|at| Instant::now() >= at);
    if gone() {
        return None;
    }
    let (tx, rx) = mpsc::sync_channel(1);
    let job: Job = Box::new(move || {
        // A panic goes back to the caller, which raises it again; the worker lives on. The
        // caller may have gone: then nobody reads the result.
        let _ = tx.send(std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)));
    });
    let sent = WORKER.with(|w| {
        let mut w = w.borrow_mut();
        if w.is_none() {
            *w = spawn_worker();
        }
        // A worker that cannot take the job (its thread is gone) hands it back: none then.
        let sent = w.as_ref().is_some_and(|tx| tx.send(job).is_ok());
        if !sent {
            *w = None;
        }
        sent
    });
    if !sent {
        return None;
    }
    let out = loop {
        let wait = abandon_at.map_or(POLL, |at| {
            at.saturating_duration_since(Instant::now()).min(POLL)
        });
        match rx.recv_timeout(wait) {
            Ok(Ok(out)) => break Some(out),
            Ok(Err(panic)) => std::panic::resume_unwind(panic),
            Err(mpsc::RecvTimeoutError::Timeout) if !gone() => continue,
            Err(_) => break None,
        }
    };
    if out.is_none() {
        // Left busy (or dead): the next solve gets a new worker.
        WORKER.with(|w| *w.borrow_mut() = None);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;

    #[test]
    fn a_quick_solve_returns_its_result() {
        let at = Instant::now() + Duration::from_secs(10);
        assert_eq!(run_detached(Some(at), || 6 * 7), Some(42));
        assert_eq!(run_detached(None, || "no limit"), Some("no limit"));
    }

    /// A panic in the solve is the caller's panic, and the worker serves the next solve.
    #[test]
    fn a_panic_in_the_solve_reaches_the_caller() {
        let before = run_detached(None, || std::thread::current().id()).unwrap();
        let caught = std::panic::catch_unwind(|| run_detached(None, || panic!("in the solve")));
        let message = caught.expect_err("the panic came back");
        assert_eq!(message.downcast_ref::<&str>(), Some(&"in the solve"));
        assert_eq!(
            run_detached(None, || std::thread::current().id()),
            Some(before)
        );
    }

    /// Solves run on one worker, kept between them; a left solve's worker is not used again.
    #[test]
    fn the_worker_is_kept_until_a_solve_is_left() {
        let id = || run_detached(None, || std::thread::current().id()).unwrap();
        let first = id();
        assert_ne!(first, std::thread::current().id());
        assert_eq!(id(), first);
        let soon = Instant::now() + Duration::from_millis(30);
        assert_eq!(
            run_detached(Some(soon), || std::thread::sleep(Duration::from_millis(
                300
            ))),
            None
        );
        let next = id();
        assert_ne!(next, first);
        assert_eq!(id(), next);
    }

    /// The caller leaves a solve that runs past `abandon_at` within a poll, and the thread
    /// still ends on its own.
    #[test]
    fn a_solve_past_the_deadline_is_left_behind() {
        let done = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&done);
        let t = Instant::now();
        let out = run_detached(Some(t + Duration::from_millis(100)), move || {
            std::thread::sleep(Duration::from_millis(600));
            flag.store(true, std::sync::atomic::Ordering::SeqCst);
            1
        });
        let waited = t.elapsed();
        assert_eq!(out, None);
        assert!(waited >= Duration::from_millis(100), "{waited:?}");
        assert!(waited < Duration::from_millis(400), "{waited:?}");
        assert!(!done.load(std::sync::atomic::Ordering::SeqCst));
        std::thread::sleep(Duration::from_millis(800));
        assert!(
            done.load(std::sync::atomic::Ordering::SeqCst),
            "the thread ran on"
        );
    }

    /// A stop request on the calling thread's token leaves the solve at once; with a deadline
    /// already past the solve does not start.
    #[test]
    fn a_stop_request_leaves_the_solve() {
        let token = Arc::new(AtomicBool::new(true));
        let t = Instant::now();
        let out = crate::stop::with_token(Some(token), || {
            run_detached(None, || {
                std::thread::sleep(Duration::from_millis(500));
                1
            })
        });
        assert_eq!(out, None);
        assert!(
            t.elapsed() < Duration::from_millis(300),
            "{:?}",
            t.elapsed()
        );
        let started = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&started);
        let out = run_detached(Some(Instant::now()), move || {
            flag.store(true, std::sync::atomic::Ordering::SeqCst);
            1
        });
        assert_eq!(out, None);
        std::thread::sleep(Duration::from_millis(50));
        assert!(!started.load(std::sync::atomic::Ordering::SeqCst));
    }
}
