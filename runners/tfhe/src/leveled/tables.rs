//! The clear tables the leveled AES looks up: the AES S-box, the three column multiples
//! S(x), 2·S(x), 3·S(x) that make up the merged SubBytes+MixColumns ("T-table") contribution
//! of a byte, and their packing into GLWE plaintext polynomials for the blind rotation.
//!
//! The S-box is computed here from its definition (FIPS-197 §5.1.1: the inverse in
//! GF(2^8) = GF(2)[x]/(x^8+x^4+x^3+x+1), then the affine map with constant 0x63), not
//! copied; the tests check it, and a whole clear AES built from these tables, against
//! RustCrypto's AES.

/// Multiplication in GF(2^8) with the AES polynomial.
pub fn gf_mul(mut a: u8, mut b: u8) -> u8 {
    let mut p = 0u8;
    while b != 0 {
        if b & 1 != 0 {
            p ^= a;
        }
        let carry = a & 0x80;
        a <<= 1;
        if carry != 0 {
            a ^= 0x1b;
        }
        b >>= 1;
    }
    p
}

fn gf_inv(a: u8) -> u8 {
    // a^254 = a^-1 (and 0 -> 0).
    let mut r = 1u8;
    for _ in 0..254 {
        r = gf_mul(r, a);
    }
    if a == 0 {
        0
    } else {
        r
    }
}

/// The AES S-box (FIPS-197 §5.1.1).
pub fn sbox() -> [u8; 256] {
    core::array::from_fn(|x| {
        let b = gf_inv(x as u8);
        b ^ b.rotate_left(1) ^ b.rotate_left(2) ^ b.rotate_left(3) ^ b.rotate_left(4) ^ 0x63
    })
}

/// MixColumns' matrix: out[t] = sum_i MIX[t][i] * in[i] (FIPS-197 §5.1.3).
pub const MIX: [[u8; 4]; 4] = [[2, 3, 1, 1], [1, 2, 3, 1], [1, 1, 2, 3], [3, 1, 1, 2]];

/// The three tables a byte needs: index 0, 1, 2 = 1·S(x), 2·S(x), 3·S(x). The merged
/// SubBytes+MixColumns contribution of the byte in row i to its output column is the
/// 32-bit word (MIX[t][i]·S(x))_{t=0..3}, each entry one of these three.
pub fn multiples() -> [[u8; 256]; 3] {
    let s = sbox();
    [1u8, 2, 3].map(|m| core::array::from_fn(|x| gf_mul(m, s[x])))
}

/// Which of the three tables feeds output row t from input row i (MIX[t][i] - 1).
pub fn table_index(t: usize, i: usize) -> usize {
    MIX[t][i] as usize - 1
}

/// The 32-bit column contribution of byte value x sitting in row i: MixColumns of the
/// column that holds S(x) in row i and zeros elsewhere, bytes t = 0..3 (rows).
#[cfg(test)]
pub fn t_table(i: usize, x: u8) -> [u8; 4] {
    let m = multiples();
    core::array::from_fn(|t| m[table_index(t, i)][x as usize])
}

/// One table of 8 output bits as GLWE plaintext polynomials for the blind rotation by the
/// byte: the bit-j table (x -> bit j of f(x)) occupies coefficients 256·j' .. 256·j'+255 of
/// polynomial j / (N/256) (j' = j mod N/256), each bit b encoded as b·2^63. After the
/// rotation by X^-x, coefficient 256·j' holds bit j of f(x). N must be at least 256.
pub fn pack_bit_tables(f: &[u8; 256], polynomial_size: usize) -> Vec<Vec<u64>> {
    assert!(polynomial_size >= 256 && polynomial_size % 256 == 0);
    let per_poly = (polynomial_size / 256).min(8);
    let polys = 8usize.div_ceil(per_poly);
    let mut out = vec![vec![0u64; polynomial_size]; polys];
    for j in 0..8 {
        let (p, slot) = (j / per_poly, j % per_poly);
        for x in 0..256 {
            out[p][256 * slot + x] = (((f[x] >> j) & 1) as u64) << 63;
        }
    }
    out
}

/// Where bit j of a packed table ends up: (polynomial, coefficient to extract).
pub fn bit_position(j: usize, polynomial_size: usize) -> (usize, usize) {
    let per_poly = (polynomial_size / 256).min(8);
    (j / per_poly, 256 * (j % per_poly))
}

/// FIPS-197 §5.2 round constants (Rcon[i] for rounds 1..10).
pub const RCON: [u8; 11] = [0x00, 0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36];

/// A clear AES-128 built only from these tables and the same data flow as the homomorphic
/// one (AddRoundKey, then per round one T-table lookup per byte with ShiftRows as a
/// renaming, the last round S-box only): the tests check it against RustCrypto's AES.
#[cfg(test)]
pub fn clear_aes(key: &[u8; 16], block: &[u8; 16]) -> [u8; 16] {
    let rk = clear_round_keys(key);
    let s = sbox();
    let mut state: [u8; 16] = core::array::from_fn(|k| block[k] ^ rk[0][k]);
    for r in 1..=10 {
        let mut out = [0u8; 16];
        for c in 0..4 {
            for i in 0..4 {
                let x = state[i + 4 * c];
                let dst = (c + 4 - i) % 4; // ShiftRows: (i, c) -> (i, c - i)
                if r < 10 {
                    let t = t_table(i, x);
                    for (row, v) in t.iter().enumerate() {
                        out[row + 4 * dst] ^= v;
                    }
                } else {
                    out[i + 4 * dst] ^= s[x as usize];
                }
            }
        }
        state = core::array::from_fn(|k| out[k] ^ rk[r][k]);
    }
    state
}

/// The clear key schedule (FIPS-197 §5.2), round keys as 16 bytes in state order.
#[cfg(test)]
pub fn clear_round_keys(key: &[u8; 16]) -> [[u8; 16]; 11] {
    let s = sbox();
    let mut w = [[0u8; 4]; 44];
    for i in 0..4 {
        w[i] = [key[4 * i], key[4 * i + 1], key[4 * i + 2], key[4 * i + 3]];
    }
    for i in 4..44 {
        let mut t = w[i - 1];
        if i % 4 == 0 {
            t = [
                s[t[1] as usize],
                s[t[2] as usize],
                s[t[3] as usize],
                s[t[0] as usize],
            ];
            t[0] ^= RCON[i / 4];
        }
        w[i] = core::array::from_fn(|b| w[i - 4][b] ^ t[b]);
    }
    core::array::from_fn(|r| core::array::from_fn(|k| w[4 * r + k / 4][k % 4]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference;

    #[test]
    fn sbox_known_entries_and_bijective() {
        let s = sbox();
        // FIPS-197 Figure 7: S(00)=63, S(01)=7c, S(53)=ed, S(ff)=16.
        assert_eq!((s[0x00], s[0x01], s[0x53], s[0xff]), (0x63, 0x7c, 0xed, 0x16));
        let mut seen = [false; 256];
        for v in s {
            assert!(!seen[v as usize]);
            seen[v as usize] = true;
        }
    }

    /// Independent MixColumns (xtime form, FIPS-197 §5.1.3 equations) of a column.
    fn mix_column(col: [u8; 4]) -> [u8; 4] {
        let x2 = |v: u8| (v << 1) ^ if v & 0x80 != 0 { 0x1b } else { 0 };
        let x3 = |v: u8| x2(v) ^ v;
        let [a, b, c, d] = col;
        [
            x2(a) ^ x3(b) ^ c ^ d,
            a ^ x2(b) ^ x3(c) ^ d,
            a ^ b ^ x2(c) ^ x3(d),
            x3(a) ^ b ^ c ^ x2(d),
        ]
    }

    #[test]
    fn t_tables_are_mixcolumns_of_the_sbox_on_all_256_inputs() {
        let s = sbox();
        for i in 0..4 {
            for x in 0..=255u8 {
                let mut col = [0u8; 4];
                col[i] = s[x as usize];
                assert_eq!(t_table(i, x), mix_column(col), "row {i}, x {x:#04x}");
            }
        }
    }

    #[test]
    fn a_full_round_from_tables_matches_the_clear_round_on_all_byte_values() {
        // For every value v, a state holding v in every byte: one round by T-tables
        // equals SubBytes, ShiftRows, MixColumns done step by step.
        let s = sbox();
        for v in 0..=255u8 {
            let state: [u8; 16] = core::array::from_fn(|k| v.wrapping_add(k as u8 * 17));
            let sub: [u8; 16] = core::array::from_fn(|k| s[state[k] as usize]);
            let shifted: [u8; 16] = core::array::from_fn(|k| {
                let (i, c) = (k % 4, k / 4);
                sub[i + 4 * ((c + i) % 4)]
            });
            let mut expect = [0u8; 16];
            for c in 0..4 {
                let col = mix_column(core::array::from_fn(|i| shifted[i + 4 * c]));
                expect[4 * c..4 * c + 4].copy_from_slice(&col);
            }
            let mut got = [0u8; 16];
            for c in 0..4 {
                for i in 0..4 {
                    let dst = (c + 4 - i) % 4;
                    for (t, b) in t_table(i, state[i + 4 * c]).iter().enumerate() {
                        got[t + 4 * dst] ^= b;
                    }
                }
            }
            assert_eq!(got, expect, "v {v}");
        }
    }

    #[test]
    fn clear_aes_from_tables_matches_rustcrypto() {
        let mut st = 5u64;
        for _ in 0..20 {
            let key = crate::random_block(&mut st);
            let pt = crate::random_block(&mut st);
            assert_eq!(clear_aes(&key, &pt), reference::encrypt(&key, &pt));
        }
    }

    #[test]
    fn packed_tables_put_bit_j_of_f_x_at_its_position() {
        let m = multiples();
        for n in [256usize, 512, 1024, 2048, 4096] {
            let polys = pack_bit_tables(&m[1], n);
            for x in 0..256 {
                for j in 0..8 {
                    let (p, pos) = bit_position(j, n);
                    // rotation by X^-x: coefficient pos becomes coefficient pos + x.
                    assert_eq!(polys[p][pos + x] >> 63, ((m[1][x] >> j) & 1) as u64);
                }
            }
        }
    }
}
