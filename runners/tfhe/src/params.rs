//! The tfhe-rs parameter sets the runner offers, with the security tfhe-rs states for them.
//!
//! tfhe-rs's AES (`tfhe::transciphering`) runs only with 2-bit messages and 2-bit carries
//! (`message_modulus = carry_modulus = 4`) and a noise level of at least 5 (it asserts
//! both). Offered here: tfhe-rs's own default set of that shape (the one its high-level
//! API uses on CPU), by a short name; the exact constant is recorded in every result.
//! (The crate has other 2_2 sets at 128 bits, e.g. Gaussian noise or the KS32 atomic
//! pattern; they are left out until a run here has checked them.) Their security is tfhe-rs's statement, not
//! ours: "at least 128 bits" by the lattice estimator (reduction cost model BDGL16), with a
//! bootstrap failure probability of at most 2^-128 for the IND-CPA^D model (crate README,
//! "Security estimation" and "Security model"; https://docs.zama.org/tfhe-rs, "Security and
//! cryptography"). The per-bootstrap failure probability is the constant's own `log2_p_fail`.
//!
//! `insecure-test` is this project's own tiny set for tests (LWE dimension 16, N = 512):
//! no security at all, fast enough for `cargo test` to run the whole AES circuit.

use tfhe::shortint::parameters::current_params::V1_8_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128;
use tfhe::shortint::parameters::{
    AtomicPatternParameters, CarryModulus, CiphertextModulus, ClassicPBSParameters, DecompositionBaseLog,
    DecompositionLevelCount, DynamicDistribution, EncryptionKeyChoice, GlweDimension, LweDimension,
    MaxNoiseLevel, MessageModulus, ModulusSwitchType, PBSParameters, PolynomialSize, StandardDev,
};

#[derive(Debug)]
pub struct ParamSet {
    /// Short name for --params.
    pub name: &'static str,
    /// The tfhe-rs constant (or "cipherbench" for the test set).
    pub constant: &'static str,
    pub is_default: bool,
    /// Security in bits as stated by tfhe-rs (0 for the test set).
    pub security_bits: u32,
    /// Where the security statement comes from.
    pub security_source: &'static str,
    /// log2 of the stated per-bootstrap failure probability (None: not stated).
    pub log2_p_fail: Option<f64>,
    pub parameters: AtomicPatternParameters,
}

const TFHE_RS_STATEMENT: &str = "tfhe-rs: at least 128 bits by the lattice estimator (BDGL16 \
reduction cost), p_fail <= 2^-128 (IND-CPA^D); crate README and docs.zama.org/tfhe-rs";

/// Project-made, for tests only: every noise is tiny, and so is the lattice. The AES
/// circuit's correctness depends only on message/carry moduli and the noise level, which
/// are those of the real sets.
const INSECURE_TEST: ClassicPBSParameters = ClassicPBSParameters {
    lwe_dimension: LweDimension(16),
    glwe_dimension: GlweDimension(1),
    polynomial_size: PolynomialSize(512),
    lwe_noise_distribution: DynamicDistribution::new_gaussian_from_std_dev(StandardDev(1e-9)),
    glwe_noise_distribution: DynamicDistribution::new_gaussian_from_std_dev(StandardDev(1e-18)),
    pbs_base_log: DecompositionBaseLog(23),
    pbs_level: DecompositionLevelCount(1),
    ks_base_log: DecompositionBaseLog(4),
    ks_level: DecompositionLevelCount(4),
    message_modulus: MessageModulus(4),
    carry_modulus: CarryModulus(4),
    max_noise_level: MaxNoiseLevel::new(5),
    // tfhe-rs requires the field; no failure probability was computed for this set
    // (reported as null).
    log2_p_fail: 0.0,
    ciphertext_modulus: CiphertextModulus::new_native(),
    encryption_key_choice: EncryptionKeyChoice::Big,
    modulus_switch_noise_reduction_params: ModulusSwitchType::Standard,
};

pub static ALL: [ParamSet; 2] = [
    ParamSet {
        name: "ks-pbs-tuniform-2m128",
        constant: "V1_8_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128",
        is_default: true, // tfhe-rs's own default (high-level API, CPU)
        security_bits: 128,
        security_source: TFHE_RS_STATEMENT,
        log2_p_fail: Some(V1_8_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128.log2_p_fail),
        parameters: AtomicPatternParameters::Standard(PBSParameters::PBS(
            V1_8_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128,
        )),
    },
    ParamSet {
        name: "insecure-test",
        constant: "cipherbench INSECURE_TEST (runners/tfhe/src/params.rs)",
        is_default: false,
        security_bits: 0,
        security_source: "none: LWE dimension 16, for tests only",
        log2_p_fail: None,
        parameters: AtomicPatternParameters::Standard(PBSParameters::PBS(INSECURE_TEST)),
    },
];

/// Sets are identified by their name.
impl PartialEq for ParamSet {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

pub fn by_name(name: &str) -> Option<&'static ParamSet> {
    ALL.iter().find(|p| p.name == name)
}

pub fn default_set() -> &'static ParamSet {
    ALL.iter()
        .find(|p| p.is_default)
        .expect("one parameter set is the default")
}

impl ParamSet {
    /// The parameters as recorded in the JSON result.
    pub fn to_json(&self) -> serde_json::Value {
        let p = &self.parameters;
        serde_json::json!({
            "name": self.name,
            "constant": self.constant,
            "atomic_pattern": format!("{:?}", p.atomic_pattern()),
            "lwe_dimension": p.lwe_dimension().0,
            "glwe_dimension": p.glwe_dimension().0,
            "polynomial_size": p.polynomial_size().0,
            "pbs_base_log": p.pbs_base_log().0,
            "pbs_level": p.pbs_level().0,
            "ks_base_log": p.ks_base_log().0,
            "ks_level": p.ks_level().0,
            "message_modulus": p.message_modulus().0,
            "carry_modulus": p.carry_modulus().0,
            "max_noise_level": p.max_noise_level().get(),
            "log2_p_fail": self.log2_p_fail,
            "security": self.security_bits,
            "security_source": self.security_source,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_default_and_unique_names() {
        assert_eq!(ALL.iter().filter(|p| p.is_default).count(), 1);
        for (i, p) in ALL.iter().enumerate() {
            assert!(ALL[i + 1..].iter().all(|q| q.name != p.name), "{} twice", p.name);
        }
    }

    #[test]
    fn every_set_has_the_shape_the_aes_circuit_needs() {
        for p in &ALL {
            let a = &p.parameters;
            assert_eq!((a.message_modulus().0, a.carry_modulus().0), (4, 4), "{}", p.name);
            assert!(a.max_noise_level().get() >= 5, "{}", p.name);
        }
    }

    #[test]
    fn stated_failure_probability_is_below_2_to_minus_128_for_secure_sets() {
        for p in ALL.iter().filter(|p| p.security_bits >= 128) {
            assert!(
                p.log2_p_fail.unwrap() <= -128.0,
                "{}: {:?}",
                p.name,
                p.log2_p_fail
            );
        }
        assert_eq!(by_name("insecure-test").unwrap().security_bits, 0);
    }

    #[test]
    fn json_names_the_constant_and_security() {
        let j = default_set().to_json();
        assert_eq!(
            j["constant"],
            "V1_8_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128"
        );
        assert_eq!(j["security"], 128);
        assert_eq!(j["polynomial_size"], 2048);
    }
}
