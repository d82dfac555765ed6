//! Runs the search on worker threads: each worker re-optimises one neighbourhood at a time, the
//! calling thread hands out neighbourhoods that share no class with a running one and applies
//! results as they come, and nothing starts that could end after the deadline.
//!
//! With one thread, one neighbourhood runs at a time and the search is deterministic for a seed
//! (as long as no neighbourhood reaches its time limit and the deadline does not stop it). With
//! more threads, results are applied in the order they finish, which depends on timing: runs
//! with the same seed may differ.
//!
//! Each worker runs on a one-thread rayon pool of its own, so a neighbourhood's pricing never
//! waits in the global pool behind other work of the process (column generation's, when the
//! search is its companion). A companion's workers also run at the lowest CPU priority
//! ([`Drive::background`]).

use super::cost::SumCriterion;
use super::options::Drive;
use super::oracle::DistanceOracle;
use super::outcome::LnsStop;
use super::search::{solve_job, Next, Search, Solved};
use crate::engine::EngineError;
use std::sync::mpsc;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Time kept between a neighbourhood's time limit and the deadline: column generation returns
/// a little after its limit (the last LP or MIP call finishing).
const DEADLINE_MARGIN: Duration = Duration::from_millis(150);

/// No neighbourhood is started with less time than this.
const MIN_NEIGHBOURHOOD_TIME: Duration = Duration::from_millis(100);

type Outcome = std::thread::Result<Solved>;

/// Runs `search` until the deadline, the neighbourhood budget, or nothing is left to try.
pub fn drive<O: DistanceOracle + ?Sized>(
    search: &mut Search<'_, O>,
    oracle: &O,
    criterion: SumCriterion,
    limits: &Drive,
) -> Result<LnsStop, EngineError> {
    let threads = limits.threads.max(1);
    let (job_tx, job_rx) = mpsc::channel();
    let job_rx = Mutex::new(job_rx);
    let (res_tx, res_rx) = mpsc::channel::<Outcome>();
    // Workers stop with this thread's stop token too (column generation's companion search).
    let token = crate::stop::token();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let res_tx = res_tx.clone();
            let job_rx = &job_rx;
            let token = token.clone();
            scope.spawn(move || {
                let background = limits.background;
                let work = move || {
                    if background {
                        lowest_priority();
                    }
                    crate::stop::with_token(token, || loop {
                        let job = job_rx.lock().expect("no worker panics holding it").recv();
                        let Ok(job) = job else { break };
                        let out = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                            solve_job(oracle, criterion, limits, job)
                        }));
                        if res_tx.send(out).is_err() {
                            break;
                        }
                    })
                };
                // A neighbourhood's pricing runs on its worker's own one-thread pool: on the
                // global pool it queued behind column generation's tasks when the search runs
                // as its companion (neighbourhoods of 0.25 s took 3-4 s).
                let pool = own_pool()
                    .then(|| rayon::ThreadPoolBuilder::new().num_threads(1).build().ok())
                    .flatten();
                match pool {
                    Some(pool) => pool.install(work),
                    None => work(),
                }
            });
        }
        drop(res_tx);
        let mut running = 0usize;
        let mut started = 0usize;
        let mut stop: Option<LnsStop> = None;
        loop {
            while running < threads && stop.is_none() {
                if limits.max_neighbourhoods.is_some_and(|m| started >= m) {
                    stop = Some(LnsStop::Budget);
                    break;
                }
                if crate::stop::requested() {
                    stop = Some(LnsStop::Deadline);
                    break;
                }
                let available = match limits.deadline {
                    None => Duration::MAX,
                    Some(d) => {
                        let left = d.saturating_duration_since(Instant::now());
                        let left = left.saturating_sub(DEADLINE_MARGIN);
                        if left < MIN_NEIGHBOURHOOD_TIME {
                            stop = Some(LnsStop::Deadline);
                            break;
                        }
                        left
                    }
                };
                match search.next_job(available) {
                    Next::Job(job) => {
                        job_tx.send(job).expect("workers wait for jobs");
                        running += 1;
                        started += 1;
                    }
                    Next::Wait => break,
                    Next::Exhausted => {
                        if running == 0 {
                            stop = Some(if search.whole_proven() {
                                LnsStop::Optimal
                            } else {
                                LnsStop::Exhausted
                            });
                        }
                        break;
                    }
                }
            }
            if running == 0 {
                break;
            }
            let out = res_rx.recv().expect("a running job reports");
            running -= 1;
            match out {
                Ok(solved) => {
                    if let Err(e) = search.apply(solved) {
                        drop(job_tx);
                        drain(&res_rx, running);
                        return Err(e);
                    }
                }
                Err(panic) => {
                    drop(job_tx);
                    drain(&res_rx, running);
                    std::panic::resume_unwind(panic);
                }
            }
        }
        drop(job_tx);
        Ok(stop.unwrap_or(LnsStop::Exhausted))
    })
}

/// Whether workers price on pools of their own (`OPTIK_LNS_OWN_POOL=0`: on the global pool,
/// as before; an ablation knob).
fn own_pool() -> bool {
    std::env::var("OPTIK_LNS_OWN_POOL").map_or(true, |v| v != "0")
}

/// Puts the calling thread at the lowest CPU priority (nice 19; threads it starts inherit
/// it). Linux schedules threads by their own nice value, so the rest of the process keeps its
/// share. Elsewhere nothing changes. `OPTIK_COMPANION_NICE` sets another nice value (0: the
/// process's own; an ablation knob).
fn lowest_priority() {
    let nice = std::env::var("OPTIK_COMPANION_NICE")
        .ok()
        .and_then(|v| v.parse::<i32>().ok())
        .unwrap_or(19);
    if nice <= 0 {
        return;
    }
    #[cfg(target_os = "linux")]
    {
        // Linux keeps a nice value per thread: the thread's id names it here. A failure
        // leaves the priority as it was.
        let tid = rustix::thread::gettid();
        let _ = rustix::process::setpriority_process(Some(tid), nice.min(19));
    }
}

/// Waits for the `running` jobs still out, so the workers end before the error is returned.
fn drain(res_rx: &mpsc::Receiver<Outcome>, running: usize) {
    for _ in 0..running {
        let _ = res_rx.recv();
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::lowest_priority;
    use rustix::process::getpriority_process;
    use rustix::thread::gettid;

    /// The thread that asks gets nice 19; the thread that started it keeps its own.
    #[test]
    fn lowest_priority_lowers_only_the_calling_thread() {
        let before = getpriority_process(Some(gettid())).expect("own priority");
        let worker = std::thread::spawn(|| {
            lowest_priority();
            getpriority_process(Some(gettid())).expect("own priority")
        })
        .join()
        .expect("no panic");
        assert_eq!(worker, 19);
        assert_eq!(getpriority_process(Some(gettid())).unwrap(), before);
    }
}
