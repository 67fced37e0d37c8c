-- No double booking, ever (ARCHITECTURE §4): two live calendar entries (holds or bookings) of one vet
-- cannot overlap. btree_gist lets the vet id (=) and the time range (&&) share one GiST exclusion
-- constraint; PGlite loads the same extension, so both databases enforce it. Released entries
-- (expired holds, canceled bookings) no longer count.
CREATE EXTENSION IF NOT EXISTS btree_gist;
--> statement-breakpoint
ALTER TABLE "calendar_events" ADD CONSTRAINT "calendar_events_no_overlap"
  EXCLUDE USING gist ("vet_user_id" WITH =, tstzrange("starts_at", "ends_at", '[)') WITH &&)
  WHERE ("released_at" IS NULL);
