// @vitest-environment jsdom
import { render, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { createActor, createMachine } from 'xstate';
import { activeScreen, useScreenMirror } from './screen-mirror';

const flow = createMachine({
  id: 'flow',
  initial: 'intro',
  states: {
    intro: { meta: { screen: 'PrivacyOnboarding' }, on: { next: 'documents' } },
    documents: {
      meta: { screen: 'RegisterDocuments' },
      initial: 'choosing',
      states: { choosing: {}, scanning: { meta: { screen: 'DocumentScan' } } },
      on: { scan: '.scanning', done: 'finished' },
    },
    finished: { meta: { screen: 'FinishRegisterWithQr' } },
  },
});

describe('screen mirror', () => {
  it('takes the screen of the deepest active state', () => {
    const actor = createActor(flow).start();
    actor.send({ type: 'next' });
    expect(activeScreen(actor.getSnapshot())).toBe('RegisterDocuments');
    actor.send({ type: 'scan' });
    expect(activeScreen(actor.getSnapshot())).toBe('DocumentScan');
  });

  it('moves the URL when the machine moves to another screen', async () => {
    const actor = createActor(flow).start();
    const location = memoryLocation({ path: '/', record: true });
    function Mirror() {
      useScreenMirror(actor, () => ({ userId: 'u1', qrId: 'q1' }));
      return null;
    }
    render(
      <Router hook={location.hook}>
        <Mirror />
      </Router>,
    );
    await waitFor(() => expect(location.history.at(-1)).toBe('/privacy-onboarding'));
    actor.send({ type: 'next' });
    await waitFor(() => expect(location.history.at(-1)).toBe('/register-documents'));
    actor.send({ type: 'done' });
    await waitFor(() => expect(location.history.at(-1)).toBe('/finish-register/u1/q1'));
  });
});
