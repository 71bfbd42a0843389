//! Brand logos: PNG files decoded once into 8-bit samples ready to embed.

use std::fmt;
use std::io::Cursor;

/// The largest PNG file accepted as a logo, in bytes (1 MiB).
pub const MAX_LOGO_BYTES: usize = 1024 * 1024;

/// The largest width or height accepted for a logo, in pixels.
pub const MAX_LOGO_SIDE: u32 = 2000;

const PNG_SIGNATURE: [u8; 8] = [0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a];

/// Why an uploaded logo was refused. The messages are meant for the person who uploaded it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LogoError {
    /// The bytes are not a PNG image, or are a damaged one.
    #[error("The logo could not be read as a PNG image. Please upload a PNG file.")]
    NotPng,
    /// The file is larger than [`MAX_LOGO_BYTES`].
    #[error("The logo file is {} KiB; the largest accepted is 1 MiB (1024 KiB).", .bytes.div_ceil(1024))]
    FileTooLarge {
        /// The size of the file that was offered.
        bytes: usize,
    },
    /// The image is empty, or wider or taller than [`MAX_LOGO_SIDE`].
    #[error("The logo is {width} x {height} pixels; it must be at least 1 and at most 2000 pixels in each direction.")]
    Dimensions {
        /// Width of the image, in pixels.
        width: u32,
        /// Height of the image, in pixels.
        height: u32,
    },
    /// A valid PNG in a form the reports cannot use.
    #[error("This kind of PNG is not supported ({0}). Please save the logo as an ordinary RGB or RGBA PNG.")]
    Unsupported(String),
}

/// A decoded logo: 8-bit grey or RGB samples, and an alpha channel when any pixel is
/// transparent.
#[derive(Clone, PartialEq, Eq)]
pub struct Logo {
    width: u32,
    height: u32,
    colour: Colour,
    samples: Vec<u8>,
    alpha: Option<Vec<u8>>,
}

/// How the colour samples of a [`Logo`] are laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Colour {
    /// One byte per pixel.
    Grey,
    /// Three bytes per pixel.
    Rgb,
}

impl Logo {
    /// Decodes a PNG logo (grey, grey + alpha, RGB, RGBA or palette; any bit depth;
    /// interlaced or not; 16-bit samples are reduced to 8).
    ///
    /// # Errors
    ///
    /// [`LogoError::FileTooLarge`] past 1 MiB, [`LogoError::Dimensions`] for an empty image or
    /// one wider or taller than 2000 pixels, [`LogoError::NotPng`] for anything that does
    /// not decode as a PNG, [`LogoError::Unsupported`] for an unexpected pixel layout.
    pub fn from_png(bytes: &[u8]) -> Result<Logo, LogoError> {
        if bytes.len() > MAX_LOGO_BYTES {
            return Err(LogoError::FileTooLarge { bytes: bytes.len() });
        }
        // Check the size in the header before the decoder allocates anything for it.
        let (width, height) = header_size(bytes).ok_or(LogoError::NotPng)?;
        if width == 0 || height == 0 || width > MAX_LOGO_SIDE || height > MAX_LOGO_SIDE {
            return Err(LogoError::Dimensions { width, height });
        }

        let mut decoder = png::Decoder::new(Cursor::new(bytes));
        decoder.set_transformations(png::Transformations::normalize_to_color8());
        let mut reader = decoder.read_info().map_err(|_| LogoError::NotPng)?;
        let size = reader.output_buffer_size().ok_or_else(|| LogoError::Unsupported("the image is too large to decode".into()))?;
        let mut buffer = vec![0; size];
        let frame = reader.next_frame(&mut buffer).map_err(|_| LogoError::NotPng)?;
        if frame.bit_depth != png::BitDepth::Eight {
            return Err(LogoError::Unsupported(format!("{:?}-bit samples", frame.bit_depth)));
        }
        if (frame.width, frame.height) != (width, height) {
            return Err(LogoError::NotPng);
        }
        buffer.truncate(frame.buffer_size());

        let (colour, channels) = match frame.color_type {
            png::ColorType::Grayscale => (Colour::Grey, 1),
            png::ColorType::GrayscaleAlpha => (Colour::Grey, 2),
            png::ColorType::Rgb => (Colour::Rgb, 3),
            png::ColorType::Rgba => (Colour::Rgb, 4),
            png::ColorType::Indexed => return Err(LogoError::Unsupported("an unexpanded palette".into())),
        };
        // Rows are packed (8-bit samples), so the buffer is exactly width × height pixels.
        let pixels = usize::try_from(u64::from(width) * u64::from(height)).map_err(|_| LogoError::Dimensions { width, height })?;
        if buffer.len() != pixels * channels {
            return Err(LogoError::NotPng);
        }
        let (samples, alpha) = match channels {
            2 | 4 => {
                let colour_len = channels - 1;
                let mut samples = Vec::with_capacity(pixels * colour_len);
                let mut alpha = Vec::with_capacity(pixels);
                for pixel in buffer.chunks_exact(channels) {
                    let (c, a) = pixel.split_at(colour_len);
                    samples.extend_from_slice(c);
                    alpha.extend_from_slice(a);
                }
                // A fully opaque alpha channel is dropped: no soft mask to embed.
                let alpha = alpha.iter().any(|&a| a != u8::MAX).then_some(alpha);
                (samples, alpha)
            }
            _ => (buffer, None),
        };
        Ok(Logo { width, height, colour, samples, alpha })
    }

    /// Width in pixels.
    #[must_use]
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in pixels.
    #[must_use]
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Whether some pixels are (partly) transparent, so the logo carries a soft mask.
    #[must_use]
    pub fn has_alpha(&self) -> bool {
        self.alpha.is_some()
    }

    pub(crate) fn colour(&self) -> Colour {
        self.colour
    }

    pub(crate) fn samples(&self) -> &[u8] {
        &self.samples
    }

    pub(crate) fn alpha(&self) -> Option<&[u8]> {
        self.alpha.as_deref()
    }
}

impl fmt::Debug for Logo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Logo")
            .field("width", &self.width)
            .field("height", &self.height)
            .field("colour", &self.colour)
            .field("alpha", &self.alpha.is_some())
            .finish_non_exhaustive()
    }
}

/// Width and height from the PNG signature and the IHDR chunk that must follow it.
fn header_size(bytes: &[u8]) -> Option<(u32, u32)> {
    if bytes.get(..8)? != PNG_SIGNATURE || bytes.get(12..16)? != b"IHDR" {
        return None;
    }
    let word = |at: usize| bytes.get(at..at + 4).and_then(|b| b.try_into().ok()).map(u32::from_be_bytes);
    Some((word(16)?, word(20)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encode(width: u32, height: u32, colour: png::ColorType, depth: png::BitDepth, data: &[u8], palette: Option<&[u8]>) -> Vec<u8> {
        let mut out = Vec::new();
        {
            let mut encoder = png::Encoder::new(&mut out, width, height);
            encoder.set_color(colour);
            encoder.set_depth(depth);
            if let Some(p) = palette {
                encoder.set_palette(p.to_vec());
            }
            let mut writer = encoder.write_header().unwrap();
            writer.write_image_data(data).unwrap();
            writer.finish().unwrap();
        }
        out
    }

    /// CRC-32 (ISO-HDLC), as PNG chunks use it.
    fn crc32(data: &[u8]) -> u32 {
        let mut crc = u32::MAX;
        for &byte in data {
            crc ^= u32::from(byte);
            for _ in 0..8 {
                crc = if crc & 1 == 1 { (crc >> 1) ^ 0xedb8_8320 } else { crc >> 1 };
            }
        }
        !crc
    }

    #[test]
    fn accepts_rgb() {
        let data: Vec<u8> = (0..3 * 2 * 3).map(|i| i as u8 * 10).collect();
        let logo = Logo::from_png(&encode(3, 2, png::ColorType::Rgb, png::BitDepth::Eight, &data, None)).unwrap();
        assert_eq!((logo.width(), logo.height()), (3, 2));
        assert_eq!(logo.colour(), Colour::Rgb);
        assert_eq!(logo.samples(), &data[..]);
        assert!(!logo.has_alpha());
    }

    #[test]
    fn accepts_rgba_and_splits_the_alpha() {
        let data = [255, 0, 0, 255, 0, 255, 0, 128, 0, 0, 255, 0, 9, 9, 9, 255];
        let logo = Logo::from_png(&encode(2, 2, png::ColorType::Rgba, png::BitDepth::Eight, &data, None)).unwrap();
        assert_eq!(logo.colour(), Colour::Rgb);
        assert_eq!(logo.samples(), &[255, 0, 0, 0, 255, 0, 0, 0, 255, 9, 9, 9]);
        assert_eq!(logo.alpha(), Some(&[255, 128, 0, 255][..]));
    }

    #[test]
    fn an_opaque_alpha_channel_is_dropped() {
        let data = [1, 2, 3, 255, 4, 5, 6, 255];
        let logo = Logo::from_png(&encode(2, 1, png::ColorType::Rgba, png::BitDepth::Eight, &data, None)).unwrap();
        assert_eq!(logo.samples(), &[1, 2, 3, 4, 5, 6]);
        assert!(!logo.has_alpha());
    }

    #[test]
    fn accepts_grey_and_grey_alpha() {
        let logo = Logo::from_png(&encode(4, 1, png::ColorType::Grayscale, png::BitDepth::Eight, &[0, 85, 170, 255], None)).unwrap();
        assert_eq!(logo.colour(), Colour::Grey);
        assert_eq!(logo.samples(), &[0, 85, 170, 255]);
        // 1-bit grey is expanded to 8 bits.
        let logo = Logo::from_png(&encode(8, 1, png::ColorType::Grayscale, png::BitDepth::One, &[0b1010_0000], None)).unwrap();
        assert_eq!(logo.samples(), &[255, 0, 255, 0, 0, 0, 0, 0]);
        let logo = Logo::from_png(&encode(2, 1, png::ColorType::GrayscaleAlpha, png::BitDepth::Eight, &[10, 0, 20, 255], None)).unwrap();
        assert_eq!(logo.samples(), &[10, 20]);
        assert_eq!(logo.alpha(), Some(&[0, 255][..]));
    }

    #[test]
    fn accepts_palette() {
        let palette = [255, 0, 0, 0, 0, 255];
        // 2-bit indices: pixels 0, 1, 1, 0.
        let logo = Logo::from_png(&encode(4, 1, png::ColorType::Indexed, png::BitDepth::Two, &[0b0001_0100], Some(&palette))).unwrap();
        assert_eq!(logo.colour(), Colour::Rgb);
        assert_eq!(logo.samples(), &[255, 0, 0, 0, 0, 255, 0, 0, 255, 255, 0, 0]);
    }

    #[test]
    fn reduces_sixteen_bit_samples() {
        let data = [0xff, 0xee, 0x12, 0x34, 0x00, 0x01];
        let logo = Logo::from_png(&encode(1, 1, png::ColorType::Rgb, png::BitDepth::Sixteen, &data, None)).unwrap();
        assert_eq!(logo.samples(), &[0xff, 0x12, 0x00]);
    }

    #[test]
    fn refuses_garbage() {
        assert_eq!(Logo::from_png(b"GIF89a not a png at all"), Err(LogoError::NotPng));
        assert_eq!(Logo::from_png(&[]), Err(LogoError::NotPng));
        // A PNG cut short after its header.
        let png = encode(2, 2, png::ColorType::Rgb, png::BitDepth::Eight, &[7; 12], None);
        assert_eq!(Logo::from_png(&png[..40]), Err(LogoError::NotPng));
    }

    #[test]
    fn refuses_an_empty_image() {
        // The encoder will not write a 0 x 0 image: patch a valid header, CRC included.
        let mut png = encode(1, 1, png::ColorType::Rgb, png::BitDepth::Eight, &[1, 2, 3], None);
        png[16..24].fill(0);
        let crc = crc32(&png[12..29]);
        png[29..33].copy_from_slice(&crc.to_be_bytes());
        assert_eq!(Logo::from_png(&png), Err(LogoError::Dimensions { width: 0, height: 0 }));
    }

    #[test]
    fn refuses_an_image_wider_than_2000_pixels() {
        let png = encode(2001, 1, png::ColorType::Grayscale, png::BitDepth::Eight, &[0; 2001], None);
        let err = Logo::from_png(&png).unwrap_err();
        assert_eq!(err, LogoError::Dimensions { width: 2001, height: 1 });
        assert!(err.to_string().contains("2001 x 1 pixels"), "{err}");
        // 2000 is still fine.
        let png = encode(2000, 1, png::ColorType::Grayscale, png::BitDepth::Eight, &[0; 2000], None);
        assert_eq!(Logo::from_png(&png).unwrap().width(), 2000);
    }

    #[test]
    fn refuses_a_file_over_one_mebibyte() {
        let mut big = encode(1, 1, png::ColorType::Rgb, png::BitDepth::Eight, &[1, 2, 3], None);
        big.resize(MAX_LOGO_BYTES + 1, 0);
        let err = Logo::from_png(&big).unwrap_err();
        assert_eq!(err, LogoError::FileTooLarge { bytes: MAX_LOGO_BYTES + 1 });
        assert_eq!(err.to_string(), "The logo file is 1025 KiB; the largest accepted is 1 MiB (1024 KiB).");
    }

    #[test]
    fn messages_are_sentences() {
        let errors = [
            LogoError::NotPng,
            LogoError::FileTooLarge { bytes: 2_000_000 },
            LogoError::Dimensions { width: 0, height: 0 },
            LogoError::Unsupported("16-bit".into()),
        ];
        for e in errors {
            let text = e.to_string();
            assert!(text.starts_with(char::is_uppercase) && text.ends_with('.'), "{text}");
        }
    }

    #[test]
    fn debug_does_not_dump_pixels() {
        let logo = Logo::from_png(&encode(50, 50, png::ColorType::Grayscale, png::BitDepth::Eight, &[3; 2500], None)).unwrap();
        let text = format!("{logo:?}");
        assert!(text.contains("width: 50") && text.len() < 120, "{text}");
    }
}
