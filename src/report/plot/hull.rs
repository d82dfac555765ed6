//! Convex hulls (Andrew's monotone chain) for the class outlines of the partition picture,
//! inflated by a small margin so that a class of one record or of collinear records still gets
//! a visible closed outline.

/// Cross product of (a − o) × (b − o).
fn cross(o: (f64, f64), a: (f64, f64), b: (f64, f64)) -> f64 {
    (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0)
}

/// Vertices of the convex hull in counter-clockwise order, without collinear points and
/// without repeating the first vertex. One point for identical inputs, two for collinear ones.
pub(crate) fn convex_hull(points: &[(f64, f64)]) -> Vec<(f64, f64)> {
    let mut p: Vec<(f64, f64)> = points.to_vec();
    p.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    p.dedup();
    if p.len() <= 2 {
        return p;
    }
    let mut hull: Vec<(f64, f64)> = Vec::with_capacity(2 * p.len());
    for pass in 0..2 {
        let start = hull.len();
        let iter: Box<dyn Iterator<Item = &(f64, f64)>> = if pass == 0 {
            Box::new(p.iter())
        } else {
            Box::new(p.iter().rev())
        };
        for &q in iter {
            while hull.len() >= start + 2
                && cross(hull[hull.len() - 2], hull[hull.len() - 1], q) <= 0.0
            {
                hull.pop();
            }
            hull.push(q);
        }
        hull.pop();
    }
    if hull.len() < 2 {
        // All points collinear and the chain collapsed: the two extremes.
        return vec![p[0], p[p.len() - 1]];
    }
    hull
}

/// The convex hull of the points, each replaced by an octagon of radii (rx, ry): a closed
/// outline with at least 8 vertices around any non-empty set of points.
pub(crate) fn inflated_hull(points: &[(f64, f64)], rx: f64, ry: f64) -> Vec<(f64, f64)> {
    let mut grown = Vec::with_capacity(points.len() * 8);
    for &(x, y) in &convex_hull(points) {
        for s in 0..8 {
            let a = std::f64::consts::PI * (s as f64 / 4.0 + 0.125);
            grown.push((x + rx * a.cos(), y + ry * a.sin()));
        }
    }
    convex_hull(&grown)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hull_of_a_square_with_inside_and_edge_points() {
        let pts = [
            (0.0, 0.0),
            (1.0, 0.0),
            (1.0, 1.0),
            (0.0, 1.0),
            (0.5, 0.5),
            (0.5, 0.0),
            (0.2, 0.7),
        ];
        assert_eq!(
            convex_hull(&pts),
            vec![(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]
        );
    }

    #[test]
    fn degenerate_sets() {
        assert_eq!(convex_hull(&[(1.0, 2.0), (1.0, 2.0)]), vec![(1.0, 2.0)]);
        assert_eq!(
            convex_hull(&[(0.0, 0.0), (2.0, 2.0), (1.0, 1.0)]),
            vec![(0.0, 0.0), (2.0, 2.0)]
        );
        let one = inflated_hull(&[(3.0, 3.0)], 0.1, 0.2);
        assert_eq!(one.len(), 8);
        assert!(one
            .iter()
            .all(|&(x, y)| ((x - 3.0) / 0.1).powi(2) + ((y - 3.0) / 0.2).powi(2) < 1.0 + 1e-9));
        // Every input point lies inside the inflated hull.
        let line = [(0.0, 0.0), (1.0, 1.0), (2.0, 2.0)];
        let h = inflated_hull(&line, 0.05, 0.05);
        for &q in &line {
            for w in 0..h.len() {
                assert!(cross(h[w], h[(w + 1) % h.len()], q) > 0.0);
            }
        }
    }
}
