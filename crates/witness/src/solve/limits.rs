//! Time limits and cancellation for long searches.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// When a search must stop: a deadline, a cancel flag another thread may
/// set, or both. The default has neither.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Stop at this instant.
    pub deadline: Option<Instant>,
    /// Stop when this becomes true.
    pub cancel: Option<Arc<AtomicBool>>,
    /// The library's own stop flag (a count that reached its limit).
    pub(crate) stop: Option<Arc<AtomicBool>>,
    /// The `auto` race's flag: set when the other engine answered first
    /// (`solve::race`). Kept apart from `stop`, which the searches replace
    /// with flags of their own.
    pub(crate) race: Option<Arc<AtomicBool>>,
    /// A budget of processor time (the `auto` race's head starts,
    /// `solve::race`): stop once the threads working under it have run
    /// for that long on their cores, however long the machine's load
    /// made them wait for one.
    pub(crate) work: Option<Arc<Work>>,
    /// Stop after visiting this many search nodes (per thread): a budget
    /// that, unlike time, gives the same answer on every machine.
    pub max_nodes: Option<u64>,
}

impl Limits {
    /// No limit.
    pub fn none() -> Limits {
        Limits::default()
    }
    /// A limit of `timeout` from now; none when that lies past what the
    /// clock can hold (`Duration::MAX`, say). The deadline is fixed here:
    /// a job given a clone later has what is left of it.
    pub fn timeout(timeout: Duration) -> Limits {
        Limits {
            deadline: Instant::now().checked_add(timeout),
            ..Limits::default()
        }
    }
    /// Adds a search-node budget.
    pub fn with_max_nodes(mut self, n: u64) -> Limits {
        self.max_nodes = Some(n);
        self
    }
    /// Adds a cancel flag.
    pub fn with_cancel(mut self, flag: Arc<AtomicBool>) -> Limits {
        self.cancel = Some(flag);
        self
    }
    /// The flags that stop a search (cancel and the library's own), for
    /// the polyomino fits to watch
    /// ([`crate::rules::Workspace::set_fit_limits`]).
    pub fn flags(&self) -> Vec<Arc<AtomicBool>> {
        [self.cancel.clone(), self.stop.clone(), self.race.clone()]
            .into_iter()
            .flatten()
            .collect()
    }
    /// True when the search must stop now.
    pub fn expired(&self) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
            || self
                .stop
                .as_ref()
                .is_some_and(|c| c.load(Ordering::Relaxed))
            || self
                .race
                .as_ref()
                .is_some_and(|c| c.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|d| Instant::now() >= d)
            || self.work.as_ref().is_some_and(|w| w.over())
    }
}

/// A budget of processor time, shared by the threads that work under it.
///
/// Each thread adds what its own processor clock
/// (`CLOCK_THREAD_CPUTIME_ID`) advanced between two of its checks, so the
/// budget measures the work done, not the time waited for a core: on a
/// loaded machine it lasts longer in wall time and buys the same work.
/// The clock is a system call (above a microsecond in a virtual
/// machine), so it is read at most every [`Work::READ_EVERY`] of wall time
/// per thread (the SAT engine checks its limits many times a
/// millisecond), and never before a thread's first check: between the
/// budget's making (or a thread's [`Work::enter`]) and its first reading,
/// the thread counts the wall time, the most it can have worked (a job
/// that ends before its first check, as most do, reads no clock). A
/// thread that checks without having entered counts from its first
/// check; the callers pair the budget with a wall-time deadline as a
/// backstop. Only built with the SAT engine (the race's only user; a
/// WebAssembly build has no clock).
#[derive(Debug)]
pub struct Work {
    /// The budget, in nanoseconds.
    budget: u64,
    /// Nanoseconds the threads have reported.
    spent: AtomicU64,
}

/// Each thread's last reading: the budget it was for, the thread's
/// processor time then (ns; `None` before its first reading, when the
/// thread entered), and when it was taken.
#[cfg(feature = "sat")]
struct Reading {
    work: Arc<Work>,
    ns: Option<u64>,
    at: Instant,
}

#[cfg(feature = "sat")]
thread_local! {
    static LAST: std::cell::RefCell<Option<Reading>> = const { std::cell::RefCell::new(None) };
}

/// The processor time of the calling thread, in nanoseconds.
#[cfg(feature = "sat")]
fn thread_ns() -> Option<u64> {
    let t = cpu_time::ThreadTime::try_now().ok()?;
    u64::try_from(t.as_duration().as_nanos()).ok()
}

/// True when the system gives threads a processor clock (asked once).
#[cfg(feature = "sat")]
fn have_clock() -> bool {
    static HAVE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *HAVE.get_or_init(|| thread_ns().is_some())
}

impl Work {
    /// The wall time between two readings of one thread's clock.
    pub const READ_EVERY: Duration = Duration::from_micros(100);

    /// A budget of `budget` of processor time, counted from now on this
    /// thread; `None` without a thread clock (no SAT engine in the build,
    /// or the system refuses it): the caller falls back on wall time.
    pub fn new(budget: Duration) -> Option<Arc<Work>> {
        Work::with_ns(u64::try_from(budget.as_nanos()).unwrap_or(u64::MAX - 1))
    }

    #[cfg(feature = "sat")]
    fn with_ns(budget: u64) -> Option<Arc<Work>> {
        if !have_clock() {
            return None;
        }
        let w = Arc::new(Work {
            budget,
            spent: AtomicU64::new(0),
        });
        w.enter();
        Some(w)
    }

    #[cfg(not(feature = "sat"))]
    fn with_ns(_: u64) -> Option<Arc<Work>> {
        None
    }

    /// Starts counting this thread's work from now for this budget (its
    /// work before its first check is not counted otherwise). The wall
    /// time since the thread's last reading for another budget is charged
    /// to that one first when it is the most the thread can have worked
    /// for it (before that budget's first reading, or within
    /// [`Work::READ_EVERY`] of it); otherwise it is left uncounted, as no
    /// clock is read here (a new budget is made for every job, many of
    /// which take less than the clock's cost ten times over).
    #[cfg(feature = "sat")]
    pub fn enter(self: &Arc<Self>) {
        let now = Instant::now();
        let _ = LAST.try_with(|c| {
            let last = c.borrow_mut().take();
            if let Some(r) = last {
                let since = now.saturating_duration_since(r.at);
                if !Arc::ptr_eq(&r.work, self) && (r.ns.is_none() || since < Work::READ_EVERY) {
                    let ns = u64::try_from(since.as_nanos()).unwrap_or(u64::MAX);
                    r.work.spent.fetch_add(ns, Ordering::Relaxed);
                }
            }
            *c.borrow_mut() = Some(Reading {
                work: self.clone(),
                ns: None,
                at: now,
            });
        });
    }

    /// Without a thread clock, nothing to count.
    #[cfg(not(feature = "sat"))]
    pub fn enter(self: &Arc<Self>) {}

    /// The processor time reported so far.
    pub fn spent(&self) -> Duration {
        Duration::from_nanos(self.spent.load(Ordering::Relaxed))
    }

    /// Adds this thread's work since its last reading (when
    /// [`Work::READ_EVERY`] has passed since), and tells whether the
    /// budget is used up.
    pub fn over(self: &Arc<Self>) -> bool {
        self.report();
        self.spent.load(Ordering::Relaxed) >= self.budget
    }

    /// Charges the work since this thread's last reading: to this budget
    /// when the reading was for it (at most every [`Work::READ_EVERY`]),
    /// otherwise to the budget the thread read last (a pool thread
    /// that took a task of another job meanwhile), this budget counting
    /// from now on.
    #[cfg(feature = "sat")]
    fn report(self: &Arc<Self>) {
        let now = Instant::now();
        let _ = LAST.try_with(|c| {
            let mut last = c.borrow_mut();
            if let Some(r) = last.as_ref() {
                if Arc::ptr_eq(&r.work, self)
                    && now.saturating_duration_since(r.at) < Work::READ_EVERY
                {
                    return;
                }
            }
            let Some(t) = thread_ns() else {
                return;
            };
            if let Some(r) = last.take() {
                r.charge(t, now);
            }
            *last = Some(Reading {
                work: self.clone(),
                ns: Some(t),
                at: now,
            });
        });
    }

    #[cfg(not(feature = "sat"))]
    fn report(self: &Arc<Self>) {}
}

#[cfg(feature = "sat")]
impl Reading {
    /// Charges its budget with the thread's work from this reading to
    /// `now`, when the clock read `t`: the clock's advance, or before a
    /// first reading the wall time since the thread entered (the most it
    /// can have worked).
    fn charge(&self, t: u64, now: Instant) {
        let done = match self.ns {
            Some(b) => t.saturating_sub(b),
            None => {
                let d = now.saturating_duration_since(self.at);
                u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)
            }
        };
        self.work.spent.fetch_add(done, Ordering::Relaxed);
    }
}

#[cfg(all(test, feature = "sat"))]
mod tests {
    use super::*;

    /// Spins until `w` is over, or 10 s pass.
    fn spin_until_over(w: &Arc<Work>) -> bool {
        let t0 = Instant::now();
        while t0.elapsed() < Duration::from_secs(10) {
            if w.over() {
                return true;
            }
            std::hint::black_box((0..1000u64).sum::<u64>());
        }
        false
    }

    #[test]
    fn a_work_budget_counts_work_not_waiting() {
        let w = Work::new(Duration::from_millis(50)).expect("a thread clock");
        // Before its first reading, a thread counts the wall time.
        let t0 = Instant::now();
        while t0.elapsed() < Duration::from_millis(1) {
            std::hint::black_box((0..1000u64).sum::<u64>());
        }
        assert!(!w.over());
        assert!(w.spent() >= Duration::from_millis(1));
        std::thread::sleep(Duration::from_millis(30));
        assert!(!w.over(), "waiting is no work: {:?}", w.spent());
        let limits = Limits {
            work: Some(w.clone()),
            ..Limits::default()
        };
        assert!(!limits.expired());
        assert!(spin_until_over(&w));
        assert!(limits.expired());
        assert!(w.spent() >= Duration::from_millis(50));
        // Another thread's work counts from its `enter`, not before: the
        // 100 ms it sleeps first are not spent (an upper bound with room
        // for a loaded machine's waits).
        let m = Work::new(Duration::from_secs(3600)).expect("a thread clock");
        let theirs = m.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(100));
            theirs.enter();
            let t0 = Instant::now();
            while t0.elapsed() < Duration::from_millis(20) {
                std::hint::black_box((0..1000u64).sum::<u64>());
            }
            assert!(!theirs.over());
        })
        .join()
        .unwrap();
        assert!(
            m.spent() >= Duration::from_millis(20) && m.spent() < Duration::from_millis(100),
            "{:?}",
            m.spent()
        );
    }

    #[test]
    fn a_thread_between_two_budgets_charges_each_its_work() {
        let a = Work::new(Duration::from_secs(3600)).expect("a thread clock");
        let b = Work::new(Duration::from_secs(3600)).expect("a thread clock");
        let t0 = thread_ns().expect("a thread clock");
        // Alternate: the work after each check is done for the budget
        // just checked. Each spin is a fixed amount of computation, so
        // the processor time it takes does not depend on the load.
        for _ in 0..40 {
            for w in [&a, &b] {
                assert!(!w.over());
                for k in 0..4000u64 {
                    std::hint::black_box((0..1000u64).map(|i| i ^ k).sum::<u64>());
                }
            }
        }
        // Charge the last spin too.
        a.over();
        let total = Duration::from_nanos(thread_ns().expect("a thread clock") - t0);
        let (sa, sb) = (a.spent(), b.spent());
        assert!(
            sa >= total / 3 && sb >= total / 3,
            "each budget gets its share of {total:?}: {sa:?} and {sb:?}"
        );
        assert!(sa + sb >= total * 9 / 10, "{sa:?} + {sb:?} of {total:?}");
    }
}
