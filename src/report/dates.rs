//! Calendar dates and times in UTC for PGN tags and logs, without a date crate.

use std::time::{Duration, SystemTime};

fn since_epoch(t: SystemTime) -> Duration {
    t.duration_since(SystemTime::UNIX_EPOCH).unwrap_or_default()
}

/// The PGN `Date` form, `2026.11.25` (UTC).
pub fn pgn_date(t: SystemTime) -> String {
    let (y, m, d) = civil_from_days((since_epoch(t).as_secs() / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// fastchess's `GameStartTime` form, `2026-11-25T10:04:05 +0000` (UTC).
pub fn pgn_time(t: SystemTime) -> String {
    let stamp = utc_timestamp(t);
    format!("{} +0000", &stamp[..19])
}

/// Today's date (UTC) as `2026-11-25`, for default file names.
pub fn today() -> String {
    utc_timestamp(SystemTime::now())[..10].to_owned()
}

/// `2026-11-25T10:04:05.123Z` (UTC, milliseconds), for logs.
pub fn utc_timestamp(t: SystemTime) -> String {
    let d = since_epoch(t);
    let secs = d.as_secs();
    let (y, m, day) = civil_from_days((secs / 86_400) as i64);
    let s = secs % 86_400;
    format!(
        "{y:04}-{m:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        s / 3600,
        s / 60 % 60,
        s % 60,
        d.subsec_millis()
    )
}

/// Year, month, day of a day count since 1970-01-01 (Howard Hinnant's `civil_from_days`).
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(month <= 2), month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(ms: u64) -> SystemTime {
        SystemTime::UNIX_EPOCH + Duration::from_millis(ms)
    }

    #[test]
    fn dates_and_times_are_utc_calendar_values() {
        // Checked with `date -u -d @951827696`: Tue Feb 29 12:34:56 UTC 2000.
        assert_eq!(
            utc_timestamp(at(951_827_696_789)),
            "2000-02-29T12:34:56.789Z"
        );
        assert_eq!(pgn_time(at(951_827_696_789)), "2000-02-29T12:34:56 +0000");
        assert_eq!(utc_timestamp(at(0)), "1970-01-01T00:00:00.000Z");
        assert_eq!(pgn_date(at(0)), "1970.01.01");
        assert_eq!(pgn_date(at(951_782_400_000)), "2000.02.29");
        assert_eq!(pgn_date(at(1_795_219_200_000)), "2026.11.21");
        assert_eq!(civil_from_days(20_782), (2026, 11, 25));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
    }
}
