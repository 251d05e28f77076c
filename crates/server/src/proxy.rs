//! Trusted reverse proxies: which peers may say, in `X-Forwarded-For`, whose request they
//! forward.
//!
//! The limits per client address count the connection's peer. Behind a reverse proxy every
//! request comes from the proxy, so a peer in [`crate::Config::trusted_proxies`] may name the
//! client: it is the right-most address of `X-Forwarded-For` that is not itself a trusted
//! proxy, the address that the first trusted proxy saw. Addresses further left were written
//! by the client and could be anything. From any other peer the header is ignored.

use std::net::{IpAddr, SocketAddr};

use axum::http::HeaderMap;
use ipnet::IpNet;

/// The header that proxies append the address of their own peer to.
const X_FORWARDED_FOR: &str = "x-forwarded-for";

/// A trusted proxy that is neither an IP address nor a CIDR range.
#[derive(Debug, thiserror::Error)]
#[error("'{0}' is not an IP address or a CIDR range (such as 10.0.0.0/8 or fd00::/8)")]
pub struct BadNetwork(String);

/// Reads a trusted proxy: an IP address (a range of one) or a CIDR range such as
/// `10.0.0.0/8` (what `qasab serve --trust-proxy` takes).
///
/// # Errors
/// [`BadNetwork`] for anything else.
pub fn parse_network(text: &str) -> Result<IpNet, BadNetwork> {
    let t = text.trim();
    t.parse::<IpNet>()
        .or_else(|_| t.parse::<IpAddr>().map(|a| IpNet::from(a.to_canonical())))
        .map(|n| n.trunc())
        .map_err(|_| BadNetwork(text.to_string()))
}

fn trusted(addr: IpAddr, proxies: &[IpNet]) -> bool {
    proxies.iter().any(|n| n.contains(&addr))
}

/// The client of a request that came from `peer` with `headers`: `peer` itself, unless it is
/// a trusted proxy; then the right-most address of `X-Forwarded-For` that is not trusted (or
/// the left-most, if all are). A header that is missing, or that cannot be read up to that
/// address, leaves the client at `peer`. IPv4-mapped IPv6 addresses count as IPv4 addresses.
pub fn client_addr(peer: IpAddr, headers: &HeaderMap, proxies: &[IpNet]) -> IpAddr {
    let peer = peer.to_canonical();
    if !trusted(peer, proxies) {
        return peer;
    }
    forwarded_client(headers, proxies).unwrap_or(peer)
}

/// The client named by `X-Forwarded-For`, read from the right; `None` for a missing or empty
/// header, or an entry on the way that is not an address.
fn forwarded_client(headers: &HeaderMap, proxies: &[IpNet]) -> Option<IpAddr> {
    let mut leftmost = None;
    // Several header lines make one list, in their order.
    for line in headers.get_all(X_FORWARDED_FOR).iter().rev() {
        for entry in line.as_bytes().rsplit(|&b| b == b',') {
            let entry = std::str::from_utf8(entry).ok()?.trim();
            if entry.is_empty() {
                continue;
            }
            let addr = read_entry(entry)?;
            if !trusted(addr, proxies) {
                return Some(addr);
            }
            leftmost = Some(addr);
        }
    }
    leftmost
}

/// One entry of the list: an address, possibly with a port (`192.0.2.1:4711`,
/// `[2001:db8::1]:4711`) or in brackets, as some proxies write it.
fn read_entry(entry: &str) -> Option<IpAddr> {
    let addr = entry
        .parse::<IpAddr>()
        .ok()
        .or_else(|| entry.parse::<SocketAddr>().ok().map(|s| s.ip()))
        .or_else(|| {
            entry
                .strip_prefix('[')
                .and_then(|e| e.strip_suffix(']'))
                .and_then(|e| e.parse::<IpAddr>().ok())
        })?;
    Some(addr.to_canonical())
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    fn nets(list: &[&str]) -> Vec<IpNet> {
        list.iter().map(|s| parse_network(s).unwrap()).collect()
    }

    fn headers(lines: &[&str]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for l in lines {
            h.append(X_FORWARDED_FOR, HeaderValue::from_str(l).unwrap());
        }
        h
    }

    #[test]
    fn parses_addresses_and_ranges() {
        assert_eq!(
            parse_network("10.0.0.1").unwrap().to_string(),
            "10.0.0.1/32"
        );
        assert_eq!(
            parse_network("10.1.2.3/8").unwrap().to_string(),
            "10.0.0.0/8"
        );
        assert_eq!(parse_network(" fd00::/8 ").unwrap().to_string(), "fd00::/8");
        assert_eq!(parse_network("::1").unwrap().to_string(), "::1/128");
        assert_eq!(
            parse_network("::ffff:10.0.0.1").unwrap().to_string(),
            "10.0.0.1/32"
        );
        for bad in ["", "proxy", "10.0.0.0/33", "10.0.0", "1.2.3.4:80"] {
            let e = parse_network(bad).unwrap_err();
            assert!(e.to_string().contains("not an IP address"), "{bad}: {e}");
        }
    }

    #[test]
    fn an_untrusted_peer_is_the_client_whatever_the_header_says() {
        let h = headers(&["203.0.113.9"]);
        assert_eq!(client_addr(ip("192.0.2.1"), &h, &[]), ip("192.0.2.1"));
        let proxies = nets(&["10.0.0.0/8"]);
        assert_eq!(client_addr(ip("192.0.2.1"), &h, &proxies), ip("192.0.2.1"));
    }

    #[test]
    fn a_trusted_peer_names_the_rightmost_untrusted_address() {
        let proxies = nets(&["10.0.0.0/8", "2001:db8:ff::/48"]);
        let peer = ip("10.0.0.1");
        let client = |lines: &[&str]| client_addr(peer, &headers(lines), &proxies);
        assert_eq!(client(&["203.0.113.9"]), ip("203.0.113.9"));
        // The client wrote the left part itself.
        assert_eq!(client(&["198.51.100.1, 203.0.113.9"]), ip("203.0.113.9"));
        // Trusted proxies on the way are skipped.
        assert_eq!(
            client(&["198.51.100.1, 203.0.113.9, 10.2.3.4"]),
            ip("203.0.113.9")
        );
        assert_eq!(
            client(&["198.51.100.1", "203.0.113.9,10.2.3.4"]),
            ip("203.0.113.9")
        );
        assert_eq!(
            client(&["2001:db8:1::7, 2001:db8:ff::1"]),
            ip("2001:db8:1::7")
        );
        // Ports and brackets, as some proxies write them; IPv4-mapped addresses as IPv4.
        assert_eq!(client(&["203.0.113.9:4711"]), ip("203.0.113.9"));
        assert_eq!(client(&["[2001:db8:1::7]:4711"]), ip("2001:db8:1::7"));
        assert_eq!(client(&["[2001:db8:1::7]"]), ip("2001:db8:1::7"));
        assert_eq!(client(&["::ffff:203.0.113.9"]), ip("203.0.113.9"));
        // Only proxies: the left-most.
        assert_eq!(client(&["10.9.9.9, 10.2.3.4"]), ip("10.9.9.9"));
        // Garbage left of the client is never read.
        assert_eq!(client(&["not an address, 203.0.113.9"]), ip("203.0.113.9"));
        // An IPv4-mapped peer is the IPv4 proxy.
        assert_eq!(
            client_addr(ip("::ffff:10.0.0.1"), &headers(&["203.0.113.9"]), &proxies),
            ip("203.0.113.9")
        );
    }

    #[test]
    fn a_missing_or_malformed_header_leaves_the_peer() {
        let proxies = nets(&["10.0.0.0/8"]);
        let peer = ip("10.0.0.1");
        let client = |lines: &[&str]| client_addr(peer, &headers(lines), &proxies);
        assert_eq!(client(&[]), peer);
        assert_eq!(client(&[""]), peer);
        assert_eq!(client(&[" , "]), peer);
        assert_eq!(client(&["unknown"]), peer);
        assert_eq!(client(&["203.0.113.9, garbage"]), peer);
        assert_eq!(client(&["203.0.113.9", "10.2.3.4, 999.1.1.1"]), peer);
        let mut h = HeaderMap::new();
        h.append(
            X_FORWARDED_FOR,
            HeaderValue::from_bytes(b"203.0.113.9\xff").unwrap(),
        );
        assert_eq!(client_addr(peer, &h, &proxies), peer);
    }
}
