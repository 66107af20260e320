-- The tlogsim journal on PostgreSQL: the tables of pekko-persistence-jdbc 1.1.1 (its schema/postgres/
-- postgres-create-schema.sql, less durable_state, which tlogsim does not use, and with plain CREATE INDEX so that the
-- whole script runs in one transaction), and the tlogsim_journal row that marks the database as a tlogsim journal.
-- deploy/postgres/setup.sh applies it; tlogsim applies the same file on first use of an empty database.
-- Statements are separated by ";" at the end of a line.

CREATE TABLE IF NOT EXISTS public.event_journal(
  ordering BIGSERIAL,
  persistence_id VARCHAR(255) NOT NULL,
  sequence_number BIGINT NOT NULL,
  deleted BOOLEAN DEFAULT FALSE NOT NULL,

  writer VARCHAR(255) NOT NULL,
  write_timestamp BIGINT,
  adapter_manifest VARCHAR(255),

  event_ser_id INTEGER NOT NULL,
  event_ser_manifest VARCHAR(255) NOT NULL,
  event_payload BYTEA NOT NULL,

  meta_ser_id INTEGER,
  meta_ser_manifest VARCHAR(255),
  meta_payload BYTEA,

  PRIMARY KEY(persistence_id, sequence_number)
);

CREATE UNIQUE INDEX IF NOT EXISTS event_journal_ordering_idx ON public.event_journal(ordering);

CREATE TABLE IF NOT EXISTS public.event_tag(
  event_id BIGINT,
  tag VARCHAR(256),
  PRIMARY KEY(event_id, tag),
  CONSTRAINT fk_event_journal
    FOREIGN KEY(event_id)
    REFERENCES event_journal(ordering)
    ON DELETE CASCADE
);

CREATE TABLE IF NOT EXISTS public.snapshot (
  persistence_id VARCHAR(255) NOT NULL,
  sequence_number BIGINT NOT NULL,
  created BIGINT NOT NULL,

  snapshot_ser_id INTEGER NOT NULL,
  snapshot_ser_manifest VARCHAR(255) NOT NULL,
  snapshot_payload BYTEA NOT NULL,

  meta_ser_id INTEGER,
  meta_ser_manifest VARCHAR(255),
  meta_payload BYTEA,

  PRIMARY KEY(persistence_id, sequence_number)
);

-- The mark of a tlogsim journal (format 1). tlogsim refuses a database that has journal tables without it.
CREATE TABLE IF NOT EXISTS public.tlogsim_journal (
  format INTEGER NOT NULL,
  created_by VARCHAR(255) NOT NULL
);
INSERT INTO public.tlogsim_journal (format, created_by)
  SELECT 1, 'deploy/postgres/schema.sql' WHERE NOT EXISTS (SELECT 1 FROM public.tlogsim_journal);
