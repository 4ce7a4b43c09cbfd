//! SPSA's arithmetic against hand-computed steps of OpenBench's formulas.

use super::*;

fn int_param(value: f64, c_end: f64) -> Param {
    Param {
        name: "P".into(),
        is_float: false,
        value,
        min: 0.0,
        max: 1000.0,
        c_end,
        r_end: 0.002,
    }
}

fn close(got: f64, want: f64) {
    assert!(
        (got - want).abs() < 1e-12 * want.abs().max(1.0),
        "{got} != {want}"
    );
}

#[test]
fn the_schedule_is_openbenchs() {
    // N = 100, alpha 0.602, gamma 0.101, A = 10, c_end 10, r_end 0.002:
    // c_k = 10 * 100^0.101 / k^0.101, r_k = 0.002 * 10^2 * 110^0.602 / (10 + k)^0.602 / c_k^2.
    // The expected values were computed by hand from those formulas (Python, double precision).
    let s = Schedule::new(100);
    let p = int_param(100.0, 10.0);
    let (c, r) = s.c_and_r(&p, 1);
    close(c, 15.922087270511703);
    close(r, 0.0031552225393986963);
    let (c, r) = s.c_and_r(&p, 50);
    close(c, 10.725166168179426);
    close(r, 0.00250433994257136);
    // At the last iteration c and r are the end values, whatever they are.
    for (c_end, r_end) in [(10.0, 0.002), (3.0, 0.01), (0.05, 0.002)] {
        let q = Param {
            is_float: true,
            c_end,
            r_end,
            ..p.clone()
        };
        let (c, r) = s.c_and_r(&q, 100);
        close(c, c_end);
        close(r, r_end);
    }
    // An integer's perturbation never falls below half a unit (else rounding would freeze it).
    let (c, _) = s.c_and_r(&int_param(100.0, 0.3), 100);
    assert_eq!(c, 0.5);
}

#[test]
fn an_update_moves_by_r_c_result_flip_and_clips() {
    let s = Schedule::new(100);
    let mut params = vec![int_param(100.0, 10.0), int_param(995.0, 10.0)];
    let mut d = perturb(&params, &s, 1, 100);
    d[0].flip = 1.0;
    d[1].flip = 1.0;
    // Three more wins than losses for theta + c: 0.002 * 10 * 3 = 0.06 up.
    update(&mut params, &d, 3.0);
    close(params[0].value, 100.06);
    // A huge result cannot leave the range.
    update(&mut params, &d, 1e9);
    assert_eq!(params[1].value, 1000.0);
    d[0].flip = -1.0;
    update(&mut params, &d, 3.0);
    close(params[0].value, 1000.0 - 0.06);
}

#[test]
fn perturbations_are_symmetric_rounded_clipped_and_reproducible() {
    let s = Schedule::new(100);
    let params = vec![
        int_param(100.0, 10.0),
        Param {
            is_float: true,
            value: 0.5,
            min: 0.0,
            max: 1.0,
            c_end: 0.05,
            ..int_param(0.0, 0.0)
        },
        int_param(2.0, 10.0),
    ];
    let a = perturb(&params, &s, 42, 7);
    assert_eq!(a, perturb(&params, &s, 42, 7), "seed and iteration decide");
    assert_ne!(a, perturb(&params, &s, 42, 8));
    let (c, _) = s.c_and_r(&params[0], 7);
    // theta + flip c and theta - flip c, each rounded down after adding the same u in [0, 1).
    let d = a[0];
    assert!(d.flip == 1.0 || d.flip == -1.0);
    let hi = 100.0 + c;
    let lo = 100.0 - c;
    let (up, down) = if d.flip > 0.0 {
        (d.dev, d.base)
    } else {
        (d.base, d.dev)
    };
    assert!(up == hi.floor() || up == hi.ceil(), "{up} from {hi}");
    assert!(down == lo.floor() || down == lo.ceil(), "{down} from {lo}");
    assert_eq!(up.fract(), 0.0);
    // Floats are not rounded.
    let f = a[1];
    let (fc, _) = s.c_and_r(&params[1], 7);
    close((f.dev - f.base).abs(), 2.0 * fc);
    // Clipped at the bottom of the range: 2 - c < 0.
    assert!(a[2].dev >= 0.0 && a[2].base >= 0.0);
    assert!(a[2].dev == 0.0 || a[2].base == 0.0);
    // Over many iterations both directions occur.
    let flips: Vec<f64> = (1..=40)
        .map(|k| perturb(&params, &s, 1, k)[0].flip)
        .collect();
    assert!(flips.contains(&1.0) && flips.contains(&-1.0));
}

#[test]
fn openbench_input_parses_and_bad_lines_name_their_number() {
    let text = "# from sable spsa\nRfpMargin, int, 80, 30, 200, 8, 0.002\n\nScale, float, 0.5, 0.0, 1.0, 0.05, 0.002\n";
    let ps = parse_input(text).unwrap();
    assert_eq!(ps.len(), 2);
    assert_eq!(ps[0].name, "RfpMargin");
    assert_eq!((ps[0].value, ps[0].min, ps[0].max), (80.0, 30.0, 200.0));
    assert!(ps[1].is_float);
    assert_eq!(format_value(&ps[0], 80.4), "80");
    assert_eq!(format_value(&ps[1], 0.12345), "0.1235");
    for (bad, why) in [
        ("A, int, 8, 30, 200, 8, 0.002", "min <= value <= max"),
        ("A, int, 80, 30, 200, 8, 0", "r_end > 0"),
        ("A, float, 0.5, 0, 1, 0, 0.002", "c_end > 0"),
        ("A, double, 80, 30, 200, 8, 0.002", "neither int nor float"),
        ("A, int, 80, 30, 200, 8", "6 fields"),
        ("A, int, x, 30, 200, 8, 0.002", "value `x`"),
    ] {
        let e = parse_input(&format!("# c\n{bad}\n")).unwrap_err();
        assert_eq!(e.line, 2, "{bad}");
        assert!(e.cause.contains(why), "{bad}: {e}");
    }
    let twice = "A, int, 80, 30, 200, 8, 0.002\na, int, 80, 30, 200, 8, 0.002\n";
    assert!(parse_input(twice).unwrap_err().cause.contains("twice"));
    assert!(parse_input("\n# nothing\n").is_err());
}

#[test]
fn iterations_read_the_book_on() {
    let book: Vec<Opening> = (0..5)
        .map(|i| Opening {
            origin: Some(format!("line {i}")),
            ..Opening::default()
        })
        .collect();
    let o = |k| {
        iteration_openings(&book, k, 2)
            .iter()
            .map(|o| o.origin.clone().unwrap())
            .collect::<Vec<_>>()
    };
    assert_eq!(o(1), ["line 0", "line 1"]);
    assert_eq!(o(2), ["line 2", "line 3"]);
    assert_eq!(o(3), ["line 4", "line 0"]);
    assert!(iteration_openings(&[], 1, 2).is_empty());
}
