//! [`ContextOptions`]: how the adapter is chosen (from the environment), and the on-disk
//! pipeline cache.

use crate::error::{Error, Result};

/// How the adapter is chosen. [`ContextOptions::from_env`] reads the environment.
#[derive(Debug, Clone, Default)]
pub struct ContextOptions {
    /// Backends to consider (`WGPU_BACKEND=vulkan|metal|dx12|gl`, comma-separated). Default: all.
    pub backends: Option<wgpu::Backends>,
    /// Pick the first adapter whose name contains this (case-insensitive; `WGPU_ADAPTER_NAME`).
    pub adapter_name: Option<String>,
    /// `WGBLAS_POWER_PREFERENCE=low-power|high-performance` (or wgpu's `WGPU_POWER_PREF=low|high`).
    pub power_preference: Option<wgpu::PowerPreference>,
}

impl ContextOptions {
    /// Options from `WGPU_BACKEND`, `WGPU_ADAPTER_NAME` and `WGBLAS_POWER_PREFERENCE`
    /// (falling back to wgpu's `WGPU_POWER_PREF`).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] (routine `"context"`, argument `"WGBLAS_POWER_PREFERENCE"`)
    /// for a value other than `low-power`, `high-performance` (or `low`, `high`).
    pub fn from_env() -> Result<Self> {
        let power_preference = match std::env::var("WGBLAS_POWER_PREFERENCE") {
            Ok(v) => parse_power_preference(&v)?,
            Err(_) => wgpu::PowerPreference::from_env(),
        };
        Ok(ContextOptions {
            backends: wgpu::Backends::from_env(),
            adapter_name: std::env::var("WGPU_ADAPTER_NAME")
                .ok()
                .filter(|s| !s.is_empty()),
            power_preference,
        })
    }
}

/// The directory of the on-disk pipeline cache (see [`Context::pipeline_cache_path`]).
fn cache_dir() -> Option<std::path::PathBuf> {
    match std::env::var_os("WGBLAS_CACHE_DIR") {
        Some(d) if d.is_empty() => None,
        Some(d) => Some(d.into()),
        None => std::env::var_os("XDG_CACHE_HOME")
            .filter(|d| !d.is_empty())
            .map(|d| std::path::PathBuf::from(d).join("wgblas"))
            .or_else(|| {
                std::env::var_os("HOME").map(|h| std::path::PathBuf::from(h).join(".cache/wgblas"))
            }),
    }
}

/// The driver's pipeline cache, loaded from disk where the adapter offers one. Any failure
/// (no feature, no directory, stale or foreign data) means no cache or an empty one: wgpu
/// validates the data and falls back to an empty cache (`fallback: true`).
pub(super) fn open_disk_cache(
    device: &wgpu::Device,
    info: &wgpu::AdapterInfo,
    features: wgpu::Features,
) -> Option<(wgpu::PipelineCache, std::path::PathBuf)> {
    if !features.contains(wgpu::Features::PIPELINE_CACHE) {
        return None;
    }
    let key = wgpu::util::pipeline_cache_key(info)?;
    let dir = cache_dir()?;
    std::fs::create_dir_all(&dir).ok()?;
    let path = dir.join(key);
    let data = std::fs::read(&path).ok();
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    // SAFETY: `data` was written by `PipelineCache::get_data` for an adapter with the same
    // `pipeline_cache_key` (the file name); wgpu and the driver check its header (vendor,
    // device, driver version, wgpu's own format) and ignore data that does not match.
    let cache = unsafe {
        device.create_pipeline_cache(&wgpu::PipelineCacheDescriptor {
            label: Some("wgblas pipeline cache"),
            data: data.as_deref(),
            fallback: true,
        })
    };
    if pollster::block_on(scope.pop()).is_some() {
        return None;
    }
    Some((cache, path))
}

/// The value of `WGBLAS_POWER_PREFERENCE`.
fn parse_power_preference(v: &str) -> Result<Option<wgpu::PowerPreference>> {
    match v.to_ascii_lowercase().as_str() {
        "low-power" | "low" => Ok(Some(wgpu::PowerPreference::LowPower)),
        "high-performance" | "high" => Ok(Some(wgpu::PowerPreference::HighPerformance)),
        "" => Ok(None),
        _ => Err(Error::InvalidArgument {
            routine: "context",
            arg: "WGBLAS_POWER_PREFERENCE",
            detail: format!("{v:?}: use low-power or high-performance"),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn power_preference_values() {
        use wgpu::PowerPreference::{HighPerformance, LowPower};
        assert_eq!(parse_power_preference("low-power").unwrap(), Some(LowPower));
        assert_eq!(
            parse_power_preference("HIGH-PERFORMANCE").unwrap(),
            Some(HighPerformance)
        );
        assert_eq!(
            parse_power_preference("high").unwrap(),
            Some(HighPerformance)
        );
        assert_eq!(parse_power_preference("").unwrap(), None);
        let err = parse_power_preference("fastest").unwrap_err();
        assert!(matches!(
            err,
            Error::InvalidArgument {
                routine: "context",
                arg: "WGBLAS_POWER_PREFERENCE",
                ..
            }
        ));
    }
}
