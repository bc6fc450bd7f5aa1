//! Keys of the leveled AES, all made with tfhe-rs's core_crypto key generation.
//!
//! Client (secret): the small LWE key s (dimension n) and the GLWE key S (k, N); the "big"
//! LWE key is S read as k·N coefficients (tfhe-rs's `into_lwe_secret_key`), the key of
//! every ciphertext that leaves a blind rotation or a lookup.
//!
//! Server (public evaluation keys):
//! - bsk: bootstrapping key, GGSW(s_i) under S (Fourier domain), for the blind rotations;
//! - ksk: LWE key switch S (k·N) -> s (n);
//! - pksk: LWE -> GLWE public packing key switch S -> S (the GGSW body rows);
//! - square: GGSW(-S_i) under S for each of the k key polynomials, decomposed with
//!   (square_base_log, square_level): level j's rows encrypt S_i·S_r·q/B^j (r < k; S² for
//!   k = 1) and -S_i·q/B^j (tfhe-rs's GGSW layout for μ = -S_i), so that
//!   GLWE(m) ⊡ GGSW(-S_i) = GLWE(-S_i·m), a GGSW's mask row i from its body row (the
//!   poster's EvalSquareMult step, in external-product form).

use tfhe::core_crypto::algorithms::polynomial_algorithms::polynomial_wrapping_mul;
use tfhe::core_crypto::fft_impl::fft64::crypto::ggsw::FourierGgswCiphertext;
use tfhe::core_crypto::fft_impl::fft64::ABox;
use tfhe::core_crypto::prelude::*;

use super::params::LeveledSet;

pub struct ClientKey {
    pub small: LweSecretKeyOwned<u64>,
    pub big: LweSecretKeyOwned<u64>,
    pub glwe_noise: DynamicDistribution<u64>,
    pub encryption: EncryptionRandomGenerator<DefaultRandomGenerator>,
}

pub struct ServerKey {
    pub bsk: FourierLweBootstrapKeyOwned,
    pub ksk: LweKeyswitchKeyOwned<u64>,
    pub pksk: LwePackingKeyswitchKeyOwned<u64>,
    /// GGSW(-S_i), i < k.
    pub square: Vec<FourierGgswCiphertext<ABox<[c64]>>>,
    pub fft: Fft,
}

/// Sizes in bytes of the server keys as held in memory (u64 coefficients, c64 Fourier).
#[derive(Debug, Clone, Copy)]
pub struct KeySizes {
    pub bsk: usize,
    pub ksk: usize,
    pub pksk: usize,
    pub square: usize,
}

impl KeySizes {
    pub fn total(&self) -> usize {
        self.bsk + self.ksk + self.pksk + self.square
    }
}

pub fn native() -> CiphertextModulus<u64> {
    CiphertextModulus::new_native()
}

/// Generates the client and server keys for `p`.
pub fn generate(p: &LeveledSet) -> (ClientKey, ServerKey) {
    let mut seeder = new_seeder();
    let seeder = seeder.as_mut();
    let mut encryption = EncryptionRandomGenerator::<DefaultRandomGenerator>::new(seeder.seed(), seeder);
    let mut secret = SecretRandomGenerator::<DefaultRandomGenerator>::new(seeder.seed());
    let lwe_noise = DynamicDistribution::new_gaussian_from_std_dev(StandardDev(p.lwe_std()));
    let glwe_noise = DynamicDistribution::new_gaussian_from_std_dev(StandardDev(p.glwe_std()));
    let (k, n) = (GlweDimension(p.glwe_dimension), PolynomialSize(p.polynomial_size));

    let small = allocate_and_generate_new_binary_lwe_secret_key(LweDimension(p.lwe_dimension), &mut secret);
    let glwe = allocate_and_generate_new_binary_glwe_secret_key(k, n, &mut secret);
    let big = glwe.clone().into_lwe_secret_key();

    let std_bsk = par_allocate_and_generate_new_lwe_bootstrap_key(
        &small,
        &glwe,
        DecompositionBaseLog(p.pbs_base_log),
        DecompositionLevelCount(p.pbs_level),
        glwe_noise,
        native(),
        &mut encryption,
    );
    let mut bsk = FourierLweBootstrapKey::new(
        std_bsk.input_lwe_dimension(),
        std_bsk.glwe_size(),
        std_bsk.polynomial_size(),
        std_bsk.decomposition_base_log(),
        std_bsk.decomposition_level_count(),
    );
    par_convert_standard_lwe_bootstrap_key_to_fourier(&std_bsk, &mut bsk);
    drop(std_bsk);

    let ksk = allocate_and_generate_new_lwe_keyswitch_key(
        &big,
        &small,
        DecompositionBaseLog(p.ks_base_log),
        DecompositionLevelCount(p.ks_level),
        lwe_noise,
        native(),
        &mut encryption,
    );
    let pksk = allocate_and_generate_new_lwe_packing_keyswitch_key(
        &big,
        &glwe,
        DecompositionBaseLog(p.pks_base_log),
        DecompositionLevelCount(p.pks_level),
        glwe_noise,
        native(),
        &mut encryption,
    );
    let fft = Fft::new(n);
    let square = square_key(p, &glwe, glwe_noise, &mut encryption, &fft);
    let client = ClientKey {
        small,
        big,
        glwe_noise,
        encryption,
    };
    (
        client,
        ServerKey {
            bsk,
            ksk,
            pksk,
            square,
            fft,
        },
    )
}

/// GGSW(-S_i) under S for each key polynomial S_i, i < k: level j (stored at index
/// level_count - j, tfhe-rs's order) has rows r < k = GLWE(S_i·S_r·2^(64 - j·b)) and row k
/// = GLWE(-S_i·2^(64 - j·b)) (tfhe-rs's GGSW layout for the message μ = -S_i).
fn square_key(
    p: &LeveledSet,
    glwe: &GlweSecretKeyOwned<u64>,
    noise: DynamicDistribution<u64>,
    encryption: &mut EncryptionRandomGenerator<DefaultRandomGenerator>,
    fft: &Fft,
) -> Vec<FourierGgswCiphertext<ABox<[c64]>>> {
    let (k, n) = (p.glwe_dimension, PolynomialSize(p.polynomial_size));
    let glwe_size = GlweSize(k + 1);
    let (base, levels) = (
        DecompositionBaseLog(p.square_base_log),
        DecompositionLevelCount(p.square_level),
    );
    let keys = glwe.as_polynomial_list();
    let mut buffers = ComputationBuffers::new();
    buffers.resize(
        convert_standard_ggsw_ciphertext_to_fourier_mem_optimized_requirement(fft.as_view())
            .unaligned_bytes_required(),
    );
    (0..k)
        .map(|i| {
            let s_i = keys.get(i);
            // Row plaintexts before scaling: S_i·S_r for r < k, then -S_i.
            let mut rows_plain: Vec<Vec<u64>> = (0..k)
                .map(|r| {
                    let mut prod = Polynomial::new(0u64, n);
                    polynomial_wrapping_mul(&mut prod, &s_i, &keys.get(r));
                    prod.as_ref().to_vec()
                })
                .collect();
            rows_plain.push(s_i.as_ref().iter().map(|c| c.wrapping_neg()).collect());
            let mut ggsw = GgswCiphertext::new(0u64, glwe_size, n, base, levels, native());
            for (index, mut matrix) in ggsw.iter_mut().enumerate() {
                let shift = 64 - (levels.0 - index) * base.0;
                for (mut row, plain) in matrix.as_mut_glwe_list().iter_mut().zip(&rows_plain) {
                    let scaled: Vec<u64> = plain.iter().map(|&c| c << shift).collect();
                    encrypt_glwe_ciphertext(
                        glwe,
                        &mut row,
                        &PlaintextList::from_container(scaled),
                        noise,
                        encryption,
                    );
                }
            }
            let mut fourier = FourierGgswCiphertext::new(glwe_size, n, base, levels);
            convert_standard_ggsw_ciphertext_to_fourier_mem_optimized(
                &ggsw,
                &mut fourier,
                fft.as_view(),
                buffers.stack(),
            );
            fourier
        })
        .collect()
}

impl ServerKey {
    pub fn sizes(&self) -> KeySizes {
        let c64_bytes = std::mem::size_of::<c64>();
        KeySizes {
            bsk: self.bsk.as_view().data().len() * c64_bytes,
            ksk: self.ksk.as_ref().len() * 8,
            pksk: self.pksk.as_ref().len() * 8,
            square: self
                .square
                .iter()
                .map(|g| g.as_view().data().len())
                .sum::<usize>()
                * c64_bytes,
        }
    }
}

impl ClientKey {
    /// A bit under the big key (the client's encryption of a key bit), b·2^63 + noise.
    pub fn encrypt_big(&mut self, bit: bool) -> LweCiphertextOwned<u64> {
        allocate_and_encrypt_new_lwe_ciphertext(
            &self.big,
            Plaintext((bit as u64) << 63),
            self.glwe_noise,
            native(),
            &mut self.encryption,
        )
    }

    /// (bit, signed error as a fraction of the modulus) of a big-key ciphertext.
    pub fn decrypt_big(&self, ct: &LweCiphertextOwned<u64>) -> (bool, f64) {
        let phase = decrypt_lwe_ciphertext(&self.big, ct).0;
        let bit = phase.wrapping_add(1 << 62) >> 63;
        let err = phase.wrapping_sub(bit << 63) as i64;
        (bit == 1, err as f64 / 2f64.powi(64))
    }

    /// The same for a small-key ciphertext.
    pub fn decrypt_small(&self, ct: &LweCiphertextOwned<u64>) -> (bool, f64) {
        let phase = decrypt_lwe_ciphertext(&self.small, ct).0;
        let bit = phase.wrapping_add(1 << 62) >> 63;
        let err = phase.wrapping_sub(bit << 63) as i64;
        (bit == 1, err as f64 / 2f64.powi(64))
    }
}
