//! The tfhe_aes executable end to end: argument errors, a checked run on the insecure test
//! set (seconds), the wrong-result path, and (ignored unless asked: `make test-slow`) one
//! block at tfhe-rs's default 128-bit parameters.

use std::path::PathBuf;
use std::process::{Command, Output};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tfhe_aes"))
}

fn out_path(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cb_tfhe_cli_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    let _ = std::fs::remove_file(&p);
    p
}

fn run(args: &[&str]) -> Output {
    bin().args(args).output().expect("tfhe_aes runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn read_json(p: &PathBuf) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

#[test]
fn bad_arguments_exit_1_with_a_named_error_and_no_json() {
    let j = out_path("bad.json");
    let js = j.to_str().unwrap();
    for (args, message) in [
        (
            vec!["--json", js, "--blocks", "0"],
            "--blocks 0: must be between 1 and 1048576",
        ),
        (
            vec!["--json", js, "--threads", "two"],
            "--threads \"two\": not a positive integer",
        ),
        (
            vec!["--json", js, "--params", "tiny"],
            "--params \"tiny\": unknown parameter set",
        ),
        (
            vec!["--json", js, "--key", "00"],
            "--key \"00\": needs exactly 32 hex digits",
        ),
        (
            vec!["--json", js, "--method", "foo"],
            "--method \"foo\": unknown method (known: transciphering, leveled)",
        ),
        (
            vec![
                "--json",
                js,
                "--method",
                "leveled",
                "--params",
                "ks-pbs-tuniform-2m128",
            ],
            "unknown parameter set for --method leveled (known: leveled-128, leveled-128-k1, insecure-test)",
        ),
        (vec!["--blocks", "1"], "--json is required"),
        (
            vec!["--json", "/no-such-dir-cb/x.json"],
            "folder /no-such-dir-cb does not exist",
        ),
    ] {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(message), "{args:?}: {}", stderr(&o));
        assert!(!j.exists(), "{args:?} wrote a JSON");
    }
}

#[test]
fn help_exits_0() {
    let o = run(&["--help"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stdout).contains("--blocks N"));
}

#[test]
fn fips197_key_and_plaintext_on_the_test_set() {
    let j = out_path("ok.json");
    let o = run(&[
        "--json",
        j.to_str().unwrap(),
        "--params",
        "insecure-test",
        "--blocks",
        "2",
        "--threads",
        "2",
        "--key",
        "000102030405060708090a0b0c0d0e0f",
        "--plaintext",
        "00112233445566778899aabbccddeeff",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let r = read_json(&j);
    assert_eq!(r["correct"], true);
    assert_eq!(r["wrong_blocks"], 0);
    assert_eq!(r["blocks"], 2);
    assert_eq!(r["threads"], 2);
    assert_eq!(r["scheme"], "tfhe");
    assert_eq!(r["params"]["name"], "insecure-test");
    assert_eq!(r["params"]["security"], 0);
    assert_eq!(r["ciphertext_hex"], "69c4e0d86a7b0430d8cdb78070b4c55a");
    assert_eq!(r["expected_hex"], "69c4e0d86a7b0430d8cdb78070b4c55a");
    assert_eq!(r["per_block"].as_array().unwrap().len(), 2);
    let t = &r["timings"];
    for k in [
        "keygen_s",
        "key_schedule_s",
        "setup_s",
        "total_s",
        "per_block_s",
        "latency_s",
        "wall_s",
    ] {
        assert!(t[k].as_f64().unwrap() > 0.0, "{k}");
    }
    assert!(r["pbs"]["per_block"].as_f64().unwrap() > 1000.0);
    assert!(r["peak_rss_mb"].as_f64().unwrap() > 0.0);
    assert!(r.get("invalid_timings").is_none());
}

#[test]
fn a_wrong_block_exits_2_and_keeps_no_timings() {
    let j = out_path("wrong.json");
    let o = run(&[
        "--json",
        j.to_str().unwrap(),
        "--params",
        "insecure-test",
        "--seed",
        "5",
        "--corrupt-output",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("WRONG RESULT: 1 of 1 blocks"));
    let r = read_json(&j);
    assert_eq!(r["correct"], false);
    assert_eq!(r["wrong_blocks"], 1);
    assert!(r.get("timings").is_none());
    assert!(r["invalid_timings"]["timings"]["total_s"].as_f64().unwrap() > 0.0);
}

#[test]
fn leveled_method_fips197_on_the_test_set() {
    let j = out_path("leveled.json");
    let o = run(&[
        "--json",
        j.to_str().unwrap(),
        "--method",
        "leveled",
        "--params",
        "insecure-test",
        "--threads",
        "2",
        "--key",
        "000102030405060708090a0b0c0d0e0f",
        "--plaintext",
        "00112233445566778899aabbccddeeff",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let r = read_json(&j);
    assert_eq!(r["correct"], true);
    assert_eq!(r["method"], "leveled");
    assert_eq!(r["params"]["name"], "insecure-test");
    assert_eq!(r["params"]["security"], 0);
    assert_eq!(r["ciphertext_hex"], "69c4e0d86a7b0430d8cdb78070b4c55a");
    let c = &r["counts"]["per_block"];
    assert_eq!(c["circuit_bootstraps"], 1280);
    assert_eq!(c["bootstraps"], 1280);
    assert_eq!(c["key_switches"], 1280);
    assert!(c["cmuxes"].as_u64().unwrap() > 0);
    assert!(r["key_sizes_bytes"]["total"].as_u64().unwrap() > 0);
    assert!(r["timings"]["latency_s"].as_f64().unwrap() > 0.0);
    assert_eq!(r["pbs"]["per_block"], 1280.0);
    // The record keeps no secret key: the only key-derived field is the fingerprint.
    let text = std::fs::read_to_string(&j).unwrap();
    assert!(!text.contains("000102030405060708090a0b0c0d0e0f"));
}

#[test]
fn leveled_wrong_block_exits_2_and_keeps_no_timings() {
    let j = out_path("leveled_wrong.json");
    let o = run(&[
        "--json",
        j.to_str().unwrap(),
        "--method",
        "leveled",
        "--params",
        "insecure-test",
        "--corrupt-output",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let r = read_json(&j);
    assert_eq!(r["correct"], false);
    assert!(r.get("timings").is_none());
    assert!(r["invalid_timings"]["timings"]["total_s"].as_f64().unwrap() > 0.0);
}

/// One block of the leveled method at its 128-bit set (leveled-128): a few CPU minutes
/// with the key schedule. Run by `make test-slow`.
#[test]
#[ignore]
fn leveled_one_block_at_128_bits() {
    let j = out_path("leveled_slow.json");
    let o = run(&[
        "--json",
        j.to_str().unwrap(),
        "--method",
        "leveled",
        "--seed",
        "3",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let r = read_json(&j);
    assert_eq!(r["correct"], true);
    assert_eq!(r["params"]["name"], "leveled-128");
    assert_eq!(r["params"]["security"], 128);
    assert!(r["noise"]["model"]["log2_p_fail_block"].as_f64().unwrap() <= -40.0);
    assert!(
        r["noise"]["measured_max_abs_error_decided_log2"]
            .as_f64()
            .unwrap()
            < -2.0
    );
}

/// One block at tfhe-rs's default parameters (128 bits stated): about 5 CPU minutes
/// (BENCHMARKS.md). Run by `make test-slow` (cargo test --release -- --ignored).
#[test]
#[ignore]
fn one_block_at_the_default_128_bit_parameters() {
    let j = out_path("slow.json");
    let o = run(&["--json", j.to_str().unwrap(), "--seed", "3"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let r = read_json(&j);
    assert_eq!(r["correct"], true);
    assert_eq!(
        r["params"]["constant"],
        "V1_8_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128"
    );
    assert_eq!(r["params"]["security"], 128);
}
