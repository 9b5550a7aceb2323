// The two parts of a catalogue (src/i18n/catalogue.ts, vite.config.ts's precompiled-messages).
declare module '*.json?first' {
  const messages: Record<string, string>;
  export default messages;
}
declare module '*.json?rest' {
  const messages: Record<string, string>;
  export default messages;
}
