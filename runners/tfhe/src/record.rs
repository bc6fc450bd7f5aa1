//! The JSON result, with the core keys of run_cipher's (cipher, blocks, timings{total_s,
//! keygen_s, setup_s, ...}, threads, params{..., security}, key_fingerprint, plaintext_hex,
//! ciphertext_hex, expected_hex, wrong_blocks, correct) and what is TFHE's own (per_block
//! seconds and bootstraps, the crate version, the machine, peak memory).
//!
//! Only a run whose every block equals the reference has `timings` and `per_block`; a run
//! with a wrong block has them under `invalid_timings`, never at the top.

use serde_json::{json, Value};

use crate::fhe_aes::Measurement;
use crate::reference::{self, Block};
use crate::sysinfo::Machine;

pub struct Inputs<'a> {
    /// The parameter set as recorded (ParamSet::to_json or LeveledSet::to_json).
    pub params: Value,
    /// `transciphering` or `leveled`.
    pub method: &'a str,
    pub implementation: &'a str,
    pub packing: &'a str,
    /// Method-specific fields added at the top level (the leveled method's counts, key
    /// sizes, noise); moved under invalid_timings with the timings when a block is wrong
    /// only where they are timings (they are not).
    pub extra: Option<Value>,
    pub key: &'a Block,
    pub first: &'a Block,
    pub seed: u64,
    pub threads: usize,
    pub wall_s: f64,
    pub peak_rss_mb: f64,
    pub machine: &'a Machine,
}

/// (record, wrong block count). `outputs[i]` is what block i decrypted to, after any test
/// corruption; `expected[i]` the reference.
pub fn build(inp: &Inputs, m: &Measurement, outputs: &[Option<Block>], expected: &[Block]) -> (Value, u64) {
    let blocks = m.blocks.len() as u64;
    let wrong = outputs
        .iter()
        .zip(expected)
        .filter(|(o, e)| o.as_ref() != Some(*e))
        .count() as u64;
    let correct = wrong == 0 && blocks > 0;
    let total_s: f64 = m.blocks.iter().map(|b| b.seconds).sum();
    let cpu_total_s: f64 = m.blocks.iter().map(|b| b.cpu_s).sum();
    let pbs_total: u64 = m.blocks.iter().map(|b| b.pbs).sum();
    let setup_s = m.keygen_s + m.encrypt_key_s + m.key_schedule_s;
    let timings = json!({
        "keygen_s": m.keygen_s,
        "encrypt_key_s": m.encrypt_key_s,
        "key_schedule_s": m.key_schedule_s,
        "key_schedule_cpu_s": m.key_schedule_cpu_s,
        "setup_s": setup_s,
        "total_s": total_s,
        "per_block_s": total_s / blocks as f64,
        "latency_s": m.blocks.first().map(|b| b.seconds),
        "cpu_total_s": cpu_total_s,
        "cpu_per_block_s": cpu_total_s / blocks as f64,
        "decrypt_s": m.decrypt_s,
        "wall_s": inp.wall_s,
    });
    let per_block: Vec<Value> = m
        .blocks
        .iter()
        .map(|b| json!({"block": b.index, "seconds": b.seconds, "cpu_s": b.cpu_s, "pbs": b.pbs}))
        .collect();
    let shown = |o: &Option<Block>| o.map(|b| reference::to_hex(&b));
    let mut out = json!({
        "cipher": "aes128",
        "instance": "AES-128",
        "packing": inp.packing,
        "method": inp.method,
        "direction": "encrypt",
        "mode": "ctr: block i = AES_k(plaintext + i mod 2^128), key encrypted, counter public",
        "rounds": 10,
        "rounds_spec": 10,
        "scheme": "tfhe",
        "backend": "tfhe-rs",
        "implementation": inp.implementation,
        "crate": {"name": "tfhe", "version": env!("TFHE_VERSION")},
        "params": inp.params.clone(),
        "blocks": blocks,
        "seed": inp.seed,
        "threads": inp.threads,
        "machine": inp.machine.to_json(),
        "key_fingerprint": reference::fingerprint(inp.key),
        "plaintext_hex": reference::to_hex(inp.first),
        "input_hex": reference::to_hex(inp.first),
        "ciphertext_hex": outputs.first().and_then(shown),
        "expected_hex": expected.first().map(|b| reference::to_hex(b)),
        "pbs": {"key_schedule": m.key_schedule_pbs, "blocks": pbs_total,
                "per_block": pbs_total as f64 / blocks as f64},
        "peak_rss_mb": inp.peak_rss_mb,
        "wrong_blocks": wrong,
        "correct": correct,
    });
    let obj = out.as_object_mut().expect("a JSON object");
    if let Some(Value::Object(extra)) = &inp.extra {
        for (k, v) in extra {
            obj.insert(k.clone(), v.clone());
        }
    }
    if correct {
        obj.insert("timings".into(), timings);
        obj.insert("per_block".into(), Value::Array(per_block));
    } else {
        obj.insert(
            "invalid_timings".into(),
            json!({"timings": timings, "per_block": per_block}),
        );
    }
    (out, wrong)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fhe_aes::BlockRun;
    use crate::params::default_set;

    fn measurement(n: u64) -> Measurement {
        Measurement {
            keygen_s: 1.0,
            encrypt_key_s: 0.5,
            key_schedule_s: 2.0,
            key_schedule_cpu_s: 3.0,
            key_schedule_pbs: 10,
            decrypt_s: 0.1,
            blocks: (0..n)
                .map(|i| BlockRun {
                    index: i,
                    seconds: 3.0 + i as f64,
                    cpu_s: 5.0,
                    pbs: 7,
                    output: None,
                })
                .collect(),
        }
    }

    fn inputs<'a>(machine: &'a Machine, key: &'a Block) -> Inputs<'a> {
        Inputs {
            params: default_set().to_json(),
            method: "transciphering",
            implementation: "test",
            packing: "bit-sliced",
            extra: Some(json!({"counts": {"cmuxes": 3}})),
            key,
            first: key,
            seed: 1,
            threads: 2,
            wall_s: 9.0,
            peak_rss_mb: 5.0,
            machine,
        }
    }

    #[test]
    fn a_correct_run_keeps_its_timings() {
        let machine = Machine::here();
        let key = [7u8; 16];
        let exp = vec![[1u8; 16], [2u8; 16]];
        let outs: Vec<Option<Block>> = exp.iter().copied().map(Some).collect();
        let (r, wrong) = build(&inputs(&machine, &key), &measurement(2), &outs, &exp);
        assert_eq!(wrong, 0);
        assert_eq!(r["correct"], true);
        assert_eq!(r["timings"]["total_s"], 7.0);
        assert_eq!(r["timings"]["per_block_s"], 3.5);
        assert_eq!(r["timings"]["latency_s"], 3.0);
        assert_eq!(r["timings"]["setup_s"], 3.5);
        assert_eq!(r["timings"]["cpu_per_block_s"], 5.0);
        assert_eq!(r["pbs"]["per_block"], 7.0);
        assert_eq!(r["per_block"].as_array().unwrap().len(), 2);
        assert!(r.get("invalid_timings").is_none());
        assert_eq!(r["params"]["security"], 128);
        assert_eq!(r["crate"]["version"], env!("TFHE_VERSION"));
        assert_eq!(r["method"], "transciphering");
        assert_eq!(r["counts"]["cmuxes"], 3);
    }

    #[test]
    fn a_wrong_block_moves_the_timings_under_invalid() {
        let machine = Machine::here();
        let key = [7u8; 16];
        let exp = vec![[1u8; 16], [2u8; 16], [3u8; 16]];
        let outs = vec![Some([1u8; 16]), Some([9u8; 16]), None];
        let (r, wrong) = build(&inputs(&machine, &key), &measurement(3), &outs, &exp);
        assert_eq!(wrong, 2);
        assert_eq!(r["correct"], false);
        assert_eq!(r["wrong_blocks"], 2);
        assert!(r.get("timings").is_none());
        assert!(r.get("per_block").is_none());
        assert_eq!(r["invalid_timings"]["timings"]["total_s"], 12.0);
    }
}
