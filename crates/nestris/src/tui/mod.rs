//! The terminal game: screen layout, colours, endings, keyboard and the shared frame loop
//! pieces used by `watch`, `play` and `replay`.

pub mod classic_view;
pub mod endings;
pub mod keys;
pub mod palette;
pub mod session;
pub mod term;
pub mod view;

/// NTSC NES frame rate (frames per second).
pub const FPS: f64 = 60.0988;

/// One NTSC frame.
pub fn frame_duration() -> std::time::Duration {
    std::time::Duration::from_secs_f64(1.0 / FPS)
}
