//! BLAS flag arguments: `trans`, `uplo`, `diag`, `side`.

/// `trans`: whether an operand is used as stored (`op(A) = A`) or transposed (`op(A) = Aᵀ`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Transpose {
    /// `op(A) = A` (BLAS `'N'`).
    No,
    /// `op(A) = Aᵀ` (BLAS `'T'`; for real data `'C'` is the same).
    Yes,
}

/// `uplo`: which triangle of a triangular or symmetric matrix is referenced.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Uplo {
    /// The upper triangle (BLAS `'U'`).
    Upper,
    /// The lower triangle (BLAS `'L'`).
    Lower,
}

/// `diag`: whether a triangular matrix has an implicit unit diagonal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Diag {
    /// The diagonal is read from the matrix (BLAS `'N'`).
    NonUnit,
    /// The diagonal is taken as ones and never read (BLAS `'U'`).
    Unit,
}

/// `side`: whether the special operand multiplies from the left or the right.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    /// `op(A)·B` (BLAS `'L'`).
    Left,
    /// `B·op(A)` (BLAS `'R'`).
    Right,
}

impl Transpose {
    /// The other value.
    pub fn flip(self) -> Self {
        match self {
            Transpose::No => Transpose::Yes,
            Transpose::Yes => Transpose::No,
        }
    }
}

impl Uplo {
    /// The other triangle: the triangle `uplo` of `A` is the triangle `uplo.flip()` of `Aᵀ`.
    pub fn flip(self) -> Self {
        match self {
            Uplo::Upper => Uplo::Lower,
            Uplo::Lower => Uplo::Upper,
        }
    }
}

impl Side {
    /// The other side: `A·B = (Bᵀ·Aᵀ)ᵀ`.
    pub fn flip(self) -> Self {
        match self {
            Side::Left => Side::Right,
            Side::Right => Side::Left,
        }
    }
}
