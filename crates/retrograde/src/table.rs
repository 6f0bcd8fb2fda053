//! Finished databases: [`Table`] (one byte per index, with distances) and
//! [`WdlTable`] (two bits per index).

use core::fmt;
use std::collections::TryReserveError;

use gametree_game::Outcome;
use rayon::prelude::*;

use crate::Value;
use crate::value::{INVALID_CODE, code_distance};

/// What a database holds: the game, the material (or other part of the
/// game's positions) and the index scheme. Written into the file header and
/// checked when a file is loaded, so that a table is never read against the
/// wrong space.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Label {
    /// The game, e.g. `tictactoe`, `chess`.
    pub game: String,
    /// The part of the game's positions, e.g. `all`, `KQvK`.
    pub material: String,
    /// The index scheme and its version, e.g. `canonical-base3-v1`.
    pub scheme: String,
}

impl Label {
    /// A label from its three parts.
    #[must_use]
    pub fn new(
        game: impl Into<String>,
        material: impl Into<String>,
        scheme: impl Into<String>,
    ) -> Self {
        Label {
            game: game.into(),
            material: material.into(),
            scheme: scheme.into(),
        }
    }
}

impl fmt::Display for Label {
    /// `game/material/scheme`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}/{}", self.game, self.material, self.scheme)
    }
}

/// How many indices of a table hold each kind of value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Counts {
    /// Indices that stand for no position.
    pub invalid: u64,
    /// Positions won by the side to move.
    pub wins: u64,
    /// Drawn positions.
    pub draws: u64,
    /// Positions lost by the side to move.
    pub losses: u64,
    /// The longest win, in plies, and the smallest index holding it.
    pub longest_win: Option<(u16, u64)>,
    /// The longest loss, in plies, and the smallest index holding it.
    pub longest_loss: Option<(u16, u64)>,
}

impl Counts {
    /// Positions (valid indices).
    #[must_use]
    pub fn positions(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    fn add(&mut self, index: u64, value: Option<Value>) {
        match value {
            None => self.invalid += 1,
            Some(Value::Draw) => self.draws += 1,
            Some(Value::Win(d)) => {
                self.wins += 1;
                self.add_longest(true, d, index);
            }
            Some(Value::Loss(d)) => {
                self.losses += 1;
                self.add_longest(false, d, index);
            }
        }
    }

    fn merge(mut self, other: Counts) -> Counts {
        self.invalid += other.invalid;
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
        if let Some((d, i)) = other.longest_win {
            self.add_longest(true, d, i);
        }
        if let Some((d, i)) = other.longest_loss {
            self.add_longest(false, d, i);
        }
        self
    }

    fn add_longest(&mut self, win: bool, d: u16, index: u64) {
        let slot = if win {
            &mut self.longest_win
        } else {
            &mut self.longest_loss
        };
        match slot {
            Some((best, at)) if *best > d || (*best == d && *at <= index) => {}
            _ => *slot = Some((d, index)),
        }
    }
}

impl fmt::Display for Counts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} wins, {} draws, {} losses, {} invalid",
            self.wins, self.draws, self.losses, self.invalid
        )?;
        if let Some((d, i)) = self.longest_win {
            write!(f, ", longest win {d} plies (index {i})")?;
        }
        Ok(())
    }
}

/// A database: one byte per index holding win/draw/loss and the distance to
/// the end in plies (see [`Value::code`] for the encoding).
#[derive(Clone, PartialEq, Eq)]
pub struct Table {
    label: Label,
    codes: Vec<u8>,
}

impl fmt::Debug for Table {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Table")
            .field("label", &self.label)
            .field("len", &self.codes.len())
            .finish()
    }
}

impl Table {
    pub(crate) fn from_codes(label: Label, codes: Vec<u8>) -> Table {
        Table { label, codes }
    }

    /// What the table holds.
    #[must_use]
    pub fn label(&self) -> &Label {
        &self.label
    }

    /// The number of indices.
    #[must_use]
    pub fn len(&self) -> u64 {
        self.codes.len() as u64
    }

    /// Is the table empty (a space of size 0)?
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.codes.is_empty()
    }

    /// The value at `index`, or `None` when the index is invalid or out of
    /// range.
    #[must_use]
    pub fn get(&self, index: u64) -> Option<Value> {
        Value::from_code(*self.codes.get(usize::try_from(index).ok()?)?)
    }

    /// Does `index` stand for a position?
    #[must_use]
    pub fn is_valid(&self, index: u64) -> bool {
        self.get(index).is_some()
    }

    /// The raw one-byte codes, one per index.
    #[must_use]
    pub fn codes(&self) -> &[u8] {
        &self.codes
    }

    /// The counts over every index.
    #[must_use]
    pub fn counts(&self) -> Counts {
        self.counts_where(|_| true)
    }

    /// The counts over the indices for which `keep` is true (e.g. the
    /// positions with one side to move).
    #[must_use]
    pub fn counts_where(&self, keep: impl Fn(u64) -> bool + Sync) -> Counts {
        self.codes
            .par_iter()
            .enumerate()
            .fold(Counts::default, |mut c, (i, &code)| {
                let i = i as u64;
                if keep(i) {
                    c.add(i, Value::from_code(code));
                }
                c
            })
            .reduce(Counts::default, Counts::merge)
    }

    /// The number of positions at each distance in plies (index = plies;
    /// draws and invalid indices are not counted).
    #[must_use]
    pub fn histogram(&self) -> Vec<u64> {
        let mut out = vec![0u64; usize::from(Value::MAX_PLIES) + 1];
        for &c in &self.codes {
            if let Some(d) = code_distance(c) {
                out[usize::from(d)] += 1;
            }
        }
        while out.last() == Some(&0) {
            out.pop();
        }
        out
    }

    /// The same database without distances, two bits per index: a new
    /// array a quarter of the table's size, allocated like any `Vec` (the
    /// process aborts when memory runs out; [`try_to_wdl`](Self::try_to_wdl)
    /// returns an error instead).
    #[must_use]
    pub fn to_wdl(&self) -> WdlTable {
        self.wdl_into(vec![0u8; self.codes.len().div_ceil(4)])
    }

    /// [`to_wdl`](Self::to_wdl), with the array allocated fallibly.
    ///
    /// # Errors
    ///
    /// [`TryReserveError`] when the array does not fit in memory.
    pub fn try_to_wdl(&self) -> Result<WdlTable, TryReserveError> {
        let len = self.codes.len().div_ceil(4);
        let mut bits = Vec::new();
        bits.try_reserve_exact(len)?;
        bits.resize(len, 0);
        Ok(self.wdl_into(bits))
    }

    /// The WDL table, written into `bits` (zeroed, a quarter of the size).
    fn wdl_into(&self, mut bits: Vec<u8>) -> WdlTable {
        for (i, &c) in self.codes.iter().enumerate() {
            let two = if c == INVALID_CODE {
                WDL_INVALID
            } else {
                wdl_code(Value::from_code(c).map_or(Outcome::Draw, Value::outcome))
            };
            bits[i / 4] |= two << (2 * (i % 4));
        }
        WdlTable {
            label: self.label.clone(),
            len: self.len(),
            bits,
        }
    }
}

const WDL_INVALID: u8 = 0;

const fn wdl_code(o: Outcome) -> u8 {
    match o {
        Outcome::Loss => 1,
        Outcome::Draw => 2,
        Outcome::Win => 3,
    }
}

/// A database without distances: win, draw or loss in two bits per index
/// (`0` invalid, `1` loss, `2` draw, `3` win; four indices per byte, the
/// first in the low bits).
#[derive(Clone, PartialEq, Eq)]
pub struct WdlTable {
    label: Label,
    len: u64,
    bits: Vec<u8>,
}

impl fmt::Debug for WdlTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WdlTable")
            .field("label", &self.label)
            .field("len", &self.len)
            .finish()
    }
}

impl WdlTable {
    pub(crate) fn from_bits(label: Label, len: u64, bits: Vec<u8>) -> WdlTable {
        WdlTable { label, len, bits }
    }

    /// What the table holds.
    #[must_use]
    pub fn label(&self) -> &Label {
        &self.label
    }

    /// The number of indices.
    #[must_use]
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Is the table empty?
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The packed bytes.
    #[must_use]
    pub fn bits(&self) -> &[u8] {
        &self.bits
    }

    /// The result at `index`, or `None` when the index is invalid or out of
    /// range.
    #[must_use]
    pub fn get(&self, index: u64) -> Option<Outcome> {
        if index >= self.len {
            return None;
        }
        let byte = self.bits[usize::try_from(index / 4).ok()?];
        match (byte >> (2 * (index % 4))) & 3 {
            1 => Some(Outcome::Loss),
            2 => Some(Outcome::Draw),
            3 => Some(Outcome::Win),
            _ => None,
        }
    }

    /// The counts over every index (no distances).
    #[must_use]
    pub fn counts(&self) -> Counts {
        let mut c = Counts::default();
        for i in 0..self.len {
            let v = self.get(i).map(|o| match o {
                Outcome::Win => Value::Win(0),
                Outcome::Draw => Value::Draw,
                Outcome::Loss => Value::Loss(0),
            });
            c.add(i, v);
        }
        c.longest_win = None;
        c.longest_loss = None;
        c
    }
}
