import { type MachineImplementations, registerMachines } from '../runtime/machines';

/**
 * A lazy area of screens whose screens start machines: it loads, beside them, the module that gives those machines
 * their real actors (src/app/machines/), and registers it before a screen renders.
 */
export const withMachines =
  <M>(screens: () => Promise<M>, machines: () => Promise<Partial<MachineImplementations>>) =>
  async (): Promise<M> => {
    const [module, implementations] = await Promise.all([screens(), machines()]);
    registerMachines(implementations);
    return module;
  };
