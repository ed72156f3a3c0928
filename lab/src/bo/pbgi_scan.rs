//! The exact pruned scan for the smallest PBGI index over a step's unevaluated points: the PBGI
//! acquisition's choice and the stopping rule's `min PBGI` (one scan, so both see the same
//! index).

/// A lower bound on `PBGI(μ, σ, c)` for `σ > 0`, with a safety margin far above rounding.
///
/// The index is `g = μ + σ·u` with `h(u) = r = c/σ`. If `r ≥ h(0) = 1/√(2π)` then `u ≥ 0` and
/// `g ≥ μ`. Otherwise `u < 0`, and Gordon's Mills-ratio inequality `1 - Φ(z) ≥ zφ(z)/(1+z²)`
/// gives `h(-z) = φ(z) - z(1 - Φ(z)) ≤ G(z) = φ(z)/(1 + z²)` for `z ≥ 0`; `G` is decreasing,
/// so `|u| ≤ z*` with `G(z*) = r`. With `F(z) = √(-2·ln(√(2π)·r·(1 + z²)))` (0 when the log's
/// argument is ≥ 1), `z ≥ z*` implies `F(z) ≤ z*` and `z ≤ z*` implies `F(z) ≥ z*`, so from
/// `z₀ = F(0) ≥ z*`, `z₂ = F(F(z₀)) ≥ z*` is an upper bound on `|u|` (at `r = 1e-3`: true
/// `|u| = 2.718`, `z₂ = 2.803`). The margin `1e-12·(|μ| + σ·(1 + z₂) + c)` exceeds the bound's
/// rounding and `pbgi_fast::pbgi`'s error (≤ 4 ulp of `|μ| + σ|u|`) by orders of magnitude.
fn pbgi_lower_bound(mu: f64, sigma: f64, cost: f64) -> f64 {
    let a = (2.0 * std::f64::consts::PI).sqrt() * cost / sigma;
    let z = if a < 1.0 {
        let f = |z: f64| {
            let arg = a * (1.0 + z * z);
            if arg < 1.0 {
                (-2.0 * arg.ln()).sqrt()
            } else {
                0.0
            }
        };
        f(f(f(0.0)))
    } else {
        0.0
    };
    mu - sigma * z - 1e-12 * (mu.abs() + sigma * (1.0 + z) + cost)
}

/// The unevaluated point (`evaluated[i]` false) with the smallest `pbgi_fast::pbgi(mean[i],
/// sd[i], cost[i])` index, and that index (lowest
/// domain index on ties; NaN indices are never chosen). `None` if all points are evaluated.
///
/// Exact: returns the same point as evaluating the index everywhere. Points are visited in
/// increasing order of [`pbgi_lower_bound`] and the scan ends once the bound exceeds the best
/// index found, so only the few points that can compete are solved for.
pub fn pbgi_argmin(
    mean: &[f64],
    sd: &[f64],
    cost: &[f64],
    evaluated: &[bool],
) -> Option<(usize, f64)> {
    let mut order: Vec<(f64, usize)> = (0..evaluated.len())
        .filter(|&i| !evaluated[i])
        .map(|i| (pbgi_lower_bound(mean[i], sd[i], cost[i]), i))
        .collect();
    order.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let mut best: Option<(usize, f64)> = None;
    for (bound, i) in order {
        if let Some((_, g_best)) = best {
            // A NaN bound (invalid input) never ends the scan; its NaN index is never chosen.
            if bound > g_best {
                break;
            }
        }
        let g = pbgi_fast::pbgi(mean[i], sd[i], cost[i]);
        let better = match best {
            None => !g.is_nan(),
            Some((j, g_best)) => g < g_best || (g == g_best && i < j),
        };
        if better {
            best = Some((i, g));
        }
    }
    best
}
