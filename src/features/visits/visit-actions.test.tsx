// @vitest-environment jsdom
import { act, fireEvent, render, screen } from '@testing-library/react';
import { IntlProvider } from 'react-intl';
import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { Visit } from '../../../contract/api/visits';
import { visitMachine } from '../../../machines/visit.machine';
import catalogue from '../../i18n/messages/es.json';
import { VisitActions } from './visit-actions';

const messages: Record<string, string> = catalogue;

const requested = {
  id: 'v-1',
  status: 'requested',
  expected_at: '2031-12-24T09:00:00Z',
  location: { alias: 'Sala Bilbao', timezone: 'Europe/Madrid' },
} as Visit;

/** A requested visit's actions, as the visitor sees them on VisitDetail, with the server's cancel faked. */
function visitorActions() {
  const cancelVisit = vi.fn(async () => ({ ...requested, status: 'cancelled' }) as Visit);
  const actor = createActor(
    visitMachine.provide({
      actors: { cancelVisit: fromPromise(cancelVisit), fetchVisit: fromPromise(async () => requested) },
    }),
    { input: { visitId: requested.id, visit: requested } },
  ).start();
  render(
    <IntlProvider locale="es" messages={messages}>
      <VisitActions actor={actor} reception={false} via="reception" />
    </IntlProvider>,
  );
  return { actor, cancelVisit };
}

describe('VisitActions: cancelling a visit', () => {
  it('asks in a dialog; Escape keeps the visit and gives the focus back to Cancel', async () => {
    const { actor, cancelVisit } = visitorActions();
    const cancel = screen.getByRole('button', { name: 'Cancelar visita' });
    cancel.focus();
    fireEvent.click(cancel);
    const dialog = await screen.findByRole('dialog', { name: '¿Cancelar esta visita?' });
    // The button that opened it stays where it was, for the focus to come back to.
    expect(cancel).toBeInTheDocument();
    expect(dialog.contains(document.activeElement)).toBe(true);
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    await vi.waitFor(() => expect(cancel).toHaveFocus());
    expect(cancelVisit).not.toHaveBeenCalled();
    expect(actor.getSnapshot().value).toBe('requested');
  });

  it('keeps the visit with "Mantenerla" and cancels it with "Sí, cancelarla"', async () => {
    const { actor, cancelVisit } = visitorActions();
    fireEvent.click(screen.getByRole('button', { name: 'Cancelar visita' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Mantenerla' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(cancelVisit).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Cancelar visita' }));
    await act(async () => {
      fireEvent.click(await screen.findByRole('button', { name: 'Sí, cancelarla' }));
    });
    expect(cancelVisit).toHaveBeenCalledOnce();
    await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('cancelled'));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
