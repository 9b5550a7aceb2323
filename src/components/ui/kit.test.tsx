// @vitest-environment jsdom
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import axe from 'axe-core';
import type { ReactNode } from 'react';
import { IntlProvider } from 'react-intl';
import { describe, expect, it, vi } from 'vitest';
import catalogue from '../../i18n/messages/es.json';
import { ListScreen, type ListState } from '../list-screen';
import { Alert } from './alert';
import { Button } from './button';
import { ConfirmDialog } from './confirm-dialog';
import { Field } from './field';

const messages: Record<string, string> = catalogue;

const inSpanish = (ui: ReactNode) =>
  render(
    <IntlProvider locale="es" messages={messages}>
      {ui}
    </IntlProvider>,
  );

/** axe's violations in what was drawn (colour contrast needs a layout jsdom does not have). */
async function violations(root: Element = document.body) {
  const result = await axe.run(root, { rules: { 'color-contrast': { enabled: false } } });
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html).join(' | ')}`);
}

describe('Button', () => {
  it('while loading is disabled and busy, and keeps its own words as its name', async () => {
    const onClick = vi.fn();
    inSpanish(
      <Button loading onClick={onClick}>
        Guardar
      </Button>,
    );
    const button = screen.getByRole('button', { name: 'Guardar' });
    expect(button).toBeDisabled();
    expect(button).toHaveAttribute('aria-busy', 'true');
    // The spinner is a picture only: no nameless status inside the button.
    expect(within(button).queryByRole('status')).toBeNull();
    expect(button.querySelector('[data-slot="button-spinner"]')).not.toBeNull();
    fireEvent.click(button);
    expect(onClick).not.toHaveBeenCalled();
    expect(await violations()).toEqual([]);
  });

  it('when not loading works as before: enabled, not busy, no spinner', () => {
    const onClick = vi.fn();
    inSpanish(<Button onClick={onClick}>Guardar</Button>);
    const button = screen.getByRole('button', { name: 'Guardar' });
    expect(button).toBeEnabled();
    expect(button).not.toHaveAttribute('aria-busy');
    expect(button.querySelector('[data-slot="button-spinner"]')).toBeNull();
    fireEvent.click(button);
    expect(onClick).toHaveBeenCalledOnce();
  });

  it('stays disabled when asked, loading or not', () => {
    inSpanish(<Button disabled>Guardar</Button>);
    expect(screen.getByRole('button', { name: 'Guardar' })).toBeDisabled();
  });

  it('pressed from the keyboard, keeps the focus while its work runs, ignores presses and submits nothing', async () => {
    const onClick = vi.fn();
    const onSubmit = vi.fn((event: { preventDefault: () => void }) => event.preventDefault());
    const form = (loading: boolean) => (
      <IntlProvider locale="es" messages={messages}>
        <form onSubmit={onSubmit}>
          <Button type="submit" loading={loading} onClick={onClick}>
            Enviar
          </Button>
        </form>
      </IntlProvider>
    );
    const { rerender } = render(form(false));
    const button = screen.getByRole('button', { name: 'Enviar' });
    act(() => button.focus());
    rerender(form(true));
    expect(button).toHaveFocus();
    expect(button).not.toHaveAttribute('disabled');
    expect(button).toHaveAttribute('aria-disabled', 'true');
    expect(button).toHaveAttribute('aria-busy', 'true');
    fireEvent.click(button);
    expect(onClick).not.toHaveBeenCalled();
    expect(onSubmit).not.toHaveBeenCalled();
    expect(await violations()).toEqual([]);
    // Once the focus has gone elsewhere, it is disabled as any other; available again, it works.
    act(() => button.blur());
    expect(button).toBeDisabled();
    rerender(form(false));
    fireEvent.click(button);
    expect(onClick).toHaveBeenCalledOnce();
    expect(onSubmit).toHaveBeenCalledOnce();
  });
});

describe('Alert', () => {
  it('interrupts for an error or a warning, and waits its turn for news', () => {
    inSpanish(
      <>
        <Alert message="No se pudo guardar" data-testid="error" />
        <Alert tone="warning" message="No está" data-testid="warning" />
        <Alert tone="info" message="Hecho a medias" data-testid="info" />
        <Alert tone="success" message="Guardado" data-testid="success" />
      </>,
    );
    expect(screen.getByTestId('error')).toHaveAttribute('role', 'alert');
    expect(screen.getByTestId('warning')).toHaveAttribute('role', 'alert');
    expect(screen.getByTestId('info')).toHaveAttribute('role', 'status');
    expect(screen.getByTestId('success')).toHaveAttribute('role', 'status');
    expect(screen.getAllByRole('alert').map((a) => a.textContent)).toEqual(['No se pudo guardar', 'No está']);
  });

  it('never shows an empty box: a blank message becomes the catalogue’s unknown problem', () => {
    inSpanish(<Alert message="  " />);
    expect(screen.getByRole('alert')).toHaveTextContent(messages['common.errors.unknown'] as string);
    expect(messages['common.errors.unknown']).toBeTruthy();
  });

  it('shows its title, its message and what goes with it, and passes axe', async () => {
    inSpanish(
      <Alert title="No se pudo" message="El servidor no contesta">
        <Button>Reintentar</Button>
      </Alert>,
    );
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('No se pudo');
    expect(alert).toHaveTextContent('El servidor no contesta');
    expect(within(alert).getByRole('button', { name: 'Reintentar' })).toBeInTheDocument();
    expect(await violations()).toEqual([]);
  });
});

describe('ConfirmDialog', () => {
  const dialog = (props: Partial<Parameters<typeof ConfirmDialog>[0]> = {}) => {
    const onConfirm = vi.fn();
    const onCancel = vi.fn();
    inSpanish(
      <ConfirmDialog
        open
        heading="¿Borrar la cuenta?"
        description="No se puede deshacer."
        cancelLabel="Volver"
        confirmLabel="Borrar"
        onConfirm={onConfirm}
        onCancel={onCancel}
        data-testid="confirm"
        confirmTestId="confirm-yes"
        {...props}
      />,
    );
    return { onConfirm, onCancel };
  };

  it('is a dialog named by its heading and described by its text, and passes axe', async () => {
    dialog();
    const shown = screen.getByRole('dialog', { name: '¿Borrar la cuenta?' });
    expect(shown).toHaveAccessibleDescription('No se puede deshacer.');
    expect(shown).toHaveAttribute('data-testid', 'confirm');
    expect(screen.getByTestId('confirm-yes')).toHaveAccessibleName('Borrar');
    expect(await violations(shown)).toEqual([]);
  });

  it('confirms with its confirming button and cancels with the other one or Escape', () => {
    const { onConfirm, onCancel } = dialog();
    fireEvent.click(screen.getByRole('button', { name: 'Borrar' }));
    expect(onConfirm).toHaveBeenCalledOnce();
    expect(onCancel).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Volver' }));
    expect(onCancel).toHaveBeenCalledOnce();
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
    expect(onCancel).toHaveBeenCalledTimes(2);
    expect(onConfirm).toHaveBeenCalledOnce();
  });

  it('with its confirming button disabled, Enter in its field does not confirm either', () => {
    const { onConfirm } = dialog({
      confirmDisabled: true,
      children: <Field label="Nombre" defaultValue="" />,
    });
    expect(screen.getByRole('button', { name: 'Borrar' })).toBeDisabled();
    fireEvent.submit(screen.getByRole('textbox', { name: 'Nombre' }));
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('Enter in its field confirms once the button is enabled', () => {
    const { onConfirm } = dialog({ children: <Field label="Nombre" defaultValue="demo" /> });
    fireEvent.submit(screen.getByRole('textbox', { name: 'Nombre' }));
    expect(onConfirm).toHaveBeenCalledOnce();
  });

  it('draws nothing while closed', () => {
    dialog({ open: false });
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('ListScreen', () => {
  const list = (
    state: ListState,
    count: number,
    figures: { pageIndex?: number; pageSize?: number; totalIsLowerBound?: boolean } = {},
  ) => {
    const send = vi.fn();
    const items = Array.from({ length: count }, (_, i) => `Cuenta ${i + 1}`);
    const context = {
      items,
      totalItems: 25,
      pageIndex: figures.pageIndex ?? 0,
      pageSize: figures.pageSize ?? 10,
      totalIsLowerBound: figures.totalIsLowerBound ?? false,
    };
    // A screen sits inside the layout's main landmark.
    inSpanish(
      <main>
        <ListScreen
          screen="PortalAccounts"
          title="Cuentas"
          actions={<Button>Nueva</Button>}
          search={
            <form>
              <Field label="Buscar" type="search" />
            </form>
          }
          state={state}
          context={context}
          list={{ send }}
          loadingLabel="Cargando cuentas"
          failedId="accounts.failed"
          retryId="accounts.retry"
          emptyId="accounts.empty"
          emptyTestId="accounts-empty"
          pagerLabel="Páginas"
          summaryTestId="accounts-summary"
        >
          <ul data-testid="rows">
            {items.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        </ListScreen>
      </main>,
    );
    const sent = () => send.mock.calls.map(([event]) => event.type);
    return { sent };
  };

  it('names the screen, heads it with its title and puts the search in a search landmark', () => {
    list('ready', 10);
    expect(document.querySelector('[data-screen="PortalAccounts"]')).not.toBeNull();
    expect(screen.getByRole('heading', { level: 1, name: 'Cuentas' })).toBeInTheDocument();
    // jsdom's roles do not know <search> yet; browsers make it the search landmark.
    const search = document.querySelector('search');
    expect(search).not.toBeNull();
    expect(within(search as HTMLElement).getByRole('searchbox', { name: 'Buscar' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Nueva' })).toBeInTheDocument();
  });

  it('while loading says so, busy, with no rows and no pager', () => {
    list('loading', 0);
    expect(screen.getByRole('status')).toHaveTextContent('Cargando cuentas');
    expect(screen.getByRole('status').parentElement).toHaveAttribute('aria-busy', 'true');
    expect(screen.queryByTestId('rows')).toBeNull();
    expect(screen.queryByRole('navigation')).toBeNull();
  });

  it('when the list failed, alerts in words and retries', () => {
    const { sent } = list('failed', 0);
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent(messages['accounts.failed'] as string);
    fireEvent.click(within(alert).getByRole('button', { name: messages['accounts.retry'] }));
    expect(sent()).toEqual(['list.retry']);
    expect(screen.queryByTestId('rows')).toBeNull();
  });

  it('when nothing matches, says so and draws no pager', () => {
    list('ready', 0);
    expect(screen.getByTestId('accounts-empty')).toHaveTextContent(messages['accounts.empty'] as string);
    expect(screen.queryByTestId('rows')).toBeNull();
    expect(screen.queryByRole('navigation')).toBeNull();
  });

  it('shows the rows and the pager, which pages on', async () => {
    const { sent } = list('ready', 10, { pageIndex: 0 });
    expect(within(screen.getByTestId('rows')).getAllByRole('listitem')).toHaveLength(10);
    const pager = screen.getByRole('navigation', { name: 'Páginas' });
    expect(within(pager).getByTestId('accounts-summary')).toHaveTextContent('10 de 25 · página 1 de 3');
    expect(within(pager).getByRole('button', { name: messages['list.previous'] })).toBeDisabled();
    fireEvent.click(within(pager).getByRole('button', { name: messages['list.next'] }));
    expect(sent()).toEqual(['page.next']);
    expect(await violations()).toEqual([]);
  });

  it('on the last page cannot go on, and goes back', () => {
    const { sent } = list('ready', 5, { pageIndex: 2 });
    const pager = screen.getByRole('navigation', { name: 'Páginas' });
    expect(within(pager).getByRole('button', { name: messages['list.next'] })).toBeDisabled();
    fireEvent.click(within(pager).getByRole('button', { name: messages['list.previous'] }));
    expect(sent()).toEqual(['page.previous']);
  });

  it('past where the server stopped counting says "more than", and a full page may have a next', () => {
    list('ready', 10, { pageIndex: 3, totalIsLowerBound: true });
    const pager = screen.getByRole('navigation', { name: 'Páginas' });
    expect(within(pager).getByTestId('accounts-summary')).toHaveAttribute('data-lower-bound', 'true');
    expect(within(pager).getByTestId('accounts-summary')).toHaveTextContent('10 de más de 25 · página 4');
    expect(within(pager).getByRole('button', { name: messages['list.next'] })).toBeEnabled();
  });
});
