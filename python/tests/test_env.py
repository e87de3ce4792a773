"""The nestris Python package: determinism, masks against the engine, B-type, replays, bad
arguments, gymnasium's checker and the vector API."""

import os
import random
import subprocess
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import nestris

ID = nestris.ENV_ID
A, B, LEFT, RIGHT = 0x80, 0x40, 0x02, 0x01


def make(**kw):
    return gym.make(ID, **kw).unwrapped




def episode(env, seed, policy, steps):
    obs, info = env.reset(seed=seed)
    trail = [(obs["board"].tobytes(), obs["piece"].tobytes(), obs["timers"].tobytes())]
    for k in range(steps):
        obs, r, te, tr, info = env.step(policy(k, info))
        trail.append((obs["board"].tobytes(), obs["piece"].tobytes(), r, te, tr))
        if te or tr:
            break
    return trail


def first_unmasked(k, info):
    return int(np.flatnonzero(info["action_mask"])[k % int(info["action_mask"].sum())])


@pytest.mark.parametrize(
    "kw, policy",
    [
        (dict(mode="frame", level=9), lambda k, info: k % 6),
        (dict(mode="frame", action_set="full", frame_skip=3), lambda k, info: (k * 37) % 256 & ~0x30),
        (dict(mode="placement", level=18), first_unmasked),
        (dict(mode="placement", game_type="B", b_height=4, level=5), first_unmasked),
    ],
)
def test_same_seed_same_game(kw, policy):
    a = episode(make(**kw), 123, policy, 400)
    b = episode(make(**kw), 123, policy, 400)
    c = episode(make(**kw), 124, policy, 400)
    assert a == b
    assert a != c


def test_reset_without_seed_goes_on_to_the_next_game():
    env = make(mode="placement")
    o1, i1 = env.reset(seed=5)
    o2, i2 = env.reset()
    assert (i1["seed"], i1["game_index"]) == (5, 0)
    assert (i2["seed"], i2["game_index"]) == (5, 1)
    o3, _ = make(mode="placement").reset(seed=5)
    assert np.array_equal(o1["timers"], o3["timers"])


@pytest.mark.parametrize(
    "kw",
    [
        dict(level=0, hz=30),
        dict(level=18, hz=15),
        dict(level=19, hz="X..."),
        dict(level=29, hz=30),
        dict(level=39, hz=30, double_killscreen=True),
        dict(level=18, hz=10, reaction=15),
        dict(level=8, game_type="B", b_height=5),
    ],
)
def test_every_unmasked_action_locks_where_it_says_and_no_masked_one_is_reachable(kw):
    """Each unmasked action's inputs, played on the engine, lock the piece at that action's
    place; random legal input sequences (presses only where the tap speed allows, as the
    search assumes) only ever lock at unmasked places."""
    env = make(mode="placement", **kw)
    obs, info = env.reset(seed=7)
    rng = random.Random(1)
    hz = kw.get("hz", 30)
    period = {30: 2, 20: 3, 15: 4, 12: 5, 10: 6}.get(hz, len(str(hz)))
    presses = [0, LEFT, RIGHT, A, B, LEFT | A, LEFT | B, RIGHT | A, RIGHT | B]
    checked = random_checked = 0
    for piece in range(8):
        mask = info["action_mask"]
        kind = int(obs["piece"][1])
        allowed = set(np.flatnonzero(mask).tolist())
        places = env.placements()
        assert {p["action"] for p in places} == allowed and allowed
        for p in places:
            active, o, x, y, state, n = env.simulate(p["inputs"])
            assert n == len(p["inputs"]) and not active and (o, x, y) == (p["orientation"], p["x"], p["y"]), p
            assert nestris.action_lock(kind, p["action"]) == (o, x, y)
            assert nestris.placement_action(o, x, y) == p["action"]
            checked += 1
        for trial in range(60):
            inputs = []
            for t in range(1500):
                inputs.append(rng.choice(presses) if t % period == 0 else 0)
            active, o, x, y, state, n = env.simulate(bytes(inputs))
            if o == 19 or active:
                continue
            a = nestris.placement_action(o, x, y)
            assert mask[a] == 1, f"lock {o} x{x} y{y} reached by {inputs[:n]} is masked"
            random_checked += 1
        obs, r, te, tr, info = env.step(places[piece * 3 % len(places)]["action"])
        if te or tr:
            break
    assert checked > 50 and random_checked > 100


def test_masked_action_ends_the_episode_with_the_penalty_or_raises():
    env = make(mode="placement", invalid_penalty=-5.0)
    obs, info = env.reset(seed=3)
    masked = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs2, r, te, tr, info2 = env.step(masked)
    assert (r, te, tr, info2.get("invalid_action")) == (-5.0, True, False, True)
    assert np.array_equal(obs["board"], obs2["board"]) and np.array_equal(obs["timers"], obs2["timers"])
    with pytest.raises(RuntimeError, match="reset"):
        env.step(int(np.flatnonzero(info["action_mask"])[0]))
    strict = make(mode="placement", invalid_action="raise")
    strict.reset(seed=3)
    with pytest.raises(ValueError, match="masked"):
        strict.step(masked)


def test_b_type():
    env = make(mode="placement", game_type="B", b_height=5, level=9)
    obs, info = env.reset(seed=11)
    # Height 5: garbage fills the bottom 12 rows, each with blanks.
    rows = obs["board"].sum(axis=1)
    assert rows[:8].sum() == 0 and (rows[8:] > 0).all() and (rows < 10).all()
    assert obs["stats"][1] == 25
    ai = nestris.Ai("default")
    total = 0.0
    for _ in range(400):
        obs, r, te, tr, info = env.step(ai.best(env)["action"])
        total += r
        if te or tr:
            break
    assert te and info["ending"] == 2, "the AI should clear a level-9 height-5 B-type game"
    assert obs["stats"][1] == 0 and total > 0
    lines = make(mode="placement", game_type="B", reward="lines")
    lines.reset(seed=11)
    got = 0.0
    while True:
        obs, r, te, tr, info = lines.step(ai.best(lines)["action"])
        got += r
        if te or tr:
            break
    assert info["ending"] == 2 and got >= 25


def cli():
    path = os.environ.get("NESTRIS_BIN")
    return path if path and os.path.exists(path) else None


@pytest.mark.parametrize("kw", [dict(mode="placement", level=19), dict(mode="frame", level=15, game_type="B", b_height=2)])
def test_replay_export_replays(tmp_path, kw):
    env = make(**kw)
    obs, info = env.reset(seed=21)
    k = 0
    while True:
        action = first_unmasked(k, info) if env.placement else (k % 6)
        obs, r, te, tr, info = env.step(action)
        k += 1
        if te or tr:
            break
    path = tmp_path / "episode.nestris"
    env.save_replay(path)
    assert path.read_bytes()[:8] == b"NESTRISR"
    check = nestris.check_replay(path)
    assert check["matches"] and check["ending"] == 1
    assert (check["score"], check["lines"], check["seed"]) == (info["score"], info["lines"], 21)
    if cli():
        out = subprocess.run([cli(), "replay", "--check", str(path)], capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        assert f"true score {info['score']} lines {info['lines']}" in out.stdout
    # A damaged file is refused with the check that failed.
    bad = tmp_path / "bad.nestris"
    data = bytearray(path.read_bytes())
    data[30] ^= 1
    bad.write_bytes(bytes(data))
    with pytest.raises(ValueError, match="checksum"):
        nestris.check_replay(bad)


@pytest.mark.parametrize(
    "kw, error, words",
    [
        (dict(level=256), ValueError, "level=256"),
        (dict(level=-1), ValueError, "level=-1"),
        (dict(level="18"), TypeError, "level must be an int"),
        (dict(mode="placment"), ValueError, "'placement'"),
        (dict(game_type="C"), ValueError, "game_type"),
        (dict(game_type="B", b_height=6), ValueError, "b_height=6"),
        (dict(b_height=3), ValueError, "game_type='B'"),
        (dict(reward="points"), ValueError, "'score', 'lines' or 'survival'"),
        (dict(frame_skip=0), ValueError, "frame_skip=0"),
        (dict(action_set="all"), ValueError, "'simple', 'movement' or 'full'"),
        (dict(mode="placement", hz=25), ValueError, "tap speed"),
        (dict(mode="frame", hz=30), ValueError, "applies to mode='placement'"),
        (dict(mode="placement", frame_skip=2), ValueError, "applies to mode='frame'"),
        (dict(format="field", level=19), ValueError, "conflicts with format"),
        (dict(format="tournament"), ValueError, "'field'"),
        (dict(game_type="B", line_cap=10), ValueError, "A-type"),
        (dict(line_cap=0), ValueError, "line_cap=0"),
        (dict(lvl=3), ValueError, "unknown option"),
        (dict(double_killscreen=1), TypeError, "bool"),
        (dict(mode="placement", invalid_action="ignore"), ValueError, "'terminate' or 'raise'"),
    ],
)
def test_bad_arguments_raise_clear_errors(kw, error, words):
    with pytest.raises(error, match=words.replace("(", r"\(").replace(")", r"\)")):
        gym.make(ID, **kw)


def test_bad_actions_and_seeds_raise_clear_errors():
    with pytest.raises(ValueError, match="render_mode"):
        nestris.NesTetrisEnv(render_mode="video")
    with pytest.raises(ValueError, match="render_scale"):
        nestris.NesTetrisEnv(render_scale=0)
    env = make(mode="frame")
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    env.reset(seed=1)
    for bad, error in [(6, ValueError), (-1, ValueError), (1.5, TypeError), ("1", TypeError)]:
        with pytest.raises(error, match="action"):
            env.step(bad)
    env.step(np.int64(5))
    with pytest.raises((ValueError, gym.error.Error), match="[Ss]eed"):
        env.reset(seed=-3)
    with pytest.raises(ValueError, match="preset"):
        nestris.Ai("no-such-preset")
    with pytest.raises(ValueError, match="tap speed"):
        nestris.Ai(hz="XX")
    with pytest.raises(TypeError, match="nestris environment"):
        nestris.Ai().best(object())
    v = nestris.NesTetrisVectorEnv(num_envs=3)
    v.reset(seed=0)
    with pytest.raises(ValueError, match="environment 1"):
        v.step([0, 7, 0])
    with pytest.raises(ValueError, match="3"):
        v.step([0, 0])
    with pytest.raises(ValueError, match="num_envs"):
        nestris.NesTetrisVectorEnv(num_envs=0)


@pytest.mark.parametrize("kw", [dict(mode="frame"), dict(mode="frame", action_set="full", frame_skip=4), dict(mode="placement"), dict(mode="placement", game_type="B", b_height=3)])
def test_gymnasium_check_env_passes(kw):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(gym.make(ID, render_mode="rgb_array", **kw).unwrapped, skip_render_check=False)
        check_env(gym.make(ID, render_mode="ansi", **kw).unwrapped, skip_render_check=False)


def test_render_rgb_in_the_levels_colours_and_ansi():
    frames = {}
    for level in (0, 1, 18):
        env = make(mode="placement", level=level, render_mode="rgb_array", render_scale=1)
        env.reset(seed=2)
        img = env.render()
        assert img.shape == (176, 160, 3) and img.dtype == np.uint8
        frames[level] = img
    # Same game, other level: other colours, same layout of non-black pixels.
    assert not np.array_equal(frames[0], frames[1])
    assert np.array_equal(frames[0].any(axis=2), frames[18].any(axis=2))
    env = make(mode="frame", render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert text.count("@") == 4 and "level 0" in text


@pytest.mark.parametrize("mode", ["frame", "placement"])
def test_vector_env_matches_single_games_and_autoresets(mode):
    n = 4
    venv = gym.make_vec(ID, num_envs=n, vectorization_mode="vector_entry_point", mode=mode, level=19)
    assert isinstance(venv.unwrapped, nestris.NesTetrisVectorEnv)
    singles = [make(mode=mode, level=19) for _ in range(n)]
    obs, info = venv.reset(seed=50)
    sobs = [e.reset(seed=50 + i) for i, e in enumerate(singles)]
    assert venv.observation_space.contains(obs)
    done = [False] * n
    resets = 0
    for step in range(300):
        if mode == "placement":
            # A game that ended has an empty mask: its action is ignored (autoreset).
            actions = np.array([int(np.argmax(info["action_mask"][i])) for i in range(n)])
        else:
            actions = np.array([(step + i) % 6 for i in range(n)])
        obs, rew, te, tr, info = venv.step(actions)
        for i, e in enumerate(singles):
            if done[i]:
                o, inf = e.reset()
                r, t1, t2 = 0.0, False, False
                resets += 1
            else:
                o, r, t1, t2, inf = e.step(int(actions[i]))
            done[i] = t1 or t2
            for k in o:
                assert np.array_equal(obs[k][i], o[k]), (step, i, k)
            assert (rew[i], te[i], tr[i]) == (r, t1, t2)
            if mode == "placement":
                assert np.array_equal(info["action_mask"][i], inf["action_mask"])
    if mode == "placement":
        assert resets > 0
    venv.close()


def test_ai_plays_unmasked_and_from_frame_mode():
    env = make(mode="placement", level=18, hz=15)
    obs, info = env.reset(seed=4)
    ai = nestris.Ai("meatfighter-2014")
    for _ in range(30):
        best = ai.best(env)
        assert info["action_mask"][best["action"]] == 1
        obs, r, te, tr, info = env.step(best["action"])
        assert not te
    frame = make(mode="frame", action_set="full", level=18)
    frame.reset(seed=4)
    player = nestris.Ai("default", reaction=18)
    for _ in range(4000):
        obs, r, te, tr, info = frame.step(player.next_input(frame))
        if te:
            break
    assert info["lines"] > 10


def test_the_ai_player_plays_for_the_env_line_cap():
    # Level 45 under the double killscreen, the game stopped at 20 lines: the default's
    # [endgame] table (the last 30 lines before the cap) plays from the start, so the
    # player's inputs differ from those of a game with a far cap (the first 800 frames are
    # enough: with seed 3 they part at frame 425).
    def inputs(line_cap):
        env = make(mode="frame", action_set="full", level=45, double_killscreen=True, line_cap=line_cap)
        env.reset(seed=3)
        player = nestris.Ai("default")
        out = []
        for _ in range(800):
            b = player.next_input(env)
            out.append(b)
            obs, r, te, tr, info = env.step(b)
            if te or tr:
                break
        return out

    near, far = inputs(20), inputs(5000)
    assert near != far
    assert inputs(5000) == far
