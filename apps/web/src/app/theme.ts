import {
  type ComboboxProps,
  type CSSVariablesResolver,
  type LoaderProps,
  type MantineColorsTuple,
  type VariantColorsResolver,
  createTheme,
  darken,
  defaultVariantColorsResolver,
  parseThemeColor,
} from '@mantine/core';

/**
 * Colours chosen for WCAG AA contrast. `brand` is Mantine's cyan with its three darkest shades made
 * darker, so links (shade 8), buttons (shade 8) and their hover (shade 9) all keep at least 4.5:1
 * against white; the logo colour is shade 7. "Dimmed" text is one grey darker than Mantine's default, and errors
 * three reds darker.
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
 * Light buttons and badges draw their text in a mid shade by default, under 4.5:1 on their tinted background
 * (shade 1) and its hover (shade 2); shade 9 of the same colour, a fifth darker, keeps the look and passes
 * WCAG AA on both for every colour we use (teal, for one, is 4.3:1 at shade 9 alone).
 */
const variantColorResolver: VariantColorsResolver = (input) => {
  const defaults = defaultVariantColorsResolver(input);
  if (input.variant !== 'light') return defaults;
  const parsed = parseThemeColor({ color: input.color ?? input.theme.primaryColor, theme: input.theme });
  if (!parsed.isThemeColor || !parsed.color) return defaults;
  const text = darken(input.theme.colors[parsed.color]![9]!, 0.2);
  // A shade in the colour ('teal.9') would paint the background with it: light stays light here.
  return {
    ...defaults,
    background: `var(--mantine-color-${parsed.color}-light)`,
    hover: `var(--mantine-color-${parsed.color}-light-hover)`,
    color: text,
    hoverColor: text,
  };
};

export const theme = createTheme({
  variantColorResolver,
  colors: { brand },
  primaryColor: 'brand',
  primaryShade: { light: 8, dark: 6 },
  defaultRadius: 'md',
  focusRing: 'auto',
  // People who ask their system for less motion get none: dialogs, toasts and menus appear without sliding or fading.
  respectReducedMotion: true,
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontWeight: '650' },
  // Plain entries, not Combobox.extend(...): importing the component here would put the combobox and its
  // positioning code in the first chunk, which the login page loads (issue 16).
  components: {
    // A spinner is a plain span, which may not carry the "Loading…" name screens give it; as a status it may.
    Loader: { defaultProps: { role: 'status' } satisfies Partial<LoaderProps> },
    // A select's options open inside the field's landmark or dialog, not loose at the end of the page;
    // always below the field, since above it a dialog's scrolling box would cut them off.
    Combobox: {
      defaultProps: {
        withinPortal: false,
        middlewares: { flip: false, shift: true },
      } satisfies Partial<ComboboxProps>,
    },
  },
});

export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  // Mantine's error red (shade 6) is 3.3:1 on white; shade 9 is 5.6:1, for field errors and their text.
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
  },
  dark: {},
});
