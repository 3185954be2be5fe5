//! Quoted-printable for text bodies (RFC 2045 6.7), byte for byte what the
//! `quoted_printable` crate writes in its text mode (as lettre uses it), in a
//! fifth of the time: runs of plain characters are copied whole and each other
//! byte is one table lookup, where the crate pushes a `char` at a time. Most
//! of the clerk's Russian bodies are all escapes; this was 3 % of a large
//! run's main thread (benches/README.md, change 36).

/// Lines of at most 76 characters before the CRLF.
const LIMIT: usize = 76;

/// `=XX` for every byte.
const ESCAPES: [[u8; 3]; 256] = {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut table = [[0u8; 3]; 256];
    let mut byte = 0;
    while byte < 256 {
        table[byte] = [b'=', HEX[byte >> 4], HEX[byte & 15]];
        byte += 1;
    }
    table
};

/// A byte written as itself: printable ASCII but `=`, and tab.
fn plain(byte: u8) -> bool {
    matches!(byte, b'\t' | b' '..=b'<' | b'>'..=b'~')
}

struct Writer {
    out: Vec<u8>,
    /// Characters on the current line.
    on_line: usize,
    /// Where the last thing appended one at a time begins: a soft break
    /// that no longer fits after it goes before it.
    backup: usize,
}

impl Writer {
    /// Appends a character or an escape, breaking the line first if it
    /// would not fit with the `=` of a soft break.
    fn append(&mut self, piece: &[u8]) {
        if self.on_line + piece.len() > LIMIT {
            if self.on_line == LIMIT {
                self.on_line = self.out.len() - self.backup;
                self.out.splice(self.backup..self.backup, *b"=\r\n");
            } else {
                self.out.extend_from_slice(b"=\r\n");
                self.on_line = 0;
            }
        }
        self.out.extend_from_slice(piece);
        self.on_line += piece.len();
        self.backup = self.out.len() - piece.len();
    }

    /// A space or tab may not end a line: it is written as an escape.
    fn escape_trailing_blank(&mut self) {
        if let Some(&last @ (b' ' | b'\t')) = self.out.last() {
            self.out.pop();
            self.on_line -= 1;
            self.append(&ESCAPES[usize::from(last)]);
        }
    }
}

/// `input` (text with CRLF line ends) as quoted-printable.
pub fn encode(input: &[u8]) -> Vec<u8> {
    let mut w = Writer {
        out: Vec::with_capacity(input.len() * 3 + input.len() / 24 + 8),
        on_line: 0,
        backup: 0,
    };
    let mut was_cr = false;
    let mut at = 0;
    while at < input.len() {
        let byte = input[at];
        at += 1;
        if was_cr {
            was_cr = false;
            if byte == b'\n' {
                w.escape_trailing_blank();
                w.out.extend_from_slice(b"\r\n");
                w.on_line = 0;
                continue;
            }
            w.append(b"=0D");
        }
        if byte == b'\r' {
            was_cr = true;
            continue;
        }
        if plain(byte) && LIMIT - w.on_line >= 3 {
            // A run of plain characters, up to two short of the limit.
            let start = at - 1;
            let longest = (LIMIT - w.on_line - 2).min(input.len() - start);
            let run = input[start..start + longest]
                .iter()
                .position(|&b| !plain(b))
                .unwrap_or(longest);
            w.out.extend_from_slice(&input[start..start + run]);
            w.on_line += run;
            w.backup = w.out.len();
            at = start + run;
            continue;
        }
        if plain(byte) {
            w.append(&[byte]);
        } else {
            w.append(&ESCAPES[usize::from(byte)]);
        }
    }
    if was_cr {
        w.append(b"=0D");
    } else {
        w.escape_trailing_blank();
    }
    w.out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn examples() {
        let table: [(&str, &str); 6] = [
            ("hello, \u{20ac} zone!", "hello, =E2=82=AC zone!"),
            ("a = b\r\n", "a =3D b\r\n"),
            ("trailing \r\ntab\t\r\n", "trailing=20\r\ntab=09\r\n"),
            ("end ", "end=20"),
            ("lone\rcr\r", "lone=0Dcr=0D"),
            ("", ""),
        ];
        for (text, written) in table {
            assert_eq!(
                String::from_utf8(encode(text.as_bytes())).unwrap(),
                written,
                "{text:?}"
            );
        }
    }

    /// Pieces that meet the line limit in every way: plain runs, escapes
    /// that cross it, blanks before line ends, lone CRs and LFs.
    const PIECES: [&str; 14] = [
        "a",
        "word ",
        "longerword",
        " ",
        "\t",
        "=",
        "я",
        "ход ",
        "\r\n",
        "\r",
        "\n",
        "~",
        "€",
        "х",
    ];

    /// A little generator of its own: the same bodies on every run.
    fn bodies() -> impl Iterator<Item = String> {
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        (0..20_000).map(move |_| {
            let pieces = next() % 120;
            (0..pieces)
                .map(|_| PIECES[(next() % PIECES.len() as u64) as usize])
                .collect()
        })
    }

    #[test]
    fn the_same_bytes_as_the_crate_for_twenty_thousand_bodies() {
        for body in bodies() {
            assert_eq!(
                encode(body.as_bytes()),
                quoted_printable::encode(body.as_bytes()),
                "{body:?}"
            );
        }
    }

    #[test]
    fn the_same_bytes_as_the_crate_for_lines_at_every_length_near_the_limit() {
        for length in 60..90 {
            for tail in ["", " ", "=", "я", "\r\n", " \r\n", "ab\r\n"] {
                for fill in ["a", "я", "a я"] {
                    let line: String = fill.repeat(length).chars().take(length).collect();
                    let body = format!("{line}{tail}{line}");
                    assert_eq!(
                        encode(body.as_bytes()),
                        quoted_printable::encode(body.as_bytes()),
                        "{body:?}"
                    );
                }
            }
        }
    }
}
