//! The one progress display of the lab: a bar on standard error, hidden when standard error is
//! not a terminal (so logs and pipes stay clean). Timings go here and to the terminal only,
//! never into result files, which must not depend on the machine or the thread count.
use indicatif::{ProgressBar, ProgressStyle};

/// A progress bar counting `unit`s.
pub struct Progress {
    bar: ProgressBar,
}

impl Progress {
    /// A bar for `total` units (`visible = false`: nothing is drawn).
    pub fn new(total: usize, unit: &str, visible: bool) -> Progress {
        let bar = if visible {
            ProgressBar::new(total as u64)
        } else {
            ProgressBar::hidden()
        };
        let template =
            format!("{{elapsed_precise}} [{{bar:40}}] {{pos}}/{{len}} {unit} (eta {{eta}})");
        if let Ok(style) = ProgressStyle::with_template(&template) {
            bar.set_style(style.progress_chars("=> "));
        }
        Progress { bar }
    }

    /// One more unit done (callable from worker threads).
    pub fn tick(&self) {
        self.bar.inc(1);
    }

    /// Removes the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
