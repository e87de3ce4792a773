//! Entering and leaving the terminal's full-screen mode, on every exit path (including a
//! panic: a hook restores the terminal before the panic message is printed).

use std::io::{stdout, Stdout, Write};
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::Context;
use crossterm::event::{
    KeyboardEnhancementFlags, PopKeyboardEnhancementFlags, PushKeyboardEnhancementFlags,
};
use crossterm::terminal::{
    disable_raw_mode, enable_raw_mode, EnterAlternateScreen, LeaveAlternateScreen,
};
use crossterm::{cursor, execute};
use ratatui::backend::CrosstermBackend;
use ratatui::Terminal;

/// Whether the keyboard enhancement flags were pushed (so restoring pops them).
static ENHANCED: AtomicBool = AtomicBool::new(false);
/// Whether the terminal is in full-screen mode now.
static ACTIVE: AtomicBool = AtomicBool::new(false);

/// The full-screen terminal; restores the terminal when dropped.
pub struct Tui {
    /// The ratatui terminal.
    pub terminal: Terminal<CrosstermBackend<Stdout>>,
    /// Whether the terminal reports key releases (kitty keyboard protocol).
    pub key_releases: bool,
}

impl std::fmt::Debug for Tui {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tui")
            .field("key_releases", &self.key_releases)
            .finish()
    }
}

/// Leaves full-screen mode (idempotent; safe to call from the panic hook).
pub fn restore() {
    if !ACTIVE.swap(false, Ordering::SeqCst) {
        return;
    }
    let mut out = stdout();
    if ENHANCED.swap(false, Ordering::SeqCst) {
        let _ = execute!(out, PopKeyboardEnhancementFlags);
    }
    let _ = execute!(out, LeaveAlternateScreen, cursor::Show);
    let _ = disable_raw_mode();
    let _ = out.flush();
}

fn install_panic_hook() {
    static HOOKED: AtomicBool = AtomicBool::new(false);
    if HOOKED.swap(true, Ordering::SeqCst) {
        return;
    }
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore();
        previous(info);
    }));
}

impl Tui {
    /// Enters full-screen mode. With `want_releases`, asks the terminal to report key
    /// releases where it can (kitty keyboard protocol).
    pub fn enter(want_releases: bool) -> anyhow::Result<Tui> {
        install_panic_hook();
        enable_raw_mode().context("cannot switch the terminal to raw mode")?;
        ACTIVE.store(true, Ordering::SeqCst);
        let mut out = stdout();
        execute!(out, EnterAlternateScreen, cursor::Hide)
            .context("cannot enter the alternate screen")?;
        let mut key_releases = false;
        if want_releases
            && std::env::var_os("NESTRIS_NO_KITTY").is_none()
            && crossterm::terminal::supports_keyboard_enhancement().unwrap_or(false)
        {
            let flags = KeyboardEnhancementFlags::DISAMBIGUATE_ESCAPE_CODES
                | KeyboardEnhancementFlags::REPORT_EVENT_TYPES;
            if execute!(out, PushKeyboardEnhancementFlags(flags)).is_ok() {
                ENHANCED.store(true, Ordering::SeqCst);
                key_releases = true;
            }
        }
        let terminal =
            Terminal::new(CrosstermBackend::new(out)).context("cannot set up the terminal")?;
        Ok(Tui {
            terminal,
            key_releases,
        })
    }
}

impl Drop for Tui {
    fn drop(&mut self) {
        restore();
    }
}
