export function browserPath(): string;
export function headlessShellPath(): string;
