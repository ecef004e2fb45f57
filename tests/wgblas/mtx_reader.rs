//! The examples' Matrix Market reader (`examples/support/mtx.rs`, over
//! `sprs::io::read_matrix_market`): right values for each kind of file it accepts, a clear error
//! for each kind of bad file. No GPU needed.

use ndarray::arr2;

#[path = "../../examples/support/mtx.rs"]
#[allow(clippy::duplicate_mod)]
mod mtx;

/// Write `text` to a file of its own under the temporary directory and read it.
fn read(name: &str, text: &str) -> Result<ndarray::Array2<f64>, String> {
    let path = std::env::temp_dir().join(format!("wgblas-mtx-{}-{name}.mtx", std::process::id()));
    std::fs::write(&path, text).unwrap();
    let out = mtx::read_dense(&path);
    std::fs::remove_file(&path).unwrap();
    out
}

fn error(name: &str, text: &str) -> String {
    match read(name, text) {
        Ok(a) => panic!("{name}: read as {a:?}, expected an error"),
        Err(e) => {
            assert!(
                e.contains(&format!("wgblas-mtx-{}-{name}.mtx", std::process::id())),
                "{e}"
            );
            e
        }
    }
}

/// One test per row, named by it: the file `$name` with text `$text` reads as `$want`.
macro_rules! reads_as {
    ($($test:ident: $name:literal, $text:literal => $want:expr;)*) => {$(
        #[test]
        fn $test() {
            assert_eq!(read($name, $text).unwrap(), arr2(&$want));
        }
    )*};
}

/// One test per row, named by it: the file `$name` with text `$text` is an error (naming the
/// file) whose message contains `$want`.
macro_rules! rejects {
    ($($test:ident: $name:literal, $text:literal => $want:literal;)*) => {$(
        #[test]
        fn $test() {
            let e = error($name, $text);
            assert!(e.contains($want), "{e}");
        }
    )*};
}

reads_as! {
    general_real_file_gives_its_values: "general",
        "%%MatrixMarket matrix coordinate real general\n% a comment\n2 3 3\n1 1 1.5\n2 3 -2e1\n1 2 0.25\n"
        => [[1.5, 0.25, 0.0], [0.0, 0.0, -20.0]];
    symmetric_file_is_mirrored: "symmetric",
        "%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n1 1 4\n3 1 -1\n2 2 5\n"
        => [[4.0, 0.0, -1.0], [0.0, 5.0, 0.0], [-1.0, 0.0, 0.0]];
    skew_symmetric_file_mirrors_with_the_opposite_sign: "skew",
        "%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 2\n2 1 3\n3 2 -0.5\n"
        => [[0.0, -3.0, 0.0], [3.0, 0.0, 0.5], [0.0, -0.5, 0.0]];
    integer_file_gives_exact_values: "integer",
        "%%MatrixMarket matrix coordinate integer general\n2 2 2\n1 1 123456789\n2 2 -7\n"
        => [[123456789.0, 0.0], [0.0, -7.0]];
}

rejects! {
    skew_symmetric_file_with_a_diagonal_entry_is_an_error: "skewdiag",
        "%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n1 1 3\n" => "skew-symmetric";
    pattern_file_is_an_error_naming_pattern: "pattern",
        "%%MatrixMarket matrix coordinate pattern general\n2 2 2\n1 1\n2 2\n" => "pattern file";
    complex_file_is_an_error_naming_complex: "complex",
        "%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1.0 2.0\n" => "complex matrix";
    short_size_line_is_an_error: "short",
        "%%MatrixMarket matrix coordinate real general\n2 2\n1 1 1.0\n" => "size line";
    zero_based_index_is_an_error: "zerobased",
        "%%MatrixMarket matrix coordinate real general\n2 2 1\n0 1 1.0\n" => "index below 1";
    index_past_the_size_line_is_an_error: "past",
        "%%MatrixMarket matrix coordinate real general\n2 2 1\n3 1 1.0\n" => "past the size line";
    fewer_entries_than_declared_is_an_error: "fewer",
        "%%MatrixMarket matrix coordinate real general\n2 2 3\n1 1 1.0\n2 2 2.0\n" => "fewer entries";
}

#[test]
fn missing_file_is_an_error_naming_it() {
    let e = mtx::read_dense("/nonexistent/wgblas.mtx").unwrap_err();
    assert!(e.starts_with("/nonexistent/wgblas.mtx: "), "{e}");
}

#[test]
fn the_shipped_1138_bus_reads_whole() {
    let a = mtx::read_dense(concat!(env!("CARGO_MANIFEST_DIR"), "/data/1138_bus.mtx")).unwrap();
    assert_eq!(a.dim(), (1138, 1138));
    // 2596 stored entries, 1138 of them diagonal: 1138 + 2·1458 nonzeros once mirrored
    assert_eq!(a.iter().filter(|v| **v != 0.0).count(), 1138 + 2 * 1458);
    assert_eq!(a, a.t());
}
