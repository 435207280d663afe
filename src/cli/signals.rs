//! The tutor's events in a real terminal, with the signals a terminal program must answer:
//!
//! - Every signal whose default action ends a process and that can be caught — SIGTERM, SIGHUP,
//!   SIGINT, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ, SIGIO — ends
//!   the tutor the ordinary way: progress is saved and the terminal restored (a second one of them
//!   ends the process at once). Left to their default, they would end it with the terminal raw.
//! - Ctrl-Z (a key in raw mode) and SIGTSTP suspend it: the terminal is restored, the process stops,
//!   and on SIGCONT (`fg`) raw mode and the alternate screen come back and the screen is redrawn.

use ratatui::crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use signal_hook::consts::{SIGCONT, SIGHUP, SIGINT, SIGQUIT, SIGSTOP, SIGTERM, SIGTSTP};
use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

/// The signals that end the tutor: every one whose default action ends the process, except those
/// that report a fault of the process itself (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP,
/// SIGSYS), which cannot be answered safely, and SIGPIPE, which Rust ignores.
pub const TERMINATING: [i32; 12] = [
    SIGTERM,
    SIGHUP,
    SIGINT,
    SIGQUIT,
    libc::SIGUSR1,
    libc::SIGUSR2,
    libc::SIGALRM,
    libc::SIGVTALRM,
    libc::SIGPROF,
    libc::SIGXCPU,
    libc::SIGXFSZ,
    libc::SIGIO,
];

/// Why the event source stopped the event loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Interruption {
    /// A terminating signal arrived: save, restore the terminal and exit with `128 + signal`.
    Terminate(i32),
    /// Ctrl-Z or SIGTSTP: suspend, then go on.
    Suspend,
    /// The process was continued after a stop it did not make itself: redraw the whole screen.
    Redraw,
}

impl std::fmt::Display for Interruption {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Interruption::Terminate(signal) => write!(f, "ended by signal {signal}"),
            Interruption::Suspend => write!(f, "suspended"),
            Interruption::Redraw => write!(f, "continued"),
        }
    }
}

impl std::error::Error for Interruption {}

impl Interruption {
    /// The interruption an event-loop error carries, if it is one.
    pub fn of(error: &io::Error) -> Option<Interruption> {
        error
            .get_ref()
            .and_then(|inner| inner.downcast_ref::<Interruption>())
            .copied()
    }
}

/// Signal flags, set by the handlers and read between events.
#[derive(Debug, Default)]
pub struct Signals {
    terminate: Arc<AtomicUsize>,
    terminating: Arc<AtomicBool>,
    suspend: Arc<AtomicBool>,
    continued: Arc<AtomicBool>,
}

impl Signals {
    /// Installs the handlers.
    pub fn install(&self) -> io::Result<()> {
        let signals = self;
        for signal in TERMINATING {
            // A second terminating signal, while the first is being handled, ends the process.
            signal_hook::flag::register_conditional_shutdown(
                signal,
                128 + signal,
                Arc::clone(&signals.terminating),
            )?;
            signal_hook::flag::register(signal, Arc::clone(&signals.terminating))?;
            signal_hook::flag::register_usize(
                signal,
                Arc::clone(&signals.terminate),
                signal as usize,
            )?;
        }
        signal_hook::flag::register(SIGTSTP, Arc::clone(&signals.suspend))?;
        signal_hook::flag::register(SIGCONT, Arc::clone(&signals.continued))?;
        Ok(())
    }

    /// The pending interruption, if any.
    fn pending(&self) -> Option<Interruption> {
        match self.terminate.load(Ordering::SeqCst) {
            0 => {}
            signal => return Some(Interruption::Terminate(signal as i32)),
        }
        if self.suspend.swap(false, Ordering::SeqCst) {
            return Some(Interruption::Suspend);
        }
        if self.continued.swap(false, Ordering::SeqCst) {
            return Some(Interruption::Redraw);
        }
        None
    }

    /// The next terminal event; a signal (or Ctrl-Z) comes back as an error carrying an
    /// [`Interruption`].
    pub fn next_event(&self) -> io::Result<Event> {
        self.next_event_or_tick(None)
    }

    /// [`Signals::next_event`], or `Event::FocusGained` (which changes nothing, so the screen is
    /// redrawn) when `tick` passes without an event: a lab's clock keeps running.
    pub fn next_event_or_tick(&self, tick: Option<Duration>) -> io::Result<Event> {
        let start = std::time::Instant::now();
        loop {
            if let Some(interruption) = self.pending() {
                return Err(io::Error::other(interruption));
            }
            if tick.is_some_and(|tick| start.elapsed() >= tick) {
                return Ok(Event::FocusGained);
            }
            if event::poll(Duration::from_millis(100))? {
                let event = event::read()?;
                if is_ctrl_z(&event) {
                    return Err(io::Error::other(Interruption::Suspend));
                }
                return Ok(event);
            }
        }
    }

    /// Watches the terminal for a hang-up (its window closed, `tmux kill-session`, a dropped ssh
    /// connection) when no SIGHUP comes with it: the tutor then ends as on SIGHUP. The terminal
    /// library reads a hung-up terminal in a loop that never returns, so when the event loop has
    /// not ended a second later the process exits with status 129; progress and the review log are
    /// saved as they change, so nothing is lost.
    pub fn watch_hangup(&self) {
        let terminate = Arc::clone(&self.terminate);
        let spawned = std::thread::Builder::new()
            .name("hangup".into())
            .spawn(move || {
                loop {
                    std::thread::sleep(Duration::from_millis(250));
                    if terminal_hung_up() {
                        terminate.store(SIGHUP as usize, Ordering::SeqCst);
                        std::thread::sleep(Duration::from_secs(1));
                        std::process::exit(128 + SIGHUP);
                    }
                }
            });
        // Without the watcher the tutor still works; a hang-up then waits for SIGHUP.
        drop(spawned);
    }

    /// Stops the process until it is continued (`fg`, SIGCONT). Restore the terminal first.
    pub fn stop(&self) -> io::Result<()> {
        signal_hook::low_level::raise(SIGSTOP)?;
        // Continued: the SIGCONT that woke us needs no second redraw.
        self.continued.store(false, Ordering::SeqCst);
        Ok(())
    }
}

/// Whether standard input, the tutor's terminal, has been hung up (`POLLHUP`/`POLLNVAL`).
fn terminal_hung_up() -> bool {
    let mut fd = libc::pollfd {
        fd: 0,
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: `fd` is one valid `pollfd` that outlives the call, and a zero timeout never blocks.
    let ready = unsafe { libc::poll(&mut fd, 1, 0) };
    ready > 0 && fd.revents & (libc::POLLHUP | libc::POLLNVAL) != 0
}

/// Ctrl-Z, which raw mode delivers as a key instead of a signal.
fn is_ctrl_z(event: &Event) -> bool {
    matches!(
        event,
        Event::Key(KeyEvent {
            code: KeyCode::Char('z' | 'Z'),
            modifiers,
            kind: KeyEventKind::Press,
            ..
        }) if modifiers.contains(KeyModifiers::CONTROL)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interruptions_travel_inside_io_errors() {
        let error = io::Error::other(Interruption::Terminate(SIGTERM));
        assert_eq!(
            Interruption::of(&error),
            Some(Interruption::Terminate(SIGTERM))
        );
        assert_eq!(Interruption::of(&io::Error::other("disk")), None);
    }

    #[test]
    fn ctrl_z_is_recognised_only_as_a_press_with_control() {
        let key = |code, modifiers| Event::Key(KeyEvent::new(code, modifiers));
        assert!(is_ctrl_z(&key(KeyCode::Char('z'), KeyModifiers::CONTROL)));
        assert!(!is_ctrl_z(&key(KeyCode::Char('z'), KeyModifiers::NONE)));
        assert!(!is_ctrl_z(&key(KeyCode::Char('c'), KeyModifiers::CONTROL)));
    }
}
