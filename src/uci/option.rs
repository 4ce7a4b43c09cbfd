//! The options an engine declares in its handshake (`option name Hash type spin default 16 min
//! 1 max 33554432`), parsed into typed values so that a setting can be checked against them
//! before any game: a value the engine would clamp or ignore is a test of something else.

use std::fmt;

/// One declared option.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UciOption {
    /// Its name, as the engine spells it.
    pub name: String,
    /// Its type and bounds.
    pub kind: OptionKind,
}

/// The type of a declared option, with what it accepts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OptionKind {
    /// A whole number from `min` to `max` (either may be missing from a sloppy declaration).
    Spin {
        /// The least value, if declared.
        min: Option<i64>,
        /// The greatest value, if declared.
        max: Option<i64>,
    },
    /// One of the declared `var` values.
    Combo(Vec<String>),
    /// `true` or `false`.
    Check,
    /// Anything else (`string`, `button`, or a type this client does not know).
    Other,
}

impl UciOption {
    /// Parses what follows `option name ` in an `option` line.
    pub fn parse(rest: &str) -> UciOption {
        let (name, decl) = match rest.split_once(" type ") {
            Some((name, decl)) => (name.trim(), decl),
            None => (rest.trim(), ""),
        };
        // The declaration is keywords, each followed by a value that runs to the next keyword
        // (`var` values and `default` strings may hold spaces).
        let mut fields: Vec<(&str, String)> = Vec::new();
        let mut words = decl.split_ascii_whitespace();
        let kind = words.next().unwrap_or("");
        for word in words {
            match word {
                "default" | "min" | "max" | "var" => fields.push((word, String::new())),
                _ => {
                    if let Some((_, value)) = fields.last_mut() {
                        if !value.is_empty() {
                            value.push(' ');
                        }
                        value.push_str(word);
                    }
                }
            }
        }
        let number = |key: &str| {
            fields
                .iter()
                .find(|(k, _)| *k == key)
                .and_then(|(_, v)| v.parse().ok())
        };
        let kind = match kind {
            "spin" => OptionKind::Spin {
                min: number("min"),
                max: number("max"),
            },
            "combo" => OptionKind::Combo(
                fields
                    .iter()
                    .filter(|(k, _)| *k == "var")
                    .map(|(_, v)| v.clone())
                    .collect(),
            ),
            "check" => OptionKind::Check,
            _ => OptionKind::Other,
        };
        UciOption {
            name: name.to_owned(),
            kind,
        }
    }

    /// Whether the option accepts `value`; if not, why, in words that say what it accepts.
    pub fn check(&self, value: &str) -> Result<(), ValueError> {
        let refuse = |accepts: String| {
            Err(ValueError {
                option: self.name.clone(),
                value: value.to_owned(),
                accepts,
            })
        };
        match &self.kind {
            OptionKind::Spin { min, max } => {
                let range = match (min, max) {
                    (Some(lo), Some(hi)) => format!("a whole number from {lo} to {hi}"),
                    (Some(lo), None) => format!("a whole number of at least {lo}"),
                    (None, Some(hi)) => format!("a whole number of at most {hi}"),
                    (None, None) => "a whole number".to_owned(),
                };
                match value.trim().parse::<i64>() {
                    Ok(v) if min.is_none_or(|lo| v >= lo) && max.is_none_or(|hi| v <= hi) => Ok(()),
                    _ => refuse(range),
                }
            }
            OptionKind::Combo(vars) if !vars.is_empty() => {
                if vars.iter().any(|v| v.eq_ignore_ascii_case(value.trim())) {
                    Ok(())
                } else {
                    refuse(format!("one of: {}", vars.join(", ")))
                }
            }
            OptionKind::Check => match value.trim().to_ascii_lowercase().as_str() {
                "true" | "false" => Ok(()),
                _ => refuse("true or false".to_owned()),
            },
            OptionKind::Combo(_) | OptionKind::Other => Ok(()),
        }
    }
}

/// A setting the engine's own declaration does not accept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValueError {
    /// The option's name.
    pub option: String,
    /// The value given.
    pub value: String,
    /// What the declaration accepts, in words.
    pub accepts: String,
}

impl fmt::Display for ValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "option.{}={} is not a value it declares (it takes {})",
            self.option, self.value, self.accepts
        )
    }
}

/// A setting of an option the engine does not declare: it has no effect (an engine ignores a
/// `setoption` it does not know), so a run with it would test something else than it says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownOption {
    /// The name given.
    pub option: String,
    /// The declared name nearest to it, when near enough to be a typo.
    pub nearest: Option<String>,
    /// Every declared name.
    pub declared: Vec<String>,
}

impl UnknownOption {
    /// The unknown `option` among the engine's `declared` names.
    pub fn new(option: &str, declared: &[&str]) -> UnknownOption {
        UnknownOption {
            option: option.to_owned(),
            nearest: crate::report::suggest::nearest(option, declared).map(str::to_owned),
            declared: declared.iter().map(|d| (*d).to_owned()).collect(),
        }
    }
}

impl fmt::Display for UnknownOption {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "it does not declare option '{}'", self.option)?;
        if let Some(near) = &self.nearest {
            write!(f, "; did you mean '{near}'?")?;
        }
        write!(f, " (it declares: {})", self.declared.join(", "))
    }
}

impl std::error::Error for UnknownOption {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_option_names_the_nearest_declared_one() {
        let declared = ["Hash", "Threads", "Move Overhead"];
        let e = UnknownOption::new("Hsh", &declared);
        assert_eq!(e.nearest.as_deref(), Some("Hash"));
        assert_eq!(
            e.to_string(),
            "it does not declare option 'Hsh'; did you mean 'Hash'? (it declares: Hash, \
             Threads, Move Overhead)"
        );
        // Case is ignored as the engine ignores it; a far name gets no guess.
        assert_eq!(
            UnknownOption::new("threds", &declared).nearest.as_deref(),
            Some("Threads")
        );
        assert_eq!(UnknownOption::new("Contempt", &declared).nearest, None);
    }

    #[test]
    fn declarations_parse_with_spaces_in_names_and_values() {
        let o = UciOption::parse("Move Overhead type spin default 25 min 0 max 5000");
        assert_eq!(o.name, "Move Overhead");
        assert_eq!(
            o.kind,
            OptionKind::Spin {
                min: Some(0),
                max: Some(5000)
            }
        );
        let o =
            UciOption::parse("Style type combo default Normal var Solid var Very Risky var Normal");
        assert_eq!(
            o.kind,
            OptionKind::Combo(vec!["Solid".into(), "Very Risky".into(), "Normal".into()])
        );
        assert_eq!(
            UciOption::parse("Ponder type check default false").kind,
            OptionKind::Check
        );
        assert_eq!(
            UciOption::parse("EvalFile type string default <empty>").kind,
            OptionKind::Other
        );
        assert_eq!(
            UciOption::parse("Clear Hash type button").name,
            "Clear Hash"
        );
        assert_eq!(UciOption::parse("Odd").kind, OptionKind::Other);
    }

    #[test]
    fn values_are_checked_against_the_declaration() {
        let threads = UciOption::parse("Threads type spin default 1 min 1 max 256");
        assert!(threads.check("1").is_ok() && threads.check("256").is_ok());
        let err = threads.check("999").unwrap_err().to_string();
        assert_eq!(
            err,
            "option.Threads=999 is not a value it declares (it takes a whole number from 1 to 256)"
        );
        assert!(threads.check("0").is_err() && threads.check("two").is_err());
        let style = UciOption::parse("Style type combo default Normal var Solid var Very Risky");
        assert!(style.check("very risky").is_ok());
        let err = style.check("Wild").unwrap_err().to_string();
        assert!(
            err.ends_with("(it takes one of: Solid, Very Risky)"),
            "{err}"
        );
        let ponder = UciOption::parse("Ponder type check default false");
        assert!(ponder.check("true").is_ok() && ponder.check("yes").is_err());
        let path = UciOption::parse("SyzygyPath type string default <empty>");
        assert!(path.check("/any/where").is_ok());
        // A spin without bounds still needs a number; one with a bound checks that bound.
        let loose = UciOption::parse("Knob type spin default 3");
        assert!(loose.check("-7").is_ok() && loose.check("x").is_err());
    }
}
