//! Conformance machinery: fast-vs-reference cross-checks and the `pbgi` CLI (whose `validate`,
//! `experiment` and `merge` subcommands open onto the simulation lab, `pbgi-lab`).
pub mod check_report;
pub mod cli;
pub mod cross_check;
pub mod csv_io;
pub mod csv_row;
pub mod decimal;
pub mod edges;
pub mod error_stats;
pub mod fixtures_gen;
pub mod function;
pub mod inputs;
pub mod oracle;
pub mod regions;
pub mod text_table;
pub mod tolerances;
pub mod ulp;
