// @vitest-environment jsdom
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Markdown, parseBlocks, safeHref } from './markdown';

describe('Markdown (terms of use)', () => {
  it('renders headings, paragraphs, lists and emphasis', () => {
    const { container } = render(
      <Markdown source={'# Terms\n\nFirst **bold** and *soft*.\n\n- one\n- two\n\n1. a\n2. b'} />,
    );
    expect(container.querySelector('h2')?.textContent).toBe('Terms');
    expect(container.querySelector('strong')?.textContent).toBe('bold');
    expect(container.querySelector('em')?.textContent).toBe('soft');
    expect(container.querySelectorAll('ul li')).toHaveLength(2);
    expect(container.querySelectorAll('ol li')).toHaveLength(2);
  });

  it('keeps raw HTML as text: no element, attribute or script reaches the page', () => {
    const hostile =
      '<img src=x onerror="alert(1)"><script>alert(2)</script> <a href="javascript:alert(3)">x</a>';
    const { container } = render(<Markdown source={hostile} />);
    expect(container.querySelector('img, script, iframe')).toBeNull();
    expect(container.querySelector('a')).toBeNull();
    expect(container.textContent).toContain('<script>alert(2)</script>');
  });

  it.each([
    'javascript:alert(1)',
    'JAVASCRIPT:alert(1)',
    'data:text/html,<b>x</b>',
    '//evil.example',
    'vbscript:x',
    '/\\evil',
  ])('does not link to %s', (url) => {
    expect(safeHref(url)).toBeUndefined();
    const { container } = render(<Markdown source={`[click](${url})`} />);
    expect(container.querySelector('a')).toBeNull();
  });

  it('links to http(s), mailto and paths of this site', () => {
    expect(safeHref('https://example.org/privacy')).toBe('https://example.org/privacy');
    expect(safeHref('mailto:dpo@example.org')).toBe('mailto:dpo@example.org');
    expect(safeHref('/tenants/gambling/privacy')).toBe('/tenants/gambling/privacy');
    const { container } = render(<Markdown source="[privacy](https://example.org/p)" />);
    expect(container.querySelector('a')?.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('starts a new list when the kind of list changes', () => {
    expect(parseBlocks('- a\n1. b').map((b) => b.kind)).toEqual(['list', 'list']);
  });
});
