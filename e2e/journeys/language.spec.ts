import { expect, test } from '../support/fixtures';

test('?lang= switches the visible texts and the choice persists', async ({ page }) => {
  await page.goto('/?lang=en');
  await expect(page.getByRole('heading', { name: 'Welcome to VetCall' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');

  await page.goto('/?lang=pt');
  await expect(page.getByRole('heading', { name: 'Bem-vindo ao VetCall' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Iniciar sessão' })).toBeVisible();
  await expect(page.getByText('Recuperar palavra-passe')).toBeVisible();
  // The page title follows the language too (SPEC §2.1's titles are the English ones).
  await expect(page).toHaveTitle('Iniciar sessão');

  await page.goto('/?lang=pt-BR');
  await expect(page.getByRole('heading', { name: 'Boas-vindas ao VetCall' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Entrar' })).toBeVisible();

  // Without the parameter the last choice stays.
  await page.goto('/resetpassword');
  await expect(page.getByRole('heading', { name: 'Redefinir sua senha' })).toBeVisible();
  await expect(page).toHaveTitle('Redefinir senha');
});

test('the language switcher of the login screen changes the language in place', async ({ page }) => {
  await page.goto('/?lang=pt');
  await page.getByRole('combobox', { name: 'Idioma' }).selectOption({ label: 'English' });
  await expect(page.getByRole('heading', { name: 'Welcome to VetCall' })).toBeVisible();
});

test('default language is Portuguese on a first visit', async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Bem-vindo ao VetCall' })).toBeVisible();
  await context.close();
});

test('unknown paths get a not-found page', async ({ page }) => {
  await page.goto('/no/such/page?lang=en');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect(page).toHaveTitle('Page Not Found');
  await page.getByRole('link', { name: 'Go to the start page' }).click();
  await expect(page).toHaveTitle('Login');
});
