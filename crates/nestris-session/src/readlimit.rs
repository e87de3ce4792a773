//! Reading input files with a size limit, so that a wrong path (`/dev/zero`, a huge file) is
//! an error instead of a process that fills memory.

use std::io::Read;
use std::path::Path;

/// Size limits of the files the commands read.
pub mod max {
    /// Weights files (`--weights`) and key maps (`play --keys`).
    pub const SMALL: u64 = 1 << 20;
    /// Piece files (`file:PATH`), gaps files (`--gaps`) and the tuner's state.
    pub const MEDIUM: u64 = 16 << 20;
    /// Games CSV files (`bench --games-csv`): a million games.
    pub const LARGE: u64 = 1 << 30;
}

/// The bytes of `path`, or an error (kind `InvalidData`) if it holds more than `max` bytes.
pub fn read(path: &Path, max: u64) -> std::io::Result<Vec<u8>> {
    read_from(std::fs::File::open(path)?, max)
}

/// The bytes `reader` has left (a file already open, say), or an error (kind `InvalidData`)
/// if it holds more than `max` bytes.
pub fn read_from(reader: impl Read, max: u64) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    reader.take(max + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("the file is larger than {max} bytes, more than such a file can hold"),
        ));
    }
    Ok(bytes)
}

/// [`read`] as UTF-8 text.
pub fn read_to_string(path: &Path, max: u64) -> std::io::Result<String> {
    String::from_utf8(read(path, max)?).map_err(|e| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("the file is not UTF-8 text ({e})"),
        )
    })
}
