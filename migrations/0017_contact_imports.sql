-- A CSV import: the upload is read and checked in the request, its rows staged here (the import is
-- 'receiving' meanwhile, outside a transaction so that a slow upload holds no connection), and the
-- contacts.import job applies them in batches: each batch's contacts, counts and removal from the
-- staged rows commit together, so a retried job resumes with the rows left. Refused rows are kept with their spreadsheet row number and why.
CREATE TABLE contact_imports (
  workspace_id text NOT NULL REFERENCES workspaces (id),
  id text NOT NULL,
  status text NOT NULL CHECK (status IN ('receiving', 'queued', 'running', 'completed', 'stopped')),
  file_name text,
  total_rows integer NOT NULL,
  processed_rows integer NOT NULL DEFAULT 0,
  created integer NOT NULL DEFAULT 0,
  updated integer NOT NULL DEFAULT 0,
  refused integer NOT NULL DEFAULT 0,
  stopped_reason text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  PRIMARY KEY (workspace_id, id)
);
CREATE INDEX contact_imports_listing ON contact_imports (workspace_id, created_at);

CREATE TABLE contact_import_rows (
  workspace_id text NOT NULL,
  import_id text NOT NULL,
  row_number integer NOT NULL,
  fields jsonb NOT NULL,
  PRIMARY KEY (workspace_id, import_id, row_number)
);

CREATE TABLE contact_import_refusals (
  workspace_id text NOT NULL,
  import_id text NOT NULL,
  row_number integer NOT NULL,
  reason text NOT NULL,
  PRIMARY KEY (workspace_id, import_id, row_number)
);
