//! The formula index `proofs-notes/INDEX.md` names files, items and note sections of the tree;
//! every one of them must exist, so that the index cannot silently rot when something moves.
//!
//! In the index's table rows, a code span that starts with a directory of the repository is a
//! reference: `path` (a file or directory), `path::name` (an item defined in the file: `fn`,
//! `struct`, `enum`, `trait`, `const`, `type` or `mod` `name`), or `path#text` (a Markdown
//! heading of the file containing `text`, backticks of the heading left out). Other code spans
//! (formulas) are not references. Every public function of the two crates has a row.
//!
//! The mathematics document `MATH.md` (repository root) is cited throughout the tree as
//! `MATH.md, "Heading"` or `MATH.md "Heading"`: every such quoted name must be a heading of it.
//! And every relative link of the README and of `docs/` must lead to a file of the repository.
use std::path::{Path, PathBuf};

/// The directories and root files a reference may start with (the repository's top level).
const ROOTS: [&str; 10] = [
    "reference/",
    "fast/",
    "conformance/",
    "proofs-notes/",
    "fixtures/",
    "bench/",
    "lab/",
    "python/",
    "docs/",
    "MATH.md",
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
            // `f_with` is `f` at an explicit accuracy; the fast crate's argument checks, its
            // report of the instruction-set path its slices took, and the reference's set-up of
            // MPFR's exponent range are not formulas.
            if name.ends_with("_with")
                || name.starts_with("check_argument")
                || name == "simd_path"
                || name.ends_with("widen_exponent_range")
            {
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

/// The directories never scanned for citations: build outputs, environments, version control.
const SKIPPED: [&str; 5] = ["target", ".venv", ".venv-bench", ".git", "node_modules"];

/// Every `.rs`, `.md` and `.py` file of the tree under `dir`, skipping [`SKIPPED`].
fn source_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if path.is_dir() {
            if !SKIPPED.contains(&name.as_ref()) {
                source_files(&path, out);
            }
        } else if ["rs", "md", "py"]
            .iter()
            .any(|ext| path.extension().is_some_and(|e| e == *ext))
        {
            out.push(path);
        }
    }
}

/// The names a Markdown file answers to as headings: each heading's text (backticks left out),
/// and for a heading `Name (ABBR)` also `Name` and `ABBR`.
fn heading_names(markdown: &str) -> Vec<String> {
    let mut names = Vec::new();
    for line in markdown.lines() {
        let Some(text) = line.strip_prefix('#') else {
            continue;
        };
        let text = text.trim_start_matches('#').trim().replace('`', "");
        if let Some(stripped) = text.strip_suffix(')') {
            if let Some((name, abbreviation)) = stripped.rsplit_once(" (") {
                names.push(name.to_string());
                names.push(abbreviation.to_string());
            }
        }
        names.push(text);
    }
    names
}

/// The text of a source file as prose: comment markers at the start of each line dropped,
/// escaped quotes unescaped and the lines joined by single spaces, so that a citation wrapped
/// over two comment lines reads as one.
fn as_prose(text: &str) -> String {
    let mut prose = String::new();
    for line in text.lines() {
        let line = line.trim_start();
        let line = ["//!", "///", "//", "#"]
            .iter()
            .find_map(|marker| line.strip_prefix(marker))
            .unwrap_or(line);
        prose.push_str(line.trim());
        prose.push(' ');
    }
    prose.replace("\\\"", "\"")
}

/// The headings cited in `prose`: the quoted name after each `MATH.md, "` or `MATH.md "`, and
/// the names chained after it (`"A" and "B"`, `"A", "B"`).
fn cited_headings(prose: &str) -> Vec<String> {
    let mut cited = Vec::new();
    for (at, _) in prose.match_indices("MATH.md") {
        let mut rest = &prose[at + "MATH.md".len()..];
        rest = rest.strip_prefix(',').unwrap_or(rest);
        rest = rest.strip_prefix(' ').unwrap_or(rest);
        while let Some(quoted) = rest.strip_prefix('"') {
            let Some(end) = quoted.find('"') else {
                cited.push(quoted.chars().take(60).collect());
                break;
            };
            cited.push(
                quoted[..end]
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" "),
            );
            rest = &quoted[end + 1..];
            rest = match (rest.strip_prefix(" and "), rest.strip_prefix(", ")) {
                (Some(next), _) | (None, Some(next)) if next.starts_with('"') => next,
                _ => break,
            };
        }
    }
    cited
}

#[test]
fn every_math_md_citation_names_a_heading_of_math_md() {
    let root = repository();
    let math = std::fs::read_to_string(root.join("MATH.md")).expect("MATH.md at the root");
    let headings = heading_names(&math);
    let mut files = Vec::new();
    source_files(&root, &mut files);
    let mut seen = 0;
    let mut broken = Vec::new();
    // This file's own examples are not citations.
    files.retain(|f| !f.ends_with("conformance/tests/formula_index.rs"));
    for file in &files {
        let Ok(text) = std::fs::read_to_string(file) else {
            continue;
        };
        for heading in cited_headings(&as_prose(&text)) {
            seen += 1;
            if !headings.contains(&heading) {
                let path = file.strip_prefix(&root).unwrap_or(file);
                broken.push(format!("{}: \"{heading}\"", path.display()));
            }
        }
    }
    assert!(
        seen > 40,
        "only {seen} citations of MATH.md headings found: has the citation form changed?"
    );
    assert!(
        broken.is_empty(),
        "citations of MATH.md sections that are not headings of MATH.md:\n{}",
        broken.join("\n")
    );
}

#[test]
fn a_citation_wrapped_over_comment_lines_is_read_whole() {
    let text = "//! (MATH.md, \"Gaussian\n//! building blocks\"), and MATH.md \"PBGI\"\n";
    assert_eq!(
        cited_headings(&as_prose(text)),
        ["Gaussian building blocks", "PBGI"]
    );
    let chained =
        "/// (MATH.md, \"Expected improvement\" and \"Pandora's\n/// Box\", \"Derivatives\")";
    assert_eq!(
        cited_headings(&as_prose(chained)),
        ["Expected improvement", "Pandora's Box", "Derivatives"]
    );
    let names = heading_names("## Pandora's Box Gittins index (PBGI)\n### `h` tails\n");
    for name in [
        "Pandora's Box Gittins index (PBGI)",
        "Pandora's Box Gittins index",
        "PBGI",
    ] {
        assert!(names.contains(&name.to_string()), "{name}");
    }
    assert!(names.contains(&"h tails".to_string()));
    assert!(!heading_names("## Theorem 1\n").contains(&"Theorem 2".to_string()));
}

/// The relative links of a Markdown text, as `(path, anchor)`: `](path#anchor)`, with an
/// empty path for a link into the same page; web addresses and `mailto:` are left out.
fn relative_links(markdown: &str) -> Vec<(String, String)> {
    markdown
        .match_indices("](")
        .filter_map(|(at, _)| {
            let rest = &markdown[at + 2..];
            let target = &rest[..rest.find(')')?];
            let target = target.split_whitespace().next().unwrap_or("");
            let (path, anchor) = target.split_once('#').unwrap_or((target, ""));
            let external = target.contains("://") || target.starts_with("mailto:");
            (!external && !target.is_empty()).then(|| (path.to_string(), anchor.to_string()))
        })
        .collect()
}

/// The anchors GitHub gives the headings of a Markdown text: the heading's text without
/// backticks, lower-cased, keeping letters, digits, spaces, `-` and `_`, spaces turned into
/// `-`; a repeated anchor gets `-1`, `-2`, ... Headings inside fenced code blocks do not count.
fn heading_anchors(markdown: &str) -> Vec<String> {
    let mut anchors = Vec::new();
    let mut repeats = std::collections::HashMap::new();
    let mut fenced = false;
    for line in markdown.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
        }
        let Some(text) = line.strip_prefix('#').filter(|_| !fenced) else {
            continue;
        };
        let slug: String = text
            .trim_start_matches('#')
            .trim()
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        let seen = repeats.entry(slug.clone()).or_insert(0u32);
        anchors.push(if *seen == 0 {
            slug
        } else {
            format!("{slug}-{seen}")
        });
        *seen += 1;
    }
    anchors
}

#[test]
fn every_relative_link_of_the_readme_and_docs_resolves() {
    let root = repository();
    let root_dir = root.canonicalize().expect("the repository");
    let mut pages = vec![root.join("README.md"), root.join("MATH.md")];
    source_files(&root.join("docs"), &mut pages);
    pages.retain(|p| p.extension().is_some_and(|e| e == "md"));
    assert!(pages.len() >= 4, "README.md, MATH.md and docs/: {pages:?}");
    let mut broken = Vec::new();
    let mut seen = 0;
    for page in &pages {
        let text = std::fs::read_to_string(page).expect("readable page");
        let dir = page.parent().expect("a page lies in a directory");
        let name = page
            .strip_prefix(&root)
            .unwrap_or(page)
            .display()
            .to_string();
        for (path, anchor) in relative_links(&text) {
            seen += 1;
            let target = if path.is_empty() {
                page.clone()
            } else {
                dir.join(&path)
            };
            let Some(target) = target
                .canonicalize()
                .ok()
                .filter(|t| t.starts_with(&root_dir))
            else {
                broken.push(format!("{name}: ({path}) is no file of the repository"));
                continue;
            };
            let markdown = target.extension().is_some_and(|e| e == "md");
            if anchor.is_empty() || !markdown {
                continue;
            }
            let headings = std::fs::read_to_string(&target).expect("readable target");
            if !heading_anchors(&headings).contains(&anchor) {
                broken.push(format!("{name}: ({path}#{anchor}) names no heading"));
            }
        }
    }
    assert!(seen > 20, "only {seen} relative links found");
    assert!(
        broken.is_empty(),
        "links of the README and docs/ that lead nowhere:\n{}",
        broken.join("\n")
    );
}

#[test]
fn relative_links_and_anchors_are_read_as_github_does() {
    let text = "[a](docs/a.md) [b](https://x.org/y) [c](#top) [d](../MATH.md#theorem-1 \"t\")";
    let links = relative_links(text);
    let expected = [("docs/a.md", ""), ("", "top"), ("../MATH.md", "theorem-1")];
    assert_eq!(links.len(), expected.len());
    for ((path, anchor), (p, a)) in links.iter().zip(expected) {
        assert_eq!((path.as_str(), anchor.as_str()), (p, a));
    }
    let page = "# Pandora's Box Gittins index (PBGI)\n## `pbgi check`\n## Notes\n## Notes\n```\n# not a heading\n```\n";
    assert_eq!(
        heading_anchors(page),
        [
            "pandoras-box-gittins-index-pbgi",
            "pbgi-check",
            "notes",
            "notes-1"
        ]
    );
}
