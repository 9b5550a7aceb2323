/**
 * The portal speaks Spanish in one register, usted (an identity and administrative product). These are the forms
 * that only a text addressing the person as tú uses; a text in usted never holds one. Regular tú imperatives are the
 * same word as the usted present ("¿Acepta la visita?") and as a description ("Borra sus datos"), so they count only
 * where they start a sentence or follow a colon, and only the verbs the portal uses to give instructions.
 */
const letter = '\\p{L}';
const word = (w: string) => `(?<!${letter})${w}(?!${letter})`;

/** Tú pronouns, possessives and verb forms: wrong anywhere in a text. */
const ANYWHERE = [
  'tú',
  'tu',
  'tus',
  'te',
  'ti',
  'contigo',
  'tuy[oa]s?',
  'tienes',
  'tenías',
  'puedes',
  'podrás',
  'quieres',
  'estás',
  'eres',
  'has',
  'debes',
  'necesitas',
  'vas',
  'sabes',
  'volverás',
  'recibirás',
  'aceptas',
  'registras',
  'visitarte',
  'inténtalo',
  'hazte',
  'haz',
  'déjalo',
  'búscalas?',
  'amplíala',
  'consíguela',
];

/** Tú imperatives of the verbs the portal instructs with: wrong at the start of a sentence or after a colon. */
const COMMANDS = [
  'pulsa',
  'toca',
  'elige',
  'escribe',
  'comprueba',
  'revisa',
  'introduce',
  'indica',
  'sube',
  'muestra',
  'pide',
  'corrige',
  'escanea',
  'abre',
  'mira',
  'vuelve a',
];

/**
 * A tú command with its pronoun joined to it (Regístrate, Acércate: usted says Regístrese, Acérquese): a word with a
 * written accent ending in -te. Adverbs in -mente (rápidamente) and intérprete are not commands; usted's
 * Inténtelo ends in -telo, as tú's Inténtalo does, which is why only the pronoun te counts.
 */
const JOINED_COMMAND = new RegExp(
  `(?<!${letter})(?!\\p{L}*mente(?!${letter}))(?!intérprete)(\\p{L}*[áéíóú]\\p{L}*te)(?!${letter})`,
  'giu',
);

const PATTERNS = [
  ...ANYWHERE.map((w) => new RegExp(word(w), 'giu')),
  // At a sentence's start, after a colon, or after a comma ("Para confirmar, escribe…"); a description that puts one
  // of these verbs right after a comma ("el sistema, a su vez, revisa…") reads as a command here: word it otherwise.
  ...COMMANDS.map((w) => new RegExp(`(?:^|[.:;!,]\\s+)(${w})(?!${letter})`, 'giu')),
  JOINED_COMMAND,
];

/** The tú forms a Spanish text holds, in the order of the patterns (empty for a text in usted). */
export function tuFormsIn(text: string): string[] {
  return PATTERNS.flatMap((pattern) => [...text.matchAll(pattern)].map((m) => (m[1] ?? m[0]).trim()));
}

/** One line per text that uses tú: "<where> key <key> uses tú: «form», … in «text»". */
export function tuTexts(where: string, texts: Record<string, string>): string[] {
  return Object.entries(texts).flatMap(([key, text]) => {
    const forms = tuFormsIn(text);
    return forms.length === 0
      ? []
      : [`${where} key ${key} uses tú: ${forms.map((f) => `«${f}»`).join(', ')} in «${text}»`];
  });
}
