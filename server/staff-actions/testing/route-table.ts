// The app's route table as the staff-action tests read it: every route with the permissions its requireAuth names
// and what its recordsStaffAction middleware records (server/staff-actions/routes.ts recordingOf). Built once on an
// app whose auth lets everything through and whose database is never asked.
import type { MiddlewareHandler } from 'hono';
import type { Permission } from '../../../contract/api/permissions';
import { createApp } from '../../app';
import type { ApiAuth } from '../../auth/verify';
import type { Db } from '../../db/db';
import { basicEngine } from '../../onboarding/engine';
import { PUBLIC_DIR } from '../../onboarding/testing/harness';
import { createSiteFixture, testDeps } from '../../testing/fixtures';
import { recordingOf, type StaffActionRecording } from '../routes';
import { isStaffPermission } from '../rules';

export interface TableRoute {
  route: string;
  permissions: Permission[];
  recording?: StaffActionRecording;
}

/** The app's routes with the permission strings each names and what each records. */
export function routeTable(): TableRoute[] {
  const site = createSiteFixture();
  const named = new WeakMap<object, Permission[]>();
  const auth: ApiAuth = {
    requireAuth: (...anyOf) => {
      const middleware: MiddlewareHandler = async (_c, next) => next();
      named.set(middleware, anyOf);
      return middleware;
    },
  };
  const app = createApp({
    ...testDeps({} as Db, site, { publicDir: PUBLIC_DIR }),
    auth,
    onboarding: { engine: basicEngine, production: false },
  });
  site.remove();
  const table = new Map<string, TableRoute>();
  for (const { method, path, handler } of app.routes) {
    const permissions = named.get(handler);
    const recording = recordingOf(handler);
    if (!permissions && !recording) continue;
    const route = `${method} ${path}`;
    const entry = table.get(route) ?? { route, permissions: [] };
    if (permissions) entry.permissions.push(...permissions);
    if (recording) entry.recording = recording;
    table.set(route, entry);
  }
  return [...table.values()];
}

/** The routes that name a staff permission, and of those the ones that record a staff action. */
export function staffRoutes(table = routeTable()) {
  const staff = table.filter((r) => r.permissions.some(isStaffPermission));
  return { table, staff, recording: staff.filter((r) => r.recording) };
}
