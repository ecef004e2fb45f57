//! The kernel registry: every shader of `wgsl/` in one table (candle-metal-kernels' model), with
//! its text (`include_str!`), its entry points, the override constants the drivers set with
//! every value they pass, and the Rust struct that fills its uniform params. The drivers take
//! their shaders from here (`drivers::shader!`), and read the shaders' fixed sizes (workgroup
//! size, block sizes) from the shader text itself ([`Kernel::constant`]), so each size is
//! written once, in the WGSL.
//!
//! `tests/shaders.rs` compiles this file as a module of its own (it names nothing of the
//! crate), and validates every kernel with naga in every element type and override
//! combination listed here, with no GPU; it also checks that the table is complete (every
//! `.wgsl` file, every entry point, every override) and each params struct against its WGSL
//! struct.
//!
//! One encoding of the BLAS flags in every shader, as override constants: a triangle is
//! `UPLO` = 0 (none: the whole matrix), 1 (lower) or 2 (upper), [`UPLO_NONE`], [`UPLO_LOWER`],
//! [`UPLO_UPPER`], the same codes as `common.wgsl`'s `UPLO_*` constants; a unit diagonal is the
//! `bool` `UNIT`; transposes and sides never reach a shader (they are stride swaps, layout.rs).
//! One word for a kernel variant: the `Variant` of each driver.

/// One shader of `wgsl/`. (The drivers read `path`, `source` and the constants; the other
/// fields, and the items marked so below, are read by `tests/shaders.rs`.)
#[derive(Debug)]
#[allow(dead_code)]
pub struct Kernel {
    /// Path under `wgsl/` (the pipeline cache key).
    pub path: &'static str,
    /// The WGSL text, written over `alias T` (`common.wgsl` is prepended at run time).
    pub source: &'static str,
    /// Its entry points.
    pub entries: &'static [&'static str],
    /// Each override constant the drivers set, with every value they pass (`bool`s as 0, 1).
    /// Overrides initialised from others are not listed: they follow them.
    pub overrides: &'static [(&'static str, &'static [f64])],
    /// The Rust struct that fills its uniform: (file under `src/`, struct name).
    pub params: &'static [(&'static str, &'static str)],
    /// Whether the drivers instantiate it in f64 too (`alias T = f64;`).
    pub f64: bool,
}

/// The `UPLO` code of no triangle (the whole matrix).
pub const UPLO_NONE: u32 = 0;
/// The `UPLO` code of the lower triangle.
pub const UPLO_LOWER: u32 = 1;
/// The `UPLO` code of the upper triangle.
pub const UPLO_UPPER: u32 = 2;

const BOOL: &[f64] = &[0.0, 1.0];
const UPLO: &[f64] = &[0.0, 1.0, 2.0];
const TRIANGLE: &[f64] = &[1.0, 2.0];
const POW2_256: &[f64] = &[1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0];

/// `wgsl/common.wgsl`, prepended to every shader.
#[allow(dead_code)]
pub const COMMON: &str = include_str!("../../wgsl/common.wgsl");

/// Element-wise Level 1 (`drivers/elementwise.rs`): `OP` = `elementwise::Variant`.
pub const ELEMENTWISE: Kernel = Kernel {
    path: "level1/elementwise.wgsl",
    source: include_str!("../../wgsl/level1/elementwise.wgsl"),
    entries: &[
        "main",
        "main_vec4",
        "axpy_sc",
        "scal_sc",
        "rot_sc",
        "scal_one",
        "scal_vec4",
        "main_dev",
        "main_vec4_dev",
        "scal_one_dev",
        "scal_vec4_dev",
    ],
    overrides: &[("OP", &[0.0, 1.0, 2.0, 3.0, 4.0])],
    params: &[("drivers/elementwise.rs", "Params")],
    f64: true,
};

/// Reductions (`drivers/reduction.rs`): `OP` = `reduction::Variant`; `WORDS` 1 (f32 data) or 2
/// (f64).
pub const REDUCTION: Kernel = Kernel {
    path: "level1/reduction.wgsl",
    source: include_str!("../../wgsl/level1/reduction.wgsl"),
    entries: &[
        "partial_sums",
        "final_sum",
        "single_pass",
        "single_pass_vec4",
        "partial_single",
        "partial_vec4",
        "clear_counter",
    ],
    overrides: &[
        ("OP", &[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]),
        ("WORDS", &[1.0, 2.0]),
    ],
    params: &[("drivers/reduction.rs", "Params")],
    f64: true,
};

/// Matrix-vector products, first kernels (`drivers/gemv.rs`): `MODE` general, symmetric,
/// triangular; `UPLO`, `UNIT`.
pub const GEMV: Kernel = Kernel {
    path: "level2/gemv.wgsl",
    source: include_str!("../../wgsl/level2/gemv.wgsl"),
    entries: &["gemv_rows", "gemv_dot"],
    overrides: &[
        ("MODE", &[0.0, 1.0, 2.0]),
        ("UPLO", TRIANGLE),
        ("UNIT", BOOL),
        ("UNSCALED", BOOL),
    ],
    params: &[("drivers/gemv.rs", "Params")],
    f64: true,
};

/// Matrix-vector products, wide kernels (`drivers/gemv.rs`): `LANES`, `FLANES` powers of 2 to
/// 256.
pub const GEMV_WIDE: Kernel = Kernel {
    path: "level2/gemv_wide.wgsl",
    source: include_str!("../../wgsl/level2/gemv_wide.wgsl"),
    entries: &[
        "gemv_rowdot",
        "gemv_coldot",
        "gemv_coldot4",
        "gemv_finish",
        "symv_tiles",
        "symv_lines",
        "symv_pass",
        "symv_sum",
    ],
    overrides: &[
        ("MODE", &[0.0, 1.0, 2.0]),
        ("UPLO", TRIANGLE),
        ("UNIT", BOOL),
        ("STRICT", BOOL),
        ("LANES", POW2_256),
        ("FLANES", POW2_256),
        ("VEC", BOOL),
        ("XVEC", BOOL),
        ("COLS_FAST", BOOL),
        ("SCAL", BOOL),
        ("UNSCALED", BOOL),
    ],
    params: &[("drivers/gemv.rs", "WideParams")],
    f64: true,
};

/// Rank updates (`drivers/rank_update.rs`): `UPLO` none (`sger`) or a triangle (`ssyr`,
/// `ssyr2`), `TWO` for the rank-2 update, `IFAST` (`main_pre`'s fast index: i or j), `PAIR`
/// (`main_pre`: two units per invocation).
pub const RANK_UPDATE: Kernel = Kernel {
    path: "level2/rank_update.wgsl",
    source: include_str!("../../wgsl/level2/rank_update.wgsl"),
    entries: &["main", "main_vec4", "pre_factors", "main_pre", "main_rows"],
    overrides: &[
        ("UPLO", UPLO),
        ("TWO", BOOL),
        ("IFAST", BOOL),
        ("PAIR", BOOL),
        ("PRODUCTS", &[0.0, 2.0]),
        ("ROWS", &[2.0, 4.0, 8.0]),
        ("WIDE", BOOL),
        ("TRI", BOOL),
    ],
    params: &[("drivers/rank_update.rs", "Params")],
    f64: true,
};

/// Triangular solve of one right-hand side (`drivers/trsv.rs`): `NB` 64, or 32 where workgroup
/// memory is short.
pub const TRSV: Kernel = Kernel {
    path: "level2/trsv.wgsl",
    source: include_str!("../../wgsl/level2/trsv.wgsl"),
    entries: &["solve_update", "copy_out"],
    overrides: &[
        ("UPLO", TRIANGLE),
        ("UNIT", BOOL),
        ("NB", &[32.0, 64.0]),
        ("ONE_BARRIER", BOOL),
    ],
    params: &[("drivers/trsv.rs", "Params")],
    f64: true,
};

/// The triangular solve with a one-block look-ahead (`drivers/trsv.rs`, lab `Experimental`):
/// `NB` as [`TRSV`], `SB` the rows one invocation substitutes at a time, `PREFETCH` a
/// workgroup that reads the next dispatch's first tiles into the L2 cache.
pub const TRSV_STEP: Kernel = Kernel {
    path: "level2/trsv_step.wgsl",
    source: include_str!("../../wgsl/level2/trsv_step.wgsl"),
    entries: &["solve_step"],
    overrides: &[
        ("UPLO", TRIANGLE),
        ("UNIT", BOOL),
        ("NB", &[32.0, 64.0]),
        ("SB", &[4.0, 8.0, 16.0]),
        ("PREFETCH", BOOL),
    ],
    params: &[("drivers/trsv.rs", "Params")],
    f64: true,
};

/// The Level 3 tile engine (`drivers/gemm.rs`): `UPLO` of C (`TRI_C`), of a triangular A over
/// k (`K_TRI` 1, 2; 3, 4: a triangular B, upper, lower), `UNSCALED` (a k chunk's raw sums) and of a packed structured A (`A_UPLO`); `A_MODE` general, symmetric,
/// triangular; the tile (`gemm::Tile`: BM, BN 64 or 128, BK 8, 16 or 32, NBUF 1 or 2; 8×8 of C
/// per invocation) and the staging modes `AL`, `BL` (vec4 along m / n, along k, element-wise); `SCAL`: alpha and beta
/// from binding 7 (f64).
pub const GEMM: Kernel = Kernel {
    path: "level3/gemm.wgsl",
    source: include_str!("../../wgsl/level3/gemm.wgsl"),
    entries: &["gemm", "splitk_reduce", "pack", "gemm_small"],
    overrides: &[
        ("TRI_C", UPLO),
        ("K_TRI", &[0.0, 1.0, 2.0, 3.0, 4.0]),
        ("HEAVY_FIRST", BOOL),
        ("A_MODE", &[0.0, 1.0, 2.0]),
        ("A_UPLO", TRIANGLE),
        ("A_UNIT", BOOL),
        ("BM", &[64.0, 128.0]),
        ("BN", &[64.0, 128.0]),
        ("BK", &[8.0, 16.0, 32.0]),
        ("NBUF", &[1.0, 2.0]),
        ("AL", &[0.0, 1.0, 2.0]),
        ("BL", &[0.0, 1.0, 2.0]),
        ("SPLIT", BOOL),
        ("EDGE", BOOL),
        ("VGUARD", BOOL),
        ("FMA", BOOL),
        ("SCAL", BOOL),
        ("UNSCALED", BOOL),
    ],
    params: &[("drivers/gemm.rs", "Params")],
    f64: true,
};

/// Diagonal blocks of the blocked triangular solve (`drivers/trsm.rs`): `SCAL`: alpha from
/// binding 4 (f64).
pub const TRSM: Kernel = Kernel {
    path: "level3/trsm.wgsl",
    source: include_str!("../../wgsl/level3/trsm.wgsl"),
    entries: &[
        "block_solve",
        "block_solve_rows",
        "block_invert",
        "copy_back",
        "inverse_leaf",
    ],
    overrides: &[
        ("UPLO", TRIANGLE),
        ("UNIT", BOOL),
        ("COLUMNS", BOOL),
        ("SCAL", BOOL),
        ("NI", &[32.0, 64.0]),
        ("NR", &[32.0, 64.0, 128.0]),
        ("REFINE", BOOL),
    ],
    params: &[("drivers/trsm.rs", "Params")],
    f64: true,
};

/// Arithmetic on device scalars (`GpuScalar::div`, `neg`, `recip`, and strsm's indicator of a
/// nonzero device alpha; declared by hand in `resident/scalar.rs` for now): `OP` 0 to 4.
#[allow(dead_code)]
pub const SCALAR: Kernel = Kernel {
    path: "scalar.wgsl",
    source: include_str!("../../wgsl/scalar.wgsl"),
    entries: &["main"],
    overrides: &[("OP", &[0.0, 1.0, 2.0, 3.0, 4.0])],
    params: &[("resident/scalar.rs", "ScalarParams")],
    f64: false,
};

/// Every kernel.
#[allow(dead_code)]
pub const ALL: &[&Kernel] = &[
    &ELEMENTWISE,
    &REDUCTION,
    &GEMV,
    &GEMV_WIDE,
    &RANK_UPDATE,
    &TRSV,
    &TRSV_STEP,
    &GEMM,
    &TRSM,
    &SCALAR,
];

impl Kernel {
    /// The value of the WGSL constant `name` of this shader (`const NAME: u32 = 256u;`, decimal
    /// or `0x` hex, or an `override` with such a default), at compile time: how the drivers read the sizes the
    /// shader fixes (workgroup size, block sizes) instead of writing them again. A name that is
    /// not there stops the build.
    pub const fn constant(&self, name: &str) -> u32 {
        let (src, key) = (self.source.as_bytes(), name.as_bytes());
        let mut i = 0;
        while i + key.len() + 2 < src.len() {
            let line_start = i == 0 || src[i - 1] == b'\n';
            if line_start && (at_word(src, i, b"const ") || at_word(src, i, b"override ")) {
                let mut p = i + if src[i] == b'c' { 6 } else { 9 };
                if at_word(src, p, key) && src[p + key.len()] == b':' {
                    p += key.len();
                    while src[p] != b'=' {
                        p += 1;
                    }
                    p += 1;
                    while src[p] == b' ' {
                        p += 1;
                    }
                    let hex = src[p] == b'0' && src[p + 1] == b'x';
                    let (radix, mut v, mut digits) =
                        if hex { (16, 0u32, 0) } else { (10, 0u32, 0) };
                    if hex {
                        p += 2;
                    }
                    while src[p].is_ascii_hexdigit() && (hex || src[p].is_ascii_digit()) {
                        let d = match src[p] {
                            b'0'..=b'9' => src[p] - b'0',
                            b'a'..=b'f' => src[p] - b'a' + 10,
                            _ => src[p] - b'A' + 10,
                        };
                        v = v * radix + d as u32;
                        p += 1;
                        digits += 1;
                    }
                    assert!(digits > 0, "the WGSL constant is not an integer literal");
                    return v;
                }
            }
            i += 1;
        }
        panic!("no such WGSL constant")
    }
}

/// Whether `word` starts at byte `i` of `src`.
const fn at_word(src: &[u8], i: usize, word: &[u8]) -> bool {
    if i + word.len() > src.len() {
        return false;
    }
    let mut k = 0;
    while k < word.len() {
        if src[i + k] != word[k] {
            return false;
        }
        k += 1;
    }
    true
}
