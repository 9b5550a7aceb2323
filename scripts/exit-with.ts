/** Ends the process with the code `run` resolves to; a failure is one line on stderr (no stack) and exit 1. */
export function exitWith(what: string, run: () => Promise<number>): void {
  run().then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`${what} failed: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
