CREATE TABLE "appointment_files" (
	"id" serial PRIMARY KEY NOT NULL,
	"appointment_id" integer NOT NULL,
	"file_name" text NOT NULL,
	"file_description" text DEFAULT '' NOT NULL,
	"file_type" text NOT NULL,
	"file_size" integer NOT NULL,
	"storage_key" text NOT NULL,
	"uploaded_by_user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "appointment_files_size_non_negative" CHECK ("appointment_files"."file_size" >= 0)
);
--> statement-breakpoint
CREATE TABLE "payment_events" (
	"id" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"type" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "payment_hash" text;--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "item_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "calendar_event_id" text;--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "timezone_diff" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "access_code_id" integer;--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "payment_provider" text;--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "provider_reference" text;--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "paid_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "request_notified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "customer_pin_hash" text;--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "vet_pin_hash" text;--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "pin_cipher" text;--> statement-breakpoint
ALTER TABLE "appointment_files" ADD CONSTRAINT "appointment_files_appointment_id_appointments_id_fk" FOREIGN KEY ("appointment_id") REFERENCES "public"."appointments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointment_files" ADD CONSTRAINT "appointment_files_uploaded_by_user_id_users_id_fk" FOREIGN KEY ("uploaded_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "appointment_files_storage_key_unique" ON "appointment_files" USING btree ("storage_key");--> statement-breakpoint
CREATE INDEX "appointment_files_appointment_idx" ON "appointment_files" USING btree ("appointment_id");--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_access_code_id_access_codes_id_fk" FOREIGN KEY ("access_code_id") REFERENCES "public"."access_codes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "appointments_payment_hash_unique" ON "appointments" USING btree ("payment_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "appointments_provider_reference_unique" ON "appointments" USING btree ("provider_reference");--> statement-breakpoint
CREATE UNIQUE INDEX "appointments_customer_pin_live_unique" ON "appointments" USING btree ("customer_pin_hash") WHERE status in ('TK_Requested', 'TK_Confirmed');--> statement-breakpoint
CREATE UNIQUE INDEX "appointments_vet_pin_live_unique" ON "appointments" USING btree ("vet_pin_hash") WHERE status in ('TK_Requested', 'TK_Confirmed');--> statement-breakpoint
CREATE INDEX "appointments_status_idx" ON "appointments" USING btree ("status","schedule");