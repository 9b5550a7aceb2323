// Which engine the server runs: chosen here, apart from engine.ts, because the reference engine builds on the
// basic one (engine.ts) and this module loads both.
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type BiometricEngine, basicEngine } from './engine';

/**
 * BIOMETRIC_ENGINE=reference (the default) or the path of a module whose `createEngine()` (or default export)
 * returns a BiometricEngine.
 */
export async function loadEngine(
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): Promise<BiometricEngine> {
  const choice = env.BIOMETRIC_ENGINE?.trim();
  if (!choice || choice === 'reference') return (await import('./reference/engine')).referenceEngine;
  if (choice === 'basic') return basicEngine;
  const url = choice.startsWith('file:')
    ? choice
    : pathToFileURL(isAbsolute(choice) ? choice : resolve(cwd, choice)).href;
  const module = (await importEngineModule(url)) as {
    createEngine?: () => BiometricEngine | Promise<BiometricEngine>;
    default?: unknown;
  };
  const engine = module.createEngine ? await module.createEngine() : module.default;
  if (!engine || typeof (engine as BiometricEngine).checkImage !== 'function') {
    throw new Error(`BIOMETRIC_ENGINE module ${choice} does not provide a BiometricEngine`);
  }
  return engine as BiometricEngine;
}

/**
 * An engine module may be TypeScript. Under tsx it imports as it is; the bundle npm start runs has no TypeScript
 * loader, so one is registered the first time Node refuses the file's extension.
 */
async function importEngineModule(url: string): Promise<unknown> {
  try {
    return await import(url);
  } catch (error) {
    if ((error as { code?: string }).code !== 'ERR_UNKNOWN_FILE_EXTENSION') throw error;
    const { register } = await import('tsx/esm/api');
    register();
    return await import(url);
  }
}
