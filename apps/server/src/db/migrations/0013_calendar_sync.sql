CREATE TABLE "calendar_busy_ranges" (
	"id" serial PRIMARY KEY NOT NULL,
	"vet_user_id" integer NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "calendar_remote_events" (
	"appointment_id" integer PRIMARY KEY NOT NULL,
	"vet_user_id" integer NOT NULL,
	"calendar" text NOT NULL,
	"href" text NOT NULL,
	"etag" text,
	"synced_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vet_calendar_links" (
	"vet_user_id" integer PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"url" text DEFAULT '' NOT NULL,
	"username" text DEFAULT '' NOT NULL,
	"password_sealed" text DEFAULT '' NOT NULL,
	"busy_calendars" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"target_calendar" text,
	"calendars" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"busy_read_at" timestamp with time zone,
	"busy_read_from" timestamp with time zone,
	"busy_read_to" timestamp with time zone,
	"last_error" text,
	"last_error_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "calendar_busy_ranges" ADD CONSTRAINT "calendar_busy_ranges_vet_user_id_users_id_fk" FOREIGN KEY ("vet_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_remote_events" ADD CONSTRAINT "calendar_remote_events_appointment_id_appointments_id_fk" FOREIGN KEY ("appointment_id") REFERENCES "public"."appointments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_remote_events" ADD CONSTRAINT "calendar_remote_events_vet_user_id_users_id_fk" FOREIGN KEY ("vet_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vet_calendar_links" ADD CONSTRAINT "vet_calendar_links_vet_user_id_users_id_fk" FOREIGN KEY ("vet_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "calendar_busy_ranges_vet_time_idx" ON "calendar_busy_ranges" USING btree ("vet_user_id","starts_at");--> statement-breakpoint
-- Busy times read from a vet's calendar change slot answers: like every data table they announce their
-- changes (migration 0012), so other instances drop cached slots when one instance reads new busy times.
DO $$
DECLARE
  table_name text;
BEGIN
  FOREACH table_name IN ARRAY ARRAY['vet_calendar_links', 'calendar_busy_ranges', 'calendar_remote_events'] LOOP
    EXECUTE format(
      'CREATE TRIGGER %I AFTER INSERT OR UPDATE OR DELETE ON %I FOR EACH ROW EXECUTE FUNCTION vetcall_notify_change()',
      table_name || '_notify_change', table_name
    );
    EXECUTE format(
      'CREATE TRIGGER %I AFTER TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION vetcall_notify_change()',
      table_name || '_notify_truncate', table_name
    );
  END LOOP;
END;
$$;
