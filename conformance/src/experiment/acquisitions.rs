//! The acquisition functions compared in the experiment (stopping paper, §4: LogEIPC, PBGI,
//! LCB, TS), by name. They are the simulator's (issue 6); LCB uses the paper's schedule
//! (App. B: `δ = 0.1`, scale-down 5) in dimension 1.
use crate::bo::{Acquisition, Lcb, LogEipc, Pbgi, Thompson};

/// Acquisition names the experiment accepts.
pub const ACQUISITION_NAMES: &[&str] = &["PBGI", "LogEIPC", "LCB", "TS"];

/// The acquisition called `name`, or an error listing the known names.
pub fn make_acquisition(name: &str) -> Result<Box<dyn Acquisition>, String> {
    match name {
        "PBGI" => Ok(Box::new(Pbgi)),
        "LogEIPC" => Ok(Box::new(LogEipc)),
        "LCB" => Ok(Box::new(Lcb::paper(1))),
        "TS" => Ok(Box::new(Thompson)),
        other => Err(format!(
            "unknown acquisition `{other}`; known: {}",
            ACQUISITION_NAMES.join(", ")
        )),
    }
}
