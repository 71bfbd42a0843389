//! The public track record (issue 24): calibration of resolved live signals, and the
//! append-only log behind it: the signing key, signed tree heads, inclusion proofs for any
//! signal, consistency proofs between heads, and the whole record to check offline with
//! `strikeline verify` (docs/track-record.md). No sign-in (but for the PDF report, which
//! carries the signed-in account's brand); every route is limited per address.

mod report;

use axum::extract::{Path, RawQuery, State};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::foundation::error::{AppError, Problem, Result};
use crate::foundation::extract::{ClientIp, parse_query};
use crate::foundation::limits::{self, RateLimit};
use crate::foundation::state::AppState;
use crate::services::track_record::calibration::{self, TrackRecordSummary};
use crate::services::track_record::export::{self, PublishedHead, RecordExport};
use crate::services::track_record::{self as service, HEAD_INTERVAL};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(summary))
        .routes(routes!(key))
        .routes(routes!(heads))
        .routes(routes!(proof))
        .routes(routes!(consistency))
        .routes(routes!(export_record))
        .routes(routes!(track_record_report))
}

async fn limited(state: &AppState, ip: std::net::IpAddr, policy: limits::Policy) -> Result<RateLimit> {
    limits::hit(state, policy, &ip.to_string(), state.clock.now()).await
}

/// How often each kind of call was right: per strategy and pooled, live signals only, the
/// reliability diagram (equal-width and equal-count deciles with 95% Wilson intervals), the
/// Brier score with its Murphy decomposition, skill over the base rate, both ECEs and a
/// rolling 90-day Brier line; beside it, the calibration of the risk-neutral probability of
/// profit at issue. A group under 30 resolved signals shows its n and no figure.
#[utoipa::path(
    get, path = "/api/public/track-record", tag = "public",
    responses(
        (status = 200, body = TrackRecordSummary),
        (status = 429, description = "Too many requests from this address", body = Problem, content_type = "application/problem+json"),
    )
)]
async fn summary(State(state): State<AppState>, ClientIp(ip): ClientIp) -> Result<(RateLimit, axum::Json<TrackRecordSummary>)> {
    let limit = limited(&state, ip, limits::TRACK_RECORD).await?;
    Ok((limit, axum::Json(calibration::summary(&state, state.clock.now()).await?)))
}

/// The instance's tree-head key.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TreeHeadKey {
    /// Always `Ed25519`.
    pub algorithm: String,
    /// The 32-byte public key, hex.
    pub public_key: String,
    /// What each signature covers.
    pub signed_message: String,
    /// How often a head is signed, in seconds.
    pub head_interval_seconds: i64,
}

/// The public key tree heads are signed with (generated at first start).
#[utoipa::path(
    get, path = "/api/public/track-record/key", tag = "public",
    responses((status = 200, body = TreeHeadKey), (status = 429, description = "Too many requests", body = Problem, content_type = "application/problem+json"))
)]
async fn key(State(state): State<AppState>, ClientIp(ip): ClientIp) -> Result<(RateLimit, axum::Json<TreeHeadKey>)> {
    let limit = limited(&state, ip, limits::TRACK_RECORD).await?;
    Ok((
        limit,
        axum::Json(TreeHeadKey {
            algorithm: "Ed25519".into(),
            public_key: strikeline_ledger::hex::encode(&service::public_key(&state).await?),
            signed_message:
                "\"strikeline/tree-head/v1\\0\" ‖ treeSize (u64, big-endian) ‖ timestampMs (i64, big-endian) ‖ rootHash (32 bytes)".into(),
            head_interval_seconds: HEAD_INTERVAL.num_seconds(),
        }),
    ))
}

/// The query of `GET /api/public/track-record/heads`.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct HeadsQuery {
    /// Heads signed at or after this time, milliseconds since 1970 (default: the first).
    since_ms: Option<i64>,
    /// At most this many, 1–1000 (default 100).
    limit: Option<i64>,
}

/// Signed tree heads, oldest first, and the newest.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct HeadList {
    pub heads: Vec<PublishedHead>,
    pub latest: Option<PublishedHead>,
}

/// Signed tree heads (one an hour), oldest first from `sinceMs`, and the newest.
#[utoipa::path(
    get, path = "/api/public/track-record/heads", tag = "public",
    params(HeadsQuery),
    responses(
        (status = 200, body = HeadList),
        (status = 422, description = "`limit` not 1–1000", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "Too many requests", body = Problem, content_type = "application/problem+json"),
    )
)]
async fn heads(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    RawQuery(query): RawQuery,
) -> Result<(RateLimit, axum::Json<HeadList>)> {
    let query: HeadsQuery = parse_query(query.as_deref())?;
    let limit = query.limit.unwrap_or(100);
    if !(1..=1000).contains(&limit) {
        return Err(AppError::field("limit", "Between 1 and 1000"));
    }
    let rate = limited(&state, ip, limits::TRACK_RECORD).await?;
    let heads = strikeline_store::ledger::heads(&state.db, query.since_ms.unwrap_or(i64::MIN), limit).await?;
    let latest = strikeline_store::ledger::latest_head(&state.db).await?;
    Ok((
        rate,
        axum::Json(HeadList { heads: heads.iter().map(PublishedHead::from).collect(), latest: latest.as_ref().map(PublishedHead::from) }),
    ))
}

/// The query of `GET /api/public/track-record/signals/{id}/proof`.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ProofQuery {
    /// The size of the signed head to prove against (default: the newest head).
    #[param(minimum = 0)]
    tree_size: Option<i64>,
}

/// One entry with its audit path.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EntryInclusion {
    /// Leaf index.
    pub index: i64,
    /// `issue` or `outcome`.
    pub kind: String,
    /// The exact bytes hashed.
    pub entry: String,
    /// `SHA-256(0x00 ‖ entry)`, hex.
    pub leaf_hash: String,
    /// RFC 9162 inclusion proof (PATH), hex, leaf to root.
    pub audit_path: Vec<String>,
}

/// A signal's entries with their inclusion proofs in one signed head.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InclusionProof {
    pub signal_id: String,
    pub tree_head: PublishedHead,
    pub entries: Vec<EntryInclusion>,
}

/// Inclusion proofs of a signal's entries (its issue and, once ended, its outcome) in the
/// newest signed head, or in the head of `treeSize`. 404 when the signal is not in that tree
/// (on-demand signals are never logged; a new one waits for the next hourly head).
#[utoipa::path(
    get, path = "/api/public/track-record/signals/{id}/proof", tag = "public",
    params(("id" = String, Path, description = "Signal id"), ProofQuery),
    responses(
        (status = 200, body = InclusionProof),
        (status = 404, description = "Not in the signed tree, or no head was signed at `treeSize`", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`treeSize` is not a whole number", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "Too many requests", body = Problem, content_type = "application/problem+json"),
    )
)]
async fn proof(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
) -> Result<(RateLimit, axum::Json<InclusionProof>)> {
    let query: ProofQuery = parse_query(query.as_deref())?;
    if id.len() > 64 {
        return Err(AppError::NotFound);
    }
    let rate = limited(&state, ip, limits::TRACK_RECORD).await?;
    let (head, proofs) = service::inclusion(&state, &id, query.tree_size).await?;
    let hex = strikeline_ledger::hex::encode;
    Ok((
        rate,
        axum::Json(InclusionProof {
            signal_id: id,
            tree_head: PublishedHead::from(&head),
            entries: proofs
                .into_iter()
                .map(|p| EntryInclusion {
                    index: p.entry.seq,
                    kind: p.entry.kind,
                    leaf_hash: p.entry.leaf_hash,
                    entry: p.entry.body,
                    audit_path: p.audit_path.iter().map(|h| hex(h)).collect(),
                })
                .collect(),
        }),
    ))
}

/// The query of `GET /api/public/track-record/consistency`.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct ConsistencyQuery {
    /// The smaller tree's size.
    #[param(minimum = 0)]
    first: i64,
    /// The larger tree's size (at most the log's size).
    #[param(minimum = 0)]
    second: i64,
}

/// A consistency proof between two tree sizes.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConsistencyProof {
    pub first: i64,
    pub second: i64,
    /// RFC 9162 consistency proof (PROOF), hex.
    pub proof: Vec<String>,
}

/// Shows that the tree of `second` entries extends the tree of `first` unchanged.
#[utoipa::path(
    get, path = "/api/public/track-record/consistency", tag = "public",
    params(ConsistencyQuery),
    responses(
        (status = 200, body = ConsistencyProof),
        (status = 422, description = "`first` above `second`, or `second` above the log's size", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "Too many requests", body = Problem, content_type = "application/problem+json"),
    )
)]
async fn consistency(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    RawQuery(query): RawQuery,
) -> Result<(RateLimit, axum::Json<ConsistencyProof>)> {
    let query: ConsistencyQuery = parse_query(query.as_deref())?;
    if query.first < 0 {
        return Err(AppError::field("first", "Must not be negative"));
    }
    let rate = limited(&state, ip, limits::TRACK_RECORD).await?;
    let proof = service::consistency(&state, query.first, query.second).await?;
    Ok((
        rate,
        axum::Json(ConsistencyProof {
            first: query.first,
            second: query.second,
            proof: proof.iter().map(|h| strikeline_ledger::hex::encode(h)).collect(),
        }),
    ))
}

/// The whole record: every entry, every signed head, the public key and the signals as stored
/// now, to check offline with `strikeline verify <file>`.
#[utoipa::path(
    get, path = "/api/public/track-record/export", tag = "public",
    responses(
        (status = 200, body = RecordExport),
        (status = 429, description = "Too many exports from this address", body = Problem, content_type = "application/problem+json"),
    )
)]
async fn export_record(State(state): State<AppState>, ClientIp(ip): ClientIp) -> Result<(RateLimit, axum::Json<RecordExport>)> {
    let limit = limited(&state, ip, limits::TRACK_RECORD_EXPORT).await?;
    Ok((limit, axum::Json(export::build(&state, state.clock.now()).await?)))
}

/// The track record as a PDF report in the signed-in account's brand: each group's
/// calibration (pooled, per strategy, the risk-neutral probability of profit, the predictive
/// model), the 90-day Brier line, and what was left out (docs/reports.md).
#[utoipa::path(
    get, path = "/api/track-record/report", tag = "reports",
    responses(
        (status = 200, description = "The report", content_type = "application/pdf", body = crate::foundation::views::FileBytes),
        (status = 401, description = "Not signed in", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "Too many reports; see Retry-After", body = Problem, content_type = "application/problem+json"),
    )
)]
async fn track_record_report(
    State(state): State<AppState>,
    crate::foundation::session::CurrentUser(user): crate::foundation::session::CurrentUser,
) -> Result<impl axum::response::IntoResponse> {
    use crate::services::reporting;
    let now = state.clock.now();
    let limit = limits::hit(&state, limits::REPORT, &user.id, now).await?;
    let summary = calibration::summary(&state, now).await?;
    let brand = reporting::brand_for(&state, &user, now).await?;
    let pdf = reporting::render(report::track_record(&summary, now), brand).await?;
    Ok((limit, crate::foundation::views::PdfDownload::new("track-record-report", now, pdf)))
}
