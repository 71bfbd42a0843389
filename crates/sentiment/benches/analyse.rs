//! Throughput of the analyser over the whole labelled set (310 headlines) and over one long
//! article-length text, the two shapes news ingestion feeds it.
//! Run: `cargo bench -p strikeline-sentiment --bench analyse`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use strikeline_sentiment::{analyse, labelled_set};

fn headlines(c: &mut Criterion) {
    let set = labelled_set();
    let mut group = c.benchmark_group("sentiment");
    group.measurement_time(Duration::from_secs(5));
    group.throughput(Throughput::Elements(set.len() as u64));
    group.bench_function("labelled_set_310_headlines", |b| {
        b.iter(|| {
            for (_, text) in &set {
                black_box(analyse(black_box(text)));
            }
        });
    });
    let article: String = set.iter().map(|(_, t)| *t).take(40).collect::<Vec<_>>().join(". ");
    group.throughput(Throughput::Bytes(article.len() as u64));
    group.bench_function("article_40_sentences", |b| b.iter(|| black_box(analyse(black_box(&article)))));
    group.finish();
}

criterion_group!(benches, headlines);
criterion_main!(benches);
