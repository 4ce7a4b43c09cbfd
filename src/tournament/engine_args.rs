//! fastchess-style engine words: `cmd=... name=... dir=... args="..." option.Hash=16 tc=10+0.1
//! st=0.1 nodes=5000 depth=8 timemargin=50`, per engine or for `each`; and `--draw`/`--resign`.

use super::config::EngineConfig;
use crate::game::tc::{seconds_to_ms, TcError};
use crate::game::{Adjudication, DrawRule, Limits, ResignRule};
use crate::uci::{apply_engine_word, unknown_setting, EngineSpec};

/// Why a match's engine words or its `--draw`/`--resign` rules were refused; the messages say
/// what to type instead ("did you mean `cmd=sf`?", the keys there are).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WordsError {
    /// An engine word without `=`, and the word probably meant (`cmd=...` or `tc=...`).
    NotKeyValue { word: String, guess: String },
    /// A value the key cannot take: what it expected.
    BadValue {
        key: String,
        value: String,
        expected: String,
    },
    /// A key no engine takes: `uci::unknown_setting`'s text, with the key probably meant.
    UnknownSetting(String),
    /// An engine without `cmd=`: its words.
    NoCommand { words: String },
    /// A `--draw`/`--resign` word without `=`.
    RuleNotKeyValue { rule: &'static str, word: String },
    /// A `--draw`/`--resign` key the rule does not have, with the keys it has.
    RuleUnknownKey {
        rule: &'static str,
        key: String,
        keys: &'static [&'static str],
    },
    /// A `--draw`/`--resign` value that is not a number.
    RuleNotNumber {
        rule: &'static str,
        key: String,
        value: String,
    },
}

impl std::fmt::Display for WordsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WordsError::NotKeyValue { word, guess } => {
                write!(
                    f,
                    "expected key=value, got `{word}`; did you mean `{guess}`?"
                )
            }
            WordsError::BadValue {
                key,
                value,
                expected,
            } => write!(f, "`{key}`: {expected}, got `{value}`"),
            WordsError::UnknownSetting(text) => f.write_str(text),
            WordsError::NoCommand { words } => write!(f, "engine `{words}` has no cmd="),
            WordsError::RuleNotKeyValue { rule, word } => {
                write!(f, "{rule}: expected key=value, got `{word}`")
            }
            WordsError::RuleUnknownKey { rule, key, keys } => {
                write!(f, "{rule}: unknown key `{key}`")?;
                if let Some(k) = crate::report::suggest::nearest(key, keys) {
                    write!(f, "; did you mean `{k}=`?")?;
                }
                let list: Vec<String> = keys.iter().map(|k| format!("{k}=")).collect();
                write!(f, " (--{rule} takes {})", list.join(", "))
            }
            WordsError::RuleNotNumber { rule, key, value } => {
                write!(f, "{rule}: `{key}` needs a number, got `{value}`")
            }
        }
    }
}

impl std::error::Error for WordsError {}

/// Applies `words` to `engine` (later words win; `each` words are applied first by the caller).
pub fn apply_words(engine: &mut EngineConfig, words: &[String]) -> Result<(), WordsError> {
    for w in words {
        let (key, value) = w.split_once('=').ok_or_else(|| not_key_value(w))?;
        // The engine's own description is the one shared by every command (`uci::spec`).
        if apply_engine_word(&mut engine.spec, key, value) {
            continue;
        }
        let bad = |what: &str| WordsError::BadValue {
            key: key.to_owned(),
            value: value.to_owned(),
            expected: what.to_owned(),
        };
        let limits = &mut engine.limits;
        match key {
            // fastchess's `tc=inf`: no clock; the search is bounded by nodes= or depth=.
            "tc" if value.eq_ignore_ascii_case("inf") => limits.tc = None,
            "tc" => limits.tc = Some(value.parse().map_err(|e: TcError| bad(&e.to_string()))?),
            "st" => {
                limits.movetime_ms =
                    Some(seconds_to_ms(value).ok_or_else(|| bad("expected seconds"))?)
            }
            "nodes" => limits.nodes = Some(value.parse().map_err(|_| bad("expected a number"))?),
            "depth" => limits.depth = Some(value.parse().map_err(|_| bad("expected a number"))?),
            "timemargin" => {
                limits.margin_ms = value.parse().map_err(|_| bad("expected milliseconds"))?
            }
            _ => {
                return Err(WordsError::UnknownSetting(unknown_setting(
                    key, value, &SETTINGS,
                )))
            }
        }
    }
    Ok(())
}

/// The settings of a match's engine, for messages: the engine's own (`uci::ENGINE_KEYS`) and
/// its search limits (`option.NAME=` stands for every UCI option).
const SETTINGS: [&str; 10] = [
    "cmd",
    "name",
    "dir",
    "args",
    "tc",
    "st",
    "nodes",
    "depth",
    "timemargin",
    "proto",
];

/// A word without `=`: a program given without `cmd=`, or a time control without `tc=`.
fn not_key_value(word: &str) -> WordsError {
    let guess = if word.parse::<crate::game::tc::TimeControl>().is_ok() {
        format!("tc={word}")
    } else {
        format!("cmd={word}")
    };
    WordsError::NotKeyValue {
        word: word.to_owned(),
        guess,
    }
}

/// Builds one engine from the `each` words then its own words.
pub fn engine_from_words(each: &[String], own: &[String]) -> Result<EngineConfig, WordsError> {
    let mut e = EngineConfig {
        spec: EngineSpec::default(),
        limits: Limits::default(),
        revision: None,
    };
    apply_words(&mut e, each)?;
    apply_words(&mut e, own)?;
    if e.spec.cmd.is_empty() {
        return Err(WordsError::NoCommand {
            words: own.join(" "),
        });
    }
    Ok(e)
}

fn key_values(words: &[String], rule: &'static str) -> Result<Vec<(String, String)>, WordsError> {
    words
        .iter()
        .map(|w| {
            w.split_once('=')
                .map(|(k, v)| (k.to_owned(), v.to_owned()))
                .ok_or_else(|| WordsError::RuleNotKeyValue {
                    rule,
                    word: w.clone(),
                })
        })
        .collect()
}

fn num<T: std::str::FromStr>(rule: &'static str, k: &str, v: &str) -> Result<T, WordsError> {
    v.parse().map_err(|_| WordsError::RuleNotNumber {
        rule,
        key: k.to_owned(),
        value: v.to_owned(),
    })
}

/// Parses `--draw movenumber=N movecount=M score=S` and `--resign movecount=M score=S twosided=B`.
pub fn adjudication(
    draw: &[String],
    resign: &[String],
    maxmoves: Option<u32>,
) -> Result<Adjudication, WordsError> {
    let mut adj = Adjudication {
        maxmoves,
        ..Adjudication::default()
    };
    if !draw.is_empty() {
        let mut rule = DrawRule {
            movenumber: 40,
            movecount: 8,
            score: 10,
        };
        for (k, v) in key_values(draw, "draw")? {
            match k.as_str() {
                "movenumber" => rule.movenumber = num("draw", &k, &v)?,
                "movecount" => rule.movecount = num("draw", &k, &v)?,
                "score" => rule.score = num("draw", &k, &v)?,
                _ => {
                    return Err(WordsError::RuleUnknownKey {
                        rule: "draw",
                        key: k,
                        keys: &["movenumber", "movecount", "score"],
                    })
                }
            }
        }
        adj.draw = Some(rule);
    }
    if !resign.is_empty() {
        let mut rule = ResignRule {
            movecount: 3,
            score: 600,
            twosided: false,
        };
        for (k, v) in key_values(resign, "resign")? {
            match k.as_str() {
                "movecount" => rule.movecount = num("resign", &k, &v)?,
                "score" => rule.score = num("resign", &k, &v)?,
                "twosided" => rule.twosided = num("resign", &k, &v)?,
                _ => {
                    return Err(WordsError::RuleUnknownKey {
                        rule: "resign",
                        key: k,
                        keys: &["movecount", "score", "twosided"],
                    })
                }
            }
        }
        adj.resign = Some(rule);
    }
    Ok(adj)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn engine_words_with_each_defaults() {
        let e = engine_from_words(
            &w("tc=10+0.1 option.Threads=1 timemargin=50"),
            &w("cmd=sf name=x option.Hash=16 nodes=500 option.Threads=2"),
        )
        .unwrap();
        assert_eq!(e.spec.cmd, "sf");
        assert_eq!(e.spec.name.as_deref(), Some("x"));
        assert_eq!(
            e.spec.options,
            [
                ("Threads".to_owned(), "2".to_owned()),
                ("Hash".to_owned(), "16".to_owned())
            ]
        );
        assert_eq!(e.limits.tc.unwrap().inc_ms, 100);
        assert_eq!((e.limits.nodes, e.limits.margin_ms), (Some(500), 50));
        let e = engine_from_words(&[], &w("cmd=sf st=0.25 depth=7")).unwrap();
        assert_eq!((e.limits.movetime_ms, e.limits.depth), (Some(250), Some(7)));
        // tc=inf clears a clock given for every engine.
        let e = engine_from_words(&w("tc=10+0.1"), &w("cmd=sf tc=inf nodes=900")).unwrap();
        assert_eq!((e.limits.tc, e.limits.nodes), (None, Some(900)));
        assert!(!engine_from_words(&[], &w("cmd=sf tc=inf"))
            .unwrap()
            .limits
            .is_bounded());
    }

    #[test]
    fn a_matchs_engine_is_described_as_every_command_describes_one() {
        let words = w("cmd=/opt/e name=e dir=/tmp args=-x option.Hash=16 proto=uci");
        let (spec, _) = crate::uci::engine_spec(&words, &[]).unwrap();
        assert_eq!(engine_from_words(&[], &words).unwrap().spec, spec);
    }

    #[test]
    fn bad_engine_words_say_what_is_wrong() {
        assert!(engine_from_words(&[], &w("name=x"))
            .unwrap_err()
            .to_string()
            .contains("no cmd"));
        assert!(engine_from_words(&[], &w("cmd=x tc=fast"))
            .unwrap_err()
            .to_string()
            .contains("tc"));
        assert!(engine_from_words(&[], &w("cmd=x colour=red"))
            .unwrap_err()
            .to_string()
            .contains("colour"));
        assert!(engine_from_words(&[], &w("cmd=x nodes"))
            .unwrap_err()
            .to_string()
            .contains("key=value"));
        assert!(engine_from_words(&[], &w("cmd=x st=-1")).is_err());
    }

    #[test]
    fn a_mistyped_setting_is_answered_with_the_one_meant_and_the_list() {
        let err = engine_from_words(&[], &w("cmd=x hash=16"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("unknown engine setting `hash`"), "{err}");
        assert!(err.contains("did you mean `option.Hash=16`?"), "{err}");
        for key in ["cmd=", "tc=", "nodes=", "timemargin=", "option.NAME=VALUE"] {
            assert!(err.contains(key), "{key} listed: {err}");
        }
        let err = engine_from_words(&[], &w("cmd=x node=500"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("did you mean `nodes=500`?"), "{err}");
        let err = engine_from_words(&[], &w("cmd=x multipv=3"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("`option.MultiPV=3`"), "{err}");
        let err = engine_from_words(&[], &w("cmd=x myknob=3"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("`option.myknob=3`"), "{err}");
        assert!(matches!(
            engine_from_words(&[], &w("./engine")),
            Err(WordsError::NotKeyValue { .. })
        ));
        let err = engine_from_words(&[], &w("./engine"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("did you mean `cmd=./engine`?"), "{err}");
        let err = engine_from_words(&w("10+0.1"), &w("cmd=x"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("did you mean `tc=10+0.1`?"), "{err}");
        let err = adjudication(&w("movenumbr=30"), &[], None)
            .unwrap_err()
            .to_string();
        assert!(err.contains("did you mean `movenumber=`?"), "{err}");
        assert!(err.contains("movecount=, score="), "{err}");
    }

    #[test]
    fn adjudication_words() {
        let a = adjudication(
            &w("movenumber=30 movecount=4 score=5"),
            &w("score=900 twosided=true"),
            Some(200),
        )
        .unwrap();
        assert_eq!(
            a.draw,
            Some(DrawRule {
                movenumber: 30,
                movecount: 4,
                score: 5
            })
        );
        assert_eq!(
            a.resign,
            Some(ResignRule {
                movecount: 3,
                score: 900,
                twosided: true
            })
        );
        assert_eq!(a.maxmoves, Some(200));
        assert!(adjudication(&w("moves=3"), &[], None).is_err());
        assert!(adjudication(&[], &w("twosided=maybe"), None).is_err());
    }
}
