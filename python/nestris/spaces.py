"""The observation space shared by the single and the batched environment."""

import numpy as np
from gymnasium import spaces

from ._nestris import PIECE_LEN, STATS_LEN, TIMERS_LEN

# piece: under control (0/1), kind (0-6 T J Z O S L I, 7 none), orientation id (0-18, 19
# none), x, y, next kind.
PIECE_LOW = np.zeros(PIECE_LEN, dtype=np.int32)
PIECE_HIGH = np.array([1, 7, 19, 255, 255, 7], dtype=np.int32)
# stats: level, lines, score (uncapped).
STATS_LOW = np.zeros(STATS_LEN, dtype=np.int64)
STATS_HIGH = np.array([255, 2**31, 2**62], dtype=np.int64)
# timers: fallTimer, DAS (autorepeatX), autorepeatY, playState, vramRow, completed lines,
# line-clear animation step (rowY), buttons held on the last frame, frame counter.
TIMERS_LOW = np.array([0, 0, -128, 0, 0, 0, 0, 0, 0], dtype=np.int32)
TIMERS_HIGH = np.array([255, 255, 127, 11, 255, 4, 255, 255, 65535], dtype=np.int32)
assert len(TIMERS_LOW) == TIMERS_LEN


def observation_space() -> spaces.Dict:
    """The observation of one game."""
    return spaces.Dict(
        {
            "board": spaces.Box(0, 1, (20, 10), dtype=np.uint8),
            "piece": spaces.Box(PIECE_LOW, PIECE_HIGH, dtype=np.int32),
            "stats": spaces.Box(STATS_LOW, STATS_HIGH, dtype=np.int64),
            "timers": spaces.Box(TIMERS_LOW, TIMERS_HIGH, dtype=np.int32),
        }
    )
