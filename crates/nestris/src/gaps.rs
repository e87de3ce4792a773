//! The gaps file of `nestris sequence --gaps`: whitespace-separated frame counts. Kept free of
//! the rest of the binary so the fuzz target and the corpus test can read it too.

/// Parses a gaps file's text: whitespace-separated integers 0..=4294967295, at least one.
/// `name` (the file) goes into the error, with the entry's number and line.
pub fn parse_gaps(text: &str, name: &str) -> Result<Vec<u32>, String> {
    let mut gaps = Vec::new();
    for (line_no, line) in text.lines().enumerate() {
        for word in line.split_whitespace() {
            let g = word.parse::<u32>().map_err(|_| {
                format!(
                    "gaps file {name}: line {}: entry {} `{}` is not a frame count (an integer 0..={})",
                    line_no + 1,
                    gaps.len() + 1,
                    word.chars().take(40).collect::<String>(),
                    u32::MAX
                )
            })?;
            gaps.push(g);
        }
    }
    if gaps.is_empty() {
        return Err(format!("gaps file {name} lists no frame gaps"));
    }
    Ok(gaps)
}
