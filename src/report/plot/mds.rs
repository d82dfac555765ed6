//! Classical (Torgerson) multidimensional scaling: a 2-D embedding of a distance matrix for the
//! partition picture when no two quasi-identifiers are chosen as axes. Eigenpairs of the
//! double-centred matrix come from power iteration with deflation (the two largest are all a
//! picture needs, and n stays at most a few thousand).

/// Iteration cap of one power iteration.
const MAX_ITER: usize = 5_000;
/// Convergence threshold on the change of the unit eigenvector (max norm).
const TOL: f64 = 1e-12;

/// Classical MDS of a symmetric distance matrix into `dims` dimensions: the rows of
/// `sqrt(λ_k) v_k` for the `dims` largest eigenpairs (λ_k > 0) of B = −½ J D⁽²⁾ J.
/// When the distances are Euclidean in `dims` dimensions, the embedding reproduces them up to a
/// rotation or reflection. Deterministic: fixed start vectors and a sign convention (the entry
/// of largest magnitude of each eigenvector is positive). Coordinates of non-positive
/// eigenvalues are 0.
pub(crate) fn classical_mds(d: &[Vec<f64>], dims: usize) -> Vec<Vec<f64>> {
    let n = d.len();
    let mut out = vec![vec![0.0; dims]; n];
    if n == 0 {
        return out;
    }
    let b = double_centred(d);
    let mut deflated = b;
    for (dim, start) in (0..dims).zip(1..) {
        let (lambda, v) = top_eigenpair(&deflated, n, start);
        if lambda <= 0.0 {
            break;
        }
        let s = lambda.sqrt();
        for i in 0..n {
            out[i][dim] = s * v[i];
        }
        for i in 0..n {
            for j in 0..n {
                deflated[i * n + j] -= lambda * v[i] * v[j];
            }
        }
    }
    out
}

/// B = −½ J D⁽²⁾ J as a flat row-major n × n matrix.
fn double_centred(d: &[Vec<f64>]) -> Vec<f64> {
    let n = d.len();
    let sq: Vec<f64> = d.iter().flat_map(|r| r.iter().map(|x| x * x)).collect();
    let row_mean: Vec<f64> = (0..n)
        .map(|i| sq[i * n..(i + 1) * n].iter().sum::<f64>() / n as f64)
        .collect();
    let grand = row_mean.iter().sum::<f64>() / n as f64;
    let mut b = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..n {
            b[i * n + j] = -0.5 * (sq[i * n + j] - row_mean[i] - row_mean[j] + grand);
        }
    }
    b
}

/// y = (M + shift·I) x.
fn mat_vec(m: &[f64], n: usize, x: &[f64], shift: f64, y: &mut [f64]) {
    for i in 0..n {
        let row = &m[i * n..(i + 1) * n];
        y[i] = row.iter().zip(x).map(|(a, b)| a * b).sum::<f64>() + shift * x[i];
    }
}

fn normalise(v: &mut [f64]) -> f64 {
    let norm = v.iter().map(|x| x * x).sum::<f64>().sqrt();
    if norm > 0.0 {
        v.iter_mut().for_each(|x| *x /= norm);
    }
    norm
}

/// Power iteration on M + shift·I from a fixed start; returns the Rayleigh quotient of M and
/// the unit vector.
fn power(m: &[f64], n: usize, shift: f64, start: usize) -> (f64, Vec<f64>) {
    // A deterministic start with no special structure (not orthogonal to any eigenvector in
    // practice; the constant vector, B's null vector, is not favoured).
    let mut v: Vec<f64> = (0..n)
        .map(|i| {
            ((i as f64 + 1.0) * (0.618_033_988_7 + start as f64 * 0.414_213_562)).fract() - 0.5
        })
        .collect();
    if normalise(&mut v) == 0.0 {
        v[0] = 1.0;
    }
    let mut w = vec![0.0; n];
    for _ in 0..MAX_ITER {
        mat_vec(m, n, &v, shift, &mut w);
        if normalise(&mut w) == 0.0 {
            return (0.0, v);
        }
        let change = v
            .iter()
            .zip(&w)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        std::mem::swap(&mut v, &mut w);
        if change < TOL {
            break;
        }
    }
    mat_vec(m, n, &v, 0.0, &mut w);
    let lambda = v.iter().zip(&w).map(|(a, b)| a * b).sum();
    (lambda, v)
}

/// The eigenpair of the largest (algebraic) eigenvalue of a symmetric matrix. Power iteration
/// finds the eigenvalue of largest magnitude; when that one is negative (distances far from
/// Euclidean), the spectrum is shifted by its magnitude so that the largest one dominates.
fn top_eigenpair(m: &[f64], n: usize, start: usize) -> (f64, Vec<f64>) {
    let (lambda, v) = power(m, n, 0.0, start);
    let (lambda, mut v) = if lambda < 0.0 {
        power(m, n, -lambda, start)
    } else {
        (lambda, v)
    };
    let big = v
        .iter()
        .copied()
        .reduce(|a, b| if b.abs() > a.abs() + 1e-12 { b } else { a })
        .unwrap_or(0.0);
    if big < 0.0 {
        v.iter_mut().for_each(|x| *x = -*x);
    }
    (lambda, v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn euclid(a: &[f64], b: &[f64]) -> f64 {
        a.iter()
            .zip(b)
            .map(|(x, y)| (x - y) * (x - y))
            .sum::<f64>()
            .sqrt()
    }

    fn matrix(points: &[Vec<f64>]) -> Vec<Vec<f64>> {
        points
            .iter()
            .map(|p| points.iter().map(|q| euclid(p, q)).collect())
            .collect()
    }

    /// Points on a tilted plane in 3-D: the 2-D embedding reproduces every pairwise distance,
    /// also when the two spreads are nearly equal (close eigenvalues, slow power iteration).
    #[test]
    fn recovers_a_plane_up_to_rotation() {
        for spread in [2.0, 4.9, 5.0] {
            recovers_plane(spread);
        }
    }

    fn recovers_plane(spread: f64) {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        // Orthonormal basis of a tilted plane, and an offset.
        let u = [0.6, 0.8, 0.0];
        let w = [-0.8 * 0.6, 0.6 * 0.6, 0.8];
        let pts: Vec<Vec<f64>> = (0..60)
            .map(|_| {
                let (a, b) = (rng.gen_range(-5.0..5.0), rng.gen_range(-spread..spread));
                (0..3).map(|c| 1.0 + a * u[c] + b * w[c]).collect()
            })
            .collect();
        let d = matrix(&pts);
        let emb = classical_mds(&d, 2);
        let mut worst: f64 = 0.0;
        for i in 0..pts.len() {
            for j in 0..pts.len() {
                worst = worst.max((euclid(&emb[i], &emb[j]) - d[i][j]).abs());
            }
        }
        assert!(
            worst < 1e-6,
            "spread {spread}: largest distance error {worst}"
        );
        // Centred at the origin.
        for c in 0..2 {
            let mean: f64 = emb.iter().map(|p| p[c]).sum::<f64>() / emb.len() as f64;
            assert!(mean.abs() < 1e-9);
        }
    }

    /// Points on a line: the first coordinate carries every distance, the second is zero.
    #[test]
    fn recovers_a_line() {
        let xs = [0.0, 1.0, 1.5, 4.0, 7.25, 9.0, 9.5];
        let pts: Vec<Vec<f64>> = xs.iter().map(|&x| vec![x, 2.0 * x, -x]).collect();
        let d = matrix(&pts);
        let emb = classical_mds(&d, 2);
        for i in 0..xs.len() {
            assert!(emb[i][1].abs() < 1e-6, "second coordinate {}", emb[i][1]);
            for j in 0..xs.len() {
                assert!(((emb[i][0] - emb[j][0]).abs() - d[i][j]).abs() < 1e-6);
            }
        }
    }

    /// Same input, same output; and a non-Euclidean (Manhattan) matrix still gives finite
    /// coordinates that preserve the coarse structure (two far-apart groups stay apart).
    #[test]
    fn deterministic_and_robust_to_non_euclidean_input() {
        let pts: Vec<(f64, f64)> = (0..20)
            .map(|i| {
                let g = if i < 10 { 0.0 } else { 10.0 };
                (g + (i % 3) as f64 * 0.3, (i % 4) as f64 * 0.2)
            })
            .collect();
        let d: Vec<Vec<f64>> = pts
            .iter()
            .map(|p| {
                pts.iter()
                    .map(|q| (p.0 - q.0).abs() + (p.1 - q.1).abs())
                    .collect()
            })
            .collect();
        let a = classical_mds(&d, 2);
        assert_eq!(a, classical_mds(&d, 2));
        assert!(a.iter().flatten().all(|x| x.is_finite()));
        let gap = (a[0][0] - a[15][0]).abs();
        assert!(gap > 9.0, "groups collapsed: {gap}");
    }
}
