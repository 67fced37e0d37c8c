CREATE TABLE "calendar_grants" (
	"id" serial PRIMARY KEY NOT NULL,
	"vet_user_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "calendar_grants" ADD CONSTRAINT "calendar_grants_vet_user_id_users_id_fk" FOREIGN KEY ("vet_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "calendar_grants_token_hash_unique" ON "calendar_grants" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "calendar_grants_vet_idx" ON "calendar_grants" USING btree ("vet_user_id");