import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

/** Writes into a field: cleared, then pasted (each key press re-renders a Mantine form, which is slow in jsdom). */
export async function write(field: HTMLElement, text: string) {
  await userEvent.clear(field);
  await userEvent.paste(text);
}

/**
 * Puts the whole text into a focused field in one input event, as browser autofill, a phone keyboard's suggestion,
 * dictation or Playwright's fill do, rather than key by key.
 */
export async function fill(field: HTMLElement, text: string) {
  await userEvent.click(field);
  fireEvent.input(field, { target: { value: text } });
}

/** Writes a date into a date field as it is shown to the reader, then leaves the field. */
export async function writeDate(field: HTMLElement, shown: string) {
  await write(field, shown);
  await userEvent.tab();
}

/**
 * Picks an option of a Mantine Select as a person does: open the list, click the option. jsdom has no
 * layout, so floating lists count as hidden: `hidden: true` finds what a person sees.
 */
export async function chooseOption(select: HTMLElement, option: string) {
  await userEvent.click(select);
  await userEvent.click(await screen.findByRole('option', { name: option, hidden: true }));
}
