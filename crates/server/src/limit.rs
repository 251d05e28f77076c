//! A small in-memory limit on games created per client address.
//!
//! Each address has a bucket of `per_minute` tokens, refilled continuously at `per_minute` a
//! minute; creating or importing a game takes one. The map forgets addresses whose bucket is
//! full again, so it stays as small as the set of recently active clients.
//!
//! An IPv6 client is counted by its /64 prefix ([`client_key`]): one host commonly has a whole
//! /64 to pick addresses from, so a bucket per full address would be no limit at all.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr};
use std::time::Instant;

/// The address that a client's requests are counted under: an IPv4 address itself (also when
/// written as an IPv4-mapped IPv6 address), and for IPv6 the /64 prefix, with the host bits
/// cleared.
pub fn client_key(addr: IpAddr) -> IpAddr {
    match addr.to_canonical() {
        IpAddr::V4(v4) => IpAddr::V4(v4),
        IpAddr::V6(v6) => IpAddr::V6(Ipv6Addr::from_bits(v6.to_bits() & !u128::from(u64::MAX))),
    }
}

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

    /// Takes one token for `addr` (counted under its [`client_key`]) at `now`; false if its
    /// bucket is empty.
    pub fn allow(&mut self, addr: IpAddr, now: Instant) -> bool {
        let addr = client_key(addr);
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

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn keys_ipv6_by_its_64_prefix_and_ipv4_by_address() {
        assert_eq!(client_key(ip("2001:db8:1:2:3:4:5:6")), ip("2001:db8:1:2::"));
        assert_eq!(client_key(ip("2001:db8:1:2::")), ip("2001:db8:1:2::"));
        assert_eq!(client_key(ip("::1")), ip("::"));
        assert_eq!(client_key(ip("192.0.2.7")), ip("192.0.2.7"));
        assert_eq!(client_key(ip("::ffff:192.0.2.7")), ip("192.0.2.7"));
    }

    #[test]
    fn an_ipv6_64_shares_one_bucket() {
        let mut l = RateLimiter::new(2);
        let t = Instant::now();
        assert!(l.allow(ip("2001:db8:1:2::1"), t));
        assert!(l.allow(ip("2001:db8:1:2:ffff:ffff:ffff:ffff"), t));
        assert!(!l.allow(ip("2001:db8:1:2:abcd::9"), t));
        // The next /64 is another client.
        assert!(l.allow(ip("2001:db8:1:3::1"), t));
    }

    #[test]
    fn an_ipv4_mapped_address_is_the_ipv4_client() {
        let mut l = RateLimiter::new(1);
        let t = Instant::now();
        assert!(l.allow(ip("192.0.2.7"), t));
        assert!(!l.allow(ip("::ffff:192.0.2.7"), t));
        // Neighbouring IPv4 addresses are not grouped.
        assert!(l.allow(ip("192.0.2.8"), t));
    }
}
