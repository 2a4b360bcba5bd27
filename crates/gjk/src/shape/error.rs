use core::fmt;

/// Why a shape could not be built. Shapes are validated once, at construction, so queries never see bad input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShapeError {
    /// A coordinate or size is NaN or infinite (names the parameter).
    NonFinite(&'static str),
    /// A size that must be at least zero is negative (names the parameter).
    Negative(&'static str),
    /// A point set is empty.
    Empty,
    /// The parameters do not describe a shape (explains why).
    Invalid(&'static str),
}

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShapeError::NonFinite(what) => write!(f, "{what} is not finite (NaN or infinite)"),
            ShapeError::Negative(what) => write!(f, "{what} is negative"),
            ShapeError::Empty => write!(f, "the point set is empty"),
            ShapeError::Invalid(why) => write!(f, "invalid shape: {why}"),
        }
    }
}

impl core::error::Error for ShapeError {}
