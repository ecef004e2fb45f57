//! The shaders, checked with no GPU, from the kernel registry (`src/drivers/registry.rs`,
//! compiled here as a module of its own): the registry lists every `.wgsl` file under `wgsl/`
//! (checked by walking the folder), each with its entry points and the override values the
//! drivers pass (checked against what naga finds in the shader). Each kernel is instantiated the
//! way `Context::pipeline` does at run time (`alias T = f32;` or `f64`, then `wgsl/common.wgsl`,
//! then the shader), parsed and validated by naga (the copy wgpu itself runs: see
//! [`one_naga_in_the_lock`]), then run through `naga::back::pipeline_constants::process_overrides`
//! (what wgpu-hal does when it creates a pipeline) for each entry point and each combination of
//! the registry's override values, and validated again.
//!
//! The second half checks each kernel's `#[repr(C)]` `Pod` params struct (named in the
//! registry) against the WGSL struct of the uniform it fills: same size, and the same scalar
//! (offset, kind, width) at every 4-byte slot. The Rust structs are private to their driver
//! modules, so they are read from the source with syn and laid out by the `repr(C)` rules;
//! [`repr_c_layout_matches_the_compiler`] checks that layout against `std::mem::offset_of!` on a
//! probe struct.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use naga::valid::{Capabilities, ValidationFlags, Validator};

#[path = "../src/drivers/registry.rs"]
mod registry;
use registry::{Kernel, ALL};

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

/// Whether an override's initialiser names another override (it then follows them: `NT = BM *
/// BN / 64`, `LOWER = UPLO == UPLO_LOWER`), rather than being a literal or a constant.
fn derived(module: &naga::Module, init: Option<naga::Handle<naga::Expression>>) -> bool {
    fn names_override(module: &naga::Module, h: naga::Handle<naga::Expression>) -> bool {
        use naga::Expression as E;
        match &module.global_expressions[h] {
            E::Override(_) => true,
            E::Binary { left, right, .. } => {
                names_override(module, *left) || names_override(module, *right)
            }
            E::Unary { expr, .. } | E::As { expr, .. } => names_override(module, *expr),
            E::Select {
                condition,
                accept,
                reject,
            } => [condition, accept, reject]
                .iter()
                .any(|e| names_override(module, **e)),
            _ => false,
        }
    }
    init.is_some_and(|h| names_override(module, h))
}

/// The overrides a pipeline sets (those not [`derived`]), which must be exactly the registry's
/// for the kernel, with the registry's values.
fn override_values(kernel: &Kernel, module: &naga::Module) -> Vec<(String, Vec<f64>)> {
    let mut found: Vec<String> = module
        .overrides
        .iter()
        .filter(|(_, o)| !derived(module, o.init))
        .map(|(_, o)| o.name.clone().expect("named override"))
        .collect();
    let mut listed: Vec<String> = kernel
        .overrides
        .iter()
        .map(|(n, _)| n.to_string())
        .collect();
    found.sort();
    listed.sort();
    assert_eq!(
        found, listed,
        "wgsl/{}: the overrides of the shader (left) and of the registry (right)",
        kernel.path
    );
    kernel
        .overrides
        .iter()
        .map(|(n, v)| (n.to_string(), v.to_vec()))
        .collect()
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

/// Validate `kernel` in `elem` as-is and after `process_overrides` for each entry point and each
/// combination of its override values; returns the number of (entry point, combination)
/// pipelines checked.
fn check_kernel(kernel: &Kernel, elem: Elem) -> usize {
    let name = format!("wgsl/{} ({elem:?})", kernel.path);
    let text = instantiate(elem, registry::COMMON, kernel.source);
    let caps = capabilities(elem, kernel.source);
    let (module, info) = parse_and_validate(&name, &text, caps);
    let mut entries: Vec<&str> = module
        .entry_points
        .iter()
        .map(|e| e.name.as_str())
        .collect();
    let mut listed = kernel.entries.to_vec();
    entries.sort();
    listed.sort();
    assert_eq!(
        entries, listed,
        "{name}: entry points of the shader and of the registry"
    );
    let values = override_values(kernel, &module);
    let combos = combinations(&values);
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

/// The registry lists every shader under `wgsl/` once, with its text.
#[test]
fn registry_lists_every_shader() {
    let shaders: Vec<String> = walk(&wgsl_dir(), "wgsl")
        .into_iter()
        .filter(|s| s != "common.wgsl")
        .collect();
    let mut listed: Vec<&str> = ALL.iter().map(|k| k.path).collect();
    listed.sort();
    assert_eq!(
        shaders, listed,
        "the shaders under wgsl/ and those of the registry"
    );
    for k in ALL {
        assert_eq!(k.source, read(&wgsl_dir().join(k.path)), "{}", k.path);
    }
    assert_eq!(registry::COMMON, read(&wgsl_dir().join("common.wgsl")));
}

/// Every kernel, in f32, and in f64 where the drivers instantiate it so (then it is written over
/// `T`).
#[test]
fn every_shader_validates_in_every_instantiation() {
    let mut pipelines = 0;
    for kernel in ALL {
        pipelines += check_kernel(kernel, Elem::F32);
        assert_eq!(
            kernel.f64,
            uses_t(kernel.source),
            "{}: f64 flag",
            kernel.path
        );
        if kernel.f64 {
            pipelines += check_kernel(kernel, Elem::F64);
        }
    }
    println!("{} shaders, {pipelines} pipelines validated", ALL.len());
}

/// [`Kernel::constant`], which the drivers use at compile time to read the shaders' sizes,
/// gives the value naga finds for every `u32` constant of every shader.
#[test]
fn constants_read_by_the_drivers_match_naga() {
    let mut seen = 0;
    for kernel in ALL {
        let text = instantiate(Elem::F32, registry::COMMON, kernel.source);
        let module = naga::front::wgsl::parse_str(&text).expect("parses");
        for (_, c) in module.constants.iter() {
            let name = c.name.as_deref().unwrap_or_default();
            let naga::Expression::Literal(naga::Literal::U32(v)) =
                module.global_expressions[c.init]
            else {
                continue;
            };
            let written = format!("const {name}: u32 = ");
            if !kernel.source.lines().any(|l| l.starts_with(&written)) {
                continue;
            }
            assert_eq!(kernel.constant(name), v, "{} {name}", kernel.path);
            seen += 1;
        }
    }
    assert!(seen >= 10, "only {seen} constants checked");
}

/// The one encoding of a triangle: `common.wgsl`'s `UPLO_*` constants are the registry's (which
/// the drivers pass).
#[test]
fn uplo_codes_match_common_wgsl() {
    let common = registry::Kernel {
        path: "common.wgsl",
        source: registry::COMMON,
        entries: &[],
        overrides: &[],
        params: &[],
        f64: false,
    };
    assert_eq!(common.constant("UPLO_NONE"), registry::UPLO_NONE);
    assert_eq!(common.constant("UPLO_LOWER"), registry::UPLO_LOWER);
    assert_eq!(common.constant("UPLO_UPPER"), registry::UPLO_UPPER);
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

/// The Rust struct `name` of `src/<file>`, or (if that file has none: it moved) the one struct
/// of that name under `src/`.
fn rust_struct(file: &str, name: &str) -> (String, RustStruct) {
    let src = Path::new(ROOT).join("src");
    let find = |rel: &str| -> Option<RustStruct> {
        let text = std::fs::read_to_string(src.join(rel)).ok()?;
        let ast = syn::parse_file(&text).unwrap_or_else(|e| panic!("src/{rel}: {e}"));
        ast.items.iter().find_map(|i| match i {
            syn::Item::Struct(s) if s.ident == name && is_repr_c_pod(&s.attrs) => {
                Some(rust_layout(s))
            }
            _ => None,
        })
    };
    if let Some(s) = find(file) {
        return (file.to_string(), s);
    }
    let mut found: Vec<(String, RustStruct)> = walk(&src, "rs")
        .into_iter()
        .filter_map(|f| find(&f).map(|s| (f, s)))
        .collect();
    assert_eq!(
        found.len(),
        1,
        "no src/{file} with a repr(C) Pod struct {name}, and {} files with one elsewhere",
        found.len()
    );
    found.pop().expect("one")
}

/// Each kernel's uniform struct against the Rust struct the registry names for it: same size,
/// same scalar slots. Every kernel with a uniform names one.
#[test]
fn params_structs_match_their_wgsl_structs() {
    for kernel in ALL {
        let uniforms = uniform_structs(kernel.path);
        assert_eq!(
            uniforms.len(),
            kernel.params.len(),
            "wgsl/{}: {} uniform structs, {} params structs in the registry",
            kernel.path,
            uniforms.len(),
            kernel.params.len()
        );
        for (w, (file, name)) in uniforms.iter().zip(kernel.params) {
            let (rel, rust) = rust_struct(file, name);
            let what = format!("src/{rel} {} ↔ wgsl/{} {}", rust.name, kernel.path, w.name);
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
