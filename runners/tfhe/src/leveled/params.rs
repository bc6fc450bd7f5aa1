//! Parameter sets of the leveled AES (`--method leveled`).
//!
//! Security: the two lattice instances are the small LWE key (dimension n) and the GLWE
//! key (dimension k, polynomial size N, seen as LWE of dimension k·N = 2048, as tfhe-rs's
//! own formulas and parameter tools treat it); every key the server
//! holds (bootstrapping key, key switching keys, the GGSW of -S) is an encryption under
//! one of them with that instance's noise. The noise standard deviation of each is
//! tfhe-rs's own "minimal variance for 132 bits of security" for that dimension
//! (tfhe 1.8.2, core_crypto::commons::noise_formulas::secure_noise, Gaussian noise,
//! binary secret, q = 2^64), computed at run time from tfhe-rs's function, not copied. The
//! lattice estimator confirms at least 128 bits for both (runners/tfhe/security/
//! leveled_estimates.json, made by estimate_leveled.py there). The decomposition
//! parameters (bases and levels) do not change the security, only noise and cost; they
//! are ours, chosen by the noise model in noise.rs for a failure probability far below
//! 2^-40 per block.
//!
//! The GGSW of -S (the "square key": its rows encrypt S^2 and -S) is a key-dependent
//! encryption, like the circuit-bootstrapping keys of tfhe-rs's own wopbs (which encrypt
//! -S_i under S) and every bootstrapping key with the big key in its input; the
//! circular-security assumption is the one TFHE's circuit bootstrapping already makes.
//!
//! Sets: `leveled-128` (the default: n = 700, k = 4, N = 512) and `leveled-128-k1` (n =
//! 700, k = 1, N = 2048; the same security and failure bound, about 1.5x the time: its
//! packing key switching key and its blind rotations are larger), `insecure-test` (n = 32,
//! k = 2, N = 512, almost no noise): for the tests only, k = 2 so that they exercise
//! every k-dependent step.

use tfhe::core_crypto::commons::noise_formulas::secure_noise::minimal_lwe_variance_for_132_bits_security_gaussian;
use tfhe::core_crypto::prelude::LweDimension;

#[derive(Debug)]
pub struct LeveledSet {
    pub name: &'static str,
    pub is_default: bool,
    /// Security in bits claimed (0: none).
    pub security_bits: u32,
    pub security_source: &'static str,
    /// Small LWE dimension n (input of the bootstrap).
    pub lwe_dimension: usize,
    /// None: tfhe-rs's minimal 132-bit standard deviation for the dimension.
    pub lwe_std_override: Option<f64>,
    pub glwe_dimension: usize,
    pub polynomial_size: usize,
    pub glwe_std_override: Option<f64>,
    /// Bootstrapping key (GGSW of the small key bits) decomposition.
    pub pbs_base_log: usize,
    pub pbs_level: usize,
    /// Key switch big LWE (k·N) -> small LWE (n).
    pub ks_base_log: usize,
    pub ks_level: usize,
    /// Public packing key switch big LWE -> GLWE (the GGSW body rows).
    pub pks_base_log: usize,
    pub pks_level: usize,
    /// The GGSW produced by the conversion (the selectors of the CMUX trees).
    pub cbs_base_log: usize,
    pub cbs_level: usize,
    /// The GGSW of -S (mask rows from body rows by one external product).
    pub square_base_log: usize,
    pub square_level: usize,
}

const SECURE_SOURCE: &str = "noise at tfhe-rs's minimal variance for 132-bit security \
(tfhe 1.8.2 core_crypto::commons::noise_formulas::secure_noise, Gaussian, binary secret, q=2^64) \
for both instances; lattice estimator (pinned malb/lattice-estimator, LWE.estimate): \
runners/tfhe/security/leveled_estimates.json";

pub static ALL: [LeveledSet; 3] = [
    LeveledSet {
        name: "leveled-128",
        is_default: true,
        security_bits: 128,
        security_source: SECURE_SOURCE,
        lwe_dimension: 700,
        lwe_std_override: None,
        glwe_dimension: 4,
        polynomial_size: 512,
        glwe_std_override: None,
        pbs_base_log: 12,
        pbs_level: 3,
        ks_base_log: 4,
        ks_level: 3,
        pks_base_log: 16,
        pks_level: 2,
        cbs_base_log: 7,
        cbs_level: 2,
        square_base_log: 12,
        square_level: 3,
    },
    LeveledSet {
        name: "leveled-128-k1",
        is_default: false,
        security_bits: 128,
        security_source: SECURE_SOURCE,
        lwe_dimension: 700,
        lwe_std_override: None,
        glwe_dimension: 1,
        polynomial_size: 2048,
        glwe_std_override: None,
        pbs_base_log: 12,
        pbs_level: 3,
        ks_base_log: 4,
        ks_level: 3,
        pks_base_log: 16,
        pks_level: 2,
        cbs_base_log: 7,
        cbs_level: 2,
        square_base_log: 12,
        square_level: 3,
    },
    LeveledSet {
        name: "insecure-test",
        is_default: false,
        security_bits: 0,
        security_source: "none: LWE dimension 32, for tests only",
        lwe_dimension: 32,
        lwe_std_override: Some(1e-12),
        glwe_dimension: 2,
        polynomial_size: 512,
        glwe_std_override: Some(1e-15),
        pbs_base_log: 15,
        pbs_level: 2,
        ks_base_log: 4,
        ks_level: 5,
        pks_base_log: 15,
        pks_level: 2,
        cbs_base_log: 7,
        cbs_level: 2,
        square_base_log: 12,
        square_level: 3,
    },
];

pub fn by_name(name: &str) -> Option<&'static LeveledSet> {
    ALL.iter().find(|p| p.name == name)
}

pub fn default_set() -> &'static LeveledSet {
    ALL.iter()
        .find(|p| p.is_default)
        .expect("one leveled set is the default")
}

pub fn names() -> Vec<&'static str> {
    ALL.iter().map(|p| p.name).collect()
}

impl PartialEq for LeveledSet {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

const LOG2_Q: i32 = 64;

impl LeveledSet {
    /// Standard deviation (torus units) of the small LWE noise.
    pub fn lwe_std(&self) -> f64 {
        self.lwe_std_override.unwrap_or_else(|| {
            minimal_lwe_variance_for_132_bits_security_gaussian(
                LweDimension(self.lwe_dimension),
                2f64.powi(LOG2_Q),
            )
            .0
            .sqrt()
        })
    }

    /// Standard deviation (torus units) of the GLWE noise.
    pub fn glwe_std(&self) -> f64 {
        self.glwe_std_override.unwrap_or_else(|| {
            minimal_lwe_variance_for_132_bits_security_gaussian(
                LweDimension(self.glwe_dimension * self.polynomial_size),
                2f64.powi(LOG2_Q),
            )
            .0
            .sqrt()
        })
    }

    /// The many-LUT stride: the smallest power of two holding the cbs levels.
    pub fn lut_stride(&self) -> usize {
        self.cbs_level.next_power_of_two()
    }

    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "name": self.name,
            "constant": format!("cipherbench leveled set {} (runners/tfhe/src/leveled/params.rs)", self.name),
            "lwe_dimension": self.lwe_dimension,
            "lwe_noise_std_log2": self.lwe_std().log2(),
            "glwe_dimension": self.glwe_dimension,
            "polynomial_size": self.polynomial_size,
            "glwe_noise_std_log2": self.glwe_std().log2(),
            "pbs_base_log": self.pbs_base_log,
            "pbs_level": self.pbs_level,
            "ks_base_log": self.ks_base_log,
            "ks_level": self.ks_level,
            "pks_base_log": self.pks_base_log,
            "pks_level": self.pks_level,
            "cbs_base_log": self.cbs_base_log,
            "cbs_level": self.cbs_level,
            "square_key_base_log": self.square_base_log,
            "square_key_level": self.square_level,
            "many_lut_stride": self.lut_stride(),
            "ciphertext_modulus_log2": LOG2_Q,
            "security": self.security_bits,
            "security_source": self.security_source,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_default_unique_names() {
        assert_eq!(ALL.iter().filter(|p| p.is_default).count(), 1);
        assert_eq!(default_set().name, "leveled-128");
        for (i, p) in ALL.iter().enumerate() {
            assert!(ALL[i + 1..].iter().all(|q| q.name != p.name));
        }
    }

    #[test]
    fn secure_noise_is_tfhe_rs_minimum() {
        let p = default_set();
        // tfhe-rs 1.8.2 secure_noise: log2 std ~ -14.77 at n = 700, -48.32 at 2048.
        assert!(
            (p.lwe_std().log2() + 14.77).abs() < 0.01,
            "{}",
            p.lwe_std().log2()
        );
        assert!(
            (p.glwe_std().log2() + 48.32).abs() < 0.01,
            "{}",
            p.glwe_std().log2()
        );
    }

    #[test]
    fn the_estimator_figures_cached_in_the_repo_back_the_claim() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/security/leveled_estimates.json");
        let doc: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        for p in ALL.iter().filter(|p| p.security_bits >= 128) {
            for (name, n) in [
                ("lwe_n700", p.lwe_dimension),
                ("glwe_kN2048", p.glwe_dimension * p.polynomial_size),
            ] {
                let e = &doc[name];
                assert_eq!(e["n"], n, "{} {name}", p.name);
                let std = if name.starts_with("lwe") {
                    p.lwe_std()
                } else {
                    p.glwe_std()
                };
                assert!((e["log2_sigma_torus"].as_f64().unwrap() - std.log2()).abs() < 1e-6);
                assert!(e["full"]["log2_rop"].as_f64().unwrap() >= 128.0, "{name}");
            }
        }
    }
}
