import type { ReactNode } from 'react';
import { Box, Center, Container, Group, Paper, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Logo } from '../../components/ui/logo';
import { MAIN_CONTENT_ID, SkipLink } from '../../components/ui/skip-link';

/** A centred card for the screens used before or without logging in. */
export function PublicLayout({
  heading,
  children,
  width = 440,
}: {
  heading: string;
  children: ReactNode;
  width?: number;
}) {
  const { t } = useTranslation();
  return (
    <Box mih="100vh" bg="var(--mantine-color-gray-0)" py="xl">
      <SkipLink />
      <Container size={width} px="md">
        <Center component="header" mb="lg">
          <Group gap="xs">
            <Logo size={36} />
            <div>
              <Text fw={700} size="lg" lh={1.1}>
                {t('app.name')}
              </Text>
              <Text size="xs" c="dimmed">
                {t('app.tagline')}
              </Text>
            </div>
          </Group>
        </Center>
        <Paper component="main" id={MAIN_CONTENT_ID} tabIndex={-1} withBorder shadow="sm" p="xl" radius="md">
          <Title order={1} size="h2" mb="md">
            {heading}
          </Title>
          {children}
        </Paper>
      </Container>
    </Box>
  );
}
