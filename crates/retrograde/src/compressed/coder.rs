//! The entropy coder of compressed tables: an adaptive binary range coder
//! and the model that predicts each code from its neighbours 1, 8 and 64
//! indices back; one block coded at a time.

use crate::LoadError;
use crate::value::RESERVED_CODE;

// ---------------------------------------------------------------------
// The binary range coder.

/// Bits of a probability.
const PROB_BITS: u32 = 12;
/// The probability of one half.
const PROB_HALF: u16 = 1 << (PROB_BITS - 1);
/// Adaptation speed: a probability moves by 1/16 of its error.
const ADAPT: u32 = 4;
/// The range is renormalised when it falls below this.
const TOP: u32 = 1 << 24;

/// One side of the coder: the encoder codes the bit it is given and
/// returns it, the decoder returns the bit it reads. The model is written
/// once over this trait, so both sides make the same decisions.
trait Coder {
    /// Codes (or decodes) one binary decision with probability `p` (of
    /// `false`, in units of `2^-PROB_BITS`), then adapts `p`.
    fn bit(&mut self, p: &mut u16, value: bool) -> bool;
}

fn adapt(p: &mut u16, value: bool) {
    if value {
        *p -= *p >> ADAPT;
    } else {
        *p += ((1u16 << PROB_BITS) - *p) >> ADAPT;
    }
}

/// The encoder (the carry-propagating range encoder of LZMA's kind).
struct Encoder {
    low: u64,
    range: u32,
    cache: u8,
    pending: u64,
    out: Vec<u8>,
}

impl Encoder {
    fn new() -> Encoder {
        Encoder {
            low: 0,
            range: u32::MAX,
            cache: 0,
            pending: 1,
            out: Vec::new(),
        }
    }

    fn shift_low(&mut self) {
        if self.low < 0xff00_0000 || self.low >= 1 << 32 {
            let carry = (self.low >> 32) as u8;
            let mut byte = self.cache;
            while self.pending > 0 {
                self.out.push(byte.wrapping_add(carry));
                byte = 0xff;
                self.pending -= 1;
            }
            self.cache = (self.low >> 24) as u8;
        }
        self.pending += 1;
        self.low = (self.low & 0x00ff_ffff) << 8;
    }

    fn finish(mut self) -> Vec<u8> {
        for _ in 0..5 {
            self.shift_low();
        }
        self.out
    }
}

impl Coder for Encoder {
    fn bit(&mut self, p: &mut u16, value: bool) -> bool {
        let bound = (self.range >> PROB_BITS) * u32::from(*p);
        if value {
            self.low += u64::from(bound);
            self.range -= bound;
        } else {
            self.range = bound;
        }
        adapt(p, value);
        while self.range < TOP {
            self.range <<= 8;
            self.shift_low();
        }
        value
    }
}

/// The decoder over one block's bytes; bytes past the end read as zero
/// (a damaged block decodes to something, never panics).
struct Decoder<'a> {
    code: u32,
    range: u32,
    input: &'a [u8],
    at: usize,
}

impl<'a> Decoder<'a> {
    fn new(input: &'a [u8]) -> Decoder<'a> {
        let mut d = Decoder {
            code: 0,
            range: u32::MAX,
            input,
            at: 0,
        };
        for _ in 0..5 {
            d.code = (d.code << 8) | u32::from(d.next());
        }
        d
    }

    fn next(&mut self) -> u8 {
        let b = self.input.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }
}

impl Coder for Decoder<'_> {
    fn bit(&mut self, p: &mut u16, _: bool) -> bool {
        let bound = (self.range >> PROB_BITS) * u32::from(*p);
        let value = self.code >= bound;
        if value {
            self.code -= bound;
            self.range -= bound;
        } else {
            self.range = bound;
        }
        adapt(p, value);
        while self.range < TOP {
            self.range <<= 8;
            self.code = (self.code << 8) | u32::from(self.next());
        }
        value
    }
}

// ---------------------------------------------------------------------
// The model.

/// The neighbours a code is predicted from: distances 1, 8 and 64.
const NEAR: usize = 1;
const ROW: usize = 8;
const FAR: usize = 64;

/// The adaptive probabilities of one block: three "equal to a neighbour"
/// flags per context (which neighbours agree × the nearest neighbour), and
/// a 256-leaf tree per code of the neighbour 8 back.
pub(super) struct Model {
    flags: Vec<u16>,
    tree: Vec<u16>,
}

impl Model {
    pub(super) fn new() -> Model {
        Model {
            flags: vec![PROB_HALF; 8 * 256 * 4],
            tree: vec![PROB_HALF; 256 * 256],
        }
    }

    fn reset(&mut self) {
        self.flags.fill(PROB_HALF);
        self.tree.fill(PROB_HALF);
    }

    /// Codes `x` (ignored when decoding) at position `i` of `block`, whose
    /// first `i` codes are known; returns the code.
    fn code<C: Coder>(&mut self, c: &mut C, block: &[u8], i: usize, x: u8) -> u8 {
        let back = |d: usize| if i >= d { block[i - d] } else { 0 };
        let (a, r, f) = (back(NEAR), back(ROW), back(FAR));
        let agree = usize::from(a == r) | usize::from(a == f) << 1 | usize::from(r == f) << 2;
        let base = (agree * 256 + usize::from(a)) * 4;
        if c.bit(&mut self.flags[base], x == a) {
            return a;
        }
        if r != a && c.bit(&mut self.flags[base + 1], x == r) {
            return r;
        }
        if f != a && f != r && c.bit(&mut self.flags[base + 2], x == f) {
            return f;
        }
        let tree = &mut self.tree[usize::from(r) * 256..][..256];
        let mut node = 1usize;
        for k in (0..8).rev() {
            let bit = c.bit(&mut tree[node], (x >> k) & 1 == 1);
            node = node * 2 + usize::from(bit);
        }
        (node - 256) as u8
    }
}

/// The compressed bytes of one block of codes.
pub(super) fn encode_block(codes: &[u8], model: &mut Model) -> Vec<u8> {
    model.reset();
    let mut e = Encoder::new();
    for (i, &x) in codes.iter().enumerate() {
        model.code(&mut e, codes, i, x);
    }
    e.finish()
}

/// Decodes `out.len()` codes from `bytes` into `out`.
pub(super) fn decode_block(
    bytes: &[u8],
    model: &mut Model,
    out: &mut [u8],
) -> Result<(), LoadError> {
    model.reset();
    let mut d = Decoder::new(bytes);
    for i in 0..out.len() {
        out[i] = model.code(&mut d, out, i, 0);
    }
    // A valid block is read no further than its end and the coder's
    // flush; a reserved code is never written.
    if d.at > bytes.len() + 5 {
        return Err(LoadError::Corrupted("a block ends before its codes do"));
    }
    if out.contains(&RESERVED_CODE) {
        return Err(LoadError::Corrupted("reserved value code in a block"));
    }
    Ok(())
}
