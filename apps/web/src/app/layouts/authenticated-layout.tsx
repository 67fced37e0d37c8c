import type { ReactNode } from 'react';
import {
  AppShell,
  Avatar,
  Burger,
  Group,
  NavLink,
  ScrollArea,
  Stack,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { HOME_ROUTE_BY_TYPE } from '@vetcall/shared/roles';
import { Logo } from '../../components/ui/logo';
import { MAIN_CONTENT_ID, SkipLink } from '../../components/ui/skip-link';
import { useSession } from '../../lib/auth-store';
import { currentLocale } from '../../lib/i18n';
import { useLogout } from '../../features/auth/use-logout';
import { DATA_ROUTE_BY_TYPE, currentMode, visibleModes } from '../modes';

/**
 * The shell of logged-in screens (docs/product-rules.md#login-and-account Navbar): Start, My Data, Back,
 * Logout, the mode selector (vets, managers, and customers: booking and their own appointments), and who is
 * logged in.
 */
export function AuthenticatedLayout({ heading, children }: { heading: string; children: ReactNode }) {
  const { t } = useTranslation();
  const { user } = useSession();
  const [opened, { toggle, close }] = useDisclosure(false);
  const navigate = useNavigate();
  const location = useLocation();
  const [search] = useSearchParams();
  const logout = useLogout();

  if (!user) return null;
  const home = HOME_ROUTE_BY_TYPE[user.type];
  const onHome = location.pathname === home;
  const activeMode = onHome ? currentMode(user.type, search) : undefined;
  const modes = visibleModes(user.type);
  const dataLink = `${DATA_ROUTE_BY_TYPE[user.type]}?lang=${currentLocale()}&access=${user.type}`;

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 250, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <SkipLink />
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="xs" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={t('nav.open_menu')} />
            <UnstyledButton component={Link} to={home}>
              <Group gap={8} wrap="nowrap">
                <Logo size={30} />
                <Text fw={700}>{t('app.name')}</Text>
              </Group>
            </UnstyledButton>
          </Group>
          <Group gap="xs" wrap="nowrap">
            <Avatar size={30} radius="xl" color="teal" aria-hidden="true">
              {user.name.slice(0, 1).toUpperCase()}
            </Avatar>
            <Text size="sm" visibleFrom="xs">
              <span className="sr-only">{t('nav.signed_in_as', { name: '' })}</span>
              <span data-testid="session-user-name">{user.name}</span>
            </Text>
          </Group>
        </Group>
      </AppShell.Header>

      <AppShell.Navbar p="sm" aria-label={t('nav.main')} component="nav">
        <ScrollArea>
          <Stack gap={4}>
            <NavLink component={Link} to={home} label={t('nav.start')} active={onHome} onClick={close} />
            <NavLink
              component={Link}
              to={dataLink}
              label={t('nav.my_data')}
              active={location.pathname === DATA_ROUTE_BY_TYPE[user.type]}
              onClick={close}
            />
            <NavLink component="button" label={t('nav.back')} onClick={() => void navigate(-1)} />
            <NavLink component="button" label={t('nav.logout')} onClick={() => void logout()} />
          </Stack>
          {modes.length > 1 && (
            <Stack gap={4} mt="lg" role="group" aria-labelledby="modes-heading">
              <Text id="modes-heading" size="xs" fw={700} c="dimmed" tt="uppercase" px="sm">
                {t('nav.mode')}
              </Text>
              {modes.map((mode) => (
                <NavLink
                  key={mode}
                  component={Link}
                  to={`${home}?mode=${mode}`}
                  label={t(`modes.${user.type}.${mode}`)}
                  active={activeMode === mode}
                  aria-current={activeMode === mode ? 'page' : undefined}
                  onClick={close}
                />
              ))}
            </Stack>
          )}
        </ScrollArea>
      </AppShell.Navbar>

      <AppShell.Main id={MAIN_CONTENT_ID} tabIndex={-1}>
        <Title order={1} size="h2" mb="md">
          {heading}
        </Title>
        {children}
      </AppShell.Main>
    </AppShell>
  );
}
