//! The node count of all the threads of one search, and the `go nodes` limit on it. Each thread
//! counts its own nodes and adds them here at checkpoints, spaced so that the threads together
//! overshoot the limit by a few nodes at most.

use std::sync::atomic::{AtomicU64, Ordering};

/// Most nodes a thread searches between two additions to the shared count: small, so that
/// `go nodes` overshoots by little (one atomic addition per 64 nodes costs nothing measurable).
const SYNC_NODES: u64 = 64;

/// The node count of all threads in one search, and the `go nodes` limit on it.
pub(super) struct SharedNodes {
    total: AtomicU64,
    /// Successful tablebase probes of all threads (added at each hit: they are rare).
    tbhits: AtomicU64,
    limit: u64,
    threads: u64,
}

impl SharedNodes {
    /// A count at zero for `threads` threads under the `go nodes` limit, if any.
    pub(super) fn new(limit: Option<u64>, threads: usize) -> SharedNodes {
        SharedNodes {
            total: AtomicU64::new(0),
            tbhits: AtomicU64::new(0),
            limit: limit.unwrap_or(u64::MAX).max(1),
            threads: threads as u64,
        }
    }

    /// The local count at which a thread first adds its nodes to the total.
    pub(super) fn first_checkpoint(&self) -> u64 {
        (self.limit / self.threads).clamp(1, SYNC_NODES)
    }

    /// Adds one thread's `new` nodes. `None` once the total has reached the limit; else how
    /// many more nodes that thread may search before its next checkpoint (fewer as the total
    /// nears the limit).
    pub(super) fn add(&self, new: u64) -> Option<u64> {
        let total = self.total.fetch_add(new, Ordering::Relaxed) + new;
        (total < self.limit).then(|| ((self.limit - total) / self.threads).clamp(1, SYNC_NODES))
    }

    /// Adds `n` tablebase hits.
    pub(super) fn add_tbhits(&self, n: u64) {
        self.tbhits.fetch_add(n, Ordering::Relaxed);
    }

    /// Tablebase hits of all threads so far.
    pub(super) fn tbhits(&self) -> u64 {
        self.tbhits.load(Ordering::Relaxed)
    }

    /// Nodes added so far by all threads.
    pub(super) fn total(&self) -> u64 {
        self.total.load(Ordering::Relaxed)
    }
}
