import { type CSSVariablesResolver, type MantineColorsTuple, createTheme } from '@mantine/core';

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

export const theme = createTheme({
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
