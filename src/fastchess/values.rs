//! The values of fastchess's options that take words (`-engine`, `-openings`, `-sprt`,
//! `-pgnout`, ...), each read into its typed value or refused with what it takes.

use super::words::{
    bad, boolean, pairs, single, unknown_key, ArgsError, ConfigWords, Openings, PgnOut, SprtWords,
};
use std::path::PathBuf;

/// An engine's words: fastchess's keys in the harness's spelling (`plies=` is `depth=`,
/// `tc=infinite` is `tc=inf`); `restart=off` is what the harness does anyway.
pub(super) fn engine_words(flag: &str, v: &[String]) -> Result<Vec<String>, ArgsError> {
    let mut out = Vec::new();
    for (k, val) in pairs(flag, v)? {
        match (k.as_str(), val.as_str()) {
            ("plies", d) => out.push(format!("depth={d}")),
            ("tc", "infinite") => out.push("tc=inf".to_owned()),
            ("restart", "off") => {}
            ("restart", _) => {
                return Err(bad(
                    flag,
                    &format!("restart={val}"),
                    "restart=off (engines are kept between games, restarted only after a crash)",
                ))
            }
            ("proto", p) if p != "uci" => {
                return Err(bad(flag, &format!("proto={p}"), "proto=uci"))
            }
            _ => out.push(format!("{k}={val}")),
        }
    }
    Ok(out)
}

pub(super) fn openings(flag: &str, v: &[String]) -> Result<Openings, ArgsError> {
    let mut o = Openings::default();
    for (k, val) in pairs(flag, v)? {
        match k.as_str() {
            "file" => o.file = Some(val),
            "format" if val == "epd" || val == "pgn" => o.format = Some(val),
            "format" => {
                return Err(bad(
                    flag,
                    &format!("format={val}"),
                    "format=epd or format=pgn",
                ))
            }
            "order" if val == "random" || val == "sequential" => o.order = Some(val),
            "order" => {
                return Err(bad(
                    flag,
                    &format!("order={val}"),
                    "order=random or order=sequential",
                ))
            }
            "start" => {
                o.start = Some(
                    val.parse()
                        .map_err(|_| bad(flag, &val, "a number (start=)"))?,
                )
            }
            "plies" => {
                o.plies = Some(
                    val.parse()
                        .map_err(|_| bad(flag, &val, "a number (plies=)"))?,
                )
            }
            "policy" if val == "round" => {}
            _ => {
                let keys = ["file", "format", "order", "start", "plies", "policy"];
                return Err(unknown_key(flag, &k, &val, &keys));
            }
        }
    }
    Ok(o)
}

pub(super) fn variant(flag: &str, v: &[String]) -> Result<bool, ArgsError> {
    match single::<String>(flag, v, "standard or fischerandom")?.as_str() {
        "standard" => Ok(false),
        "fischerandom" => Ok(true),
        other => Err(bad(flag, other, "standard or fischerandom")),
    }
}

pub(super) fn tb_adjudicate(flag: &str, v: &[String]) -> Result<&'static str, ArgsError> {
    match single::<String>(flag, v, "WIN_LOSS, DRAW or BOTH")?.as_str() {
        "WIN_LOSS" => Ok("win-loss"),
        "DRAW" => Ok("draw"),
        "BOTH" => Ok("both"),
        other => Err(bad(flag, other, "WIN_LOSS, DRAW or BOTH")),
    }
}

pub(super) fn sprt(flag: &str, v: &[String]) -> Result<SprtWords, ArgsError> {
    // fastchess's defaults for alpha and beta.
    let mut s = SprtWords {
        alpha: 0.05,
        beta: 0.05,
        ..SprtWords::default()
    };
    let (mut elo0, mut elo1) = (false, false);
    for (k, val) in pairs(flag, v)? {
        let number = || {
            val.parse::<f64>()
                .map_err(|_| bad(flag, &format!("{k}={val}"), "a number"))
        };
        match k.as_str() {
            "elo0" => (s.elo0, elo0) = (number()?, true),
            "elo1" => (s.elo1, elo1) = (number()?, true),
            "alpha" => s.alpha = number()?,
            "beta" => s.beta = number()?,
            "model" if val == "normalized" => s.logistic = false,
            "model" if val == "logistic" => s.logistic = true,
            "model" => {
                return Err(bad(
                    flag,
                    &format!("model={val}"),
                    "model=normalized or model=logistic (the harness has no bayesian model)",
                ))
            }
            _ => {
                return Err(unknown_key(
                    flag,
                    &k,
                    &val,
                    &["elo0", "elo1", "alpha", "beta", "model"],
                ))
            }
        }
    }
    if !(elo0 && elo1) {
        return Err(ArgsError::Missing {
            flag: flag.to_owned(),
            needs: "elo0= and elo1=",
        });
    }
    Ok(s)
}

pub(super) fn pgnout(flag: &str, v: &[String]) -> Result<PgnOut, ArgsError> {
    let mut p = PgnOut::default();
    // fastchess also takes a bare file name.
    if let [file] = v {
        if !file.contains('=') {
            p.file = Some(file.clone());
            return Ok(p);
        }
    }
    for (k, val) in pairs(flag, v)? {
        match k.as_str() {
            "file" => p.file = Some(val),
            "nodes" => p.nodes = boolean(flag, &k, &val)?,
            "seldepth" => p.seldepth = boolean(flag, &k, &val)?,
            "match_line" => p.match_lines.push(val),
            // fastchess's default, and the harness's only way: appended to, never truncated.
            "append" if val == "true" => {}
            "notation" if val == "san" => {}
            "min" if val == "false" => {}
            _ => {
                let keys = [
                    "file",
                    "nodes",
                    "seldepth",
                    "match_line",
                    "append",
                    "notation",
                    "min",
                ];
                return Err(unknown_key(flag, &k, &val, &keys));
            }
        }
    }
    Ok(p)
}

pub(super) fn log(flag: &str, v: &[String]) -> Result<PathBuf, ArgsError> {
    let mut file = None;
    for (k, val) in pairs(flag, v)? {
        match k.as_str() {
            "file" => file = Some(PathBuf::from(val)),
            // The harness's log is the engines' traffic at one level; these change nothing.
            "level" | "engine" | "realtime" => {}
            "append" if val == "true" => {}
            _ => {
                return Err(unknown_key(
                    flag,
                    &k,
                    &val,
                    &["file", "level", "engine", "realtime", "append"],
                ))
            }
        }
    }
    file.ok_or(ArgsError::Missing {
        flag: flag.to_owned(),
        needs: "file=FILE",
    })
}

pub(super) fn output(flag: &str, v: &[String]) -> Result<(), ArgsError> {
    for (k, val) in pairs(flag, v)? {
        match (k.as_str(), val.as_str()) {
            ("format", "fastchess") => {}
            ("format", _) => {
                return Err(bad(
                    flag,
                    &format!("format={val}"),
                    "format=fastchess (the harness writes no cutechess output)",
                ))
            }
            _ => return Err(unknown_key(flag, &k, &val, &["format"])),
        }
    }
    Ok(())
}

pub(super) fn config(flag: &str, v: &[String]) -> Result<ConfigWords, ArgsError> {
    let mut c = ConfigWords::default();
    for (k, val) in pairs(flag, v)? {
        match k.as_str() {
            "file" => c.file = Some(PathBuf::from(val)),
            "outname" => c.outname = Some(PathBuf::from(val)),
            _ => return Err(unknown_key(flag, &k, &val, &["file", "outname"])),
        }
    }
    Ok(c)
}

pub(super) fn affinity(flag: &str, v: &[String]) -> Result<(), ArgsError> {
    match v {
        [] => Ok(()),
        [cpus] => Err(bad(
            flag,
            cpus,
            "taken without a CPU list (the harness picks the cores)",
        )),
        more => Err(bad(flag, &more.join(" "), "taken without values")),
    }
}

pub(super) fn tournament(flag: &str, v: &[String]) -> Result<String, ArgsError> {
    let t: String = single(flag, v, "gauntlet or roundrobin")?;
    match t.as_str() {
        "gauntlet" | "roundrobin" => Ok(t),
        _ => Err(bad(flag, &t, "gauntlet or roundrobin")),
    }
}
