//! Strict `--flag value` arguments for the report examples, read with `lexopt`: an unknown flag,
//! a flag without its value, or a stray argument stops the program with a message and the usage
//! line (exit status 2). `#[path]`-included; not part of the library.
#![allow(dead_code)]

use std::collections::HashMap;
use std::sync::OnceLock;

/// The default of a flag that takes no value: [`get`] gives `"1"` when it is present, `""` when
/// not.
pub const SWITCH: &str = "(switch)";

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
/// that is not a size stops the
/// program with a message (exit status 2), as a bad flag does.
pub fn sizes(s: &str) -> Vec<usize> {
    if s.trim().is_empty() {
        return Vec::new();
    }
    s.split(',')
        .map(|t| {
            t.trim().parse().unwrap_or_else(|_| {
                eprintln!("error: {t:?} is not a size in the list {s:?}");
                std::process::exit(2)
            })
        })
        .collect()
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
                    parser.value()?.string()?
                };
                out.insert(flag.to_string(), value);
            }
            _ => return Err(arg.unexpected()),
        }
    }
    Ok(out)
}
