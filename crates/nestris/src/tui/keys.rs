//! The keyboard as a controller: the key map (`--keys`) and which buttons are held on each
//! frame.
//!
//! Where the terminal reports key releases (kitty keyboard protocol), a held key is exactly a
//! held button. Elsewhere a terminal only sends a key again when it autorepeats, so a key
//! counts as held for a few frames after a single press (a tap) and, once it repeats, until
//! no repeat has come for [`REPEAT_GAP`].

use std::collections::HashMap;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use nestris_engine::buttons;

/// Without release events: how long a single press holds its button.
pub const TAP_HOLD: Duration = Duration::from_millis(50);
/// Without release events: a key repeating counts as held until no repeat came for this long.
pub const REPEAT_GAP: Duration = Duration::from_millis(150);

/// What a key does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// A controller button (its bit).
    Button(u8),
    /// Show the AI's best placement.
    Hint,
    /// Quit.
    Quit,
}

/// Names used in `--keys`, with the action each stands for.
const ACTIONS: &[(&str, Action)] = &[
    ("left", Action::Button(buttons::LEFT)),
    ("right", Action::Button(buttons::RIGHT)),
    ("down", Action::Button(buttons::DOWN)),
    ("up", Action::Button(buttons::UP)),
    ("a", Action::Button(buttons::A)),
    ("b", Action::Button(buttons::B)),
    ("start", Action::Button(buttons::START)),
    ("select", Action::Button(buttons::SELECT)),
    ("hint", Action::Hint),
    ("quit", Action::Quit),
];

/// The key bindings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyMap {
    binds: Vec<(KeyCode, Action)>,
}

/// The default bindings, as `--keys` would write them.
pub const DEFAULT_KEYS: &str =
    "left=Left,right=Right,down=Down,up=Up,a=x|j,b=z|k,start=Enter,select=Space|Tab,hint=h,quit=q|Esc";

fn parse_key(s: &str) -> anyhow::Result<KeyCode> {
    let lower = s.to_ascii_lowercase();
    Ok(match lower.as_str() {
        "left" => KeyCode::Left,
        "right" => KeyCode::Right,
        "up" => KeyCode::Up,
        "down" => KeyCode::Down,
        "enter" | "return" => KeyCode::Enter,
        "space" => KeyCode::Char(' '),
        "tab" => KeyCode::Tab,
        "esc" | "escape" => KeyCode::Esc,
        "backspace" => KeyCode::Backspace,
        "comma" => KeyCode::Char(','),
        "pipe" => KeyCode::Char('|'),
        "equals" => KeyCode::Char('='),
        _ => {
            let mut chars = s.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) => KeyCode::Char(c.to_ascii_lowercase()),
                _ => bail!(
                    "unknown key {s:?}: use a single character or one of left, right, up, down, enter, space, tab, esc, backspace, comma, pipe, equals"
                ),
            }
        }
    })
}

/// A key's name as the key map writes it.
pub fn key_name(k: KeyCode) -> String {
    match k {
        KeyCode::Left => "←".into(),
        KeyCode::Right => "→".into(),
        KeyCode::Up => "↑".into(),
        KeyCode::Down => "↓".into(),
        KeyCode::Enter => "Enter".into(),
        KeyCode::Char(' ') => "Space".into(),
        KeyCode::Tab => "Tab".into(),
        KeyCode::Esc => "Esc".into(),
        KeyCode::Backspace => "Bksp".into(),
        KeyCode::Char(c) => c.to_string(),
        other => format!("{other:?}"),
    }
}

impl KeyMap {
    /// The defaults with the entries of `spec` (`name=key|key,...`) replacing the default keys
    /// of each action they name.
    pub fn parse(spec: &str) -> anyhow::Result<KeyMap> {
        let mut map = KeyMap::defaults();
        map.apply(spec)?;
        Ok(map)
    }

    /// The defaults with the entries of a key-map file: TOML lines `action = "key|key"`.
    pub fn from_toml(text: &str) -> anyhow::Result<KeyMap> {
        let table: toml::Table = text.parse().context("not valid TOML")?;
        let mut map = KeyMap::defaults();
        for (k, v) in table {
            let Some(v) = v.as_str() else {
                bail!("{k} must be a string such as \"x|j\"");
            };
            if v.contains([',', '=']) {
                bail!("{k} = {v:?}: a key is one character or a name (write comma or equals for those keys)");
            }
            map.apply(&format!("{k}={v}"))?;
        }
        Ok(map)
    }

    /// The default bindings.
    pub fn defaults() -> KeyMap {
        let mut m = KeyMap { binds: Vec::new() };
        m.apply(DEFAULT_KEYS).expect("the default key map parses");
        m
    }

    fn apply(&mut self, spec: &str) -> anyhow::Result<()> {
        for entry in spec.split(',').map(str::trim).filter(|e| !e.is_empty()) {
            let (name, keys) = entry
                .split_once('=')
                .with_context(|| format!("key map entry {entry:?} is not name=key"))?;
            let name = name.trim().to_ascii_lowercase();
            let action = ACTIONS
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, a)| *a)
                .with_context(|| {
                    format!(
                        "unknown action {name:?} in the key map: use {}",
                        ACTIONS
                            .iter()
                            .map(|(n, _)| *n)
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                })?;
            self.binds.retain(|(_, a)| *a != action);
            for k in keys.split('|').map(str::trim) {
                let code = parse_key(k).with_context(|| format!("key map entry {entry:?}"))?;
                self.binds.retain(|(c, _)| *c != code);
                self.binds.push((code, action));
            }
        }
        Ok(())
    }

    /// The action bound to a key.
    pub fn action(&self, code: KeyCode) -> Option<Action> {
        let code = match code {
            KeyCode::Char(c) => KeyCode::Char(c.to_ascii_lowercase()),
            c => c,
        };
        self.binds.iter().find(|(c, _)| *c == code).map(|(_, a)| *a)
    }

    /// The keys bound to an action, for the help text (`x/j`).
    pub fn keys_for(&self, action: Action) -> String {
        let v: Vec<String> = self
            .binds
            .iter()
            .filter(|(_, a)| *a == action)
            .map(|(c, _)| key_name(*c))
            .collect();
        if v.is_empty() {
            "-".into()
        } else {
            v.join("/")
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct KeyState {
    held: bool,
    events: u32,
    last: Instant,
}

/// Which keys are held, from key events.
#[derive(Debug)]
pub struct Held {
    /// Whether the terminal reports releases.
    pub releases: bool,
    keys: HashMap<KeyCode, KeyState>,
    latched: u8,
}

impl Held {
    /// Tracking for a terminal that reports releases (`true`) or not.
    pub fn new(releases: bool) -> Held {
        Held {
            releases,
            keys: HashMap::new(),
            latched: 0,
        }
    }

    /// Takes a key event for a key bound to `button`.
    pub fn event(&mut self, ev: &KeyEvent, button: u8, now: Instant) {
        let code = normalize(ev.code);
        let st = self.keys.entry(code).or_insert(KeyState {
            held: false,
            events: 0,
            last: now,
        });
        match ev.kind {
            KeyEventKind::Release => {
                st.held = false;
                st.events = 0;
            }
            KeyEventKind::Press | KeyEventKind::Repeat => {
                if !st.held {
                    // A new press: the game sees it for at least one frame, even if released
                    // before the frame.
                    self.latched |= button;
                    st.events = 0;
                }
                st.held = true;
                st.events += 1;
                st.last = now;
            }
        }
        let _ = button;
    }

    /// The controller byte for the frame that starts at `now`, given the key map.
    pub fn frame(&mut self, map: &KeyMap, now: Instant) -> u8 {
        let mut byte = std::mem::take(&mut self.latched);
        let releases = self.releases;
        for (code, st) in self.keys.iter_mut() {
            if !st.held {
                continue;
            }
            if !releases {
                let limit = if st.events >= 2 { REPEAT_GAP } else { TAP_HOLD };
                if now.duration_since(st.last) > limit {
                    st.held = false;
                    st.events = 0;
                    continue;
                }
            }
            if let Some(Action::Button(b)) = map.action(*code) {
                byte |= b;
            }
        }
        byte
    }

    /// Forgets every key (e.g. when the game starts or resumes).
    pub fn clear(&mut self) {
        self.keys.clear();
        self.latched = 0;
    }
}

fn normalize(code: KeyCode) -> KeyCode {
    match code {
        KeyCode::Char(c) => KeyCode::Char(c.to_ascii_lowercase()),
        c => c,
    }
}

/// Ctrl-C as a key (raw mode delivers it as a key event).
pub fn is_ctrl_c(ev: &KeyEvent) -> bool {
    ev.modifiers.contains(KeyModifiers::CONTROL)
        && matches!(ev.code, KeyCode::Char('c') | KeyCode::Char('C'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_overrides() {
        let m = KeyMap::parse("left=a,right=d,a=k").unwrap();
        assert_eq!(
            m.action(KeyCode::Char('a')),
            Some(Action::Button(buttons::LEFT))
        );
        assert_eq!(m.action(KeyCode::Left), None);
        assert_eq!(
            m.action(KeyCode::Char('k')),
            Some(Action::Button(buttons::A))
        );
        assert_eq!(m.action(KeyCode::Char('x')), None);
        assert_eq!(
            m.action(KeyCode::Char('z')),
            Some(Action::Button(buttons::B))
        );
        assert!(KeyMap::parse("jump=space").is_err());
        assert!(KeyMap::parse("left=ctrl").is_err());
        assert!(KeyMap::parse("left").is_err());
    }

    fn press(c: char, kind: KeyEventKind) -> KeyEvent {
        KeyEvent::new_with_kind(KeyCode::Char(c), KeyModifiers::NONE, kind)
    }

    #[test]
    fn fallback_taps_and_repeats() {
        let m = KeyMap::defaults();
        let mut h = Held::new(false);
        let t0 = Instant::now();
        h.event(&press('x', KeyEventKind::Press), buttons::A, t0);
        assert_eq!(h.frame(&m, t0), buttons::A);
        assert_eq!(h.frame(&m, t0 + Duration::from_millis(100)), 0);
        // Autorepeat: held across the gaps between repeats.
        let t1 = t0 + Duration::from_millis(500);
        h.event(&press('x', KeyEventKind::Press), buttons::A, t1);
        h.event(
            &press('x', KeyEventKind::Press),
            buttons::A,
            t1 + Duration::from_millis(30),
        );
        assert_eq!(h.frame(&m, t1 + Duration::from_millis(130)), buttons::A);
        assert_eq!(h.frame(&m, t1 + Duration::from_millis(400)), 0);
    }

    #[test]
    fn releases_are_exact() {
        let m = KeyMap::defaults();
        let mut h = Held::new(true);
        let t0 = Instant::now();
        h.event(&press('x', KeyEventKind::Press), buttons::A, t0);
        assert_eq!(h.frame(&m, t0 + Duration::from_secs(5)), buttons::A);
        h.event(&press('x', KeyEventKind::Release), buttons::A, t0);
        assert_eq!(h.frame(&m, t0 + Duration::from_secs(5)), 0);
        // Pressed and released between two frames: seen for one frame.
        h.event(&press('x', KeyEventKind::Press), buttons::A, t0);
        h.event(&press('x', KeyEventKind::Release), buttons::A, t0);
        assert_eq!(h.frame(&m, t0), buttons::A);
        assert_eq!(h.frame(&m, t0), 0);
    }
}
