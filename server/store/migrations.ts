// Numbered schema migrations. Append new entries; never edit one that has shipped.
// One text for both engines, in SQLite's type names; PostgresDatabase.toPostgresDdl maps the types.
export interface Migration {
  version: number;
  name: string;
  sql: string;
  /** PostgreSQL only, instead of `sql` where the engines need different text (an index's collation) */
  postgresSql?: string;
}

/** Migration 22's table, with the engine's own kind of row id (its staging order). */
function auditPending(id: string): string {
  return `
      CREATE TABLE audit_pending (
        id          ${id},
        project_id  TEXT NOT NULL,
        at          INTEGER NOT NULL,
        event       TEXT NOT NULL,
        outcome     TEXT NOT NULL,
        reason      TEXT,
        actor       TEXT NOT NULL,
        user_id     TEXT,
        target      TEXT,
        ip          TEXT,
        browser     TEXT,
        os          TEXT,
        request_id  TEXT,
        details     TEXT NOT NULL
      );
    `;
}

export const MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: 'projects, processes, users, identifiers',
    sql: `
      CREATE TABLE projects (
        id          TEXT PRIMARY KEY,
        config      TEXT NOT NULL,               -- JSON ProjectConfig
        source      TEXT NOT NULL CHECK (source IN ('seed', 'dev')),
        created_at  INTEGER NOT NULL,
        updated_at  INTEGER NOT NULL
      );
      CREATE TABLE processes (
        id          TEXT PRIMARY KEY,
        token_hash  TEXT NOT NULL UNIQUE,        -- sha256 of the token given to the browser
        project_id  TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        state       TEXT NOT NULL,               -- JSON ProcessState
        created_at  INTEGER NOT NULL,
        expires_at  INTEGER NOT NULL,
        ended_at    INTEGER                      -- set by reset
      );
      CREATE TABLE users (
        id           TEXT PRIMARY KEY,
        project_id   TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        full_name    TEXT NOT NULL DEFAULT '',
        user_handle  TEXT NOT NULL UNIQUE,       -- WebAuthn user.id, base64url
        created_at   INTEGER NOT NULL
      );
      CREATE TABLE identifiers (
        id          TEXT PRIMARY KEY,
        user_id     TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        project_id  TEXT NOT NULL,
        type        TEXT NOT NULL CHECK (type IN ('email', 'phone', 'username')),
        value       TEXT NOT NULL,
        normalized  TEXT NOT NULL,
        status      TEXT NOT NULL CHECK (status IN ('verified', 'pending')),
        created_at  INTEGER NOT NULL,
        UNIQUE (project_id, type, normalized)
      );
      CREATE INDEX identifiers_user ON identifiers(user_id);
    `,
  },
  {
    version: 2,
    name: 'credentials, verification secrets, sessions, keys',
    sql: `
      CREATE TABLE credentials (
        id               TEXT PRIMARY KEY,       -- cre-…
        project_id       TEXT NOT NULL,
        user_id          TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        credential_id    TEXT NOT NULL,          -- base64url
        public_key       BLOB NOT NULL,          -- COSE key
        user_handle      TEXT NOT NULL,
        aaguid           TEXT NOT NULL,
        backup_eligible  INTEGER NOT NULL,
        backup_state     INTEGER NOT NULL,
        transports       TEXT NOT NULL,          -- JSON array
        sign_count       INTEGER NOT NULL,
        attestation_type TEXT NOT NULL,
        source_browser   TEXT NOT NULL,
        source_os        TEXT NOT NULL,
        status           TEXT NOT NULL CHECK (status IN ('active', 'pending')),
        created_at       INTEGER NOT NULL,
        last_used_at     INTEGER NOT NULL,
        UNIQUE (project_id, credential_id)
      );
      CREATE INDEX credentials_user ON credentials(user_id);
      CREATE TABLE verification_secrets (
        id               TEXT PRIMARY KEY,
        process_id       TEXT NOT NULL REFERENCES processes(id) ON DELETE CASCADE,
        method           TEXT NOT NULL CHECK (method IN ('email-otp', 'email-link', 'phone-otp')),
        identifier_type  TEXT NOT NULL,
        identifier_value TEXT NOT NULL,
        secret_hash      TEXT NOT NULL,          -- HMAC-SHA256 with a server secret
        attempts         INTEGER NOT NULL DEFAULT 0,
        created_at       INTEGER NOT NULL,
        expires_at       INTEGER NOT NULL,
        used_at          INTEGER,
        revoked_at       INTEGER
      );
      CREATE INDEX verification_secrets_process ON verification_secrets(process_id, identifier_type);
      CREATE TABLE sessions (
        id                 TEXT PRIMARY KEY,
        token_hash         TEXT NOT NULL UNIQUE, -- sha256 of the long session
        project_id         TEXT NOT NULL,
        user_id            TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        orig               TEXT NOT NULL,        -- identifier used to log in
        created_at         INTEGER NOT NULL,
        expires_at         INTEGER NOT NULL,
        revoked_at         INTEGER,
        webauthn_challenge TEXT                  -- pending /v2/me/passkeys/append challenge
      );
      CREATE TABLE signing_keys (
        kid              TEXT PRIMARY KEY,
        algorithm        TEXT NOT NULL,
        private_key_pem  TEXT NOT NULL,
        public_jwk       TEXT NOT NULL,
        created_at       INTEGER NOT NULL
      );
      CREATE TABLE server_secrets (
        name        TEXT PRIMARY KEY,
        value       TEXT NOT NULL,
        created_at  INTEGER NOT NULL
      );
    `,
  },
  {
    version: 3,
    name: 'outbox',
    sql: `
      CREATE TABLE outbox_messages (
        seq         INTEGER PRIMARY KEY AUTOINCREMENT,
        id          TEXT NOT NULL UNIQUE,
        project_id  TEXT NOT NULL,
        channel     TEXT NOT NULL CHECK (channel IN ('email', 'sms')),
        recipient   TEXT NOT NULL,
        recipient_normalized TEXT NOT NULL,
        subject     TEXT NOT NULL,
        text        TEXT NOT NULL,
        code        TEXT,
        link        TEXT,
        created_at  INTEGER NOT NULL
      );
      CREATE INDEX outbox_recipient ON outbox_messages(recipient_normalized);
    `,
  },
  {
    version: 4,
    name: 'social accounts, oauth states',
    sql: `
      CREATE TABLE social_accounts (
        id           TEXT PRIMARY KEY,           -- soc-…
        project_id   TEXT NOT NULL,
        user_id      TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        provider     TEXT NOT NULL CHECK (provider IN ('google', 'microsoft', 'github')),
        subject      TEXT NOT NULL,              -- the provider's stable user id (sub)
        email        TEXT NOT NULL,              -- the e-mail address the provider reported
        full_name    TEXT NOT NULL DEFAULT '',
        avatar_url   TEXT NOT NULL DEFAULT '',
        created_at   INTEGER NOT NULL,
        last_used_at INTEGER NOT NULL,
        UNIQUE (project_id, provider, subject)
      );
      CREATE INDEX social_accounts_user ON social_accounts(user_id);
      CREATE TABLE oauth_states (
        state_hash  TEXT PRIMARY KEY,            -- sha256 of the OAuth state handed to the provider
        process_id  TEXT NOT NULL REFERENCES processes(id) ON DELETE CASCADE,
        provider    TEXT NOT NULL,
        created_at  INTEGER NOT NULL,
        expires_at  INTEGER NOT NULL,
        used_at     INTEGER                      -- set by the callback (single use) or a newer start
      );
      CREATE INDEX oauth_states_process ON oauth_states(process_id);
    `,
  },
  {
    version: 5,
    name: 'rate limits',
    sql: `
      CREATE TABLE rate_limit_buckets (
        key     TEXT NOT NULL,                   -- limit, project and subject, e.g. emailSendsPerIdentifier:pro-1:ada@example.com
        bucket  INTEGER NOT NULL,                -- start of a tenth of the limit's window (ms)
        count   INTEGER NOT NULL,
        PRIMARY KEY (key, bucket)
      );
      CREATE INDEX rate_limit_buckets_bucket ON rate_limit_buckets(bucket);
    `,
  },
  {
    version: 6,
    name: 'primary identifiers, codes for identifiers added to an account',
    sql: `
      -- one identifier per type and user is primary; until now a user had one per type
      ALTER TABLE identifiers ADD COLUMN is_primary INTEGER NOT NULL DEFAULT 1;
      CREATE TABLE identifier_secrets (
        id               TEXT PRIMARY KEY,
        identifier_id    TEXT NOT NULL REFERENCES identifiers(id) ON DELETE CASCADE,
        method           TEXT NOT NULL CHECK (method IN ('email-otp', 'phone-otp')),
        identifier_type  TEXT NOT NULL,
        identifier_value TEXT NOT NULL,
        secret_hash      TEXT NOT NULL,          -- HMAC-SHA256 with a server secret
        attempts         INTEGER NOT NULL DEFAULT 0,
        created_at       INTEGER NOT NULL,
        expires_at       INTEGER NOT NULL,
        used_at          INTEGER,
        revoked_at       INTEGER
      );
      CREATE INDEX identifier_secrets_identifier ON identifier_secrets(identifier_id, identifier_type);
    `,
  },
  {
    version: 7,
    name: 'an identifier is unique among verified ones only, and once per user',
    // A pending address proves nothing, so it must not keep its owner from signing up (issue 13: an
    // address added on the account page squatted it). The table-level UNIQUE cannot be dropped in SQLite,
    // so the table is rebuilt. Rebuilt, not renamed: SQLite rewrites the foreign key of identifier_secrets
    // to follow a renamed table, and dropping the parent with foreign keys on (they cannot be switched off
    // inside the migration's transaction) would cascade-delete the pending codes. So the codes are set
    // aside first and put back afterwards. The same text runs on PostgreSQL.
    sql: `
      CREATE TABLE identifier_secrets_kept AS SELECT * FROM identifier_secrets;
      DROP TABLE identifier_secrets;
      CREATE TABLE identifiers_kept AS SELECT * FROM identifiers;
      DROP TABLE identifiers;
      CREATE TABLE identifiers (
        id          TEXT PRIMARY KEY,
        user_id     TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        project_id  TEXT NOT NULL,
        type        TEXT NOT NULL CHECK (type IN ('email', 'phone', 'username')),
        value       TEXT NOT NULL,
        normalized  TEXT NOT NULL,
        status      TEXT NOT NULL CHECK (status IN ('verified', 'pending')),
        created_at  INTEGER NOT NULL,
        is_primary  INTEGER NOT NULL DEFAULT 1
      );
      INSERT INTO identifiers (id, user_id, project_id, type, value, normalized, status, created_at, is_primary)
        SELECT id, user_id, project_id, type, value, normalized, status, created_at, is_primary FROM identifiers_kept;
      DROP TABLE identifiers_kept;
      CREATE INDEX identifiers_user ON identifiers(user_id);
      -- one account owns a verified address; any number may hold it pending until one of them proves it
      CREATE UNIQUE INDEX identifiers_verified ON identifiers(project_id, type, normalized) WHERE status = 'verified';
      CREATE UNIQUE INDEX identifiers_per_user ON identifiers(user_id, type, normalized);
      CREATE TABLE identifier_secrets (
        id               TEXT PRIMARY KEY,
        identifier_id    TEXT NOT NULL REFERENCES identifiers(id) ON DELETE CASCADE,
        method           TEXT NOT NULL CHECK (method IN ('email-otp', 'phone-otp')),
        identifier_type  TEXT NOT NULL,
        identifier_value TEXT NOT NULL,
        secret_hash      TEXT NOT NULL,          -- HMAC-SHA256 with a server secret
        attempts         INTEGER NOT NULL DEFAULT 0,
        created_at       INTEGER NOT NULL,
        expires_at       INTEGER NOT NULL,
        used_at          INTEGER,
        revoked_at       INTEGER
      );
      INSERT INTO identifier_secrets (id, identifier_id, method, identifier_type, identifier_value, secret_hash, attempts, created_at, expires_at, used_at, revoked_at)
        SELECT id, identifier_id, method, identifier_type, identifier_value, secret_hash, attempts, created_at, expires_at, used_at, revoked_at
        FROM identifier_secrets_kept;
      DROP TABLE identifier_secrets_kept;
      CREATE INDEX identifier_secrets_identifier ON identifier_secrets(identifier_id, identifier_type);
    `,
  },
  {
    version: 8,
    name: 'recent log-in: re-authentication of a long session, its codes and passkey challenge',
    sql: `
      -- a fresh proof (passkey or code) given on the account page; the log-in itself is created_at
      ALTER TABLE sessions ADD COLUMN reauthenticated_at INTEGER;
      -- the pending /v2/me/reauth/passkey challenge, apart from the append one so neither spoils the other
      ALTER TABLE sessions ADD COLUMN reauth_challenge TEXT;
      ALTER TABLE sessions ADD COLUMN reauth_challenge_expires_at INTEGER;
      -- codes that re-authenticate one long session, sent to a verified address of its user
      CREATE TABLE reauth_secrets (
        id               TEXT PRIMARY KEY,
        session_id       TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        method           TEXT NOT NULL CHECK (method IN ('email-otp', 'phone-otp')),
        identifier_type  TEXT NOT NULL,
        identifier_value TEXT NOT NULL,
        secret_hash      TEXT NOT NULL,          -- HMAC-SHA256 with a server secret
        attempts         INTEGER NOT NULL DEFAULT 0,
        created_at       INTEGER NOT NULL,
        expires_at       INTEGER NOT NULL,
        used_at          INTEGER,
        revoked_at       INTEGER
      );
      CREATE INDEX reauth_secrets_session ON reauth_secrets(session_id, identifier_type);
    `,
  },
  {
    version: 9,
    name: 'deliveries: e-mails and SMS waiting to go out',
    // Written in the transaction that stores the code or link, so a committed code is never lost to a
    // failed send or a stopped process; senders/DeliveryWorker.ts sends and retries them.
    sql: `
      CREATE TABLE deliveries (
        id              TEXT PRIMARY KEY,        -- dlv-…
        project_id      TEXT NOT NULL,
        channel         TEXT NOT NULL CHECK (channel IN ('email', 'sms')),
        payload         TEXT,                    -- JSON {to, subject, text}, sealed with KEY_ENCRYPTION_SECRET; NULL once given up
        status          TEXT NOT NULL CHECK (status IN ('pending', 'expired', 'failed')),
        attempts        INTEGER NOT NULL DEFAULT 0,
        next_attempt_at INTEGER NOT NULL,
        claim           TEXT,                    -- who holds the lease: a token per claimed batch
        claimed_until   INTEGER,                 -- the lease: another instance may claim it again after this
        last_error      TEXT,
        created_at      INTEGER NOT NULL,
        expires_at      INTEGER NOT NULL,        -- when its code or link expires: never sent after that
        finished_at     INTEGER                  -- expired or failed (a sent one is deleted)
      );
      CREATE INDEX deliveries_due ON deliveries(status, next_attempt_at);
    `,
  },
  {
    version: 10,
    name: 'HTML e-mails: the dev outbox keeps the HTML part',
    // (a sealed deliveries payload may now also hold `html`: it is JSON, no column changes)
    sql: `
      ALTER TABLE outbox_messages ADD COLUMN html TEXT;
    `,
  },
  {
    version: 11,
    name: 'identifiers found by their value whatever their status',
    // migration 7 left only the partial unique index on verified rows: the lookups of pending copies
    // (login/init's unverified holder, a proof claiming the address) scanned the whole table, and sign-up's
    // code check slowed down as the table grew (bench: SQLite verify/finish 1,282 -> 512 req/s)
    sql: `
      CREATE INDEX identifiers_value ON identifiers(project_id, type, normalized);
    `,
  },
  {
    version: 12,
    name: 'webhooks: endpoints per project, and the events waiting to be delivered to them',
    // An event is written to webhook_deliveries (one row per endpoint that wants it) in the transaction of
    // the change it tells about; events/WebhookDelivery.ts sends and retries them like deliveries (migration 9).
    sql: `
      CREATE TABLE webhook_endpoints (
        id          TEXT PRIMARY KEY,            -- whe-…
        project_id  TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        url         TEXT NOT NULL,
        events      TEXT,                        -- JSON array of event types; NULL: every event
        secret      TEXT NOT NULL,               -- whsec_…, sealed with KEY_ENCRYPTION_SECRET
        created_at  INTEGER NOT NULL
      );
      CREATE INDEX webhook_endpoints_project ON webhook_endpoints(project_id);
      CREATE TABLE webhook_deliveries (
        id              TEXT PRIMARY KEY,        -- evt-…: the webhook-id header, the same on every attempt
        project_id      TEXT NOT NULL,
        endpoint_id     TEXT NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
        payload         TEXT,                    -- the JSON body, sealed with KEY_ENCRYPTION_SECRET; NULL once given up
        status          TEXT NOT NULL CHECK (status IN ('pending', 'expired', 'failed')),
        attempts        INTEGER NOT NULL DEFAULT 0,
        next_attempt_at INTEGER NOT NULL,
        claim           TEXT,
        claimed_until   INTEGER,
        last_error      TEXT,
        created_at      INTEGER NOT NULL,
        expires_at      INTEGER NOT NULL,        -- the give-up horizon: never attempted after it
        finished_at     INTEGER
      );
      CREATE INDEX webhook_deliveries_due ON webhook_deliveries(status, next_attempt_at);
      CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries(endpoint_id);
    `,
  },
  {
    version: 13,
    name: "sign-up fields: a user's answers to the project's own fields, with the version agreed to",
    sql: `
      CREATE TABLE user_signup_fields (
        user_id     TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        field_id    TEXT NOT NULL,               -- the id in the project's signupFields
        field_type  TEXT NOT NULL CHECK (field_type IN ('text', 'checkbox')),
        value       TEXT,                        -- a text field's answer
        accepted    INTEGER,                     -- a checkbox: 1 ticked, 0 not
        version     TEXT,                        -- a checkbox: the version of the text shown (and agreed to when ticked)
        answered_at INTEGER NOT NULL,            -- ms: when the sign-up form was sent
        PRIMARY KEY (user_id, field_id)
      );
    `,
  },
  {
    version: 14,
    name: 'sessions a person can see and end, rotating long sessions, a signing key per project',
    // Long sessions rotate at each refresh (session/Sessions.ts): the row is the device's chain and
    // token_hash its current value; every value it retired is kept until the row goes, so that a
    // retired value presented again (a stolen copy) ends the chain. Signing keys belong to a project
    // (session/KeyRing.ts); the key of before, project_id NULL, stays published until the tokens it
    // signed have expired.
    sql: `
      ALTER TABLE sessions ADD COLUMN browser TEXT NOT NULL DEFAULT '';
      ALTER TABLE sessions ADD COLUMN os TEXT NOT NULL DEFAULT '';
      -- the last refresh (a short session issued from it); NULL: none since the log-in
      ALTER TABLE sessions ADD COLUMN last_used_at INTEGER;
      CREATE INDEX sessions_user ON sessions(user_id);
      CREATE TABLE retired_session_tokens (
        token_hash  TEXT PRIMARY KEY,            -- sha256 of a long-session value a rotation replaced
        session_id  TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        retired_at  INTEGER NOT NULL
      );
      CREATE INDEX retired_session_tokens_session ON retired_session_tokens(session_id);
      ALTER TABLE signing_keys ADD COLUMN project_id TEXT;
      -- when the key starts signing (published from created_at on); NULL: at once
      ALTER TABLE signing_keys ADD COLUMN signs_from INTEGER;
      -- when it leaves the JWKS: set when a newer key takes over, after the last token it signed expires
      ALTER TABLE signing_keys ADD COLUMN published_until INTEGER;
      CREATE INDEX signing_keys_project ON signing_keys(project_id, created_at);
    `,
  },
  {
    version: 15,
    name: 'Backend API: API secrets, user status and external id',
    // The host's backend calls the Backend API with HTTP Basic (project id, API secret). A secret is shown
    // once; only its SHA-256 is kept (256 random bits need no slow hash). A user may be disabled by the
    // host, and carries the host's own id for it (imports, user create), unique within the project.
    sql: `
      CREATE TABLE api_secrets (
        id           TEXT PRIMARY KEY,           -- sec-…
        project_id   TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        secret_hash  TEXT NOT NULL UNIQUE,       -- sha256 of corbado1_…
        hint         TEXT NOT NULL,              -- the secret's last four characters, to tell secrets apart
        label        TEXT NOT NULL,              -- who made it: admin, npm start
        created_at   INTEGER NOT NULL,
        revoked_at   INTEGER
      );
      CREATE INDEX api_secrets_project ON api_secrets(project_id);
      ALTER TABLE users ADD COLUMN status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled'));
      ALTER TABLE users ADD COLUMN external_id TEXT;
      CREATE UNIQUE INDEX users_external_id ON users(project_id, external_id) WHERE external_id IS NOT NULL;
      CREATE INDEX users_project ON users(project_id, created_at);
      CREATE INDEX identifiers_project ON identifiers(project_id, created_at);
    `,
  },
  {
    version: 16,
    name: 'social sign-in: client credentials per project, the browser an OAuth state belongs to',
    sql: `
      -- a project's own OAuth client per provider (admin command); the secret sealed with KEY_ENCRYPTION_SECRET
      CREATE TABLE project_oauth_clients (
        project_id     TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        provider       TEXT NOT NULL,
        client_id      TEXT NOT NULL,
        client_secret  TEXT NOT NULL,
        updated_at     INTEGER NOT NULL,
        PRIMARY KEY (project_id, provider)
      );
      -- sha256 of the cookie the starting browser received: only that browser's callback is taken
      ALTER TABLE oauth_states ADD COLUMN browser_hash TEXT;
    `,
  },
  {
    version: 17,
    name: 'sign-up fields: the text each answer was given on (label, link, language) and who gave it',
    // The consent record: what the person saw, kept with each answer, so that it holds years later
    // whatever the configuration says by then (server/README.md, "Sign-up fields"). NULL in answers
    // stored before.
    sql: `
      ALTER TABLE user_signup_fields ADD COLUMN shown_language TEXT;   -- the language of the label shown
      ALTER TABLE user_signup_fields ADD COLUMN shown_label TEXT;      -- the label as shown, linked words in [brackets]
      ALTER TABLE user_signup_fields ADD COLUMN shown_url TEXT;        -- a checkbox's link, as shown
      ALTER TABLE user_signup_fields ADD COLUMN source TEXT;           -- signup, backend-api or import
    `,
  },
  {
    version: 18,
    name: 'the audit trail: one record per event, hash-chained per project; daily rollups for the adoption figures',
    // Append-only: the server inserts and, for retention alone, deletes the oldest (server/audit/). Each
    // record's hash covers its content and its predecessor's hash; audit_heads holds each project's newest
    // record and the first kept one, so that a record deleted at either end is found too.
    sql: `
      CREATE TABLE audit_events (
        project_id  TEXT NOT NULL,
        seq         INTEGER NOT NULL,            -- 1, 2, 3 … per project: the chain's order
        at          INTEGER NOT NULL,            -- ms
        event       TEXT NOT NULL,               -- a stable name: login.succeeded, session.ended …
        outcome     TEXT NOT NULL,               -- done | refused
        reason      TEXT,                        -- why refused (wrong_code, link_expired …)
        actor       TEXT NOT NULL,               -- user:usr-…, secret:sec-…, admin, system, visitor
        user_id     TEXT,                        -- the user it happened to
        target      TEXT,                        -- what it happened to: passkey:cre-…, session:ses-…, identifier:ide-…
        ip          TEXT,                        -- as the abuse limits see it
        browser     TEXT,
        os          TEXT,
        request_id  TEXT,
        details     TEXT NOT NULL,               -- JSON: never a secret, code, token or full link; addresses masked
        prev_hash   TEXT NOT NULL,
        hash        TEXT NOT NULL,
        PRIMARY KEY (project_id, seq)
      );
      CREATE INDEX audit_events_user ON audit_events(project_id, user_id, seq);
      CREATE INDEX audit_events_at ON audit_events(project_id, at);
      CREATE INDEX audit_events_event ON audit_events(project_id, event, seq);
      CREATE TABLE audit_heads (
        project_id  TEXT PRIMARY KEY,
        seq         INTEGER NOT NULL,            -- the newest record
        hash        TEXT NOT NULL,
        first_seq   INTEGER NOT NULL             -- the oldest record retention kept
      );
      -- the adoption figures: one counter per project, day (UTC, YYYY-MM-DD) and metric
      CREATE TABLE audit_daily (
        project_id  TEXT NOT NULL,
        day         TEXT NOT NULL,
        metric      TEXT NOT NULL,               -- login:email-otp, funnel:created:macOS:Chrome …
        count       INTEGER NOT NULL,
        PRIMARY KEY (project_id, day, metric)
      );
      -- each user's last day active (signed up or logged in) and last day active holding a passkey:
      -- the users active in the last N days are a range of one index (the adoption share)
      CREATE TABLE audit_user_activity (
        project_id        TEXT NOT NULL,
        user_id           TEXT NOT NULL,
        last_active_day   TEXT NOT NULL,
        last_passkey_day  TEXT,
        PRIMARY KEY (project_id, user_id)
      );
      CREATE INDEX audit_user_activity_active ON audit_user_activity(project_id, last_active_day);
      CREATE INDEX audit_user_activity_passkey ON audit_user_activity(project_id, last_passkey_day);
    `,
  },
  {
    version: 19,
    name: 'the console: operators, their sessions, and the indexes of the user search',
    // Operators are people who run the site (server/console/): each is an e-mail address with a role and,
    // for admin and support, the projects they may see. They sign in to the console project
    // (pro-console) through the widget; console_sessions holds their console cookie's hash.
    sql: `
      CREATE TABLE operators (
        id          TEXT PRIMARY KEY,            -- opr-…
        email       TEXT NOT NULL UNIQUE,        -- lower case
        role        TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'support')),
        projects    TEXT NOT NULL,               -- JSON array of project ids (admin, support)
        created_at  INTEGER NOT NULL,
        updated_at  INTEGER NOT NULL
      );
      CREATE TABLE console_sessions (
        id           TEXT PRIMARY KEY,
        token_hash   TEXT NOT NULL UNIQUE,       -- sha256 of the cookie
        operator_id  TEXT NOT NULL REFERENCES operators(id) ON DELETE CASCADE,
        csrf_token   TEXT NOT NULL,
        created_at   INTEGER NOT NULL,
        proved_at    INTEGER NOT NULL,           -- the operator's last sign-in (the recent-proof rule)
        expires_at   INTEGER NOT NULL
      );
      CREATE INDEX console_sessions_operator ON console_sessions(operator_id);
      -- the console's user search (console/userSearch.ts): prefixes of identifier values, user ids and
      -- external ids, compared byte by byte (PostgreSQL: the "C" collation, so that a prefix is a range)
      CREATE INDEX identifiers_prefix ON identifiers(project_id, normalized, user_id);
      CREATE INDEX users_project_id ON users(project_id, id);
      CREATE INDEX users_external_prefix ON users(project_id, lower(external_id)) WHERE external_id IS NOT NULL;
    `,
    postgresSql: `
      CREATE TABLE operators (
        id          TEXT PRIMARY KEY,
        email       TEXT NOT NULL UNIQUE,
        role        TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'support')),
        projects    TEXT NOT NULL,
        created_at  BIGINT NOT NULL,
        updated_at  BIGINT NOT NULL
      );
      CREATE TABLE console_sessions (
        id           TEXT PRIMARY KEY,
        token_hash   TEXT NOT NULL UNIQUE,
        operator_id  TEXT NOT NULL REFERENCES operators(id) ON DELETE CASCADE,
        csrf_token   TEXT NOT NULL,
        created_at   BIGINT NOT NULL,
        proved_at    BIGINT NOT NULL,
        expires_at   BIGINT NOT NULL
      );
      CREATE INDEX console_sessions_operator ON console_sessions(operator_id);
      CREATE INDEX identifiers_prefix ON identifiers(project_id, (normalized COLLATE "C"), user_id);
      CREATE INDEX users_project_id ON users(project_id, (id COLLATE "C"));
      CREATE INDEX users_external_prefix ON users(project_id, (lower(external_id) COLLATE "C")) WHERE external_id IS NOT NULL;
    `,
  },
  {
    version: 20,
    name: 'webhooks: endpoints disabled and enabled again; each delivery names the user its event is about',
    // A disabled endpoint gets no new deliveries; those already waiting are held (never claimed) until it
    // is enabled again, then go out unless their give-up horizon passed meanwhile. user_id: the console's
    // user page lists the deliveries about a user (NULL for events about no user, and rows written before).
    sql: `
      ALTER TABLE webhook_endpoints ADD COLUMN disabled_at INTEGER;   -- set while disabled (ms); NULL: enabled
      ALTER TABLE webhook_deliveries ADD COLUMN user_id TEXT;
      CREATE INDEX webhook_deliveries_user ON webhook_deliveries(project_id, user_id, created_at);
    `,
  },
  {
    version: 21,
    name: 'identifiers: the index on user_id alone dropped (identifiers_per_user begins with user_id)',
    // Every insert of an identifier wrote a page of each of its indexes to the log; this one only
    // repeated the first column of the unique index identifiers_per_user (user_id, type, normalized),
    // which serves the lookups by user and the cascade from users alike (issue 34).
    sql: `
      DROP INDEX IF EXISTS identifiers_user;
    `,
  },
  {
    version: 22,
    name: 'the audit trail: records staged in the transaction of their change, chained after it commits',
    // A change's transaction writes its records here (one row each, no index but the row id), so that it
    // neither holds a project's chain nor writes its counters while it commits; the sealer
    // (server/audit/sealer.ts) moves them into audit_events in staging order, chained, with the
    // counters and the users' activity, a batch per transaction, and deletes them here.
    sql: auditPending('INTEGER PRIMARY KEY'), // the row id: no sequence table written per insert
    postgresSql: auditPending('BIGSERIAL PRIMARY KEY'),
  },
];

/** The schema version this code needs: the newest migration (readiness compares the database's with it). */
export const SCHEMA_VERSION = Math.max(...MIGRATIONS.map((m) => m.version));
