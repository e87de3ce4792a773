"""NES Tetris (NTSC, 1989), bit-exact, as a Gymnasium environment.

``gymnasium.make("nestris/NesTetris-v0", mode="frame" | "placement", ...)`` makes one game
(:class:`NesTetrisEnv`); :class:`NesTetrisVectorEnv` steps N games inside Rust on all cores.
``Ai(preset).best(env)`` is the project's AI; ``check_replay(path)`` replays a saved episode.
The options, spaces and policies are documented in the repository's README ("Python").
"""

from gymnasium.envs.registration import register, registry

from ._nestris import (
    PLACEMENT_ACTIONS,
    PRESETS,
    Ai,
    action_lock,
    check_replay,
    placement_action,
)
from .env import NesTetrisEnv, PIECES
from .vector import NesTetrisVectorEnv

ENV_ID = "nestris/NesTetris-v0"

if ENV_ID not in registry:
    register(
        id=ENV_ID,
        entry_point="nestris.env:NesTetrisEnv",
        vector_entry_point="nestris.vector:NesTetrisVectorEnv",
    )

__all__ = [
    "Ai",
    "ENV_ID",
    "NesTetrisEnv",
    "NesTetrisVectorEnv",
    "PIECES",
    "PLACEMENT_ACTIONS",
    "PRESETS",
    "action_lock",
    "check_replay",
    "placement_action",
]
