import {
  type CSSVariablesResolver,
  type MantineColorsTuple,
  type VariantColorsResolver,
  createTheme,
  defaultVariantColorsResolver,
  parseThemeColor,
} from '@mantine/core';

/**
 * Colours chosen for WCAG AA contrast. `brand` is Mantine's cyan with its three darkest shades made
 * darker, so links (shade 8), buttons (shade 8) and their hover (shade 9) all keep at least 4.5:1
 * against white; the logo colour is shade 7. "Dimmed" text is one grey darker than Mantine's default.
 */
const brand: MantineColorsTuple = [
  '#e3fafc',
  '#c5f6fa',
  '#99e9f2',
  '#66d9e8',
  '#3bc9db',
  '#22b8cf',
  '#15aabf',
  '#0b7285',
  '#0a6678',
  '#085561',
];

/**
 * Light buttons and badges draw their text in a mid shade by default, under 4.5:1 on their tinted
 * background; shade 9 of the same colour keeps the look and passes WCAG AA.
 */
const variantColorResolver: VariantColorsResolver = (input) => {
  const defaults = defaultVariantColorsResolver(input);
  if (input.variant !== 'light') return defaults;
  const parsed = parseThemeColor({ color: input.color ?? input.theme.primaryColor, theme: input.theme });
  if (!parsed.isThemeColor) return defaults;
  const text = `var(--mantine-color-${parsed.color}-9)`;
  return { ...defaults, color: text, hoverColor: text };
};

export const theme = createTheme({
  variantColorResolver,
  colors: { brand },
  primaryColor: 'brand',
  primaryShade: { light: 8, dark: 6 },
  defaultRadius: 'md',
  focusRing: 'auto',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontWeight: '650' },
});

export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)' },
  dark: {},
});
