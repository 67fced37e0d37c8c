DROP INDEX "appointments_customer_idx";--> statement-breakpoint
DROP INDEX "appointments_vet_idx";--> statement-breakpoint
DROP INDEX "appointments_pet_idx";--> statement-breakpoint
CREATE INDEX "appointments_vet_customer_idx" ON "appointments" USING btree ("vet_user_id","customer_user_id");--> statement-breakpoint
CREATE INDEX "users_name_idx" ON "users" USING btree ("name","id");--> statement-breakpoint
CREATE INDEX "appointments_customer_idx" ON "appointments" USING btree ("customer_user_id","schedule","id");--> statement-breakpoint
CREATE INDEX "appointments_vet_idx" ON "appointments" USING btree ("vet_user_id","schedule","id");--> statement-breakpoint
CREATE INDEX "appointments_pet_idx" ON "appointments" USING btree ("pet_id","schedule","id");