//! `pbgi fixtures`: regenerates or verifies the golden files `fixtures/<function>.csv` and the
//! edge-case files `fixtures/edges/<function>.csv`.
//!
//! ```text
//! pbgi fixtures --write  [--dir fixtures]
//! pbgi fixtures --verify [--dir fixtures]
//! ```
//!
//! `--verify` exits with status 1 and names the first differing line when a checked-in file
//! differs from what the reference produces now. `--write` replaces each file atomically (a file
//! is either the old or the complete new one).
use crate::io;
use crate::CliResult;
use pbgi_conformance::fixtures_gen::Fixture;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `pbgi fixtures`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Regenerate every fixture file from the reference.
    #[arg(long, conflicts_with = "verify", required_unless_present = "verify")]
    pub write: bool,
    /// Check that every fixture file is what the reference produces now.
    #[arg(long)]
    pub verify: bool,
    /// The fixture directory.
    #[arg(long, default_value = "fixtures")]
    pub dir: PathBuf,
}

/// Runs `pbgi fixtures`.
pub fn run(args: Args) -> CliResult {
    let mut out = io::Stdout::lock();
    if args.write {
        io::ensure_writable_dir(&args.dir.join("edges"))?;
        for fixture in Fixture::all() {
            let path = args.dir.join(fixture.file_name());
            let text = fixture.generate()?;
            io::write_atomic(&path, text.as_bytes())?;
            out.print(&format!(
                "wrote {} ({} rows)\n",
                path.display(),
                text.lines().filter(|l| !l.starts_with('#')).count() - 1
            ))?;
            out.flush()?;
        }
        out.finish()?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut all_match = true;
    for fixture in Fixture::all() {
        match fixture.difference(&args.dir)? {
            None => out.print(&format!(
                "{}: matches the reference\n",
                args.dir.join(fixture.file_name()).display()
            ))?,
            Some(message) => {
                out.print(&format!("{message}\n"))?;
                all_match = false;
            }
        }
        out.flush()?;
    }
    out.finish()?;
    Ok(if all_match {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
