//! Elo, error bars, LOS, trinomial and pentanomial GSPRT.
