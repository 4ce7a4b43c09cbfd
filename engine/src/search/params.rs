//! The search's tunable numbers, in one table: name, default, range and SPSA step sizes.
//!
//! The search reads each through a function of the same name (`params::rfp_margin()`). In the
//! shipping build these are constants, compiled in exactly as literals would be; in the tuning
//! build (`--features tune`, `make TUNE=1`) they live in atomics that `setoption` changes, each
//! is a UCI spin option, and `sable spsa` prints the table in OpenBench's SPSA input format:
//! `Name, int, default, min, max, c_end, r_end`.
//!
//! `c_end` is the final perturbation (about a twentieth of the range, at least 1 for an integer
//! so that the rounding still moves it); `r_end` the final learning rate, OpenBench's usual
//! 0.002.

/// One tunable number.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Param {
    /// The UCI option name.
    pub name: &'static str,
    /// The shipping value.
    pub default: i32,
    /// Smallest value allowed.
    pub min: i32,
    /// Largest value allowed.
    pub max: i32,
    /// SPSA's final perturbation size.
    pub c_end: f64,
    /// SPSA's final learning rate.
    pub r_end: f64,
}

impl Param {
    /// The OpenBench SPSA input line.
    pub fn spsa_line(&self) -> String {
        format!(
            "{}, int, {}, {}, {}, {}, {}",
            self.name, self.default, self.min, self.max, self.c_end, self.r_end
        )
    }

    /// The UCI option declaration.
    pub fn uci_option(&self) -> String {
        format!(
            "option name {} type spin default {} min {} max {}",
            self.name, self.default, self.min, self.max
        )
    }
}

macro_rules! search_params {
    ($($(#[$doc:meta])* $func:ident: $name:literal = $default:literal in $min:literal..=$max:literal, c_end $c:literal;)*) => {
        /// Every tunable number, in the order `sable spsa` prints them.
        pub const PARAMS: &[Param] = &[
            $(Param { name: $name, default: $default, min: $min, max: $max, c_end: $c, r_end: 0.002 },)*
        ];

        $(
            $(#[$doc])*
            #[cfg(not(feature = "tune"))]
            #[inline(always)]
            pub const fn $func() -> i32 {
                $default
            }

            $(#[$doc])*
            #[cfg(feature = "tune")]
            #[inline]
            pub fn $func() -> i32 {
                slots::$func.load(std::sync::atomic::Ordering::Relaxed)
            }
        )*

        #[cfg(feature = "tune")]
        #[allow(non_upper_case_globals)]
        mod slots {
            use std::sync::atomic::AtomicI32;
            $(pub static $func: AtomicI32 = AtomicI32::new($default);)*
        }

        /// Sets a parameter by its UCI name (case-insensitive), clamped to its range; false if
        /// there is no such parameter (always false in the shipping build).
        #[cfg(feature = "tune")]
        pub fn set(name: &str, value: i32) -> bool {
            use std::sync::atomic::Ordering::Relaxed;
            $(
                if name.eq_ignore_ascii_case($name) {
                    slots::$func.store(value.clamp($min, $max), Relaxed);
                    return true;
                }
            )*
            false
        }

        /// Sets a parameter by its UCI name: the shipping build has none.
        #[cfg(not(feature = "tune"))]
        pub fn set(_name: &str, _value: i32) -> bool {
            false
        }

        /// The current value of a parameter by its UCI name.
        pub fn get(name: &str) -> Option<i32> {
            $(
                if name.eq_ignore_ascii_case($name) {
                    return Some($func());
                }
            )*
            None
        }
    };
}

search_params! {
    /// Half-width of the first aspiration window, centipawns.
    aspiration: "AspWindow" = 14 in 8..=80, c_end 3.0;
    /// Reverse futility margin per ply of depth.
    rfp_margin: "RfpMargin" = 80 in 30..=200, c_end 8.0;
    /// Deepest node reverse futility prunes.
    rfp_depth: "RfpDepth" = 7 in 3..=12, c_end 1.0;
    /// Null-move reduction: base plies.
    nmp_base: "NmpBase" = 3 in 1..=6, c_end 1.0;
    /// Null-move reduction: one more ply per this many plies of depth.
    nmp_depth_divisor: "NmpDepthDiv" = 4 in 2..=10, c_end 1.0;
    /// Null-move reduction: one more ply per this many centipawns above beta (at most 3).
    nmp_eval_divisor: "NmpEvalDiv" = 200 in 60..=600, c_end 20.0;
    /// Depth from which a null-move cut-off is verified by a reduced search.
    nmp_verify_depth: "NmpVerifyDepth" = 10 in 6..=20, c_end 1.0;
    /// Futility pruning: margin at depth 0.
    futility_base: "FutBase" = 100 in 20..=300, c_end 10.0;
    /// Futility pruning: margin per ply of depth.
    futility_margin: "FutMargin" = 100 in 30..=300, c_end 10.0;
    /// Deepest node futility prunes.
    futility_depth: "FutDepth" = 6 in 2..=10, c_end 1.0;
    /// LMR: constant term of the reduction, in hundredths of a ply.
    lmr_base: "LmrBase" = 75 in 0..=200, c_end 8.0;
    /// LMR: divisor of ln(depth) x ln(move number), in hundredths.
    lmr_divisor: "LmrDivisor" = 225 in 120..=400, c_end 15.0;
    /// Late move pruning: deepest node.
    lmp_depth: "LmpDepth" = 8 in 3..=14, c_end 1.0;
    /// Late move pruning: quiet moves tried before the rest are skipped, constant term.
    lmp_base: "LmpBase" = 3 in 1..=10, c_end 1.0;
    /// SEE pruning: deepest node.
    see_depth: "SeeDepth" = 8 in 3..=14, c_end 1.0;
    /// SEE pruning: a quiet move loses more than this per ply of depth.
    see_quiet_margin: "SeeQuietMargin" = 60 in 10..=200, c_end 8.0;
    /// SEE pruning: a capture loses more than this per ply of depth.
    see_capture_margin: "SeeCaptMargin" = 100 in 20..=300, c_end 10.0;
    /// Internal iterative reduction: shallowest node reduced without a TT move.
    iir_depth: "IirDepth" = 4 in 2..=10, c_end 1.0;
    /// History bonus per ply of depth squared.
    history_bonus: "HistBonus" = 32 in 4..=64, c_end 2.0;
    /// Largest history bonus (Ethereal 12's: 32 x 20², reached at depth 20).
    history_bonus_max: "HistBonusMax" = 12800 in 400..=16000, c_end 600.0;
    /// Quiescence delta pruning margin.
    delta_margin: "DeltaMargin" = 200 in 50..=600, c_end 20.0;
    /// Singular extensions: shallowest node that tests its TT move.
    singular_depth: "SingularDepth" = 8 in 6..=12, c_end 1.0;
    /// Singular extensions: the test's bound lies this many centipawns per ply of depth below
    /// the TT score.
    singular_margin: "SingularMargin" = 1 in 1..=4, c_end 1.0;
    /// Time management: moves assumed left when the GUI does not say.
    moves_to_go: "MovesToGo" = 25 in 10..=60, c_end 2.0;
    /// Time management: the hard limit, percent of the move's share.
    hard_limit_pct: "HardLimitPct" = 250 in 120..=500, c_end 15.0;
    /// Time management: the soft limit, percent of the move's share.
    soft_limit_pct: "SoftLimitPct" = 70 in 30..=150, c_end 5.0;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_parameter_is_valid_for_openbench_and_unique() {
        assert!(PARAMS.len() >= 15, "{} parameters", PARAMS.len());
        let mut names: Vec<&str> = PARAMS.iter().map(|p| p.name).collect();
        names.sort_unstable_by_key(|n| n.to_ascii_lowercase());
        names.dedup_by_key(|n| n.to_ascii_lowercase());
        assert_eq!(
            names.len(),
            PARAMS.len(),
            "names are unique (case-insensitively)"
        );
        for p in PARAMS {
            // OpenBench's checks: min <= default <= max, r_end > 0 (c_end > 0 for floats).
            assert!(p.min <= p.default && p.default <= p.max, "{p:?}");
            assert!(p.r_end > 0.0 && p.c_end >= 1.0, "{p:?}");
            assert!(!p.name.contains(' ') && !p.name.contains(','), "{p:?}");
            assert_eq!(get(p.name), Some(p.default), "{p:?}");
        }
        assert_eq!(
            PARAMS[1].spsa_line(),
            "RfpMargin, int, 80, 30, 200, 8, 0.002"
        );
        assert_eq!(
            PARAMS[0].uci_option(),
            "option name AspWindow type spin default 14 min 8 max 80"
        );
        assert_eq!(get("nosuch"), None);
    }

    #[cfg(not(feature = "tune"))]
    #[test]
    fn the_shipping_build_has_constants_that_cannot_be_set() {
        assert!(!set("RfpMargin", 10));
        assert_eq!(rfp_margin(), 80);
    }
}
