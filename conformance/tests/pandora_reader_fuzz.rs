//! Fuzzing the Pandora instance reader (`read_instance_file`, what `pbgi pandora` calls):
//! arbitrary bytes, byte-level damage to valid files and structure-aware mutations of valid
//! instances never panic, and always give an instance or an error that names the file and then
//! the place: line and column for a syntax error, box and field for a content error (the box
//! that was mutated). A sample of the instances that read is then solved by both engines:
//! a result or an error, never a panic. Bounded case counts; seeds printed
//! (`PANDORA_SEED=<u64>` replays).
mod common;

use common::{pandora_runner as runner, pandora_seed as seed};
use pbgi_conformance::pandora::format::read_instance_file;
use pbgi_conformance::pandora::report::{instance_report, parse_tie, Exact};
use pbgi_conformance::pandora::Engine;
use proptest::prelude::*;
use std::cell::Cell;
use std::path::{Path, PathBuf};

/// A scratch file per test (tests run in parallel).
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pbgi-pandora-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(format!("{test}.json"))
}

/// Reads `bytes` through a file; on error checks that the message names the file and a place.
/// Returns the error message, or `None` when an instance was read.
fn read(path: &Path, bytes: &[u8]) -> Result<Option<String>, TestCaseError> {
    std::fs::write(path, bytes).unwrap();
    match read_instance_file(path) {
        Ok(_) => Ok(None),
        Err(message) => {
            let names_file = message.contains(&path.display().to_string());
            let syntax = message.contains("line ") && message.contains(", column ");
            let content = message.contains("field \"");
            let encoding = message.contains("is not valid UTF-8");
            prop_assert!(
                names_file && (syntax || content || encoding),
                "error without file and place: {}",
                message
            );
            prop_assert!(!message.contains('\n'), "multi-line error: {}", message);
            Ok(Some(message))
        }
    }
}

const VALID: &str = r#"{
  "description": "base instance for mutations",
  "outside": "1/2",
  "boxes": [
    { "name": "a", "cost": "1/4", "values": [0, 2], "probs": ["1/2", "1/2"] },
    { "cost": 0.1, "normal": { "mean": 0, "sd": 1 } },
    { "name": "c", "cost": 0.3, "values": ["-1", "1/2", 3], "probs": [0.2, 0.3, "1/2"] }
  ]
}"#;

#[test]
fn arbitrary_bytes_never_panic() {
    let seed = seed();
    let path = scratch("arbitrary_bytes");
    runner(1500, seed)
        .run(&prop::collection::vec(any::<u8>(), 0..200), |bytes| {
            read(&path, &bytes).map(|_| ())
        })
        .unwrap_or_else(|e| panic!("PANDORA_SEED={seed}: {e}"));
}

/// Truncations, insertions, deletions and byte replacements of a valid instance.
#[test]
fn damaged_files_never_panic() {
    let seed = seed();
    let path = scratch("damaged_files");
    let base = VALID.as_bytes().to_vec();
    let edit = (0usize..4, 0usize..base.len(), any::<u8>(), 1usize..20);
    runner(1500, seed)
        .run(&prop::collection::vec(edit, 1..4), |edits| {
            let mut bytes = base.clone();
            for (kind, at, byte, length) in edits {
                let at = at.min(bytes.len());
                match kind {
                    0 => bytes.truncate(at),
                    1 => bytes.insert(at, byte),
                    2 => {
                        let end = (at + length).min(bytes.len());
                        bytes.drain(at..end);
                    }
                    _ => {
                        if at < bytes.len() {
                            bytes[at] = byte;
                        }
                    }
                }
            }
            read(&path, &bytes).map(|_| ())
        })
        .unwrap_or_else(|e| panic!("PANDORA_SEED={seed}: {e}"));
}

/// Values a field may be given: valid and invalid numbers of every shape, and wrong types.
fn odd_value() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "0",
        "-0",
        "1",
        "-1",
        "0.5",
        "\"3/10\"",
        "\"-6/4\"",
        "1e999",
        "-1e999",
        "1e-999",
        "\"1e1000\"",
        "\"1e-1000\"",
        "\"1e1001\"",
        "1e308",
        "1e-320",
        "\"1/0\"",
        "\"0/1\"",
        "\"NaN\"",
        "\"inf\"",
        "\"0x10\"",
        "\" 1\"",
        "\"\"",
        "\"1/3\"",
        "\"2/3\"",
        "123456789012345678901234567890123456789",
        "\"1e-40\"",
        "\"1e-300\"",
        "null",
        "true",
        "[]",
        "[1]",
        "[0, 1]",
        "[\"1/2\", \"1/2\"]",
        "[1, 1]",
        "[0.25, 0.75]",
        "{}",
        "{\"mean\": 0}",
        "{\"mean\": 0, \"sd\": 0}",
        "{\"mean\": 1e300, \"sd\": 1e-300}",
        "{\"mean\": 0, \"sd\": \"1e-400\"}",
        "{\"mean\": \"1e400\", \"sd\": 1}",
        "\"a\\u0000b\"",
        "\"1\\n2\"",
        "[[[[[[[[[[[[]]]]]]]]]]]]",
    ])
    .prop_map(String::from)
}

/// A box as `(field, JSON text)` pairs before mutation.
fn base_box(i: usize) -> Vec<(String, String)> {
    let fields: &[(&str, &str)] = match i % 3 {
        0 => &[
            ("name", "\"a\""),
            ("cost", "\"1/4\""),
            ("values", "[0, 2]"),
            ("probs", "[\"1/2\", \"1/2\"]"),
        ],
        1 => &[("cost", "0.1"), ("normal", "{\"mean\": 0, \"sd\": 1}")],
        _ => &[
            ("cost", "0.3"),
            ("values", "[\"-1\", \"1/2\", 3]"),
            ("probs", "[0.2, 0.3, \"1/2\"]"),
        ],
    };
    fields
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

#[derive(Clone, Debug)]
enum Mutation {
    Replace(usize, String),
    Remove(usize),
    Add(String, String),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let field = prop::sample::select(vec![
        "name", "cost", "values", "probs", "normal", "mean", "sd", "colour", "a\\nb",
    ]);
    prop_oneof![
        (0usize..5, odd_value()).prop_map(|(k, v)| Mutation::Replace(k, v)),
        (0usize..5).prop_map(Mutation::Remove),
        (field, odd_value()).prop_map(|(k, v)| Mutation::Add(k.to_string(), v)),
    ]
}

fn render_box(fields: &[(String, String)]) -> String {
    let members: Vec<String> = fields
        .iter()
        .map(|(k, v)| format!("\"{k}\": {v}"))
        .collect();
    format!("{{ {} }}", members.join(", "))
}

/// Mutations of one box's fields (values of every shape, removed fields, unknown or duplicated
/// fields) and of the outside option: a content error names the mutated box (or the outside
/// option) and a field.
#[test]
fn mutated_instances_name_the_box_and_field() {
    let seed = seed();
    let path = scratch("mutated_instances");
    let strategy = (
        1usize..5,
        0usize..5,
        prop::collection::vec(mutation(), 1..4),
        prop::option::of(odd_value()),
    );
    let (read_ok, errors) = (Cell::new(0u32), Cell::new(0u32));
    runner(2000, seed)
        .run(&strategy, |(boxes, target, mutations, outside)| {
            let target = target % boxes;
            let mut rendered = Vec::new();
            for i in 0..boxes {
                let mut fields = base_box(i);
                if i == target {
                    for m in &mutations {
                        match m {
                            Mutation::Replace(k, v) if !fields.is_empty() => {
                                let k = k % fields.len();
                                fields[k].1 = v.clone();
                            }
                            Mutation::Remove(k) if !fields.is_empty() => {
                                fields.remove(k % fields.len());
                            }
                            Mutation::Add(k, v) => fields.push((k.clone(), v.clone())),
                            _ => {}
                        }
                    }
                }
                rendered.push(render_box(&fields));
            }
            let outside = outside.unwrap_or_else(|| "\"1/2\"".into());
            let text = format!(
                "{{\"outside\": {outside},\n \"boxes\": [\n{}\n]}}",
                rendered.join(",\n")
            );
            match read(&path, text.as_bytes())? {
                None => read_ok.set(read_ok.get() + 1),
                Some(message) => {
                    errors.set(errors.get() + 1);
                    let syntax = message.contains(", column ");
                    let about_outside = message.contains("field \"outside\"");
                    let about_box = message.contains(&format!(": box {target}: field \""));
                    prop_assert!(
                        syntax || about_outside || about_box,
                        "error does not name box {} (or the outside option): {}",
                        target,
                        message
                    );
                }
            }
            Ok(())
        })
        .unwrap_or_else(|e| panic!("PANDORA_SEED={seed}: {e}"));
    let (read_ok, errors) = (read_ok.get(), errors.get());
    eprintln!("mutated instances: {read_ok} read, {errors} refused");
    assert!(
        read_ok > 50 && errors > 500,
        "{read_ok} read, {errors} refused"
    );
}

/// Instances that read are solved by both engines (and the simulator): a report or an error,
/// never a panic. Few cases: the reference evaluation of a normal box takes a fraction of a
/// second.
#[test]
fn instances_that_read_are_solved_without_panic() {
    let seed = seed();
    let path = scratch("solved_instances");
    let strategy = (
        prop::sample::select(vec!["cost", "mean", "sd", "outside"]),
        odd_value(),
    );
    let (solved, refused) = (Cell::new(0u32), Cell::new(0u32));
    runner(40, seed)
        .run(&strategy, |(field, value)| {
            let (cost, mean, sd, outside) = match field {
                "cost" => (value.as_str(), "0", "1", "0"),
                "mean" => ("0.1", value.as_str(), "1", "0"),
                "sd" => ("0.1", "0", value.as_str(), "0"),
                _ => ("0.1", "0", "1", value.as_str()),
            };
            let text = format!(
                r#"{{"outside": {outside}, "boxes": [
                    {{"cost": {cost}, "normal": {{"mean": {mean}, "sd": {sd}}}}},
                    {{"cost": {cost}, "values": [{mean}, 1], "probs": ["1/2", "1/2"]}}]}}"#
            );
            std::fs::write(&path, &text).unwrap();
            let Ok(file) = read_instance_file(&path) else {
                return Ok(());
            };
            for engine in [Engine::Reference, Engine::Fast] {
                let tie = parse_tie("early").unwrap();
                match instance_report("x", &file, &tie, None, engine, &mut Exact::quiet()) {
                    Ok(_) => solved.set(solved.get() + 1),
                    Err(message) => {
                        refused.set(refused.get() + 1);
                        prop_assert!(message.contains("field \""), "{}: {}", text, message);
                    }
                }
            }
            Ok(())
        })
        .unwrap_or_else(|e| panic!("PANDORA_SEED={seed}: {e}"));
    eprintln!(
        "solved {}, refused with a named field {}",
        solved.get(),
        refused.get()
    );
}
