//! Position ids under mutation, for every ruleset: an id made by editing a valid one is either
//! read, and then it is a valid state that reads back to itself and can be played on (every
//! state reached is valid too), or it is rejected with an error. Nothing panics.

mod common;

use proptest::prelude::*;
use qasab_core::{AnyRuleset, GameState, Ruleset, Turn, with_ruleset};
use rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// Every Tâb variant of the invariant tests, the Ludii presets at two sizes and a spread of
/// Tihbat rulesets.
fn rulesets() -> Vec<AnyRuleset> {
    let mut v: Vec<AnyRuleset> = common::tab_variants()
        .into_iter()
        .map(AnyRuleset::Tab)
        .collect();
    for text in [
        "tab-ludii",
        "tab-ludii(columns=9)",
        "tab-hyde-ludii",
        "tab-hyde-ludii(columns=19)",
        "tihbat",
        "tihbat(seeds=3,singleton=forward,empty=end)",
        "tihbat(seeds=5,chain=own-side,repetition=2,cycle=own-side)",
        "tihbat(seeds=2,origin=skip,singleton=illegal,first=north)",
    ] {
        v.push(text.parse().expect("a valid ruleset"));
    }
    v
}

/// One edit of an id's text.
#[derive(Clone, Debug)]
enum Edit {
    /// Replace the character at a position.
    Replace(usize, char),
    /// Delete the character at a position.
    Delete(usize),
    /// Insert a character before a position.
    Insert(usize, char),
    /// Add or take one from a digit (decimal or hexadecimal): edits that keep the syntax and
    /// change the meaning.
    Bump(usize, bool),
    /// Copy one token (a run between `/ , . :`) over another.
    CopyToken(usize, usize),
    /// Swap two tokens.
    SwapTokens(usize, usize),
    /// Replace a number by an extreme value ([`EXTREMES`]).
    Extreme(usize, usize),
}

/// The values a counter is tried at: 0 and the largest values of the types the fields are read
/// into (`u8`, `u16`, `i32`, `u32`), and one less.
const EXTREMES: [&str; 9] = [
    "0",
    "254",
    "255",
    "65534",
    "65535",
    "2147483646",
    "2147483647",
    "4294967294",
    "4294967295",
];

/// The numbers of an id: (start, end) of each maximal run of decimal digits that stands alone
/// between separators (so not the digits of a piece's marks or visited squares). Ludii's
/// run-length `VxK` and Tihbat's `A.B.C.Ds` count as separated.
fn numbers(chars: &[char]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if !chars[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && chars[i].is_ascii_digit() {
            i += 1;
        }
        let before = start.checked_sub(1).map(|k| chars[k]);
        let after = chars.get(i).copied();
        let free_before = before.is_none_or(|c| !c.is_ascii_alphanumeric() || c == 'x');
        let free_after = after.is_none_or(|c| !c.is_ascii_alphanumeric() || "xsn".contains(c));
        if free_before && free_after {
            out.push((start, i));
        }
    }
    out
}

/// `id` with its `k`-th number (of [`numbers`]) replaced by `value`.
fn with_number(id: &str, k: usize, value: &str) -> String {
    let mut c: Vec<char> = id.chars().collect();
    let (a, b) = numbers(&c)[k];
    c.splice(a..b, value.chars());
    c.into_iter().collect()
}

/// Characters that ids are made of, and a few that they are not.
const ALPHABET: &str = "0123456789abcdefghiklmnopqrsvxwABCDEFGHIKLMNOPQRS.,/:+-cenu ";

fn arb_edit() -> impl Strategy<Value = Edit> {
    let ch = prop::sample::select(ALPHABET.chars().collect::<Vec<_>>());
    prop_oneof![
        (any::<usize>(), ch.clone()).prop_map(|(i, c)| Edit::Replace(i, c)),
        any::<usize>().prop_map(Edit::Delete),
        (any::<usize>(), ch).prop_map(|(i, c)| Edit::Insert(i, c)),
        (any::<usize>(), any::<bool>()).prop_map(|(i, up)| Edit::Bump(i, up)),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Edit::CopyToken(a, b)),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Edit::SwapTokens(a, b)),
        (any::<usize>(), any::<usize>()).prop_map(|(i, v)| Edit::Extreme(i, v)),
    ]
}

/// The position `i` stands for among `len`.
fn pick(i: &usize, len: usize) -> usize {
    i % len
}

fn is_separator(c: char) -> bool {
    matches!(c, '/' | ',' | '.' | ':')
}

/// The tokens of a text: (start, end) of each maximal run without a separator.
fn tokens(chars: &[char]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, &c) in chars.iter().chain(std::iter::once(&'/')).enumerate() {
        match (is_separator(c), start) {
            (true, Some(s)) => {
                out.push((s, i));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    out
}

fn apply(id: &str, edit: &Edit) -> String {
    let mut c: Vec<char> = id.chars().collect();
    match edit {
        Edit::Replace(i, ch) if !c.is_empty() => {
            let k = pick(i, c.len());
            c[k] = *ch;
        }
        Edit::Delete(i) if !c.is_empty() => {
            c.remove(pick(i, c.len()));
        }
        Edit::Insert(i, ch) => {
            let k = pick(i, c.len() + 1);
            c.insert(k, *ch);
        }
        Edit::Bump(i, up) => {
            let digits: Vec<usize> = (0..c.len()).filter(|&k| c[k].is_ascii_hexdigit()).collect();
            if !digits.is_empty() {
                let k = digits[pick(i, digits.len())];
                let v = c[k].to_digit(16).expect("a hex digit");
                let v = if *up { (v + 1) % 16 } else { (v + 15) % 16 };
                let hex = c[k].is_ascii_digit() && v < 10 || !c[k].is_ascii_digit();
                if hex {
                    c[k] = char::from_digit(v, 16).expect("below 16");
                }
            }
        }
        Edit::CopyToken(a, b) | Edit::SwapTokens(a, b) => {
            let t = tokens(&c);
            if !t.is_empty() {
                let (ia, ib) = (pick(a, t.len()), pick(b, t.len()));
                let text = |k: usize| c[t[k].0..t[k].1].to_vec();
                let mut new = vec![(ia, text(ib))];
                if matches!(edit, Edit::SwapTokens(..)) {
                    new.push((ib, text(ia)));
                }
                // The later token first, so that the earlier one's place stays put.
                new.sort_by_key(|&(k, _)| std::cmp::Reverse(t[k].0));
                new.dedup_by_key(|(k, _)| *k);
                for (k, chars) in new {
                    c.splice(t[k].0..t[k].1, chars);
                }
            }
        }
        Edit::Extreme(i, v) => {
            let n = numbers(&c);
            if !n.is_empty() {
                let id: String = c.iter().collect();
                return with_number(&id, pick(i, n.len()), EXTREMES[pick(v, EXTREMES.len())]);
            }
        }
        _ => {}
    }
    c.into_iter().collect()
}

/// What reading one id gave.
#[derive(Debug, PartialEq, Eq)]
enum Read {
    /// Read: a valid state, equal to the one its own id gives.
    Accepted,
    /// Rejected with an error.
    Rejected,
}

/// Reads `id` under `rules` and checks the contract; if it is read, plays up to `steps` seeded
/// random actions from it, checking that every state reached is valid and round-trips.
fn check_id<R: Ruleset>(rules: &R, id: &str, seed: u64, steps: u32) -> Read {
    let s = match rules.state_from_id(id) {
        Err(e) => {
            assert!(!e.why.is_empty(), "an error says why: {id}");
            assert_eq!(e.id, id, "the error quotes the id");
            return Read::Rejected;
        }
        Ok(s) => s,
    };
    let mut s = s;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let (mut moves, mut outs) = (Vec::new(), Vec::new());
    for step in 0..=steps {
        if let Err(e) = s.validate() {
            panic!(
                "{rules}: a state reached in {step} actions from the accepted id {id} is not valid: {e}\n{}",
                s.position_id()
            );
        }
        let again = s.position_id();
        assert_eq!(
            rules.state_from_id(&again).as_ref(),
            Ok(&s),
            "{rules}: {again} (from {id}) reads back"
        );
        if step == steps || matches!(s.turn(), Turn::Over(_)) {
            break;
        }
        common::random_action(&mut s, &mut rng, &mut moves, &mut outs);
    }
    Read::Accepted
}

/// A valid id of `rules`: the state after `len` seeded random actions (or the end).
fn valid_id<R: Ruleset>(rules: &R, seed: u64, len: u32) -> String {
    let mut s = rules.initial_state();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let (mut moves, mut outs) = (Vec::new(), Vec::new());
    for _ in 0..len {
        if !common::random_action(&mut s, &mut rng, &mut moves, &mut outs) {
            break;
        }
    }
    s.position_id()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 5000, ..ProptestConfig::default() })]

    #[test]
    fn mutated_ids_are_read_as_valid_states_or_rejected(
        which in any::<usize>(),
        seed in any::<u64>(),
        len in 0u32..400,
        edits in prop::collection::vec(arb_edit(), 1..4),
    ) {
        let all = rulesets();
        let any = &all[which % all.len()];
        with_ruleset!(*any, r => {
            let id = valid_id(&r, seed, len);
            let mut bad = id.clone();
            for e in &edits {
                bad = apply(&bad, e);
            }
            check_id(&r, &bad, seed, 40);
        });
    }
}

/// The mutations reach both sides of the check: over a fixed sample, some edited ids are read
/// (states other than the one edited) and some are rejected by the validity check itself, not
/// only by the syntax.
#[test]
fn the_mutations_reach_the_validity_check() {
    let all = rulesets();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    let (mut changed, mut by_validity, mut rejected) = (0, 0, 0);
    for k in 0..4000u64 {
        let any = &all[(k as usize * 7) % all.len()];
        let edit = Edit::Bump(rand_core::Rng::next_u64(&mut rng) as usize, k % 2 == 0);
        with_ruleset!(*any, r => {
            let id = valid_id(&r, k, (k % 300) as u32);
            let bad = apply(&id, &edit);
            match check_id(&r, &bad, k, 5) {
                Read::Accepted => changed += usize::from(bad != id),
                Read::Rejected => {
                    rejected += 1;
                    // A rejection by the validity check names a rule, not the syntax.
                    if let Err(e) = r.state_from_id(&bad)
                        && (e.why.contains("(L-") || e.why.contains("(H-") || e.why.contains("(T-")
                            || e.why.contains("history") || e.why.contains("over"))
                    {
                        by_validity += 1;
                    }
                }
            }
        });
    }
    assert!(changed > 100, "{changed} edited ids read");
    assert!(rejected > 100, "{rejected} rejected");
    assert!(
        by_validity > 100,
        "{by_validity} rejected by the validity check"
    );
}

/// Every number of valid ids of every ruleset, set to each extreme value in turn: the id is read
/// (a valid state that reads back and plays on, every state reached valid) or rejected. The
/// counters that an id may set to any value saturate rather than wrap, and the ones the rules
/// bound are checked against their bounds.
#[test]
fn counters_at_extreme_values_are_read_or_rejected() {
    let all = rulesets();
    let (mut read, mut tried) = (0, 0);
    for (which, any) in all.iter().enumerate() {
        for (seed, len) in [(1u64, 0u32), (2, 25), (3, 120)] {
            with_ruleset!(*any, r => {
                let id = valid_id(&r, seed + which as u64, len);
                let count = numbers(&id.chars().collect::<Vec<_>>()).len();
                for k in 0..count {
                    for value in EXTREMES {
                        tried += 1;
                        let bad = with_number(&id, k, value);
                        if check_id(&r, &bad, seed, 6) == Read::Accepted {
                            read += 1;
                        }
                    }
                }
            });
        }
    }
    assert!(read > 0 && read < tried, "{read} of {tried} read");
}
