// @vitest-environment jsdom
import { act, fireEvent, render, screen } from '@testing-library/react';
import { useRef, useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { useFocusKeptInScreen } from './frame';

/** A main area whose form is replaced by its result once sent, as SingleRegistration's is. */
function Screen() {
  const main = useRef<HTMLElement>(null);
  const [sent, setSent] = useState(false);
  useFocusKeptInScreen(main);
  return (
    <main ref={main} tabIndex={-1} data-testid="main">
      {sent ? (
        <p>Registered</p>
      ) : (
        <button type="button" onClick={() => setSent(true)}>
          Send
        </button>
      )}
      <button type="button">Stays</button>
    </main>
  );
}

describe('useFocusKeptInScreen', () => {
  it('gives the focus to the main area when the focused element goes, instead of the page itself', async () => {
    render(<Screen />);
    const send = screen.getByRole('button', { name: 'Send' });
    send.focus();
    await act(async () => fireEvent.click(send));
    expect(screen.getByText('Registered')).toBeInTheDocument();
    await vi.waitFor(() => expect(screen.getByTestId('main')).toHaveFocus());
  });

  it('leaves the focus alone when what changed was not the focused element', async () => {
    render(<Screen />);
    const stays = screen.getByRole('button', { name: 'Stays' });
    stays.focus();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Send' })));
    expect(screen.getByText('Registered')).toBeInTheDocument();
    expect(stays).toHaveFocus();
  });
});
