//! One game: referee (shakmaty rules), clocks, adjudication, PGN record.
