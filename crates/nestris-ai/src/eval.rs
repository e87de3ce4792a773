//! Board evaluation: a weighted sum of named features (lower is better), with the weights as
//! data (a TOML file or a built-in preset).
//!
//! Features whose weight is zero are not computed: features are grouped by the work they need
//! (heights only, column bits, row scans), and a group is skipped when all its weights are zero.

use std::sync::OnceLock;

use crate::board::{Board, ROWS};
use crate::search::{BoardBefore, IReachPaths};

/// Every feature, by name, with what it measures. Names are the weights file's keys.
pub const FEATURES: [(&str, &str); 40] = [
    ("lines_cleared", "lines cleared by the placed pieces"),
    (
        "lock_height",
        "sum of the placed pieces' lock heights (rows above the floor)",
    ),
    (
        "well_cells",
        "empty cells above a column's top with both neighbours (or walls) filled",
    ),
    ("deep_wells", "columns with 3 or more well cells"),
    (
        "column_holes",
        "runs of empty cells directly beneath a filled cell",
    ),
    (
        "weighted_holes",
        "holes weighted by depth from the top (row index + 1)",
    ),
    (
        "hole_depth_total",
        "sum over holes of the rows between the hole and its column top",
    ),
    ("hole_depth_min", "smallest hole depth (20 without holes)"),
    ("hole_depth_max", "largest hole depth (0 without holes)"),
    (
        "column_transitions",
        "filled/empty changes down each column below its top",
    ),
    (
        "row_transitions",
        "filled/empty changes along each non-empty row, walls filled",
    ),
    ("column_heights", "sum of column heights"),
    ("pile_height", "height of the tallest column"),
    ("height_spread", "tallest minus shortest column"),
    ("solid_cells", "filled cells"),
    (
        "weighted_solid_cells",
        "filled cells weighted by height (bottom row 1)",
    ),
    (
        "bumpiness",
        "sum of |height difference| of neighbouring columns",
    ),
    ("holes", "empty cells with a filled cell somewhere above"),
    (
        "covered_cells",
        "filled cells above the deepest hole of each column",
    ),
    (
        "bumpiness_sq",
        "sum of squared neighbour height differences, the well column's sides excluded",
    ),
    (
        "well_depth",
        "rows the well column (well_column; the rightmost by default) is below its lower neighbour, at most 4",
    ),
    ("well_blocks", "filled cells in the well column"),
    ("burns", "lines cleared by singles, doubles and triples"),
    ("tetrises", "number of four-line clears"),
    ("points", "points scored by the placed pieces, in thousands"),
    (
        "danger",
        "sum over columns of the squared height above danger_height",
    ),
    (
        "hidden_blocks",
        "filled cells in the two hidden rows above the field",
    ),
    (
        "i_dependency",
        "columns that only an I piece can fill (3+ deep, 1 wide), beyond the first",
    ),
    (
        "unreachable_columns",
        "columns a vertical I cannot reach at this level and tap speed",
    ),
    (
        "surface",
        "of the next 10 pieces, how many the nine columns beside the well are expected not to \
         take without a hole (the surface table)",
    ),
    (
        "low_burns",
        "burns times the rows the final stack's tallest column stands below danger_height: \
         a burn on a low stack, where waiting for the I costs no risk",
    ),
    (
        "unreachable_gaps",
        "rows that the columns a vertical I cannot reach (the well aside) stand below their \
         lower neighbour (a wall counts as the other neighbour's height)",
    ),
    (
        "excess_ready",
        "Tetris-ready rows (full but for the open well, from its bottom up) beyond the four one \
         I clears: height that waits for two I pieces",
    ),
    (
        "well_unreachable",
        "1 when a vertical I cannot reach the well column (well_column) at this level and tap \
         speed: the rows that wait for the well can no longer be cleared",
    ),
    (
        "board_value",
        "the board's value learned from self-play (the value table, fitted on the double \
         killscreen's boards, well in column 5): the discounted points to come, in thousands",
    ),
    (
        "steep_steps",
        "sum over neighbour columns beside the well of the squared rows by which their height \
         difference exceeds 3: the depth the surface table's +-3 clamp does not see",
    ),
    (
        "drought_risk",
        "when the well is 3 or more rows deep (only an I clears it): 100 times the chance that \
         no I comes among the pieces the stack still holds, the cells below drought_top \
         (danger_height + 6 unless set) beside the well over four, each a piece other than an \
         I with chance 0.8393",
    ),
    (
        "well_side_pit",
        "rows beyond one by which a column beside the open well stands below its other \
         neighbour (a wall counts as 20), at most 3: a pit that only a vertical I, or a J hooked \
         over its neighbour, fills without reaching into the well, so without burning lines",
    ),
    (
        "far_side_shortfall",
        "rows by which the lowest column on the well's far side from the spawn (left of a well \
         in columns 0-4, right of one in 5-9) stands below the mean height of the columns on \
         the near side: under the double killscreen only a low stack lets pieces cross the \
         well to fill the far side, and a row is cleared only once it is full there too",
    ),
    (
        "low_holes",
        "holes times the rows the tallest column stands below danger_height: a hole kept on \
         a low stack, where nothing forces it (a tall stack may need to cover the well)",
    ),
];

/// The `far_side_shortfall` feature: the columns beyond the well, seen from the spawn
/// columns (4-6), are reached only by crossing the well and the columns beside it. Under the
/// double killscreen a piece falls 4 rows for each column it is tapped, so once the near side
/// grows the far side is sealed off, and every row above it waits for cells nothing can put
/// there (README, "After row 23": the double killscreen's lost games stood with column 0
/// several rows below its neighbours). The feature is the mean height of the near side less
/// the lowest far-side column's height, when positive. Measured in the double killscreen's
/// table on the proxy of README "Row 24" (weight 20: -17,280 +- 11,337 a game; 40: -42,200
/// +- 11,196): raising the far side costs Tetrises and saves no game, so no preset uses it;
/// pricing the ready rows beyond four (`excess_ready`, row 24) keeps the stack low enough to
/// cross instead.
fn far_side_shortfall(h: &[u32; 10], well: usize) -> f64 {
    let (far, near) = if well < 5 {
        (0..well, well + 1..10)
    } else {
        (well + 1..10, 0..well)
    };
    let Some(low) = h[far].iter().min() else {
        return 0.0;
    };
    let near = &h[near];
    let mean = near.iter().sum::<u32>() as f64 / near.len() as f64;
    (mean - *low as f64).max(0.0)
}

/// The `well_side_pit` feature: for each column beside the well, while the well is open to
/// at least its top, the rows beyond one by which it stands below its neighbour away from the
/// well (a wall counts as 20), at most 3 each. Filling such a pit with anything but a vertical
/// I (or, two rows deep, a J hooked over the neighbour) puts a cell in the well, which clears
/// the rows it completes one or two at a time: the singles that a stack with the column beside
/// the well left low makes (README, "the pit beside the well").
fn well_side_pits(h: &[u32; 10], well: usize) -> u32 {
    let mut pits = 0;
    for side in [well.checked_sub(1), (well < 9).then_some(well + 1)] {
        let Some(n) = side else { continue };
        if h[well] > h[n] {
            continue;
        }
        let other = if n < well {
            n.checked_sub(1)
        } else {
            (n < 9).then_some(n + 1)
        };
        let top = other.map_or(20, |o| h[o]);
        pits += top.saturating_sub(h[n]).saturating_sub(1).min(3);
    }
    pits
}

/// `danger`'s term of each column height 0..=22 for a danger height: `(h - height)^2` above
/// it, 0 at or below it.
fn danger_table(height: f64) -> [f64; ROWS + 1] {
    std::array::from_fn(|h| {
        let over = h as f64 - height;
        if over > 0.0 {
            over * over
        } else {
            0.0
        }
    })
}

/// The features with a non-zero weight in `w`, in feature order, with their weights (the
/// first of the count returned).
fn terms_of(w: &Weights) -> ([(u8, f64); FEATURES.len()], usize) {
    let mut terms = [(0u8, 0.0); FEATURES.len()];
    let mut n = 0;
    for (i, &wi) in w.w.iter().enumerate() {
        if wi != 0.0 {
            terms[n] = (i as u8, wi);
            n += 1;
        }
    }
    (terms, n)
}

/// Column heights from the column words: 22 minus the top block's row index.
#[inline]
fn heights_of(cols: &[u32; 10]) -> [u32; 10] {
    cols.map(|c| {
        if c == 0 {
            0
        } else {
            ROWS as u32 - c.trailing_zeros()
        }
    })
}

/// The rows of a column word (not empty) from its top block down, the top block included:
/// its empty cells among them are its holes.
#[inline]
fn rows_from_top(c: u32) -> u32 {
    debug_assert!(c != 0, "an empty column has no top");
    ((1u32 << ROWS) - 1) & (u32::MAX << c.trailing_zeros())
}

/// The height of column `x`'s lower neighbour (a wall counts as the other one's height).
fn lower_neighbour(h: &[u32; 10], x: usize) -> u32 {
    match x {
        0 => h[1],
        9 => h[8],
        x => h[x - 1].min(h[x + 1]),
    }
}

/// The `drought_risk` feature: a well 3 or more rows deep waits for an I (any other piece
/// put in it leaves holes), and the stack beside it holds only so many other pieces before
/// it tops out. With `n` the empty cells below `top` rows in the nine other columns over
/// four (the pieces they hold), the chance that none of them is an I is `q^n`, where `q`
/// is [`DROUGHT_NOT_I`]. The term prices the tail of a drought that the search's few plies
/// cannot see: a stack that waits on the I is priced by the room it has left, not by its
/// tallest columns alone (`danger`). In hundredths. `top` is [`Weights::drought_top`].
fn drought_risk(h: &[u32; 10], well: usize, top: f64) -> f64 {
    if lower_neighbour(h, well).saturating_sub(h[well]) < 3 {
        return 0.0;
    }
    let room: f64 = (0..10)
        .filter(|&x| x != well)
        .map(|x| (top - h[x] as f64).max(0.0))
        .sum();
    100.0 * DROUGHT_NOT_I.powf(room / 4.0)
}

/// `drought_risk`'s chance of a piece other than an I after another piece: 1 - 1/8 - 2/8 x
/// 1/7 = 0.8393, the NES picker's reroll taken as even over the seven pieces. The picker's
/// exact chance ([`crate::player::next_piece_probabilities`]) is 0.84375 after most pieces
/// (its reroll counts one piece twice); the measured weights were made with this value.
const DROUGHT_NOT_I: f64 = 1.0 - 1.0 / 8.0 - 2.0 / 8.0 / 7.0;

/// Tunable numbers that are not feature weights.
pub const PARAMS: [(&str, &str); 3] = [
    (
        "danger_height",
        "column height from which the danger feature counts (default 12)",
    ),
    (
        "well_column",
        "the well's column, 0-9 from the left (default 9, the rightmost), for well_depth, \
         well_blocks and bumpiness_sq",
    ),
    (
        "drought_top",
        "the height up to which drought_risk counts the room a stack has left, 1-20 rows \
         (default: danger_height + 6)",
    ),
];

/// Whether `name` is one of [`PARAMS`].
fn is_param(name: &str) -> bool {
    PARAMS.iter().any(|(n, _)| *n == name)
}

/// Weights: one per feature in [`FEATURES`] order, plus parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    /// Preset or file name.
    pub name: String,
    /// One weight per feature.
    pub w: [f64; FEATURES.len()],
    /// Height from which `danger` counts.
    pub danger_height: f64,
    /// The well's column (0 is the leftmost; 9 by default): `well_depth`, `well_blocks` and
    /// `bumpiness_sq` measure the board around it. Under the double killscreen, the vertical
    /// I reaches a middle column on boards where it no longer reaches the edges.
    pub well_column: u8,
    /// The height up to which `drought_risk` counts a stack's room, in rows; `None`:
    /// `danger_height + 6` (the feature as first measured, which moved its ceiling with the
    /// danger height).
    pub drought_top: Option<f64>,
    /// Weights used from level 29 on (the killscreen: one row a frame), if different.
    pub killscreen: Option<Box<Weights>>,
    /// Weights used in B-type games (clear 25 lines over garbage: survival, not points), if
    /// different.
    pub b_type: Option<Box<Weights>>,
    /// Weights used before level 19 in A-type games (the slow speed band: three or more
    /// frames a row; the field's format starts at level 18), if different. They start from
    /// the base weights.
    pub before_19: Option<Box<Weights>>,
    /// Weights used under the double killscreen (a departure: two rows a frame from level 39)
    /// from level [`Weights::from_level`] of that table on, if different. They start from the
    /// killscreen weights.
    pub double_killscreen: Option<Box<Weights>>,
    /// For an override table: the level from which it is used (29 for `[killscreen]`, 39 by
    /// default for `[double_killscreen]`, where an earlier level prepares the stack for it).
    pub from_level: u8,
    /// For the `[double_killscreen]` table (`ready_from`): the level from which, before the
    /// table's own `from_level`, the killscreen weights measure the vertical I's reach
    /// (`unreachable_columns`) at two rows a frame, so the stack is made ready for the double
    /// killscreen while the killscreen table still plays.
    pub ready_from: Option<u8>,
    /// For the `[killscreen]` table (`ready_lines`): in the last this many lines of level 28
    /// it plays already, its vertical I's reach (`unreachable_columns`, `unreachable_gaps`)
    /// measured at level 29's gravity, so that the stack meets the killscreen as its table
    /// keeps it (in every game that gets there from the menu, level 29 comes at the next
    /// multiple of ten lines). For the `[double_killscreen]` table, the same in the last
    /// this many lines of the level before its `from_level` (level 38 in the field's format),
    /// its reach measured at two rows a frame.
    pub ready_lines: Option<u16>,
    /// For the `[before_19]` table (`until_lines`): the line count from which it gives way
    /// to the base weights before level 19, so that the stack meets level 19's speed as
    /// those weights keep it (the field's format reaches level 19 at 130 lines).
    pub until_lines: Option<u16>,
    /// Weights used in the last [`Weights::lines_left`] lines before the line cap (a
    /// departure: the field's format stops the game at 430 lines), where the double
    /// killscreen's table is in force and the player knows the cap, if different. They start
    /// from the double killscreen's weights. Near the cap a top-out costs only the few lines
    /// left, so a Tetris is worth more risk there.
    pub endgame: Option<Box<Weights>>,
    /// For the `[endgame]` table (`lines_left`): how many lines before the cap it plays.
    /// For the `[killscreen_end]` table: how many lines before the double killscreen's table
    /// takes over it plays.
    pub lines_left: Option<u16>,
    /// Weights used under the double killscreen (a departure) in the last
    /// [`Weights::lines_left`] lines before the double killscreen's table takes over (its
    /// `from_level`, less its `ready_lines`), if different. They start from the killscreen
    /// weights and measure the vertical I's reach as the killscreen table does. A stack that
    /// meets two rows a frame tall or with holes is lost there far more often (README,
    /// "After row 24: the stack the double killscreen starts on").
    pub killscreen_end: Option<Box<Weights>>,
}

/// A weights file or preset name that cannot be used.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum WeightsError {
    /// Not valid TOML.
    #[error("not valid TOML: {0}")]
    Toml(String),
    /// A key that is not a feature or parameter.
    #[error("unknown feature {name:?} (valid: {valid})")]
    UnknownFeature {
        /// The key.
        name: String,
        /// The valid names.
        valid: String,
    },
    /// A value that is not a finite number.
    #[error("feature {name:?}: expected a finite number, found {found}")]
    NotANumber {
        /// The key.
        name: String,
        /// What was there.
        found: String,
    },
    /// A setting (a level, column or line count) that is not a whole number in its range.
    #[error("{name} = {found}: expected {expected}")]
    BadSetting {
        /// The key (with its table, e.g. `double_killscreen.from_level`).
        name: String,
        /// What was there.
        found: String,
        /// What it must be.
        expected: String,
    },
    /// An unknown preset.
    #[error("unknown AI preset {0:?} (valid: {presets})", presets = PRESETS.join(", "))]
    UnknownPreset(String),
    /// A weight or parameter outside the range the evaluation can add up.
    #[error("{name} = {value:e} is out of range ({range})")]
    OutOfRange {
        /// The key (with its table, e.g. `killscreen.holes`).
        name: String,
        /// The value.
        value: f64,
        /// The valid range.
        range: String,
    },
    /// Weights the AI cannot play with: every weight of a table in use is zero, so every
    /// placement is as good as any other.
    #[error("cannot play: {0}")]
    CannotPlay(String),
}

/// Largest magnitude of a weight: the evaluation adds weights times feature values (up to a
/// few thousand) over dozens of features and must stay finite and ordered.
pub const MAX_WEIGHT: f64 = 1e12;

/// Weights of magnitude above this are accepted with a warning.
pub const SUSPICIOUS_WEIGHT: f64 = 1e6;

/// The largest `[before_19] until_lines`: the game's line counter shows three digits.
pub const MAX_UNTIL_LINES: u16 = 999;

/// Built-in presets.
pub const PRESETS: [&str; 2] = ["default", "meatfighter-2014"];

/// The most lines `[killscreen_end]` may play before the double killscreen's table: three
/// levels.
pub const MAX_KILLSCREEN_END_LINES: u16 = 30;

/// The phase of the `[endgame]` table ([`Weights::phase_capped`]).
pub const ENDGAME_PHASE: usize = 5;

/// Takes the setting `table.key` out of a table's pairs: a line count `1..=max`, or `None`
/// when the table does not have it. `why` follows the range in the error (or is empty).
fn take_line_count(
    pairs: &mut toml::map::Map<String, toml::Value>,
    name: &str,
    max: u16,
    why: &str,
) -> Result<Option<u16>, WeightsError> {
    let key = name.rsplit('.').next().unwrap_or(name);
    match pairs.remove(key) {
        None => Ok(None),
        Some(toml::Value::Integer(i)) if (1..=i64::from(max)).contains(&i) => Ok(Some(i as u16)),
        Some(other) => Err(line_count_error(name, other.to_string(), max, why)),
    }
}

/// The error for a line count setting `name` that is not one (`found`).
fn line_count_error(name: &str, found: String, max: u16, why: &str) -> WeightsError {
    WeightsError::BadSetting {
        name: name.into(),
        found,
        expected: format!("a line count 1..={max}{why}"),
    }
}

fn idx(name: &str) -> usize {
    FEATURES
        .iter()
        .position(|(n, _)| *n == name)
        .expect("known feature")
}

impl Weights {
    /// All weights zero.
    pub fn zero(name: &str) -> Weights {
        Weights {
            name: name.to_string(),
            w: [0.0; FEATURES.len()],
            danger_height: 12.0,
            well_column: 9,
            drought_top: None,
            killscreen: None,
            b_type: None,
            before_19: None,
            double_killscreen: None,
            from_level: 0,
            ready_from: None,
            ready_lines: None,
            until_lines: None,
            endgame: None,
            lines_left: None,
            killscreen_end: None,
        }
    }

    /// Sets one weight by name (panics on an unknown name: for presets and tests).
    pub fn with(mut self, name: &str, v: f64) -> Weights {
        self.w[idx(name)] = v;
        self
    }

    /// The ceiling of `drought_risk` in rows: [`Weights::drought_top`], or `danger_height +
    /// 6` when it is not set.
    pub fn drought_ceiling(&self) -> f64 {
        self.drought_top.unwrap_or(self.danger_height + 6.0)
    }

    /// Weight of a feature by name.
    pub fn get(&self, name: &str) -> f64 {
        self.w[idx(name)]
    }

    /// The seed article's AI (2014): six features and its published weights.
    pub fn meatfighter_2014() -> Weights {
        Weights::zero("meatfighter-2014")
            .with("lines_cleared", 1.0)
            .with("lock_height", 12.885008263218383)
            .with("well_cells", 15.842707182438396)
            .with("column_holes", 26.89449650779595)
            .with("column_transitions", 27.616914062397015)
            .with("row_transitions", 30.18511071927904)
    }

    /// A preset by name.
    pub fn preset(name: &str) -> Result<Weights, WeightsError> {
        match name {
            "default" => Ok(Weights::default()),
            "meatfighter-2014" | "meatfighter" => Ok(Weights::meatfighter_2014()),
            other => Err(WeightsError::UnknownPreset(other.to_string())),
        }
    }

    /// Reads weights from TOML: `name`, `danger_height` and `[weights]` with `feature = value`
    /// pairs (keys from [`FEATURES`]; features not named are zero), and optionally
    /// `[killscreen]`: overrides used from level 29 on (`danger_height` may be overridden
    /// there too), optionally `[b_type]`: overrides used in B-type games (starting from
    /// `[weights]`), `[before_19]`: overrides used before level 19 in A-type games (starting
    /// from `[weights]`), and `[double_killscreen]`: overrides used when the game has the double
    /// killscreen on, from level `from_level` (default 39) of that table (starting from the
    /// killscreen weights), and `[endgame]`: overrides used in the last `lines_left` lines
    /// before a line cap the player knows, where the double killscreen's table plays
    /// (starting from it; the file must have that table). A file without a `[weights]`
    /// table may give the pairs at the top level.
    pub fn from_toml(text: &str) -> Result<Weights, WeightsError> {
        let value: toml::Table = text
            .parse()
            .map_err(|e: toml::de::Error| WeightsError::Toml(e.to_string()))?;
        let name = match value.get("name") {
            None => "file".to_string(),
            Some(toml::Value::String(s)) => s.clone(),
            Some(other) => {
                return Err(WeightsError::NotANumber {
                    name: "name".into(),
                    found: format!("{other} (expected a string)"),
                })
            }
        };
        let mut w = Weights::zero(&name);
        let top_level_pairs = !value.contains_key("weights");
        for (k, v) in &value {
            match k.as_str() {
                "name" => {}
                "weights" | "killscreen" | "b_type" | "before_19" | "double_killscreen"
                | "endgame" | "killscreen_end" => {
                    if !v.is_table() {
                        return Err(WeightsError::NotANumber {
                            name: k.clone(),
                            found: format!("{v} (expected a table)"),
                        });
                    }
                }
                _ if is_param(k) || top_level_pairs => w.set_pair(k, v)?,
                _ => {
                    return Err(WeightsError::UnknownFeature {
                        name: k.clone(),
                        valid: "name, danger_height, well_column, drought_top, [weights], [killscreen], [b_type], [before_19], [double_killscreen], [endgame], [killscreen_end]".into(),
                    })
                }
            }
        }
        if let Some(toml::Value::Table(t)) = value.get("weights") {
            for (k, v) in t {
                w.set_pair(k, v)?;
            }
        }
        if let Some(toml::Value::Table(t)) = value.get("killscreen") {
            let mut pairs = t.clone();
            let ready_lines = take_line_count(
                &mut pairs,
                "killscreen.ready_lines",
                10,
                " (level 28 lasts ten lines)",
            )?;
            let mut ks = w.override_table(format!("{name} (killscreen)"), 29, &pairs)?;
            ks.ready_lines = ready_lines;
            w.killscreen = Some(ks);
        }
        if let Some(toml::Value::Table(t)) = value.get("double_killscreen") {
            let mut pairs = t.clone();
            let mut level = |key: &str| match pairs.remove(key) {
                None => Ok(None),
                Some(toml::Value::Integer(i)) if (19..=255).contains(&i) => Ok(Some(i as u8)),
                Some(other) => Err(WeightsError::BadSetting {
                    name: format!("double_killscreen.{key}"),
                    found: other.to_string(),
                    expected: "a level 19..=255".into(),
                }),
            };
            let from_level = level("from_level")?;
            let ready_from = level("ready_from")?;
            let ready_lines = take_line_count(
                &mut pairs,
                "double_killscreen.ready_lines",
                10,
                " (a level lasts ten lines)",
            )?;
            let mut d = w.at_level(29).override_table(
                format!("{name} (double killscreen)"),
                from_level.unwrap_or(nestris_engine::game::DOUBLE_KILLSCREEN_LEVEL),
                &pairs,
            )?;
            d.ready_from = ready_from;
            d.ready_lines = ready_lines;
            w.double_killscreen = Some(d);
        }
        if let Some(toml::Value::Table(t)) = value.get("endgame") {
            let Some(d) = &w.double_killscreen else {
                return Err(WeightsError::BadSetting {
                    name: "endgame".into(),
                    found: "a table".into(),
                    expected: "a [double_killscreen] table beside it (the endgame starts from its weights)".into(),
                });
            };
            let mut pairs = t.clone();
            let left = take_line_count(&mut pairs, "endgame.lines_left", MAX_UNTIL_LINES, "")?
                .ok_or_else(|| {
                    line_count_error("endgame.lines_left", "nothing".into(), MAX_UNTIL_LINES, "")
                })?;
            let mut e = d.override_table(format!("{name} (endgame)"), d.from_level, &pairs)?;
            e.lines_left = Some(left);
            e.ready_from = None;
            e.ready_lines = None;
            w.endgame = Some(e);
        }
        if let Some(toml::Value::Table(t)) = value.get("killscreen_end") {
            let mut pairs = t.clone();
            let left = take_line_count(
                &mut pairs,
                "killscreen_end.lines_left",
                MAX_KILLSCREEN_END_LINES,
                " (before the double killscreen's table)",
            )?
            .ok_or_else(|| {
                line_count_error(
                    "killscreen_end.lines_left",
                    "nothing".into(),
                    MAX_KILLSCREEN_END_LINES,
                    " (before the double killscreen's table)",
                )
            })?;
            let mut k =
                w.at_level(29)
                    .override_table(format!("{name} (killscreen end)"), 29, &pairs)?;
            k.lines_left = Some(left);
            k.ready_from = None;
            k.ready_lines = None;
            w.killscreen_end = Some(k);
        }
        if let Some(toml::Value::Table(t)) = value.get("b_type") {
            let b = w.override_table(format!("{name} (B-type)"), w.from_level, t)?;
            w.b_type = Some(b);
        }
        if let Some(toml::Value::Table(t)) = value.get("before_19") {
            let mut pairs = t.clone();
            let until = take_line_count(&mut pairs, "before_19.until_lines", MAX_UNTIL_LINES, "")?;
            let mut b =
                w.override_table(format!("{name} (before level 19)"), w.from_level, &pairs)?;
            b.until_lines = until;
            w.before_19 = Some(b);
        }
        w.check_playable(&value)?;
        Ok(w)
    }

    /// The tables of these weights in use, with the name a file gives each.
    fn tables(&self) -> Vec<(&'static str, &Weights)> {
        let mut t = vec![("[weights]", self)];
        if let Some(k) = &self.killscreen {
            t.push(("[killscreen]", k));
        }
        if let Some(b) = &self.b_type {
            t.push(("[b_type]", b));
        }
        if let Some(b) = &self.before_19 {
            t.push(("[before_19]", b));
        }
        if let Some(d) = &self.double_killscreen {
            t.push(("[double_killscreen]", d));
        }
        if let Some(e) = &self.endgame {
            t.push(("[endgame]", e));
        }
        if let Some(k) = &self.killscreen_end {
            t.push(("[killscreen_end]", k));
        }
        t
    }

    /// Refuses weights the AI cannot play with: a weight beyond [`MAX_WEIGHT`], or a table in
    /// use whose weights are all zero (an empty file, a file with only a name, or only a
    /// `[killscreen]` table leaves the weights used before level 29 all zero).
    fn check_playable(&self, file: &toml::Table) -> Result<(), WeightsError> {
        for (table, w) in self.tables() {
            let prefix = match table {
                "[weights]" => String::new(),
                t => format!("{}.", t.trim_matches(['[', ']'])),
            };
            for (i, (name, _)) in FEATURES.iter().enumerate() {
                if w.w[i].is_nan() || w.w[i].abs() > MAX_WEIGHT {
                    return Err(WeightsError::OutOfRange {
                        name: format!("{prefix}{name}"),
                        value: w.w[i],
                        range: format!("-{MAX_WEIGHT:e}..={MAX_WEIGHT:e}"),
                    });
                }
            }
            if w.w.iter().all(|&x| x == 0.0) {
                let why = if file.is_empty() {
                    "the file is empty: it gives no weights".to_string()
                } else if file.keys().all(|k| k == "name" || is_param(k)) {
                    "the file gives no weights (only a name)".to_string()
                } else if table == "[weights]" {
                    format!(
                        "every weight used before level 29 ({table}, or pairs at the top level) is zero{}",
                        if self.killscreen.is_some() && !file.contains_key("weights") {
                            " (the file has a [killscreen] table but no [weights] table)"
                        } else {
                            ""
                        }
                    )
                } else {
                    format!("every weight of the {table} table is zero")
                };
                return Err(WeightsError::CannotPlay(format!(
                    "{why}; the AI needs at least one non-zero feature weight (see `nestris watch --help` and README, \"The AI\")"
                )));
            }
        }
        Ok(())
    }

    /// Warnings about weights that can play but look wrong: a weight of magnitude above
    /// [`SUSPICIOUS_WEIGHT`], a danger height outside 0..=20 rows, or a table with a single
    /// non-zero weight.
    pub fn warnings(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (table, w) in self.tables() {
            for (i, (name, _)) in FEATURES.iter().enumerate() {
                if w.w[i].abs() > SUSPICIOUS_WEIGHT {
                    out.push(format!(
                        "{table} {name} = {:e} is very large (above {SUSPICIOUS_WEIGHT:e}): the other features hardly count",
                        w.w[i]
                    ));
                }
            }
            if !(0.0..=20.0).contains(&w.danger_height) {
                out.push(format!(
                    "{table} danger_height = {} is outside the playfield's 0..=20 rows",
                    w.danger_height
                ));
            }
            let nonzero = w.w.iter().filter(|&&x| x != 0.0).count();
            if nonzero == 1 {
                out.push(format!(
                    "{table} has a single non-zero weight: the AI will play poorly"
                ));
            }
        }
        out
    }

    fn set_pair(&mut self, k: &str, v: &toml::Value) -> Result<(), WeightsError> {
        if k == "well_column" {
            self.well_column = match v {
                toml::Value::Integer(i) if (0..=9).contains(i) => *i as u8,
                other => {
                    return Err(WeightsError::BadSetting {
                        name: k.to_string(),
                        found: other.to_string(),
                        expected: "a column 0..=9".into(),
                    })
                }
            };
            return Ok(());
        }
        let num = match v {
            toml::Value::Float(f) if f.is_finite() => *f,
            toml::Value::Integer(i) => *i as f64,
            other => {
                return Err(WeightsError::NotANumber {
                    name: k.to_string(),
                    found: other.to_string(),
                })
            }
        };
        if k == "danger_height" {
            self.danger_height = num;
        } else if k == "drought_top" {
            if !(1.0..=20.0).contains(&num) {
                return Err(WeightsError::BadSetting {
                    name: k.to_string(),
                    found: v.to_string(),
                    expected: "a height of 1..=20 rows".into(),
                });
            }
            self.drought_top = Some(num);
        } else if let Some(i) = FEATURES.iter().position(|(n, _)| *n == k) {
            self.w[i] = num;
        } else {
            let mut valid: Vec<&str> = FEATURES.iter().map(|(n, _)| *n).collect();
            valid.extend(PARAMS.iter().map(|(n, _)| *n));
            return Err(WeightsError::UnknownFeature {
                name: k.to_string(),
                valid: valid.join(", "),
            });
        }
        Ok(())
    }

    /// The weights in force at `level` (A-type).
    pub fn at_level(&self, level: u8) -> &Weights {
        match &self.killscreen {
            Some(k) if level >= 29 => k,
            _ => self,
        }
    }

    /// Renames the weights and each of their tables, as a file named `name` names them
    /// (`NAME (killscreen)`, `NAME (B-type)`, ...).
    pub fn set_name(&mut self, name: String) {
        let sub = |t: &mut Option<Box<Weights>>, what: &str| {
            if let Some(t) = t {
                t.name = format!("{name} ({what})");
            }
        };
        sub(&mut self.killscreen, "killscreen");
        sub(&mut self.double_killscreen, "double killscreen");
        sub(&mut self.endgame, "endgame");
        sub(&mut self.killscreen_end, "killscreen end");
        sub(&mut self.b_type, "B-type");
        sub(&mut self.before_19, "before level 19");
        self.name = name;
    }

    /// The weights of each phase, indexed by [`Weights::phase`]: levels 19-28 (and below 19
    /// without a `[before_19]` table), from 29 on, B-type, under the double killscreen, and
    /// before level 19 (each the base weights, or the killscreen weights under the double
    /// killscreen, where its table is absent), the endgame ([`Weights::phase_capped`];
    /// the double killscreen's weights where its table is absent), and the killscreen's end
    /// under the double killscreen (the killscreen weights where its table is absent).
    pub fn phases(&self) -> [&Weights; 7] {
        let double = self
            .double_killscreen
            .as_deref()
            .unwrap_or_else(|| self.at_level(29));
        [
            self,
            self.at_level(29),
            self.b_type.as_deref().unwrap_or(self),
            double,
            self.before_19.as_deref().unwrap_or(self),
            self.endgame.as_deref().unwrap_or(double),
            self.killscreen_end
                .as_deref()
                .unwrap_or_else(|| self.at_level(29)),
        ]
    }

    /// Which of [`Weights::phases`] is in force at `level` with `lines` cleared (the line
    /// count, not the game's BCD counter), in a B-type game or not, with the double killscreen
    /// (a departure) on or off. The killscreen table plays from level 29, and in the last
    /// `ready_lines` lines of level 28 when it has that key; the double killscreen's from its
    /// `from_level`, and in the last `ready_lines` lines of the level before when it has that
    /// key; the `[killscreen_end]` table (phase 6) from level 29 in the last `lines_left`
    /// lines before the double killscreen's table (without one, before level 39).
    pub fn phase(&self, level: u8, lines: u32, double_killscreen: bool, b_type: bool) -> usize {
        let before_19 = |b: &Weights| b.until_lines.is_none_or(|u| lines < u32::from(u));
        // Level 28 ends at the next multiple of ten lines.
        let ready = |k: &Weights| {
            k.ready_lines
                .is_some_and(|n| 10 - lines % 10 <= u32::from(n))
        };
        match &self.double_killscreen {
            _ if b_type => 2,
            Some(d) if double_killscreen && level >= d.from_level => 3,
            Some(d) if double_killscreen && level + 1 == d.from_level && ready(d) => 3,
            _ if level < 19 && self.before_19.as_deref().is_some_and(before_19) => 4,
            _ if level == 28 && self.killscreen.as_deref().is_some_and(ready) => 1,
            _ if double_killscreen && level >= 29 && self.in_killscreen_end(level, lines) => 6,
            _ => usize::from(level >= 29),
        }
    }

    /// Whether a game at `level` (below the double killscreen's table) with `lines` cleared
    /// is within the `[killscreen_end]` table's `lines_left` lines of that table: a level
    /// ends at the next multiple of ten lines, as in every game from the menu.
    fn in_killscreen_end(&self, level: u8, lines: u32) -> bool {
        let Some(n) = self.killscreen_end.as_ref().and_then(|k| k.lines_left) else {
            return false;
        };
        let (from, ready) = match &self.double_killscreen {
            Some(d) => (d.from_level, u32::from(d.ready_lines.unwrap_or(0))),
            None => (nestris_engine::game::DOUBLE_KILLSCREEN_LEVEL, 0),
        };
        if level >= from {
            return false;
        }
        // Lines until the double killscreen's table takes over.
        let to_table = (u32::from(from - level - 1) * 10 + (10 - lines % 10)).saturating_sub(ready);
        to_table > 0 && to_table <= u32::from(n)
    }

    /// [`Weights::phase`], where the player knows the line cap `line_cap` (a departure): in
    /// the double killscreen's phase, the `[endgame]` table (phase 5) plays the last
    /// `lines_left` lines before the cap.
    pub fn phase_capped(
        &self,
        level: u8,
        lines: u32,
        double_killscreen: bool,
        b_type: bool,
        line_cap: Option<u32>,
    ) -> usize {
        let phase = self.phase(level, lines, double_killscreen, b_type);
        match (&self.endgame, line_cap) {
            (Some(e), Some(cap))
                if phase == 3
                    && cap.saturating_sub(lines) <= u32::from(e.lines_left.unwrap_or(0)) =>
            {
                ENDGAME_PHASE
            }
            _ => phase,
        }
    }

    /// The weights in force at `level` of an A-type game with no lines cleared, with the
    /// double killscreen (a departure) on or off.
    pub fn at(&self, level: u8, double_killscreen: bool) -> &Weights {
        self.phases()[self.phase(level, 0, double_killscreen, false)]
    }

    /// The weights in force in a B-type game.
    pub fn for_b_type(&self) -> &Weights {
        self.phases()[2]
    }

    /// Appends this override table: `header`, then what differs from `base`.
    fn write_overrides(&self, out: &mut String, header: &str, base: &Weights) {
        out.push('\n');
        out.push_str(header);
        if self.danger_height != base.danger_height {
            out.push_str(&format!("danger_height = {:?}\n", self.danger_height));
        }
        if self.well_column != base.well_column {
            out.push_str(&format!("well_column = {}\n", self.well_column));
        }
        if self.drought_top != base.drought_top {
            if let Some(top) = self.drought_top {
                out.push_str(&format!("drought_top = {top:?}\n"));
            }
        }
        for (i, v) in self.w.iter().enumerate() {
            if *v != base.w[i] {
                out.push_str(&format!("{} = {:?}\n", FEATURES[i].0, v));
            }
        }
    }

    /// A new override table: a copy of these weights without their own tables, named
    /// `name`, in force from `from_level`.
    pub fn table_from(&self, name: String, from_level: u8) -> Box<Weights> {
        Box::new(Weights {
            killscreen: None,
            b_type: None,
            before_19: None,
            double_killscreen: None,
            endgame: None,
            name,
            from_level,
            ..self.clone()
        })
    }

    /// [`Weights::table_from`] with the pairs of a file's table set on it.
    fn override_table(
        &self,
        name: String,
        from_level: u8,
        pairs: &toml::map::Map<String, toml::Value>,
    ) -> Result<Box<Weights>, WeightsError> {
        let mut t = self.table_from(name, from_level);
        for (k, v) in pairs {
            t.set_pair(k, v)?;
        }
        Ok(t)
    }

    /// Writes the weights as TOML, readable by [`Weights::from_toml`].
    pub fn to_toml(&self) -> String {
        let mut out = format!(
            "name = {:?}\ndanger_height = {:?}\n",
            self.name, self.danger_height
        );
        if self.well_column != Weights::zero("").well_column {
            out.push_str(&format!("well_column = {}\n", self.well_column));
        }
        if let Some(top) = self.drought_top {
            out.push_str(&format!("drought_top = {top:?}\n"));
        }
        out.push_str("\n[weights]\n");
        for (i, v) in self.w.iter().enumerate() {
            if *v != 0.0 {
                out.push_str(&format!("{} = {:?}\n", FEATURES[i].0, v));
            }
        }
        if let Some(k) = &self.killscreen {
            let mut header = "[killscreen]\n".to_string();
            if let Some(n) = k.ready_lines {
                header.push_str(&format!("ready_lines = {n}\n"));
            }
            k.write_overrides(&mut out, &header, self);
        }
        if let Some(b) = &self.b_type {
            b.write_overrides(&mut out, "[b_type]\n", self);
        }
        if let Some(b) = &self.before_19 {
            let mut header = "[before_19]\n".to_string();
            if let Some(u) = b.until_lines {
                header.push_str(&format!("until_lines = {u}\n"));
            }
            b.write_overrides(&mut out, &header, self);
        }
        if let Some(d) = &self.double_killscreen {
            let mut header = format!("[double_killscreen]\nfrom_level = {}\n", d.from_level);
            if let Some(r) = d.ready_from {
                header.push_str(&format!("ready_from = {r}\n"));
            }
            if let Some(n) = d.ready_lines {
                header.push_str(&format!("ready_lines = {n}\n"));
            }
            d.write_overrides(&mut out, &header, self.at_level(29));
            if let Some(e) = &self.endgame {
                let header = format!("[endgame]\nlines_left = {}\n", e.lines_left.unwrap_or(1));
                e.write_overrides(&mut out, &header, d);
            }
        }
        if let Some(k) = &self.killscreen_end {
            let header = format!(
                "[killscreen_end]\nlines_left = {}\n",
                k.lines_left.unwrap_or(1)
            );
            k.write_overrides(&mut out, &header, self.at_level(29));
        }
        out
    }
}

impl Default for Weights {
    /// The project's default preset: `weights/default.toml` in this crate (how it was tuned is
    /// written at the top of that file).
    fn default() -> Self {
        Weights::from_toml(DEFAULT_TOML).expect("weights/default.toml is valid (tested)")
    }
}

/// The default preset's file.
pub const DEFAULT_TOML: &str = include_str!("../weights/default.toml");
/// The seed article's preset as a file (the same as [`Weights::meatfighter_2014`]).
pub const MEATFIGHTER_TOML: &str = include_str!("../weights/meatfighter-2014.toml");

/// What the placed pieces did, beside the resulting board.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MoveSummary {
    /// Lines cleared by each placement, in order (0 when none): the current piece, the next
    /// and the three after (the fourth and fifth plies').
    pub clears: [u8; 5],
    /// Sum of lock heights.
    pub lock_height: u32,
    /// Points scored.
    pub points: u32,
    /// Level (gravity) of the last placement.
    pub level: u8,
    /// Whether the double killscreen (a departure) is on: reachability is measured with it.
    pub double_killscreen: bool,
}

impl MoveSummary {
    /// Adds one placement.
    pub fn add(&mut self, slot: usize, lines: u32, lock_height: u32, level: u8) {
        self.clears[slot] = lines as u8;
        self.lock_height += lock_height;
        self.points += [0, 40, 100, 300, 1200][lines.min(4) as usize] * (level as u32 + 1);
        self.level = level;
    }
}

/// The features (indices into [`FEATURES`]) measured on the placed pieces, not the board:
/// lines cleared, lock height, burns, Tetrises and points.
pub const MOVE_FEATURES: [usize; 5] = [0, 1, 22, 23, 24];

/// Precomputed flags: which feature groups have a non-zero weight.
#[derive(Clone, Debug)]
pub struct Evaluator {
    /// The weights (read through [`Evaluator::weights`]: the tables below are made from them).
    weights: Weights,
    /// `danger`'s term of each column height 0..=22: the squared rows above the danger
    /// height, 0 at or below it (the same f64 the term is computed as).
    danger_sq: [f64; ROWS + 1],
    /// The features with a non-zero weight, in feature order, and their weights: the terms
    /// of [`Evaluator::weighted_sum`] (the first `term_count`).
    terms: [(u8, f64); FEATURES.len()],
    term_count: usize,
    /// The neighbour steps (`bumpiness`, `bumpiness_sq`, `steep_steps`).
    need_bump: bool,
    need_columns: bool,
    /// The hole depths (weighted holes, hole depth total, min and max): one step per hole.
    need_depths: bool,
    /// Solid cells, weighted or not: one step per row.
    need_solid: bool,
    need_rows: bool,
    need_wells: bool,
    need_reach: bool,
    /// The surface table's feature ([`crate::surface`], a lookup in the embedded table).
    need_surface: bool,
    /// The ready rows beyond four (`excess_ready`).
    need_ready: bool,
    /// Every feature computed, whatever its weight ([`Evaluator::features`]): the features
    /// that are computed only when weighted (`drought_risk`, `well_side_pit`,
    /// `far_side_shortfall`, `low_holes`) are computed too.
    all_features: bool,
    /// From this level, in games with the double killscreen on, `unreachable_columns`
    /// measures the vertical I's reach at its gravity, even before level 39 (the
    /// `[double_killscreen]` table from an earlier `from_level`, or the killscreen table
    /// from the `ready_from` level: the stack is made ready for it).
    double_killscreen_reach_from: Option<u8>,
    /// `unreachable_columns` and `unreachable_gaps` measure the reach at this level's
    /// gravity at least (29 for the killscreen table, which plays the last lines of level 28
    /// with `ready_lines`).
    min_reach_level: u8,
    input: Option<crate::input::InputModel>,
    /// [`IReachPaths::empty`] per gravity ([`reach_key`]), made when first needed.
    reach_empty: Box<[OnceLock<IReachPaths>; REACH_KEYS]>,
}

/// Gravities the vertical I's reach can differ by ([`crate::search::GRAVITY_KEYS`]).
const REACH_KEYS: usize = crate::search::GRAVITY_KEYS;
use crate::search::gravity_key as reach_key;

fn empty_reach_cache() -> Box<[OnceLock<IReachPaths>; REACH_KEYS]> {
    Box::new(std::array::from_fn(|_| OnceLock::new()))
}

impl Evaluator {
    /// An evaluator for these weights.
    pub fn new(weights: Weights) -> Evaluator {
        let nz = |names: &[&str]| names.iter().any(|n| weights.get(n) != 0.0);
        let need_depths = nz(&[
            "weighted_holes",
            "hole_depth_total",
            "hole_depth_min",
            "hole_depth_max",
        ]);
        let need_solid = nz(&["solid_cells", "weighted_solid_cells"]);
        let need_columns = need_depths
            || need_solid
            || nz(&[
                "column_holes",
                "column_transitions",
                "holes",
                "covered_cells",
                "low_holes",
            ]);
        let need_rows = nz(&["row_transitions", "hidden_blocks"]);
        let need_wells = nz(&["well_cells", "deep_wells", "i_dependency"]);
        let need_reach = nz(&[
            "unreachable_columns",
            "unreachable_gaps",
            "well_unreachable",
        ]);
        let need_surface = nz(&["surface"]);
        let need_ready = nz(&["excess_ready"]);
        let need_bump = nz(&["bumpiness", "bumpiness_sq", "steep_steps"]);
        let (terms, term_count) = terms_of(&weights);
        Evaluator {
            danger_sq: danger_table(weights.danger_height),
            terms,
            term_count,
            weights,
            need_bump,
            need_columns,
            need_depths,
            need_solid,
            need_rows,
            need_wells,
            need_reach,
            need_surface,
            need_ready,
            all_features: false,
            double_killscreen_reach_from: None,
            min_reach_level: 0,
            input: None,
            reach_empty: empty_reach_cache(),
        }
    }

    /// Makes `unreachable_columns` and `unreachable_gaps` measure the reach at the gravity of
    /// level `level` at least: the player sets 29 on the killscreen table's evaluator, so
    /// that in the last lines of level 28 (`ready_lines`) the stack is kept within the
    /// killscreen's reach. From level 29 it changes nothing.
    pub fn with_min_reach_level(mut self, level: u8) -> Evaluator {
        self.min_reach_level = level;
        self
    }

    /// Makes `unreachable_columns` measure the reach at the double killscreen's gravity from
    /// level `from` in every game with it on (see `double_killscreen_reach_from`). The player
    /// sets it on the `[double_killscreen]` table's evaluator (from any level) and, with
    /// `ready_from`, on the killscreen table's; from level 39 it changes nothing.
    pub fn with_double_killscreen_reach(mut self, from: u8) -> Evaluator {
        self.double_killscreen_reach_from = Some(from);
        self
    }

    /// Sets the tap speed that `unreachable_columns` measures with (without one, that
    /// feature is 0).
    pub fn with_input(mut self, input: crate::input::InputModel) -> Evaluator {
        self.input = Some(input);
        self.reach_empty = empty_reach_cache();
        self
    }

    /// All feature values of a board (every feature computed, for display and tests), with
    /// the danger height and well column of `params` (its weights are not used).
    pub fn features(board: &Board, m: &MoveSummary, params: &Weights) -> [f64; FEATURES.len()] {
        let mut w = Weights::zero("all");
        w.danger_height = params.danger_height;
        w.well_column = params.well_column;
        w.drought_top = params.drought_top;
        let (terms, term_count) = terms_of(&w);
        let all = Evaluator {
            terms,
            term_count,
            danger_sq: danger_table(w.danger_height),
            weights: w,
            need_bump: true,
            need_columns: true,
            need_depths: true,
            need_solid: true,
            need_rows: true,
            need_wells: true,
            need_reach: true,
            need_surface: true,
            need_ready: true,
            all_features: true,
            double_killscreen_reach_from: None,
            min_reach_level: 0,
            input: Some(crate::input::InputModel::default()),
            reach_empty: empty_reach_cache(),
        };
        let mut f = [0.0; FEATURES.len()];
        all.compute(board, &board.columns(), m, None, &mut f);
        f
    }

    /// The weights.
    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    /// The cost of a board (lower is better).
    #[inline]
    pub fn cost(&self, board: &Board, m: &MoveSummary) -> f64 {
        self.cost_with_columns(board, &board.columns(), m)
    }

    /// [`Evaluator::cost`] with the board's columns ([`Board::columns`]) at hand.
    #[inline]
    pub fn cost_with_columns(&self, board: &Board, cols: &[u32; 10], m: &MoveSummary) -> f64 {
        self.cost_after(board, cols, m, None)
    }

    /// [`Evaluator::cost_with_columns`] of a board made by placing pieces on `before`: the
    /// vertical I's paths on the board before are reused where the placement leaves them as
    /// they were (the same cost).
    #[inline]
    pub fn cost_after(
        &self,
        board: &Board,
        cols: &[u32; 10],
        m: &MoveSummary,
        before: Option<&mut BoardBefore>,
    ) -> f64 {
        self.weighted_sum(&self.features_after(board, cols, m, before))
    }

    /// The feature values [`Evaluator::cost_after`] adds up (those with a zero weight may be
    /// left at 0).
    #[inline]
    pub fn features_after(
        &self,
        board: &Board,
        cols: &[u32; 10],
        m: &MoveSummary,
        before: Option<&mut BoardBefore>,
    ) -> [f64; FEATURES.len()] {
        let mut f = [0.0; FEATURES.len()];
        self.features_into_zeroed(board, cols, m, before, &mut f);
        f
    }

    /// [`Evaluator::features_after`] written into `f`, which must hold zeros (a slot of a
    /// buffer just zeroed: no copy, and no second zeroing).
    #[inline]
    pub(crate) fn features_into_zeroed(
        &self,
        board: &Board,
        cols: &[u32; 10],
        m: &MoveSummary,
        before: Option<&mut BoardBefore>,
        f: &mut [f64; FEATURES.len()],
    ) {
        debug_assert_eq!(*cols, board.columns(), "the columns are the board's");
        debug_assert!(
            f.iter().all(|&v| v == 0.0),
            "the features are written over zeros"
        );
        self.compute(board, cols, m, before, f);
    }

    /// The cost from the feature values: the weighted sum in feature order. Terms with a zero
    /// weight are left out: each is +-0 (every feature is finite), and adding +-0 leaves the
    /// sum as it is (the sum starts at +0 and is never -0 in round-to-nearest), so the result
    /// is the same f64.
    #[inline]
    pub fn weighted_sum(&self, f: &[f64; FEATURES.len()]) -> f64 {
        let mut c = 0.0;
        for &(i, wi) in &self.terms[..self.term_count] {
            c += f[i as usize] * wi;
        }
        c
    }

    /// [`Evaluator::weighted_sum`] of each of `fs` into `out`: the same additions in the same
    /// order for each, the boards side by side (independent sums that the processor can
    /// overlap, where one sum waits on each addition).
    pub fn weighted_sums(&self, fs: &[[f64; FEATURES.len()]], out: &mut Vec<f64>) {
        out.clear();
        out.resize(fs.len(), 0.0);
        for &(i, wi) in &self.terms[..self.term_count] {
            for (c, f) in out.iter_mut().zip(fs) {
                *c += f[i as usize] * wi;
            }
        }
    }

    /// The part of the cost that comes from the placed pieces rather than the board (lines
    /// cleared, lock height, burns, Tetrises, points). `low_burns` needs both (the burns and
    /// the board's height) and is in neither this nor the cost of the board with an empty
    /// summary: a playout's value leaves it out.
    pub fn move_cost(&self, m: &MoveSummary) -> f64 {
        let f = Self::move_features(m);
        MOVE_FEATURES
            .iter()
            .zip(f)
            .map(|(&i, v)| v * self.weights.w[i])
            .sum()
    }

    /// The values of [`MOVE_FEATURES`], in that order.
    fn move_features(m: &MoveSummary) -> [f64; 5] {
        let lines: u32 = m.clears.iter().map(|&c| c as u32).sum();
        let burns: u32 = m
            .clears
            .iter()
            .filter(|&&c| (1..4).contains(&c))
            .map(|&c| c as u32)
            .sum();
        let tetrises = m.clears.iter().filter(|&&c| c >= 4).count();
        [
            lines as f64,
            m.lock_height as f64,
            burns as f64,
            tetrises as f64,
            m.points as f64 / 1000.0,
        ]
    }

    /// Writes the features into `f`, which holds zeros: those of a group none of whose
    /// weights is set are left at 0 (every one with [`Evaluator::features`]' evaluator).
    fn compute(
        &self,
        board: &Board,
        cols: &[u32; 10],
        m: &MoveSummary,
        before: Option<&mut BoardBefore>,
        f: &mut [f64; FEATURES.len()],
    ) {
        let w = &self.weights;
        let h = heights_of(cols);
        for (&i, v) in MOVE_FEATURES.iter().zip(Self::move_features(m)) {
            f[i] = v;
        }
        // The surface table's byte is asked for first and read last (`Entry`: most reads
        // miss the caches).
        let surface = self.need_surface.then(|| {
            let e = crate::surface::Entry::locate(&h, w.well_column as usize);
            e.prefetch();
            e
        });
        let maxh = *h.iter().max().unwrap_or(&0);
        let minh = *h.iter().min().unwrap_or(&0);
        f[11] = h.iter().sum::<u32>() as f64;
        f[12] = maxh as f64;
        f[13] = (maxh - minh) as f64;
        let well = w.well_column as usize;
        if self.need_bump {
            let mut bump = 0u32;
            let mut bump_sq = 0u32;
            // The surface table reads each step between the nine columns beside the well
            // clamped to +-3 rows: a two-wide gap of eight rows at an edge looks like one of
            // three. `steep_steps` is the part of each step it does not see.
            let mut steep = 0u32;
            for x in 0..9 {
                let d = h[x].abs_diff(h[x + 1]);
                bump += d;
                if x != well && x + 1 != well {
                    bump_sq += d * d;
                    let over = d.saturating_sub(3);
                    steep += over * over;
                }
            }
            f[16] = bump as f64;
            f[19] = bump_sq as f64;
            f[35] = steep as f64;
        }
        f[20] = (lower_neighbour(&h, well).saturating_sub(h[well])).min(4) as f64;
        if self.need_ready {
            f[32] = board.ready_rows(well, h[well]).saturating_sub(4) as f64;
        }
        // The squared rows above the danger height, column by column in order: a column at
        // or below it adds +0, which leaves the sum (from +0, never -0) as it is.
        let mut danger = 0.0;
        for &hx in &h {
            danger += self.danger_sq[hx as usize];
        }
        f[25] = danger;
        if self.all_features || w.w[36] != 0.0 {
            f[36] = drought_risk(&h, well, w.drought_ceiling());
        }
        if self.all_features || w.w[37] != 0.0 {
            f[37] = well_side_pits(&h, well) as f64;
        }
        if self.all_features || w.w[38] != 0.0 {
            f[38] = far_side_shortfall(&h, well);
        }
        // Burns on a low stack: a burn's cost grows with the rows the stack stands below the
        // danger height, where keeping the lines for a Tetris risks nothing.
        f[30] = f[22] * (w.danger_height - maxh as f64).max(0.0);
        if let Some(input) = &self.input {
            if self.need_reach {
                let level = match self.double_killscreen_reach_from {
                    Some(from) if m.double_killscreen && m.level >= from => {
                        m.level.max(nestris_engine::game::DOUBLE_KILLSCREEN_LEVEL)
                    }
                    _ => m.level,
                }
                .max(self.min_reach_level);
                let empty = self.reach_empty[reach_key(level, m.double_killscreen)]
                    .get_or_init(|| IReachPaths::empty(level, input, m.double_killscreen));
                let reach = crate::search::i_reach_cached(
                    board,
                    cols,
                    empty,
                    before,
                    level,
                    input,
                    m.double_killscreen,
                );
                f[28] = (10 - reach.count_ones()) as f64;
                // A gap no vertical I can get to is filled by the other pieces or not at all:
                // under the double killscreen, an edge column left behind while its
                // neighbour grows past the reach of every piece.
                let mut gaps = 0u32;
                for x in (0..10).filter(|&x| x != well && reach & (1 << x) == 0) {
                    gaps += lower_neighbour(&h, x).saturating_sub(h[x]);
                }
                f[31] = gaps as f64;
                // Every row above the well's bottom waits for the well to be filled: out of
                // the I's reach (at the killscreen a stack of 13 rows beside the rightmost
                // column), the ready rows are lost and the stack can only grow. A covered well
                // counts too: covering it must not dodge the term.
                if reach & (1 << well) == 0 {
                    f[33] = 1.0;
                }
            }
        }
        f[21] = cols[well].count_ones() as f64;
        if w.w[34] != 0.0 {
            f[34] = crate::value::shipped().value(board, cols, &h, well) / 1000.0;
        }
        let mask = (1u32 << ROWS) - 1;
        if self.need_columns {
            let (mut col_holes, mut holes, mut covered, mut col_trans) = (0u32, 0u32, 0u32, 0u32);
            for &c in cols.iter() {
                if c == 0 {
                    continue;
                }
                let below = rows_from_top(c);
                let empty_below = !c & below;
                holes += empty_below.count_ones();
                col_holes += (empty_below & (c << 1)).count_ones();
                if empty_below != 0 {
                    // The deepest hole: the highest bit.
                    let r = 31 - empty_below.leading_zeros();
                    covered += (c & ((1u32 << r) - 1)).count_ones();
                }
                // Changes between consecutive rows from the top down, floor not compared.
                col_trans += ((c ^ (c >> 1)) & below & (mask >> 1)).count_ones();
            }
            f[4] = col_holes as f64;
            f[9] = col_trans as f64;
            f[17] = holes as f64;
            // Holes on a low stack: the rows below the danger height, as `low_burns` reads
            // them (0 once the stack stands at or above it). Only when weighted: no preset
            // uses it, and this is the leaves' hot path.
            if self.all_features || w.w[39] != 0.0 {
                f[39] = f[17] * (w.danger_height - maxh as f64).max(0.0);
            }
            f[18] = covered as f64;
            if self.need_depths {
                let (mut weighted_holes, mut depth_total) = (0u32, 0u32);
                let (mut depth_min, mut depth_max) = (20u32, 0u32);
                for &c in cols.iter().filter(|&&c| c != 0) {
                    let top = c.trailing_zeros();
                    let mut e = !c & rows_from_top(c);
                    while e != 0 {
                        let r = e.trailing_zeros();
                        weighted_holes += r + 1 - 2;
                        let d = r - top;
                        depth_total += d;
                        depth_min = depth_min.min(d);
                        depth_max = depth_max.max(d);
                        e &= e - 1;
                    }
                }
                f[5] = weighted_holes as f64;
                f[6] = depth_total as f64;
                f[7] = depth_min as f64;
                f[8] = depth_max as f64;
            }
            if self.need_solid {
                let (mut solid, mut wsolid) = (0u32, 0u32);
                for (i, &r) in board.rows.iter().enumerate() {
                    let n = r.count_ones();
                    solid += n;
                    wsolid += n * (ROWS - i) as u32;
                }
                f[14] = solid as f64;
                f[15] = wsolid as f64;
            }
        }
        if self.need_rows {
            // Row transitions column by column: along each non-empty row (a bit of `rows`),
            // the walls filled, a change where a wall meets an empty edge column and where
            // two neighbouring columns differ.
            let rows = cols.iter().fold(0, |a, &c| a | c);
            let mut rt = (!cols[0] & rows).count_ones() + (!cols[9] & rows).count_ones();
            for x in 0..9 {
                rt += ((cols[x] ^ cols[x + 1]) & rows).count_ones();
            }
            f[10] = rt as f64;
            f[26] = (board.rows[0].count_ones() + board.rows[1].count_ones()) as f64;
        }
        if self.need_wells {
            let (mut wells, mut deep) = (0u32, 0u32);
            for x in 0..10 {
                let c = cols[x];
                let l = if x == 0 { mask } else { cols[x - 1] };
                let r = if x == 9 { mask } else { cols[x + 1] };
                // The rows above the column's top (all of them when it is empty).
                let above = mask >> h[x];
                let cells = !c & l & r & above;
                let n = cells.count_ones();
                wells += n;
                if n >= 3 {
                    deep += 1;
                }
            }
            f[2] = wells as f64;
            f[3] = deep as f64;
            f[27] = deep.saturating_sub(1) as f64;
        }
        if let Some(e) = surface {
            f[29] = e.shortfall();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board;

    fn feat(b: &Board, name: &str) -> f64 {
        // Danger height 12, the rightmost well.
        feat_well(b, name, 9)
    }

    /// [`feat`] with the well in column `well`.
    fn feat_well(b: &Board, name: &str, well: u8) -> f64 {
        let mut w = Weights::zero("params");
        w.well_column = well;
        Evaluator::features(b, &MoveSummary::default(), &w)[idx(name)]
    }

    /// `well_side_pit`: the column beside the open well, left low, counts its depth beyond one
    /// row below its other neighbour (at most 3); a covered or filled well, a shallow step, or
    /// a pit away from the well does not count.
    #[test]
    fn well_side_pit_reads_the_column_beside_the_well() {
        // Column 8 three rows below column 7, the well open: 2.
        let pit =
            Board::from_rows_bottom(&["########..", "########..", "########..", "#########."]);
        assert_eq!(feat(&pit, "well_side_pit"), 2.0);
        // One row below: nothing (the rows are given from the top).
        let step = Board::from_rows_bottom(&["########..", "#########."]);
        assert_eq!(feat(&step, "well_side_pit"), 0.0);
        // Six rows below: at most 3.
        let deep = Board::from_rows_bottom(&["########.."; 6]);
        assert_eq!(feat(&deep, "well_side_pit"), 3.0);
        // The well filled above the pit's bottom: a pit between two columns, i_dependency's.
        let filled = Board::from_rows_bottom(&["########.#", "########.#", "########.#"]);
        assert_eq!(feat(&filled, "well_side_pit"), 0.0);
        // A middle well (column 2): both sides count. Column 1 stands two rows below column
        // 0, column 3 three below column 4.
        let mid = Board::from_rows_bottom(&["#...######", "#...######", "##..######"]);
        assert_eq!(feat_well(&mid, "well_side_pit", 2), 1.0 + 2.0);
    }

    /// `far_side_shortfall`: the lowest column beyond the well (seen from the spawn) against
    /// the near side's mean height; nothing with the well at an edge or a far side as tall.
    #[test]
    fn far_side_shortfall_reads_the_columns_beyond_the_well() {
        // Well in column 2: columns 0-1 stand 1 and 2 rows, columns 3-9 four: 4 - 1 = 3.
        let low =
            Board::from_rows_bottom(&["...#######", "...#######", ".#.#######", "##.#######"]);
        assert_eq!(feat_well(&low, "far_side_shortfall", 2), 3.0);
        // The far side as tall as the near side's mean, or taller: nothing.
        let level = Board::from_rows_bottom(&["##.#######"; 4]);
        assert_eq!(feat_well(&level, "far_side_shortfall", 2), 0.0);
        let tall = Board::from_rows_bottom(&["##........", "##.#######"]);
        assert_eq!(feat_well(&tall, "far_side_shortfall", 2), 0.0);
        // A well on the right (column 7): the far side is columns 8-9; the near side's mean
        // is (7 x 2) / 7 = 2, column 9 stands 0.
        let right = Board::from_rows_bottom(&["#######.#.", "#######.#."]);
        assert_eq!(feat_well(&right, "far_side_shortfall", 7), 2.0);
        // A well at an edge has no far side.
        assert_eq!(feat_well(&low, "far_side_shortfall", 0), 0.0);
        assert_eq!(feat_well(&low, "far_side_shortfall", 9), 0.0);
    }

    /// `drought_risk`: nothing while the well is under 3 rows deep; with a deep well, the
    /// chance of no I among the pieces the stack holds below danger_height + 6 rows.
    #[test]
    fn drought_risk_prices_the_room_left_while_the_well_waits_for_an_i() {
        let q = DROUGHT_NOT_I;
        // Within 0.005 of the picker's exact chance after a T (the order is T J Z O S L I).
        let exact = 1.0 - crate::player::next_piece_probabilities(nestris_engine::PieceKind::T)[6];
        assert!((q - exact).abs() < 0.005, "{q} against {exact}");
        // Danger height 12 (Weights::zero): the top is 18 rows.
        assert_eq!(
            feat(&Board::from_rows_bottom(&["#########."; 2]), "drought_risk"),
            0.0
        );
        let four = Board::from_rows_bottom(&["#########."; 4]);
        let want = 100.0 * q.powf(9.0 * 14.0 / 4.0);
        assert!((feat(&four, "drought_risk") - want).abs() < 1e-9);
        // Twelve rows: the room is 9 x 6 cells; the risk grows as the stack rises.
        let twelve = Board::from_rows_bottom(&["#########."; 12]);
        let want = 100.0 * q.powf(9.0 * 6.0 / 4.0);
        assert!((feat(&twelve, "drought_risk") - want).abs() < 1e-9);
        assert!(feat(&twelve, "drought_risk") > feat(&four, "drought_risk"));
        // Above the top a column holds nothing more (no negative room).
        let full = Board::from_rows_bottom(&["#########."; 19]);
        assert!((feat(&full, "drought_risk") - 100.0).abs() < 1e-9);
        // The well's own column: a shallow one (2 rows) waits for nothing.
        let mut rows = vec!["#########."; 2];
        rows.extend(vec!["##########"; 6]);
        assert_eq!(feat(&Board::from_rows_bottom(&rows), "drought_risk"), 0.0);
        // Another well column.
        let b = Board::from_rows_bottom(&["#####.####"; 5]);
        let want = 100.0 * q.powf(9.0 * 13.0 / 4.0);
        assert!((feat_well(&b, "drought_risk", 5) - want).abs() < 1e-9);
        // `drought_top` sets the ceiling apart from the danger height: 16 rows, not 18.
        let mut w = Weights::zero("params");
        w.drought_top = Some(16.0);
        let got = Evaluator::features(&twelve, &MoveSummary::default(), &w)[idx("drought_risk")];
        assert!((got - 100.0 * q.powf(9.0 * 4.0 / 4.0)).abs() < 1e-9);
    }

    /// `drought_top` is read per table, written back, and refused outside 1..=20 rows.
    #[test]
    fn drought_top_reads_writes_and_refuses_bad_heights() {
        let w = Weights::from_toml(
            "[weights]\nholes = 1\n[before_19]\ndrought_top = 16\ndrought_risk = 10\n",
        )
        .unwrap();
        assert_eq!(w.drought_top, None);
        assert_eq!(w.at(18, false).drought_top, Some(16.0));
        let back = Weights::from_toml(&w.to_toml()).unwrap();
        assert_eq!(back.at(18, false).drought_top, Some(16.0));
        assert_eq!(back.drought_top, None);
        for bad in ["0", "21", "-3", "\"high\""] {
            let err = Weights::from_toml(&format!("[weights]\nholes = 1\ndrought_top = {bad}\n"))
                .unwrap_err()
                .to_string();
            assert!(err.contains("drought_top"), "{bad}: {err}");
        }
    }

    /// `excess_ready` counts the ready rows from the open well's bottom up, beyond four.
    #[test]
    fn excess_ready_counts_ready_rows_beyond_four() {
        let ready = |n: usize| vec!["#########."; n];
        for (n, want) in [(0, 0.0), (3, 0.0), (4, 0.0), (6, 2.0), (9, 5.0)] {
            assert_eq!(
                feat(&Board::from_rows_bottom(&ready(n)), "excess_ready"),
                want,
                "{n}"
            );
        }
        // Counted from the well's bottom up, contiguous: a row with a gap ends the count
        // (rows are listed top first).
        let mut rows = ready(5);
        rows.push("####.####.");
        rows.extend(ready(2));
        assert_eq!(feat(&Board::from_rows_bottom(&rows), "excess_ready"), 0.0);
        // A covered well: the rows under its block are not ready; those above count.
        let mut covered = vec!["##########"];
        covered.extend(ready(6));
        assert_eq!(
            feat(&Board::from_rows_bottom(&covered), "excess_ready"),
            0.0
        );
        let mut rows = ready(5);
        rows.extend(covered);
        assert_eq!(feat(&Board::from_rows_bottom(&rows), "excess_ready"), 1.0);
        // Another well column.
        let b = Board::from_rows_bottom(&["#####.####"; 7]);
        assert_eq!(feat_well(&b, "excess_ready", 5), 3.0);
    }

    #[test]
    fn seed_article_features() {
        let b = board!["..........", "#.........", "#.#....#..", "###.####.#",];
        assert_eq!(feat(&b, "column_holes"), 0.0);
        let b2 = board!["##........", "#.#.......", "###.......",];
        // Column 1 has one hole (row 18).
        assert_eq!(feat(&b2, "column_holes"), 1.0);
        assert_eq!(feat(&b2, "holes"), 1.0);
        assert_eq!(feat(&b2, "hole_depth_max"), 1.0);
        assert_eq!(feat(&b2, "covered_cells"), 1.0);
        // Row transitions: row 17 "##........" -> wall|##|........|wall = 2; row 18
        // "#.#......." -> 4; row 19 "###......." -> 2.
        assert_eq!(feat(&b2, "row_transitions"), 8.0);
        assert_eq!(feat(&b2, "pile_height"), 3.0);
        assert_eq!(feat(&b2, "solid_cells"), 7.0);
        // Heights 3 1 2 0 1 1 1 2 0 1.
        assert_eq!(feat(&b, "bumpiness"), 10.0);
        assert_eq!(feat(&b, "column_heights"), 12.0);
        // Well cells: column 1 row 18, column 3 row 19, column 8 row 19.
        assert_eq!(feat(&b, "well_cells"), 3.0);
        // Column transitions: only column 1 (filled, empty, filled) has any: 2.
        assert_eq!(feat(&b2, "column_transitions"), 2.0);
    }

    /// `steep_steps` counts, for each step between neighbours beside the well, the squared
    /// rows beyond the surface table's clamp of 3.
    #[test]
    fn steep_steps_count_what_the_surface_clamp_hides() {
        // Heights 0 0 8 8 8 8 8 8 8 0: the two-wide gap at the left wall is a step of 8 (5
        // beyond the clamp: 25); the step into the well (column 9) is left out.
        let mut rows = vec!["..#######."; 8];
        assert_eq!(feat(&Board::from_rows_bottom(&rows), "steep_steps"), 25.0);
        // Steps of 3 or less count nothing.
        rows.truncate(3);
        assert_eq!(feat(&Board::from_rows_bottom(&rows), "steep_steps"), 0.0);
        // A middle well: the steps beside column 5 are left out, the others count.
        let b = Board::from_rows_bottom(&["#....#####"; 6]);
        // Column 0 (6) against column 1 (0): 3 beyond; column 4/5 and 5/6 are the well's.
        assert_eq!(feat_well(&b, "steep_steps", 5), 9.0);
        // A weight on it adds to the cost.
        let mut w = Weights::zero("steep");
        w.w[idx("steep_steps")] = 2.0;
        let b = Board::from_rows_bottom(&["..#######."; 8]);
        assert_eq!(Evaluator::new(w).cost(&b, &MoveSummary::default()), 50.0);
    }

    #[test]
    fn every_shipped_weights_file_parses_and_names_itself() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("weights");
        let mut read = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().and_then(|e| e.to_str()) != Some("toml") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let w = Weights::from_toml(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let stem = path.file_stem().unwrap().to_str().unwrap();
            assert_eq!(w.name, stem, "{}: the name line", path.display());
            read += 1;
        }
        assert!(read >= 3, "{read} weights files in {}", dir.display());
    }

    #[test]
    fn the_surface_feature_reads_the_table_beside_the_well() {
        // Heights 3 1 2 0 1 1 1 2 0 1, the well on the right: columns 0-8 make the surface.
        let b = board!["..........", "#.........", "#.#....#..", "###.####.#",];
        let heights = [3, 1, 2, 0, 1, 1, 1, 2, 0, 1];
        let expected = crate::surface::shortfall(&heights, 9);
        assert_eq!(feat(&b, "surface"), expected);
        assert!(expected > 0.0 && expected <= crate::surface::HORIZON as f64);
        // A weights file turns it on like any feature: the evaluator's cost counts it.
        let w = Weights::from_toml("[weights]\nholes = 1\nsurface = 2\n").unwrap();
        let m = MoveSummary::default();
        let e = Evaluator::new(w);
        assert_eq!(e.cost(&b, &m), 2.0 * expected + feat(&b, "holes"));
        // The default uses it at levels 18-38 (rows 13 and 15), where it replaces the
        // bumpiness terms; its double killscreen's table keeps them (without the double
        // killscreen, level 39 plays the killscreen's table).
        let d = Weights::default();
        for level in [18, 19, 28, 29, 38] {
            assert!(d.at(level, true).get("surface") > 0.0, "level {level}");
            assert_eq!(d.at(level, true).get("bumpiness"), 0.0, "level {level}");
            assert_eq!(d.at(level, true).get("bumpiness_sq"), 0.0, "level {level}");
        }
        for level in [39, 60] {
            assert_eq!(d.at(level, true).get("surface"), 0.0, "level {level}");
            assert!(d.at(level, true).get("bumpiness") > 0.0, "level {level}");
        }
        assert!(d.at(39, false).get("surface") > 0.0);
    }

    /// `low_holes`: the holes times the rows the tallest column stands below the danger
    /// height; nothing at or above it, and nothing without holes.
    #[test]
    fn low_holes_count_holes_by_the_rows_below_the_danger_height() {
        // Two holes (column 0's second row, column 4's first), the tallest column 4 rows.
        let b = board!["#.........", "#..#......", "...##....#", "####.#####"];
        let with = |b: &Board, dh: f64| {
            let mut w = Weights::zero("params");
            w.danger_height = dh;
            Evaluator::features(b, &MoveSummary::default(), &w)[idx("low_holes")]
        };
        assert_eq!(with(&b, 10.0), 2.0 * 6.0);
        assert_eq!(with(&b, 4.5), 2.0 * 0.5);
        assert_eq!(with(&b, 4.0), 2.0 * 0.0);
        assert_eq!(with(&b, 2.0), 0.0);
        let clean = board!["#.........", "###.######"];
        assert_eq!(with(&clean, 10.0), 0.0);
    }

    #[test]
    fn low_burns_count_burned_lines_by_the_rows_below_the_danger_height() {
        // Heights 3 1 2 0 1 1 1 2 0 1: the tallest column stands 3 rows, 9 below the danger
        // height of 12 (`Weights::zero`).
        let b = board!["..........", "#.........", "#.#....#..", "###.####.#",];
        let with = |clears: &[u32], dh: f64| {
            let mut m = MoveSummary::default();
            for (slot, &c) in clears.iter().enumerate() {
                m.add(slot, c, 0, 18);
            }
            let mut w = Weights::zero("params");
            w.danger_height = dh;
            Evaluator::features(&b, &m, &w)[idx("low_burns")]
        };
        // A single and a double: 3 burned lines, 9 rows below.
        assert_eq!(with(&[1, 2], 12.0), 27.0);
        // A Tetris is not a burn.
        assert_eq!(with(&[4], 12.0), 0.0);
        assert_eq!(with(&[4, 1], 12.0), 9.0);
        // At or above the danger height a burn costs only `burns`.
        assert_eq!(with(&[3], 3.0), 0.0);
        assert_eq!(with(&[3], 2.0), 0.0);
        assert_eq!(with(&[3], 4.5), 4.5);
        // No burn, no cost.
        assert_eq!(with(&[], 12.0), 0.0);
    }

    #[test]
    fn preset_files_parse() {
        let d = Weights::from_toml(DEFAULT_TOML).unwrap();
        assert_eq!(d.name, "default");
        assert!(d.killscreen.is_some());
        let m = Weights::from_toml(MEATFIGHTER_TOML).unwrap();
        assert_eq!(m.w, Weights::meatfighter_2014().w);
    }

    #[test]
    fn well_column_moves_the_well_features() {
        // Column 4 is empty, four rows below both sides; column 9 is level with column 8.
        let b = board![
            "#.........",
            "####.#####",
            "####.#####",
            "####.#####",
            "####.#####",
        ];
        let at = |column: u8| {
            let w = Weights::from_toml(&format!(
                "[weights]\nholes = 1\n[double_killscreen]\nwell_column = {column}\n"
            ))
            .unwrap();
            let d = w.at(39, true);
            assert_eq!(d.well_column, column);
            assert_eq!(w.well_column, 9, "the other tables keep the rightmost well");
            let f = Evaluator::features(&b, &MoveSummary::default(), d);
            (
                f[idx("well_depth")],
                f[idx("well_blocks")],
                f[idx("bumpiness_sq")],
            )
        };
        // The 4-row steps beside column 4 are left out of bumpiness_sq (column 0's 1-row
        // step is in); with the rightmost well they count, 16 each.
        assert_eq!(at(4), (4.0, 0.0, 1.0));
        assert_eq!(at(9), (0.0, 4.0, 33.0));
        // A wall-side well at the left: its one neighbour, lower than it.
        assert_eq!(at(0), (0.0, 5.0, 32.0));
        // Round trip, at the top level and in a table.
        let w = Weights::from_toml("well_column = 3\n[weights]\nholes = 1\n").unwrap();
        assert_eq!(w.well_column, 3);
        let back = Weights::from_toml(&w.to_toml()).unwrap();
        assert_eq!(back.well_column, 3);
        let w =
            Weights::from_toml("[weights]\nholes = 1\n[killscreen]\nwell_column = 5\n").unwrap();
        let back = Weights::from_toml(&w.to_toml()).unwrap();
        assert_eq!((back.at(29, false).well_column, back.well_column), (5, 9));
        // Not a column: named, with what was expected.
        assert_refused(
            "[weights]\nholes = 1\nwell_column = {}\n",
            &["10", "-1", "4.5", "\"left\""],
            &["well_column = ", "expected a column 0..=9"],
        );
    }

    /// Each of `bad` put in `file` (at its `{}`) is refused with an error naming `needles`.
    fn assert_refused(file: &str, bad: &[&str], needles: &[&str]) {
        for b in bad {
            let e = Weights::from_toml(&file.replace("{}", b))
                .unwrap_err()
                .to_string();
            assert!(needles.iter().all(|n| e.contains(n)), "{b}: {e}");
        }
    }

    #[test]
    fn before_19_gives_way_at_until_lines() {
        let w = Weights::from_toml(
            "[weights]\nburns = 40\n[before_19]\nuntil_lines = 120\nburns = 70\n",
        )
        .unwrap();
        let burns = |level, lines| w.phases()[w.phase(level, lines, true, false)].get("burns");
        assert_eq!(burns(18, 0), 70.0);
        assert_eq!(burns(18, 119), 70.0);
        assert_eq!(burns(18, 120), 40.0);
        assert_eq!(burns(19, 0), 40.0);
        let back = Weights::from_toml(&w.to_toml()).unwrap();
        assert_eq!(back.before_19.as_ref().unwrap().until_lines, Some(120));
        assert_eq!(back.phases(), w.phases());
        // Without the key, the table holds to level 19 whatever the line count.
        let w = Weights::from_toml("[weights]\nburns = 40\n[before_19]\nburns = 70\n").unwrap();
        assert_eq!(
            w.phases()[w.phase(18, 900, false, false)].get("burns"),
            70.0
        );
        assert_refused(
            "[weights]\nburns = 40\n[before_19]\nuntil_lines = {}\n",
            &["0", "1000", "12.5", "\"x\""],
            &["before_19.until_lines = ", "expected a line count 1..=999"],
        );
    }

    #[test]
    fn the_endgame_plays_the_last_lines_before_the_cap() {
        let w = Weights::from_toml(
            "[weights]\nholes = 60\nburns = 40\n[killscreen]\nburns = 20\n\
             [double_killscreen]\nholes = 90\ntetrises = -200\n\
             [endgame]\nlines_left = 30\ntetrises = -600\n",
        )
        .unwrap();
        let t = |level, lines, dks, cap| {
            w.phases()[w.phase_capped(level, lines, dks, false, cap)].get("tetrises")
        };
        // In the double killscreen's phase, from 30 lines before the cap the player knows.
        assert_eq!(t(45, 399, true, Some(430)), -200.0);
        assert_eq!(t(45, 400, true, Some(430)), -600.0);
        assert_eq!(t(48, 429, true, Some(430)), -600.0);
        assert_eq!(t(45, 400, true, None), -200.0);
        // Not before the double killscreen's level, nor without it, nor in B-type games.
        assert_eq!(t(38, 400, true, Some(430)), 0.0);
        assert_eq!(t(45, 400, false, Some(430)), 0.0);
        assert_eq!(w.phase_capped(45, 400, true, true, Some(430)), 2);
        // It starts from the double killscreen's table.
        let e = w.phases()[5];
        assert_eq!((e.get("holes"), e.get("burns")), (90.0, 20.0));
        let back = Weights::from_toml(&w.to_toml()).unwrap();
        assert_eq!(back.phases(), w.phases());
        assert_eq!(back.endgame.as_ref().unwrap().lines_left, Some(30));
        assert_refused(
            "[weights]\nburns = 40\n[double_killscreen]\nburns = 9\n[endgame]\nlines_left = {}\n",
            &["0", "1000", "12.5", "\"x\""],
            &["endgame.lines_left", "expected a line count 1..=999"],
        );
        assert_refused(
            "[weights]\nburns = 40\n[double_killscreen]\nburns = 9\n[endgame]\nburns = {}\n",
            &["1"],
            &["endgame.lines_left = nothing", "expected a line count"],
        );
        assert_refused(
            "[weights]\nburns = 40\n[endgame]\nlines_left = 30\nburns = {}\n",
            &["1"],
            &["endgame", "a [double_killscreen] table beside it"],
        );
    }

    #[test]
    fn renamed_weights_read_back_the_same_with_every_table() {
        let mut w = Weights::from_toml(
            "name = \"a\"\ndanger_height = 10.5\n[weights]\nholes = 60\n\
             [killscreen]\nburns = 20\n[double_killscreen]\nholes = 90\n\
             [endgame]\nlines_left = 30\ntetrises = -600\n\
             [b_type]\ndanger_height = 10\n[before_19]\ndanger_height = 12\n",
        )
        .unwrap();
        w.set_name("b".into());
        let back = Weights::from_toml(&w.to_toml()).unwrap();
        assert_eq!(back.phases(), w.phases());
        assert_eq!(back.for_b_type().name, "b (B-type)");
        assert_eq!(back.for_b_type().danger_height, 10.0);
    }

    #[test]
    fn phase_tables_apply_where_they_should() {
        let w = Weights::from_toml(
            "danger_height = 10\n[weights]\nholes = 60\nburns = 40\n\
             [killscreen]\nburns = 20\n\
             [double_killscreen]\nfrom_level = 37\nholes = 90\n\
             [b_type]\nburns = -5\n\
             [before_19]\ndanger_height = 14\nburns = 70\n",
        )
        .unwrap();
        // Before level 19 the [before_19] table, from [weights]; from 19 the base weights.
        assert_eq!(w.at(18, true).get("burns"), 70.0);
        assert_eq!(w.at(18, true).get("holes"), 60.0);
        assert_eq!(w.at(0, false).danger_height, 14.0);
        assert_eq!(w.at(19, true).get("burns"), 40.0);
        assert_eq!(w.at(19, true).danger_height, 10.0);
        assert_eq!(w.for_b_type().danger_height, 10.0);
        assert_eq!(w.at(29, true).get("burns"), 20.0);
        assert_eq!(w.at(36, true).get("holes"), 60.0);
        // The double-killscreen table starts from the killscreen weights, from its own level,
        // and only when the game has the double killscreen on.
        assert_eq!(w.at(37, true).get("holes"), 90.0);
        assert_eq!(w.at(37, true).get("burns"), 20.0);
        assert_eq!(w.at(45, false).get("holes"), 60.0);
        assert_eq!(w.for_b_type().get("burns"), -5.0);
        assert_eq!(w.for_b_type().get("holes"), 60.0);
        let back = Weights::from_toml(&w.to_toml()).unwrap();
        assert_eq!(back.at(37, true).w, w.at(37, true).w);
        assert_eq!(back.at(37, true).from_level, 37);
        assert_eq!(back.for_b_type().w, w.for_b_type().w);
        assert_eq!(back.at(18, false).w, w.at(18, false).w);
        assert_eq!(back.at(18, false).danger_height, 14.0);
        assert_eq!(back.phases(), w.phases());
        for key in ["from_level", "ready_from"] {
            assert_refused(
                &format!("[weights]\nholes = 1\n[double_killscreen]\n{key} = {{}}\n"),
                &["3", "256", "39.5"],
                &[
                    &format!("double_killscreen.{key} = "),
                    "expected a level 19..=255",
                ],
            );
        }
        // Files the AI cannot play with are refused, with the reason.
        for (text, why) in [
            ("", "empty"),
            ("name = \"x\"", "only a name"),
            ("[killscreen]\nholes = 1.0", "no [weights] table"),
            ("[weights]\nholes = 1.0\n[b_type]\nholes = 0.0", "[b_type]"),
        ] {
            let e = Weights::from_toml(text).unwrap_err().to_string();
            assert!(
                e.contains("cannot play") && e.contains(why),
                "{text:?}: {e}"
            );
        }
        for text in ["[weights]\nholes = 1e308", "[weights]\nholes = -1e13"] {
            let e = Weights::from_toml(text).unwrap_err().to_string();
            assert!(
                e.contains("holes") && e.contains("out of range"),
                "{text:?}: {e}"
            );
        }
        for text in ["[weights]\nholes = nan", "[weights]\nholes = inf"] {
            let e = Weights::from_toml(text).unwrap_err().to_string();
            assert!(e.contains("finite"), "{text:?}: {e}");
        }
        // Suspicious ones play, with warnings.
        let w = Weights::from_toml("[weights]\nholes = 1e9").unwrap();
        let warn = w.warnings().join("\n");
        assert!(
            warn.contains("very large") && warn.contains("single"),
            "{warn}"
        );
        assert!(Weights::default().warnings().is_empty());
        assert!(Weights::from_toml("[double_killscreen]\nfrom_level = \"x\"").is_err());
    }

    /// The move part of the cost plus the cost of the board alone is the whole cost, and
    /// [`MOVE_FEATURES`] names the move features.
    #[test]
    fn move_cost_splits_the_cost() {
        let names: Vec<&str> = MOVE_FEATURES.iter().map(|&i| FEATURES[i].0).collect();
        assert_eq!(
            names,
            [
                "lines_cleared",
                "lock_height",
                "burns",
                "tetrises",
                "points"
            ]
        );
        let board = board::Board::from_rows_bottom(&[
            "....#.....",
            "#.###.##..",
            "#########.",
            "##.######.",
        ]);
        let mut w = Weights::default();
        w.w[idx("lines_cleared")] = 3.0;
        w.w[idx("points")] = -0.5;
        let e = Evaluator::new(w).with_input(crate::input::InputModel::default());
        let mut m = MoveSummary::default();
        m.add(0, 4, 3, 19);
        m.add(1, 1, 7, 20);
        m.add(2, 2, 2, 20);
        let bare = MoveSummary {
            level: m.level,
            ..MoveSummary::default()
        };
        let split = e.move_cost(&m) + e.cost(&board, &bare);
        assert!((split - e.cost(&board, &m)).abs() < 1e-9);
        assert!(e.move_cost(&m) != 0.0);
    }

    /// `unreachable_gaps` counts the rows by which each column a vertical I cannot reach
    /// stands below its lower neighbour, the well aside: under the double killscreen an edge
    /// column left empty beside a tall stack; on the same board at level 18 (every column in
    /// reach), nothing.
    #[test]
    fn unreachable_gaps_count_the_rows_an_out_of_reach_column_lacks() {
        // The default uses it from level 29 (rows 14 and 15: the double killscreen's table
        // and the killscreen's), and its endgame table inherits it; without the double
        // killscreen level 39 plays the killscreen's table.
        let d = Weights::default();
        for level in [18, 28] {
            assert_eq!(
                d.at(level, true).get("unreachable_gaps"),
                0.0,
                "level {level}"
            );
        }
        for level in [29, 38, 39] {
            assert_eq!(
                d.at(level, true).get("unreachable_gaps"),
                40.0,
                "level {level}"
            );
        }
        assert_eq!(d.at(39, false).get("unreachable_gaps"), 40.0);
        let cap = d.phase_capped(45, 410, true, false, Some(430));
        assert_eq!(d.phases()[cap].get("unreachable_gaps"), 40.0);
        // Column 0 empty beside a six-row stack, the well in the middle (column 5) empty too.
        let board = Board::from_rows_bottom(&[
            ".####.####",
            ".####.####",
            ".####.####",
            ".####.####",
            ".####.####",
            ".####.####",
        ]);
        let mut w = Weights::zero("gaps");
        w.w[idx("unreachable_gaps")] = 1.0;
        w.well_column = 5;
        let at = |w: &Weights, level: u8, dks: bool| {
            let e = Evaluator::new(w.clone()).with_input(crate::input::InputModel::default());
            let m = MoveSummary {
                level,
                double_killscreen: dks,
                ..MoveSummary::default()
            };
            e.cost(&board, &m)
        };
        // Two rows a frame: the vertical I cannot get to column 0, six rows below column 1.
        assert_eq!(at(&w, 39, true), 6.0);
        assert_eq!(at(&w, 18, false), 0.0);
        // With the well on the right, the middle column is a gap but in the I's reach (it
        // spawns there): still only column 0 counts.
        w.well_column = 9;
        assert_eq!(at(&w, 39, true), 6.0);
    }

    /// `board_value`: the shipped value table's value of the board beside the table's well, in
    /// thousands of points; a board the table rates higher costs less at a negative weight.
    #[test]
    fn board_value_reads_the_shipped_table_beside_the_well() {
        let mut w = Weights::zero("value");
        w.w[idx("board_value")] = 1.0;
        w.well_column = 5;
        let cost = |w: &Weights, rows: &[&str]| {
            Evaluator::new(w.clone()).cost(&Board::from_rows_bottom(rows), &MoveSummary::default())
        };
        let value = |rows: &[&str], well: usize| {
            let b = Board::from_rows_bottom(rows);
            crate::value::shipped().value(&b, &b.columns(), &b.heights(), well) / 1000.0
        };
        let ready = ["#####.####"; 4];
        let spire = [
            "#.........",
            "#.........",
            "#.........",
            "#.........",
            "#####.####",
        ];
        for rows in [&ready[..], &spire[..], &[][..]] {
            assert!((cost(&w, rows) - value(rows, 5)).abs() < 1e-9);
        }
        // The table tells these boards apart, and the well column is the table's.
        assert_ne!(value(&ready, 5), value(&spire, 5));
        w.well_column = 9;
        assert!((cost(&w, &ready) - value(&ready, 9)).abs() < 1e-9);
        assert_ne!(value(&ready, 9), value(&ready, 5));
    }

    /// `well_unreachable`: a well column out of the vertical I's reach, open or covered. At
    /// the killscreen (one row a frame, 30 Hz) the rightmost column drops out of reach beside a
    /// 13-row stack.
    #[test]
    fn well_unreachable_marks_a_well_the_i_cannot_reach() {
        let mut w = Weights::zero("well");
        w.w[idx("well_unreachable")] = 1.0;
        let at = |w: &Weights, rows: &[&str], level: u8| {
            let e = Evaluator::new(w.clone()).with_input(crate::input::InputModel::default());
            let m = MoveSummary {
                level,
                ..MoveSummary::default()
            };
            e.cost(&Board::from_rows_bottom(rows), &m)
        };
        let ready = |n: usize| vec!["#########."; n];
        assert_eq!(at(&w, &ready(12), 29), 0.0);
        assert_eq!(at(&w, &ready(13), 29), 1.0);
        // At levels 19-28 (a row every two frames) it is still in reach beside 13 rows.
        assert_eq!(at(&w, &ready(13), 19), 0.0);
        // Covered or filled, a well out of reach counts: covering it must not dodge the term.
        let mut covered = vec!["##########"];
        covered.extend(ready(12));
        assert_eq!(at(&w, &covered, 29), 1.0);
        // Another well column: the middle one, under the spawn, stays in reach.
        w.well_column = 5;
        assert_eq!(at(&w, &["#####.####"; 13], 29), 0.0);
    }

    /// With `with_double_killscreen_reach` (the double-killscreen table from an earlier
    /// `from_level`), `unreachable_columns` counts as at level 39 under the double killscreen
    /// from any level; without the double killscreen, or without the setting, as at the level.
    #[test]
    fn the_double_killscreen_table_measures_reach_at_its_gravity() {
        // Eight rows and a right-hand well: a vertical I reaches more columns at level 37 (one
        // row a frame) than at two rows a frame.
        let board = Board::from_rows_bottom(&[
            "#########.",
            "#########.",
            "#########.",
            "#########.",
            "#########.",
            "#########.",
            "#########.",
            "#########.",
        ]);
        let mut w = Weights::zero("reach");
        w.w[idx("unreachable_columns")] = 1.0;
        let at = |level: u8, dks: bool, from: Option<u8>| {
            let mut e = Evaluator::new(w.clone()).with_input(crate::input::InputModel::default());
            if let Some(from) = from {
                e = e.with_double_killscreen_reach(from);
            }
            let m = MoveSummary {
                level,
                double_killscreen: dks,
                ..MoveSummary::default()
            };
            e.cost(&board, &m)
        };
        let at_39 = at(39, true, None);
        assert!(at_39 > at(37, true, None), "{at_39}");
        assert_eq!(at(37, true, Some(0)), at_39);
        assert_eq!(at(39, true, Some(0)), at_39);
        assert_eq!(at(37, false, Some(0)), at(37, false, None));
        // From a level: before it, the level's own reach.
        assert_eq!(at(37, true, Some(38)), at(37, true, None));
        assert_eq!(at(38, true, Some(38)), at_39);
    }

    /// `[double_killscreen] ready_lines`: the double killscreen's table plays the last lines
    /// of the level before its `from_level`, in games with it on only; read, written back,
    /// checked; the endgame does not inherit it.
    #[test]
    fn double_killscreen_ready_lines_play_the_end_of_level_38() {
        let w = Weights::from_toml(
            "[weights]\nburns = 40\n[killscreen]\nburns = 30\n\
             [double_killscreen]\nready_lines = 4\nburns = 20\n\
             [endgame]\nlines_left = 30\ntetrises = -600\n",
        )
        .unwrap();
        let burns =
            |level: u8, lines: u32| w.phases()[w.phase(level, lines, true, false)].get("burns");
        assert_eq!(burns(38, 325), 30.0);
        assert_eq!(burns(38, 326), 20.0);
        assert_eq!(burns(38, 329), 20.0);
        assert_eq!(burns(37, 329), 30.0);
        assert_eq!(burns(39, 330), 20.0);
        assert_eq!(w.phase(38, 329, true, false), 3);
        // Without the double killscreen, level 38 is the killscreen table's to the end.
        assert_eq!(w.phase(38, 329, false, false), 1);
        assert_eq!(w.phase(38, 329, true, true), 2);
        let back = Weights::from_toml(&w.to_toml()).unwrap();
        assert_eq!(back, w);
        assert_eq!(
            back.double_killscreen.as_ref().unwrap().ready_lines,
            Some(4)
        );
        assert_eq!(back.endgame.as_ref().unwrap().ready_lines, None);
        assert_refused(
            "[weights]\nburns = 40\n[double_killscreen]\nready_lines = {}\n",
            &["0", "11", "2.5", "\"x\""],
            &[
                "double_killscreen.ready_lines = ",
                "expected a line count 1..=10",
            ],
        );
    }

    /// `[killscreen_end]`: under the double killscreen, its weights play the last
    /// `lines_left` lines before the double killscreen's table (from its `ready_lines`), over
    /// level boundaries, and start from the killscreen table; read, written back, checked.
    #[test]
    fn killscreen_end_plays_the_lines_before_the_double_killscreen_table() {
        let w = Weights::from_toml(
            "[weights]\nburns = 40\n[killscreen]\nburns = 30\nholes = 7\n\
             [double_killscreen]\nready_lines = 4\nburns = 20\n\
             [killscreen_end]\nlines_left = 16\nburns = 50\ndanger_height = 7.5\n",
        )
        .unwrap();
        let phase = |level: u8, lines: u32| w.phase(level, lines, true, false);
        // The double killscreen's table from 326 lines, so the end from 310.
        assert_eq!(phase(36, 309), 1);
        assert_eq!(phase(37, 310), 6);
        assert_eq!(phase(37, 319), 6);
        assert_eq!(phase(38, 320), 6);
        assert_eq!(phase(38, 325), 6);
        assert_eq!(phase(38, 326), 3);
        assert_eq!(phase(39, 330), 3);
        assert_eq!(phase(29, 230), 1);
        // Not without the double killscreen, nor in B-type games.
        assert_eq!(w.phase(38, 325, false, false), 1);
        assert_eq!(w.phase(38, 325, true, true), 2);
        let end = w.phases()[6];
        assert_eq!(end.get("burns"), 50.0);
        assert_eq!(end.get("holes"), 7.0, "starts from [killscreen]");
        assert_eq!(end.danger_height, 7.5);
        let back = Weights::from_toml(&w.to_toml()).unwrap();
        assert_eq!(back, w);
        // Without a [double_killscreen] table, the lines before level 39.
        let w = Weights::from_toml(
            "[weights]\nburns = 40\n[killscreen]\nburns = 30\n\
             [killscreen_end]\nlines_left = 5\nburns = 50\n",
        )
        .unwrap();
        assert_eq!(w.phase(38, 324, true, false), 1);
        assert_eq!(w.phase(38, 325, true, false), 6);
        assert_eq!(w.phase(38, 329, true, false), 6);
        assert_eq!(w.phase(39, 330, true, false), 1);
        // Without it, phase 6 is the killscreen's weights.
        let d = Weights::default();
        assert_eq!(d.phases()[6], d.phases()[1]);
        assert_refused(
            "[weights]\nburns = 40\n[killscreen_end]\nlines_left = {}\nburns = 1\n",
            &["0", "31", "2.5", "\"x\""],
            &[
                "killscreen_end.lines_left = ",
                "expected a line count 1..=30",
            ],
        );
        assert_refused(
            "[weights]\nburns = 40\n[killscreen_end]\nburns = {}\n",
            &["1"],
            &["killscreen_end.lines_left", "nothing"],
        );
    }

    /// `[killscreen] ready_lines`: the killscreen table plays the last lines of level 28,
    /// its reach measured at level 29's gravity; read, written back, checked.
    #[test]
    fn killscreen_ready_lines_play_the_end_of_level_28() {
        let w = Weights::from_toml(
            "[weights]\nburns = 40\n[killscreen]\nready_lines = 5\nburns = 20\n",
        )
        .unwrap();
        let burns =
            |level: u8, lines: u32| w.phases()[w.phase(level, lines, true, false)].get("burns");
        assert_eq!(burns(28, 220), 40.0);
        assert_eq!(burns(28, 224), 40.0);
        assert_eq!(burns(28, 225), 20.0);
        assert_eq!(burns(28, 229), 20.0);
        assert_eq!(burns(27, 229), 40.0);
        assert_eq!(burns(29, 230), 20.0);
        // From level 0, level 28 is lines 280-289.
        assert_eq!(burns(28, 286), 20.0);
        assert_eq!(w.phase(28, 229, true, true), 2);
        let back = Weights::from_toml(&w.to_toml()).unwrap();
        assert_eq!(back, w);
        assert_eq!(back.killscreen.as_ref().unwrap().ready_lines, Some(5));
        assert_refused(
            "[weights]\nburns = 40\n[killscreen]\nready_lines = {}\n",
            &["0", "11", "2.5", "\"x\""],
            &["killscreen.ready_lines = ", "expected a line count 1..=10"],
        );
        // Without the key, level 28 is the base table's to the end.
        let plain =
            Weights::from_toml("[weights]\nburns = 40\n[killscreen]\nburns = 20\n").unwrap();
        assert_eq!(plain.phase(28, 229, true, false), 0);
        // The reach: a flat 13-row stack with a right-hand well; at level 29 a vertical I
        // no longer gets to the well, at level 28 it does.
        let board = Board::from_rows_bottom(&["#########."; 13]);
        let mut r = Weights::zero("reach");
        r.w[idx("unreachable_columns")] = 1.0;
        let cost = |e: &Evaluator, level: u8| {
            let m = MoveSummary {
                level,
                ..MoveSummary::default()
            };
            e.cost(&board, &m)
        };
        let plain = Evaluator::new(r.clone()).with_input(crate::input::InputModel::default());
        let ready = plain.clone().with_min_reach_level(29);
        assert!(cost(&plain, 29) > cost(&plain, 28), "{}", cost(&plain, 29));
        assert_eq!(cost(&ready, 28), cost(&plain, 29));
        assert_eq!(cost(&ready, 30), cost(&plain, 30));
    }

    /// Every weights file shipped in `weights/` is one the AI can play with, and reads back
    /// the same after writing.
    #[test]
    fn every_shipped_weights_file_reads() {
        let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/weights"));
        let mut n = 0;
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "toml") {
                let text = std::fs::read_to_string(&path).unwrap();
                let w =
                    Weights::from_toml(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                assert_eq!(
                    Weights::from_toml(&w.to_toml()).unwrap(),
                    w,
                    "{}",
                    path.display()
                );
                n += 1;
            }
        }
        assert!(n >= 5, "{n} weights files");
    }

    /// `ready_from` in `[double_killscreen]`: read, written back, checked.
    #[test]
    fn ready_from_round_trips_and_is_checked() {
        let w = Weights::from_toml(
            "[weights]\nholes = 1\n[double_killscreen]\nfrom_level = 39\nready_from = 37\n",
        )
        .unwrap();
        assert_eq!(w.double_killscreen.as_ref().unwrap().ready_from, Some(37));
        let back = Weights::from_toml(&w.to_toml()).unwrap();
        assert_eq!(back, w);
        for bad in ["3", "300", "\"x\"", "37.5"] {
            let text = format!("[weights]\nholes = 1\n[double_killscreen]\nready_from = {bad}\n");
            let err = Weights::from_toml(&text).unwrap_err().to_string();
            assert!(err.contains("double_killscreen.ready_from"), "{err}");
        }
    }

    /// The cost, which leaves out features and terms with a zero weight, is exactly (the same
    /// f64) the weighted sum of every feature in order, on random boards, for every phase of
    /// the presets, alone or side by side ([`Evaluator::weighted_sums`]); the heights it reads
    /// off the columns are the board's.
    #[test]
    fn cost_is_the_full_weighted_sum() {
        let mut seed = 0x5851_f42d_4c95_7f2du64;
        let presets = [Weights::default(), Weights::meatfighter_2014()];
        for n in 0..3000u32 {
            let mut b = Board::new();
            for x in 0..10 {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let h = (seed >> 33) as usize % (2 + (n as usize % 21));
                for r in (ROWS - h.min(ROWS))..ROWS {
                    if (seed >> (r % 30)) & 7 != 0 {
                        b.rows[r] |= 1 << x;
                    }
                }
            }
            b.clear_lines();
            let mut m = MoveSummary {
                level: [18, 19, 29, 39, 40][n as usize % 5],
                double_killscreen: n % 2 == 0,
                ..MoveSummary::default()
            };
            m.add(0, n % 5, n % 17, m.level);
            for w in presets.iter().flat_map(|p| p.phases()) {
                let e = Evaluator::new(w.clone()).with_input(crate::input::InputModel::default());
                let f = Evaluator::features(&b, &m, w);
                let mut reference = 0.0;
                for (fi, wi) in f.iter().zip(&w.w) {
                    reference += fi * wi;
                }
                assert_eq!(e.cost(&b, &m).to_bits(), reference.to_bits(), "{b:?}");
                // Side by side with another board's sum: the same.
                let fe = e.features_after(&b, &b.columns(), &m, None);
                let mut sums = Vec::new();
                e.weighted_sums(&[f, fe, fe], &mut sums);
                assert_eq!(sums[1].to_bits(), reference.to_bits(), "{b:?}");
                let h = b.heights();
                assert_eq!(f[idx("column_heights")], h.iter().sum::<u32>() as f64);
                assert_eq!(f[idx("pile_height")], *h.iter().max().unwrap() as f64);
            }
        }
    }

    #[test]
    fn weights_file_round_trip_and_errors() {
        let w = Weights::default();
        let back = Weights::from_toml(&w.to_toml()).unwrap();
        assert_eq!(back.w, w.w);
        assert!(matches!(
            Weights::from_toml("[weights]\nbogus = 1.0"),
            Err(WeightsError::UnknownFeature { .. })
        ));
        assert!(matches!(
            Weights::from_toml("holes = \"x\""),
            Err(WeightsError::NotANumber { .. })
        ));
        assert!(matches!(
            Weights::from_toml("holes = "),
            Err(WeightsError::Toml(_))
        ));
        assert!(Weights::preset("nope").is_err());
        assert_eq!(
            Weights::preset("meatfighter-2014")
                .unwrap()
                .get("lock_height"),
            12.885008263218383
        );
    }
}
