//! Page layout: flows a report's sections down US Letter pages and draws every page's
//! header and footer. The result is one uncompressed content stream per page.
//!
//! Coordinates are PDF points from the bottom-left corner of the page. `y` is the top of
//! the free space on the current page and moves down as blocks are placed.

use pdf_writer::types::{LineCapStyle, LineJoinStyle};
use pdf_writer::{Content, Name, Str};

use crate::color::{AXIS, BODY, INK, MUTED, NEGATIVE, RULE, Rgb, SERIES_GREYS, ZEBRA};
use crate::scale::Ticks;
use crate::text::{CAP_HEIGHT, Font, fit, fit_bytes, text_width, width, wrap};
use crate::{Align, Bar, Brand, Column, Figure, Report, Section, Series};

/// US Letter, portrait.
pub(crate) const PAGE_WIDTH: f32 = 612.0;
/// US Letter, portrait.
pub(crate) const PAGE_HEIGHT: f32 = 792.0;
const MARGIN: f32 = 48.0;
const LEFT: f32 = MARGIN;
const RIGHT: f32 = PAGE_WIDTH - MARGIN;
const CONTENT_WIDTH: f32 = RIGHT - LEFT;

/// The name of the logo image in the page resources.
pub(crate) const LOGO_NAME: Name<'static> = Name(b"Im1");

// Header: a band as tall as the largest logo, then a rule, then the body.
const HEADER_BAND: f32 = 36.0;
const LOGO_MAX_WIDTH: f32 = 160.0;
const HEADER_RULE_Y: f32 = PAGE_HEIGHT - MARGIN - HEADER_BAND - 8.0;
const BODY_TOP: f32 = HEADER_RULE_Y - 22.0;

// Footer: up to three lines of brand text at the bottom margin, "Page N of M" at the right.
const FOOTER_SIZE: f32 = 7.5;
const FOOTER_LEADING: f32 = 10.0;
const FOOTER_MAX_LINES: usize = 3;
const PAGE_LABEL_WIDTH: f32 = 90.0;
const FOOTER_BASELINE: f32 = MARGIN + 2.0;

const SECTION_GAP: f32 = 22.0;
const HEADING_SIZE: f32 = 12.5;
const HEADING_HEIGHT: f32 = 22.0;

const FIGURE_GAP: f32 = 10.0;
const FIGURE_HEIGHT: f32 = 54.0;

const CELL_SIZE: f32 = 8.0;
const CELL_PAD: f32 = 4.5;
const TABLE_HEADER_HEIGHT: f32 = 20.0;
const TABLE_ROW_HEIGHT: f32 = 17.0;
const CONTINUED_HEIGHT: f32 = 16.0;
/// Blocks up to this tall move to a new page whole rather than split.
const KEEP_TOGETHER_MAX: f32 = 200.0;

const LEGEND_SIZE: f32 = 8.5;
const LEGEND_ROW: f32 = 14.0;
const AXIS_SIZE: f32 = 8.0;
const PLOT_HEIGHT: f32 = 160.0;
const X_LABEL_HEIGHT: f32 = 20.0;

const BAR_ROW_HEIGHT: f32 = 18.0;
const BAR_THICKNESS: f32 = 10.0;

const PARAGRAPH_SIZE: f32 = 10.0;
const PARAGRAPH_LEADING: f32 = 14.5;

/// The baseline that centres capital letters of `size` on `middle`.
fn centred_baseline(middle: f32, size: f32) -> f32 {
    middle - CAP_HEIGHT * size / 2.0
}

/// A page's drawing operations.
struct Canvas {
    content: Content,
}

impl Canvas {
    fn new() -> Canvas {
        Canvas { content: Content::new() }
    }

    fn fill(&mut self, colour: Rgb) {
        let (r, g, b) = colour.unit();
        self.content.set_fill_rgb(r, g, b);
    }

    fn stroke(&mut self, colour: Rgb, line_width: f32) {
        let (r, g, b) = colour.unit();
        self.content.set_stroke_rgb(r, g, b);
        self.content.set_line_width(line_width);
    }

    fn rect(&mut self, x: f32, y: f32, w: f32, h: f32, colour: Rgb) {
        if w <= 0.0 || h <= 0.0 {
            return;
        }
        self.fill(colour);
        self.content.rect(x, y, w, h).fill_nonzero();
    }

    fn line(&mut self, from: (f32, f32), to: (f32, f32), line_width: f32, colour: Rgb) {
        self.stroke(colour, line_width);
        self.content.move_to(from.0, from.1).line_to(to.0, to.1).stroke();
    }

    /// A filled circle, from four Bézier arcs.
    fn dot(&mut self, x: f32, y: f32, r: f32, colour: Rgb) {
        const K: f32 = 0.552_284_8;
        let k = K * r;
        self.fill(colour);
        self.content
            .move_to(x + r, y)
            .cubic_to(x + r, y + k, x + k, y + r, x, y + r)
            .cubic_to(x - k, y + r, x - r, y + k, x - r, y)
            .cubic_to(x - r, y - k, x - k, y - r, x, y - r)
            .cubic_to(x + k, y - r, x + r, y - k, x + r, y)
            .close_path()
            .fill_nonzero();
    }

    /// Encoded text with its left end at `x`.
    fn text(&mut self, font: Font, size: f32, x: f32, baseline: f32, bytes: &[u8], colour: Rgb) {
        if bytes.is_empty() {
            return;
        }
        self.fill(colour);
        self.content.begin_text().set_font(font.resource(), size).next_line(x, baseline).show(Str(bytes)).end_text();
    }

    /// Encoded text with its right end at `right`.
    fn text_right(&mut self, font: Font, size: f32, right: f32, baseline: f32, bytes: &[u8], colour: Rgb) {
        let x = right - width(bytes, font, size);
        self.text(font, size, x, baseline, bytes, colour);
    }

    /// Encoded text centred on `centre`.
    fn text_centred(&mut self, font: Font, size: f32, centre: f32, baseline: f32, bytes: &[u8], colour: Rgb) {
        let x = centre - width(bytes, font, size) / 2.0;
        self.text(font, size, x, baseline, bytes, colour);
    }

    fn image(&mut self, x: f32, y: f32, w: f32, h: f32) {
        self.content.save_state().transform([w, 0.0, 0.0, h, x, y]).x_object(LOGO_NAME).restore_state();
    }
}

/// Lays out the report: one finished (uncompressed) content stream per page.
pub(crate) fn lay_out(report: &Report, brand: &Brand) -> Vec<Vec<u8>> {
    let footer = footer_lines(&brand.footer);
    let mut layout = Layout::new(report, floor_above_footer(footer.len()));
    layout.title_block();
    for section in &report.sections {
        layout.section(section, brand);
    }
    let pages = layout.finish();
    let total = pages.len();
    pages
        .into_iter()
        .enumerate()
        .map(|(i, mut canvas)| {
            draw_header(&mut canvas, report, brand);
            draw_footer(&mut canvas, &footer, i + 1, total);
            canvas.content.finish().into_vec()
        })
        .collect()
}

/// The brand's footer, wrapped beside the page label; the last kept line ends in `...`
/// when there would be more than three.
fn footer_lines(footer: &str) -> Vec<Vec<u8>> {
    let max = CONTENT_WIDTH - PAGE_LABEL_WIDTH;
    let mut lines: Vec<Vec<u8>> = wrap(footer, Font::Regular, FOOTER_SIZE, max).into_iter().filter(|l| !l.is_empty()).collect();
    if lines.len() > FOOTER_MAX_LINES {
        lines.truncate(FOOTER_MAX_LINES);
        if let Some(last) = lines.last_mut() {
            let mut longer = std::mem::take(last);
            longer.extend_from_slice(b" ...");
            *last = fit_bytes(longer, Font::Regular, FOOTER_SIZE, max);
        }
    }
    lines
}

/// The footer's top rule for `lines` lines of footer text (at least one line's room).
fn footer_rule_y(lines: usize) -> f32 {
    let lines = lines.max(1);
    FOOTER_BASELINE + (lines - 1) as f32 * FOOTER_LEADING + FOOTER_SIZE + 6.0
}

/// The lowest point the body may reach above the footer.
fn floor_above_footer(lines: usize) -> f32 {
    footer_rule_y(lines) + 16.0
}

fn draw_header(canvas: &mut Canvas, report: &Report, brand: &Brand) {
    let middle = PAGE_HEIGHT - MARGIN - HEADER_BAND / 2.0;
    let mut x = LEFT;
    if let Some(logo) = &brand.logo {
        let (w, h) = (logo.width() as f32, logo.height() as f32);
        let scale = (HEADER_BAND / h).min(LOGO_MAX_WIDTH / w);
        let (w, h) = (w * scale, h * scale);
        canvas.image(x, middle - h / 2.0, w, h);
        x += w + 10.0;
    }
    let name_size = 15.0;
    let name = fit(&brand.name, Font::Bold, name_size, (LEFT + CONTENT_WIDTH * 0.6 - x).max(0.0));
    canvas.text(Font::Bold, name_size, x, centred_baseline(middle, name_size), &name, brand.primary);
    x += width(&name, Font::Bold, name_size);

    let title_size = 9.0;
    let room = RIGHT - x - 24.0;
    if room > 30.0 {
        let title = fit(&report.title, Font::Regular, title_size, room);
        canvas.text_right(Font::Regular, title_size, RIGHT, centred_baseline(middle, title_size), &title, MUTED);
    }
    canvas.line((LEFT, HEADER_RULE_Y), (RIGHT, HEADER_RULE_Y), 1.0, brand.primary);
}

fn draw_footer(canvas: &mut Canvas, lines: &[Vec<u8>], page: usize, pages: usize) {
    let rule = footer_rule_y(lines.len());
    canvas.line((LEFT, rule), (RIGHT, rule), 0.5, RULE);
    let top_baseline = FOOTER_BASELINE + lines.len().saturating_sub(1) as f32 * FOOTER_LEADING;
    for (i, line) in lines.iter().enumerate() {
        canvas.text(Font::Regular, FOOTER_SIZE, LEFT, top_baseline - i as f32 * FOOTER_LEADING, line, MUTED);
    }
    let label = format!("Page {page} of {pages}");
    canvas.text_right(Font::Regular, 8.0, RIGHT, top_baseline, label.as_bytes(), MUTED);
}

struct Layout<'a> {
    report: &'a Report,
    done: Vec<Canvas>,
    page: Canvas,
    y: f32,
    floor: f32,
}

impl<'a> Layout<'a> {
    fn new(report: &'a Report, floor: f32) -> Layout<'a> {
        Layout { report, done: Vec::new(), page: Canvas::new(), y: BODY_TOP, floor }
    }

    fn finish(mut self) -> Vec<Canvas> {
        self.done.push(self.page);
        self.done
    }

    fn new_page(&mut self) {
        let full = std::mem::replace(&mut self.page, Canvas::new());
        self.done.push(full);
        self.y = BODY_TOP;
    }

    fn at_top(&self) -> bool {
        self.y >= BODY_TOP - 0.01
    }

    /// Starts a new page unless `height` fits below `y` (or the page is still empty, where
    /// a new page would not help).
    fn ensure(&mut self, height: f32) {
        if self.y - height < self.floor && !self.at_top() {
            self.new_page();
        }
    }

    /// Like [`Layout::ensure`], but a block continued on a new page is captioned with its
    /// heading and "(continued)". Returns whether a new page was started.
    fn ensure_or_continue(&mut self, height: f32, heading: &str) -> bool {
        if self.y - height >= self.floor || self.at_top() {
            return false;
        }
        self.new_page();
        if !heading.trim().is_empty() {
            let caption = fit(&format!("{heading} (continued)"), Font::Regular, 9.0, CONTENT_WIDTH);
            self.page.text(Font::Regular, 9.0, LEFT, self.y - 9.0, &caption, MUTED);
            self.y -= CONTINUED_HEIGHT;
        }
        true
    }

    fn title_block(&mut self) {
        let report = self.report;
        for line in wrap(&report.title, Font::Bold, 22.0, CONTENT_WIDTH) {
            self.page.text(Font::Bold, 22.0, LEFT, self.y - 20.0, &line, INK);
            self.y -= 27.0;
        }
        if !report.subtitle.trim().is_empty() {
            self.y -= 1.0;
            for line in wrap(&report.subtitle, Font::Regular, 12.0, CONTENT_WIDTH) {
                self.page.text(Font::Regular, 12.0, LEFT, self.y - 11.0, &line, BODY);
                self.y -= 16.0;
            }
        }
        if !report.generated.trim().is_empty() {
            self.y -= 2.0;
            for line in wrap(&report.generated, Font::Regular, 9.0, CONTENT_WIDTH) {
                self.page.text(Font::Regular, 9.0, LEFT, self.y - 9.0, &line, MUTED);
                self.y -= 13.0;
            }
        }
    }

    /// Places a section heading, with a gap above unless at the top of a page, moving to a
    /// new page first when the heading and `keep` points of what follows would not fit.
    fn heading(&mut self, heading: Option<&str>, keep: f32) {
        let heading = heading.filter(|h| !h.trim().is_empty());
        let gap = if self.at_top() { 0.0 } else { SECTION_GAP };
        let height = if heading.is_some() { HEADING_HEIGHT } else { 0.0 };
        if self.y - gap - height - keep < self.floor && !self.at_top() {
            self.new_page();
        } else {
            self.y -= gap;
        }
        if let Some(text) = heading {
            let line = fit(text, Font::Bold, HEADING_SIZE, CONTENT_WIDTH);
            self.page.text(Font::Bold, HEADING_SIZE, LEFT, self.y - HEADING_SIZE, &line, INK);
            self.y -= HEADING_HEIGHT;
        }
    }

    fn section(&mut self, section: &Section, brand: &Brand) {
        match section {
            Section::Figures { heading, items } => self.figures(heading, items, brand),
            Section::Table { heading, columns, rows, empty } => self.table(heading, columns, rows, empty, brand),
            Section::LineChart { heading, series, x_labels, y_suffix } => self.chart(heading, series, x_labels, y_suffix, brand),
            Section::Bars { heading, bars } => self.bars(heading, bars, brand),
            Section::Paragraph { heading, text } => self.paragraph(heading.as_deref(), text),
        }
    }

    fn figures(&mut self, heading: &str, items: &[Figure], brand: &Brand) {
        let columns = figure_columns(items.len());
        let row_count = items.len().div_ceil(columns);
        let total = row_count as f32 * (FIGURE_HEIGHT + FIGURE_GAP) - FIGURE_GAP;
        self.heading(Some(heading), keep_together(total, FIGURE_HEIGHT));
        let card_width = (CONTENT_WIDTH - (columns - 1) as f32 * FIGURE_GAP) / columns as f32;
        let inner = card_width - 24.0;
        let rows: Vec<&[Figure]> = items.chunks(columns).collect();
        for (r, row) in rows.iter().enumerate() {
            self.ensure_or_continue(FIGURE_HEIGHT, heading);
            let top = self.y;
            for (j, figure) in row.iter().enumerate() {
                let x = LEFT + j as f32 * (card_width + FIGURE_GAP);
                self.page.rect(x, top - FIGURE_HEIGHT, card_width, FIGURE_HEIGHT, brand.primary.tint(0.93));
                self.page.rect(x, top - FIGURE_HEIGHT, 3.0, FIGURE_HEIGHT, brand.primary);
                let label = fit(&figure.label, Font::Regular, 8.5, inner);
                self.page.text(Font::Regular, 8.5, x + 12.0, top - 18.0, &label, MUTED);
                // Shrink a long value before cutting it.
                let mut size = 17.0;
                while size > 11.0 && text_width(&figure.value, Font::Bold, size) > inner {
                    size -= 1.0;
                }
                let value = fit(&figure.value, Font::Bold, size, inner);
                self.page.text(Font::Bold, size, x + 12.0, top - 41.0, &value, INK);
            }
            self.y -= FIGURE_HEIGHT;
            if r + 1 < rows.len() {
                self.y -= FIGURE_GAP;
            }
        }
    }

    fn table(&mut self, heading: &str, columns: &[Column], rows: &[Vec<String>], empty: &str, brand: &Brand) {
        self.heading(Some(heading), TABLE_HEADER_HEIGHT + TABLE_ROW_HEIGHT);
        let widths = column_widths(columns);
        self.table_header(columns, &widths, brand);
        if rows.is_empty() || columns.is_empty() {
            let text = fit(empty, Font::Regular, CELL_SIZE, CONTENT_WIDTH - 2.0 * CELL_PAD);
            let baseline = centred_baseline(self.y - TABLE_ROW_HEIGHT / 2.0, CELL_SIZE);
            self.page.text(Font::Regular, CELL_SIZE, LEFT + CELL_PAD, baseline, &text, MUTED);
            self.y -= TABLE_ROW_HEIGHT;
        }
        if !columns.is_empty() {
            for (i, row) in rows.iter().enumerate() {
                if self.y - TABLE_ROW_HEIGHT < self.floor && !self.at_top() {
                    self.table_end();
                    self.ensure_or_continue(TABLE_ROW_HEIGHT, heading);
                    self.table_header(columns, &widths, brand);
                }
                let top = self.y;
                if i % 2 == 1 {
                    self.page.rect(LEFT, top - TABLE_ROW_HEIGHT, CONTENT_WIDTH, TABLE_ROW_HEIGHT, ZEBRA);
                }
                let baseline = centred_baseline(top - TABLE_ROW_HEIGHT / 2.0, CELL_SIZE);
                let mut x = LEFT;
                for (j, (column, w)) in columns.iter().zip(&widths).enumerate() {
                    let cell = row.get(j).map_or("", String::as_str);
                    self.cell(Font::Regular, cell, column.align, x, *w, baseline, BODY);
                    x += w;
                }
                self.y -= TABLE_ROW_HEIGHT;
            }
        }
        self.table_end();
    }

    fn table_header(&mut self, columns: &[Column], widths: &[f32], brand: &Brand) {
        let top = self.y;
        self.page.rect(LEFT, top - TABLE_HEADER_HEIGHT, CONTENT_WIDTH, TABLE_HEADER_HEIGHT, brand.primary.tint(0.86));
        let baseline = centred_baseline(top - TABLE_HEADER_HEIGHT / 2.0, CELL_SIZE);
        let mut x = LEFT;
        for (column, w) in columns.iter().zip(widths) {
            self.cell(Font::Bold, &column.label, column.align, x, *w, baseline, INK);
            x += w;
        }
        self.y -= TABLE_HEADER_HEIGHT;
    }

    fn table_end(&mut self) {
        self.page.line((LEFT, self.y), (RIGHT, self.y), 0.75, RULE);
    }

    #[expect(clippy::too_many_arguments, reason = "a cell is a font, text, alignment, box and colour")]
    fn cell(&mut self, font: Font, text: &str, align: Align, x: f32, w: f32, baseline: f32, colour: Rgb) {
        let inner = (w - 2.0 * CELL_PAD).max(0.0);
        let bytes = fit(text, font, CELL_SIZE, inner);
        match align {
            Align::Left => self.page.text(font, CELL_SIZE, x + CELL_PAD, baseline, &bytes, colour),
            Align::Right => self.page.text_right(font, CELL_SIZE, x + w - CELL_PAD, baseline, &bytes, colour),
        }
    }

    fn chart(&mut self, heading: &str, series: &[Series], x_labels: &[String], y_suffix: &str, brand: &Brand) {
        let legend = legend_rows(series);
        let legend_height = legend.len() as f32 * LEGEND_ROW;
        let total = legend_height + 8.0 + PLOT_HEIGHT + X_LABEL_HEIGHT;
        self.heading(Some(heading), total);

        // Legend.
        for (row, items) in legend.iter().enumerate() {
            let middle = self.y - row as f32 * LEGEND_ROW - LEGEND_ROW / 2.0;
            for item in items {
                let colour = series_colour(item.index, brand);
                self.page.line((item.x, middle), (item.x + 14.0, middle), 2.5, colour);
                self.page.text(Font::Regular, LEGEND_SIZE, item.x + 18.0, centred_baseline(middle, LEGEND_SIZE), &item.label, BODY);
            }
        }
        let plot_top = self.y - legend_height - 8.0;
        let plot_bottom = plot_top - PLOT_HEIGHT;

        let finite = series.iter().flat_map(|s| s.points.iter().copied()).filter(|v| v.is_finite());
        let range = finite.fold(None, |acc: Option<(f64, f64)>, v| Some(acc.map_or((v, v), |(lo, hi)| (lo.min(v), hi.max(v)))));
        let ticks = range.map(|(lo, hi)| Ticks::around(lo, hi));
        let labels: Vec<(f64, Vec<u8>)> = ticks
            .as_ref()
            .map(|t| t.values().into_iter().map(|v| (v, crate::text::encode(&t.label(v, y_suffix)))).collect())
            .unwrap_or_default();
        let label_width = labels.iter().map(|(_, l)| width(l, Font::Regular, AXIS_SIZE)).fold(0.0, f32::max);
        let x0 = LEFT + label_width.min(CONTENT_WIDTH * 0.3) + 6.0;
        let x1 = RIGHT;

        match &ticks {
            Some(t) => {
                let to_y = |v: f64| plot_bottom + ((v - t.lo) / (t.hi - t.lo)) as f32 * PLOT_HEIGHT;
                for (v, label) in &labels {
                    let y = to_y(*v);
                    self.page.line((x0, y), (x1, y), 0.5, RULE);
                    let label = fit_bytes(label.clone(), Font::Regular, AXIS_SIZE, x0 - 6.0 - LEFT);
                    self.page.text_right(Font::Regular, AXIS_SIZE, x0 - 6.0, centred_baseline(y, AXIS_SIZE), &label, MUTED);
                }
                if t.lo < 0.0 && t.hi > 0.0 {
                    let y = to_y(0.0);
                    self.page.line((x0, y), (x1, y), 0.75, AXIS);
                }
                let count = series.iter().map(|s| s.points.len()).max().unwrap_or(0);
                let to_x = |i: usize| if count <= 1 { (x0 + x1) / 2.0 } else { x0 + (x1 - x0) * i as f32 / (count - 1) as f32 };
                for (index, s) in series.iter().enumerate() {
                    self.polyline(s, series_colour(index, brand), &to_x, &to_y);
                }
            }
            None => {
                let text = b"No data";
                self.page.text_centred(Font::Regular, 9.0, (x0 + x1) / 2.0, plot_bottom + PLOT_HEIGHT / 2.0, text, MUTED);
            }
        }
        self.page.line((x0, plot_bottom), (x0, plot_top), 0.75, AXIS);
        self.page.line((x0, plot_bottom), (x1, plot_bottom), 0.75, AXIS);

        // X labels: the first flush left on the first point, the last flush right on the
        // last, the others centred between.
        let n = x_labels.len();
        let slot = (x1 - x0) / n.max(1) as f32 - 4.0;
        let baseline = plot_bottom - 13.0;
        for (j, label) in x_labels.iter().enumerate() {
            let bytes = fit(label, Font::Regular, AXIS_SIZE, slot);
            if n == 1 {
                self.page.text_centred(Font::Regular, AXIS_SIZE, (x0 + x1) / 2.0, baseline, &bytes, MUTED);
            } else if j == 0 {
                self.page.text(Font::Regular, AXIS_SIZE, x0, baseline, &bytes, MUTED);
            } else if j + 1 == n {
                self.page.text_right(Font::Regular, AXIS_SIZE, x1, baseline, &bytes, MUTED);
            } else {
                let centre = x0 + (x1 - x0) * j as f32 / (n - 1) as f32;
                self.page.text_centred(Font::Regular, AXIS_SIZE, centre, baseline, &bytes, MUTED);
            }
        }
        self.y = plot_bottom - X_LABEL_HEIGHT;
    }

    /// One series: runs of finite points as lines, a lone finite point as a dot.
    fn polyline(&mut self, series: &Series, colour: Rgb, to_x: &dyn Fn(usize) -> f32, to_y: &dyn Fn(f64) -> f32) {
        let mut runs: Vec<Vec<(f32, f32)>> = Vec::new();
        let mut run = Vec::new();
        for (i, v) in series.points.iter().enumerate() {
            if v.is_finite() {
                run.push((to_x(i), to_y(*v)));
            } else if !run.is_empty() {
                runs.push(std::mem::take(&mut run));
            }
        }
        if !run.is_empty() {
            runs.push(run);
        }
        let mut stroked = false;
        for run in &runs {
            match run.as_slice() {
                [] => {}
                [(x, y)] => self.page.dot(*x, *y, 2.0, colour),
                [(x, y), rest @ ..] => {
                    if !stroked {
                        self.page.stroke(colour, 1.6);
                        self.page.content.set_line_join(LineJoinStyle::RoundJoin).set_line_cap(LineCapStyle::RoundCap);
                        stroked = true;
                    }
                    self.page.content.move_to(*x, *y);
                    for (x, y) in rest {
                        self.page.content.line_to(*x, *y);
                    }
                }
            }
        }
        if stroked {
            self.page.content.stroke();
            self.page.content.set_line_join(LineJoinStyle::MiterJoin).set_line_cap(LineCapStyle::ButtCap);
        }
    }

    fn bars(&mut self, heading: &str, bars: &[Bar], brand: &Brand) {
        self.heading(Some(heading), keep_together(bars.len().max(1) as f32 * BAR_ROW_HEIGHT, BAR_ROW_HEIGHT));
        if bars.is_empty() {
            let baseline = centred_baseline(self.y - BAR_ROW_HEIGHT / 2.0, CELL_SIZE);
            self.page.text(Font::Regular, CELL_SIZE, LEFT, baseline, b"No data", MUTED);
            self.y -= BAR_ROW_HEIGHT;
            return;
        }
        let widest = |f: &dyn Fn(&Bar) -> &str| bars.iter().map(|b| text_width(f(b), Font::Regular, CELL_SIZE)).fold(0.0, f32::max);
        let column = |w: f32, max: f32| if w > 0.0 { (w + 10.0).min(max) } else { 0.0 };
        let label_width = column(widest(&|b| &b.label), CONTENT_WIDTH * 0.3);
        let text_room = column(widest(&|b| &b.text), CONTENT_WIDTH * 0.25);
        let (x0, x1) = (LEFT + label_width, RIGHT - text_room);
        let values = bars.iter().map(|b| b.value).filter(|v| v.is_finite());
        let max = values.clone().fold(0.0, f64::max);
        let min = values.fold(0.0, f64::min);
        let span = max - min;
        let zero = if span > 0.0 { x0 + ((-min / span) as f32) * (x1 - x0) } else { x0 };
        for bar in bars {
            self.ensure_or_continue(BAR_ROW_HEIGHT, heading);
            let top = self.y;
            let middle = top - BAR_ROW_HEIGHT / 2.0;
            let baseline = centred_baseline(middle, CELL_SIZE);
            let label = fit(&bar.label, Font::Regular, CELL_SIZE, (label_width - 10.0).max(0.0));
            self.page.text(Font::Regular, CELL_SIZE, LEFT, baseline, &label, BODY);
            if bar.value.is_finite() && span > 0.0 {
                let length = (bar.value / span) as f32 * (x1 - x0);
                let (colour, x) = if length >= 0.0 { (brand.accent, zero) } else { (NEGATIVE, zero + length) };
                self.page.rect(x, middle - BAR_THICKNESS / 2.0, length.abs(), BAR_THICKNESS, colour);
            }
            self.page.line((zero, top), (zero, top - BAR_ROW_HEIGHT), 0.75, AXIS);
            let text = fit(&bar.text, Font::Regular, CELL_SIZE, (text_room - 10.0).max(0.0));
            self.page.text_right(Font::Regular, CELL_SIZE, RIGHT, baseline, &text, INK);
            self.y -= BAR_ROW_HEIGHT;
        }
    }

    fn paragraph(&mut self, heading: Option<&str>, text: &str) {
        let lines = wrap(text, Font::Regular, PARAGRAPH_SIZE, CONTENT_WIDTH);
        let keep = lines.len().min(2) as f32 * PARAGRAPH_LEADING;
        self.heading(heading, keep);
        for line in &lines {
            self.ensure(PARAGRAPH_LEADING);
            self.page.text(Font::Regular, PARAGRAPH_SIZE, LEFT, self.y - 10.5, line, BODY);
            self.y -= PARAGRAPH_LEADING;
        }
    }
}

/// How much of a block must fit under its heading: all of it when it is short enough not
/// to be worth splitting (a third of a page), else its first row.
fn keep_together(total: f32, first_row: f32) -> f32 {
    if total <= KEEP_TOGETHER_MAX { total } else { first_row }
}

/// Cards per row: all of them up to four (at least two, so one card is not page-wide),
/// else three or four, whichever leaves fewer empty slots (four on a tie).
fn figure_columns(count: usize) -> usize {
    if count <= 4 {
        return count.max(2);
    }
    let empty = |columns: usize| (columns - count % columns) % columns;
    if empty(3) < empty(4) { 3 } else { 4 }
}

/// Column widths in points from their relative weights.
fn column_widths(columns: &[Column]) -> Vec<f32> {
    let weights: Vec<f32> = columns.iter().map(|c| if c.width.is_finite() && c.width > 0.0 { c.width } else { 0.0 }).collect();
    let sum: f32 = weights.iter().sum();
    if sum <= 0.0 {
        let each = CONTENT_WIDTH / columns.len().max(1) as f32;
        return vec![each; columns.len()];
    }
    weights.iter().map(|w| CONTENT_WIDTH * w / sum).collect()
}

fn series_colour(index: usize, brand: &Brand) -> Rgb {
    match index {
        0 => brand.primary,
        1 => brand.accent,
        i => SERIES_GREYS[(i - 2) % SERIES_GREYS.len()],
    }
}

struct LegendItem {
    index: usize,
    x: f32,
    label: Vec<u8>,
}

/// Legend entries laid left to right, wrapping onto more rows as needed.
fn legend_rows(series: &[Series]) -> Vec<Vec<LegendItem>> {
    let mut rows: Vec<Vec<LegendItem>> = Vec::new();
    let mut row = Vec::new();
    let mut x = LEFT;
    for (index, s) in series.iter().enumerate() {
        let label = fit(&s.label, Font::Regular, LEGEND_SIZE, CONTENT_WIDTH - 18.0);
        let item_width = 18.0 + width(&label, Font::Regular, LEGEND_SIZE);
        if !row.is_empty() && x + item_width > RIGHT {
            rows.push(std::mem::take(&mut row));
            x = LEFT;
        }
        row.push(LegendItem { index, x, label });
        x += item_width + 16.0;
    }
    if !row.is_empty() {
        rows.push(row);
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figure_grid_has_two_to_four_columns() {
        assert_eq!(figure_columns(0), 2);
        assert_eq!(figure_columns(1), 2);
        assert_eq!(figure_columns(3), 3);
        assert_eq!(figure_columns(4), 4);
        assert_eq!(figure_columns(5), 3);
        assert_eq!(figure_columns(6), 3);
        assert_eq!(figure_columns(7), 4);
        assert_eq!(figure_columns(8), 4);
        assert_eq!(figure_columns(9), 3);
    }

    #[test]
    fn column_widths_share_the_content_width() {
        let col = |w: f32| Column { label: String::new(), align: Align::Left, width: w };
        let widths = column_widths(&[col(1.0), col(3.0)]);
        assert_eq!(widths, vec![CONTENT_WIDTH / 4.0, CONTENT_WIDTH * 3.0 / 4.0]);
        let widths = column_widths(&[col(0.0), col(-1.0), col(f32::NAN)]);
        assert_eq!(widths, vec![CONTENT_WIDTH / 3.0; 3]);
        let widths = column_widths(&[col(2.0), col(0.0)]);
        assert_eq!(widths, vec![CONTENT_WIDTH, 0.0]);
    }

    #[test]
    fn legend_wraps_within_the_margins() {
        let series: Vec<Series> = (0..12).map(|i| Series { label: format!("Strategy number {i}"), points: vec![] }).collect();
        let rows = legend_rows(&series);
        assert!(rows.len() > 1);
        assert_eq!(rows.iter().map(Vec::len).sum::<usize>(), 12);
        for item in rows.iter().flatten() {
            assert!(item.x >= LEFT && item.x + 18.0 + width(&item.label, Font::Regular, LEGEND_SIZE) <= RIGHT + 1e-3);
        }
    }

    #[test]
    fn long_footers_wrap_to_three_lines_at_most() {
        assert_eq!(footer_lines("Short footer").len(), 1);
        assert!(footer_lines("").is_empty());
        let long = "word ".repeat(400);
        let lines = footer_lines(&long);
        assert_eq!(lines.len(), FOOTER_MAX_LINES);
        assert!(lines[2].ends_with(b"..."));
        assert!(floor_above_footer(3) > floor_above_footer(1));
        assert!(floor_above_footer(3) < 150.0);
    }
}
