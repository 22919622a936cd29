//! `sha256:{hex}` digests of raw bytes, the form the MCP Skills extension (SEP-2640) and
//! lock files use. Kept on its own so it can be unified with the install lock-file digests.

use sha2::{Digest, Sha256};

/// Length of a digest string: `sha256:` and 64 hexadecimal characters.
const DIGEST_LEN: usize = 7 + 64;

/// The SHA-256 digest of `bytes` as `sha256:` followed by 64 lowercase hexadecimal characters.
pub fn sha256_digest(bytes: &[u8]) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let hash = Sha256::digest(bytes);
    let mut out = String::with_capacity(DIGEST_LEN);
    out.push_str("sha256:");
    for byte in hash.iter() {
        out.push(char::from(HEX[usize::from(byte >> 4)]));
        out.push(char::from(HEX[usize::from(byte & 0x0f)]));
    }
    out
}

/// True when `digest` is well formed: `sha256:` and 64 *lowercase* hexadecimal characters.
pub fn is_sha256_digest(digest: &str) -> bool {
    digest.len() == DIGEST_LEN
        && digest.strip_prefix("sha256:").is_some_and(|hex| {
            hex.bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digest_of_known_inputs() {
        // FIPS 180-2 test vectors.
        assert_eq!(
            sha256_digest(b""),
            "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(
            sha256_digest(b"abc"),
            "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn digest_form_is_lowercase_hex_after_the_prefix() {
        assert!(is_sha256_digest(&sha256_digest(b"x")));
        let upper = sha256_digest(b"x")
            .to_uppercase()
            .replace("SHA256", "sha256");
        assert!(
            !is_sha256_digest(&upper),
            "uppercase hex is not the spec's form"
        );
        assert!(!is_sha256_digest("sha256:abc"));
        assert!(!is_sha256_digest(
            &sha256_digest(b"x").replace("sha256:", "sha512:")
        ));
    }
}
