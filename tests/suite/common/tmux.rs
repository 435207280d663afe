//! The real binary in a real terminal: a tmux server of its own per session (`tmux -L …`), so
//! nothing else's sessions are touched, killed when the session drops. Where tmux cannot run, a test
//! fails — under `CI=true` always, elsewhere unless `WARPDRILL_SKIP_TMUX=1` asks to skip (and then
//! says so on stderr) — so a missing tmux is never mistaken for a pass.

use std::io::Write;
use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// How long a wait for the screen may take before the test fails with the screen it saw.
const PATIENCE: Duration = Duration::from_secs(20);
/// The pause after each key, so the program draws before the next one.
const KEY_PAUSE: Duration = Duration::from_millis(70);
/// Environment variable that lets a machine without tmux skip these tests (never under CI).
pub const SKIP_VAR: &str = "WARPDRILL_SKIP_TMUX";

/// One tmux server with one session, `main`.
pub struct Tmux {
    socket: String,
}

impl Tmux {
    /// Starts `command` in a `width` × `height` pane; `None` where tmux cannot run.
    pub fn start(command: &str, width: u16, height: u16) -> Option<Tmux> {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let tmux = Tmux {
            socket: format!(
                "warpdrill-test-{}-{}",
                std::process::id(),
                NEXT.fetch_add(1, Ordering::Relaxed)
            ),
        };
        let started = tmux
            .command()
            .args(["new-session", "-d", "-s", "main", "-x"])
            .arg(width.to_string())
            .arg("-y")
            .arg(height.to_string())
            .arg(command)
            .env_remove("TMUX")
            // A fresh server per session: what the tutor runs in inherits this.
            .env("WARPDRILL_CONFIG", super::isolated_config())
            .status()
            .is_ok_and(|s| s.success());
        started.then_some(tmux)
    }

    /// A `tmux` command aimed at this server.
    pub fn command(&self) -> Command {
        let mut command = Command::new("tmux");
        command.args(["-L", &self.socket]);
        command
    }

    /// Presses `keys` (tmux key names: `Enter`, `Down`, `C-t`, or plain text), one at a time.
    pub fn keys(&self, keys: &[&str]) {
        for key in keys {
            self.command()
                .args(["send-keys", "-t", "main", key])
                .status()
                .expect("send-keys");
            std::thread::sleep(KEY_PAUSE);
        }
    }

    /// Types `text` literally (no key names).
    pub fn literal(&self, text: &str) {
        self.command()
            .args(["send-keys", "-t", "main", "-l", text])
            .status()
            .expect("send-keys");
        std::thread::sleep(KEY_PAUSE);
    }

    /// The pane as text.
    pub fn screen(&self) -> String {
        let out = self
            .command()
            .args(["capture-pane", "-p", "-t", "main"])
            .output()
            .expect("capture-pane");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// `tmux display-message` of `format` for the pane (`#{pane_pid}`, `#{pane_tty}`).
    pub fn format(&self, format: &str) -> String {
        let out = self
            .command()
            .args(["display-message", "-p", "-t", "main", format])
            .output()
            .expect("display-message");
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    /// Waits until the screen shows `needle`, and returns that screen.
    pub fn wait_for(&self, needle: &str) -> String {
        self.wait_until(needle, |t| t.screen().contains(needle));
        self.screen()
    }

    /// Waits until `done` holds; fails with `what` and the screen after [`PATIENCE`].
    pub fn wait_until(&self, what: &str, done: impl Fn(&Tmux) -> bool) {
        let deadline = Instant::now() + PATIENCE;
        while !done(self) {
            assert!(
                Instant::now() < deadline,
                "timed out waiting for {what:?}; screen:\n{}",
                self.screen()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.command().arg("kill-server").status();
    }
}

/// Whether tmux is installed and runs.
pub fn available() -> bool {
    Command::new("tmux")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// What to do when tmux cannot run: fail under CI, or unless the skip was asked for; else say it
/// skipped.
pub fn cannot_run(test: &str, reason: &str) {
    let ci = std::env::var("CI").is_ok_and(|v| v == "true" || v == "1");
    let skip = std::env::var(SKIP_VAR).is_ok_and(|v| v == "1");
    assert!(
        !ci,
        "{test}: {reason}; CI=true, so this end-to-end test cannot be skipped (install tmux)"
    );
    assert!(
        skip,
        "{test}: {reason}; install tmux, or set {SKIP_VAR}=1 to skip the tmux end-to-end tests"
    );
    // Written to the stderr handle, not through `eprintln!`, so the test harness does not capture it.
    let _ = writeln!(std::io::stderr(), "SKIPPED {test}: {reason} ({SKIP_VAR}=1)");
}
