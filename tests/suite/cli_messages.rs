//! Command-line messages. One reading of `--mask` for every command: `explore` refuses what `calc` refuses (no lane, a
//! lane the warp does not have, `firstN` past the warp) instead of showing all lanes.

fn run(args: &[&str]) -> (i32, String) {
    let out = crate::common::warpdrill()
        .args(args)
        .output()
        .expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn explore_and_calc_refuse_the_same_masks() {
    for mask in ["0x0", "0x1ffffffff", "first33"] {
        for command in [&["calc", "coalescing"][..], &["explore"][..]] {
            let mut args = command.to_vec();
            args.extend(["--mask", mask]);
            let (code, stderr) = run(&args);
            assert_eq!(code, 2, "{args:?}: {stderr}");
            assert!(
                stderr.contains(&format!("active mask `{mask}`")),
                "{args:?}: {stderr}"
            );
        }
    }
    // A 64-lane AMD wave has lane 32.
    let (code, stderr) = run(&[
        "calc",
        "coalescing",
        "--arch",
        "gfx942",
        "--mask",
        "0x1ffffffff",
    ]);
    assert_eq!(code, 0, "{stderr}");
}

#[test]
fn lab_check_on_a_directory_says_it_is_one() {
    let (_guard, dir) = crate::common::temp_dir("lab-dir");
    let out = crate::common::warpdrill()
        .args(["lab", "check", &dir.display().to_string()])
        .output()
        .expect("the binary runs");
    // `lab check` reports on standard output, as for every finding of the check.
    let stderr = String::from_utf8_lossy(&out.stdout);
    assert_ne!(out.status.code(), Some(0));
    assert!(stderr.contains("a directory, not a lab file"), "{stderr}");
    assert!(!stderr.contains("no such lab file"), "{stderr}");
}

#[test]
fn parameters_the_scheduler_refuses_are_named_and_the_defaults_used() {
    let (_guard, dir) = crate::common::temp_dir("fsrs-parameters");
    std::fs::write(dir.join("fsrs-parameters.ron"), "[1.0, 2.0]\n").unwrap();
    let out = crate::common::warpdrill()
        .args(["--data-dir", &dir.display().to_string(), "stats"])
        .output()
        .expect("the binary runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("fsrs-parameters.ron"), "{stderr}");
    assert!(stderr.contains("default parameters are used"), "{stderr}");
}
