//! Command line of `tfhe_aes`, checked in full before any work starts.
//!
//! Every error names the option, the value given and the constraint it breaks, the way
//! `run_cipher` does; `main` prints it and exits with status 1.

use std::fmt;
use std::path::{Path, PathBuf};

use crate::leveled::params::{self as leveled_params, LeveledSet};
use crate::params::{self, ParamSet};

/// The AES implementation to run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Method {
    /// tfhe-rs's `transciphering` module (src/fhe_aes.rs).
    Transciphering,
    /// The leveled-TFHE lookup AES (src/leveled/).
    Leveled,
}

pub const METHODS: [(&str, Method); 2] = [
    ("transciphering", Method::Transciphering),
    ("leveled", Method::Leveled),
];

impl Method {
    pub fn name(self) -> &'static str {
        METHODS
            .iter()
            .find(|(_, m)| *m == self)
            .map(|(n, _)| *n)
            .expect("every method is named")
    }
}

pub const USAGE: &str = "\
usage: tfhe_aes --json OUT [--method M] [--blocks N] [--threads T] [--seed S] [--key HEX32]
                [--plaintext HEX32] [--params NAME]

AES-128 evaluated under TFHE with tfhe-rs, by one of two methods: `transciphering` (the
default: tfhe-rs's transciphering module, a bit-sliced AES-128 with an encrypted key, one
bootstrapped bit per ciphertext) or `leveled` (Wei et al.'s leveled TFHE: per round, each
byte's bits turned into GGSW selectors and SubBytes+MixColumns looked up as 8-to-32-bit
tables by CMUX trees; src/leveled/). Block i is the AES-128 encryption of
(plaintext + i mod 2^128) under the key: the CTR keystream blocks. Every block is decrypted
and compared with RustCrypto's AES-128; a wrong block exits with status 2 and its timings
are written under invalid_timings.

  --json OUT        output JSON file (required; its folder must exist and be writable)
  --method M        transciphering (default) or leveled
  --blocks N        blocks to evaluate, one after the other (default 1)
  --threads T       rayon threads of tfhe-rs (default: all cores)
  --seed S          seed of the random AES key and first block when not given (default 1)
  --key HEX32       AES-128 key, 32 hex digits (default: random from --seed)
  --plaintext HEX32 first input block, 32 hex digits (default: random from --seed)
  --params NAME     parameter set; for transciphering (tfhe-rs sets): ";

/// What the user asked for; everything is validated.
#[derive(Debug, Clone, PartialEq)]
pub struct Args {
    pub json: PathBuf,
    pub blocks: u64,
    pub threads: Option<usize>,
    pub seed: u64,
    pub key: Option<[u8; 16]>,
    pub plaintext: Option<[u8; 16]>,
    pub method: Method,
    /// The transciphering method's parameter set (used when method is Transciphering).
    pub params: &'static ParamSet,
    /// The leveled method's parameter set (used when method is Leveled).
    pub leveled: &'static LeveledSet,
    /// Test hook (not in the usage): flip a bit of block 0's decrypted output before the
    /// check, to exercise the wrong-result path.
    pub corrupt_output: bool,
}

/// Upper bounds that keep a typo from starting a days-long run.
pub const MAX_BLOCKS: u64 = 1 << 20;
pub const MAX_THREADS: usize = 4096;

#[derive(Debug, Clone, PartialEq)]
pub enum ArgError {
    Help,
    Message(String),
}

impl fmt::Display for ArgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArgError::Help => write!(f, "{}", usage()),
            ArgError::Message(m) => write!(f, "{m}"),
        }
    }
}

fn err<T>(message: String) -> Result<T, ArgError> {
    Err(ArgError::Message(message))
}

pub fn usage() -> String {
    let names: Vec<String> = params::ALL
        .iter()
        .map(|p| format!("{}{}", p.name, if p.is_default { " (default)" } else { "" }))
        .collect();
    let leveled: Vec<String> = leveled_params::ALL
        .iter()
        .map(|p| format!("{}{}", p.name, if p.is_default { " (default)" } else { "" }))
        .collect();
    format!(
        "{USAGE}{};\n                    for leveled: {}\n",
        names.join(", "),
        leveled.join(", ")
    )
}

fn parse_positive_u64(option: &str, value: &str, max: u64) -> Result<u64, ArgError> {
    match value.parse::<u64>() {
        Ok(v) if v >= 1 && v <= max => Ok(v),
        Ok(v) => err(format!("{option} {v}: must be between 1 and {max}")),
        Err(_) => err(format!("{option} {value:?}: not a positive integer")),
    }
}

/// 32 hex digits (an optional 0x prefix) into 16 bytes, most significant first.
pub fn parse_hex16(option: &str, value: &str) -> Result<[u8; 16], ArgError> {
    let digits = value.strip_prefix("0x").unwrap_or(value);
    if digits.len() != 32 {
        return err(format!(
            "{option} {value:?}: needs exactly 32 hex digits (16 bytes), got {}",
            digits.len()
        ));
    }
    let mut out = [0u8; 16];
    for (i, byte) in out.iter_mut().enumerate() {
        let pair = &digits[2 * i..2 * i + 2];
        *byte = u8::from_str_radix(pair, 16)
            .map_err(|_| ArgError::Message(format!("{option} {value:?}: {pair:?} is not hex")))?;
    }
    Ok(out)
}

/// The --json path must be creatable: its folder exists and is writable, and an existing
/// file is writable. Checked without creating anything (a failed run leaves no file).
pub fn check_writable(path: &Path) -> Result<(), ArgError> {
    let shown = path.display();
    if path.as_os_str().is_empty() {
        return err("--json \"\": an empty path".to_string());
    }
    if path.is_dir() {
        return err(format!("--json {shown}: is a folder, not a file"));
    }
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    if !parent.is_dir() {
        return err(format!(
            "--json {shown}: folder {} does not exist",
            parent.display()
        ));
    }
    let target = if path.exists() {
        path.to_path_buf()
    } else {
        parent.clone()
    };
    if !writable(&target) {
        let what = if path.exists() { "the file" } else { "its folder" };
        return err(format!("--json {shown}: {what} is not writable"));
    }
    Ok(())
}

fn writable(path: &Path) -> bool {
    use std::os::unix::ffi::OsStrExt;
    let Ok(c) = std::ffi::CString::new(path.as_os_str().as_bytes()) else {
        return false;
    };
    // SAFETY: access(2) reads a NUL-terminated path and has no other effect.
    unsafe { libc::access(c.as_ptr(), libc::W_OK) == 0 }
}

/// Parses the arguments after the program name.
pub fn parse<S: AsRef<str>>(argv: &[S]) -> Result<Args, ArgError> {
    let mut json = None;
    let mut blocks = 1;
    let mut threads = None;
    let mut seed = 1;
    let mut key = None;
    let mut plaintext = None;
    let mut method = Method::Transciphering;
    let mut params_name: Option<String> = None;
    let mut corrupt_output = false;
    let mut seen: Vec<String> = Vec::new();

    let mut it = argv.iter().map(|s| s.as_ref());
    while let Some(arg) = it.next() {
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(v.to_string())),
            _ => (arg, None),
        };
        if name == "--help" || name == "-h" {
            return Err(ArgError::Help);
        }
        if name == "--corrupt-output" {
            corrupt_output = true;
            continue;
        }
        const VALUED: [&str; 8] = [
            "--json",
            "--method",
            "--blocks",
            "--threads",
            "--seed",
            "--key",
            "--plaintext",
            "--params",
        ];
        if !VALUED.contains(&name) {
            return err(format!("unknown argument {arg:?} (see --help)"));
        }
        if seen.iter().any(|s| s == name) {
            return err(format!("{name} given twice"));
        }
        seen.push(name.to_string());
        let value = match inline {
            Some(v) => v,
            None => match it.next() {
                Some(v) if !v.starts_with("--") => v.to_string(),
                _ => return err(format!("{name} needs a value")),
            },
        };
        match name {
            "--json" => json = Some(PathBuf::from(value)),
            "--blocks" => blocks = parse_positive_u64(name, &value, MAX_BLOCKS)?,
            "--threads" => threads = Some(parse_positive_u64(name, &value, MAX_THREADS as u64)? as usize),
            "--seed" => {
                seed = value.parse::<u64>().map_err(|_| {
                    ArgError::Message(format!("--seed {value:?}: not an integer in [0, 2^64)"))
                })?
            }
            "--key" => key = Some(parse_hex16(name, &value)?),
            "--plaintext" => plaintext = Some(parse_hex16(name, &value)?),
            "--params" => params_name = Some(value),
            "--method" => {
                method = METHODS
                    .iter()
                    .find(|(n, _)| *n == value)
                    .map(|(_, m)| *m)
                    .ok_or_else(|| {
                        let names: Vec<&str> = METHODS.iter().map(|(n, _)| *n).collect();
                        ArgError::Message(format!(
                            "--method {value:?}: unknown method (known: {})",
                            names.join(", ")
                        ))
                    })?
            }
            _ => unreachable!("every valued option is matched"),
        }
    }
    let mut params = params::default_set();
    let mut leveled = leveled_params::default_set();
    if let Some(value) = params_name {
        match method {
            Method::Transciphering => {
                params = params::by_name(&value).ok_or_else(|| {
                    let names: Vec<&str> = params::ALL.iter().map(|p| p.name).collect();
                    ArgError::Message(format!(
                        "--params {value:?}: unknown parameter set (known: {})",
                        names.join(", ")
                    ))
                })?
            }
            Method::Leveled => {
                leveled = leveled_params::by_name(&value).ok_or_else(|| {
                    ArgError::Message(format!(
                        "--params {value:?}: unknown parameter set for --method leveled (known: {})",
                        leveled_params::names().join(", ")
                    ))
                })?
            }
        }
    }
    let Some(json) = json else {
        return err("--json is required (the output file)".to_string());
    };
    check_writable(&json)?;
    Ok(Args {
        json,
        blocks,
        threads,
        seed,
        key,
        plaintext,
        method,
        params,
        leveled,
        corrupt_output,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(argv: &[&str]) -> String {
        match parse(argv) {
            Err(ArgError::Message(m)) => m,
            other => panic!("expected an error for {argv:?}, got {other:?}"),
        }
    }

    fn tmp_json() -> String {
        std::env::temp_dir()
            .join("cb_tfhe_args_test.json")
            .display()
            .to_string()
    }

    #[test]
    fn defaults() {
        let j = tmp_json();
        let a = parse(&["--json", &j]).unwrap();
        assert_eq!(a.blocks, 1);
        assert_eq!(a.threads, None);
        assert_eq!(a.seed, 1);
        assert_eq!(a.key, None);
        assert!(a.params.is_default);
        assert!(!a.corrupt_output);
    }

    #[test]
    fn every_option() {
        let j = tmp_json();
        let a = parse(&[
            "--json",
            &j,
            "--blocks",
            "3",
            "--threads=2",
            "--seed",
            "7",
            "--key",
            "000102030405060708090a0b0c0d0e0f",
            "--plaintext",
            "0x00112233445566778899aabbccddeeff",
            "--params",
            "insecure-test",
        ])
        .unwrap();
        assert_eq!((a.blocks, a.threads, a.seed), (3, Some(2), 7));
        assert_eq!(a.key.unwrap()[15], 0x0f);
        assert_eq!(a.plaintext.unwrap()[0], 0x00);
        assert_eq!(a.plaintext.unwrap()[1], 0x11);
        assert_eq!(a.params.name, "insecure-test");
    }

    #[test]
    fn json_is_required() {
        assert_eq!(
            message(&["--blocks", "1"]),
            "--json is required (the output file)"
        );
    }

    #[test]
    fn bad_numbers_are_named() {
        let j = tmp_json();
        assert_eq!(
            message(&["--json", &j, "--blocks", "0"]),
            "--blocks 0: must be between 1 and 1048576"
        );
        assert_eq!(
            message(&["--json", &j, "--blocks", "-2"]),
            "--blocks \"-2\": not a positive integer"
        );
        assert_eq!(
            message(&["--json", &j, "--threads", "0"]),
            "--threads 0: must be between 1 and 4096"
        );
        assert_eq!(
            message(&["--json", &j, "--seed", "x"]),
            "--seed \"x\": not an integer in [0, 2^64)"
        );
    }

    #[test]
    fn bad_hex_is_named() {
        let j = tmp_json();
        assert_eq!(
            message(&["--json", &j, "--key", "0011"]),
            "--key \"0011\": needs exactly 32 hex digits (16 bytes), got 4"
        );
        assert_eq!(
            message(&["--json", &j, "--plaintext", "zz112233445566778899aabbccddeeff"]),
            "--plaintext \"zz112233445566778899aabbccddeeff\": \"zz\" is not hex"
        );
    }

    #[test]
    fn unknown_and_repeated_and_missing_values() {
        let j = tmp_json();
        assert_eq!(
            message(&["--json", &j, "--rounds", "3"]),
            "unknown argument \"--rounds\" (see --help)"
        );
        assert_eq!(
            message(&["--json", &j, "--blocks", "1", "--blocks", "2"]),
            "--blocks given twice"
        );
        assert_eq!(message(&["--json", &j, "--blocks"]), "--blocks needs a value");
        assert_eq!(message(&["--json", "--blocks", "2"]), "--json needs a value");
        assert!(message(&["--json", &j, "--params", "fast"])
            .starts_with("--params \"fast\": unknown parameter set (known: "));
    }

    #[test]
    fn json_path_is_checked_before_work() {
        assert_eq!(
            message(&["--json", "/nonexistent-folder-cb/out.json"]),
            "--json /nonexistent-folder-cb/out.json: folder /nonexistent-folder-cb does not exist"
        );
        let dir = std::env::temp_dir();
        assert_eq!(
            message(&["--json", dir.to_str().unwrap()]),
            format!("--json {}: is a folder, not a file", dir.display())
        );
        // Nothing is created by the check.
        let fresh = dir.join("cb_tfhe_never_created.json");
        let _ = std::fs::remove_file(&fresh);
        parse(&["--json", fresh.to_str().unwrap()]).unwrap();
        assert!(!fresh.exists());
    }

    #[test]
    fn methods_and_their_parameter_sets() {
        let j = tmp_json();
        let a = parse(&["--json", &j]).unwrap();
        assert_eq!(a.method, Method::Transciphering);
        let a = parse(&["--json", &j, "--method", "leveled"]).unwrap();
        assert_eq!((a.method, a.leveled.name), (Method::Leveled, "leveled-128"));
        let a = parse(&["--json", &j, "--params", "insecure-test", "--method=leveled"]).unwrap();
        assert_eq!(a.leveled.name, "insecure-test");
        assert_eq!(
            message(&["--json", &j, "--method", "foo"]),
            "--method \"foo\": unknown method (known: transciphering, leveled)"
        );
        assert_eq!(
            message(&[
                "--json",
                &j,
                "--method",
                "leveled",
                "--params",
                "ks-pbs-tuniform-2m128"
            ]),
            "--params \"ks-pbs-tuniform-2m128\": unknown parameter set for --method leveled \
             (known: leveled-128, leveled-128-k1, insecure-test)"
        );
        assert!(message(&["--json", &j, "--params", "leveled-128"])
            .starts_with("--params \"leveled-128\": unknown parameter set (known: "));
        assert_eq!(message(&["--json", &j, "--method"]), "--method needs a value");
    }

    #[test]
    fn help_is_not_an_error_message() {
        assert_eq!(parse(&["--help"]), Err(ArgError::Help));
        assert!(usage().contains("insecure-test"));
        assert!(usage().contains("leveled-128 (default)"));
        assert!(usage().contains("--method M"));
    }
}
