//! `pbgi fixtures`: regenerates or verifies the golden files `fixtures/<function>.csv`.
//!
//! ```text
//! pbgi fixtures --write  [--dir fixtures]
//! pbgi fixtures --verify [--dir fixtures]
//! ```
//!
//! `--verify` exits with status 1 and names the first differing line when a checked-in file
//! differs from what the reference produces now.
use super::CliResult;
use crate::fixtures_gen;
use crate::function::Function;
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
    if args.write {
        std::fs::create_dir_all(&args.dir)
            .map_err(|e| format!("cannot create {}: {e}", args.dir.display()))?;
        for function in Function::ALL {
            let path = args.dir.join(fixtures_gen::file_name(function));
            let text = fixtures_gen::generate(function)?;
            std::fs::write(&path, &text)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            println!(
                "wrote {} ({} rows)",
                path.display(),
                text.lines().filter(|l| !l.starts_with('#')).count() - 1
            );
        }
        return Ok(ExitCode::SUCCESS);
    }
    let mut all_match = true;
    for function in Function::ALL {
        match fixtures_gen::difference(function, &args.dir)? {
            None => println!(
                "{}: matches the reference",
                args.dir.join(fixtures_gen::file_name(function)).display()
            ),
            Some(message) => {
                println!("{message}");
                all_match = false;
            }
        }
    }
    Ok(if all_match {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
