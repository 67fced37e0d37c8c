CREATE TABLE "availability_profiles" (
	"id" serial PRIMARY KEY NOT NULL,
	"vet_id" integer NOT NULL,
	"name" text DEFAULT 'Video consultation' NOT NULL,
	"duration_minutes" integer DEFAULT 30 NOT NULL,
	"availability_step" integer DEFAULT 30 NOT NULL,
	"time_available_for" text DEFAULT 'P10W' NOT NULL,
	"subject" text DEFAULT '' NOT NULL,
	"description" text DEFAULT 'Vet appointments' NOT NULL,
	"location" text DEFAULT 'Video call' NOT NULL,
	"timezone" text DEFAULT 'Europe/Lisbon' NOT NULL,
	"day_schedules" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"availability_intervals" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"context" text DEFAULT '' NOT NULL,
	"start_conference" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "availability_profiles_duration" CHECK ("availability_profiles"."duration_minutes" between 5 and 480),
	CONSTRAINT "availability_profiles_step" CHECK ("availability_profiles"."availability_step" between 5 and 480)
);
--> statement-breakpoint
CREATE TABLE "calendar_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" text NOT NULL,
	"vet_user_id" integer NOT NULL,
	"customer_user_id" integer,
	"profile_id" integer,
	"kind" text NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone,
	"released_at" timestamp with time zone,
	"appointment_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "calendar_events_ordered" CHECK ("calendar_events"."starts_at" < "calendar_events"."ends_at"),
	CONSTRAINT "calendar_events_hold_expires" CHECK ("calendar_events"."kind" <> 'hold' or "calendar_events"."expires_at" is not null)
);
--> statement-breakpoint
ALTER TABLE "vets" ADD COLUMN "ics_token_hash" text;--> statement-breakpoint
ALTER TABLE "availability_profiles" ADD CONSTRAINT "availability_profiles_vet_id_vets_id_fk" FOREIGN KEY ("vet_id") REFERENCES "public"."vets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_events" ADD CONSTRAINT "calendar_events_vet_user_id_users_id_fk" FOREIGN KEY ("vet_user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_events" ADD CONSTRAINT "calendar_events_customer_user_id_users_id_fk" FOREIGN KEY ("customer_user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_events" ADD CONSTRAINT "calendar_events_profile_id_availability_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."availability_profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_events" ADD CONSTRAINT "calendar_events_appointment_id_appointments_id_fk" FOREIGN KEY ("appointment_id") REFERENCES "public"."appointments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "availability_profiles_vet_idx" ON "availability_profiles" USING btree ("vet_id");--> statement-breakpoint
CREATE UNIQUE INDEX "calendar_events_event_id_unique" ON "calendar_events" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "calendar_events_vet_time_idx" ON "calendar_events" USING btree ("vet_user_id","starts_at");