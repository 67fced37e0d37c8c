import type { Page } from '@playwright/test';
import { catalog } from '../support/catalog';
import { expect, expectAccessible, shownDate, test, typeDate } from '../support/fixtures';

/** The visible texts of the journey in each language it runs in. */
const TEXTS = {
  en: {
    name: 'Name',
    email: 'Email',
    phone: 'Phone',
    taxId: 'VAT number',
    postalCode: 'Postal code',
    city: 'City',
    state: 'State / district',
    address: 'Address',
    password: 'Password',
    confirmation: 'Confirm password',
    createAccount: 'Create account',
    created: 'Your account was created. You can log in now.',
    logIn: 'Log in',
    myData: 'My Data',
    addPet: 'Add pet',
    species: 'Species',
    dog: 'Dog',
    cat: 'Cat',
    breed: 'Breed',
    gender: 'Gender',
    male: 'Male',
    female: 'Female',
    fertile: 'Fertile status',
    neutered: 'Neutered',
    intact: 'Intact',
    birth: 'Birth date',
    january: 'Jan',
    birthDay: '15 January 2020',
    weight: 'Weight',
    apply: 'Apply',
    save: 'Save',
    delete: 'Delete',
    saved: 'Customer data edited.',
    record: 'Record of',
    removeConfirm: 'Delete',
    age: '6 years and 10 months',
    decimal: '.',
    edit: 'Edit',
    dataHeading: 'My data',
    petAdded: '2 pets added.',
    labrador: 'Labrador Retriever',
    persian: 'Persian',
    invalidPostal: 'Invalid postal code.',
  },
  pt: {
    name: 'Nome',
    email: 'Email',
    phone: 'Telefone',
    taxId: 'NIF',
    postalCode: 'Código postal',
    city: 'Localidade',
    state: 'Distrito',
    address: 'Morada',
    password: 'Palavra-passe',
    confirmation: 'Confirmar palavra-passe',
    createAccount: 'Criar conta',
    created: 'A sua conta foi criada. Já pode iniciar sessão.',
    logIn: 'Iniciar sessão',
    myData: 'Os meus dados',
    addPet: 'Adicionar animal',
    species: 'Espécie',
    dog: 'Cão',
    cat: 'Gato',
    breed: 'Raça',
    gender: 'Sexo',
    male: 'Macho',
    female: 'Fêmea',
    fertile: 'Estado reprodutivo',
    neutered: 'Castrado',
    intact: 'Inteira',
    birth: 'Data de nascimento',
    january: 'jan',
    birthDay: '15 janeiro 2020',
    weight: 'Peso',
    apply: 'Aplicar',
    save: 'Guardar',
    delete: 'Remover',
    saved: 'Dados do cliente alterados.',
    record: 'Ficha de',
    removeConfirm: 'Remover',
    age: '6 anos e 10 meses',
    decimal: ',',
    edit: 'Editar',
    dataHeading: 'Os meus dados',
    petAdded: '2 animais adicionados.',
    labrador: 'Labrador Retriever',
    persian: 'Persa',
    invalidPostal: 'Código postal inválido.',
  },
} as const;

async function choose(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

for (const lang of ['en', 'pt'] as const) {
  test(`a new customer registers, then adds, edits and removes pets (${lang})`, async ({ page }) => {
    // The age shown depends on today; the birth date is chosen relative to it.
    await page.clock.setFixedTime(new Date('2026-11-21T12:00:00Z'));
    const text = TEXTS[lang];
    // Page titles follow the language (SPEC §2.1's are the English ones).
    const { t } = catalog(lang);
    const email = `new-${lang}-${Date.now()}@example.test`;

    await page.goto(`/registration?lang=${lang}`);
    await expect(page).toHaveTitle(t('page_titles.registration'));
    await page.getByLabel(new RegExp(`^${text.name}`)).fill('Carla Mendes');
    await page.getByLabel(new RegExp(`^${text.email}`)).fill(email);
    await page.getByLabel(new RegExp(`^${text.phone}`)).fill('912 000 111');
    await page.getByLabel(new RegExp(`^${text.taxId}`)).fill('245678901');

    // An invalid code: message on the city field, state and address cleared (docs/product-rules.md#validation).
    await page.getByLabel(new RegExp(`^${text.postalCode}`)).fill('9999-999');
    await page.getByLabel(new RegExp(`^${text.postalCode}`)).blur();
    await expect(page.getByText(text.invalidPostal).first()).toBeVisible();

    // A valid Portuguese code fills city, state and address from the provider.
    await page.getByLabel(new RegExp(`^${text.postalCode}`)).fill('1000-001');
    await expect(page.getByLabel(new RegExp(`^${text.city}`))).toHaveValue('Lisboa');
    await expect(page.getByLabel(new RegExp(`^${text.state}`))).toHaveValue('Lisboa');
    await expect(page.getByLabel(new RegExp(`^${text.address}`))).toHaveValue('Rua dos Açores');
    await page.getByLabel(new RegExp(`^${text.password}`)).fill('my-secret-1');
    await page.getByLabel(new RegExp(`^${text.confirmation}`)).fill('my-secret-1');
    await expectAccessible(page);
    await page.getByRole('button', { name: text.createAccount }).click();
    await expect(page.getByText(text.created)).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('button', { name: text.logIn })).toBeVisible();

    await page.getByLabel(new RegExp(`^${text.email}`)).fill(email);
    await page.getByLabel(new RegExp(`^${text.password}`)).fill('my-secret-1');
    await page.getByRole('button', { name: text.logIn }).click();
    await expect(page).toHaveURL(/\/customer$/);
    await page.getByRole('navigation').getByRole('link', { name: text.myData }).click();
    await expect(page).toHaveTitle(t('page_titles.customer_data'));

    // No pets yet: editing mode with the add-pet form already open.
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    await dialog.getByLabel(new RegExp(`^${text.name}`)).fill('Trovão');
    await choose(page, text.species, text.dog);
    await page.getByRole('combobox', { name: text.breed }).fill('Labr');
    await page.getByRole('option', { name: text.labrador }).click();
    await choose(page, text.gender, text.male);
    await choose(page, text.fertile, text.neutered);
    // Picked in the calendar: from this month up to the years, then down to the day.
    const birth = dialog.getByLabel(new RegExp(`^${text.birth}`));
    await birth.click();
    // The calendar's header names what it shows: this month and year, then the year.
    await page.getByRole('button', { name: /^\p{L}+ \d{4}$/u }).click();
    await page.getByRole('button', { name: /^\d{4}$/ }).click();
    await page.getByRole('button', { name: '2020', exact: true }).click();
    await page.getByRole('button', { name: text.january, exact: true }).click();
    await page.getByRole('button', { name: text.birthDay }).click();
    await expect(birth).toHaveValue(shownDate('2020-01-15', lang));
    await dialog.getByLabel(new RegExp(`^${text.weight}`)).fill(`31${text.decimal}4`);
    await expectAccessible(page);
    await dialog.getByRole('button', { name: text.addPet }).click();
    await expect(dialog).toBeHidden();

    await page.getByRole('button', { name: text.addPet }).click();
    await dialog.getByLabel(new RegExp(`^${text.name}`)).fill('Pérola');
    await choose(page, text.species, text.cat);
    await page.getByRole('combobox', { name: text.breed }).fill(text.persian.slice(0, 4));
    await page.getByRole('option', { name: text.persian, exact: true }).click();
    await choose(page, text.gender, text.female);
    await choose(page, text.fertile, text.intact);
    // Typed as the customer writes dates (a browser in English does not turn pt into mm/dd/yyyy).
    await typeDate(dialog.getByLabel(new RegExp(`^${text.birth}`)), '2020-01-20', lang);
    await dialog.getByLabel(new RegExp(`^${text.weight}`)).fill(`4${text.decimal}2`);
    await dialog.getByRole('button', { name: text.addPet }).click();
    await expect(dialog).toBeHidden();

    await page.getByRole('button', { name: text.save, exact: true }).click();
    await expect(page.getByText(text.saved)).toBeVisible();
    await expect(page.getByText(text.petAdded)).toBeVisible();
    const table = page.getByRole('table');
    await expect(table.getByRole('row', { name: /Trovão/ })).toContainText(text.labrador);
    await expect(table.getByRole('row', { name: /Pérola/ })).toContainText(text.persian);

    // Edit one: the cat's weight, written with the other language's separator, which is read as a decimal one too.
    await page.getByRole('button', { name: text.edit, exact: true }).click();
    await page.getByRole('button', { name: new RegExp(`${text.edit} Pérola`) }).click();
    await dialog.getByLabel(new RegExp(`^${text.weight}`)).fill(text.decimal === '.' ? '4,8' : '4.8');
    await dialog.getByRole('button', { name: text.apply }).click();
    // Delete one, after confirming.
    await page.getByRole('button', { name: new RegExp(`${text.delete} Trovão`) }).click();
    await page.getByRole('dialog').getByRole('button', { name: text.removeConfirm }).click();
    await page.getByRole('button', { name: text.save, exact: true }).click();
    await expect(page.getByText(text.saved).last()).toBeVisible();
    await expect(table.getByRole('row', { name: /Trovão/ })).toHaveCount(0);
    await expect(table.getByRole('row', { name: /Pérola/ })).toContainText(`4${text.decimal}8 kg`);

    // The record shows the computed age.
    await page.getByRole('button', { name: `${text.record} Pérola` }).click();
    await expect(page.getByRole('dialog')).toContainText(text.age);
    await expectAccessible(page);
  });
}
