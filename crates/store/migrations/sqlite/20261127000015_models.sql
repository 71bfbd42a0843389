-- The predictive model (issue 24): versioned models trained walk-forward on resolved history,
-- and on each signal the probability the shipping model gave it at issue, with the version
-- and the features that moved it most. Keep in step with ../postgres/20261127000015_models.sql:
-- a test compares the two schemas column by column.
CREATE TABLE prediction_models (
    version          TEXT PRIMARY KEY NOT NULL,
    created_at       TEXT NOT NULL,
    -- The last session whose resolved signals it could read.
    trained_through  TEXT NOT NULL,
    -- How many resolved signals the history held.
    examples         BIGINT NOT NULL,
    -- The fitted model (JSON) and its held-out evaluation against the heuristic strength
    -- (JSON, or NULL when the history was too short to hold years out).
    definition       TEXT NOT NULL,
    evaluation       TEXT,
    -- Whether it beat the heuristic on the held-out years; only such a model scores signals.
    ships            BOOLEAN NOT NULL
);
CREATE INDEX prediction_models_created_idx ON prediction_models (created_at);

ALTER TABLE signals ADD COLUMN model_probability REAL;
ALTER TABLE signals ADD COLUMN model_version TEXT;
-- The features that moved the probability most (JSON list of {feature, label, effect}).
ALTER TABLE signals ADD COLUMN model_why TEXT;
