//! Dual price smoothing (Wentges 1997; the automatic variant of Pessoa, Sadykov, Uchoa &
//! Vanderbeck 2013): pricing runs at a point between the master's duals and the stability
//! centre, the duals with the best Lagrangian bound so far. At large k the set-partitioning LP is
//! massively degenerate (its value can stay at the warm start for dozens of rounds while the
//! duals jump between vertices); pricing at the smoothed point finds columns that move the LP.
//!
//! Correctness does not depend on the smoothing: columns enter the master only when their
//! reduced cost at the master's duals is negative, and convergence is declared only by a
//! complete pricing at the master's duals (α = 0) that finds none. The centre only ever holds
//! duals whose Lagrangian bound was computed by a complete pricing.

use crate::root_lp::Duals;

/// Smoothing state: the centre, its bound, and the smoothing factor α.
#[derive(Clone, Debug)]
pub(crate) struct Smoothing {
    /// Duals with the best Lagrangian bound found (a dual-feasible point at the start).
    centre: Duals,
    /// Lagrangian bound at `centre`.
    centre_bound: f64,
    /// Weight of the centre in the pricing point, in [0, 1).
    alpha: f64,
}

/// Largest weight given to the centre.
const ALPHA_MAX: f64 = 0.99;

impl Smoothing {
    /// Starts from a dual-feasible point (every reduced cost ≥ 0) whose bound is `bound`.
    pub(crate) fn new(centre: Duals, bound: f64, alpha: f64) -> Self {
        Smoothing {
            centre,
            centre_bound: bound,
            alpha: alpha.clamp(0.0, ALPHA_MAX),
        }
    }

    /// The pricing point after `misprices` mispricings in this round: α_k = max(0, 1 − k(1 − α))
    /// (Pessoa et al.'s schedule, which reaches the master's duals after finitely many
    /// mispricings), together with the α_k used.
    pub(crate) fn point(&self, out: &Duals, misprices: u32) -> (Duals, f64) {
        let a = (1.0 - (misprices as f64 + 1.0) * (1.0 - self.alpha)).max(0.0);
        let a = if misprices == 0 { self.alpha } else { a };
        if a <= 0.0 {
            return (out.clone(), 0.0);
        }
        let pi = self
            .centre
            .pi
            .iter()
            .zip(&out.pi)
            .map(|(c, o)| a * c + (1.0 - a) * o)
            .collect();
        // Cut duals: the centre's penalty for a cut it knew, 0 for a newer cut.
        let cuts = out
            .cuts
            .iter()
            .map(|(t, mu)| {
                let c = self
                    .centre
                    .cuts
                    .iter()
                    .find(|(u, _)| u == t)
                    .map_or(0.0, |x| x.1);
                (t.clone(), a * c + (1.0 - a) * mu)
            })
            .collect();
        (Duals { pi, cuts }, a)
    }

    /// A complete pricing at `point` gave the Lagrangian bound `bound`: it becomes the centre when
    /// better.
    pub(crate) fn offer(&mut self, point: &Duals, bound: f64) -> bool {
        if bound > self.centre_bound {
            self.centre = point.clone();
            self.centre_bound = bound;
            true
        } else {
            false
        }
    }

    /// After a round: a mispricing makes the smoothing more cautious, a round that improved the
    /// centre lets it trust the centre more.
    pub(crate) fn adapt(&mut self, mispriced: bool, centre_improved: bool) {
        if mispriced {
            self.alpha = (self.alpha - 0.1).max(0.0);
        } else if centre_improved {
            self.alpha = (self.alpha + 0.1 * (1.0 - self.alpha)).min(ALPHA_MAX);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn duals(pi: &[f64]) -> Duals {
        Duals {
            pi: pi.to_vec(),
            cuts: Vec::new(),
        }
    }

    /// The pricing point is the convex combination, and mispricings move it to the master's
    /// duals in finitely many steps.
    #[test]
    fn mispricing_schedule_reaches_the_master_duals() {
        let s = Smoothing::new(duals(&[0.0, 10.0]), 10.0, 0.8);
        let out = duals(&[10.0, 0.0]);
        let (p, a) = s.point(&out, 0);
        assert!((a - 0.8).abs() < 1e-12);
        assert!((p.pi[0] - 2.0).abs() < 1e-12 && (p.pi[1] - 8.0).abs() < 1e-12);
        let (p, a) = s.point(&out, 1);
        assert!((a - 0.6).abs() < 1e-12, "{a}");
        assert!((p.pi[0] - 4.0).abs() < 1e-12);
        let (p, a) = s.point(&out, 5);
        assert_eq!(a, 0.0);
        assert_eq!(p.pi, out.pi);
    }

    /// Only a better bound moves the centre.
    #[test]
    fn centre_moves_only_on_a_better_bound() {
        let mut s = Smoothing::new(duals(&[1.0]), 5.0, 0.5);
        assert!(!s.offer(&duals(&[2.0]), 4.0));
        assert_eq!(s.centre_bound, 5.0);
        assert!(s.offer(&duals(&[3.0]), 6.0));
        assert_eq!(s.centre_bound, 6.0);
        let (p, _) = s.point(&duals(&[3.0]), 0);
        assert!((p.pi[0] - 3.0).abs() < 1e-12);
    }
}
