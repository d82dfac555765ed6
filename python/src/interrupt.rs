//! Runs library work off the GIL and keeps Ctrl-C working: the work runs on its own thread
//! while the calling thread waits without the GIL and checks Python's signals every 100 ms.
//! On Ctrl-C (or any signal handler raising) the library is asked to stop (`request_stop`:
//! every engine ends as at its time limit), the call waits a moment for the work to end and
//! raises that exception (`KeyboardInterrupt`); the work's result is dropped.

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

/// How often the waiting thread looks at Python's signals.
const SIGNAL_POLL: Duration = Duration::from_millis(100);

/// How long an interrupted call waits for the stopped work to end before it raises anyway (a
/// HiGHS LP under way runs to its own limit; its MIPs are left at once).
const STOP_WAIT: Duration = Duration::from_secs(5);

/// Runs `work` on a thread of its own; returns its value, or the exception a signal handler
/// raised while waiting.
pub(crate) fn run<T, F>(py: Python<'_>, work: F) -> PyResult<T>
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    optik::clear_stop();
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .name("optik".into())
        .spawn(move || {
            let out = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work));
            let _ = tx.send(out);
        })
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start a thread: {e}")))?;
    let mut rx = rx;
    loop {
        // The receiver is `Send` but not `Sync`: it goes into the GIL-free closure and back.
        let (received, back) = py.allow_threads(move || (rx.recv_timeout(SIGNAL_POLL), rx));
        rx = back;
        match received {
            Ok(Ok(value)) => return Ok(value),
            Ok(Err(panic)) => {
                let why = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "unknown panic".to_string());
                return Err(PyRuntimeError::new_err(format!("optik panicked: {why}")));
            }
            Err(RecvTimeoutError::Timeout) => {
                if let Err(signal) = py.check_signals() {
                    optik::request_stop();
                    let _ = py.allow_threads(move || rx.recv_timeout(STOP_WAIT));
                    return Err(signal);
                }
            }
            Err(RecvTimeoutError::Disconnected) => {
                return Err(PyRuntimeError::new_err("optik's worker thread vanished"))
            }
        }
    }
}
