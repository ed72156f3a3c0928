//! Projected L-BFGS for minimisation over a box `[lo, hi]^d`: the local optimiser of the
//! continuous acquisition search.
//!
//! `argmin`'s L-BFGS has no bound constraints (it offers an L1 penalty only), and the
//! acquisitions of the 8-D setting often have their optimum on a face of the cube (the linear
//! cost is smallest at the origin), so this is a short projected quasi-Newton method in the
//! style of Kim, Sra & Dhillon (2010) and Schmidt's `minConf_TMP`:
//!
//! 1. the *binding* coordinates are those at a bound whose gradient points out of the box;
//!    the projected gradient is the gradient with them zeroed;
//! 2. the direction is the two-loop L-BFGS product `-H·g` (memory `m`, initial scaling
//!    `sᵀy/yᵀy`) with the binding coordinates zeroed; if that is not a descent direction the
//!    projected steepest descent `-g` is used;
//! 3. a backtracking line search along the projected path `P(x + α·d)` accepts the first `α`
//!    (from 1, halving) with the Armijo decrease `f(x_α) ≤ f(x) + c₁·gᵀ(x_α − x)`;
//! 4. the pair `(s, y)` enters the memory only if `sᵀy > 1e-10·‖s‖·‖y‖` (curvature), so `H`
//!    stays positive definite.
//!
//! It stops when the projected gradient's largest component is below `gradient_tolerance`,
//! when a step lowers `f` by less than `relative_tolerance·max(|f|, 1)` (SciPy's L-BFGS-B
//! `factr` test), when a line search fails twice in a row (once more with the memory
//! cleared), or after `max_iterations` iterations. Every iterate stays in the box, and the
//! result is never worse than the (clamped) start. Deterministic: no randomness, no threads.

/// Settings of [`minimise`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LbfgsOptions {
    /// Number of stored `(s, y)` pairs (default 10, SciPy's L-BFGS-B default).
    pub memory: usize,
    /// Iteration cap.
    pub max_iterations: usize,
    /// Stop when `max_i |projected gradient_i| ≤` this.
    pub gradient_tolerance: f64,
    /// Stop when a step's decrease is below this times `max(|f|, 1)` (SciPy: `factr·ε`
    /// with `factr = 1e7`, about `2.2e-9`).
    pub relative_tolerance: f64,
}

impl Default for LbfgsOptions {
    fn default() -> Self {
        Self {
            memory: 10,
            max_iterations: 200,
            gradient_tolerance: 1e-9,
            relative_tolerance: 1e7 * f64::EPSILON,
        }
    }
}

/// Why [`minimise`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Termination {
    /// The projected gradient is below the tolerance.
    Gradient,
    /// A step decreased `f` by less than the relative tolerance.
    Decrease,
    /// No step along the projected path decreased `f` enough.
    LineSearch,
    /// The iteration cap was reached.
    Iterations,
    /// `f` or its gradient is not finite at the start.
    NotFinite,
}

/// The result of [`minimise`].
#[derive(Clone, Debug, PartialEq)]
pub struct Minimum {
    /// The best point found (inside the box).
    pub x: Vec<f64>,
    /// `f(x)`.
    pub value: f64,
    /// Iterations made.
    pub iterations: usize,
    /// Evaluations of `f` (with gradient) made, the start included.
    pub evaluations: usize,
    /// Why it ended.
    pub termination: Termination,
}

/// Armijo constant `c₁` (Nocedal & Wright's customary `1e-4`).
const ARMIJO: f64 = 1e-4;
/// Halvings of the step before a line search gives up (`α ≥ 2⁻³⁰`).
const MAX_HALVINGS: usize = 30;

/// Minimises `f` over the box `[lo_i, hi_i]` from `start` (clamped into the box).
///
/// `f(x, grad)` returns `f(x)` and writes `∇f(x)` into `grad` (length `d`). A non-finite value
/// or gradient at a trial point counts as no decrease (the step is shortened); at the start it
/// ends the search at once ([`Termination::NotFinite`]).
///
/// This drives one [`Lbfgs`] state machine; [`Lbfgs`] run in lockstep by a caller that
/// evaluates their pending points together give exactly the same results.
///
/// # Domain
/// `start`, `lo`, `hi` of equal length `d ≥ 1` with `lo_i ≤ hi_i`, all finite.
pub fn minimise(
    f: &mut dyn FnMut(&[f64], &mut [f64]) -> f64,
    start: &[f64],
    lo: &[f64],
    hi: &[f64],
    options: &LbfgsOptions,
) -> Minimum {
    let mut search = Lbfgs::new(start, lo, hi, options);
    let mut gradient = vec![0.0; start.len()];
    while let Some(x) = search.pending() {
        let value = f(x, &mut gradient);
        search.tell(value, &gradient);
    }
    search.into_minimum()
}

/// Where an [`Lbfgs`] search stands.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Phase {
    /// Waiting for `f` and `∇f` at the (clamped) start.
    Start,
    /// Waiting for `∇f` at the start (its value is known and finite).
    StartGradient,
    /// Waiting for `f` and `∇f` at `trial`, the line search's current point.
    Trial,
    /// Waiting for `∇f` at `trial` (its value, `trial_value`, passed the Armijo test).
    TrialGradient,
    /// Finished.
    Done(Termination),
}

/// One projected L-BFGS search (module documentation) as a state machine: [`Lbfgs::pending`]
/// names the point whose value and gradient it needs next, [`Lbfgs::tell`] hands them over.
/// Several searches can so share one batched evaluation of their pending points; each one's
/// iterates depend only on its own values, so batching changes nothing.
pub struct Lbfgs {
    options: LbfgsOptions,
    lo: Vec<f64>,
    hi: Vec<f64>,
    x: Vec<f64>,
    g: Vec<f64>,
    value: f64,
    memory: Memory,
    direction: Vec<f64>,
    trial: Vec<f64>,
    binding: Vec<bool>,
    iterations: usize,
    evaluations: usize,
    attempt: usize,
    halvings: usize,
    alpha: f64,
    predicted: f64,
    trial_value: f64,
    phase: Phase,
}

impl Lbfgs {
    /// A search from `start` (clamped into the box); domain as [`minimise`].
    pub fn new(start: &[f64], lo: &[f64], hi: &[f64], options: &LbfgsOptions) -> Lbfgs {
        let d = start.len();
        debug_assert!(lo.len() == d && hi.len() == d);
        let mut x = start.to_vec();
        for ((v, &l), &h) in x.iter_mut().zip(lo).zip(hi) {
            *v = v.clamp(l, h);
        }
        Lbfgs {
            options: *options,
            lo: lo.to_vec(),
            hi: hi.to_vec(),
            x,
            g: vec![0.0; d],
            value: f64::NAN,
            memory: Memory::new(options.memory),
            direction: vec![0.0; d],
            trial: vec![0.0; d],
            binding: vec![false; d],
            iterations: 0,
            evaluations: 0,
            attempt: 0,
            halvings: 0,
            alpha: 1.0,
            predicted: 0.0,
            trial_value: f64::NAN,
            phase: Phase::Start,
        }
    }

    /// The point at which `f` and `∇f` are needed next (`None`: finished).
    pub fn pending(&self) -> Option<&[f64]> {
        match self.phase {
            Phase::Start | Phase::StartGradient => Some(&self.x),
            Phase::Trial | Phase::TrialGradient => Some(&self.trial),
            Phase::Done(_) => None,
        }
    }

    /// Whether the search has finished.
    pub fn is_done(&self) -> bool {
        matches!(self.phase, Phase::Done(_))
    }

    /// `f` and `∇f` at the [`Lbfgs::pending`] point (ignored once finished). The same as
    /// [`Lbfgs::tell_value`] and then, if it asks for it, [`Lbfgs::tell_gradient`].
    pub fn tell(&mut self, value: f64, gradient: &[f64]) {
        if self.tell_value(value) {
            self.tell_gradient(gradient);
        }
    }

    /// `f` at the [`Lbfgs::pending`] point; returns whether `∇f` there is needed (then call
    /// [`Lbfgs::tell_gradient`] before anything else). It is not needed where the value alone
    /// decides: a non-finite value, or a trial point that fails the Armijo test; both are
    /// rejected whatever the gradient, so the search goes exactly as with [`Lbfgs::tell`].
    pub fn tell_value(&mut self, value: f64) -> bool {
        match self.phase {
            Phase::Start => {
                self.evaluations += 1;
                self.value = value;
                if !value.is_finite() {
                    self.phase = Phase::Done(Termination::NotFinite);
                    return false;
                }
                self.phase = Phase::StartGradient;
                true
            }
            Phase::Trial => {
                self.evaluations += 1;
                if value.is_finite() && value <= self.value + ARMIJO * self.predicted {
                    self.trial_value = value;
                    self.phase = Phase::TrialGradient;
                    true
                } else {
                    self.reject();
                    false
                }
            }
            _ => false,
        }
    }

    /// `∇f` at the point whose value [`Lbfgs::tell_value`] asked it for (ignored otherwise).
    /// A non-finite gradient ends the search at the start and rejects a trial point.
    pub fn tell_gradient(&mut self, gradient: &[f64]) {
        let finite = gradient.iter().all(|v| v.is_finite());
        match self.phase {
            Phase::StartGradient => {
                self.g.copy_from_slice(gradient);
                if !finite {
                    self.phase = Phase::Done(Termination::NotFinite);
                    return;
                }
                self.begin_iteration();
            }
            Phase::TrialGradient => {
                if !finite {
                    self.reject();
                    return;
                }
                // 4. Memory update and the decrease test.
                let value = self.trial_value;
                self.memory.push(&self.x, &self.trial, &self.g, gradient);
                let decrease = self.value - value;
                self.value = value;
                self.x.copy_from_slice(&self.trial);
                self.g.copy_from_slice(gradient);
                if decrease <= self.options.relative_tolerance * value.abs().max(1.0) {
                    self.phase = Phase::Done(Termination::Decrease);
                } else {
                    self.begin_iteration();
                }
            }
            _ => {}
        }
    }

    /// The trial point is rejected: halve the step.
    fn reject(&mut self) {
        self.alpha *= 0.5;
        self.halvings += 1;
        self.next_trial();
    }

    /// Step 1 (module documentation): binding coordinates and the projected gradient; the
    /// stopping tests; a new iteration.
    fn begin_iteration(&mut self) {
        let d = self.x.len();
        let mut largest = 0.0_f64;
        for i in 0..d {
            let (x, g) = (self.x[i], self.g[i]);
            self.binding[i] = (x <= self.lo[i] && g > 0.0) || (x >= self.hi[i] && g < 0.0);
            if !self.binding[i] {
                largest = largest.max(g.abs());
            }
        }
        if largest <= self.options.gradient_tolerance {
            self.phase = Phase::Done(Termination::Gradient);
            return;
        }
        if self.iterations >= self.options.max_iterations {
            self.phase = Phase::Done(Termination::Iterations);
            return;
        }
        self.iterations += 1;
        self.attempt = 0;
        self.begin_attempt();
    }

    /// Step 2: the direction (attempt 0: L-BFGS; attempt 1: again with the memory cleared).
    fn begin_attempt(&mut self) {
        let d = self.x.len();
        if self.attempt == 1 {
            if self.memory.is_empty() {
                self.phase = Phase::Done(Termination::LineSearch);
                return;
            }
            self.memory.clear();
        }
        self.memory
            .direction(&self.g, &self.binding, &mut self.direction);
        let slope: f64 = self.direction.iter().zip(&self.g).map(|(a, b)| a * b).sum();
        if slope.is_nan() || slope >= 0.0 {
            for i in 0..d {
                self.direction[i] = if self.binding[i] { 0.0 } else { -self.g[i] };
            }
        }
        // Without curvature information, the first step moves at most a tenth of the box.
        self.alpha = if self.memory.is_empty() {
            (0..d)
                .filter(|&i| self.direction[i] != 0.0)
                .map(|i| (self.hi[i] - self.lo[i]) * 0.1 / self.direction[i].abs())
                .fold(1.0, f64::min)
        } else {
            1.0
        };
        self.halvings = 0;
        self.next_trial();
    }

    /// Step 3: projected backtracking: the next trial point with a predicted decrease, or the next
    /// attempt, or the end.
    fn next_trial(&mut self) {
        let d = self.x.len();
        while self.halvings < MAX_HALVINGS {
            for i in 0..d {
                self.trial[i] =
                    (self.x[i] + self.alpha * self.direction[i]).clamp(self.lo[i], self.hi[i]);
            }
            let predicted: f64 = (0..d)
                .map(|i| self.g[i] * (self.trial[i] - self.x[i]))
                .sum();
            if predicted < 0.0 {
                self.predicted = predicted;
                self.phase = Phase::Trial;
                return;
            }
            self.alpha *= 0.5;
            self.halvings += 1;
        }
        self.attempt += 1;
        if self.attempt < 2 {
            self.begin_attempt();
        } else {
            self.phase = Phase::Done(Termination::LineSearch);
        }
    }

    /// The result (a search that has not finished reports [`Termination::Iterations`]).
    pub fn into_minimum(self) -> Minimum {
        let termination = match self.phase {
            Phase::Done(t) => t,
            _ => Termination::Iterations,
        };
        Minimum {
            x: self.x,
            value: self.value,
            iterations: self.iterations,
            evaluations: self.evaluations,
            termination,
        }
    }
}

/// The stored pairs `s_k = x_{k+1} − x_k`, `y_k = g_{k+1} − g_k` (oldest first), and the
/// two-loop recursion that applies the inverse-Hessian approximation.
struct Memory {
    capacity: usize,
    s: Vec<Vec<f64>>,
    y: Vec<Vec<f64>>,
    rho: Vec<f64>,
    alpha: Vec<f64>,
}

impl Memory {
    fn new(capacity: usize) -> Self {
        Self {
            capacity: capacity.max(1),
            s: Vec::new(),
            y: Vec::new(),
            rho: Vec::new(),
            alpha: Vec::new(),
        }
    }

    fn is_empty(&self) -> bool {
        self.s.is_empty()
    }

    fn clear(&mut self) {
        self.s.clear();
        self.y.clear();
        self.rho.clear();
    }

    /// Adds the pair from `x → x_new` if it has enough positive curvature.
    fn push(&mut self, x: &[f64], x_new: &[f64], g: &[f64], g_new: &[f64]) {
        let s: Vec<f64> = x_new.iter().zip(x).map(|(a, b)| a - b).collect();
        let y: Vec<f64> = g_new.iter().zip(g).map(|(a, b)| a - b).collect();
        let sy: f64 = s.iter().zip(&y).map(|(a, b)| a * b).sum();
        let ss: f64 = s.iter().map(|a| a * a).sum();
        let yy: f64 = y.iter().map(|a| a * a).sum();
        if !(sy > 1e-10 * (ss * yy).sqrt()) {
            return;
        }
        if self.s.len() == self.capacity {
            self.s.remove(0);
            self.y.remove(0);
            self.rho.remove(0);
        }
        self.s.push(s);
        self.y.push(y);
        self.rho.push(1.0 / sy);
    }

    /// `out = -H·g` with the binding coordinates of `g` and of the result zeroed
    /// (Nocedal & Wright, Algorithm 7.4; `H₀ = (sᵀy/yᵀy)·I` from the newest pair, or `I`).
    fn direction(&mut self, g: &[f64], binding: &[bool], out: &mut [f64]) {
        for ((o, &gi), &b) in out.iter_mut().zip(g).zip(binding) {
            *o = if b { 0.0 } else { gi };
        }
        let m = self.s.len();
        self.alpha.clear();
        self.alpha.resize(m, 0.0);
        for k in (0..m).rev() {
            let a = self.rho[k] * dot(&self.s[k], out);
            self.alpha[k] = a;
            axpy(-a, &self.y[k], out);
        }
        if m > 0 {
            let y = &self.y[m - 1];
            let gamma = 1.0 / (self.rho[m - 1] * dot(y, y));
            out.iter_mut().for_each(|o| *o *= gamma);
        }
        for k in 0..m {
            let b = self.rho[k] * dot(&self.y[k], out);
            axpy(self.alpha[k] - b, &self.s[k], out);
        }
        for (o, &b) in out.iter_mut().zip(binding) {
            *o = if b { 0.0 } else { -*o };
        }
    }
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn axpy(a: f64, x: &[f64], y: &mut [f64]) {
    for (yi, xi) in y.iter_mut().zip(x) {
        *yi += a * xi;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Convergence to the closed-form minimum: only the gradient test ends the search (the
    /// default decrease test stops at `~√tolerance` accuracy in `x`, SciPy's "moderate").
    fn precise() -> LbfgsOptions {
        LbfgsOptions {
            relative_tolerance: 0.0,
            ..LbfgsOptions::default()
        }
    }

    fn rosenbrock(x: &[f64], g: &mut [f64]) -> f64 {
        let d = x.len();
        g.fill(0.0);
        let mut f = 0.0;
        for i in 0..d - 1 {
            let (a, b) = (1.0 - x[i], x[i + 1] - x[i] * x[i]);
            f += a * a + 100.0 * b * b;
            g[i] += -2.0 * a - 400.0 * x[i] * b;
            g[i + 1] += 200.0 * b;
        }
        f
    }

    #[test]
    fn finds_the_rosenbrock_minimum_inside_a_box() {
        for d in [2, 8] {
            let start = vec![-1.2; d];
            let (lo, hi) = (vec![-2.0; d], vec![2.0; d]);
            let m = minimise(&mut rosenbrock, &start, &lo, &hi, &precise());
            assert!(
                m.value < 1e-14,
                "d = {d}: f = {:e} ({:?})",
                m.value,
                m.termination
            );
            assert!(m.x.iter().all(|v| (v - 1.0).abs() < 1e-6), "{:?}", m.x);
        }
    }

    #[test]
    fn minimum_on_a_face_satisfies_the_bound_conditions() {
        // f = ½(x−c)ᵀA(x−c) with c outside [0, 1]²; A = [[2, 1], [1, 2]], c = (−1, 0.8).
        // On the face x₀ = 0: minimise over x₁ → x₁ = c₁ + (c₀ − 0)·A₀₁/A₁₁ = 0.8 − 0.5 = 0.3,
        // and ∂f/∂x₀ there = 2·1 + 1·(0.3 − 0.8) = 1.5 > 0, so (0, 0.3) is the box minimum.
        let c = [-1.0, 0.8];
        let mut f = |x: &[f64], g: &mut [f64]| {
            let (u, v) = (x[0] - c[0], x[1] - c[1]);
            g[0] = 2.0 * u + v;
            g[1] = u + 2.0 * v;
            0.5 * (2.0 * u * u + 2.0 * u * v + 2.0 * v * v)
        };
        let m = minimise(&mut f, &[0.9, 0.9], &[0.0, 0.0], &[1.0, 1.0], &precise());
        assert_eq!(m.x[0], 0.0);
        // f = 0.75 at the minimum, so rounding hides steps below √(ε·0.75/1.5) ≈ 1e-8 in x₁.
        assert!((m.x[1] - 0.3).abs() < 1e-7, "{:?} {:?}", m.x, m.termination);
    }

    #[test]
    fn corner_minimum_is_reached_exactly_and_start_is_clamped() {
        // Linear f = x₀ + 2x₁ − x₂: the minimum over [0, 1]³ is the corner (0, 0, 1).
        let mut f = |x: &[f64], g: &mut [f64]| {
            g.copy_from_slice(&[1.0, 2.0, -1.0]);
            x[0] + 2.0 * x[1] - x[2]
        };
        let m = minimise(&mut f, &[5.0, 0.5, -3.0], &[0.0; 3], &[1.0; 3], &precise());
        assert_eq!(m.x, vec![0.0, 0.0, 1.0]);
        assert_eq!(m.value, -1.0);
        assert_eq!(m.termination, Termination::Gradient);
    }

    #[test]
    fn non_finite_start_is_reported_and_never_worse_than_the_start() {
        let mut nan = |_: &[f64], g: &mut [f64]| {
            g.fill(0.0);
            f64::NAN
        };
        let m = minimise(&mut nan, &[0.5], &[0.0], &[1.0], &LbfgsOptions::default());
        assert_eq!(m.termination, Termination::NotFinite);
        // A function that is NaN away from the start: the search stays at the start.
        let mut spike = |x: &[f64], g: &mut [f64]| {
            g[0] = -1.0;
            if x[0] == 0.5 {
                0.0
            } else {
                f64::NAN
            }
        };
        let m = minimise(&mut spike, &[0.5], &[0.0], &[1.0], &LbfgsOptions::default());
        assert_eq!((m.x[0], m.value), (0.5, 0.0));
        assert_eq!(m.termination, Termination::LineSearch);
    }
}

#[cfg(test)]
mod default_tolerance_tests {
    use super::*;

    #[test]
    fn default_decrease_test_stops_near_the_minimum() {
        // f = (x − 0.3)² + 2(y − 0.6)² on [0, 1]²: with the default tolerances the search ends
        // within √(2.2e-9) ≈ 5e-5 of (0.3, 0.6) and its value within 2.2e-9 of 0.
        let mut f = |x: &[f64], g: &mut [f64]| {
            g[0] = 2.0 * (x[0] - 0.3);
            g[1] = 4.0 * (x[1] - 0.6);
            (x[0] - 0.3).powi(2) + 2.0 * (x[1] - 0.6).powi(2)
        };
        let m = minimise(
            &mut f,
            &[0.9, 0.1],
            &[0.0; 2],
            &[1.0; 2],
            &LbfgsOptions::default(),
        );
        assert!(m.value < 1e-8, "{m:?}");
        assert!(
            (m.x[0] - 0.3).abs() < 1e-4 && (m.x[1] - 0.6).abs() < 1e-4,
            "{m:?}"
        );
    }
}
