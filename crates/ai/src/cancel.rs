//! Stopping a search early from outside, for a caller whose answer is no longer wanted (a
//! server whose client hung up).
//!
//! [`within`] runs a computation with a [`Cancel`] flag in force on the calling thread; the
//! long searches (`mcts`, `expectimax`) read it when they start ([`current`]), carry it into the
//! threads they start, and poll it as they poll their budgets. Once it is set they stop as if
//! their budget had run out and answer with what they have. Nothing else reads it, so a
//! computation without a flag, or with one never set, is exactly as before: seeded results do
//! not change.

use std::cell::RefCell;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// A flag that asks the searches to stop. Cheap to clone; all clones share the flag.
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// A flag not set.
    pub fn new() -> Self {
        Cancel::default()
    }

    /// Asks every search under this flag to stop.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Release);
    }

    /// True once [`Cancel::cancel`] was called.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Acquire)
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
}
