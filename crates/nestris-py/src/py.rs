//! The PyO3 items. PyO3's macros expand to unsafe FFI glue (the crate otherwise denies
//! `unsafe_code`); nothing here is written unsafe by hand.
#![allow(unsafe_code)]

use std::path::PathBuf;

use nestris_ai::{AiConfig, InputModel, Weights};
use nestris_engine::{GameType, PieceKind};
use nestris_session::env::{
    self, ActionSet, Batch, BatchOut, Env, EnvConfig, EnvError, InvalidAction, Mode, Reward,
};
use nestris_session::render;
use nestris_session::replayfile::Replay;
use numpy::{PyArray1, PyArray2, PyArray3, PyArrayMethods, PyReadonlyArray1, PyReadwriteArrayDyn};
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

fn value_error(e: EnvError) -> PyErr {
    match e {
        EnvError::NotRunning => PyRuntimeError::new_err(e.to_string()),
        _ => PyValueError::new_err(e.to_string()),
    }
}

/// The option names, for the message about an unknown one.
const OPTIONS: &str = "mode, level, game_type, b_height, hz, reaction, double_killscreen, \
     format, line_cap, reward, frame_skip, action_set, invalid_action, invalid_penalty";

fn int_option(name: &str, v: &Bound<'_, PyAny>, lo: i64, hi: i64) -> PyResult<i64> {
    if v.is_instance_of::<pyo3::types::PyBool>() {
        return Err(PyTypeError::new_err(format!(
            "option {name} must be an int, not a bool"
        )));
    }
    let n: i64 = v.extract().map_err(|_| {
        PyTypeError::new_err(format!(
            "option {name} must be an int, got {}",
            v.get_type()
                .name()
                .map(|s| s.to_string())
                .unwrap_or_default()
        ))
    })?;
    if n < lo || n > hi {
        return Err(PyValueError::new_err(format!(
            "bad option {name}={n}: expected {lo}..={hi}"
        )));
    }
    Ok(n)
}

fn str_option(name: &str, v: &Bound<'_, PyAny>) -> PyResult<String> {
    v.extract::<String>()
        .map_err(|_| PyTypeError::new_err(format!("option {name} must be a str")))
}

fn bool_option(name: &str, v: &Bound<'_, PyAny>) -> PyResult<bool> {
    if !v.is_instance_of::<pyo3::types::PyBool>() {
        return Err(PyTypeError::new_err(format!(
            "option {name} must be a bool"
        )));
    }
    v.extract()
}

fn tap_speed(v: &Bound<'_, PyAny>) -> PyResult<InputModel> {
    let text = if let Ok(n) = v.extract::<i64>() {
        n.to_string()
    } else {
        str_option("hz", v)?
    };
    text.parse::<InputModel>()
        .map_err(|e| PyValueError::new_err(format!("bad option hz: {e}")))
}

/// The options of `kwargs` as the environment's configuration (README, "Python").
fn config(kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<EnvConfig> {
    let mut cfg = EnvConfig::default();
    let Some(kw) = kwargs else {
        return Ok(cfg);
    };
    let get = |k: &str| -> PyResult<Option<Bound<'_, PyAny>>> {
        Ok(kw.get_item(k)?.filter(|v| !v.is_none()))
    };
    for (k, _) in kw.iter() {
        let k: String = k.extract()?;
        if !OPTIONS.split(", ").any(|o| o == k) {
            return Err(PyValueError::new_err(format!(
                "unknown option {k:?}; the options are: {OPTIONS}"
            )));
        }
    }
    if let Some(v) = get("mode")? {
        cfg.mode = str_option("mode", &v)?.parse().map_err(value_error)?;
    }
    let placement = cfg.mode == Mode::Placement;
    // A format fixes several options; those given as well must agree.
    let format = get("format")?
        .map(|v| str_option("format", &v))
        .transpose()?;
    match format.as_deref() {
        None => {}
        Some("field") | Some("vanilla") => {
            cfg.level = 18;
            cfg.line_cap = Some(430);
            cfg.double_killscreen = format.as_deref() == Some("field");
        }
        Some(other) => {
            return Err(PyValueError::new_err(format!(
                "bad option format={other:?}: expected 'field' (level 18, double killscreen from \
                 39, 430-line cap, 30 Hz) or 'vanilla' (the same without the double killscreen)"
            )))
        }
    }
    let fixed = |name: &str, given: String, want: String| -> PyResult<()> {
        if given != want {
            return Err(PyValueError::new_err(format!(
                "option {name}={given} conflicts with format={:?}, which sets {name}={want}",
                format.as_deref().unwrap_or("")
            )));
        }
        Ok(())
    };
    if let Some(v) = get("level")? {
        let l = int_option("level", &v, 0, 255)? as u8;
        if format.is_some() {
            fixed("level", l.to_string(), cfg.level.to_string())?;
        }
        cfg.level = l;
    }
    if let Some(v) = get("game_type")? {
        cfg.game_type = match str_option("game_type", &v)?.as_str() {
            "A" | "a" => GameType::A,
            "B" | "b" => GameType::B,
            other => {
                return Err(PyValueError::new_err(format!(
                    "bad option game_type={other:?}: expected 'A' or 'B'"
                )))
            }
        };
        if format.is_some() && cfg.game_type == GameType::B {
            return Err(PyValueError::new_err(
                "option game_type='B' conflicts with format (an A-type format)",
            ));
        }
    }
    if let Some(v) = get("b_height")? {
        cfg.height = int_option("b_height", &v, 0, 5)? as u8;
    }
    if let Some(v) = get("double_killscreen")? {
        let d = bool_option("double_killscreen", &v)?;
        if format.is_some() {
            fixed(
                "double_killscreen",
                d.to_string(),
                cfg.double_killscreen.to_string(),
            )?;
        }
        cfg.double_killscreen = d;
    }
    if let Some(v) = get("line_cap")? {
        let c = int_option("line_cap", &v, 1, 1_000_000)? as u32;
        if format.is_some() {
            fixed("line_cap", c.to_string(), "430".into())?;
        }
        cfg.line_cap = Some(c);
    }
    if let Some(v) = get("reward")? {
        cfg.reward = str_option("reward", &v)?
            .parse::<Reward>()
            .map_err(value_error)?;
    }
    let frame_only = |name: &str| -> PyResult<()> {
        if placement {
            return Err(PyValueError::new_err(format!(
                "option {name} applies to mode='frame' (placement mode plays one lock a step)"
            )));
        }
        Ok(())
    };
    let placement_only = |name: &str| -> PyResult<()> {
        if !placement {
            return Err(PyValueError::new_err(format!(
                "option {name} applies to mode='placement' (in frame mode the agent presses the \
                 buttons itself)"
            )));
        }
        Ok(())
    };
    if let Some(v) = get("frame_skip")? {
        frame_only("frame_skip")?;
        cfg.frame_skip = int_option("frame_skip", &v, 1, 60)? as u32;
    }
    if let Some(v) = get("action_set")? {
        frame_only("action_set")?;
        cfg.action_set = str_option("action_set", &v)?
            .parse::<ActionSet>()
            .map_err(value_error)?;
    }
    if let Some(v) = get("hz")? {
        placement_only("hz")?;
        let m = tap_speed(&v)?;
        if format.is_some() {
            fixed("hz", m.mask_string(), "X.".into())?;
        }
        cfg.input = m;
    }
    if let Some(v) = get("reaction")? {
        placement_only("reaction")?;
        cfg.reaction = int_option("reaction", &v, 0, 600)? as u32;
    }
    let mut penalty = -1.0;
    if let Some(v) = get("invalid_penalty")? {
        placement_only("invalid_penalty")?;
        penalty = v
            .extract::<f64>()
            .ok()
            .filter(|p| p.is_finite())
            .ok_or_else(|| {
                PyValueError::new_err("option invalid_penalty must be a finite number")
            })?;
    }
    cfg.invalid_action = InvalidAction::Terminate(penalty);
    if let Some(v) = get("invalid_action")? {
        placement_only("invalid_action")?;
        cfg.invalid_action = match str_option("invalid_action", &v)?.as_str() {
            "terminate" => InvalidAction::Terminate(penalty),
            "raise" => InvalidAction::Error,
            other => {
                return Err(PyValueError::new_err(format!(
                    "bad option invalid_action={other:?}: expected 'terminate' or 'raise'"
                )))
            }
        };
    }
    cfg.check().map_err(value_error)?;
    Ok(cfg)
}

fn seed_of(seed: Option<&Bound<'_, PyAny>>) -> PyResult<Option<u64>> {
    let Some(s) = seed.filter(|s| !s.is_none()) else {
        return Ok(None);
    };
    let n: i128 = s
        .extract()
        .map_err(|_| PyTypeError::new_err("seed must be an int or None"))?;
    u64::try_from(n)
        .map(Some)
        .map_err(|_| PyValueError::new_err(format!("bad seed {n}: expected 0..=2**64-1")))
}

fn lock_dict<'py>(py: Python<'py>, l: &env::Lock) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("action", l.action)?;
    d.set_item("orientation", l.orientation as u8)?;
    d.set_item("orientation_name", format!("{:?}", l.orientation))?;
    d.set_item("x", l.x)?;
    d.set_item("y", l.y)?;
    d.set_item("inputs", PyBytes::new(py, &l.inputs))?;
    d.set_item("tops_out", l.tops_out)?;
    Ok(d)
}

/// One game (the core of `nestris.NesTetrisEnv`).
#[pyclass(module = "nestris._nestris", name = "Env")]
struct PyEnv {
    cfg: EnvConfig,
    env: Option<Env>,
}

impl PyEnv {
    fn env(&self) -> PyResult<&Env> {
        self.env
            .as_ref()
            .ok_or_else(|| PyRuntimeError::new_err("call reset() first"))
    }
}

#[pymethods]
impl PyEnv {
    #[new]
    #[pyo3(signature = (**kwargs))]
    fn new(kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        Ok(PyEnv {
            cfg: config(kwargs)?,
            env: None,
        })
    }

    /// Starts game `index` of `seed`'s session.
    fn reset(&mut self, seed: &Bound<'_, PyAny>, index: u64) -> PyResult<()> {
        let seed = seed_of(Some(seed))?.unwrap_or(0);
        self.env = Some(Env::new(&self.cfg, seed, index));
        Ok(())
    }

    /// One step: (reward, terminated, truncated, invalid, frames).
    fn step(&mut self, action: &Bound<'_, PyAny>) -> PyResult<(f64, bool, bool, bool, u32)> {
        let a: i64 = action
            .extract()
            .or_else(|_| action.call_method0("__index__")?.extract())
            .map_err(|_| {
                PyTypeError::new_err(format!(
                    "action must be an int, got {}",
                    action
                        .get_type()
                        .name()
                        .map(|s| s.to_string())
                        .unwrap_or_default()
                ))
            })?;
        let cfg = &self.cfg;
        let env = self
            .env
            .as_mut()
            .ok_or_else(|| PyRuntimeError::new_err("call reset() first"))?;
        let r = env.step(cfg, a).map_err(value_error)?;
        Ok((r.reward, r.terminated, r.truncated, r.invalid, r.frames))
    }

    /// The observation: (board (20, 10) uint8, piece int32[6], stats int64[3], timers
    /// int32[9]).
    #[allow(clippy::type_complexity)]
    fn obs<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(
        Bound<'py, PyArray2<u8>>,
        Bound<'py, PyArray1<i32>>,
        Bound<'py, PyArray1<i64>>,
        Bound<'py, PyArray1<i32>>,
    )> {
        let e = self.env()?;
        let mut b = vec![0u8; env::BOARD_LEN];
        let (mut p, mut s, mut t) = (
            vec![0i32; env::PIECE_LEN],
            vec![0i64; env::STATS_LEN],
            vec![0i32; env::TIMERS_LEN],
        );
        e.write_obs(&mut b, &mut p, &mut s, &mut t);
        let board = PyArray1::from_vec(py, b).reshape([20, 10])?;
        Ok((
            board,
            PyArray1::from_vec(py, p),
            PyArray1::from_vec(py, s),
            PyArray1::from_vec(py, t),
        ))
    }

    /// The placement mask: int8[800], 1 for each reachable lock.
    fn action_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i8>>> {
        let mut m = vec![0i8; env::PLACEMENT_ACTIONS];
        self.env()?.write_mask(&mut m);
        Ok(PyArray1::from_vec(py, m))
    }

    /// The reachable locks of the current piece (placement mode).
    fn placements<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        self.env()?
            .placements()
            .iter()
            .map(|l| lock_dict(py, l))
            .collect()
    }

    /// Plays `inputs` on a copy of the game, stopping early once the piece under control at
    /// the start has left control: (piece under control, orientation id, x, y, play state,
    /// frames played). The game itself does not move.
    fn simulate(&self, inputs: &[u8]) -> PyResult<(bool, u8, u8, u8, u8, usize)> {
        let mut g = self.env()?.game;
        let was_active = g.piece_active();
        let mut n = 0;
        for &b in inputs {
            g.step(b);
            n += 1;
            if was_active && !g.piece_active() {
                break;
            }
        }
        Ok((g.piece_active(), g.piece, g.x, g.y, g.play_state as u8, n))
    }

    /// The game as an RGB image (H, W, 3) uint8 in the level's NES colours.
    fn render_rgb<'py>(&self, py: Python<'py>, scale: usize) -> PyResult<Bound<'py, PyArray3<u8>>> {
        if !(1..=8).contains(&scale) {
            return Err(PyValueError::new_err(format!(
                "bad render_scale={scale}: expected 1..=8"
            )));
        }
        let img = render::rgb(&self.env()?.game, scale);
        PyArray1::from_vec(py, img).reshape([render::HEIGHT * scale, render::WIDTH * scale, 3])
    }

    /// The game as text.
    fn render_text(&self) -> PyResult<String> {
        Ok(render::text(&self.env()?.game))
    }

    /// The episode so far in the replay format (bytes).
    fn replay_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        if !self.cfg.record {
            return Err(PyRuntimeError::new_err("this environment does not record"));
        }
        let r = self.env()?.replay(env::replay_meta());
        Ok(PyBytes::new(py, &r.encode()))
    }

    /// Writes the episode as a replay file (`nestris replay FILE` plays it).
    fn save_replay(&self, path: PathBuf) -> PyResult<()> {
        let r = self.env()?.replay(env::replay_meta());
        nestris_session::replayfile::write_atomic(&path, &r.encode()).map_err(|e| {
            pyo3::exceptions::PyOSError::new_err(format!(
                "cannot write the replay {}: {e}",
                path.display()
            ))
        })
    }

    /// The departures from the original game these options make (labels).
    fn departures(&self) -> Vec<String> {
        self.cfg.departures()
    }

    /// Number of actions.
    #[getter]
    fn num_actions(&self) -> usize {
        self.cfg.actions()
    }

    /// Whether the environment is in placement mode.
    #[getter]
    fn placement(&self) -> bool {
        self.cfg.mode == Mode::Placement
    }

    /// The controller byte of each frame-mode action.
    #[getter]
    fn action_bytes(&self) -> Vec<u8> {
        self.cfg.action_set.bytes().to_vec()
    }

    /// (seed, index, frames, score (uncapped), capped score, lines, level, ending).
    #[allow(clippy::type_complexity)]
    fn summary(&self) -> PyResult<(u64, u64, u64, u64, u64, u32, u8, u8)> {
        let e = self.env()?;
        let g = &e.game;
        Ok((
            e.seed,
            e.index,
            e.frames,
            g.score_uncapped,
            g.score_value(),
            g.lines_value(),
            g.level,
            g.ending as u8,
        ))
    }
}

fn rw<'a, T: numpy::Element>(
    a: &'a mut PyReadwriteArrayDyn<'_, T>,
    name: &str,
) -> PyResult<&'a mut [T]> {
    a.as_slice_mut()
        .map_err(|_| PyValueError::new_err(format!("{name} must be a C-contiguous array")))
}

/// The numpy arrays a batch writes its outputs into, one per field of [`BatchOut`].
struct BatchArrays<'a, 'py> {
    board: &'a mut PyReadwriteArrayDyn<'py, u8>,
    piece: &'a mut PyReadwriteArrayDyn<'py, i32>,
    stats: &'a mut PyReadwriteArrayDyn<'py, i64>,
    timers: &'a mut PyReadwriteArrayDyn<'py, i32>,
    reward: &'a mut PyReadwriteArrayDyn<'py, f64>,
    terminated: &'a mut PyReadwriteArrayDyn<'py, bool>,
    truncated: &'a mut PyReadwriteArrayDyn<'py, bool>,
    mask: &'a mut PyReadwriteArrayDyn<'py, i8>,
}

impl<'a> BatchArrays<'a, '_> {
    /// The arrays as slices (each must be C-contiguous; the error names the array).
    fn out(self) -> PyResult<BatchOut<'a>> {
        Ok(BatchOut {
            board: rw(self.board, "board")?,
            piece: rw(self.piece, "piece")?,
            stats: rw(self.stats, "stats")?,
            timers: rw(self.timers, "timers")?,
            reward: rw(self.reward, "reward")?,
            terminated: rw(self.terminated, "terminated")?,
            truncated: rw(self.truncated, "truncated")?,
            mask: rw(self.mask, "action_mask")?,
        })
    }
}

/// N games stepped inside Rust on all cores (the core of `nestris.NesTetrisVectorEnv`).
#[pyclass(module = "nestris._nestris", name = "Batch")]
struct PyBatch {
    batch: Batch,
}

#[pymethods]
impl PyBatch {
    #[new]
    #[pyo3(signature = (num_envs, seed, **kwargs))]
    fn new(
        num_envs: i64,
        seed: &Bound<'_, PyAny>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let mut cfg = config(kwargs)?;
        cfg.record = false;
        if !(1..=1 << 20).contains(&num_envs) {
            return Err(PyValueError::new_err(format!(
                "bad num_envs={num_envs}: expected 1..=1048576"
            )));
        }
        let seed = seed_of(Some(seed))?.unwrap_or(0);
        let batch = Batch::new(cfg, num_envs as usize, seed).map_err(value_error)?;
        Ok(PyBatch { batch })
    }

    /// Starts every game again (from seeds `seed + i`, or each seed's next game), writing
    /// the outputs in place.
    #[allow(clippy::too_many_arguments)]
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        seed: &Bound<'_, PyAny>,
        mut board: PyReadwriteArrayDyn<'py, u8>,
        mut piece: PyReadwriteArrayDyn<'py, i32>,
        mut stats: PyReadwriteArrayDyn<'py, i64>,
        mut timers: PyReadwriteArrayDyn<'py, i32>,
        mut reward: PyReadwriteArrayDyn<'py, f64>,
        mut terminated: PyReadwriteArrayDyn<'py, bool>,
        mut truncated: PyReadwriteArrayDyn<'py, bool>,
        mut mask: PyReadwriteArrayDyn<'py, i8>,
    ) -> PyResult<()> {
        let seed = seed_of(Some(seed))?;
        let mut out = BatchArrays {
            board: &mut board,
            piece: &mut piece,
            stats: &mut stats,
            timers: &mut timers,
            reward: &mut reward,
            terminated: &mut terminated,
            truncated: &mut truncated,
            mask: &mut mask,
        }
        .out()?;
        let b = &mut self.batch;
        py.allow_threads(|| b.reset(seed, &mut out))
            .map_err(value_error)
    }

    /// One step of every game, writing the outputs in place.
    #[allow(clippy::too_many_arguments)]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: PyReadonlyArray1<'_, i64>,
        mut board: PyReadwriteArrayDyn<'py, u8>,
        mut piece: PyReadwriteArrayDyn<'py, i32>,
        mut stats: PyReadwriteArrayDyn<'py, i64>,
        mut timers: PyReadwriteArrayDyn<'py, i32>,
        mut reward: PyReadwriteArrayDyn<'py, f64>,
        mut terminated: PyReadwriteArrayDyn<'py, bool>,
        mut truncated: PyReadwriteArrayDyn<'py, bool>,
        mut mask: PyReadwriteArrayDyn<'py, i8>,
    ) -> PyResult<()> {
        let actions = actions
            .as_slice()
            .map_err(|_| PyValueError::new_err("actions must be a C-contiguous array"))?;
        let mut out = BatchArrays {
            board: &mut board,
            piece: &mut piece,
            stats: &mut stats,
            timers: &mut timers,
            reward: &mut reward,
            terminated: &mut terminated,
            truncated: &mut truncated,
            mask: &mut mask,
        }
        .out()?;
        let b = &mut self.batch;
        py.allow_threads(|| b.step(actions, &mut out))
            .map_err(value_error)
    }

    /// Number of games.
    #[getter]
    fn num_envs(&self) -> usize {
        self.batch.envs.len()
    }

    /// Number of actions.
    #[getter]
    fn num_actions(&self) -> usize {
        self.batch.cfg.actions()
    }

    /// Whether the games are in placement mode.
    #[getter]
    fn placement(&self) -> bool {
        self.batch.cfg.mode == Mode::Placement
    }

    /// Frames played by each game since its start.
    fn frames<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u64>> {
        PyArray1::from_vec(py, self.batch.envs.iter().map(|e| e.frames).collect())
    }
}

/// The AI (`nestris.Ai`).
#[pyclass(module = "nestris._nestris", name = "Ai")]
struct PyAi {
    cfg: AiConfig,
    player: nestris_ai::Ai,
}

#[pymethods]
impl PyAi {
    #[new]
    #[pyo3(signature = (preset="default", weights=None, hz=None, reaction=18))]
    fn new(
        preset: &str,
        weights: Option<PathBuf>,
        hz: Option<&Bound<'_, PyAny>>,
        reaction: i64,
    ) -> PyResult<Self> {
        let weights = match weights {
            Some(path) => {
                let text = std::fs::read_to_string(&path).map_err(|e| {
                    pyo3::exceptions::PyOSError::new_err(format!(
                        "cannot read weights {}: {e}",
                        path.display()
                    ))
                })?;
                Weights::from_toml(&text).map_err(|e| {
                    PyValueError::new_err(format!("weights {}: {e}", path.display()))
                })?
            }
            None => Weights::preset(preset).map_err(|e| {
                PyValueError::new_err(format!(
                    "{e} (presets: {})",
                    nestris_ai::eval::PRESETS.join(", ")
                ))
            })?,
        };
        let mut cfg = AiConfig {
            weights,
            ..AiConfig::default()
        };
        if let Some(h) = hz.filter(|h| !h.is_none()) {
            cfg.input = tap_speed(h)?;
        }
        if !(0..=600).contains(&reaction) {
            return Err(PyValueError::new_err(format!(
                "bad reaction={reaction}: expected 0..=600 frames"
            )));
        }
        cfg.reaction = reaction as u32;
        Ok(PyAi {
            player: nestris_ai::Ai::new(cfg.clone()),
            cfg,
        })
    }

    /// The lock the AI plays for the current piece of `env`'s game (seeing the next piece
    /// at once, at `env`'s tap speed in placement mode, playing for `env`'s line cap): a dict with `action` (the
    /// placement index), `orientation`, `x`, `y`, `inputs`; `None` when no piece is under
    /// control.
    fn best<'py>(
        &self,
        py: Python<'py>,
        env: &Bound<'py, PyAny>,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        let core = core_env(env)?;
        let core = core.borrow();
        let mut cfg = self.cfg.clone();
        if core.cfg.mode == Mode::Placement {
            cfg.input = core.cfg.input.clone();
        }
        // The environment's line cap (a departure) is the end the AI plays for: its
        // weights' `[endgame]` table plays the last lines before it.
        cfg.line_cap = core.cfg.line_cap;
        let game = core.env()?.game;
        let lock = py.allow_threads(|| env::ai_choice(&cfg, &game));
        lock.map(|l| lock_dict(py, &l)).transpose()
    }

    /// The controller byte the AI holds on the next frame of `env`'s game (the AI player
    /// itself: its tap speed and reaction time, playing for `env`'s line cap; it keeps its
    /// plan between calls).
    fn next_input(&mut self, env: &Bound<'_, PyAny>) -> PyResult<u8> {
        let core = core_env(env)?;
        let core = core.borrow();
        // The environment's line cap (a departure) is the end the AI plays for, as in `best`.
        self.player.set_line_cap(core.cfg.line_cap);
        Ok(self.player.next_input(&core.env()?.game))
    }

    fn __repr__(&self) -> String {
        format!(
            "Ai(preset={:?}, hz={:?}, reaction={})",
            self.cfg.weights.name,
            self.cfg.input.mask_string(),
            self.cfg.reaction
        )
    }
}

/// The core environment of a `NesTetrisEnv` (or of a wrapper around one), or the core
/// itself.
fn core_env<'py>(env: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyEnv>> {
    if let Ok(c) = env.downcast::<PyEnv>() {
        return Ok(c.clone());
    }
    let inner = env
        .getattr("unwrapped")
        .and_then(|u| u.getattr("_core"))
        .map_err(|_| PyTypeError::new_err("expected a nestris environment"))?;
    inner
        .downcast::<PyEnv>()
        .cloned()
        .map_err(|_| PyTypeError::new_err("expected a nestris environment"))
}

/// Replays a replay file headless (as `nestris replay --check`): a dict with `score`
/// (uncapped), `lines`, `level`, `frames`, `ending` and `matches` (every frame played and the
/// end the file records). Raises ValueError for a file that is not a valid NES replay.
#[pyfunction]
fn check_replay<'py>(py: Python<'py>, path: PathBuf) -> PyResult<Bound<'py, PyDict>> {
    let r = Replay::read(&path).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let c = env::check_replay(&r).ok_or_else(|| {
        PyValueError::new_err(format!(
            "{} is a classic rule set's replay, not a NES game",
            path.display()
        ))
    })?;
    let d = PyDict::new(py);
    d.set_item("score", c.game.score_uncapped)?;
    d.set_item("lines", c.game.lines_value())?;
    d.set_item("level", c.game.level)?;
    d.set_item("frames", c.frames)?;
    d.set_item("ending", c.game.ending as u8)?;
    d.set_item("matches", c.matches)?;
    d.set_item("seed", r.meta.seed)?;
    d.set_item("game_index", r.meta.game_index)?;
    Ok(d)
}

/// The action index of the lock `(orientation id, x, y)` (placement mode).
#[pyfunction]
fn placement_action(orientation: u8, x: i8, y: i8) -> PyResult<usize> {
    nestris_engine::Orientation::from_id(orientation)
        .and_then(|o| env::placement_action(o, x, y))
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "no placement action for orientation {orientation} at x{x} y{y}"
            ))
        })
}

/// The lock `(orientation id, x, y)` an action stands for, for a piece kind (0-6), or
/// `None` if the piece has no such orientation.
#[pyfunction]
fn action_lock(kind: u8, action: usize) -> PyResult<Option<(u8, i8, i8)>> {
    if kind > 6 {
        return Err(PyValueError::new_err(format!(
            "bad piece kind {kind}: expected 0..=6 (T J Z O S L I)"
        )));
    }
    Ok(
        env::action_lock(PieceKind::from_index(kind as usize), action)
            .map(|(o, x, y)| (o as u8, x, y)),
    )
}

#[pymodule]
fn _nestris(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyEnv>()?;
    m.add_class::<PyBatch>()?;
    m.add_class::<PyAi>()?;
    m.add_function(wrap_pyfunction!(check_replay, m)?)?;
    m.add_function(wrap_pyfunction!(placement_action, m)?)?;
    m.add_function(wrap_pyfunction!(action_lock, m)?)?;
    m.add("PLACEMENT_ACTIONS", env::PLACEMENT_ACTIONS)?;
    m.add("PIECE_LEN", env::PIECE_LEN)?;
    m.add("STATS_LEN", env::STATS_LEN)?;
    m.add("TIMERS_LEN", env::TIMERS_LEN)?;
    m.add("RENDER_WIDTH", render::WIDTH)?;
    m.add("RENDER_HEIGHT", render::HEIGHT)?;
    m.add("PRESETS", nestris_ai::eval::PRESETS.to_vec())?;
    Ok(())
}
