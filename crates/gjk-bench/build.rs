//! Detects libccd (Debian's `libccd-dev`): when its header is found, links `ccd` and sets `cfg(has_libccd)`, which
//! turns on the FFI in `src/ccd.rs`. Without it the crate builds and the libccd benches are skipped.
//!
//! Set `GJK_BENCH_NO_LIBCCD=1` to build without libccd even when it is installed.

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(has_libccd)");
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=GJK_BENCH_NO_LIBCCD");
    println!("cargo::rerun-if-env-changed=PKG_CONFIG_PATH");
    // The report names the compiler that built it.
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let version = Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map_or_else(|| "unknown".to_string(), |v| v.trim().to_string());
    println!("cargo::rustc-env=GJK_BENCH_RUSTC={version}");
    if std::env::var_os("GJK_BENCH_NO_LIBCCD").is_some_and(|v| !v.is_empty() && v != "0") {
        println!("cargo::warning=libccd disabled by GJK_BENCH_NO_LIBCCD: the libccd benches are skipped");
        return;
    }
    let (mut include_dirs, lib_dirs) = pkg_config();
    include_dirs.push(PathBuf::from("/usr/include"));
    include_dirs.push(PathBuf::from("/usr/local/include"));
    let Some(dir) = include_dirs.iter().find(|d| d.join("ccd/ccd.h").is_file()) else {
        // Installing libccd later creates /usr/include/ccd, which changes /usr/include: re-detect then.
        if Path::new("/usr/include").is_dir() {
            println!("cargo::rerun-if-changed=/usr/include");
        }
        return;
    };
    println!("cargo::rerun-if-changed={}", dir.join("ccd/ccd.h").display());
    let config = dir.join("ccd/config.h");
    println!("cargo::rerun-if-changed={}", config.display());
    // The FFI declares ccd_real_t as double: a single-precision build of libccd would not match it.
    let double = std::fs::read_to_string(&config).is_ok_and(|c| c.lines().any(|l| l.trim() == "#define CCD_DOUBLE"));
    if !double {
        println!(
            "cargo::warning=libccd at {} is not built with CCD_DOUBLE: the libccd benches are skipped",
            dir.display()
        );
        return;
    }
    for l in lib_dirs {
        println!("cargo::rustc-link-search=native={}", l.display());
    }
    println!("cargo::rustc-link-lib=ccd");
    println!("cargo::rustc-cfg=has_libccd");
}

/// Include and library directories of `ccd` from pkg-config, if pkg-config is there and knows it.
fn pkg_config() -> (Vec<PathBuf>, Vec<PathBuf>) {
    let Ok(out) = Command::new("pkg-config").args(["--cflags-only-I", "--libs-only-L", "ccd"]).output() else {
        return (Vec::new(), Vec::new());
    };
    if !out.status.success() {
        return (Vec::new(), Vec::new());
    }
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let mut inc = Vec::new();
    let mut lib = Vec::new();
    for tok in text.split_whitespace() {
        if let Some(d) = tok.strip_prefix("-I") {
            inc.push(PathBuf::from(d));
        } else if let Some(d) = tok.strip_prefix("-L") {
            lib.push(PathBuf::from(d));
        }
    }
    (inc, lib)
}
