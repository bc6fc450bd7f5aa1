// Records the tfhe crate's version as Cargo.lock resolved it (TFHE_VERSION), so that every
// result names the exact library it measured; the lock file is the one source of truth.
use std::fs;

fn main() {
    println!("cargo:rerun-if-changed=Cargo.lock");
    let lock = fs::read_to_string("Cargo.lock").expect("runners/tfhe/Cargo.lock is committed");
    let mut lines = lock.lines();
    let mut version = None;
    while let Some(line) = lines.next() {
        if line.trim() == "name = \"tfhe\"" {
            version = lines
                .next()
                .and_then(|l| l.trim().strip_prefix("version = \""))
                .and_then(|v| v.strip_suffix('"'))
                .map(str::to_string);
            break;
        }
    }
    let version = version.expect("Cargo.lock has no tfhe package");
    println!("cargo:rustc-env=TFHE_VERSION={version}");
}
