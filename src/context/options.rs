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
    /// [`Error::InvalidArgument`] (routine `"context"`, argument `"WGBLAS_POWER_PREFERENCE"` or
    /// `"WGPU_POWER_PREF"`) for a value other than `low-power`, `high-performance` (or `low`,
    /// `high`).
    pub fn from_env() -> Result<Self> {
        let power_preference = match std::env::var("WGBLAS_POWER_PREFERENCE") {
            Ok(v) => parse_power_preference("WGBLAS_POWER_PREFERENCE", &v)?,
            Err(_) => match std::env::var("WGPU_POWER_PREF") {
                Ok(v) => parse_power_preference("WGPU_POWER_PREF", &v)?,
                Err(_) => None,
            },
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

/// The value of `WGBLAS_POWER_PREFERENCE` (or wgpu's `WGPU_POWER_PREF`, named by `var`).
fn parse_power_preference(var: &'static str, v: &str) -> Result<Option<wgpu::PowerPreference>> {
    match v.to_ascii_lowercase().as_str() {
        "low-power" | "low" => Ok(Some(wgpu::PowerPreference::LowPower)),
        "high-performance" | "high" => Ok(Some(wgpu::PowerPreference::HighPerformance)),
        "" | "none" => Ok(None),
        _ => Err(Error::InvalidArgument {
            routine: "context",
            arg: var,
            detail: format!("{v:?}: use low-power or high-performance"),
        }),
    }
}

/// The crate's own settings from the environment, checked when a context is created, so that a
/// value that does not parse is an error instead of a setting silently ignored (one rule for
/// every `WGBLAS_*` variable, as for `WGBLAS_POWER_PREFERENCE`). `WGBLAS_SPIN_US` and
/// `WGBLAS_COPY_THREADS` are read again where they are used; here they are only checked.
pub(super) struct EnvSettings {
    /// `WGBLAS_F64_FALLBACK`.
    pub f64_fallback: bool,
    /// `WGBLAS_STREAM_MIB` in bytes ([`Context::stream_block`](crate::Context::stream_block));
    /// 16 MiB when unset (H200 runs of 2026-12-01, `benches/results/2026-12-01-s5`: 8 MiB blocks streamed 2048² products slower than unstreamed).
    pub stream_block: u64,
}

impl EnvSettings {
    /// # Errors
    /// [`Error::InvalidArgument`] (routine `"context"`, the variable as the argument) for
    /// `WGBLAS_F64_FALLBACK` other than `1`, `true`, `yes`, `on`, `0`, `false`, `no`, `off` or
    /// empty; `WGBLAS_SPIN_US` other than a whole number of microseconds; `WGBLAS_COPY_THREADS`
    /// other than a whole number ≥ 1.
    pub fn read() -> Result<Self> {
        let var = |name| std::env::var(name).ok();
        let f64_fallback = match var("WGBLAS_F64_FALLBACK") {
            Some(v) => parse_flag("WGBLAS_F64_FALLBACK", &v)?,
            None => false,
        };
        if let Some(v) = var("WGBLAS_SPIN_US") {
            parse_count("WGBLAS_SPIN_US", &v, 0)?;
        }
        if let Some(v) = var("WGBLAS_HUGE_PAGES") {
            parse_flag("WGBLAS_HUGE_PAGES", &v)?;
        }
        if let Some(v) = var("WGBLAS_COPY_THREADS") {
            parse_count("WGBLAS_COPY_THREADS", &v, 1)?;
        }
        let stream_block = match var("WGBLAS_STREAM_MIB") {
            Some(v) => parse_count("WGBLAS_STREAM_MIB", &v, 0)?.saturating_mul(1 << 20),
            None => 16 << 20,
        };
        Ok(EnvSettings {
            f64_fallback,
            stream_block,
        })
    }
}

/// A yes/no variable: `1`, `true`, `yes`, `on` (any case) are yes; `0`, `false`, `no`, `off` and
/// the empty string are no.
pub(crate) fn parse_flag(var: &'static str, v: &str) -> Result<bool> {
    match v.trim().to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" | "on" => Ok(true),
        "0" | "false" | "no" | "off" | "" => Ok(false),
        _ => Err(Error::InvalidArgument {
            routine: "context",
            arg: var,
            detail: format!("{v:?}: use 1 (on) or 0 (off)"),
        }),
    }
}

/// A whole number of at least `min`.
fn parse_count(var: &'static str, v: &str, min: u64) -> Result<u64> {
    match v.trim().parse::<u64>() {
        Ok(n) if n >= min => Ok(n),
        _ => Err(Error::InvalidArgument {
            routine: "context",
            arg: var,
            detail: format!("{v:?}: use a whole number of at least {min}"),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn power_preference_values() {
        use wgpu::PowerPreference::{HighPerformance, LowPower};
        let parse = |v| parse_power_preference("WGBLAS_POWER_PREFERENCE", v);
        assert_eq!(parse("low-power").unwrap(), Some(LowPower));
        assert_eq!(parse("HIGH-PERFORMANCE").unwrap(), Some(HighPerformance));
        assert_eq!(parse("high").unwrap(), Some(HighPerformance));
        assert_eq!(parse("").unwrap(), None);
        let err = parse("fastest").unwrap_err();
        assert!(matches!(
            err,
            Error::InvalidArgument {
                routine: "context",
                arg: "WGBLAS_POWER_PREFERENCE",
                ..
            }
        ));
    }

    #[test]
    fn flag_values() {
        for v in ["1", "true", "YES", "on", " 1 "] {
            assert!(parse_flag("WGBLAS_F64_FALLBACK", v).unwrap(), "{v:?}");
        }
        for v in ["0", "false", "No", "off", ""] {
            assert!(!parse_flag("WGBLAS_F64_FALLBACK", v).unwrap(), "{v:?}");
        }
        for v in ["2", "maybe", "0x1"] {
            let err = parse_flag("WGBLAS_F64_FALLBACK", v).unwrap_err();
            assert!(
                matches!(
                    err,
                    Error::InvalidArgument {
                        routine: "context",
                        arg: "WGBLAS_F64_FALLBACK",
                        ..
                    }
                ),
                "{v:?}: {err}"
            );
        }
    }

    #[test]
    fn count_values() {
        assert_eq!(parse_count("WGBLAS_SPIN_US", "0", 0).unwrap(), 0);
        assert_eq!(parse_count("WGBLAS_SPIN_US", "250", 0).unwrap(), 250);
        assert_eq!(parse_count("WGBLAS_COPY_THREADS", "4", 1).unwrap(), 4);
        for (var, v, min) in [
            ("WGBLAS_SPIN_US", "abc", 0),
            ("WGBLAS_SPIN_US", "-5", 0),
            ("WGBLAS_COPY_THREADS", "0", 1),
            ("WGBLAS_COPY_THREADS", "", 1),
        ] {
            let err = parse_count(var, v, min).unwrap_err();
            assert!(
                matches!(err, Error::InvalidArgument { routine: "context", arg, .. } if arg == var),
                "{var}={v:?}: {err}"
            );
        }
    }
}
