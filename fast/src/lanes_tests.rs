//! The lane kernels give the bits of the scalar functions, on every compilation: the portable
//! one and (where the CPU has them) the AVX2+FMA one, the AVX2+FMA+AVX-512VL one and the
//! eight-lane AVX-512F one, called directly rather than through the
//! run-time choice, on seeded random inputs over every branch and on edge values, with lengths
//! that leave every remainder.
use crate::ei_lanes::{ei_lanes_kernel, ei_x4};
use crate::gradients_lanes::{
    ei_grad_lanes_kernel, ei_grad_x4, log_ei_grad_lanes_kernel, log_ei_grad_x4,
    pbgi_grad_lanes_kernel,
};
use crate::lanes::{F64x4, LaneMask, Lanes, Threshold, LANES};
use crate::log_ei_lanes::{log_ei_lanes_kernel, log_ei_x4, log_eipc_lanes_kernel, log_eipc_x4};
use crate::pbgi_lanes::{chunks, index_x4, pbgi_lanes_kernel, pbgi_regimes, solve_chunk};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const SEED: u64 = 0x0e1_1a4e5;

const SPECIALS: [f64; 17] = [
    0.0,
    -0.0,
    f64::NAN,
    f64::INFINITY,
    f64::NEG_INFINITY,
    f64::MIN_POSITIVE,
    5e-324,
    f64::MAX,
    -f64::MAX,
    1e-100,
    1e100,
    1e-150,
    1e150,
    1.0,
    -1.0,
    1e-300,
    1e300,
];

/// One threshold and `n` points `(μ, σ, cost)`: BO-like points, every z region (with extra
/// weight on the lane kernels' boundaries ±20, ±37, ±38.5, 40, 2^16), σ from 1e-300 to 1e300,
/// special values, tiny `y - μ`, costs around EI and beyond.
pub(crate) fn inputs(rng: &mut ChaCha8Rng, n: usize) -> (f64, Vec<f64>, Vec<f64>, Vec<f64>) {
    let ys = [-1.0, 0.0, 3.5, 1e-260, -1e200, 1e300];
    let y = ys[rng.gen_range(0..ys.len())];
    let (mut mu, mut sigma, mut cost) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..n {
        let s = match rng.gen_range(0..10) {
            0 => SPECIALS[rng.gen_range(0..SPECIALS.len())],
            1 => 10f64.powf(rng.gen_range(-300.0..300.0)),
            2..=5 => 10f64.powf(rng.gen_range(-2.0..0.301)),
            _ => 10f64.powf(rng.gen_range(-6.0..6.0)),
        };
        let z: f64 = match rng.gen_range(0..10) {
            0 => rng.gen_range(-60.0..60.0),
            1 => rng.gen_range(-40.0..-36.0),
            2 => rng.gen_range(18.0..42.0),
            3 => -(10f64.powf(rng.gen_range(-300.0..10.0))),
            4 => 10f64.powf(rng.gen_range(-300.0..10.0)),
            5 => -rng.gen_range(60000.0..70000.0),
            _ => rng.gen_range(-9.0..9.0),
        };
        let m = match rng.gen_range(0..8) {
            0 => SPECIALS[rng.gen_range(0..SPECIALS.len())],
            1 => y - z * s,
            2 => y + rng.gen_range(-1.0..1.0) * 1e-255,
            _ => y - z * s * (1.0 + rng.gen_range(-1e-3..1e-3)),
        };
        let c = match rng.gen_range(0..6) {
            0 => SPECIALS[rng.gen_range(0..SPECIALS.len())],
            1 => 10f64.powf(rng.gen_range(-320.0..300.0)),
            _ => crate::ei::ei(m, s, y) * 10f64.powf(rng.gen_range(-2.0..2.0)),
        };
        mu.push(m);
        sigma.push(s);
        cost.push(c);
    }
    (y, mu, sigma, cost)
}

/// `n` points with one threshold each: runs of 1 to 9 points from [`inputs`] (each run its own
/// `y`, so neighbouring lanes of one group differ in `y`), and now and then a special `y`
/// (zeros, NaN, infinities, huge and tiny values) on one point.
pub(crate) fn per_point_inputs(
    rng: &mut ChaCha8Rng,
    n: usize,
) -> (Vec<f64>, Vec<f64>, Vec<f64>, Vec<f64>) {
    let (mut ys, mut mu, mut sigma, mut cost) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    while mu.len() < n {
        let run = rng.gen_range(1..10).min(n - mu.len());
        let (y, m, s, c) = inputs(rng, run);
        for k in 0..run {
            let special = rng.gen_range(0..20) == 0;
            ys.push(if special {
                SPECIALS[rng.gen_range(0..SPECIALS.len())]
            } else {
                y
            });
            mu.push(m[k]);
            sigma.push(s[k]);
            cost.push(c[k]);
        }
    }
    (ys, mu, sigma, cost)
}

fn assert_same(
    path: &str,
    function: &str,
    got: &[f64],
    want: &[f64],
    args: impl Fn(usize) -> String,
) {
    for i in 0..want.len() {
        let same = got[i].to_bits() == want[i].to_bits() || (got[i].is_nan() && want[i].is_nan());
        assert!(
            same,
            "{function} on {path} differs at {}: {:e} ({:#018x}) vs scalar {:e} ({:#018x})",
            args(i),
            got[i],
            got[i].to_bits(),
            want[i],
            want[i].to_bits()
        );
    }
}

/// The arguments of point `i` for a failure message: `μ`, `σ` and the cost with their bits,
/// and the threshold `y` where the function takes one.
fn describe_point(mu: &[f64], sigma: &[f64], y: Option<f64>, cost: &[f64], i: usize) -> String {
    let y = y.map_or(String::new(), |y| format!(", y={y:e}"));
    format!(
        "mu={:e} ({:#018x}), sigma={:e} ({:#018x}){y}, cost={:e} ({:#018x})",
        mu[i],
        mu[i].to_bits(),
        sigma[i],
        sigma[i].to_bits(),
        cost[i],
        cost[i].to_bits()
    )
}

/// Every lane kernel against its scalar function for one input set, on the lanes `V`.
fn compare<V: Lanes>(path: &str, y: impl Threshold, mu: &[f64], sigma: &[f64], cost: &[f64]) {
    compare_any_width::<LANES, V>(path, y, mu, sigma, cost);
    compare_gradients::<V>(path, y, mu, sigma, cost);
    compare_pbgi::<V>(path, mu, sigma, cost);
}

/// The kernels written for any number of lanes (EI, LogEI, LogEIPC) against their scalar
/// functions, on the lanes `V`.
fn compare_any_width<const N: usize, V: Lanes<N>>(
    path: &str,
    y: impl Threshold,
    mu: &[f64],
    sigma: &[f64],
    cost: &[f64],
) {
    let n = mu.len();
    let args = |i: usize| describe_point(mu, sigma, Some(y.at(i)), cost, i);
    let mut got = vec![0.0; n];
    ei_lanes_kernel::<N, V>(mu, sigma, y, &mut got);
    let want: Vec<f64> = (0..n)
        .map(|i| crate::ei::ei(mu[i], sigma[i], y.at(i)))
        .collect();
    assert_same(path, "ei", &got, &want, args);
    log_ei_lanes_kernel::<N, V>(mu, sigma, y, &mut got);
    let want: Vec<f64> = (0..n)
        .map(|i| crate::log_ei::log_ei(mu[i], sigma[i], y.at(i)))
        .collect();
    assert_same(path, "log_ei", &got, &want, args);
    log_eipc_lanes_kernel::<N, V>(mu, sigma, y, cost, &mut got);
    let want: Vec<f64> = (0..n)
        .map(|i| crate::log_eipc::log_eipc(mu[i], sigma[i], y.at(i), cost[i]))
        .collect();
    assert_same(path, "log_eipc", &got, &want, args);
}

/// The gradient lane kernels against the scalar gradients, on the lanes `V`.
fn compare_gradients<V: Lanes>(
    path: &str,
    y: impl Threshold,
    mu: &[f64],
    sigma: &[f64],
    cost: &[f64],
) {
    let n = mu.len();
    let args = |i: usize| describe_point(mu, sigma, Some(y.at(i)), cost, i);
    let mut got = vec![0.0; n];
    let (mut d_mu, mut d_sigma) = (vec![0.0; n], vec![0.0; n]);
    ei_grad_lanes_kernel::<V>(mu, sigma, y, &mut got, &mut d_mu, &mut d_sigma);
    let want: Vec<_> = (0..n)
        .map(|i| crate::gradients::ei_grad(mu[i], sigma[i], y.at(i)))
        .collect();
    let field = |f: fn(&crate::EiGrad) -> f64| want.iter().map(f).collect::<Vec<_>>();
    assert_same(path, "ei_grad.value", &got, &field(|g| g.value), args);
    assert_same(path, "ei_grad.d_mu", &d_mu, &field(|g| g.d_mu), args);
    assert_same(
        path,
        "ei_grad.d_sigma",
        &d_sigma,
        &field(|g| g.d_sigma),
        args,
    );
    log_ei_grad_lanes_kernel::<V>(mu, sigma, y, &mut got, &mut d_mu, &mut d_sigma);
    let want: Vec<_> = (0..n)
        .map(|i| crate::gradients::log_ei_grad(mu[i], sigma[i], y.at(i)))
        .collect();
    let field = |f: fn(&crate::EiGrad) -> f64| want.iter().map(f).collect::<Vec<_>>();
    assert_same(path, "log_ei_grad.value", &got, &field(|g| g.value), args);
    assert_same(path, "log_ei_grad.d_mu", &d_mu, &field(|g| g.d_mu), args);
    assert_same(
        path,
        "log_ei_grad.d_sigma",
        &d_sigma,
        &field(|g| g.d_sigma),
        args,
    );
}

/// The PBGI lane kernel against [`crate::pbgi`].
fn compare_pbgi<V: Lanes>(path: &str, mu: &[f64], sigma: &[f64], cost: &[f64]) {
    let n = mu.len();
    let args = |i: usize| describe_point(mu, sigma, None, cost, i);
    let mut got = vec![0.0; n];
    pbgi_lanes_kernel::<V>(mu, sigma, cost, &mut got);
    let want: Vec<f64> = (0..n)
        .map(|i| crate::pbgi::pbgi(mu[i], sigma[i], cost[i]))
        .collect();
    assert_same(path, "pbgi", &got, &want, args);
    let (mut d_sigma, mut d_cost) = (vec![0.0; n], vec![0.0; n]);
    pbgi_grad_lanes_kernel::<V>(mu, sigma, cost, &mut got, &mut d_sigma, &mut d_cost);
    let want: Vec<_> = (0..n)
        .map(|i| crate::gradients::pbgi_grad(mu[i], sigma[i], cost[i]))
        .collect();
    let field = |f: fn(&crate::PbgiGrad) -> f64| want.iter().map(f).collect::<Vec<_>>();
    assert_same(path, "pbgi_grad.value", &got, &field(|g| g.value), args);
    assert_same(
        path,
        "pbgi_grad.d_sigma",
        &d_sigma,
        &field(|g| g.d_sigma),
        args,
    );
    assert_same(
        path,
        "pbgi_grad.d_cost",
        &d_cost,
        &field(|g| g.d_cost),
        args,
    );
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
#[allow(unsafe_code)]
unsafe fn compare_avx2(y: impl Threshold, mu: &[f64], sigma: &[f64], cost: &[f64]) {
    compare::<crate::lanes::Avx4>("avx2+fma", y, mu, sigma, cost)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma,avx512f,avx512vl")]
#[allow(unsafe_code)]
unsafe fn compare_avx512vl(y: impl Threshold, mu: &[f64], sigma: &[f64], cost: &[f64]) {
    compare::<crate::lanes::Avx4>("avx2+fma+avx512vl", y, mu, sigma, cost)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma,avx512f")]
#[allow(unsafe_code)]
unsafe fn compare_avx512f(y: impl Threshold, mu: &[f64], sigma: &[f64], cost: &[f64]) {
    compare_any_width::<8, crate::lanes::Avx8>("avx512f (eight lanes)", y, mu, sigma, cost)
}

/// `n` PBGI points `(μ, σ, cost)`: BO-like points, `r = c/σ` over every regime of the solver
/// with extra weight on its boundaries (`h(-1)`, the start table's breaks, `h(0.5)`, 4.5, 40,
/// `φ0 ± 1e-3` where the middle regime switches its start, `2^-1022`), `σ` at the ends of the
/// lanes' range (`1e-280`, `1e280`) and beyond, subnormal and huge costs, `μ` near `±f64::MAX`
/// (where `μ + σu` overflows), special values.
pub(crate) fn pbgi_inputs(rng: &mut ChaCha8Rng, n: usize) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let phi0 = 0.398_942_280_401_432_7;
    let breaks = [
        0.083_315_470_587_686_3,
        0.125,
        0.25,
        0.5,
        0.697_796_557_401_306_1,
        1.0,
        2.0,
        4.5,
        40.0,
        phi0 - 1e-3,
        phi0 + 1e-3,
        phi0,
        f64::MIN_POSITIVE,
    ];
    let (mut mu, mut sigma, mut cost) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..n {
        let s = match rng.gen_range(0..12) {
            0 => SPECIALS[rng.gen_range(0..SPECIALS.len())],
            1 => 10f64.powf(rng.gen_range(-310.0..310.0)),
            2 => [1e-280, 1e280][rng.gen_range(0..2)] * (1.0 + rng.gen_range(-1e-15..1e-15)),
            3..=7 => 10f64.powf(rng.gen_range(-2.0..0.301)),
            _ => 10f64.powf(rng.gen_range(-6.0..6.0)),
        };
        let r: f64 = match rng.gen_range(0..10) {
            0 => {
                let b: f64 = breaks[rng.gen_range(0..breaks.len())];
                let k = rng.gen_range(-3i64..=3);
                f64::from_bits((b.to_bits() as i64 + k) as u64)
            }
            1 => breaks[rng.gen_range(0..breaks.len())] * (1.0 + rng.gen_range(-1e-6..1e-6)),
            2 => 10f64.powf(rng.gen_range(-320.0..5.0)),
            3 => rng.gen_range(0.0..50.0),
            _ => 10f64.powf(rng.gen_range(-5.0..2.0)),
        };
        let c = match rng.gen_range(0..10) {
            0 => SPECIALS[rng.gen_range(0..SPECIALS.len())],
            1 => 10f64.powf(rng.gen_range(-324.0..308.0)),
            _ => r * s,
        };
        let m = match rng.gen_range(0..10) {
            0 => SPECIALS[rng.gen_range(0..SPECIALS.len())],
            1 => [f64::MAX, -f64::MAX][rng.gen_range(0..2)] * rng.gen_range(0.5..1.0),
            2 => 10f64.powf(rng.gen_range(-300.0..300.0)) * [1.0, -1.0][rng.gen_range(0..2)],
            _ => rng.sample::<f64, _>(rand_distr::StandardNormal),
        };
        mu.push(m);
        sigma.push(s);
        cost.push(c);
    }
    (mu, sigma, cost)
}

/// [`compare_pbgi`] on every compilation of the PBGI lanes this CPU has (four lanes: the
/// portable, AVX2+FMA and AVX2+FMA+AVX-512VL ones).
fn compare_pbgi_on_every_path(mu: &[f64], sigma: &[f64], cost: &[f64]) {
    compare_pbgi::<F64x4>("portable", mu, sigma, cost);
    #[cfg(target_arch = "x86_64")]
    if crate::lanes::avx2_fma_detected() {
        // SAFETY: the CPU has AVX2 and FMA (checked just above).
        #[allow(unsafe_code)]
        unsafe {
            compare_pbgi_avx2(mu, sigma, cost)
        };
    }
    #[cfg(target_arch = "x86_64")]
    if crate::lanes::avx512vl_detected() {
        // SAFETY: the CPU has AVX2, FMA, AVX-512F and AVX-512VL (checked just above).
        #[allow(unsafe_code)]
        unsafe {
            compare_pbgi_avx512vl(mu, sigma, cost)
        };
    }
}

#[test]
fn the_pbgi_lane_kernel_equals_pbgi_bit_for_bit() {
    println!("seed {SEED:#x}");
    let mut rng = ChaCha8Rng::seed_from_u64(SEED ^ 3);
    for round in 0..24 {
        let (mu, sigma, cost) = pbgi_inputs(&mut rng, 10_000 + round % 8);
        compare_pbgi_on_every_path(&mu, &sigma, &cost);
    }
    // Short slices: every remainder, and chunks that end inside a group of four.
    for n in 0..12 {
        let (mu, sigma, cost) = pbgi_inputs(&mut rng, n);
        compare_pbgi::<F64x4>("portable", &mu, &sigma, &cost);
    }
}

/// Chunks whose every point is in one regime of the solver (the random inputs above spread
/// each chunk of 128 over the three): the kernel gathers a whole chunk into one regime's list,
/// which must hold all 128 indices and the padding of the last group of four.
#[test]
fn chunks_of_one_regime_equal_pbgi_bit_for_bit() {
    let mut rng = ChaCha8Rng::seed_from_u64(SEED ^ 5);
    // r = c/σ: lower below h(-1) = 0.0833 (down to 1e-300, every start-table octave), middle
    // in [h(-1), h(0.5)) = [0.0834, 0.6977), upper from h(0.5) to 40.
    let ranges: [(f64, f64); 3] = [(-300.0, -1.1), (-1.07, -0.16), (-0.15, 1.6)];
    let chunk = 128;
    let (mut mu, mut sigma, mut cost) = (Vec::new(), Vec::new(), Vec::new());
    for (lo, hi) in ranges {
        for _ in 0..2 * chunk {
            let s = 10f64.powf(rng.gen_range(-2.0..2.0));
            let r = 10f64.powf(rng.gen_range(lo..hi));
            mu.push(rng.sample::<f64, _>(rand_distr::StandardNormal));
            sigma.push(s);
            cost.push(r * s);
        }
    }
    // The premise: each chunk of 128 lies in one regime (lower, middle, upper in turn).
    for (k, (a, b)) in chunks(mu.len()).enumerate() {
        let regimes = pbgi_regimes::<F64x4>(&sigma[a..b], &cost[a..b]);
        assert_eq!(regimes[k / 2], chunk, "chunk {k}: {regimes:?}");
    }
    compare_pbgi_on_every_path(&mu, &sigma, &cost);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
#[allow(unsafe_code)]
unsafe fn compare_pbgi_avx2(mu: &[f64], sigma: &[f64], cost: &[f64]) {
    compare_pbgi::<crate::lanes::Avx4>("avx2+fma", mu, sigma, cost)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma,avx512f,avx512vl")]
#[allow(unsafe_code)]
unsafe fn compare_pbgi_avx512vl(mu: &[f64], sigma: &[f64], cost: &[f64]) {
    compare_pbgi::<crate::lanes::Avx4>("avx2+fma+avx512vl", mu, sigma, cost)
}

#[test]
fn lane_kernels_equal_the_scalar_functions_bit_for_bit() {
    println!("seed {SEED:#x}");
    let mut rng = ChaCha8Rng::seed_from_u64(SEED);
    // Lengths with every remainder modulo 16 (the kernels take two groups of four, or of eight,
    // per step).
    #[cfg(target_arch = "x86_64")]
    if !crate::lanes::avx2_fma_detected() {
        println!("no AVX2+FMA on this CPU: only the portable compilation is compared");
    }
    #[cfg(target_arch = "x86_64")]
    if !crate::lanes::avx512vl_detected() {
        println!("no AVX-512VL on this CPU: its compilation is not compared");
    }
    #[cfg(target_arch = "x86_64")]
    if crate::lanes::avx512f_detected() {
        println!("AVX-512F on this CPU: the eight-lane compilation is compared too");
    } else {
        println!("no AVX-512F on this CPU: the eight-lane compilation is not compared");
    }
    for round in 0..24 {
        let (y, mu, sigma, cost) = inputs(&mut rng, 10_000 + round % 16);
        compare_on_every_path(y, &mu, &sigma, &cost);
    }
    // Short slices, the empty one among them: only the scalar tail, or one group and a tail.
    for n in 0..12 {
        let (y, mu, sigma, cost) = inputs(&mut rng, n);
        compare_on_every_path(y, &mu, &sigma, &cost);
    }
}

/// The per-point forms: each lane with its own threshold, on every compilation, against the
/// scalar functions at `y[i]`; lengths with every remainder modulo 16, and short slices.
#[test]
fn per_point_lane_kernels_equal_the_scalar_functions_bit_for_bit() {
    println!("seed {:#x}", SEED ^ 6);
    let mut rng = ChaCha8Rng::seed_from_u64(SEED ^ 6);
    for round in 0..24 {
        let (y, mu, sigma, cost) = per_point_inputs(&mut rng, 10_000 + round % 16);
        compare_on_every_path(&y[..], &mu, &sigma, &cost);
    }
    for n in 0..20 {
        let (y, mu, sigma, cost) = per_point_inputs(&mut rng, n);
        compare_on_every_path(&y[..], &mu, &sigma, &cost);
    }
    // The chosen points with thresholds of their own (one the other points' y = 1).
    let y = [1.0, 0.25, 1.0, -3.0, 1.0, 40.0, 1.0, 0.5];
    let mu = [-9e-17, 0.5, -9e-17, -1.0, -9e-17, 1.5, -9e-17, 0.0];
    let sigma = [1e-3, 1.0, 1e-2, 0.5, 0.04, 2.0, 1e-90, 0.3];
    let cost = [0.5, 0.1, 1.0, 2.0, 1e-3, 0.7, 1.0, 0.2];
    compare_on_every_path(&y[..], &mu, &sigma, &cost);
}

/// The public per-point slices (the run-time choice of compilation) give the scalar bits, and
/// report mismatched lengths, `y`'s among them, without writing.
#[test]
fn the_public_per_point_slices_equal_the_scalar_functions() {
    let mut rng = ChaCha8Rng::seed_from_u64(SEED ^ 7);
    let (y, mu, sigma, cost) = per_point_inputs(&mut rng, 4099);
    let path = crate::simd_path();
    let n = mu.len();
    let mut out = vec![0.0; n];
    let args = |i: usize| format!("index {i}");
    crate::ei_slice_per_point(&mu, &sigma, &y, &mut out).unwrap();
    let want: Vec<f64> = (0..n)
        .map(|i| crate::ei::ei(mu[i], sigma[i], y[i]))
        .collect();
    assert_same(path, "ei_slice_per_point", &out, &want, args);
    crate::log_ei_slice_per_point(&mu, &sigma, &y, &mut out).unwrap();
    let want: Vec<f64> = (0..n)
        .map(|i| crate::log_ei::log_ei(mu[i], sigma[i], y[i]))
        .collect();
    assert_same(path, "log_ei_slice_per_point", &out, &want, args);
    crate::log_eipc_slice_per_point(&mu, &sigma, &y, &cost, &mut out).unwrap();
    let want: Vec<f64> = (0..n)
        .map(|i| crate::log_eipc::log_eipc(mu[i], sigma[i], y[i], cost[i]))
        .collect();
    assert_same(path, "log_eipc_slice_per_point", &out, &want, args);
    let (mut d1, mut d2) = (vec![0.0; n], vec![0.0; n]);
    crate::ei_grad_slice_per_point(&mu, &sigma, &y, &mut out, &mut d1, &mut d2).unwrap();
    for i in 0..n {
        let g = crate::gradients::ei_grad(mu[i], sigma[i], y[i]);
        let want = [g.value, g.d_mu, g.d_sigma];
        assert_same(
            path,
            "ei_grad_slice_per_point",
            &[out[i], d1[i], d2[i]],
            &want,
            |_| format!("index {i}"),
        );
    }
    crate::log_ei_grad_slice_per_point(&mu, &sigma, &y, &mut out, &mut d1, &mut d2).unwrap();
    for i in 0..n {
        let g = crate::gradients::log_ei_grad(mu[i], sigma[i], y[i]);
        let want = [g.value, g.d_mu, g.d_sigma];
        assert_same(
            path,
            "log_ei_grad_slice_per_point",
            &[out[i], d1[i], d2[i]],
            &want,
            |_| format!("index {i}"),
        );
    }
    // A short y: an error naming it, and nothing written.
    let mut untouched = vec![7.0; n];
    let e = crate::ei_slice_per_point(&mu, &sigma, &y[1..], &mut untouched).unwrap_err();
    assert!(e.to_string().contains(&format!("y={}", n - 1)), "{e}");
    let e = crate::log_eipc_slice_per_point(&mu, &sigma, &y[1..], &cost, &mut untouched);
    assert!(e.is_err());
    let e =
        crate::log_ei_grad_slice_per_point(&mu, &sigma, &y[1..], &mut untouched, &mut d1, &mut d2);
    assert!(e.is_err());
    assert!(untouched.iter().all(|&v| v == 7.0));
}

#[test]
fn the_public_slices_equal_the_scalar_functions() {
    let mut rng = ChaCha8Rng::seed_from_u64(SEED ^ 1);
    let (y, mu, sigma, cost) = inputs(&mut rng, 4099);
    println!("run-time path: {}", crate::simd_path());
    let mut out = vec![0.0; mu.len()];
    let args = |i: usize| format!("index {i}");
    crate::ei_slice(&mu, &sigma, y, &mut out).unwrap();
    let want: Vec<f64> = (0..mu.len())
        .map(|i| crate::ei::ei(mu[i], sigma[i], y))
        .collect();
    assert_same(crate::simd_path(), "ei_slice", &out, &want, args);
    crate::log_ei_slice(&mu, &sigma, y, &mut out).unwrap();
    let want: Vec<f64> = (0..mu.len())
        .map(|i| crate::log_ei::log_ei(mu[i], sigma[i], y))
        .collect();
    assert_same(crate::simd_path(), "log_ei_slice", &out, &want, args);
    crate::log_eipc_slice(&mu, &sigma, y, &cost, &mut out).unwrap();
    let want: Vec<f64> = (0..mu.len())
        .map(|i| crate::log_eipc::log_eipc(mu[i], sigma[i], y, cost[i]))
        .collect();
    assert_same(crate::simd_path(), "log_eipc_slice", &out, &want, args);
    let (mu, sigma, cost) = pbgi_inputs(&mut rng, 4099);
    crate::pbgi_slice(&mu, &sigma, &cost, &mut out).unwrap();
    let want: Vec<f64> = (0..mu.len())
        .map(|i| crate::pbgi::pbgi(mu[i], sigma[i], cost[i]))
        .collect();
    assert_same(crate::simd_path(), "pbgi_slice", &out, &want, args);
    let (mut d1, mut d2) = (vec![0.0; mu.len()], vec![0.0; mu.len()]);
    crate::pbgi_grad_slice(&mu, &sigma, &cost, &mut out, &mut d1, &mut d2).unwrap();
    for i in 0..mu.len() {
        let g = crate::gradients::pbgi_grad(mu[i], sigma[i], cost[i]);
        let got = [out[i], d1[i], d2[i]];
        assert_same(
            crate::simd_path(),
            "pbgi_grad_slice",
            &got,
            &[g.value, g.d_sigma, g.d_cost],
            |_| format!("index {i}"),
        );
    }
    crate::log_ei_grad_slice(&mu, &sigma, y, &mut out, &mut d1, &mut d2).unwrap();
    for i in 0..mu.len() {
        let g = crate::gradients::log_ei_grad(mu[i], sigma[i], y);
        let got = [out[i], d1[i], d2[i]];
        let want = [g.value, g.d_mu, g.d_sigma];
        assert_same(crate::simd_path(), "log_ei_grad_slice", &got, &want, |_| {
            format!("index {i}")
        });
    }
    crate::ei_grad_slice(&mu, &sigma, y, &mut out, &mut d1, &mut d2).unwrap();
    for i in 0..mu.len() {
        let g = crate::gradients::ei_grad(mu[i], sigma[i], y);
        let got = [out[i], d1[i], d2[i]];
        assert_same(
            crate::simd_path(),
            "ei_grad_slice",
            &got,
            &[g.value, g.d_mu, g.d_sigma],
            |_| format!("index {i}"),
        );
    }
}

/// The comparisons above are not vacuous: on BO-like points (μ ~ N(0, 1), σ log-uniform in
/// [0.01, 2], y = -1, as the benchmarks) the lanes settle most points themselves, values and
/// gradients (a lane handed to the scalar code keeps the bits, so only this count sees it).
#[test]
fn the_lanes_settle_most_bo_like_points() {
    let mut rng = ChaCha8Rng::seed_from_u64(SEED ^ 2);
    let n = 40_000;
    let mu: Vec<f64> = (0..n)
        .map(|_| rng.sample(rand_distr::StandardNormal))
        .collect();
    let sigma: Vec<f64> = (0..n)
        .map(|_| 10f64.powf(rng.gen_range(-2.0..0.301)))
        .collect();
    let cost: Vec<f64> = (0..n)
        .map(|_| 10f64.powf(rng.gen_range(-4.0..0.0)))
        .collect();
    let y = -1.0;
    let count = |m: <F64x4 as Lanes>::Mask| m.bools().iter().filter(|&&b| b).count();
    let (mut ei, mut log_ei, mut log_eipc) = (0, 0, 0);
    let (mut ei_grad, mut log_ei_grad, mut pbgi) = (0, 0, 0);
    for i in (0..n).step_by(LANES) {
        let (m, s, c) = (
            F64x4::load(&mu, i),
            F64x4::load(&sigma, i),
            F64x4::load(&cost, i),
        );
        let yv = F64x4::splat(y);
        ei += count(ei_x4(m, s, yv).1);
        log_ei += count(log_ei_x4(m, s, yv).1);
        log_eipc += count(log_eipc_x4(m, s, yv, c).1);
        ei_grad += count(ei_grad_x4::<F64x4>(&mu, &sigma, y, i).1);
        log_ei_grad += count(log_ei_grad_x4::<F64x4>(&mu, &sigma, y, i).1);
    }
    // PBGI and its gradient: the lanes whose g = μ + σu is stored (pass 3).
    for (a, b) in chunks(n) {
        let (mu, sigma, cost) = (&mu[a..b], &sigma[a..b], &cost[a..b]);
        let solved = solve_chunk::<F64x4>(sigma, cost);
        for i in (0..b - a).step_by(LANES) {
            pbgi += count(index_x4::<F64x4>(mu, sigma, cost, &solved, i).2);
        }
    }
    let share = |k: usize| k as f64 / n as f64;
    println!(
        "settled by the lanes: ei {:.3}, log_ei {:.3}, log_eipc {:.3}, ei_grad {:.3}, \
         log_ei_grad {:.3}, pbgi and pbgi_grad {:.3}",
        share(ei),
        share(log_ei),
        share(log_eipc),
        share(ei_grad),
        share(log_ei_grad),
        share(pbgi)
    );
    assert!(share(ei) > 0.9 && share(log_ei) > 0.9 && share(log_eipc) > 0.7);
    assert!(share(ei_grad) > 0.9 && share(log_ei_grad) > 0.9 && share(pbgi) > 0.9);
    // PBGI: the lanes solve every point in one of the three regimes, or with c/σ ≥ 40.
    let regimes = pbgi_regimes::<F64x4>(&sigma, &cost);
    println!(
        "pbgi: regimes lower/middle/upper/r ≥ 40 or scalar: {:.3}/{:.3}/{:.3}/{:.3}",
        share(regimes[0]),
        share(regimes[1]),
        share(regimes[2]),
        share(regimes[3])
    );
    assert!(regimes[..3].iter().all(|&k| share(k) > 0.1));
    assert!(share(regimes[0] + regimes[1] + regimes[2]) > 0.9);
}

/// [`compare`] on every compilation this CPU has.
fn compare_on_every_path(y: impl Threshold, mu: &[f64], sigma: &[f64], cost: &[f64]) {
    compare::<F64x4>("portable", y, mu, sigma, cost);
    #[cfg(target_arch = "x86_64")]
    if crate::lanes::avx2_fma_detected() {
        // SAFETY: the CPU has AVX2 and FMA (checked just above).
        #[allow(unsafe_code)]
        unsafe {
            compare_avx2(y, mu, sigma, cost)
        };
    }
    #[cfg(target_arch = "x86_64")]
    if crate::lanes::avx512vl_detected() {
        // SAFETY: the CPU has AVX2, FMA, AVX-512F and AVX-512VL (checked just above).
        #[allow(unsafe_code)]
        unsafe {
            compare_avx512vl(y, mu, sigma, cost)
        };
    }
    #[cfg(target_arch = "x86_64")]
    if crate::lanes::avx512f_detected() {
        // SAFETY: the CPU has AVX2, FMA and AVX-512F (checked just above).
        #[allow(unsafe_code)]
        unsafe {
            compare_avx512f(y, mu, sigma, cost)
        };
    }
}

/// Points the random inputs of the tests above almost never reach, in groups of four with
/// ordinary points: `z > 20` with `y - μ = dhi + dlo`, `dhi` a power of two and `dlo` above a
/// quarter of the ulp below it. There the EI lanes (and LogEI's `ln EI`) return `dhi + dlo`
/// rounded once, as the scalar `sigma_h_pos`: `1 + 9e-17` rounds to 1, where `dhi - dlo` would
/// round to `1 - 2^-53`.
#[test]
fn lane_kernels_equal_the_scalar_functions_on_chosen_points() {
    let y = 1.0;
    let mu = [-9e-17, 0.5, -9e-17, -1.0, -9e-17, 1.5, -9e-17, 0.0];
    let sigma = [1e-3, 1.0, 1e-2, 0.5, 0.04, 2.0, 1e-90, 0.3];
    let cost = [0.5, 0.1, 1.0, 2.0, 1e-3, 0.7, 1.0, 0.2];
    compare_on_every_path(y, &mu, &sigma, &cost);
}

/// `$check::<N, V>(path)` on the portable lanes and on each AVX compilation this CPU has, each
/// compiled with its instruction set (in a function of its own: closures would not inherit it).
macro_rules! on_every_compilation {
    ($check:ident) => {{
        $check::<LANES, F64x4>("portable");
        #[cfg(target_arch = "x86_64")]
        {
            #[target_feature(enable = "avx2,fma")]
            #[allow(unsafe_code)]
            unsafe fn avx2() {
                $check::<LANES, crate::lanes::Avx4>("avx2+fma")
            }
            #[target_feature(enable = "avx2,fma,avx512f,avx512vl")]
            #[allow(unsafe_code)]
            unsafe fn avx512vl() {
                $check::<LANES, crate::lanes::Avx4>("avx2+fma+avx512vl")
            }
            #[target_feature(enable = "avx2,fma,avx512f")]
            #[allow(unsafe_code)]
            unsafe fn avx512f() {
                $check::<8, crate::lanes::Avx8>("avx512f (eight lanes)")
            }
            if crate::lanes::avx2_fma_detected() {
                // SAFETY: the CPU has AVX2 and FMA (checked just above).
                #[allow(unsafe_code)]
                unsafe {
                    avx2()
                };
            }
            if crate::lanes::avx512vl_detected() {
                // SAFETY: the CPU has AVX2, FMA, AVX-512F and AVX-512VL (checked just above).
                #[allow(unsafe_code)]
                unsafe {
                    avx512vl()
                };
            }
            if crate::lanes::avx512f_detected() {
                // SAFETY: the CPU has AVX2, FMA and AVX-512F (checked just above).
                #[allow(unsafe_code)]
                unsafe {
                    avx512f()
                };
            }
        }
    }};
}

/// Every [`Lanes`] operation is the scalar IEEE operation it names, lane by lane, on every
/// compilation: the kernels' bit identity rests on it, and their random inputs seldom land
/// exactly on a comparison's constant (where `<` and `≤` differ) or on the ends of
/// `pow2_neg`'s clamp. Values: the kernels' constants and their neighbours, signed zeros,
/// subnormals, the ends of the range, infinities, NaN, each in every lane; the mask operations
/// on every mask.
fn check_lane_operations<const N: usize, V: Lanes<N>>(path: &str) {
    let values = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        8.0,
        8.0f64.next_down(),
        8.0f64.next_up(),
        -37.0,
        20.0,
        63.0,
        1e-250,
        -1e-250,
        1e100,
        2.5,
        -2.5,
        3.0e-310,
        5e-324,
        f64::MIN_POSITIVE,
        f64::MAX,
        -f64::MAX,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        1e300,
        -7.25,
        core::f64::consts::PI,
    ];
    let n = values.len();
    let quad = |i: usize| -> [f64; N] { core::array::from_fn(|l| values[(i + l) % n]) };
    let same = |what: &str, got: V, want: [f64; N]| {
        let got = got.to_array();
        for l in 0..N {
            assert!(
                got[l].to_bits() == want[l].to_bits() || (got[l].is_nan() && want[l].is_nan()),
                "{what} on {path}, lane {l}: {:e} vs scalar {:e}",
                got[l],
                want[l]
            );
        }
    };
    for i in 0..n {
        let (a, b, c) = (quad(i), quad(i + 7), quad(i + 13));
        let (va, vb, vc) = (V::from_array(a), V::from_array(b), V::from_array(c));
        let lanewise = |f: &dyn Fn(f64, f64, f64) -> f64| -> [f64; N] {
            core::array::from_fn(|l| f(a[l], b[l], c[l]))
        };
        same("from_array", va, a);
        same("splat", V::splat(a[0]), [a[0]; N]);
        let mut padded = vec![f64::NAN];
        padded.extend_from_slice(&a);
        same("load", V::load(&padded, 1), a);
        same("abs", va.abs(), a.map(f64::abs));
        same("neg", -va, a.map(|x| -x));
        same("add", va + vb, lanewise(&|x, y, _| x + y));
        same("sub", va - vb, lanewise(&|x, y, _| x - y));
        same("mul", va * vb, lanewise(&|x, y, _| x * y));
        same("div", va / vb, lanewise(&|x, y, _| x / y));
        same("add f64", va + b[0], a.map(|x| x + b[0]));
        same("sub f64", va - b[0], a.map(|x| x - b[0]));
        same("mul f64", va * b[0], a.map(|x| x * b[0]));
        same("trunc", va.trunc(), a.map(f64::trunc));
        same("sqrt", va.sqrt(), a.map(f64::sqrt));
        same("map", va.map(f64::ln), a.map(f64::ln));
        same(
            "mul_sub",
            V::mul_sub(va, vb, vc),
            lanewise(&|x, y, z| x.mul_add(y, -z)),
        );
        for k in values {
            let cmp = |got: V::Mask, want: fn(f64, f64) -> bool, name: &str| {
                assert_eq!(
                    got.bools(),
                    a.map(|x| want(x, k)),
                    "{name} {k:e} on {path}: {a:?}"
                );
            };
            cmp(va.lt(k), |x, k| x < k, "lt");
            cmp(va.le(k), |x, k| x <= k, "le");
            cmp(va.gt(k), |x, k| x > k, "gt");
            cmp(va.ge(k), |x, k| x >= k, "ge");
            let m = va.lt(k);
            let want: [f64; N] = core::array::from_fn(|l| if a[l] < k { a[l] } else { b[l] });
            same("select", V::select(m, va, vb), want);
        }
    }
    // 2^-n for integers n, clamped into [0, 1000] (2^-1000 is a normal number).
    let ns = [
        -3.0, 0.0, 1.0, 2.0, 52.0, 500.0, 999.0, 1000.0, 1001.0, 5000.0, 7.0, 1023.0,
    ];
    let indices = [0.0, 1.0, 7.0, 63.0, 64.0, 67.0, 65_536.0, 2_147_483_647.0];
    for i in 0..ns.len() {
        let n: [f64; N] = core::array::from_fn(|l| ns[(i + l) % ns.len()]);
        let want = n.map(|n: f64| 2f64.powi(-(n.clamp(0.0, 1000.0) as i32)));
        same("pow2_neg", V::from_array(n).pow2_neg(), want);
        let v: [f64; N] = core::array::from_fn(|l| indices[(i + l) % indices.len()]);
        assert_eq!(
            V::from_array(v).to_indices(),
            v.map(|x| x as usize),
            "{path}"
        );
    }
    let rows: [[f64; 4]; N] =
        core::array::from_fn(|l| core::array::from_fn(|k| (4 * l + k) as f64));
    let t = V::transpose_rows(core::array::from_fn(|l| &rows[l]));
    for (k, tk) in t.into_iter().enumerate() {
        same("transpose_rows", tk, core::array::from_fn(|l| rows[l][k]));
    }
    // The masks: lane l true where bit l of the number is set.
    let mask = |bits: usize| -> (V::Mask, [bool; N]) {
        let b: [bool; N] = core::array::from_fn(|l| bits >> l & 1 == 1);
        (
            V::from_array(b.map(|t| if t { 0.0 } else { 1.0 })).lt(0.5),
            b,
        )
    };
    for i in 0..1 << N {
        let (m, mb) = mask(i);
        assert_eq!(m.bools(), mb, "bools on {path}");
        assert_eq!(m.any(), mb.iter().any(|&t| t), "any {mb:?} on {path}");
        assert_eq!(m.all(), mb.iter().all(|&t| t), "all {mb:?} on {path}");
        assert_eq!((!m).bools(), mb.map(|t| !t), "not {mb:?} on {path}");
        for j in 0..1 << N {
            let (m2, mb2) = mask(j);
            let and: [bool; N] = core::array::from_fn(|l| mb[l] & mb2[l]);
            let or: [bool; N] = core::array::from_fn(|l| mb[l] | mb2[l]);
            assert_eq!((m & m2).bools(), and, "and on {path}");
            assert_eq!((m | m2).bools(), or, "or on {path}");
        }
    }
}

#[test]
fn lane_operations_are_the_scalar_ieee_operations() {
    on_every_compilation!(check_lane_operations);
}

/// The dispatch's choice and `simd_path` follow the CPU's own feature flags: the AVX
/// compilations run only where their instructions exist, and wherever they do.
#[test]
fn the_compilation_chosen_is_the_cpu_s() {
    #[cfg(target_arch = "x86_64")]
    let want = {
        let avx2_fma =
            std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma");
        let avx512f = avx2_fma && std::is_x86_feature_detected!("avx512f");
        let avx512vl = avx512f && std::is_x86_feature_detected!("avx512vl");
        assert_eq!(crate::lanes::avx2_fma_detected(), avx2_fma);
        assert_eq!(crate::lanes::avx512f_detected(), avx512f);
        assert_eq!(crate::lanes::avx512vl_detected(), avx512vl);
        if avx512vl {
            "avx512f+avx512vl"
        } else if avx512f {
            "avx512f"
        } else if avx2_fma {
            "avx2+fma"
        } else {
            "portable"
        }
    };
    #[cfg(not(target_arch = "x86_64"))]
    let want = "portable";
    assert_eq!(crate::simd_path(), want);
}

/// The tail ratio's lanes give [`crate::tail::p_tail_sq`]'s bits in all four fields (the
/// module's contract) over its domain `0 ≤ x < 2^16`: at every row boundary `k/8` of the
/// `x < 8` table and its neighbours, at 8, 16, 32, 64 and theirs, and on a log-uniform sweep.
/// The kernels read `rel` and `dp` only in corrections far below an ulp of most of their
/// results, and `x ≥ 37` only on LogEI's lanes, so their bit identity alone does not see every
/// field.
fn check_tail_lanes<const N: usize, V: Lanes<N>>(path: &str) {
    let mut xs = vec![0.0];
    for k in 1..=512i32 {
        let b = f64::from(k) / 8.0;
        xs.extend([b.next_down(), b, b.next_up()]);
    }
    xs.extend([100.0, 1000.0, 4096.5, 65535.0, 65536f64.next_down()]);
    let mut rng = ChaCha8Rng::seed_from_u64(SEED ^ 4);
    for _ in 0..4000 {
        xs.push(10f64.powf(rng.gen_range(-3.0..4.8)));
    }
    xs.resize(xs.len().next_multiple_of(N), 1.0);
    for four in xs.chunks(N) {
        let x: [f64; N] = four.try_into().unwrap();
        let sq = x.map(crate::dd::two_square);
        let got = crate::tail_lanes::p_tail_sq::<N, V>(
            V::from_array(x),
            V::from_array(sq.map(|s| s.0)),
            V::from_array(sq.map(|s| s.1)),
        );
        let fields = [got.hi, got.lo, got.rel, got.dp].map(|f| f.to_array());
        for l in 0..N {
            let want = crate::tail::p_tail_sq(x[l], sq[l].0, sq[l].1);
            let want = [want.hi, want.lo, want.rel, want.dp];
            for (f, name) in ["hi", "lo", "rel", "dp"].iter().enumerate() {
                assert_eq!(
                    fields[f][l].to_bits(),
                    want[f].to_bits(),
                    "p_tail_sq.{name} on {path} at x = {:e}: {:e} vs scalar {:e}",
                    x[l],
                    fields[f][l],
                    want[f]
                );
            }
        }
    }
}

#[test]
fn the_tail_ratio_lanes_equal_the_scalar_tail_ratio_bit_for_bit() {
    on_every_compilation!(check_tail_lanes);
}
