//! The one error of the `*_slice` functions: slices of different lengths (checked before
//! anything is written).

/// Slices passed to a `*_slice` function have different lengths; nothing was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SliceLengthError {
    /// `(argument name, length)` for every slice, in argument order.
    pub lengths: Vec<(&'static str, usize)>,
}

impl SliceLengthError {
    pub(crate) fn check(lengths: &[(&'static str, usize)]) -> Result<(), SliceLengthError> {
        let n = lengths[0].1;
        if lengths.iter().all(|&(_, l)| l == n) {
            Ok(())
        } else {
            Err(SliceLengthError {
                lengths: lengths.to_vec(),
            })
        }
    }
}

impl core::fmt::Display for SliceLengthError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "slice lengths differ:")?;
        for (name, len) in &self.lengths {
            write!(f, " {name}={len}")?;
        }
        Ok(())
    }
}

impl std::error::Error for SliceLengthError {}
