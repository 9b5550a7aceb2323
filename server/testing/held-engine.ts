// BIOMETRIC_ENGINE for a server a test runs as a child process (server/shutdown.test.ts): the basic engine, except
// that image checks wait for the process's first SIGUSR2 and face comparisons (the judgement after an upload's
// answer) for its second, each saying on stdout that it is held. The test then knows what is in flight from the
// child's own words, however slow the machine is.
import { type BiometricEngine, basicEngine } from '../onboarding/engine';

export const HELD_LINE = 'held engine: holding';

export function createEngine(): BiometricEngine {
  let signals = 0;
  const waiting: { after: number; resume: () => void }[] = [];
  process.on('SIGUSR2', () => {
    signals += 1;
    for (const waiter of waiting.filter((w) => w.after <= signals)) {
      waiting.splice(waiting.indexOf(waiter), 1);
      waiter.resume();
    }
  });
  const hold = async (what: string, after: number) => {
    if (signals >= after) return;
    process.stdout.write(`${HELD_LINE} ${what}\n`);
    await new Promise<void>((resume) => waiting.push({ after, resume }));
  };
  return {
    ...basicEngine,
    name: 'held',
    async checkImage(bytes, bounds) {
      await hold('checkImage', 1);
      return basicEngine.checkImage(bytes, bounds);
    },
    async compareFaces(input) {
      await hold('compareFaces', 2);
      return basicEngine.compareFaces(input);
    },
  };
}
