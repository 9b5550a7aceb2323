// The portal's catalogues as the app formats them: each text parsed into its ICU syntax tree where the catalogue is
// built (vite.config.ts, the bundle's parts) or served (server/shell.ts: the first part in the page), never on the
// phone. Build and server only: the app is given the trees, never this module nor the parser.
import { type MessageFormatElement, parse } from '@formatjs/icu-messageformat-parser';
import { isFirstScreenMessage } from './first-screen';

/** `first`: the texts the first screens draw (src/i18n/first-screen.ts); `rest`: the others; none: all of them. */
export type CataloguePart = 'first' | 'rest';

/** A catalogue's texts (id → ICU text) as syntax trees, the part named only. */
export function catalogueTrees(
  messages: Readonly<Record<string, string>>,
  part?: CataloguePart,
): Record<string, MessageFormatElement[]> {
  return Object.fromEntries(
    Object.entries(messages)
      .filter(([id]) => !part || isFirstScreenMessage(id) === (part === 'first'))
      .map(([id, text]) => [id, parse(text)]),
  );
}
