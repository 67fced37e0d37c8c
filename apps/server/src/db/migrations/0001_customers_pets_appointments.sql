CREATE TABLE "appointments" (
	"id" serial PRIMARY KEY NOT NULL,
	"hash" text NOT NULL,
	"customer_user_id" integer NOT NULL,
	"pet_id" integer NOT NULL,
	"vet_user_id" integer NOT NULL,
	"description" text NOT NULL,
	"vet_observations" text DEFAULT '' NOT NULL,
	"schedule" timestamp with time zone NOT NULL,
	"duration_minutes" integer DEFAULT 30 NOT NULL,
	"status" text DEFAULT 'TK_PendingPayment' NOT NULL,
	"status_date" timestamp with time zone DEFAULT now() NOT NULL,
	"price_cents" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "appointments_price_non_negative" CHECK ("appointments"."price_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "pets" (
	"id" serial PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"name" text NOT NULL,
	"species" text NOT NULL,
	"breed_id" integer,
	"breed" text DEFAULT '' NOT NULL,
	"gender" text NOT NULL,
	"birth" date NOT NULL,
	"fertile_status" text NOT NULL,
	"weight" numeric(4, 1) NOT NULL,
	"policy" text,
	"archived_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pets_weight_range" CHECK ("pets"."weight" between 0 and 999)
);
--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_customer_user_id_users_id_fk" FOREIGN KEY ("customer_user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_pet_id_pets_id_fk" FOREIGN KEY ("pet_id") REFERENCES "public"."pets"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_vet_user_id_users_id_fk" FOREIGN KEY ("vet_user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pets" ADD CONSTRAINT "pets_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "appointments_hash_unique" ON "appointments" USING btree ("hash");--> statement-breakpoint
CREATE INDEX "appointments_customer_idx" ON "appointments" USING btree ("customer_user_id","schedule");--> statement-breakpoint
CREATE INDEX "appointments_vet_idx" ON "appointments" USING btree ("vet_user_id","schedule");--> statement-breakpoint
CREATE INDEX "appointments_pet_idx" ON "appointments" USING btree ("pet_id","schedule");--> statement-breakpoint
CREATE INDEX "pets_customer_idx" ON "pets" USING btree ("customer_id");