//! The option vocabulary every solver of the workspace shares: [`Use`] for
//! a switch on an item of the game's [`Knowledge`](crate::Knowledge),
//! [`MissingKnowledge`] when a required item is missing, and
//! [`ALL_CORES`] for the one meaning of a `threads` option.

use core::fmt;

/// Whether a solver uses an item of the game's knowledge
/// ([`Knowledge`](crate::Knowledge)): every configuration that switches
/// one (alpha-beta's, the proof-number searches') takes a `Use` in its
/// setter and gives one back from its getter.
///
/// ```
/// use gametree_game::Use;
///
/// assert!(Use::Auto.enabled(true) && !Use::Auto.enabled(false));
/// assert!(!Use::Off.enabled(true));
/// assert_eq!(Use::On.require(false, "threats", "threat moves").unwrap_err().option(), "threats");
/// assert_eq!(Use::from(false), Use::Off);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Use {
    /// When the game provides it (the default).
    #[default]
    Auto,
    /// Always: a game that lacks it is refused with [`MissingKnowledge`].
    On,
    /// Never.
    Off,
}

impl Use {
    /// Whether the item is used, for a game that has it (`available`) or
    /// not; a required item the game lacks is not used (see
    /// [`require`](Use::require) for the refusal).
    #[inline]
    #[must_use]
    pub const fn enabled(self, available: bool) -> bool {
        match self {
            Use::Auto | Use::On => available,
            Use::Off => false,
        }
    }

    /// Whether the item is used, or why the game is refused: `On` for a
    /// game without the item (`available == false`) gives a
    /// [`MissingKnowledge`] naming `option` (the setter, e.g. `threats`)
    /// and `item` (what it needs, e.g. `win bounds`).
    ///
    /// # Errors
    ///
    /// [`MissingKnowledge`] when `self` is [`Use::On`] and the item is not
    /// available.
    pub const fn require(
        self,
        available: bool,
        option: &'static str,
        item: &'static str,
    ) -> Result<bool, MissingKnowledge> {
        if matches!(self, Use::On) && !available {
            Err(MissingKnowledge { option, item })
        } else {
            Ok(self.enabled(available))
        }
    }
}

impl From<bool> for Use {
    /// `true` is [`Use::On`] (required), `false` [`Use::Off`].
    fn from(on: bool) -> Use {
        if on { Use::On } else { Use::Off }
    }
}

/// An option set to [`Use::On`] needs an item of knowledge that the game
/// does not declare in [`Game::KNOWLEDGE`](crate::Game::KNOWLEDGE).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MissingKnowledge {
    option: &'static str,
    item: &'static str,
}

impl MissingKnowledge {
    /// The refusal of `option` (e.g. `quiescence`), which needs `item`
    /// (e.g. `tactics`).
    #[must_use]
    pub const fn new(option: &'static str, item: &'static str) -> MissingKnowledge {
        MissingKnowledge { option, item }
    }

    /// The option, e.g. `quiescence`.
    #[must_use]
    pub const fn option(&self) -> &'static str {
        self.option
    }

    /// The item it needs, e.g. `tactics`.
    #[must_use]
    pub const fn item(&self) -> &'static str {
        self.item
    }
}

impl fmt::Display for MissingKnowledge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "option `{}` needs the game's {}, which this game does not declare",
            self.option, self.item
        )
    }
}

impl core::error::Error for MissingKnowledge {}

/// The one meaning of a `threads` option across the workspace (alpha-beta's
/// Lazy SMP, retrograde builds, chess table sets): `threads(ALL_CORES)`,
/// that is `0`, is every core the machine offers
/// (`std::thread::available_parallelism`, 1 when it cannot tell); any
/// other number is itself.
pub const ALL_CORES: usize = 0;
