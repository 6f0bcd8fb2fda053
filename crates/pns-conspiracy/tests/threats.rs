//! Threat-space search in the proof-number searches: with and without it,
//! PNS, PN² and df-pn give alpha-beta's value on random 5,5,4 and 6,6,4
//! positions, the proof trees they write with it verify against the rules
//! (a leaf solved by a threat sequence is written out move by move), and
//! refused limits are a typed error.

use gametree_alphabeta::{AlphaBeta, Config};
use gametree_game::{Game, Limits, Outcome, Request, Solver, Use};
use gametree_games_mnk::{Mnk, Moves};
use gametree_pns_conspiracy::ProofConfig;
use gametree_pns_conspiracy::{
    DfPn, DfPnConfig, Error, Pns, PnsConfig, Question, SecondLevel, ThreatConfig, Trust,
    verify_with,
};
use rand_core::Rng;
use rand_pcg::Pcg64;

fn random_position(rng: &mut Pcg64, m: u8, n: u8, k: u8, stones: u64) -> Option<Mnk> {
    let mut g = Mnk::new(m, n, k).unwrap();
    let mut moves = Moves::default();
    for _ in 0..stones {
        if g.outcome().is_some() {
            return None;
        }
        g.generate(&mut moves);
        g.make(moves.as_slice()[(rng.next_u64() % moves.len() as u64) as usize]);
    }
    g.outcome().is_none().then_some(g)
}

#[test]
fn values_and_proofs_with_threats() {
    let mut rng = Pcg64::new(0x7468726561747321, 5);
    let mut reference = AlphaBeta::<Mnk>::new(Config::default().threats(Use::Off)).unwrap();
    let mut pns_on =
        Pns::new(PnsConfig::new().proof(ProofConfig::new().threats(Use::Auto))).unwrap();
    let mut pns_off =
        Pns::new(PnsConfig::new().proof(ProofConfig::new().threats(Use::Off))).unwrap();
    let pn2 = PnsConfig::new().second_level(Some(SecondLevel::default()));
    let mut pn2_on = Pns::new(pn2.proof(ProofConfig::new().threats(Use::Auto))).unwrap();
    let mut pn2_off = Pns::new(pn2.proof(ProofConfig::new().threats(Use::Off))).unwrap();
    let mut dfpn_on =
        DfPn::new(DfPnConfig::new().proof(ProofConfig::new().memory(1 << 20))).unwrap();
    let limits = Limits::none().with_nodes(400_000);
    let mut wins = 0;
    let mut checked = 0;
    for &(m, n, k, stones) in &[(5, 5, 4, 10), (6, 6, 4, 16)] {
        while checked < 12 * (1 + usize::from(m == 6)) {
            let stones = stones + rng.next_u64() % 3;
            let Some(g) = random_position(&mut rng, m, n, k, stones) else {
                continue;
            };
            checked += 1;
            let none = Limits::none();
            let mut weak = gametree_game::Request::new(&none).find(gametree_game::Find::Outcome);
            let expected = gametree_game::Solver::solve(&mut reference, &mut g.clone(), &mut weak)
                .outcome
                .expect("solved");
            wins += usize::from(expected == Outcome::Win);
            for s in [&mut pns_on, &mut pns_off, &mut pn2_on, &mut pn2_off] {
                assert_eq!(
                    s.solve(&mut g.clone(), &mut Request::new(&limits)).outcome,
                    Some(expected),
                    "{g}"
                );
            }
            assert_eq!(
                dfpn_on
                    .solve(&mut g.clone(), &mut Request::new(&limits))
                    .outcome,
                Some(expected),
                "{g}"
            );
            let question = if expected == Outcome::Win {
                Question::Win
            } else {
                Question::AtLeastDraw
            };
            for s in [&mut pns_on, &mut pn2_on] {
                let (report, proof) = s.prove(&mut g.clone(), question, &mut Request::new(&limits));
                // Proven, or disproven for a loss (then the proof tree is
                // the opponent's win).
                assert!(report.proof == 0 || report.disproof == 0, "{g}");
                let proof = proof.expect("a proof tree");
                verify_with(&mut g.clone(), &proof, Trust::WinBounds)
                    .unwrap_or_else(|e| panic!("{g}: {e}"));
            }
        }
    }
    // Wins are where threat sequences solve leaves.
    assert!(wins >= 5, "only {wins} wins among {checked} positions");
}

#[test]
fn refused_threat_limits() {
    let bad = ThreatConfig::new().table_entries(0);
    assert!(matches!(
        Pns::new(PnsConfig::new().proof(ProofConfig::new().threat_limits(bad))),
        Err(Error::Threats(_))
    ));
    // Not checked when off.
    assert!(
        Pns::new(PnsConfig::new().proof(ProofConfig::new().threat_limits(bad).threats(Use::Off)))
            .is_ok()
    );
    assert!(matches!(
        DfPn::new(DfPnConfig::new().proof(ProofConfig::new().threat_limits(bad))).map(|_| ()),
        Err(Error::Threats(_))
    ));
}

/// The memory bound counts the threat table: 1 MiB cannot hold it and a
/// tree.
#[test]
fn memory_bound_counts_threat_tables() {
    use gametree_pns_conspiracy::{Answer, Stop};
    let mut g = Mnk::new(4, 4, 3).unwrap();
    let pn2 = PnsConfig::new()
        .second_level(Some(SecondLevel::default()))
        .proof(ProofConfig::new().memory(1 << 20));
    let on =
        Pns::new(pn2)
            .unwrap()
            .search(&mut g, Question::Win, &mut Request::new(&Limits::none()));
    assert_eq!(on.answer, Answer::Unknown(Stop::Memory));
    let off = Pns::new(pn2.proof(pn2.get_proof().threats(Use::Off)))
        .unwrap()
        .search(&mut g, Question::Win, &mut Request::new(&Limits::none()));
    assert!(matches!(off.answer, Answer::Proven), "{:?}", off.answer);
}
