import { asc, eq } from 'drizzle-orm';
import type { Locale } from '@vetcall/shared/locales';
import type { AppContext } from '../../context.ts';
import { customers, managers, users, vets } from '../../db/schema.ts';
import { translate } from '../../i18n.ts';
import { buildWorkbook, exportFileName, MAX_EXPORT_ROWS, type WorkbookColumn } from './workbook.ts';

export type UserExport = 'customers' | 'vets' | 'managers';

export interface ExportRequest {
  locale: Locale;
  /** IANA zone for date-times (registration, creation); default UTC. */
  timeZone?: string;
}

export interface ExportFile {
  fileName: string;
  buffer: Buffer;
  /** More rows existed than an export holds; the file has the first MAX_EXPORT_ROWS (by id). */
  truncated: boolean;
}

type ColumnSpec = Omit<WorkbookColumn, 'header'>;

/** docs/product-rules.md#manager-screens user tables, per list; headers are `exports.columns.<key>`. */
const COLUMNS: Record<UserExport, ColumnSpec[]> = {
  customers: [
    { key: 'id', type: 'integer' },
    { key: 'name', type: 'text' },
    { key: 'email', type: 'text' },
    { key: 'phone', type: 'text' },
    { key: 'address', type: 'text' },
    { key: 'postal_code', type: 'text' },
    { key: 'city', type: 'text' },
    { key: 'state', type: 'text' },
    { key: 'country', type: 'text' },
    { key: 'tax_id', type: 'text' },
    { key: 'registered_at', type: 'datetime' },
  ],
  vets: [
    { key: 'id', type: 'integer' },
    { key: 'name', type: 'text' },
    { key: 'email', type: 'text' },
    { key: 'phone', type: 'text' },
    { key: 'specialty', type: 'text' },
    { key: 'discount', type: 'integer' },
    { key: 'active', type: 'text' },
    { key: 'created_at', type: 'datetime' },
  ],
  managers: [
    { key: 'id', type: 'integer' },
    { key: 'name', type: 'text' },
    { key: 'email', type: 'text' },
    { key: 'active', type: 'text' },
    { key: 'created_at', type: 'datetime' },
  ],
};

type Deps = Pick<AppContext, 'db' | 'clock'>;
type Row = Record<string, unknown>;

/** One row more than an export holds, to tell whether it was cut. */
const QUERY_LIMIT = MAX_EXPORT_ROWS + 1;

function countryName(locale: Locale, code: string): string {
  try {
    return code ? translate(locale, `countries.${code}`) : '';
  } catch {
    return code;
  }
}

const yesNo = (locale: Locale, value: boolean) => translate(locale, value ? 'exports.yes' : 'exports.no');

async function customerRows({ db }: Deps, locale: Locale): Promise<Row[]> {
  const rows = await db
    .select({ user: users, customer: customers })
    .from(customers)
    .innerJoin(users, eq(users.id, customers.userId))
    .orderBy(asc(users.id))
    .limit(QUERY_LIMIT);
  return rows.map(({ user, customer }) => ({
    id: user.id,
    name: user.name,
    email: user.email,
    phone: user.phone,
    address: user.address,
    postal_code: customer.postalCode,
    city: customer.city,
    state: customer.state,
    country: countryName(locale, customer.country),
    tax_id: customer.taxId,
    registered_at: user.createdAt,
  }));
}

/** Staff exports list removed (inactive) people too, marked in the Active column. */
async function vetRows({ db }: Deps, locale: Locale): Promise<Row[]> {
  const rows = await db
    .select({ user: users, vet: vets })
    .from(vets)
    .innerJoin(users, eq(users.id, vets.userId))
    .orderBy(asc(users.id))
    .limit(QUERY_LIMIT);
  return rows.map(({ user, vet }) => ({
    id: user.id,
    name: user.name,
    email: user.email,
    phone: user.phone,
    specialty: vet.specialty,
    discount: vet.discount,
    active: yesNo(locale, user.active),
    created_at: user.createdAt,
  }));
}

async function managerRows({ db }: Deps, locale: Locale): Promise<Row[]> {
  const rows = await db
    .select({ user: users })
    .from(managers)
    .innerJoin(users, eq(users.id, managers.userId))
    .orderBy(asc(users.id))
    .limit(QUERY_LIMIT);
  return rows.map(({ user }) => ({
    id: user.id,
    name: user.name,
    email: user.email,
    active: yesNo(locale, user.active),
    created_at: user.createdAt,
  }));
}

const LOADERS: Record<UserExport, (deps: Deps, locale: Locale) => Promise<Row[]>> = {
  customers: customerRows,
  vets: vetRows,
  managers: managerRows,
};

/** A user list as a localized workbook named `yyyymmddhhmmss-<list>.xlsx`. Authorization is the route's. */
export async function exportUsers(deps: Deps, list: UserExport, request: ExportRequest): Promise<ExportFile> {
  const { locale } = request;
  const rows = await LOADERS[list](deps, locale);
  const truncated = rows.length > MAX_EXPORT_ROWS;
  const buffer = await buildWorkbook({
    sheetName: translate(locale, `exports.sheets.${list}`),
    columns: COLUMNS[list].map((column) => ({
      ...column,
      header: translate(locale, `exports.columns.${column.key}`),
    })),
    rows: truncated ? rows.slice(0, MAX_EXPORT_ROWS) : rows,
    timeZone: request.timeZone,
  });
  return { fileName: exportFileName(translate(locale, `exports.files.${list}`), deps.clock.now()), buffer, truncated };
}
