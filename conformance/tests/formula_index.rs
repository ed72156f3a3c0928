//! The formula index `proofs-notes/INDEX.md` names files, items and note sections of the tree;
//! every one of them must exist, so that the index cannot silently rot when something moves.
//!
//! In the index's table rows, a code span that starts with a directory of the repository is a
//! reference: `path` (a file or directory), `path::name` (an item defined in the file: `fn`,
//! `struct`, `enum`, `trait`, `const`, `type` or `mod` `name`), or `path#text` (a Markdown
//! heading of the file containing `text`, backticks of the heading left out). Other code spans
//! (formulas) are not references. Every public function of the two crates has a row.
use std::path::{Path, PathBuf};

/// The directories a reference may start with (the repository's top level).
const ROOTS: [&str; 9] = [
    "reference/",
    "fast/",
    "conformance/",
    "proofs-notes/",
    "fixtures/",
    "bench/",
    "lab/",
    "python/",
    "shared/",
];

fn repository() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The code spans of a line (text between pairs of single backticks).
fn code_spans(line: &str) -> Vec<&str> {
    line.split('`').skip(1).step_by(2).collect()
}

/// Why `reference` does not resolve in the repository at `root`, if it does not.
fn unresolved(root: &Path, reference: &str) -> Option<String> {
    let (path, item, heading) = if let Some((path, item)) = reference.split_once("::") {
        (path, Some(item), None)
    } else if let Some((path, heading)) = reference.split_once('#') {
        (path, None, Some(heading))
    } else {
        (reference, None, None)
    };
    let file = root.join(path);
    if !file.exists() {
        return Some(format!("`{path}` does not exist"));
    }
    if item.is_none() && heading.is_none() {
        return None;
    }
    let text = match std::fs::read_to_string(&file) {
        Ok(text) => text,
        Err(e) => return Some(format!("`{path}` cannot be read: {e}")),
    };
    if let Some(item) = item {
        let defined = ["fn", "struct", "enum", "trait", "const", "type", "mod"]
            .iter()
            .any(|keyword| {
                let head = format!("{keyword} {item}");
                text.match_indices(&head).any(|(at, _)| {
                    let next = text[at + head.len()..].chars().next();
                    !matches!(next, Some(c) if c.is_alphanumeric() || c == '_')
                })
            });
        if !defined {
            return Some(format!("`{path}` defines no item `{item}`"));
        }
    }
    if let Some(heading) = heading {
        let found = text
            .lines()
            .filter(|l| l.starts_with('#'))
            .any(|l| l.replace('`', "").contains(heading));
        if !found {
            return Some(format!("`{path}` has no heading containing `{heading}`"));
        }
    }
    None
}

/// Every reference in the table rows of the index at `root`, with its line number.
fn references(root: &Path) -> Vec<(usize, String)> {
    let index = std::fs::read_to_string(root.join("proofs-notes/INDEX.md"))
        .expect("proofs-notes/INDEX.md exists");
    index
        .lines()
        .enumerate()
        .filter(|(_, line)| line.starts_with('|'))
        .flat_map(|(i, line)| {
            code_spans(line)
                .into_iter()
                .filter(|span| ROOTS.iter().any(|root| span.starts_with(root)))
                .map(move |span| (i + 1, span.to_string()))
        })
        .collect()
}

#[test]
fn every_path_item_and_section_named_in_the_index_exists() {
    let root = repository();
    let references = references(&root);
    assert!(
        references.len() > 100,
        "only {} references found: is the index still a table of code spans?",
        references.len()
    );
    let broken: Vec<String> = references
        .iter()
        .filter_map(|(line, reference)| {
            unresolved(&root, reference)
                .map(|why| format!("proofs-notes/INDEX.md line {line}: {why}"))
        })
        .collect();
    assert!(
        broken.is_empty(),
        "the formula index names what is not in the tree (update proofs-notes/INDEX.md):\n{}",
        broken.join("\n")
    );
}

#[test]
fn every_row_names_a_test() {
    let root = repository();
    let index = std::fs::read_to_string(root.join("proofs-notes/INDEX.md")).expect("exists");
    let rows: Vec<&str> = index
        .lines()
        .filter(|l| l.starts_with('|') && !l.starts_with("|---") && !l.starts_with("| formula"))
        .collect();
    assert!(rows.len() >= 20, "{} formula rows", rows.len());
    for row in rows {
        let tests = row.rsplit('|').nth(1).expect("a last cell");
        assert!(
            code_spans(tests)
                .iter()
                .any(|span| ROOTS.iter().any(|root| span.starts_with(root))),
            "a row without a test: {row}"
        );
    }
}

/// The public functions a crate re-exports from its formula modules (`pub use module::{...}`
/// in `src/lib.rs`): `(module, name)`, functions only (lower-case names).
fn public_functions(root: &Path, krate: &str) -> Vec<(String, String)> {
    let lib = std::fs::read_to_string(root.join(krate).join("src/lib.rs")).expect("lib.rs");
    let mut out = Vec::new();
    for statement in lib.split("pub use ").skip(1) {
        let statement = &statement[..statement.find(';').unwrap_or(statement.len())];
        let Some((module, names)) = statement.split_once("::") else {
            continue;
        };
        for name in names
            .trim_matches(|c: char| c == '{' || c == '}' || c.is_whitespace())
            .split(',')
        {
            let name = name.trim();
            if name.starts_with(|c: char| c.is_ascii_lowercase()) {
                out.push((module.trim().to_string(), name.to_string()));
            }
        }
    }
    out
}

#[test]
fn every_public_function_of_both_crates_has_a_row() {
    let root = repository();
    let index = std::fs::read_to_string(root.join("proofs-notes/INDEX.md")).expect("exists");
    let mut missing = Vec::new();
    let mut seen = 0;
    for krate in ["reference", "fast"] {
        for (module, name) in public_functions(&root, krate) {
            // `f_with` is `f` at an explicit accuracy; the fast crate's argument checks are not
            // formulas.
            if name.ends_with("_with") || name.starts_with("check_argument") {
                continue;
            }
            seen += 1;
            let reference = format!("`{krate}/src/{module}.rs::{name}`");
            if !index.contains(&reference) {
                missing.push(reference);
            }
        }
    }
    assert!(
        seen > 30,
        "only {seen} public functions found: has lib.rs changed form?"
    );
    assert!(
        missing.is_empty(),
        "public functions without a row in proofs-notes/INDEX.md: {}",
        missing.join(", ")
    );
}

#[test]
fn a_missing_path_item_or_section_is_reported() {
    let root = repository();
    assert!(unresolved(&root, "fast/src/ei.rs::ei").is_none());
    assert!(unresolved(&root, "proofs-notes/stopping-equivalence.md#Step 2").is_none());
    assert!(unresolved(&root, "fast/src/no_such_file.rs").is_some());
    assert!(unresolved(&root, "fast/src/ei.rs::no_such_function").is_some());
    // A prefix of a longer name is not the item: `ei` is not `ei_slice`'s definition.
    assert!(unresolved(&root, "fast/src/log_ei.rs::log_ei_sl").is_some());
    assert!(unresolved(&root, "proofs-notes/stopping-equivalence.md#Step 99").is_some());
}
