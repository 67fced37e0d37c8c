import { useState } from 'react';
import { Button, Grid, Group, Stack, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CURRENCY, PRICE_STEP } from '@vetcall/shared/constants';
import type { Locale } from '@vetcall/shared/locales';
import { fieldErrorsFromIssues } from '@vetcall/shared/schemas/fields';
import { PRICE_MAX, type Product, productInputSchema, productPriceInputSchema } from '@vetcall/shared/schemas/product';
import { DataTable } from '../../components/ui/data-table';
import { DecimalInput, type DecimalValue } from '../../components/ui/decimal-input';
import { QueryContent } from '../../components/ui/query-content';
import { SectionPanel } from '../../components/ui/section-panel';
import { confirmDialog } from '../../lib/confirm';
import { actionErrorMessage, translateFieldError } from '../../lib/form-errors';
import { currentLocale } from '../../lib/i18n';
import { useBusyAction } from '../../lib/use-busy-action';
import { useCreateForm } from '../../lib/use-create-form';
import { changeProductPrice, createProduct, deleteProduct, useProducts } from './api/products';

/** docs/product-rules.md#limits display: the products table scrolls within 500 px. */
const TABLE_MAX_HEIGHT = 500;

function formatPrice(price: number, locale: Locale): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency: CURRENCY }).format(price);
}

/** The price field's value: a number, or '' while empty. */
type PriceValue = DecimalValue;

/** A price from the input, checked by the same rule as the server (≥ 0, two decimals at most). */
function checkedPrice(value: PriceValue): { price: number } | { error: string } {
  const parsed = productPriceInputSchema.safeParse({ price: typeof value === 'number' ? value : undefined });
  if (parsed.success) return { price: parsed.data.price };
  return { error: fieldErrorsFromIssues(parsed.error.issues).price ?? 'invalid_value' };
}

/**
 * Manager mode 'products' (docs/product-rules.md#manager-screens, #states Product row): id, designation and price; the
 * price is edited inline, saved, and the list reloads with a success or error toast (docs/product-rules.md#errors).
 * Also a small form for a new product and deletion after confirmation.
 */
export function ProductsPanel() {
  const { t } = useTranslation();
  const locale = currentLocale();
  const queryClient = useQueryClient();
  const products = useProducts(locale);
  const [editing, setEditing] = useState<{ productId: number; value: PriceValue; error?: string }>();

  const reload = () => queryClient.invalidateQueries({ queryKey: ['products'] });
  const { busy: busyId, run } = useBusyAction<number>(reload);

  function startEditing(product: Product) {
    setEditing({ productId: product.product_id, value: product.price });
  }

  async function savePrice(product: Product) {
    if (!editing || busyId !== undefined) return;
    const checked = checkedPrice(editing.value);
    if ('error' in checked) {
      setEditing({ ...editing, error: checked.error });
      return;
    }
    await run(
      product.product_id,
      async () => {
        await changeProductPrice(product.product_id, checked.price, locale);
        setEditing(undefined);
        return t('products.price_changed', { name: product.designation });
      },
      (error) => actionErrorMessage(t, error, 'errors.error_changing_product_price'),
    );
  }

  async function remove(product: Product) {
    const confirmed = await confirmDialog({
      title: t('products.delete_title'),
      message: t('products.delete_confirm', { name: product.designation }),
      confirmLabel: t('products.delete'),
      danger: true,
    });
    if (!confirmed) return;
    await run(
      product.product_id,
      async () => {
        await deleteProduct(product.product_id);
        if (editing?.productId === product.product_id) setEditing(undefined);
        return t('products.removed', { name: product.designation });
      },
      (error) => actionErrorMessage(t, error, 'errors.error_removing_product'),
    );
  }

  return (
    <Stack gap="lg">
      <SectionPanel headingId="products-heading" title={t('products.heading')}>
        <QueryContent query={products} errorKey="products.load_error" emptyKey="products.none">
          {(items) => (
            <DataTable
              label={t('products.table_label')}
              rows={items}
              rowKey={(product) => product.product_id}
              columns={[
                { header: t('products.id'), cell: (product) => product.product_id },
                { header: t('products.designation'), cell: (product) => product.designation, td: { fw: 600 } },
                {
                  header: t('products.price'),
                  cell: (product) =>
                    editing?.productId === product.product_id ? (
                      <DecimalInput
                        aria-label={t('products.price_of', { name: product.designation })}
                        value={editing.value}
                        onChange={(value) => setEditing({ productId: product.product_id, value })}
                        onKeyDown={(event) => {
                          if (event.key === 'Enter') void savePrice(product);
                          if (event.key === 'Escape') setEditing(undefined);
                        }}
                        error={translateFieldError(t, editing.error)}
                        min={0}
                        max={PRICE_MAX}
                        step={PRICE_STEP}
                        decimals={2}
                        fixedDecimals
                        unit={CURRENCY}
                        w={160}
                        size="xs"
                        autoFocus
                      />
                    ) : (
                      formatPrice(product.price, locale)
                    ),
                },
              ]}
              actions={{
                header: t('products.operations'),
                cell: (product) => {
                  const busy = busyId === product.product_id;
                  const name = product.designation;
                  return (
                    <>
                      {editing?.productId === product.product_id ? (
                        <>
                          <Button
                            size="xs"
                            onClick={() => void savePrice(product)}
                            loading={busy}
                            aria-label={t('products.save_named', { name })}
                          >
                            {t('common.save')}
                          </Button>
                          <Button
                            size="xs"
                            variant="default"
                            onClick={() => setEditing(undefined)}
                            disabled={busy}
                            aria-label={t('products.cancel_named', { name })}
                          >
                            {t('common.cancel')}
                          </Button>
                        </>
                      ) : (
                        <Button
                          size="xs"
                          variant="light"
                          onClick={() => startEditing(product)}
                          disabled={busyId !== undefined}
                          aria-label={t('products.edit_price_named', { name })}
                        >
                          {t('products.edit_price')}
                        </Button>
                      )}
                      <Button
                        size="xs"
                        variant="light"
                        color="red"
                        onClick={() => void remove(product)}
                        disabled={busyId !== undefined}
                        aria-label={t('products.delete_named', { name })}
                      >
                        {t('products.delete')}
                      </Button>
                    </>
                  );
                },
              }}
              minWidth={560}
              maxHeight={TABLE_MAX_HEIGHT}
              highlightOnHover
              stickyHeader
            />
          )}
        </QueryContent>
      </SectionPanel>
      <NewProductForm locale={locale} onCreated={reload} />
    </Stack>
  );
}

type NewProductValues = {
  designation: { en: string; pt: string; 'pt-BR': string };
  price: PriceValue;
};

const emptyProduct = (): NewProductValues => ({ designation: { en: '', pt: '', 'pt-BR': '' }, price: '' });

/** A new product: the designation in the three interface languages and a price in EUR. */
function NewProductForm({ locale, onCreated }: { locale: Locale; onCreated: () => Promise<unknown> }) {
  const { t } = useTranslation();
  const { form, saving, onSubmit } = useCreateForm({
    empty: emptyProduct,
    parse: (values) =>
      productInputSchema.safeParse({
        designation: values.designation,
        price: typeof values.price === 'number' ? values.price : undefined,
      }),
    create: (input) => createProduct(input, locale),
    createdMessage: (created) => t('products.created', { name: created.designation }),
    errorMessage: (error) => actionErrorMessage(t, error, 'errors.error_creating_new_product'),
    onCreated,
  });
  const field = (path: string) => {
    const props = form.getInputProps(path);
    return { ...props, error: translateFieldError(t, props.error) };
  };

  return (
    <SectionPanel headingId="new-product-heading" title={t('products.new_heading')}>
      <form noValidate onSubmit={onSubmit}>
        <Grid gap="md">
          <Grid.Col span={{ base: 12, sm: 6, lg: 3 }}>
            <TextInput label={t('products.designation_en')} required {...field('designation.en')} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6, lg: 3 }}>
            <TextInput label={t('products.designation_pt')} required {...field('designation.pt')} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6, lg: 3 }}>
            <TextInput label={t('products.designation_pt_BR')} required {...field('designation.pt-BR')} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6, lg: 3 }}>
            <DecimalInput
              label={t('products.price_eur')}
              required
              min={0}
              max={PRICE_MAX}
              step={PRICE_STEP}
              decimals={2}
              fixedDecimals
              {...field('price')}
            />
          </Grid.Col>
        </Grid>
        <Group justify="flex-end" mt="md">
          <Button type="submit" loading={saving}>
            {t('products.create')}
          </Button>
        </Group>
      </form>
    </SectionPanel>
  );
}
