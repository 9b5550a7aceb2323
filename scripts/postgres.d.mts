export function postgresBinDir(): string | undefined;
export function freePort(from?: number, to?: number): Promise<number>;
export interface ThrowawayPostgres {
  port: number;
  dir: string;
  adminUrl: string;
  url(db?: string): string;
  stop(): void;
}
export function startThrowawayPostgres(options?: {
  port?: number;
  maxConnections?: number;
}): Promise<ThrowawayPostgres>;
