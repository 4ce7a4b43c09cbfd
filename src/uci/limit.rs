//! The one search limit of the commands that search positions one by one (`epd`, `suite-gen`,
//! `label`, `datagen`), and the one order in which their `--nodes`, `--depth` and `--movetime`
//! flags are read: nodes first (deterministic for a single-threaded engine, the choice for
//! baselines), then depth, then move time. The commands' flags conflict with each other in clap,
//! so the order matters only to code that fills in several (a default, a file's settings).

use super::GoParams;

/// How long each position is searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// `go movetime MS`.
    Movetime(u64),
    /// `go nodes N` (deterministic for a single-threaded engine: prefer it for baselines).
    Nodes(u64),
    /// `go depth N`.
    Depth(u32),
}

impl Limit {
    /// The limit of a command's flags, in the one order (nodes, depth, move time); `default`
    /// when none is given.
    pub fn from_flags(
        nodes: Option<u64>,
        depth: Option<u32>,
        movetime: Option<u64>,
        default: Limit,
    ) -> Limit {
        match (nodes, depth, movetime) {
            (Some(n), _, _) => Limit::Nodes(n),
            (_, Some(d), _) => Limit::Depth(d),
            (_, _, Some(ms)) => Limit::Movetime(ms),
            (None, None, None) => default,
        }
    }

    /// The `go` parameters for this limit.
    pub fn go_params(self) -> GoParams {
        match self {
            Limit::Movetime(ms) => GoParams {
                movetime: Some(ms),
                ..GoParams::default()
            },
            Limit::Nodes(n) => GoParams {
                nodes: Some(n),
                ..GoParams::default()
            },
            Limit::Depth(d) => GoParams {
                depth: Some(d),
                ..GoParams::default()
            },
        }
    }

    /// The same limit for the engine library's in-process search (`datagen`).
    pub fn search_limits(self) -> sable::search::Limits {
        match self {
            Limit::Movetime(ms) => {
                sable::search::Limits::movetime(std::time::Duration::from_millis(ms))
            }
            Limit::Nodes(n) => sable::search::Limits::nodes(n),
            Limit::Depth(d) => sable::search::Limits::depth(d as i32),
        }
    }
}

impl std::fmt::Display for Limit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Limit::Movetime(ms) => write!(f, "movetime {ms} ms"),
            Limit::Nodes(n) => write!(f, "nodes {n}"),
            Limit::Depth(d) => write!(f, "depth {d}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_are_read_nodes_then_depth_then_movetime() {
        let d = Limit::Depth(12);
        assert_eq!(Limit::from_flags(None, None, None, d), d);
        assert_eq!(
            Limit::from_flags(Some(5), Some(3), Some(9), d),
            Limit::Nodes(5)
        );
        assert_eq!(
            Limit::from_flags(None, Some(3), Some(9), d),
            Limit::Depth(3)
        );
        assert_eq!(
            Limit::from_flags(None, None, Some(9), d),
            Limit::Movetime(9)
        );
        let go = Limit::Nodes(7).go_params();
        assert_eq!((go.nodes, go.depth, go.movetime), (Some(7), None, None));
        assert_eq!(Limit::Depth(4).to_string(), "depth 4");
    }
}
