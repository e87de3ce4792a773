//! Packed BCD as the game stores its score, lines and statistics.

/// Decimal value of a packed-BCD number. Nibbles above 9 (which the game can produce) count at
/// face value, as the game's digit display would read them.
pub fn from_bcd(v: u32) -> u64 {
    let mut out = 0u64;
    let mut mul = 1u64;
    let mut v = v;
    while v != 0 {
        out += (v & 0xF) as u64 * mul;
        mul *= 10;
        v >>= 4;
    }
    out
}

/// Packed BCD of a decimal value (as many nibbles as needed).
pub fn to_bcd(mut v: u64) -> u32 {
    let mut out = 0u32;
    let mut shift = 0;
    while v != 0 && shift < 32 {
        out |= ((v % 10) as u32) << shift;
        v /= 10;
        shift += 4;
    }
    out
}

/// The line counter as a number: low byte packed BCD, high byte binary hundreds.
pub fn lines_value(lines: u16) -> u32 {
    (lines >> 8) as u32 * 100 + from_bcd((lines & 0xFF) as u32) as u32
}

/// The line counter as the game stores it, from a number of lines (at most 25,599).
pub fn lines_encode(n: u32) -> u16 {
    (((n / 100) as u16 & 0xFF) << 8) | to_bcd((n % 100) as u64) as u16
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        assert_eq!(from_bcd(0x999999), 999_999);
        assert_eq!(to_bcd(123456), 0x123456);
        assert_eq!(lines_value(0x0130), 130);
        assert_eq!(lines_value(0x0A00), 1000);
        assert_eq!(lines_encode(2290), 0x1690);
        for n in [0, 9, 10, 99, 100, 1234, 3300] {
            assert_eq!(lines_value(lines_encode(n)), n);
        }
    }
}
