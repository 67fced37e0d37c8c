-- Every committed change to the data announces itself on vetcall_changes, so that other instances drop
-- what they cached from it (src/db/data-version.ts). Row-level, so that a statement that changed no row
-- announces nothing; PostgreSQL folds the identical notifications of a transaction into one, sent at
-- commit. The job queue's bookkeeping is no data a cached read shows; a session's last-use touch changes
-- nothing a cache holds.
CREATE FUNCTION vetcall_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('vetcall_changes', TG_TABLE_NAME);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
DO $$
DECLARE
  table_name text;
BEGIN
  FOREACH table_name IN ARRAY ARRAY[
    'users', 'customers', 'vets', 'managers', 'password_reset_tokens', 'pets', 'appointments',
    'appointment_files', 'payment_events', 'user_photos', 'products', 'access_codes', 'availability_profiles',
    'calendar_events', 'calendar_grants'
  ] LOOP
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
--> statement-breakpoint
CREATE TRIGGER sessions_notify_change AFTER UPDATE OF revoked_at, expires_at OR DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION vetcall_notify_change();
--> statement-breakpoint
CREATE TRIGGER sessions_notify_truncate AFTER TRUNCATE ON sessions
  FOR EACH STATEMENT EXECUTE FUNCTION vetcall_notify_change();
