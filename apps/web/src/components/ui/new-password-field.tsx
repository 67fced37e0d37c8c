import { useEffect, useState } from 'react';
import { Group, Progress, Stack, Text, type PasswordInputProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  isPasswordStrengthLoaded,
  loadPasswordStrength,
  MIN_PASSWORD_SCORE,
  passwordScore,
} from '@vetcall/shared/password-strength';
import { PasswordField } from './password-field';

const SCORE_COLORS = ['red', 'red', 'orange', 'teal', 'green'] as const;

/**
 * A field that sets a password, with a meter of how guessable it is: the same score the shared schema and the
 * server refuse below MIN_PASSWORD_SCORE. `userInputs` are the form's own email and name, which make a password
 * weaker. The dictionaries behind the score (over a megabyte, gzip) are fetched once the field is used, focused or
 * filled, so neither the login page nor a glance at a form with such a field pays for them (issue 16).
 */
export function NewPasswordField({
  userInputs = [],
  ...props
}: PasswordInputProps & { userInputs?: readonly string[] }) {
  const { t } = useTranslation();
  const [loaded, setLoaded] = useState(isPasswordStrengthLoaded);
  const [focused, setFocused] = useState(false);
  const password = typeof props.value === 'string' ? props.value : '';
  const used = focused || password !== '';
  useEffect(() => {
    if (used && !loaded) void loadPasswordStrength().then(() => setLoaded(true));
  }, [used, loaded]);
  const score = loaded && password !== '' ? passwordScore(password, userInputs) : undefined;

  return (
    <Stack gap={6}>
      <PasswordField
        autoComplete="new-password"
        {...props}
        onFocus={(event) => {
          setFocused(true);
          props.onFocus?.(event);
        }}
      />
      {score !== undefined && (
        <Group gap="xs" wrap="nowrap">
          <Progress.Root
            size="sm"
            flex={1}
            role="meter"
            aria-label={t('password_strength.label')}
            aria-valuemin={0}
            aria-valuemax={4}
            aria-valuenow={score}
            aria-valuetext={t(`password_strength.score_${score}`)}
          >
            <Progress.Section value={((score + 1) / 5) * 100} color={SCORE_COLORS[score]} withAria={false} />
          </Progress.Root>
          <Text size="xs" c={score < MIN_PASSWORD_SCORE ? 'red.9' : 'teal.9'} aria-live="polite">
            {t(`password_strength.score_${score}`)}
          </Text>
        </Group>
      )}
    </Stack>
  );
}
