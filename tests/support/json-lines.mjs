// A file of one JSON value per line, as the suite's records keep them (step times, screen checks): the values in
// order, none when the file is missing; a line that does not parse (a run cut off while writing) is left out.
import { existsSync, readFileSync } from 'node:fs';

export function readJsonLines(file) {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .flatMap((line) => {
      try {
        return [JSON.parse(line)];
      } catch {
        return [];
      }
    });
}
