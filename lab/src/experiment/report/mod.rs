//! The reports of an experiment, one concern a file: the statistics (`summary`), the raw runs
//! that every run and shard writes and `pbgi merge` reads back (`raw`), the CSV and on-screen
//! tables (`tables`), the figures (`figures`) and `comparison.md` (`markdown`); here, the
//! files of an output directory, of a shard, and of merged shards. No file carries a timing:
//! the rules' times (`timing`) go to a directory of their own (`pbgi experiment --timings`).
mod figures;
mod markdown;
mod raw;
mod summary;
mod tables;
mod timing;

pub use figures::{setting_figure, statistic_figure, variants_figure, STATISTIC_SAMPLES_SHOWN};
pub use markdown::comparison_markdown;
pub use raw::{
    has_statistic, moving_averages, raw_files, read_raw, RUNS_HEADER, STATISTIC_HEADER,
    TRAJECTORY_HEADER,
};
pub use summary::{curves, summarize, Curve, SummaryRow, HINDSIGHT, HINDSIGHT_FIXED};
pub use tables::summary_table;
pub use timing::{timing_files, TIMING_HEADER};

use super::config::ExperimentConfig;
use super::study::{settings, ExperimentResults};
use crate::study::config::to_toml;
use crate::study::output::Files;
use crate::study::shard::{read_shards, shard_directory, Shard, StudyKind};
use std::path::Path;
use summary::setting_label;
use tables::summary_files;

/// Everything an output directory holds, in the order it is written, and the on-screen table.
pub fn report_files(
    config: &ExperimentConfig,
    results: &ExperimentResults,
) -> Result<(String, Files), String> {
    report_files_for(config, results, config.samples)
}

/// [`report_files`] over `samples` samples (fewer than the configuration's in an interim
/// report of a partial merge).
fn report_files_for(
    config: &ExperimentConfig,
    results: &ExperimentResults,
    samples: usize,
) -> Result<(String, Files), String> {
    let rows = summarize(results, config.initial_points);
    let curves = curves(results);
    let table = summary_table(results, &rows, samples);
    let mut files = raw_files(config, results)?;
    files.extend(summary_files(results, &rows, &curves)?);
    for setting in 0..results.settings.len() {
        let (cost, lambda) = setting_label(results, setting);
        files.push((
            format!("regret_{cost}_lambda_{lambda}.svg"),
            setting_figure(config, results, &rows, &curves, setting)?.into_bytes(),
        ));
        if has_statistic(results) {
            files.push((
                format!("statistic_{cost}_lambda_{lambda}.svg"),
                statistic_figure(config, results, setting)?.into_bytes(),
            ));
        }
    }
    if let Some(figure) = variants_figure(config, results)? {
        files.push(("variants.svg".to_string(), figure.into_bytes()));
    }
    files.push(("summary.txt".to_string(), table.clone().into_bytes()));
    files.push((
        "comparison.md".to_string(),
        comparison_markdown(results, &rows, samples).into_bytes(),
    ));
    files.push((
        "config.toml".to_string(),
        to_toml(&config.effective()?)?.into_bytes(),
    ));
    Ok((table, files))
}

/// The files of one shard: the raw runs, the configuration and the manifest.
pub fn shard_files(
    config: &ExperimentConfig,
    results: &ExperimentResults,
    shard: Shard,
) -> Result<Files, String> {
    shard_directory(
        StudyKind::Experiment,
        shard,
        raw_files(config, results)?,
        to_toml(&config.effective()?)?,
    )
}

/// What a merge covers: every sample of the configuration, or (`pbgi merge --partial`) only
/// the samples its shards hold, for an interim look at a study still running.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MergeScope {
    /// Every run of the configuration must be there: the files are byte for byte the
    /// unsplit run's.
    Whole,
    /// Each sample present must be whole (every setting and acquisition); samples may be
    /// missing. The tables count the samples present, and `summary.txt` and `comparison.md`
    /// open with [`interim_note`].
    Partial,
}

/// Merges shard directories (already checked to be one split with one configuration, and
/// for [`MergeScope::Whole`] a complete one): the on-screen table and the files.
pub fn merge(
    config: &ExperimentConfig,
    dirs: &[&Path],
    scope: MergeScope,
) -> Result<(String, Files), String> {
    config.validate()?;
    let rules = super::study::rule_names(&config.rule_factories()?);
    let runs = read_shards(
        dirs,
        |dir| read_raw(config, &rules, dir),
        |r| (r.setting, r.sample, r.acquisition),
    )?;
    let with = runs.iter().filter(|r| !r.statistic.is_empty()).count();
    if with != 0 && with != runs.len() {
        return Err(
            "statistic.csv: some shard directories hold it and some do not (shards written \
             before and after the statistic was traced); rerun the older shards"
                .into(),
        );
    }
    let per_sample = settings(config).len() * config.acquisitions.len();
    let expected = per_sample * config.samples;
    let repeated = runs.windows(2).any(|w| {
        (w[0].setting, w[0].sample, w[0].acquisition)
            == (w[1].setting, w[1].sample, w[1].acquisition)
    });
    let samples: Vec<usize> = {
        let mut s: Vec<usize> = runs.iter().map(|r| r.sample).collect();
        s.sort_unstable();
        s.dedup();
        s
    };
    match scope {
        MergeScope::Whole if runs.len() != expected || repeated => {
            return Err(format!(
                "the shards hold {} runs, not the {expected} distinct runs of the configuration",
                runs.len()
            ));
        }
        MergeScope::Partial => {
            if repeated {
                return Err("the shards hold a run twice (the same setting, sample and \
                            acquisition)"
                    .into());
            }
            for &sample in &samples {
                let held = runs.iter().filter(|r| r.sample == sample).count();
                if held != per_sample || sample >= config.samples {
                    return Err(format!(
                        "sample {sample}: the shards hold {held} of its runs, not the \
                         {per_sample} of one sample of the configuration"
                    ));
                }
            }
        }
        MergeScope::Whole => {}
    }
    let results = ExperimentResults {
        settings: settings(config),
        acquisitions: config.acquisitions.clone(),
        rules,
        runs,
    };
    match scope {
        MergeScope::Whole => report_files(config, &results),
        MergeScope::Partial => {
            let note = interim_note(&samples, config.samples);
            let (table, mut files) = report_files_for(config, &results, samples.len())?;
            for (name, bytes) in &mut files {
                if name == "summary.txt" || name == "comparison.md" {
                    let mut with_note = format!("{note}\n").into_bytes();
                    with_note.append(bytes);
                    *bytes = with_note;
                }
            }
            Ok((format!("{note}\n{table}"), files))
        }
    }
}

/// The line that opens an interim report: how many samples of how many, which ones (as
/// ranges of 0-based sample indices), and that the study is not finished.
pub fn interim_note(samples: &[usize], of: usize) -> String {
    let mut ranges: Vec<String> = Vec::new();
    let mut i = 0;
    while i < samples.len() {
        let mut j = i;
        while j + 1 < samples.len() && samples[j + 1] == samples[j] + 1 {
            j += 1;
        }
        ranges.push(if j == i {
            samples[i].to_string()
        } else {
            format!("{}–{}", samples[i], samples[j])
        });
        i = j + 1;
    }
    format!(
        "Interim report (pbgi merge --partial): {} of the configuration's {of} samples \
         (samples {}); the study is not finished.",
        samples.len(),
        ranges.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::study::rule_names;
    use crate::experiment::RunResult;
    use crate::study::config::parse_config;
    use std::path::PathBuf;

    /// Two settings × three samples × two acquisitions, cap 5 (checks at t = 2..=5), rules
    /// PBGI/LogEIPC (moving average over 2 checks), GSS and Fixed-3.
    fn config() -> ExperimentConfig {
        let text = "samples = 3\ninitial_points = 2\nmax_evals = 5\ncosts = [\"linear\"]\n\
                    lambdas = [0.1, 0.001]\nacquisitions = [\"pbgi\", \"ts\"]\n\
                    [domain]\npoints = 11\n[rules.pbgi_logeipc]\nmoving_average = 2\n\
                    [rules.gss]\n[rules.fixed]\nevaluations = 3\n";
        let config: ExperimentConfig = parse_config(text, false).unwrap();
        config.validate().unwrap();
        config
    }

    /// Hand-made results for `config()`: numbers with every digit in use (thirds, sevenths),
    /// so a file that rounded would not read back equal; sample 2's last statistic is `−∞`
    /// (no point left).
    fn results(config: &ExperimentConfig) -> ExperimentResults {
        let rules = rule_names(&config.rule_factories().unwrap());
        let mut runs = Vec::new();
        for setting in 0..2 {
            for sample in 0..3 {
                for acquisition in 0..2 {
                    let k = (setting * 6 + sample * 2 + acquisition) as f64;
                    runs.push(RunResult {
                        setting,
                        sample,
                        acquisition,
                        simple_regret: (0..5).map(|t| (5 - t) as f64 / 3.0 + k / 7.0).collect(),
                        cumulative_cost: (1..=5).map(|t| t as f64 * (0.1 + k / 11.0)).collect(),
                        stop: vec![5, 2 + sample, 3],
                        fired: vec![false, sample < 2, true],
                        statistic: (0..4)
                            .map(|i| match (sample, i) {
                                (2, 3) => f64::NEG_INFINITY,
                                _ => (1.5 - i as f64) / 3.0 + k / 13.0,
                            })
                            .collect(),
                    });
                }
            }
        }
        ExperimentResults {
            settings: settings(config),
            acquisitions: config.acquisitions.clone(),
            rules,
            runs,
        }
    }

    /// A fresh directory under the system's temporary directory holding `files`.
    fn write_dir(name: &str, files: &Files) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("pbgi-lab-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        for (file, bytes) in files {
            std::fs::write(dir.join(file), bytes).unwrap();
        }
        dir
    }

    #[test]
    fn raw_runs_read_back_equal() {
        let config = config();
        let results = results(&config);
        let dir = write_dir("raw", &raw_files(&config, &results).unwrap());
        let read = read_raw(&config, &results.rules, &dir);
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(read.unwrap(), results.runs);
    }

    #[test]
    fn merged_shards_equal_the_unsplit_run() {
        let config = config();
        let whole = results(&config);
        let mut dirs = Vec::new();
        // Shard 2/2 first: the merge must not depend on the order of the directories.
        for shard in [Shard { index: 2, count: 2 }, Shard { index: 1, count: 2 }] {
            let part = ExperimentResults {
                runs: whole
                    .runs
                    .iter()
                    .filter(|r| shard.contains(r.sample))
                    .cloned()
                    .collect(),
                ..whole.clone()
            };
            let files = shard_files(&config, &part, shard).unwrap();
            dirs.push(write_dir(&format!("shard-{}", shard.index), &files));
        }
        let paths: Vec<&Path> = dirs.iter().map(PathBuf::as_path).collect();
        let merged = merge(&config, &paths, MergeScope::Whole);
        for dir in &dirs {
            std::fs::remove_dir_all(dir).unwrap();
        }
        let merged = merged.unwrap();
        let names: Vec<&str> = merged.1.iter().map(|(name, _)| name.as_str()).collect();
        assert!(names.contains(&"statistic.csv"), "{names:?}");
        assert!(
            names.contains(&"statistic_linear_lambda_0.1.svg"),
            "{names:?}"
        );
        // No rule variant, no variants figure.
        assert!(!names.contains(&"variants.svg"), "{names:?}");
        assert_eq!(merged, report_files(&config, &whole).unwrap());
    }

    #[test]
    fn a_partial_merge_reports_the_samples_it_holds_and_says_so() {
        // Shards 1/3 and 3/3 of three samples: the report of samples 0 and 2 alone, counted
        // as 2 samples, with the interim note on top of the two tables; a sample missing a
        // run is refused.
        let config = config();
        let whole = results(&config);
        let only = |keep: &dyn Fn(&RunResult) -> bool| ExperimentResults {
            runs: whole.runs.iter().filter(|r| keep(r)).cloned().collect(),
            ..whole.clone()
        };
        let mut dirs = Vec::new();
        for shard in [Shard { index: 3, count: 3 }, Shard { index: 1, count: 3 }] {
            let files = shard_files(&config, &only(&|r| shard.contains(r.sample)), shard);
            dirs.push(write_dir(
                &format!("partial-{}", shard.index),
                &files.unwrap(),
            ));
        }
        let paths: Vec<&Path> = dirs.iter().map(PathBuf::as_path).collect();
        let partial = merge(&config, &paths, MergeScope::Partial);
        let refused_whole = merge(&config, &paths, MergeScope::Whole);
        // Sample 2 without its last run.
        let last = only(&|r| r.sample == 2 && !(r.setting == 1 && r.acquisition == 1));
        let torn = shard_files(&config, &last, Shard { index: 3, count: 3 }).unwrap();
        let torn_dir = write_dir("partial-torn", &torn);
        let torn_merge = merge(&config, &[torn_dir.as_path()], MergeScope::Partial);
        for dir in dirs.iter().chain([&torn_dir]) {
            std::fs::remove_dir_all(dir).unwrap();
        }
        assert!(refused_whole
            .unwrap_err()
            .contains("not the 12 distinct runs"));
        let err = torn_merge.unwrap_err();
        assert!(
            err.contains("sample 2: the shards hold 3 of its runs, not the 4"),
            "{err}"
        );
        let note = "Interim report (pbgi merge --partial): 2 of the configuration's 3 samples \
                    (samples 0, 2); the study is not finished.";
        assert_eq!(interim_note(&[0, 2], 3), note);
        assert_eq!(
            interim_note(&[0, 1, 2, 7, 9, 10], 50)
                .split("(samples ")
                .nth(1),
            Some("0–2, 7, 9–10); the study is not finished.")
        );
        let held = only(&|r| r.sample != 1);
        let (table, mut files) = report_files_for(&config, &held, 2).unwrap();
        assert!(table.contains("(2 samples)"), "{table}");
        for (name, bytes) in &mut files {
            if name == "summary.txt" || name == "comparison.md" {
                *bytes = [format!("{note}\n").into_bytes(), bytes.clone()].concat();
            }
        }
        assert_eq!(partial.unwrap(), (format!("{note}\n{table}"), files));
    }

    #[test]
    fn shards_written_before_the_statistic_trace_merge_without_it() {
        // Shards without statistic.csv (an older pbgi) merge into the unsplit run's files
        // less the statistic files; a mix of old and new shards is refused.
        let config = config();
        let whole = results(&config);
        let mut dirs = Vec::new();
        for shard in [Shard { index: 1, count: 2 }, Shard { index: 2, count: 2 }] {
            let part = ExperimentResults {
                runs: whole
                    .runs
                    .iter()
                    .filter(|r| shard.contains(r.sample))
                    .cloned()
                    .collect(),
                ..whole.clone()
            };
            let files: Files = shard_files(&config, &part, shard)
                .unwrap()
                .into_iter()
                .filter(|(name, _)| shard.index == 2 || name != "statistic.csv")
                .collect();
            dirs.push(write_dir(&format!("old-shard-{}", shard.index), &files));
        }
        let paths: Vec<&Path> = dirs.iter().map(PathBuf::as_path).collect();
        let mixed = merge(&config, &paths, MergeScope::Whole);
        std::fs::remove_file(dirs[1].join("statistic.csv")).unwrap();
        let old = merge(&config, &paths, MergeScope::Whole);
        for dir in &dirs {
            std::fs::remove_dir_all(dir).unwrap();
        }
        let err = mixed.unwrap_err();
        assert!(err.contains("statistic.csv"), "{err}");
        let (table, files) = report_files(&config, &whole).unwrap();
        let expected: Files = files
            .into_iter()
            .filter(|(name, _)| !name.starts_with("statistic"))
            .collect();
        assert_eq!(old.unwrap(), (table, expected));
    }

    #[test]
    fn statistic_csv_holds_the_raw_statistic_and_its_full_window_mean() {
        // Setting 0, sample 0, PBGI (k = 0): statistic (1.5 − i)/3 at t = 2 + i, i.e.
        // 1/2, 1/6, −1/6, −1/2; window 2: no mean at t = 2, then (1/2 + 1/6)/2 = 1/3,
        // (1/6 − 1/6)/2 = 0, (−1/6 − 1/2)/2 = −1/3.
        let config = config();
        let results = results(&config);
        let files = raw_files(&config, &results).unwrap();
        let (_, csv) = files.iter().find(|(n, _)| n == "statistic.csv").unwrap();
        let text = String::from_utf8(csv.clone()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 1 + 2 * 3 * 2 * 4);
        assert_eq!(lines[0], STATISTIC_HEADER.join(","));
        let row = |i: usize| -> Vec<String> { lines[i].split(',').map(String::from).collect() };
        let value = |s: &str| s.parse::<f64>().unwrap();
        let expected = [
            (0.5, None),
            (1.0 / 6.0, Some(1.0 / 3.0)),
            (-1.0 / 6.0, Some(0.0)),
            (-0.5, Some(-1.0 / 3.0)),
        ];
        for (i, (raw, mean)) in expected.into_iter().enumerate() {
            let r = row(1 + i);
            assert_eq!(
                &r[..5],
                ["linear", "1e-1", "pbgi", "0", &(2 + i).to_string()]
            );
            assert!((value(&r[5]) - raw).abs() < 1e-15, "{r:?}");
            match mean {
                None => assert_eq!(r[6], ""),
                Some(m) => assert!((value(&r[6]) - m).abs() < 1e-15, "{r:?}"),
            }
        }
        // Sample 2 (PBGI, setting 0) ends with −∞, and so does its mean.
        let last = row(1 + 2 * 2 * 4 + 3);
        assert_eq!((last[3].as_str(), last[4].as_str()), ("2", "5"));
        assert_eq!((last[5].as_str(), last[6].as_str()), ("-inf", "-inf"));
    }

    #[test]
    fn a_statistic_file_of_another_run_is_refused() {
        let config = config();
        let results = results(&config);
        let mut files = raw_files(&config, &results).unwrap();
        for (name, bytes) in files.iter_mut() {
            if name == "statistic.csv" {
                let text = String::from_utf8(bytes.clone()).unwrap();
                *bytes = text
                    .replacen("linear,1e-1,pbgi,0,3,", "linear,1e-1,pbgi,0,4,", 1)
                    .into_bytes();
            }
        }
        let dir = write_dir("statistic-bad", &files);
        let read = read_raw(&config, &results.rules, &dir);
        std::fs::remove_dir_all(&dir).unwrap();
        let err = read.unwrap_err();
        assert!(
            err.contains("statistic.csv") && err.contains("t = 3"),
            "{err}"
        );
    }
}
