import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { addPortugueseCatalogs, initTestI18n, withProviders } from '../../test/render';
import { fill } from '../../test/user-input';
import { DecimalInput, type DecimalValue } from './decimal-input';

/** A weight field as a form holds it, with the value it reports shown beside it and a button that sets it. */
function Weight({ initial = '' as DecimalValue }) {
  const [value, setValue] = useState<DecimalValue>(initial);
  return (
    <>
      <DecimalInput
        label="Weight"
        decimals={1}
        unit="kg"
        step={0.1}
        min={0}
        max={999}
        value={value}
        onChange={setValue}
      />
      <output>{JSON.stringify(value)}</output>
      <button type="button" onClick={() => setValue(12)}>
        Reset
      </button>
    </>
  );
}

const field = () => screen.getByRole('textbox', { name: 'Weight (kg)' });
const reported = () => JSON.parse(screen.getByRole('status').textContent ?? '') as unknown;

describe('DecimalInput', () => {
  beforeAll(async () => {
    await initTestI18n();
    addPortugueseCatalogs();
  });
  afterEach(async () => {
    await i18next.changeLanguage('en');
  });

  it('in Portuguese, reads 4.6 put in at once as 4.6 (not 46) and shows it as 4,6 once left, kg beside it', async () => {
    await i18next.changeLanguage('pt');
    render(withProviders(<Weight />));
    await fill(field(), '4.6');
    expect(reported()).toBe(4.6);
    expect(field()).toHaveProperty('value', '4.6');
    await userEvent.tab();
    expect(field()).toHaveProperty('value', '4,6');
    expect(screen.getByText('kg', { selector: '[aria-hidden]' })).toBeTruthy();
  });

  it('keeps the text as it is on entering, so a selection of all of it is replaced by what is typed', async () => {
    render(withProviders(<Weight initial={4.2} />));
    await userEvent.tab();
    expect(field()).toHaveProperty('selectionStart', 0);
    expect(field()).toHaveProperty('selectionEnd', 3);
    await userEvent.keyboard('4,8');
    expect(reported()).toBe(4.8);
  });

  it('keeps what it had when the text put in is not a number of one decimal at most', async () => {
    render(withProviders(<Weight initial={4.6} />));
    for (const text of ['1.234', '1.234,5', '4,6 kg', 'abc', '-3']) {
      await fill(field(), text);
      expect(field(), text).toHaveProperty('value', '4.6');
      expect(reported(), text).toBe(4.6);
    }
  });

  it('takes a separator with no digits after it yet, and reads it as the number before it', async () => {
    render(withProviders(<Weight />));
    await userEvent.type(field(), '4,');
    expect(field()).toHaveProperty('value', '4,');
    expect(reported()).toBe(4);
    await userEvent.tab();
    expect(field()).toHaveProperty('value', '4');
    await userEvent.clear(field());
    await userEvent.type(field(), ',');
    expect(reported()).toBe('');
  });

  it('steps with ArrowUp and ArrowDown within min and max', async () => {
    render(withProviders(<Weight initial={0.1} />));
    await userEvent.click(field());
    await userEvent.keyboard('{ArrowDown}{ArrowDown}');
    expect(reported()).toBe(0);
    await userEvent.keyboard('{ArrowUp}{ArrowUp}{ArrowUp}');
    expect(reported()).toBe(0.3);
    expect(field()).toHaveProperty('value', '0.3');
  });

  it('shows a value set from outside, and follows a change of language', async () => {
    render(withProviders(<Weight initial={4.6} />));
    expect(field()).toHaveProperty('value', '4.6');
    await userEvent.click(screen.getByRole('button', { name: 'Reset' }));
    expect(field()).toHaveProperty('value', '12');
    await userEvent.click(field());
    await userEvent.clear(field());
    await userEvent.type(field(), '7.5');
    await userEvent.tab();
    await i18next.changeLanguage('pt');
    expect(await screen.findByDisplayValue('7,5')).toBe(field());
  });
});
