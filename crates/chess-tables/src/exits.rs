//! The endings a chess ending's moves lead to: [`captures`],
//! [`successor_endings`] (captures and promotions), and the closure a
//! build plans ([`Tablebase::plan`](crate::Tablebase::plan)).

use crate::Signature;

/// Every ending a sequence of captures and promotions leads to from `s`,
/// `s` excluded, each once (an ending with only Black pieces with the
/// colours exchanged, bare kings left out), fewest pieces first, then by
/// name.
pub(crate) fn reachable_endings(s: &Signature) -> Vec<Signature> {
    let mut out: Vec<Signature> = Vec::new();
    let mut todo = vec![s.clone()];
    while let Some(next) = todo.pop() {
        for sub in successor_endings(&next) {
            let sub = normalised(&sub);
            if sub.piece_count() > 2 && sub != *s && !out.contains(&sub) {
                out.push(sub.clone());
                todo.push(sub);
            }
        }
    }
    out.sort_by_cached_key(|s| (s.piece_count(), s.to_string()));
    out
}

/// The ending with the colours exchanged when only Black has pieces.
pub(crate) fn normalised(s: &Signature) -> Signature {
    let text = s.to_string();
    if text.starts_with("Kv") && text.len() > 3 {
        s.flipped()
    } else {
        s.clone()
    }
}

/// The signature with the colours exchanged.
pub(crate) fn flipped(s: &Signature) -> Signature {
    s.flipped()
}

/// The endings one move out of `s` leads to, colours as they stand:
/// [`captures`], then each promotion of a pawn (to Q, R, B, N), alone or
/// with a capture, without repeats and without two bare kings.
///
/// ```
/// use gametree_chess_tables::{Signature, successor_endings};
///
/// let names = |s: &str| {
///     let s: Signature = s.parse().unwrap();
///     successor_endings(&s).iter().map(|c| c.to_string()).collect::<Vec<_>>()
/// };
/// assert_eq!(names("KQvKR"), ["KvKR", "KQvK"]);
/// assert_eq!(names("KPvK"), ["KQvK", "KRvK", "KBvK", "KNvK"]);
/// assert_eq!(names("KPvKN")[..3], ["KvKN", "KPvK", "KQvKN"]);
/// assert!(names("KPvKN").contains(&"KQvK".to_string())); // a capture promoting
/// ```
#[must_use]
pub fn successor_endings(s: &Signature) -> Vec<Signature> {
    let mut out = captures(s);
    let text = s.to_string();
    let Some((white, black)) = text.split_once('v') else {
        return out;
    };
    let push = |text: String, out: &mut Vec<Signature>| {
        if let Ok(c) = text.parse::<Signature>()
            && c.piece_count() > 2
            && !out.contains(&c)
        {
            out.push(c);
        }
    };
    for (side, other, is_white) in [(white, black, true), (black, white, false)] {
        let Some(k) = side.find('P') else {
            continue;
        };
        for role in ['Q', 'R', 'B', 'N'] {
            let promoted = format!("{}{role}{}", &side[..k], &side[k + 1..]);
            // The promotion alone, then with each capture of a piece of
            // the other side (not its king).
            let mut others = vec![other.to_string()];
            // Pawns never stand on the last rank.
            for (j, c) in other.char_indices().skip(1) {
                if c != 'P' {
                    others.push(format!("{}{}", &other[..j], &other[j + 1..]));
                }
            }
            for o in others {
                let text = if is_white {
                    format!("{promoted}v{o}")
                } else {
                    format!("{o}v{promoted}")
                };
                push(text, &mut out);
            }
        }
    }
    out
}

/// The endings one capture in `s` leads to, colours as they stand, in
/// the order of the captured pieces (White's first), without repeats and
/// without two bare kings (drawn by rule, no table).
///
/// ```
/// use gametree_chess_tables::captures;
/// use gametree_chess_tables::Signature;
///
/// let names = |s: &str| {
///     let s: Signature = s.parse().unwrap();
///     captures(&s).iter().map(|c| c.to_string()).collect::<Vec<_>>()
/// };
/// assert_eq!(names("KQvKR"), ["KvKR", "KQvK"]);
/// assert_eq!(names("KBBvK"), ["KBvK"]);
/// assert!(names("KQvK").is_empty());
/// ```
#[must_use]
pub fn captures(s: &Signature) -> Vec<Signature> {
    let text = s.to_string();
    let Some((white, black)) = text.split_once('v') else {
        return Vec::new();
    };
    let mut out: Vec<Signature> = Vec::new();
    let sides = [(white, true), (black, false)];
    for (side, is_white) in sides {
        for k in 1..side.len() {
            let rest = format!("{}{}", &side[..k], &side[k + 1..]);
            let text = if is_white {
                format!("{rest}v{black}")
            } else {
                format!("{white}v{rest}")
            };
            if let Ok(c) = text.parse::<Signature>()
                && c.piece_count() > 2
                && !out.contains(&c)
            {
                out.push(c);
            }
        }
    }
    out
}
