CREATE TABLE "audit_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"actor_user_id" integer,
	"actor_role" text,
	"actor_email" text,
	"action" text NOT NULL,
	"subject_type" text,
	"subject_id" integer,
	"ip" text,
	"user_agent" text,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE INDEX "audit_events_occurred_idx" ON "audit_events" USING btree ("occurred_at","id");--> statement-breakpoint
CREATE INDEX "audit_events_action_idx" ON "audit_events" USING btree ("action","occurred_at","id");--> statement-breakpoint
CREATE INDEX "audit_events_actor_idx" ON "audit_events" USING btree ("actor_user_id","occurred_at","id");--> statement-breakpoint
-- The audit log is append-only from the application (docs/audit-log.md): no UPDATE, DELETE or TRUNCATE, whoever
-- asks. The one exception is `npm run db:restore -- --force`, an operator's act that replaces the whole database
-- with a backup (the log included): its transaction sets vetcall.restoring, which no request path sets. The test
-- database's emptying runs with session_replication_role = replica, under which these triggers do not fire.
-- No change notification (migration 0012): nothing caches the log, and db/data-version.test.ts lists it so.
CREATE FUNCTION vetcall_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' AND coalesce(current_setting('vetcall.restoring', true), '') = 'on' THEN
    RETURN NULL;
  END IF;
  RAISE EXCEPTION 'audit_events is append-only: % refused', TG_OP USING ERRCODE = '42501';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER audit_events_append_only BEFORE UPDATE OR DELETE ON audit_events
  FOR EACH ROW EXECUTE FUNCTION vetcall_audit_append_only();
--> statement-breakpoint
CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON audit_events
  FOR EACH STATEMENT EXECUTE FUNCTION vetcall_audit_append_only();
