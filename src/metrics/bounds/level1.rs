//! Bounds of the Level 1 routines.

use ndarray::{Array1, ArrayView1, Zip};

use crate::metrics::shared::term;

/// `saxpy` (`y ← alpha·x + y`): `bound_i = |alpha·x_i| + |y_i|`.
///
/// # Panics
/// When `x` and `y` have different lengths.
pub fn axpy(alpha: f32, x: ArrayView1<'_, f32>, y: ArrayView1<'_, f32>) -> Array1<f64> {
    assert_eq!(x.len(), y.len(), "bounds::axpy: x and y lengths differ");
    let alpha = f64::from(alpha);
    Zip::from(x)
        .and(y)
        .map_collect(|&xi, &yi| term(alpha, f64::from(xi)) + f64::from(yi).abs())
}

/// `sdot` (`Σ x_i·y_i`): `bound = n · Σ_i |x_i·y_i|`, `n = len(x)`; 0 for empty vectors.
/// Compare with [`forward_factor_scalar`].
///
/// # Panics
/// When `x` and `y` have different lengths.
///
/// [`forward_factor_scalar`]: crate::metrics::forward_factor_scalar
pub fn dot(x: ArrayView1<'_, f32>, y: ArrayView1<'_, f32>) -> f64 {
    assert_eq!(x.len(), y.len(), "bounds::dot: x and y lengths differ");
    let sum: f64 = x
        .iter()
        .zip(y.iter())
        .map(|(&xi, &yi)| (f64::from(xi) * f64::from(yi)).abs())
        .sum();
    x.len() as f64 * sum
}

/// `srot` (`x_i ← c·x_i + s·y_i`, `y_i ← c·y_i − s·x_i`): the bounds of the new x and the new
/// y, `(|c·x_i| + |s·y_i|, |c·y_i| + |s·x_i|)`.
///
/// # Panics
/// When `x` and `y` have different lengths.
pub fn rot(
    c: f32,
    s: f32,
    x: ArrayView1<'_, f32>,
    y: ArrayView1<'_, f32>,
) -> (Array1<f64>, Array1<f64>) {
    let (c, s) = (f64::from(c), f64::from(s));
    plane("rot", [[c, s], [s, c]], x, y)
}

/// The bounds of `(x, y) ← H·(x, y)` for a 2×2 `h` (in f64): `Σ_j |h_ij|·|v_j|` per element
/// (the rotation's terms, as `term` weighs them), for [`rot`] and [`rotm`].
fn plane(
    routine: &str,
    [[h11, h12], [h21, h22]]: [[f64; 2]; 2],
    x: ArrayView1<'_, f32>,
    y: ArrayView1<'_, f32>,
) -> (Array1<f64>, Array1<f64>) {
    assert_eq!(
        x.len(),
        y.len(),
        "bounds::{routine}: x and y lengths differ"
    );
    let bx = Zip::from(x)
        .and(y)
        .map_collect(|&xi, &yi| term(h11, f64::from(xi)) + term(h12, f64::from(yi)));
    let by = Zip::from(x)
        .and(y)
        .map_collect(|&xi, &yi| term(h21, f64::from(xi)) + term(h22, f64::from(yi)));
    (bx, by)
}

/// The matrix `H = [[h11, h12], [h21, h22]]` that BLAS `srotm` applies
/// (`x_i ← h11·x_i + h12·y_i`, `y_i ← h21·x_i + h22·y_i`), decoded from
/// `param = [flag, h11, h21, h12, h22]` as the reference BLAS does:
///
/// | flag | H |
/// |---|---|
/// | −2 | identity (srotm returns at once) |
/// | −1 | `[[p1, p3], [p2, p4]]` |
/// | 0 | `[[1, p3], [p2, 1]]` |
/// | 1 | `[[p1, 1], [−1, p4]]` |
///
/// `None` for any other flag (NaN included).
pub fn rotm_matrix(param: [f32; 5]) -> Option<[[f32; 2]; 2]> {
    let [flag, h11, h21, h12, h22] = param;
    if flag == -2.0 {
        Some([[1.0, 0.0], [0.0, 1.0]])
    } else if flag == -1.0 {
        Some([[h11, h12], [h21, h22]])
    } else if flag == 0.0 {
        Some([[1.0, h12], [h21, 1.0]])
    } else if flag == 1.0 {
        Some([[h11, 1.0], [-1.0, h22]])
    } else {
        None
    }
}

/// `srotm`: with `H` from [`rotm_matrix`], the bounds of the new x and the new y,
/// `(|h11·x_i| + |h12·y_i|, |h21·x_i| + |h22·y_i|)`.
///
/// # Panics
/// When `param[0]` is not −2, −1, 0 or 1, or `x` and `y` have different lengths.
pub fn rotm(
    param: [f32; 5],
    x: ArrayView1<'_, f32>,
    y: ArrayView1<'_, f32>,
) -> (Array1<f64>, Array1<f64>) {
    let h = rotm_matrix(param)
        .unwrap_or_else(|| panic!("bounds::rotm: invalid flag param[0] = {}", param[0]));
    plane("rotm", h.map(|row| row.map(f64::from)), x, y)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::bounds;
    use crate::metrics::NAN;
    use ndarray::array;

    #[test]
    fn bounds_level1() {
        let x = array![1.0_f32, -3.0];
        let y = array![-4.0_f32, 0.5];
        // axpy, alpha = 2: [|2·1| + 4, |2·(−3)| + 0.5] = [6, 6.5].
        assert_eq!(bounds::axpy(2.0, x.view(), y.view()), array![6.0, 6.5]);
        // alpha = 0: x (NaN) is not read: [4, 0.5].
        let nan_x = array![NAN, NAN];
        assert_eq!(bounds::axpy(0.0, nan_x.view(), y.view()), array![4.0, 0.5]);
        // dot: n·Σ|x_i y_i| = 2·(4 + 1.5) = 11; empty → 0.
        assert_eq!(bounds::dot(x.view(), y.view()), 11.0);
        assert_eq!(
            bounds::dot(Array1::zeros(0).view(), Array1::zeros(0).view()),
            0.0
        );
        // rot, c = 0.5, s = −2: x: [0.5 + 8, 1.5 + 1] = [8.5, 2.5];
        // y: [2 + 2, 0.25 + 6] = [4, 6.25].
        let (bx, by) = bounds::rot(0.5, -2.0, x.view(), y.view());
        assert_eq!(bx, array![8.5, 2.5]);
        assert_eq!(by, array![4.0, 6.25]);
    }

    #[test]
    fn bounds_rotm_all_flags() {
        // param = [flag, h11 = 2, h21 = 3, h12 = 5, h22 = 7], x = [1, −3], y = [−4, 0.5].
        let x = array![1.0_f32, -3.0];
        let y = array![-4.0_f32, 0.5];
        let p = |flag: f32| [flag, 2.0, 3.0, 5.0, 7.0];
        assert_eq!(bounds::rotm_matrix(p(-2.0)), Some([[1.0, 0.0], [0.0, 1.0]]));
        assert_eq!(bounds::rotm_matrix(p(-1.0)), Some([[2.0, 5.0], [3.0, 7.0]]));
        assert_eq!(bounds::rotm_matrix(p(0.0)), Some([[1.0, 5.0], [3.0, 1.0]]));
        assert_eq!(bounds::rotm_matrix(p(1.0)), Some([[2.0, 1.0], [-1.0, 7.0]]));
        assert_eq!(bounds::rotm_matrix(p(2.0)), None);
        assert_eq!(bounds::rotm_matrix(p(-0.5)), None);
        assert_eq!(bounds::rotm_matrix(p(NAN)), None);
        // −2: H = I: (|x|, |y|) = ([1, 3], [4, 0.5]).
        let (bx, by) = bounds::rotm(p(-2.0), x.view(), y.view());
        assert_eq!((bx, by), (array![1.0, 3.0], array![4.0, 0.5]));
        // −1: x: |2x| + |5y| = [2 + 20, 6 + 2.5]; y: |3x| + |7y| = [3 + 28, 9 + 3.5].
        let (bx, by) = bounds::rotm(p(-1.0), x.view(), y.view());
        assert_eq!((bx, by), (array![22.0, 8.5], array![31.0, 12.5]));
        // 0: h11 = h22 = 1, h21 = 3, h12 = 5: x: |x| + |5y| = [21, 5.5]; y: |3x| + |y| = [7, 9.5].
        let (bx, by) = bounds::rotm(p(0.0), x.view(), y.view());
        assert_eq!((bx, by), (array![21.0, 5.5], array![7.0, 9.5]));
        // 1: h11 = 2, h12 = 1, h21 = −1, h22 = 7: x: |2x| + |y| = [6, 6.5];
        // y: |x| + |7y| = [29, 6.5].
        let (bx, by) = bounds::rotm(p(1.0), x.view(), y.view());
        assert_eq!((bx, by), (array![6.0, 6.5], array![29.0, 6.5]));
    }

    #[test]
    #[should_panic(expected = "invalid flag")]
    fn bounds_rotm_invalid_flag_panics() {
        let v = array![1.0_f32];
        let _ = bounds::rotm([3.0, 0.0, 0.0, 0.0, 0.0], v.view(), v.view());
    }
}
