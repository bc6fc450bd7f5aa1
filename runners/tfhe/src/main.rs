//! tfhe_aes: AES-128 evaluated under TFHE with tfhe-rs, every block checked, timed per block.
//!
//!   tfhe_aes --json OUT [--method transciphering|leveled] [--blocks N] [--threads T]
//!            [--seed S] [--key HEX32] [--plaintext HEX32] [--params NAME]
//!
//! cipherbench's TFHE peer to run_cipher (BGV): the same question (how long does one AES-128
//! block take homomorphically, and per block), answered by tfhe-rs's own bit-sliced AES
//! (src/fhe_aes.rs, the default) or by the leveled-TFHE lookup AES of Wei et al.
//! (src/leveled/, `--method leveled`) on the same machine. Exit status: 0 every block right; 1 bad arguments
//! or a failure (one message on stderr, no JSON written); 2 a block differed from the
//! reference (JSON written with the timings under invalid_timings).

mod args;
mod fhe_aes;
mod leveled;
mod params;
mod record;
mod reference;
mod sysinfo;

use std::process::ExitCode;
use std::time::Instant;

use args::{ArgError, Method};
use reference::Block;

/// SplitMix64 (Steele, Lea, Flood 2014): the random key and first block from --seed.
fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e3779b97f4a7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d049bb133111eb);
    z ^ (z >> 31)
}

fn random_block(state: &mut u64) -> Block {
    let hi = splitmix64(state).to_be_bytes();
    let lo = splitmix64(state).to_be_bytes();
    core::array::from_fn(|i| if i < 8 { hi[i] } else { lo[i - 8] })
}

fn fail(message: &str) -> ExitCode {
    eprintln!("tfhe_aes: {message}");
    ExitCode::from(1)
}

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let a = match args::parse(&argv) {
        Ok(a) => a,
        Err(ArgError::Help) => {
            print!("{}", args::usage());
            return ExitCode::SUCCESS;
        }
        Err(e) => return fail(&e.to_string()),
    };
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(t) = a.threads {
        pool = pool.num_threads(t);
    }
    if let Err(e) = pool.build_global() {
        return fail(&format!("cannot start the thread pool: {e}"));
    }
    let threads = rayon::current_num_threads();

    let mut rng = a.seed;
    let random_key = random_block(&mut rng);
    let random_first = random_block(&mut rng);
    let key = a.key.unwrap_or(random_key);
    let first = a.plaintext.unwrap_or(random_first);
    let expected: Vec<Block> = (0..a.blocks)
        .map(|i| reference::encrypt(&key, &reference::input_block(&first, i)))
        .collect();

    let (params_name, security_bits) = match a.method {
        Method::Transciphering => (a.params.name, a.params.security_bits),
        Method::Leveled => (a.leveled.name, a.leveled.security_bits),
    };
    eprintln!(
        "tfhe_aes: tfhe {} method {} params {} ({} bits stated), {} block(s), {} thread(s)",
        env!("TFHE_VERSION"),
        a.method.name(),
        params_name,
        security_bits,
        a.blocks,
        threads
    );
    let wall = Instant::now();
    let blocks = a.blocks;
    let progress = |b: &fhe_aes::BlockRun| {
        eprintln!(
            "tfhe_aes: block {}/{}: {:.3} s, {:.3} CPU s, {} bootstraps",
            b.index + 1,
            blocks,
            b.seconds,
            b.cpu_s,
            b.pbs
        )
    };
    let (method, leveled_set, params_set) = (a.method, a.leveled, a.params);
    let run = std::panic::catch_unwind(|| match method {
        Method::Transciphering => (fhe_aes::run(params_set, &key, &first, blocks, progress), None),
        Method::Leveled => {
            let (m, x) = leveled::run(leveled_set, &key, &first, blocks, progress);
            (m, Some(leveled::record_fields(leveled_set, &x)))
        }
    });
    let (m, extra) = match run {
        Ok(m) => m,
        Err(_) => return fail("tfhe-rs panicked (message above); no result written"),
    };
    let wall_s = wall.elapsed().as_secs_f64();

    let mut outputs: Vec<Option<Block>> = m.blocks.iter().map(|b| b.output).collect();
    if a.corrupt_output {
        if let Some(Some(b)) = outputs.first_mut() {
            b[0] ^= 1;
        }
    }
    let machine = sysinfo::Machine::here();
    let (params_json, implementation, packing) = match a.method {
        Method::Transciphering => (
            a.params.to_json(),
            "tfhe::transciphering AES-128 (AesFheRoundKeys, AesFheState)",
            "bit-sliced",
        ),
        Method::Leveled => (
            a.leveled.to_json(),
            leveled::IMPLEMENTATION,
            "one bit per LWE ciphertext; bytes looked up by CMUX trees over GGSW selectors",
        ),
    };
    let inputs = record::Inputs {
        params: params_json,
        method: a.method.name(),
        implementation,
        packing,
        extra,
        key: &key,
        first: &first,
        seed: a.seed,
        threads,
        wall_s,
        peak_rss_mb: sysinfo::peak_rss_mb(),
        machine: &machine,
    };
    let (out, wrong) = record::build(&inputs, &m, &outputs, &expected);
    let text = serde_json::to_string_pretty(&out).expect("JSON values serialize") + "\n";
    if let Err(e) = std::fs::write(&a.json, text) {
        return fail(&format!("--json {}: cannot write: {e}", a.json.display()));
    }
    if wrong > 0 {
        eprintln!(
            "tfhe_aes: WRONG RESULT: {wrong} of {} blocks differ from the reference; timings are invalid \
             (written under invalid_timings)",
            a.blocks
        );
        return ExitCode::from(2);
    }
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_matches_its_published_sequence() {
        // First outputs for seed 0 (reference implementation by Vigna).
        let mut s = 0u64;
        assert_eq!(splitmix64(&mut s), 0xe220a8397b1dcdaf);
        assert_eq!(splitmix64(&mut s), 0x6e789e6aa1b965f4);
    }

    #[test]
    fn seeds_give_different_keys() {
        let (mut a, mut b) = (1u64, 2u64);
        assert_ne!(random_block(&mut a), random_block(&mut b));
    }
}
