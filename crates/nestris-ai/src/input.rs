//! How fast the AI may press buttons, in one of the two ways the field writes it:
//!
//! - **A frame mask** (`X.` = a new press every other frame from the spawn, 30 Hz): StackRabbit's
//!   input timeline. Presses fall only on the mask's frames, counted from the piece's first
//!   frame, so at one row a frame (level 29) a piece can be shifted on every other row only.
//! - **Spaced presses** (`30-spaced`, or a mask with `-spaced`): a new press at least the
//!   mask's gap (its fewest frames between presses) after the last one began, on any frame.
//!   The fastest sequence is the mask's (frames 0, 2, 4, ...), but a press after a pause may
//!   fall on any frame: a tuck or spin
//!   can be made on whichever row the piece passes. This is BetaTetris's rule (its tap tables
//!   ask that taps be at least 2 frames apart, and its tucks may start on any frame after
//!   them), the agent whose published results are the field's format. Measured in
//!   docs/experiments.md, "After row 31 (stop 96): the tap rule": it changes a game now and
//!   then and the points not at all, so `--format field` keeps the mask.

use std::str::FromStr;

/// A repeating mask of frames on which a new press may start (`true`). Between presses each
/// button is released for at least one frame, so `X.` (30 Hz) is the fastest possible.
/// With [`InputModel::spaced`], the mask's frames only give the fastest sequence and its gap
/// ([`InputModel::press_gap`]); a press may come on any frame at least a gap after the last.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct InputModel {
    mask: Vec<bool>,
    spaced: bool,
}

/// An input-model string that is neither a known rate nor a frame mask.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad tap speed {0:?}: expected 30, 20, 15, 12 or 10 (Hz), or a frame mask of 'X' and '.' starting with 'X' with no two X in a row, such as X. or X.., either followed by -spaced (presses at least that far apart, on any frame; at most 8 frames apart), such as 30-spaced")]
pub struct InputModelError(pub String);

impl InputModel {
    /// Tapping at `hz` (30, 20, 15, 12 or 10).
    pub fn hz(hz: u32) -> Result<InputModel, InputModelError> {
        let period = match hz {
            30 => 2,
            20 => 3,
            15 => 4,
            12 => 5,
            10 => 6,
            _ => return Err(InputModelError(hz.to_string())),
        };
        Ok(InputModel {
            mask: (0..period).map(|i| i == 0).collect(),
            spaced: false,
        })
    }

    /// The most frames between spaced presses the search keeps as state.
    pub const MAX_SPACED_GAP: usize = 8;

    /// The same speed with presses spaced rather than on the mask's frames: a new press may
    /// start on any frame at least [`InputModel::press_gap`] frames after the last one began
    /// (BetaTetris's rule; the module's notes). A gap over [`InputModel::MAX_SPACED_GAP`]
    /// (slower than 7.5 Hz) is refused.
    pub fn spaced(mut self) -> Result<InputModel, InputModelError> {
        if self.press_gap() > Self::MAX_SPACED_GAP {
            return Err(InputModelError(format!("{}{SPACED}", self.mask_string())));
        }
        self.spaced = true;
        Ok(self)
    }

    /// Whether presses are spaced ([`InputModel::spaced`]) rather than on the mask's frames.
    pub fn is_spaced(&self) -> bool {
        self.spaced
    }

    /// Whether a new press may start on frame `t` (counted from the piece's first active
    /// frame, 0-based) in the mask model; with [`InputModel::spaced`], the frames of the
    /// fastest sequence (pressing as soon as allowed from frame 0), the same in both.
    #[inline]
    pub fn can_press(&self, t: u32) -> bool {
        self.mask[t as usize % self.mask.len()]
    }

    /// Mask length in frames.
    pub fn period(&self) -> usize {
        self.mask.len()
    }

    /// The fewest frames from one press to the next in the mask (cyclically): with
    /// [`InputModel::spaced`], how far apart presses must be.
    pub fn press_gap(&self) -> usize {
        let n = self.mask.len();
        let presses: Vec<usize> = (0..n).filter(|&i| self.mask[i]).collect();
        presses
            .iter()
            .enumerate()
            .map(|(k, &i)| {
                let next = presses.get(k + 1).copied().unwrap_or(presses[0] + n);
                next - i
            })
            .min()
            .unwrap_or(n)
    }

    /// The model as a string (`X.` for 30 Hz, `X.-spaced` for spaced presses at 30 Hz),
    /// which [`InputModel::from_str`] reads back.
    pub fn mask_string(&self) -> String {
        let mask: String = self
            .mask
            .iter()
            .map(|&b| if b { 'X' } else { '.' })
            .collect();
        if self.spaced {
            format!("{mask}{SPACED}")
        } else {
            mask
        }
    }
}

impl Default for InputModel {
    fn default() -> Self {
        InputModel::hz(30).expect("30 Hz is valid")
    }
}

/// The suffix that makes a rate or mask spaced ([`InputModel::spaced`]).
const SPACED: &str = "-spaced";

impl FromStr for InputModel {
    type Err = InputModelError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        if let Some(base) = t.strip_suffix(SPACED) {
            return base
                .parse::<InputModel>()
                .ok()
                .filter(|m| !m.spaced)
                .and_then(|m| m.spaced().ok())
                .ok_or_else(|| InputModelError(s.to_string()));
        }
        if let Ok(hz) = t
            .trim_end_matches("hz")
            .trim_end_matches("Hz")
            .parse::<u32>()
        {
            return InputModel::hz(hz);
        }
        let mask: Option<Vec<bool>> = t
            .chars()
            .map(|c| match c {
                'X' | 'x' => Some(true),
                '.' => Some(false),
                _ => None,
            })
            .collect();
        match mask {
            Some(m)
                if !m.is_empty() && m[0] && !(0..m.len()).any(|i| m[i] && m[(i + 1) % m.len()]) =>
            {
                Ok(InputModel {
                    mask: m,
                    spaced: false,
                })
            }
            _ => Err(InputModelError(s.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses() {
        assert_eq!("30".parse::<InputModel>().unwrap().mask_string(), "X.");
        assert_eq!(
            "X..".parse::<InputModel>().unwrap(),
            InputModel::hz(20).unwrap()
        );
        assert!("XX".parse::<InputModel>().is_err());
        assert!("X.X".parse::<InputModel>().is_err());
        assert!("25".parse::<InputModel>().is_err());
        assert!("".parse::<InputModel>().is_err());
        let spaced = "30-spaced".parse::<InputModel>().unwrap();
        assert!(spaced.is_spaced());
        assert_eq!(spaced.mask_string(), "X.-spaced");
        assert_eq!(spaced.mask_string().parse::<InputModel>().unwrap(), spaced);
        assert_eq!(
            "X..-spaced".parse::<InputModel>().unwrap(),
            InputModel::hz(20).unwrap().spaced().unwrap()
        );
        assert!("X.......-spaced".parse::<InputModel>().is_ok());
        for bad in [
            "-spaced",
            "30-spaced-spaced",
            "XX-spaced",
            "30 spaced",
            "X........-spaced",
        ] {
            let err = bad.parse::<InputModel>().unwrap_err();
            assert!(err.to_string().contains("-spaced"), "{bad}: {err}");
        }
    }
}
