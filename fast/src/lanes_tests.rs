//! The lane kernels give the bits of the scalar functions, on every compilation: the portable
//! one and (where the CPU has them) the AVX2+FMA one, the AVX2+FMA+AVX-512VL one and the
//! eight-lane AVX-512F one, called directly rather than through the
//! run-time choice, on seeded random inputs over every branch and on edge values, with lengths
//! that leave every remainder.
use crate::ei_lanes::{ei_lanes_kernel, ei_x4};
use crate::gradients_lanes::{
    ei_grad_lanes_kernel, log_ei_grad_lanes_kernel, pbgi_grad_lanes_kernel,
};
use crate::lanes::{F64x4, LaneMask, Lanes, LANES};
use crate::log_ei_lanes::{log_ei_lanes_kernel, log_ei_x4, log_eipc_lanes_kernel, log_eipc_x4};
use crate::pbgi_lanes::{pbgi_lanes_kernel, pbgi_regimes};
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
            _ => crate::ei(m, s, y) * 10f64.powf(rng.gen_range(-2.0..2.0)),
        };
        mu.push(m);
        sigma.push(s);
        cost.push(c);
    }
    (y, mu, sigma, cost)
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

/// Every lane kernel against its scalar function for one input set, on the lanes `V`.
fn compare<V: Lanes>(path: &str, y: f64, mu: &[f64], sigma: &[f64], cost: &[f64]) {
    compare_any_width::<LANES, V>(path, y, mu, sigma, cost);
    compare_gradients::<V>(path, y, mu, sigma, cost);
    compare_pbgi::<V>(path, mu, sigma, cost);
}

/// The kernels written for any number of lanes (EI, LogEI, LogEIPC) against their scalar
/// functions, on the lanes `V`.
fn compare_any_width<const N: usize, V: Lanes<N>>(
    path: &str,
    y: f64,
    mu: &[f64],
    sigma: &[f64],
    cost: &[f64],
) {
    let n = mu.len();
    let args = |i: usize| {
        format!(
            "mu={:e} ({:#018x}), sigma={:e} ({:#018x}), y={y:e}, cost={:e}",
            mu[i],
            mu[i].to_bits(),
            sigma[i],
            sigma[i].to_bits(),
            cost[i]
        )
    };
    let mut got = vec![0.0; n];
    ei_lanes_kernel::<N, V>(mu, sigma, y, &mut got);
    let want: Vec<f64> = (0..n).map(|i| crate::ei(mu[i], sigma[i], y)).collect();
    assert_same(path, "ei", &got, &want, args);
    log_ei_lanes_kernel::<N, V>(mu, sigma, y, &mut got);
    let want: Vec<f64> = (0..n).map(|i| crate::log_ei(mu[i], sigma[i], y)).collect();
    assert_same(path, "log_ei", &got, &want, args);
    log_eipc_lanes_kernel::<N, V>(mu, sigma, y, cost, &mut got);
    let want: Vec<f64> = (0..n)
        .map(|i| crate::log_eipc(mu[i], sigma[i], y, cost[i]))
        .collect();
    assert_same(path, "log_eipc", &got, &want, args);
}

/// The gradient lane kernels against the scalar gradients, on the lanes `V`.
fn compare_gradients<V: Lanes>(path: &str, y: f64, mu: &[f64], sigma: &[f64], cost: &[f64]) {
    let n = mu.len();
    let args = |i: usize| {
        format!(
            "mu={:e} ({:#018x}), sigma={:e} ({:#018x}), y={y:e}, cost={:e}",
            mu[i],
            mu[i].to_bits(),
            sigma[i],
            sigma[i].to_bits(),
            cost[i]
        )
    };
    let mut got = vec![0.0; n];
    let (mut d_mu, mut d_sigma) = (vec![0.0; n], vec![0.0; n]);
    ei_grad_lanes_kernel::<V>(mu, sigma, y, &mut got, &mut d_mu, &mut d_sigma);
    let want: Vec<_> = (0..n).map(|i| crate::ei_grad(mu[i], sigma[i], y)).collect();
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
        .map(|i| crate::log_ei_grad(mu[i], sigma[i], y))
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
    let args = |i: usize| {
        format!(
            "mu={:e} ({:#018x}), sigma={:e} ({:#018x}), cost={:e} ({:#018x})",
            mu[i],
            mu[i].to_bits(),
            sigma[i],
            sigma[i].to_bits(),
            cost[i],
            cost[i].to_bits()
        )
    };
    let mut got = vec![0.0; n];
    pbgi_lanes_kernel::<V>(mu, sigma, cost, &mut got);
    let want: Vec<f64> = (0..n)
        .map(|i| crate::pbgi(mu[i], sigma[i], cost[i]))
        .collect();
    assert_same(path, "pbgi", &got, &want, args);
    let (mut d_sigma, mut d_cost) = (vec![0.0; n], vec![0.0; n]);
    pbgi_grad_lanes_kernel::<V>(mu, sigma, cost, &mut got, &mut d_sigma, &mut d_cost);
    let want: Vec<_> = (0..n)
        .map(|i| crate::pbgi_grad(mu[i], sigma[i], cost[i]))
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
unsafe fn compare_avx2(y: f64, mu: &[f64], sigma: &[f64], cost: &[f64]) {
    compare::<crate::lanes::Avx4>("avx2+fma", y, mu, sigma, cost)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma,avx512f,avx512vl")]
#[allow(unsafe_code)]
unsafe fn compare_avx512vl(y: f64, mu: &[f64], sigma: &[f64], cost: &[f64]) {
    compare::<crate::lanes::Avx4>("avx2+fma+avx512vl", y, mu, sigma, cost)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma,avx512f")]
#[allow(unsafe_code)]
unsafe fn compare_avx512f(y: f64, mu: &[f64], sigma: &[f64], cost: &[f64]) {
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

#[test]
fn the_pbgi_lane_kernel_equals_pbgi_bit_for_bit() {
    println!("seed {SEED:#x}");
    let mut rng = ChaCha8Rng::seed_from_u64(SEED ^ 3);
    for round in 0..24 {
        let (mu, sigma, cost) = pbgi_inputs(&mut rng, 10_000 + round % 8);
        compare_pbgi::<F64x4>("portable", &mu, &sigma, &cost);
        #[cfg(target_arch = "x86_64")]
        if crate::lanes::avx2_fma_detected() {
            // SAFETY: the CPU has AVX2 and FMA (checked just above).
            #[allow(unsafe_code)]
            unsafe {
                compare_pbgi_avx2(&mu, &sigma, &cost)
            };
        }
        #[cfg(target_arch = "x86_64")]
        if crate::lanes::avx512vl_detected() {
            // SAFETY: the CPU has AVX2, FMA, AVX-512F and AVX-512VL (checked just above).
            #[allow(unsafe_code)]
            unsafe {
                compare_pbgi_avx512vl(&mu, &sigma, &cost)
            };
        }
    }
    // Short slices: every remainder, and chunks that end inside a group of four.
    for n in 0..12 {
        let (mu, sigma, cost) = pbgi_inputs(&mut rng, n);
        compare_pbgi::<F64x4>("portable", &mu, &sigma, &cost);
    }
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
        .map(|i| crate::ei(mu[i], sigma[i], y))
        .collect();
    assert_same(crate::simd_path(), "ei_slice", &out, &want, args);
    crate::log_ei_slice(&mu, &sigma, y, &mut out).unwrap();
    let want: Vec<f64> = (0..mu.len())
        .map(|i| crate::log_ei(mu[i], sigma[i], y))
        .collect();
    assert_same(crate::simd_path(), "log_ei_slice", &out, &want, args);
    crate::log_eipc_slice(&mu, &sigma, y, &cost, &mut out).unwrap();
    let want: Vec<f64> = (0..mu.len())
        .map(|i| crate::log_eipc(mu[i], sigma[i], y, cost[i]))
        .collect();
    assert_same(crate::simd_path(), "log_eipc_slice", &out, &want, args);
    let (mu, sigma, cost) = pbgi_inputs(&mut rng, 4099);
    crate::pbgi_slice(&mu, &sigma, &cost, &mut out).unwrap();
    let want: Vec<f64> = (0..mu.len())
        .map(|i| crate::pbgi(mu[i], sigma[i], cost[i]))
        .collect();
    assert_same(crate::simd_path(), "pbgi_slice", &out, &want, args);
    let (mut d1, mut d2) = (vec![0.0; mu.len()], vec![0.0; mu.len()]);
    crate::pbgi_grad_slice(&mu, &sigma, &cost, &mut out, &mut d1, &mut d2).unwrap();
    for i in 0..mu.len() {
        let g = crate::pbgi_grad(mu[i], sigma[i], cost[i]);
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
        let g = crate::log_ei_grad(mu[i], sigma[i], y);
        let got = [out[i], d1[i], d2[i]];
        let want = [g.value, g.d_mu, g.d_sigma];
        assert_same(crate::simd_path(), "log_ei_grad_slice", &got, &want, |_| {
            format!("index {i}")
        });
    }
    crate::ei_grad_slice(&mu, &sigma, y, &mut out, &mut d1, &mut d2).unwrap();
    for i in 0..mu.len() {
        let g = crate::ei_grad(mu[i], sigma[i], y);
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
/// [0.01, 2], y = -1, as the benchmarks) the lanes settle most points themselves.
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
    let (mut ei, mut log_ei, mut log_eipc) = (0, 0, 0);
    for i in (0..n).step_by(LANES) {
        let (m, s, c) = (
            F64x4::load(&mu, i),
            F64x4::load(&sigma, i),
            F64x4::load(&cost, i),
        );
        let count = |m: <F64x4 as Lanes>::Mask| m.bools().iter().filter(|&&b| b).count();
        ei += count(ei_x4(m, s, y).1);
        log_ei += count(log_ei_x4(m, s, y).1);
        log_eipc += count(log_eipc_x4(m, s, y, c).1);
    }
    let share = |k: usize| k as f64 / n as f64;
    println!(
        "settled by the lanes: ei {:.3}, log_ei {:.3}, log_eipc {:.3}",
        share(ei),
        share(log_ei),
        share(log_eipc)
    );
    assert!(share(ei) > 0.9 && share(log_ei) > 0.9 && share(log_eipc) > 0.7);
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
fn compare_on_every_path(y: f64, mu: &[f64], sigma: &[f64], cost: &[f64]) {
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
