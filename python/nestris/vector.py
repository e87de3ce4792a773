"""N games stepped inside Rust on all cores, as a ``gymnasium.vector.VectorEnv``."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from . import _nestris
from .spaces import observation_space


class NesTetrisVectorEnv(VectorEnv):
    """``num_envs`` games with the options of :class:`nestris.NesTetrisEnv`, stepped in one
    call into Rust (rayon, every core), with no Python loop per game.

    Game ``i`` of ``reset(seed=s)`` is the game ``NesTetrisEnv`` gives for ``reset(seed=s +
    i)``. A game that ends is reset on the next step ("next step" autoreset, gymnasium's
    default): that step ignores its action and returns its new start with reward 0. The
    arrays are written in place by Rust; with ``copy=False`` the returned arrays are those
    buffers (overwritten by the next step), with ``copy=True`` (default) copies.
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(self, num_envs: int = 8, copy: bool = True, render_mode: str | None = None, **options: Any):
        if render_mode is not None:
            raise ValueError("the batched environment does not render; use NesTetrisEnv")
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)):
            raise TypeError(f"num_envs must be an int, got {type(num_envs).__name__}")
        self._core = _nestris.Batch(int(num_envs), 0, **options)
        n = self._core.num_envs
        self.num_envs = n
        self.copy = copy
        self.placement = self._core.placement
        self.single_observation_space = observation_space()
        self.single_action_space = spaces.Discrete(self._core.num_actions)
        self.observation_space = batch_space(self.single_observation_space, n)
        self.action_space = batch_space(self.single_action_space, n)
        self._board = np.zeros((n, 20, 10), dtype=np.uint8)
        self._piece = np.zeros((n, _nestris.PIECE_LEN), dtype=np.int32)
        self._stats = np.zeros((n, _nestris.STATS_LEN), dtype=np.int64)
        self._timers = np.zeros((n, _nestris.TIMERS_LEN), dtype=np.int32)
        self._reward = np.zeros(n, dtype=np.float64)
        self._terminated = np.zeros(n, dtype=np.bool_)
        self._truncated = np.zeros(n, dtype=np.bool_)
        self._mask = np.zeros(
            (n, _nestris.PLACEMENT_ACTIONS) if self.placement else (0,), dtype=np.int8
        )
        self._seeded = False

    def _buffers(self):
        return (
            self._board,
            self._piece,
            self._stats,
            self._timers,
            self._reward,
            self._terminated,
            self._truncated,
            self._mask,
        )

    def _out(self):
        obs = {
            "board": self._board,
            "piece": self._piece,
            "stats": self._stats,
            "timers": self._timers,
        }
        info: dict = {}
        if self.placement:
            info["action_mask"] = self._mask
            info["_action_mask"] = np.ones(self.num_envs, dtype=np.bool_)
        if self.copy:
            obs = {k: v.copy() for k, v in obs.items()}
            info = {k: v.copy() for k, v in info.items()}
        return obs, info

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        if options:
            raise ValueError(f"reset() takes no options, got {sorted(options)}")
        if isinstance(seed, (list, tuple)):
            raise ValueError("seed must be one int (game i gets seed + i) or None")
        super().reset(seed=seed)
        if seed is None and not self._seeded:
            seed = int(self.np_random.integers(2**63))
        if seed is not None:
            self._seeded = True
        self._core.reset(seed, *self._buffers())
        return self._out()

    def step(self, actions):
        a = np.ascontiguousarray(np.asarray(actions), dtype=np.int64).reshape(-1)
        if a.shape[0] != self.num_envs:
            raise ValueError(
                f"actions has {a.shape[0]} elements, expected {self.num_envs} (one per game)"
            )
        self._core.step(a, *self._buffers())
        obs, info = self._out()
        r, te, tr = self._reward, self._terminated, self._truncated
        if self.copy:
            r, te, tr = r.copy(), te.copy(), tr.copy()
        return obs, r, te, tr, info

    def frames(self) -> np.ndarray:
        """Frames each game has played since its start."""
        return self._core.frames()
