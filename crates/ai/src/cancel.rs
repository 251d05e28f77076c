//! Stopping a search early from outside, for a caller whose answer is no longer wanted (a
//! server whose client hung up).
//!
//! [`within`] runs a computation with a [`Cancel`] flag in force on the calling thread; the
//! long searches (`mcts`, `expectimax`) read it when they start ([`current`]), carry it into the
//! threads they start, and poll it as they poll their budgets. Once it is set they stop as if
//! their budget had run out and answer with what they have. A flag may also carry a deadline
//! ([`Cancel::stop_at`]), after which it counts as set: a host that bounds the wall time of a
//! computation whatever its budget (a server's hints). Nothing else reads it, so a computation
//! without a flag, or with one never set, is exactly as before: seeded results do not change.

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Instant;

/// A flag that asks the searches to stop, now or at a deadline. Cheap to clone; all clones
/// share the flag.
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<Flag>);

#[derive(Debug, Default)]
struct Flag {
    set: AtomicBool,
    deadline: OnceLock<Instant>,
}

impl Cancel {
    /// A flag not set.
    pub fn new() -> Self {
        Cancel::default()
    }

    /// Asks every search under this flag to stop.
    pub fn cancel(&self) {
        self.0.set.store(true, Ordering::Release);
    }

    /// Asks every search under this flag to stop at `deadline`: from then on the flag counts
    /// as set. The first deadline given stays; a later call changes nothing.
    pub fn stop_at(&self, deadline: Instant) {
        let _ = self.0.deadline.set(deadline);
    }

    /// True once [`Cancel::cancel`] was called or the deadline of [`Cancel::stop_at`] passed.
    pub fn is_cancelled(&self) -> bool {
        self.0.set.load(Ordering::Acquire)
            || self.0.deadline.get().is_some_and(|&d| Instant::now() >= d)
    }
}

thread_local! {
    static CURRENT: RefCell<Option<Cancel>> = const { RefCell::new(None) };
}

/// Runs `f` with `flag` in force on this thread (the flag in force before is restored after).
pub fn within<T>(flag: &Cancel, f: impl FnOnce() -> T) -> T {
    struct Restore(Option<Cancel>);
    impl Drop for Restore {
        fn drop(&mut self) {
            CURRENT.with(|c| *c.borrow_mut() = self.0.take());
        }
    }
    let _restore = Restore(CURRENT.with(|c| c.borrow_mut().replace(flag.clone())));
    f()
}

/// The flag in force on this thread, if any.
pub fn current() -> Option<Cancel> {
    CURRENT.with(|c| c.borrow().clone())
}

/// True if `flag` is given and set.
pub(crate) fn requested(flag: Option<&Cancel>) -> bool {
    flag.is_some_and(Cancel::is_cancelled)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flag_is_in_force_only_within() {
        assert!(current().is_none());
        let flag = Cancel::new();
        within(&flag, || {
            assert!(!requested(current().as_ref()));
            flag.cancel();
            assert!(requested(current().as_ref()));
            let inner = Cancel::new();
            within(&inner, || assert!(!requested(current().as_ref())));
            assert!(requested(current().as_ref()));
        });
        assert!(current().is_none());
    }

    #[test]
    fn a_deadline_sets_the_flag_when_it_passes_and_the_first_one_stays() {
        let flag = Cancel::new();
        flag.stop_at(Instant::now() + std::time::Duration::from_secs(3600));
        assert!(!flag.is_cancelled());
        flag.stop_at(Instant::now());
        assert!(!flag.is_cancelled(), "a second deadline replaced the first");
        let due = Cancel::new();
        due.stop_at(Instant::now());
        assert!(due.clone().is_cancelled());
    }
}
