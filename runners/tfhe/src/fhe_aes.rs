//! AES-128 under TFHE with tfhe-rs's published `transciphering` module.
//!
//! tfhe-rs 1.8 ships a bit-sliced AES-128 in CTR mode (`tfhe::transciphering`): the 128 key
//! bits are encrypted one per shortint ciphertext (2-bit message, 2-bit carry), the key
//! schedule runs homomorphically once (`AesFheRoundKeys::new`), and each block
//! E_k(iv + i) is evaluated gate by gate (Boyar-Peralta S-box, XORs as additions, a
//! programmable bootstrap "flush" whenever the noise level would pass 5). The counter
//! block is public (a trivial encryption); the key, hence the state after the first
//! AddRoundKey, is secret. (The engine's BGV runs encrypt the input block too: the work
//! differs by the first AddRoundKey only, which costs no bootstrap here.)
//!
//! Each block is asked for separately (`next_keystream_bits(128)`) and timed on its own;
//! within a block tfhe-rs spreads the bootstraps over rayon's threads. Decryption and
//! the comparison are outside the timed region.

use std::time::Instant;

use tfhe::shortint::server_key::{get_pbs_count, reset_pbs_count};
use tfhe::shortint::{gen_keys, Ciphertext, ClientKey};
use tfhe::transciphering::{AesFheRoundKeys, AesFheState, AesIv, AesPlainKey, Transcipherer};

use crate::params::ParamSet;
use crate::reference::Block;
use crate::sysinfo::cpu_seconds;

/// One evaluated block.
pub struct BlockRun {
    pub index: u64,
    /// Wall time of the homomorphic evaluation of this block.
    pub seconds: f64,
    /// CPU time (all threads) of the same evaluation.
    pub cpu_s: f64,
    /// Programmable bootstraps in this block (tfhe-rs's pbs-stats counter).
    pub pbs: u64,
    /// The decrypted block; None when a ciphertext did not decrypt to a bit.
    pub output: Option<Block>,
}

pub struct Measurement {
    pub keygen_s: f64,
    pub encrypt_key_s: f64,
    pub key_schedule_s: f64,
    pub key_schedule_cpu_s: f64,
    pub key_schedule_pbs: u64,
    pub decrypt_s: f64,
    pub blocks: Vec<BlockRun>,
}

/// The 128 output bits as bytes: byte j holds bits 8j..8j+8, least significant first
/// (the convention of tfhe-rs's AES state and keystream). None if a ciphertext decrypts
/// to something other than 0 or 1.
fn decrypt_block(cks: &ClientKey, bits: &[Ciphertext]) -> Option<Block> {
    assert_eq!(
        bits.len(),
        128,
        "tfhe-rs returned {} keystream bits for one block",
        bits.len()
    );
    let mut out = [0u8; 16];
    for (i, ct) in bits.iter().enumerate() {
        match cks.decrypt(ct) {
            0 => {}
            1 => out[i / 8] |= 1 << (i % 8),
            _ => return None,
        }
    }
    Some(out)
}

fn seconds_since(t: Instant) -> f64 {
    t.elapsed().as_secs_f64()
}

/// Generates keys, encrypts `key`, expands it under FHE, then evaluates `blocks` blocks
/// E_key(first + i), calling `on_block` after each (for progress output).
pub fn run(
    set: &ParamSet,
    key: &Block,
    first: &Block,
    blocks: u64,
    mut on_block: impl FnMut(&BlockRun),
) -> Measurement {
    let t = Instant::now();
    let (cks, sks) = gen_keys(set.parameters);
    let keygen_s = seconds_since(t);

    let t = Instant::now();
    let encrypted_key = AesPlainKey::from(*key).encrypt(&cks);
    let encrypt_key_s = seconds_since(t);

    reset_pbs_count();
    let (t, cpu) = (Instant::now(), cpu_seconds());
    let round_keys = AesFheRoundKeys::new(&sks, &encrypted_key);
    let key_schedule_s = seconds_since(t);
    let key_schedule_cpu_s = cpu_seconds() - cpu;
    let key_schedule_pbs = get_pbs_count();

    let mut state = AesFheState::new(round_keys, AesIv::from(*first));
    let mut runs = Vec::with_capacity(blocks as usize);
    let mut decrypt_s = 0.0;
    for index in 0..blocks {
        reset_pbs_count();
        let (t, cpu) = (Instant::now(), cpu_seconds());
        let stream = state
            .next_keystream_bits(&sks, 128)
            .expect("a 128-bit counter has room for 2^20 blocks");
        let seconds = seconds_since(t);
        let cpu_s = cpu_seconds() - cpu;
        let pbs = get_pbs_count();
        let t = Instant::now();
        let bits = stream.into_raw_parts();
        let output = decrypt_block(&cks, &bits);
        decrypt_s += seconds_since(t);
        let r = BlockRun {
            index,
            seconds,
            cpu_s,
            pbs,
            output,
        };
        on_block(&r);
        runs.push(r);
    }
    Measurement {
        keygen_s,
        encrypt_key_s,
        key_schedule_s,
        key_schedule_cpu_s,
        key_schedule_pbs,
        decrypt_s,
        blocks: runs,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::by_name;
    use crate::reference::{encrypt, input_block};

    /// The whole circuit on the project's insecure test set: every block must equal
    /// RustCrypto's AES (FIPS-197 C.1 key and plaintext, and the next counter block).
    #[test]
    fn two_blocks_match_the_reference_on_the_test_set() {
        let key: Block = core::array::from_fn(|i| i as u8);
        let first: Block = core::array::from_fn(|i| (0x11 * i) as u8);
        let m = run(by_name("insecure-test").unwrap(), &key, &first, 2, |_| {});
        assert_eq!(m.blocks.len(), 2);
        for b in &m.blocks {
            assert_eq!(
                b.output,
                Some(encrypt(&key, &input_block(&first, b.index))),
                "block {}",
                b.index
            );
            assert!(b.pbs > 0);
        }
        // FIPS-197 C.1 as a sanity check of the byte order end to end.
        assert_eq!(
            crate::reference::to_hex(&m.blocks[0].output.unwrap()),
            "69c4e0d86a7b0430d8cdb78070b4c55a"
        );
        assert!(m.key_schedule_pbs > 0);
    }
}
