-- The track record (issue 24): how each signal came to be stored and the rule that resolves it,
-- fixed at issue; its net outcome after the stated costs; and the append-only log of issued
-- signals and outcomes with the instance's signed tree heads. Keep in step with
-- ../sqlite/20261127000014_track_record.sql: a test compares the two schemas column by column.

-- 'live': issued by the running strategies; 'replayed': recomputed at first start from stored
-- history; 'unrecorded': stored before the record existed (or generated for load tests), with
-- no outcome rule recorded at issue. Only live signals count in published figures.
ALTER TABLE signals ADD COLUMN provenance TEXT NOT NULL DEFAULT 'unrecorded'
    CONSTRAINT signals_provenance_check CHECK (provenance IN ('live', 'replayed', 'unrecorded'));
-- The fill model of the outcome rule: slippage in basis points of the premium on entry and on
-- exit, commission in cents per contract on each side.
ALTER TABLE signals ADD COLUMN slippage_bp BIGINT NOT NULL DEFAULT 100
    CONSTRAINT signals_slippage_bp_check CHECK (slippage_bp >= 0 AND slippage_bp <= 5000);
ALTER TABLE signals ADD COLUMN commission_cents BIGINT NOT NULL DEFAULT 65
    CONSTRAINT signals_commission_cents_check CHECK (commission_cents >= 0);
-- The risk-neutral probability of profit at expiry, as known at issue.
ALTER TABLE signals ADD COLUMN issue_probability DOUBLE PRECISION;
-- P&L per contract after slippage and commissions, set once when the signal ends.
ALTER TABLE signals ADD COLUMN net_pnl_cents BIGINT;

CREATE INDEX signals_resolved_idx ON signals (provenance, closed_at);

-- The log: entry `seq` is leaf `seq` of the Merkle tree (RFC 9162). An entry is never
-- updated or deleted; `body` holds the exact bytes hashed (UTF-8 JSON).
CREATE TABLE ledger_entries (
    seq         BIGINT PRIMARY KEY NOT NULL,
    kind        TEXT NOT NULL,
    signal_id   TEXT NOT NULL,
    body        TEXT NOT NULL,
    leaf_hash   TEXT NOT NULL,
    appended_at TIMESTAMPTZ NOT NULL,
    CONSTRAINT ledger_entries_kind_check CHECK (kind IN ('issue', 'outcome')),
    CONSTRAINT ledger_entries_seq_check CHECK (seq >= 0)
);
CREATE UNIQUE INDEX ledger_entries_signal_kind_idx ON ledger_entries (signal_id, kind);

-- How many entries the log holds: appends take this row first, which orders concurrent
-- appenders on both engines.
CREATE TABLE ledger_size (
    id   BIGINT PRIMARY KEY NOT NULL,
    size BIGINT NOT NULL,
    CONSTRAINT ledger_size_one_row_check CHECK (id = 1)
);
INSERT INTO ledger_size (id, size) VALUES (1, 0);

-- Signed tree heads, hex encoded: root (32 bytes) and Ed25519 signature (64 bytes).
CREATE TABLE ledger_heads (
    size         BIGINT NOT NULL,
    timestamp_ms BIGINT PRIMARY KEY NOT NULL,
    root         TEXT NOT NULL,
    signature    TEXT NOT NULL
);
CREATE INDEX ledger_heads_size_idx ON ledger_heads (size);

-- The instance's signing key (PKCS#8, hex), generated at first start.
CREATE TABLE instance_keys (
    name        TEXT PRIMARY KEY NOT NULL,
    private_key TEXT NOT NULL,
    public_key  TEXT NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL
);
