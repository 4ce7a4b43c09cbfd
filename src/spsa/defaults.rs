//! Tuned values back into the engine's source: `harness spsa --emit-rust` rewrites the defaults
//! of its `search_params!` table.

use super::SpsaError;
use super::{format_value, Param};
use std::path::Path;

/// Rewrites the defaults in a `search_params!` table: each line `func: "Name" = D in ...` of a
/// tuned parameter gets the tuned value (rounded), everything else stays as it is.
pub fn write_rust_defaults(path: &Path, params: &[Param]) -> Result<(), SpsaError> {
    let text = std::fs::read_to_string(path)
        .map_err(SpsaError::io(format!("cannot read {}", path.display())))?;
    let mut out = String::with_capacity(text.len());
    let mut found = 0;
    for line in text.split_inclusive('\n') {
        let replaced = params.iter().find_map(|p| {
            let key = format!("\"{}\" = ", p.name);
            let at = line.find(&key)? + key.len();
            let end = at + line[at..].find(" in ")?;
            Some(format!(
                "{}{}{}",
                &line[..at],
                format_value(p, p.value),
                &line[end..]
            ))
        });
        if replaced.is_some() {
            found += 1;
        }
        out.push_str(replaced.as_deref().unwrap_or(line));
    }
    if found != params.len() {
        return Err(SpsaError::ParamsNotFound {
            path: path.to_owned(),
            found,
            params: params.len(),
        });
    }
    Ok(crate::plumbing::atomic::write(path, out)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spsa::parse_input;

    #[test]
    fn rust_defaults_are_rewritten_in_place() {
        let path = std::env::temp_dir().join(format!("sable-emit-{}.rs", std::process::id()));
        std::fs::write(
            &path,
            "search_params! {\n    /// doc\n    a: \"A\" = 80 in 30..=200, c_end 8.0;\n    b: \"B\" = 1 in 0..=1, c_end 1.0;\n}\n",
        )
        .unwrap();
        let mut ps =
            parse_input("A, int, 80, 30, 200, 8, 0.002\nB, int, 1, 0, 1, 1, 0.002\n").unwrap();
        ps[0].value = 96.6;
        write_rust_defaults(&path, &ps).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.contains("a: \"A\" = 97 in 30..=200, c_end 8.0;"),
            "{text}"
        );
        assert!(text.contains("b: \"B\" = 1 in 0..=1"), "{text}");
        assert!(text.contains("/// doc"));
        let missing = parse_input("Z, int, 1, 0, 2, 1, 0.002\n").unwrap();
        assert!(write_rust_defaults(&path, &missing).is_err());
        std::fs::remove_file(&path).ok();
    }
}
