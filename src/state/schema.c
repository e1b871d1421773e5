// SPDX-License-Identifier: GPL-2.0-only
/*
 * record: the schema of the state, as its migrations (internal.h): entry
 * N moves a state of version N to N + 1; each backend applies those its
 * state lacks, in one transaction (state.c for SQLite, pg.c for
 * PostgreSQL). One list for both: each entry is SQLite's SQL, and
 * PostgreSQL's where it differs in more than its words for the types
 * (pg.c says INTEGER as BIGINT, REAL as DOUBLE PRECISION, BLOB as BYTEA,
 * and a rowid INTEGER PRIMARY KEY as an identity column), and the tables
 * it makes that are read in insertion order by SQLite's implicit rowid,
 * which PostgreSQL gets as a column of their own.
 */
#include "internal.h"

/* 6's new tables and columns but the outbox's, on either backend */
#define V6_TABLES \
	"CREATE TABLE actions (" \
	"  at INTEGER NOT NULL," \
	"  mail INTEGER," \
	"  id TEXT," \
	"  action TEXT NOT NULL," \
	"  detail TEXT," \
	"  by TEXT);" \
	"CREATE TABLE imap_pending (" \
	"  mailbox TEXT NOT NULL," \
	"  uidvalidity INTEGER NOT NULL," \
	"  uid INTEGER NOT NULL," \
	"  PRIMARY KEY (mailbox, uidvalidity, uid));" \
	"ALTER TABLE mailbox ADD COLUMN stuck_uid INTEGER;" \
	"ALTER TABLE mailbox ADD COLUMN stuck_count INTEGER;"

/* Each entry moves the schema one version up; never edit a shipped one. */
const struct state_migration state_migrations[] = {
	/* 1: the outbox, its recipients, manifests seen, source validators */
	{ .sql =
	"CREATE TABLE outbox ("
	"  rowid INTEGER PRIMARY KEY,"
	"  id TEXT NOT NULL,"
	"  kind TEXT NOT NULL,"
	"  manifest TEXT,"
	"  subject TEXT,"
	"  status TEXT NOT NULL DEFAULT 'queued'"
	"    CHECK (status IN ('queued', 'sent', 'failed')),"
	"  message_id TEXT NOT NULL UNIQUE,"
	"  sender TEXT NOT NULL,"
	"  recipients TEXT NOT NULL,"
	"  message BLOB NOT NULL,"
	"  attempts INTEGER NOT NULL DEFAULT 0,"
	"  next_attempt INTEGER NOT NULL DEFAULT 0,"
	"  last_error TEXT,"
	"  created INTEGER NOT NULL,"
	"  sent_at INTEGER,"
	"  UNIQUE (kind, id));"
	"CREATE INDEX outbox_due ON outbox (status, next_attempt);"
	"CREATE TABLE outbox_recipients ("
	"  mail INTEGER NOT NULL REFERENCES outbox (rowid),"
	"  address TEXT NOT NULL,"
	"  status TEXT NOT NULL,"
	"  reply TEXT,"
	"  PRIMARY KEY (mail, address));"
	"CREATE TABLE manifests ("
	"  id TEXT PRIMARY KEY,"
	"  manifest TEXT,"
	"  outcome TEXT NOT NULL,"
	"  seen INTEGER NOT NULL);"
	"CREATE TABLE sources ("
	"  url TEXT PRIMARY KEY,"
	"  etag TEXT,"
	"  last_modified TEXT,"
	"  fetched INTEGER);"
	"CREATE VIEW reports AS"
	"  SELECT id, manifest, status, message_id, recipients, attempts,"
	"         next_attempt, last_error, sent_at, created"
	"  FROM outbox WHERE kind = 'report';",
	  .pg_rowid = "outbox_recipients" },
	/* 2: replies read by IMAP, the mailbox position, retest requests */
	{ .sql =
	"ALTER TABLE outbox ADD COLUMN report_id TEXT;"
	"UPDATE outbox SET report_id = id WHERE kind = 'report';"
	"CREATE TABLE inbox ("
	"  message_id TEXT PRIMARY KEY,"
	"  uidvalidity INTEGER,"
	"  uid INTEGER,"
	"  sender TEXT,"
	"  report_id TEXT,"
	"  outcome TEXT NOT NULL,"
	"  commands TEXT,"
	"  received INTEGER NOT NULL);"
	"CREATE INDEX inbox_sender ON inbox (sender, received);"
	"CREATE TABLE mailbox ("
	"  name TEXT PRIMARY KEY,"
	"  uidvalidity INTEGER NOT NULL,"
	"  last_uid INTEGER NOT NULL);"
	"CREATE TABLE retests ("
	"  request_id TEXT PRIMARY KEY,"
	"  report_id TEXT NOT NULL,"
	"  runs INTEGER NOT NULL,"
	"  requested_by TEXT NOT NULL,"
	"  reply_message_id TEXT NOT NULL,"
	"  thread TEXT,"
	"  status TEXT NOT NULL DEFAULT 'requested',"
	"  base_runs INTEGER,"
	"  head_runs INTEGER,"
	"  deadline INTEGER,"
	"  detail TEXT,"
	"  created INTEGER NOT NULL);"
	"CREATE INDEX retests_report ON retests (report_id, status);",
	  .pg_rowid = "inbox retests" },
	/* 3: the manifest text itself, so a retest can read its roots again */
	{ .sql =
	"ALTER TABLE manifests ADD COLUMN text TEXT;"
	"ALTER TABLE manifests ADD COLUMN dir TEXT;" },
	/* 4: reports held for confirmation runs (confirms.c) */
	{ .sql =
	"CREATE TABLE confirms ("
	"  report_id TEXT PRIMARY KEY,"
	"  request_id TEXT NOT NULL UNIQUE,"
	"  metric TEXT NOT NULL,"
	"  reported_change TEXT NOT NULL,"
	"  runs INTEGER NOT NULL,"
	"  base_runs INTEGER NOT NULL,"
	"  head_runs INTEGER NOT NULL,"
	"  status TEXT NOT NULL,"
	"  deadline INTEGER NOT NULL,"
	"  detail TEXT,"
	"  created INTEGER NOT NULL,"
	"  decided INTEGER);"
	"CREATE INDEX confirms_status ON confirms (status);",
	  .pg_rowid = "confirms" },
	/* 5: a mail is claimed (owner "host:pid", expiry) before it is
	 * sent; the file's home name (see home_name()) */
	{ .sql =
	"ALTER TABLE outbox ADD COLUMN claim_owner TEXT;"
	"ALTER TABLE outbox ADD COLUMN claim_expires INTEGER;"
	"CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);" },
	/* 6: a mail may be dropped by the operator (the CHECK is rebuilt,
	 * with the foreign keys off, see migrate()); its last attempt and
	 * the monotonic clock of its sending; the operator's actions; mails
	 * handled but not yet marked on the server; a mail that keeps
	 * failing to download */
	{ .sql =
	"CREATE TABLE outbox_6 ("
	"  rowid INTEGER PRIMARY KEY,"
	"  id TEXT NOT NULL,"
	"  kind TEXT NOT NULL,"
	"  manifest TEXT,"
	"  subject TEXT,"
	"  status TEXT NOT NULL DEFAULT 'queued'"
	"    CHECK (status IN ('queued', 'sent', 'failed', 'dropped')),"
	"  message_id TEXT NOT NULL UNIQUE,"
	"  sender TEXT NOT NULL,"
	"  recipients TEXT NOT NULL,"
	"  message BLOB NOT NULL,"
	"  attempts INTEGER NOT NULL DEFAULT 0,"
	"  next_attempt INTEGER NOT NULL DEFAULT 0,"
	"  last_error TEXT,"
	"  created INTEGER NOT NULL,"
	"  sent_at INTEGER,"
	"  report_id TEXT,"
	"  claim_owner TEXT,"
	"  claim_expires INTEGER,"
	"  last_attempt INTEGER,"
	"  sent_boot TEXT,"
	"  sent_mono INTEGER,"
	"  UNIQUE (kind, id));"
	"INSERT INTO outbox_6 (rowid, id, kind, manifest, subject, status,"
	"  message_id, sender, recipients, message, attempts, next_attempt,"
	"  last_error, created, sent_at, report_id, claim_owner,"
	"  claim_expires) SELECT rowid, id, kind, manifest, subject, status,"
	"  message_id, sender, recipients, message, attempts, next_attempt,"
	"  last_error, created, sent_at, report_id, claim_owner,"
	"  claim_expires FROM outbox;"
	"DROP VIEW reports;"
	"DROP TABLE outbox;"
	"ALTER TABLE outbox_6 RENAME TO outbox;"
	"CREATE INDEX outbox_due ON outbox (status, next_attempt);"
	"CREATE VIEW reports AS"
	"  SELECT id, manifest, status, message_id, recipients, attempts,"
	"         next_attempt, last_error, sent_at, created"
	"  FROM outbox WHERE kind = 'report';"
	V6_TABLES,
	  /* PostgreSQL changes a CHECK in place: no rebuild */
	  .pg =
	"ALTER TABLE outbox DROP CONSTRAINT outbox_status_check;"
	"ALTER TABLE outbox ADD CONSTRAINT outbox_status_check"
	"  CHECK (status IN ('queued', 'sent', 'failed', 'dropped'));"
	"ALTER TABLE outbox ADD COLUMN last_attempt INTEGER;"
	"ALTER TABLE outbox ADD COLUMN sent_boot TEXT;"
	"ALTER TABLE outbox ADD COLUMN sent_mono INTEGER;"
	V6_TABLES,
	  .pg_rowid = "actions" },
	/* 7: tests of a fix, a tree or a commit on the farm (tests.c) */
	{ .sql =
	"CREATE TABLE tests ("
	"  request_id TEXT PRIMARY KEY,"
	"  report_id TEXT NOT NULL,"
	"  form TEXT NOT NULL CHECK (form IN ('patch', 'tree', 'commit')),"
	"  runs INTEGER NOT NULL,"
	"  requested_by TEXT NOT NULL,"
	"  reply_message_id TEXT NOT NULL,"
	"  thread TEXT,"
	"  commit_sha TEXT NOT NULL,"
	"  repo TEXT,"
	"  ref TEXT,"
	"  patch TEXT,"
	"  patch_bytes INTEGER,"
	"  result_root TEXT NOT NULL,"
	"  status TEXT NOT NULL,"
	"  deadline INTEGER NOT NULL,"
	"  detail TEXT,"
	"  created INTEGER NOT NULL,"
	"  decided INTEGER);"
	"CREATE INDEX tests_report ON tests (report_id, status);"
	"CREATE INDEX tests_sender ON tests (requested_by, created);",
	  .pg_rowid = "tests" },
	/* 8: the life of each report (records.c): its record, every
	 * transition, the tracked branches' tips, the reminders mailed.
	 * A report of before has no row: it reads as open. */
	{ .sql =
	"CREATE TABLE records ("
	"  report_id TEXT PRIMARY KEY,"
	"  status TEXT NOT NULL,"
	"  metric TEXT,"
	"  change REAL,"
	"  regression INTEGER,"
	"  fix_named TEXT,"
	"  fix_commit TEXT,"
	"  fix_summary TEXT,"
	"  fix_branch TEXT,"
	"  fix_date INTEGER,"
	"  dup_of TEXT,"
	"  reason TEXT,"
	"  verify_request TEXT,"
	"  verdict TEXT,"
	"  no_reminders INTEGER NOT NULL DEFAULT 0,"
	"  searched INTEGER NOT NULL DEFAULT 0,"
	"  created INTEGER NOT NULL,"
	"  changed INTEGER NOT NULL);"
	"CREATE INDEX records_status ON records (status);"
	"CREATE TABLE record_events ("
	"  rowid INTEGER PRIMARY KEY,"
	"  report_id TEXT NOT NULL,"
	"  at INTEGER NOT NULL,"
	"  event TEXT NOT NULL,"
	"  from_status TEXT NOT NULL,"
	"  to_status TEXT NOT NULL,"
	"  by TEXT,"
	"  detail TEXT,"
	"  source TEXT);"
	"CREATE INDEX record_events_report ON record_events (report_id);"
	"CREATE TABLE tracking ("
	"  branch TEXT PRIMARY KEY,"
	"  tip TEXT NOT NULL,"
	"  walked INTEGER NOT NULL);"
	"CREATE TABLE reminders ("
	"  id TEXT PRIMARY KEY,"
	"  lines TEXT NOT NULL,"
	"  created INTEGER NOT NULL);" },
	/* 9: the farm's runs on landed fixes (verifies.c): the record's
	 * verify_request names its row */
	{ .sql =
	"CREATE TABLE verifies ("
	"  request_id TEXT PRIMARY KEY,"
	"  report_id TEXT NOT NULL,"
	"  commit_sha TEXT NOT NULL,"
	"  runs INTEGER NOT NULL,"
	"  result_root TEXT NOT NULL,"
	"  status TEXT NOT NULL,"
	"  detail TEXT,"
	"  deadline INTEGER NOT NULL,"
	"  created INTEGER NOT NULL,"
	"  decided INTEGER);"
	"CREATE INDEX verifies_status ON verifies (status, created);"
	"CREATE INDEX verifies_report ON verifies (report_id);",
	  .pg_rowid = "verifies" },
	/* 10: a farm request is one thing (requests.c): the four tables
	 * above become one, every row kept, and one vocabulary of status:
	 * a retest 'requested' and a confirmation 'asking' are 'asking';
	 * 'confirming' is 'queued'; 'confirmed' and 'not reproduced' are
	 * 'done' and 'unconfirmed' is 'expired', the old word kept as the
	 * verdict; a finished run's verdict (its detail) is its verdict.
	 * The columns after head_runs are a kind's own. */
	{ .sql =
	"CREATE TABLE requests ("
	"  request_id TEXT PRIMARY KEY,"
	"  kind TEXT NOT NULL,"
	"  report_id TEXT NOT NULL,"
	"  runs INTEGER NOT NULL,"
	"  status TEXT NOT NULL CHECK (status IN ('asking', 'queued', "
	"    'done', 'failed', 'expired', 'rejected', 'dropped')),"
	"  verdict TEXT,"
	"  deadline INTEGER,"
	"  detail TEXT,"
	"  result_root TEXT,"
	"  requested_by TEXT,"
	"  reply_message_id TEXT,"
	"  thread TEXT,"
	"  base_runs INTEGER,"
	"  head_runs INTEGER,"
	"  created INTEGER NOT NULL,"
	"  decided INTEGER,"
	"  form TEXT CHECK (form IN ('patch', 'tree', 'commit')),"
	"  commit_sha TEXT,"
	"  repo TEXT,"
	"  ref TEXT,"
	"  patch TEXT,"
	"  patch_bytes INTEGER,"
	"  metric TEXT,"
	"  reported_change TEXT);"
	"INSERT INTO requests (request_id, kind, report_id, runs, status,"
	"  verdict, deadline, detail, requested_by, reply_message_id, thread,"
	"  base_runs, head_runs, created)"
	"  SELECT request_id, 'retest', report_id, runs,"
	"  CASE status WHEN 'requested' THEN 'asking' ELSE status END,"
	"  CASE status WHEN 'done' THEN detail END, deadline, detail,"
	"  requested_by, reply_message_id, thread, base_runs, head_runs,"
	"  created FROM retests ORDER BY created, rowid;"
	"INSERT INTO requests (request_id, kind, report_id, runs, status,"
	"  verdict, deadline, detail, base_runs, head_runs, created, decided,"
	"  metric, reported_change)"
	"  SELECT request_id, 'confirm', report_id, runs,"
	"  CASE status WHEN 'confirming' THEN 'queued' WHEN 'confirmed' THEN"
	"  'done' WHEN 'not reproduced' THEN 'done' WHEN 'unconfirmed' THEN"
	"  'expired' ELSE status END,"
	"  CASE WHEN status IN ('confirmed', 'not reproduced', 'unconfirmed')"
	"  THEN status END, deadline, detail, base_runs, head_runs, created,"
	"  decided, metric, reported_change FROM confirms"
	"  ORDER BY created, rowid;"
	"INSERT INTO requests (request_id, kind, report_id, runs, status,"
	"  verdict, deadline, detail, result_root, requested_by,"
	"  reply_message_id, thread, created, decided, form, commit_sha, repo,"
	"  ref, patch, patch_bytes)"
	"  SELECT request_id, 'test', report_id, runs, status,"
	"  CASE status WHEN 'done' THEN detail END, deadline, detail,"
	"  result_root, requested_by, reply_message_id, thread, created,"
	"  decided, form, commit_sha, repo, ref, patch, patch_bytes FROM tests"
	"  ORDER BY created, rowid;"
	"INSERT INTO requests (request_id, kind, report_id, runs, status,"
	"  verdict, deadline, detail, result_root, created, decided,"
	"  commit_sha)"
	"  SELECT request_id, 'verify', report_id, runs, status,"
	"  CASE status WHEN 'done' THEN detail END, deadline, detail,"
	"  result_root, created, decided, commit_sha FROM verifies"
	"  ORDER BY created, rowid;"
	"DROP TABLE retests;"
	"DROP TABLE confirms;"
	"DROP TABLE tests;"
	"DROP TABLE verifies;"
	"CREATE INDEX requests_open ON requests (status, kind, created);"
	"CREATE INDEX requests_report ON requests (report_id, kind);"
	"CREATE INDEX requests_sender ON requests (requested_by, created);"
	"CREATE UNIQUE INDEX requests_confirm ON requests (report_id)"
	"  WHERE kind = 'confirm';",
	  .pg_rowid = "requests" },
	/* 11: the bisections of ranges (bisections.c, issue 33): each
	 * one's state as judge/bisect_json.c writes it; its farm runs are
	 * requests of kind 'bisect' whose report_id is the bisection's id */
	{ .sql =
	"CREATE TABLE bisections ("
	"  bisect_id TEXT PRIMARY KEY,"
	"  report_id TEXT NOT NULL,"
	"  phase TEXT NOT NULL CHECK (phase IN ('search', 'verify',"
	"    'culprit', 'inconclusive')),"
	"  state TEXT NOT NULL,"
	"  job TEXT NOT NULL,"
	"  manifest TEXT,"
	"  deadline INTEGER NOT NULL,"
	"  created INTEGER NOT NULL,"
	"  updated INTEGER NOT NULL);"
	"CREATE INDEX bisections_phase ON bisections (phase, created);",
	  .pg_rowid = "bisections" },
	/* 12: learned noise (noise.c, issue 32 item 5): per testcase,
	 * machine and metric, the pooled CV of the runs seen and its
	 * degrees of freedom */
	{ .sql =
	"CREATE TABLE noise ("
	"  testcase TEXT NOT NULL,"
	"  machine TEXT NOT NULL,"
	"  metric TEXT NOT NULL,"
	"  cv REAL NOT NULL CHECK (cv > 0),"
	"  df INTEGER NOT NULL CHECK (df > 0),"
	"  updated INTEGER NOT NULL,"
	"  PRIMARY KEY (testcase, machine, metric));" },
	/* 13: work claimed exactly once (lease.c, issue 34 item 2): a farm
	 * request's follow-up and a bisection's round are taken with a
	 * lease, its owner ("host:pid") and its end */
	{ "ALTER TABLE requests ADD COLUMN owner TEXT;"
	  "ALTER TABLE requests ADD COLUMN lease_until INTEGER;"
	  "ALTER TABLE bisections ADD COLUMN owner TEXT;"
	  "ALTER TABLE bisections ADD COLUMN lease_until INTEGER;", NULL,
	  NULL },
	/* 14: singleton duties and the instances seen (duty.c, issue 34
	 * item 3), for 'perfbot status' */
	{ "CREATE TABLE instances ("
	  "  name TEXT PRIMARY KEY,"
	  "  host TEXT,"
	  "  pid INTEGER,"
	  "  started INTEGER NOT NULL,"
	  "  seen INTEGER NOT NULL);"
	  "CREATE TABLE duties ("
	  "  name TEXT PRIMARY KEY,"
	  "  owner TEXT NOT NULL,"
	  "  since INTEGER NOT NULL,"
	  "  seen INTEGER NOT NULL);", NULL, NULL },
	/* 15: manifests claimed at ingest (manifest_claim.c, issue 34):
	 * instances side by side never both make a manifest's report */
	{ "CREATE TABLE manifest_claims ("
	  "  id TEXT PRIMARY KEY,"
	  "  owner TEXT,"
	  "  lease_until INTEGER);", NULL, NULL },
	/* 16: the ids derived for manifests that name none, by a digest of
	 * their text (manifest_ids.c): an idle cycle loads no result root */
	{ "CREATE TABLE manifest_ids ("
	  "  digest TEXT PRIMARY KEY,"
	  "  id TEXT NOT NULL,"
	  "  seen INTEGER NOT NULL);", NULL, NULL },
};

const int state_nmigrations =
	(int)(sizeof(state_migrations) / sizeof(state_migrations[0]));
