export function readJsonLines(file: string): unknown[];
