//! StackRabbit-style requests, parsed and answered in its formats: `get-move` gives
//! `rotation,xOffset,yOffset|inputs|board|level|lines`, and its inputs, fed to the engine
//! from the position, lock the piece where the board says; `rate-move` finds the player's
//! move by the board after it; `engine-movelist-cpp` is a JSON list; compressed boards read
//! as their raw form.

use nestris_engine::{buttons, PlayState};
use nestris_http::route;
use nestris_session::analysis::{root, Query};
use nestris_session::position::Position;

fn board() -> String {
    let mut b = "0".repeat(170);
    b.push_str("1100000000");
    b.push_str("1110000011");
    b.push_str("1111101111");
    b
}

fn sr_inputs(s: &str) -> Vec<u8> {
    s.chars()
        .map(|c| match c {
            'L' => buttons::LEFT,
            'R' => buttons::RIGHT,
            'A' => buttons::A,
            'B' => buttons::B,
            'E' => buttons::LEFT | buttons::A,
            'F' => buttons::LEFT | buttons::B,
            'I' => buttons::RIGHT | buttons::A,
            'G' => buttons::RIGHT | buttons::B,
            _ => 0,
        })
        .collect()
}

#[test]
fn get_move_answers_in_stackrabbits_format_and_its_inputs_lock_there() {
    let well = format!("{}{}", "0".repeat(160), "1111111110".repeat(4));
    for (b, piece, next, level, timeline) in [
        (board(), "T", "I", 18, "X."),
        (board(), "L", "", 19, "X..."),
        (board(), "I", "O", 29, "X-"),
        // A Tetris: the line-clear animation's frames are `^`.
        (well, "I", "T", 18, "X.."),
    ] {
        let r = route(
            "GET",
            &format!("/get-move?board={b}&currentPiece={piece}&nextPiece={next}&level={level}&lines=12&inputFrameTimeline={timeline}&reactionTime=0&playoutCount=49"),
            b"",
        );
        assert_eq!(
            (r.status, r.content_type),
            (200, "text/plain"),
            "{}",
            r.body
        );
        let parts: Vec<&str> = r.body.split('|').collect();
        assert_eq!(parts.len(), 5, "{}", r.body);
        let lock: Vec<i32> = parts[0]
            .split(',')
            .map(|x| x.parse().expect("number"))
            .collect();
        assert_eq!(lock.len(), 3, "{}", r.body);
        assert_eq!(parts[2].len(), 200);
        assert_eq!(parts[3].parse::<u8>().ok(), Some(level), "{}", r.body);
        // Feed the inputs to the engine from the position: the piece locks, and the board
        // after (lines cleared included) is the answer's.
        let position = Position::from_parts(
            &b,
            nestris_engine::PieceKind::from_letter(piece.chars().next().unwrap()).unwrap(),
            None,
            level,
            12,
            0,
        )
        .expect("position");
        let q = Query {
            position,
            ai: nestris_ai::AiConfig::default(),
            double_killscreen: false,
            progress: None,
        };
        let (mut g, _) = root(&q).expect("root");
        // The frames to the lock, then `*` and `^` until the next piece can move.
        let pre = parts[1].trim_end_matches(['*', '^']);
        let post = &parts[1][pre.len()..];
        assert!(post.len() >= 10, "{}", r.body);
        assert!(post.chars().all(|c| c == '*' || c == '^'), "{}", r.body);
        let inputs = sr_inputs(pre);
        for &i in &inputs {
            assert_eq!(
                g.play_state,
                PlayState::PlayerControlsActiveTetrimino,
                "{}",
                r.body
            );
            g.step(i);
        }
        assert_eq!(g.play_state, PlayState::LockTetrimino, "{}", r.body);
        // Run the lock and the clear: the next piece can move after exactly the frames the
        // answer gives, the line-clear animation on the `^` ones.
        for c in post.chars() {
            assert_ne!(
                g.play_state,
                PlayState::PlayerControlsActiveTetrimino,
                "{}",
                r.body
            );
            assert_eq!(
                g.play_state == PlayState::LineClearAnimation,
                c == '^',
                "{}",
                r.body
            );
            g.step(0);
        }
        assert_eq!(
            g.play_state,
            PlayState::PlayerControlsActiveTetrimino,
            "{}",
            r.body
        );
        let after: String = (0..20)
            .flat_map(|y| (0..10).map(move |x| (x, y)))
            .map(|(x, y)| {
                if g.playfield.occupied_at(x, y) {
                    '1'
                } else {
                    '0'
                }
            })
            .collect();
        assert_eq!(after, parts[2], "{}", r.body);
        assert_eq!(
            parts[4].parse::<u32>().ok(),
            Some(g.lines_value()),
            "{}",
            r.body
        );
        // The -cpp route gives the same.
        let cpp = route(
            "GET",
            &format!("/get-move-cpp?board={b}&currentPiece={piece}&nextPiece={next}&level={level}&lines=12&inputFrameTimeline={timeline}"),
            b"",
        );
        assert_eq!(cpp.body, r.body);
    }
}

#[test]
fn rate_move_and_movelist() {
    let b = board();
    let best = route(
        "GET",
        &format!(
            "/get-move?board={b}&currentPiece=T&nextPiece=I&level=18&lines=0&inputFrameTimeline=X."
        ),
        b"",
    );
    let after = best.body.split('|').nth(2).expect("board").to_string();
    for (route_name, quoted) in [("rate-move", true), ("rate-move-cpp", false)] {
        let r = route(
            "GET",
            &format!("/{route_name}?board={b}&secondBoard={after}&currentPiece=T&nextPiece=I&level=18&lines=0&inputFrameTimeline=X."),
            b"",
        );
        assert_eq!(r.status, 200, "{}", r.body);
        let v: serde_json::Value = serde_json::from_str(&r.body).expect("json");
        for k in [
            "playerMoveNoAdjustment",
            "bestMoveNoAdjustment",
            "playerMoveAfterAdjustment",
            "bestMoveAfterAdjustment",
        ] {
            assert_eq!(v[k].is_string(), quoted, "{k}: {v}");
        }
        let num = |k: &str| {
            v[k].as_f64()
                .or_else(|| v[k].as_str().and_then(|s| s.parse().ok()))
                .unwrap()
        };
        // The best move rated against itself loses nothing once the next piece is known.
        assert!(
            (num("playerMoveAfterAdjustment") - num("bestMoveAfterAdjustment")).abs() < 0.01,
            "{v}"
        );
    }
    // A board no move leaves: StackRabbit's "Unknown score" (rate-move), a 400 naming the
    // field (rate-move-cpp, where StackRabbit answers an error text).
    let r = route("GET", &format!("/rate-move?board={b}&secondBoard={}&currentPiece=T&level=18&lines=0&inputFrameTimeline=X.", "0".repeat(200)), b"");
    assert_eq!(r.status, 200);
    assert!(
        r.body
            .contains(r#""playerMoveNoAdjustment":"Unknown score""#),
        "{}",
        r.body
    );
    let r = route("GET", &format!("/rate-move-cpp?board={b}&secondBoard={}&currentPiece=T&level=18&lines=0&inputFrameTimeline=X.", "0".repeat(200)), b"");
    assert_eq!(r.status, 400);
    assert!(r.body.contains(r#""field":"secondBoard""#), "{}", r.body);
    let list = route("GET", &format!("/engine-movelist-cpp?board={b}&currentPiece=T&nextPiece=I&level=18&lines=0&inputFrameTimeline=X."), b"");
    let v: serde_json::Value = serde_json::from_str(&list.body).expect("json list");
    let first = &v[0];
    assert_eq!(
        first["firstPlacement"].as_array().map(Vec::len),
        Some(3),
        "{v}"
    );
    // The board after both pieces, compressed as StackRabbit writes it; seven playouts.
    let compressed = first["resultingBoard"].as_str().expect("board");
    assert_eq!(
        nestris_http::stackrabbit::decompress_board(compressed).map(|b| b.len()),
        Ok(200),
        "{v}"
    );
    assert_eq!(
        first["secondPlacement"].as_array().map(Vec::len),
        Some(3),
        "{v}"
    );
    for k in 1..=7 {
        let p = &first[format!("playout{k}")];
        assert_eq!(p["pieceSequence"].as_str().map(str::len), Some(2), "{v}");
        assert_eq!(p["placements"].as_array().map(Vec::len), Some(2), "{v}");
    }
    let scores: Vec<f64> = v
        .as_array()
        .expect("list")
        .iter()
        .map(|m| m["playoutScore"].as_f64().expect("score"))
        .collect();
    assert!(
        scores.windows(2).all(|w| w[0] >= w[1]),
        "best first: {scores:?}"
    );
    // The compressed board is the same board.
    let raw = route(
        "GET",
        "/get-move?board=15,CaEa,3&currentPiece=T&level=18&lines=0&inputFrameTimeline=X.",
        b"",
    );
    let full = format!(
        "{}111000000011110000001111111110111111111011111111101",
        "0".repeat(150)
    );
    let plain = route(
        "GET",
        &format!(
            "/get-move?board={}&currentPiece=T&level=18&lines=0&inputFrameTimeline=X.",
            &full[..200]
        ),
        b"",
    );
    assert_eq!(raw.body, plain.body);
    // Every level, unlike StackRabbit; bad input is a 400 naming the field.
    assert_eq!(
        route(
            "GET",
            &format!("/get-move?board={b}&currentPiece=T&level=3&lines=0&inputFrameTimeline=X."),
            b""
        )
        .status,
        200
    );
    let bad = route(
        "GET",
        &format!("/get-move?board={b}&currentPiece=W&level=18&lines=0&inputFrameTimeline=X."),
        b"",
    );
    assert_eq!(bad.status, 400);
    assert!(
        bad.body.contains(r#""field":"currentPiece""#),
        "{}",
        bad.body
    );
    let bad = route(
        "GET",
        "/get-move?board=15,Ca&currentPiece=T&level=18&lines=0&inputFrameTimeline=X.",
        b"",
    );
    assert!(bad.body.contains(r#""field":"board""#), "{}", bad.body);
}
