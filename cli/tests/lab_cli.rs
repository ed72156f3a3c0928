//! `pbgi validate`, `pbgi experiment` and `pbgi merge` end to end: the files they write, shards
//! that merge into the unsplit run's files byte for byte, output failures that end in a
//! one-line error instead of a panic or lost results, and argument checks.
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

mod common;

use common::{pbgi, stderr};

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    common::scratch_dir(&format!("lab-cli-{name}"))
}

fn run(cmd: &mut Command) -> Output {
    cmd.output().unwrap()
}

/// A small `pbgi experiment` configuration: 31-point grid, cap 10, five samples.
const TINY_EXPERIMENT: &str = "samples = 5\nmax_evals = 10\ncosts = [\"linear\", \"periodic@argmin\"]\nlambdas = [0.1, 0.001]\nacquisitions = [\"pbgi\", \"lcb\", \"ts\"]\n[domain]\npoints = 31\n[rules.pbgi_logeipc]\n[rules.ucb_lcb]\n[rules.prb]\nmax_paths = 100\n[rules.srgap_med]\ninitial_values = 2\n[rules.convergence]\n";

/// A small `pbgi validate` configuration: 41-point grid, seven samples.
const TINY_VALIDATE: &str = "samples = 7\nmax_evals = 41\nlambdas = [0.01]\nacquisitions = [\"pbgi\", \"ts\"]\n[domain]\npoints = 41\n";

/// Every file of `dir` with its bytes, sorted by name.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect();
    out.sort();
    out
}

fn assert_same_files(a: &Path, b: &Path) {
    let (fa, fb) = (files(a), files(b));
    let names = |f: &[(String, Vec<u8>)]| f.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
    assert_eq!(names(&fa), names(&fb), "{} vs {}", a.display(), b.display());
    for ((name, x), (_, y)) in fa.iter().zip(&fb) {
        assert!(
            x == y,
            "{name} differs between {} and {}",
            a.display(),
            b.display()
        );
    }
}

/// Runs `pbgi SUB --config CONFIG --shard k/n` for every `k`, each into `dir/shard{k}`; returns
/// the shard directories.
fn run_shards(sub: &str, config: &Path, dir: &Path, n: usize) -> Vec<PathBuf> {
    (1..=n)
        .map(|k| {
            let d = dir.join(format!("shard{k}"));
            let o = run(pbgi()
                .arg(sub)
                .arg("--config")
                .arg(config)
                .arg("--out")
                .arg(&d)
                .args(["--shard", &format!("{k}/{n}"), "--threads", "1"]));
            assert!(o.status.success(), "{}", stderr(&o));
            d
        })
        .collect()
}

#[test]
fn experiment_writes_tables_csv_and_plots() {
    let dir = scratch("experiment-files");
    let config = dir.join("tiny.toml");
    std::fs::write(&config, TINY_EXPERIMENT).unwrap();
    let out = dir.join("out");
    let o = run(pbgi()
        .arg("experiment")
        .arg("--config")
        .arg(&config)
        .arg("--out")
        .arg(&out)
        .args(["--threads", "2"]));
    assert!(o.status.success(), "{}", stderr(&o));
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        stdout.contains("linear cost, λ = 0.1") && stdout.contains("Hindsight"),
        "{stdout}"
    );
    for file in [
        "runs.csv",
        "trajectories.csv",
        "summary.csv",
        "curves.csv",
        "summary.txt",
        "comparison.md",
        "config.toml",
        "regret_linear_lambda_0.1.svg",
        "regret_periodic@argmin_lambda_0.001.svg",
        "statistic.csv",
        "statistic_linear_lambda_0.1.svg",
    ] {
        let bytes = std::fs::read(out.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert!(!bytes.is_empty(), "{file} is empty");
    }
    let svg = std::fs::read_to_string(out.join("regret_linear_lambda_0.1.svg")).unwrap();
    assert!(svg.contains("<svg") && svg.contains("UCB-LCB") && svg.contains("evaluations t"));
    let summary = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    // 4 settings × 3 acquisitions × (5 selected rules + 2 oracles) rows + header.
    assert_eq!(summary.lines().count(), 1 + 4 * 3 * (5 + 2));
    // No timing in any result file: a second run with one thread, measuring the rules' times
    // into a directory of their own, writes the same bytes.
    let again = dir.join("again");
    let timings = dir.join("timings");
    let o = run(pbgi()
        .arg("experiment")
        .arg("--config")
        .arg(&config)
        .arg("--out")
        .arg(&again)
        .arg("--timings")
        .arg(&timings)
        .args(["--threads", "1"]));
    assert!(o.status.success(), "{}", stderr(&o));
    assert_same_files(&out, &again);
    // Again into the same directories: both are replaced whole.
    let o = run(pbgi()
        .arg("experiment")
        .arg("--config")
        .arg(&config)
        .arg("--out")
        .arg(&again)
        .arg("--timings")
        .arg(&timings)
        .args(["--threads", "1"]));
    assert!(o.status.success(), "{}", stderr(&o));
    assert_same_files(&out, &again);
    for file in ["rule_timings.csv", "rule_timings.md", "rule_timings.svg"] {
        let bytes = std::fs::read(timings.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert!(!bytes.is_empty(), "{file} is empty");
    }
    let table = std::fs::read_to_string(timings.join("rule_timings.csv")).unwrap();
    // 4 settings × 3 acquisitions × 5 rules + header.
    assert_eq!(table.lines().count(), 1 + 4 * 3 * 5);
    // The timings may not go inside the output directory (it is replaced whole).
    let o = run(pbgi()
        .arg("experiment")
        .arg("--config")
        .arg(&config)
        .arg("--out")
        .arg(&again)
        .arg("--timings")
        .arg(again.join("t")));
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--timings"), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn experiment_shards_merge_into_the_unsplit_run_byte_for_byte() {
    let dir = scratch("experiment-shards");
    let config = dir.join("tiny.toml");
    std::fs::write(&config, TINY_EXPERIMENT).unwrap();
    let whole = dir.join("whole");
    let o = run(pbgi()
        .arg("experiment")
        .arg("--config")
        .arg(&config)
        .arg("--out")
        .arg(&whole));
    assert!(o.status.success(), "{}", stderr(&o));
    let shard_dirs = run_shards("experiment", &config, &dir, 3);
    let merged = dir.join("merged");
    // Any order of the shard directories.
    let o = run(pbgi()
        .arg("merge")
        .arg(&shard_dirs[2])
        .arg(&shard_dirs[0])
        .arg(&shard_dirs[1])
        .arg("--out")
        .arg(&merged));
    assert!(o.status.success(), "{}", stderr(&o));
    assert_same_files(&whole, &merged);
    // An incomplete or repeated set is refused, naming the problem.
    let o = run(pbgi()
        .arg("merge")
        .arg(&shard_dirs[0])
        .arg(&shard_dirs[1])
        .arg("--out")
        .arg(dir.join("bad")));
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("missing shards: 3/3"), "{}", stderr(&o));
    let o = run(pbgi()
        .arg("merge")
        .arg(&shard_dirs[0])
        .arg(&shard_dirs[0])
        .arg(&shard_dirs[1])
        .arg(&shard_dirs[2])
        .arg("--out")
        .arg(dir.join("bad")));
    assert!(stderr(&o).contains("also in"), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_partial_merge_is_an_interim_report_of_the_finished_shards() {
    // Samples 0, 1, 3 of five (shards 1, 2, 4 of 5): the same regret table as the unsplit run
    // of those samples' runs would give, under a line saying "3 of 5"; `validate` refuses.
    let dir = scratch("partial-merge");
    let config = dir.join("tiny.toml");
    std::fs::write(&config, TINY_EXPERIMENT).unwrap();
    let shard_dirs = run_shards("experiment", &config, &dir, 5);
    let out = dir.join("interim");
    let o = run(pbgi()
        .arg("merge")
        .arg("--partial")
        .args([&shard_dirs[3], &shard_dirs[0], &shard_dirs[1]])
        .arg("--out")
        .arg(&out));
    assert!(o.status.success(), "{}", stderr(&o));
    let stdout = String::from_utf8_lossy(&o.stdout).into_owned();
    let note = "Interim report (pbgi merge --partial): 3 of the configuration's 5 samples \
                (samples 0–1, 3); the study is not finished.";
    assert!(stdout.starts_with(note), "{stdout}");
    assert!(stdout.contains("(missing: 3/5, 5/5)"), "{stdout}");
    assert!(stdout.contains("(3 samples)"), "{stdout}");
    for name in ["comparison.md", "summary.txt"] {
        let text = std::fs::read_to_string(out.join(name)).unwrap();
        assert!(text.starts_with(note), "{name}: {text}");
    }
    // Every shard with --partial is the whole merge.
    let all = dir.join("all");
    let whole = dir.join("whole");
    let o = run(pbgi()
        .arg("merge")
        .arg("--partial")
        .args(&shard_dirs)
        .arg("--out")
        .arg(&all));
    assert!(o.status.success(), "{}", stderr(&o));
    let o = run(pbgi()
        .arg("merge")
        .args(&shard_dirs)
        .arg("--out")
        .arg(&whole));
    assert!(o.status.success(), "{}", stderr(&o));
    assert_same_files(&all, &whole);
    let validate = dir.join("validate.toml");
    std::fs::write(&validate, TINY_VALIDATE).unwrap();
    let v = run_shards("validate", &validate, &dir.join("v"), 2);
    let o = run(pbgi()
        .arg("merge")
        .arg("--partial")
        .arg(&v[0])
        .arg("--out")
        .arg(dir.join("bad")));
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--partial: only `experiment` shards"),
        "{}",
        stderr(&o)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn validate_shards_merge_into_the_unsplit_run_byte_for_byte() {
    let dir = scratch("validate-shards");
    let config = dir.join("tiny.toml");
    std::fs::write(&config, TINY_VALIDATE).unwrap();
    let whole = dir.join("whole");
    let o = run(pbgi()
        .arg("validate")
        .arg("--config")
        .arg(&config)
        .arg("--out")
        .arg(&whole)
        .args(["--threads", "2"]));
    assert!(o.status.success(), "{}", stderr(&o));
    let dirs = run_shards("validate", &config, &dir, 2);
    let merged = dir.join("merged");
    let o = run(pbgi()
        .arg("merge")
        .arg(&dirs[0])
        .arg(&dirs[1])
        .arg("--out")
        .arg(&merged));
    assert!(o.status.success(), "{}", stderr(&o));
    assert_same_files(&whole, &merged);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn merge_refuses_an_output_that_is_one_of_its_shards() {
    let dir = scratch("merge-into-shard");
    let config = dir.join("tiny.toml");
    std::fs::write(&config, TINY_VALIDATE).unwrap();
    let dirs = run_shards("validate", &config, &dir, 2);
    let before = files(&dirs[0]);
    // The shard itself, spelled another way too.
    for out in [dirs[0].clone(), dir.join(".").join("shard1")] {
        let o = run(pbgi()
            .arg("merge")
            .arg(&dirs[0])
            .arg(&dirs[1])
            .arg("--out")
            .arg(&out));
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(
            stderr(&o).contains("is also an input of this command"),
            "{}",
            stderr(&o)
        );
        assert_eq!(files(&dirs[0]), before, "the shard was changed");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_new_run_replaces_the_output_directory_whole() {
    let dir = scratch("whole-directory");
    let config = dir.join("tiny.toml");
    std::fs::write(&config, TINY_VALIDATE).unwrap();
    let out = dir.join("out");
    let validate = |extra: &[&str]| {
        run(pbgi()
            .arg("validate")
            .arg("--config")
            .arg(&config)
            .arg("--out")
            .arg(&out)
            .args(["--threads", "1"])
            .args(extra))
    };
    let o = validate(&["--shard", "1/2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = validate(&[]);
    assert!(o.status.success(), "{}", stderr(&o));
    // No file of the shard run (its manifest) survives into the whole run's directory.
    let names: Vec<String> = files(&out).into_iter().map(|(n, _)| n).collect();
    assert!(!names.iter().any(|n| n == "shard.toml"), "{names:?}");
    for name in &names {
        assert!(pbgi_cli::publish::written_by_pbgi(name), "{name} unknown");
    }
    let complete = files(&out);
    // A file of the user's stops the run before the work, and stays.
    std::fs::write(out.join("notes.txt"), "mine").unwrap();
    let o = validate(&[]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("holds notes.txt"), "{}", stderr(&o));
    assert_eq!(std::fs::read(out.join("notes.txt")).unwrap(), b"mine");
    std::fs::remove_file(out.join("notes.txt")).unwrap();

    // Runs killed (SIGTERM) at moments spread over a run: the directory is always the old run's
    // or a complete new one, never a mix, and nothing else is left beside it once the next run
    // has cleared what the killed ones left.
    let started = std::time::Instant::now();
    let o = validate(&["--seed", "7"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let renewed = files(&out);
    let span = started.elapsed();
    for step in 0..8u32 {
        let mut child = pbgi()
            .arg("validate")
            .arg("--config")
            .arg(&config)
            .arg("--out")
            .arg(&out)
            .args(["--threads", "1", "--seed", "7"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(span * step / 8);
        let _ = Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .status();
        let _ = child.wait();
        let now = files(&out);
        assert!(
            now == renewed || now == complete,
            "a killed run (after {:?}) left a mixed directory",
            span * step / 8
        );
    }
    let o = validate(&[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(files(&out), complete);
    let beside: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(beside.is_empty(), "left beside the output: {beside:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_closed_or_full_stdout_is_an_error_after_the_files_are_written() {
    let dir = scratch("stdout");
    let config = dir.join("tiny.toml");
    std::fs::write(&config, TINY_VALIDATE).unwrap();
    // Standard output closed early (the reader exits at once): the results are still written,
    // and the tool ends quietly with the broken-pipe status (141), not a panic.
    let out = dir.join("vp");
    let mut child = pbgi()
        .arg("validate")
        .arg("--config")
        .arg(&config)
        .arg("--out")
        .arg(&out)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(141), "{}", stderr(&o));
    assert!(!stderr(&o).contains("panicked"));
    assert!(out.join("validate.md").is_file() && out.join("runs.csv").is_file());
    if Path::new("/dev/full").exists() {
        for args in [
            vec!["validate", "--print-config"],
            vec!["experiment", "--print-config"],
        ] {
            let full = std::fs::OpenOptions::new()
                .write(true)
                .open("/dev/full")
                .unwrap();
            let o = pbgi().args(&args).stdout(full).output().unwrap();
            assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
            assert!(
                stderr(&o).contains("cannot write to standard output"),
                "{args:?}"
            );
            assert!(!stderr(&o).contains("panicked"), "{args:?}");
        }
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let cfg = dir.join("e.toml");
        std::fs::write(&cfg, TINY_EXPERIMENT).unwrap();
        let o = pbgi()
            .arg("experiment")
            .arg("--config")
            .arg(&cfg)
            .arg("--out")
            .arg(dir.join("e"))
            .stdout(full)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(dir.join("e").join("summary.txt").is_file());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_unwritable_output_directory_is_found_before_the_simulation() {
    let dir = scratch("unwritable");
    let blocker = dir.join("file");
    std::fs::write(&blocker, "not a directory").unwrap();
    for sub in ["validate", "experiment"] {
        let started = std::time::Instant::now();
        let o = run(pbgi().arg(sub).arg("--out").arg(blocker.join("out")));
        assert_eq!(o.status.code(), Some(2), "{sub}");
        assert!(
            stderr(&o).contains("output directory"),
            "{sub}: {}",
            stderr(&o)
        );
        // The default studies take minutes; the refusal comes at once.
        assert!(started.elapsed().as_secs() < 30, "{sub}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn arguments_mean_the_same_in_both_subcommands() {
    for sub in ["validate", "experiment"] {
        let o = run(pbgi().args([sub, "--threads", "0"]));
        assert_eq!(o.status.code(), Some(2), "{sub}");
        assert!(
            stderr(&o).contains("--threads must be ≥ 1"),
            "{sub}: {}",
            stderr(&o)
        );
        // Reported: --threads 10000 took 108 s for 0.1 s of work; 100000 did not finish.
        for k in ["10000", "100000", "18446744073709551615"] {
            let started = std::time::Instant::now();
            let o = run(pbgi().args([sub, "--threads", k]));
            assert_eq!(o.status.code(), Some(2), "{sub} {k}");
            assert!(
                stderr(&o).contains(&format!("--threads {k}: at most ")),
                "{sub}: {}",
                stderr(&o)
            );
            assert!(started.elapsed().as_secs() < 5, "{sub} {k}");
        }
        let o = run(pbgi().args([sub, "--shard", "4/3"]));
        assert_eq!(o.status.code(), Some(2), "{sub}");
        assert!(stderr(&o).contains("4/3"), "{sub}: {}", stderr(&o));
        // A seed above i64::MAX is a valid u64 and survives the written configuration.
        let o = run(pbgi().args([sub, "--seed", "9223372036854775808", "--print-config"]));
        assert!(o.status.success(), "{sub}: {}", stderr(&o));
        assert!(String::from_utf8_lossy(&o.stdout).contains("seed = \"9223372036854775808\""));
    }
    let o = run(pbgi().args(["experiment", "--samples", "0"]));
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("samples"));
}

#[test]
fn every_size_key_at_its_largest_is_refused_before_the_work() {
    // Reported: [domain] points = 1e8 and prb.max_paths = 1e11 aborted on allocation (134),
    // --samples 18446744073709551615 grew by 110 MB/s. Every size-like key at the largest
    // integer TOML holds (i64::MAX), every size-like flag at u64::MAX: a one-line error at once,
    // or (a key that sets no amount of work) a run within its bounds; never an abort or a hang.
    let dir = scratch("size-keys");
    let big = i64::MAX;
    let experiment_keys = [
        format!("samples = {big}"),
        format!("initial_points = {big}"),
        format!("max_evals = {big}"),
        format!("[domain]\npoints = {big}"),
        format!("[domain]\nkind = \"random\"\ndim = {big}"),
        format!("[domain]\nkind = \"random\"\npoints = {big}"),
        format!("[domain]\nkind = \"cube\"\ndim = 8\n[rules.pbgi_logeipc]\n[search]\nraw_samples = {big}"),
        format!("[domain]\nkind = \"cube\"\ndim = 8\n[rules.pbgi_logeipc]\n[search]\nrestarts = {big}"),
        format!("[domain]\nkind = \"cube\"\ndim = 8\n[rules.pbgi_logeipc]\n[search]\nmax_iterations = {big}"),
        format!("[domain]\nkind = \"cube\"\ndim = 8\n[rules.pbgi_logeipc]\n[search]\nts_raw_samples = {big}"),
        format!("[domain]\nkind = \"cube\"\ndim = 8\n[rules.pbgi_logeipc]\n[search]\nts_restarts = {big}"),
        format!("[domain]\nkind = \"cube\"\ndim = 8\n[rules.pbgi_logeipc]\n[search]\nts_features = {big}"),
        format!("[domain]\nkind = \"cube\"\ndim = 8\n[rules.pbgi_logeipc]\n[search]\nobjective_features = {big}"),
        format!("[domain]\nkind = \"cube\"\ndim = 8\n[rules.pbgi_logeipc]\n[search]\noptimum_raw_samples = {big}"),
        format!("[domain]\nkind = \"cube\"\ndim = 8\n[rules.pbgi_logeipc]\n[search]\noptimum_restarts = {big}"),
        format!("max_evals = {big}\n[domain]\nkind = \"cube\"\n[rules.pbgi_logeipc]"),
        format!("[rules.prb]\nmax_paths = {big}"),
        format!("[rules.prb]\ninitial_paths = {big}\nmax_paths = {big}"),
        format!("[rules.pbgi_logeipc]\nstabilisation = {big}"),
        format!("[rules.pbgi_logeipc]\ndebounce = {big}"),
        format!("[rules.pbgi_logeipc]\nmoving_average = {big}"),
        format!("[rules.logeipc_med]\ninitial_values = {big}"),
        format!("[rules.logeipc_med]\nmoving_average = {big}"),
        format!("[rules.srgap_med]\ninitial_values = {big}"),
        format!("[rules.srgap_med]\nmoving_average = {big}"),
        format!("[rules.ucb_lcb]\nmoving_average = {big}"),
        format!("[rules.gss]\nwindow = {big}"),
        format!("[rules.convergence]\nwindow = {big}"),
        format!("[rules.fixed_iteration]\nevaluations = {big}"),
    ];
    let validate_keys = [
        format!("samples = {big}"),
        format!("initial_points = {big}"),
        format!("max_evals = {big}"),
        format!("[domain]\npoints = {big}"),
        format!("[domain]\nkind = \"random\"\ndim = {big}"),
        format!("[domain]\nkind = \"random\"\npoints = {big}"),
    ];
    let mut cases: Vec<(&str, String)> = experiment_keys
        .iter()
        .map(|k| ("experiment", k.clone()))
        .collect();
    cases.extend(validate_keys.iter().map(|k| ("validate", k.clone())));
    for (i, (sub, text)) in cases.iter().enumerate() {
        let config = dir.join(format!("big{i}.toml"));
        // One sample (and a short cap) unless the key is one of those: a key that does not set
        // the amount of work (a window, a debounce) may also run, within its bounds.
        let short = if text.starts_with("samples") || text.starts_with("max_evals") {
            String::new()
        } else {
            "samples = 1\n".to_string()
        };
        std::fs::write(&config, format!("{short}{text}")).unwrap();
        let started = std::time::Instant::now();
        let mut child = pbgi()
            .arg(sub)
            .arg("--config")
            .arg(&config)
            .arg("--out")
            .arg(dir.join("out"))
            .args(["--threads", "1"])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // A run that got past the checks is stopped after 10 s and reported.
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break Some(status);
            }
            if started.elapsed().as_secs() >= 10 {
                let _ = child.kill();
                break None;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        };
        let o = child.wait_with_output().unwrap();
        let message = stderr(&o);
        assert!(status.is_some(), "{sub} `{text}`: still running after 10 s");
        match o.status.code() {
            Some(0) => {}
            Some(2) => assert!(
                message.starts_with("pbgi: error: ") && message.lines().count() == 1,
                "{sub} `{text}`: {message}"
            ),
            other => panic!("{sub} `{text}`: status {other:?}: {message}"),
        }
    }
    for sub in ["validate", "experiment"] {
        let o = run(pbgi()
            .args([sub, "--samples", "18446744073709551615", "--out"])
            .arg(dir.join("o")));
        assert_eq!(o.status.code(), Some(2), "{sub}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("samples: 18446744073709551615 is above the bound"),
            "{}",
            stderr(&o)
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
