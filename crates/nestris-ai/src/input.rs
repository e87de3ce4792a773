//! How fast the AI may press buttons: a repeating frame mask (`X.` = a new press every other
//! frame, 30 Hz), as the field writes it.

use std::str::FromStr;

/// A repeating mask of frames on which a new press may start (`true`). Between presses each
/// button is released for at least one frame, so `X.` (30 Hz) is the fastest possible.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct InputModel {
    mask: Vec<bool>,
}

/// An input-model string that is neither a known rate nor a frame mask.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad tap speed {0:?}: expected 30, 20, 15, 12 or 10 (Hz), or a frame mask of 'X' and '.' starting with 'X' with no two X in a row, such as X. or X..")]
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
        })
    }

    /// Whether a new press may start on frame `t` (counted from the piece's first active
    /// frame, 0-based).
    #[inline]
    pub fn can_press(&self, t: u32) -> bool {
        self.mask[t as usize % self.mask.len()]
    }

    /// Mask length in frames.
    pub fn period(&self) -> usize {
        self.mask.len()
    }

    /// The mask as a string (`X.` for 30 Hz).
    pub fn mask_string(&self) -> String {
        self.mask
            .iter()
            .map(|&b| if b { 'X' } else { '.' })
            .collect()
    }
}

impl Default for InputModel {
    fn default() -> Self {
        InputModel::hz(30).expect("30 Hz is valid")
    }
}

impl FromStr for InputModel {
    type Err = InputModelError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
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
                Ok(InputModel { mask: m })
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
    }
}
