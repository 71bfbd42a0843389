-- The read path (issue 12): lists page through keyset indexes and never rank per request.
--
-- `day_rank` is an automated signal's place among its day's automated signals (1 = highest
-- confidence, then the earlier, then the smaller id), kept by the store whenever a day gains
-- a signal; on-demand signals keep 0. Existing rows are ranked here.
ALTER TABLE signals ADD COLUMN day_rank BIGINT NOT NULL DEFAULT 0;
UPDATE signals SET day_rank = 1 + (
    SELECT COUNT(*) FROM signals o
    WHERE o.owner_id IS NULL AND o.issued_on = signals.issued_on
      AND (o.confidence > signals.confidence
           OR (o.confidence = signals.confidence
               AND (o.created_at < signals.created_at OR (o.created_at = signals.created_at AND o.id < signals.id))))
) WHERE owner_id IS NULL;

-- Newest-first pages: the shared automated signals, and each owner's on-demand ones. The
-- per-owner quota index covers owned signals only, so no planner takes it for the automated.
DROP INDEX signals_owner_idx;
CREATE INDEX signals_owner_idx ON signals (owner_id, issued_on) WHERE owner_id IS NOT NULL;
CREATE INDEX signals_automated_recent_idx ON signals (created_at DESC, id DESC) WHERE owner_id IS NULL;
CREATE INDEX signals_owned_recent_idx ON signals (owner_id, created_at DESC, id DESC) WHERE owner_id IS NOT NULL;
-- The win rate counts automated signals closed in a recent window.
CREATE INDEX signals_automated_closed_idx ON signals (closed_at) WHERE owner_id IS NULL;
