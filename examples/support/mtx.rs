//! A small Matrix Market reader (coordinate, real, general or symmetric) into a dense array.
//! Shared by the examples and the test suite (`#[path]`-included), not part of the library.

use std::path::Path;

use ndarray::Array2;

/// Read a Matrix Market coordinate file into a dense f64 matrix; a `symmetric` file is
/// mirrored into both triangles.
pub fn read_dense(path: impl AsRef<Path>) -> Result<Array2<f64>, String> {
    let path = path.as_ref();
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut lines = text.lines();
    let header = lines.next().ok_or("empty file")?.to_ascii_lowercase();
    if !header.starts_with("%%matrixmarket matrix coordinate") {
        return Err(format!(
            "{}: not a coordinate Matrix Market file",
            path.display()
        ));
    }
    let symmetric = header.contains("symmetric");
    let mut lines = lines.filter(|l| !l.starts_with('%') && !l.trim().is_empty());
    let size: Vec<usize> = lines
        .next()
        .ok_or("no size line")?
        .split_whitespace()
        .map(|t| t.parse().map_err(|e| format!("size line: {e}")))
        .collect::<Result<_, _>>()?;
    let (m, n, nnz) = (size[0], size[1], size[2]);
    let mut a = Array2::<f64>::zeros((m, n));
    let mut count = 0;
    for line in lines {
        let t: Vec<&str> = line.split_whitespace().collect();
        let i: usize = t[0].parse().map_err(|e| format!("{line}: {e}"))?;
        let j: usize = t[1].parse().map_err(|e| format!("{line}: {e}"))?;
        let v: f64 = t[2].parse().map_err(|e| format!("{line}: {e}"))?;
        a[[i - 1, j - 1]] = v;
        if symmetric {
            a[[j - 1, i - 1]] = v;
        }
        count += 1;
    }
    if count != nnz {
        return Err(format!(
            "{}: expected {nnz} entries, read {count}",
            path.display()
        ));
    }
    Ok(a)
}
