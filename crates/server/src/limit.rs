//! A small in-memory limit on games created per client address.
//!
//! Each address has a bucket of `per_minute` tokens, refilled continuously at `per_minute` a
//! minute; creating or importing a game takes one. The map forgets addresses whose bucket is
//! full again, so it stays as small as the set of recently active clients.

use std::collections::HashMap;
use std::net::IpAddr;
use std::time::Instant;

/// Buckets by client address.
#[derive(Debug)]
pub struct RateLimiter {
    per_minute: u32,
    buckets: HashMap<IpAddr, (f64, Instant)>,
}

impl RateLimiter {
    /// A limiter allowing `per_minute` games a minute per address (bursts of as many).
    pub fn new(per_minute: u32) -> Self {
        RateLimiter {
            per_minute,
            buckets: HashMap::new(),
        }
    }

    /// Takes one token for `addr` at `now`; false if its bucket is empty.
    pub fn allow(&mut self, addr: IpAddr, now: Instant) -> bool {
        let cap = f64::from(self.per_minute);
        let rate = cap / 60.0;
        if self.buckets.len() > 10_000 {
            self.buckets.retain(|_, (tokens, at)| {
                *tokens + now.saturating_duration_since(*at).as_secs_f64() * rate < cap
            });
        }
        let (tokens, at) = self.buckets.entry(addr).or_insert((cap, now));
        *tokens = (*tokens + now.saturating_duration_since(*at).as_secs_f64() * rate).min(cap);
        *at = now;
        if *tokens >= 1.0 {
            *tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn refills_over_a_minute() {
        let mut l = RateLimiter::new(2);
        let a: IpAddr = "127.0.0.1".parse().unwrap();
        let b: IpAddr = "127.0.0.2".parse().unwrap();
        let t = Instant::now();
        assert!(l.allow(a, t));
        assert!(l.allow(a, t));
        assert!(!l.allow(a, t));
        assert!(l.allow(b, t));
        assert!(l.allow(a, t + Duration::from_secs(30)));
        assert!(!l.allow(a, t + Duration::from_secs(30)));
    }
}
