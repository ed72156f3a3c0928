//! The exact GP posterior on the continuous cube, with gradients in `x`, updated one
//! observation at a time.
//!
//! # Model
//! Prior `f ~ GP(μ₀, k)`; observations `y_s = f(x_s)` treated with a fixed Gaussian noise of
//! variance `ε` (the stopping paper's model, App. B: "fixed noise level 10⁻⁶"; the objective
//! itself is observed exactly). With `K = k(X, X) + εI = L·Lᵀ`, `a = L⁻¹(y − μ₀)` and
//! `α = L⁻ᵀa = K⁻¹(y − μ₀)`, the posterior of the latent `f(x)` is
//!
//! ```text
//! μ(x) = μ₀ + vᵀa,   σ²(x) = k(x, x) − vᵀv,   v = L⁻¹·k(X, x),
//! ∇μ(x) = J(x)ᵀα,    ∇σ²(x) = −2·J(x)ᵀ·L⁻ᵀv,   J(x) = ∇ₓk(X, x)  (t × d),
//! ```
//!
//! `O(t²)` per point (two triangular solves with the gradient, one without). At the observed
//! points the posterior is `μ(x_s) = y_s − ε·α_s` and `σ²(x_s) = ε − ε²·(K⁻¹)_ss` (from
//! `K − εI = k(X, X)`), kept up to date with `diag(K⁻¹) = Σ_k (L⁻¹)²_{k·}` through the rows of
//! `L⁻¹`, so the rules read them at `O(1)` each.
//!
//! # Updates
//! Observing `x_{t+1}` borders `L` with the row `ℓ = L⁻¹k(X, x_{t+1})` and the diagonal
//! `d = √(k(x, x) + ε − ‖ℓ‖²)` (the posterior sd of `y_{t+1}`, ≥ √ε, so never 0); the new
//! `L⁻¹` row is `(−ℓᵀL⁻¹/d, 1/d)` and `a_{t+1} = (y − μ₀ − ℓᵀa)/d`: `O(t²)`.
//!
//! A fixed *screen* of `R` points (the raw samples of the multi-start search) keeps its
//! posterior exactly as `gp::Posterior` keeps a finite domain's: one row of `L⁻¹k(X, S)` per
//! observation, `O(R·t)` per update, so screening costs `O(R)` per step instead of
//! `O(R·t²)`.
//!
//! Because `L` grows by bordering, its leading `k × k` block is the factor of the first `k`
//! observations: [`ContinuousPosterior::mean_sd_given_first`] gives any earlier posterior
//! without keeping it.
use crate::gp::Kernel;

/// The posterior of `f` on `[0, 1]^d` given the observations so far.
#[derive(Clone, Debug)]
pub struct ContinuousPosterior {
    kernel: Kernel,
    prior_mean: f64,
    noise: f64,
    dim: usize,
    xs: Vec<f64>,
    ys: Vec<f64>,
    /// Rows of `L`, packed: row `i` (length `i + 1`) starts at `i(i+1)/2`.
    factor: Vec<f64>,
    /// Rows of `L⁻¹`, packed the same way.
    inverse: Vec<f64>,
    /// `diag(K⁻¹)`.
    inverse_diagonal: Vec<f64>,
    a: Vec<f64>,
    alpha: Vec<f64>,
    screen: Screen,
}

/// Fixed points whose posterior is updated with every observation.
#[derive(Clone, Debug, Default)]
struct Screen {
    points: Vec<f64>,
    rows: Vec<Vec<f64>>,
    mean: Vec<f64>,
    variance: Vec<f64>,
    sd: Vec<f64>,
}

/// Reusable buffers for the point queries (no allocation per query).
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    k: Vec<f64>,
    jacobian: Vec<f64>,
    v: Vec<f64>,
    w: Vec<f64>,
}

/// Reusable buffers for [`ContinuousPosterior::mean_sd_with_gradient_batch`].
#[derive(Clone, Debug, Default)]
pub struct BatchScratch {
    factors: Vec<f64>,
    v: Vec<f64>,
    w: Vec<f64>,
}

/// Where [`ContinuousPosterior::mean_sd_with_gradient_batch`] writes: `m` means and sds, and
/// `m·d` gradient coordinates each (row after row).
pub struct BatchOut<'a> {
    /// `μ` at each point.
    pub means: &'a mut [f64],
    /// `σ` at each point.
    pub sds: &'a mut [f64],
    /// `∇μ` at each point.
    pub mean_gradients: &'a mut [f64],
    /// `∇σ` at each point.
    pub sd_gradients: &'a mut [f64],
}

/// Posterior mean and standard deviation at a point, with their gradients.
#[derive(Clone, Debug, PartialEq)]
pub struct MeanSd {
    /// `μ(x)`.
    pub mean: f64,
    /// `σ(x)`.
    pub sd: f64,
    /// `∇μ(x)`.
    pub mean_gradient: Vec<f64>,
    /// `∇σ(x)` (0 where `σ = 0`).
    pub sd_gradient: Vec<f64>,
}

impl ContinuousPosterior {
    /// The prior on `[0, 1]^dim`, with `screen` (`R·dim` coordinates, row after row) as the
    /// screened points.
    ///
    /// Errors: invalid kernel, non-finite mean, noise not finite and > 0, screen length not a
    /// multiple of `dim`.
    pub fn new(
        kernel: Kernel,
        prior_mean: f64,
        noise: f64,
        dim: usize,
        screen: Vec<f64>,
    ) -> Result<ContinuousPosterior, String> {
        kernel.validate()?;
        if !prior_mean.is_finite() {
            return Err(format!("prior mean must be finite, got {prior_mean}"));
        }
        if !(noise.is_finite() && noise > 0.0) {
            return Err(format!(
                "noise variance must be finite and > 0, got {noise}"
            ));
        }
        if dim == 0 || screen.len() % dim != 0 {
            return Err(format!(
                "screen of {} coordinates is not a set of {dim}-D points",
                screen.len()
            ));
        }
        let r = screen.len() / dim;
        let prior_sd = kernel.outputscale.sqrt();
        Ok(ContinuousPosterior {
            kernel,
            prior_mean,
            noise,
            dim,
            xs: Vec::new(),
            ys: Vec::new(),
            factor: Vec::new(),
            inverse: Vec::new(),
            inverse_diagonal: Vec::new(),
            a: Vec::new(),
            alpha: Vec::new(),
            screen: Screen {
                points: screen,
                rows: Vec::new(),
                mean: vec![prior_mean; r],
                variance: vec![kernel.outputscale; r],
                sd: vec![prior_sd; r],
            },
        })
    }

    /// Dimension `d`.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// Number of observations `t`.
    pub fn len(&self) -> usize {
        self.ys.len()
    }

    /// Whether nothing has been observed.
    pub fn is_empty(&self) -> bool {
        self.ys.is_empty()
    }

    /// The kernel.
    pub fn kernel(&self) -> &Kernel {
        &self.kernel
    }

    /// The model's noise variance `ε`.
    pub fn noise(&self) -> f64 {
        self.noise
    }

    /// Observed point `s`.
    pub fn point(&self, s: usize) -> &[f64] {
        &self.xs[s * self.dim..(s + 1) * self.dim]
    }

    /// All observed points, row after row.
    pub fn points(&self) -> &[f64] {
        &self.xs
    }

    /// Observed values.
    pub fn values(&self) -> &[f64] {
        &self.ys
    }

    /// The screen's points, row after row.
    pub fn screen_points(&self) -> &[f64] {
        &self.screen.points
    }

    /// Posterior mean at the screen's points.
    pub fn screen_mean(&self) -> &[f64] {
        &self.screen.mean
    }

    /// Posterior sd at the screen's points.
    pub fn screen_sd(&self) -> &[f64] {
        &self.screen.sd
    }

    fn factor_row(&self, i: usize) -> &[f64] {
        let start = i * (i + 1) / 2;
        &self.factor[start..start + i + 1]
    }

    /// Conditions on `f(x) = y`.
    ///
    /// Errors: wrong dimension, a coordinate outside `[0, 1]` or not finite, `y` not finite,
    /// or a Schur complement `≤ 0` (impossible with `ε > 0` unless rounding fails badly).
    pub fn observe(&mut self, x: &[f64], y: f64) -> Result<(), String> {
        if x.len() != self.dim || x.iter().any(|v| !(0.0..=1.0).contains(v)) {
            return Err(format!(
                "observed point {x:?} is not a point of [0, 1]^{}",
                self.dim
            ));
        }
        if !y.is_finite() {
            return Err(format!("observed value {y} at {x:?} is not finite"));
        }
        let t = self.len();
        let mut border: Vec<f64> = (0..t).map(|s| self.kernel.eval(self.point(s), x)).collect();
        self.forward_solve(&mut border, t);
        let schur = self.kernel.outputscale + self.noise - dot(&border, &border);
        if schur.is_nan() || schur <= 0.0 {
            return Err(format!(
                "posterior variance of the observation at {x:?} is {schur:e} ≤ 0"
            ));
        }
        let diag = schur.sqrt();
        let weight = (y - self.prior_mean - dot(&border, &self.a)) / diag;
        // New row of L⁻¹: −(ℓᵀL⁻¹)/d, then 1/d.
        let mut inverse_row = vec![0.0; t + 1];
        for (i, &l) in border.iter().enumerate() {
            let start = i * (i + 1) / 2;
            axpy(
                l,
                &self.inverse[start..start + i + 1],
                &mut inverse_row[..=i],
            );
        }
        inverse_row[..t].iter_mut().for_each(|v| *v = -*v / diag);
        inverse_row[t] = 1.0 / diag;
        for (d, r) in self.inverse_diagonal.iter_mut().zip(&inverse_row) {
            *d += r * r;
        }
        self.inverse_diagonal.push(inverse_row[t] * inverse_row[t]);
        self.inverse.extend_from_slice(&inverse_row);
        // Screen: the new row of L⁻¹k(X, S).
        let r = self.screen.mean.len();
        let mut row: Vec<f64> = (0..r)
            .map(|j| {
                self.kernel
                    .eval(x, &self.screen.points[j * self.dim..(j + 1) * self.dim])
            })
            .collect();
        for (previous, &l) in self.screen.rows.iter().zip(&border) {
            axpy(-l, previous, &mut row);
        }
        row.iter_mut().for_each(|v| *v /= diag);
        let screen = &mut self.screen;
        for (((m, var), sd), &v) in screen
            .mean
            .iter_mut()
            .zip(&mut screen.variance)
            .zip(&mut screen.sd)
            .zip(&row)
        {
            *m += v * weight;
            *var -= v * v;
            *sd = var.max(0.0).sqrt();
        }
        screen.rows.push(row);
        self.factor.extend_from_slice(&border);
        self.factor.push(diag);
        self.a.push(weight);
        self.xs.extend_from_slice(x);
        self.ys.push(y);
        // α = L⁻ᵀa = Σ_k a_k·(row k of L⁻¹).
        self.alpha.clear();
        self.alpha.resize(t + 1, 0.0);
        for (k, &ak) in self.a.iter().enumerate() {
            let start = k * (k + 1) / 2;
            axpy(
                ak,
                &self.inverse[start..start + k + 1],
                &mut self.alpha[..=k],
            );
        }
        Ok(())
    }

    /// `v ← L⁻¹v` using the leading `k × k` block of `L` (`v.len() ≥ k`; entries past `k`
    /// are left alone).
    fn forward_solve(&self, v: &mut [f64], k: usize) {
        for i in 0..k {
            let row = self.factor_row(i);
            let s = dot(&row[..i], &v[..i]);
            v[i] = (v[i] - s) / row[i];
        }
    }

    /// `w ← L⁻ᵀw` (the full factor).
    fn backward_solve(&self, w: &mut [f64]) {
        for i in (0..self.len()).rev() {
            let row = self.factor_row(i);
            w[i] /= row[i];
            let wi = w[i];
            axpy(-wi, &row[..i], &mut w[..i]);
        }
    }

    /// Posterior mean and sd at `x` given the first `first ≤ t` observations (`O(first²)`).
    pub fn mean_sd_given_first(&self, first: usize, x: &[f64]) -> (f64, f64) {
        let first = first.min(self.len());
        let mut v: Vec<f64> = (0..first)
            .map(|s| self.kernel.eval(self.point(s), x))
            .collect();
        self.forward_solve(&mut v, first);
        let mean = self.prior_mean + dot(&v, &self.a[..first]);
        let variance = self.kernel.outputscale - dot(&v, &v);
        (mean, variance.max(0.0).sqrt())
    }

    /// Posterior mean and sd at `x` (`O(t²/2)`).
    pub fn mean_sd(&self, x: &[f64], scratch: &mut Scratch) -> (f64, f64) {
        let t = self.len();
        scratch.k.clear();
        scratch
            .k
            .extend((0..t).map(|s| self.kernel.eval(self.point(s), x)));
        self.forward_solve(&mut scratch.k, t);
        let v = &scratch.k;
        let mean = self.prior_mean + dot(v, &self.a);
        let variance = self.kernel.outputscale - dot(v, v);
        (mean, variance.max(0.0).sqrt())
    }

    /// Posterior mean and sd at `x` with their gradients written to `mean_gradient` and
    /// `sd_gradient` (length `d`; `∇σ = ∇σ²/(2σ)`, 0 where `σ = 0`). `O(t²)`.
    pub fn mean_sd_with_gradient(
        &self,
        x: &[f64],
        scratch: &mut Scratch,
        mean_gradient: &mut [f64],
        sd_gradient: &mut [f64],
    ) -> (f64, f64) {
        let (t, d) = (self.len(), self.dim);
        scratch.k.resize(t, 0.0);
        scratch.jacobian.resize(t * d, 0.0);
        for s in 0..t {
            scratch.k[s] = self.kernel.eval_with_gradient(
                x,
                &self.xs[s * d..(s + 1) * d],
                &mut scratch.jacobian[s * d..(s + 1) * d],
            );
        }
        scratch.v.clear();
        scratch.v.extend_from_slice(&scratch.k);
        self.forward_solve(&mut scratch.v, t);
        let mean = self.prior_mean + dot(&scratch.v, &self.a);
        let variance = self.kernel.outputscale - dot(&scratch.v, &scratch.v);
        let sd = variance.max(0.0).sqrt();
        scratch.w.clear();
        scratch.w.extend_from_slice(&scratch.v);
        self.backward_solve(&mut scratch.w);
        mean_gradient.fill(0.0);
        sd_gradient.fill(0.0);
        let scale = if sd > 0.0 { -1.0 / sd } else { 0.0 };
        for s in 0..t {
            let row = &scratch.jacobian[s * d..(s + 1) * d];
            axpy(self.alpha[s], row, mean_gradient);
            // ∇σ = −J ᵀw/σ (from ∇σ² = −2Jᵀw).
            axpy(scale * scratch.w[s], row, sd_gradient);
        }
        (mean, sd)
    }

    /// [`ContinuousPosterior::mean_sd_with_gradient`] at `m` points at once (`points`: `m·d`
    /// coordinates, row after row), with exactly the same results, point by point: the same
    /// operations in the same order, with each row of `L` read once for four points (the
    /// triangular solves are most of the time, and bound by reading `L`). Results are written
    /// to `means`, `sds` (length `m`), `mean_gradients` and `sd_gradients` (`m·d`, row after
    /// row). The same as [`ContinuousPosterior::mean_sd_batch`] followed by
    /// [`ContinuousPosterior::gradients_batch`] for every point.
    pub fn mean_sd_with_gradient_batch(
        &self,
        points: &[f64],
        scratch: &mut BatchScratch,
        out: BatchOut<'_>,
    ) {
        let m = points.len() / self.dim;
        let BatchOut {
            means,
            sds,
            mean_gradients,
            sd_gradients,
        } = out;
        self.mean_sd_batch(points, scratch, means, sds);
        let all: Vec<usize> = (0..m).collect();
        self.gradients_batch(points, scratch, sds, &all, mean_gradients, sd_gradients);
    }

    /// The posterior mean and sd at `m` points (`points`: `m·d` coordinates), written to
    /// `means` and `sds`: [`ContinuousPosterior::mean_sd_with_gradient`]'s values bit for bit,
    /// without the gradients. `scratch` keeps what [`ContinuousPosterior::gradients_batch`]
    /// needs for any of these points (`O(t)` per point instead of a second `O(t²)` solve
    /// for the points whose gradient is never asked for).
    pub fn mean_sd_batch(
        &self,
        points: &[f64],
        scratch: &mut BatchScratch,
        means: &mut [f64],
        sds: &mut [f64],
    ) {
        let (t, d) = (self.len(), self.dim);
        let m = points.len() / d;
        scratch.factors.resize(m * t, 0.0);
        scratch.v.resize(m * t, 0.0);
        // k(X, x_j) and the factors φ_s of its gradients φ_s·(x_j − x_s) (the Jacobian is
        // recomputed from them later: the same numbers, without a t·d buffer per point).
        let kernel = self.kernel;
        let xs = &self.xs[..t * d];
        for j in 0..m {
            let x = &points[j * d..(j + 1) * d];
            let factors = &mut scratch.factors[j * t..(j + 1) * t];
            let v = &mut scratch.v[j * t..(j + 1) * t];
            for ((value, factor), b) in v.iter_mut().zip(factors).zip(xs.chunks_exact(d)) {
                (*value, *factor) = kernel.eval_with_factor(x, b);
            }
        }
        // v ← L⁻¹v, four points per pass over L (then one by one).
        let groups = m / 4;
        for group in 0..groups {
            let block = &mut scratch.v[4 * group * t..4 * (group + 1) * t];
            dispatch_solve(Solve4::Forward, &self.factor, t, block);
        }
        for j in 4 * groups..m {
            self.forward_solve(&mut scratch.v[j * t..(j + 1) * t], t);
        }
        for j in 0..m {
            let v = &scratch.v[j * t..(j + 1) * t];
            means[j] = self.prior_mean + dot(v, &self.a);
            let variance = self.kernel.outputscale - dot(v, v);
            sds[j] = variance.max(0.0).sqrt();
        }
    }

    /// The gradients `∇μ`, `∇σ` at the points `selected` (indices into the last
    /// [`ContinuousPosterior::mean_sd_batch`] call's `points`, whose `sds` are passed back),
    /// written row after row in the order of `selected` to `mean_gradients` and
    /// `sd_gradients` (`selected.len()·d` each): [`ContinuousPosterior::mean_sd_with_gradient`]'s
    /// gradients bit for bit.
    pub fn gradients_batch(
        &self,
        points: &[f64],
        scratch: &mut BatchScratch,
        sds: &[f64],
        selected: &[usize],
        mean_gradients: &mut [f64],
        sd_gradients: &mut [f64],
    ) {
        let (t, d) = (self.len(), self.dim);
        let n = selected.len();
        scratch.w.clear();
        for &j in selected {
            scratch.w.extend_from_slice(&scratch.v[j * t..(j + 1) * t]);
        }
        // w ← L⁻ᵀw, the same way.
        let groups = n / 4;
        for group in 0..groups {
            let block = &mut scratch.w[4 * group * t..4 * (group + 1) * t];
            dispatch_solve(Solve4::Backward, &self.factor, t, block);
        }
        for k in 4 * groups..n {
            self.backward_solve(&mut scratch.w[k * t..(k + 1) * t]);
        }
        let xs = &self.xs[..t * d];
        let mut row = vec![0.0; d];
        for (k, &j) in selected.iter().enumerate() {
            let x = &points[j * d..(j + 1) * d];
            let w = &scratch.w[k * t..(k + 1) * t];
            let factors = &scratch.factors[j * t..(j + 1) * t];
            let mean_gradient = &mut mean_gradients[k * d..(k + 1) * d];
            let sd_gradient = &mut sd_gradients[k * d..(k + 1) * d];
            mean_gradient.fill(0.0);
            sd_gradient.fill(0.0);
            let sd = sds[j];
            let scale = if sd > 0.0 { -1.0 / sd } else { 0.0 };
            for s in 0..t {
                let b = &xs[s * d..(s + 1) * d];
                for ((r, p), q) in row.iter_mut().zip(x).zip(b) {
                    *r = factors[s] * (p - q);
                }
                axpy(self.alpha[s], &row, mean_gradient);
                axpy(scale * w[s], &row, sd_gradient);
            }
        }
    }

    /// [`ContinuousPosterior::mean_sd_with_gradient`] with owned results (tests, diagnostics).
    pub fn mean_sd_gradients(&self, x: &[f64]) -> MeanSd {
        let mut scratch = Scratch::default();
        let (mut gm, mut gs) = (vec![0.0; self.dim], vec![0.0; self.dim]);
        let (mean, sd) = self.mean_sd_with_gradient(x, &mut scratch, &mut gm, &mut gs);
        MeanSd {
            mean,
            sd,
            mean_gradient: gm,
            sd_gradient: gs,
        }
    }

    /// Posterior mean at observed point `s`: `y_s − ε·α_s`.
    pub fn mean_at_observed(&self, s: usize) -> f64 {
        self.ys[s] - self.noise * self.alpha[s]
    }

    /// Posterior sd at observed point `s`: `√(ε − ε²·(K⁻¹)_ss)`.
    pub fn sd_at_observed(&self, s: usize) -> f64 {
        let variance = self.noise - self.noise * self.noise * self.inverse_diagonal[s];
        variance.max(0.0).sqrt()
    }

    /// `K⁻¹(y − μ₀ − e)` for another right-hand side (Thompson sampling's pathwise update):
    /// `rhs ← K⁻¹·rhs`, `O(t²)`.
    pub fn solve_in_place(&self, rhs: &mut [f64]) {
        let t = self.len();
        self.forward_solve(rhs, t);
        self.backward_solve(rhs);
    }
}

/// `Σ aᵢbᵢ` with four partial sums (the compiler may then vectorise; the order is fixed, so
/// results do not depend on the machine).
#[inline(always)]
fn dot(a: &[f64], b: &[f64]) -> f64 {
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    let mut acc = [0.0; 4];
    let chunks = n / 4;
    for c in 0..chunks {
        let i = 4 * c;
        acc[0] += a[i] * b[i];
        acc[1] += a[i + 1] * b[i + 1];
        acc[2] += a[i + 2] * b[i + 2];
        acc[3] += a[i + 3] * b[i + 3];
    }
    let mut sum = (acc[0] + acc[1]) + (acc[2] + acc[3]);
    for i in 4 * chunks..n {
        sum += a[i] * b[i];
    }
    sum
}

/// Runs `solve(factor, t, block)` compiled for AVX2 where the processor has it (detected
/// at run time), else as built. AVX2 without FMA changes only the width of the vector
/// instructions, never the operations or their order (Rust never contracts `a·b + c` into one
/// rounding), so the results are the same on every x86-64 machine; a test checks the batched
/// queries against the one-point ones bit for bit.
fn dispatch_solve(solve: Solve4, factor: &[f64], t: usize, block: &mut [f64]) {
    #[cfg(target_arch = "x86_64")]
    {
        #[target_feature(enable = "avx2")]
        unsafe fn forward_avx2(factor: &[f64], t: usize, block: &mut [f64]) {
            forward_solve4(factor, t, block)
        }
        #[target_feature(enable = "avx2")]
        unsafe fn backward_avx2(factor: &[f64], t: usize, block: &mut [f64]) {
            backward_solve4(factor, t, block)
        }
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor supports AVX2 (checked just above).
            unsafe {
                match solve {
                    Solve4::Forward => forward_avx2(factor, t, block),
                    Solve4::Backward => backward_avx2(factor, t, block),
                }
            }
            return;
        }
    }
    match solve {
        Solve4::Forward => forward_solve4(factor, t, block),
        Solve4::Backward => backward_solve4(factor, t, block),
    }
}

/// Which four-vector solve [`dispatch_solve`] runs.
#[derive(Clone, Copy)]
enum Solve4 {
    Forward,
    Backward,
}

/// `v_r ← L⁻¹v_r` for the four vectors of `block` (`4·t` values, vector after vector), `L`
/// packed by rows as in [`ContinuousPosterior`]: each vector with exactly `forward_solve`'s
/// operations. Rows go in pairs `(i, i + 1)`: their dot products share the loads of
/// `v[..4⌊i/4⌋]` (lanes and sums in [`dot`]'s order); row `i + 1` then adds the lanes that
/// need `v_i` and its tail.
#[inline(always)]
fn forward_solve4(factor: &[f64], t: usize, block: &mut [f64]) {
    let (v0, rest) = block.split_at_mut(t);
    let (v1, rest) = rest.split_at_mut(t);
    let (v2, v3) = rest.split_at_mut(t);
    let mut v = [v0, v1, v2, v3];
    let row_of = |i: usize| {
        let start = i * (i + 1) / 2;
        &factor[start..start + i + 1]
    };
    let mut i = 0;
    while i + 1 < t {
        let (upper, lower) = (row_of(i), row_of(i + 1));
        let common = 4 * (i / 4);
        let mut acc_upper = [[0.0; 4]; 4];
        let mut acc_lower = [[0.0; 4]; 4];
        {
            let [a, b, c, d] = &v;
            let cols = [&a[..common], &b[..common], &c[..common], &d[..common]];
            for (k, (u, l)) in upper[..common]
                .chunks_exact(4)
                .zip(lower[..common].chunks_exact(4))
                .enumerate()
            {
                for (r, col) in cols.iter().enumerate() {
                    let x = &col[4 * k..4 * k + 4];
                    for lane in 0..4 {
                        acc_upper[r][lane] += u[lane] * x[lane];
                        acc_lower[r][lane] += l[lane] * x[lane];
                    }
                }
            }
        }
        // Row i: its tail, then v_i.
        for (r, vr) in v.iter_mut().enumerate() {
            let acc = acc_upper[r];
            let mut sum = (acc[0] + acc[1]) + (acc[2] + acc[3]);
            for k in common..i {
                sum += upper[k] * vr[k];
            }
            vr[i] = (vr[i] - sum) / upper[i];
        }
        // Row i + 1: one more chunk if it ends at i + 1, then its tail, then v_{i+1}.
        let chunked = 4 * ((i + 1) / 4);
        for (r, vr) in v.iter_mut().enumerate() {
            let mut acc = acc_lower[r];
            if chunked > common {
                for lane in 0..4 {
                    acc[lane] += lower[common + lane] * vr[common + lane];
                }
            }
            let mut sum = (acc[0] + acc[1]) + (acc[2] + acc[3]);
            for k in chunked..i + 1 {
                sum += lower[k] * vr[k];
            }
            vr[i + 1] = (vr[i + 1] - sum) / lower[i + 1];
        }
        i += 2;
    }
    if i < t {
        let row = row_of(i);
        let [a, b, c, d] = &mut v;
        let s = dot4(&row[..i], [&a[..i], &b[..i], &c[..i], &d[..i]]);
        for (r, vr) in v.iter_mut().enumerate() {
            vr[i] = (vr[i] - s[r]) / row[i];
        }
    }
}

/// `w_r ← L⁻ᵀw_r` for the four vectors of `block`, as [`forward_solve4`] (each vector with
/// exactly `backward_solve`'s operations). Rows go in pairs `(i, i − 1)`: each entry
/// `k < i − 1` gets row `i`'s term and then row `i − 1`'s, as in two passes, in one.
#[inline(always)]
fn backward_solve4(factor: &[f64], t: usize, block: &mut [f64]) {
    let (w0, rest) = block.split_at_mut(t);
    let (w1, rest) = rest.split_at_mut(t);
    let (w2, w3) = rest.split_at_mut(t);
    let mut w = [w0, w1, w2, w3];
    let row_of = |i: usize| {
        let start = i * (i + 1) / 2;
        &factor[start..start + i + 1]
    };
    let mut i = t;
    while i >= 2 {
        let (high, low) = (i - 1, i - 2);
        let (upper, lower) = (row_of(high), row_of(low));
        let mut a = [0.0; 4];
        let mut b = [0.0; 4];
        for (r, wr) in w.iter_mut().enumerate() {
            wr[high] /= upper[high];
            a[r] = -wr[high];
            wr[low] += a[r] * upper[low];
            wr[low] /= lower[low];
            b[r] = -wr[low];
        }
        let (upper, lower) = (&upper[..low], &lower[..low]);
        for (r, wr) in w.iter_mut().enumerate() {
            let (ar, br) = (a[r], b[r]);
            for ((x, &u), &l) in wr[..low].iter_mut().zip(upper).zip(lower) {
                *x += ar * u;
                *x += br * l;
            }
        }
        i -= 2;
    }
    if i == 1 {
        let row = row_of(0);
        for wr in w.iter_mut() {
            wr[0] /= row[0];
        }
    }
}

/// Four [`dot`]s of `a` with `b[0..4]`, each with exactly [`dot`]'s operations and order (so
/// with its result), `a` read once.
#[inline(always)]
fn dot4(a: &[f64], b: [&[f64]; 4]) -> [f64; 4] {
    let n = a.len();
    let main = n - n % 4;
    let [b0, b1, b2, b3] = b.map(|x| &x[..n]);
    let mut acc = [[0.0; 4]; 4];
    for ((((ac, c0), c1), c2), c3) in a[..main]
        .chunks_exact(4)
        .zip(b0[..main].chunks_exact(4))
        .zip(b1[..main].chunks_exact(4))
        .zip(b2[..main].chunks_exact(4))
        .zip(b3[..main].chunks_exact(4))
    {
        for l in 0..4 {
            acc[0][l] += ac[l] * c0[l];
            acc[1][l] += ac[l] * c1[l];
            acc[2][l] += ac[l] * c2[l];
            acc[3][l] += ac[l] * c3[l];
        }
    }
    let mut sums = [0.0; 4];
    for (r, column) in [b0, b1, b2, b3].iter().enumerate() {
        let mut sum = (acc[r][0] + acc[r][1]) + (acc[r][2] + acc[r][3]);
        for i in main..n {
            sum += a[i] * column[i];
        }
        sums[r] = sum;
    }
    sums
}

/// `y ← y + a·x`.
#[inline(always)]
fn axpy(a: f64, x: &[f64], y: &mut [f64]) {
    for (yi, xi) in y.iter_mut().zip(x) {
        *yi += a * xi;
    }
}
