//! Lowercase hexadecimal, the text form of hashes, keys and signatures in storage and in the
//! published record.

/// `bytes` as lowercase hex.
///
/// ```
/// assert_eq!(strikeline_ledger::hex::encode(&[0x00, 0xab, 0x10]), "00ab10");
/// ```
#[must_use]
pub fn encode(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        out.push(char::from(DIGITS[usize::from(b >> 4)]));
        out.push(char::from(DIGITS[usize::from(b & 0x0f)]));
    }
    out
}

/// The bytes of hex text (either case); `None` for an odd length or a character that is not a
/// hex digit.
///
/// ```
/// use strikeline_ledger::hex::decode;
/// assert_eq!(decode("00AB10"), Some(vec![0x00, 0xab, 0x10]));
/// assert_eq!(decode("abc"), None);
/// assert_eq!(decode("zz"), None);
/// ```
#[must_use]
pub fn decode(text: &str) -> Option<Vec<u8>> {
    let digits = text.as_bytes();
    if !digits.len().is_multiple_of(2) {
        return None;
    }
    let value = |c: u8| char::from(c).to_digit(16).and_then(|d| u8::try_from(d).ok());
    digits.chunks_exact(2).map(|pair| Some(value(pair[0])? << 4 | value(pair[1])?)).collect()
}

/// Hex text of exactly `N` bytes.
///
/// ```
/// assert_eq!(strikeline_ledger::hex::decode_array::<2>("0102"), Some([1, 2]));
/// assert_eq!(strikeline_ledger::hex::decode_array::<2>("01"), None);
/// ```
#[must_use]
pub fn decode_array<const N: usize>(text: &str) -> Option<[u8; N]> {
    decode(text)?.try_into().ok()
}
