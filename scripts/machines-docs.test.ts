import { describe, expect, it } from 'vitest';
import { goodMachine } from './fixtures/machines/good.machine';
import { countTransitions, indexOf, markdownOf, mermaidOf } from './machines-docs';

describe('npm run machines', () => {
  const mermaid = mermaidOf(goodMachine);

  it('draws the machine as one composite state, nested and parallel states as composites with regions', () => {
    expect(mermaid.startsWith('stateDiagram-v2\n  state "good" as root\n  state root {\n')).toBe(true);
    expect(mermaid).toContain('state working {');
    expect(mermaid).toMatch(/state working_fetch \{[\s\S]*\n\s+--\n\s+state "hint" as working_hint/);
    expect(mermaid).toContain('[*] --> start');
    expect(mermaid).toContain('failed --> [*]');
  });

  it('shows screens, error codes and invoked actors on the states', () => {
    expect(mermaid).toContain('start : screen Start');
    expect(mermaid).toContain('failed : screen Failed');
    expect(mermaid).toContain('failed : errorCode thing_unavailable');
    expect(mermaid).toContain('working_fetch_fetching : invokes fetchThing');
  });

  it('labels transitions with events, guards (with literal params), delays and actor results', () => {
    expect(mermaid).toContain('start --> working : thing.fetch [hasLevel 2]');
    expect(mermaid).toContain('working_fetch_fetching --> failed : error fetchThing [isLastTry]');
    expect(mermaid).toContain('working_fetch_fetching --> done : done fetchThing');
    expect(mermaid).toContain('working_fetch_waiting --> working_fetch_fetching : after retryDelay');
    expect(mermaid).toContain('working_hint_hidden --> working_hint_shown : hint.show');
  });

  it('writes the page GitHub renders, and the index', () => {
    const page = markdownOf(goodMachine, 'scripts/fixtures/machines/good.machine.ts');
    expect(page).toContain(`\`\`\`mermaid\n${mermaid}\`\`\``);
    expect(page).toContain('| `failed` | final | Failed | errorCode `thing_unavailable` |  |');
    expect(countTransitions(goodMachine)).toBe(7);
    expect(indexOf([{ machine: goodMachine, file: 'x.machine.ts' }])).toContain(
      '| [good](good.md) | [`x.machine.ts`](../../x.machine.ts) | 10 | 7 | Fetches a thing',
    );
  });
});
