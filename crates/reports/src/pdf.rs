//! Assembles the PDF file: catalog, pages, fonts, the logo image and the metadata.
//!
//! Object numbers are fixed (catalog 1, page tree 2, info 3, fonts 4–5, logo 6–7, then a
//! page and its content stream per page) and nothing depends on the time, so the same
//! input always gives the same bytes. No file identifier is written: it is optional, and a
//! deterministic one would add nothing.

use miniz_oxide::deflate::compress_to_vec_zlib;
use pdf_writer::{Filter, Finish, Name, Pdf, Rect, Ref, Settings, TextStr};

use crate::layout::{LOGO_NAME, PAGE_HEIGHT, PAGE_WIDTH};
use crate::logo::Colour;
use crate::text::Font;
use crate::{Brand, Report};

/// zlib level 6: the usual balance of size and speed.
const DEFLATE_LEVEL: u8 = 6;

fn deflate(data: &[u8]) -> Vec<u8> {
    compress_to_vec_zlib(data, DEFLATE_LEVEL)
}

/// PDF integers are `i32`; every count here is far below that.
fn int(n: impl TryInto<i32>) -> i32 {
    n.try_into().unwrap_or(i32::MAX)
}

/// The whole file from the pages' content streams.
pub(crate) fn write(pages: &[Vec<u8>], report: &Report, brand: &Brand) -> Vec<u8> {
    let catalog_id = Ref::new(1);
    let tree_id = Ref::new(2);
    let info_id = Ref::new(3);
    let font_ids = [Ref::new(4), Ref::new(5)];
    let image_id = Ref::new(6);
    let mask_id = Ref::new(7);
    let first_page = 8;
    let page_ids: Vec<Ref> = (0..pages.len()).map(|i| Ref::new(first_page + 2 * int(i))).collect();

    let mut pdf = Pdf::with_settings(Settings { pretty: false });

    let mut catalog = pdf.catalog(catalog_id);
    catalog.pages(tree_id);
    catalog.viewer_preferences().display_doc_title(true);
    catalog.finish();

    pdf.document_info(info_id)
        .title(TextStr(&report.title))
        .author(TextStr(&brand.name))
        .creator(TextStr(&brand.name))
        .producer(TextStr(&brand.name));

    for (font, id) in Font::ALL.into_iter().zip(font_ids) {
        pdf.type1_font(id).base_font(font.base_font()).encoding_predefined(Name(b"WinAnsiEncoding"));
    }

    if let Some(logo) = &brand.logo {
        let samples = deflate(logo.samples());
        let mut image = pdf.image_xobject(image_id, &samples);
        image.filter(Filter::FlateDecode);
        image.width(int(logo.width()));
        image.height(int(logo.height()));
        match logo.colour() {
            Colour::Grey => image.color_space().device_gray(),
            Colour::Rgb => image.color_space().device_rgb(),
        }
        image.bits_per_component(8);
        image.interpolate(true);
        if logo.alpha().is_some() {
            image.s_mask(mask_id);
        }
        image.finish();
        if let Some(alpha) = logo.alpha() {
            let alpha = deflate(alpha);
            let mut mask = pdf.image_xobject(mask_id, &alpha);
            mask.filter(Filter::FlateDecode);
            mask.width(int(logo.width()));
            mask.height(int(logo.height()));
            mask.color_space().device_gray();
            mask.bits_per_component(8);
            mask.finish();
        }
    }

    pdf.pages(tree_id).kids(page_ids.iter().copied()).count(int(pages.len()));
    for (content, page_id) in pages.iter().zip(&page_ids) {
        let content_id = Ref::new(page_id.get() + 1);
        let mut page = pdf.page(*page_id);
        page.media_box(Rect::new(0.0, 0.0, PAGE_WIDTH, PAGE_HEIGHT));
        page.parent(tree_id);
        page.contents(content_id);
        let mut resources = page.resources();
        let mut fonts = resources.fonts();
        for (font, id) in Font::ALL.into_iter().zip(font_ids) {
            fonts.pair(font.resource(), id);
        }
        fonts.finish();
        if brand.logo.is_some() {
            resources.x_objects().pair(LOGO_NAME, image_id);
        }
        resources.finish();
        page.finish();
        pdf.stream(content_id, &deflate(content)).filter(Filter::FlateDecode);
    }

    pdf.finish()
}
