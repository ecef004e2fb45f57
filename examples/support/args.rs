//! Strict `--flag value` arguments for the report examples, read with `lexopt`: an unknown flag,
//! a flag without its value, or a stray argument stops the program with a message and the usage
//! line (exit status 2). `#[path]`-included; not part of the library.
#![allow(dead_code)]

use std::collections::HashMap;
use std::sync::OnceLock;

/// The default of a flag that takes no value: [`get`] gives `"1"` when it is present, `""` when
/// not.
pub const SWITCH: &str = "(switch)";

// A flag whose default is a list of sizes is a list flag; a one-size default is written with a
// trailing comma ("8192,") to say that the flag takes a list too.

/// The value of `name` among `flags` (each `(name, default)`, or `(name, SWITCH)`), parsing the
/// command line on the first call. `name` must be one of `flags`.
pub fn get(flags: &[(&'static str, &'static str)], name: &str) -> String {
    static PARSED: OnceLock<HashMap<String, String>> = OnceLock::new();
    let parsed = PARSED.get_or_init(|| {
        parse(flags).unwrap_or_else(|e| {
            eprintln!("error: {e}\n{}", usage(flags));
            std::process::exit(2);
        })
    });
    parsed.get(name).cloned().unwrap_or_else(|| {
        flags
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, d)| {
                if *d == SWITCH {
                    String::new()
                } else {
                    d.to_string()
                }
            })
            .unwrap_or_else(|| panic!("{name} is not among the example's flags"))
    })
}

/// A comma-separated list of sizes (`--n 1024,2048`; an empty string is no sizes); a value
/// that is not a size stops the program with a message (exit status 2), as a bad flag does.
pub fn sizes(s: &str) -> Vec<usize> {
    s.split(',')
        .filter(|t| !t.trim().is_empty())
        .map(|t| {
            t.trim().parse().unwrap_or_else(|_| {
                eprintln!("error: {t:?} is not a size in the list {s:?}");
                std::process::exit(2)
            })
        })
        .collect()
}

/// Parse the command line now (an unknown flag or a bad value stops the program before any
/// work), for examples whose first [`get`] comes late.
pub fn init(flags: &[(&'static str, &'static str)]) {
    get(flags, flags[0].0);
}

/// A value must have the kind of its flag's default: a whole number, a number, or a
/// comma-separated list of whole numbers (or an empty list: no sizes, to skip a section), where
/// the default is one; anything else is free text.
fn check_kind(name: &str, value: &str, default: &str) -> Result<(), lexopt::Error> {
    let whole = |t: &str| t.trim().parse::<usize>().is_ok();
    let number = |t: &str| t.trim().parse::<f64>().is_ok_and(f64::is_finite);
    let list = |t: &str| !t.is_empty() && t.split(',').all(whole);
    let list_flag = default.ends_with(',') || default.contains(',') && list(default);
    let ok = if list_flag {
        value.trim().is_empty() || list(value.trim_end_matches(','))
    } else if whole(default) {
        whole(value)
    } else if number(default) {
        number(value)
    } else {
        true
    };
    if ok {
        Ok(())
    } else {
        let kind = if list_flag {
            "a comma-separated list of whole numbers"
        } else if whole(default) {
            "a whole number"
        } else {
            "a number"
        };
        Err(lexopt::Error::Custom(
            format!("{name} takes {kind} (default {default}), found {value:?}").into(),
        ))
    }
}

fn usage(flags: &[(&'static str, &'static str)]) -> String {
    let program = std::env::args().next().unwrap_or_default();
    let list: Vec<String> = flags
        .iter()
        .map(|(n, d)| {
            if *d == SWITCH {
                format!("[{n}]")
            } else {
                format!("[{n} {d}]")
            }
        })
        .collect();
    format!("usage: {program} {}", list.join(" "))
}

fn parse(flags: &[(&'static str, &'static str)]) -> Result<HashMap<String, String>, lexopt::Error> {
    use lexopt::prelude::*;
    let mut out = HashMap::new();
    let mut parser = lexopt::Parser::from_env();
    while let Some(arg) = parser.next()? {
        match arg {
            Long("help") | Short('h') => {
                println!("{}", usage(flags));
                std::process::exit(0);
            }
            Long(name) => {
                let Some(&(flag, default)) = flags
                    .iter()
                    .find(|(n, _)| n.strip_prefix("--") == Some(name))
                else {
                    return Err(arg.unexpected());
                };
                let value = if default == SWITCH {
                    "1".to_string()
                } else {
                    let value = parser.value()?.string()?;
                    check_kind(flag, &value, default)?;
                    value
                };
                out.insert(flag.to_string(), value);
            }
            _ => return Err(arg.unexpected()),
        }
    }
    Ok(out)
}

/// The value of a `--checks` flag as the lab's shader-check mode (`auto`: the crate's choice
/// per shader, the default; `0`: checked;
/// `1`: without naga's index clamps; `2`: also without its loop bounding,
/// `wgblas::lab::ShaderChecks`); anything else stops the program (exit status 2).
pub fn shader_checks(v: &str) -> wgblas::lab::ShaderChecks {
    use wgblas::lab::ShaderChecks;
    match v.trim() {
        "auto" => ShaderChecks::Auto,
        "0" => ShaderChecks::Checked,
        "1" => ShaderChecks::NoIndexClamps,
        "2" => ShaderChecks::Unchecked,
        _ => {
            eprintln!("error: --checks {v:?}: auto, 0, 1 or 2");
            std::process::exit(2)
        }
    }
}
