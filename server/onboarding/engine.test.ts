import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrate } from '../db/migrate';
import { openPglite } from '../db/pglite';
import { basicEngine } from './engine';
import { loadEngine } from './engine-choice';
import { referenceEngine } from './reference/engine';
import { PROHIBITED_SEED, seedProhibitedList } from './seed';
import { linkAccount } from './store/registration';

describe('engine choice', () => {
  it('is the reference engine by default and for BIOMETRIC_ENGINE=reference', async () => {
    expect(await loadEngine({})).toBe(referenceEngine);
    expect(await loadEngine({ BIOMETRIC_ENGINE: 'reference' })).toBe(referenceEngine);
  });

  it('loads a module that provides createEngine()', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'engine-'));
    try {
      writeFileSync(
        join(dir, 'engine.mjs'),
        "export function createEngine() { return { name: 'custom', checkImage() {} }; }",
      );
      const engine = await loadEngine({ BIOMETRIC_ENGINE: 'engine.mjs' }, dir);
      expect(engine.name).toBe('custom');
      writeFileSync(join(dir, 'empty.mjs'), 'export const nothing = 1;');
      await expect(loadEngine({ BIOMETRIC_ENGINE: join(dir, 'empty.mjs') })).rejects.toThrow(
        /BiometricEngine/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('judges liveness only where it honestly can', async () => {
    const frame = {
      kind: 'lifeproof' as const,
      bytes: new Uint8Array(1),
      sharpness: { score: 50, blurred: false },
    };
    const at = new Date('2025-06-01T10:00:00Z');
    expect(
      (await basicEngine.checkLiveness({ frames: [], videos: 0, challenge: null, submittedAt: at })).result,
    ).toBe('failing');
    expect(
      (await basicEngine.checkLiveness({ frames: [frame], videos: 0, challenge: null, submittedAt: at }))
        .result,
    ).toBe('not_computed');
    expect(
      (await basicEngine.checkLiveness({ frames: [], videos: 1, challenge: null, submittedAt: at })).result,
    ).toBe('not_computed');
    const expired = { actions: ['blink'], expiresAt: new Date(at.getTime() - 1) };
    expect(
      (
        await basicEngine.checkLiveness({
          frames: [frame],
          videos: 0,
          challenge: expired,
          submittedAt: at,
        })
      ).result,
    ).toBe('failing');
  });
});

describe('database pieces', () => {
  it('seeds one prohibited entry per shipped tenant, once', async () => {
    const db = await openPglite('memory://');
    try {
      await migrate(db);
      for (let i = 0; i < 2; i++) {
        await db.transaction((tx) => seedProhibitedList(tx, 'gambling', { facilities: [] }));
        await db.transaction((tx) => seedProhibitedList(tx, 'unknown', { facilities: [] }));
      }
      const { rows } = await db.query<{ tenant: string; legal_domain: string; document_number: string }>(
        `select e.tenant, w.legal_domain, e.document_number from watchlist_entries e
          join watchlists w on w.tenant = e.tenant and w.watchlist_id = e.watchlist_id and w.current`,
      );
      expect(rows).toEqual([{ tenant: 'gambling', legal_domain: 'es-an', document_number: 'PROHIB001' }]);
      expect(PROHIBITED_SEED.demo?.legal_domain).toBe('es-demo');
    } finally {
      await db.close();
    }
  });

  it('links the IAM account of its own tenant only', async () => {
    const db = await openPglite('memory://');
    try {
      await migrate(db);
      const id = '5d0c7a4e-6c43-4a39-9d0b-9d8f6f1c3b11';
      await db.query(
        "insert into accounts (id, tenant, username) values ($1, 'gambling', 'ana'), ($1, 'demo', 'ana')",
        [id],
      );
      await linkAccount(db, 'gambling', id, 'ACS-1');
      await linkAccount(db, 'gambling', 'not-an-account', 'ACS-2');
      const { rows } = await db.query(
        'select tenant, enrolled, acs_id, onboarding_status from accounts order by tenant',
      );
      expect(rows).toEqual([
        { tenant: 'demo', enrolled: false, acs_id: null, onboarding_status: 'none' },
        { tenant: 'gambling', enrolled: true, acs_id: 'ACS-1', onboarding_status: 'completed' },
      ]);
    } finally {
      await db.close();
    }
  });
});
