import { Badge, Button, Checkbox, Grid, Group, Stack, TextInput } from '@mantine/core';
import { DateInput } from '@mantine/dates';
import { useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { todayKey } from '@vetcall/shared/dates';
import { ACCESS_CODE_MAX, type AccessCode, accessCodeInputSchema } from '@vetcall/shared/schemas/access-code';
import { DataTable } from '../../components/ui/data-table';
import { QueryContent } from '../../components/ui/query-content';
import { SectionPanel } from '../../components/ui/section-panel';
import { ApiError } from '../../lib/api-client';
import { actionErrorMessage, translateFieldError } from '../../lib/form-errors';
import { formatDateKey } from '../../lib/format';
import { currentLocale } from '../../lib/i18n';
import { useBusyAction } from '../../lib/use-busy-action';
import { useCreateForm } from '../../lib/use-create-form';
import { accessCodesQueryKey, createAccessCode, setAccessCodeEnabled, useAccessCodes } from './api/access-codes';

const TABLE_MAX_HEIGHT = 500;

type CodeStatus = 'active' | 'disabled' | 'upcoming' | 'expired';

/** The status shown to the manager, by the viewer's own date. */
function statusOf(code: AccessCode, today: string): CodeStatus {
  if (code.disabled) return 'disabled';
  if (today < code.valid_from) return 'upcoming';
  if (today > code.valid_to) return 'expired';
  return 'active';
}

const STATUS_COLOR: Record<CodeStatus, string> = {
  active: 'teal',
  disabled: 'gray',
  upcoming: 'blue',
  expired: 'orange',
};

/**
 * Manager mode 'appointments_access_codes' (docs/product-rules.md#manager-screens): valid from, valid to, code,
 * included appointments (Free or Normal) and status; codes are created here and disabled or enabled again.
 */
export function AccessCodesPanel() {
  const { t } = useTranslation();
  const locale = currentLocale();
  const queryClient = useQueryClient();
  const codes = useAccessCodes();
  const today = todayKey(new Date(), Intl.DateTimeFormat().resolvedOptions().timeZone);

  const reload = () => queryClient.invalidateQueries({ queryKey: accessCodesQueryKey });
  const { busy: busyId, run } = useBusyAction<number>(reload);

  function toggle(code: AccessCode) {
    const enable = code.disabled;
    return run(
      code.access_code_id,
      async () => {
        await setAccessCodeEnabled(code.access_code_id, enable);
        return t(enable ? 'access_codes.enabled' : 'access_codes.disabled', { code: code.code });
      },
      (error) => actionErrorMessage(t, error, 'access_codes.toggle_error'),
    );
  }

  return (
    <Stack gap="lg">
      <SectionPanel headingId="access-codes-heading" title={t('access_codes.heading')}>
        <QueryContent query={codes} errorKey="access_codes.load_error" emptyKey="access_codes.none">
          {(items) => (
            <DataTable
              label={t('access_codes.table_label')}
              rows={items}
              rowKey={(code) => code.access_code_id}
              columns={[
                { header: t('access_codes.valid_from'), cell: (code) => formatDateKey(code.valid_from, locale) },
                { header: t('access_codes.valid_to'), cell: (code) => formatDateKey(code.valid_to, locale) },
                { header: t('access_codes.code'), cell: (code) => code.code, td: { fw: 600, ff: 'monospace' } },
                {
                  header: t('access_codes.included'),
                  cell: (code) => (code.included ? t('access_codes.included_free') : t('access_codes.included_normal')),
                },
                {
                  header: t('access_codes.status'),
                  cell: (code) => {
                    const status = statusOf(code, today);
                    return (
                      <Badge color={STATUS_COLOR[status]} variant="dot">
                        {t(`access_codes.status_${status}`)}
                      </Badge>
                    );
                  },
                },
              ]}
              actions={{
                header: t('access_codes.operations'),
                cell: (code) => (
                  <Button
                    size="xs"
                    variant="light"
                    color={code.disabled ? 'teal' : 'red'}
                    onClick={() => void toggle(code)}
                    loading={busyId === code.access_code_id}
                    disabled={busyId !== undefined && busyId !== code.access_code_id}
                    aria-label={t(code.disabled ? 'access_codes.enable_named' : 'access_codes.disable_named', {
                      code: code.code,
                    })}
                  >
                    {code.disabled ? t('access_codes.enable') : t('access_codes.disable')}
                  </Button>
                ),
              }}
              minWidth={640}
              maxHeight={TABLE_MAX_HEIGHT}
              highlightOnHover
              stickyHeader
            />
          )}
        </QueryContent>
      </SectionPanel>
      <NewAccessCodeForm onCreated={reload} />
    </Stack>
  );
}

type NewCodeValues = {
  code: string;
  valid_from: string;
  valid_to: string;
  included: boolean;
};

const emptyCode = (): NewCodeValues => ({ code: '', valid_from: '', valid_to: '', included: false });

/** Field codes with a message more precise than the generic one. */
function fieldMessage(t: TFunction, path: string, error: unknown): string | undefined {
  if (path === 'code' && error === 'taken') return t('errors.access_code_exists');
  if (path === 'valid_to' && error === 'invalid_value') return t('access_codes.dates_order');
  if (path === 'code' && error === 'invalid_format') return t('access_codes.code_hint');
  return translateFieldError(t, error);
}

function NewAccessCodeForm({ onCreated }: { onCreated: () => Promise<unknown> }) {
  const { t } = useTranslation();
  const { form, saving, onSubmit } = useCreateForm({
    empty: emptyCode,
    parse: (values) => accessCodeInputSchema.safeParse(values),
    create: createAccessCode,
    createdMessage: (created) => t('access_codes.created', { code: created.code }),
    errorMessage: (error) =>
      error instanceof ApiError && error.code === 'access_code_exists'
        ? t('errors.access_code_exists')
        : actionErrorMessage(t, error, 'access_codes.create_error'),
    onCreated,
  });
  const field = (path: keyof NewCodeValues) => {
    const props = form.getInputProps(path);
    return { ...props, error: fieldMessage(t, path, props.error) };
  };

  return (
    <SectionPanel headingId="new-access-code-heading" title={t('access_codes.new_heading')}>
      <form noValidate onSubmit={onSubmit}>
        <Grid gap="md" align="flex-end">
          <Grid.Col span={{ base: 12, sm: 6, lg: 3 }}>
            <TextInput
              label={t('access_codes.code')}
              description={t('access_codes.code_hint')}
              required
              maxLength={ACCESS_CODE_MAX}
              autoCapitalize="characters"
              spellCheck={false}
              {...field('code')}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6, lg: 3 }}>
            <DateInput label={t('access_codes.valid_from')} required {...field('valid_from')} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6, lg: 3 }}>
            <DateInput label={t('access_codes.valid_to')} required {...field('valid_to')} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6, lg: 3 }}>
            <Checkbox
              label={t('access_codes.included_checkbox')}
              {...form.getInputProps('included', { type: 'checkbox' })}
            />
          </Grid.Col>
        </Grid>
        <Group justify="flex-end" mt="md">
          <Button type="submit" loading={saving}>
            {t('access_codes.create')}
          </Button>
        </Group>
      </form>
    </SectionPanel>
  );
}
