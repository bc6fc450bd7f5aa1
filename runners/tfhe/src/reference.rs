//! The plaintext AES-128 every homomorphic block is checked against: RustCrypto's `aes`
//! crate, itself tested here against the project's vectors (FIPS-197 Appendices B and
//! C.1 and a random pair, runners/ciphers/aes128/vectors.json, the file the C++
//! reference is tested on).

use aes::cipher::{Array, BlockCipherEncrypt, KeyInit};
use aes::Aes128;

pub type Block = [u8; 16];

/// AES-128 encryption of one block (bytes in FIPS-197 input order).
pub fn encrypt(key: &Block, plaintext: &Block) -> Block {
    let cipher = Aes128::new(&Array::from(*key));
    let mut block = Array::from(*plaintext);
    cipher.encrypt_block(&mut block);
    block.into()
}

/// Input block i of a run: the first block plus i, as a 128-bit big-endian counter
/// (tfhe-rs's AES-CTR counter convention: `iv + i`, bytes most significant first).
pub fn input_block(first: &Block, i: u64) -> Block {
    u128::from_be_bytes(*first).wrapping_add(i as u128).to_be_bytes()
}

pub fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// 64-bit FNV-1a of the key, as run_cipher prints it (a fingerprint to tell runs apart;
/// the key itself is never written).
pub fn fingerprint(key: &Block) -> String {
    let mut h: u64 = 0xcbf29ce484222325;
    for &b in key {
        h = (h ^ b as u64).wrapping_mul(0x100000001b3);
    }
    format!("{h:x}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::parse_hex16;

    fn hex(s: &str) -> Block {
        parse_hex16("test", s).unwrap()
    }

    #[test]
    fn fips197_appendix_c1() {
        let got = encrypt(
            &hex("000102030405060708090a0b0c0d0e0f"),
            &hex("00112233445566778899aabbccddeeff"),
        );
        assert_eq!(to_hex(&got), "69c4e0d86a7b0430d8cdb78070b4c55a");
    }

    #[test]
    fn project_vectors() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../ciphers/aes128/vectors.json"
        );
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
        let vectors = doc["vectors"].as_array().unwrap();
        assert!(vectors.len() >= 3);
        for v in vectors {
            let key = hex(v["key_bytes"].as_str().unwrap());
            let pt = hex(v["plaintext_bytes"].as_str().unwrap());
            assert_eq!(
                to_hex(&encrypt(&key, &pt)),
                v["ciphertext_bytes"].as_str().unwrap(),
                "{}",
                v["name"]
            );
        }
    }

    #[test]
    fn a_wrong_key_gives_another_block() {
        let pt = hex("00112233445566778899aabbccddeeff");
        let mut key = hex("000102030405060708090a0b0c0d0e0f");
        let good = encrypt(&key, &pt);
        key[15] ^= 1;
        assert_ne!(encrypt(&key, &pt), good);
    }

    #[test]
    fn input_blocks_count_up_big_endian() {
        let first = hex("000000000000000000000000000000ff");
        assert_eq!(
            to_hex(&input_block(&first, 1)),
            "00000000000000000000000000000100"
        );
        let top = [0xffu8; 16];
        assert_eq!(input_block(&top, 1), [0u8; 16]);
    }

    #[test]
    fn fingerprint_is_fnv1a_64() {
        // FNV-1a 64 of the bytes 00 01 .. 0f (computed independently in Python).
        assert_eq!(
            fingerprint(&hex("000102030405060708090a0b0c0d0e0f")),
            "7c84dc9477851775"
        );
    }
}
