//! The shaders, checked with no GPU: every `.wgsl` file under `wgsl/` (found by walking the
//! folder, so a new shader is covered without a line here) is instantiated the way
//! `Context::pipeline` does at run time (`alias T = f32;` or `f64`, then `wgsl/common.wgsl`,
//! then the shader), parsed and validated by naga (the copy wgpu itself runs: see
//! [`one_naga_in_the_lock`]), then run through `naga::back::pipeline_constants::process_overrides`
//! (what wgpu-hal does when it creates a pipeline) for each entry point and each combination of
//! override values the drivers pass, and validated again.
//!
//! The second half checks each `#[repr(C)]` `Pod` params struct of `src/` against the WGSL
//! struct of the uniform it fills: same size, and the same scalar (offset, kind, width) at every
//! 4-byte slot. The Rust structs are private to their driver modules, so they are read from the
//! source with syn and laid out by the `repr(C)` rules; [`repr_c_layout_matches_the_compiler`]
//! checks that layout against `std::mem::offset_of!` on a probe struct.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use naga::valid::{Capabilities, ValidationFlags, Validator};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The element types a shader is instantiated for (`Elem` in `src/context.rs`).
#[derive(Debug, Clone, Copy, PartialEq)]
enum Elem {
    F32,
    F64,
}

impl Elem {
    /// `Elem::prelude` of `src/context.rs` (kept equal by [`instantiation_matches_context_rs`]).
    fn prelude(self) -> &'static str {
        match self {
            Elem::F32 => "alias T = f32;\n",
            Elem::F64 => "alias T = f64;\n",
        }
    }
}

/// The text `Context::pipeline` hands to wgpu for `source` in `elem`.
fn instantiate(elem: Elem, common: &str, source: &str) -> String {
    format!("{}{common}\n{source}", elem.prelude())
}

/// Values the drivers pass for each numeric override (a `bool` override is tried both ways; a
/// numeric one with no row here keeps its default). Sources: the `Op`/`Mode`/`Update`/`Variant`
/// types of `src/drivers/*.rs` and `GpuScalar::op` in `src/resident.rs`.
const OVERRIDE_VALUES: &[(&str, &str, &[f64])] = &[
    // elementwise::Op: Axpy, Copy, Swap, Scal, Rot.
    ("level1/elementwise.wgsl", "OP", &[0.0, 1.0, 2.0, 3.0, 4.0]),
    // reduction::Op: Dot, Asum, Nrm2, Iamax, IamaxNative, AsumExt; WORDS: 1 (f32 data), 2 (f64).
    (
        "level1/reduction.wgsl",
        "OP",
        &[0.0, 1.0, 2.0, 3.0, 4.0, 5.0],
    ),
    ("level1/reduction.wgsl", "WORDS", &[1.0, 2.0]),
    // matvec::Mode: General, Symmetric, Triangular.
    ("level2/gemv.wgsl", "MODE", &[0.0, 1.0, 2.0]),
    // matvec::Mode for the wide kernels (1: symv_tiles); LANES, FLANES: powers of 2 to 256.
    ("level2/gemv_wide.wgsl", "MODE", &[0.0, 1.0, 2.0]),
    (
        "level2/gemv_wide.wgsl",
        "LANES",
        &[1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0],
    ),
    (
        "level2/gemv_wide.wgsl",
        "FLANES",
        &[1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0],
    ),
    // rankupdate::Update: 0 general, 1 upper, 2 lower.
    ("level2/rank_update.wgsl", "UPLO", &[0.0, 1.0, 2.0]),
    // matmul: TRI_C 0 (none), 1 lower, 2 upper; K_TRI likewise for a triangular A; A_MODE
    // (entry pack) general, symmetric, triangular; the tile (matmul::Tile: BM, BN 64 or 128,
    // BK 8, 16 or 32, NBUF 1 or 2) and the staging modes AL, BL (vec4 along m / n, along k,
    // element-wise).
    ("level3/gemm.wgsl", "TRI_C", &[0.0, 1.0, 2.0]),
    ("level3/gemm.wgsl", "K_TRI", &[0.0, 1.0, 2.0]),
    ("level3/gemm.wgsl", "A_MODE", &[0.0, 1.0, 2.0]),
    ("level3/gemm.wgsl", "A_UPLO", &[1.0, 2.0]),
    ("level3/gemm.wgsl", "BM", &[64.0, 128.0]),
    ("level3/gemm.wgsl", "BN", &[64.0, 128.0]),
    ("level3/gemm.wgsl", "BK", &[8.0, 16.0, 32.0]),
    ("level3/gemm.wgsl", "NBUF", &[1.0, 2.0]),
    ("level3/gemm.wgsl", "AL", &[0.0, 1.0, 2.0]),
    ("level3/gemm.wgsl", "BL", &[0.0, 1.0, 2.0]),
    // SCAL: alpha and beta from binding 7 (f64); SMEM: gemm_small's workgroup memory
    // (elements: 4096 f32, 2048 f64 on a 16 KiB adapter).
    ("level3/gemm.wgsl", "SCAL", &[0.0, 1.0]),
    ("level3/gemm.wgsl", "SMEM", &[2048.0, 4096.0]),
    // trsm's diagonal blocks: SCAL (alpha from binding 4, dtrsm).
    ("level3/trsm.wgsl", "SCAL", &[0.0, 1.0]),
    // GpuScalar: div, neg, recip.
    ("scalar.wgsl", "OP", &[0.0, 1.0, 2.0]),
];

/// Shaders written over `alias T` that the crate never instantiates in every combination in
/// f64, with the combinations it does run in f64 and why. Every other shader written over `T`
/// must validate in f64 in all its combinations.
const F64_ONLY: &[(&str, &str, OverrideTable)] = &[];

/// Override names with the values to try.
type OverrideTable = &'static [(&'static str, &'static [f64])];

/// Where the product of the override values is larger than this, each override runs through
/// its values with the others at their defaults instead.
const MAX_COMBINATIONS: usize = 512;

fn wgsl_dir() -> PathBuf {
    Path::new(ROOT).join("wgsl")
}

/// Every file under `dir` ending in `ext`, sorted, as paths relative to `dir` with `/`.
fn walk(dir: &Path, ext: &str) -> Vec<String> {
    fn go(base: &Path, dir: &Path, ext: &str, out: &mut Vec<String>) {
        let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        for entry in entries {
            let path = entry.expect("directory entry").path();
            if path.is_dir() {
                go(base, &path, ext, out);
            } else if path.extension().is_some_and(|e| e == ext) {
                let rel = path.strip_prefix(base).expect("under base");
                out.push(rel.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    let mut out = Vec::new();
    go(dir, dir, ext, &mut out);
    out.sort();
    out
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The identifiers of a WGSL text, comments removed.
fn identifiers(source: &str) -> impl Iterator<Item = &str> {
    source
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .flat_map(|l| l.split(|c: char| !(c.is_alphanumeric() || c == '_')))
        .filter(|w| !w.is_empty())
}

/// Whether the shader is written over the element type `T`.
fn uses_t(source: &str) -> bool {
    identifiers(source).any(|w| w == "T")
}

/// Whether the shader uses subgroup operations or built-ins (the crate requests `SUBGROUP`
/// where the adapter has it).
fn uses_subgroups(source: &str) -> bool {
    identifiers(source).any(|w| w.starts_with("subgroup"))
}

/// The capabilities the device has for `elem`: `FLOAT64` (wgpu's `SHADER_F64`) only for f64 (an f32 pipeline
/// must run on an adapter without it), `SUBGROUP` only for a shader that uses subgroups.
fn capabilities(elem: Elem, source: &str) -> Capabilities {
    let mut caps = Capabilities::empty();
    if elem == Elem::F64 {
        caps |= Capabilities::FLOAT64;
    }
    if uses_subgroups(source) {
        caps |= Capabilities::SUBGROUP;
    }
    caps
}

/// Parse and validate `text` (named `name`), panicking with naga's report.
fn parse_and_validate(
    name: &str,
    text: &str,
    caps: Capabilities,
) -> (naga::Module, naga::valid::ModuleInfo) {
    let module = naga::front::wgsl::parse_str(text).unwrap_or_else(|e| {
        panic!(
            "{name}: parse error\n{}",
            e.emit_to_string_with_path(text, name)
        )
    });
    let info = Validator::new(ValidationFlags::all(), caps)
        .validate(&module)
        .unwrap_or_else(|e| {
            panic!(
                "{name}: validation error\n{}",
                e.emit_to_string_with_path(text, name)
            )
        });
    (module, info)
}

/// The overrides a pipeline sets: those whose default is a literal or absent (an override
/// initialised from other overrides follows them), with the values to try.
fn override_values(shader: &str, module: &naga::Module) -> Vec<(String, Vec<f64>)> {
    let mut out = Vec::new();
    for (_, o) in module.overrides.iter() {
        let name = o.name.clone().expect("named override");
        let derived = o
            .init
            .is_some_and(|h| !matches!(module.global_expressions[h], naga::Expression::Literal(_)));
        if derived {
            continue;
        }
        let row = OVERRIDE_VALUES
            .iter()
            .find(|(s, n, _)| *s == shader && *n == name);
        let values = match (row, &module.types[o.ty].inner) {
            (Some((_, _, v)), _) => v.to_vec(),
            (None, naga::TypeInner::Scalar(s)) if s.kind == naga::ScalarKind::Bool => {
                vec![0.0, 1.0]
            }
            (None, _) => {
                assert!(
                    o.init.is_some(),
                    "{shader}: override {name} has no default and no row in OVERRIDE_VALUES"
                );
                println!("wgsl/{shader}: override {name} validated at its default only");
                continue;
            }
        };
        out.push((name, values));
    }
    out
}

/// The combinations of override values to validate: all of them, or (past
/// [`MAX_COMBINATIONS`]) each override through its values with the others at their defaults.
/// The first is always the empty map (every default).
fn combinations(values: &[(String, Vec<f64>)]) -> Vec<BTreeMap<String, f64>> {
    let total: usize = values.iter().map(|(_, v)| v.len()).product();
    let mut out = vec![BTreeMap::new()];
    if total <= MAX_COMBINATIONS {
        for (name, vs) in values {
            out = out
                .into_iter()
                .flat_map(|m| {
                    vs.iter().map(move |&v| {
                        let mut m = m.clone();
                        m.insert(name.clone(), v);
                        m
                    })
                })
                .collect();
        }
        if !values.is_empty() {
            out.insert(0, BTreeMap::new());
        }
    } else {
        for (name, vs) in values {
            for &v in vs {
                out.push(BTreeMap::from([(name.clone(), v)]));
            }
        }
    }
    out
}

/// Validate `shader` in `elem` as-is and after `process_overrides` for each entry point and each
/// combination in `combos`; returns the number of (entry point, combination) pipelines checked.
fn check_shader(
    shader: &str,
    source: &str,
    common: &str,
    elem: Elem,
    restrict: Option<OverrideTable>,
) -> usize {
    let name = format!("wgsl/{shader} ({elem:?})");
    let text = instantiate(elem, common, source);
    let caps = capabilities(elem, source);
    let (module, info) = parse_and_validate(&name, &text, caps);
    let values = match restrict {
        Some(r) => r.iter().map(|(n, v)| (n.to_string(), v.to_vec())).collect(),
        None => override_values(shader, &module),
    };
    let combos = combinations(&values);
    assert!(!module.entry_points.is_empty(), "{name}: no entry point");
    let mut checked = 0;
    for ep in &module.entry_points {
        for combo in &combos {
            let constants: naga::back::PipelineConstants =
                combo.iter().map(|(k, &v)| (k.clone(), v)).collect();
            let (resolved, _) = naga::back::pipeline_constants::process_overrides(
                &module,
                &info,
                Some((ep.stage, &ep.name)),
                &constants,
            )
            .unwrap_or_else(|e| panic!("{name}::{} with {combo:?}: {e}", ep.name));
            Validator::new(ValidationFlags::all(), caps)
                .validate_resolved_overrides(&resolved)
                .unwrap_or_else(|e| {
                    panic!(
                        "{name}::{} with {combo:?}: {}",
                        ep.name,
                        e.emit_to_string(&text)
                    )
                });
            checked += 1;
        }
    }
    println!(
        "{name}: {} entry points × {} override combinations {:?}",
        module.entry_points.len(),
        combos.len(),
        values
            .iter()
            .map(|(n, v)| (n.as_str(), v.len()))
            .collect::<Vec<_>>()
    );
    checked
}

/// Every shader, in f32, and in f64 where it is written over `T`.
#[test]
fn every_shader_validates_in_every_instantiation() {
    let common = read(&wgsl_dir().join("common.wgsl"));
    let shaders: Vec<String> = walk(&wgsl_dir(), "wgsl")
        .into_iter()
        .filter(|s| s != "common.wgsl")
        .collect();
    assert!(shaders.len() >= 8, "found only {shaders:?} under wgsl/");
    let mut pipelines = 0;
    for shader in &shaders {
        let source = read(&wgsl_dir().join(shader));
        pipelines += check_shader(shader, &source, &common, Elem::F32, None);
        if uses_t(&source) {
            let restrict = F64_ONLY.iter().find(|(s, _, _)| s == shader);
            pipelines += check_shader(shader, &source, &common, Elem::F64, restrict.map(|r| r.2));
        }
    }
    for (shader, _, _) in F64_ONLY {
        assert!(
            shaders.iter().any(|s| s == shader),
            "F64_ONLY names {shader}, not under wgsl/"
        );
    }
    println!("{} shaders, {pipelines} pipelines validated", shaders.len());
}

/// `common.wgsl` on its own, in both element types (it is prepended to every shader).
#[test]
fn common_wgsl_validates_alone() {
    let common = read(&wgsl_dir().join("common.wgsl"));
    for elem in [Elem::F32, Elem::F64] {
        let text = instantiate(elem, &common, "");
        parse_and_validate("wgsl/common.wgsl", &text, capabilities(elem, &common));
    }
}

/// The instantiation above is the one `src/context.rs` makes: if this fails, `Context::pipeline`
/// changed how it builds a shader's text, and [`instantiate`] must follow it.
#[test]
fn instantiation_matches_context_rs() {
    let context = read(&Path::new(ROOT).join("src/context.rs"));
    for needle in [
        r#""alias T = f32;\n""#,
        r#""alias T = f64;\n""#,
        r#"include_str!("../wgsl/common.wgsl")"#,
        r#"format!("{}{COMMON_WGSL}\n{}", elem.prelude(), shader.source)"#,
    ] {
        assert!(
            context.contains(needle),
            "src/context.rs no longer has {needle}"
        );
    }
}

/// The validator here is the naga wgpu runs: Cargo.lock holds one naga.
#[test]
fn one_naga_in_the_lock() {
    let lock = read(&Path::new(ROOT).join("Cargo.lock"));
    let nagas = lock.matches("\nname = \"naga\"\n").count();
    assert_eq!(nagas, 1, "Cargo.lock holds {nagas} versions of naga");
}

// ---------------------------------------------------------------------------------------------
// Params structs.

/// One scalar slot of a struct: byte offset, kind, width in bytes.
type Slot = (u32, naga::ScalarKind, u8);

/// A Rust params struct read from the source, laid out by the `repr(C)` rules.
#[derive(Debug)]
struct RustStruct {
    name: String,
    size: u32,
    slots: Vec<Slot>,
    fields: Vec<(String, u32)>,
}

/// (kind, width) of a Rust scalar type name.
fn rust_scalar(name: &str) -> Option<(naga::ScalarKind, u8)> {
    use naga::ScalarKind::{Float, Sint, Uint};
    Some(match name {
        "u32" => (Uint, 4),
        "i32" => (Sint, 4),
        "f32" => (Float, 4),
        "u64" => (Uint, 8),
        "i64" => (Sint, 8),
        "f64" => (Float, 8),
        _ => return None,
    })
}

/// Size, alignment and slots (at offset 0) of a field type; panics on a type the `repr(C)`
/// rules here do not cover (so a new kind of field is noticed, not skipped).
fn rust_type_layout(ty: &syn::Type, what: &str) -> (u32, u32, Vec<Slot>) {
    match ty {
        syn::Type::Path(p) => {
            let ident = p
                .path
                .get_ident()
                .map(|i| i.to_string())
                .unwrap_or_default();
            let (kind, width) = rust_scalar(&ident)
                .unwrap_or_else(|| panic!("{what}: field type {ident:?} not handled"));
            (u32::from(width), u32::from(width), vec![(0, kind, width)])
        }
        syn::Type::Array(a) => {
            let n: u32 = match &a.len {
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Int(i),
                    ..
                }) => i.base10_parse().expect("array length"),
                _ => panic!("{what}: array length is not a literal"),
            };
            let (size, align, slots) = rust_type_layout(&a.elem, what);
            let all = (0..n)
                .flat_map(|i| slots.iter().map(move |&(o, k, w)| (o + i * size, k, w)))
                .collect();
            (size * n, align, all)
        }
        _ => panic!("{what}: field type not handled"),
    }
}

/// The `repr(C)` layout of a struct item: each field at the next multiple of its alignment,
/// the size rounded up to the largest alignment.
fn rust_layout(item: &syn::ItemStruct) -> RustStruct {
    let name = item.ident.to_string();
    assert!(
        item.generics.params.is_empty(),
        "{name}: generic params struct not handled"
    );
    let (mut offset, mut max_align) = (0u32, 1u32);
    let (mut slots, mut fields) = (Vec::new(), Vec::new());
    for field in &item.fields {
        let fname = field
            .ident
            .as_ref()
            .map(|i| i.to_string())
            .unwrap_or_default();
        let (size, align, s) = rust_type_layout(&field.ty, &format!("{name}.{fname}"));
        offset = offset.next_multiple_of(align);
        max_align = max_align.max(align);
        slots.extend(s.into_iter().map(|(o, k, w)| (o + offset, k, w)));
        fields.push((fname, offset));
        offset += size;
    }
    RustStruct {
        name,
        size: offset.next_multiple_of(max_align),
        slots,
        fields,
    }
}

/// Whether an item has `#[repr(C)]` and derives `Pod`.
fn is_repr_c_pod(attrs: &[syn::Attribute]) -> bool {
    let (mut repr_c, mut pod) = (false, false);
    for attr in attrs {
        if attr.path().is_ident("repr") {
            let _ = attr.parse_nested_meta(|m| {
                repr_c |= m.path.is_ident("C");
                Ok(())
            });
        } else if attr.path().is_ident("derive") {
            let _ = attr.parse_nested_meta(|m| {
                pod |= m.path.segments.last().is_some_and(|s| s.ident == "Pod");
                Ok(())
            });
        }
    }
    repr_c && pod
}

/// The string literals of a token stream that name a `.wgsl` file, as paths under `wgsl/`
/// (doc attributes skipped).
fn wgsl_literals(tokens: proc_macro2::TokenStream, out: &mut Vec<String>) {
    use proc_macro2::TokenTree;
    for tt in tokens {
        match tt {
            TokenTree::Group(g) => {
                let is_doc = matches!(g.stream().into_iter().next(),
                    Some(TokenTree::Ident(i)) if i == "doc");
                if g.delimiter() != proc_macro2::Delimiter::Bracket || !is_doc {
                    wgsl_literals(g.stream(), out);
                }
            }
            TokenTree::Literal(l) => {
                let s = l.to_string();
                if let Some(path) = s.strip_prefix('"').and_then(|s| s.strip_suffix(".wgsl\"")) {
                    let path = path.trim_start_matches("../").trim_start_matches("wgsl/");
                    out.push(format!("{path}.wgsl"));
                }
            }
            _ => {}
        }
    }
}

/// The scalar slots of a WGSL type placed at byte `base`, appended to `out`.
fn wgsl_slots(module: &naga::Module, ty: naga::Handle<naga::Type>, base: u32, out: &mut Vec<Slot>) {
    match &module.types[ty].inner {
        naga::TypeInner::Scalar(s) | naga::TypeInner::Atomic(s) => {
            out.push((base, s.kind, s.width))
        }
        naga::TypeInner::Vector { size, scalar } => {
            for i in 0..*size as u32 {
                out.push((
                    base + i * u32::from(scalar.width),
                    scalar.kind,
                    scalar.width,
                ));
            }
        }
        naga::TypeInner::Array {
            base: elem,
            size: naga::ArraySize::Constant(n),
            stride,
        } => {
            for i in 0..n.get() {
                wgsl_slots(module, *elem, base + i * stride, out);
            }
        }
        naga::TypeInner::Struct { members, .. } => {
            for m in members {
                wgsl_slots(module, m.ty, base + m.offset, out);
            }
        }
        other => panic!("uniform member type {other:?} not handled"),
    }
}

/// The uniform structs of a shader (instantiated in f32): (struct name, size, slots, members).
/// A WGSL struct flattened to scalar slots, with its size and its members' names and offsets.
struct WgslStruct {
    name: String,
    size: u32,
    slots: Vec<Slot>,
    members: Vec<(String, u32)>,
}

fn uniform_structs(shader: &str) -> Vec<WgslStruct> {
    let common = read(&wgsl_dir().join("common.wgsl"));
    let source = read(&wgsl_dir().join(shader));
    let text = instantiate(Elem::F32, &common, &source);
    let module = naga::front::wgsl::parse_str(&text)
        .unwrap_or_else(|e| panic!("{shader}: {}", e.emit_to_string(&text)));
    let mut layouter = naga::proc::Layouter::default();
    layouter.update(module.to_ctx()).expect("layout");
    let mut out = Vec::new();
    for (_, var) in module.global_variables.iter() {
        if var.space != naga::AddressSpace::Uniform {
            continue;
        }
        let ty = &module.types[var.ty];
        let naga::TypeInner::Struct { members, .. } = &ty.inner else {
            panic!("{shader}: uniform {:?} is not a struct", var.name)
        };
        let mut slots = Vec::new();
        wgsl_slots(&module, var.ty, 0, &mut slots);
        let members = members
            .iter()
            .map(|m| (m.name.clone().unwrap_or_default(), m.offset))
            .collect();
        out.push(WgslStruct {
            name: ty.name.clone().unwrap_or_default(),
            size: layouter[var.ty].size,
            slots,
            members,
        });
    }
    out
}

/// Pairings that the rule in [`params_structs_match_their_wgsl_structs`] cannot find: (Rust
/// file, shader) → Rust struct.
const PARAMS_OF: &[(&str, &str, &str)] = &[(
    "src/drivers/matvec.rs",
    "level2/gemv_wide.wgsl",
    "WideParams",
)];

/// Each shader's uniform struct against the Rust struct that fills it. The Rust struct is found
/// in the file that declares the shader: the row of [`PARAMS_OF`], else the file's only
/// `#[repr(C)]` `Pod` struct, else the one named like the WGSL struct. Every shader with a
/// uniform must be paired.
#[test]
fn params_structs_match_their_wgsl_structs() {
    let src = Path::new(ROOT).join("src");
    let mut paired: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for file in walk(&src, "rs") {
        let rel = format!("src/{file}");
        let text = read(&src.join(&file));
        let tokens: proc_macro2::TokenStream = text.parse().expect("tokenize");
        let mut shaders = Vec::new();
        wgsl_literals(tokens, &mut shaders);
        shaders.retain(|s| s != "common.wgsl");
        shaders.sort();
        shaders.dedup();
        if shaders.is_empty() {
            continue;
        }
        let ast = syn::parse_file(&text).unwrap_or_else(|e| panic!("{rel}: {e}"));
        let structs: Vec<RustStruct> = ast
            .items
            .iter()
            .filter_map(|i| match i {
                syn::Item::Struct(s) if is_repr_c_pod(&s.attrs) => Some(rust_layout(s)),
                _ => None,
            })
            .collect();
        for shader in &shaders {
            for w in uniform_structs(shader) {
                let row = PARAMS_OF.iter().find(|(f, s, _)| *f == rel && s == shader);
                let rust = match row {
                    Some((_, _, r)) => structs.iter().find(|s| s.name == *r),
                    None if structs.len() == 1 => structs.first(),
                    None => structs.iter().find(|s| s.name == w.name),
                }
                .unwrap_or_else(|| {
                    panic!(
                        "{rel} declares {shader} (uniform struct {}) but no Rust params \
                         struct pairs with it among {:?}: add a row to PARAMS_OF",
                        w.name,
                        structs.iter().map(|s| &s.name).collect::<Vec<_>>()
                    )
                });
                let what = format!("{rel} {} ↔ wgsl/{shader} {}", rust.name, w.name);
                assert_eq!(
                    rust.size, w.size,
                    "{what}: size\nRust {:?}\nWGSL {:?}",
                    rust.fields, w.members
                );
                assert_eq!(
                    rust.slots, w.slots,
                    "{what}: scalar slots (offset, kind, width)\nRust {:?}\nWGSL {:?}",
                    rust.fields, w.members
                );
                println!("{what}: {} bytes, {} slots", rust.size, rust.slots.len());
                paired.entry(shader.clone()).or_default().push(what);
            }
        }
    }
    // Every shader with a uniform is checked against some Rust struct.
    for shader in walk(&wgsl_dir(), "wgsl") {
        if shader != "common.wgsl" && !uniform_structs(&shader).is_empty() {
            assert!(
                paired.contains_key(&shader),
                "wgsl/{shader} has a uniform but no file of src/ declares it with a params struct"
            );
        }
    }
}

/// The `repr(C)` layout computed from the source equals the compiler's, on a probe struct with
/// every field kind the params structs use (and an 8-byte one, which needs padding).
#[test]
fn repr_c_layout_matches_the_compiler() {
    macro_rules! probe {
        ($($item:tt)*) => {
            $($item)*
            const PROBE: &str = stringify!($($item)*);
        };
    }
    probe! {
        #[repr(C)]
        #[derive(Clone, Copy)]
        struct Probe {
            a: u32,
            b: [f32; 3],
            c: i32,
            d: f64,
            e: [u32; 1],
        }
    }
    let item: syn::ItemStruct = syn::parse_str(PROBE).expect("probe parses");
    // Probe has padding (before d), so it cannot derive Pod; the attribute reader is checked on
    // its own.
    assert!(!is_repr_c_pod(&item.attrs));
    let pod: syn::ItemStruct =
        syn::parse_str("#[repr(C)] #[derive(Debug, bytemuck::Pod)] struct P { a: u32 }").unwrap();
    assert!(is_repr_c_pod(&pod.attrs));
    let layout = rust_layout(&item);
    let offsets: Vec<u32> = layout.fields.iter().map(|f| f.1).collect();
    let real = [
        std::mem::offset_of!(Probe, a),
        std::mem::offset_of!(Probe, b),
        std::mem::offset_of!(Probe, c),
        std::mem::offset_of!(Probe, d),
        std::mem::offset_of!(Probe, e),
    ]
    .map(|o| o as u32);
    assert_eq!(offsets, real);
    assert_eq!(layout.size as usize, std::mem::size_of::<Probe>());
    let p = Probe {
        a: 0,
        b: [0.0; 3],
        c: 0,
        d: 0.0,
        e: [0],
    };
    let _ = (p.a, p.b, p.c, p.d, p.e);
}
