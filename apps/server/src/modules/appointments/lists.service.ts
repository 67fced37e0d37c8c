import { type AnyColumn, and, asc, desc, eq, exists, gt, gte, lt, lte, sql, type SQL } from 'drizzle-orm';
import { cancellationTerms, rescheduleTerms } from '@vetcall/shared/appointment-rules';
import { isValidDateKey, todayKey } from '@vetcall/shared/dates';
import type { Locale } from '@vetcall/shared/locales';
import { addDaysToDateKey, horizonDays, zonedWallTimeToInstant } from '@vetcall/shared/scheduling/zoned-time';
import {
  APPOINTMENT_FILTER_FLOOR,
  APPOINTMENT_PAGE_SIZE,
  type AppointmentListItem,
  type AppointmentPage,
  MNGRECORD_PARAM_PATTERN,
  type MyAppointmentPage,
  type MyAppointmentsWhen,
  type VetCustomer,
} from '@vetcall/shared/schemas/appointment';
import { ROOM_CLOSES_AFTER_START_MS } from '@vetcall/shared/schemas/video';
import type { FieldErrorCode } from '@vetcall/shared/error-codes';
import type { AppContext } from '../../context.ts';
import {
  decodeCursor,
  decodeTextCursor,
  encodeTextCursor,
  keysetPage,
  type KeysetCursor,
  rowsAfter,
  scheduleCursorOf,
} from '../../lib/keyset-cursor.ts';
import type { Database } from '../../db/client.ts';
import { appointments, customers, pets, users, vets } from '../../db/schema.ts';
import { AppError, forbidden, notFound } from '../../errors.ts';
import type { Actor } from '../auth/auth.service.ts';
import { canListAllAppointments, canListOwnAppointments, canViewVetAppointments } from './appointment.policy.ts';
import { statusText } from './appointment-view.ts';

/**
 * The appointment lists (docs/product-rules.md#vet-screens vet appointments and customers, #manager-screens manager
 * list and export). Pages are keyset pages in (schedule, id) order, read through an index that has that order
 * (appointments_schedule_idx for all vets, appointments_vet_idx for one), so the thousandth page costs
 * what the first does.
 */

/** Customers per page of a vet's customers table (docs/product-rules.md#vet-screens), by name. */
export const VET_CUSTOMERS_PAGE_SIZE = 200;

/** A date window over appointment start times, optionally for one vet (user id). */
export interface AppointmentFilter {
  /** Inclusive first day, YYYY-MM-DD in `timeZone`; undefined = no lower bound. */
  from?: string;
  /** Inclusive last day, YYYY-MM-DD in `timeZone`; undefined = no upper bound. */
  to?: string;
  vetUserId?: number;
  timeZone: string;
}

const invalid = (fields: Record<string, FieldErrorCode>, message = 'Invalid appointment filter.') =>
  new AppError('validation_failed', 400, { message, fields });

/**
 * The last day a filter may reach: one month after today in `timeZone` (docs/product-rules.md#validation Appointment
 * date filters).
 */
export function latestFilterDate(now: Date, timeZone: string): string {
  const today = todayKey(now, timeZone);
  return addDaysToDateKey(today, horizonDays(today, 'P1M'));
}

/**
 * Checks a window's dates (docs/product-rules.md#validation): real dates, from ≥ 1950-01-01, to ≤ today + 1 month, from
 * ≤ to.
 */
export function checkFilterDates(
  window: { from?: string; to?: string },
  now: Date,
  timeZone: string,
  names: { from: string; to: string } = { from: 'from', to: 'to' },
): void {
  const fields: Record<string, FieldErrorCode> = {};
  if (window.from !== undefined) {
    if (!isValidDateKey(window.from)) fields[names.from] = 'invalid_format';
    else if (window.from < APPOINTMENT_FILTER_FLOOR) fields[names.from] = 'too_small';
  }
  if (window.to !== undefined) {
    if (!isValidDateKey(window.to)) fields[names.to] = 'invalid_format';
    else if (window.to > latestFilterDate(now, timeZone)) fields[names.to] = 'too_big';
  }
  if (Object.keys(fields).length === 0 && window.from && window.to && window.from > window.to) {
    fields[names.to] = 'too_small';
  }
  if (Object.keys(fields).length > 0) throw invalid(fields);
}

/**
 * The manager list's `param` (MNGRECORD_PARAM_PATTERN): `<from>_<to>_<vet user id | all>`, dates checked
 * as checkFilterDates does; failures are 400 validation_failed on `param`.
 */
export function parseMngrecordParam(param: string, now: Date, timeZone: string): AppointmentFilter {
  const match = MNGRECORD_PARAM_PATTERN.exec(param);
  if (!match) throw invalid({ param: 'invalid_format' }, 'The filter is <from>_<to>_<vet user id|all>.');
  const [, from, to, vet] = match as unknown as [string, string, string, string];
  try {
    checkFilterDates({ from, to }, now, timeZone);
  } catch (error) {
    const code = error instanceof AppError ? Object.values(error.fields ?? {})[0] : undefined;
    throw invalid({ param: code ?? 'invalid_value' });
  }
  return { from, to, vetUserId: vet === 'all' ? undefined : Number(vet), timeZone };
}

/** Rows after `cursor` in (schedule, id) order, ascending or descending. */
const keysetAfter = (cursor: KeysetCursor, direction: 'asc' | 'desc') =>
  rowsAfter(appointments.schedule, appointments.id, cursor, direction);

/**
 * One keyset page from rows fetched with limit APPOINTMENT_PAGE_SIZE + 1: the page's items, and the cursor
 * of its last row when the extra row shows that more follow.
 */
function appointmentKeysetPage<Row extends { id: number; schedule: Date }, Item>(
  rows: Row[],
  toItem: (row: Row) => Item,
) {
  const page = keysetPage(rows, APPOINTMENT_PAGE_SIZE, scheduleCursorOf);
  return { items: page.rows.map(toItem), next_cursor: page.nextCursor };
}

/** The name of a user or pet by id, as a scalar subquery: one primary-key probe per row of a page. */
const userName = (id: AnyColumn) => sql<string>`(select ${users.name} from ${users} where ${users.id} = ${id})`;
const petName = (id: AnyColumn) => sql<string>`(select ${pets.name} from ${pets} where ${pets.id} = ${id})`;

/**
 * Rows of a filter in (schedule, id) order after `cursor`; at most `limit`: a range scan of an index in that
 * order that stops at `limit`. Names are scalar subqueries rather than joins: with joins, a narrow window (one
 * vet, a few days) made the planner hash every user and pet to name a few rows, a cost that grew with the
 * number of customers; a subquery is one primary-key probe per row of the page, whatever the tables hold.
 */
export async function queryAppointmentRows(
  db: Pick<Database, 'select'>,
  filter: AppointmentFilter,
  options: { cursor?: KeysetCursor; limit: number },
) {
  const conditions: (SQL | undefined)[] = [
    filter.vetUserId !== undefined ? eq(appointments.vetUserId, filter.vetUserId) : undefined,
    filter.from ? gte(appointments.schedule, zonedWallTimeToInstant(filter.from, '00:00', filter.timeZone)) : undefined,
    filter.to
      ? lt(appointments.schedule, zonedWallTimeToInstant(addDaysToDateKey(filter.to, 1), '00:00', filter.timeZone))
      : undefined,
    options.cursor ? keysetAfter(options.cursor, 'asc') : undefined,
  ];
  return db
    .select({
      id: appointments.id,
      schedule: appointments.schedule,
      customerUserId: appointments.customerUserId,
      customerName: userName(appointments.customerUserId),
      petId: appointments.petId,
      petName: petName(appointments.petId),
      vetUserId: appointments.vetUserId,
      vetName: userName(appointments.vetUserId),
      status: appointments.status,
      statusDate: appointments.statusDate,
      priceCents: appointments.priceCents,
    })
    .from(appointments)
    .where(and(...conditions))
    .orderBy(asc(appointments.schedule), asc(appointments.id))
    .limit(options.limit);
}

export type AppointmentListRow = Awaited<ReturnType<typeof queryAppointmentRows>>[number];

function toListItem(row: AppointmentListRow, locale: Locale): AppointmentListItem {
  return {
    appointment_id: row.id,
    schedule: row.schedule.toISOString(),
    customer_user_id: row.customerUserId,
    customer_name: row.customerName,
    pet_id: row.petId,
    pet_name: row.petName,
    vet_user_id: row.vetUserId,
    vet_name: row.vetName,
    appointment_status_key: row.status,
    appointment_status: statusText(locale, row.status),
    status_date: row.statusDate.toISOString(),
    price: row.priceCents,
  };
}

/** One page of a filter: APPOINTMENT_PAGE_SIZE rows and the cursor of the next page (null at the end). */
async function appointmentPage(
  db: Pick<Database, 'select'>,
  filter: AppointmentFilter,
  cursorText: string | undefined,
  locale: Locale,
): Promise<AppointmentPage> {
  const cursor = cursorText ? decodeCursor(cursorText) : undefined;
  const rows = await queryAppointmentRows(db, filter, { cursor, limit: APPOINTMENT_PAGE_SIZE + 1 });
  return appointmentKeysetPage(rows, (row) => toListItem(row, locale));
}

export interface ListRequest {
  cursor?: string;
  timeZone: string;
  locale: Locale;
}

/** GET /api/appointments/mngrecord/{param}: the manager's list (docs/product-rules.md#manager-screens). */
export async function listManagerAppointments(
  deps: Pick<AppContext, 'db' | 'clock'>,
  actor: Actor,
  param: string,
  request: ListRequest,
): Promise<AppointmentPage> {
  if (!canListAllAppointments(actor)) throw forbidden();
  const filter = parseMngrecordParam(param, deps.clock.now(), request.timeZone);
  return appointmentPage(deps.db, filter, request.cursor, request.locale);
}

/** The vet behind a vets.id the actor may see the appointments of; 404 otherwise (existence does not leak). */
async function visibleVetUserId(db: Pick<Database, 'select'>, actor: Actor, vetId: number): Promise<number> {
  const [vet] = await db.select({ userId: vets.userId }).from(vets).where(eq(vets.id, vetId)).limit(1);
  if (!vet || !canViewVetAppointments(actor, vet.userId)) throw notFound();
  return vet.userId;
}

/**
 * GET /api/vets/appointments/{vet_id}: the vet's list (docs/product-rules.md#vet-screens appointments mode), from/to
 * optional.
 */
export async function listVetAppointments(
  deps: Pick<AppContext, 'db' | 'clock'>,
  actor: Actor,
  vetId: number,
  request: ListRequest & { from?: string; to?: string },
): Promise<AppointmentPage> {
  const vetUserId = await visibleVetUserId(deps.db, actor, vetId);
  checkFilterDates(request, deps.clock.now(), request.timeZone);
  return appointmentPage(
    deps.db,
    { from: request.from, to: request.to, vetUserId, timeZone: request.timeZone },
    request.cursor,
    request.locale,
  );
}

/**
 * GET /api/vets/customers/{vet_id} (docs/product-rules.md#vet-screens customers mode): the customers with at least one
 * appointment with this vet, by name, in keyset pages of VET_CUSTOMERS_PAGE_SIZE in (name, id) order. Customers
 * are walked through users_name_idx from the cursor, each checked with one probe of
 * appointments_vet_customer_idx, so a page costs the same however many appointments the vet has.
 */
export async function listVetCustomers(
  deps: Pick<AppContext, 'db'>,
  actor: Actor,
  vetId: number,
  request: { cursor?: string } = {},
): Promise<{ customers: VetCustomer[]; nextCursor: string | null }> {
  const vetUserId = await visibleVetUserId(deps.db, actor, vetId);
  const cursor = request.cursor ? decodeTextCursor(request.cursor) : undefined;
  const theirs = deps.db
    .select({ one: sql`1` })
    .from(appointments)
    .where(and(eq(appointments.vetUserId, vetUserId), eq(appointments.customerUserId, users.id)));
  const rows = await deps.db
    .select({
      user_id: users.id,
      name: users.name,
      email: users.email,
      phone: users.phone,
      address: users.address,
      tax_id: customers.taxId,
    })
    .from(users)
    .innerJoin(customers, eq(customers.userId, users.id))
    .where(and(exists(theirs), cursor ? rowsAfter(users.name, users.id, cursor, 'asc') : undefined))
    .orderBy(asc(users.name), asc(users.id))
    .limit(VET_CUSTOMERS_PAGE_SIZE + 1);
  const page = keysetPage(rows, VET_CUSTOMERS_PAGE_SIZE, (row) => encodeTextCursor({ key: row.name, id: row.user_id }));
  return { customers: page.rows, nextCursor: page.nextCursor };
}

/**
 * GET /api/appointments/mine: the customer's own appointments, APPOINTMENT_PAGE_SIZE a page. `upcoming`
 * are those whose room has not closed yet (started less than ROOM_CLOSES_AFTER_START_MS ago), soonest
 * first; `past` the rest, latest first. Each row carries cancellationTerms for the customer now, so the
 * screen offers Cancel, and warns about the refund, exactly as the server will decide. Read through
 * appointments_customer_idx (customer, schedule).
 */
export async function listOwnAppointments(
  deps: Pick<AppContext, 'db' | 'clock'>,
  actor: Actor,
  request: { when: MyAppointmentsWhen; cursor?: string; locale: Locale },
): Promise<MyAppointmentPage> {
  if (!canListOwnAppointments(actor)) throw forbidden();
  const now = deps.clock.now();
  const cursor = request.cursor ? decodeCursor(request.cursor) : undefined;
  const roomClosedBefore = new Date(now.getTime() - ROOM_CLOSES_AFTER_START_MS);
  const upcoming = request.when === 'upcoming';
  const order = upcoming ? asc : desc;
  const rows = await deps.db
    .select({
      id: appointments.id,
      schedule: appointments.schedule,
      durationMinutes: appointments.durationMinutes,
      petId: appointments.petId,
      petName: petName(appointments.petId),
      vetUserId: appointments.vetUserId,
      vetName: userName(appointments.vetUserId),
      status: appointments.status,
      priceCents: appointments.priceCents,
    })
    .from(appointments)
    .where(
      and(
        eq(appointments.customerUserId, actor.userId),
        upcoming ? gt(appointments.schedule, roomClosedBefore) : lte(appointments.schedule, roomClosedBefore),
        cursor ? keysetAfter(cursor, upcoming ? 'asc' : 'desc') : undefined,
      ),
    )
    .orderBy(order(appointments.schedule), order(appointments.id))
    .limit(APPOINTMENT_PAGE_SIZE + 1);
  return appointmentKeysetPage(rows, (row) => ({
    appointment_id: row.id,
    schedule: row.schedule.toISOString(),
    pet_id: row.petId,
    pet_name: row.petName,
    vet_user_id: row.vetUserId,
    vet_name: row.vetName,
    appointment_status_key: row.status,
    appointment_status: statusText(request.locale, row.status),
    price: row.priceCents,
    cancel: cancellationTerms('customer', row, now),
    reschedule: rescheduleTerms('customer', row, now),
  }));
}
