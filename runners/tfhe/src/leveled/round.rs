//! The AES-128 data flow under encryption: key schedule, rounds, a block.
//!
//! State: 128 LWE ciphertexts under the big key, bit j (weight 2^j) of FIPS-197 byte k at
//! index 8k + j, a bit b encoded as b·q/2 so that XOR is addition. A round: key switch
//! the 128 bits to the small key, convert each into a GGSW (cbs.rs), then per byte one
//! CMUX tree per packed table polynomial (cbs::lookup): 1·S, 2·S and 3·S (the merged
//! SubBytes+MixColumns), or S alone in the last round. ShiftRows is only the choice of
//! output column, MixColumns' XORs and AddRoundKey are LWE additions: no bootstrap.

use rayon::prelude::*;
use tfhe::core_crypto::prelude::*;

use super::cbs::{self, ByteSelectors, Counts, Workspace};
use super::keys::{native, ClientKey, ServerKey};
use super::params::LeveledSet;
use super::tables;

pub type Bit = LweCiphertextOwned<u64>;

/// Public tables packed as GLWE plaintexts: [1·S, 2·S, 3·S].
pub struct Tables {
    pub multiples: Vec<Vec<Vec<u64>>>,
}

impl Tables {
    pub fn new(p: &LeveledSet) -> Self {
        Tables {
            multiples: tables::multiples()
                .iter()
                .map(|f| tables::pack_bit_tables(f, p.polynomial_size))
                .collect(),
        }
    }
}

pub struct Evaluator<'a> {
    pub p: &'a LeveledSet,
    pub sk: &'a ServerKey,
    pub tables: Tables,
    pub counts: Counts,
}

fn add_assign(acc: &mut Bit, x: &Bit, counts: &Counts) {
    lwe_ciphertext_add_assign(acc, x);
    Counts::add(&counts.lwe_additions, 1);
}

/// Adds the public bit b (b·q/2) to a ciphertext: XOR with a constant.
fn xor_public(ct: &mut Bit, bit: bool) {
    if bit {
        let b = ct.get_mut_body();
        *b.data = b.data.wrapping_add(1 << 63);
    }
}

impl<'a> Evaluator<'a> {
    pub fn new(p: &'a LeveledSet, sk: &'a ServerKey) -> Self {
        Evaluator {
            p,
            sk,
            tables: Tables::new(p),
            counts: Counts::default(),
        }
    }

    fn workspace(&self) -> Workspace {
        Workspace::new(self.p, self.sk)
    }

    /// Big key -> small key, every bit (parallel).
    pub fn key_switch_all(&self, bits: &[Bit]) -> Vec<Bit> {
        bits.par_iter()
            .map(|ct| {
                let mut out = LweCiphertext::new(0u64, self.sk.ksk.output_lwe_size(), native());
                keyswitch_lwe_ciphertext(&self.sk.ksk, ct, &mut out);
                Counts::add(&self.counts.key_switches, 1);
                out
            })
            .collect()
    }

    /// Splits `len` items into one batch per thread (batched blind rotations).
    fn batch_len(len: usize) -> usize {
        len.div_ceil(rayon::current_num_threads()).max(1)
    }

    /// Selectors of every byte of `small` (8 bits a byte): the many-LUT blind rotations
    /// batched (one batch per thread), then steps 2-3 in parallel over bytes.
    pub fn convert_bytes(&self, small: &[Bit]) -> Vec<ByteSelectors> {
        let alphas = cbs::conversion_alphas(self.p);
        let levels: Vec<Vec<Bit>> = small
            .par_chunks(Self::batch_len(small.len()))
            .map_init(
                || self.workspace(),
                |ws, chunk| cbs::many_lut_shift_batch(self.sk, chunk, &alphas, ws, &self.counts),
            )
            .flatten()
            .collect();
        levels
            .par_chunks(8)
            .map_init(
                || self.workspace(),
                |ws, byte| cbs::convert_byte(self.p, self.sk, byte, ws, &self.counts),
            )
            .collect()
    }

    /// For each byte, the lookups of the tables `which` (indices into Tables::multiples):
    /// result[byte][w] = the 8 bits of table which[w] at the byte.
    pub fn lookups(&self, sel: &[ByteSelectors], which: &[usize]) -> Vec<Vec<Vec<Bit>>> {
        sel.par_iter()
            .map_init(
                || self.workspace(),
                |ws, s| {
                    which
                        .iter()
                        .map(|&w| {
                            cbs::lookup(self.p, self.sk, s, &self.tables.multiples[w], ws, &self.counts)
                        })
                        .collect()
                },
            )
            .collect()
    }

    /// One AES round r (1..=10) on the big-key state, with round key `rk` (128 bits).
    /// `probe` receives the small-key bits that were decided (for the noise check).
    pub fn round(&self, state: &[Bit], r: usize, rk: &[Bit], probe: &mut Vec<Bit>) -> Vec<Bit> {
        let small = self.key_switch_all(state);
        probe.extend(small.iter().cloned());
        let sel = self.convert_bytes(&small);
        let last = r == 10;
        let which: &[usize] = if last { &[0] } else { &[0, 1, 2] };
        let looked = self.lookups(&sel, which);
        let mut out: Vec<Bit> = rk.to_vec();
        for k in 0..16 {
            let (i, c) = (k % 4, k / 4);
            let dst = (c + 4 - i) % 4; // ShiftRows: (i, c) -> (i, c - i)
            if last {
                for j in 0..8 {
                    add_assign(&mut out[8 * (i + 4 * dst) + j], &looked[k][0][j], &self.counts);
                }
            } else {
                for t in 0..4 {
                    let table = tables::table_index(t, i);
                    for j in 0..8 {
                        add_assign(
                            &mut out[8 * (t + 4 * dst) + j],
                            &looked[k][table][j],
                            &self.counts,
                        );
                    }
                }
            }
        }
        out
    }

    /// One block: AddRoundKey of the public input with round key 0, then 10 rounds.
    pub fn block(&self, input: &[u8; 16], rks: &[Vec<Bit>], probe: &mut Vec<Bit>) -> Vec<Bit> {
        let mut state: Vec<Bit> = (0..128)
            .map(|idx| {
                let mut ct = rks[0][idx].clone();
                xor_public(&mut ct, (input[idx / 8] >> (idx % 8)) & 1 == 1);
                ct
            })
            .collect();
        for r in 1..=10 {
            state = self.round(&state, r, &rks[r], probe);
        }
        state
    }

    /// The key schedule under encryption (FIPS-197 §5.2) from the client's encrypted key
    /// bits (big key, 128 bits in state order). SubWord is a lookup of the S-box table per
    /// byte; after each round the 128 new round-key bits are refreshed by a bootstrap so
    /// that the XOR chains of the schedule do not accumulate noise.
    pub fn key_schedule(&self, key_bits: Vec<Bit>, probe: &mut Vec<Bit>) -> Vec<Vec<Bit>> {
        let mut w: Vec<Vec<Bit>> = key_bits.chunks(32).map(|c| c.to_vec()).collect();
        for r in 1..=10 {
            let prev = &w[4 * r - 1];
            // RotWord: bytes [1, 2, 3, 0].
            let rotated: Vec<Bit> = [1, 2, 3, 0]
                .iter()
                .flat_map(|&b| prev[8 * b..8 * b + 8].iter().cloned())
                .collect();
            let small = self.key_switch_all(&rotated);
            probe.extend(small.iter().cloned());
            let sel = self.convert_bytes(&small);
            let sub = self.lookups(&sel, &[0]);
            let mut temp: Vec<Bit> = sub.into_iter().flat_map(|mut v| v.remove(0)).collect();
            for (j, bit) in temp.iter_mut().take(8).enumerate() {
                xor_public(bit, (tables::RCON[r] >> j) & 1 == 1);
            }
            let mut words = Vec::with_capacity(4);
            for i in 0..4 {
                let mut word = w[4 * (r - 1) + i].clone();
                let other = if i == 0 { &temp } else { &words[i - 1] };
                for (a, b) in word.iter_mut().zip(other.iter()) {
                    add_assign(a, b, &self.counts);
                }
                words.push(word);
            }
            // Refresh the 128 new bits: key switch + one bootstrap each.
            let flat: Vec<Bit> = words.concat();
            let small = self.key_switch_all(&flat);
            probe.extend(small.iter().cloned());
            let fresh: Vec<Bit> = small
                .par_chunks(Self::batch_len(small.len()))
                .map_init(
                    || self.workspace(),
                    |ws, chunk| cbs::refresh(self.sk, chunk, ws, &self.counts),
                )
                .flatten()
                .collect();
            w.extend(fresh.chunks(32).map(|c| c.to_vec()));
        }
        (0..11).map(|r| w[4 * r..4 * r + 4].concat()).collect()
    }
}

/// Encrypts the 128 key bits under the big key (the client's part of the key schedule).
pub fn encrypt_key(ck: &mut ClientKey, key: &[u8; 16]) -> Vec<Bit> {
    (0..128)
        .map(|idx| ck.encrypt_big((key[idx / 8] >> (idx % 8)) & 1 == 1))
        .collect()
}

/// Decrypts 128 big-key bits into a block; also the largest |error| (fraction of q).
pub fn decrypt_block(ck: &ClientKey, bits: &[Bit]) -> ([u8; 16], f64) {
    let mut out = [0u8; 16];
    let mut worst = 0f64;
    for (idx, ct) in bits.iter().enumerate() {
        let (b, e) = ck.decrypt_big(ct);
        worst = worst.max(e.abs());
        if b {
            out[idx / 8] |= 1 << (idx % 8);
        }
    }
    (out, worst)
}
