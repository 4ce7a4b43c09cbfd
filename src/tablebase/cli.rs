//! The `--tb` options, in fastchess's vocabulary (`-tb`, `-tbpieces`, `-tbadjudicate`,
//! `-tbignore50`), shared by `match`, `sprt`, `spsa` and `datagen` ([`TbArgs`]) and, without
//! the adjudication choice, by `label` ([`TbTableArgs`]).

use super::error::TbError;
use super::rule::{SyzygyRule, TbResults};
use super::tables::Tablebases;

/// Where the tables are and how far to trust them.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct TbTableArgs {
    /// Syzygy tablebases: one or more folders of *.rtbw/*.rtbz files, separated by ':'.
    /// Positions in the tables get their exact result from them.
    #[arg(long = "tb", value_name = "DIR[:DIR...]")]
    pub tb: Option<String>,
    /// Only positions with at most this many pieces (kings included) are looked up. Default:
    /// the most of any table found.
    #[arg(long = "tb-pieces", value_name = "N", requires = "tb")]
    pub tb_pieces: Option<usize>,
    /// Ignore the 50-move rule: cursed wins and blessed losses count as wins and losses (by
    /// default they are draws, and so is a win the halfmove clock makes too slow).
    #[arg(long = "tb-ignore-50", requires = "tb")]
    pub tb_ignore_50: bool,
}

/// The `--tb` options of a match or of self-play.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct TbArgs {
    #[command(flatten)]
    pub tables: TbTableArgs,
    /// Which table results end a game: win-loss, draw or both.
    #[arg(long = "tb-adjudicate", value_enum, default_value_t = TbResults::Both)]
    pub tb_adjudicate: TbResults,
}

impl TbTableArgs {
    /// The rule these options describe (`None` without `--tb`), adjudicating `results`. The
    /// tables are loaded once per process; refused files are returned as warnings to print.
    pub fn rule(&self, results: TbResults) -> Result<Option<(SyzygyRule, Vec<String>)>, TbError> {
        let Some(folders) = &self.tb else {
            return Ok(None);
        };
        let tables = Tablebases::open_shared(folders)?;
        let rule = SyzygyRule::new(tables, self.tb_pieces, results, self.tb_ignore_50)?;
        let warnings = tables
            .refused()
            .iter()
            .map(|(file, why)| format!("Syzygy: {} refused: {why}", file.display()))
            .collect();
        Ok(Some((rule, warnings)))
    }
}

impl TbArgs {
    /// The rule these options describe (`None` without `--tb`) and warnings about refused files.
    pub fn rule(&self) -> Result<Option<(SyzygyRule, Vec<String>)>, TbError> {
        self.tables.rule(self.tb_adjudicate)
    }
}
