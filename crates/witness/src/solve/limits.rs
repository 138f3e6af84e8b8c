//! Time limits and cancellation for long searches.

use std::sync::atomic::{AtomicBool, Ordering};
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
    /// Stop after visiting this many search nodes (per thread): a budget
    /// that, unlike time, gives the same answer on every machine.
    pub max_nodes: Option<u64>,
}

impl Limits {
    /// No limit.
    pub fn none() -> Limits {
        Limits::default()
    }
    /// A limit of `timeout` from now.
    pub fn timeout(timeout: Duration) -> Limits {
        Limits {
            deadline: Some(Instant::now() + timeout),
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
    }
}
