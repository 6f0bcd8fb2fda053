//! The entropy coder of compressed tables: an adaptive binary range coder
//! and the model that predicts each code from its neighbours 1, 8 and 64
//! indices back; one block coded at a time.

use rayon::prelude::*;

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

/// Probability cells of the "equal to a neighbour" flags: three per
/// context (which neighbours agree × the nearest neighbour).
const FLAG_CELLS: usize = 8 * 256 * 4;
/// Every probability cell of the model: the flags, then a 256-leaf tree
/// per code of the neighbour 8 back.
pub(super) const CELLS: usize = FLAG_CELLS + 256 * 256;

/// A prior: a cell of the model and the probability every block starts it
/// at, in units of 1/256 (`1..=255`).
pub(super) type Prior = (u32, u8);

/// One cell of the model as a block codes: its probability and stamp.
#[derive(Clone, Copy)]
struct Cell {
    prob: u16,
    stamp: u16,
}

/// The probabilities of one block, each starting at the file's prior
/// ([`Model::with_priors`]; one half without) and adapting as the block is
/// coded. A cell is set to its prior the first time a block touches it, so
/// starting a block costs nothing however large the model.
pub(super) struct Model {
    base: Vec<u16>,
    /// Per cell, its probability and the block (`generation`) that last
    /// set it, side by side: a decision on a cell the block has not
    /// touched yet reads one cache line, not two.
    cells: Vec<Cell>,
    generation: u16,
    /// While training: per cell, how often each decision was taken.
    counts: Option<Vec<[u64; 2]>>,
}

impl Model {
    /// Every cell starting at one half.
    pub(super) fn new() -> Model {
        Model::with_priors(&[])
    }

    /// Every cell starting at its prior, or one half.
    pub(super) fn with_priors(priors: &[Prior]) -> Model {
        let mut base = vec![PROB_HALF; CELLS];
        for &(cell, q) in priors {
            if let Some(b) = base.get_mut(cell as usize) {
                *b = u16::from(q) << (PROB_BITS - 8);
            }
        }
        Model {
            base,
            cells: vec![
                Cell {
                    prob: PROB_HALF,
                    stamp: 0,
                };
                CELLS
            ],
            generation: 0,
            counts: None,
        }
    }

    /// Starts a block: every cell back to its prior.
    fn reset(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.cells.fill(Cell {
                prob: PROB_HALF,
                stamp: 0,
            });
            self.generation = 1;
        }
    }

    /// Codes one decision of `cell`.
    #[inline(always)]
    fn bit<C: Coder>(&mut self, c: &mut C, cell: usize, value: bool) -> bool {
        let entry = &mut self.cells[cell];
        if entry.stamp != self.generation {
            entry.stamp = self.generation;
            entry.prob = self.base[cell];
        }
        let bit = c.bit(&mut entry.prob, value);
        if let Some(counts) = &mut self.counts {
            counts[cell][usize::from(bit)] = counts[cell][usize::from(bit)].saturating_add(1);
        }
        bit
    }

    /// Codes `x` (ignored when decoding) at position `i` of `block`, whose
    /// first `i` codes are known; returns the code.
    #[inline]
    fn code<C: Coder>(&mut self, c: &mut C, block: &[u8], i: usize, x: u8) -> u8 {
        let back = |d: usize| if i >= d { block[i - d] } else { 0 };
        let (a, r, f) = (back(NEAR), back(ROW), back(FAR));
        let agree = usize::from(a == r) | usize::from(a == f) << 1 | usize::from(r == f) << 2;
        let base = (agree * 256 + usize::from(a)) * 4;
        if self.bit(c, base, x == a) {
            return a;
        }
        if r != a && self.bit(c, base + 1, x == r) {
            return r;
        }
        if f != a && f != r && self.bit(c, base + 2, x == f) {
            return f;
        }
        let tree = FLAG_CELLS + usize::from(r) * 256;
        let mut node = 1usize;
        for k in (0..8).rev() {
            let bit = self.bit(c, tree + node, (x >> k) & 1 == 1);
            node = node * 2 + usize::from(bit);
        }
        (node - 256) as u8
    }
}

/// The side of the coder that codes nothing, for training.
struct Tally;

impl Coder for Tally {
    fn bit(&mut self, _: &mut u16, value: bool) -> bool {
        value
    }
}

/// Decisions a cell must have been taken before it gets a prior.
const PRIOR_MIN_COUNT: u64 = 16;

/// The priors of `codes` coded in blocks of `block` codes: per cell of the
/// model, the frequency of its decisions over the whole table, in units of
/// 1/256, for every cell used often enough whose frequency is not one half;
/// ordered by cell.
pub(super) fn train(codes: &[u8], block: usize) -> Vec<Prior> {
    let counts = codes
        .par_chunks(block.max(1))
        .fold(
            || {
                let mut m = Model::new();
                m.counts = Some(vec![[0; 2]; CELLS]);
                m
            },
            |mut m, chunk| {
                m.reset();
                for (i, &x) in chunk.iter().enumerate() {
                    m.code(&mut Tally, chunk, i, x);
                }
                m
            },
        )
        .map(|m| m.counts.unwrap_or_default())
        .reduce(
            || vec![[0; 2]; CELLS],
            |mut a, b| {
                for (x, y) in a.iter_mut().zip(b) {
                    x[0] = x[0].saturating_add(y[0]);
                    x[1] = x[1].saturating_add(y[1]);
                }
                a
            },
        );
    let mut priors = Vec::new();
    for (cell, [no, yes]) in counts.into_iter().enumerate() {
        let n = no.saturating_add(yes);
        if n < PRIOR_MIN_COUNT {
            continue;
        }
        // P(false) in 1/256, rounded, kept inside 1..=255.
        let q = ((u128::from(no) * 256 + u128::from(n / 2)) / u128::from(n)).clamp(1, 255) as u8;
        if q != 128 {
            priors.push((cell as u32, q));
        }
    }
    priors
}

/// The priors as stored: per prior, in increasing order of cell, the gap
/// from the cell after the previous one (the first: from cell 0) as a
/// little-endian base-128 number (7 bits a byte, the high bit set on every
/// byte but the last), then its value.
pub(super) fn encode_priors(priors: &[Prior]) -> Vec<u8> {
    let mut out = Vec::with_capacity(2 * priors.len());
    let mut next = 0u32;
    for &(cell, q) in priors {
        let mut gap = cell - next;
        while gap >= 0x80 {
            out.push(gap as u8 | 0x80);
            gap >>= 7;
        }
        out.push(gap as u8);
        out.push(q);
        next = cell + 1;
    }
    out
}

/// The priors stored in `bytes` ([`encode_priors`]), or why they are not
/// a model's.
pub(super) fn decode_priors(bytes: &[u8]) -> Result<Vec<Prior>, LoadError> {
    let bad = || LoadError::Corrupted("priors out of range or cut short");
    let mut priors = Vec::new();
    let mut next = 0u64;
    let mut rest = bytes.iter();
    while let Some(&first) = rest.next() {
        let mut gap = u64::from(first & 0x7f);
        let mut byte = first;
        let mut shift = 7;
        while byte & 0x80 != 0 {
            byte = *rest.next().ok_or_else(bad)?;
            if shift > 21 {
                return Err(bad());
            }
            gap |= u64::from(byte & 0x7f) << shift;
            shift += 7;
        }
        let cell = next + gap;
        let q = *rest.next().ok_or_else(bad)?;
        if cell >= CELLS as u64 || q == 0 {
            return Err(bad());
        }
        priors.push((cell as u32, q));
        next = cell + 1;
    }
    Ok(priors)
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
