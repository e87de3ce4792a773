//! Controller bytes as text: one frame ([`input_string`]), a plan ([`plan_string`]), every
//! frame of an input sequence ([`frames_string`]).

use nestris_engine::buttons;

/// A controller plan as a compact string: one character per frame (`.` nothing, `L R D U A B`
/// a button, `S`/`s` Start/Select), several buttons in brackets (`[RA]`), a run of more than
/// four idle frames as `.×N`; the idle frames at the end are left out (`…`).
pub fn plan_string(plan: &[u8], max_chars: usize) -> String {
    let mut end = plan.len();
    while end > 0 && plan[end - 1] == 0 {
        end -= 1;
    }
    let mut s = String::new();
    let mut i = 0;
    while i < end {
        if plan[i] == 0 {
            let mut j = i;
            while j < end && plan[j] == 0 {
                j += 1;
            }
            if j - i > 4 {
                s.push_str(&format!(".×{}", j - i));
            } else {
                s.push_str(&".".repeat(j - i));
            }
            i = j;
        } else {
            s.push_str(&input_string(plan[i]));
            i += 1;
        }
    }
    if end < plan.len() {
        s.push('…');
    }
    if s.chars().count() > max_chars && max_chars > 1 {
        let cut: String = s.chars().take(max_chars - 1).collect();
        return cut + "…";
    }
    s
}

/// One controller byte as text (see [`plan_string`]).
pub fn input_string(b: u8) -> String {
    const NAMES: [(u8, char); 8] = [
        (buttons::LEFT, 'L'),
        (buttons::RIGHT, 'R'),
        (buttons::DOWN, 'D'),
        (buttons::UP, 'U'),
        (buttons::A, 'A'),
        (buttons::B, 'B'),
        (buttons::START, 'S'),
        (buttons::SELECT, 's'),
    ];
    let v: String = NAMES
        .iter()
        .filter(|(m, _)| b & m != 0)
        .map(|(_, c)| *c)
        .collect();
    match v.chars().count() {
        0 => ".".into(),
        1 => v,
        _ => format!("[{v}]"),
    }
}

/// Every frame of `inputs`, one [`input_string`] each (`.` for nothing).
pub fn frames_string(inputs: &[u8]) -> String {
    inputs.iter().map(|&b| input_string(b)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plans() {
        let p = [buttons::RIGHT, 0, buttons::RIGHT, 0, buttons::A, 0, 0, 0];
        assert_eq!(plan_string(&p, 40), "R.R.A…");
        assert_eq!(
            plan_string(&[buttons::RIGHT | buttons::A, buttons::DOWN], 40),
            "[RA]D"
        );
        assert_eq!(plan_string(&[], 40), "");
        let mut p = vec![0u8; 18];
        p.extend([buttons::LEFT, 0, buttons::LEFT, 0, 0]);
        assert_eq!(plan_string(&p, 40), ".×18L.L…");
    }

    #[test]
    fn frames() {
        assert_eq!(
            frames_string(&[0, buttons::RIGHT, 0, buttons::RIGHT | buttons::A]),
            ".R.[RA]"
        );
    }
}
