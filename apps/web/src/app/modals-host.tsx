import { useEffect } from 'react';
import { ModalsProvider } from '@mantine/modals';
import { modalsHostListening } from '../lib/modals-host';
import './all-styles';

/** Mantine's dialog host, alone: lib/confirm.tsx opens its dialogs through window events, not through context. */
export function ModalsHost() {
  // The provider subscribes to the dialog events in a layout effect, which runs before this effect.
  useEffect(modalsHostListening, []);
  return <ModalsProvider />;
}
