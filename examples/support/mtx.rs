//! Matrix Market files into dense arrays, through `sprs::io::read_matrix_market` (coordinate
//! format; real or integer values; general, symmetric or skew-symmetric). Shared by the examples
//! and the test suite (`#[path]`-included), not part of the library.

use std::path::Path;

use ndarray::Array2;
use sprs::io::IoError;
use sprs::num_kinds::NumKind;

/// Read a Matrix Market coordinate file into a dense f64 matrix. A `symmetric` file is mirrored
/// into both triangles, a `skew-symmetric` one with the opposite sign; repeated entries are
/// summed. Integer values are converted to f64.
///
/// # Errors
/// A message naming the file and what is wrong: unreadable file, pattern or complex data (no
/// real values to give), a bad header or size line, an index below one (Matrix Market counts
/// from one) or past the size line's dimensions, a missing or unreadable value, fewer entries
/// than the size line says, or a diagonal entry in a skew-symmetric file.
pub fn read_dense(path: impl AsRef<Path>) -> Result<Array2<f64>, String> {
    let path = path.as_ref();
    match read::<f64>(path, |v| v) {
        Err(Some(IoError::MismatchedMatrixMarketRead(_, NumKind::Integer))) => {
            read::<i64>(path, |v| v as f64)
        }
        other => other,
    }
    .map_err(|e| explain(path, e))
}

/// The dense matrix, or `Err(Some(sprs's error))`, or `Err(None)` where sprs panicked: sprs
/// 0.11's `TriMatI::from_triplets` asserts that every index is inside the size line's
/// dimensions (the panic message is printed; the caller gets an error).
fn read<N>(path: &Path, to_f64: fn(N) -> f64) -> Result<Array2<f64>, Option<IoError>>
where
    N: sprs::num_kinds::PrimitiveKind
        + sprs::num_matrixmarket::MatrixMarketRead
        + sprs::num_matrixmarket::MatrixMarketConjugate
        + std::ops::Neg<Output = N>
        + Copy,
{
    let tri = std::panic::catch_unwind(|| sprs::io::read_matrix_market::<N, usize, _>(path))
        .map_err(|_| None)?
        .map_err(Some)?;
    let mut a = Array2::<f64>::zeros((tri.rows(), tri.cols()));
    for (&v, (i, j)) in tri.triplet_iter() {
        a[[i, j]] += to_f64(v);
    }
    Ok(a)
}

fn explain(path: &Path, err: Option<IoError>) -> String {
    let file = path.display();
    match err {
        None => {
            format!("{file}: an entry's row or column index is past the size line's dimensions")
        }
        Some(IoError::Io(e)) => format!("{file}: {e}"),
        Some(IoError::MismatchedMatrixMarketRead(_, NumKind::Pattern)) => {
            format!("{file}: a pattern file (indices, no values): a real matrix is needed")
        }
        Some(IoError::MismatchedMatrixMarketRead(_, NumKind::Complex)) => {
            format!("{file}: a complex matrix: only real (or integer) matrices can be read")
        }
        Some(IoError::MismatchedMatrixMarketRead(want, got)) => {
            format!("{file}: {got} values where {want} values were expected")
        }
        Some(IoError::BadMatrixMarketFile | IoError::UnsupportedMatrixMarketFormat) => format!(
            "{file}: not a valid Matrix Market coordinate file: a bad header or size line \
             (`rows cols entries`), an index below 1 (Matrix Market counts from 1), a missing \
             or unreadable value, fewer entries than the size line says, or a diagonal entry in \
             a skew-symmetric file"
        ),
    }
}
