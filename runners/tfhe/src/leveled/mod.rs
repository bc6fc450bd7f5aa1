//! AES-128 by leveled TFHE: table lookups by CMUX trees over GGSW selectors, after
//! Wei et al., "Low Latency Evaluation of AES via (leveled) TFHE" (poster; the toolkit's
//! issue 22 summarises it). `tfhe_aes --method leveled`.
//!
//! # The method
//!
//! tfhe-rs's own AES (`tfhe::transciphering`, the default method) evaluates the Boolean
//! circuit of AES gate by gate and bootstraps a bit whenever its noise would grow too
//! large: some 16,000 programmable bootstraps per block. The poster instead treats each
//! AES round as 16 table lookups. SubBytes and MixColumns of one byte merge into one
//! 8-to-32-bit table (the "T-table" of software AES: byte x in row i contributes the
//! column MixColumns·(S(x) in row i), that is 1·S(x), 2·S(x) or 3·S(x) in each row);
//! ShiftRows only decides which output column a byte feeds; MixColumns' sums and
//! AddRoundKey are XORs. With each bit encrypted as a TLWE (LWE) sample of m·q/2, XOR is
//! the addition of ciphertexts and costs no bootstrap ("level 0" in the poster). A lookup
//! is a CMUX tree: the 8 bits of the byte, as TRGSW (GGSW) ciphertexts, select one entry
//! of a table held in a TRLWE (GLWE) accumulator: blind rotation by X^-x, 8 CMUXes, then
//! sample extraction of the wanted coefficients (vertical packing). Only the selectors
//! need a bootstrap-like step: turning a TLWE bit into a TRGSW, which classic TFHE does
//! by circuit bootstrapping (one bootstrap per GGSW level plus private functional key
//! switches). The poster replaces it by a conversion made of PBSmanyLUT (one bootstrap
//! whose accumulator holds all levels' values), a public key switch (TLWE -> TRLWE) and
//! EvalSquareMult (the TRLWE rows multiplied by the secret, through a key that encrypts
//! s²), and reports AES-128 in 46 s on one core of an Intel i5-11500.
//!
//! # This implementation
//!
//! Everything cryptographic is tfhe-rs 1.8.2 core_crypto (blind rotation, sample
//! extraction, LWE key switch, LWE->GLWE packing key switch, external product, the wop-PBS
//! CMUX tree `blind_rotate_assign`, key generation and encryption); this module composes.
//! - cbs.rs: the conversion, per bit: one many-LUT blind rotation gives LWE(m·q/B^j) for
//!   the ℓ levels (a round's bits in one tfhe-rs batched blind rotation per thread, so
//!   the bootstrapping key streams from memory once per batch); a packing key switch per
//!   level gives the GGSW body rows; one external product per mask row with the server's
//!   GGSW(-S_i) (rows S_i·S_r and -S_i: the poster's EvalSquareMult as tfhe-rs can compute
//!   it) gives the mask rows. No private functional key switch.
//! - round.rs: per round, key switch the 128 state bits to the small key, convert them
//!   (128 conversions), then per byte the packed table polynomials of 1·S, 2·S and 3·S
//!   (a polynomial of size N holds N/256 of the 8 bit-tables of 256 entries: two at N =
//!   512, the default set) each rotated by 8 CMUXes (tfhe-rs's wop-PBS CMUX tree), and
//!   24 sample extractions; the 4 contributions and the round key are added. The last
//!   round looks up S alone. The key schedule runs under encryption once (SubWord by the
//!   same lookups) from the client's encrypted key, and its round keys are refreshed by
//!   one bootstrap per bit per round to keep the XOR chains' noise bounded.
//! - tables.rs: the S-box and T-tables (checked against MixColumns on all 256 inputs and
//!   a whole clear AES against RustCrypto's), and their packing.
//! - params.rs / noise.rs: the parameter sets, their security and the noise model with
//!   the failure probability per bit and per block.
//!
//! The counter block is public (as in the transciphering method): round 0's AddRoundKey
//! adds it to the encrypted round key 0 as a constant.

pub mod cbs;
pub mod keys;
pub mod noise;
pub mod params;
pub mod round;
pub mod tables;

use std::time::Instant;

use crate::fhe_aes::{BlockRun, Measurement};
use crate::reference::{self, Block};
use crate::sysinfo::cpu_seconds;
use params::LeveledSet;

pub const IMPLEMENTATION: &str = "cipherbench leveled-TFHE AES-128 after Wei et al. (poster, \
'Low Latency Evaluation of AES via (leveled) TFHE'): T-table lookups by CMUX trees, TLWE-to-TRGSW \
conversion by many-LUT blind rotation + packing key switch + external product with GGSW(-S), \
on tfhe-rs core_crypto (runners/tfhe/src/leveled)";

/// The leveled method's own fields of the JSON record.
pub fn record_fields(set: &LeveledSet, x: &Extras) -> serde_json::Value {
    let ks = x.key_sizes;
    serde_json::json!({
        "key_schedule": "under encryption, once per key: SubWord by the same lookups, each new \
    round key bit refreshed by one bootstrap; the client encrypts the 128 key bits",
        "counts": {"per_block": x.counts_per_block, "key_schedule": x.counts_key_schedule},
        "key_sizes_bytes": {
            "bootstrapping_key_fourier": ks.bsk,
            "key_switching_key": ks.ksk,
            "packing_key_switching_key": ks.pksk,
            "square_key_ggsw_fourier": ks.square,
            "total": ks.total(),
        },
        "noise": {
            "model": x.noise.as_ref().map(|r| r.to_json()),
            "model_note": if set.security_bits > 0 { "" } else {
                "none: the model's formulas assume tfhe-rs's secure noise; the test set has almost none" },
            "measured_max_abs_error_decided_log2": x.max_error_decided.log2(),
            "measured_rms_error_decided_log2": x.rms_error_decided.log2(),
            "measured_decided_count": x.decided_count,
            "measured_max_abs_error_output_log2": x.max_error_output.log2(),
            "measured_note": "|phase - bit·q/2| / q (log2) over every bit decided (after each key \
    switch: key schedule and blocks) and every output bit of this run, decrypted after the timed region; \
    a decision fails past 1/4 (-2); compare the rms with the model's state_bit_decided std",
        },
    })
}

/// What the leveled method records beyond the shared Measurement.
pub struct Extras {
    pub counts_per_block: serde_json::Value,
    pub counts_key_schedule: serde_json::Value,
    pub key_sizes: keys::KeySizes,
    pub noise: Option<noise::NoiseReport>,
    /// Largest |error| (fraction of q) seen on a decided small-key bit, and on an output bit.
    pub max_error_decided: f64,
    /// Root mean square of the same errors (an estimate of their standard deviation).
    pub rms_error_decided: f64,
    pub decided_count: u64,
    pub max_error_output: f64,
}

/// (largest |error|, sum of squared errors, count) over decided small-key bits.
fn errors_small(ck: &keys::ClientKey, probe: &[round::Bit]) -> (f64, f64, usize) {
    let mut worst = 0f64;
    let mut sum2 = 0f64;
    for ct in probe {
        let e = ck.decrypt_small(ct).1;
        worst = worst.max(e.abs());
        sum2 += e * e;
    }
    (worst, sum2, probe.len())
}

/// Keys, encrypted key, key schedule under encryption, then `blocks` blocks E_key(first + i).
pub fn run(
    set: &LeveledSet,
    key: &Block,
    first: &Block,
    blocks: u64,
    mut on_block: impl FnMut(&BlockRun),
) -> (Measurement, Extras) {
    let t = Instant::now();
    let (mut ck, sk) = keys::generate(set);
    let keygen_s = t.elapsed().as_secs_f64();
    let ev = round::Evaluator::new(set, &sk);

    let t = Instant::now();
    let key_bits = round::encrypt_key(&mut ck, key);
    let encrypt_key_s = t.elapsed().as_secs_f64();

    let mut probe = Vec::new();
    ev.counts.reset();
    let (t, cpu) = (Instant::now(), cpu_seconds());
    let rks = ev.key_schedule(key_bits, &mut probe);
    let key_schedule_s = t.elapsed().as_secs_f64();
    let key_schedule_cpu_s = cpu_seconds() - cpu;
    let counts_key_schedule = ev.counts.snapshot();
    let key_schedule_pbs = counts_key_schedule["bootstraps"].as_u64().unwrap_or(0);
    let (mut max_error_decided, mut sum2, mut count) = errors_small(&ck, &probe);

    let mut runs = Vec::with_capacity(blocks as usize);
    let mut decrypt_s = 0.0;
    let mut max_error_output = 0f64;
    let mut counts_per_block = serde_json::Value::Null;
    for index in 0..blocks {
        let input = reference::input_block(first, index);
        let mut probe = Vec::new();
        ev.counts.reset();
        let (t, cpu) = (Instant::now(), cpu_seconds());
        let out = ev.block(&input, &rks, &mut probe);
        let seconds = t.elapsed().as_secs_f64();
        let cpu_s = cpu_seconds() - cpu;
        counts_per_block = ev.counts.snapshot();
        let t = Instant::now();
        let (output, worst) = round::decrypt_block(&ck, &out);
        decrypt_s += t.elapsed().as_secs_f64();
        max_error_output = max_error_output.max(worst);
        let (w, s2, c) = errors_small(&ck, &probe);
        max_error_decided = max_error_decided.max(w);
        sum2 += s2;
        count += c;
        let r = BlockRun {
            index,
            seconds,
            cpu_s,
            pbs: counts_per_block["bootstraps"].as_u64().unwrap_or(0),
            output: Some(output),
        };
        on_block(&r);
        runs.push(r);
    }
    let extras = Extras {
        counts_per_block,
        counts_key_schedule,
        key_sizes: sk.sizes(),
        noise: (set.security_bits > 0).then(|| noise::analyse(set)),
        max_error_decided,
        rms_error_decided: (sum2 / count.max(1) as f64).sqrt(),
        decided_count: count as u64,
        max_error_output,
    };
    (
        Measurement {
            keygen_s,
            encrypt_key_s,
            key_schedule_s,
            key_schedule_cpu_s,
            key_schedule_pbs,
            decrypt_s,
            blocks: runs,
        },
        extras,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::{encrypt, input_block};

    /// The whole leveled AES on the insecure test set: FIPS-197 C.1 and the next block.
    #[test]
    fn two_blocks_match_the_reference_on_the_test_set() {
        let key: Block = core::array::from_fn(|i| i as u8);
        let first: Block = core::array::from_fn(|i| (0x11 * i) as u8);
        let (m, x) = run(params::by_name("insecure-test").unwrap(), &key, &first, 2, |_| {});
        for b in &m.blocks {
            assert_eq!(
                b.output,
                Some(encrypt(&key, &input_block(&first, b.index))),
                "block {}",
                b.index
            );
        }
        assert_eq!(
            reference::to_hex(&m.blocks[0].output.unwrap()),
            "69c4e0d86a7b0430d8cdb78070b4c55a"
        );
        // Counts of one block: 10 rounds x 128 conversions, one blind rotation each.
        assert_eq!(x.counts_per_block["circuit_bootstraps"], 1280);
        assert_eq!(x.counts_per_block["bootstraps"], 1280);
        assert_eq!(x.counts_per_block["key_switches"], 1280);
        assert!(x.max_error_decided < 0.25 && x.max_error_output < 0.25);
    }

    /// One round under encryption against the clear round (insecure test set).
    #[test]
    fn one_round_matches_the_clear_round() {
        let p = params::by_name("insecure-test").unwrap();
        let (mut ck, sk) = keys::generate(p);
        let ev = round::Evaluator::new(p, &sk);
        let mut st = 9u64;
        let state_clear = crate::random_block(&mut st);
        let rk_clear = crate::random_block(&mut st);
        let state = round::encrypt_key(&mut ck, &state_clear);
        let rk = round::encrypt_key(&mut ck, &rk_clear);
        let out = ev.round(&state, 1, &rk, &mut Vec::new());
        let (got, _) = round::decrypt_block(&ck, &out);
        // Clear: SubBytes, ShiftRows, MixColumns by T-tables, then AddRoundKey.
        let mut expect = rk_clear;
        for k in 0..16 {
            let (i, c) = (k % 4, k / 4);
            let dst = (c + 4 - i) % 4;
            for (t, b) in tables::t_table(i, state_clear[k]).iter().enumerate() {
                expect[t + 4 * dst] ^= b;
            }
        }
        assert_eq!(got, expect);
        // The last round: S-box and ShiftRows only.
        let out = ev.round(&state, 10, &rk, &mut Vec::new());
        let (got, _) = round::decrypt_block(&ck, &out);
        let s = tables::sbox();
        let mut expect = rk_clear;
        for k in 0..16 {
            let (i, c) = (k % 4, k / 4);
            expect[i + 4 * ((c + 4 - i) % 4)] ^= s[state_clear[k] as usize];
        }
        assert_eq!(got, expect);
    }

    #[test]
    fn conversion_then_lookup_is_the_table_on_every_byte_value() {
        let p = params::by_name("insecure-test").unwrap();
        let (mut ck, sk) = keys::generate(p);
        let ev = round::Evaluator::new(p, &sk);
        let m = tables::multiples();
        for x in (0..=255u8).step_by(7).chain([255]) {
            let big: Vec<round::Bit> = (0..8).map(|j| ck.encrypt_big((x >> j) & 1 == 1)).collect();
            let small = ev.key_switch_all(&big);
            let sel = ev.convert_bytes(&small);
            let out = ev.lookups(&sel, &[0, 1, 2]);
            for (w, table) in m.iter().enumerate() {
                let mut v = 0u8;
                for (j, ct) in out[0][w].iter().enumerate() {
                    v |= (ck.decrypt_big(ct).0 as u8) << j;
                }
                assert_eq!(v, table[x as usize], "x {x:#04x}, table {w}");
            }
        }
    }
}

/// Time of each primitive at leveled-128, one thread (for tuning; prints, asserts nothing
/// but correctness of what it times). `cargo test --release -- --ignored primitive_times`.
#[cfg(test)]
mod timing {
    use super::*;
    use std::time::Instant;
    use tfhe::core_crypto::prelude::*;

    #[test]
    #[ignore]
    fn primitive_times_at_128_bits() {
        let p = params::by_name(&std::env::var("CB_LEVELED_SET").unwrap_or("leveled-128".into())).unwrap();
        eprintln!("{} noise {:?}", p.name, noise::analyse(p).log2_p_block);
        let (mut ck, sk) = keys::generate(p);
        let ev = round::Evaluator::new(p, &sk);
        let mut ws = cbs::Workspace::new(p, &sk);
        let bits: Vec<round::Bit> = (0..8).map(|j| ck.encrypt_big(j % 3 == 0)).collect();
        let reps = 20;
        let t = Instant::now();
        let mut small = Vec::new();
        for _ in 0..reps {
            small = ev.key_switch_all(&bits[..1]);
        }
        eprintln!(
            "key switch: {:.3} ms",
            t.elapsed().as_secs_f64() * 1e3 / reps as f64
        );
        let alphas = cbs::conversion_alphas(p);
        let batch: Vec<round::Bit> = (0..128).map(|_| small[0].clone()).collect();
        let t = Instant::now();
        let lv = cbs::many_lut_shift_batch(&sk, &batch, &alphas, &mut ws, &ev.counts);
        eprintln!(
            "batched many-LUT blind rotation (128): {:.3} ms each",
            t.elapsed().as_secs_f64() * 1e3 / 128.0
        );
        let lv = &lv[0];
        let n = PolynomialSize(p.polynomial_size);
        let glwe_size = GlweSize(p.glwe_dimension + 1);
        let mut body = GlweCiphertext::new(0u64, glwe_size, n, keys::native());
        let t = Instant::now();
        for _ in 0..reps {
            keyswitch_lwe_ciphertext_into_glwe_ciphertext(&sk.pksk, &lv[0], &mut body);
        }
        eprintln!(
            "packing key switch: {:.3} ms",
            t.elapsed().as_secs_f64() * 1e3 / reps as f64
        );
        let t = Instant::now();
        for _ in 0..reps {
            let mut mask = GlweCiphertext::new(0u64, glwe_size, n, keys::native());
            tfhe::core_crypto::fft_impl::fft64::crypto::ggsw::add_external_product_assign(
                mask.as_mut_view(),
                sk.square[0].as_view(),
                body.as_view(),
                sk.fft.as_view(),
                ws.buffers.stack(),
            );
        }
        eprintln!(
            "square external product: {:.3} ms",
            t.elapsed().as_secs_f64() * 1e3 / reps as f64
        );
        let small8 = ev.key_switch_all(&bits);
        let t = Instant::now();
        let sel = ev.convert_bytes(&small8).pop().unwrap();
        eprintln!(
            "conversion of a byte (8 bits, batch of 8): {:.3} ms",
            t.elapsed().as_secs_f64() * 1e3
        );
        let t = Instant::now();
        let out = cbs::lookup(p, &sk, &sel, &ev.tables.multiples[0], &mut ws, &ev.counts);
        eprintln!(
            "lookup of one packed table (8 CMUX + 8 extractions): {:.3} ms",
            t.elapsed().as_secs_f64() * 1e3
        );
        let x: u8 = (0..8).map(|j| ((j % 3 == 0) as u8) << j).sum();
        let got: u8 = out
            .iter()
            .enumerate()
            .map(|(j, c)| (ck.decrypt_big(c).0 as u8) << j)
            .sum();
        assert_eq!(got, tables::sbox()[x as usize]);
    }
}
