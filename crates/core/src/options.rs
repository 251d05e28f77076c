//! Options declared once: one definition per option (its key, the values it takes, its help,
//! its rule ids, and how to read and write it), from which parsing, the canonical string, the
//! option documentation (`qasab rules`, the server's ruleset list, the web page's form, the
//! OpenSpiel parameters) and the value lists of the tests are all derived.
//!
//! Rulesets (`tab(columns=13)`) and player specs (`mcts(level=3)`) use the same machinery:
//! a `name(key=value,...)` string whose options are applied, in any order, to a value holding
//! the defaults.

use std::fmt;

/// A type whose values are one of a fixed set of kebab-case names: the choice options.
pub trait Choice: Copy + PartialEq + 'static {
    /// Every value with its name, in documented order.
    const CHOICES: &'static [(&'static str, Self)];
    /// The names alone, in the same order.
    const NAMES: &'static [&'static str];

    /// The name of a value.
    fn name(self) -> &'static str {
        Self::CHOICES
            .iter()
            .find(|(_, v)| *v == self)
            .map_or("?", |(n, _)| n)
    }

    /// The value with a name.
    ///
    /// # Errors
    /// [`ValueError::Expected`] listing the names.
    fn parse(text: &str) -> Result<Self, ValueError> {
        Self::CHOICES
            .iter()
            .find(|(n, _)| *n == text)
            .map(|&(_, v)| v)
            .ok_or_else(|| ValueError::Expected(Self::NAMES.join(" | ")))
    }
}

impl Choice for bool {
    const CHOICES: &'static [(&'static str, bool)] = &[("true", true), ("false", false)];
    const NAMES: &'static [&'static str] = &["true", "false"];
}

/// Declares a choice enum, its documented values and their names, and implements [`Choice`]:
/// the names are written once, beside the variants.
macro_rules! choice_enum {
    ($(#[$doc:meta])* $vis:vis $name:ident { $($(#[$vdoc:meta])* $variant:ident = $text:literal),+ $(,)? }) => {
        $(#[$doc])*
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
        $vis enum $name {
            $($(#[$vdoc])* $variant),+
        }

        impl $crate::options::Choice for $name {
            const CHOICES: &'static [(&'static str, $name)] = &[$(($text, $name::$variant)),+];
            const NAMES: &'static [&'static str] = &[$($text),+];
        }
    };
}
pub(crate) use choice_enum;

/// Why a value was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ValueError {
    /// It is not a value of the option; the accepted values, in words.
    Expected(String),
    /// It is a value of the option, but not one that this preset or player takes; the reason.
    Refused(String),
}

/// The values an option takes, as documented.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Values {
    /// One of these names (a [`Choice`]).
    Choice(&'static [&'static str]),
    /// An integer from `lo` to `hi`; `note` follows the range in the documentation
    /// (`" (0 = off)"`).
    Int {
        /// The smallest value.
        lo: u32,
        /// The largest value.
        hi: u32,
        /// Said after the range, or empty.
        note: &'static str,
    },
    /// Anything else, described in words.
    Text(&'static str),
}

impl fmt::Display for Values {
    /// The documented form: `a | b`, `1..=60`, or the words given.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Values::Choice(names) => f.write_str(&names.join(" | ")),
            Values::Int { lo, hi, note } => write!(f, "{lo}..={hi}{note}"),
            Values::Text(words) => f.write_str(words),
        }
    }
}

/// One option of `T` (a ruleset or a player's settings): what it is, and how to read and
/// write it.
pub struct OptionDef<T: 'static> {
    /// The key in the `name(key=value)` string.
    pub key: &'static str,
    /// The values it takes.
    pub values: Values,
    /// What the option changes.
    pub help: &'static str,
    /// The rule ids of the research document that the option belongs to (empty for a player).
    pub rules: &'static str,
    /// Its value in `T`, as text (the canonical form).
    pub get: fn(&T) -> String,
    /// Sets it from text.
    pub set: fn(&mut T, &str) -> Result<(), ValueError>,
}

impl<T> fmt::Debug for OptionDef<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OptionDef")
            .field("key", &self.key)
            .field("values", &self.values)
            .finish_non_exhaustive()
    }
}

impl<T> OptionDef<T> {
    /// Whether the option is a safety limit of the Tâb family (L-18): not a rule of the game
    /// (the solved game, a network's inputs and the readings a family is trained across leave
    /// it out). Ludii's own limits (LT-10, LH-9) are rules of its encodings and are not.
    pub fn is_safety_limit(&self) -> bool {
        self.rules.contains("L-18")
    }

    /// The documentation of the option.
    pub fn doc(&self) -> OptionDoc {
        OptionDoc {
            key: self.key,
            values: self.values.to_string(),
            help: self.help,
            rules: self.rules,
        }
    }
}

/// Documentation of one option, used by `qasab rules`, error messages, the server and the docs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionDoc {
    /// The key in the string.
    pub key: &'static str,
    /// The accepted values, as shown to users (`none | own-side`, `1..=60`).
    pub values: String,
    /// What the option changes.
    pub help: &'static str,
    /// The rule ids of the research document that the option belongs to.
    pub rules: &'static str,
}

/// Text built at compile time, for documentation that must be `&'static str` (an option's
/// help or values) yet states numbers kept in constants: the text then cannot drift from
/// them. Holds at most `N` bytes; building more is a compile-time error.
///
/// # Examples
/// ```
/// use qasab_core::options::ConstText;
/// const SIZES: [u64; 3] = [13, 19, 1000];
/// const HELP: &str = {
///     const TEXT: ConstText<40> = ConstText::new()
///         .push("sizes ")
///         .list(&SIZES, true, ", ", " or ");
///     TEXT.as_str()
/// };
/// assert_eq!(HELP, "sizes 13, 19 or 1,000");
/// ```
#[derive(Copy, Clone, Debug)]
pub struct ConstText<const N: usize> {
    buf: [u8; N],
    len: usize,
}

impl<const N: usize> ConstText<N> {
    /// The empty text.
    pub const fn new() -> Self {
        ConstText {
            buf: [0; N],
            len: 0,
        }
    }

    /// The text followed by `text`.
    pub const fn push(mut self, text: &str) -> Self {
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            self.buf[self.len] = bytes[i];
            self.len += 1;
            i += 1;
        }
        self
    }

    /// The text followed by `n` in decimal, with a comma between groups of three digits if
    /// `grouped` (`100,000`).
    pub const fn number(mut self, n: u64, grouped: bool) -> Self {
        let mut digits = [0u8; 20];
        let mut count = 0;
        let mut rest = n;
        loop {
            digits[count] = b'0' + (rest % 10) as u8;
            count += 1;
            rest /= 10;
            if rest == 0 {
                break;
            }
        }
        while count > 0 {
            count -= 1;
            self.buf[self.len] = digits[count];
            self.len += 1;
            if grouped && count > 0 && count % 3 == 0 {
                self.buf[self.len] = b',';
                self.len += 1;
            }
        }
        self
    }

    /// The text followed by `numbers` ([`ConstText::number`]), with `separator` between
    /// them and `last` before the last one (`13, 19 or 21`).
    pub const fn list(
        mut self,
        numbers: &[u64],
        grouped: bool,
        separator: &str,
        last: &str,
    ) -> Self {
        let mut i = 0;
        while i < numbers.len() {
            if i > 0 {
                self = self.push(if i + 1 == numbers.len() {
                    last
                } else {
                    separator
                });
            }
            self = self.number(numbers[i], grouped);
            i += 1;
        }
        self
    }

    /// As [`ConstText::list`], for small numbers (board sizes), ungrouped.
    pub const fn list_u8(mut self, numbers: &[u8], separator: &str, last: &str) -> Self {
        let mut i = 0;
        while i < numbers.len() {
            if i > 0 {
                self = self.push(if i + 1 == numbers.len() {
                    last
                } else {
                    separator
                });
            }
            self = self.number(numbers[i] as u64, false);
            i += 1;
        }
        self
    }

    /// The text.
    pub const fn as_str(&self) -> &str {
        match std::str::from_utf8(self.buf.split_at(self.len).0) {
            Ok(text) => text,
            Err(_) => panic!("only whole strings are pushed"),
        }
    }
}

impl<const N: usize> Default for ConstText<N> {
    fn default() -> Self {
        Self::new()
    }
}

/// Reads an integer from `lo` to `hi`.
///
/// # Errors
/// [`ValueError::Expected`] giving the range.
pub fn int_in(text: &str, lo: u32, hi: u32) -> Result<u32, ValueError> {
    text.parse::<u32>()
        .ok()
        .filter(|n| (lo..=hi).contains(n))
        .ok_or_else(|| ValueError::Expected(format!("an integer from {lo} to {hi}")))
}

/// An option of a choice field: `choice_option!(Type, field, "key", "rules", "help")`. The
/// field may be a path (`options.tree`), and a player's option may name the function that
/// reads its value instead of [`Choice::parse`] (`parse: one_of`), for its own wording of a
/// refusal. Exported for the players' options, which use the same machinery.
#[doc(hidden)]
#[macro_export]
macro_rules! __choice_option {
    ($ty:ty, $($field:ident).+, $key:literal, $rules:literal, $help:literal) => {
        $crate::options::choice_option!(
            $ty, $($field).+, $key, $rules, $help,
            parse: <$ty as $crate::options::Choice>::parse
        )
    };
    ($ty:ty, $($field:ident).+, $key:literal, $rules:literal, $help:literal, parse: $parse:expr) => {
        $crate::options::OptionDef {
            key: $key,
            values: $crate::options::Values::Choice(<$ty as $crate::options::Choice>::NAMES),
            help: $help,
            rules: $rules,
            get: |r| $crate::options::Choice::name(r.$($field).+).to_string(),
            set: |r, v| {
                r.$($field).+ = $parse(v)?;
                Ok(())
            },
        }
    };
}
pub use crate::__choice_option as choice_option;

/// An option of an integer field:
/// `int_option!(field: u16, "key", lo..=hi, "note", "rules", "help")`. The field may be a path
/// (`options.threads`). Exported for the players' options, which use the same machinery.
#[doc(hidden)]
#[macro_export]
macro_rules! __int_option {
    ($($field:ident).+ : $ty:ty, $key:literal, $lo:literal ..= $hi:expr, $note:literal, $rules:literal, $help:literal) => {
        $crate::options::OptionDef {
            key: $key,
            values: $crate::options::Values::Int {
                lo: $lo,
                hi: $hi as u32,
                note: $note,
            },
            help: $help,
            rules: $rules,
            get: |r| r.$($field).+.to_string(),
            set: |r, v| {
                r.$($field).+ = $crate::options::int_in(v, $lo, $hi as u32)? as $ty;
                Ok(())
            },
        }
    };
}
pub use crate::__int_option as int_option;

/// What went wrong applying `key=value` options ([`apply`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ApplyError {
    /// No option has this key.
    UnknownKey(String),
    /// The key is given twice.
    DuplicateKey(String),
    /// The value was refused.
    Value {
        /// The option.
        key: &'static str,
        /// The value given.
        value: String,
        /// Why.
        error: ValueError,
    },
}

/// Applies `key=value` options, in the order given, to `target` through `defs`; a key may be
/// given once.
///
/// # Errors
/// The first [`ApplyError`] met; `target` is then partly changed.
pub fn apply<T>(
    target: &mut T,
    defs: &[OptionDef<T>],
    options: &[(&str, &str)],
) -> Result<(), ApplyError> {
    for (i, &(k, v)) in options.iter().enumerate() {
        if options[..i].iter().any(|&(k2, _)| k2 == k) {
            return Err(ApplyError::DuplicateKey(k.to_string()));
        }
        let def = defs
            .iter()
            .find(|d| d.key == k)
            .ok_or_else(|| ApplyError::UnknownKey(k.to_string()))?;
        (def.set)(target, v).map_err(|error| ApplyError::Value {
            key: def.key,
            value: v.to_string(),
            error,
        })?;
    }
    Ok(())
}

/// Writes `name`, then in parentheses the options of `value` that differ from `defaults`, in
/// the order of `defs`: the canonical string.
pub fn write_canonical<T>(
    f: &mut fmt::Formatter<'_>,
    name: &str,
    defs: &[OptionDef<T>],
    value: &T,
    defaults: &T,
) -> fmt::Result {
    f.write_str(name)?;
    let mut first = true;
    for d in defs {
        let text = (d.get)(value);
        if text == (d.get)(defaults) {
            continue;
        }
        f.write_str(if first { "(" } else { "," })?;
        first = false;
        write!(f, "{}={}", d.key, text)?;
    }
    if !first {
        f.write_str(")")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    choice_enum!(
        /// A test choice.
        Colour { Red = "red", DarkBlue = "dark-blue" }
    );

    #[derive(Clone, Debug, PartialEq)]
    struct Settings {
        colour: Colour,
        size: u8,
        fast: bool,
    }

    const DEFS: &[OptionDef<Settings>] = &[
        choice_option!(Colour, colour, "colour", "X-1", "the colour"),
        int_option!(size: u8, "size", 1..=9, "", "X-2", "the size"),
        choice_option!(bool, fast, "fast", "", "whether it is fast"),
    ];

    const DEFAULT: Settings = Settings {
        colour: Colour::Red,
        size: 3,
        fast: false,
    };

    struct Canonical<'a>(&'a Settings);

    impl fmt::Display for Canonical<'_> {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write_canonical(f, "thing", DEFS, self.0, &DEFAULT)
        }
    }

    #[test]
    fn options_apply_in_any_order_and_print_canonically() {
        let mut s = DEFAULT.clone();
        apply(&mut s, DEFS, &[("fast", "true"), ("colour", "dark-blue")]).unwrap();
        assert_eq!(
            Canonical(&s).to_string(),
            "thing(colour=dark-blue,fast=true)"
        );
        assert_eq!(Canonical(&DEFAULT).to_string(), "thing");
        let docs: Vec<String> = DEFS.iter().map(|d| d.doc().values).collect();
        assert_eq!(docs, ["red | dark-blue", "1..=9", "true | false"]);
    }

    #[test]
    fn bad_options_say_what_is_expected() {
        let mut s = DEFAULT.clone();
        for (key, value, expected) in [
            ("size", "10", "an integer from 1 to 9"),
            ("colour", "green", "red | dark-blue"),
        ] {
            assert_eq!(
                apply(&mut s, DEFS, &[(key, value)]),
                Err(ApplyError::Value {
                    key,
                    value: value.into(),
                    error: ValueError::Expected(expected.into()),
                })
            );
        }
        assert_eq!(
            apply(&mut s, DEFS, &[("weight", "1")]),
            Err(ApplyError::UnknownKey("weight".into()))
        );
        assert_eq!(
            apply(&mut s, DEFS, &[("size", "2"), ("size", "3")]),
            Err(ApplyError::DuplicateKey("size".into()))
        );
    }
}
