// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import { useActorRef } from '@xstate/react';
import { describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import { useSettledSelector } from './settled-selector';

// A promise actor that fails must leave its screen on its failure, not throw it while rendering (which, with no
// error boundary, unmounted the whole portal: a blank page instead of the failure card and its retry).
const failing = fromPromise<string>(async () => {
  throw new Error('GET /public/users/u-1 failed: network');
});

function Screen() {
  const actor = useActorRef(failing);
  const status = useSettledSelector(actor, (s) => s.status);
  return <p data-testid="status">{status}</p>;
}

describe('useSettledSelector', () => {
  it('renders the failed state of an actor whose promise rejects', async () => {
    render(<Screen />);
    expect(await screen.findByText('error')).toBeTruthy();
  });
});
