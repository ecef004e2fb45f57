use super::check_elem;
use crate::blas::check_dim;
use crate::blas::forms::routine;
use crate::context::Elem;
use crate::drivers::reduction::{self, Instance, Reduce, Variant};
use crate::error::Result;
use crate::launch::Wait;
use crate::layout::{self, VecOperand, VecRef};
use crate::{Context, GpuScalar};

routine! {
    /// The Euclidean norm `‖x‖₂ = sqrt(Σ_i x_i²)`, without overflow or underflow.
    ///
    /// BLAS: `snrm2`. `x` is a 1-D view, any stride; n = 0 gives 0.
    ///
    /// Algorithm: Blue's scaled sum of squares (J. L. Blue, "A portable Fortran program to find the
    /// Euclidean norm of a vector", ACM TOMS 4(1), 1978), in the form of LAPACK 3.10's `snrm2.f90`
    /// (E. Anderson, "Algorithm 978: Safe scaling in the Level 1 BLAS", ACM TOMS 43(1), 2017): each
    /// `|x_i|` goes to one of three sums, the big ones (`> 2^44`) scaled by `2^-76`, the small ones
    /// (`< 2^-63`) scaled by `2^75`, the others unscaled; the three sums are tree-reduced in one
    /// pass and combined at the end as LAPACK does. The scale factors are powers of two, so scaling
    /// is exact. The big threshold is LAPACK's `2^52` lowered to `2^44` so that the unscaled sum
    /// cannot overflow for any n (< 2^40); with `2^52` it could from n = 2^24 on.
    ///
    /// Special values (DESIGN.md §3), found from bit patterns: any NaN gives NaN; otherwise any `±∞`
    /// gives `+∞`. Metric: within 50 ULP of OpenBLAS (DESIGN.md §2).
    /// `x` may be a resident [`GpuVector`](crate::GpuVector) (used in place, no upload); to keep
    /// the norm on the device too, see [`resident::snrm2`](crate::resident::snrm2).
    ///
    /// # Errors
    /// [`Error::TooLarge`](crate::Error::TooLarge) when `x` is longer than 2^31 − 1 elements, spans
    /// more than 2^32 or passes the device's memory (past one storage binding it is processed in
    /// parts, past one buffer held in segments, issue 15); [`Error::Gpu`](crate::Error::Gpu) on a
    /// device failure.
    ///
    /// # Example
    /// ```
    /// use ndarray::array;
    /// let ctx = wgblas::Context::shared()?;
    /// // The squares 9e40 and 16e40 overflow f32, the norm does not.
    /// let n = wgblas::blas::snrm2(ctx, array![3e20f32, -4e20].view())?;
    /// assert!((n - 5e20).abs() <= 5e20 * 1e-6);
    /// # Ok::<(), wgblas::Error>(())
    /// ```
    pub fn snrm2 / snrm2_in: f32;
    /// The Euclidean norm `‖x‖₂ = sqrt(Σ_i x_i²)` in f64, without overflow or underflow.
    ///
    /// BLAS: `dnrm2`. `x` is a 1-D view of f64 (any stride) or a resident `GpuVector<f64>`; n = 0
    /// gives 0.
    ///
    /// Algorithm: Blue's scaled sum of squares in the form of LAPACK 3.10's `dnrm2.f90` (E.
    /// Anderson, "Algorithm 978: Safe scaling in the Level 1 BLAS", ACM TOMS 43(1), 2017), with
    /// its f64 constants (`la_constants.f90`): `tsml = 2^-511`, `tbig = 2^486`, `ssml = 2^537`,
    /// `sbig = 2^-538`. Each `|x_i|` belongs to one band: above `tbig` its square is summed scaled
    /// by `sbig²`, below `tsml` scaled by `ssml²`, otherwise unscaled. The sums are tree-reduced on
    /// the device (`wgsl/level1/reduction.wgsl`, `alias T = f64;`), one pass per band: the medium
    /// band always, which also reports which other bands hold elements, then the big band if any
    /// element is above `tbig`, else the small band if any is below `tsml` (LAPACK ignores the
    /// small sum when there is a big one). The three sums are combined on the host exactly as
    /// LAPACK combines them. The scalings are exact (powers of two).
    ///
    /// Special values (DESIGN.md §3), found from bit patterns: any NaN gives NaN; otherwise any `±∞`
    /// gives `+∞`. Metric: within 50 ULP (eps = 2^-52) of OpenBLAS `dnrm2` (DESIGN.md §2).
    ///
    /// # Errors
    /// [`Error::Unsupported`](crate::Error::Unsupported) (`SHADER_F64`) where the adapter has no
    /// f64 shaders; otherwise as [`snrm2`]: [`Error::TooLarge`](crate::Error::TooLarge) when `x` is
    /// longer than 2^31 − 1 elements, spans more than 2^32 or passes the device's memory (past one
    /// storage binding it is processed in parts, past one buffer held in segments, issue 15);
    /// [`Error::Gpu`](crate::Error::Gpu) on a device failure.
    ///
    /// # Example
    /// ```
    /// use ndarray::array;
    /// let ctx = wgblas::Context::shared()?;
    /// # if !ctx.native_f64() { return Ok(()); }
    /// // The squares 9e400 and 16e400 overflow f64, the norm does not.
    /// let n = wgblas::blas::dnrm2(ctx, array![3e200f64, -4e200].view())?;
    /// assert!((n - 5e200).abs() <= 5e200 * 1e-15);
    /// # Ok::<(), wgblas::Error>(())
    /// ```
    pub fn dnrm2 / dnrm2_in: f64;
    (x: VecRef) -> Result<T>
    = norm_in(Variant::Nrm2, x.into());
}

/// The one core of the norms (`routine` names the one called), generic over the element type
/// ([`Reduce`]): [`sasum`](crate::blas::sasum), [`dasum`](crate::blas::dasum) (`variant` =
/// `Asum`; `dasum` runs an exact integer form where the adapter has no f64 shaders) and
/// [`snrm2`], [`dnrm2`] (`Nrm2`: `snrm2` finishes Blue's sums on the device in one pass,
/// `dnrm2` runs [`dnrm2_bands`]). The checks, the quick return and the upload are shared.
pub(super) async fn norm_in<'a, T: Reduce>(
    ctx: &Context,
    routine: &'static str,
    variant: Variant,
    x: VecRef<'a, T>,
    wait: Wait,
) -> Result<T> {
    crate::blas::owners!(ctx, routine, x);
    check_dim(routine, "x", x.len())?;
    if variant == Variant::Nrm2 {
        check_elem::<T>(ctx, routine)?;
    }
    if x.is_empty() {
        return Ok(T::ZERO);
    }
    let xd = layout::vector_any(ctx, routine, "x", &x)?;
    if variant == Variant::Asum {
        let kind = T::instance(ctx, variant);
        let total = reduction::run_in(ctx, routine, kind, &xd, &xd, wait).await?;
        return Ok(T::value(&total, kind));
    }
    // The norm's bits, as the words of a total kept on the device ([`Reduce::decode`]).
    let words = match T::ELEM {
        Elem::F32 => {
            let kind = T::instance(ctx, variant);
            let total = reduction::run_in(ctx, routine, kind, &xd, &xd, wait).await?;
            vec![total.nrm2().to_bits()]
        }
        Elem::F64 => {
            let bits = dnrm2_bands(ctx, routine, &xd, wait).await?.to_bits();
            vec![bits as u32, (bits >> 32) as u32]
        }
    };
    Ok(T::decode(&words))
}

/// dnrm2 after the checks: the band of medium elements first (with the flags of the bands
/// seen), then the band of big or small elements where there are any, combined on the host as
/// LAPACK's `dnrm2` does ([`dnrm2_finish`]).
async fn dnrm2_bands(
    ctx: &Context,
    routine: &'static str,
    xd: &VecOperand,
    wait: Wait,
) -> Result<f64> {
    let band = |variant| {
        let kind = Instance {
            variant,
            elem: Elem::F64,
            words: 2,
        };
        reduction::run_in(ctx, routine, kind, xd, xd, wait)
    };
    let medium = band(Variant::Nrm2Medium).await?;
    let flags = medium.nrm2_flags();
    if flags & reduction::NRM2_NAN != 0 {
        return Ok(f64::NAN);
    }
    if flags & reduction::NRM2_INF != 0 {
        return Ok(f64::INFINITY);
    }
    let amed = medium.t_f64();
    let (abig, asml) = if flags & reduction::NRM2_BIG != 0 {
        (band(Variant::Nrm2Big).await?.t_f64(), 0.0)
    } else if flags & reduction::NRM2_SMALL != 0 {
        (0.0, band(Variant::Nrm2Small).await?.t_f64())
    } else {
        (0.0, 0.0)
    };
    Ok(dnrm2_finish(abig, amed, asml))
}

/// LAPACK 3.10 `dnrm2.f90`'s combination of the three sums (big scaled by `sbig²`, medium,
/// small scaled by `ssml²`) into the norm.
fn dnrm2_finish(abig: f64, amed: f64, asml: f64) -> f64 {
    let sbig = 2f64.powi(-538);
    let ssml = 2f64.powi(537);
    let (scl, sumsq) = if abig > 0.0 {
        // Combine abig and amed if abig > 0.
        let abig = if amed > 0.0 || amed.is_nan() {
            abig + (amed * sbig) * sbig
        } else {
            abig
        };
        (1.0 / sbig, abig)
    } else if asml > 0.0 {
        // Combine amed and asml if asml > 0.
        if amed > 0.0 || amed.is_nan() {
            let amed = amed.sqrt();
            let asml = asml.sqrt() / ssml;
            let (ymin, ymax) = if asml > amed {
                (amed, asml)
            } else {
                (asml, amed)
            };
            (1.0, ymax * ymax * (1.0 + (ymin / ymax) * (ymin / ymax)))
        } else {
            (1.0 / ssml, asml)
        }
    } else {
        (1.0, amed)
    };
    // A norm is never negative: the device's sum of an empty band may come back as −0 (the
    // medium band of a vector whose elements are all 0, each in the small band), whose square
    // root is −0; adding +0 makes it +0 and leaves every other value (NaN included) as it is.
    scl * sumsq.sqrt() + 0.0
}

/// `‖x‖₂` kept on the device: [`resident::snrm2`](crate::resident::snrm2).
pub(crate) fn snrm2_device<'a, 'c>(
    ctx: &'c Context,
    x: impl Into<VecRef<'a>>,
) -> Result<GpuScalar<'c, f32>> {
    super::kept_one(ctx, "snrm2", Variant::Nrm2, x.into(), 11)
}

#[cfg(test)]
mod tests {
    use super::dnrm2_finish;

    /// The host-side combination, on hand-computed sums: the big band (3e200, 4e200 scaled by
    /// 2^-538), the medium alone, and the small band with a medium part.
    #[test]
    fn dnrm2_finish_combines_as_lapack() {
        let sbig = 2f64.powi(-538);
        let (a, b) = (3e200 * sbig, 4e200 * sbig);
        let n = dnrm2_finish(a * a + b * b, 0.0, 0.0);
        assert!((n - 5e200).abs() <= 5e200 * 4.0 * f64::EPSILON);
        assert_eq!(dnrm2_finish(0.0, 25.0, 0.0), 5.0);
        // An empty medium band summed to −0 (all elements 0): the norm is +0.
        assert_eq!(dnrm2_finish(0.0, -0.0, 0.0).to_bits(), 0);
        let ssml = 2f64.powi(537);
        let s = 1e-300 * ssml;
        // sqrt(1 + (1e-300)^2) = 1 in f64.
        assert_eq!(dnrm2_finish(0.0, 1.0, s * s), 1.0);
        let n = dnrm2_finish(0.0, 0.0, 2.0 * s * s);
        assert!((n - 2f64.sqrt() * 1e-300).abs() <= 1e-300 * 4.0 * f64::EPSILON);
    }
}
