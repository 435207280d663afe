//! Per-student seeds and the results chain's hashes: BLAKE3 in keyed mode, with keys derived from the
//! lab secret. Each student's chain is keyed with a key of their own ([`chain_key`], derived from the
//! secret), which is what a student pack's ticket carries: a ticket lets a student seal their own
//! results, never another student's, and never reveals the secret. Every input is length-prefixed, so (`ab`, `c`) and (`a`, `bc`) never hash alike, and
//! the bytes are the same on every platform (the tests pin a few values).

use super::file::Lab;

const SEED_CONTEXT: &str = "warpdrill 2026-11 lab variant seeds";
const CHAIN_CONTEXT: &str = "warpdrill 2026-11 lab results chain";

/// A keyed hash over length-prefixed fields.
fn keyed(context: &str, secret: &str, fields: &[&[u8]]) -> blake3::Hash {
    let key = blake3::derive_key(context, secret.as_bytes());
    let mut hasher = blake3::Hasher::new_keyed(&key);
    for field in fields {
        hasher.update(&(field.len() as u64).to_le_bytes());
        hasher.update(field);
    }
    hasher.finalize()
}

fn first_u64(hash: &blake3::Hash) -> u64 {
    let mut bytes = [0u8; 8];
    bytes.copy_from_slice(&hash.as_bytes()[..8]);
    u64::from_le_bytes(bytes)
}

/// The secret of a full lab file (empty for a student pack, whose callers never reach here: every
/// path that needs the secret asks [`Lab::secret`] first).
fn secret_of(lab: &Lab) -> &str {
    lab.secret.as_deref().unwrap_or_default()
}

/// The key of one student's results chain: 32 hex digits keyed with the lab secret over the lab id,
/// version and student.
pub fn chain_key(lab: &Lab, student: &str) -> String {
    lab_student_hex(secret_of(lab), b"student key", lab, student)
}

/// 32 hex digits keyed with `key` over `what`, the lab id, version and student.
fn lab_student_hex(key: &str, what: &[u8], lab: &Lab, student: &str) -> String {
    keyed(
        CHAIN_CONTEXT,
        key,
        &[
            what,
            lab.id.as_bytes(),
            &lab.version.to_le_bytes(),
            student.as_bytes(),
        ],
    )
    .to_hex()
    .as_str()[..32]
        .to_string()
}

/// The seed of one student's variant of step `step` (1-based), re-rolled `roll` times.
pub fn variant_seed(lab: &Lab, student: &str, step: usize, roll: u32) -> u64 {
    let hash = keyed(
        SEED_CONTEXT,
        secret_of(lab),
        &[
            b"variant",
            lab.id.as_bytes(),
            &lab.version.to_le_bytes(),
            student.as_bytes(),
            &(step as u64).to_le_bytes(),
            &roll.to_le_bytes(),
        ],
    );
    first_u64(&hash)
}

/// The rank of `exercise` in draw number `draw` (0-based, among the lab's steps) for a student: the
/// draw takes the exercises of lowest rank.
pub fn draw_rank(lab: &Lab, student: &str, draw: usize, exercise: &str) -> u64 {
    let hash = keyed(
        SEED_CONTEXT,
        secret_of(lab),
        &[
            b"draw",
            lab.id.as_bytes(),
            &lab.version.to_le_bytes(),
            student.as_bytes(),
            &(draw as u64).to_le_bytes(),
            exercise.as_bytes(),
        ],
    );
    first_u64(&hash)
}

/// The hash of a results record: keyed with the student's chain key, over the record's text without
/// its hash.
pub fn record_hash(key: &str, record_text: &str) -> String {
    keyed(CHAIN_CONTEXT, key, &[b"record", record_text.as_bytes()])
        .to_hex()
        .as_str()[..32]
        .to_string()
}

/// Where a chain starts: the hash "before" the first record of a student's file (`key`: the
/// student's chain key).
pub fn genesis(key: &str, lab: &Lab, student: &str) -> String {
    lab_student_hex(key, b"genesis", lab, student)
}

/// The receipt for a chain ending in `last_hash`: 10 letters and digits in two groups
/// (`K7QM3-X9DPA`), without 0/O and 1/I.
pub fn receipt(key: &str, student: &str, last_hash: &str) -> String {
    const ALPHABET: &[u8] = b"23456789ABCDEFGHJKLMNPQRSTUVWXYZ";
    let hash = keyed(
        CHAIN_CONTEXT,
        key,
        &[b"receipt", student.as_bytes(), last_hash.as_bytes()],
    );
    let mut value = first_u64(&hash);
    let mut code = String::new();
    for i in 0..10 {
        if i == 5 {
            code.push('-');
        }
        code.push(ALPHABET[(value % 32) as usize] as char);
        value /= 32;
    }
    code
}

/// A student's join code for the served lab: 10 letters and digits in two groups, keyed with the
/// lab secret (so only the instructor's lab file gives them), the same for every version.
pub fn join_code(lab: &Lab, student: &str) -> String {
    const ALPHABET: &[u8] = b"23456789ABCDEFGHJKLMNPQRSTUVWXYZ";
    let hash = keyed(
        SEED_CONTEXT,
        secret_of(lab),
        &[b"join", lab.id.as_bytes(), student.as_bytes()],
    );
    let mut value = first_u64(&hash);
    let mut code = String::new();
    for i in 0..10 {
        if i == 5 {
            code.push('-');
        }
        code.push(ALPHABET[(value % 32) as usize] as char);
        value /= 32;
    }
    code
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lab() -> Lab {
        Lab::parse(
            "t.ron",
            r#"Lab(id: "pin", title: "Pin", version: 1, secret: "pinned secret phrase",
               steps: [Exercise("l1-sector-size")], points: [10])"#,
        )
        .unwrap()
    }

    /// These numbers must never change: students' variants and old results depend on them.
    #[test]
    fn seeds_are_pinned() {
        let lab = lab();
        assert_eq!(variant_seed(&lab, "alice", 1, 0), PINNED_ALICE_1);
        assert_eq!(variant_seed(&lab, "bob", 1, 0), PINNED_BOB_1);
        let key = chain_key(&lab, "alice");
        assert_eq!(key, PINNED_KEY);
        assert_eq!(genesis(&key, &lab, "alice"), PINNED_GENESIS);
        assert_eq!(receipt(&key, "alice", "00"), PINNED_RECEIPT);
        assert_ne!(chain_key(&lab, "bob"), key);
    }

    #[test]
    fn seeds_differ_by_student_step_roll_and_version() {
        let lab = lab();
        let base = variant_seed(&lab, "alice", 1, 0);
        assert_ne!(base, variant_seed(&lab, "alicf", 1, 0));
        assert_ne!(base, variant_seed(&lab, "alice", 2, 0));
        assert_ne!(base, variant_seed(&lab, "alice", 1, 1));
        let mut bumped = lab.clone();
        bumped.version = 2;
        assert_ne!(base, variant_seed(&bumped, "alice", 1, 0));
        let mut other = lab.clone();
        other.secret = Some("another secret phrase".into());
        assert_ne!(base, variant_seed(&other, "alice", 1, 0));
    }

    const PINNED_ALICE_1: u64 = 10531659739658174109;
    const PINNED_BOB_1: u64 = 13354844595989993616;
    const PINNED_KEY: &str = "5467bd7f06af4186699380b0d67db9b4";
    const PINNED_GENESIS: &str = "ec9b9ee14945f50d9368c87c60760ff4";
    const PINNED_RECEIPT: &str = "UT5R4-6EXSM";
}
