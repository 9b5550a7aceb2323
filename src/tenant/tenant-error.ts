import type { TenantProblem } from '../../machines/app.machine';

export class TenantLoadError extends Error {
  constructor(readonly problem: TenantProblem) {
    super(`tenant: ${problem.kind}`);
  }
}
