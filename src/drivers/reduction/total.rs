//! The final accumulator of a reduction ([`Total`]) and the element types' instances of the
//! shader ([`Reduce`]).

use super::ext::ext_to_f64;
use super::{f64_legacy, Instance, Variant, ACC_WORDS};
use crate::context::{Context, Elem};
use crate::layout::Precision;

/// The final accumulator, as the shader's `Acc`: `t: T` at word 0, `f: vec3<f32>` at word 4,
/// `k: vec4<u32>` at word 8.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Total(pub(super) [u32; ACC_WORDS]);

impl Total {
    /// `t` of an f32 reduction.
    pub fn t_f32(&self) -> f32 {
        f32::from_bits(self.0[0])
    }

    /// `t` of an f64 reduction.
    pub fn t_f64(&self) -> f64 {
        f64::from_bits(u64::from(self.0[0]) | (u64::from(self.0[1]) << 32))
    }

    /// The index of an iamax reduction.
    pub fn index(&self) -> usize {
        self.0[10] as usize
    }

    /// The norm finished by the nrm2 final pass (its f32 bits in `k.w`).
    pub fn nrm2(&self) -> f32 {
        f32::from_bits(self.0[11])
    }

    /// The flags of a dnrm2 band pass (`k.x`): [`NRM2_INF`], [`NRM2_NAN`], [`NRM2_BIG`],
    /// [`NRM2_SMALL`].
    pub fn nrm2_flags(&self) -> u32 {
        self.0[8]
    }

    /// The extended sum of [`Variant::AsumExt`], rounded once to the nearest f64.
    pub fn ext_f64(&self) -> f64 {
        let [e, hi, lo, flags] = [self.0[8], self.0[9], self.0[10], self.0[11]];
        if flags & 2 != 0 {
            f64::NAN
        } else if flags & 1 != 0 {
            f64::INFINITY
        } else {
            ext_to_f64((u64::from(hi) << 32) | u64::from(lo), e as i32)
        }
    }
}

/// The element types of the reduction routines: which instance computes a reduction of their
/// elements, and how its total reads.
pub(crate) trait Reduce: Precision {
    /// The instance that computes `variant` ([`Variant::Dot`], [`Variant::Asum`] or
    /// [`Variant::Iamax`]) over elements of this type on `ctx`. In f64 without `SHADER_F64`,
    /// asum and iamax run their exact integer forms ([`Variant::AsumExt`], the bit-pattern
    /// [`Variant::Iamax`]) on the f32 instance; with it, iamax runs the bit-pattern form on the
    /// f64 instance ([`Variant::IamaxNative`], comparing in f64, under the lab's `Legacy`).
    fn instance(ctx: &Context, variant: Variant) -> Instance;

    /// The result `t` of a reduction run as `kind`, in this element type.
    fn value(total: &Total, kind: Instance) -> Self;

    /// `t` from its words on the device (a total kept there).
    fn decode(words: &[u32]) -> Self;
}

impl Reduce for f32 {
    fn instance(_: &Context, variant: Variant) -> Instance {
        Instance {
            variant,
            elem: Elem::F32,
            words: 1,
        }
    }

    fn value(total: &Total, _: Instance) -> f32 {
        total.t_f32()
    }

    fn decode(words: &[u32]) -> f32 {
        crate::resident::decode_f32(words)
    }
}

impl Reduce for f64 {
    fn instance(ctx: &Context, variant: Variant) -> Instance {
        let (variant, elem) = match (variant, ctx.native_f64()) {
            (Variant::Asum, false) => (Variant::AsumExt, Elem::F32),
            (Variant::Iamax, true) if f64_legacy() => (Variant::IamaxNative, Elem::F64),
            // The exact integer keys: a single pass (every word of the accumulator a u32).
            (Variant::Iamax, true) => (Variant::Iamax, Elem::F64),
            (Variant::Iamax, false) => (Variant::Iamax, Elem::F32),
            (variant, _) => (variant, Elem::F64),
        };
        Instance {
            variant,
            elem,
            words: 2,
        }
    }

    fn value(total: &Total, kind: Instance) -> f64 {
        match kind.variant {
            Variant::AsumExt => total.ext_f64(),
            _ => total.t_f64(),
        }
    }

    fn decode(w: &[u32]) -> f64 {
        f64::from_bits(u64::from(w[0]) | (u64::from(w[1]) << 32))
    }
}

/// dnrm2 flags ([`Total::nrm2_flags`]): an infinite element, a NaN, an element above `tbig`,
/// an element below `tsml`.
pub(crate) const NRM2_INF: u32 = 1;
pub(crate) const NRM2_NAN: u32 = 2;
pub(crate) const NRM2_BIG: u32 = 4;
pub(crate) const NRM2_SMALL: u32 = 8;
