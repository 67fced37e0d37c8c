/**
 * The benchmark's data volume (issue 16): the demo accounts (they log in), then `vets` vets and `customers`
 * customers in all (the demo ones included), two pets per customer, and `appointments` appointments spread
 * over two years around `now` (one year back, one ahead). Rows are made with INSERT … SELECT
 * generate_series, so 100 000 appointments take seconds, not minutes, on PGlite and PostgreSQL alike.
 *
 * {@link seedAppointments} replaces only the appointments (and their calendar entries), so the 1 000 and the
 * 100 000 appointment runs share the same people and the lists can be compared for flat cost. The demo vet and
 * the demo customer have the same {@link SUBJECT_APPOINTMENTS} appointments at every volume (more than four
 * pages each): their lists answer the same full pages at 1 000 and at 100 000, so a difference in req/s is the
 * cost of the table's size, not of a page of 20 rows against one of 200.
 *
 * Shape of the appointments, chosen so the running server finds a settled database (its job worker has
 * nothing to catch up on during the measurement) and the slot engine sees realistic bookings:
 * - the first {@link SUBJECT_APPOINTMENTS} are the demo customer's pets' with the demo vet, spread evenly over
 *   the two years; the rest go round-robin over the other vets and to the other customers' pets in a
 *   scattered order;
 * - each vet's k-th appointment lands on a distinct 30-minute slot between 09:00 and 17:00 UTC, so a vet's
 *   calendar entries never overlap (the no-double-booking constraint);
 * - before `now`: completed (3 in 4) or cancelled; after: confirmed, requested or cancelled, reminders
 *   already sent; confirmed and requested ones hold their time as calendar bookings.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../apps/server/src/db/client.ts';
import { seedDemoData } from '../apps/server/src/demo-data/seed.ts';

export interface PeopleVolume {
  vets: number;
  customers: number;
}

export const FULL_PEOPLE: PeopleVolume = { vets: 50, customers: 5_000 };
export const FULL_APPOINTMENTS = 100_000;
export const FLAT_COST_APPOINTMENTS = 1_000;

/** Appointments made here carry this hash prefix, so they can be replaced without touching the demo's. */
const HASH_PREFIX = 'bench-';
/** Every generated account has this unusable hash: only the demo accounts log in. */
const NO_LOGIN_HASH = '!bench-no-login';
/** Bench accounts' emails: never a real domain (RFC 2606). */
const EMAIL_DOMAIN = 'bench.vetcall.test';
/**
 * Appointments of the demo customer (a shelter rather than a pet owner) with the demo vet, at every volume of
 * at least 1 000: four full pages of APPOINTMENT_PAGE_SIZE (200) in the vet's and the customer's lists, over
 * 200 in any 200-day window (about 1.1 a day), and both halves of My appointments (upcoming, past) a full page.
 * A smaller volume (the smoke) gives them four in five of its appointments.
 */
export const SUBJECT_APPOINTMENTS = 800;
const DEMO_VET_EMAIL = 'vet@vetcall.test';
const DEMO_CUSTOMER_EMAIL = 'customer@vetcall.test';
const DAYS = 730;
/** 30-minute slots between 09:00 and 17:00. */
const SLOTS_PER_DAY = 16;

type Rows<T> = { rows: T[] };

async function rows<T>(db: Database, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await db.execute(query)) as unknown as Rows<T>).rows;
}

/** The demo accounts, then generated vets (with the first demo vet's availability) and customers with pets. */
export async function seedPeople(db: Database, volume: PeopleVolume): Promise<void> {
  if (!(await seedDemoData(db))) throw new Error('the bench needs an empty database');
  const [demo] = await rows<{ vets: number; customers: number }>(
    db,
    sql`select (select count(*)::int from vets) as vets, (select count(*)::int from customers) as customers`,
  );
  const extraVets = Math.max(0, volume.vets - demo!.vets);
  const extraCustomers = Math.max(0, volume.customers - demo!.customers);

  await db.execute(sql`
    insert into users (type, name, email, password_hash, locale)
    select 'vet', 'Dr. Bench ' || g, 'vet' || g || '@' || ${EMAIL_DOMAIN}, ${NO_LOGIN_HASH},
           (array['pt', 'en', 'pt-BR'])[1 + g % 3]
    from generate_series(1, ${extraVets}::integer) g`);
  await db.execute(sql`
    insert into vets (user_id, specialty, account_token)
    select id, 'General practice', 'builtin:bench-' || id from users
    where type = 'vet' and email like ${'%@' + EMAIL_DOMAIN}`);
  // The weekly pattern of the first demo vet (weekdays 09:00–13:00 and 14:00–18:00, Lisbon).
  await db.execute(sql`
    insert into availability_profiles (vet_id, duration_minutes, availability_step, time_available_for, timezone,
                                       day_schedules, availability_intervals)
    select v.id, p.duration_minutes, p.availability_step, p.time_available_for, p.timezone, p.day_schedules,
           p.availability_intervals
    from vets v,
         (select * from availability_profiles order by id limit 1) p
    where not exists (select 1 from availability_profiles mine where mine.vet_id = v.id)`);

  await db.execute(sql`
    insert into users (type, name, email, password_hash, phone, locale)
    select 'customer', 'Customer ' || g, 'customer' || g || '@' || ${EMAIL_DOMAIN}, ${NO_LOGIN_HASH}, '912345678',
           (array['pt', 'en', 'pt-BR'])[1 + g % 3]
    from generate_series(1, ${extraCustomers}::integer) g`);
  await db.execute(sql`
    insert into customers (user_id, tax_id, postal_code, city, state, country)
    select id, '123456789', '1000-001', 'Lisboa', 'Lisboa', 'PT' from users
    where type = 'customer' and email like ${'%@' + EMAIL_DOMAIN}`);
  await db.execute(sql`
    insert into pets (customer_id, name, species, gender, birth, fertile_status, weight)
    select c.id, (array['Max', 'Luna', 'Bobby', 'Kika'])[1 + (c.id + n) % 4] || ' ' || c.id,
           (array['Dog', 'Cat'])[1 + n], (array['F', 'M'])[1 + (c.id + n) % 2], '2020-01-01', 'intact', 10
    from customers c join users u on u.id = c.user_id, generate_series(0, 1) n
    where u.email like ${'%@' + EMAIL_DOMAIN}`);
  await db.execute(sql`analyze`);
}

/**
 * Replaces the generated appointments by `count` new ones around `now` (see the file's comment), then
 * refreshes the planner's statistics. Returns the seconds it took.
 */
export async function seedAppointments(db: Database, now: Date, count: number): Promise<number> {
  const started = performance.now();
  await db.execute(sql`delete from calendar_events where event_id like ${HASH_PREFIX + '%'}`);
  await db.execute(sql`delete from appointments where hash like ${HASH_PREFIX + '%'}`);

  const [{ vets } = { vets: 2 }] = await rows<{ vets: number }>(db, sql`select count(*)::int as vets from vets`);
  const subject = Math.min(SUBJECT_APPOINTMENTS, Math.floor((count * 4) / 5));
  const otherVets = vets - 1;
  const perOtherVet = Math.max(1, Math.ceil((count - subject) / otherVets));
  if (Math.max(subject, perOtherVet) > DAYS * SLOTS_PER_DAY) {
    throw new Error('too many appointments per vet for distinct slots');
  }
  // Midnight UTC one year before `now`: day 0 of the two years.
  const firstDay = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - 365 * 86_400_000);

  // Bulk load: the secondary indexes are dropped and built again afterwards (one sorted build each is far
  // quicker than 100 000 insertions into each), from their own definitions, so they stay the schema's.
  const indexes = await rows<{ name: string; definition: string }>(
    db,
    sql`select indexname as name, indexdef as definition from pg_indexes
        where schemaname = current_schema() and tablename = 'appointments' and indexname <> 'appointments_pkey'`,
  );
  for (const index of indexes) await db.execute(sql.raw(`drop index "${index.name}"`));

  // Vets and pets are numbered from 0 and joined by number (hash joins), rather than picked out of
  // aggregated arrays by subscript, which would handle a 10 000-element array for every row. Appointment g
  // below `subject` is the demo vet's and the demo customer's; the others, h = g - subject, go round-robin.
  const slots = DAYS * SLOTS_PER_DAY;
  await db.execute(sql`
    with demo_vet as (select u.id as user_id from users u where u.email = ${DEMO_VET_EMAIL}),
         other_vets as (
           select v.user_id, (row_number() over (order by v.user_id) - 1)::integer as n
           from vets v where v.user_id <> (select user_id from demo_vet)),
         owned_pets as (
           select p.id as pet_id, c.user_id as owner_id, u.email = ${DEMO_CUSTOMER_EMAIL} as of_demo
           from pets p join customers c on c.id = p.customer_id join users u on u.id = c.user_id),
         demo_pets as (
           select pet_id, owner_id, (row_number() over (order by pet_id) - 1)::integer as n
           from owned_pets where of_demo),
         other_pets as (
           select pet_id, owner_id, (row_number() over (order by pet_id) - 1)::integer as n
           from owned_pets where not of_demo),
         totals as (select (select count(*)::integer from demo_pets) as demo,
                           (select count(*)::integer from other_pets) as other),
         generated as (
           select g,
                  -- The k-th appointment of its vet, on slot q of the two years (distinct per vet).
                  case when g < ${subject}::integer
                    then g::bigint * ${slots}::bigint / ${subject}::bigint
                    else ((g - ${subject}::integer) / ${otherVets}::integer)::bigint * ${slots}::bigint
                         / ${perOtherVet}::bigint end as q,
                  case when g >= ${subject}::integer then (g - ${subject}::integer) % ${otherVets}::integer end
                    as other_vet,
                  case when g < ${subject}::integer then g % totals.demo end as demo_pet,
                  -- A stride coprime with nearly any pet count scatters appointments over the pets.
                  case when g >= ${subject}::integer then ((g::bigint * 7919) % totals.other)::integer end
                    as other_pet
           from generate_series(0, ${count - 1}::integer) g, totals),
         timed as (
           select generated.*,
                  ${firstDay.toISOString()}::timestamptz + (q / ${SLOTS_PER_DAY}) * interval '1 day'
                    + interval '9 hours' + (q % ${SLOTS_PER_DAY}) * interval '30 minutes' as schedule
           from generated),
         appointment_rows as (
           select timed.*,
                  case
                    when schedule < ${now.toISOString()}::timestamptz
                      then (array['TK_Completed', 'TK_Completed', 'TK_Completed', 'TK_Canceled'])[1 + g % 4]
                    else (array['TK_Confirmed', 'TK_Confirmed', 'TK_Confirmed', 'TK_Requested',
                                'TK_Canceled'])[1 + g % 5]
                  end as status
           from timed)
    insert into appointments (hash, customer_user_id, pet_id, vet_user_id, description, schedule, status,
                              status_date, price_cents, item_name, payment_provider, paid_at, completed_at,
                              canceled_at, cancel_reason, refund_status, reminded_24h_at, reminded_1h_at)
    select ${HASH_PREFIX} || g,
           coalesce(demo_pets.owner_id, other_pets.owner_id),
           coalesce(demo_pets.pet_id, other_pets.pet_id),
           coalesce(other_vets.user_id, (select user_id from demo_vet)),
           'Benchmark appointment ' || g,
           schedule,
           status,
           schedule - interval '7 days',
           2500,
           'Video consultation',
           'builtin',
           schedule - interval '7 days',
           case when status = 'TK_Completed' then schedule + interval '30 minutes' end,
           case when status = 'TK_Canceled' then schedule - interval '1 day' end,
           case when status = 'TK_Canceled' then 'Benchmark cancellation' end,
           case when status = 'TK_Canceled' then 'refunded' end,
           case when status in ('TK_Confirmed', 'TK_Requested') then ${now.toISOString()}::timestamptz end,
           case when status in ('TK_Confirmed', 'TK_Requested') then ${now.toISOString()}::timestamptz end
    from appointment_rows
    left join other_vets on other_vets.n = appointment_rows.other_vet
    left join demo_pets on demo_pets.n = appointment_rows.demo_pet
    left join other_pets on other_pets.n = appointment_rows.other_pet`);

  for (const index of indexes) await db.execute(sql.raw(index.definition));
  // Fresh statistics before the next statement reads them, and for the server's planner.
  await db.execute(sql`analyze appointments`);

  // Live appointments hold their vet's time, as bookings do; one the demo seed already holds is left out.
  await db.execute(sql`
    insert into calendar_events (event_id, vet_user_id, customer_user_id, profile_id, kind, starts_at, ends_at,
                                 appointment_id)
    select a.hash || '-' || md5(a.hash), a.vet_user_id, a.customer_user_id, p.id, 'booking', a.schedule,
           a.schedule + a.duration_minutes * interval '1 minute', a.id
    from appointments a
    join vets v on v.user_id = a.vet_user_id
    join lateral (select id from availability_profiles where vet_id = v.id order by id limit 1) p on true
    where a.hash like ${HASH_PREFIX + '%'} and a.status in ('TK_Confirmed', 'TK_Requested')
      and not exists (
        select 1 from calendar_events taken
        where taken.vet_user_id = a.vet_user_id and taken.released_at is null
          -- No entry lasts a day (profiles allow 480 minutes at most): a narrow index range suffices.
          and taken.starts_at > a.schedule - interval '1 day'
          and taken.starts_at < a.schedule + a.duration_minutes * interval '1 minute'
          and taken.ends_at > a.schedule)`);
  await db.execute(sql`analyze calendar_events`);
  return (performance.now() - started) / 1000;
}
