//! TLWE-to-TRGSW conversion (the poster's replacement for circuit bootstrapping) and the
//! bit refresh, composed from tfhe-rs's core_crypto primitives.
//!
//! Input: an LWE ciphertext under the small key encrypting a bit m as m·q/2. Output: a
//! GGSW ciphertext of m under the GLWE key with (cbs_base_log = b, cbs_level = ℓ), in the
//! Fourier domain, ready to select in a CMUX tree. Three steps:
//!
//! 1. PBSmanyLUT (one blind rotation for all ℓ levels). The input is shifted by q/4 and
//!    its coefficients rounded to multiples of q/(2N/σ), σ = the stride (a power of two
//!    >= ℓ), so that tfhe-rs's modulus switch to 2N lands on multiples of σ. The
//!    accumulator holds -α_s in every coefficient ≡ s (mod σ), α_s = q/2^(1 + b·(s+1)).
//!    After the rotation (tfhe-rs `FourierLweBootstrapKeyView::batch_blind_rotate_assign`,
//!    a round's bits in one batch per thread, so that each bootstrapping-key GGSW is read
//!    from memory once per batch rather than once per bit), coefficient s is
//!    -α_s for m = 0 and +α_s for m = 1 (negacyclic wrap); extracting it
//!    (`extract_lwe_sample_from_glwe_ciphertext`) and adding α_s gives LWE(m·q/B^(s+1))
//!    under the big key, for s = 0..ℓ-1. (tfhe-rs's own circuit bootstrap does one
//!    bootstrap per level with the same shift, `homomorphic_shift_boolean`.)
//! 2. Public key switch (tfhe-rs `keyswitch_lwe_ciphertext_into_glwe_ciphertext`): each
//!    LWE(m·q/B^j) becomes GLWE(m·q/B^j), the GGSW's body row of level j.
//! 3. EvalSquareMult, as external products (tfhe-rs `add_external_product_assign`)
//!    with the server's GGSW(-S_i): GLWE(m·q/B^j) ⊡ GGSW(-S_i) = GLWE(-S_i·m·q/B^j), mask
//!    row i of level j (one product per mask row; k = 1: one). tfhe-rs's circuit bootstrap gets that row instead from a private
//!    functional packing key switch per row and level.
//!
//! The bit refresh (key schedule) is step 1 alone with one level and α = q/4: a bootstrap
//! of the bit back to a fresh LWE(m·q/2) under the big key.

use std::sync::atomic::{AtomicU64, Ordering};

use tfhe::core_crypto::fft_impl::fft64::crypto::bootstrap::batch_blind_rotate_assign_scratch;
use tfhe::core_crypto::fft_impl::fft64::crypto::ggsw::{
    add_external_product_assign, add_external_product_assign_scratch, fill_with_forward_fourier_scratch,
    FourierGgswCiphertext, FourierGgswCiphertextListMutView,
};
use tfhe::core_crypto::fft_impl::fft64::crypto::wop_pbs::{
    blind_rotate_assign as wop_blind_rotate, wop_blind_rotate_assign_scratch,
};
use tfhe::core_crypto::prelude::*;

use super::keys::{native, ServerKey};
use super::params::LeveledSet;

/// How many of each primitive ran (shared by threads).
#[derive(Default, Debug)]
pub struct Counts {
    pub blind_rotations: AtomicU64,
    pub conversions: AtomicU64,
    pub refreshes: AtomicU64,
    pub external_products: AtomicU64,
    pub cmuxes: AtomicU64,
    pub key_switches: AtomicU64,
    pub packing_key_switches: AtomicU64,
    pub sample_extractions: AtomicU64,
    pub lwe_additions: AtomicU64,
}

impl Counts {
    pub fn add(c: &AtomicU64, v: u64) {
        c.fetch_add(v, Ordering::Relaxed);
    }

    pub fn snapshot(&self) -> serde_json::Value {
        let g = |c: &AtomicU64| c.load(Ordering::Relaxed);
        serde_json::json!({
            "bootstraps": g(&self.blind_rotations),
            "circuit_bootstraps": g(&self.conversions),
            "refresh_bootstraps": g(&self.refreshes),
            "external_products": g(&self.external_products),
            "cmuxes": g(&self.cmuxes),
            "key_switches": g(&self.key_switches),
            "packing_key_switches": g(&self.packing_key_switches),
            "sample_extractions": g(&self.sample_extractions),
            "lwe_additions": g(&self.lwe_additions),
        })
    }

    pub fn reset(&self) {
        for c in [
            &self.blind_rotations,
            &self.conversions,
            &self.refreshes,
            &self.external_products,
            &self.cmuxes,
            &self.key_switches,
            &self.packing_key_switches,
            &self.sample_extractions,
            &self.lwe_additions,
        ] {
            c.store(0, Ordering::Relaxed);
        }
    }
}

/// Scratch memory for one thread.
pub struct Workspace {
    pub buffers: ComputationBuffers,
    /// What the single-ciphertext operations need (a batch may grow the buffers).
    pub base_bytes: usize,
}

impl Workspace {
    pub fn new(p: &LeveledSet, sk: &ServerKey) -> Self {
        let fft = sk.fft.as_view();
        let glwe_size = GlweSize(p.glwe_dimension + 1);
        let n = PolynomialSize(p.polynomial_size);
        let req = StackReq::any_of(&[
            add_external_product_assign_scratch::<u64>(glwe_size, n, fft),
            fill_with_forward_fourier_scratch(fft),
            wop_blind_rotate_assign_scratch::<u64>(glwe_size, n, fft),
        ]);
        let mut buffers = ComputationBuffers::new();
        let base_bytes = req.unaligned_bytes_required();
        buffers.resize(base_bytes);
        Workspace { buffers, base_bytes }
    }
}

/// A small-key LWE already switched to the blind-rotation modulus 2N (coefficients in
/// [0, 2N)), in the form tfhe-rs's blind rotations read (`ModulusSwitchedLweCiphertext`).
pub struct Switched {
    coefficients: Vec<usize>,
    log_modulus: CiphertextModulusLog,
}

impl ModulusSwitchedLweCiphertext<usize> for Switched {
    fn log_modulus(&self) -> CiphertextModulusLog {
        self.log_modulus
    }
    fn lwe_dimension(&self) -> LweDimension {
        LweDimension(self.coefficients.len() - 1)
    }
    fn body(&self) -> usize {
        *self.coefficients.last().expect("an LWE has a body")
    }
    fn mask(&self) -> impl ExactSizeIterator<Item = usize> + '_ {
        self.coefficients[..self.coefficients.len() - 1].iter().copied()
    }
}

/// The input of a many-LUT blind rotation with `stride` slots: shifted by q/4, rounded to
/// multiples of q/(2N/stride), then switched (exactly) to 2N by tfhe-rs's modulus switch.
fn switch_for_many_lut(input: &LweCiphertextOwned<u64>, n: PolynomialSize, stride: usize) -> Switched {
    let log_2n = (2 * n.0).ilog2() as usize;
    let mut shifted = input.clone();
    let body = shifted.get_mut_body();
    *body.data = body.data.wrapping_add(1 << 62);
    round_to(&mut shifted, 64 - log_2n + stride.ilog2() as usize);
    let log_modulus = n.to_blind_rotation_input_modulus_log();
    let lazy = lwe_ciphertext_modulus_switch::<u64, usize, _>(shifted.as_view(), log_modulus);
    let mut coefficients: Vec<usize> = lazy.mask().collect();
    coefficients.push(lazy.body());
    Switched {
        coefficients,
        log_modulus,
    }
}

/// The many-LUT accumulator: -α_s in every coefficient ≡ s (mod stride).
fn many_lut_accumulator(n: PolynomialSize, alphas: &[u64]) -> Vec<u64> {
    let stride = alphas.len().next_power_of_two();
    (0..n.0)
        .map(|i| alphas.get(i % stride).copied().unwrap_or(0).wrapping_neg())
        .collect()
}

/// Step 1 for a batch of inputs: one call of tfhe-rs's batched blind rotation
/// (`FourierLweBootstrapKeyView::batch_blind_rotate_assign`, which reads each
/// bootstrapping-key GGSW once for the whole batch), then the extractions. Returns, per
/// input, LWE(m·2·α_s) under the big key for each s.
pub fn many_lut_shift_batch(
    sk: &ServerKey,
    inputs: &[LweCiphertextOwned<u64>],
    alphas: &[u64],
    ws: &mut Workspace,
    counts: &Counts,
) -> Vec<Vec<LweCiphertextOwned<u64>>> {
    let n = sk.bsk.polynomial_size();
    let glwe_size = sk.bsk.glwe_size();
    let stride = alphas.len().next_power_of_two();
    let switched: Vec<Switched> = inputs.iter().map(|c| switch_for_many_lut(c, n, stride)).collect();
    let acc = many_lut_accumulator(n, alphas);
    let mut list = GlweCiphertextList::new(0u64, glwe_size, n, GlweCiphertextCount(inputs.len()), native());
    for mut glwe in list.iter_mut() {
        glwe.get_mut_body().as_mut().copy_from_slice(&acc);
    }
    let req = batch_blind_rotate_assign_scratch::<u64>(
        glwe_size,
        n,
        CiphertextCount(inputs.len()),
        sk.fft.as_view(),
    );
    ws.buffers
        .resize(req.unaligned_bytes_required().max(ws.base_bytes));
    sk.bsk.as_view().batch_blind_rotate_assign(
        list.as_mut_view(),
        &switched,
        sk.fft.as_view(),
        ws.buffers.stack(),
    );
    Counts::add(&counts.blind_rotations, inputs.len() as u64);
    list.iter()
        .map(|acc| {
            alphas
                .iter()
                .enumerate()
                .map(|(s, &alpha)| {
                    let mut out =
                        LweCiphertext::new(0u64, sk.bsk.output_lwe_dimension().to_lwe_size(), native());
                    extract_lwe_sample_from_glwe_ciphertext(&acc, &mut out, MonomialDegree(s));
                    Counts::add(&counts.sample_extractions, 1);
                    let b = out.get_mut_body();
                    *b.data = b.data.wrapping_add(alpha);
                    out
                })
                .collect()
        })
        .collect()
}

/// Rounds every coefficient to a multiple of 2^shift (to nearest).
fn round_to(ct: &mut LweCiphertextOwned<u64>, shift: usize) {
    if shift == 0 {
        return;
    }
    let half = 1u64 << (shift - 1);
    for c in ct.as_mut().iter_mut() {
        *c = (c.wrapping_add(half) >> shift) << shift;
    }
}

/// Fresh encryptions of the same bits under the big key (one bootstrap each, batched).
pub fn refresh(
    sk: &ServerKey,
    inputs_small: &[LweCiphertextOwned<u64>],
    ws: &mut Workspace,
    counts: &Counts,
) -> Vec<LweCiphertextOwned<u64>> {
    Counts::add(&counts.refreshes, inputs_small.len() as u64);
    many_lut_shift_batch(sk, inputs_small, &[1u64 << 62], ws, counts)
        .into_iter()
        .map(|mut v| v.pop().expect("one output"))
        .collect()
}

/// The α_s of the conversion's many-LUT: level j = s + 1 gets q/2^(1 + b·j).
pub fn conversion_alphas(p: &LeveledSet) -> Vec<u64> {
    (1..=p.cbs_level)
        .map(|j| 1u64 << (63 - p.cbs_base_log * j))
        .collect()
}

/// Steps 2 and 3 of the conversion of one bit, from its step-1 outputs `levels`
/// (LWE(m·q/B^j), j = 1..ℓ): the GGSW, written into `out` (Fourier domain).
pub fn tlwe_to_trgsw(
    p: &LeveledSet,
    sk: &ServerKey,
    levels: &[LweCiphertextOwned<u64>],
    out: FourierGgswCiphertext<&mut [c64]>,
    ws: &mut Workspace,
    counts: &Counts,
) {
    let (b, l) = (p.cbs_base_log, p.cbs_level);
    assert_eq!(levels.len(), l);
    let n = PolynomialSize(p.polynomial_size);
    let glwe_size = GlweSize(p.glwe_dimension + 1);
    let mut ggsw = GgswCiphertext::new(
        0u64,
        glwe_size,
        n,
        DecompositionBaseLog(b),
        DecompositionLevelCount(l),
        native(),
    );
    for (index, mut matrix) in ggsw.iter_mut().enumerate() {
        let j = l - index; // tfhe-rs stores level ℓ first
        let mut rows = matrix.as_mut_glwe_list();
        let mut body = GlweCiphertext::new(0u64, glwe_size, n, native());
        keyswitch_lwe_ciphertext_into_glwe_ciphertext(&sk.pksk, &levels[j - 1], &mut body);
        Counts::add(&counts.packing_key_switches, 1);
        for (i, square) in sk.square.iter().enumerate() {
            let mut mask = rows.get_mut(i);
            add_external_product_assign(
                mask.as_mut_view(),
                square.as_view(),
                body.as_view(),
                sk.fft.as_view(),
                ws.buffers.stack(),
            );
            Counts::add(&counts.external_products, 1);
        }
        rows.get_mut(p.glwe_dimension)
            .as_mut()
            .copy_from_slice(body.as_ref());
    }
    out.fill_with_forward_fourier(ggsw.as_view(), sk.fft.as_view(), ws.buffers.stack());
    Counts::add(&counts.conversions, 1);
}

/// A byte's 8 selectors as one Fourier GGSW list, most significant bit first (the order
/// of tfhe-rs's wop-PBS CMUX trees).
pub struct ByteSelectors {
    pub data: Vec<c64>,
}

/// The selectors of a byte from its 8 bits' step-1 outputs (bit j at index j).
pub fn convert_byte(
    p: &LeveledSet,
    sk: &ServerKey,
    bits_levels: &[Vec<LweCiphertextOwned<u64>>],
    ws: &mut Workspace,
    counts: &Counts,
) -> ByteSelectors {
    assert_eq!(bits_levels.len(), 8);
    let n = PolynomialSize(p.polynomial_size);
    let glwe_size = GlweSize(p.glwe_dimension + 1);
    let per = n.to_fourier_polynomial_size().0 * glwe_size.0 * glwe_size.0 * p.cbs_level;
    let mut data = vec![c64::default(); 8 * per];
    {
        let list = FourierGgswCiphertextListMutView::new(
            &mut data[..],
            8,
            glwe_size,
            n,
            DecompositionBaseLog(p.cbs_base_log),
            DecompositionLevelCount(p.cbs_level),
        );
        for (index, ggsw) in list.into_ggsw_iter().enumerate() {
            // index 0 = most significant bit (bit 7)
            tlwe_to_trgsw(p, sk, &bits_levels[7 - index], ggsw, ws, counts);
        }
    }
    ByteSelectors { data }
}

/// Looks up packed bit tables (`tables`: GLWE plaintext polynomials, see
/// tables::pack_bit_tables) by the byte: one CMUX tree (8 CMUXes, tfhe-rs's wop-PBS
/// `blind_rotate_assign`) per polynomial, then one sample extraction per wanted bit.
/// Returns the 8 bits (big key), least significant first.
pub fn lookup(
    p: &LeveledSet,
    sk: &ServerKey,
    sel: &ByteSelectors,
    tables: &[Vec<u64>],
    ws: &mut Workspace,
    counts: &Counts,
) -> Vec<LweCiphertextOwned<u64>> {
    let n = PolynomialSize(p.polynomial_size);
    let glwe_size = GlweSize(p.glwe_dimension + 1);
    let list = tfhe::core_crypto::fft_impl::fft64::crypto::ggsw::FourierGgswCiphertextListView::new(
        &sel.data[..],
        8,
        glwe_size,
        n,
        DecompositionBaseLog(p.cbs_base_log),
        DecompositionLevelCount(p.cbs_level),
    );
    let rotated: Vec<GlweCiphertextOwned<u64>> = tables
        .iter()
        .map(|t| {
            let mut glwe = GlweCiphertext::new(0u64, glwe_size, n, native());
            glwe.get_mut_body().as_mut().copy_from_slice(t);
            wop_blind_rotate(glwe.as_mut_view(), list, sk.fft.as_view(), ws.buffers.stack());
            Counts::add(&counts.cmuxes, 8);
            Counts::add(&counts.external_products, 8);
            glwe
        })
        .collect();
    (0..8)
        .map(|j| {
            let (poly, pos) = super::tables::bit_position(j, p.polynomial_size);
            let mut out =
                LweCiphertext::new(0u64, LweSize(p.glwe_dimension * p.polynomial_size + 1), native());
            extract_lwe_sample_from_glwe_ciphertext(&rotated[poly], &mut out, MonomialDegree(pos));
            Counts::add(&counts.sample_extractions, 1);
            out
        })
        .collect()
}
