use ndarray::array;
use wgblas::blas;
fn main() {
    let ctx = wgblas::Context::new().unwrap();
    for x in [array![3.9e13f32, 7.5e12], array![3.9e13f32, 0.0], array![0.0f32, 7.5e12], array![2e13f32, 1e13], array![1e13f32, 1e13]] {
        let g = blas::snrm2(&ctx, x.view()).unwrap();
        let e = x.iter().map(|&v| (v as f64).powi(2)).sum::<f64>().sqrt();
        println!("{x} gpu {g:e} exact {e:e}");
    }
}
