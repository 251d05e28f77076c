//! Seat tokens: secrets from the operating system, stored only as hashes.
//!
//! Creating a game returns one token per human seat: 256 random bits from the OS, as 64 hex
//! digits. The server keeps only each token's SHA-256, so neither the database nor any view of
//! a game holds a token. A request acts for a seat by sending the token in the header
//! `Authorization: Bearer TOKEN`; the header is compared by hash, in constant time.

use axum::http::HeaderMap;
use axum::http::header::AUTHORIZATION;
use sha2::{Digest, Sha256};

use crate::error::AppError;

/// Random bytes in a token.
const TOKEN_BYTES: usize = 32;

/// Random bytes in a game id.
const ID_BYTES: usize = 8;

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn random_hex(n: usize) -> anyhow::Result<String> {
    let mut buf = vec![0u8; n];
    getrandom::fill(&mut buf).map_err(|e| anyhow::anyhow!("no OS randomness: {e}"))?;
    Ok(hex(&buf))
}

/// A new seat token.
///
/// # Errors
/// If the operating system gives no randomness.
pub fn new_token() -> anyhow::Result<String> {
    random_hex(TOKEN_BYTES)
}

/// A new game id: 64 random bits as 16 hex digits.
///
/// # Errors
/// If the operating system gives no randomness.
pub fn new_game_id() -> anyhow::Result<String> {
    random_hex(ID_BYTES)
}

/// A new secret game seed.
///
/// # Errors
/// If the operating system gives no randomness.
pub fn new_seed() -> anyhow::Result<u64> {
    let mut buf = [0u8; 8];
    getrandom::fill(&mut buf).map_err(|e| anyhow::anyhow!("no OS randomness: {e}"))?;
    Ok(u64::from_le_bytes(buf))
}

/// The stored form of a token: its SHA-256, hex.
pub fn hash_token(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

/// Compares two strings in time that depends only on their lengths.
pub fn constant_time_eq(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// The bearer token of a request, if any.
///
/// # Errors
/// [`AppError::Unauthorized`] if the header is missing or not `Bearer TOKEN`.
pub fn bearer(headers: &HeaderMap) -> Result<String, AppError> {
    let missing = || {
        AppError::Unauthorized(
            "this request needs a seat token: send the header 'Authorization: Bearer TOKEN' \
             with the token given when the game was created"
                .into(),
        )
    };
    let value = headers.get(AUTHORIZATION).ok_or_else(missing)?;
    let value = value.to_str().map_err(|_| missing())?;
    let token = value
        .strip_prefix("Bearer ")
        .or_else(|| value.strip_prefix("bearer "))
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .ok_or_else(missing)?;
    Ok(token.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_long_random_and_hashed() {
        let a = new_token().unwrap();
        let b = new_token().unwrap();
        assert_eq!(a.len(), 64);
        assert_ne!(a, b);
        assert_eq!(hash_token(&a).len(), 64);
        assert_ne!(hash_token(&a), a);
        assert!(constant_time_eq(&hash_token(&a), &hash_token(&a)));
        assert!(!constant_time_eq(&hash_token(&a), &hash_token(&b)));
        assert!(!constant_time_eq("ab", "abc"));
    }
}
