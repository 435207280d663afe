//! Stopped from outside (SIGSTOP) and continued (SIGCONT): meanwhile a shell may have put the
//! terminal back in cooked mode on the normal screen, so the tutor sets raw mode and the alternate
//! screen again, redraws without asking the terminal where its cursor is, and leaves no reply of
//! the terminal for the shell when it ends.

use crate::common::tmux::{self, Tmux};
use std::io::Write;
use std::process::Command;
use std::time::{Duration, Instant};

fn tutor_pid(tmux: &Tmux) -> u32 {
    let shell = tmux.format("#{pane_pid}");
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let children = std::fs::read_to_string(format!("/proc/{shell}/task/{shell}/children"))
            .unwrap_or_default();
        if let Some(pid) = children.split_whitespace().next() {
            return pid.parse().expect("a pid");
        }
        assert!(Instant::now() < deadline, "warpdrill did not start");
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn stty(tty: &str, args: &[&str]) -> String {
    let out = Command::new("stty")
        .arg("-F")
        .arg(tty)
        .args(args)
        .output()
        .expect("stty");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn state(pid: u32) -> Option<char> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    stat.rsplit_once(')')?.1.trim().chars().next()
}

#[test]
fn continued_after_sigstop_the_tutor_is_raw_on_the_alternate_screen_again() {
    if !tmux::available() || !std::path::Path::new("/proc/self/task").exists() {
        println!("skipped: tmux is not available here");
        return;
    }
    let (_guard, data) = crate::common::temp_dir("resume");
    let command = format!(
        "sh -c 'echo BEFORE-TUTOR; {} --data-dir {}; echo AFTER-TUTOR rc=$?; sleep 60'",
        env!("CARGO_BIN_EXE_warpdrill"),
        data.display()
    );
    let Some(tmux) = Tmux::start(&command, 80, 24) else {
        println!("skipped: tmux cannot start a session here");
        return;
    };
    tmux.wait_for("GPU memory performance, seen and computed");
    let pid = tutor_pid(&tmux);
    let tty = tmux.format("#{pane_tty}");
    Command::new("kill")
        .args(["-STOP", &pid.to_string()])
        .status()
        .expect("kill");
    tmux.wait_until("stopped", |_| state(pid) == Some('T'));
    // What a shell does when its job stops: cooked mode, the normal screen.
    stty(&tty, &["sane"]);
    std::fs::OpenOptions::new()
        .write(true)
        .open(&tty)
        .and_then(|mut t| t.write_all(b"\x1b[?1049l"))
        .expect("the pane's terminal");
    tmux.wait_until("the normal screen", |t| t.format("#{alternate_on}") == "0");
    Command::new("kill")
        .args(["-CONT", &pid.to_string()])
        .status()
        .expect("kill");
    tmux.wait_until("redrawn on the alternate screen", |t| {
        t.format("#{alternate_on}") == "1"
            && t.screen()
                .contains("GPU memory performance, seen and computed")
    });
    let modes = stty(&tty, &["-a"]);
    assert!(modes.contains("-icanon"), "raw mode again:\n{modes}");
    assert!(modes.contains("-echo "), "no echo:\n{modes}");
    // Keys are keys again, and quitting leaves nothing behind for the shell.
    tmux.keys(&["L"]);
    tmux.wait_for("L1 Recognition — name and place things");
    tmux.keys(&["q"]);
    tmux.wait_for("GPU memory performance, seen and computed");
    tmux.keys(&["q"]);
    let screen = tmux.wait_for("AFTER-TUTOR rc=0");
    let shell: Vec<&str> = screen.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(
        shell,
        ["BEFORE-TUTOR", "AFTER-TUTOR rc=0"],
        "nothing but the shell's own lines (no terminal reply):\n{screen}"
    );
}
