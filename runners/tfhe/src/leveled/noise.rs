//! Noise model of the leveled AES: the variance of every ciphertext that is decided (a
//! bit read by a bootstrap's modulus switch, or decrypted), and from it the failure
//! probability per decision, per block and for the key schedule.
//!
//! Torus units (the modulus is 1). Where tfhe-rs publishes a formula it is used (tfhe
//! 1.8.2, core_crypto::commons::noise_formulas, the "132 bits security gaussian" ones,
//! valid because our keys carry exactly that noise): programmable bootstrap, LWE key
//! switch, packing key switch, modulus switch. The external products whose GGSW is not a
//! fresh encryption (the CMUXes of the lookups, selectors made by the conversion) use the
//! same model as tfhe-rs's bootstrap formula, written out here:
//!   Var(GLWE ⊡ GGSW(μ)) = fft + ℓ·N·(B²/12 + 1/6)·Σ_rows Var(row) + ||μ||²·(1 + kN/2)·B^(-2ℓ)/12
//! with fft = tfhe-rs's FFT term (0.00705·2^(2·(64-53) + 2·log2 B - 128)·ℓ^1.01827·
//! k^1.22003·N^2.22003·(k+1)^1.01827), the error of the input GLWE carried through
//! (selected by the CMUX) and, for μ = -S_i, the input's error times S_i (variance N/2 · Var).
//!
//! A decision fails when the error passes 1/4 (a bit is encoded as b/2); with the error
//! Gaussian of variance V, p = erfc(1/(4·sqrt(2V))) <= exp(-x²)/(x·sqrt(π)), x = 1/(4·sqrt(2V)),
//! the bound reported (log2). Per block: the union bound over its decisions.

use tfhe::core_crypto::commons::noise_formulas::lwe_keyswitch::keyswitch_additive_variance_132_bits_security_gaussian;
use tfhe::core_crypto::commons::noise_formulas::lwe_packing_keyswitch::packing_keyswitch_additive_variance_132_bits_security_gaussian;
use tfhe::core_crypto::commons::noise_formulas::lwe_programmable_bootstrap::pbs_variance_132_bits_security_gaussian_fft_mul;
use tfhe::core_crypto::commons::noise_formulas::modulus_switch::modulus_switch_additive_variance;
use tfhe::core_crypto::prelude::{
    DecompositionBaseLog, DecompositionLevelCount, GlweDimension, LweDimension, PolynomialSize,
};

use super::params::LeveledSet;

const Q: f64 = 18446744073709551616.0; // 2^64
const MANTISSA: f64 = 53.0;

#[derive(Debug, Clone)]
pub struct NoiseReport {
    /// log2 of the standard deviations (torus units) of the intermediate ciphertexts.
    pub log2_std: Vec<(&'static str, f64)>,
    /// log2 failure probability of one decision of each kind.
    pub log2_p_state_bit: f64,
    pub log2_p_key_schedule_bit: f64,
    pub log2_p_output_bit: f64,
    /// Union bounds.
    pub decisions_per_block: u64,
    pub log2_p_block: f64,
    pub decisions_key_schedule: u64,
    pub log2_p_key_schedule: f64,
}

fn fft_term(k: f64, n: f64, base_log: usize, level: usize) -> f64 {
    0.00705
        * (2.0 * (64.0 - MANTISSA).max(0.0) + 2.0 * base_log as f64 - 128.0).exp2()
        * (level as f64).powf(1.01827)
        * k.powf(1.22003)
        * n.powf(2.22003)
        * (k + 1.0).powf(1.01827)
}

/// Additive variance of GLWE ⊡ GGSW(μ): rows_var = sum of the (k+1) row variances of one
/// level, mu_norm2 = ||μ||².
fn external_product(k: f64, n: f64, base_log: usize, level: usize, rows_var: f64, mu_norm2: f64) -> f64 {
    let b2 = (2.0 * base_log as f64).exp2();
    fft_term(k, n, base_log, level)
        + level as f64 * n * (b2 / 12.0 + 1.0 / 6.0) * rows_var
        + mu_norm2 * (1.0 + k * n / 2.0) * (-2.0 * (base_log * level) as f64).exp2() / 12.0
}

/// log2 of the bound exp(-x²)/(x·sqrt(π)) on erfc(x), x = 1/(4·sqrt(2V)).
pub fn log2_p_fail(variance: f64) -> f64 {
    let x = 0.25 / (2.0 * variance).sqrt();
    -(x * x) / std::f64::consts::LN_2 - (x * std::f64::consts::PI.sqrt()).log2()
}

fn log2_union(log2_p: f64, count: u64) -> f64 {
    log2_p + (count as f64).log2()
}

pub fn analyse(p: &LeveledSet) -> NoiseReport {
    let (n, k, big_n) = (p.lwe_dimension, p.glwe_dimension, p.polynomial_size);
    let (kf, nf) = (k as f64, big_n as f64);
    let kn = k * big_n;
    let glwe_var = p.glwe_std().powi(2);
    let lwe_var_fresh_big = glwe_var; // the client encrypts key bits under the big key

    let v_pbs = pbs_variance_132_bits_security_gaussian_fft_mul(
        LweDimension(n),
        GlweDimension(k),
        PolynomialSize(big_n),
        DecompositionBaseLog(p.pbs_base_log),
        DecompositionLevelCount(p.pbs_level),
        MANTISSA,
        Q,
    )
    .0;
    let v_pks = packing_keyswitch_additive_variance_132_bits_security_gaussian(
        LweDimension(kn),
        GlweDimension(k),
        PolynomialSize(big_n),
        DecompositionBaseLog(p.pks_base_log),
        DecompositionLevelCount(p.pks_level),
        1.0,
        Q,
    )
    .0;
    let v_body = v_pbs + v_pks;
    // Mask row i: body ⊡ GGSW(-S_i); fresh rows (k+1)·glwe_var, ||S_i||² ≈ N/2, plus S_i·e_body.
    let v_mask = external_product(
        kf,
        nf,
        p.square_base_log,
        p.square_level,
        (kf + 1.0) * glwe_var,
        nf / 2.0,
    ) + nf / 2.0 * v_body;
    // One CMUX with a converted selector: μ = bit, rows k masks + 1 body.
    let v_cmux = external_product(kf, nf, p.cbs_base_log, p.cbs_level, kf * v_mask + v_body, 1.0);
    let v_lookup = 8.0 * v_cmux;
    let v_ks = keyswitch_additive_variance_132_bits_security_gaussian(
        LweDimension(kn),
        LweDimension(n),
        DecompositionBaseLog(p.ks_base_log),
        DecompositionLevelCount(p.ks_level),
        Q,
        Q,
    )
    .0;
    let ms =
        |stride: usize| modulus_switch_additive_variance(LweDimension(n), Q, (2 * big_n / stride) as f64).0;
    let v_ms_cbs = ms(p.lut_stride());
    let v_ms_refresh = ms(1);

    // Round keys are refreshed by a bootstrap after each key-schedule round: V = v_pbs.
    // Round 0's key is the client's fresh encryption.
    let v_rk = v_pbs.max(lwe_var_fresh_big);
    // State bit entering a round's conversion: 4 lookups + a round key, key switch, ms.
    let v_state = 4.0 * v_lookup + v_rk + v_ks + v_ms_cbs;
    // Key schedule: a new word bit before its refresh is at worst
    // refreshed word + S-box lookup + 3 refreshed words; the SubWord input is refreshed.
    let v_ks_refresh_in = v_lookup + 4.0 * v_pbs + v_ks + v_ms_refresh;
    let v_ks_subword_in = v_rk + v_ks + v_ms_cbs;
    let v_ks_bit = v_ks_refresh_in.max(v_ks_subword_in);
    // Output: one S-box lookup (last round, no MixColumns) + the last round key.
    let v_out = v_lookup + v_rk;

    let decisions_per_block = 10 * 128 + 128;
    let decisions_key_schedule = 10 * 32 + 10 * 128;
    let log2_p_state_bit = log2_p_fail(v_state);
    let log2_p_output_bit = log2_p_fail(v_out);
    let log2_p_key_schedule_bit = log2_p_fail(v_ks_bit);
    let worst_block_bit = log2_p_state_bit.max(log2_p_output_bit);
    let sd = |v: f64| 0.5 * v.log2();
    NoiseReport {
        log2_std: vec![
            ("pbs", sd(v_pbs)),
            ("packing_ks", sd(v_pks)),
            ("ggsw_body_row", sd(v_body)),
            ("ggsw_mask_row", sd(v_mask)),
            ("cmux", sd(v_cmux)),
            ("lookup_8_cmux", sd(v_lookup)),
            ("key_switch", sd(v_ks)),
            ("modulus_switch_cbs", sd(v_ms_cbs)),
            ("state_bit_decided", sd(v_state)),
            ("key_schedule_bit_decided", sd(v_ks_bit)),
            ("output_bit", sd(v_out)),
        ],
        log2_p_state_bit,
        log2_p_key_schedule_bit,
        log2_p_output_bit,
        decisions_per_block,
        log2_p_block: log2_union(worst_block_bit, decisions_per_block),
        decisions_key_schedule,
        log2_p_key_schedule: log2_union(log2_p_key_schedule_bit, decisions_key_schedule),
    }
}

impl NoiseReport {
    pub fn to_json(&self) -> serde_json::Value {
        let stds: serde_json::Map<String, serde_json::Value> = self
            .log2_std
            .iter()
            .map(|(k, v)| (k.to_string(), serde_json::json!(v)))
            .collect();
        serde_json::json!({
            "model": "runners/tfhe/src/leveled/noise.rs (tfhe-rs 1.8.2 noise formulas where published)",
            "log2_std_torus": stds,
            "log2_p_fail_state_bit": self.log2_p_state_bit,
            "log2_p_fail_output_bit": self.log2_p_output_bit,
            "log2_p_fail_key_schedule_bit": self.log2_p_key_schedule_bit,
            "decisions_per_block": self.decisions_per_block,
            "log2_p_fail_block": self.log2_p_block,
            "decisions_key_schedule": self.decisions_key_schedule,
            "log2_p_fail_key_schedule": self.log2_p_key_schedule,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::leveled::params::ALL;

    #[test]
    fn the_secure_sets_fail_with_probability_below_2_to_minus_40_per_block() {
        for p in ALL.iter().filter(|p| p.security_bits >= 128) {
            let r = analyse(p);
            eprintln!("{}: {r:#?}", p.name);
            assert!(r.log2_p_block <= -40.0, "{}: {}", p.name, r.log2_p_block);
            assert!(r.log2_p_key_schedule <= -40.0, "{}: {}", p.name, r.log2_p_key_schedule);
        }
    }

    #[test]
    fn the_bound_is_erfc_like() {
        // V = (1/32)^2: x = 8/sqrt(2), erfc(5.657) ~ 1.6e-15 ~ 2^-49.2.
        let l = log2_p_fail((1.0f64 / 32.0).powi(2));
        assert!((l + 49.1).abs() < 0.5, "{l}");
    }
}
