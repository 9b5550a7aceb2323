import { Fragment, type ReactNode } from 'react';

// Tenant markdown (terms of use) rendered as React elements, never as HTML: raw HTML in the source stays
// text, and links go only to http(s), mailto or a path of this site. That is the sanitising: there is no
// markup to sanitise. Supported: # headings, paragraphs, - and 1. lists, **bold**, *italic*, [links](url).

type Block =
  | { kind: 'heading'; level: 1 | 2 | 3; text: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'list'; ordered: boolean; items: string[] };

export function parseBlocks(source: string): Block[] {
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  let list: { ordered: boolean; items: string[] } | undefined;
  const flush = () => {
    if (paragraph.length) blocks.push({ kind: 'paragraph', text: paragraph.join(' ') });
    if (list) blocks.push({ kind: 'list', ...list });
    paragraph = [];
    list = undefined;
  };
  for (const raw of source.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.trim();
    const heading = /^(#{1,3})\s+(.*)$/.exec(line);
    const bullet = /^[-*]\s+(.*)$/.exec(line);
    const numbered = /^\d+[.)]\s+(.*)$/.exec(line);
    if (!line) {
      flush();
    } else if (heading) {
      flush();
      blocks.push({ kind: 'heading', level: (heading[1]?.length ?? 1) as 1 | 2 | 3, text: heading[2] ?? '' });
    } else if (bullet || numbered) {
      const ordered = Boolean(numbered);
      if (paragraph.length || (list && list.ordered !== ordered)) flush();
      list ??= { ordered, items: [] };
      list.items.push((bullet?.[1] ?? numbered?.[1] ?? '').trim());
    } else {
      if (list) flush();
      paragraph.push(line);
    }
  }
  flush();
  return blocks;
}

/** Only these link targets are followed; anything else (javascript:, data:, other schemes) stays text. */
export function safeHref(url: string): string | undefined {
  const trimmed = url.trim();
  if (/^(https?:|mailto:)/i.test(trimmed)) return trimmed;
  if (trimmed.startsWith('/') && !trimmed.startsWith('//') && !trimmed.includes('\\')) return trimmed;
  return undefined;
}

const INLINE = /\*\*(.+?)\*\*|\*(.+?)\*|\[([^\]]+)\]\(([^)\s]+)\)/g;

export function renderInline(text: string): ReactNode[] {
  const nodes: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(INLINE)) {
    const index = match.index ?? 0;
    if (index > last) nodes.push(text.slice(last, index));
    const [whole, bold, italic, label, url] = match;
    if (bold !== undefined) nodes.push(<strong key={index}>{renderInline(bold)}</strong>);
    else if (italic !== undefined) nodes.push(<em key={index}>{renderInline(italic)}</em>);
    else if (label !== undefined) {
      const href = safeHref(url ?? '');
      nodes.push(
        href ? (
          <a
            key={index}
            href={href}
            rel="noopener noreferrer"
            target={href.startsWith('/') ? undefined : '_blank'}
          >
            {label}
          </a>
        ) : (
          <Fragment key={index}>{whole}</Fragment>
        ),
      );
    }
    last = index + whole.length;
  }
  if (last < text.length) nodes.push(text.slice(last));
  return nodes;
}

export function Markdown({ source, className }: { source: string; className?: string }) {
  return (
    <div className={className}>
      {parseBlocks(source).map((block, i) => {
        const key = `${block.kind}-${i}`;
        if (block.kind === 'heading') {
          const Tag = block.level === 1 ? 'h2' : block.level === 2 ? 'h3' : 'h4';
          return (
            <Tag key={key} className="mt-4 font-semibold first:mt-0">
              {renderInline(block.text)}
            </Tag>
          );
        }
        if (block.kind === 'list') {
          const Tag = block.ordered ? 'ol' : 'ul';
          return (
            <Tag key={key} className={block.ordered ? 'mt-2 list-decimal ps-6' : 'mt-2 list-disc ps-6'}>
              {block.items.map((item, j) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: items are static text in document order.
                <li key={j}>{renderInline(item)}</li>
              ))}
            </Tag>
          );
        }
        return (
          <p key={key} className="mt-2">
            {renderInline(block.text)}
          </p>
        );
      })}
    </div>
  );
}
