//! Win bounds in the proof-number searches and in proof trees: with and
//! without them every solver gives alpha-beta's value, the proof trees they
//! write verify (their bound leaves only when trusted), and a proof tree
//! built from an oracle proves the known m,n,k values.

use gametree_alphabeta::{AlphaBeta, Config};
use gametree_game::{Game, Limits, Outcome, Player, Request, Solver, Use};
use gametree_games_mnk::{Mnk, Moves};
use gametree_pns_conspiracy::ProofConfig;
use gametree_pns_conspiracy::{
    Claim, DfPn, DfPnConfig, Pns, PnsConfig, Question, Trust, VerifyErrorKind, build_strategy,
    verify, verify_with,
};
use rand_core::Rng;
use rand_pcg::Pcg64;

fn weak(s: &mut AlphaBeta<Mnk>, g: &mut Mnk) -> Outcome {
    let none = Limits::none();
    let mut request = gametree_game::Request::new(&none).find(gametree_game::Find::Outcome);
    gametree_game::Solver::solve(s, g, &mut request)
        .outcome
        .expect("solved")
}

/// Random 5,4,4 positions: PNS and df-pn, with and without win bounds,
/// equal alpha-beta without them; their proof trees verify, and those with
/// bound leaves are refused when the bounds are not trusted.
#[test]
fn solvers_agree_with_and_without_bounds() {
    let mut rng = Pcg64::new(0x626f756e64, 9);
    let mut plain = AlphaBeta::<Mnk>::new(Config::default().win_bounds(Use::Off)).unwrap();
    let mut moves = Moves::default();
    let mut bound_leaves = 0;
    for _ in 0..40 {
        let mut g = Mnk::new(5, 4, 4).unwrap();
        for _ in 0..9 + rng.next_u64() % 3 {
            if g.outcome().is_some() {
                break;
            }
            g.generate(&mut moves);
            g.make(moves.as_slice()[(rng.next_u64() % moves.len() as u64) as usize]);
        }
        if g.outcome().is_some() {
            continue;
        }
        let expected = weak(&mut plain, &mut g);
        for bounds in [false, true] {
            let mut dfpn = DfPn::new(
                DfPnConfig::new().proof(
                    ProofConfig::new()
                        .memory(4 << 20)
                        .win_bounds(Use::from(bounds)),
                ),
            )
            .unwrap();
            assert_eq!(
                dfpn.solve(&mut g, &mut Request::new(&Limits::none()))
                    .outcome,
                Some(expected),
                "{g} df-pn {bounds}"
            );
            let mut pns =
                Pns::new(PnsConfig::new().proof(ProofConfig::new().win_bounds(Use::from(bounds))))
                    .unwrap();
            assert_eq!(
                pns.solve(&mut g, &mut Request::new(&Limits::none()))
                    .outcome,
                Some(expected),
                "{g} pns {bounds}"
            );
            for q in [Question::Win, Question::AtLeastDraw] {
                let (_, proof) = dfpn.prove(&mut g, q, &mut Request::new(&Limits::none()));
                let proof = proof.expect("solved");
                let stats = verify_with(&mut g, &proof, Trust::WinBounds).unwrap();
                assert_eq!(stats.bound_leaves > 0, proof.bound_leaves() > 0);
                if proof.bound_leaves() > 0 {
                    assert!(bounds);
                    bound_leaves += 1;
                    let e = verify(&mut g, &proof).unwrap_err();
                    assert_eq!(e.kind(), &VerifyErrorKind::BoundLeaf);
                } else {
                    verify(&mut g, &proof).unwrap();
                }
            }
        }
    }
    assert!(
        bound_leaves > 5,
        "bound leaves in only {bound_leaves} proofs"
    );
}

/// A proof tree built with alpha-beta as the oracle: 4,4,4 is a draw for
/// both sides (bound leaves trusted), the rules alone refuse it, and a
/// claim of a first-player win cannot be built.
#[test]
fn oracle_built_proofs() {
    let mut g = Mnk::new(4, 4, 4).unwrap();
    let mut ab = AlphaBeta::<Mnk>::new(Config::default()).unwrap();
    let none = Limits::none();
    let mut oracle = |p: &mut Mnk| {
        let mut request = gametree_game::Request::new(&none).find(gametree_game::Find::Outcome);
        gametree_game::Solver::solve(&mut ab, p, &mut request).outcome
    };
    for prover in [Player::First, Player::Second] {
        let claim = Claim {
            prover,
            at_least: Outcome::Draw,
        };
        let s = build_strategy(&mut g, claim, Trust::WinBounds, 1 << 20, &mut oracle).unwrap();
        let stats = verify_with(&mut g, &s, Trust::WinBounds).unwrap();
        assert!(stats.bound_leaves > 0);
        assert_eq!(
            verify(&mut g, &s).unwrap_err().kind(),
            &VerifyErrorKind::BoundLeaf
        );
        // Without trusting bounds the builder goes to the end of the game.
        let full = build_strategy(&mut g, claim, Trust::RulesOnly, 1 << 22, &mut oracle).unwrap();
        let stats = verify(&mut g, &full).unwrap();
        assert_eq!(stats.bound_leaves, 0);
        assert!(full.len() > s.len());
    }
    let win = Claim {
        prover: Player::First,
        at_least: Outcome::Win,
    };
    assert!(build_strategy(&mut g, win, Trust::WinBounds, 1 << 20, &mut oracle).is_err());
    // 4,4,3 is a first-player win, proved against the rules alone.
    let mut g = Mnk::new(4, 4, 3).unwrap();
    let s = build_strategy(&mut g, win, Trust::RulesOnly, 1 << 20, &mut oracle).unwrap();
    verify(&mut g, &s).unwrap();
}
