"""One game of NES Tetris as a ``gymnasium.Env`` (README, "Python")."""

from __future__ import annotations

import os
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from . import _nestris
from .spaces import observation_space

PIECES = "TJZOSLI"
FRAMES_PER_SECOND = 60.0988


class NesTetrisEnv(gym.Env):
    """NES Tetris, bit-exact, in frame mode (one controller action a frame) or placement
    mode (one reachable lock a piece, with ``info["action_mask"]``).

    Options (keyword arguments of ``gymnasium.make("nestris/NesTetris-v0", ...)``): ``mode``
    ("frame" or "placement"), ``level`` (0-19; up to 255 as an experiment, a departure from
    the original), ``game_type`` ("A"/"B"), ``b_height`` (0-5), ``hz`` and ``reaction``
    (placement mode: tap speed and frames the piece falls before the decision),
    ``double_killscreen``, ``format`` ("field" or "vanilla"), ``line_cap``, ``reward``
    ("score", "lines", "survival"), ``frame_skip`` and ``action_set`` ("simple", "movement",
    "full"; frame mode), ``invalid_action`` ("terminate" or "raise") and
    ``invalid_penalty`` (placement mode), ``render_mode`` ("rgb_array", "ansi") and
    ``render_scale``.
    """

    metadata = {"render_modes": ["rgb_array", "ansi"], "render_fps": 60}

    def __init__(self, render_mode: str | None = None, render_scale: int = 2, **options: Any):
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"bad render_mode={render_mode!r}: expected one of "
                f"{self.metadata['render_modes']} or None"
            )
        if isinstance(render_scale, bool) or not isinstance(render_scale, int) or not 1 <= render_scale <= 8:
            raise ValueError(f"bad render_scale={render_scale!r}: expected an int 1..=8")
        self._core = _nestris.Env(**options)
        self.render_mode = render_mode
        self.render_scale = render_scale
        self.placement = self._core.placement
        self.action_space = spaces.Discrete(self._core.num_actions)
        self.observation_space = observation_space()
        skip = options.get("frame_skip") or 1
        self.metadata = dict(self.metadata)
        self.metadata["render_fps"] = (
            4 if self.placement else max(1, round(FRAMES_PER_SECOND / skip))
        )
        self._seed: int | None = None
        self._index = 0

    # -- gymnasium API ---------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        if options:
            raise ValueError(f"reset() takes no options, got {sorted(options)}")
        if seed is not None:
            self._seed, self._index = int(seed), 0
        elif self._seed is None:
            self._seed, self._index = int(self.np_random.integers(2**63)), 0
        else:
            self._index += 1
        self._core.reset(self._seed, self._index)
        info = self._info()
        departures = self._core.departures()
        if departures:
            info["departures"] = departures
        return self._obs(), info

    def step(self, action):
        reward, terminated, truncated, invalid, frames = self._core.step(action)
        info = self._info()
        info["step_frames"] = frames
        if invalid:
            info["invalid_action"] = True
        return self._obs(), reward, terminated, truncated, info

    def render(self):
        if self.render_mode == "rgb_array":
            return self._core.render_rgb(self.render_scale)
        if self.render_mode == "ansi":
            return self._core.render_text()
        return None

    # -- nestris extras ----------------------------------------------------------------
    def action_mask(self) -> np.ndarray:
        """Placement mode: int8[800], 1 where the action is a reachable lock."""
        return self._core.action_mask()

    def placements(self) -> list[dict]:
        """Placement mode: the reachable locks of the current piece, each a dict with
        ``action``, ``orientation`` (the game's id), ``orientation_name``, ``x``, ``y``,
        ``inputs`` (one controller byte a frame) and ``tops_out``."""
        return self._core.placements()

    def simulate(self, inputs: bytes):
        """Plays ``inputs`` on a copy of the game, stopping once the piece under control
        has left control; returns (piece under control, orientation id, x, y, play state,
        frames played). The game does not move."""
        return self._core.simulate(bytes(inputs))

    def save_replay(self, path: str | os.PathLike) -> None:
        """Writes the episode so far in the project's replay format (``nestris replay
        FILE`` plays it). A game that topped out is saved with its curtain."""
        self._core.save_replay(os.fspath(path))

    def replay_bytes(self) -> bytes:
        """The episode so far as a replay file's bytes."""
        return self._core.replay_bytes()

    @property
    def action_bytes(self) -> list[int]:
        """Frame mode: the controller byte of each action (A 0x80, B 0x40, Select 0x20,
        Start 0x10, Up 0x08, Down 0x04, Left 0x02, Right 0x01)."""
        return self._core.action_bytes

    def _obs(self) -> dict:
        board, piece, stats, timers = self._core.obs()
        return {"board": board, "piece": piece, "stats": stats, "timers": timers}

    def _info(self) -> dict:
        seed, index, frames, score, capped, lines, level, ending = self._core.summary()
        info = {
            "seed": seed,
            "game_index": index,
            "frames": frames,
            "score": score,
            "score_capped": capped,
            "lines": lines,
            "level": level,
            "ending": ending,
        }
        if self.placement:
            info["action_mask"] = self._core.action_mask()
        return info
