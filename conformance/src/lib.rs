//! Conformance machinery, a library: the oracle's dispatch to either engine ([`oracle`]), the
//! grading of results against it ([`check_report`], [`tolerances`], [`edges`]), the
//! fast-vs-reference cross-check ([`cross_check`]), the CSV reader and writer ([`csv_io`]) with
//! their input bounds ([`limits`]), the golden fixtures ([`fixtures_gen`]) and the Pandora's Box
//! report ([`pandora`]). The `pbgi` command line (crate `pbgi-cli`) and the Python extension
//! (`pbgi-python`) are doors onto it; it depends on neither.
pub mod check_report;
pub mod cross_check;
pub mod csv_io;
pub mod csv_row;
pub mod decimal;
pub mod edges;
pub mod error_stats;
pub mod fixtures_gen;
pub mod function;
pub mod inputs;
pub mod limits;
pub mod oracle;
pub mod pandora;
pub mod regions;
pub mod text_table;
pub mod tolerances;
pub mod ulp;
