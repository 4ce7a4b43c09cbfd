//! The pool against the deliberately faulty engine: restarts after a crash and a hang, the
//! failure bound, start-up failures, answers a job cannot use, order and stopping.

use super::*;
use crate::uci::tests::faulty;
use crate::uci::GoParams;
use std::sync::Mutex;

/// A job that names itself by its number.
struct Pos(usize);

impl Job for Pos {
    fn describe(&self) -> String {
        format!("position {}", self.0)
    }
}

fn jobs(n: usize) -> Vec<Pos> {
    (0..n).map(Pos).collect()
}

/// One short search from the start position; the job's number comes back with the move.
fn search(e: &mut Engine, job: &Pos, timeout: Duration) -> Result<(usize, String), JobError> {
    e.set_position::<&str>(None, &[])?;
    let params = GoParams {
        movetime: Some(5),
        ..GoParams::default()
    };
    let r = e.go(&params, timeout, |_| {})?;
    Ok((job.0, r.best.mv.unwrap_or_default()))
}

fn config(flags: &[&str], engines: usize) -> PoolConfig {
    PoolConfig::new(faulty(flags), engines)
}

fn go_on() -> ControlFlow<()> {
    ControlFlow::Continue(())
}

#[test]
fn a_crash_costs_its_position_and_the_engine_is_restarted() {
    // Each process crashes on its third search: positions 2 and 5 with one engine.
    let mut seen = Vec::new();
    let out = run(
        &config(&["--crash-after", "2"], 1),
        &jobs(6),
        |e, j| search(e, j, Duration::from_secs(5)),
        |i, outcome| {
            seen.push((i, outcome.is_ok()));
            go_on()
        },
    )
    .unwrap();
    let failed: Vec<usize> = out
        .outcomes
        .iter()
        .enumerate()
        .filter(|(_, o)| o.is_err())
        .map(|(i, _)| i)
        .collect();
    assert_eq!(failed, [2, 5]);
    let Err(f) = &out.outcomes[2] else {
        unreachable!()
    };
    assert_eq!((f.job, f.position.as_str()), (2, "position 2"));
    assert_eq!(f.engine, "Faulty");
    assert!(
        matches!(&f.error, JobError::Engine(UciError::Crashed(s)) if s.contains("3")),
        "{f}"
    );
    assert!(f
        .to_string()
        .contains("position 2: engine Faulty: engine crashed"));
    // Restarted once, for position 3; after position 5 there is nothing left to restart for.
    assert_eq!(out.restarts, 1);
    assert_eq!(out.engine, "Faulty");
    for (i, o) in out.outcomes.iter().enumerate() {
        if let Ok((job, mv)) = o {
            assert_eq!((*job, mv.len() >= 4), (i, true), "{mv}");
        }
    }
    let expected: Vec<(usize, bool)> = (0..6).map(|i| (i, i != 2 && i != 5)).collect();
    assert_eq!(seen, expected, "every position reported once, as it ended");
}

#[test]
fn a_hung_engine_is_timed_out_killed_and_restarted() {
    // Each process answers its first search and hangs on the second (ignoring `stop`).
    let started = std::time::Instant::now();
    let out = run(
        &config(&["--hang-after", "1"], 1),
        &jobs(4),
        |e, j| search(e, j, Duration::from_millis(400)),
        |_, _| go_on(),
    )
    .unwrap();
    let hung: Vec<bool> = out
        .outcomes
        .iter()
        .map(|o| matches!(o, Err(f) if matches!(f.error, JobError::Engine(UciError::Timeout(_)))))
        .collect();
    assert_eq!(hung, [false, true, false, true]);
    assert_eq!(out.restarts, 1);
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "hangs were cut short"
    );
}

#[test]
fn an_engine_that_fails_every_position_ends_the_run_after_the_bound() {
    let mut reported = Vec::new();
    let err = run(
        &config(&["--crash-after", "0"], 1),
        &jobs(10),
        |e, j| search(e, j, Duration::from_secs(5)),
        |i, outcome| {
            reported.push((i, outcome.as_ref().err().map(|f| f.position.clone())));
            go_on()
        },
    )
    .unwrap_err();
    // The failures before the run ends are reported as failed, not dropped.
    let expected: Vec<(usize, Option<String>)> =
        (0..3).map(|i| (i, Some(format!("position {i}")))).collect();
    assert_eq!(reported, expected);
    let PoolError::Abandoned {
        failures, ref last, ..
    } = err
    else {
        panic!("{err:?}")
    };
    assert_eq!(failures, FAILURES_IN_ROW);
    assert!(
        matches!(last.as_ref(), Failure::Job(f) if f.job == 2),
        "{last:?}"
    );
    let text = err.to_string();
    assert!(
        text.contains("faulty-engine --crash-after 0`")
            && text.contains("failed 3 times in a row, the last on position 2: engine crashed")
            && text.ends_with("run abandoned"),
        "{text}"
    );
}

#[test]
fn failures_apart_do_not_add_up() {
    // Every other search crashes, forever: never two failures in a row, so the run completes.
    let mut config = config(&["--crash-after", "1"], 1);
    config.failures_in_row = 2;
    let out = run(
        &config,
        &jobs(8),
        |e, j| search(e, j, Duration::from_secs(5)),
        |_, _| go_on(),
    )
    .unwrap();
    let ok: Vec<bool> = out.outcomes.iter().map(Result::is_ok).collect();
    assert_eq!(ok, [true, false, true, false, true, false, true, false]);
    assert_eq!(out.restarts, 3);
}

#[test]
fn an_engine_that_cannot_be_restarted_ends_the_run_naming_the_restart() {
    // A wrapper that starts the engine once; every later start exits at once.
    let dir = crate::test_dir("pool-restart");
    let marker = dir.join("started");
    let faulty = faulty(&["--crash-after", "0"]);
    let script = format!(
        "if [ -e '{m}' ]; then echo 'no second start' >&2; exit 1; fi; touch '{m}'; exec '{e}' {a}",
        m = marker.display(),
        e = faulty.cmd,
        a = faulty.args.join(" ")
    );
    let mut spec = EngineSpec::new("sh");
    spec.args = vec!["-c".into(), script];
    let err = run(
        &PoolConfig::new(spec, 1),
        &jobs(5),
        |e, j| search(e, j, Duration::from_secs(5)),
        |_, _| go_on(),
    )
    .unwrap_err();
    let PoolError::Abandoned { ref last, .. } = err else {
        panic!("{err:?}")
    };
    assert!(matches!(last.as_ref(), Failure::Restart(_)), "{last:?}");
    assert!(
        err.to_string().contains("when restarted: engine crashed"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn an_engine_that_cannot_start_is_a_start_error_and_nothing_runs() {
    let mut done = 0;
    let mut try_start = |spec: EngineSpec| {
        let mut config = PoolConfig::new(spec, 2);
        config.startup_timeout = Duration::from_millis(500);
        run(
            &config,
            &jobs(4),
            |e, j| search(e, j, Duration::from_secs(5)),
            |_, _| {
                done += 1;
                go_on()
            },
        )
        .unwrap_err()
    };
    let err = try_start(EngineSpec::new("/nonexistent/engine"));
    assert!(matches!(err, PoolError::Start(_)), "{err:?}");
    assert!(
        err.to_string().contains("/nonexistent/engine") && err.to_string().contains("No such file"),
        "{err}"
    );
    let err = try_start(faulty(&["--no-uciok"]));
    assert!(
        err.to_string()
            .contains("failed to start: engine timed out waiting for uciok"),
        "{err}"
    );
    let err = try_start(faulty(&["--exit-before-uciok", "5"]));
    assert!(
        err.to_string().contains("exit status: 5")
            && err.to_string().contains("cannot load its network"),
        "{err}"
    );
    assert_eq!(done, 0, "no position was searched");
}

#[test]
fn an_answer_the_job_cannot_use_fails_the_position_but_keeps_the_engine() {
    let pids = Mutex::new(Vec::new());
    let out = run(
        &config(&[], 1),
        &jobs(5),
        |e, j| {
            pids.lock().unwrap().push(e.pid());
            let found = search(e, j, Duration::from_secs(5))?;
            match j.0 % 2 {
                0 => Err(JobError::Answer(format!("no score for {}", found.1))),
                _ => Ok(found),
            }
        },
        |_, _| go_on(),
    )
    .unwrap();
    let pids = pids.into_inner().unwrap();
    assert!(pids.iter().all(|p| *p == pids[0]), "one process: {pids:?}");
    assert_eq!(out.restarts, 0);
    let Err(f) = &out.outcomes[4] else {
        unreachable!()
    };
    assert!(
        f.to_string()
            .starts_with("position 4: engine Faulty: no score for "),
        "{f}"
    );
}

#[test]
fn many_engines_share_the_jobs_and_outcomes_keep_their_order() {
    let pids = Mutex::new(std::collections::HashSet::new());
    let out = run(
        &config(&[], 3),
        &jobs(30),
        |e, j| {
            pids.lock().unwrap().insert(e.pid());
            search(e, j, Duration::from_secs(5))
        },
        |_, _| go_on(),
    )
    .unwrap();
    let order: Vec<usize> = out.outcomes.iter().map(|o| o.as_ref().unwrap().0).collect();
    assert_eq!(order, (0..30).collect::<Vec<_>>());
    assert!(pids.into_inner().unwrap().len() <= 3);
    // No more engines than jobs.
    let pids = Mutex::new(std::collections::HashSet::new());
    run(
        &config(&[], 8),
        &jobs(2),
        |e, j| {
            pids.lock().unwrap().insert(e.pid());
            search(e, j, Duration::from_secs(5))
        },
        |_, _| go_on(),
    )
    .unwrap();
    assert!(pids.into_inner().unwrap().len() <= 2);
}

#[test]
fn on_done_can_stop_the_run() {
    let mut ended = 0;
    let err = run(
        &config(&[], 1),
        &jobs(50),
        |e, j| search(e, j, Duration::from_secs(5)),
        |_, _| {
            ended += 1;
            match ended {
                2 => ControlFlow::Break(()),
                _ => go_on(),
            }
        },
    )
    .unwrap_err();
    assert_eq!(err, PoolError::Stopped);
    assert_eq!(ended, 2, "no outcome is handed on after the stop");
}
