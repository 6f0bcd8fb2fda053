//! A covering set of configurations for verification: every option of
//! [`Config`] appears, combined with the others in rotation.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use gametree_ordering::Policy;
use gametree_ttable::ProbePolicy;

use crate::config::Setting;
use crate::{Algorithm, Config, TableConfig, TtUse, Use};

/// A configuration with a short human-readable name.
#[derive(Clone, Debug)]
pub struct Variant {
    /// e.g. `pvs soft id tt=cut k2 h=gravity cm tac`.
    pub name: String,
    /// The configuration.
    pub config: Config,
}

/// Configurations that exercise every option of [`Config`] (each value of
/// each option appears at least twice, in different company), all with the
/// **exact-depth** table policy, so that each must return exactly what
/// fixed-depth [`negamax`](crate::negamax) returns. The first is plain
/// alpha-beta, the second everything on. `threads` adds Lazy SMP variants
/// with that many threads when above 1. `tt_bytes` sizes each table.
#[must_use]
pub fn covering_set(tt_bytes: usize, threads: usize) -> Vec<Variant> {
    let algorithms = [
        Algorithm::AlphaBeta,
        Algorithm::Pvs,
        Algorithm::Mtdf,
        Algorithm::Bisection,
    ];
    let tts = [TtUse::Off, TtUse::Ordering, TtUse::Cutoffs];
    let histories = [
        None,
        Some(Policy::Textbook),
        Some(Policy::DepthSquared),
        Some(Policy::Gravity),
    ];
    let mut out = Vec::new();
    out.push(Config::plain());
    out.push(
        Config::default()
            .table(exact_depth(TableConfig::new(), TtUse::Cutoffs))
            .aspiration(Some(25))
            .etc(true),
    );
    for i in 0..12usize {
        let algorithm = algorithms[i % 4];
        // MTD(f) without a table would repeat every pass from scratch.
        let tt = if matches!(algorithm, Algorithm::Mtdf | Algorithm::Bisection) {
            TtUse::Cutoffs
        } else {
            tts[(i / 3 + i) % 3]
        };
        let mut c = Config::plain()
            .algorithm(algorithm)
            .fail_soft(i % 2 == 0)
            .iterative_deepening(i % 4 < 2 || tt == TtUse::Ordering)
            .aspiration(if i % 5 == 1 {
                Some(10 + i as i32)
            } else {
                None
            })
            .table(exact_depth(TableConfig::off(), tt))
            .killers((i % 3) as u8)
            .history(histories[i % 4])
            .history_malus(i % 3 != 1)
            .counter_moves(i % 2 == 1)
            .etc(i % 3 == 1 && tt == TtUse::Cutoffs)
            .prefetch(i % 2 == 0);
        // Knowledge: on where the game has it (`Auto`), or off.
        c.tactical_ordering = auto_or_off(i % 3 != 2);
        c.forcing = auto_or_off(i % 4 != 3);
        c.order_hints = auto_or_off(i % 3 == 0);
        c.length_bound = auto_or_off(i % 2 == 0);
        c.threats = auto_or_off(i % 3 == 1);
        out.push(c);
    }
    // The Connect Four solver's family: no killers, history, counter-moves
    // or tactical stage (the lean move order), the game's hints, forcing.
    let mut lean = Config::plain()
        .algorithm(Algorithm::Bisection)
        .table(exact_depth(TableConfig::off(), TtUse::Cutoffs))
        .prefetch(true);
    lean.forcing = Use::Auto;
    lean.order_hints = Use::Auto;
    lean.length_bound = Use::Auto;
    out.push(lean);
    if threads > 1 {
        out.push(
            Config::default()
                .table(exact_depth(TableConfig::new(), TtUse::Cutoffs))
                .threads(threads),
        );
        out.push(
            Config::plain()
                .algorithm(Algorithm::Mtdf)
                .table(exact_depth(TableConfig::off(), TtUse::Cutoffs))
                .iterative_deepening(true)
                .threads(threads),
        );
    }
    out.into_iter()
        .map(|c| {
            let mut c = c;
            if c.table.usage != TtUse::Off {
                c = c.memory(tt_bytes);
            }
            Variant {
                name: name(&c),
                config: c,
            }
        })
        .collect()
}

/// `base` used as `usage` with the exact-depth probe policy.
fn exact_depth(base: TableConfig, usage: TtUse) -> TableConfig {
    base.usage(usage).probe_policy(ProbePolicy::ExactDepth)
}

fn auto_or_off(on: bool) -> Use {
    if on { Use::Auto } else { Use::Off }
}

/// A short name listing a configuration's options (a knowledge option
/// shows when it is not off).
#[must_use]
pub fn name(c: &Config) -> String {
    let algorithm = match c.algorithm {
        Algorithm::Auto => "auto",
        Algorithm::AlphaBeta => "ab",
        Algorithm::Pvs => "pvs",
        Algorithm::Mtdf => "mtdf",
        Algorithm::Bisection => "bisect",
    };
    // MTD(f) and bisection are always fail-soft
    let soft = c.fail_soft || matches!(c.algorithm, Algorithm::Mtdf | Algorithm::Bisection);
    let mut s = format!("{algorithm} {}", if soft { "soft" } else { "hard" });
    if c.iterative_deepening {
        s += " id";
    }
    if let Some(d) = c.aspiration {
        s += &format!(" asp{d}");
    }
    s += match c.table.usage {
        TtUse::Off => "",
        TtUse::Ordering => " tt=move",
        TtUse::Cutoffs => " tt=cut",
    };
    let auto = |auto: bool| if auto { "?" } else { "" };
    if c.killers.value() > 0 {
        s += &format!(
            " k{}{}",
            c.killers.value(),
            auto(matches!(c.killers, Setting::Auto(_)))
        );
    }
    s += match c.history.value() {
        None => "",
        Some(Policy::Textbook) => " h=4^d",
        Some(Policy::DepthSquared) => " h=d2",
        Some(Policy::Gravity) => " h=grav",
    };
    if c.history.value().is_some() && c.history_malus {
        s += "-";
    }
    if c.history.value().is_some() {
        s += auto(matches!(c.history, Setting::Auto(_)));
    }
    if c.counter_moves.value() {
        s += " cm";
        s += auto(matches!(c.counter_moves, Setting::Auto(_)));
    }
    if c.tactical_ordering != Use::Off {
        s += " tac";
    }
    if c.quiescence {
        s += " qs";
    }
    if c.forcing != Use::Off {
        s += " f";
    }
    if c.order_hints != Use::Off {
        s += " oh";
    }
    if c.length_bound != Use::Off {
        s += " lb";
    }
    if c.threats != Use::Off {
        s += " thr";
    }
    if c.etc {
        s += " etc";
    }
    if c.prefetch && c.table.usage != TtUse::Off {
        s += " pf";
    }
    if c.threads > 1 {
        s += &format!(" smp{}", c.threads);
    }
    s
}
