//! What an IMAP server may send in one response line: a bound on the line
//! with the literals it announces (`{N}` at a line's end, RFC 9051 §4.3),
//! so that a server that sends one endless line, or announces a literal of
//! any size, is an error at once instead of memory without end.
//!
//! A letter comes in one such line (`* 1 FETCH (… BODY[] {N}` and the
//! letter), so the bound is set above the largest letter the clerk fetches
//! whole (`[limits] max_letter_bytes`); anything past it is not IMAP the
//! clerk asked for.

use std::fmt;

/// Counts a response line's bytes, its literals within it.
#[derive(Clone, Debug)]
pub(super) struct LineBound {
    limit: usize,
    /// Bytes of the current line so far, literals included.
    line: usize,
    /// Bytes of an announced literal still to come.
    literal: usize,
    /// The current line's last bytes outside literals, to find a `{N}`
    /// before its CRLF.
    tail: Vec<u8>,
}

/// A line past the bound, or a literal that would take it past.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct TooLong {
    pub limit: usize,
    /// The literal's announced size, where one was.
    pub literal: Option<usize>,
}

impl fmt::Display for TooLong {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.literal {
            Some(size) => write!(
                f,
                "the server announced a literal of {size} bytes, past the {} a response may have here",
                self.limit
            ),
            None => write!(
                f,
                "the server sent a response line of over {} bytes",
                self.limit
            ),
        }
    }
}

impl std::error::Error for TooLong {}

/// The bytes of a line's end looked at for a literal's `{N}`: more digits
/// than any size has. A longer `{…}` is no size async-imap reads either.
const TAIL: usize = 40;

impl LineBound {
    pub(super) fn new(limit: usize) -> LineBound {
        LineBound {
            limit,
            line: 0,
            literal: 0,
            tail: Vec::with_capacity(TAIL),
        }
    }

    /// Takes the bytes just read.
    pub(super) fn take(&mut self, bytes: &[u8]) -> Result<(), TooLong> {
        let mut rest = bytes;
        while !rest.is_empty() {
            if self.literal > 0 {
                let inside = self.literal.min(rest.len());
                self.literal -= inside;
                self.line += inside;
                rest = &rest[inside..];
                continue;
            }
            let byte = rest[0];
            rest = &rest[1..];
            self.line += 1;
            if self.line > self.limit {
                return Err(self.too_long(None));
            }
            if self.tail.len() == TAIL {
                self.tail.remove(0);
            }
            self.tail.push(byte);
            if byte == b'\n' {
                match literal_announced(&self.tail) {
                    Some(size) if self.line.saturating_add(size) > self.limit => {
                        return Err(self.too_long(Some(size)));
                    }
                    Some(size) => self.literal = size,
                    None => self.line = 0,
                }
                self.tail.clear();
            }
        }
        Ok(())
    }

    fn too_long(&self, literal: Option<usize>) -> TooLong {
        TooLong {
            limit: self.limit,
            literal,
        }
    }
}

/// The size of a literal a line's end announces: `{N}\r\n` (or `~{N}`,
/// `{N+}`); `None` for any other end. A size too large to count is taken as
/// the largest, so that it is refused.
fn literal_announced(tail: &[u8]) -> Option<usize> {
    let line = tail.strip_suffix(b"\n")?;
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let inside = line.strip_suffix(b"}")?;
    let inside = inside.strip_suffix(b"+").unwrap_or(inside);
    let open = inside.iter().rposition(|&b| b == b'{')?;
    let digits = &inside[open + 1..];
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(
        std::str::from_utf8(digits)
            .ok()
            .and_then(|d| d.parse().ok())
            .unwrap_or(usize::MAX),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fed(limit: usize, pieces: &[&[u8]]) -> Result<(), TooLong> {
        let mut bound = LineBound::new(limit);
        pieces.iter().try_for_each(|piece| bound.take(piece))
    }

    #[test]
    fn lines_and_their_literals_are_bounded_together() {
        let letter = vec![b'x'; 900];
        let mut fetch = b"* 1 FETCH (UID 7 BODY[] {900}\r\n".to_vec();
        fetch.extend_from_slice(&letter);
        fetch.extend_from_slice(b")\r\n");
        // (what the server sent, in the pieces it came in; the bound; fits)
        let table: Vec<(Vec<&[u8]>, usize, bool)> = vec![
            (vec![b"* OK ready\r\n"], 100, true),
            (vec![b"* OK ", b"ready\r\n", b"* OK again\r\n"], 12, true),
            (vec![&[b'*'; 101]], 100, false),
            // Endless short lines each fit: time bounds them, not this.
            (vec![b"* OK x\r\n"; 1000], 10, true),
            (vec![&fetch], 1000, true),
            (
                vec![&fetch[..10], &fetch[10..500], &fetch[500..]],
                1000,
                true,
            ),
            // A literal announced past the bound is refused before it comes.
            (vec![b"* 1 FETCH (BODY[] {5000}\r\n"], 1000, false),
            (
                vec![b"* 1 FETCH (BODY[] {99999999999999999999999}\r\n"],
                1000,
                false,
            ),
            (vec![b"* 1 FETCH (BODY[] ~{5000}\r\n"], 1000, false),
            // The literal's bytes count, though they hold line breaks.
            (vec![&fetch], 920, false),
            // `{N}` not at the line's end is no literal.
            (vec![b"* OK {5000} said\r\n"], 100, true),
        ];
        for (row, (pieces, limit, fits)) in table.iter().enumerate() {
            assert_eq!(fed(*limit, pieces).is_ok(), *fits, "row {row}");
        }
    }

    #[test]
    fn the_refusal_says_what_came() {
        assert_eq!(
            fed(20, &[b"* 1 FETCH {50}\r\n"]).unwrap_err().to_string(),
            "the server announced a literal of 50 bytes, past the 20 a response may have here"
        );
        assert_eq!(
            fed(10, &[&[b'a'; 11]]).unwrap_err().to_string(),
            "the server sent a response line of over 10 bytes"
        );
    }
}
