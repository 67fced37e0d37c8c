import { useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Grid,
  Group,
  Loader,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { DateInput } from '@mantine/dates';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { todayKey } from '@vetcall/shared/dates';
import { ACCESS_CODE_MAX, type AccessCode, accessCodeInputSchema } from '@vetcall/shared/schemas/access-code';
import { fieldErrorsFromIssues } from '@vetcall/shared/schemas/fields';
import { ApiError } from '../../lib/api-client';
import { actionErrorMessage, apiErrorMessage, translateFieldError } from '../../lib/form-errors';
import { formatDateKey } from '../../lib/format';
import { currentLocale } from '../../lib/i18n';
import { notifyError, notifySuccess } from '../../lib/notify';
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
 * Manager mode 'appointments_access_codes' (SPEC §2.12): valid from, valid to, code, included
 * appointments (Free or Normal) and status; codes are created here and disabled or enabled again.
 */
export function AccessCodesPanel() {
  const { t } = useTranslation();
  const locale = currentLocale();
  const queryClient = useQueryClient();
  const codes = useAccessCodes();
  const [busyId, setBusyId] = useState<number>();
  const today = todayKey(new Date(), Intl.DateTimeFormat().resolvedOptions().timeZone);

  const reload = () => queryClient.invalidateQueries({ queryKey: accessCodesQueryKey });

  async function toggle(code: AccessCode) {
    const enable = code.disabled;
    setBusyId(code.access_code_id);
    try {
      await setAccessCodeEnabled(code.access_code_id, enable);
      notifySuccess(t(enable ? 'access_codes.enabled' : 'access_codes.disabled', { code: code.code }));
    } catch (error) {
      notifyError(actionErrorMessage(t, error, 'access_codes.toggle_error'));
    } finally {
      setBusyId(undefined);
      await reload();
    }
  }

  return (
    <Stack gap="lg">
      <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="access-codes-heading">
        <Title order={2} size="h3" id="access-codes-heading" mb="md">
          {t('access_codes.heading')}
        </Title>
        {codes.isPending ? (
          <Loader aria-label={t('app.loading')} />
        ) : codes.isError ? (
          <Alert color="red" role="alert">
            {apiErrorMessage(t, codes.error, 'access_codes.load_error')}
          </Alert>
        ) : codes.data.length === 0 ? (
          <Text c="dimmed">{t('access_codes.none')}</Text>
        ) : (
          <Table.ScrollContainer minWidth={640} maxHeight={TABLE_MAX_HEIGHT}>
            <Table striped highlightOnHover stickyHeader aria-label={t('access_codes.table_label')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('access_codes.valid_from')}</Table.Th>
                  <Table.Th>{t('access_codes.valid_to')}</Table.Th>
                  <Table.Th>{t('access_codes.code')}</Table.Th>
                  <Table.Th>{t('access_codes.included')}</Table.Th>
                  <Table.Th>{t('access_codes.status')}</Table.Th>
                  <Table.Th>{t('access_codes.operations')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {codes.data.map((code) => {
                  const status = statusOf(code, today);
                  return (
                    <Table.Tr key={code.access_code_id}>
                      <Table.Td>{formatDateKey(code.valid_from, locale)}</Table.Td>
                      <Table.Td>{formatDateKey(code.valid_to, locale)}</Table.Td>
                      <Table.Td fw={600} ff="monospace">
                        {code.code}
                      </Table.Td>
                      <Table.Td>
                        {code.included ? t('access_codes.included_free') : t('access_codes.included_normal')}
                      </Table.Td>
                      <Table.Td>
                        <Badge color={STATUS_COLOR[status]} variant="dot">
                          {t(`access_codes.status_${status}`)}
                        </Badge>
                      </Table.Td>
                      <Table.Td>
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
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Paper>
      <NewAccessCodeForm onCreated={reload} />
    </Stack>
  );
}

interface NewCodeValues {
  code: string;
  valid_from: string;
  valid_to: string;
  included: boolean;
}

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
  const form = useForm<NewCodeValues>({ initialValues: emptyCode() });
  const [saving, setSaving] = useState(false);
  const field = (path: keyof NewCodeValues) => {
    const props = form.getInputProps(path);
    return { ...props, error: fieldMessage(t, path, props.error) };
  };

  async function submit(values: NewCodeValues) {
    const parsed = accessCodeInputSchema.safeParse(values);
    if (!parsed.success) {
      form.setErrors(fieldErrorsFromIssues(parsed.error.issues));
      return;
    }
    setSaving(true);
    try {
      const created = await createAccessCode(parsed.data);
      notifySuccess(t('access_codes.created', { code: created.code }));
      form.setValues(emptyCode());
      form.resetDirty(emptyCode());
      await onCreated();
    } catch (error) {
      if (error instanceof ApiError) form.setErrors(error.fields);
      notifyError(
        error instanceof ApiError && error.code === 'access_code_exists'
          ? t('errors.access_code_exists')
          : actionErrorMessage(t, error, 'access_codes.create_error'),
      );
    } finally {
      setSaving(false);
    }
  }

  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="new-access-code-heading">
      <Title order={2} size="h3" id="new-access-code-heading" mb="md">
        {t('access_codes.new_heading')}
      </Title>
      <form noValidate onSubmit={form.onSubmit((values) => void submit(values))}>
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
    </Paper>
  );
}
