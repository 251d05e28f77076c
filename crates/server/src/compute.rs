//! The server's budget of computer work: computer moves and hints wait in one queue, and a
//! fixed number of worker threads take them in order.
//!
//! Whatever clients ask, at most [`Compute::workers`] decisions run at once, each within the
//! server's per-move limits (time and threads), so the CPU the server spends thinking is
//! capped. The workers are threads of their own, apart from the async runtime and from the
//! thread that commits to the database, and run at the lowest scheduling priority (Linux's
//! `SCHED_IDLE`; nice 10 elsewhere), so that when the CPU is short the requests of people go
//! first and thinking never holds up storing a person's move.
//!
//! The queue has three tiers ([`Priority`]):
//!
//! * A computer seat's move in a game with a person is owed to that person: it always queues,
//!   and goes before everything else waiting, so that a person playing the computer waits
//!   behind nobody's hints or computer games, at most for the task under way. There is at most
//!   one such move per game at a time.
//! * A move of a game between two computer players, made for whoever watches it, always
//!   queues too, but after the moves owed to people. The server lets at most as many such games
//!   as there are workers have a move queued or under way at once (the others wait their turn
//!   outside the queue), so this tier never holds more than that, however many such games are
//!   watched.
//! * Hints are optional work: when [`Compute::max_queued`] hints already wait, a hint is
//!   refused at once ([`Full`], answered 503 with `Retry-After`). A hint is also bounded in
//!   time ([`Compute::submit_within`]): its search is told to stop at the server's time per
//!   move, whatever its own budget.
//!
//! The last two tiers take turns when both have work waiting, so that neither a flood of
//! hints nor many watched games between computers shuts the other out. A task whose requester
//! has gone (a hint request dropped by its client) is cancelled: it is skipped if it has not
//! started.

use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use qasab_ai::cancel::Cancel;
use tokio::sync::oneshot;

/// A unit of work with the flag that cancels it, and the longest it may think once started.
struct Task {
    work: Box<dyn FnOnce() + Send>,
    cancel: Cancel,
    cap: Option<Duration>,
}

struct Inner {
    queue: Mutex<Queue>,
    ready: Condvar,
    /// Tasks being worked on now.
    running: AtomicUsize,
    workers: usize,
    max_queued: usize,
    /// The longest a task may take (the server's time limit per move), for `Retry-After`.
    per_task: Duration,
}

struct Queue {
    /// Computer seats' moves in games with a person, taken first.
    owed: VecDeque<Task>,
    /// Moves of games between two computer players.
    watched: VecDeque<Task>,
    /// Hints.
    optional: VecDeque<Task>,
    /// True if the last task taken from the two lower tiers was a hint: the next is then a
    /// watched game's move, if one waits.
    hint_last: bool,
    closed: bool,
}

impl Queue {
    fn len(&self) -> usize {
        self.owed.len() + self.watched.len() + self.optional.len()
    }

    /// The next task: an owed move, else the two lower tiers in turn.
    fn next(&mut self) -> Option<Task> {
        if let Some(task) = self.owed.pop_front() {
            return Some(task);
        }
        let (task, hint) = if self.hint_last {
            match self.watched.pop_front() {
                Some(t) => (t, false),
                None => (self.optional.pop_front()?, true),
            }
        } else {
            match self.optional.pop_front() {
                Some(t) => (t, true),
                None => (self.watched.pop_front()?, false),
            }
        };
        self.hint_last = hint;
        Some(task)
    }
}

/// The pool of workers and its queue. Dropping it lets the workers finish what is queued and
/// stop.
pub struct Compute {
    inner: Arc<Inner>,
}

/// The queue is full: try again after `retry_after`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Full {
    /// A fair estimate of when a place frees up.
    pub retry_after: Duration,
}

/// The task ended without an answer: its worker panicked (a fault, logged by the worker).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("a computer task failed")]
pub struct Failed;

/// The answer of a queued task. Dropping it before the answer cancels the task if it has not
/// started.
pub struct Pending<T> {
    answer: oneshot::Receiver<T>,
    cancel: Cancel,
}

impl<T> Future for Pending<T> {
    type Output = Result<T, Failed>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        Pin::new(&mut self.answer).poll(cx).map_err(|_| Failed)
    }
}

impl<T> Drop for Pending<T> {
    fn drop(&mut self) {
        self.cancel.cancel();
    }
}

/// The tier of a task: which goes first, and whether it may be refused when the queue is
/// full.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Priority {
    /// A computer seat's move in a game with a person: always queued, before all else.
    Owed,
    /// A move of a game between two computer players: always queued (the caller bounds how
    /// many), after owed moves, taking turns with hints.
    Watched,
    /// Work asked for on the side (a hint): refused when the queue is full.
    Optional,
}

impl Compute {
    /// A pool of `workers` threads (at least one) that refuses optional work when
    /// `max_queued` tasks wait; `per_task` is the longest a task may run.
    ///
    /// # Errors
    /// If the operating system cannot start a thread.
    pub fn new(workers: usize, max_queued: usize, per_task: Duration) -> std::io::Result<Self> {
        let inner = Arc::new(Inner {
            queue: Mutex::new(Queue {
                owed: VecDeque::new(),
                watched: VecDeque::new(),
                optional: VecDeque::new(),
                hint_last: false,
                closed: false,
            }),
            ready: Condvar::new(),
            running: AtomicUsize::new(0),
            workers: workers.max(1),
            max_queued,
            per_task,
        });
        for i in 0..inner.workers {
            let inner = inner.clone();
            std::thread::Builder::new()
                .name(format!("qasab-compute-{i}"))
                .spawn(move || {
                    lower_priority();
                    work(&inner)
                })?;
        }
        Ok(Compute { inner })
    }

    /// The number of worker threads.
    pub fn workers(&self) -> usize {
        self.inner.workers
    }

    /// The most hints that may wait before more are refused.
    pub fn max_queued(&self) -> usize {
        self.inner.max_queued
    }

    /// Tasks waiting for a worker now (cancelled ones included until a worker drops them).
    pub fn queued(&self) -> usize {
        self.inner.queue.lock().map_or(0, |q| q.len())
    }

    /// Tasks being worked on now.
    pub fn running(&self) -> usize {
        self.inner.running.load(Ordering::Acquire)
    }

    /// Queues `job`; its answer comes through the returned [`Pending`].
    ///
    /// # Errors
    /// [`Full`] for optional work when the queue is full.
    pub fn submit<T: Send + 'static>(
        &self,
        priority: Priority,
        job: impl FnOnce() -> T + Send + 'static,
    ) -> Result<Pending<T>, Full> {
        self.queue(priority, None, job)
    }

    /// Queues `job` as [`Compute::submit`] does, its searches told to stop `cap` after it
    /// starts whatever their own budgets ([`qasab_ai::cancel::Cancel::stop_at`]): they then
    /// answer with what they found, so that the job thinks no longer than `cap`.
    ///
    /// # Errors
    /// [`Full`] for optional work when the queue is full.
    pub fn submit_within<T: Send + 'static>(
        &self,
        priority: Priority,
        cap: Duration,
        job: impl FnOnce() -> T + Send + 'static,
    ) -> Result<Pending<T>, Full> {
        self.queue(priority, Some(cap), job)
    }

    fn queue<T: Send + 'static>(
        &self,
        priority: Priority,
        cap: Option<Duration>,
        job: impl FnOnce() -> T + Send + 'static,
    ) -> Result<Pending<T>, Full> {
        let (tx, rx) = oneshot::channel();
        let cancel = Cancel::new();
        let task = Task {
            work: Box::new(move || {
                // The requester may be gone; its answer is then thrown away.
                let _ = tx.send(job());
            }),
            cancel: cancel.clone(),
            cap,
        };
        {
            let mut queue = self
                .inner
                .queue
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            match priority {
                Priority::Owed => queue.owed.push_back(task),
                Priority::Watched => queue.watched.push_back(task),
                Priority::Optional => {
                    let waiting = queue.len();
                    if queue.optional.len() >= self.inner.max_queued {
                        return Err(Full {
                            retry_after: self.retry_after(waiting),
                        });
                    }
                    queue.optional.push_back(task);
                }
            }
        }
        self.inner.ready.notify_one();
        Ok(Pending { answer: rx, cancel })
    }

    /// When a place is likely to free up with `queued` tasks waiting: each worker clears one
    /// task per time limit at worst, and a task usually takes far less; at least a second.
    fn retry_after(&self, queued: usize) -> Duration {
        let rounds = queued.div_ceil(self.inner.workers).max(1) as u32;
        (self.inner.per_task * rounds / 4).clamp(Duration::from_secs(1), Duration::from_secs(60))
    }
}

impl Drop for Compute {
    fn drop(&mut self) {
        if let Ok(mut q) = self.inner.queue.lock() {
            q.closed = true;
        }
        self.inner.ready.notify_all();
    }
}

/// Lowers the calling thread's scheduling priority; threads it starts inherit it. On Linux
/// the thread runs under `SCHED_IDLE`: any thread of normal policy that wakes takes the CPU
/// from it at once, where nice 10 alone still let a thinking worker hold a core for a few
/// milliseconds while a person's request waited (docs/PERFORMANCE.md). Elsewhere, or where
/// the system refuses the policy, nice 10; where it refuses that too, the normal priority.
fn lower_priority() {
    use thread_priority::{ThreadPriority, ThreadPriorityValue, set_current_thread_priority};
    // 22 on the crate's scale of 0 (lowest) to 99 maps to nice 10 (checked by a test).
    let Ok(value) = ThreadPriorityValue::try_from(22u8) else {
        return;
    };
    #[cfg(target_os = "linux")]
    {
        use thread_priority::{
            NormalThreadSchedulePolicy, ThreadSchedulePolicy, set_thread_priority_and_policy,
            thread_native_id,
        };
        let idle = ThreadSchedulePolicy::Normal(NormalThreadSchedulePolicy::Idle);
        // The policy ignores niceness: its one allowed priority is the minimum.
        if set_thread_priority_and_policy(thread_native_id(), ThreadPriority::Min, idle).is_ok() {
            return;
        }
    }
    let _ = set_current_thread_priority(ThreadPriority::Crossplatform(value));
}

/// A worker: takes tasks in order until the pool is dropped and the queue is empty.
fn work(inner: &Inner) {
    loop {
        let task = {
            let mut queue = inner
                .queue
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            loop {
                if let Some(task) = queue.next() {
                    break task;
                }
                if queue.closed {
                    return;
                }
                queue = inner
                    .ready
                    .wait(queue)
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
            }
        };
        if task.cancel.is_cancelled() {
            continue;
        }
        inner.running.fetch_add(1, Ordering::AcqRel);
        let Task { work, cancel, cap } = task;
        if let Some(cap) = cap {
            // Past the clock's range, the task has no deadline.
            if let Some(deadline) = Instant::now().checked_add(cap) {
                cancel.stop_at(deadline);
            }
        }
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            qasab_ai::cancel::within(&cancel, work)
        }));
        inner.running.fetch_sub(1, Ordering::AcqRel);
        if outcome.is_err() {
            eprintln!("qasab serve: a computer task panicked");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicBool;
    use std::sync::mpsc;

    fn pool(workers: usize, max_queued: usize) -> Compute {
        Compute::new(workers, max_queued, Duration::from_secs(2)).unwrap()
    }

    /// Blocks the pool's only worker until the returned sender is dropped or sends.
    fn occupy(c: &Compute) -> (mpsc::Sender<()>, Pending<()>) {
        let (tx, rx) = mpsc::channel::<()>();
        let (started_tx, started_rx) = mpsc::channel();
        let pending = c
            .submit(Priority::Owed, move || {
                started_tx.send(()).unwrap();
                let _ = rx.recv();
            })
            .unwrap();
        started_rx.recv().unwrap();
        (tx, pending)
    }

    /// The names of tasks in the order they ran.
    type Order = Arc<Mutex<Vec<&'static str>>>;

    /// A task that adds `name` to `order` when it runs.
    fn logs(order: &Order, name: &'static str) -> impl FnOnce() + Send + 'static {
        let order = order.clone();
        move || order.lock().unwrap().push(name)
    }

    #[tokio::test]
    async fn answers_come_back() {
        let c = pool(2, 4);
        let a = c.submit(Priority::Optional, || 6 * 7).unwrap();
        assert_eq!(a.await, Ok(42));
    }

    #[tokio::test]
    async fn optional_work_is_refused_when_full_but_owed_work_queues() {
        let c = pool(1, 2);
        let (release, busy) = occupy(&c);
        let a = c.submit(Priority::Optional, || 1).unwrap();
        let b = c.submit(Priority::Optional, || 2).unwrap();
        let full = c.submit(Priority::Optional, || 3).err().unwrap();
        assert!(full.retry_after >= Duration::from_secs(1));
        let owed = c.submit(Priority::Owed, || 4).unwrap();
        assert_eq!(c.queued(), 3);
        drop(release);
        busy.await.unwrap();
        assert_eq!((a.await, b.await, owed.await), (Ok(1), Ok(2), Ok(4)));
    }

    #[tokio::test]
    async fn owed_work_goes_before_waiting_hints() {
        let c = pool(1, 8);
        let (release, busy) = occupy(&c);
        let order = Order::default();
        let hint = c.submit(Priority::Optional, logs(&order, "hint")).unwrap();
        let owed = c.submit(Priority::Owed, logs(&order, "move")).unwrap();
        drop(release);
        busy.await.unwrap();
        hint.await.unwrap();
        owed.await.unwrap();
        assert_eq!(*order.lock().unwrap(), ["move", "hint"]);
    }

    #[tokio::test]
    async fn owed_moves_go_first_and_watched_games_take_turns_with_hints() {
        let c = pool(1, 8);
        let (release, busy) = occupy(&c);
        let order = Order::default();
        let mut pending = Vec::new();
        for (priority, name) in [
            (Priority::Watched, "watched 1"),
            (Priority::Watched, "watched 2"),
            (Priority::Watched, "watched 3"),
            (Priority::Optional, "hint 1"),
            (Priority::Optional, "hint 2"),
            (Priority::Owed, "owed 1"),
            (Priority::Owed, "owed 2"),
        ] {
            pending.push(c.submit(priority, logs(&order, name)).unwrap());
        }
        drop(release);
        busy.await.unwrap();
        for p in pending {
            p.await.unwrap();
        }
        assert_eq!(
            *order.lock().unwrap(),
            [
                "owed 1",
                "owed 2",
                "hint 1",
                "watched 1",
                "hint 2",
                "watched 2",
                "watched 3"
            ]
        );
    }

    #[tokio::test]
    async fn a_dropped_request_is_never_run() {
        let c = pool(1, 8);
        let (release, busy) = occupy(&c);
        let ran = Arc::new(AtomicBool::new(false));
        let flag = ran.clone();
        let dropped = c
            .submit(Priority::Optional, move || {
                flag.store(true, Ordering::Release)
            })
            .unwrap();
        drop(dropped);
        let after = c.submit(Priority::Optional, || ()).unwrap();
        drop(release);
        busy.await.unwrap();
        after.await.unwrap();
        assert!(!ran.load(Ordering::Acquire));
    }

    #[tokio::test]
    async fn a_dropped_request_stops_the_search_under_way() {
        let c = pool(1, 8);
        let (started_tx, started_rx) = mpsc::channel();
        let (stopped_tx, stopped_rx) = mpsc::channel();
        let pending = c
            .submit(Priority::Optional, move || {
                // A stand-in for a search: it polls the flag in force, as the searches do.
                let flag = qasab_ai::cancel::current().unwrap();
                started_tx.send(()).unwrap();
                while !flag.is_cancelled() {
                    std::thread::sleep(Duration::from_millis(1));
                }
                stopped_tx.send(()).unwrap();
            })
            .unwrap();
        started_rx.recv().unwrap();
        drop(pending);
        stopped_rx.recv_timeout(Duration::from_secs(10)).unwrap();
    }

    #[tokio::test]
    async fn a_capped_task_is_told_to_stop_when_its_time_is_up() {
        let c = pool(1, 8);
        let started = Instant::now();
        let waited = c
            .submit_within(Priority::Optional, Duration::from_millis(50), || {
                // A stand-in for a search with a budget of an hour: it polls the flag.
                let flag = qasab_ai::cancel::current().unwrap();
                let start = Instant::now();
                while !flag.is_cancelled() && start.elapsed() < Duration::from_secs(3600) {
                    std::thread::sleep(Duration::from_millis(1));
                }
                start.elapsed()
            })
            .unwrap()
            .await
            .unwrap();
        assert!(waited >= Duration::from_millis(50), "{waited:?}");
        assert!(started.elapsed() < Duration::from_secs(30), "{waited:?}");
        // Uncapped work is not stopped.
        let flag = c
            .submit(Priority::Optional, || {
                std::thread::sleep(Duration::from_millis(60));
                qasab_ai::cancel::current().unwrap().is_cancelled()
            })
            .unwrap()
            .await
            .unwrap();
        assert!(!flag);
    }

    #[tokio::test]
    async fn never_more_running_than_workers() {
        let c = pool(2, 64);
        let now = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let tasks: Vec<_> = (0..16)
            .map(|_| {
                let (now, most) = (now.clone(), most.clone());
                c.submit(Priority::Optional, move || {
                    let n = now.fetch_add(1, Ordering::AcqRel) + 1;
                    most.fetch_max(n, Ordering::AcqRel);
                    std::thread::sleep(Duration::from_millis(5));
                    now.fetch_sub(1, Ordering::AcqRel);
                })
                .unwrap()
            })
            .collect();
        for t in tasks {
            t.await.unwrap();
        }
        assert_eq!(most.load(Ordering::Acquire), 2);
    }

    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn workers_run_at_a_lower_priority() {
        let c = pool(1, 4);
        // The worker's scheduling policy (field 41 of the thread's stat, in the kernel's own
        // view of the thread) is SCHED_IDLE, which is 5.
        let policy = c
            .submit(Priority::Owed, || {
                let stat = std::fs::read_to_string("/proc/thread-self/stat").unwrap();
                let fields: Vec<&str> = stat
                    .rsplit(')')
                    .next()
                    .unwrap()
                    .split_whitespace()
                    .collect();
                fields[38].parse::<i32>().unwrap()
            })
            .unwrap()
            .await
            .unwrap();
        assert_eq!(policy, 5);
    }

    #[tokio::test]
    async fn a_panicking_task_fails_alone() {
        let c = pool(1, 4);
        let bad = c
            .submit(Priority::Owed, || -> u8 { panic!("a fault") })
            .unwrap();
        assert_eq!(bad.await, Err(Failed));
        assert_eq!(c.submit(Priority::Owed, || 5).unwrap().await, Ok(5));
    }
}
